"""How a committed change reaches every process's hub: in-process on SQLite, PostgreSQL's LISTEN/NOTIFY otherwise.

A change is noticed where it is written, whichever view writes it: features say which rows are changes of
which topic (`watch`), and before each flush the session notes those it writes. On PostgreSQL a round moving on
is sent by NOTIFY in the same transaction, which PostgreSQL delivers to every listening process at commit, in
commit order, and never for a transaction rolled back; each process holds one connection that LISTENs and hands
what comes to its hub. Answers and joins, which screens take at most once a second anyway, are gathered after
their commit and sent together a moment later, at most twice a second per process: a transaction that sends NOTIFY
holds a lock of the whole database server while it commits, so 1,000 answers each sending their own would commit
one at a time.
On SQLite (one process) the session hands its notes to the hub after the commit.
"""

import logging
import select
import threading
import time

import psycopg
from flask import current_app, has_app_context
from sqlalchemy import event
from sqlalchemy.orm import Session

from webapp.live.hub import ANSWER, JOIN, ROSTER, STATE

CHANNEL = "deep_time_live"
NOTES, UNSENT, GATHERED = "live_changes", "live_changes_unsent", "live_changes_gathered"
RECONNECT_SECONDS = 1.0
LOOK_UP_SECONDS = 1.0  # how often the listening connection stops waiting to see whether it should stop
STRENGTH = {ANSWER: 0, JOIN: 1, ROSTER: 2, STATE: 3}  # a flush that does several is noted as the strongest
GATHER_SECONDS = 0.05  # answers and joins committed within this long are sent in one NOTIFY transaction
# ...and a process sends them at most this often: the screens they wake redraw at most once a second anyway (a
# teacher's, a student's), while each send wakes every other process. 1,000 answers to a card, a few dozen a second,
# were each sent alone and heard by three other processes: a fifth of what an answer cost the server.
SEND_EVERY_SECONDS = 0.5

log = logging.getLogger(__name__)


def watch(app, model, topic_of):
    """Have flushed rows of `model` reach streams: `topic_of(session, row, how)` ("new", "dirty" or "deleted")
    returns the (topic, kind) a change of the row is, or None when it is none."""
    app.extensions.setdefault("live_watches", []).append((model, topic_of))


def changes_in(session, watches):
    """Return {topic: kind} of what this flush writes, as the app's watches see it (the strongest kind of each)."""
    changed = {}
    for how, rows in (("new", session.new), ("dirty", session.dirty), ("deleted", session.deleted)):
        for row in rows:
            for model, topic_of in watches:
                found = isinstance(row, model) and topic_of(session, row, how)
                if found:
                    strongest(changed, *found)
    return changed


def current_bus():
    """Return the app's bus, or None outside an app (a script's own session) or in an app without one."""
    return current_app.extensions.get("live_bus") if has_app_context() else None


@event.listens_for(Session, "before_flush")
def note_changes(session, _context, _instances):
    """Note what this flush is about to write, before the flush clears the session's dirty and new sets."""
    watches = current_app.extensions.get("live_watches") if current_bus() is not None else None
    if not watches:
        return
    with session.no_autoflush:  # a watch may read (which homework a game is)
        flushed = changes_in(session, watches)
    notes = session.info.setdefault(NOTES, {})
    for topic, kind in flushed.items():
        strongest(notes, topic, kind)
    session.info[UNSENT] = flushed


@event.listens_for(Session, "after_flush")
def notify_in_transaction(session, _context):
    """On PostgreSQL, send this flush's rounds moving on as NOTIFY inside the transaction (delivered at commit, or
    never), and gather its answers and joins to be sent after the commit."""
    send_in_transaction(session, session.info.pop(UNSENT, None))


def written(session, topic, kind):
    """Note a change of `kind` to `topic` that `session` wrote by a statement of its own, not by a flush (which the
    watches see): it reaches streams when the session commits, as a flushed one does."""
    if current_bus() is None:
        return
    strongest(session.info.setdefault(NOTES, {}), topic, kind)
    send_in_transaction(session, {topic: kind})


def send_in_transaction(session, flushed):
    """Send what a transaction wrote ({topic: kind}): rounds moving on by NOTIFY in it, the rest gathered."""
    bus = current_bus() if flushed else None
    if bus is not None and bus.postgres:
        connection = session.connection()
        for topic, kind in flushed.items():
            if kind == STATE:
                connection.exec_driver_sql("SELECT pg_notify(%s, %s)", (CHANNEL, f"{topic} {kind}"))
            else:
                strongest(session.info.setdefault(GATHERED, {}), topic, kind)


