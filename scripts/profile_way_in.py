#!/usr/bin/env python
"""Measure the server's CPU for each step of a student's way into a live round, and for an answer, in-process.

A teacher registers and creates a round; N students each open the join page, join, and open the round page; the
teacher starts the round and every student answers its first card (as live.js does). Each request runs through
Flask's test client in this process, so its CPU time (time.process_time) is the server's own, with no network or
load generator in it. Prints the median, p95 and mean CPU milliseconds per step; --profile STEP prints the
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

STEPS = ("join page", "join", "round page", "answer")
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
        self.profiled = profiled
        self.profile = cProfile.Profile() if profiled else None

    def run(self, step, call):
        """Run `call` (one request), count its CPU time toward `step`; return its response."""
        profiling = self.profile is not None and step == self.profiled
        if profiling:
            self.profile.enable()
        started = time.process_time()
        response = call()
        self.cpu[step].append((time.process_time() - started) * 1000)
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
    """One student's way in: the join page, the join, the round page; return their browser and CSRF token."""
    student = app.test_client()
    page = meter.run("join page", lambda: expect(student.get(f"/join?code={code}"), 200))
    token = csrf_of(page.get_data(as_text=True))
    meter.run("join", lambda: expect(student.post("/join", data={"code": code, "name": f"Dino{number}",
                                                                 "csrf_token": token}), 302))
    page = meter.run("round page", lambda: expect(student.get(f"/r/{code}"), 200))
    return student, csrf_of(page.get_data(as_text=True)) or token


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
    print(f"{'step':<12}{'requests':>10}{'median ms':>12}{'p95 ms':>10}{'mean ms':>10}")
    for step in STEPS:
        values = sorted(meter.cpu.get(step, []))
        if values:
            p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
            print(f"{step:<12}{len(values):>10}{statistics.median(values):>12.1f}{p95:>10.1f}"
                  f"{statistics.fmean(values):>10.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--cards", type=int, default=3)
    parser.add_argument("--profile", choices=STEPS, help="print where this step's CPU goes")
    parser.add_argument("--top", type=int, default=25, help="functions to print with --profile")
    args = parser.parse_args()

    from webapp import create_app

    url = os.environ.get("DATABASE_URL") or f"sqlite:///{Path(tempfile.mkdtemp()) / 'profile.sqlite3'}"
    app = create_app({"SECRET_KEY": "profile", "SQLALCHEMY_DATABASE_URI": url, "FORGET_DAILY": 0,
                      "JOINS_PER_ADDRESS_HOUR": 10**9, "SESSION_COOKIE_SECURE": False})
    meter = Meter(args.profile)
    teacher, round_url, code = teacher_round(app, args.cards)
    students = [way_in(app, meter, code, number) for number in range(args.students)]
    page = teacher.get(round_url).get_data(as_text=True)
    expect(teacher.post(round_url + "/control", data={"action": "start", "csrf_token": csrf_of(page)}), 200, 302)
    for number, (student, token) in enumerate(students):
        answer(meter, code, student, token, number)
    print(f"{args.students} students, {url.split(':', 1)[0]}")
    report(meter)
    if meter.profile is not None:
        pstats.Stats(meter.profile).strip_dirs().sort_stats("tottime").print_stats(args.top)
        pstats.Stats(meter.profile).strip_dirs().sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
