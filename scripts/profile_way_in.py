#!/usr/bin/env python
"""Measure the server's CPU for each step of a student's way into a live round, and for an answer, in-process.

A teacher registers and creates a round; N students each open the join page, join, open the round page and its
event stream (to the first event); the teacher opens their round's page with everyone in and
starts the round, which every student's stream pushes (one event each); the
teacher starts the round and every student answers its first card (as live.js does). Each request runs through
Flask's test client in this process, so its CPU time (time.process_time) is the server's own, with no network or
load generator in it. Prints the median, p95 and mean CPU milliseconds per step and the statements it sends to the database
(a mean: each is a round trip); --profile STEP prints the
functions that step spends its time in (cProfile).

    python scripts/profile_way_in.py --students 200
    DATABASE_URL=postgresql:///deeptime python scripts/profile_way_in.py --profile join --top 30
"""

import argparse
import cProfile
import os
import pstats
import re
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

STEPS = ("join page", "join", "round page", "events", "teacher page", "push", "answer", "push reveal", "push next")
WAY_IN = "way in"  # --profile's name for the first four steps together
HIDDEN_CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"')
META_CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')
JOIN_CODE = re.compile(r'class="join-code"[^>]*>(\w+)<')
GAP = re.compile(r'name="gap" value="(\d+)"')
CARD = re.compile(r'name="card" value="([^"]+)"')


def csrf_of(html):
    """Return the CSRF token of the first form in `html` (or of its meta tag)."""
    hidden = HIDDEN_CSRF.search(html)
    if hidden:
        return hidden.group(1) or hidden.group(2)
    meta = META_CSRF.search(html)
    return meta.group(1) if meta else ""


class Meter:
    """CPU milliseconds per step, and one cProfile for the step asked for."""

    def __init__(self, profiled):
        self.cpu = defaultdict(list)
        self.statements = defaultdict(list)
        self.seen = []
        self.last = {}
        self.profiled = profiled
        self.profile = cProfile.Profile(time.process_time) if profiled else None  # CPU time, not waits

    def statement(self, _conn, _cursor, statement, *_args):
        """Count a statement sent to the database (BEGIN, COMMIT and ROLLBACK are not statements here)."""
        self.seen.append(statement)

    def run(self, step, call):
        """Run `call` (one request), count its CPU time toward `step`; return its response."""
        profiling = self.profile is not None and self.profiled in (step, WAY_IN if step in STEPS[:4] else None)
        if profiling:
            self.profile.enable()
        self.seen.clear()
        started = time.process_time()
        response = call()
        self.cpu[step].append((time.process_time() - started) * 1000)
        self.statements[step].append(len(self.seen))
        self.last[step] = list(self.seen)
        if profiling:
            self.profile.disable()
        return response


def expect(response, *statuses):
    """Return `response`, or stop with what went wrong when its status is not one of `statuses`."""
    if response.status_code not in statuses:
        raise SystemExit(f"{response.request.method} {response.request.path}: {response.status_code}\n"
                         f"{response.get_data(as_text=True)[:500]}")
    return response


def teacher_round(app, cards):
    """Register a teacher, create a round of `cards` cards; return the teacher's browser, the round's URL and code."""
    teacher = app.test_client()
    token = csrf_of(expect(teacher.get("/teach/register"), 200).get_data(as_text=True))
    email, password = f"profile-{os.getpid()}-{time.time_ns()}@example.org", "correct horse battery 1"
    expect(teacher.post("/teach/register", data={"name": "Profile", "email": email, "password": password,
                                                 "confirm": password, "csrf_token": token}), 302)
    token = csrf_of(expect(teacher.get("/teach/login"), 200).get_data(as_text=True))
    expect(teacher.post("/teach/login", data={"email": email, "password": password, "csrf_token": token}), 302)
    token = csrf_of(expect(teacher.get("/teach/rounds/new"), 200).get_data(as_text=True))
    form = {"title": "Profile", "format": "class_line", "deck": "dinosaurs", "characteristic": "mass",
            "choice": "all", "count": str(cards), "hand_size": "4", "turn_seconds": "0", "leaderboard": "every",
            "teams": "2", "team_mode": "captain", "csrf_token": token}
    url = expect(teacher.post("/teach/rounds/new", data=form), 302).headers["Location"]
    page = expect(teacher.get(url), 200).get_data(as_text=True)
    return teacher, url, JOIN_CODE.search(page).group(1)


