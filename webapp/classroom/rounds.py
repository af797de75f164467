"""Classroom rounds in the database: create, join, answer, the server's clock, controls, results.

Nothing lives in process memory: every request reads the round from the database, so any number
of app processes can serve one class. Racing requests are settled by the database: a unique key
counts one answer per student per turn, and the round's version refuses a stale update.
"""

import secrets

from flask import current_app
from sqlalchemy import and_, bindparam, exists, func, literal_column, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.orm.exc import StaleDataError

from webapp import live
from webapp.cards.queries import card_values, diets
from webapp.classroom import erasure
from webapp.classroom.clock import aware, moment, now
from webapp.classroom.formats import FORMATS, format_of
from webapp.classroom.names import join_problem, nickname_problem
from webapp.classroom.roster import active_students, as_student, class_of, counted, places
from webapp.classroom.versioned import commit_keeping_loaded, move_version_on
from webapp.common import codes, limits, nicknames
from webapp.common.tokens import new_token, same_hash, token_hash
from webapp.database import read_connection, statements_commit
from webapp.errors import AppError
from webapp.extensions import db
from webapp.games import InvalidConfig
from webapp.games import rounds as machine
from webapp.models import Answer, Card, CardSet, Round, Student
from webapp.play import store


def chosen_values(teacher, settings):
    """Return {slug: value} of the cards the teacher chose that have the characteristic (or a diet)."""
    key = settings["characteristic"]
    values = diets(settings["deck"]) if key == "diet" else card_values(settings["deck"], key)
    choice = settings.get("choice", "all")
    if choice == "set":
        card_set = db.session.get(CardSet, settings.get("set_id") or 0)
        if card_set is None:
            raise AppError(400, "The card set this round was made from has been deleted: edit the round's cards "
                                "(choose another set, or the cards by period, group or diet).")
        if card_set.teacher_id != teacher.id:
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


def create_round(teacher, title, round_format, settings, class_id=None, seed=None, values=None):
    """Create a round in its lobby, open to anyone with its code or for one of the teacher's classes; the engine
    state is made now so the cards (or `values` given) are fixed."""
    limits.use("round", who=f"teacher-{teacher.id}")
    rnd = Round(code=codes.new_code(), teacher_id=teacher.id, title=title, class_id=class_id)
    set_up(rnd, teacher, round_format, settings, seed, values)
    db.session.add(rnd)
    db.session.commit()
    return rnd


def set_up(rnd, teacher, round_format, settings, seed=None, values=None):
    """Give a round in its lobby its format, settings and game (the cards fixed now, from `seed`); raise a 400 with
    the reason when the choice gives no game."""
    seed = secrets.randbelow(2**31) if seed is None else seed
    fmt = FORMATS[round_format]
    settings = {**settings, "characteristic": fmt.sorts_by or settings["characteristic"]}
    try:
        state = fmt.new_state(chosen_values(teacher, settings) if values is None else values, settings, seed)
    except InvalidConfig as error:
        raise AppError(400, str(error)) from error
    rnd.format, rnd.settings, rnd.state = round_format, {**settings, "seed": seed}, state


QUIZ = "quiz"  # the format a lesson's quiz is run in
REJOIN_CODE_LENGTH = 6
ANSWERS = Answer.__table__
ANSWER_INSERT = ANSWERS.insert()  # built once: its values come as parameters


def create_quiz_round(teacher, title, questions, turn_seconds=30, leaderboard="every", class_id=None,
                      dino_names=False, points="right"):
    """Create a live quiz round from drawn questions (for a class, or anyone with the code; `dino_names`: students
    play under generated names only; `points`: how answers score, webapp.games.rounds.points)."""
    settings = {"deck": "dinosaurs", "characteristic": "quiz", "turn_seconds": turn_seconds, "leaderboard": leaderboard,
                "seed": 0, "dino_names": dino_names and class_id is None, "points": points}
    try:
        state = FORMATS[QUIZ].new_state(questions, settings, seed=0)
    except InvalidConfig as error:
        raise AppError(400, str(error)) from error
    limits.use("round", who=f"teacher-{teacher.id}")
    rnd = Round(code=codes.new_code(), teacher_id=teacher.id, format=QUIZ, title=title, settings=settings, state=state,
                class_id=class_id)
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


