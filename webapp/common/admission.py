"""Admission: a process serves at most REQUESTS_AT_ONCE ordinary requests at a time; the rest wait their turn.

Under gunicorn's gevent worker a process accepts every connection at once (an open stream must cost nothing), so
without a bound an overloaded process serves all its requests together, each slower, until every browser gives up.
With one, requests queue and are served in order: a teacher's first (the room waits for their "next"), then a
student's answer or join (a POST), then page loads and polls. Event streams take no slot: they wait without one, and each round's snapshot lock already
serialises their looks. A request that waited REQUEST_WAIT_SECONDS gets a 503 that says to try again.
"""

import heapq
import itertools
import threading

from flask import current_app, g, request, session

from webapp.errors import AppError

TEACHERS_FIRST = 0  # a logged-in teacher's request: their controls and screens
ACTS_NEXT = 1  # POST: an answer, a join
LOOKS_AFTER = 2  # GET: pages, panels, polls
BUSY = "The app is very busy right now. Please try again in a moment."


class Waiter:
    """One request waiting for a slot: set once a slot is handed to it, or marked gone when it gave up."""

    def __init__(self):
        self.admitted = threading.Event()
        self.gone = False


class Gate:
    """Slots handed out by priority, then in order of arrival; a slot given back goes straight to the next waiter.

    Threads and locks are the standard library's, so that under gevent (which patches them) a waiter is a
    sleeping greenlet. While a slot is free nobody waits, so a newcomer then takes it at once.
    """

    def __init__(self, slots):
        self.free = slots
        self.queue = []  # (priority, ticket, waiter)
        self.tickets = itertools.count()
        self.lock = threading.Lock()

    def enter(self, priority, timeout):
        """Take a slot, waiting at most `timeout` seconds; return whether one was taken."""
        with self.lock:
            if self.free > 0:
                self.free -= 1
                return True
            waiter = Waiter()
            heapq.heappush(self.queue, (priority, next(self.tickets), waiter))
        if waiter.admitted.wait(timeout):
            return True
        with self.lock:
            # A slot handed over just as the wait ended is taken, not lost.
            waiter.gone = not waiter.admitted.is_set()
            return not waiter.gone

    def leave(self):
        """Give a slot back: to the first waiter still waiting, else to the free ones."""
        with self.lock:
            while self.queue:
                _, _, waiter = heapq.heappop(self.queue)
                if not waiter.gone:
                    waiter.admitted.set()
                    return
            self.free += 1

    def waiting(self):
        """Return how many requests wait for a slot now."""
        with self.lock:
            return sum(1 for _, _, waiter in self.queue if not waiter.gone)


def priority_of(method, teacher):
    """Return where a request stands in the line: a teacher's (their signed session says they logged in) first,
    then a POST, then the rest."""
    if teacher:
        return TEACHERS_FIRST
    return ACTS_NEXT if method == "POST" else LOOKS_AFTER


def unmetered(view):
    """Mark a view that takes no slot: an event stream, which holds its connection for minutes doing nothing."""
    view.unmetered = True
    return view


def init_app(app):
    """Give the app a gate of REQUESTS_AT_ONCE slots (0: no bound) in front of every metered view."""
    slots = app.config["REQUESTS_AT_ONCE"]
    if not slots:
        return
    app.extensions["admission_gate"] = Gate(slots)

    @app.before_request
    def wait_for_a_slot():
        view = current_app.view_functions.get(request.endpoint)
        if view is None or getattr(view, "unmetered", False):
            return
        priority = priority_of(request.method, "teacher_session" in session)
        if not current_app.extensions["admission_gate"].enter(priority, current_app.config["REQUEST_WAIT_SECONDS"]):
            raise AppError(503, BUSY)
        g.admitted = True

    @app.teardown_request
    def give_the_slot_back(_error):
        if g.pop("admitted", False):
            current_app.extensions["admission_gate"].leave()
