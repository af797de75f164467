"""Load-test a classroom round against a running server: one teacher, N students, a class line.

Start the app first (any way: flask, gunicorn, several workers), then for example:

    python scripts/load_classroom.py --url http://127.0.0.1:8000 --students 40 --cards 5

What one run does, as browsers would:

1. The teacher registers (a random email), creates a class-line round (dinosaurs, weight, no timer)
   and opens the round page, which shows the join code. The teacher's live view then polls
   GET /teach/rounds/<id>/panel every --poll-interval seconds with If-None-Match.
2. All students join at once (or spread over --join-spread seconds): GET /join, POST /join with the
   code and a unique nickname, GET /r/<code> (the round page and its CSRF token). Each student has
   its own httpx.AsyncClient, so its own cookie jar. Then each polls GET /r/<code>/version every
   --poll-interval seconds with If-None-Match (a 304 when nothing changed) and, when the view
   changed, fetches GET /r/<code>/panel, as the page's live.js does.
3. When every student has joined, the teacher starts the round. For each card, a student who sees
   the answer form waits a random 0..--think seconds and posts one gap; the server's redirect is
   followed (GET /r/<code>, a full page load, as the form submit does in a browser, after which the
   browser's live view starts again without an ETag). The round reveals itself when everyone has
   answered; when the teacher's panel shows the reveal, the teacher sends "next" (the redirect to the
   round page is followed too). If the class has not all answered after --turn-timeout seconds, or
   all answered but no reveal shows, the teacher sends "reveal".
4. The run ends when the round is finished and every student has seen it, or at --max-seconds.

Every request is timed (time.perf_counter, from sending to the whole body read) and its status
kept, per kind: join (GET/POST /join and the first GET /r/<code>), poll (students' panels),
answer (POST /r/<code>/answer), page (the round page loaded after an answer), teacher (everything
the teacher sends) and overall. Before the round, --baseline sequential GET /healthz requests give
a reference latency on the same server in the same run (not counted in "overall").

Errors: every 5xx, every connection error or timeout, and every 4xx other than 409 (a 409 is the
app's answer to a conflict, e.g. an answer after the reveal: counted and reported apart), and any
other status a step did not expect. The exit code is 1 if there was any error, if not every answer
was accepted, or if the round did not finish before the deadline.

The load generator runs on the same machine as the server in the usual set-up: its own CPU use and
its event loop's lag are printed, so that latencies inflated by the client itself can be told apart.
Idle connections are dropped after --keepalive-expiry (1.5 s), below gunicorn's 2 s keep-alive, so
that no request is sent on a connection the server is closing (which would count as an error).
"""

from __future__ import annotations

import argparse
import asyncio
import math
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
STATUS = re.compile(r'<div class="round-status">\s*<p><strong>(\w+)</strong>')
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


async def student(http, args, rnd, number, joined, stats, rng):
    """Join, then poll and answer each card once until the round is over."""
    code = rnd.code
    if args.join_spread > 0:
        await asyncio.sleep(rng.uniform(0, args.join_spread))
    try:
        page = await http.request("join", "GET /join", "GET", "/join", params={"code": code})
        token = hidden_csrf(page.text) if page is not None else None
        if not token:
            raise Failed("no CSRF token on /join")
        nickname = f"Kid {number:03d} {secrets.token_hex(2)}"
        response = await http.request("join", "POST /join", "POST", "/join", expect=(302,),
                                      data={"code": code, "name": nickname, "csrf_token": token})
        if response is None or response.status_code != 302 or f"/r/{code}" not in location(response):
            raise Failed("join refused")
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
    state = {"token": token, "etag_reset": False}

    async def answer(turn, gaps, card):
        await asyncio.sleep(rng.uniform(0, args.think))
        data = {"gap": str(rng.choice(gaps)), "csrf_token": state["token"]}
        if card:
            data["card"] = card
        response = await http.request("answer", "POST /r/<code>/answer", "POST", f"/r/{code}/answer",
                                      expect=(302,), data=data)
        if response is not None and response.status_code == 302:
            stats.answers_accepted += 1
            page = await follow(http, "page", "GET /r/<code> (after answer)", response)
            if page is not None and page.status_code == 200:
                state["token"] = meta_csrf(page.text) or state["token"]
            state["etag_reset"] = True  # a new page load: the live view starts without an ETag
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
            if state["etag_reset"]:
                etag, state["etag_reset"] = None, False
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


# --------------------------------------------------------------------------------------------- report


