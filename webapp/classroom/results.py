"""What a round leaves behind, asked of the database: answers, the leaderboard, reports, homework scores, past rounds.

Each format turns these into its own results and CSV rows (webapp.classroom.formats).
"""

import itertools
from collections import Counter

import pandas as pd
from sqlalchemy import case, func, select

from webapp.classroom.roster import active_students
from webapp.common.characteristics import CHARACTERISTICS
from webapp.extensions import db
from webapp.filters import format_length, format_lifespan, format_mass
from webapp.games.rounds import points as scoring
from webapp.models import Answer, Card, Game, Round, Student
from webapp.play.store import observe


def answer_rows(rnd):
    """Return every answer of the round, first turn first, with the student and the card's name (pandas); in a round
    scored by speed, the points each scored."""
    rows = db.session.execute(
        select(Answer.turn, Student.nickname, Student.team, Answer.card, Card.common_name, Answer.gap,
               Answer.correct, Answer.seconds)
        .join(Student, Student.id == Answer.student_id).outerjoin(Card, Card.slug == Answer.card)
        .where(Answer.round_id == rnd.id).order_by(Answer.turn, Answer.id)).all()
    frame = pd.DataFrame(rows, columns=["turn", "nickname", "team", "card", "animal", "gap", "correct", "seconds"])
    rule = points_rule(rnd)
    if rule.by_speed:  # what each answer scored, from its exact time, so that a student's total can be checked
        turn_seconds = rnd.settings.get("turn_seconds")
        frame["points"] = [rule.points(correct, seconds, turn_seconds)
                           for correct, seconds in zip(frame["correct"], frame["seconds"], strict=True)]
    frame["seconds"] = frame["seconds"].round(1)
    return frame


def gaps_on_turn(rnd, turn):
    """Return the gaps (or bins, or options) the answers to one turn chose, first given first."""
    return list(db.session.scalars(select(Answer.gap).where(Answer.round_id == rnd.id, Answer.turn == turn)
                                   .order_by(Answer.id)))


def card_names(slugs):
    """Return {slug: common name} of the cards named."""
    return dict(db.session.execute(select(Card.slug, Card.common_name).where(Card.slug.in_(set(slugs)))).all())


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


def self_paced_games(rnd):
    """Return (student, their game's observation or None) for each student of a self-paced round, in joining order."""
    pairs = []
    for student in active_students(rnd):
        game = db.session.get(Game, student.game_id) if student.game_id else None
        pairs.append((student, observe(game, 0) if game else None))
    return pairs


def self_paced_frame(rnd):
    """Return each student's self-paced result: how far they are, score, out of, best streak (pandas)."""
    rows = []
    count = rnd.settings["count"]
    for student, observation in self_paced_games(rnd):
        result = observation["result"] if observation else None
        answered = len(observation["answers"]) if observation else 0
        status = "finished" if result else f"part way ({answered} of {count})" if answered else "not started"
        rows.append({"nickname": student.nickname, "answered": answered,
                     "score": result["score"] if result else None, "out_of": result["out_of"] if result else None,
                     "best_streak": result["best_streak"] if result else None, "finished": bool(result),
                     "status": status})
    frame = pd.DataFrame(rows, columns=["nickname", "answered", "score", "out_of", "best_streak", "finished", "status"])
    # Whole numbers with gaps for who has not finished (plain ints would turn into floats: "5.0 of 5.0").
    return frame.astype({"score": "Int64", "out_of": "Int64", "best_streak": "Int64"})


def self_paced_answers(rnd):
    """Return a row per student and homework card, numbered as on screen: the animal, the answer in words, the result
    and the true value; a card not answered yet says so (pandas)."""
    games = self_paced_games(rnd)
    answered = [answer for _, obs in games if obs for answer in obs["answers"]]
    names = card_names({a["card"] for a in answered} | {e["card"] for _, obs in games if obs for e in obs["line"]})
    values = true_values(rnd, {a["card"] for a in answered})
    rows = []
    for student, obs in games:
        answers = obs["answers"] if obs else []
        for number in range(1, rnd.settings["count"] + 1):
            answer = answers[number - 1] if number <= len(answers) else None
            row = {"card_number": number, "student": student.nickname, "animal": None, "answer": "not answered yet",
                   "result": "", "true_value": None}
            if answer:
                row.update(animal=names.get(answer["card"]), answer=self_paced_words(obs, answers, number - 1, names),
                           result=("right (too close to call)" if answer.get("close") else "right") if answer["right"]
                           else "wrong", true_value=values.get(answer["card"]))
            rows.append(row)
    return pd.DataFrame(rows, columns=["card_number", "student", "animal", "answer", "result", "true_value"])


