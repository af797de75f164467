"""Settings read at start-up: the database URL, the secret key, and the URL converter for row ids."""

import os
import secrets
import time
from pathlib import Path

from werkzeug.routing import IntegerConverter


def database_url(instance_path):
    """Return the SQLAlchemy URL: DATABASE_URL (PostgreSQL via psycopg) or SQLite in the instance."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(instance_path) / 'cards.sqlite3'}"
    return with_psycopg(url)


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
