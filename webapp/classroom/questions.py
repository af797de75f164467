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
    question.answer = answer  # the right option of a choice; None for a put-in-order question
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
    explanation."""
    options = [{"id": f"t{question.id}o{i}", "text": text} for i, text in enumerate(question.options)]
    return {"kind": "bank", "prompt": question.prompt, "explanation": question.explanation or
            "Your teacher wrote this question.", **IN_QUIZ[question.kind](question, options)}


def choice_in_quiz(question, options):
    """A multiple-choice question asks its options as written; the right one is marked."""
    return {"options": options, "order": False, "answer": options[question.answer]["id"]}


def order_in_quiz(question, options):
    """A put-in-order question shows its items shuffled, never in the right order; the right order is kept."""
    shown = options[:]
    rng = random.Random(question.id)
    while shown == options:
        rng.shuffle(shown)
    return {"options": shown, "order": True, "answer": [o["id"] for o in options]}


IN_QUIZ = {"choice": choice_in_quiz, "order": order_in_quiz}
ANSWER_WORDS = {"choice": lambda question: question.options[question.answer],
                "order": lambda question: " → ".join(question.options)}


def answer_words(question):
    """Say a question's answer as the teacher's pages show it: the right option, or the items in order."""
    return ANSWER_WORDS[question.kind](question)