def relink(rnd, student, token):
    """Move a student to the device holding `token`: the old device loses the round (and is told so), a pending
    one-time code is used up, and their homework game comes along; a round that moved on meanwhile refuses it
    (409, nothing changed: the code still works)."""
    commit_keeping_loaded()  # what follows writes: on SQLite, a reader others wrote past could not
    student.moved_token_hash, student.token_hash = student.token_hash, token_hash(token)
    student.rejoin_code_hash = None
    seats = {0: store.reissue_seat(store.get_game(student.game_id), 0)} if student.game_id else {}
    flag_modified(rnd, "settings")  # a new round version: the old device's next poll finds it has left
    try:
        db.session.commit()
    except StaleDataError as error:
        db.session.rollback()
        raise AppError(409, "The round moved on at that very moment. Please try again.") from error
    return rnd, student, token, seats


def moved_from(rnd, token):
    """Return the round's student who left the device holding `token` for another, or None."""
    if not token:
        return None
    return db.session.scalar(select(Student).where(Student.round_id == rnd.id,
                                                   Student.moved_token_hash == token_hash(token)))


def refuse_a_moved_device(rnd, device_token):
    """Refuse a join from a device its student left for another: one child is never two students."""
    left = moved_from(rnd, device_token)
    if left:
        raise AppError(409, f"This device was {left.nickname}'s in this round, and {left.nickname} now plays on "
                            "another device. To play here again, ask your teacher to let you back in.")


def join_round(rnd, nickname, device_token=None, one_time_code=None):
    """Add a student to a round open to anyone with its code, or take a student back in on a new device with the
    one-time code the teacher gave; return (round, student, token, {seat: token} of a homework game)."""
    if rnd.class_id is not None:
        raise AppError(409, "This round is for a class: pick your name and type your personal code.")
    refuse_a_moved_device(rnd, device_token)
    reason = join_problem(rnd, nickname)
    if reason:
        raise AppError(400, reason)
    token = new_token()
    if one_time_code:
        holder = nickname_holder(rnd, nickname)
        if holder is not None and not holder.removed:
            if not same_hash(holder.rejoin_code_hash, codes.normalise(one_time_code)):
                raise AppError(403, one_time_code_wanted(holder))
            return relink(rnd, holder, token)
    student = Student(round_id=rnd.id, nickname=nicknames.tidy(nickname), nickname_key=nicknames.key(nickname),
                      token_hash=token_hash(token))
    # Most joins take a free nickname: who holds it is read only when storing the newcomer finds it taken.
    return add_student(rnd, student, token, lambda: nickname_taken(rnd, nickname))


def nickname_holder(rnd, nickname):
    """Return the round's student whose nickname is `nickname` or looks the same (removed ones too), or None."""
    return db.session.scalar(select(Student).where(Student.round_id == rnd.id,
                                                   Student.nickname_key == nicknames.key(nickname)))


def nickname_taken(rnd, nickname):
    """Return the refusal of a join (with no one-time code) under a nickname someone in the round has."""
    holder = nickname_holder(rnd, nickname)
    if holder is not None and not holder.removed and holder.rejoin_code_hash:
        return AppError(403, one_time_code_wanted(holder))
    return AppError(409, "Someone in this round already has that nickname, or one that looks the same: choose another.")


def one_time_code_wanted(holder):
    """Say that playing as `holder` on a new device takes the one-time code the teacher gave."""
    return (f"To play as {holder.nickname} on this device, type the one-time code your teacher gave you "
            "(it works once).")


def join_as_pupil(rnd, pupil):
    """Take a class's pupil into the round on this device: their student if they have one (the old device loses
    it), else a new one; return (round, student, token, {seat: token} of a homework game)."""
    token = new_token()
    student = db.session.scalar(select(Student).where(Student.round_id == rnd.id, Student.pupil_id == pupil.id))
    if student is not None:
        if student.removed:
            raise AppError(403, "The teacher has taken you out of this round: ask them if you may come back.")
        return relink(rnd, student, token)
    # No moved-device check here: the personal code says who the child is, and the class has one row per pupil.
    student = Student(round_id=rnd.id, nickname=pupil.display_name, nickname_key=pupil.name_key, pupil_id=pupil.id,
                      token_hash=token_hash(token))
    return add_student(rnd, student, token, lambda: AppError(409, f"{pupil.display_name} joined on another device at "
                                                                  "this very moment: try again."))


