"""How a committed change reaches every process's hub: in-process on SQLite, PostgreSQL's LISTEN/NOTIFY otherwise.

A change is noticed where it is written, whichever view writes it: after each flush the session notes the
rounds that changed (and how) and the answers that came in. On PostgreSQL the flush also sends NOTIFY in the
same transaction, which PostgreSQL delivers to every listening process at commit, in commit order, and never
for a transaction rolled back; each process holds one connection that LISTENs and hands what comes to its hub.
On SQLite (one process) the session hands its notes to the hub after the commit.
"""

import logging
import threading

import psycopg
from flask import current_app, has_app_context
from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

from webapp.live.hub import ANSWER, ROSTER, STATE

CHANNEL = "deep_time_live"
NOTES, UNSENT = "live_changes", "live_changes_unsent"
# A round's own columns that move it on; a change of anything else (its settings, touched by a join) is a roster one.
STATE_COLUMNS = ("status", "state", "turn_started_at", "paused_at")
RECONNECT_SECONDS = 1.0
LOOK_UP_SECONDS = 1.0  # how often the listening connection stops waiting to see whether it should stop
STRENGTH = {ANSWER: 0, ROSTER: 1, STATE: 2}  # a flush that does several is noted as the strongest

log = logging.getLogger(__name__)


def changes_in(session):
    """Return {round id: kind} of what this flush writes: rounds moved on or touched, students joined, answers."""
    from webapp.models import Answer, Round, Student

    changed = {}

    def note(topic, kind):
        if STRENGTH[kind] > STRENGTH.get(changed.get(topic), -1):
            changed[topic] = kind

    for instance in session.dirty:
        if isinstance(instance, Round) and session.is_modified(instance):
            state = inspect(instance)
            note(instance.id, STATE if any(state.attrs[name].history.has_changes() for name in STATE_COLUMNS) else ROSTER)
    for instance in session.deleted:
        if isinstance(instance, Round):
            note(instance.id, STATE)
    for instance in session.new:
        if isinstance(instance, Student):
            note(instance.round_id, ROSTER)  # in the lobby a join changes no round row, but the lobby's names
        elif isinstance(instance, Answer):
            note(instance.round_id, ANSWER)
    return changed


def current_bus():
    """Return the app's bus, or None outside an app (a script's own session) or in an app without one."""
    return current_app.extensions.get("live_bus") if has_app_context() else None


@event.listens_for(Session, "before_flush")
def note_changes(session, _context, _instances):
    """Note what this flush is about to write, before the flush clears the session's dirty and new sets."""
    if current_bus() is None:
        return
    flushed = changes_in(session)
    notes = session.info.setdefault(NOTES, {})
    for topic, kind in flushed.items():
        if STRENGTH[kind] >= STRENGTH.get(notes.get(topic), -1):
            notes[topic] = kind
    session.info[UNSENT] = flushed


@event.listens_for(Session, "after_flush")
def notify_in_transaction(session, _context):
    """On PostgreSQL, send this flush's notes as NOTIFY inside the transaction (delivered at commit, or never)."""
    flushed = session.info.pop(UNSENT, None)
    bus = current_bus() if flushed else None
    if bus is not None and bus.postgres:
        connection = session.connection()
        for topic, kind in flushed.items():
            connection.exec_driver_sql("SELECT pg_notify(%s, %s)", (CHANNEL, f"{topic} {kind}"))


@event.listens_for(Session, "after_commit")
def deliver_committed(session):
    """On SQLite, hand the committed changes to this process's hub."""
    notes = session.info.pop(NOTES, None)
    bus = current_bus() if notes else None
    if bus is not None and not bus.postgres:
        for topic, kind in notes.items():
            bus.hub.deliver(topic, kind)


@event.listens_for(Session, "after_soft_rollback")
def forget_rolled_back(session, _previous_transaction):
    """Forget the notes of a transaction rolled back: nothing of it happened."""
    session.info.pop(NOTES, None)
    session.info.pop(UNSENT, None)


class Bus:
    """Carries committed changes to the hub of this process (and, on PostgreSQL, of every process)."""

    def __init__(self, hub, postgres_url=None):
        self.hub, self.postgres_url = hub, postgres_url
        self.postgres = postgres_url is not None
        self.started = False
        self.lock = threading.Lock()
        self.connected = threading.Event()
        self.stopping = threading.Event()

    def start(self):
        """Start listening (once per process, on the first stream: a forked worker starts its own)."""
        if not self.postgres or self.started:
            return
        with self.lock:
            if self.started:
                return
            self.started = True
            threading.Thread(target=self.listen_forever, name="live-bus", daemon=True).start()

    def listen_forever(self):
        """LISTEN on one connection of its own and hand every notification to the hub; reconnect when it drops."""
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.postgres_url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    self.hub.resync()  # anything committed while no one listened is looked at again
                    while not self.stopping.is_set():
                        for notification in connection.notifies(timeout=LOOK_UP_SECONDS):
                            self.take(notification.payload)
            except psycopg.Error as error:
                log.warning("live updates lost their PostgreSQL connection (%s); reconnecting", error)
            self.connected.clear()
            self.stopping.wait(RECONNECT_SECONDS)

    def stop(self):
        """Stop listening (an app being thrown away: a test's)."""
        self.stopping.set()

    def take(self, payload):
        """Hand one notification ("<round id> <kind>") to the hub; ignore what is not one."""
        topic, _, kind = payload.partition(" ")
        if topic.isdecimal() and kind in STRENGTH:
            self.hub.deliver(int(topic), kind)