def self_paced_card_report(frame):
    """Return per homework card (from self_paced_answers): how many answered it, how many got it right, in order."""
    answered = frame[frame["animal"].notna()]
    report = []
    for animal, group in answered.groupby("animal", sort=False):
        report.append({"animal": animal, "answers": len(group),
                       "right": int(group["result"].str.startswith("right").sum()),
                       "true_value": group["true_value"].iloc[0]})
    return sorted(report, key=lambda row: (row["right"] / row["answers"], row["animal"]))


def quiz_homework_frame(rnd):
    """Return each student's quiz homework: how far they are, score, out of (pandas, as self_paced_frame)."""
    rows = []
    for student, obs in self_paced_games(rnd):
        answered = len(obs["answered"]) if obs else 0
        total = rnd.settings["count"]
        result = obs["result"] if obs else None
        status = "finished" if result else f"part way ({answered} of {total})" if answered else "not started"
        rows.append({"nickname": student.nickname, "answered": answered, "score": result["score"] if result else None,
                     "out_of": result["out_of"] if result else None, "best_streak": None, "finished": bool(result),
                     "status": status})
    frame = pd.DataFrame(rows, columns=["nickname", "answered", "score", "out_of", "best_streak", "finished", "status"])
    return frame.astype({"score": "Int64", "out_of": "Int64", "best_streak": "Int64"})


def quiz_homework_answers(rnd):
    """Return a row per student and question, numbered as on screen: the question, the answer given in words, the
    result and the right answer; a question not answered yet says so (pandas)."""
    rows = []
    for student, obs in self_paced_games(rnd):
        answered = obs["answered"] if obs else []
        for number in range(1, rnd.settings["count"] + 1):
            row = {"question_number": number, "student": student.nickname, "question": None,
                   "answer": "not answered yet", "result": "", "right_answer": None}
            if number <= len(answered):
                done = answered[number - 1]
                row.update(question=done["prompt"], answer=option_words(done, done["given"]),
                           result="right" if done["right"] else "wrong", right_answer=option_words(done, done["answer"]))
            rows.append(row)
    return pd.DataFrame(rows, columns=["question_number", "student", "question", "answer", "result", "right_answer"])


def option_words(question, chosen):
    """Say a quiz answer in words: an option's text, or a put-in-order answer's items with arrows."""
    names = {option["id"]: option["text"] for option in question["options"]}
    return " → ".join(names[i] for i in chosen) if question["order"] else names.get(chosen)


def quiz_homework_report(frame):
    """Return per question of a quiz homework: how many answered it and got it right, hardest first."""
    return self_paced_card_report(frame.rename(columns={"question": "animal", "right_answer": "true_value"}))


def self_paced_words(obs, answers, index, names):
    """Say a self-paced answer as the pages do: a place in the line as it stood then, a bin, or a position."""
    answer = answers[index]
    if obs["mode"] == "bins":
        return f"in the {answer['answer']} bin"
    if obs["mode"] == "all":
        return f"position {answer['answer'] + 1}"
    # Cards only join the line: the line an answer was given to is today's less the cards answered from then on.
    later = {a["card"] for a in answers[index:]}
    return place_words([e["card"] for e in obs["line"] if e["card"] not in later], answer["answer"], names)


def leaderboard(rnd, asked=None, shown_turns=(), students=None):
    """Return students ranked by points (the round's points rule), with accuracy and speed kept apart.

    Accuracy is out of `asked` (the items the class was asked and shown the answer to), so an item a student let
    pass counts against it; without `asked`, out of the student's own judged answers (a team's votes).
    A streak runs over `shown_turns` (those turns, in order), named where the round shows streaks. `students`: the
    round's active students, when the caller has read them.
    """
    totals = {row.student_id: row for row in db.session.execute(
        select(Answer.student_id, func.count(Answer.correct).label("judged"),
               func.sum(case((Answer.correct.is_(True), 1), else_=0)).label("right"),
               func.avg(Answer.seconds).label("seconds"))
        .where(Answer.round_id == rnd.id).group_by(Answer.student_id))}
    # By speed an answer's points are worked out from its time: one more query, only in such a round.
    tallied = tallies(rnd, shown_turns) if points_rule(rnd).by_speed else {}
    named = streaks_shown(rnd)
    board = []
    for student in active_students(rnd) if students is None else students:
        row = totals.get(student.id)
        judged, right = (row.judged, int(row.right or 0)) if row else (0, 0)
        out_of = asked if asked is not None else judged
        tally = tallied[student.id][1] if student.id in tallied else scoring.Tally(right, right)
        board.append({"nickname": student.nickname, "team": student.team, "points": tally.points, "right": right,
                      "answered": judged, "out_of": out_of, "accuracy": right / out_of if out_of else None,
                      "average_seconds": float(row.seconds) if row and row.seconds is not None else None,
                      "streak_words": streak_words(tally.streak) if named else ""})
    return with_places(sorted(board, key=lambda entry: (-entry["points"], entry["nickname"].casefold())))


