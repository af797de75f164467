"""One process's switchboard: open streams follow topics (a round's id) and are woken when a change to it arrives.

Changes come in four kinds: "state" (the round moved: started, revealed, next, paused), "join" (a student came
in: it changes little on a student's screen, and nothing in a lobby), "roster" (a student was renamed, removed,
given extra time, let back in: rare, and the one it concerns must see it) and "answer" (an answer came in: only
the teacher's screens show that before the reveal). A stream says which kinds it follows
and which are urgent: an urgent one wakes it at once, the others at most once per `lazy` seconds, so 1,000
students joining one by one do not each redraw 1,000 screens. "sync" (the bus reconnected and may have missed
something) is urgent for everyone.

Threads and locks are the standard library's, so that under gunicorn's gevent worker (which patches them) a
waiting stream is a greenlet, not a thread.
"""

import logging
import threading
import time
from contextlib import contextmanager

STATE, ROSTER, JOIN, ANSWER, SYNC = "state", "roster", "join", "answer", "sync"
KINDS = (STATE, ROSTER, JOIN, ANSWER, SYNC)
LEAD_SECONDS = 1.0  # how long alike streams wait for the first of them to look before looking anyway

log = logging.getLogger(__name__)


class Listener:
    """One open stream's mailbox: the kinds of change that arrived for its topic since it last looked."""

    def __init__(self, topic, follows, urgent, lazy):
        self.topic, self.follows, self.urgent, self.lazy = topic, frozenset(follows) | {SYNC}, frozenset(urgent) | {SYNC}, lazy
        # An event and a lock, not a condition: under gevent a condition's wait makes a lock of its own each time,
        # and a reveal wakes 1,000 of them.
        self.lock = threading.Lock()
        self.woken = threading.Event()  # set after a change is added to pending (or on close)
        self.pending = set()
        self.closed = False
        self.last_taken = 0.0
        self.ignored = frozenset()  # kinds its view said it does not change with for now (a join, in a lobby)
        self.view = None  # view(woken_by), where it reads nothing of its stream's own request: another may call it
        self.prepared = None  # (the topic's stamp, the view) looked for it by the first of its alike listeners
        self.in_turn = False  # waiting for the first of its alike listeners to look

    def deliver(self, kind):
        """Note a change of `kind` (ignored unless this listener follows it) and wake the stream."""
        if kind not in self.follows or kind in self.ignored:
            return
        with self.lock:
            self.pending.add(kind)
        self.woken.set()

    def close(self):
        """End the stream at its next look (the server is dropping it)."""
        self.closed = True
        self.woken.set()

    def take(self, timeout):
        """Wait up to `timeout` seconds for a change; return the kinds that came (empty when none did).

        A change that is not urgent is held until `lazy` seconds after the last one taken (or an urgent one)."""
        if not self.wait_until(lambda: self.pending or self.closed, time.monotonic() + timeout):
            return set()
        held_until = self.last_taken + self.lazy
        self.wait_until(lambda: self.pending & self.urgent or self.closed, held_until)
        with self.lock:
            taken, self.pending = self.pending, set()
        self.last_taken = time.monotonic()
        return taken

    def wait_until(self, done, deadline):
        """Wait until `done()` or the monotonic `deadline`; return whether done."""
        while not done():
            left = deadline - time.monotonic()
            if left <= 0 or not self.woken.wait(left):
                return bool(done())
            self.woken.clear()  # a change delivered after this is added first and sets it again: none is missed
        return True


