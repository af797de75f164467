"""The timeline's forms: keep the cards shown as one of a teacher's card sets, and name a set again."""

from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField
from wtforms.validators import DataRequired, InputRequired, Length


def stripped(text):
    """Return the text without spaces around it (a name of spaces alone is no name)."""
    return text.strip() if isinstance(text, str) else text


class CardSetNameForm(FlaskForm):
    """Name (or rename) a card set."""

    name = StringField("Name of the set", filters=[stripped],
                       validators=[DataRequired(message="Give the set a name."),
                                   Length(max=80, message="Use at most 80 characters.")])
    submit = SubmitField("Rename the set")


class CardSetForm(CardSetNameForm):
    """Keep the cards on the timeline as one of the teacher's card sets."""

    slugs = StringField(validators=[InputRequired(message="There are no cards to save."), Length(max=5000)])
    submit = SubmitField("Save as one of my card sets")
