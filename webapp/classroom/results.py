"""What a round leaves behind: every answer, the leaderboard, each card's report, homework scores, past rounds."""

from collections import Counter

import pandas as pd
from sqlalchemy import case, func, select

from webapp.cards.characteristics import CHARACTERISTICS
from webapp.classroom.rounds import active_students
from webapp.extensions import db
from webapp.filters import format_length, format_lifespan, format_mass
from webapp.games import cardline, classline, livequiz
from webapp.games import rounds as machine
from webapp.models import Answer, Card, Game, Round, Student
from webapp.play.store import observe


def answers_frame(rnd):
    """Return every answer of the round, its place, team and card's true value written as the pages write them (pandas)."""
    rows = db.session.execute(
        select(Answer.turn, Student.nickname, Student.team, Answer.card, Card.common_name, Answer.gap,
               Answer.correct, Answer.seconds)
        .join(Student, Student.id == Answer.student_id).outerjoin(Card, Card.slug == Answer.card)
        .where(Answer.round_id == rnd.id).order_by(Answer.turn, Answer.id)).all()
    frame = pd.DataFrame(rows, columns=["turn", "nickname", "team", "card", "animal", "gap", "correct", "seconds"])
    frame["team"] = frame["team"].map(team_names(rnd))
    frame["seconds"] = frame["seconds"].round(1)
    if rnd.format == "quiz":
        # A live quiz's answers are about questions: name them, and give the option chosen in words.
        questions = livequiz.question_texts(rnd.state)
        frame["animal"] = frame["card"].map(lambda qid: questions[qid]["prompt"])
        frame["gap"] = [questions[q]["options"][g]["text"] for q, g in zip(frame["card"], frame["gap"], strict=True)]
        return frame.rename(columns={"card": "question_id", "animal": "question", "gap": "answer"})
    bins = machine.FORMATS[rnd.format].view(rnd.state).get("bins")
    frame["gap"] = bins_in_words(frame, bins) if bins else places_in_words(rnd, frame)
    frame["true_value"] = frame["card"].map(true_values(rnd, frame["card"]))
    return frame.rename(columns={"gap": "place"})


def team_names(rnd):
    """Return {team number: the name its screen shows} (none outside team rounds)."""
    if rnd.format != "team":
        return {}
    return {player["seat"]: player["name"] for player in cardline.observation(rnd.state)["players"]}


def bins_in_words(frame, bins):
    """Return, for each answer of a sort into bins (diets), the bin it chose in words."""
    return [f"the {bins[gap]} bin" if 0 <= gap < len(bins) else None for gap in frame["gap"]]


def places_in_words(rnd, frame):
    """Return, for each answer of a class-line or team round, the place it chose in words."""
    lines = lines_by_turn(rnd, frame)
    names = dict(db.session.execute(select(Card.slug, Card.common_name).where(
        Card.slug.in_({slug for line in lines.values() for slug in line}))).all())
    return [place_words(lines.get(turn, []), gap, names) for turn, gap in zip(frame["turn"], frame["gap"], strict=True)]


def lines_by_turn(rnd, frame):
    """Return {turn: the line (slugs, lowest first) the answers of that turn chose a gap in}."""
    turns = set(frame["turn"])
    if rnd.format == "class_line":
        revealed = [r for r in classline.reveals(rnd.state) if not r.get("skipped")]
        line_now = [entry["card"] for entry in classline.observation(rnd.state)["line"]]
        # The line changes only at a reveal: a turn's line is the one the next reveal started from.
        return {turn: next((r["line_before"] for r in revealed if r["turn"] >= turn), line_now) for turn in turns}
    if rnd.format != "team":
        return {}  # homework keeps its answers in each student's own game, not here
    # Team Cardline keeps only the line now. Cards only ever join it, in place, and a card leaves its team's
    # hand once placed, so each card in it was placed at the last turn anyone voted for it (the one card
    # nobody voted for started the line): a turn's line is the cards placed before that turn.
    line_now = [entry["card"] for entry in cardline.observation(rnd.state)["line"]]
    placed_at = frame.groupby("card")["turn"].max().to_dict()
    return {turn: [card for card in line_now if placed_at.get(card, -1) < turn] for turn in turns}