def add_student(rnd, student, token, clash):
    """Store a new student in one of the round's places, refusing a round that has ended or is full, or with
    `clash()` (an AppError, made once the failed write is rolled back) when the database finds their nickname or
    pupil taken (two joins at once, say); set up what they need."""
    fmt = format_of(rnd)
    reason = machine.why_not_join(fmt.machine(rnd))
    if reason:
        raise AppError(409, reason)
    commit_keeping_loaded()  # what follows writes: on SQLite, a reader others wrote past could not
    student.team = fmt.team_for_newcomer(rnd)
    db.session.add(student)
    try:
        db.session.flush()
    except IntegrityError as error:
        db.session.rollback()
        raise clash() from error
    tokens = fmt.joined(rnd, student)
    room = current_app.config["STUDENTS_PER_ROUND"]
    # Last, so that the round's place counter is locked only from here to the commit.
    if not limits.take_place(places(rnd.id), room, counted(rnd.id)):
        db.session.rollback()
        raise AppError(409, f"This round is full: it has room for {room} students. Ask your teacher.")
    if rnd.status != "lobby":
        move_version_on(rnd)  # every student's "number 2 of N" counts the newcomer
    commit_keeping_loaded()  # the redirect that follows reads the round and the student: not again from the database
    return rnd, student, token, tokens


def refuse_regrouping(rnd):
    """Refuse a change of the teams (409, with the reason) unless it may happen now: before or between turns."""
    reason = machine.why_not_regroup(machine_round(rnd), votes_of(rnd))
    if reason:
        raise AppError(409, reason)


def balance_teams(rnd):
    """Spread the round's students evenly over its teams, in joining order."""
    refuse_regrouping(rnd)
    teams = machine.balanced(class_of(rnd), rnd.settings["teams"])
    for student in active_students(rnd):
        student.team = teams[student.id]
    flag_modified(rnd, "settings")
    db.session.commit()


def name_teams(rnd, teacher, names):
    """Give the teams of a round in its lobby their names (the game is dealt again from the same seed)."""
    refuse_regrouping(rnd)
    if rnd.status != "lobby":
        raise AppError(409, "Teams are named before the round starts.")
    names = [nicknames.tidy(name) for name in names]
    for name in names:
        reason = nicknames.problem(name)
        if reason:
            raise AppError(400, f"{name or 'A team name'}: {reason}")
    if len({nicknames.key(name) for name in names}) < len(names):
        raise AppError(400, "Give each team a different name.")
    settings = {key: value for key, value in rnd.settings.items() if key != "seed"}
    set_up(rnd, teacher, rnd.format, {**settings, "team_names": names}, seed=rnd.settings["seed"])
    db.session.commit()


def new_rejoin_code(student):
    """Give a student of an open round a one-time code to get back in on a new device; return it (kept as a hash)."""
    code = "".join(secrets.choice(codes.ALPHABET) for _ in range(REJOIN_CODE_LENGTH))
    student.rejoin_code_hash = token_hash(code)
    return code


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
    return format_of(rnd).machine(rnd)


def votes_of(rnd):
    """Return this turn's answers, first given first, as the machine sees them."""
    return [as_vote(a) for a in turn_votes(rnd)]


# Rows, not ORM objects: the teacher's screens read this turn's answers on every redraw, 1,000 of them in an assembly.
TURN_VOTES = select(Answer.student_id, Answer.gap, Answer.card).where(
    Answer.round_id == bindparam("round_id"), Answer.turn == bindparam("turn")).order_by(Answer.id)


def turn_votes(rnd):
    """Return this turn's answers, first given first, as rows of student_id, gap and card."""
    if rnd.status == "lobby":  # nothing is answered before the start (the teacher's screens redraw as a class joins)
        return []
    return db.session.execute(TURN_VOTES, {"round_id": rnd.id, "turn": turn_of(rnd)}).all()


def as_vote(answer):
    """Return an answer row as the machine sees it."""
    return machine.Vote(answer.student_id, answer.gap, answer.card)


def class_around(rnd, student, given):
    """Return what an answer's guards need of the class: the student's team (or the student), and their own votes
    on this turn (from `given`, their answers in the round).

    Not the whole class: 400 answers to one card would each read 400 students and their answers.
    """
    if student is None:
        return [], []
    teams = format_of(rnd).rules.teams
    team = [s for s in class_of(rnd) if s.team == student.team] if teams else [as_student(student)]
    turn = turn_of(rnd)
    return team, [machine.Vote(student.id, a.gap, a.card) for a in given if a.turn == turn]


def answers_of(rnd, student):
    """Return a student's answers in the round: rows of turn, gap, card and right (None until judged)."""
    return db.session.execute(select(Answer.turn, Answer.gap, Answer.card, Answer.correct)
                              .where(Answer.round_id == rnd.id, Answer.student_id == student.id)).all()


