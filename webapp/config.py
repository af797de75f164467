"""Settings read at start-up: the database URL, the secret key, and the URL converter for row ids."""

import os
import secrets
import time
from pathlib import Path

from sqlalchemy.engine import make_url
from werkzeug.routing import IntegerConverter

# What a school may set: every limit, cap and retention period in one table (the README's "Limits and retention"
# lists it). Each is read from instance/config.py or an environment variable of the same name, else the default.
SCHOOL_SETTINGS = {
    # Children's data is forgotten on time (see the README's privacy note).
    "GAME_DAYS_KEPT": (30, "A game nobody has moved in for this many days is deleted, with its seats' names."),
    "ROUND_DAYS_KEPT": (365, ("A round (its students, nicknames and answers) is deleted this many days after it "
                             "finished, or after it was last used if it never finished: a school year.")),
    "PRACTICE_DAYS_KEPT": (365, ("A pupil's tricky cards kept on the school's server: each placement is deleted this "
                                "many days after it was made, and a linked browser unused this long is unlinked.")),
    "FORGET_DAILY": (1, ("1: the app deletes what is due itself, at most once in 24 hours, after answering a "
                         "request (no cron job or other service). 0: run `flask --app webapp forget` yourself.")),
    # Caps that keep one round or one teacher from filling the server.
    "STUDENTS_PER_ROUND": (1000, "Students who may join one round (an assembly fits)."),
    "ROUNDS_PER_TEACHER_PER_DAY": (100, "Rounds (and duplicates) one teacher may start in a day."),
    # What one address may create in an hour without logging in. A class of 40 behind one school address
    # never meets these: each allows every child several games, joins and reports an hour.
    "GAMES_PER_ADDRESS_HOUR": (1200, "Games (any game, practice, endless, daily, API) one address may start."),
    "JOINS_PER_ADDRESS_HOUR": (1200, "Joins of rounds and games' seats from one address."),
    "REPORTS_PER_ADDRESS_HOUR": (120, "Mistake reports from one address."),
    "SIGNUPS_PER_ADDRESS_HOUR": (20, "Teacher accounts registered from one address."),
    # An overloaded process queues requests rather than serving them all slowly at once (webapp/common/admission.py).
    "REQUESTS_AT_ONCE": (8, ("Requests one app process serves at a time (0: no bound); the rest wait in line, "
                             "answers and controls first. Event streams are not counted.")),
    "REQUEST_WAIT_SECONDS": (20, "How long a request waits in that line before it is told the app is very busy (503)."),
    "TRUSTED_PROXIES": (0, ("How many reverse proxies (nginx, a load balancer) stand in front of the app: with 1, "
                            "the address counted is the one the proxy saw (X-Forwarded-For), not the proxy's.")),
    # Guessing: after this many wrong tries the next must wait, twice as long after each further one.
    "FREE_CODE_GUESSES": (40, ("Wrong join codes one address may type before each next try waits (1 s, 2 s, 4 s, "
                              "... up to 60 s); a device is slowed after 10.")),
    "FREE_PASSWORD_GUESSES": (5, ("Wrong passwords for one account before each next try waits (1 s, 2 s, ... up to "
                                 "5 minutes); a browser the teacher logged in from before is not slowed.")),
}


def school_settings(environ=os.environ):
    """Return the school settings from the environment over their defaults (whole numbers)."""
    settings = {}
    for name, (default, _meaning) in SCHOOL_SETTINGS.items():
        raw = environ.get(name, "").strip()
        if raw and not raw.isdecimal():
            raise RuntimeError(f"{name} must be a whole number, not {raw!r}")
        settings[name] = int(raw) if raw else default
    return settings


def cookie_secure(testing=False, environ=os.environ):
    """Return whether the session cookie is sent over HTTPS only: yes, unless this is the development server
    (`flask run`) or a test; COOKIE_SECURE=0 or 1 decides either way."""
    raw = environ.get("COOKIE_SECURE", "").strip()
    if raw not in ("", "0", "1"):
        raise RuntimeError(f"COOKIE_SECURE must be 0 or 1, not {raw!r}")
    if raw:
        return raw == "1"
    # Flask sets FLASK_RUN_FROM_CLI before it loads the app for any `flask` command, `flask run` among them.
    return not (testing or environ.get("FLASK_RUN_FROM_CLI") == "true")


def private_database_file(url, instance_path):
    """Create a SQLite database file that only this user may read (0600) before SQLite makes it world-readable."""
    parsed = make_url(url)
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:" or path.startswith("file:"):
        return
    try:
        # Flask-SQLAlchemy reads a relative SQLite path from the instance folder.
        os.close(os.open(Path(instance_path) / path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # SQLite keeps the mode of a file that exists, so an existing database is left as it is.


def database_url(instance_path):
    """Return the SQLAlchemy URL: DATABASE_URL (PostgreSQL via psycopg) or SQLite in the instance."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(instance_path) / 'cards.sqlite3'}"
    return with_psycopg(url)


def engine_options(url):
    """Return SQLAlchemy's engine options for the database at `url`.

    PostgreSQL: the same ceiling of 15 connections a process as SQLAlchemy's default (so four processes fit the
    server's default 100), but 10 kept open instead of 5: under a burst (a school joining) the default closed
    each connection past the fifth when it came back and opened another a moment later, and each opening starts
    a PostgreSQL backend process.
    """
    return {"pool_size": 10, "max_overflow": 5} if make_url(url).get_backend_name() == "postgresql" else {}


def with_psycopg(url):
    """Return a PostgreSQL URL with the psycopg 3 driver named (other URLs unchanged)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def secret_key(instance_path):
    """Return SECRET_KEY from the environment, or from a file made once in the instance folder."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    try:
        # O_EXCL: when two processes start together, exactly one writes the key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = ""
        for _ in range(50):
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.01)
        raise RuntimeError(f"{path} is empty: delete it and start again") from None
    with os.fdopen(fd, "w") as handle:
        handle.write(secrets.token_hex(32))
    return path.read_text().strip()


class RowId(IntegerConverter):
    """A row's id in a URL: a whole number the database's integer can hold (a bigger one is a 404, not a 500)."""

    def __init__(self, url_map):
        super().__init__(url_map, min=1, max=2**31 - 1)
