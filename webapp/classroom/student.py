"""The students' side of classroom rounds: join with a code and a nickname, then play from any device."""

import hmac
import time
from collections import namedtuple
from urllib.parse import quote

from flask import current_app, jsonify, redirect, render_template, request, session, url_for
from sqlalchemy import bindparam, select

from webapp import live
from webapp.classroom import bp, push, rounds
from webapp.classroom.classes import pupils_of
from webapp.classroom.formats import format_of
from webapp.classroom.forms import JoinForm, PupilJoinForm
from webapp.common import codes, limits
from webapp.common.admission import unmetered
from webapp.common.http import conditional_html, live_request
from webapp.common.seats import remember_seats
from webapp.common.tokens import new_token, token_hash
from webapp.database import one_statement_at_a_time, read_connection
from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import Answer, Round, SchoolClass, Student
from webapp.play import store
from webapp.play.forms import PlaceForm

KEPT_ROUNDS = 20


NO_SUCH_CODE = "No round has that code. Check the letters on the board and try again."
TOO_MANY_CODES = "Too many wrong codes from here."


def find_round(code):
    """Return the round with `code` or a 404: a guess, counted as one, unless this browser is in the round."""
    if device_token(codes.normalise(code)):
        rnd = codes.find_round(code)
    else:
        rnd, _ = guess_code(code)
    if rnd is None:
        raise AppError(404, NO_SUCH_CODE)
    return rnd


PROVEN_CODES_KEPT = 5


def guess_code(code):
    """Return (round, game id) for a typed code, either or both None: a guess that counts toward this address's
    and this device's limits when it finds nothing (and is refused with a wait after too many).

    A code this browser already found live is no guess (the join page with the code, then its form): a class of
    1,000 behind one school address would otherwise lock the address's one counter twice per child."""
    proven = session.get("proven_codes", [])
    typed = codes.normalise(code)
    if typed in proven:
        return live_code(code) or (None, None)
    found = limits.guess(limits.code_keys(session.get("device")), lambda: live_code(code), TOO_MANY_CODES)
    if found:
        session["proven_codes"] = [*proven, typed][-PROVEN_CODES_KEPT:]
    return found or (None, None)


def live_code(code):
    """Return (round, None) or (None, game id) for a code of a round or a game, or None for a code of neither."""
    rnd = codes.find_round(code)
    game_id = None if rnd is not None else codes.find_game_id(code)
    return None if rnd is None and game_id is None else (rnd, game_id)


# Built once: every live request of every student reads its round and its student, in one round trip.
ROUND_AND_STUDENT = (select(Round, Student).join(Student, Student.round_id == Round.id)
                     .where(Round.code == bindparam("code"), Student.token_hash == bindparam("token_hash")))


# An answer's: the round, the student and their answers so far (a row each), in one round trip. Under load each
# round trip of a request waits its turn behind everything else its process has to do.
ROUND_STUDENT_AND_ANSWERS = (
    select(Round, Student, Answer.turn, Answer.gap, Answer.card, Answer.correct)
    .join(Student, Student.round_id == Round.id)
    .outerjoin(Answer, (Answer.round_id == Round.id) & (Answer.student_id == Student.id))
    .where(Round.code == bindparam("code"), Student.token_hash == bindparam("token_hash")))


def rows_of_mine(code, statement):
    """Return the rows `statement` finds for the round with `code` and the token this browser holds in it."""
    typed = codes.normalise(code)
    token = device_token(typed)
    return db.session.execute(statement, {"code": typed, "token_hash": token_hash(token)}).all() if token else []


def round_and_student(code):
    """Return the round with `code` (or a 404, as find_round) and this browser's student in it (None if none)."""
    found = rows_of_mine(code, ROUND_AND_STUDENT)
    if found:
        return found[0].Round, found[0].Student
    rnd = find_round(code)
    return rnd, my_student(rnd)


def round_student_and_answers(code):
    """Return round_and_student(code) and the student's answers so far (rows of turn, gap, card and right), or None
    for them where the student is not found that way."""
    rows = rows_of_mine(code, ROUND_STUDENT_AND_ANSWERS)
    if rows:
        return rows[0].Round, rows[0].Student, [row for row in rows if row.turn is not None]
    rnd = find_round(code)  # not round_and_student: its statement would find no row either
    return rnd, my_student(rnd), None


