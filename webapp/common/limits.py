"""Slowing down guessing and flooding, counted in the database so every app process sees the same counts.

Two kinds of counter, both in the `throttles` table and each counted atomically:

- a **guess** (a join code, a pupil's personal code, a password) is counted only when wrong, while its counters
  are locked, so racing requests cannot overshoot; a right one only reads them and writes nothing. After a few free
  wrong tries the next one must wait, twice as long after each further wrong one, up to a ceiling: nobody is
  walled off for long, and the right code from someone else behind the same address gets through after at most
  that wait;
- a **quota** (games, joins, reports, accounts) is a number of creations per address (or per teacher) in a window.

Every number is a school setting (webapp.config.SCHOOL_SETTINGS).
"""

import hashlib
import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import current_app, request
from sqlalchemy import case, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import Throttle


def now():
    """Return the time counters are kept in (tests move it on)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Backoff:
    """How wrong guesses slow down: `free` tries, then a wait of `first` seconds doubling to `ceiling`; the count
    starts again after `quiet` without a wrong try."""

    free_setting: str | None
    free: int
    first: float
    ceiling: float
    quiet: timedelta

    def allowed_free(self):
        """Return the free tries, read from the school's settings when it has one."""
        return current_app.config.get(self.free_setting, self.free) if self.free_setting else self.free

    def wait(self, count):
        """Return the seconds the next try waits after `count` wrong ones."""
        over = count - self.allowed_free()
        return 0.0 if over < 0 else min(self.ceiling, self.first * 2 ** over)


CODE_ADDRESS = Backoff("FREE_CODE_GUESSES", 40, 1, 60, timedelta(minutes=10))
CODE_DEVICE = Backoff(None, 10, 1, 60, timedelta(minutes=10))
PERSONAL_CODE = Backoff(None, 10, 1, 60, timedelta(minutes=10))
PASSWORD_ACCOUNT = Backoff("FREE_PASSWORD_GUESSES", 5, 1, 300, timedelta(hours=1))
PASSWORD_ADDRESS = Backoff(None, 30, 1, 60, timedelta(minutes=10))

QUOTAS = {  # kind: (setting, window, what the person is told was too much)
    "game": ("GAMES_PER_ADDRESS_HOUR", timedelta(hours=1), "games started"),
    "join": ("JOINS_PER_ADDRESS_HOUR", timedelta(hours=1), "joins"),
    "report": ("REPORTS_PER_ADDRESS_HOUR", timedelta(hours=1), "reports sent"),
    "signup": ("SIGNUPS_PER_ADDRESS_HOUR", timedelta(hours=1), "accounts made"),
    "round": ("ROUNDS_PER_TEACHER_PER_DAY", timedelta(days=1), "rounds started"),
}


def address():
    """Return the address a request came from (behind a proxy, set up ProxyFix so this is the pupil's school)."""
    return request.remote_addr or "unknown"


def _digest(text):
    # Keys hold e-mails and codes: only a digest is stored.
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def code_keys(device=None):
    """Return the counters a join-code guess adds to: this address's, and this device's when it has one."""
    keys = [("code-address:" + address(), CODE_ADDRESS)]
    if device:
        keys.append(("code-device:" + _digest(device), CODE_DEVICE))
    return keys


def personal_code_keys(pupil_id):
    """Return the counters a pupil's personal code adds to: the pupil's own (what is guessed) and the address's."""
    return [(f"pupil:{pupil_id}", PERSONAL_CODE), ("code-address:" + address(), CODE_ADDRESS)]


def password_keys(email, known_device=False):
    """Return the counters a password try adds to: the account's, and the address's unless this browser logged in
    to the account before (so a stranger's wrong tries never slow a teacher on their own computer)."""
    account = _digest(email.strip().lower())
    if known_device:
        return [(f"password-known:{account}", PASSWORD_ACCOUNT)]
    return [(f"password:{account}", PASSWORD_ACCOUNT), ("password-address:" + address(), PASSWORD_ADDRESS)]


def _row(key, at):
    """Lock and return the counter `key`, made at zero if new, in one statement (the caller commits, which frees it)."""
    insert = _dialect().insert(Throttle)
    # A conflict's "update" to itself locks the row and returns it: no second statement to read and lock it.
    statement = (insert.values(key=key, count=0, started_at=at)
                 .on_conflict_do_update(index_elements=["key"], set_={"key": insert.excluded.key}).returning(Throttle))
    return db.session.scalars(statement, execution_options={"populate_existing": True}).one()


def _dialect():
    """Return the SQL dialect module whose insert has ON CONFLICT (PostgreSQL's or SQLite's)."""
    return postgresql if db.engine.dialect.name == "postgresql" else sqlite


def _fresh_transaction():
    """End the request's reading so far: SQLite cannot turn a reader that others wrote past into a writer, so each
    count starts a transaction of its own."""
    db.session.commit()


def _aware(moment):
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=UTC)


