"""The Flask app: an educational paleontology quiz and card game for classrooms."""

import os
from pathlib import Path

from flask import Flask

from webapp.config import RowId, database_url, school_settings, secret_key, with_psycopg

__all__ = ["create_app", "database_url", "secret_key", "with_psycopg"]


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
        **school_settings(),
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

    from webapp import auth, cards, classroom, learn, main, play, sources, timeline

    for feature in (main, cards, timeline, play, auth, classroom, learn, sources):
        feature.register(app)
    database.init_app(app)
    return app
