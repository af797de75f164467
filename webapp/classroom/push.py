"""Live rounds pushed: students, the teacher's page and the stage receive a round's changes as streams.

Render once: after a change, the first stream of a round in a process reads the round once (its students,
their answers, what every student shares) into a snapshot; each student's panel is then one of a few
variants (the format's student_context: answered or not, right or wrong, captain or not), each rendered once
per round version and process (the reply to an answer is one too); only what is a student's own (points and
rank, their clock) is made per student, and small, by the first student stream a change wakes in the process, for
every student woken with it, in one loop (live.stream's `alike`). The teacher's page and the stage are rendered per
stream (a round has one or two), from the same snapshot.
"""

import hashlib
import json
import time
from collections import namedtuple
from dataclasses import dataclass
from functools import cached_property

from flask import current_app, g, render_template
from sqlalchemy import bindparam, inspect, select

from webapp import live
from webapp.classroom import results, rounds
from webapp.classroom.formats import format_of
from webapp.classroom.formats.base import names_in
from webapp.classroom.roster import count_students
from webapp.classroom.versioned import cache, kept_cards, kept_periods, lock_of, per_version, taken
from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import Answer, Round, Student
from webapp.play.forms import PlaceForm

# A round's own columns that move it on; a change of anything else (the settings a rename, a removal or extra time
# touch) is a roster one, which students' screens take at most once a second.
STATE_COLUMNS = ("status", "state", "turn_started_at", "paused_at")
SNAPSHOTS_KEPT = 256  # rounds whose snapshot a process keeps (the newest of each)
JOINS_READ_EVERY = 1.0  # seconds a snapshot serves a stream's first look while only joins came since
SETTLE_AFTER = 0.05  # seconds past a turn's end: the machine then finds the time is up
TEACHER_LAZY = 1.0  # answers and joins redraw the teacher's screens at most once a second


def watch_rounds(app):
    """Make written rounds, joins and answers changes of their round's streams."""
    live.watch(app, Round, round_changed)
    live.watch(app, Student, lambda _session, student, how: how == "new" and (student.round_id, live.JOIN))
    live.watch(app, Answer, lambda _session, answer, how: how == "new" and (answer.round_id, live.ANSWER))


def round_changed(session, rnd, how):
    """Return the change a written round is: it moved on (or went), or only its settings were touched."""
    if how == "new" or (how == "dirty" and not session.is_modified(rnd)):
        return None
    moved = how == "deleted" or any(inspect(rnd).attrs[name].history.has_changes() for name in STATE_COLUMNS)
    return rnd.id, live.STATE if moved else live.ROSTER


def shared_view(rnd, team=None, snap=None):
    """Return the part of a student's panel that every student of the round (or team) sees alike (`snap`: the
    round's snapshot, where the caller has it).

    Kept per round version and built once, because 400 students fetch their panels (or are pushed them) in
    the same second after every reveal.
    """
    return per_version(rnd, ("student", team), lambda: build_shared_view(rnd, team, snap))


def build_shared_view(rnd, team, snap=None):
    """Build the shared part of a student's panel (detached: it outlives the request), the class's size and
    standing from the round's snapshot where there is one, else from the database.

    Every process builds it for every round after each change: when 25 rounds start in the same second, the
    queries it spares are 25 times four round trips that the screens waiting for it queue behind."""
    fmt = format_of(rnd)
    board_mode = rnd.settings.get("leaderboard", "every")
    visible = (board_mode == "every" and rnd.status != "lobby") or (board_mode == "end" and rnd.status == "finished")
    observation = fmt.observe(rnd, team)
    ranked = board_mode != "never" and fmt.ranks_students and rnd.status != "lobby"
    # Points move only at a reveal, which changes the version: a student's place and streak are read off these.
    standing = results.class_standing(rnd, fmt.shown_turns(rnd), ranked, visible and fmt.ranks_students,
                                      right=snap and snap.right_answers)
    return {"obs": observation, "cards": kept_cards(names_in(observation)), "periods": kept_periods(), **standing,
            "class_size": count_students(rnd) if snap is None else snap.class_size}


STUDENTS = Student.__table__
STUDENTS_ROW = namedtuple("StudentRow", [column.key for column in STUDENTS.columns])  # a snapshot's student, as read
# Rows, first given first: the teacher's screens show this turn's as votes.
ANSWERS_FROM = select(Answer.student_id, Answer.turn, Answer.correct, Answer.gap, Answer.card).where(
    Answer.round_id == bindparam("round_id"), Answer.turn >= bindparam("turn")).order_by(Answer.id)
TURN_ANSWERS = ANSWERS_FROM.where(Answer.turn <= bindparam("turn"))