class Hub:
    """The listeners of one app in one process, and what it last heard of each topic."""

    def __init__(self):
        self.lock = threading.Lock()
        # (topic, kind) -> the listeners that follow that kind: an answer wakes the teacher's screens, and is not
        # offered to each of 1,000 students' to be refused. Every listener follows "sync", so those are all of a topic.
        self.following = {}
        self.stamps = {}  # topic -> {kind: changes of that kind heard}: what a cache of the topic is keyed by
        self.timers = {}
        self.syncs = 0
        self.leads = {}  # (topic, kinds followed) -> set once the stream looking first for its alike ones has

    def listen(self, topic, follows, urgent=(STATE,), lazy=1.0):
        """Return a new listener of `topic`; call leave() with it when its stream ends."""
        listener = Listener(topic, follows, urgent, lazy)
        with self.lock:
            for kind in listener.follows:
                self.following.setdefault((topic, kind), set()).add(listener)
        return listener

    @contextmanager
    def looking_in_turn(self, listener):
        """Let the first of a topic's alike listeners (following the same kinds) woken by a change look alone, and
        the others once it has.

        What the first reads and draws is kept for the rest. Were they all let go at once, each would run up to the
        lock the first holds while it waits on the database, every time it does, in the same process: 400 screens
        woken by a reveal would queue twice over behind their own wake-up before one of them could be sent.
        Yields whether this listener is the first.
        """
        key = (listener.topic, listener.follows)
        with self.lock:
            lead = self.leads.get(key)
            first = lead is None
            if first:
                lead = self.leads[key] = threading.Event()
        if not first:
            listener.in_turn = True
            try:
                lead.wait(LEAD_SECONDS)
            finally:
                listener.in_turn = False
            yield False
            return
        try:
            yield True
        finally:
            with self.lock:
                self.leads.pop(key, None)
            lead.set()

    def prepare_alike(self, listener, woken_by):
        """Look for each of `listener`'s alike listeners that a change woke and that let another look for them (one
        call of their views in the caller's contexts, keyed by the topic's stamp now): a reveal in front of 1,000
        students then pushes no context and takes no turn per screen."""
        stamp = self.stamp(listener.topic)
        with self.lock:
            woken = [other for other in self.following.get((listener.topic, SYNC), ())
                     if other is not listener and other.view is not None and other.follows == listener.follows
                     and (other.pending or other.in_turn)]
        for other in woken:
            try:
                other.prepared = (stamp, other.view(woken_by))
            except Exception:  # its stream looks for itself, and meets the error where it belongs
                log.debug("a view looked for another stream failed", exc_info=True)
                return

    def prepared_for(self, listener):
        """Return (and forget) the view looked for `listener` by another, in a 1-tuple, if nothing came since; else
        an empty tuple (its view may be None: the viewer is gone)."""
        prepared, listener.prepared = listener.prepared, None
        return (prepared[1],) if prepared is not None and prepared[0] == self.stamp(listener.topic) else ()

    def leave(self, listener):
        """Forget a listener whose stream ended."""
        with self.lock:
            for kind in listener.follows:
                group = self.following.get((listener.topic, kind), set())
                group.discard(listener)
                if not group:
                    self.following.pop((listener.topic, kind), None)

    def deliver(self, topic, kind):
        """Take in a change of `topic` and wake the listeners that follow its kind."""
        with self.lock:
            heard = self.stamps.setdefault(topic, dict.fromkeys(KINDS, 0))
            heard[kind] += 1
            group = list(self.following.get((topic, kind), ()))
        for listener in group:
            listener.deliver(kind)

    def resync(self):
        """Wake every listener: changes may have been missed (the bus lost its connection for a while)."""
        with self.lock:
            self.syncs += 1
            every = self.every_listener()
        for listener in every:
            listener.deliver(SYNC)

    def stamp(self, topic):
        """Return {kind: changes heard} of `topic` (the resyncs of the bus as "sync"): a key for what is cached of it."""
        with self.lock:
            return {**self.stamps.get(topic, dict.fromkeys(KINDS, 0)), SYNC: self.syncs}

    def streams(self):
        """Return how many streams are open in this process."""
        with self.lock:
            return len(self.every_listener())

    def close_all(self):
        """End every open stream and timer (a server going down; a test cutting streams)."""
        with self.lock:
            every = self.every_listener()
            for timer in self.timers.values():
                timer.cancel()
            self.timers.clear()
        for listener in every:
            listener.close()

    def every_listener(self):
        """Return every open stream's listener (hold the lock)."""
        return [listener for (_topic, kind), group in self.following.items() if kind == SYNC for listener in group]

    def call_at(self, key, delay, function):
        """Call `function()` in `delay` seconds, once per `key` however many ask (a turn's time running out)."""
        with self.lock:
            if key in self.timers:
                return
            timer = threading.Timer(max(0.0, delay), self._fire, (key, function))
            timer.daemon = True
            self.timers[key] = timer
        timer.start()

    def _fire(self, key, function):
        with self.lock:
            self.timers.pop(key, None)
        try:
            function()
        except Exception:  # a timer must never take its thread down with it; the next poll or stream settles
            log.exception("a timed call failed")