def strongest(changes, topic, kind):
    """Note a change of `kind` to `topic` in {topic: kind}, keeping the strongest kind of each."""
    if STRENGTH[kind] > STRENGTH.get(changes.get(topic), -1):
        changes[topic] = kind


@event.listens_for(Session, "after_commit")
def deliver_committed(session):
    """On SQLite, hand the committed changes to this process's hub."""
    notes, gathered = session.info.pop(NOTES, None), session.info.pop(GATHERED, None)
    bus = current_bus() if notes or gathered else None
    if bus is not None and not bus.postgres:
        for topic, kind in (notes or {}).items():
            bus.hub.deliver(topic, kind)
    elif bus is not None and gathered:
        for topic, kind in gathered.items():  # this process's streams hear it at once, the others a moment later
            bus.hub.deliver(topic, kind)
        bus.send_soon(gathered)


@event.listens_for(Session, "after_soft_rollback")
def forget_rolled_back(session, _previous_transaction):
    """Forget the notes of a transaction rolled back: nothing of it happened."""
    for notes in (NOTES, UNSENT, GATHERED):
        session.info.pop(notes, None)


class Bus:
    """Carries committed changes to the hub of this process (and, on PostgreSQL, of every process)."""

    def __init__(self, hub, postgres_url=None):
        self.hub, self.postgres_url = hub, postgres_url
        self.postgres = postgres_url is not None
        self.started = False
        self.lock = threading.Lock()
        self.connected = threading.Event()
        self.stopping = threading.Event()
        self.gathered = {}  # {topic: kind} committed, not yet sent
        self.sender = None  # the connection gathered changes are sent on
        self.sender_pid = None  # its server process, which PostgreSQL names as the sender of what it sends
        self.send_lock = threading.Lock()
        self.last_sent = -SEND_EVERY_SECONDS  # monotonic time of the last send

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
                        # On the socket, not in notifies(timeout=...): psycopg's own wait wakes every 0.1 s and
                        # spins through its last millisecond, 3.5 ms of CPU a second under gevent: with 4 processes,
                        # most of what a server with a class in its lobby spent.
                        if not select.select([connection.fileno()], [], [], LOOK_UP_SECONDS)[0]:
                            continue
                        for notification in connection.notifies(timeout=0):  # those that came, without waiting
                            if notification.pid != self.sender_pid:  # this process's own were heard at commit
                                self.take(notification.payload)
            except psycopg.Error as error:
                log.warning("live updates lost their PostgreSQL connection (%s); reconnecting", error)
            self.connected.clear()
            self.stopping.wait(RECONNECT_SECONDS)

    def stop(self):
        """Stop listening and sending (an app being thrown away: a test's)."""
        self.stopping.set()
        with self.send_lock:
            if self.sender is not None:
                self.sender.close()

    def send_soon(self, changes):
        """Send committed changes ({topic: kind}) to every process within GATHER_SECONDS, or SEND_EVERY_SECONDS
        after the last send if that is later, with any others committed meanwhile."""
        with self.lock:
            first = not self.gathered
            for topic, kind in changes.items():
                strongest(self.gathered, topic, kind)
            delay = max(GATHER_SECONDS, self.last_sent + SEND_EVERY_SECONDS - time.monotonic())
        if first:
            timer = threading.Timer(delay, self.send_gathered)
            timer.daemon = True
            timer.start()

    def send_gathered(self):
        """Send the changes gathered so far to every process."""
        with self.lock:
            changes, self.gathered = self.gathered, {}
            if changes:
                self.last_sent = time.monotonic()
        if changes and not self.stopping.is_set():
            self.notify(changes)

    def notify(self, changes):
        """Send changes ({topic: kind}) to every process in one transaction (on a connection of its own)."""
        calls = ", ".join(["pg_notify(%s, %s)"] * len(changes))
        values = [value for topic, kind in changes.items() for value in (CHANNEL, f"{topic} {kind}")]
        with self.send_lock:
            try:
                if self.sender is None or self.sender.closed:
                    self.sender = psycopg.connect(self.postgres_url, autocommit=True)
                    self.sender_pid = self.sender.info.backend_pid
                self.sender.execute(f"SELECT {calls}", values)
            except psycopg.Error as error:  # this process's screens heard them at commit; the others' heartbeat looks
                log.warning("live updates could not be sent to the other processes (%s)", error)
                self.sender = None

    def take(self, payload):
        """Hand one notification ("<round id> <kind>") to the hub; ignore what is not one."""
        topic, _, kind = payload.partition(" ")
        if topic.isdecimal() and kind in STRENGTH:
            self.hub.deliver(int(topic), kind)