def my_student(rnd):
    """Return the student this browser is in the round, from the token in its session cookie."""
    return rounds.student_for(rnd, session.get("rounds", {}).get(rnd.code))


def device_token(code):
    """Return the token this browser holds for the round with `code` (it may be one its student has left)."""
    return session.get("rounds", {}).get(code)


def keep_token(rnd, token):
    """Keep a round's student token in this browser's session (the newest KEPT_ROUNDS rounds)."""
    kept = dict(session.get("rounds", {}))
    kept.pop(rnd.code, None)
    kept[rnd.code] = token
    session["rounds"] = dict(list(kept.items())[-KEPT_ROUNDS:])


def joined(rnd, student, token, seats):
    """Remember the new student on this device and open their round."""
    keep_token(rnd, token)
    if student.game_id:
        remember_seats(student.game_id, seats)
    return redirect(url_for("classroom.student_round", code=rnd.code))


@bp.route("/join", methods=["GET", "POST"])
def join():
    """Join a round (or a game) with the code on the board and a nickname; a class's round asks who you are."""
    form = JoinForm(code=request.args.get("code", ""))
    session.setdefault("device", new_token())
    if request.method == "GET" and form.code.data:
        try:
            rnd, _ = guess_code(form.code.data)
        except AppError as error:  # too many wrong codes from here: the form says how long to wait
            form.code.errors = [error.message]
            return render_template("classroom/join.html", form=form), error.status
        if rnd is not None and rnd.class_id is not None:
            return redirect(url_for("classroom.join_as_pupil", code=rnd.code))
        form.for_round(rnd)
    if form.validate_on_submit():
        try:
            limits.use("join")
            rnd, game_id = guess_code(form.code.data)
            if rnd is None and game_id is None:
                raise AppError(404, "No round or game has that code. Check the letters on the board and try again.")
            if rnd is not None and rnd.class_id is not None:
                return redirect(url_for("classroom.join_as_pupil", code=rnd.code))
            form.for_round(rnd)
            name = form.chosen_name()
            if not name:
                raise AppError(400, form.missing_name())
            if rnd is None:
                return join_game(game_id, name)
            existing = my_student(rnd)
            if existing and existing.removed:
                raise AppError(403, "The teacher has taken you out of this round: ask them if you may come back.")
            if existing:
                return redirect(url_for("classroom.student_round", code=rnd.code))
            return joined(*rounds.join_round(rnd, name, device_token(rnd.code), form.one_time_code.data))
        except AppError as error:
            field = form.code if error.status in (404, 429) else form.one_time_code if "one-time code" in error.message \
                else form.name
            field.errors.append(error.message)
            return render_template("classroom/join.html", form=form), error.status
    return render_template("classroom/join.html", form=form), 400 if form.errors else 200


@bp.route("/r/<code>/me", methods=["GET", "POST"])
def join_as_pupil(code):
    """Join a round for a class: pick your name from the class list and type the personal code on your slip."""
    rnd = find_round(code)
    if rnd.class_id is None:
        return redirect(url_for("classroom.join", code=rnd.code))
    school_class = db.session.get(SchoolClass, rnd.class_id)
    pupils = pupils_of(school_class)
    form = PupilJoinForm(pupils=pupils)
    status = 200
    if form.validate_on_submit():
        pupil = next((p for p in pupils if str(p.id) == form.pupil.data), None)
        if pupil is None:
            form.pupil.errors.append("Pick your name from the list.")
            status = 400
        elif (refusal := quota_or_wrong_code(pupil, form.personal_code.data)) is not None:
            form.personal_code.errors.append(refusal.message)
            status = refusal.status
        else:
            try:
                return joined(*rounds.join_as_pupil(rnd, pupil))
            except AppError as error:
                form.pupil.errors.append(error.message)
                status = error.status
    elif form.errors:
        status = 400
    return render_template("classroom/join_pupil.html", form=form, round=rnd,
                           class_name=school_class.name), status


def quota_or_wrong_code(pupil, typed):
    """Return the AppError refusing a pupil's join (too many joins from here, a wrong personal code, or too many
    wrong tries), or None if the code is right."""
    keys = limits.personal_code_keys(pupil.id)
    try:
        limits.use("join")
        right = limits.guess(keys, lambda: hmac.compare_digest(pupil.code, codes.normalise(typed)),
                             f"Too many wrong codes for {pupil.display_name}.")
    except AppError as error:
        return error
    if not right:
        return AppError(403, f"That is not the personal code on {pupil.display_name}'s slip. "
                             "Check the slip, or ask your teacher.")
    return None