def points_rule(rnd):
    """Return how the round's answers score (webapp.games.rounds.points): one point each, or by speed."""
    return scoring.rule_of(rnd.settings)


def streaks_shown(rnd):
    """Say whether the round names students' answer streaks: its points rule does, and its leaderboard shows."""
    return points_rule(rnd).streaks and rnd.settings.get("leaderboard", "every") != "never"


def streak_words(streak):
    """Say a streak as every screen does ("4 in a row"); "" for one too short to name."""
    return f"{streak} in a row" if streak >= scoring.STREAK_SHOWN_FROM else ""


def tallies(rnd, shown_turns):
    """Return {student id: (nickname, Tally)} of every student still in with a right answer, by the round's points
    rule, from one read of their right answers (only those score, and a streak runs over `shown_turns`)."""
    rule, turn_seconds, shown = points_rule(rnd), rnd.settings.get("turn_seconds"), sorted(shown_turns)
    answers = {}
    # Table columns, not ORM attributes: a class of 1,000 gives thousands of rows, which the ORM's loading would slow.
    given, students = Answer.__table__.c, Student.__table__.c
    for student_id, nickname, turn, correct, seconds in db.session.execute(
            select(given.student_id, students.nickname, given.turn, given.correct, given.seconds)
            .join(Student.__table__, students.id == given.student_id)
            .where(given.round_id == rnd.id, given.correct.is_(True), students.removed.is_(False))).all():
        answers.setdefault(student_id, (nickname, []))[1].append((turn, correct, seconds))
    return {student_id: (nickname, scoring.tally(given, shown, rule, turn_seconds))
            for student_id, (nickname, given) in answers.items()}


def class_standing(rnd, shown_turns, ranked, top_shown, limit=5, right=None):
    """Return what every student's panel shares of the class's standing, read once per round version (`right`: the
    round's right_answers where the caller has them, a live round's snapshot).

    {leaderboard: the `limit` best (when `top_shown`), scores: everyone's points from 1 up, best first, and
    places: {points: place} (when `ranked`), tallies: {student id: Tally} (by speed; None: count right answers)}.
    """
    if not points_rule(rnd).by_speed:
        counted = (right_answers(rnd) if right is None else right) if ranked or top_shown else {}
        best = sorted(counted.values(), key=lambda pair: (-pair[1], pair[0].casefold()))
        scored = [points for _, points in best] if ranked else None
        top = with_places([{"nickname": nickname, "points": points} for nickname, points in best[:limit]]) \
            if top_shown else None
        return {"leaderboard": top, "scores": scored, "places": None if scored is None else places(scored),
                "tallies": None}
    tallied = tallies(rnd, shown_turns) if rnd.status != "lobby" else {}
    best = sorted(((nickname, tally) for nickname, tally in tallied.values() if tally.points > 0),
                  key=lambda pair: (-pair[1].points, pair[0].casefold()))
    named = streaks_shown(rnd)
    scored = [tally.points for _, tally in best] if ranked else None
    top = with_places([{"nickname": nickname, "points": tally.points,
                        "streak_words": streak_words(tally.streak) if named else ""}
                       for nickname, tally in best[:limit]]) if top_shown else None
    return {"leaderboard": top, "scores": scored, "places": None if scored is None else places(scored),
            "tallies": {student_id: tally for student_id, (_, tally) in tallied.items()}}


def standing(rnd, student_id, answers, shared):
    """Say a student's own standing: their points by the round's rule, their place where the teacher shows rankings,
    and their streak where the round names streaks (`answers`: their {turn: right?}; `shared`: class_standing's)."""
    tallied = shared.get("tallies")
    tally = tallied.get(student_id, scoring.Tally()) if tallied is not None else None
    points = tally.points if tally else sum(1 for correct in answers.values() if correct)
    every = shared["places"]
    place = None if every is None else every.get(points) or place_of(points, shared["scores"])
    streak = streak_words(tally.streak) if tally and streaks_shown(rnd) else ""
    return standing_words(points, place, shared["class_size"], rnd.status == "finished", streak)


def place_of(points, all_points):
    """Return the place of `points` among everyone's: one more than how many scored more (a tie shares it: 1, 1, 3)."""
    return 1 + sum(1 for other in all_points if other > points)


