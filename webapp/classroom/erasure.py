"""Deleting children's and teachers' data for good: a removed student's, a pupil's, a round's, a class's, a
teacher's account with everything in it, and games.

Every function here deletes rows in the session without committing, except those that say they commit, so that a
bigger erasure (a teacher's account) happens in one transaction: all of it, or none.
"""

from sqlalchemy import delete, func, select

from webapp.classroom.roster import places
from webapp.common import limits
from webapp.extensions import db
from webapp.models import (
    Answer,
    CardSet,
    Game,
    JoinCode,
    Pupil,
    PupilDevice,
    PupilPlacement,
    Round,
    SchoolClass,
    Student,
    Teacher,
    TeacherQuestion,
    TeacherSession,
)

# What a removed student is called from then on: their own name is erased, and nothing shows a removed student.
REMOVED_NICKNAME = "(removed)"


def erase_games(game_ids):
    """Delete games and their join codes (the codes are free again)."""
    game_ids = [game_id for game_id in game_ids if game_id]
    if game_ids:
        db.session.execute(delete(JoinCode).where(JoinCode.game_id.in_(game_ids)))
        db.session.execute(delete(Game).where(Game.id.in_(game_ids)))


def erase_students(which):
    """Delete the students `which` (a condition on Student) selects, with their answers and homework games."""
    limits.recount_places(places(round_id) for round_id in db.session.scalars(
        select(Student.round_id).where(which).distinct()))
    games = list(db.session.scalars(select(Student.game_id).where(which, Student.game_id.is_not(None))))
    db.session.execute(delete(Answer).where(Answer.student_id.in_(select(Student.id).where(which))))
    db.session.execute(delete(Student).where(which))
    erase_games(games)


def forget_student(student):
    """Take a student out of their round and erase what they gave at once: their answers, their homework game and
    their nickname. The row stays, nameless, so the device holding its cookie (or the pupil with their personal
    code) keeps being told they were taken out."""
    limits.recount_places([places(student.round_id)])
    db.session.execute(delete(Answer).where(Answer.student_id == student.id))
    erase_games([student.game_id])
    student.removed, student.game_id, student.rejoin_code_hash = True, None, None
    # The key must stay unique in the round and can never be a typed nickname's ("#" is not allowed in one).
    student.nickname, student.nickname_key = REMOVED_NICKNAME, f"#removed-{student.id}"


def erase_rounds(round_ids):
    """Delete rounds with their students, answers and homework games (their join codes are free again)."""
    round_ids = list(round_ids)
    if round_ids:
        erase_students(Student.round_id.in_(round_ids))
        db.session.execute(delete(Round).where(Round.id.in_(round_ids)))


def delete_round(rnd):
    """Delete a round with its students, their answers and their homework games; commit."""
    erase_rounds([rnd.id])
    db.session.commit()


def erase_pupils(pupil_ids):
    """Delete pupils and everything of theirs: their students in every round, answers and homework games, their
    tricky cards kept on the server and the browsers linked to keep them."""
    pupil_ids = list(pupil_ids)
    if pupil_ids:
        erase_students(Student.pupil_id.in_(pupil_ids))
        for model in (PupilPlacement, PupilDevice):
            db.session.execute(delete(model).where(model.pupil_id.in_(pupil_ids)))
        db.session.execute(delete(Pupil).where(Pupil.id.in_(pupil_ids)))


def erase_classes(class_ids):
    """Delete classes: their pupils and all their data, and the rounds held for them with every answer in them."""
    class_ids = list(class_ids)
    if class_ids:
        erase_rounds(db.session.scalars(select(Round.id).where(Round.class_id.in_(class_ids))))
        erase_pupils(db.session.scalars(select(Pupil.id).where(Pupil.class_id.in_(class_ids))))
        db.session.execute(delete(SchoolClass).where(SchoolClass.id.in_(class_ids)))


def delete_class(school_class):
    """Delete a class with its pupils, its rounds and all their data; commit."""
    erase_classes([school_class.id])
    db.session.commit()


def delete_teacher(teacher):
    """Delete a teacher's account with everything in it: rounds (students, answers, homework games), classes
    (pupils), questions, card sets and logged-in browsers; commit."""
    mine = teacher.id
    erase_rounds(db.session.scalars(select(Round.id).where(Round.teacher_id == mine)))
    erase_classes(db.session.scalars(select(SchoolClass.id).where(SchoolClass.teacher_id == mine)))
    for model in (TeacherQuestion, CardSet, TeacherSession):
        db.session.execute(delete(model).where(model.teacher_id == mine))
    db.session.execute(delete(Teacher).where(Teacher.id == mine))
    db.session.commit()


def account_contents(teacher):
    """Return what deleting the teacher's account deletes: (count, the thing, things) for each kind of row."""
    mine = teacher.id
    rounds = select(Round.id).where(Round.teacher_id == mine)
    classes = select(SchoolClass.id).where(SchoolClass.teacher_id == mine)
    kinds = [
        (select(func.count()).where(Round.teacher_id == mine), "round", "rounds"),
        (select(func.count()).where(Student.round_id.in_(rounds)), "student who joined them",
         "students who joined them"),
        (select(func.count()).where(Answer.round_id.in_(rounds)), "answer", "answers"),
        (select(func.count()).where(SchoolClass.teacher_id == mine), "class", "classes"),
        (select(func.count()).where(Pupil.class_id.in_(classes)), "pupil on their lists", "pupils on their lists"),
        (select(func.count()).where(PupilPlacement.pupil_id.in_(select(Pupil.id).where(Pupil.class_id.in_(classes)))),
         "tricky card placement kept for their pupils", "tricky card placements kept for their pupils"),
        (select(func.count()).where(TeacherQuestion.teacher_id == mine), "question", "questions"),
        (select(func.count()).where(CardSet.teacher_id == mine), "card set", "card sets"),
    ]
    return [(db.session.scalar(query), one, many) for query, one, many in kinds]
