"""Play live classroom rounds against a running server, as browsers would, by polling or by push.

    python scripts/load_live.py --url http://127.0.0.1:8000 --students 40 --mode poll
    python scripts/load_live.py --url http://127.0.0.1:8000 --students 1000 --class-size 40 --mode push

Start the app first, over plain HTTP with COOKIE_SECURE=0, and lift the per-address limits for more than a class
(every student comes from this one address): JOINS_PER_ADDRESS_HOUR=100000000 SIGNUPS_PER_ADDRESS_HOUR=100000000.

One run, as browsers would:

1. Each teacher registers, logs in, creates a class-line round (dinosaurs, weight, no timer) and opens its page,
   which shows the join code; from then on its page is live (below). With --class-size M the N students fill
   ceil(N / M) rounds side by side, each with its own teacher.
2. The students join over --join-spread seconds: GET /join, POST /join (code, nickname, CSRF token), GET /r/<code>
   (the round page and its <meta name="csrf-token">); from then on each student's page is live.
3. When every student is in, everyone waits --lobby-seconds (the server's idle cost is measured then), and each
   teacher starts its round (with --start-spread S, each after a random 0..S seconds more). A student whose view shows an answer form (form[data-live-submit]) answers once,
   after a random 0..--think seconds, by POST /r/<code>/answer with X-Live-Panel: 1 (the reply is its new panel).
   The round reveals itself when all have answered; the teacher sends "next" --discuss seconds after its view shows
   the reveal (0: at once; a class talks a revealed card over), or "reveal" when all have answered for 2 s and no
   reveal shows, or after --turn-timeout seconds.
4. At the end (or at --max-seconds) each teacher downloads the answers (GET /teach/rounds/<id>/results.csv) and the
   run checks that every answer a student had accepted is counted there exactly once, and no other.

A live page, by --mode:

- poll (today's live.js): a student GETs /r/<code>/version every --poll-interval seconds with If-None-Match (a 304
  when nothing changed) and, on a 200, GETs /r/<code>/panel; the teacher GETs /teach/rounds/<id>/panel likewise.
- push (live.js with push.js): the page holds the event stream it names (data-events, e.g. GET /r/<code>/events)
  with Accept: text/event-stream; each `view` event's data is JSON whose "html" is the panel; `alive` is a
  heartbeat; `gone` ends it (an error here: no student is removed). A stream the server ends is reopened after its
  `retry:` time with Last-Event-ID, as EventSource does (counted, not an error); one that breaks is a dropped stream
  (an error) and is reopened too; one refused (a 204) is tried again a minute later. While the stream has not
  spoken for 35 s (or is not open), the page polls as above. A page that names no stream (a server that does not
  hold them) only polls (counted).

A teacher's control is sent by fetch, as live.js does: the page stays, its stream (or, while none is live, a poll at
once) shows what the control did; only a control that moves the round to a status the page cannot show (one not in
its data-page-statuses: the end) loads the round page again, so its live view starts again (a fresh poll, or a new
stream).

The client is cheap per connection, so that the generator does not limit the figures: HTTP/1.1 over asyncio streams,
a small cookie jar and a few kept-alive connections per browser (idle ones are dropped after --keepalive seconds,
below the server's keep-alive; a request that finds a reused connection closed before any byte of the answer is sent
once more on a new one, as browsers do, and counted as a retry). uvloop is used if it is installed.

Reported (text, and every figure with --json): per kind of request (join, page, poll, panel, answer, teacher,
events = the time from opening a stream to its first view, or to `alive` when the page's view is current) the count
and p50/p95/p99/max; errors by kind (5xx,
connection errors and timeouts, dropped streams, unexpected statuses; 409 counted apart); answers sent, accepted, and
counted in the teachers' results; the change-to-screen latency: for every change the generator can time (a teacher's
start, next or reveal from sending it; an automatic reveal from the arrival of the reply to the answer that completed
the card; a student who saw it before that reply came counts 0), the time until each student of the round holds a
view that shows it, as p50/p95/max over (change, student) pairs and the p95/max of each change's last student; the server's CPU seconds (--watch-pids and all their
descendants, e.g. the gunicorn master and PostgreSQL's postmaster) during the lobby and during play, and the CPU
seconds per student-minute (server CPU from the first start to the last round's end / (students x those minutes));
the generator's own CPU and its event loop's lag. The exit code is 1 on any error, on an answer lost or counted twice,
or if a round did not finish within --max-seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import json
import math
import os
import random
import re
import resource
import secrets
import ssl
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html import unescape
from urllib.parse import urlencode, urlsplit

KINDS = ("join", "page", "poll", "panel", "answer", "teacher", "events")
CSRF_META = re.compile(r'<meta\s+name="csrf-token"\s+content="([^"]*)"')
HIDDEN_CSRF = re.compile(r'<input\b[^>]*name="csrf_token"[^>]*value="([^"]+)"|<input\b[^>]*value="([^"]+)"[^>]*name="csrf_token"')
JOIN_CODE = re.compile(r'class="join-code"[^>]*>\s*([A-Z0-9]{3,8})\s*<')
ROUND_ID = re.compile(r"/teach/rounds/(\d+)")
CARD_OF = re.compile(r"Card (\d+) of (\d+)")
ANSWERED = re.compile(r"(\d+) of (\d+) answered")
STATUS = re.compile(r'data-round-status="(\w+)"')
PAGE_STATUSES = re.compile(r'data-page-statuses="([\w ]+)"')
GAP = re.compile(r'name="gap"\s+value="(\d+)"')
CARD = re.compile(r'name="card"\s+value="([^"]+)"')
EVENTS = re.compile(r'data-events="([^"]+)"')
MESSAGES = (re.compile(r'<p class="(?:notice|field-error)"[^>]*>(.*?)</p>', re.DOTALL),
            re.compile(r'<section class="error-page">.*?<h1>(.*?)</h1>\s*<p>(.*?)</p>', re.DOTALL))
CONNECTION_ERRORS = (OSError, EOFError, TimeoutError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError)


def hidden_csrf(html):
    """Return the value of a form's hidden csrf_token input, or None."""
    match = HIDDEN_CSRF.search(html)
    return unescape(match.group(1) or match.group(2)) if match else None


def meta_csrf(html):
    """Return the content of <meta name="csrf-token">, or None."""
    match = CSRF_META.search(html)
    return unescape(match.group(1)) if match else None


def why(html):
    """Return the sentence a refused form or an error page gives, for the report."""
    matches = (pattern.search(html) for pattern in MESSAGES)
    match = next((m for m in matches if m), None)
    text = " ".join(match.groups()) if match else html
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", text)))[:160].strip()