def seconds_left(rnd, student=None):
    """Return the seconds left to answer by the server's clock (None: no timer)."""
    return machine.seconds_left(machine_round(rnd), now().timestamp(), student.extra_seconds if student else 0)


def clock(row, extra_seconds=0):
    """Return the seconds left from a polled round row (format, status, settings, times) without its state."""
    return machine.seconds_left(format_of(row).machine(row, state={}), now().timestamp(), extra_seconds)


def seconds_to_timetable(rnd):
    """Return the seconds until the round's timetable next changes it (a homework opening or closing), or None."""
    moment = format_of(rnd).rules.next_scheduled(machine_round(rnd), now().timestamp())
    return None if moment is None else moment - now().timestamp()


def may_be_due(row):
    """Say from a polled round row whether its turn's time may have run out (then settle decides from the class)."""
    return machine.clock.may_be_due(format_of(row).machine(row, state={}), now().timestamp())


def turn_of(rnd):
    """Return the number of the turn being played."""
    return format_of(rnd).turn(rnd)


def turn_open(rnd):
    """Say whether the current turn takes answers once the round is playing (a pause keeps it open)."""
    return format_of(rnd).rules.open(machine_round(rnd))


def answering(rnd):
    """Say whether students may answer now."""
    return rnd.status == "playing" and turn_open(rnd)


def controls(rnd, answers=None, everyone=None):
    """Return the controls the teacher may use now (`answers`: this turn's, and `everyone`: the class as the machine
    sees it, when the caller has read them)."""
    answers = turn_votes(rnd) if answers is None else answers
    votes = [as_vote(a) for a in answers]
    return machine.controls(machine_round(rnd), class_of(rnd) if everyone is None else everyone, votes,
                            now().timestamp())


def submit(rnd, student, gap, card=None, given=None):
    """Record a student's placement, answer or team vote: exactly one per turn, and only when allowed; return their
    answers by turn ({turn: right?}, this one included), or None if the round moved on meanwhile (`given`: their
    answers so far, as answers_of, when the caller read them)."""
    if given is None:
        given = answers_of(rnd, student) if student is not None else []
    try:
        vote = machine.answer(machine_round(rnd), student and as_student(student), *class_around(rnd, student, given),
                              gap, card, now().timestamp())
    except machine.Refused as refused:
        raise AppError(403 if student is None or student.removed else 409, str(refused)) from refused
    # Judged when the card is revealed (or the team's move is played), so no score moves before then.
    item = format_of(rnd).item_answered(rnd, vote)
    started = aware(rnd.turn_started_at) or now()
    turn, version = turn_of(rnd), rnd.version
    try:
        # One INSERT of its own, not the ORM's flush: an answer is the request 1,000 students each send per card.
        db.session.execute(ANSWER_INSERT, {"round_id": rnd.id, "student_id": student.id, "turn": turn, "card": item,
                                           "gap": gap, "correct": None,
                                           "seconds": max(0.0, (now() - started).total_seconds())})
        live.written(db.session(), rnd.id, live.ANSWER)
        # Read on the answer's own connection where its INSERT is committed already: one checkout fewer per answer.
        progress = turn_progress(rnd) if statements_commit() and machine_round(rnd).rules.whole_class else None
        commit_keeping_loaded()
    except IntegrityError as error:
        db.session.rollback()
        raise AppError(409, "You have already answered this card.") from error
    settle(rnd, progress)  # from the round as read: if it moved on since, settle's claim finds it stale and reads it again
    return {**{a.turn: a.correct for a in given}, turn: None} if rnd.version == version else None


def judge(rnd, judged):
    """Mark this turn's answers right or wrong ({student id: right?}), one statement per verdict: a reveal in front
    of 1,000 students loading and writing back 1,000 answers one by one took a third of a second."""
    verdicts = {}
    for student_id, right in judged.items():
        verdicts.setdefault(right, []).append(student_id)
    for right, students in verdicts.items():
        db.session.execute(ANSWERS.update().where(ANSWERS.c.round_id == rnd.id, ANSWERS.c.turn == turn_of(rnd),
                                                  ANSWERS.c.student_id.in_(students)).values(correct=right))


# Built once, one round trip: settle runs on every panel fetch and every answer of every student. Whether everyone
# answered stops at the first student still to answer: counting a class of 1,000 and its answers took the database
# half a millisecond for each of 1,000 answers to a card.
ACTIVE = (Student.round_id == bindparam("round_id"), Student.removed.is_(False))
# OFFSET 0 keeps this a lookup by the answers' unique key, student by student. Made a join, it was planned from
# statistics not yet gathered (a database's first round of 1,000) as a scan of the turn's answers for each student:
# 80 ms an answer.
ANSWERED = select(Answer.id).where(Answer.round_id == bindparam("round_id"), Answer.student_id == Student.id,
                                   Answer.turn == bindparam("turn")).offset(0).exists()
