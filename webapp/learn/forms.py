"""A lesson's quiz run live: how many questions, how long each, and whether the class sees a leaderboard."""

from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, SelectField
from wtforms.validators import NumberRange, StopValidation

from webapp.common import dino_names
from webapp.common.forms import options


def given(message):
    """Refuse a field left without a whole number (0 counts: it means no timer)."""

    def check(form, field):
        if field.data is None:
            raise StopValidation(message)
    return check


class LiveQuizForm(FlaskForm):
    """Choose a live quiz's length, timer and leaderboard (the lesson's own values by default)."""

    count = IntegerField("Questions", validators=[given("Say how many questions, as a whole number."),
                                                  NumberRange(min=3, max=20, message="Ask 3 to 20 questions.")])
    turn_seconds = IntegerField("Seconds per question (0 = no timer)", validators=[
        given("Say how many seconds, as a whole number."), NumberRange(min=0, max=600, message="Use 0 to 600 seconds.")])
    leaderboard = SelectField("Leaderboard", choices=options([
        ("every", "After every question"), ("end", "Only at the end"), ("never", "Never")]))
    dino_names = BooleanField(dino_names.SETTING_LABEL)
