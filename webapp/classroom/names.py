"""The nickname rule as a round applies it: never the teacher's own name, and only dino names when the teacher asks."""

from webapp.common import dino_names, nicknames
from webapp.extensions import db
from webapp.models import Teacher


def teachers_names(rnd):
    """Return the names of the round's teacher (one, or none if the account is gone)."""
    teacher = db.session.get(Teacher, rnd.teacher_id)
    return [teacher.name] if teacher is not None else []


def nickname_problem(rnd, nickname):
    """Return why a student of the round may not be called `nickname` (the teacher renaming them), or None."""
    return nicknames.problem(nickname, teachers_names(rnd))


def join_problem(rnd, nickname):
    """Return why a student may not join the round as `nickname`, or None: a round of dino names takes only those."""
    if dino_names.required(rnd.settings) and dino_names.as_made(nickname) is None:
        return dino_names.ONLY_DINO_NAMES
    return nickname_problem(rnd, nickname)
