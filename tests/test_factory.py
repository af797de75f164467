"""The app factory: configuration, secrets, first start, health check."""

from sqlalchemy import func, select

from webapp import create_app, database_url, secret_key
from webapp.config import engine_options
from webapp.extensions import db
from webapp.models import Card, Period


def test_config_is_not_testing_by_default(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "from-env")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}"})
    assert not app.testing
    assert app.config["SECRET_KEY"] == "from-env"


def test_testing_config(app):
    assert app.testing


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_first_start_creates_database_and_loads_all_cards(empty_database_url):
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": empty_database_url})
    with app.app_context():
        cards = db.session.scalar(select(func.count()).select_from(Card))
        periods = db.session.scalar(select(func.count()).select_from(Period))
        db.engine.dispose()
    assert cards >= 220
    assert periods == 12


def test_second_start_keeps_existing_cards(app):
    with app.app_context():
        card = db.session.scalar(select(Card).limit(1))
        card.fact = "Edited by a test."
        card_id = card.id
        db.session.commit()
    again = create_app({**app.config, "TESTING": True})
    with again.app_context():
        assert db.session.get(Card, card_id).fact == "Edited by a test."


def test_secret_key_file_is_made_once(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = secret_key(tmp_path)
    second = secret_key(tmp_path)
    assert first == second
    assert len(first) == 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_secret_key_prefers_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "env-key")
    assert secret_key(tmp_path) == "env-key"
    assert not (tmp_path / "secret_key").exists()


def test_database_url_defaults_to_sqlite_in_instance(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url(tmp_path) == f"sqlite:///{tmp_path / 'cards.sqlite3'}"


def test_database_url_uses_psycopg_for_postgresql(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p@db.example:5432/app")
    assert database_url(tmp_path) == "postgresql+psycopg://u:p@db.example:5432/app"
    monkeypatch.setenv("DATABASE_URL", "postgres://u@h/app")
    assert database_url(tmp_path) == "postgresql+psycopg://u@h/app"


def test_postgresql_keeps_ten_connections_open_a_process_under_the_same_ceiling(app):
    assert engine_options("postgresql+psycopg://u@h/app") == {"pool_size": 10, "max_overflow": 5}
    assert engine_options("sqlite:///cards.sqlite3") == {}
    with app.app_context():
        pool = db.engine.pool
        if db.engine.dialect.name == "postgresql":  # the suite on PostgreSQL (TEST_DATABASE_URL)
            assert (pool.size(), pool._max_overflow) == (10, 5)


def test_security_headers_forbid_inline_scripts_and_framing(client):
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_no_template_has_an_inline_script():
    import re
    from pathlib import Path

    for path in (Path(__file__).parent.parent / "webapp" / "templates").rglob("*.html"):
        for tag in re.findall(r"<script[^>]*>", path.read_text()):
            assert "src=" in tag, f"inline script in {path}"
        assert not re.search(r"\son[a-z]+=\"", path.read_text()), f"inline event handler in {path}"


def test_migrations_build_exactly_the_models_schema(app):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_a_database_from_before_migrations_is_kept_and_stamped(empty_database_url):
    from sqlalchemy import inspect

    config = {"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": empty_database_url}
    old = create_app({**config, "AUTO_INIT_DB": False})
    with old.app_context():
        db.create_all()  # what builds before migrations did
        db.session.add(Period(name="Cambrian", era="Paleozoic", position=0, start_ma=538.8, end_ma=486.85,
                              color_hex="#7FA056", label_text_color="black"))
        db.session.commit()
        db.engine.dispose()
    new = create_app(config)
    with new.app_context():
        assert "alembic_version" in inspect(db.engine).get_table_names()
        assert db.session.scalar(select(func.count()).select_from(Card)) >= 220
        db.engine.dispose()


def test_a_server_process_freezes_what_it_built_and_a_test_app_does_not(tmp_path):
    """A server's app lives as long as its process: the garbage collector's full collections skip it (a 70 ms pause
    per collection otherwise), and young objects are collected less often. An app made for a test is thrown away, so
    it must stay collectable, and the test process's collector is left as it was."""
    import gc
    import os
    import subprocess
    import sys

    env = {**os.environ, "SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'frozen.sqlite3'}"}
    shown = "print(gc.get_freeze_count(), *gc.get_threshold())"
    script = f"import gc; from webapp import create_app; create_app(); {shown}"
    frozen = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120,
                            check=True)
    count, *thresholds = map(int, frozen.stdout.split()[-4:])
    assert count > 50_000 and thresholds[0] >= 10_000  # and it collects young objects less often (a server's CPU)
    script = f"import gc; from webapp import create_app; create_app({{'TESTING': True}}); {shown}"
    kept = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120,
                            check=True)
    count, *thresholds = map(int, kept.stdout.split()[-4:])
    assert count == 0 and thresholds == list(gc.get_threshold())


def test_a_server_process_compiles_every_template_before_it_serves_and_a_test_app_does_not(tmp_path):
    """A server's process compiles its templates when it starts: compiled at first use, a round's format's templates
    were compiled by every process in the very wave that brings a class its first card. A test's app stays lazy."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'compiled.sqlite3'}"}
    shown = "print(len(app.jinja_env.cache), len(app.jinja_env.list_templates()))"
    for made, compiled in (("create_app()", True), ("create_app({'TESTING': True})", False)):
        script = f"from webapp import create_app; app = {made}; {shown}"
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120,
                             check=True)
        cached, templates = map(int, out.stdout.split()[-2:])
        assert templates > 50
        assert (cached == templates) is compiled