class Failed(Exception):
    """A step that cannot go on (its error is already recorded)."""


# --------------------------------------------------------------------------------------------- statistics


@dataclass
class Stats:
    """Every request's time by kind, and what went wrong."""

    times: defaultdict = field(default_factory=lambda: defaultdict(list))
    paths: defaultdict = field(default_factory=lambda: defaultdict(list))  # (kind, "METHOD /path"): seconds
    statuses: defaultdict = field(default_factory=lambda: defaultdict(Counter))
    errors: Counter = field(default_factory=Counter)  # "5xx", "connection", "dropped stream", "unexpected status"
    error_details: Counter = field(default_factory=Counter)
    error_lines: list = field(default_factory=list)
    conflicts: Counter = field(default_factory=Counter)
    retries: int = 0
    fallbacks: int = 0
    stream_ends: int = 0
    views_pushed: int = 0

    def error(self, group, detail, line):
        self.errors[group] += 1
        self.error_details[detail] += 1
        if len(self.error_lines) < 50:
            self.error_lines.append(line)

    def answered(self, kind, method, path, response, seconds, expect):
        """Record an answered request; count it as an error if its status is not one the step expects."""
        status = response.status
        self.timed(kind, method, path, seconds)
        self.statuses[kind][status] += 1
        if status == 409:
            self.conflicts[f"{method} {generic(path)}: {why(response.text)}"] += 1
        elif status >= 500:
            self.error("5xx", f"HTTP {status}", f"{method} {path} -> {status}: {why(response.text)}")
        elif status not in expect:
            self.error("unexpected status", f"HTTP {status}",
                       f"{method} {path} -> {status} (expected {'/'.join(map(str, expect))}): {why(response.text)}")

    def timed(self, kind, method, path, seconds):
        """Record a request's time under its kind and its path (codes and ids left out)."""
        self.times[kind].append(seconds)
        self.paths[(kind, f"{method} {generic(path)}")].append(seconds)

    def failed(self, kind, method, path, error, seconds):
        """Record a request that got no answer (a connection error or a timeout)."""
        self.timed(kind, method, path, seconds)
        self.statuses[kind][None] += 1
        name = type(error).__name__
        self.error("connection", name, f"{method} {path}: {name}: {error!s:.120} after {seconds * 1000:.0f} ms")


def generic(path):
    """Return the path with its round code and id replaced, to group messages."""
    return re.sub(r"/r/[A-Z0-9]+", "/r/<code>", re.sub(r"/rounds/\d+", "/rounds/<id>", path.split("?")[0]))


def percentile(values, q):
    """Return the q-th percentile (0-100) of sorted `values`, linearly interpolated (nan if empty)."""
    if not values:
        return math.nan
    position = (len(values) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return values[low] + (values[high] - values[low]) * (position - low)


def spread(seconds):
    """Return count, p50, p95, p99 and max in milliseconds of a list of seconds."""
    ms = sorted(s * 1000 for s in seconds)
    return {"count": len(ms), "p50_ms": percentile(ms, 50), "p95_ms": percentile(ms, 95),
            "p99_ms": percentile(ms, 99), "max_ms": ms[-1] if ms else math.nan}


# --------------------------------------------------------------------------------------------- HTTP/1.1


@dataclass(frozen=True)
class Target:
    host: str
    port: int
    netloc: str
    ssl: ssl.SSLContext | None


@dataclass
class Response:
    status: int
    headers: dict
    body: bytes = b""

    @property
    def text(self):
        return self.body.decode("utf-8", "replace")


class Stale(Exception):
    """A kept-alive connection the server had closed before any byte of the answer came."""


class Link:
    """One open connection."""

    __slots__ = ("reader", "used", "writer")

    def __init__(self, reader, writer):
        self.reader, self.writer, self.used = reader, writer, time.monotonic()

    def close(self):
        self.writer.close()


def parse_head(head):
    """Return (status, headers, set-cookie values) of a response head (header names in lower case)."""
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0][9:12])
    headers, cookies = {}, []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        if name == "set-cookie":
            cookies.append(value)
        elif name:
            headers[name] = value
    return status, headers, cookies


async def body_chunks(reader, headers):
    """Yield the body as it comes: chunked, by Content-Length, or up to the end of the connection."""
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":
                    pass  # trailers
                return
            yield (await reader.readexactly(size + 2))[:-2]
    elif "content-length" in headers:
        length = int(headers["content-length"])
        if length:
            yield await reader.readexactly(length)
    else:
        while chunk := await reader.read(65536):
            yield chunk


def has_body(method, status):
    return method != "HEAD" and status >= 200 and status not in (204, 304)


def reusable(headers):
    framed = "content-length" in headers or headers.get("transfer-encoding", "").lower() == "chunked"
    return framed and headers.get("connection", "").lower() != "close"


class Browser:
    """One simulated browser: its cookies and kept-alive connections; every request timed and recorded."""

    def __init__(self, target, stats, timeout, keepalive):
        self.target, self.stats, self.timeout, self.keepalive = target, stats, timeout, keepalive
        self.cookies: dict[str, str] = {}
        self.idle: list[Link] = []

    def encode(self, method, path, form, headers):
        """Return the request's bytes."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.target.netloc}", "User-Agent: load_live/1"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{name}: {value}" for name, value in headers.items()]
        body = urlencode(form).encode() if form is not None else b""
        if form is not None:
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    def keep_cookies(self, cookies):
        """Keep Set-Cookie values in the jar (an empty value or Max-Age=0 removes the cookie)."""
        for cookie in cookies:
            pair, _, attributes = cookie.partition(";")
            name, _, value = pair.strip().partition("=")
            if not value or "max-age=0" in attributes.lower().replace(" ", ""):
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value

    async def open(self):
        target = self.target
        reader, writer = await asyncio.open_connection(target.host, target.port, ssl=target.ssl,
                                                       server_hostname=target.host if target.ssl else None)
        return Link(reader, writer)

    def idle_link(self):
        """Return a kept-alive connection idle for less than --keepalive seconds, or None."""
        while self.idle:
            link = self.idle.pop()
            if time.monotonic() - link.used < self.keepalive:
                return link
            link.close()
        return None

    async def exchange(self, link, method, data, reused):
        """Send a request on `link`, read the whole answer; keep the link if it may be used again."""
        try:
            link.writer.write(data)
            head = await link.reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            link.close()
            if reused and not getattr(error, "partial", b""):
                raise Stale from error
            raise
        try:
            status, headers, cookies = parse_head(head)
            body = b"".join([c async for c in body_chunks(link.reader, headers)]) if has_body(method, status) else b""
        except BaseException:
            link.close()
            raise
        self.keep_cookies(cookies)
        if reusable(headers) or not has_body(method, status):
            link.used = time.monotonic()
            self.idle.append(link)
        else:
            link.close()
        return Response(status, headers, body)

    async def send(self, method, data):
        link = self.idle_link()
        if link is not None:
            try:
                return await self.exchange(link, method, data, reused=True)
            except Stale:
                self.stats.retries += 1
        return await self.exchange(await self.open(), method, data, reused=False)

    async def request(self, kind, method, path, form=None, headers=None, expect=(200,)):
        """Send one request and record it; return the response, or None on a connection error or timeout."""
        data = self.encode(method, path, form, {"Accept": "text/html,*/*;q=0.8", **(headers or {})})
        start = time.perf_counter()
        try:
            async with asyncio.timeout(self.timeout):
                response = await self.send(method, data)
        except CONNECTION_ERRORS as error:
            self.stats.failed(kind, method, path, error, time.perf_counter() - start)
            return None
        self.stats.answered(kind, method, path, response, time.perf_counter() - start, expect)
        return response

    def close(self):
        for link in self.idle:
            link.close()
        self.idle.clear()


# --------------------------------------------------------------------------------------------- live views


class Screen:
    """What one browser shows now: each new view goes to its page's `on_view(html, when)`."""

    def __init__(self, on_view):
        self.on_view = on_view
        self.html = ""
        self.changed = asyncio.Event()

    def show(self, html):
        self.html = html
        self.on_view(html, time.perf_counter())
        self.changed.set()


