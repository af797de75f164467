"""Push: live screens receive a round's changes as the server makes them, by server-sent events.

A stream is one long response that costs no thread under gunicorn's gevent worker (a greenlet waits on it)
and one thread of the development server (`flask run`, a class at most). Under a server that would give each
stream a thread of a small pool (gunicorn's gthread worker), streams are refused with 204 and pages keep
polling, as they also do whenever a stream drops (see static/live.js).
"""

import json
import time
from functools import lru_cache

from flask import Response, current_app, g, request
from flask.ctx import RequestContext
from sqlalchemy.engine import make_url

from webapp.common.loop import under_gevent
from webapp.live.bus import Bus, watch, written
from webapp.live.hub import ANSWER, JOIN, ROSTER, STATE, SYNC, Hub

__all__ = ["ANSWER", "JOIN", "ROSTER", "STATE", "SYNC", "hub", "init_app", "listening", "push_on", "stream", "watch", "written"]

HEARTBEAT_SECONDS = 15.0  # a live event, so a page can tell a stream a proxy holds back from a quiet one
# A heartbeat looks again only once its stream has not looked for this long: a change the bus missed (a gathered
# NOTIFY whose sending failed, a row changed outside the app) shows within a minute, while the class's heartbeats 15 s
# after a change woke them all, which a teacher's next press meets, cost a write each and no look.
LOOK_AGAIN_SECONDS = 60.0
RETRY_MS = 2000  # how soon a browser reconnects a dropped stream
SHARED_TEXT = 256  # characters from which a text in an event is likely a panel that many streams send alike
compact = json.JSONEncoder(separators=(",", ":")).encode  # made once: json.dumps with options makes one per call


def init_app(app):
    """Give the app its hub and its bus (LISTEN/NOTIFY when the database is PostgreSQL)."""
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    postgres = url.set(drivername="postgresql").render_as_string(hide_password=False) \
        if url.get_backend_name() == "postgresql" else None
    app.extensions["live_hub"] = live_hub = Hub()
    app.extensions["live_bus"] = Bus(live_hub, postgres)
    app.jinja_env.globals["push_on"] = push_on  # pages name their stream only where the server holds streams


def hub():
    """Return this app's hub in this process."""
    return current_app.extensions["live_hub"]


def listening():
    """Say whether this process hears every committed change now: on PostgreSQL only once its LISTEN connection
    is up (started here if it is not), so that what is cached by what it heard may be trusted."""
    bus = current_app.extensions["live_bus"]
    bus.start()
    return not bus.postgres or bus.connected.is_set()


def push_on():
    """Say whether this server may hold streams: LIVE_PUSH on, or auto and the server waits on connections cheaply."""
    setting = str(current_app.config["LIVE_PUSH"]).lower()
    if setting in ("on", "1"):
        return True
    if setting in ("off", "0"):
        return False
    if under_gevent():
        return True  # gunicorn -k gevent: a stream is a greenlet
    return request.environ.get("SERVER_SOFTWARE", "").startswith("Werkzeug")  # flask run: a thread each, a class


def event_text(name, data, key=None):
    """Return one server-sent event (`data` a dict)."""
    head = f"id: {key}\n" if key is not None else ""
    body = ",".join(f"{compact(field)}:{json_of(value)}" for field, value in data.items())
    return f"{head}event: {name}\ndata: {{{body}}}\n\n"


def json_of(value):
    """Return a value as JSON, a long text encoded once however many streams send it."""
    return shared_json(value) if isinstance(value, str) and len(value) > SHARED_TEXT else compact(value)


@lru_cache(maxsize=256)
def shared_json(text):
    """Return a long text as JSON: a panel drawn once per variant is sent by hundreds of streams as the same string,
    whose hash Python keeps, so finding it here costs next to nothing."""
    return compact(text)


class LookContext(RequestContext):
    """A stream's request context, pushed again for each look: its URL is matched once, on the first push."""

    def match_request(self):
        if self.request.url_rule is None:
            super().match_request()


def stream(topic, view, follows, urgent=(STATE,), lazy=1.0, alike=False):
    """Return a response streaming `view(woken_by)` (a dict with a "key", or None when the viewer is gone) as
    `view` events: at once, then after every change of `topic` it follows, whenever its key changed. `woken_by`
    is the kinds of change that woke it (none for the first look and a heartbeat's). A view may say which kinds
    of change cannot alter it until it changes itself ("ignores").

    `alike`: the view reads nothing of its stream's own request (its session, `g`) and tells changes apart only from
    none, so after a change the first of the alike streams woken in this process looks for all of them at once.

    Each look runs in the stream's own contexts and gives its database connection back before the stream waits:
    an open stream holds neither. A heartbeat looks again when the stream has not looked for LOOK_AGAIN_SECONDS, so a
    change the bus missed is seen.
    """
    current_app.extensions["live_bus"].start()
    app, environ = current_app._get_current_object(), request.environ
    the_hub = hub()
    listener = the_hub.listen(topic, follows, urgent, lazy)
    listener.view = view if alike else None
    sent = request.headers.get("Last-Event-ID") or request.args.get("have")
    ends = time.monotonic() + current_app.config["LIVE_STREAM_SECONDS"]

    # Made once and pushed for each look (its session read and its URL matched once), with what the view's checks
    # found (the teacher, say): 400 screens woken by a reveal do not each build them again.
    app_context, context = app.app_context(), LookContext(app, environ)
    app_context.g.__dict__.update(g.__dict__)

    def look(woken_by, first=False):
        # Pushed only while looking, never held while waiting: a stream's generator may be resumed and closed from
        # wherever its server (or a test) iterates it, so a context held across its waits could be popped out of turn.
        # Popping the app's context removes the look's database session, if it opened one.
        with app_context, context:
            shown = view(woken_by)
            if first and alike:
                the_hub.prepare_alike(listener, woken_by)
            return shown

    def look_woken(woken_by):
        """Look after a change: the first of the alike streams looks (for all), the others take what it found."""
        with the_hub.looking_in_turn(listener) as first:
            prepared = the_hub.prepared_for(listener)
            return prepared[0] if prepared else look(woken_by, first)

    def events():
        nonlocal sent
        try:
            yield f"retry: {RETRY_MS}\n\n"
            first, woken_by = True, frozenset()
            while True:
                shown = look_woken(woken_by) if woken_by else look(woken_by)
                looked = time.monotonic()
                listener.ignored = frozenset(shown.pop("ignores", ()) if shown else ())
                if shown is None:
                    yield event_text("gone", {})
                    return
                if shown["key"] != sent:
                    yield event_text("view", shown, shown["key"])
                    sent = shown["key"]
                elif first:
                    yield event_text("alive", {})  # the page's own view is current: it only learns the stream works
                first = False
                woken_by = yield from heartbeats(looked)
                if woken_by is None:
                    return
        finally:
            the_hub.leave(listener)

    def heartbeats(looked):
        """Send heartbeats until a change comes (return its kinds), a look is due (return none) or the stream ends
        (return None)."""
        while True:
            wait = min(HEARTBEAT_SECONDS, ends - time.monotonic())
            if wait <= 0:
                return None  # the browser reconnects at once, and its session is checked again
            woken_by = listener.take(wait)
            if listener.closed:
                return None
            if woken_by:
                return woken_by
            yield event_text("alive", {})
            if time.monotonic() - looked >= LOOK_AGAIN_SECONDS:
                return frozenset()

    response = Response(events(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
