"""Classroom rounds in the database: create, join, answer, the server's clock, controls, results.

Nothing lives in process memory: every request reads the round from the database, so any number
of app processes can serve one class. Racing requests are settled by the database: a unique key
counts one answer per student per turn, and the round's version refuses a stale update.
"""

import secrets
from collections import Counter
from datetime import UTC, datetime

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.orm.exc import StaleDataError

from webapp.cards.queries import card_values
from webapp.common import codes, nicknames
from webapp.common.tokens import new_token, token_hash
from webapp.errors import AppError
from webapp.extensions import db
from webapp.games import IllegalAction, InvalidConfig, cardline, classline, livequiz
from webapp.models import Answer, Card, CardSet, Round, Student
from webapp.play.adapters.practice import start_practice

FORMATS = {"class_line": "Class line (everyone places the same card)",
           "quiz": "Live quiz (everyone answers the same question)",
           "team": "Team Cardline (teams play the rulebook game)",
           "self_paced": "Self-paced challenge (homework)"}
# Formats where the whole class answers the same item at once, run by the same controls.
SHARED = {"class_line": classline, "quiz": livequiz}
LEADERBOARD = {"every": "after every card", "end": "only at the end", "never": "never"}


def now():
    """Return the server's time (the round clock never trusts the browser's)."""
    return datetime.now(UTC)


def aware(moment):
    """Return a stored time as UTC (SQLite gives it back without a zone)."""
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=UTC)


def chosen_values(teacher, settings):
    """Return {slug: value} of the cards the teacher chose that have the characteristic."""
    values = card_values(settings["deck"], settings["characteristic"])
    choice = settings.get("choice", "all")
    if choice == "set":
        card_set = db.session.get(CardSet, settings.get("set_id") or 0)
        if card_set is None or card_set.teacher_id != teacher.id:
            raise AppError(400, "Choose one of your own card sets.")
        values = {slug: v for slug, v in values.items() if slug in set(card_set.slugs)}
    elif choice == "filter":
        query = select(Card.slug).where(Card.deck == settings["deck"])
        if settings.get("period"):
            query = query.where(Card.first_period == settings["period"])
        if settings.get("group"):
            query = query.where(Card.group == settings["group"])
        if settings.get("diet"):
            query = query.where(Card.diet == settings["diet"])
        allowed = set(db.session.scalars(query))
        values = {slug: v for slug, v in values.items() if slug in allowed}
    return values


def create_round(teacher, title, round_format, settings):
    """Create a round in its lobby; the engine state is made now so the cards are fixed."""
    seed = secrets.randbelow(2**31)
    values = chosen_values(teacher, settings)
    try:
        if round_format == "class_line":
            state = classline.new_game({"cards": values, "count": settings["count"],
                                        "characteristic": settings["characteristic"]}, seed)
        elif round_format == "team":
            teams = [f"Team {i + 1}" for i in range(settings["teams"])]
            state = cardline.new_game({"cards": values, "players": teams, "hand_size": settings["hand_size"],
                                       "characteristic": settings["characteristic"]}, seed)
        else:
            state = {"values": values}
            if len(values) < settings["count"] + 1:
                raise InvalidConfig(f"Only {len(values)} cards fit this choice: choose fewer cards.")
    except InvalidConfig as error:
        raise AppError(400, str(error)) from error
    rnd = Round(code=codes.new_code(), teacher_id=teacher.id, format=round_format, title=title,
                settings={**settings, "seed": seed}, state=state)
    db.session.add(rnd)
    db.session.commit()
    return rnd


def create_quiz_round(teacher, title, questions, turn_seconds=30):
    """Create a live quiz round from drawn questions."""
    try:
        state = livequiz.new_game({"questions": questions})
    except InvalidConfig as error:
        raise AppError(400, str(error)) from error
    settings = {"deck": "dinosaurs", "characteristic": "quiz", "turn_seconds": turn_seconds, "leaderboard": "every",
                "seed": 0}
    rnd = Round(code=codes.new_code(), teacher_id=teacher.id, format="quiz", title=title, settings=settings, state=state)
    db.session.add(rnd)
    db.session.commit()
    return rnd


def active_students(rnd):
    """Return the round's students who have not been removed, in joining order."""
    return db.session.scalars(select(Student).where(Student.round_id == rnd.id, Student.removed.is_(False))
                              .order_by(Student.id)).all()


