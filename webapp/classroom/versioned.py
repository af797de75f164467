"""What a process keeps of a round per version: built once, read by every screen until the round changes.

The round's version changes with every change of the round (a reveal judges answers, a rename, a removal, extra
time), so an entry is never stale; it is a cache, never the truth: each process fills its own, and empties it when
full.
"""

import threading
import time
from contextlib import contextmanager

from flask import current_app
from sqlalchemy import update

from webapp.cards.queries import all_periods, cards_by_slug
from webapp.extensions import db
from webapp.models import Round

KEPT = 1024  # entries a process keeps (of every kind together: 25 rounds keep about ten each per version)
REFERENCE_SECONDS = 60.0  # how long a process keeps the periods and the cards it read before reading them again


@contextmanager
def taken(lock):
    """Hold `lock`; when someone else has it, give the request's database connection back before waiting.

    The one holding it is reading the database: were the pool's every connection held by requests waiting here,
    it would wait for one until the pool's timeout (30 s), and so would they. A request that only read keeps the
    rows it loaded (a teacher's screen holds the class); one with unsaved changes keeps its connection.
    """
    if not lock.acquire(blocking=False):
        # A request with no session yet (a stream's look, mostly) holds no connection: nothing to give back.
        if db.session.registry.has() and not (db.session.new or db.session.dirty or db.session.deleted):
            commit_keeping_loaded()  # nothing written: a rollback would do, but would have every row read again
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


def commit_keeping_loaded():
    """Commit, keeping the rows the request read as they were (used again, they are not read again): a class of
    1,000 answering one card would otherwise read the round and the student twice more per answer."""
    session = db.session()
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True


def move_version_on(rnd):
    """Give the round a new version without writing its row back: a student joining mid-round makes every screen
    count again, and joins racing each other, or a reveal, must not find the version they read gone stale."""
    db.session.execute(update(Round).where(Round.id == rnd.id).values(version=Round.version + 1),
                       execution_options={"synchronize_session": False})


def cache(name):
    """Return this process's cache `name`: {"kept": {key: value}, "locks": {key: lock}, "lock": guarding "locks"}."""
    found = current_app.extensions.get(name)  # every look of every stream asks: no new lock made just to be dropped
    return found if found is not None else \
        current_app.extensions.setdefault(name, {"kept": {}, "locks": {}, "lock": threading.Lock()})


def lock_of(store, key):
    """Return the lock of one key of a cache: building one entry never holds up another's (another round's)."""
    with store["lock"]:
        if len(store["locks"]) >= KEPT and key not in store["locks"]:
            store["locks"].clear()  # a lock held meanwhile only lets one entry be built twice
        return store["locks"].setdefault(key, threading.Lock())


def per_version(rnd, what, build):
    """Return `build()` for this version of the round, built once per process (`what` names it: one kind of view)."""
    views = cache("round_versions")
    key = (rnd.id, rnd.code, rnd.version, what)
    view = views["kept"].get(key)
    if view is None:
        with taken(lock_of(views, key)):  # 400 students woken by one reveal: one builds it, the others wait for it
            view = views["kept"].get(key)
            if view is None:
                view = build()
                if len(views["kept"]) >= KEPT:
                    views["kept"].clear()
                views["kept"][key] = view
    return view


def reference_rows(name, keys, read):
    """Return {key: row} for `keys` of reference data (the periods, the cards), kept by this process, detached, for
    up to REFERENCE_SECONDS; `read(missing keys)` reads those it does not hold as {key: row} (unknown ones left out).

    They change only when new card files are loaded, while every round's shared view in every process used them
    after every change: 25 classes starting at once read them a hundred times. New card files show within a minute.
    A key found to name no row is remembered as such: an observation's other words (its phase, say) are asked for
    with its cards, and were read for again after every change.
    """
    store = current_app.extensions.setdefault(f"reference_{name}", {"rows": {}, "read_at": 0.0})
    if time.monotonic() - store["read_at"] > REFERENCE_SECONDS:
        store["rows"], store["read_at"] = {}, time.monotonic()
    rows = store["rows"]
    missing = [key for key in keys if key not in rows]
    if missing:
        found = read(missing)
        for row in found.values():
            for instance in row if isinstance(row, list) else [row]:
                db.session.expunge(instance)
        rows.update(dict.fromkeys(missing))
        rows.update(found)
    return {key: rows[key] for key in keys if rows[key] is not None}


def kept_periods():
    """Return {position: period} of the geological periods, as this process keeps them (reference_rows)."""
    return {p.position: p for p in reference_rows("periods", ["all"], lambda _keys: {"all": all_periods()})["all"]}


def kept_cards(names):
    """Return {slug: card} of those of `names` that name a card, as this process keeps them (reference_rows)."""
    return reference_rows("cards", sorted(set(names)), cards_by_slug)