def place_words(line, gap, names):
    """Say a gap of a line as the pages do: "before X", "between X and Y", "after Y" (None if it is not in it)."""
    if not line or not 0 <= gap <= len(line):
        return None
    if gap == 0:
        return f"before {names[line[0]]}"
    if gap == len(line):
        return f"after {names[line[-1]]}"
    return f"between {names[line[gap - 1]]} and {names[line[gap]]}"


# A CSV has no reader's unit cookie: it is written in metric, as the pages are by default.
VALUE_WORDS = {"length": format_length, "mass": format_mass, "lifespan": format_lifespan}


def true_values(rnd, slugs):
    """Return {slug: the card's value the round sorted by, written for people}."""
    characteristic = rnd.settings["characteristic"]
    cards = db.session.scalars(select(Card).where(Card.slug.in_(set(slugs)))).all()
    if characteristic == "period":
        return {card.slug: card.first_period for card in cards}
    if characteristic == "diet":
        return {card.slug: card.diet + (f" ({card.diet_detail})" if card.diet_detail not in (None, card.diet) else "")
                for card in cards}
    column, words = CHARACTERISTICS[characteristic]["column"], VALUE_WORDS[characteristic]
    return {card.slug: words(getattr(card, column)) for card in cards}


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
    frame = pd.DataFrame(rows, columns=["nickname", "answered", "score", "out_of", "best_streak", "finished"])
    # Whole numbers with gaps for who has not finished (plain ints would turn into floats: "5.0 of 5.0").
    return frame.astype({"score": "Int64", "out_of": "Int64", "best_streak": "Int64"})


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


def scores(rnd):
    """Return the points of every student in the round with a point or more, highest first (a rank is read off it)."""
    points = func.count(Answer.id)
    return [int(n) for n in db.session.scalars(
        select(points).join(Student, Student.id == Answer.student_id)
        .where(Answer.round_id == rnd.id, Student.removed.is_(False), Answer.correct.is_(True))
        .group_by(Answer.student_id).order_by(points.desc()))]


def card_report(rnd):
    """Return per card: how many got it right, and where most of the wrong answers put it (a live quiz: per question)."""
    if rnd.format == "quiz":
        # The finished round's page has one report: a live quiz's is about its questions.
        return question_report(rnd)
    frame = answers_frame(rnd)
    report = []
    for card, group in frame.groupby("card", sort=False):
        judged = group[group["correct"].notna()]
        wrong = judged[~judged["correct"].astype(bool)]
        report.append({"card": card, "animal": group["animal"].iloc[0], "answers": len(judged),
                       "right": int(judged["correct"].sum()) if not judged.empty else 0,
                       "common_wrong_place": most_common(wrong["place"].dropna())[0]})
    return sorted(report, key=lambda row: (row["right"] / row["answers"] if row["answers"] else 1, row["animal"]))


def question_report(rnd):
    """Return per question asked, in order: how many answered, how many were right, the most chosen wrong answer."""
    frame = answers_frame(rnd)
    asked = list(livequiz.question_texts(rnd.state).items())[:livequiz.observation(rnd.state)["turn"] + 1]
    report = []
    for question_id, question in asked:
        answers = frame[frame["question_id"] == question_id]
        judged = answers[answers["correct"].notna()]
        wrong_answer, wrong_count = most_common(judged[~judged["correct"].astype(bool)]["answer"])
        report.append({"question": question["prompt"], "answers": len(answers),
                       "judged": len(judged), "right": int(judged["correct"].sum()) if not judged.empty else None,
                       "common_wrong_answer": wrong_answer, "common_wrong_count": wrong_count})
    return report


def most_common(values):
    """Return (the value given most often, how often), the first given winning a tie, or (None, 0)."""
    counted = Counter(values).most_common(1)
    return counted[0] if counted else (None, 0)


def teacher_rounds(teacher):
    """Return the teacher's rounds, newest first, with how many students are in each (removed ones not counted)."""
    counts = dict(db.session.execute(
        select(Student.round_id, func.count()).join(Round, Round.id == Student.round_id)
        .where(Round.teacher_id == teacher.id, Student.removed.is_(False)).group_by(Student.round_id)).all())
    rounds = db.session.scalars(select(Round).where(Round.teacher_id == teacher.id).order_by(Round.id.desc())).all()
    return [(rnd, counts.get(rnd.id, 0)) for rnd in rounds]
