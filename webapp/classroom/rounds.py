"""Classroom rounds in the database: create, join, answer, the server's clock, controls, results.

Nothing lives in process memory: every request reads the round from the database, so any number
of app processes can serve one class. Racing requests are settled by the database: a unique key
counts one answer per student per turn, and the round's version refuses a stale update.
"""

import secrets
from collections import Counter
from datetime import UTC, datetime

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.orm.exc import StaleDataError

from webapp.cards.queries import card_values, diets
from webapp.common import codes, nicknames
from webapp.common.tokens import new_token, token_hash
from webapp.errors import AppError
from webapp.extensions import db
from webapp.games import InvalidConfig, livequiz
from webapp.games import rounds as machine
from webapp.models import Answer, Card, CardSet, Round, Student
from webapp.play import store
from webapp.play.adapters.practice import start_practice

FORMATS = {name: fmt.label for name, fmt in machine.FORMATS.items()}


def now():
    """Return the server's time (the round clock never trusts the browser's)."""
    return datetime.now(UTC)


def aware(moment):
    """Return a stored time as UTC (SQLite gives it back without a zone)."""
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=UTC)


def chosen_values(teacher, settings):
    """Return {slug: value} of the cards the teacher chose that have the characteristic (or a diet)."""
    key = settings["characteristic"]
    values = diets(settings["deck"]) if key == "diet" else card_values(settings["deck"], key)
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
    fmt = machine.FORMATS[round_format]
    settings = {**settings, "characteristic": fmt.sorts_by or settings["characteristic"]}
    try:
        state = fmt.new_state(chosen_values(teacher, settings), settings, seed)
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


def teacher_round(round_id, teacher):
    """Return the teacher's round, refusing anyone else's (404 for no such round, 403 for another teacher's)."""
    rnd = db.session.get(Round, round_id)
    if rnd is None:
        raise AppError(404, "There is no round with that number.")
    if rnd.teacher_id != teacher.id:
        raise AppError(403, "This round belongs to another teacher.")
    return rnd


def active_students(rnd):
    """Return the round's students who have not been removed, in joining order."""
    return db.session.scalars(select(Student).where(Student.round_id == rnd.id, Student.removed.is_(False))
                              .order_by(Student.id)).all()


def count_students(rnd):
    """Return how many students are in the round (removed ones left out)."""
    return db.session.scalar(select(func.count(Student.id)).where(Student.round_id == rnd.id,
                                                                   Student.removed.is_(False)))


def relink(rnd, student, token):
    """Give a student the teacher let back in a new token (their old device loses the round), and their homework."""
    student.token_hash = token_hash(token)
    rnd.settings = {**rnd.settings, "rejoin": [i for i in rnd.settings.get("rejoin", []) if i != student.id]}
    seats = {0: store.reissue_seat(store.get_game(student.game_id), 0)} if student.game_id else {}
    db.session.commit()
    return rnd, student, token, seats


def join_round(rnd, nickname):
    """Add a student to the round; return (round, student, token, {seat: token} of a homework game)."""
    reason = machine.why_not_join(machine_round(rnd))
    if reason:
        raise AppError(409, reason)
    reason = nicknames.problem(nickname)
    if reason:
        raise AppError(400, reason)
    token = new_token()
    returning = db.session.scalar(select(Student).where(
        Student.round_id == rnd.id, Student.nickname_key == nicknames.key(nickname), Student.removed.is_(False),
        Student.id.in_(rnd.settings.get("rejoin", []) or [0])))
    if returning:
        return relink(rnd, returning, token)
    team = None
    if rnd.format == "team":
        sizes = Counter(s.team for s in active_students(rnd))
        team = min(range(rnd.settings["teams"]), key=lambda t: (sizes[t], t))
    student = Student(round_id=rnd.id, nickname=nicknames.tidy(nickname), nickname_key=nicknames.key(nickname),
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
                                                seed=rnd.settings["seed"], label=rnd.title, gate="homework")
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


def machine_round(rnd):
    """Return the round as the state machine sees it (times as seconds)."""
    return machine.Round(rnd.format, rnd.status, rnd.settings, rnd.state, seconds(rnd.turn_started_at),
                         seconds(rnd.paused_at))