def join_round(rnd, nickname):
    """Add a student to the round; return (round, student, token, {seat: token} of a homework game)."""
    if rnd.status == "finished":
        raise AppError(409, "That round has finished.")
    reason = nicknames.problem(nickname)
    if reason:
        raise AppError(400, reason)
    token = new_token()
    team = None
    if rnd.format == "team":
        sizes = Counter(s.team for s in active_students(rnd))
        team = min(range(rnd.settings["teams"]), key=lambda t: (sizes[t], t))
    student = Student(round_id=rnd.id, nickname=nickname.strip(), nickname_key=nicknames.key(nickname),
                      token_hash=token_hash(token), team=team)
    db.session.add(student)
    try:
        db.session.flush()
    except IntegrityError as error:
        db.session.rollback()
        raise AppError(409, "Someone in this round already has that nickname: choose another.") from error
    if rnd.format == "self_paced":
        game, tokens = start_practice(rnd.settings["deck"], rnd.settings["characteristic"],
                                                rnd.settings["count"], rnd.settings.get("mode", "line"),
                                                seed=rnd.settings["seed"], label=rnd.title)
        student.game_id = game.id
        db.session.commit()
        return rnd, student, token, tokens
    db.session.commit()
    return rnd, student, token, {}


# Built once: every request of every student runs it, and building it cost more than running it.
STUDENT_BY_TOKEN = select(Student).where(Student.round_id == bindparam("round_id"),
                                         Student.token_hash == bindparam("token_hash"))


def student_for(rnd, token):
    """Return the round's student holding `token`, or None (removed students included)."""
    if not token:
        return None
    return db.session.scalar(STUDENT_BY_TOKEN, {"round_id": rnd.id, "token_hash": token_hash(token)})


def turn_seconds(rnd):
    """Return the seconds per turn, or None when the timer is off."""
    seconds = rnd.settings.get("turn_seconds") or 0
    return seconds if seconds > 0 and rnd.settings.get("timer_on", True) else None


def seconds_left(rnd, student=None):
    """Return the seconds left to answer by the server's clock (None: no timer)."""
    return clock(rnd.settings, rnd.turn_started_at, rnd.paused_at, student.extra_seconds if student else 0)


def clock(settings, turn_started_at, paused_at, extra_seconds=0):
    """Return the seconds left in a turn from a round's timer settings and times (None: no timer)."""
    seconds = settings.get("turn_seconds") or 0
    if seconds <= 0 or not settings.get("timer_on", True) or turn_started_at is None:
        return None
    moment = aware(paused_at) or now()
    return max(0.0, seconds + extra_seconds - (moment - aware(turn_started_at)).total_seconds())


def shared_view(rnd):
    """Return what the whole class sees of a class-line or live-quiz round: its turn and phase among the rest."""
    return SHARED[rnd.format].observation(rnd.state)


def answering(rnd):
    """Say whether students may answer now."""
    if rnd.status != "playing":
        return False
    if rnd.format in SHARED:
        return shared_view(rnd)["phase"] == "answering"
    return rnd.format == "team" and not cardline.is_over(rnd.state)


def team_turn(rnd):
    """Return the team whose turn it is in a team round."""
    return cardline.current_player(rnd.state)


def captain(rnd, team):
    """Return the team's captain: its first member still in the round."""
    return next((s for s in active_students(rnd) if s.team == team), None)


def submit(rnd, student, gap, card=None):
    """Record a student's placement (class line) or vote (team); exactly one per turn."""
    if student is None or student.removed:
        raise AppError(403, "You are not a player in this round (the teacher may have removed you).")
    if not answering(rnd):
        raise AppError(409, "Answers are closed right now." if rnd.status != "paused" else "The round is paused.")
    left = seconds_left(rnd, student)
    if left is not None and left <= 0:
        raise AppError(409, "Time is up for this card: your answer came too late.")
    if rnd.format in SHARED:
        engine = SHARED[rnd.format]
        try:
            engine.check_answer(rnd.state, gap)
        except IllegalAction as error:
            raise AppError(409, str(error)) from error
        # Judged when the card is revealed, so nobody's score moves before the reveal.
        card, correct, turn = engine.current_card(rnd.state), None, shared_view(rnd)["turn"]
    else:
        if student.team != team_turn(rnd):
            raise AppError(409, "It is another team's turn.")
        try:
            cardline.check(rnd.state, student.team, {"type": "place", "card": card, "gap": gap})
        except IllegalAction as error:
            raise AppError(409, str(error)) from error
        correct, turn = None, cardline.turn_number(rnd.state)
    started = aware(rnd.turn_started_at) or now()
    db.session.add(Answer(round_id=rnd.id, student_id=student.id, turn=turn, card=card, gap=gap,
                          correct=correct, seconds=max(0.0, (now() - started).total_seconds())))
    try:
        db.session.commit()
    except IntegrityError as error:
        db.session.rollback()
        raise AppError(409, "You have already answered this card.") from error
    settle(rnd)


