"""Load-test classroom rounds against a running server: one teacher, N students, a class line.

With --class-size M the N students are split into ceil(N / M) rounds played side by side, each with
its own teacher (a school's many classes on one instance) instead of one round of N.

Start the app first (any way: flask, gunicorn, several workers; over plain HTTP, start gunicorn with
COOKIE_SECURE=0 or no cookie comes back; every student comes from this one address, so lift the per-address
limits for a run of more than a class, e.g. JOINS_PER_ADDRESS_HOUR=100000000 SIGNUPS_PER_ADDRESS_HOUR=100000000),
then for example:

    python scripts/load_classroom.py --url http://127.0.0.1:8000 --students 40 --cards 5

What one run does, as browsers would:

1. The teacher registers (a random email), logs in, creates a class-line round (dinosaurs, weight, no timer)
   and opens the round page, which shows the join code. The teacher's live view then polls
   GET /teach/rounds/<id>/panel every --poll-interval seconds with If-None-Match.
2. All students join at once (or spread over --join-spread seconds): GET /join, POST /join with the
   code and a unique nickname, GET /r/<code> (the round page and its CSRF token). Each student has
   its own httpx.AsyncClient, so its own cookie jar. Then each polls GET /r/<code>/version every
   --poll-interval seconds with If-None-Match (a 304 when nothing changed) and, when the view
   changed, fetches GET /r/<code>/panel, as the page's live.js does.
3. When every student has joined, the teacher starts the round. For each card, a student who sees
   the answer form waits a random 0..--think seconds and posts one gap by fetch, as live.js does
   (header X-Live-Panel: 1; the reply is the student's new panel, no page load). The round reveals
   itself when everyone has answered; when the teacher's panel shows the reveal, the teacher sends
   "next" (the redirect to the round page is followed). If the class has not all answered after
   --turn-timeout seconds, or all answered but no reveal shows, the teacher sends "reveal".
4. The run ends when the round is finished and every student has seen it, or at --max-seconds.

Every request is timed (time.perf_counter, from sending to the whole body read) and its status
kept, per kind: join (GET/POST /join and the first GET /r/<code>), poll (students' panels),
answer (POST /r/<code>/answer), page (the round page loaded after an answer), teacher (everything
the teacher sends) and overall. Before the round, --baseline sequential GET /healthz requests give
a reference latency on the same server in the same run (not counted in "overall").

Errors: every 5xx, every connection error or timeout, and every 4xx other than 409 (a 409 is the
app's answer to a conflict, e.g. an answer after the reveal: counted and reported apart), and any
other status a step did not expect; they are counted by kind (HTTP status, or httpx's exception:
RemoteProtocolError "Server disconnected without sending a response" is the server closing a kept-alive
connection just as a request was sent on it, ReadTimeout a request not answered within --timeout).
The exit code is 1 if there was any error, if not every answer
was accepted, or if the round did not finish before the deadline.

The load generator runs on the same machine as the server in the usual set-up: its own CPU use and
its event loop's lag are printed, so that latencies inflated by the client itself can be told apart.
Idle connections are dropped after --keepalive-expiry (1.5 s), below gunicorn's 2 s keep-alive, so
that no request is sent on a connection the server is closing (which would count as an error).

Throughput against a bare endpoint (--hammer-seconds S): after the round (or instead of it, with
--skip-round), a closed-loop hammer measures what the server can serve. A second teacher creates a
round, --hammer-students students join and the round is started; then --hammer-concurrency
connections (default: --students) each send the next request as soon as the previous answer is read,
for S seconds per target, after --hammer-warmup seconds that are not counted:

- bare: GET /ping, a constant {"ok": true} with no database access;
- poll 304: GET /r/<code>/version with the student's ETag in If-None-Match (nothing changed);
- poll 200: GET /r/<code>/version without If-None-Match (the answer after a change).

Every connection carries one of the students' cookies, to every target, as a browser would (so the
bare endpoint also decodes the session). The targets take turns, --hammer-rounds times, so that a
change of the machine's load during the run falls on all of them alike. The hammer's client is a few
lines of HTTP/1.1 over asyncio streams (keep-alive, Content-Length bodies), far cheaper per request
than httpx, so that the client takes little of the CPU the server needs; its CPU use is printed.
Reported per target: requests/s (requests started in the measured window / its length), p50, p95,
p99, max, errors (a status other than the expected one, a connection error, or no answer within
--timeout), and the ratio poll/bare of the throughputs.

CPU: the client's own CPU (time.process_time) and, on Linux, the whole machine's busy share from
/proc/stat are printed for the round and for every hammer target; --watch-pids PID,... adds the CPU
of those processes and all their descendants (e.g. the gunicorn master and PostgreSQL's postmaster),
so that "other" work on a shared machine shows too. --json PATH writes every figure for
scripts/load_matrix.py.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import secrets
import ssl
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html import unescape

import httpx

KINDS = ("join", "poll", "answer", "page", "teacher")

CSRF_META = re.compile(r'<meta\s+name="csrf-token"\s+content="([^"]*)"')
INPUT_TAG = re.compile(r"<input\b[^>]*>", re.IGNORECASE)
JOIN_CODE = re.compile(r'class="join-code"[^>]*>\s*([A-Z0-9]{3,8})\s*<')
ROUND_ID = re.compile(r"/teach/rounds/(\d+)")
CARD_OF = re.compile(r"Card (\d+) of (\d+)")
ANSWERED = re.compile(r"(\d+) of (\d+) answered")
STATUS = re.compile(r'data-round-status="(\w+)"')
GAP = re.compile(r'name="gap"\s+value="(\d+)"')
CARD = re.compile(r'name="card"\s+value="([^"]+)"')
ERROR_MESSAGE = re.compile(r'<section class="error-page">.*?<h1>(.*?)</h1>\s*<p>(.*?)</p>', re.DOTALL)
NOTICE = re.compile(r'<p class="notice" role="alert">(.*?)</p>', re.DOTALL)
FIELD_ERROR = re.compile(r'<p class="field-error"[^>]*>(.*?)</p>', re.DOTALL)


def hidden_csrf(html):
    """Return the value of the form's hidden csrf_token input, or None."""
    for tag in INPUT_TAG.findall(html):
        if 'name="csrf_token"' in tag:
            value = re.search(r'value="([^"]*)"', tag)
            if value and value.group(1):
                return unescape(value.group(1))
    return None