@dataclass
class Snapshot:
    """One round as every student stream of this process sees it between two changes."""

    round: Round
    students: dict
    answers: dict  # student id -> {turn: right?}
    votes: list  # this turn's answers (rows of student_id, gap, card...), first given first

    @cached_property
    def class_size(self):
        """Return how many students are in the round (removed ones left out), as roster.count_students."""
        return sum(1 for student in self.students.values() if not student.removed)

    @cached_property
    def right_answers(self):
        """Return {student id: (nickname, right answers)} of the students still in the round with a right answer, as
        results.right_answers reads them."""
        counted = {student_id: sum(1 for right in self.answers.get(student_id, {}).values() if right is True)
                   for student_id, student in self.students.items() if not student.removed}
        return {student_id: (self.students[student_id].nickname, count)
                for student_id, count in counted.items() if count}

    @cached_property
    def roster(self):
        """Return every student (removed ones too) in joining order."""
        return sorted(self.students.values(), key=lambda student: student.id)


def snapshot(round_id, joins_may_lag=False):
    """Return the round's snapshot for what this process last heard of it, reading it once per change.

    `joins_may_lag`: a snapshot that missed only joins serves (see lags_by_joins_only). A stream's first look asks
    for that: when a class of 1,000 joins, each newcomer's stream opening must not read the whole class again.
    """
    snapshots = cache("live_snapshots")
    stamp, trusted = live.hub().stamp(round_id), live.listening()  # deaf to changes, no snapshot can be trusted
    made = snapshots["kept"].get(round_id) if trusted else None
    if made is not None and made[0] == stamp:
        return made[2]  # current: the many looks after a change take no lock
    with taken(lock_of(snapshots, round_id)):  # the first stream reads; the others, woken with it, wait and reuse it
        kept = snapshots["kept"]
        made = kept.get(round_id) if trusted else None
        if made is None or made[2] is None or kind_changed(made, stamp, live.JOIN, live.ROSTER, live.SYNC):
            if made is not None and made[2] is not None and joins_may_lag and lags_by_joins_only(made, stamp):
                return made[2]
            if len(kept) >= SNAPSHOTS_KEPT:
                kept.clear()
            made = kept[round_id] = (stamp, time.monotonic(), read_snapshot(round_id))
        elif kind_changed(made, stamp, live.STATE):
            made = kept[round_id] = (stamp, made[1], read_snapshot(round_id, made[2]))
        elif made[0] != stamp:
            made = kept[round_id] = (stamp, made[1], with_new_answers(made[2]))
        return made[2]


def kind_changed(made, stamp, *kinds):
    """Say whether changes of any of `kinds` came since the snapshot made at stamp made[0] was read."""
    return any(made[0][kind] != stamp[kind] for kind in kinds)


def with_new_answers(snap):
    """Return the snapshot with this turn's answers read again: answers are given only to the turn being played, and
    nothing else of a round changes meanwhile (judging them, a new turn, a student coming or going are changes of
    other kinds)."""
    answers = dict(snap.answers)
    turn = rounds.turn_of(snap.round)
    votes = db.session.execute(TURN_ANSWERS, {"round_id": snap.round.id, "turn": turn}).all()
    for vote in votes:
        answers[vote.student_id] = {**answers.get(vote.student_id, {}), turn: vote.correct}
    return Snapshot(snap.round, snap.students, answers, votes)


def lags_by_joins_only(made, stamp):
    """Say whether a snapshot (stamp, moment read, snapshot) missed only joins and is under a second old, or is of a
    round in its lobby: a student's screen there shows nothing of the class (it ignores joins), so the snapshot
    read at the first join serves every newcomer's first look until the round starts, in every process."""
    read_at, moment, snap = made
    return all(read_at[kind] == stamp[kind] for kind in stamp if kind != live.JOIN) and \
        (snap.round.status == "lobby" or time.monotonic() - moment < JOINS_READ_EVERY)