def join_game(game_id, name):
    """Take the first open seat of the game `game_id` (found by its join code) from this device, and open its board."""
    game, seat, token = store.join(game_id, name)
    remember_seats(game.id, {seat: token})
    return redirect(url_for("play.game", kind=game.kind, game_id=game.id))


MY_ANSWERS = select(Answer.turn, Answer.correct).where(Answer.round_id == bindparam("round_id"),
                                                       Answer.student_id == bindparam("student_id"))


def my_answers(rnd, student):
    """Return a student's answers in the round: {turn: right?} (None until judged)."""
    return dict(db.session.execute(MY_ANSWERS, {"round_id": rnd.id, "student_id": student.id}).all())


def panel_context(rnd, student, csrf=True, error=None, answers=None):
    """Return what a student's live panel shows (`answers`: theirs by turn, when the caller has them)."""
    fmt = format_of(rnd)
    if answers is None:
        answers = my_answers(rnd, student)
    shared = push.shared_view(rnd, fmt.student_viewer(student))
    context = {"round": rnd, "fmt": fmt, "student": student, "error": error, "csrf": csrf,
               "form": PlaceForm(formdata=None), "key": rnd.settings["characteristic"],
               "seconds_left": rounds.seconds_left(rnd, student), "standing": push.standing_of(rnd, student.id, answers, shared), **shared}
    context.update(fmt.student_context(rnd, student, answers, context["obs"]))
    return context


@bp.get("/r/<code>")
def student_round(code):
    """Show a student their round, live."""
    rnd, student = round_and_student(code)
    if student is None:
        left = rounds.moved_from(rnd, device_token(rnd.code))
        if left is not None:
            return render_template("classroom/student/moved.html", round=rnd, student=left), 409
        return redirect(url_for("classroom.join", code=rnd.code))
    if student.removed:
        raise AppError(403, "The teacher has taken you out of this round.")
    elsewhere = format_of(rnd).student_page(rnd, student)
    if elsewhere:
        return redirect(elsewhere)
    rounds.settle(rnd)
    return render_template("classroom/student/round.html", view_key=push.student_view_key(rnd, student),
                           **panel_context(rnd, student))


# Built once: this runs for every student every second, and building the statement cost more than
# running it. Table columns (not ORM attributes) keep it a Core query: no ORM execution step.
_rounds, _students = Round.__table__, Student.__table__
VERSION_QUERY = (
    select(_rounds.c.id, _rounds.c.version, _rounds.c.format, _rounds.c.status, _rounds.c.settings,
           _rounds.c.turn_started_at, _rounds.c.paused_at, _students.c.nickname, _students.c.team, _students.c.removed,
           _students.c.extra_seconds)
    .join(_students, _students.c.round_id == _rounds.c.id)
    .where(_rounds.c.code == bindparam("code"), _students.c.token_hash == bindparam("token_hash"))
)


POLL_CACHE_KEPT = 10_000
RoundPoll = namedtuple("RoundPoll", "id version format status settings turn_started_at paused_at")
StudentPoll = namedtuple("StudentPoll", "nickname team removed extra_seconds")


def poll_rows(code, token):
    """Return the round's and the student's rows a poll needs (None: not a student of that round).

    Every student asks every second, so a process reads a round at most once per
    POLL_CACHE_SECONDS (default 0.25 s: a change reaches students that much later, on top of their
    one-second poll), and a student's row once per round version (renames, removals and extra time
    change the version). One joined query when either is missing. A cache, never the truth.
    """
    cache = current_app.extensions.setdefault("poll_cache", {"rounds": {}, "students": {}})
    digest = token_hash(token or "")
    moment = time.monotonic()
    fresh = cache["rounds"].get(code)
    round_row = fresh[1] if fresh and fresh[0] > moment else None
    student_row = round_row and cache["students"].get((code, round_row.version, digest))
    if student_row is None:
        with read_connection() as connection:
            row = connection.execute(VERSION_QUERY, {"code": code, "token_hash": digest}).one_or_none()
        if row is None:
            return None, None
        for kept in cache.values():
            if len(kept) >= POLL_CACHE_KEPT:
                kept.clear()
        round_row, student_row = RoundPoll(*row[:7]), StudentPoll(*row[7:])
        cache["rounds"][code] = (moment + current_app.config["POLL_CACHE_SECONDS"], round_row)
        cache["students"][(code, round_row.version, digest)] = student_row
    return round_row, student_row