def answers_for_turn(rnd):
    """Return this turn's answers."""
    turn = shared_view(rnd)["turn"] if rnd.format in SHARED else cardline.turn_number(rnd.state)
    return db.session.scalars(select(Answer).where(Answer.round_id == rnd.id, Answer.turn == turn)).all()


# Built once, one round trip: settle runs on every panel fetch and every answer of every student.
CLASS_COUNTS = select(
    func.count(Student.id), func.max(Student.extra_seconds),
    select(func.count(Answer.id)).join(Student, Student.id == Answer.student_id)
    .where(Answer.round_id == bindparam("round_id"), Answer.turn == bindparam("turn"), Student.removed.is_(False))
    .scalar_subquery(),
).where(Student.round_id == bindparam("round_id"), Student.removed.is_(False))


def settle(rnd):
    """Move the round on when it is due: everyone answered, time ran out, or a team's vote is in."""
    if not answering(rnd):
        return
    if rnd.format in SHARED:
        students, most_extra, answered = db.session.execute(
            CLASS_COUNTS, {"round_id": rnd.id, "turn": shared_view(rnd)["turn"]}).one()
        left = seconds_left(rnd)
        time_up = left is not None and left + (most_extra or 0) <= 0
        if time_up or (students and answered >= students):
            _update(rnd, lambda: _reveal(rnd))
        return
    answers = answers_for_turn(rnd)
    students = active_students(rnd)
    time_up = turn_seconds(rnd) is not None and all(seconds_left(rnd, s) <= 0 for s in students or [None])
    team = team_turn(rnd)
    members = [s for s in students if s.team == team]
    votes = [a for a in answers if a.student_id in {m.id for m in members}]
    if rnd.settings.get("team_mode", "captain") == "captain":
        leader = members[0] if members else None
        chosen = next((a for a in votes if leader and a.student_id == leader.id), None)
    else:
        chosen = None
        if votes and (time_up or len(votes) >= len(members)):
            tally = Counter((a.card, a.gap) for a in votes)
            best = max(tally.values())
            chosen = next(a for a in votes if tally[(a.card, a.gap)] == best)
    if (chosen is None and time_up) or not members:
        _update(rnd, lambda: _pass_team(rnd))
    elif chosen is not None:
        _update(rnd, lambda: _team_move(rnd, chosen))


def _reveal(rnd):
    """Reveal the current card (or question) and judge every answer given to it."""
    engine = SHARED[rnd.format]
    first, last = engine.right_gaps(rnd.state)
    db.session.execute(update(Answer).where(Answer.round_id == rnd.id, Answer.turn == shared_view(rnd)["turn"])
                       .values(correct=Answer.gap.between(first, last)))
    rnd.state = engine.reveal(rnd.state)


def judge_votes(rnd):
    """Mark each vote of this turn right or wrong, by where its card belonged in the line."""
    for vote in answers_for_turn(rnd):
        # Every vote passed cardline.check when it was cast: its card is in the team's hand, so it has a value.
        first, last = cardline.correct_gaps(rnd.state, vote.card)
        vote.correct = first <= vote.gap <= last


def _team_move(rnd, answer):
    judge_votes(rnd)
    rnd.state = cardline.apply(rnd.state, team_turn(rnd), {"type": "place", "card": answer.card, "gap": answer.gap})
    rnd.turn_started_at = now()
    if cardline.is_over(rnd.state):
        rnd.status, rnd.finished_at = "finished", now()


def _pass_team(rnd):
    # No vote before the time ran out (or nobody in the team): the team loses this turn.
    judge_votes(rnd)
    rnd.state = cardline.pass_turn(rnd.state)
    rnd.turn_started_at = now()


def _update(rnd, change):
    """Apply a change to the round and commit; if another request changed it first, keep theirs."""
    try:
        _claim(rnd)
        change()
        db.session.commit()
    except StaleDataError:
        db.session.rollback()
    except IllegalAction:
        db.session.rollback()
    db.session.refresh(rnd)


def _claim(rnd):
    """Lock the round's row before changing anything; raise StaleDataError if it moved on meanwhile.

    Two requests that both saw the last answer come in would otherwise judge the same answers at
    once and could deadlock on PostgreSQL; locked first, the second waits, then finds it stale.
    """
    version = db.session.scalar(select(Round.version).where(Round.id == rnd.id).with_for_update())
    if version != rnd.version:
        raise StaleDataError("The round changed meanwhile.")