EVERYONE_ANSWERED = and_(exists().where(*ACTIVE), ~exists().where(*ACTIVE, ~ANSWERED))
TURN_PROGRESS = select(EVERYONE_ANSWERED, literal_column("0"))
TURN_PROGRESS_IN_EXTRA_TIME = select(EVERYONE_ANSWERED,
                                     select(func.max(Student.extra_seconds)).where(*ACTIVE).scalar_subquery())


def nothing_due(rnd, progress=None):
    """Say cheaply that a whole-class turn cannot be due: not everyone answered and the clock still runs
    (`progress`: turn_progress, where the caller read it since its last write).

    Only a shortcut, so that 400 panel fetches do not each read the class: the state machine decides from the
    turn's progress (one query), and when it cannot tell, settle decides from the whole class.
    """
    clock = machine_round(rnd)
    if not clock.rules.whole_class:
        return False
    everyone_answered, most_extra = progress or turn_progress(rnd)
    return machine.nothing_due(clock, now().timestamp(), bool(everyone_answered), most_extra)


def turn_progress(rnd):
    """Return whether every student still in answered this turn, and the most extra time one has: read only once the
    turn's own time is over (0 before, when no extra time can matter yet) (one round trip)."""
    params = {"round_id": rnd.id, "turn": turn_of(rnd)}
    over = machine.clock.out_of_time(machine_round(rnd), now().timestamp(), 0)
    statement = TURN_PROGRESS_IN_EXTRA_TIME if over else TURN_PROGRESS
    if db.session().in_transaction():
        return db.session.execute(statement, params).one()
    # Nothing read since the last commit (an answer just stored): read outside a transaction, so that no BEGIN
    # and no ROLLBACK go to the server for each of 1,000 answers.
    with read_connection() as connection:
        return connection.execute(statement, params).one()


def settle(rnd, progress=None):
    """Move the round on when it is due: its timetable, everyone answered, time ran out, or a team's move is in
    (`progress`: as nothing_due's)."""
    timetabled = machine.on_schedule(machine_round(rnd), now().timestamp())
    if not timetabled and (not answering(rnd) or nothing_due(rnd, progress)):
        return
    _update(rnd, lambda: machine.settle(machine_round(rnd), class_of(rnd), votes_of(rnd), now().timestamp()))


def save(rnd, change):
    """Write a transition's outcome: the round, and this turn's answers judged."""
    judge(rnd, change.judged)
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
    once and could deadlock on PostgreSQL; locked first, the second waits, then finds it stale. The lock is
    PostgreSQL's FOR NO KEY UPDATE: answers and joins, which only refer to the round, go on meanwhile.
    """
    version = db.session.scalar(select(Round.version).where(Round.id == rnd.id).with_for_update(key_share=True))
    if version != rnd.version:
        raise StaleDataError("The round changed meanwhile.")


def control(rnd, action):
    """Carry out one of the teacher's controls and return the round's status after it, or raise a 409 saying why it
    cannot be done now."""
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
    return change.round.status


def student_action(rnd, student_id, action, value=None):
    """Rename, remove, give extra time to, or let back in one of the round's students; return the one-time code
    that lets a student back in (None for the other actions)."""
    given = None
    student = db.session.get(Student, student_id)
    if student is None or student.round_id != rnd.id:
        raise AppError(404, "There is no such student in this round.")
    if action == "rename":
        reason = nickname_problem(rnd, value)
        if reason:
            raise AppError(400, reason)
        student.nickname, student.nickname_key = nicknames.tidy(value), nicknames.key(value)
    elif action == "remove":
        erasure.forget_student(student)  # their name, answers and homework go at once
    elif action == "rejoin":
        if student.pupil_id is not None:
            raise AppError(400, f"{student.nickname} gets back in with their personal code, on any device.")
        given = new_rejoin_code(student)
    elif action == "team":
        refuse_regrouping(rnd)
        if not isinstance(value, int) or not 0 <= value < rnd.settings.get("teams", 0):
            raise AppError(400, f"Choose a team from 1 to {rnd.settings.get('teams', 0)}.")
        student.team = value
    elif action == "extra_time":
        reason = machine.clock.extra_time_problem(value)
        if reason:
            raise AppError(400, reason)
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
    return given
