"""The Flask app: an educational paleontology quiz and card game for classrooms."""

import os
import secrets
import time
from pathlib import Path

from flask import Flask
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


def create_app(test_config=None):
    """Create and configure the app."""
    app = Flask(__name__, instance_relative_config=True)
    app.url_map.converters["id"] = RowId
    app.json.sort_keys = False
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        AUTO_INIT_DB=True,
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        # Behind HTTPS, set COOKIE_SECURE=1 so the session cookie is never sent in clear.
        SESSION_COOKIE_SECURE=os.environ.get("COOKIE_SECURE") == "1",
        CARDS_PER_PAGE=24,
        POLL_CACHE_SECONDS=0.25,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)

    from webapp import database, errors, filters
    from webapp.extensions import csrf, db, migrate

    db.init_app(app)
    migrate.init_app(app, db)
    csrf.init_app(app)
    errors.init_app(app)
    filters.init_app(app)

    from webapp import (
        api,
        auth,
        dinoblivion_play,
        encyclopedia,
        games_api,
        lessons,
        main,
        play,
        practice,
        quizzes,
        stack_play,
        student,
        teach,
        timeline,
    )

    for blueprint in (main.bp, encyclopedia.bp, api.bp, play.bp, practice.bp, stack_play.bp, games_api.bp,
                      timeline.bp, timeline.api, auth.bp, teach.bp, student.bp, lessons.bp, quizzes.bp,
                      dinoblivion_play.bp):
        app.register_blueprint(blueprint)
    app.jinja_env.globals["plotly_url"] = timeline.plotly_url
    database.init_app(app)
    return app