def percentile(values, q):
    """Return the q-th percentile (0-100) of sorted `values`, linearly interpolated."""
    if not values:
        return math.nan
    position = (len(values) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return values[low] + (values[high] - values[low]) * (position - low)


def row(name, samples, duration):
    times = sorted(s.seconds * 1000 for s in samples)
    errors = sum(s.error for s in samples)
    not_modified = sum(s.status == 304 for s in samples)
    c409 = sum(s.status == 409 for s in samples)
    return (f"{name:<44} {len(samples):>7} {len(samples) / duration:>8.1f} {percentile(times, 50):>8.1f} "
            f"{percentile(times, 95):>8.1f} {percentile(times, 99):>8.1f} {(times[-1] if times else math.nan):>8.1f} "
            f"{errors:>6} {c409:>5} {not_modified:>6}")


def report(stats, args, students_in, loop_lag, cpu_seconds, outcome):
    duration = max(stats.finished - stats.started, 1e-9)
    round_samples = [s for s in stats.samples if s.kind != "baseline"]
    header = (f"{'kind':<44} {'requests':>7} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} "
              f"{'errors':>6} {'409':>5} {'304':>6}")
    print()
    print(f"Load test of {args.url}: {args.students} students ({students_in} joined), {args.cards} cards, "
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
    print(f"errors: {errors}")
    for line in stats.errors[:stats.max_error_lines]:
        print(f"  {line}")
    if len(stats.errors) > stats.max_error_lines:
        print(f"  … and {len(stats.errors) - stats.max_error_lines} more")
    lag = sorted(loop_lag)
    print(f"load generator: {cpu_seconds:.1f} s CPU in {duration:.1f} s ({100 * cpu_seconds / duration:.0f}% of one "
          f"core); event-loop lag p50 {percentile(lag, 50):.1f} ms, p99 {percentile(lag, 99):.1f} ms, "
          f"max {(lag[-1] if lag else math.nan):.1f} ms")
    print(f"outcome: {outcome}")
    return errors


# --------------------------------------------------------------------------------------------- run


async def watch_loop_lag(lags, every=0.05):
    while True:
        start = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(max(0.0, (time.perf_counter() - start - every) * 1000))


async def run(args):
    stats = Stats()
    rng = random.Random(args.seed)
    ssl_context = ssl.create_default_context()  # made once: one per client would cost CPU for nothing
    log = (lambda message: print(f"[{time.perf_counter() - t0:7.2f} s] {message}", file=sys.stderr)) \
        if not args.quiet else (lambda message: None)
    t0 = time.perf_counter()
    teacher = Http(args.url, stats, args.timeout, ssl_context, args.keepalive_expiry)
    clients = [Http(args.url, stats, args.timeout, ssl_context, args.keepalive_expiry) for _ in range(args.students)]
    lags: list[float] = []
    lag_task = asyncio.create_task(watch_loop_lag(lags))
    cpu0 = time.process_time()
    outcome = "round finished"
    rnd = Round()
    joined = Joined(args.students)
    tasks = []
    try:
        for _ in range(args.baseline):
            await teacher.request("baseline", "GET /healthz", "GET", "/healthz")
        stats.started = time.perf_counter()
        lags.clear()
        cpu0 = time.process_time()
        token = await teacher_setup(teacher, args, rnd)
        log(f"round {rnd.id} created, code {rnd.code}; {args.students} students joining")
        tasks = [asyncio.create_task(student(http, args, rnd, i + 1, joined, stats, random.Random(rng.random())))
                 for i, http in enumerate(clients)]
        joined_event = joined.event

        async def wait_joined():
            await joined_event.wait()
            log(f"{joined.count} of {args.students} students joined")

        joined_logger = asyncio.create_task(wait_joined())
        remaining = args.max_seconds - (time.perf_counter() - t0)
        teacher_task = asyncio.create_task(teacher_live(teacher, args, rnd, token, joined, log))
        try:
            await asyncio.wait_for(teacher_task, timeout=max(remaining, 1))
            # Students stop when they see the round is over (one more poll at most).
            remaining = args.max_seconds - (time.perf_counter() - t0)
            _, pending = await asyncio.wait(tasks, timeout=max(min(remaining, 3 * args.poll_interval + args.timeout), 1))
            if pending:
                outcome = f"round finished; {len(pending)} students had not seen the end when the run stopped"
        except TimeoutError:
            outcome = f"DEADLINE: the round did not finish within --max-seconds {args.max_seconds:g}"
        except Failed as error:
            outcome = f"FAILED: {error}"
        joined_logger.cancel()
    except Failed as error:
        outcome = f"FAILED: {error}"
    finally:
        stats.finished = time.perf_counter()
        cpu = time.process_time() - cpu0
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        lag_task.cancel()
        await asyncio.gather(teacher.close(), *(c.close() for c in clients), return_exceptions=True)
    errors = report(stats, args, joined.count, lags, cpu, outcome)
    ok = errors == 0 and outcome == "round finished" and stats.answers_accepted == joined.count * args.cards \
        and joined.count == args.students
    return 0 if ok else 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="base URL of a running server")
    parser.add_argument("--students", type=int, default=40, help="simulated students")
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
    args = parser.parse_args(argv)
    if not 3 <= args.cards <= 40:
        parser.error("--cards must be 3 to 40")
    if args.students < 1 or args.poll_interval <= 0 or args.think < 0:
        parser.error("--students must be at least 1, --poll-interval above 0 and --think not negative")
    args.url = args.url.rstrip("/")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