def seconds(moment):
    """Return a stored time as seconds since the epoch (None stays None)."""
    return aware(moment).timestamp() if moment is not None else None


def moment(value):
    """Return seconds since the epoch as a time to store."""
    return datetime.fromtimestamp(value, UTC) if value is not None else None


def as_student(student):
    """Return a student row as the state machine sees it."""
    return machine.Student(student.id, student.team, student.removed, student.extra_seconds)


def class_of(rnd):
    """Return every student of the round (removed ones too), in joining order, as the machine sees them."""
    rows = db.session.execute(select(Student.id, Student.team, Student.removed, Student.extra_seconds)
                              .where(Student.round_id == rnd.id).order_by(Student.id)).all()
    return [machine.Student(*row) for row in rows]


def votes_of(rnd):
    """Return this turn's answers, first given first, as the machine sees them."""
    return [as_vote(a) for a in answers_for_turn(rnd)]


def as_vote(answer):
    """Return an answer row as the machine sees it."""
    return machine.Vote(answer.student_id, answer.gap, answer.card)


def class_around(rnd, student):
    """Return what an answer's guards need of the class: the student's team (or the student), and their own votes.

    Not the whole class: 400 answers to one card would each read 400 students and their answers.
    """
    if student is None:
        return [], []
    teams = machine.FORMATS[rnd.format].teams
    team = [s for s in class_of(rnd) if s.team == student.team] if teams else [as_student(student)]
    mine = [machine.Vote(student.id, gap, card) for gap, card in db.session.execute(
        select(Answer.gap, Answer.card).where(Answer.round_id == rnd.id, Answer.student_id == student.id,
                                              Answer.turn == turn_of(rnd)))]
    return team, mine


def seconds_left(rnd, student=None):
    """Return the seconds left to answer by the server's clock (None: no timer)."""
    return machine.seconds_left(machine_round(rnd), now().timestamp(), student.extra_seconds if student else 0)


def clock(row, extra_seconds=0):
    """Return the seconds left from a polled round row (format, status, settings, times) without its state."""
    bare = machine.Round(row.format, row.status, row.settings, {}, seconds(row.turn_started_at), seconds(row.paused_at))
    return machine.seconds_left(bare, now().timestamp(), extra_seconds)


def turn_of(rnd):
    """Return the number of the turn being played."""
    return machine.FORMATS[rnd.format].turn(rnd.state)


def answering(rnd):
    """Say whether students may answer now."""
    return rnd.status == "playing" and machine.FORMATS[rnd.format].open(machine_round(rnd))


def captain(rnd, team):
    """Return the team's captain: its first member still in the round."""
    return next((s for s in active_students(rnd) if s.team == team), None)


def controls(rnd, answers=None):
    """Return the controls the teacher may use now (`answers`: this turn's, when the caller has read them)."""
    answers = answers_for_turn(rnd) if answers is None else answers
    votes = [as_vote(a) for a in answers]
    return machine.controls(machine_round(rnd), class_of(rnd), votes, now().timestamp())


def submit(rnd, student, gap, card=None):
    """Record a student's placement, answer or team vote: exactly one per turn, and only when allowed."""
    try:
        vote = machine.answer(machine_round(rnd), student and as_student(student), *class_around(rnd, student),
                              gap, card, now().timestamp())
    except machine.Refused as refused:
        raise AppError(403 if student is None or student.removed else 409, str(refused)) from refused
    fmt = machine.FORMATS[rnd.format]
    # Judged when the card is revealed (or the team's move is played), so no score moves before then.
    item = vote.card if fmt.teams else fmt.engine.current_card(rnd.state)
    started = aware(rnd.turn_started_at) or now()
    db.session.add(Answer(round_id=rnd.id, student_id=student.id, turn=turn_of(rnd), card=item, gap=gap,
                          correct=None, seconds=max(0.0, (now() - started).total_seconds())))
    try:
        db.session.commit()
    except IntegrityError as error:
        db.session.rollback()
        raise AppError(409, "You have already answered this card.") from error
    settle(rnd)


def answers_for_turn(rnd):
    """Return this turn's answers, first given first."""
    return db.session.scalars(select(Answer).where(Answer.round_id == rnd.id, Answer.turn == turn_of(rnd))
                              .order_by(Answer.id)).all()