async def poll_feed(browser, screen, args, panel, version=None, kinds=("teacher", "teacher"), pushed=None):
    """Poll as live.js does: the version (or the panel) with If-None-Match, the panel when it changed; a tick
    is skipped while `pushed` (a Stream) is live."""
    poll_kind, panel_kind = kinds
    etag = None
    await asyncio.sleep(random.uniform(0, args.poll_interval))  # browsers are not in step
    next_poll = time.perf_counter()
    while True:
        await asyncio.sleep(max(0.0, next_poll - time.perf_counter()))
        next_poll = max(next_poll + args.poll_interval, time.perf_counter())
        if pushed is not None and pushed.live():
            continue
        headers = {"If-None-Match": etag} if etag else {}
        response = await browser.request(poll_kind, "GET", version or panel, headers=headers, expect=(200, 304))
        if response is None or response.status != 200:
            continue
        etag = response.headers.get("etag")
        if version:
            response = await browser.request(panel_kind, "GET", panel)
            if response is None or response.status != 200:
                continue
        screen.show(response.text)


class Gone(Exception):
    """The server ended the stream on purpose: the student was removed or the round deleted."""


async def sse_events(link, headers, timeout):
    """Yield (event, id, data) of a server-sent event stream, and (None, None, milliseconds) for a retry field."""
    chunks = body_chunks(link.reader, headers)
    buffer = b""
    event, ident, data = "message", None, []
    while True:
        async with asyncio.timeout(timeout):
            chunk = await anext(chunks, None)
        if chunk is None:
            return
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            line = raw.rstrip(b"\r").decode("utf-8", "replace")
            if not line:
                if data:
                    yield event, ident, "\n".join(data)
                event, data = "message", []
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "event":
                    event = value
                elif name == "data":
                    data.append(value)
                elif name == "id":
                    ident = value
                elif name == "retry" and value.isdigit():
                    yield None, None, value


async def open_stream(browser, path, last_id):
    """Open an event stream on a connection of its own; return (link, status, headers)."""
    headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
    if last_id:
        headers["Last-Event-ID"] = last_id
    link = await browser.open()
    link.writer.write(browser.encode("GET", path, None, headers))
    status, headers, cookies = parse_head(await link.reader.readuntil(b"\r\n\r\n"))
    browser.keep_cookies(cookies)
    return link, status, headers


class Stream:
    """An event stream as push.js follows it: live while it has spoken (a view or `alive`) in the last 35 s."""

    SILENT_SECONDS = 35.0
    REFUSED_RETRY_SECONDS = 60.0  # push.js tries a refused stream (204, 403) again a minute later

    def __init__(self, browser, screen, args, path, kind):
        self.browser, self.screen, self.args, self.path, self.kind = browser, screen, args, path, kind
        self.heard = 0.0
        self.last_id = None
        self.retry = 2.0  # EventSource's wait before reconnecting, until the server's retry field says

    def live(self):
        return self.heard > 0 and time.monotonic() - self.heard < self.SILENT_SECONDS

    async def follow(self):
        """Hold the stream, showing each view; reconnect as EventSource does after it ends or drops."""
        while True:
            wait = await self.once()
            self.heard = 0.0
            if wait is None:
                return
            await asyncio.sleep(wait)

    async def once(self):
        """Open the stream and read it to its end; return the seconds to wait before opening it again (None: never)."""
        stats, start, link, first = self.browser.stats, time.perf_counter(), None, True
        try:
            async with asyncio.timeout(self.browser.timeout):
                link, status, headers = await open_stream(self.browser, self.path, self.last_id)
            if status != 200:
                body = b"".join([c async for c in body_chunks(link.reader, headers)]) if has_body("GET", status) else b""
                stats.answered(self.kind, "GET", self.path, Response(status, headers, body), time.perf_counter() - start,
                               (200, 204))
                stats.fallbacks += status == 204
                return self.REFUSED_RETRY_SECONDS
            async for event, ident, data in sse_events(link, headers, self.args.stream_timeout):
                if event is None:
                    self.retry = int(data) / 1000
                    continue
                if first and event in ("view", "alive"):
                    stats.timed(self.kind, "GET", self.path, time.perf_counter() - start)
                    stats.statuses[self.kind][200] += 1
                    first = False
                if event == "gone":
                    stats.error("dropped stream", "gone", f"GET {self.path}: `gone` (removed, or the round deleted)")
                    return None
                if event in ("view", "alive"):
                    self.heard = time.monotonic()
                if event == "view":
                    stats.views_pushed += 1
                    self.last_id = ident or self.last_id
                    self.screen.show(json.loads(data).get("html", ""))
            stats.stream_ends += 1  # the server ends a stream after LIVE_STREAM_SECONDS: the browser comes back
        except CONNECTION_ERRORS as error:
            if first:
                stats.failed(self.kind, "GET", self.path, error, time.perf_counter() - start)
            else:
                name = type(error).__name__
                stats.error("dropped stream", name, f"GET {self.path}: {name}: {error!s:.100}")
        finally:
            if link is not None:
                link.close()
        return self.retry


