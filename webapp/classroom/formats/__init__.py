"""The registry of classroom round formats: one object per format, looked up by the stored round's format.

Adding a format: an engine in webapp/games/ (the ClassEngine protocol in webapp/games/protocol.py, or a game's
Engine), a format object here (a module of its own, registered in FORMATS) and its templates, the partials
that ``partial(viewer)`` names. The generic round views, templates and reports reach it only through FORMATS.
"""

from webapp.classroom.formats.class_diet import DietSort
from webapp.classroom.formats.class_line import ClassLine
from webapp.classroom.formats.homework import Homework
from webapp.classroom.formats.quiz import LiveQuiz
from webapp.classroom.formats.quiz_homework import QuizHomework
from webapp.classroom.formats.team import TeamRound

FORMATS = {each.name: each for each in (ClassLine(), DietSort(), LiveQuiz(), TeamRound(), Homework(), QuizHomework())}


def format_of(rnd):
    """Return the format object of a stored round (or of a polled round row)."""
    return FORMATS[rnd.format]