# Built once, one round trip: settle runs on every panel fetch and every answer of every student.
CLASS_COUNTS = select(
    func.count(Student.id), func.max(Student.extra_seconds),
    select(func.count(Answer.id)).join(Student, Student.id == Answer.student_id)
    .where(Answer.round_id == bindparam("round_id"), Answer.turn == bindparam("turn"), Student.removed.is_(False))
    .scalar_subquery(),
).where(Student.round_id == bindparam("round_id"), Student.removed.is_(False))


def nothing_due(rnd):
    """Say cheaply that a whole-class turn cannot be due: not everyone answered and the clock still runs.

    Only a shortcut, so that 400 panel fetches do not each read the class: when it cannot tell, the state
    machine decides from the whole class.
    """
    if machine.FORMATS[rnd.format].teams or rnd.format == "self_paced":
        return False
    students, most_extra, answered = db.session.execute(
        CLASS_COUNTS, {"round_id": rnd.id, "turn": turn_of(rnd)}).one()
    clock = machine_round(rnd)
    limit = machine.timer_seconds(clock)
    out_of_time = limit is not None and machine.elapsed(clock, now().timestamp()) >= limit + (most_extra or 0)
    return not out_of_time and not (students and answered >= students)


def settle(rnd):
    """Move the round on when it is due: everyone answered, time ran out, or a team's move is in."""
    if not answering(rnd) or nothing_due(rnd):
        return
    _update(rnd, lambda: machine.settle(machine_round(rnd), class_of(rnd), votes_of(rnd), now().timestamp()))


def save(rnd, change):
    """Write a transition's outcome: the round, and this turn's answers judged."""
    judged = [answer for answer in answers_for_turn(rnd) if answer.student_id in change.judged]
    for answer in judged:
        answer.correct = change.judged[answer.student_id]
    after = change.round
    if after.status == "finished" and rnd.status != "finished":
        rnd.finished_at = now()
    rnd.status, rnd.settings, rnd.state = after.status, after.settings, after.state
    rnd.turn_started_at, rnd.paused_at = moment(after.turn_started), moment(after.paused_at)


def _update(rnd, transition):
    """Apply a due transition and commit; if another request changed the round first, keep theirs."""
    try:
        _claim(rnd)
        change = transition()
        if change:
            save(rnd, change)
        db.session.commit()
    except StaleDataError:
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


def control(rnd, action):
    """Carry out one of the teacher's controls, or raise a 409 saying why it cannot be done now."""
    try:
        change = machine.control(machine_round(rnd), action, class_of(rnd), votes_of(rnd), now().timestamp())
    except machine.Refused as refused:
        raise AppError(409, str(refused)) from refused
    save(rnd, change)
    try:
        db.session.commit()
    except StaleDataError as error:
        db.session.rollback()
        raise AppError(409, "The round changed at the same moment; try again.") from error


def homework_closed(game):
    """Return why a student's homework game takes no move now (the round not open yet, or closed), or None."""
    student = db.session.scalar(select(Student).where(Student.game_id == game.id))
    rnd = student and db.session.get(Round, student.round_id)
    if rnd is None:
        return None
    try:
        machine.answer(machine_round(rnd), as_student(student), [], [], None, None, now().timestamp())
    except machine.Refused as refused:
        return str(refused)
    return None


store.GATES["homework"] = homework_closed


def student_action(rnd, student_id, action, value=None):
    """Rename, remove, or give extra time to one of the round's students."""
    student = db.session.get(Student, student_id)
    if student is None or student.round_id != rnd.id:
        raise AppError(404, "There is no such student in this round.")
    if action == "rename":
        reason = nicknames.problem(value)
        if reason:
            raise AppError(400, reason)
        student.nickname, student.nickname_key = nicknames.tidy(value), nicknames.key(value)
    elif action == "remove":
        student.removed = True
    elif action == "rejoin":
        # The next join with this nickname takes the student over, on whatever device it comes from.
        waiting = [i for i in rnd.settings.get("rejoin", []) if i != student.id]
        rnd.settings = {**rnd.settings, "rejoin": [*waiting, student.id]}
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
