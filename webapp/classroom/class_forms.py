"""Forms for classes: a new class with its roster, more pupils, a pupil's new name."""

from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField, TextAreaField
from wtforms.validators import InputRequired, Length, ValidationError

from webapp.classroom.classes import MAX_PUPILS, name_problems, roster_names

ROSTER_HELP = ("One pupil per line (or separated by commas), as you would paste them from a spreadsheet. Only a "
               "first name and an initial are kept: \"Ava Kowalski\" becomes \"Ava K.\". Nothing else is asked of "
               "a child.")


def check_roster(form, field):
    """Refuse an empty list, too many names, or names that are unusable or already in the class."""
    names = roster_names(field.data)
    if not names:
        raise ValidationError("List at least one pupil.")
    if len(names) > MAX_PUPILS:
        raise ValidationError(f"A class holds at most {MAX_PUPILS} pupils; this list has {len(names)}.")
    problems = name_problems(names, getattr(form, "taken_names", ()))
    if problems:
        raise ValidationError(" ".join(problems[:5]) + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""))


class NewClassForm(FlaskForm):
    """Create a class and its roster."""

    name = StringField("Name of the class", validators=[InputRequired(message="Give the class a name, like 7B."),
                                                         Length(max=60, message="Use at most 60 characters.")])
    roster = TextAreaField("Pupils", description=ROSTER_HELP,
                           validators=[InputRequired(message="List at least one pupil."),
                                       Length(max=5000, message="That list is too long."), check_roster])
    submit = SubmitField("Create the class")


class AddPupilsForm(FlaskForm):
    """Add pupils to a class."""

    roster = TextAreaField("Add pupils", description=ROSTER_HELP,
                           validators=[InputRequired(message="List at least one pupil."),
                                       Length(max=5000, message="That list is too long."), check_roster])
    submit = SubmitField("Add them")

    def __init__(self, *args, taken_names=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.taken_names = taken_names
