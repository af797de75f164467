"""Using a round again: duplicate it, edit it before anyone joins, archive or delete it, share its set-up.

A copy takes the round's set-up (title, format, settings, the same cards or questions) and never its students or
their answers; it gets a new join code and its own lobby.
"""


from sqlalchemy import func, select

from webapp.classroom import erasure, rounds
from webapp.classroom.clock import now
from webapp.classroom.formats import FORMATS, format_of
from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import CardSet, Round, Student

# What a round's life adds to its settings, and a homework's dates (past by the time it is copied): a copy starts
# without them.
LIFE_SETTINGS = ("locked", "timer_on", "elapsed_when_off", "closed_on_time", "rejoin", "opens_at", "closes_at",
                 "seed")


def set_up_of(rnd):
    """Return the settings a copy of the round starts from."""
    return {key: value for key, value in rnd.settings.items() if key not in LIFE_SETTINGS}


def copy_round(rnd, teacher, title=None, class_id=None):
    """Make a new round in `teacher`'s lobby with the round's set-up and the same cards (or questions)."""
    fmt = format_of(rnd)
    settings = set_up_of(rnd)
    if settings.get("set_id") and rnd.teacher_id != teacher.id:
        settings["set_id"] = own_copy_of_set(settings["set_id"], teacher).id
    values = fmt.copy_values(rnd, lambda: rounds.chosen_values(teacher, settings))
    return rounds.create_round(teacher, title or rnd.title, rnd.format, settings, class_id,
                               seed=rnd.settings.get("seed"), values=values)


def own_copy_of_set(set_id, teacher):
    """Return a copy of a colleague's card set for `teacher` (a shared round's cards come with it)."""
    original = db.session.get(CardSet, set_id)
    if original is None:
        raise AppError(409, "The card set this round used has been deleted, so it cannot be copied.")
    copy = CardSet(name=original.name, slugs=list(original.slugs), teacher_id=teacher.id)
    db.session.add(copy)
    db.session.flush()
    return copy


def duplicate(rnd, teacher):
    """Make a copy of the teacher's round for them ("Weights (copy)"), for the same class."""
    return copy_round(rnd, teacher, title=copy_title(rnd.title), class_id=rnd.class_id)


def copy_title(title):
    """Return the title a copy gets."""
    return title if title.endswith("(copy)") else f"{title[:113]} (copy)"


def students_in(rnd):
    """Return how many students the round has, removed ones too."""
    return db.session.scalar(select(func.count(Student.id)).where(Student.round_id == rnd.id))


def why_not_edit(rnd):
    """Return why the round's set-up cannot be changed now, or None."""
    if rnd.status != "lobby":
        return "Only a round that has not started can be changed: duplicate it instead (same settings, a new code)."
    if students_in(rnd):
        return "Students have joined this round, so its set-up stays as they saw it: duplicate it instead."
    return None


def edit(rnd, teacher, title, round_format, settings, class_id):
    """Change a round's set-up before anyone joins (new cards are dealt)."""
    reason = why_not_edit(rnd)
    if reason:
        raise AppError(409, reason)
    rnd.title, rnd.class_id = title, class_id
    rounds.set_up(rnd, teacher, round_format, settings)
    db.session.commit()


def archive(rnd, archived):
    """Put the round away from the dashboard's list (or back)."""
    rnd.archived_at = now() if archived else None
    db.session.commit()


def delete_round(rnd):
    """Delete a round with its students, their answers and their homework games."""
    erasure.delete_round(rnd)


def shared_round(code):
    """Return the round a share code points to, or a 404."""
    rnd = db.session.scalar(select(Round).where(Round.share_code == (code or "")[:16])) if code else None
    if rnd is None or rnd.format not in FORMATS:
        raise AppError(404, "No round is shared with that code: check the link your colleague sent.")
    return rnd
