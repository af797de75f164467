"""Fixtures: an app on its own copy of a database loaded once per test session."""

import os
import shutil

import pytest

from webapp import create_app
from webapp.extensions import db


def database_config(path):
    """Return test config for a SQLite database file at `path`."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
        "WTF_CSRF_ENABLED": False,
    }


@pytest.fixture(scope="session")
def loaded_database(tmp_path_factory):
    """Build a database with every card once; tests get copies of its file."""
    path = tmp_path_factory.mktemp("template") / "cards.sqlite3"
    app = create_app(database_config(path))
    with app.app_context():
        db.engine.dispose()
    return path


@pytest.fixture
def app(loaded_database, tmp_path):
    """Return an app on a fresh copy of the loaded database."""
    path = tmp_path / "cards.sqlite3"
    shutil.copy(loaded_database, path)
    app = create_app(database_config(path))
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def in_ci():
    """True when running under CI, where nothing that CI installs may be skipped."""
    return bool(os.environ.get("CI"))
