"""The tricky cards' forms: start a practice dealt by the scheduler, see the progress (both carry the history), and
link this browser to a pupil on a class list (or unlink it) to keep the history on the school's server."""

import json
from datetime import UTC, datetime

from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, StringField, SubmitField
from wtforms.validators import InputRequired, Length, NumberRange, ValidationError

from webapp.common.forms import DeckForm
from webapp.tricky import schedule

HISTORY_CHARS = 200_000  # about 1,000 placements as tricky.js writes them


class HistoryForm(FlaskForm):
    """A history of placements kept in this browser, posted as JSON (empty without JavaScript)."""

    history = HiddenField(validators=[Length(max=HISTORY_CHARS, message="The history is too long to send.")])

    def validate_history(self, field):
        try:
            raw = json.loads(field.data) if field.data else []
            field.placements = schedule.parse_history(raw, datetime.now(UTC))
            if "\\u0000" in (field.data or ""):  # the only way JSON writes one; PostgreSQL cannot store it
                raise schedule.BadHistory("A placement holds a NUL character.")
        except (ValueError, RecursionError) as error:
            message = str(error) if isinstance(error, schedule.BadHistory) else "The history is not valid JSON."
            raise ValidationError(f"This browser's history of your cards could not be read: {message}") from error


class TrickyForm(DeckForm, HistoryForm):
    """Start "Practise my tricky cards": a deck, what to sort by, how many cards."""

    count = IntegerField("Number of cards", default=10, validators=[
        InputRequired(), NumberRange(min=3, max=20, message="Choose between 3 and 20 cards.")])
    submit = SubmitField("★ Practise my tricky cards")


class ProgressForm(HistoryForm):
    """Show the progress page for this browser's history."""

    submit = SubmitField("See my progress")


class KeptForm(HistoryForm):
    """Merge this browser's history into the pupil's kept on the server, and get the merged one back."""


class LinkForm(FlaskForm):
    """Link this browser to a pupil on a class list with the personal code on their slip."""

    personal_code = StringField("Your personal code (on your slip)", validators=[
        InputRequired(message="Type the personal code on your slip."),
        Length(max=8, message="A personal code has 6 characters.")],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"})
    submit = SubmitField("Keep my tricky cards on the school's server")


class UnlinkForm(FlaskForm):
    """Stop keeping this browser's tricky cards on the server for its pupil."""

    submit = SubmitField("Stop keeping them here")