def meta_csrf(html):
    """Return the content of <meta name="csrf-token">, or None."""
    match = CSRF_META.search(html)
    return unescape(match.group(1)) if match else None


def why(text):
    """Return the sentence an error page or a refused form gives, for the report."""
    for pattern in (ERROR_MESSAGE, NOTICE):
        match = pattern.search(text)
        if match:
            return " ".join(unescape(g).strip() for g in match.groups())
    match = FIELD_ERROR.search(text)
    if match:
        return unescape(match.group(1)).strip()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))[:200].strip()


class Failed(Exception):
    """A step that cannot go on (the error itself is already recorded)."""


@dataclass
class Sample:
    kind: str
    endpoint: str
    status: int | None
    seconds: float
    error: bool


@dataclass
class Stats:
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    error_kinds: Counter = field(default_factory=Counter)
    conflicts: Counter = field(default_factory=Counter)
    answers_accepted: int = 0
    answers_refused: int = 0
    started: float = 0.0
    finished: float = 0.0
    max_error_lines: int = 25

    def add(self, sample, detail=None):
        self.samples.append(sample)
        if sample.error and detail:
            self.errors.append(detail)


class Http:
    """One simulated browser: an httpx.AsyncClient (own cookie jar) whose requests are all recorded."""

    def __init__(self, base_url, stats, timeout, ssl_context, keepalive_expiry):
        self.stats = stats
        # keepalive_expiry below the server's keep-alive (gunicorn: 2 s) so that an idle connection is
        # dropped here first: reusing one the server is closing fails the request with a ReadError.
        self.client = httpx.AsyncClient(
            base_url=base_url, timeout=httpx.Timeout(timeout), follow_redirects=False, verify=ssl_context,
            limits=httpx.Limits(max_connections=4, max_keepalive_connections=2, keepalive_expiry=keepalive_expiry),
            headers={"User-Agent": "load_classroom/1", "Accept": "text/html,*/*;q=0.8"})

    async def close(self):
        await self.client.aclose()

    async def request(self, kind, endpoint, method, url, expect=(200,), **kwargs):
        """Send one request; record it; return the response (None on a connection error or timeout)."""
        start = time.perf_counter()
        try:
            response = await self.client.request(method, url, **kwargs)
        except httpx.HTTPError as error:
            seconds = time.perf_counter() - start
            self.stats.error_kinds[type(error).__name__] += 1
            self.stats.add(Sample(kind, endpoint, None, seconds, True),
                           f"{method} {url}: {type(error).__name__}: {error!s:.150} after {seconds * 1000:.0f} ms")
            return None
        seconds = time.perf_counter() - start
        status = response.status_code
        error = status >= 500 or (400 <= status < 500 and status != 409) or (status != 409 and status not in expect)
        detail = None
        if status == 409:
            self.stats.conflicts[f"{method} {endpoint}: {why(response.text)}"] += 1
        elif error:
            self.stats.error_kinds[f"HTTP {status}"] += 1
            body = ""
            if method == "POST" and "data" in kwargs:
                body = " body " + "&".join(f"{k}={'…' if k in ('csrf_token', 'password', 'confirm') else v}"
                                           for k, v in kwargs["data"].items())
            detail = f"{method} {url}{body} -> {status} (expected {'/'.join(map(str, expect))}): {why(response.text)}"
        self.stats.add(Sample(kind, endpoint, status, seconds, error), detail)
        return response


def location(response):
    return response.headers.get("location", "") if response is not None else ""


async def follow(http, kind, endpoint, response):
    """Load the page a POST redirected to, as the browser does after a form submit."""
    target = location(response)
    if not target:
        return None
    return await http.request(kind, endpoint, "GET", target)


# --------------------------------------------------------------------------------------------- teacher


@dataclass
class Round:
    id: int = 0
    code: str = ""
    cards: int = 0
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    started: asyncio.Event = field(default_factory=asyncio.Event)


async def teacher_setup(http, args, rnd):
    """Register, create the round, open its page; return the CSRF token for the controls."""
    page = await http.request("teacher", "GET /teach/register", "GET", "/teach/register")
    token = hidden_csrf(page.text) if page is not None else None
    if not token:
        raise Failed("no CSRF token on /teach/register")
    email = f"load-{secrets.token_hex(6)}@example.org"
    password = secrets.token_urlsafe(12)
    response = await http.request("teacher", "POST /teach/register", "POST", "/teach/register", expect=(302,),
                                  data={"name": "Load Test", "email": email, "password": password,
                                        "confirm": password, "csrf_token": token})
    if response is None or response.status_code != 302:
        raise Failed("registration failed")
    # Registering logs no one in (it answers alike for a new and a taken e-mail): log in as a teacher does.
    page = await http.request("teacher", "GET /teach/login", "GET", "/teach/login")
    token = hidden_csrf(page.text) if page is not None else None
    response = await http.request("teacher", "POST /teach/login", "POST", "/teach/login", expect=(302,),
                                  data={"email": email, "password": password, "csrf_token": token})
    if response is None or response.status_code != 302:
        raise Failed("logging in failed")
    page = await http.request("teacher", "GET /teach/rounds/new", "GET", "/teach/rounds/new")
    token = hidden_csrf(page.text) if page is not None else None
    if not token:
        raise Failed("no CSRF token on /teach/rounds/new")
    form = {"title": f"Load test {time.strftime('%H:%M:%S')}", "format": "class_line", "deck": "dinosaurs",
            "characteristic": "mass", "choice": "all", "count": str(args.cards), "hand_size": "4",
            "turn_seconds": str(args.turn_seconds), "leaderboard": "every", "teams": "2", "team_mode": "captain",
            "csrf_token": token}
    response = await http.request("teacher", "POST /teach/rounds/new", "POST", "/teach/rounds/new",
                                  expect=(302,), data=form)
    match = ROUND_ID.search(location(response))
    if not match:
        raise Failed("the round was not created")
    rnd.id, rnd.cards = int(match.group(1)), args.cards
    page = await http.request("teacher", "GET /teach/rounds/<id>", "GET", f"/teach/rounds/{rnd.id}")
    if page is None or page.status_code != 200:
        raise Failed("the round page did not open")
    code = JOIN_CODE.search(page.text)
    token = meta_csrf(page.text)
    if not code or not token:
        raise Failed("no join code or CSRF token on the round page")
    rnd.code = code.group(1)
    return token