def standing_words(points, rank, of, finished, streak=""):
    """Say a student's points and place (and streak, in words): the end of the round's last line, or the line under
    the game."""
    said = f"{points:,} point{'' if points == 1 else 's'}"
    if finished:
        return f" You scored {said}{f': number {rank} of {of}' if rank else ''}."
    return f"You: {said} · number {rank} of {of}{f' · {streak}' if streak else ''}" if rank else ""


def places(all_points):
    """Return {points: place} for every score in `all_points` and for none, by place_of's rule, in one sort (a class
    of 1,000 scored by speed has about as many different scores: asking place_of for each would be a million steps)."""
    found, ahead = {}, 0
    for points, group in itertools.groupby(sorted(all_points, reverse=True)):
        found[points] = ahead + 1
        ahead += len(list(group))
    found.setdefault(0, ahead + 1)
    return found


def with_places(rows):
    """Return rows ranked best first, each with its "place" by place_of, the one ranking rule of every screen."""
    every = places([row["points"] for row in rows])
    return [{**row, "place": every[row["points"]]} for row in rows]


def right_answers(rnd):
    """Return {student id: (nickname, right answers)} of the round's students still in it with a right answer.

    Points change only at a reveal, which changes the round's version: students' panels keep what is made of this
    per version (a student who joins has no points, so cannot change it).
    """
    rows = db.session.execute(
        select(Student.id, Student.nickname, func.count(Answer.id)).join(Answer, Answer.student_id == Student.id)
        .where(Student.round_id == rnd.id, Student.removed.is_(False), Answer.correct.is_(True))
        .group_by(Student.id, Student.nickname))
    return {student_id: (nickname, int(count)) for student_id, nickname, count in rows}


def card_report(frame):
    """Return per card of an answers frame: how many got it right, and where most wrong answers put it, hardest first."""
    report = []
    for card, group in frame.groupby("card", sort=False):
        judged = group[group["correct"].notna()]
        wrong = judged[~judged["correct"].astype(bool)]
        report.append({"card": card, "animal": group["animal"].iloc[0], "answers": len(judged),
                       "right": int(judged["correct"].sum()) if not judged.empty else 0,
                       "common_wrong_place": most_common(wrong["place"].dropna())[0]})
    return sorted(report, key=lambda row: (row["right"] / row["answers"] if row["answers"] else 1, row["animal"]))


def question_report(frame, asked):
    """Return per question asked, in order: how many answered, how many were right, the most chosen wrong answer,
    and how many chose each option (which is right, once revealed)."""
    report = []
    for question in asked:
        answers = frame[frame["question_id"] == question["id"]]
        judged = answers[answers["correct"].notna()]
        wrong_answer, wrong_count = most_common(judged[~judged["correct"].astype(bool)]["answer"])
        chosen = Counter(answers["answer"])
        choices = [{"text": option["text"], "count": chosen.get(option["text"], 0),
                    "right": option["id"] == question["answer"] if "answer" in question else None}
                   for option in question["options"]]
        report.append({"question": question["prompt"], "answers": len(answers),
                       "judged": len(judged), "right": int(judged["correct"].sum()) if not judged.empty else None,
                       "common_wrong_answer": wrong_answer, "common_wrong_count": wrong_count, "choices": choices})
    return report


def most_common(values):
    """Return (the value given most often, how often), the first given winning a tie, or (None, 0)."""
    counted = Counter(values).most_common(1)
    return counted[0] if counted else (None, 0)


def last_time_zone(teacher):
    """Return the time zone the teacher gave times in last (a homework's dates), or None."""
    for settings in db.session.scalars(select(Round.settings).where(Round.teacher_id == teacher.id)
                                       .order_by(Round.id.desc()).limit(20)):
        if settings.get("timezone") and (settings.get("opens_at") is not None or settings.get("closes_at") is not None):
            return settings["timezone"]
    return None


def teacher_rounds(teacher, archived=False):
    """Return the teacher's rounds (the archived ones, or the others), newest first, with how many students are in
    each (removed ones not counted)."""
    counts = dict(db.session.execute(
        select(Student.round_id, func.count()).join(Round, Round.id == Student.round_id)
        .where(Round.teacher_id == teacher.id, Student.removed.is_(False)).group_by(Student.round_id)).all())
    kept = Round.archived_at.is_not(None) if archived else Round.archived_at.is_(None)
    rounds = db.session.scalars(select(Round).where(Round.teacher_id == teacher.id, kept).order_by(Round.id.desc())).all()
    return [(rnd, counts.get(rnd.id, 0)) for rnd in rounds]