def read_snapshot(round_id, since=None):
    """Read a round, its students and their answers, detached from the session (None: the round is gone).

    `since`: the snapshot before a change that only moved the round on (no one came, went or was changed): its
    students are kept, and of their answers only those of its turn onwards are read again, the ones a reveal
    judges (from the next turn on, if its turn had closed). A reveal in front of 1,000 students then reads one
    card's answers, not every card's, in each process, and a "next" only the new card's.
    """
    rnd = db.session.get(Round, round_id)
    if rnd is None:
        return None
    if since is None:
        # Rows, not ORM objects: a class of 1,000 is read again after every change of its students, in every process.
        students, answers, first_turn = \
            {row.id: row for row in db.session.execute(select(STUDENTS).where(STUDENTS.c.round_id == round_id))}, {}, 0
    else:
        # A turn's answers are final once it closed (judged at its reveal): a "next" does not read again the answers
        # of the card revealed before the snapshot was read, 1,000 rows in every process.
        settled = rounds.turn_of(since.round) + (0 if rounds.turn_open(since.round) else 1)
        students, first_turn = since.students, min(settled, rounds.turn_of(rnd))
        answers = {student_id: {turn: right for turn, right in given.items() if turn < first_turn}
                   for student_id, given in since.answers.items()}
    rows, turn = db.session.execute(ANSWERS_FROM, {"round_id": round_id, "turn": first_turn}).all(), rounds.turn_of(rnd)
    for row in rows:
        answers.setdefault(row.student_id, {})[row.turn] = row.correct
    db.session.expunge(rnd)
    # Once per change and process, not per student: the turn ends for everyone when the most extra time runs out.
    most_extra = max((s.extra_seconds for s in students.values() if not s.removed), default=0)
    left = rounds.seconds_left(rnd)
    settle_when_due(rnd, None if left is None else left + most_extra)
    return Snapshot(rnd, students, answers, [row for row in rows if row.turn == turn])