async def teacher_control(http, rnd, token, action):
    """Press a control button; follow the redirect to the round page; return the new CSRF token."""
    response = await http.request("teacher", "POST /teach/rounds/<id>/control", "POST",
                                  f"/teach/rounds/{rnd.id}/control", expect=(302,),
                                  data={"action": action, "csrf_token": token})
    if response is None:
        return token, False
    if response.status_code == 302:
        page = await follow(http, "teacher", "GET /teach/rounds/<id>", response)
        if page is not None and page.status_code == 200:
            token = meta_csrf(page.text) or token
    return token, response.status_code == 302


async def teacher_live(http, args, rnd, token, joined, log):
    """Start the round when the class is in; poll the panel; reveal/next until the round is over."""
    etag = last_html = None
    next_poll = time.perf_counter()
    turn_started = None
    all_in_polls = 0
    nexts = 0
    reveal_sent_for = set()
    started = False
    while True:
        if not started and joined.is_set():
            token, ok = await teacher_control(http, rnd, token, "start")
            if not ok:
                raise Failed("the round could not be started")
            started, etag, turn_started = True, None, time.perf_counter()
            rnd.started.set()
            log(f"round started with {joined.count} students")
        now = time.perf_counter()
        if now < next_poll:
            await asyncio.sleep(next_poll - now)
        next_poll = max(next_poll + args.poll_interval, time.perf_counter())
        headers = {"If-None-Match": etag} if etag else {}
        panel = await http.request("teacher", "GET /teach/rounds/<id>/panel", "GET",
                                   f"/teach/rounds/{rnd.id}/panel", expect=(200, 304), headers=headers)
        if panel is None or panel.status_code not in (200, 304):
            continue
        fresh = panel.status_code == 200
        if fresh:
            etag, last_html = panel.headers.get("etag") or None, panel.text
        if not started or last_html is None:
            continue
        html = last_html
        status = STATUS.search(html)
        if status and status.group(1).lower() == "finished":
            rnd.finished.set()
            log("round finished")
            return
        card = CARD_OF.search(html)
        if card is None:
            # Outside the answering phase the panel shows the last reveal: go on to the next card.
            # Only on a fresh view: after every control the ETag is dropped, so the next poll is one.
            if fresh and "Revealed:" in html:
                nexts += 1
                log(f"card {nexts} of {rnd.cards} revealed; next sent")
                token, _ = await teacher_control(http, rnd, token, "next")
                etag, turn_started, all_in_polls = None, time.perf_counter(), 0
            continue
        turn = int(card.group(1)) - 1
        answered = ANSWERED.search(html)
        everyone = bool(answered) and int(answered.group(2)) > 0 and int(answered.group(1)) >= int(answered.group(2))
        all_in_polls = all_in_polls + 1 if everyone else 0
        overdue = turn_started is not None and time.perf_counter() - turn_started > args.turn_timeout
        if (all_in_polls >= 2 or overdue) and turn not in reveal_sent_for:
            reveal_sent_for.add(turn)
            reason = "everyone answered but no reveal showed" if all_in_polls >= 2 else \
                f"not all answered after {args.turn_timeout:.0f} s ({answered.group(0) if answered else '?'})"
            log(f"card {turn + 1}: {reason}; reveal sent")
            token, _ = await teacher_control(http, rnd, token, "reveal")
            etag = None


# --------------------------------------------------------------------------------------------- students


class Joined:
    """How many students are in; set when every join attempt has ended."""

    def __init__(self, expected):
        self.expected, self.count, self.ended = expected, 0, 0
        self.event = asyncio.Event()

    def done(self, ok):
        self.count += ok
        self.ended += 1
        if self.ended >= self.expected:
            self.event.set()

    def is_set(self):
        return self.event.is_set()


async def join(http, code, nickname):
    """GET /join, POST /join with the code and a nickname; return the CSRF token (Failed if refused)."""
    page = await http.request("join", "GET /join", "GET", "/join", params={"code": code})
    token = hidden_csrf(page.text) if page is not None else None
    if not token:
        raise Failed("no CSRF token on /join")
    response = await http.request("join", "POST /join", "POST", "/join", expect=(302,),
                                  data={"code": code, "name": nickname, "csrf_token": token})
    if response is None or response.status_code != 302 or f"/r/{code}" not in location(response):
        raise Failed("join refused")
    return token


