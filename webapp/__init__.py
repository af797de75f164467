"""The Flask app: an educational paleontology quiz and card game for classrooms."""

import gc
import os
from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from webapp import config
from webapp.config import RowId, database_url, school_settings, secret_key, with_psycopg

SERVER_GC_THRESHOLDS = (10_000, 20, 50)  # young objects, then young and middle collections, between collections

__all__ = ["create_app", "database_url", "secret_key", "with_psycopg"]


def create_app(test_config=None):
    """Create and configure the app."""
    app = Flask(__name__, instance_relative_config=True)
    app.url_map.converters["id"] = RowId
    app.json.sort_keys = False
    Path(app.instance_path).mkdir(mode=0o700, parents=True, exist_ok=True)  # it holds the secret key and database
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        AUTO_INIT_DB=True,
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        # HTTPS only, except on the development server and in tests; COOKIE_SECURE=0 for a school's plain-HTTP LAN.
        SESSION_COOKIE_SECURE=config.cookie_secure(testing=bool((test_config or {}).get("TESTING"))),
        CARDS_PER_PAGE=24,
        POLL_CACHE_SECONDS=0.25,
        LIVE_PUSH=os.environ.get("LIVE_PUSH", "auto"),  # push to live screens: auto (when the server allows), on, off
        LIVE_STREAM_SECONDS=600,  # a stream then ends and the browser reconnects (its session checked again)
        **school_settings(),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", config.engine_options(app.config["SQLALCHEMY_DATABASE_URI"]))
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)
    config.private_database_file(app.config["SQLALCHEMY_DATABASE_URI"], app.instance_path)

    from webapp import database, errors, filters, live
    from webapp.common import admission
    from webapp.extensions import csrf, db, migrate

    admission.init_app(app)  # first: a request waiting for its turn has done no work yet
    db.init_app(app)
    migrate.init_app(app, db)
    csrf.init_app(app)
    errors.init_app(app)
    filters.init_app(app)
    live.init_app(app)

    from webapp import auth, cards, classroom, learn, main, play, privacy, sources, timeline, tricky

    for feature in (main, cards, timeline, play, auth, classroom, learn, sources, privacy, tricky):
        feature.register(app)
    database.init_app(app)
    if app.config["TRUSTED_PROXIES"]:
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    if test_config is None:
        compile_templates(app)
        # What is built so far lives as long as the server process: the collector need not walk it again at each
        # full collection (about 180,000 objects, a 70 ms pause of every request in the process, a few times a minute).
        gc.freeze()
        # Python collects young objects every 700 made: 400 students joining and answering two cards made each of 4
        # workers run about 500 collections, 5% of its CPU. Every 10,000, each ran some 30, 2% of its CPU.
        gc.set_threshold(*SERVER_GC_THRESHOLDS)
    return app


def compile_templates(app):
    """Compile every template of the app now, once for the life of a server's process.

    Compiled at first use, a round's templates (its format's part of each screen) would be compiled in each
    process in the moment the round starts, in front of its class: about 30 ms of CPU a process, four times over
    on one core, in the wave that brings 1,000 students their first card."""
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)
