"""The timeline's form: save the cards shown as a named set."""

from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField
from wtforms.validators import InputRequired, Length


class CardSetForm(FlaskForm):
    """Save the cards on the timeline as a named set."""

    name = StringField("Name of the set", validators=[InputRequired(message="Give the set a name."),
                                                      Length(max=80, message="Use at most 80 characters.")])
    slugs = StringField(validators=[InputRequired(message="There are no cards to save."), Length(max=5000)])
    submit = SubmitField("Save these cards")
