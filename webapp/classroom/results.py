"""What a round leaves behind: every answer, the leaderboard, each card's report, homework scores, past rounds."""

import pandas as pd
from sqlalchemy import case, func, select

from webapp.classroom.rounds import active_students
from webapp.extensions import db
from webapp.games import classline, livequiz
from webapp.models import Answer, Card, Game, Round, Student
from webapp.play.store import observe


def answers_frame(rnd):
    """Return every answer of the round with the student's nickname and the card's name (pandas)."""
    rows = db.session.execute(
        select(Answer.turn, Student.nickname, Student.team, Answer.card, Card.common_name, Answer.gap,
               Answer.correct, Answer.seconds)
        .join(Student, Student.id == Answer.student_id).outerjoin(Card, Card.slug == Answer.card)
        .where(Answer.round_id == rnd.id).order_by(Answer.turn, Answer.id)).all()
    frame = pd.DataFrame(rows, columns=["turn", "nickname", "team", "card", "animal", "gap", "correct", "seconds"])
    if rnd.format == "quiz":
        # A live quiz's answers are about questions: name them, and give the option chosen in words.
        questions = livequiz.question_texts(rnd.state)
        frame["animal"] = frame["card"].map(lambda qid: questions[qid]["prompt"])
        frame["gap"] = [questions[q]["options"][g]["text"] for q, g in zip(frame["card"], frame["gap"], strict=True)]
        frame = frame.rename(columns={"card": "question_id", "animal": "question", "gap": "answer"})
    return frame


def self_paced_frame(rnd):
    """Return each student's self-paced result: score, out of, best streak (pandas)."""
    rows = []
    for student in active_students(rnd):
        game = db.session.get(Game, student.game_id) if student.game_id else None
        observation = observe(game, 0) if game else None
        result = observation["result"] if observation else None
        rows.append({"nickname": student.nickname, "answered": len(observation["answers"]) if observation else 0,
                     "score": result["score"] if result else None, "out_of": result["out_of"] if result else None,
                     "best_streak": result["best_streak"] if result else None, "finished": bool(result)})
    return pd.DataFrame(rows, columns=["nickname", "answered", "score", "out_of", "best_streak", "finished"])


def leaderboard(rnd):
    """Return students ranked by points (right answers), with accuracy and speed kept apart."""
    totals = {row.student_id: row for row in db.session.execute(
        select(Answer.student_id, func.count(Answer.correct).label("judged"),
               func.sum(case((Answer.correct.is_(True), 1), else_=0)).label("right"),
               func.avg(Answer.seconds).label("seconds"))
        .where(Answer.round_id == rnd.id).group_by(Answer.student_id))}
    board = []
    for student in active_students(rnd):
        row = totals.get(student.id)
        judged, right = (row.judged, int(row.right or 0)) if row else (0, 0)
        board.append({"nickname": student.nickname, "points": right, "answered": judged,
                      "accuracy": right / judged if judged else None,
                      "average_seconds": float(row.seconds) if row and row.seconds is not None else None})
    return sorted(board, key=lambda entry: (-entry["points"], entry["nickname"].casefold()))


def top_students(rnd, limit=5):
    """Return the `limit` best students with a point or more as (nickname, points), ranked in the database.

    Points change only at a reveal, which changes the round's version: students' panels can keep
    this per version (a student who joins has no points, so cannot change it).
    """
    points = func.count(Answer.id).label("points")
    rows = db.session.execute(
        select(Student.nickname, points).join(Answer, Answer.student_id == Student.id)
        .where(Student.round_id == rnd.id, Student.removed.is_(False), Answer.correct.is_(True))
        .group_by(Student.id, Student.nickname).order_by(points.desc(), Student.nickname).limit(limit))
    return [{"nickname": nickname, "points": int(score)} for nickname, score in rows]


def card_report(rnd):
    """Return per card: how many got it right, and where most of the wrong answers put it."""
    if rnd.format == "quiz":
        return []
    frame = answers_frame(rnd)
    shown = classline.reveals(rnd.state) if rnd.format == "class_line" else []
    reveals = {r["card"]: r for r in shown if not r.get("skipped")}
    report = []
    for card, group in frame.groupby("card", sort=False):
        judged = group[group["correct"].notna()]
        wrong = judged[~judged["correct"].astype(bool)]
        reveal = reveals.get(card)
        common_gap = int(wrong["gap"].mode().iloc[0]) if not wrong.empty else None
        report.append({"card": card, "animal": group["animal"].iloc[0], "answers": len(judged),
                       "right": int(judged["correct"].sum()) if not judged.empty else 0,
                       "common_wrong_gap": common_gap,
                       "common_wrong_place": _place_words(reveal["line_before"], common_gap)
                       if reveal and common_gap is not None else None})
    return sorted(report, key=lambda row: (row["right"] / row["answers"] if row["answers"] else 1, row["animal"]))


def _place_words(line, gap):
    names = dict(db.session.execute(select(Card.slug, Card.common_name).where(Card.slug.in_(line))).all())
    if gap == 0:
        return f"before {names[line[0]]}"
    if gap >= len(line):
        return f"after {names[line[-1]]}"
    return f"between {names[line[gap - 1]]} and {names[line[gap]]}"


def teacher_rounds(teacher):
    """Return the teacher's rounds, newest first, with how many students joined each."""
    counts = dict(db.session.execute(select(Student.round_id, func.count()).group_by(Student.round_id)).all())
    rounds = db.session.scalars(select(Round).where(Round.teacher_id == teacher.id).order_by(Round.id.desc())).all()
    return [(rnd, counts.get(rnd.id, 0)) for rnd in rounds]