CONTROLS = ("start", "pause", "resume", "reveal", "next", "skip", "end", "timer_off", "timer_on")


def control(rnd, action):
    """Carry out one of the teacher's controls, or raise a 409 saying why it cannot be done now."""
    if action not in CONTROLS:
        raise AppError(400, "Unknown control.")
    if rnd.status == "finished":
        raise AppError(409, "This round has finished.")
    if action == "start":
        if rnd.status != "lobby":
            raise AppError(409, "The round has already started.")
        if not active_students(rnd) and rnd.format != "self_paced":
            raise AppError(409, "Wait until at least one student has joined.")
        rnd.status, rnd.turn_started_at = "playing", now()
    elif action == "pause":
        if rnd.status != "playing":
            raise AppError(409, "Only a running round can be paused.")
        rnd.status, rnd.paused_at = "paused", now()
    elif action == "resume":
        if rnd.status != "paused":
            raise AppError(409, "The round is not paused.")
        if rnd.turn_started_at:
            rnd.turn_started_at = aware(rnd.turn_started_at) + (now() - aware(rnd.paused_at))
        rnd.status, rnd.paused_at = "playing", None
    elif action in ("timer_off", "timer_on"):
        rnd.settings = {**rnd.settings, "timer_on": action == "timer_on"}
        rnd.turn_started_at = now()
    elif action == "end":
        rnd.state = SHARED[rnd.format].end(rnd.state) if rnd.format in SHARED else rnd.state
        rnd.status, rnd.finished_at = "finished", now()
    else:
        _turn_control(rnd, action)
    try:
        db.session.commit()
    except StaleDataError as error:
        db.session.rollback()
        raise AppError(409, "The round changed at the same moment; try again.") from error


def _turn_control(rnd, action):
    if rnd.status not in ("playing", "paused"):
        raise AppError(409, "Start the round first.")
    try:
        if rnd.format in SHARED:
            engine = SHARED[rnd.format]
            if action == "reveal":
                _reveal(rnd)
            else:
                rnd.state = {"next": engine.next_card, "skip": engine.skip}[action](rnd.state)
            if action in ("next", "skip"):
                rnd.turn_started_at = now()
            if engine.is_over(rnd.state):
                rnd.status, rnd.finished_at = "finished", now()
        elif rnd.format == "team" and action in ("skip", "reveal"):
            # Skip: the team loses its turn (plays nothing); reveal: apply the votes so far.
            if action == "skip":
                rnd.state = cardline.pass_turn(rnd.state)
            else:
                votes = [a for a in answers_for_turn(rnd)]
                if not votes:
                    raise AppError(409, "No team member has voted yet.")
                tally = Counter((a.card, a.gap) for a in votes)
                card, gap = tally.most_common(1)[0][0]
                judge_votes(rnd)
                rnd.state = cardline.apply(rnd.state, team_turn(rnd), {"type": "place", "card": card, "gap": gap})
            rnd.turn_started_at = now()
            if cardline.is_over(rnd.state):
                rnd.status, rnd.finished_at = "finished", now()
        else:
            raise AppError(409, "That control does not apply to this round.")
    except IllegalAction as error:
        raise AppError(409, str(error)) from error


def student_action(rnd, student_id, action, value=None):
    """Rename, remove, or give extra time to one of the round's students."""
    student = db.session.get(Student, student_id)
    if student is None or student.round_id != rnd.id:
        raise AppError(404, "There is no such student in this round.")
    if action == "rename":
        reason = nicknames.problem(value)
        if reason:
            raise AppError(400, reason)
        student.nickname, student.nickname_key = value.strip(), nicknames.key(value)
    elif action == "remove":
        student.removed = True
    elif action == "extra_time":
        if not isinstance(value, int) or not 0 <= value <= 600:
            raise AppError(400, "Extra time is 0 to 600 seconds.")
        student.extra_seconds = value
    else:
        raise AppError(400, "Unknown action for a student.")
    # A new round version makes views refresh: others' leaderboards and captains, and the student's
    # own clock (the version poll keeps a student's row per version).
    flag_modified(rnd, "settings")
    try:
        db.session.commit()
    except IntegrityError as error:
        db.session.rollback()
        raise AppError(409, "Another student in this round has that nickname.") from error
    except StaleDataError as error:
        db.session.rollback()
        raise AppError(409, "The round moved on at that moment. Please try again.") from error