def digest(text):
    """Return a short fingerprint of some text."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def student_look(round_id, student_id, held, woken_by, as_read=None):
    """Return a student's view now: their panel (a shared variant), standing and clock; None once they are out
    (removed, or gone on with their personal code on another device than the one holding `held`).

    `as_read`: the student's row as the stream's own request read it, standing in for them while the snapshot is
    older than their join (it is read again within a second of any other change of the class)."""
    snap = snapshot(round_id, joins_may_lag=not woken_by)
    student = snap and (snap.students.get(student_id) or (None if woken_by else as_read))
    if snap and not woken_by and (student is None or student.token_hash != held):
        student = db.session.get(Student, student_id)  # they joined after the snapshot was read
    if student is None or student.removed or student.token_hash != held:
        return None
    rnd = snap.round
    if format_of(rnd).student_page(rnd, student):
        return None
    html, drawn, standing, seconds = view_of(rnd, student, snap.answers.get(student_id, {}), snap)
    # In the lobby a student's screen says only "you're in": 1,000 joins need not wake 1,000 screens each.
    return {"key": f"{drawn}.{digest(standing)}.{clock_key(rnd, seconds)}", "html": html,
            "standing": standing, "seconds": seconds, "ignores": [live.JOIN] if rnd.status == "lobby" else []}


def answered_look(rnd, student, answers):
    """Return a student's view just after their answer (`answers`: theirs by turn, this one in), from the round as
    their request read it."""
    html, _, standing, seconds = view_of(rnd, student, answers)
    return {"html": html, "standing": standing, "seconds": seconds}


def view_of(rnd, student, answers, snap=None):
    """Return a student's view: their variant's panel (drawn once for all who share it) and its digest, and their
    own standing and clock (`answers`: theirs by turn; `snap`: the round's snapshot, where the caller has it)."""
    fmt = format_of(rnd)
    shared = shared_view(rnd, fmt.student_viewer(student), snap)
    html, drawn = panel_of(rnd, fmt, student, shared, fmt.student_context(rnd, student, answers, shared["obs"]))
    return html, drawn, standing_of(rnd, student.id, answers, shared), rounds.seconds_left(rnd, student)


def panel_of(rnd, fmt, student, shared, own):
    """Return a student's panel and its digest: one variant (`own`: the format's student_context) of this version of
    the round, drawn once per process for every student who shares it."""
    variant = (fmt.student_viewer(student), json.dumps(own, sort_keys=True, default=str))

    def draw():
        html = render_template("classroom/student/_panel.html", **variant_context(rnd, fmt, student, shared, own))
        return html, digest(html)
    return per_version(rnd, ("panel", variant), draw)


def standing_of(rnd, student_id, answers, shared):
    """Say a student's points and, where the teacher shows rankings, their place (and streak, where named)."""
    return results.standing(rnd, student_id, answers, shared)


def variant_context(rnd, fmt, student, shared, own):
    """Return what a student's panel is drawn from, with nothing of the student's own but `own` (their variant)."""
    timer = rounds.seconds_left(rnd) is not None
    # The clock's number and the standing are the student's own: the page sets them from the event.
    return {"round": rnd, "fmt": fmt, "student": student, "error": None, "csrf": False,
            "form": PlaceForm(formdata=None), "key": rnd.settings["characteristic"],
            "seconds_left": 0.0 if timer else None, "standing": "", **shared, **own}


def clock_key(rnd, seconds):
    """Return what stays the same while a student's clock runs as it did: when it ends (or, paused, what is left)."""
    if seconds is None:
        return ""
    return str(round(seconds)) if rnd.status == "paused" else str(round(time.time() + seconds))


def settle_when_due(rnd, seconds):
    """Have this process settle the round when a turn's time runs out or its timetable moves it (with no polls,
    nothing else would), if that comes before the stream ends."""
    moments = [seconds] if seconds is not None and rnd.status == "playing" else []
    moments += [rounds.seconds_to_timetable(rnd)]
    due = min((moment for moment in moments if moment is not None), default=None)
    if due is None or due > current_app.config["LIVE_STREAM_SECONDS"]:
        return
    app, round_id = current_app._get_current_object(), rnd.id

    def settle():
        with app.app_context():
            found = db.session.get(Round, round_id)
            if found is not None:
                rounds.settle(found)
            db.session.remove()

    live.hub().call_at(("settle", round_id, round(time.time() + due, 1)), due + SETTLE_AFTER, settle)


def teacher_look(round_id, template, view, woken_by=frozenset()):
    """Return the teacher's page's or the stage's live part now (`view(rnd, everyone, turn_answers)` its context);
    None once the round is gone.

    Answers and the round moving on redraw it from the round's snapshot, which this process reads once per change
    for all the round's screens: a teacher's screens redraw every second while answers come in, and read nothing
    then; 25 classes revealing in the same minute read each round once per process, not once more per screen. The
    request or timer that moved the round on settled it. Anything else (the first look, a heartbeat's, someone
    joining or removed, a resync) reads the round afresh and settles it.
    """
    snap = snapshot(round_id) if woken_by and woken_by <= {live.ANSWER, live.STATE} else None
    if snap is not None and snap.round.teacher_id == g.teacher.id:
        return teacher_shown(snap.round, template, view(snap.round, snap.roster, snap.votes))
    try:
        rnd = rounds.teacher_round(round_id, g.teacher)
    except AppError:
        return None
    rounds.settle(rnd)  # as the polled panel does: a change made outside the app's requests is caught up here
    forget_if_behind(rnd)
    return teacher_shown(rnd, template, view(rnd))


def forget_if_behind(rnd):
    """Forget this process's snapshot of the round if it is older than the round just read: a change this process
    never heard of (made outside the app's requests) must not be drawn over by the next redraw."""
    kept = cache("live_snapshots")["kept"]
    made = kept.get(rnd.id)
    if made is not None and made[2] is not None and made[2].round.version != rnd.version:
        kept.pop(rnd.id, None)


def teacher_shown(rnd, template, context):
    """Return the teacher's screen's live part drawn from `context` (what its view made of the round)."""
    html = render_template(template, **context)
    seconds = rounds.seconds_left(rnd)
    settle_when_due(rnd, seconds)
    return {"key": f"{digest(html)}.{clock_key(rnd, seconds)}", "html": html, "seconds": seconds}


def student_view_key(rnd, student):
    """Return the key of the view a student's stream would send now, so their page's stream, which names it,
    sends nothing until something changes (None when this server does not push)."""
    if not live.push_on():
        return None
    shown = student_look(rnd.id, student.id, student.token_hash, frozenset())
    return shown and shown["key"]


def teacher_view_key(rnd, template, context):
    """Return the key of the view a teacher's screen's stream would send now, from the context its page was drawn
    from (read once for both), or None when this server does not push."""
    if not live.push_on():
        return None
    return teacher_shown(rnd, template, context)["key"]


def student_stream(rnd, student):
    """Stream a student's view of their round: now, and after every change that alters it (204: this server polls)."""
    if not live.push_on():
        return "", 204  # an event stream's way of saying "do not reconnect": the page polls
    round_id, student_id, held = rnd.id, student.id, student.token_hash
    # A newcomer's stream opens before the class's snapshot holds them: its first look need not read them again.
    as_read = STUDENTS_ROW(*(getattr(student, column.key) for column in STUDENTS.columns))
    return live.stream(round_id, lambda woken_by: student_look(round_id, student_id, held, woken_by, as_read),
                       follows=(live.STATE, live.ROSTER, live.JOIN), alike=True)


def teacher_stream(rnd, template, view):
    """Stream a teacher's screen of their round (`view(rnd)` its context): every change, answers and joins at
    most once a second (204: this server polls)."""
    if not live.push_on():
        return "", 204
    round_id = rnd.id
    return live.stream(round_id, lambda woken_by: teacher_look(round_id, template, view, woken_by),
                       follows=(live.STATE, live.ROSTER, live.JOIN, live.ANSWER), lazy=TEACHER_LAZY)