async def student(http, args, rnd, number, joined, stats, rng):
    """Join, then poll and answer each card once until the round is over."""
    code = rnd.code
    if args.join_spread > 0:
        await asyncio.sleep(rng.uniform(0, args.join_spread))
    try:
        token = await join(http, code, f"Kid {number:03d} {secrets.token_hex(2)}")
    except Failed:
        joined.done(False)
        return
    joined.done(True)  # the server has the student now, whatever happens to the page load below
    page = await http.request("join", "GET /r/<code>", "GET", f"/r/{code}")
    # The session's CSRF token is the same on every page: if the round page failed to load (an error
    # recorded above), go on with the one from /join, as the live view would once the page is reloaded.
    token = (meta_csrf(page.text) if page is not None and page.status_code == 200 else None) or token

    etag = None
    answered_turns: set[int] = set()
    answering: dict[int, asyncio.Task] = {}

    async def answer(turn, gaps, card):
        await asyncio.sleep(rng.uniform(0, args.think))
        data = {"gap": str(rng.choice(gaps)), "csrf_token": token}
        if card:
            data["card"] = card
        # As live.js does: the answer goes by fetch and its reply is the new panel (no page load).
        response = await http.request("answer", "POST /r/<code>/answer", "POST", f"/r/{code}/answer",
                                      expect=(200,), data=data, headers={"X-Live-Panel": "1"})
        if response is not None and response.status_code == 200:
            stats.answers_accepted += 1
        else:
            stats.answers_refused += 1

    await asyncio.sleep(rng.uniform(0, args.poll_interval))  # browsers are not in step
    next_poll = time.perf_counter()
    try:
        while True:
            now = time.perf_counter()
            if now < next_poll:
                await asyncio.sleep(next_poll - now)
            next_poll = max(next_poll + args.poll_interval, time.perf_counter())
            headers = {"If-None-Match": etag} if etag else {}
            # As live.js does: poll the tiny version; fetch the panel only when the view changed.
            version = await http.request("poll", "GET /r/<code>/version", "GET", f"/r/{code}/version",
                                         expect=(200, 304), headers=headers)
            if version is None or version.status_code != 200:
                if rnd.finished.is_set() and (version is None or version.status_code != 304):
                    return
                continue
            etag = version.headers.get("etag") or None
            panel = await http.request("poll", "GET /r/<code>/panel", "GET", f"/r/{code}/panel")
            if panel is None or panel.status_code != 200:
                continue
            html = panel.text
            if "The round is over" in html:
                return
            if f'action="/r/{code}/answer"' not in html:
                continue
            card_of = CARD_OF.search(html)
            gaps = [int(g) for g in GAP.findall(html)]
            if not card_of or not gaps:
                continue
            turn = int(card_of.group(1)) - 1
            if turn in answered_turns:
                continue
            answered_turns.add(turn)
            card = CARD.search(html)
            answering[turn] = asyncio.create_task(answer(turn, gaps, card.group(1) if card else None))
    finally:
        for task in answering.values():
            if not task.done():
                task.cancel()
        await asyncio.gather(*answering.values(), return_exceptions=True)


# --------------------------------------------------------------------------------------------- CPU


