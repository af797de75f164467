"""The encyclopedia's forms: card filters (pages, API and charts) and mistake reports."""

from flask_wtf import FlaskForm
from wtforms import FloatField, IntegerField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange, Optional, ValidationError

from cards_db import schema
from webapp.common.forms import blank_or_choice, diet_options, finite, group_options, options, period_options

SORTS = {
    "name": "Name",
    "scientific_name": "Scientific name",
    "length": "Size",
    "mass": "Weight",
    "lifespan": "Lifespan",
    "age": "When it lived",
}
MAX_PAGE = 10_000


class CardFilterForm(FlaskForm):
    """Search, filter, sort and page through the cards (read from the query string)."""

    class Meta:
        csrf = False

    q = StringField("Name", validators=[Optional(), Length(max=100)])
    deck = SelectField("Deck", validators=[blank_or_choice])
    period = SelectField("Period", validators=[blank_or_choice])
    diet = SelectField("Diet", validators=[blank_or_choice])
    group = SelectField("Group", validators=[blank_or_choice])
    continent = SelectField("Where", choices=options(((c, c) for c in schema.LISTS["continents"]), "Anywhere"),
                            validators=[blank_or_choice])
    habitat = SelectField("Habitat", choices=options(((h, h.capitalize()) for h in schema.LISTS["habitat"]),
                                                     "Any habitat"), validators=[blank_or_choice])
    min_length = FloatField("Size from (m)", validators=[Optional(), finite, NumberRange(min=0, max=1000)])
    max_length = FloatField("Size to (m)", validators=[Optional(), finite, NumberRange(min=0, max=1000)])
    min_mass = FloatField("Weight from (kg)", validators=[Optional(), finite, NumberRange(min=0, max=1e6)])
    max_mass = FloatField("Weight to (kg)", validators=[Optional(), finite, NumberRange(min=0, max=1e6)])
    sort = SelectField("Sort by", choices=options(SORTS.items()), default="name", validators=[blank_or_choice])
    order = SelectField("Order", choices=options([("asc", "Ascending"), ("desc", "Descending")]),
                        default="asc", validators=[blank_or_choice])
    page = IntegerField("Page", default=1, validators=[Optional(), NumberRange(min=1, max=MAX_PAGE)])
    per_page = IntegerField("Cards per page", default=24,
                            validators=[Optional(), NumberRange(min=1, max=100)])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.deck.choices = options(schema.DECKS.items(), "Both decks")
        self.period.choices = period_options()
        self.diet.choices = diet_options()
        self.group.choices = group_options()

    def validate_max_length(self, field):
        if field.data is not None and self.min_length.data is not None and field.data < self.min_length.data:
            raise ValidationError("The largest size must not be below the smallest.")

    def validate_max_mass(self, field):
        if field.data is not None and self.min_mass.data is not None and field.data < self.min_mass.data:
            raise ValidationError("The largest weight must not be below the smallest.")

    def error_messages(self):
        """Return every error as one sentence per field, for the API."""
        return {name: " ".join(errors) for name, errors in self.errors.items()}


class MistakeReportForm(FlaskForm):
    """Tell us that something on a card is wrong."""

    field = SelectField("What is wrong?", choices=options([
        ("name", "A name"), ("diet", "The diet"), ("period", "When it lived"), ("size", "The size"),
        ("mass", "The weight"), ("lifespan", "The lifespan"), ("status", "The extinction risk"),
        ("fact", "The fact"), ("picture", "The picture"), ("sources", "The sources"),
        ("other", "Something else"),
    ]), validators=[DataRequired()])
    message = TextAreaField("Describe the mistake", validators=[
        DataRequired(message="Please say what is wrong."),
        Length(min=10, max=2000, message="Please write between 10 and 2000 characters."),
    ])
    suggested_source = StringField("A source for the correct value (optional)",
                                   validators=[Optional(), Length(max=500)])
    submit = SubmitField("Send report")
