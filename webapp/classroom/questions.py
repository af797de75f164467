"""Questions a teacher writes: kept with the teacher, used again in live quizzes and solo quizzes, shared by a link.

A question is turned into the quiz's question format (webapp.games.trivia) only when a quiz is made, so editing
it later never changes a quiz already played.
"""

import random

from sqlalchemy import select

from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import TeacherQuestion

KINDS = {"choice": "Multiple choice", "order": "Put in order"}


def teacher_questions(teacher, kind=None):
    """Return the teacher's questions (of one kind), newest first."""
    query = select(TeacherQuestion).where(TeacherQuestion.teacher_id == teacher.id)
    if kind:
        query = query.where(TeacherQuestion.kind == kind)
    return db.session.scalars(query.order_by(TeacherQuestion.id.desc())).all()


def teacher_question(question_id, teacher):
    """Return one of the teacher's questions (404 for none, 403 for another teacher's)."""
    question = db.session.get(TeacherQuestion, question_id)
    if question is None:
        raise AppError(404, "There is no question with that number.")
    if question.teacher_id != teacher.id:
        raise AppError(403, "This question belongs to another teacher.")
    return question


def save(question, teacher, kind, prompt, options, answer, explanation):
    """Store a new or changed question of the teacher's."""
    question = question or TeacherQuestion(teacher_id=teacher.id)
    question.kind, question.prompt, question.options = kind, prompt.strip(), [o.strip() for o in options]
    question.answer = answer if kind == "choice" else None
    question.explanation = (explanation or "").strip()
    db.session.add(question)
    db.session.commit()
    return question


def delete(question):
    """Delete a question (quizzes already made keep their copy of it)."""
    db.session.delete(question)
    db.session.commit()


def shared_question(code):
    """Return the question a share code points to, or a 404."""
    question = db.session.scalar(select(TeacherQuestion).where(TeacherQuestion.share_code == (code or "")[:16]))
    if question is None:
        raise AppError(404, "No question is shared with that code: check the link your colleague sent.")
    return question


def copy_for(question, teacher):
    """Copy a colleague's question into the teacher's own questions."""
    return save(None, teacher, question.kind, question.prompt, list(question.options), question.answer,
                question.explanation)


def as_quiz_question(question):
    """Return the question in the quiz's format: options with ids, the right one (or the right order), its
    explanation; a put-in-order question's items are shuffled (never shown in the right order)."""
    options = [{"id": f"t{question.id}o{i}", "text": text} for i, text in enumerate(question.options)]
    explanation = question.explanation or "Your teacher wrote this question."
    if question.kind == "choice":
        return {"kind": "bank", "prompt": question.prompt, "options": options, "order": False,
                "answer": options[question.answer]["id"], "explanation": explanation}
    shown = options[:]
    rng = random.Random(question.id)
    while shown == options:
        rng.shuffle(shown)
    return {"kind": "bank", "prompt": question.prompt, "options": shown, "order": True,
            "answer": [o["id"] for o in options], "explanation": explanation}