@bp.get("/r/<code>/version")
def version(code):
    """Answer cheaply whether the student's view changed (polled every second; 304 when not).

    No ORM objects, and most polls no query (see poll_rows): this is the request every student
    makes every second.
    """
    code = (code or "").upper()
    rnd, student = poll_rows(code, session.get("rounds", {}).get(code))
    if student is None or student.removed:
        raise AppError(403, "You are not a player in this round.")
    left = rounds.clock(rnd, student.extra_seconds)
    if rounds.may_be_due(rnd):
        rounds.settle(db.session.get(Round, rnd.id))
    key = f"{rnd.version}-{rnd.status}-{student.nickname}-{student.team}"
    response = jsonify({"view": key})
    response.set_etag(key)
    response.headers["Cache-Control"] = "no-cache"
    response = response.make_conditional(request)
    if left is not None:
        response.headers["X-Seconds-Left"] = f"{left:.1f}"
    return response


@bp.get("/r/<code>/panel")
def student_panel(code):
    """Return the live part of the student's page (polled; 304 when nothing changed)."""
    rnd, student = live_student(code)
    rounds.settle(rnd)
    html = render_template("classroom/student/_panel.html", **panel_context(rnd, student, csrf=False))
    return conditional_html(html, rounds.seconds_left(rnd, student))


@bp.get("/r/<code>/events")
@unmetered
def student_events(code):
    """Stream a student's view of their round (server-sent events): now, and after every change that alters it."""
    return push.student_stream(*live_student(code))


def live_student(code):
    """Return (round, student) of this browser's place in a live round, or refuse one it has none in (403), or
    whose format plays on a page of its own (409)."""
    rnd, student = round_and_student(code)
    if student is None or student.removed:
        raise AppError(403, "You are not a player in this round.")
    played_elsewhere(rnd, student)
    return rnd, student


@bp.post("/r/<code>/answer")
def answer(code):
    """Place the current card (or vote for your team's move): exactly once per turn."""
    one_statement_at_a_time()  # a read and one insert: the unique key counts it once, with no transaction around
    rnd, student, given = round_student_and_answers(code)
    if student is not None and not student.removed:
        played_elsewhere(rnd, student)
    form = PlaceForm(meta={"csrf": False})  # read, not validated: CSRFProtect checked the token before the view
    try:
        if form.gap.data is None:
            raise AppError(400, "Choose a place in the line.")
        answers = rounds.submit(rnd, student, form.gap.data, form.card.data or None, given)
    except AppError as error:
        if student is None or student.removed:
            raise
        db.session.refresh(rnd)
        return answered_view(rnd, student, error.message, error.status)
    if live_request():
        return answered_view(rnd, student, answers=answers)
    return redirect(url_for("classroom.student_round", code=rnd.code))


def played_elsewhere(rnd, student):
    """Refuse the live round's panel and answers to a student whose format plays on a page of its own (homework)."""
    elsewhere = format_of(rnd).student_page(rnd, student)
    if elsewhere:
        raise AppError(409, f"This round is played on its own page: {url_for('classroom.student_round', code=rnd.code, _external=True)}")


def answered_view(rnd, student, error=None, status=200, answers=None):
    """Return the student's view after an answer: the panel for the live page, else the whole page."""
    if live_request() and error is None and live.push_on():
        # The panel pushed to everyone who answered alike, drawn once; the student's own standing and clock beside it.
        view = push.answered_look(rnd, student, answers if answers is not None else my_answers(rnd, student))
        return view["html"], status, {"X-Panel": "1", "X-Standing": quote(view["standing"]),
                                      **({} if view["seconds"] is None else {"X-Seconds-Left": f"{view['seconds']:.1f}"})}
    if live_request():
        html = render_template("classroom/student/_panel.html",
                               **panel_context(rnd, student, csrf=False, error=error, answers=answers))
        return html, status, {"X-Panel": "1"}
    return render_template("classroom/student/round.html", **panel_context(rnd, student, error=error)), status