def machine_cpu():
    """Return (busy, total) jiffies of the whole machine so far (Linux /proc/stat), or None."""
    try:
        with open("/proc/stat") as handle:
            values = [int(v) for v in handle.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def tree_cpu(pids):
    """Return the CPU seconds used so far by `pids` and all their descendants (Linux), or None."""
    if not pids:
        return None
    children, used = defaultdict(list), {}
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return None
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat") as handle:
                data = handle.read()
        except OSError:
            continue
        fields = data[data.rindex(")") + 2:].split()
        # utime + stime + cutime + cstime: a child that exited is in its parent's cutime/cstime.
        children[int(fields[1])].append(int(entry))
        used[int(entry)] = sum(int(v) for v in fields[11:15])
    total, todo, seen = 0, list(pids), set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in used:
            continue
        seen.add(pid)
        total += used[pid]
        todo.extend(children[pid])
    return total / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """CPU used between start() and stop(), in cores: this client, the watched server, the machine."""

    def __init__(self, pids):
        self.pids = pids

    def start(self):
        self.wall, self.client = time.perf_counter(), time.process_time()
        self.machine = machine_cpu()
        self.server = {pid: tree_cpu([pid]) for pid in self.pids}
        return self

    def stop(self):
        wall = max(time.perf_counter() - self.wall, 1e-9)
        result = {"seconds": wall, "client_cpu_s": time.process_time() - self.client, "cores": os.cpu_count()}
        result["client_cores"] = result["client_cpu_s"] / wall
        machine = machine_cpu()
        if machine and self.machine and machine[1] > self.machine[1]:
            share = (machine[0] - self.machine[0]) / (machine[1] - self.machine[1])
            result["machine_cores"] = share * (os.cpu_count() or 1)
        server = {pid: tree_cpu([pid]) for pid in self.pids}
        if self.pids and None not in server.values() and None not in self.server.values():
            # Each watched process with its descendants apart (e.g. gunicorn, PostgreSQL), and their sum.
            result["server_cpu_s_by_pid"] = {str(pid): server[pid] - self.server[pid] for pid in self.pids}
            result["server_cpu_s"] = sum(result["server_cpu_s_by_pid"].values())
            result["server_cores"] = result["server_cpu_s"] / wall
        if "machine_cores" in result and "server_cores" in result:
            result["other_cores"] = max(0.0, result["machine_cores"] - result["server_cores"] - result["client_cores"])
        return result


def cpu_line(cpu):
    """Describe a CpuMeter result in one line."""
    parts = [f"load generator {cpu['client_cpu_s']:.1f} s CPU ({cpu['client_cores']:.2f} cores)"]
    if "server_cores" in cpu:
        parts.append(f"server (watched processes) {cpu['server_cpu_s']:.1f} s CPU ({cpu['server_cores']:.2f} cores)")
    if "machine_cores" in cpu:
        parts.append(f"whole machine busy {cpu['machine_cores']:.2f} of {cpu['cores']} cores")
    if "other_cores" in cpu:
        parts.append(f"other processes {cpu['other_cores']:.2f} cores")
    return f"CPU in {cpu['seconds']:.1f} s: " + "; ".join(parts)


# --------------------------------------------------------------------------------------------- report


def percentile(values, q):
    """Return the q-th percentile (0-100) of sorted `values`, linearly interpolated."""
    if not values:
        return math.nan
    position = (len(values) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return values[low] + (values[high] - values[low]) * (position - low)


def summary(samples, duration):
    """Return count, rate, latency percentiles (ms), errors, 409s and 304s of `samples`."""
    times = sorted(s.seconds * 1000 for s in samples)
    return {"requests": len(samples), "per_second": len(samples) / duration,
            "p50_ms": percentile(times, 50), "p95_ms": percentile(times, 95), "p99_ms": percentile(times, 99),
            "max_ms": times[-1] if times else math.nan, "errors": sum(s.error for s in samples),
            "conflicts": sum(s.status == 409 for s in samples), "not_modified": sum(s.status == 304 for s in samples)}


def row(name, samples, duration):
    f = summary(samples, duration)
    return (f"{name:<44} {f['requests']:>7} {f['per_second']:>8.1f} {f['p50_ms']:>8.1f} {f['p95_ms']:>8.1f} "
            f"{f['p99_ms']:>8.1f} {f['max_ms']:>8.1f} {f['errors']:>6} {f['conflicts']:>5} {f['not_modified']:>6}")


def report(stats, args, students_in, loop_lag, cpu, outcome):
    """Print the round's figures; return them as a dict."""
    duration = max(stats.finished - stats.started, 1e-9)
    round_samples = [s for s in stats.samples if s.kind != "baseline"]
    header = (f"{'kind':<44} {'requests':>7} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} "
              f"{'errors':>6} {'409':>5} {'304':>6}")
    print()
    print(f"Load test of {args.url}: {args.students} students ({students_in} joined) in {len(class_sizes(args))} "
          f"round(s), {args.cards} cards, "
          f"poll every {args.poll_interval:g} s, think 0-{args.think:g} s; {duration:.1f} s from the first to "
          f"the last request of the round")
    print(header)
    print("-" * len(header))
    baseline = [s for s in stats.samples if s.kind == "baseline"]
    if baseline:
        times = sorted(s.seconds * 1000 for s in baseline)
        print(f"{'baseline GET /healthz (sequential)':<44} {len(baseline):>7} {'':>8} {percentile(times, 50):>8.1f} "
              f"{percentile(times, 95):>8.1f} {percentile(times, 99):>8.1f} {times[-1]:>8.1f} "
              f"{sum(s.error for s in baseline):>6}")
    by_kind = defaultdict(list)
    by_endpoint = defaultdict(list)
    for s in round_samples:
        by_kind[s.kind].append(s)
        by_endpoint[(s.kind, s.endpoint)].append(s)
    for kind in KINDS:
        if by_kind[kind]:
            print(row(kind, by_kind[kind], duration))
    print(row("overall", round_samples, duration))
    print()
    print("by endpoint")
    print(header.replace("kind", "    ", 1))
    for (kind, endpoint), samples in sorted(by_endpoint.items(), key=lambda item: (KINDS.index(item[0][0]), item[0][1])):
        print(row(f"{kind}: {endpoint}"[:44], samples, duration))
    statuses = Counter(s.status for s in round_samples)
    print()
    print("statuses: " + ", ".join(f"{k if k is not None else 'no answer'}: {v}"
                                   for k, v in sorted(statuses.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))))
    expected = students_in * args.cards
    print(f"answers accepted: {stats.answers_accepted} of {students_in} students x {args.cards} cards = {expected}"
          f" (refused or failed: {stats.answers_refused}); students who joined: {students_in} of {args.students}")
    print(f"409 conflicts: {sum(stats.conflicts.values())}")
    for message, count in stats.conflicts.most_common():
        print(f"  {count} x {message}")
    errors = sum(s.error for s in stats.samples)
    print(f"errors: {errors}" + (" (" + ", ".join(f"{kind}: {count}" for kind, count in stats.error_kinds.most_common())
                                 + ")" if stats.error_kinds else ""))
    for line in stats.errors[:stats.max_error_lines]:
        print(f"  {line}")
    if len(stats.errors) > stats.max_error_lines:
        print(f"  … and {len(stats.errors) - stats.max_error_lines} more")
    lag = sorted(loop_lag)
    print(f"load generator: {cpu['client_cpu_s']:.1f} s CPU in {duration:.1f} s "
          f"({100 * cpu['client_cpu_s'] / duration:.0f}% of one core); event-loop lag p50 {percentile(lag, 50):.1f} ms, "
          f"p99 {percentile(lag, 99):.1f} ms, max {(lag[-1] if lag else math.nan):.1f} ms")
    print(cpu_line(cpu))
    print(f"outcome: {outcome}")
    return {"students": args.students, "joined": students_in, "cards": args.cards, "seconds": duration,
            "overall": summary(round_samples, duration),
            "kinds": {kind: summary(by_kind[kind], duration) for kind in KINDS if by_kind[kind]},
            "endpoints": {f"{kind}: {endpoint}": summary(samples, duration)
                          for (kind, endpoint), samples in by_endpoint.items()},
            "baseline": summary(baseline, duration) if baseline else None,
            "statuses": {str(k): v for k, v in statuses.items()}, "errors": errors,
            "error_kinds": dict(stats.error_kinds.most_common()), "error_lines": stats.errors[:50],
            "answers_accepted": stats.answers_accepted, "answers_expected": expected,
            "conflicts": sum(stats.conflicts.values()), "outcome": outcome, "cpu": cpu,
            "loop_lag_ms": {"p50": percentile(lag, 50), "p99": percentile(lag, 99), "max": lag[-1] if lag else math.nan}}


# --------------------------------------------------------------------------------------------- hammer


HAMMER_TARGETS = (
    # name, path (None: the round's version), expected status, send the ETag
    ("bare GET /ping", "/ping", 200, False),
    ("poll GET /r/<code>/version, 304", None, 304, True),
    ("poll GET /r/<code>/version, 200", None, 200, False),
)


async def hammer_setup(args, ssl_context, log):
    """Create a started round with --hammer-students students; return its code and [(cookie, etag)]."""
    stats = Stats()
    teacher = Http(args.url, stats, args.timeout, ssl_context, args.keepalive_expiry)
    clients = [Http(args.url, stats, args.timeout, ssl_context, args.keepalive_expiry)
               for _ in range(args.hammer_students)]
    rnd = Round()
    try:
        token = await teacher_setup(teacher, args, rnd)

        async def one(number, http):
            await join(http, rnd.code, f"Hammer {number:03d} {secrets.token_hex(2)}")
            await http.request("join", "GET /r/<code>", "GET", f"/r/{rnd.code}")

        await asyncio.gather(*(one(i + 1, http) for i, http in enumerate(clients)), return_exceptions=True)
        token, ok = await teacher_control(teacher, rnd, token, "start")
        if not ok:
            raise Failed("the hammer's round could not be started")
        students = []
        for http in clients:
            response = await http.request("poll", "GET /r/<code>/version", "GET", f"/r/{rnd.code}/version")
            if response is not None and response.status_code == 200 and response.headers.get("etag"):
                cookie = "; ".join(f"{c.name}={c.value}" for c in http.client.cookies.jar)
                students.append((cookie, response.headers["etag"]))
    finally:
        await asyncio.gather(teacher.close(), *(c.close() for c in clients), return_exceptions=True)
    for line in stats.errors[:5]:
        log(f"hammer set-up: {line}")
    if not students:
        raise Failed("no student of the hammer's round could poll")
    log(f"hammer: round {rnd.id}, code {rnd.code}, {len(students)} students")
    return rnd.code, students


async def hammer_connection(address, request, expect, started, end, timeout, samples, errors):
    """One closed-loop connection: send `request`, read the whole answer, again, until `end`."""
    host, port, ssl_context, server_hostname = address
    reader = writer = None
    try:
        while time.perf_counter() < end:
            start = time.perf_counter()
            try:
                async with asyncio.timeout(timeout):
                    if writer is None:
                        reader, writer = await asyncio.open_connection(host, port, ssl=ssl_context,
                                                                       server_hostname=server_hostname)
                    writer.write(request)
                    head = await reader.readuntil(b"\r\n\r\n")
                    status = int(head[9:12])
                    length, close = 0, False
                    for line in head.split(b"\r\n")[1:]:
                        name, _, value = line.partition(b":")
                        name = name.strip().lower()
                        if name == b"content-length":
                            length = int(value)
                        elif name == b"connection" and value.strip().lower() == b"close":
                            close = True
                        elif name == b"transfer-encoding":
                            raise ValueError("a chunked answer (not supported by the hammer)")
                    if length:
                        await reader.readexactly(length)
            except (OSError, EOFError, TimeoutError, ValueError, asyncio.IncompleteReadError,
                    asyncio.LimitOverrunError) as error:
                seconds = time.perf_counter() - start
                samples.append(Sample("hammer", "", None, seconds, True))
                errors[f"{type(error).__name__}: {error!s:.100}"] += 1
                started.append(start)
                if writer is not None:
                    writer.close()
                reader = writer = None
                await asyncio.sleep(0.05)  # a refused connection must not spin
                continue
            samples.append(Sample("hammer", "", status, time.perf_counter() - start, status != expect))
            started.append(start)
            if status != expect:
                errors[f"status {status} (expected {expect})"] += 1
            if close:
                writer.close()
                reader = writer = None
    finally:
        if writer is not None:
            writer.close()


async def hammer_target(args, address, requests, expect):
    """Run one closed-loop hammer of `requests` (one per connection); return its samples in the window."""
    samples, started, errors = [], [], Counter()
    lags: list[float] = []
    begin = time.perf_counter()
    warm, end = begin + args.hammer_warmup, begin + args.hammer_warmup + args.hammer_seconds
    tasks = [asyncio.create_task(hammer_connection(address, request, expect, started, end, args.timeout,
                                                   samples, errors))
             for request in requests]
    lag_task = asyncio.create_task(watch_loop_lag(lags))
    await asyncio.sleep(max(0.0, warm - time.perf_counter()))
    meter = CpuMeter(args.watch_pids).start()
    lags.clear()
    await asyncio.sleep(max(0.0, end - time.perf_counter()))
    cpu = meter.stop()
    lag_task.cancel()
    await asyncio.gather(*tasks, lag_task, return_exceptions=True)
    counted = [s for s, t in zip(samples, started, strict=True) if warm <= t < end]
    return counted, errors, cpu, lags


async def hammer(args, ssl_context, log):
    """Measure the throughput of the bare endpoint and of the poll endpoint; print and return the figures."""
    from urllib.parse import urlsplit

    code, students = await hammer_setup(args, ssl_context, log)
    url = urlsplit(args.url)
    secure = url.scheme == "https"
    address = (url.hostname, url.port or (443 if secure else 80), ssl_context if secure else None,
               url.hostname if secure else None)
    host = url.netloc
    results = {name: {"samples": [], "seconds": 0.0, "errors": Counter(), "cpu": [], "lags": []}
               for name, *_ in HAMMER_TARGETS}
    for turn in range(args.hammer_rounds):
        for name, path, expect, with_etag in HAMMER_TARGETS:
            requests = []
            for i in range(args.hammer_concurrency):
                cookie, etag = students[i % len(students)]
                lines = [f"GET {path or f'/r/{code}/version'} HTTP/1.1", f"Host: {host}",
                         "User-Agent: load_classroom/1 (hammer)", "Accept: */*", f"Cookie: {cookie}"]
                if with_etag:
                    lines.append(f"If-None-Match: {etag}")
                requests.append(("\r\n".join(lines) + "\r\n\r\n").encode())
            samples, errors, cpu, lags = await hammer_target(args, address, requests, expect)
            result = results[name]
            result["samples"] += samples
            result["seconds"] += args.hammer_seconds
            result["errors"].update(errors)
            result["cpu"].append(cpu)
            result["lags"] += lags
            log(f"hammer {turn + 1}/{args.hammer_rounds} {name}: {len(samples) / args.hammer_seconds:.0f} req/s")
    figures = {}
    for name, result in results.items():
        figure = summary(result["samples"], result["seconds"])
        cpus = result["cpu"]
        cpu = {key: sum(c[key] for c in cpus) / len(cpus) for key in cpus[0]
               if all(isinstance(c.get(key), (int, float)) for c in cpus)}
        cpu["client_cpu_s"] = sum(c["client_cpu_s"] for c in cpus)
        cpu["seconds"] = sum(c["seconds"] for c in cpus)
        if all("server_cpu_s" in c for c in cpus) and figure["requests"]:
            # Robust to other work on the machine: what one request costs the server, in CPU.
            cpu["server_cpu_ms_per_request"] = 1000 * sum(c["server_cpu_s"] for c in cpus) / figure["requests"]
            cpu["server_cpu_ms_per_request_by_pid"] = {
                pid: 1000 * sum(c["server_cpu_s_by_pid"][pid] for c in cpus) / figure["requests"]
                for pid in cpus[0]["server_cpu_s_by_pid"]}
        lag = sorted(result["lags"])
        figure.update(cpu=cpu, error_kinds=dict(result["errors"].most_common(10)),
                      loop_lag_ms={"p50": percentile(lag, 50), "p99": percentile(lag, 99)})
        figures[name] = figure
    bare = figures[HAMMER_TARGETS[0][0]]["per_second"]
    ratios = {name: (figures[name]["per_second"] / bare if bare else math.nan) for name, *_ in HAMMER_TARGETS[1:]}
    header = (f"{'target':<34} {'requests':>8} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} "
              f"{'errors':>6} {'ratio':>6} {'client':>7} {'server':>7} {'machine':>7} {'srv ms/req':>10}")
    print()
    print(f"Closed-loop hammer of {args.url}: {args.hammer_concurrency} connections, {len(students)} students' "
          f"cookies, {args.hammer_rounds} x {args.hammer_seconds:g} s per target (after {args.hammer_warmup:g} s "
          f"warm-up each), targets taking turns; CPU in cores used on average (client: this script; server: "
          f"--watch-pids and descendants; machine: all), and the server's CPU per request")
    print(header)
    print("-" * len(header))
    for name, *_ in HAMMER_TARGETS:
        f = figures[name]
        cpu = f["cpu"]
        ratio = ratios.get(name, 1.0)
        print(f"{name:<34} {f['requests']:>8} {f['per_second']:>8.0f} {f['p50_ms']:>8.1f} {f['p95_ms']:>8.1f} "
              f"{f['p99_ms']:>8.1f} {f['max_ms']:>8.1f} {f['errors']:>6} {ratio:>6.2f} {cpu['client_cores']:>7.2f} "
              f"{cpu.get('server_cores', math.nan):>7.2f} {cpu.get('machine_cores', math.nan):>7.2f} "
              f"{cpu.get('server_cpu_ms_per_request', math.nan):>10.2f}")
        for message, count in f["error_kinds"].items():
            print(f"  {count} x {message}")
    for name, ratio in ratios.items():
        print(f"ratio {name} / bare: {ratio:.2f} ({'at least' if ratio >= 0.5 else 'below'} the 0.5 goal)")
    return {"connections": args.hammer_concurrency, "students": len(students), "rounds": args.hammer_rounds,
            "seconds": args.hammer_seconds, "targets": figures, "ratios": ratios,
            "errors": sum(f["errors"] for f in figures.values())}


# --------------------------------------------------------------------------------------------- run


async def watch_loop_lag(lags, every=0.05):
    while True:
        start = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(max(0.0, (time.perf_counter() - start - every) * 1000))


def class_sizes(args):
    """Return the number of students in each round: one round of --students, or classes of --class-size."""
    size = args.class_size or args.students
    rounds = max(1, math.ceil(args.students / size))
    return [args.students // rounds + (i < args.students % rounds) for i in range(rounds)]


async def run_round(args, ssl_context, log, t0):
    """Play the classroom rounds side by side; print and return their figures and whether they passed."""
    stats = Stats()
    rng = random.Random(args.seed)
    sizes = class_sizes(args)
    teachers = [Http(args.url, stats, args.timeout, ssl_context, args.keepalive_expiry) for _ in sizes]
    clients = [Http(args.url, stats, args.timeout, ssl_context, args.keepalive_expiry) for _ in range(args.students)]
    lags: list[float] = []
    lag_task = asyncio.create_task(watch_loop_lag(lags))
    meter = CpuMeter(args.watch_pids).start()
    outcome = "round finished" if len(sizes) == 1 else "rounds finished"
    rounds = [Round() for _ in sizes]
    joins = [Joined(size) for size in sizes]
    tasks, teacher_tasks = [], []
    try:
        for _ in range(args.baseline):
            await teachers[0].request("baseline", "GET /healthz", "GET", "/healthz")
        stats.started = time.perf_counter()
        lags.clear()
        meter.start()
        tokens = [await teacher_setup(http, args, rnd) for http, rnd in zip(teachers, rounds, strict=True)]
        log(f"{len(rounds)} round(s) created ({', '.join(r.code for r in rounds)}); {args.students} students joining")
        # Student i joins round i mod K: the classes fill side by side, as a school's would.
        tasks = [asyncio.create_task(student(http, args, rounds[i % len(rounds)], i + 1, joins[i % len(rounds)],
                                             stats, random.Random(rng.random())))
                 for i, http in enumerate(clients)]

        async def wait_joined():
            await asyncio.gather(*(joined.event.wait() for joined in joins))
            log(f"{sum(j.count for j in joins)} of {args.students} students joined")

        joined_logger = asyncio.create_task(wait_joined())
        remaining = args.max_seconds - (time.perf_counter() - t0)
        round_log = log if len(rounds) == 1 else (lambda message: None)
        teacher_tasks = [asyncio.create_task(teacher_live(http, args, rnd, token, joined, round_log))
                         for http, rnd, token, joined in zip(teachers, rounds, tokens, joins, strict=True)]
        try:
            await asyncio.wait_for(asyncio.gather(*teacher_tasks), timeout=max(remaining, 1))
            if len(rounds) > 1:
                log("every round finished")
            # Students stop when they see the round is over (one more poll at most).
            remaining = args.max_seconds - (time.perf_counter() - t0)
            _, pending = await asyncio.wait(tasks, timeout=max(min(remaining, 3 * args.poll_interval + args.timeout), 1))
            if pending:
                outcome += f"; {len(pending)} students had not seen the end when the run stopped"
        except TimeoutError:
            outcome = f"DEADLINE: the rounds did not finish within --max-seconds {args.max_seconds:g}"
        except Failed as error:
            outcome = f"FAILED: {error}"
        joined_logger.cancel()
    except Failed as error:
        outcome = f"FAILED: {error}"
    finally:
        stats.finished = time.perf_counter()
        cpu = meter.stop()
        for task in tasks + teacher_tasks:
            task.cancel()
        await asyncio.gather(*tasks, *teacher_tasks, return_exceptions=True)
        lag_task.cancel()
        await asyncio.gather(*(t.close() for t in teachers), *(c.close() for c in clients), return_exceptions=True)
    students_in = sum(joined.count for joined in joins)
    figures = report(stats, args, students_in, lags, cpu, outcome)
    figures["rounds"] = len(rounds)
    ok = figures["errors"] == 0 and outcome in ("round finished", "rounds finished") \
        and stats.answers_accepted == students_in * args.cards and students_in == args.students
    figures["ok"] = ok
    return figures


async def run(args):
    ssl_context = ssl.create_default_context()  # made once: one per client would cost CPU for nothing
    t0 = time.perf_counter()
    log = (lambda message: print(f"[{time.perf_counter() - t0:7.2f} s] {message}", file=sys.stderr)) \
        if not args.quiet else (lambda message: None)
    result = {"url": args.url, "students": args.students, "round": None, "hammer": None}
    ok = True
    if not args.skip_round:
        result["round"] = await run_round(args, ssl_context, log, t0)
        ok = result["round"]["ok"]
    if args.hammer_seconds > 0:
        try:
            result["hammer"] = await hammer(args, ssl_context, log)
            ok = ok and result["hammer"]["errors"] == 0
        except Failed as error:
            print(f"hammer FAILED: {error}")
            result["hammer"] = {"failed": str(error)}
            ok = False
    result["ok"] = ok
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="base URL of a running server")
    parser.add_argument("--students", type=int, default=40, help="simulated students")
    parser.add_argument("--class-size", type=int, default=None,
                        help="students per round: the students fill ceil(N / SIZE) rounds side by side, each with "
                             "its own teacher, as a school's classes would (default: one round of all N)")
    parser.add_argument("--cards", type=int, default=5, help="cards in the class line (3-40)")
    parser.add_argument("--poll-interval", type=float, default=1.0, help="seconds between panel polls")
    parser.add_argument("--think", type=float, default=2.0, help="a student answers after random 0..THINK s")
    parser.add_argument("--join-spread", type=float, default=0.0,
                        help="students join at random times over this many seconds (0: all at once)")
    parser.add_argument("--turn-seconds", type=int, default=0, help="the round's timer per card (0: no timer)")
    parser.add_argument("--turn-timeout", type=float, default=60.0,
                        help="the teacher reveals a card not all answered after this many seconds")
    parser.add_argument("--timeout", type=float, default=10.0, help="timeout of one request, seconds")
    parser.add_argument("--keepalive-expiry", type=float, default=1.5,
                        help="drop a connection idle this long (keep it below the server's keep-alive timeout)")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="deadline of the whole run, seconds")
    parser.add_argument("--baseline", type=int, default=20, help="sequential GET /healthz before the round")
    parser.add_argument("--seed", type=int, default=None, help="seed of the students' random choices")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--skip-round", action="store_true", help="no classroom round (only the hammer)")
    parser.add_argument("--hammer-seconds", type=float, default=0.0,
                        help="closed-loop hammer of /ping and /r/<code>/version for this many seconds per target "
                             "and round (0: no hammer)")
    parser.add_argument("--hammer-concurrency", type=int, default=None,
                        help="connections of the hammer (default: --students)")
    parser.add_argument("--hammer-students", type=int, default=20, help="students joined to the hammer's round")
    parser.add_argument("--hammer-rounds", type=int, default=2, help="times the targets take turns")
    parser.add_argument("--hammer-warmup", type=float, default=1.0, help="seconds not counted before each target")
    parser.add_argument("--watch-pids", default="",
                        help="comma-separated PIDs whose CPU (with all their descendants) is reported as the server's")
    parser.add_argument("--json", default=None, help="write every figure to this JSON file")
    args = parser.parse_args(argv)
    if not 3 <= args.cards <= 40:
        parser.error("--cards must be 3 to 40")
    if args.students < 1 or args.poll_interval <= 0 or args.think < 0:
        parser.error("--students must be at least 1, --poll-interval above 0 and --think not negative")
    if args.hammer_concurrency is None:
        args.hammer_concurrency = args.students
    if args.hammer_seconds < 0 or args.hammer_concurrency < 1 or args.hammer_students < 1 or args.hammer_rounds < 1:
        parser.error("--hammer-seconds must not be negative; --hammer-concurrency, -students, -rounds at least 1")
    if args.skip_round and args.hammer_seconds <= 0:
        parser.error("--skip-round needs --hammer-seconds")
    try:
        args.watch_pids = [int(p) for p in args.watch_pids.split(",") if p.strip()]
    except ValueError:
        parser.error("--watch-pids takes comma-separated numbers")
    args.url = args.url.rstrip("/")
    result = asyncio.run(run(args))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=1, default=str)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