async def live_feed(browser, screen, args, events, poll):
    """Keep `screen` up to date as live.js does: by the page's event stream when it names one (--mode push), and by
    polling whenever the stream is not live (or all the time)."""
    if args.mode != "push" or not events:
        browser.stats.fallbacks += args.mode == "push"
        return await poll(None)
    stream = Stream(browser, screen, args, events, "events" if events.startswith("/r/") else "teacher")
    polling = asyncio.create_task(poll(stream))
    try:
        await stream.follow()
        await polling  # after `gone` the page reloads; here: polls, as the page would find itself out of the round
    finally:
        polling.cancel()
        await asyncio.gather(polling, return_exceptions=True)


def page_statuses(html):
    """Return the statuses of the round a page can show without loading again (live.js's data-page-statuses)."""
    found = PAGE_STATUSES.search(html)
    return tuple(found.group(1).split()) if found else ()


def events_path(html):
    """Return the event stream a page names (data-events), or None when the server does not hold streams."""
    match = EVENTS.search(html or "")
    return unescape(match.group(1)) if match else None


# --------------------------------------------------------------------------------------------- a round


@dataclass
class Change:
    """A change of the round that every student should see: the view stage it leads to, and when it was made."""

    stage: int
    made: float
    what: str


@dataclass
class ClassRound:
    """One round played by a teacher and its students, and what the run saw of it."""

    size: int
    cards: int
    id: int = 0
    code: str = ""
    joins_ended: int = 0
    students: list = field(default_factory=list)
    changes: list = field(default_factory=list)
    revealed_turns: set = field(default_factory=set)
    accepted: Counter = field(default_factory=Counter)  # turn -> answers accepted
    started: float | None = None
    finished: float | None = None
    counted: dict | None = None
    joined: asyncio.Event = field(default_factory=asyncio.Event)

    def join_ended(self, student):
        """Count a join attempt that ended; keep the student if it is in."""
        if student is not None:
            self.students.append(student)
        self.joins_ended += 1
        if self.joins_ended >= self.size:
            self.joined.set()

    def change(self, stage, made, what):
        self.changes.append(Change(stage, made, what))

    def answer_accepted(self, turn, when):
        """Count an accepted answer; the one that completes the card makes the automatic reveal."""
        self.accepted[turn] += 1
        if self.accepted[turn] == len(self.students) and turn not in self.revealed_turns:
            self.revealed_turns.add(turn)
            self.change(2 * turn + 2, when, "automatic reveal")


def stage_of(html, turn, cards):
    """Return how far a student's view shows the round (0 lobby, 2k+1 card k asked, 2k+2 card k revealed,
    2*cards+1 over; None: paused or unknown) and the card it is on."""
    if "The round is over" in html:
        return 2 * cards + 1, turn
    if "data-live-submit" in html:
        card = CARD_OF.search(html)
        if card:
            turn = int(card.group(1)) - 1
            return 2 * turn + 1, turn
    if "Your answer is in" in html:
        return 2 * turn + 1, turn
    if 'class="last-move' in html:
        return 2 * turn + 2, turn
    if "You're in!" in html:
        return 0, turn
    return None, turn


class Student:
    """One student's page: the views it showed, when each stage first showed, and its answers."""

    def __init__(self, number, browser, args, rnd, rng):
        self.number, self.browser, self.args, self.rnd, self.rng = number, browser, args, rnd, rng
        # Five digits: the nickname rule reads digits as letters, and refuses "Kid 455" or "Kid 1007" as rude
        # (of five-digit numbers it refuses only 08008 below 18008).
        self.nickname = f"Kid {number:05d}"
        self.token = ""
        self.stage, self.turn = -1, 0
        self.reached: dict[int, float] = {}
        self.asked: set[int] = set()
        self.sent: list[int] = []
        self.accepted: list[int] = []
        self.answering: list[asyncio.Task] = []
        self.events = None
        self.screen = Screen(self.on_view)
        self.done = asyncio.Event()

    def on_view(self, html, when):
        """Note the stages this view reaches; answer a card not yet answered; stop at the end."""
        stage, self.turn = stage_of(html, self.turn, self.rnd.cards)
        if stage is not None and stage > self.stage:
            for reached in range(self.stage + 1, stage + 1):
                self.reached[reached] = when
            self.stage = stage
        if stage == 2 * self.rnd.cards + 1:
            self.done.set()
        elif "data-live-submit" in html and stage is not None and self.turn not in self.asked:
            self.asked.add(self.turn)
            self.answering.append(asyncio.create_task(self.answer(self.turn, html)))

    async def answer(self, turn, html):
        """Wait 0..think seconds, then place the card in a random gap, by fetch as live.js does."""
        gaps = GAP.findall(html)
        card = CARD.search(html)
        await asyncio.sleep(self.rng.uniform(0, self.args.think))
        form = {"gap": self.rng.choice(gaps) if gaps else "0", "csrf_token": self.token}
        if card:
            form["card"] = card.group(1)
        self.sent.append(turn)
        response = await self.browser.request("answer", "POST", f"/r/{self.rnd.code}/answer", form=form,
                                              headers={"X-Live-Panel": "1"})
        if response is not None and response.status == 200:
            self.accepted.append(turn)
            self.rnd.answer_accepted(turn, time.perf_counter())
            self.screen.show(response.text)

    async def join(self):
        """GET /join, POST /join with the code and a nickname, GET /r/<code>; return whether the student is in."""
        code, browser = self.rnd.code, self.browser
        page = await browser.request("join", "GET", f"/join?code={code}")
        token = hidden_csrf(page.text) if page is not None else None
        if not token:
            return False
        response = await browser.request("join", "POST", "/join", form={"code": code, "name": self.nickname,
                                                                         "csrf_token": token}, expect=(302,))
        if response is None or response.status != 302 or f"/r/{code}" not in response.headers.get("location", ""):
            return False
        page = await browser.request("page", "GET", f"/r/{code}")
        self.token = (meta_csrf(page.text) if page is not None and page.status == 200 else None) or token
        if page is not None and page.status == 200:
            self.events = events_path(page.text)
            self.screen.show(page.text)
        return True

    async def play(self):
        """Join, then keep the page live and answer every card until the round is over."""
        await asyncio.sleep(self.rng.uniform(0, self.args.join_spread))
        if not await self.join():
            self.rnd.join_ended(None)
            return
        self.rnd.join_ended(self)
        code = self.rnd.code

        def poll(pushed):
            return poll_feed(self.browser, self.screen, self.args, f"/r/{code}/panel", f"/r/{code}/version",
                             ("poll", "panel"), pushed)

        feed = asyncio.create_task(live_feed(self.browser, self.screen, self.args, self.events, poll))
        try:
            await self.done.wait()
            await asyncio.gather(*self.answering, return_exceptions=True)
        finally:
            feed.cancel()
            for task in self.answering:
                task.cancel()
            await asyncio.gather(feed, *self.answering, return_exceptions=True)
            self.browser.close()


