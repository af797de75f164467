"""Who is in a round: its students as rows, and as the state machine sees them."""

from collections import Counter

from sqlalchemy import func, select

from webapp.extensions import db
from webapp.games.rounds import StudentState
from webapp.models import Student


def active_students(rnd):
    """Return the round's students who have not been removed, in joining order."""
    return db.session.scalars(select(Student).where(Student.round_id == rnd.id, Student.removed.is_(False))
                              .order_by(Student.id)).all()


def every_student(rnd):
    """Return all the round's students, removed ones too, in joining order: rows, as a round's snapshot holds them
    (a teacher's page of 1,000 students need not make 1,000 ORM objects)."""
    students = Student.__table__
    return db.session.execute(select(students).where(students.c.round_id == rnd.id).order_by(students.c.id)).all()


def team_sizes(rnd):
    """Return Counter({team: students in it}) of the round's students still in (one count per team, not the rows)."""
    return Counter(dict(db.session.execute(
        select(Student.team, func.count(Student.id)).where(Student.round_id == rnd.id, Student.removed.is_(False))
        .group_by(Student.team)).all()))


def count_students(rnd):
    """Return how many students are in the round (removed ones left out)."""
    return db.session.scalar(students_in(rnd.id))


def places(round_id):
    """Return the name the round's places are counted under (webapp.common.limits.take_place)."""
    return f"round-{round_id}"


def students_in(round_id):
    """Return the query counting the round's students still in."""
    return select(func.count(Student.id)).where(Student.round_id == round_id, Student.removed.is_(False))


def counted(round_id):
    """Return the count of the round's students still in, as part of a statement (a scalar subquery)."""
    return students_in(round_id).scalar_subquery()


def as_student(student):
    """Return a student row as the state machine sees it."""
    return StudentState(student.id, student.team, student.removed, student.extra_seconds)


def class_of(rnd):
    """Return every student of the round (removed ones too), in joining order, as the machine sees them."""
    rows = db.session.execute(select(Student.id, Student.team, Student.removed, Student.extra_seconds)
                              .where(Student.round_id == rnd.id).order_by(Student.id)).all()
    return [StudentState(*row) for row in rows]


def captain(rnd, team):
    """Return the team's captain: its first member still in the round."""
    return next((s for s in active_students(rnd) if s.team == team), None)