def guess(keys, check, message="Too many wrong tries."):
    """Return `check()`, the answer to a guess (falsy: wrong); refused with 429 while a counter of `keys` (from
    code_keys, password_keys...) must still wait, and counted on each only when wrong.

    A right guess reads the counters and writes nothing: a class of 1,000 behind one school address typing the
    right code never queues on that address's counter. A wrong one is counted while every counter is locked, and
    refused instead if another wrong one made it wait meanwhile, so racing wrong guesses never overshoot.
    """
    _fresh_transaction()
    _refuse_while_waiting(_waits(_read(keys), now()), message)
    found = check()
    if found:
        return found
    _fresh_transaction()
    rows = [(_row(key, now()), backoff) for key, backoff in keys]
    at = now()  # read once every counter is locked: a request that waited for the lock must not see the future
    waits = _waits([row for row, _ in rows], at)
    if not waits:
        for row, backoff in rows:
            if at - _aware(row.started_at) > backoff.quiet:
                row.count, row.started_at = 0, at
            row.count += 1
            row.next_at = at + timedelta(seconds=backoff.wait(row.count))
    db.session.commit()
    _refuse_while_waiting(waits, message)
    return found


def _read(keys):
    """Return the counters of `keys` that exist, unlocked."""
    return db.session.scalars(select(Throttle).where(Throttle.key.in_([key for key, _ in keys]))).all()


def _waits(rows, at):
    """Return the seconds each of `rows` still makes a guess wait at `at` (none: it may go ahead)."""
    return [(_aware(row.next_at) - at).total_seconds() for row in rows if row.next_at and _aware(row.next_at) > at]


def _refuse_while_waiting(waits, message):
    """Refuse with 429, saying how long to wait, while any of `waits` (seconds) is left."""
    if waits:
        seconds = math.ceil(max(waits))
        raise AppError(429, f"{message} Please wait {seconds} second{'s' if seconds != 1 else ''} and try again.")


def use(kind, who=None):
    """Count one creation of `kind` (see QUOTAS) by this address, or by `who` (a teacher); refuse with 429 once
    the school's limit for the window is reached."""
    setting, window, what = QUOTAS[kind]
    key, limit, at = f"{kind}:{who if who is not None else address()}", current_app.config[setting], now()
    _fresh_transaction()
    # One statement counts and checks, and the commit follows at once: the counter stays locked for a round trip,
    # not while the request works, so a school's joins, all from one address, do not queue behind each other.
    insert = _dialect().insert(Throttle)
    ended = Throttle.started_at <= at - window
    counted = db.session.execute(
        insert.values(key=key, count=1, started_at=at)
        .on_conflict_do_update(index_elements=["key"],
                               set_={"count": case((ended, 1), else_=Throttle.count + 1),
                                     "started_at": case((ended, at), else_=Throttle.started_at)},
                               where=ended | (Throttle.count < limit))
        .returning(Throttle.key)).first()
    db.session.commit()
    if counted is None:
        started = _aware(db.session.scalar(select(Throttle.started_at).where(Throttle.key == key)))
        minutes = math.ceil((started + window - at).total_seconds() / 60)
        raise AppError(429, f"That is the limit of {limit} {what} per {_window_name(window)} from here. "
                            f"Please try again in {minutes} minute{'s' if minutes != 1 else ''}.")


def take_place(name, room, taken):
    """Count one more of the `room` places of `name` (a round's) in the transaction storing who takes it; return
    whether one was left. `taken` (a scalar select) counts the places in use, this transaction's included: a new
    counter, or one forgotten since (recount_places), starts from it.

    One statement counts and checks, and the caller commits at once: a round's joins wait for each other for that
    statement and the commit, not while each stores its student."""
    insert = _dialect().insert(Throttle)
    place = db.session.scalar(
        insert.values(key=f"places:{name}", count=taken, started_at=now())
        .on_conflict_do_update(index_elements=["key"], set_={"count": Throttle.count + 1}, where=Throttle.count < room)
        .returning(Throttle.count))
    return place is not None and place <= room


def recount_places(names):
    """Forget the place counters of `names` (students left): the next place taken counts those in use again."""
    keys = [f"places:{name}" for name in names]
    if keys:
        db.session.execute(delete(Throttle).where(Throttle.key.in_(keys)))


def one_at_a_time(name):
    """Hold the lock `name` until the request's next commit, so what it reads and then writes (a team round's team
    sizes when a student joins) cannot race another request doing the same."""
    _fresh_transaction()
    _row(f"lock:{name}", now())


def _window_name(window):
    return "day" if window >= timedelta(days=1) else "hour"


def forget_old(at=None):
    """Delete counters nobody has used for a day (a counter's window is a day at most)."""
    at = at or now()
    db.session.execute(delete(Throttle).where(Throttle.started_at < at - timedelta(days=2),
                                              (Throttle.next_at.is_(None)) | (Throttle.next_at < at)))
    db.session.commit()