# --------------------------------------------------------------------------------------------- teacher


class Teacher:
    """One teacher: sets the round up, starts it, reveals and goes on as its live view shows, downloads the results."""

    def __init__(self, browser, args, rnd, delay=0.0):
        self.browser, self.args, self.rnd = browser, args, rnd
        self.delay = delay  # after the lobby, before the start
        self.token = ""
        self.screen = Screen(self.see)
        self.feed = None
        self.pushed = None  # the round page's stream, while its feed follows one
        self.events = None
        self.page_statuses = ()  # the statuses its page shows without loading again
        self.card_seen = 0  # the highest "Card N of M" its view showed
        self.nexts = 0
        self.reveals_sent: set[int] = set()
        self.revealed_seen: dict[int, float] = {}  # card shown revealed -> when the view first showed it

    async def set_up(self):
        """Register, log in, create the round and open its page; Failed if any step is refused."""
        http, args = self.browser, self.args
        page = await http.request("teacher", "GET", "/teach/register")
        token = hidden_csrf(page.text) if page is not None else None
        email, password = f"load-{secrets.token_hex(6)}@example.org", secrets.token_urlsafe(12)
        response = await http.request("teacher", "POST", "/teach/register", expect=(302,), form={
            "name": "Load Test", "email": email, "password": password, "confirm": password, "csrf_token": token})
        if response is None or response.status != 302:
            raise Failed("registration failed")
        page = await http.request("teacher", "GET", "/teach/login")
        token = hidden_csrf(page.text) if page is not None else None
        response = await http.request("teacher", "POST", "/teach/login", expect=(302,),
                                      form={"email": email, "password": password, "csrf_token": token})
        if response is None or response.status != 302:
            raise Failed("logging in failed")
        page = await http.request("teacher", "GET", "/teach/rounds/new")
        token = hidden_csrf(page.text) if page is not None else None
        form = {"title": f"Load test {time.strftime('%H:%M:%S')}", "format": "class_line", "deck": "dinosaurs",
                "characteristic": "mass", "choice": "all", "count": str(args.cards), "hand_size": "4",
                "turn_seconds": "0", "leaderboard": "every", "teams": "2", "team_mode": "captain", "csrf_token": token}
        response = await http.request("teacher", "POST", "/teach/rounds/new", expect=(302,), form=form)
        match = ROUND_ID.search(response.headers.get("location", "") if response is not None else "")
        if not match:
            raise Failed("the round was not created")
        self.rnd.id = int(match.group(1))
        page = await http.request("teacher", "GET", f"/teach/rounds/{self.rnd.id}")
        code = JOIN_CODE.search(page.text) if page is not None else None
        self.token = meta_csrf(page.text) if page is not None else None
        if not code or not self.token:
            raise Failed("no join code or CSRF token on the round page")
        self.rnd.code = code.group(1)
        self.events = events_path(page.text)
        self.page_statuses = page_statuses(page.text)
        self.watch()  # the page opens its live view at once, while the other teachers set theirs up

    def watch(self):
        """(Re)start the live view of the round page, as a page load does."""
        if self.feed is not None:
            self.feed.cancel()

        def poll(pushed):
            self.pushed = pushed
            return poll_feed(self.browser, self.screen, self.args, f"/teach/rounds/{self.rnd.id}/panel", pushed=pushed)

        self.feed = asyncio.create_task(live_feed(self.browser, self.screen, self.args, self.events, poll))

    async def control(self, action):
        """Press a control button as live.js sends it; return when the page shows it or has loaded again."""
        path = f"/teach/rounds/{self.rnd.id}"
        response = await self.browser.request("teacher", "POST", f"{path}/control", expect=(204,),
                                              form={"action": action, "csrf_token": self.token},
                                              headers={"X-Live-Panel": "1", "Accept": "application/json"})
        if response is None or response.status != 204:
            return False
        drawn_for = STATUS.search(self.screen.html)
        if drawn_for and response.headers.get("x-round-status") in (drawn_for.group(1), *self.page_statuses):
            if self.pushed is None or not self.pushed.live():  # no stream to show it: the page polls at once
                panel = await self.browser.request("teacher", "GET", f"{path}/panel")
                if panel is not None and panel.status == 200:
                    self.screen.show(panel.text)
            return True
        await self.reload()  # the round moved to another status: the page loads again
        return True

    async def reload(self):
        """Load the round page again, as live.js does when the round's status changed; return the status it shows."""
        self.feed.cancel()  # no view fetched before may show after it
        await asyncio.gather(self.feed, return_exceptions=True)
        page = await self.browser.request("teacher", "GET", f"/teach/rounds/{self.rnd.id}")
        if page is not None and page.status == 200:
            self.token = meta_csrf(page.text) or self.token
            self.events = events_path(page.text)
            self.page_statuses = page_statuses(page.text)
            self.screen.show(page.text)
        self.watch()
        shown = STATUS.search(self.screen.html)
        return shown and shown.group(1)

    def see(self, html, when=None):
        """Note the highest card the view has asked."""
        card = CARD_OF.search(html)
        if card:
            self.card_seen = max(self.card_seen, int(card.group(1)))

    async def play(self, ctx):
        """Start when the class is in and the lobby time is over; go through every card; download the results."""
        await ctx.go.wait()
        await asyncio.sleep(self.delay)
        ctx.starting()
        rnd = self.rnd
        rnd.started = time.perf_counter()
        rnd.change(1, rnd.started, "start")
        # A press with no reply is pressed again, as a teacher does, unless the page loaded again shows it started.
        for _press in range(3):
            if await self.control("start") or await self.reload() not in ("lobby", None):
                break
        else:
            raise Failed("the round could not be started")
        turn_began, all_in_since = time.perf_counter(), None
        while True:
            try:
                await asyncio.wait_for(self.screen.changed.wait(), 0.25)
            except TimeoutError:
                pass
            self.screen.changed.clear()
            html = self.screen.html
            status = STATUS.search(html)
            if status and status.group(1) == "finished":
                rnd.finished = time.perf_counter()
                break
            turn = self.card_seen - 1
            revealed = "Revealed:" in html and not CARD_OF.search(html) and self.card_seen > self.nexts
            seen_at = self.revealed_seen.setdefault(self.card_seen, time.perf_counter()) if revealed else None
            if revealed and time.perf_counter() - seen_at >= self.args.discuss:
                self.nexts = self.card_seen
                rnd.change(2 * self.card_seen + 1, time.perf_counter(), "next")
                if not await self.control("next"):
                    self.nexts -= 1  # no reply: a teacher presses again (a "next" that did happen is refused)
                turn_began, all_in_since = time.perf_counter(), None
                continue
            answered = ANSWERED.search(html) if CARD_OF.search(html) else None
            everyone = answered and 0 < int(answered.group(2)) <= int(answered.group(1))
            all_in_since = (all_in_since or time.perf_counter()) if everyone else None
            stuck = all_in_since is not None and time.perf_counter() - all_in_since > 2
            overdue = time.perf_counter() - turn_began > self.args.turn_timeout
            # Overdue, the teacher reveals even a card the class seemed to complete: a join the generator gave up
            # on may still have made a student on the server, whom the round then waits for.
            if answered and (stuck or overdue) and turn not in self.reveals_sent \
                    and (turn not in rnd.revealed_turns or overdue):
                self.reveals_sent.add(turn)
                if turn not in rnd.revealed_turns:
                    rnd.revealed_turns.add(turn)
                    rnd.change(2 * turn + 2, time.perf_counter(), "teacher's reveal")
                await self.control("reveal")
        self.feed.cancel()
        await asyncio.gather(self.feed, return_exceptions=True)
        rnd.counted = await self.results()
        self.browser.close()

    async def results(self):
        """Download the round's answers; return {(student, card number): rows that hold an answer}."""
        response = await self.browser.request("results", "GET", f"/teach/rounds/{self.rnd.id}/results.csv")
        if response is None or response.status != 200:
            return None
        rows = csv.DictReader(io.StringIO(response.body.decode("utf-8-sig")))
        counted = Counter()
        for row in rows:
            if row.get("result") != "missed":
                counted[(row["student"], int(row["card_number"]) - 1)] += 1
        return counted