def way_in(app, meter, code, number):
    """One student's way in: the join page, the join, the round page and its stream's first event; return their
    browser, CSRF token and open stream."""
    student = app.test_client()
    page = meter.run("join page", lambda: expect(student.get(f"/join?code={code}"), 200))
    token = csrf_of(page.get_data(as_text=True))
    meter.run("join", lambda: expect(student.post("/join", data={"code": code, "name": f"Dino{number}",
                                                                 "csrf_token": token}), 302))
    page = meter.run("round page", lambda: expect(student.get(f"/r/{code}"), 200))
    stream = meter.run("events", lambda: open_stream(student, code))
    return student, csrf_of(page.get_data(as_text=True)) or token, stream


def open_stream(student, code):
    """Open the student's event stream as their page does and read up to its first event; return it, open."""
    response = expect(student.get(f"/r/{code}/events", buffered=False), 200)
    chunks = iter(response.response)
    next_event(chunks)
    return response, chunks


def next_event(chunks):
    """Read a stream up to its next event."""
    for chunk in chunks:
        if b"event:" in chunk:
            return chunk
    return None


def answer(meter, code, student, token, number):
    """Place the first card in a gap, as live.js posts it."""
    html = expect(student.get(f"/r/{code}/panel"), 200).get_data(as_text=True)
    gaps, card = GAP.findall(html), CARD.search(html)
    form = {"gap": gaps[number % len(gaps)] if gaps else "0", "csrf_token": token}
    if card:
        form["card"] = card.group(1)
    meter.run("answer", lambda: expect(student.post(f"/r/{code}/answer", data=form, headers={"X-Live-Panel": "1"}),
                                       200, 409))


def report(meter):
    """Print the CPU milliseconds per step."""
    print(f"{'step':<12}{'requests':>10}{'median ms':>12}{'p95 ms':>10}{'mean ms':>10}{'max ms':>10}{'statements':>12}")
    for step in STEPS:
        values = sorted(meter.cpu.get(step, []))
        if values:
            p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
            print(f"{step:<12}{len(values):>10}{statistics.median(values):>12.1f}{p95:>10.1f}"
                  f"{statistics.fmean(values):>10.1f}{values[-1]:>10.1f}{statistics.fmean(meter.statements[step]):>12.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--cards", type=int, default=3)
    parser.add_argument("--profile", choices=(*STEPS, WAY_IN), help="print where this step's CPU goes")
    parser.add_argument("--top", type=int, default=25, help="functions to print with --profile")
    parser.add_argument("--show-statements", action="store_true", help="print the statements of the last student's steps")
    args = parser.parse_args()

    from sqlalchemy import event

    from webapp import create_app
    from webapp.extensions import db

    url = os.environ.get("DATABASE_URL") or f"sqlite:///{Path(tempfile.mkdtemp()) / 'profile.sqlite3'}"
    app = create_app({"SECRET_KEY": "profile", "SQLALCHEMY_DATABASE_URI": url, "FORGET_DAILY": 0,
                      "JOINS_PER_ADDRESS_HOUR": 10**9, "SESSION_COOKIE_SECURE": False,
                      "LIVE_PUSH": "on"})  # as under gunicorn's gevent worker
    meter = Meter(args.profile)
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", meter.statement)
    teacher, round_url, code = teacher_round(app, args.cards)
    students = [way_in(app, meter, code, number) for number in range(args.students)]
    for _ in range(5):  # the teacher's page with everyone in, as its screen is redrawn while they join
        page = meter.run("teacher page", lambda: expect(teacher.get(round_url), 200)).get_data(as_text=True)
    expect(teacher.post(round_url + "/control", data={"action": "start", "csrf_token": csrf_of(page)}), 200, 302)
    for _student, _token, (_response, chunks) in students:  # the start, pushed to every student's open stream
        meter.run("push", lambda chunks=chunks: next_event(chunks))
    for number, (student, token, _stream) in enumerate(students):
        answer(meter, code, student, token, number)
    for _student, _token, (_response, chunks) in students:  # the last answer revealed the card
        meter.run("push reveal", lambda chunks=chunks: next_event(chunks))
    page = expect(teacher.get(round_url), 200).get_data(as_text=True)
    expect(teacher.post(round_url + "/control", data={"action": "next", "csrf_token": csrf_of(page)}), 200, 204, 302)
    for _student, _token, (_response, chunks) in students:  # the next card, pushed to every stream
        meter.run("push next", lambda chunks=chunks: next_event(chunks))
    for _student, _token, (response, _chunks) in students:  # after the loop: a close timed in it is the next one's
        response.close()
    print(f"{args.students} students, {url.split(':', 1)[0]}")
    report(meter)
    if args.show_statements:
        for step, statements in meter.last.items():
            print(f"-- {step}:", *(" ".join(statement.split())[:160] for statement in statements), sep="\n   ")
    if meter.profile is not None:
        pstats.Stats(meter.profile).strip_dirs().sort_stats("tottime").print_stats(args.top)
        pstats.Stats(meter.profile).strip_dirs().sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