# --------------------------------------------------------------------------------------------- CPU


def tree_cpu(pids):
    """Return the CPU seconds used so far by each of `pids` with all its descendants (Linux /proc), or None."""
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
        children[int(fields[1])].append(int(entry))
        # utime + stime + cutime + cstime: a child that exited is in its parent's cutime and cstime.
        used[int(entry)] = sum(int(v) for v in fields[11:15])
    result = {}
    for root in pids:
        total, todo, seen = 0, [root], set()
        while todo:
            pid = todo.pop()
            if pid in seen or pid not in used:
                continue
            seen.add(pid)
            total += used[pid]
            todo.extend(children[pid])
        result[root] = total / os.sysconf("SC_CLK_TCK")
    return result


def machine_cpu():
    """Return the CPU seconds the whole machine has been busy so far (Linux /proc/stat), or None."""
    try:
        with open("/proc/stat") as handle:
            values = [int(v) for v in handle.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait


class CpuMeter:
    """CPU seconds used between start() and stop(): this process, and the watched processes with their children."""

    def __init__(self, pids):
        self.pids = pids

    def start(self):
        self.wall, self.own, self.server = time.perf_counter(), time.process_time(), tree_cpu(self.pids)
        self.machine = machine_cpu()
        return self

    def stop(self):
        wall = max(time.perf_counter() - self.wall, 1e-9)
        result = {"seconds": wall, "generator_cpu_s": time.process_time() - self.own}
        server, machine = tree_cpu(self.pids), machine_cpu()
        if self.pids and server and self.server:
            result["server_cpu_s_by_pid"] = {str(pid): server[pid] - self.server[pid] for pid in self.pids}
            result["server_cpu_s"] = sum(result["server_cpu_s_by_pid"].values())
        if machine is not None and self.machine is not None:
            result["machine_cpu_s"] = machine - self.machine
            # Everything else on the machine (other people's work on a shared one) in the same window.
            result["other_cpu_s"] = max(0.0, result["machine_cpu_s"] - result.get("server_cpu_s", 0.0)
                                        - result["generator_cpu_s"])
        return result


async def watch_loop_lag(lags, every=0.05):
    """Record how late the event loop wakes up, in milliseconds."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(max(0.0, (time.perf_counter() - start - every) * 1000))


# --------------------------------------------------------------------------------------------- run


@dataclass
class Run:
    """What all rounds of one run share."""

    go: asyncio.Event = field(default_factory=asyncio.Event)
    watch_pids: str = ""
    meters: dict = field(default_factory=dict)

    def starting(self):
        """Note a teacher pressing "start": the first one starts the meter of play."""
        if "play" not in self.meters:
            self.meters["play"] = CpuMeter(self.watch_pids).start()


def class_sizes(args):
    """Return the number of students in each round: one round of --students, or classes of --class-size."""
    size = args.class_size or args.students
    rounds = max(1, math.ceil(args.students / size))
    return [args.students // rounds + (i < args.students % rounds) for i in range(rounds)]


def raise_open_files(needed):
    """Raise the soft limit of open files as far as the hard limit allows; return the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(needed, soft)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def target_of(url):
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    return Target(parts.hostname, parts.port or (443 if secure else 80), parts.netloc,
                  ssl.create_default_context() if secure else None)


async def lobby(args, rounds, ctx, log, meters):
    """Wait until every class is in, measure --lobby-seconds of idle server, then let the teachers start."""
    await asyncio.gather(*(rnd.joined.wait() for rnd in rounds))
    log(f"{sum(len(r.students) for r in rounds)} of {args.students} students joined; lobby {args.lobby_seconds:g} s")
    meter = CpuMeter(args.watch_pids).start()
    await asyncio.sleep(args.lobby_seconds)
    meters["lobby"] = meter.stop()
    ctx.go.set()


async def play(args, log):
    """Play the rounds side by side; return (rounds, stats, outcome, cpu, loop lags)."""
    stats, target = Stats(), target_of(args.url)
    rng = random.Random(args.seed)
    rounds = [ClassRound(size, args.cards) for size in class_sizes(args)]

    def browser():
        return Browser(target, stats, args.timeout, args.keepalive)

    teachers = [Teacher(browser(), args, rnd, rng.uniform(0, args.start_spread) if args.start_spread else 0.0)
                for rnd in rounds]
    ctx = Run(watch_pids=args.watch_pids)
    lags, meters, tasks, outcome = [], ctx.meters, [], "finished"
    lag_task = asyncio.create_task(watch_loop_lag(lags))
    whole = CpuMeter(args.watch_pids).start()
    try:
        for teacher in teachers:
            await teacher.set_up()
        log(f"{len(rounds)} round(s) created; {args.students} students joining over {args.join_spread:g} s")
        students = [Student(i + 1, browser(), args, rounds[i % len(rounds)], random.Random(rng.random()))
                    for i in range(args.students)]
        tasks = [asyncio.create_task(s.play()) for s in students]
        lobby_task = asyncio.create_task(lobby(args, rounds, ctx, log, meters))
        teacher_tasks = [asyncio.create_task(t.play(ctx)) for t in teachers]
        tasks += [lobby_task, *teacher_tasks]
        await asyncio.wait_for(asyncio.gather(*teacher_tasks), args.max_seconds)
        meters["play"] = meters["play"].stop()
        log("every round finished")
        _, pending = await asyncio.wait(tasks, timeout=args.poll_interval * 3 + args.timeout)
        if pending:
            outcome = f"finished, but {len(pending)} students had not seen the end"
    except TimeoutError:
        outcome = f"DEADLINE: not finished within --max-seconds {args.max_seconds:g}"
    except Failed as error:
        outcome = f"FAILED: {error}"
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # A round cut short still says which answers it counted: each must be one a student had accepted, once.
        for teacher in teachers:
            if teacher.rnd.id and teacher.rnd.counted is None:
                teacher.rnd.counted = await teacher.results()
        lag_task.cancel()
    if isinstance(meters.get("play"), CpuMeter):
        meters["play"] = meters["play"].stop()
    meters["whole"] = whole.stop()
    return rounds, stats, outcome, meters, lags


# --------------------------------------------------------------------------------------------- figures


def change_latencies(rounds):
    """Return (each (change, student) pair's seconds to the screen, each change's last student, pairs never shown,
    {what: each such change's last student}: "start", "next", "automatic reveal", "teacher's reveal")."""
    pairs, lasts, never, by_what = [], [], 0, defaultdict(list)
    for rnd in rounds:
        for change in rnd.changes:
            seen = [s.reached.get(change.stage) for s in rnd.students]
            shown = [max(0.0, t - change.made) for t in seen if t is not None]
            never += len(seen) - len(shown)
            pairs += shown
            if shown:
                lasts.append(max(shown))
                by_what[change.what].append(max(shown))
    return pairs, lasts, never, by_what


def answers_check(rounds):
    """Compare the answers students sent and had accepted with those the teachers' results count.

    An answer whose reply never came (a timeout, or the deadline) may be counted or not: either is right. Wrong are
    an answer counted twice, one accepted but not counted, and one counted that no student sent.
    """
    students = [s for r in rounds for s in r.students]
    check = {"sent": len([t for s in students for t in s.sent]), "accepted": len([t for s in students for t in s.accepted]),
             "expected": len(students) * rounds[0].cards, "counted": 0, "counted_without_reply": 0,
             "counted_twice": 0, "missing": 0, "never_sent": 0, "results_missing": 0}
    for rnd in rounds:
        if rnd.counted is None:
            check["results_missing"] += 1
            continue
        accepted = {(s.nickname, turn) for s in rnd.students for turn in s.accepted}
        sent = {(s.nickname, turn) for s in rnd.students for turn in s.sent}
        check["counted"] += sum(rnd.counted.values())
        check["counted_twice"] += sum(n - 1 for n in rnd.counted.values() if n > 1)
        check["missing"] += len(accepted - rnd.counted.keys())
        check["never_sent"] += len(rnd.counted.keys() - sent)
        check["counted_without_reply"] += len(rnd.counted.keys() & (sent - accepted))
    check["once"] = not (check["results_missing"] or check["counted_twice"] or check["missing"] or check["never_sent"])
    return check


def per_student_minute(cpu, students):
    """Server CPU seconds per student-minute of a CpuMeter result, or None."""
    if "server_cpu_s" not in cpu or not students:
        return None
    return cpu["server_cpu_s"] / (students * cpu["seconds"] / 60)


def play_seconds(rounds):
    """Return how long the rounds took from the first start to the last end (None while one is unfinished)."""
    if not rounds or not all(r.finished for r in rounds):
        return None
    return max(r.finished for r in rounds) - min(r.started for r in rounds)


def figures_of(args, rounds, stats, outcome, meters, lags):
    """Return every figure of the run as a dict."""
    pairs, lasts, never, by_what = change_latencies(rounds)
    students = sum(len(r.students) for r in rounds)
    lag = sorted(lags)
    cpu = {name: dict(meter, per_student_minute=per_student_minute(meter, students)) for name, meter in meters.items()
           if isinstance(meter, dict)}
    answers = answers_check(rounds)
    errors = sum(stats.errors.values())
    finished = all(r.finished for r in rounds)
    return {
        "url": args.url, "mode": args.mode, "students": args.students, "joined": students, "rounds": len(rounds),
        "class_size": args.class_size, "cards": args.cards, "think": args.think, "discuss": args.discuss,
        "start_spread": args.start_spread,
        "lobby_seconds": args.lobby_seconds, "play_seconds": play_seconds(rounds),
        "kinds": {kind: spread(stats.times[kind]) | {"statuses": {str(k): v for k, v in stats.statuses[kind].items()}}
                  for kind in (*KINDS, "results") if stats.times[kind]},
        "paths": [{"kind": kind, "request": request} | spread(times) for (kind, request), times in sorted(stats.paths.items())],
        "errors": errors, "error_groups": dict(stats.errors), "error_details": dict(stats.error_details.most_common()),
        "error_lines": stats.error_lines, "conflicts": dict(stats.conflicts.most_common()), "retries": stats.retries,
        "fallbacks_to_poll": stats.fallbacks, "streams_ended_by_server": stats.stream_ends,
        "views_pushed": stats.views_pushed, "answers": answers,
        "change_to_screen": {"changes": sum(len(r.changes) for r in rounds), "pairs": spread(pairs),
                             "last_student": spread(lasts), "never_shown": never,
                             "last_student_by_change": {what: spread(times) for what, times in sorted(by_what.items())}},
        "cpu": cpu, "loop_lag_ms": {"p50": percentile(lag, 50), "p99": percentile(lag, 99),
                                    "max": lag[-1] if lag else math.nan},
        "outcome": outcome,
        "ok": errors == 0 and finished and answers["once"] and answers["accepted"] == answers["expected"]
        and students == args.students and never == 0 and outcome == "finished",
    }


def report(f):
    """Print the figures of a run."""
    cpu = f["cpu"]
    print(f"\nLive load test of {f['url']}, mode {f['mode']}: {f['students']} students ({f['joined']} joined) in "
          f"{f['rounds']} round(s), {f['cards']} cards, think 0-{f['think']:g} s, lobby {f['lobby_seconds']:g} s, "
          f"starts within {f['start_spread']:g} s; "
          f"play {cpu.get('play', {}).get('seconds', math.nan):.1f} s")
    header = f"{'kind':<10} {'requests':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}  statuses"
    print(header + "\n" + "-" * len(header))
    for kind, k in f["kinds"].items():
        statuses = ", ".join(f"{s if s != 'None' else 'no answer'}: {n}" for s, n in k["statuses"].items())
        print(f"{kind:<10} {k['count']:>8} {k['p50_ms']:>8.1f} {k['p95_ms']:>8.1f} {k['p99_ms']:>8.1f} "
              f"{k['max_ms']:>8.1f}  {statuses}")
    print("(events: from opening a stream to its first view; results: the teachers' CSV, not a live request)")
    c = f["change_to_screen"]
    print(f"change to screen: {c['changes']} changes, {c['pairs']['count']} (change, student) pairs: p50 "
          f"{c['pairs']['p50_ms']:.0f} ms, p95 {c['pairs']['p95_ms']:.0f} ms, max {c['pairs']['max_ms']:.0f} ms; "
          f"last student of a change p95 {c['last_student']['p95_ms']:.0f} ms, max {c['last_student']['max_ms']:.0f} ms;"
          f" never shown {c['never_shown']}")
    print("last student by change: " + "; ".join(f"{what} ({s['count']}) p95 {s['p95_ms']:.0f} ms, max {s['max_ms']:.0f} ms"
                                                 for what, s in c["last_student_by_change"].items()))
    print("by request: " + "; ".join(f"{p['request']} ({p['count']}) p50 {p['p50_ms']:.0f}, p95 {p['p95_ms']:.0f} ms"
                                     for p in f["paths"] if p["count"] >= 5))
    a = f["answers"]
    print(f"answers: sent {a['sent']}, accepted {a['accepted']} of {a['expected']} expected; the results count "
          f"{a['counted']} ({a['counted_without_reply']} sent without a reply): twice {a['counted_twice']}, accepted "
          f"but missing {a['missing']}, never sent {a['never_sent']}, rounds without results {a['results_missing']} "
          f"-> every answer counted once: {'yes' if a['once'] else 'NO'}")
    print(f"errors: {f['errors']}" + (f" ({', '.join(f'{k}: {v}' for k, v in f['error_groups'].items())}; "
                                      f"{', '.join(f'{k}: {v}' for k, v in f['error_details'].items())})"
                                      if f["errors"] else "")
          + f"; 409: {sum(f['conflicts'].values())}; retried on a closed kept-alive connection: {f['retries']}; "
          f"pages that polled for want of a stream (none named, or a 204): {f['fallbacks_to_poll']}; streams the "
          f"server ended (reopened): {f['streams_ended_by_server']}; views pushed: {f['views_pushed']}")
    for line in f["error_lines"][:20]:
        print(f"  {line}")
    for message, count in list(f["conflicts"].items())[:5]:
        print(f"  409 x {count}: {message}")
    for name in ("lobby", "play", "whole"):
        m = cpu.get(name)
        if not m:
            continue
        server = (f"server {m['server_cpu_s']:.1f} s CPU ({m['server_cpu_s'] / m['seconds']:.2f} cores, "
                  f"{m['per_student_minute'] or math.nan:.4f} s per student-minute); " if "server_cpu_s" in m else "")
        other = f"; everything else on the machine {m['other_cpu_s'] / m['seconds']:.2f} cores" if "other_cpu_s" in m else ""
        print(f"CPU, {name} ({m['seconds']:.1f} s): {server}generator {m['generator_cpu_s']:.1f} s "
              f"({m['generator_cpu_s'] / m['seconds']:.2f} cores){other}")
    lag = f["loop_lag_ms"]
    print(f"generator event-loop lag: p50 {lag['p50']:.1f} ms, p99 {lag['p99']:.1f} ms, max {lag['max']:.1f} ms")
    print(f"outcome: {f['outcome']}{'' if f['ok'] else ' (NOT OK)'}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="base URL of a running server")
    parser.add_argument("--mode", choices=("poll", "push"), default="poll", help="how the live pages follow the round")
    parser.add_argument("--students", type=int, default=40, help="simulated students")
    parser.add_argument("--class-size", type=int, default=None,
                        help="students per round: ceil(N / SIZE) rounds side by side, a teacher each (default: one)")
    parser.add_argument("--cards", type=int, default=5, help="cards in the class line (3-40)")
    parser.add_argument("--think", type=float, default=2.0, help="a student answers after random 0..THINK seconds")
    parser.add_argument("--join-spread", type=float, default=10.0, help="students join over this many seconds")
    parser.add_argument("--lobby-seconds", type=float, default=0.0,
                        help="once all are in, wait this long before the start (the idle cost is measured then)")
    parser.add_argument("--poll-interval", type=float, default=1.0, help="seconds between polls (poll mode)")
    parser.add_argument("--discuss", type=float, default=0.0,
                        help="the teacher sends next this many seconds after the reveal shows (a class's talk)")
    parser.add_argument("--start-spread", type=float, default=0.0,
                        help="teachers start their rounds 0..S seconds after the lobby (0: all in the same moment, the "
                             "worst case; a school's classes start within a minute or so of the bell)")
    parser.add_argument("--turn-timeout", type=float, default=60.0, help="the teacher reveals a card after this long")
    parser.add_argument("--timeout", type=float, default=10.0, help="timeout of one request, seconds")
    parser.add_argument("--stream-timeout", type=float, default=60.0,
                        help="a stream silent this long (no event, no heartbeat) counts as dropped")
    parser.add_argument("--reconnect-seconds", type=float, default=1.0, help="wait before opening a dropped stream")
    parser.add_argument("--keepalive", type=float, default=1.5,
                        help="drop a connection idle this long (below the server's keep-alive)")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="deadline of the rounds, seconds")
    parser.add_argument("--seed", type=int, default=None, help="seed of the students' choices")
    parser.add_argument("--watch-pids", default="", help="comma-separated PIDs whose CPU (with descendants) is the server's")
    parser.add_argument("--json", default=None, help="write every figure to this JSON file")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    if not 3 <= args.cards <= 40 or args.students < 1 or args.think < 0 or args.poll_interval <= 0:
        parser.error("--cards 3 to 40, --students at least 1, --think not negative, --poll-interval above 0")
    args.watch_pids = [int(p) for p in args.watch_pids.split(",") if p.strip()]
    args.url = args.url.rstrip("/")
    files = raise_open_files(3 * args.students + 256)  # a stream and up to two requests per student in push mode
    t0 = time.perf_counter()

    def log(message):
        if not args.quiet:
            print(f"[{time.perf_counter() - t0:7.2f} s] {message}", file=sys.stderr, flush=True)

    try:
        import uvloop
        run = uvloop.run
        log(f"uvloop; open-files limit {files}")
    except ImportError:
        run = asyncio.run
        log(f"asyncio's own event loop; open-files limit {files}")
    figures = figures_of(args, *run(play(args, log)))
    report(figures)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(figures, handle, indent=1, default=str)
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
