"""Schema creation, loading the card CSVs into the database, exporting them, and the CLI."""

import fcntl
import math
import sqlite3
from contextlib import contextmanager
from pathlib import Path

import click
import pandas as pd
from flask import current_app
from flask.cli import AppGroup
from flask_migrate import stamp, upgrade
from sqlalchemy import delete, event, inspect, select, text
from sqlalchemy.engine import Engine

from cards_db import loader, schema
from webapp.extensions import db
from webapp.models import Card, CardData, Citation, Extinction, MistakeReport, Period, Source

# Any fixed number: all app processes agree on it to take the same PostgreSQL lock.
SCHEMA_LOCK_KEY = 7_201_400


@event.listens_for(Engine, "connect")
def tune_sqlite(connection, _record):
    """Let SQLite readers and a writer work at once (WAL) and wait for a lock instead of failing."""
    if isinstance(connection, sqlite3.Connection):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()


def read_connection():
    """Return a connection for one read-only statement, outside any transaction."""
    connection = db.engine.connect()
    if db.engine.dialect.name == "postgresql":
        # In autocommit no BEGIN and no ROLLBACK go to the server: two round trips fewer. (SQLite
        # opens no transaction for a SELECT anyway, and switching its mode costs a PRAGMA.)
        connection = connection.execution_options(isolation_level="AUTOCOMMIT")
    return connection


def one_statement_at_a_time():
    """Have the request's session send each statement on its own, outside any transaction, until its next commit.

    For a request that reads and then writes one row by one statement (an answer): READ COMMITTED reads the
    same either way and the statement is atomic alone, while on PostgreSQL the BEGIN and COMMIT around them are
    two round trips more for every answer of 1,000 students. Anything written after that commit is in a
    transaction again.
    """
    if db.engine.dialect.name == "postgresql" and not db.session().in_transaction():
        db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})


def statements_commit():
    """Say whether the request's session commits each statement as it runs (one_statement_at_a_time): what it wrote
    is then seen by everyone already."""
    session = db.session()
    return session.in_transaction() and \
        session.connection().get_execution_options().get("isolation_level") == "AUTOCOMMIT"


def init_app(app):
    """Register the CLI and create the schema (and the cards on first start) when configured."""
    app.cli.add_command(cards_cli)
    if app.config["AUTO_INIT_DB"]:
        with app.app_context():
            init_database()


@contextmanager
def schema_lock():
    """Hold a lock that all app processes share while one creates the schema or loads cards."""
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": SCHEMA_LOCK_KEY})
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": SCHEMA_LOCK_KEY})
                connection.commit()
        return
    lock_path = Path(current_app.instance_path) / "schema.lock"
    with open(lock_path, "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


def init_database():
    """Bring the schema up to date (Alembic migrations) and load the cards if there are none."""
    with schema_lock():
        tables = inspect(db.engine).get_table_names()
        if tables and "alembic_version" not in tables:
            # A database made by a build from before migrations: add what is missing, mark it current.
            db.create_all()
            stamp()
        else:
            upgrade()
        # New card files (an upgrade, or a fresh database) are loaded once, by whichever process gets here first.
        if db.session.scalar(select(CardData.digest)) != loader.data_digest():
            load_cards()


def _clean(value):
    if isinstance(value, float) and math.isnan(value):
        return None
    if value == "":
        return None
    return value


def load_cards(data_dir=loader.DATA_DIR):
    """Validate the CSV files and make the database hold exactly their cards and works; return counts."""
    periods, cards, sources, citations = loader.read_card_files(data_dir)
    extinctions = loader.read_extinctions(data_dir, periods)
    existing_periods = {p.name: p for p in db.session.scalars(select(Period))}
    for record in periods.to_dict("records"):
        period = existing_periods.pop(record["period"], None) or Period(name=record["period"])
        period.era, period.position = record["era"], int(record["position"])
        period.start_ma, period.end_ma = float(record["start_ma"]), float(record["end_ma"])
        period.color_hex, period.label_text_color = record["color_hex"], record["label_text_color"]
        period.climate, period.climate_source = record["climate"], record["climate_source"]
        db.session.add(period)
    for stale in existing_periods.values():
        db.session.delete(stale)
    db.session.execute(delete(Extinction))
    for record in extinctions.to_dict("records"):
        db.session.add(Extinction(**{k: record[k] for k in loader.EXTINCTION_COLUMNS}))

    existing_cards = {c.slug: c for c in db.session.scalars(select(Card))}
    columns = [c.key for c in Card.__table__.columns if c.key != "id"]
    for record in cards.to_dict("records"):
        card = existing_cards.pop(record["slug"], None) or Card()
        for column in columns:
            value = _clean(record.get(column))
            setattr(card, column, int(value) if value is not None and column in schema.YEAR_NUMBERS else value)
        db.session.add(card)
    for stale in existing_cards.values():
        db.session.delete(stale)
    load_works(sources, citations)
    db.session.execute(delete(CardData))
    db.session.add(CardData(digest=loader.data_digest(data_dir)))
    db.session.commit()
    return {"periods": len(periods), "cards": len(cards), "works": len(sources), "citations": len(citations)}


def load_works(sources, citations):
    """Make the database hold exactly these works and citations (the cards are already in the session)."""
    db.session.execute(delete(Citation))
    existing = {s.id: s for s in db.session.scalars(select(Source))}
    for record in sources.to_dict("records"):
        work = existing.pop(record["id"], None) or Source(id=record["id"])
        for column in schema.SOURCE_COLUMNS[1:]:
            value = _clean(record[column])
            setattr(work, column, int(value) if value is not None and column == "year" else value)
        db.session.add(work)
    db.session.flush()
    for stale in existing.values():
        db.session.delete(stale)
    card_ids = dict(db.session.execute(select(Card.slug, Card.id)).all())
    for position, record in enumerate(citations.to_dict("records")):
        db.session.add(Citation(card_id=card_ids[record["slug"]], source_id=record["source"], fields=record["fields"],
                                detail=_clean(record["detail"]), position=position))


def cards_frame(deck):
    """Return one deck's cards from the database as a DataFrame in file order."""
    rows = db.session.scalars(select(Card).where(Card.deck == deck).order_by(Card.id))
    columns = schema.DECK_COLUMNS[deck]
    frame = pd.DataFrame(
        [{column: getattr(card, column) for column in columns} for card in rows], columns=columns
    )
    numbers = schema.POSITIVE_NUMBERS + schema.AGE_NUMBERS + schema.YEAR_NUMBERS
    text_columns = [c for c in columns if c not in numbers]
    frame[text_columns] = frame[text_columns].fillna("")
    return frame


def export_cards(out_dir):
    """Write every deck, the works and the citations from the database to CSV files in `out_dir`; return their paths."""
    paths = [loader.write_deck(cards_frame(deck), deck, out_dir) for deck in schema.DECKS]
    works = pd.DataFrame([{column: getattr(work, column) for column in schema.SOURCE_COLUMNS}
                          for work in db.session.scalars(select(Source).order_by(Source.id))],
                         columns=schema.SOURCE_COLUMNS)
    works["year"] = works["year"].map(lambda year: "" if year is None or pd.isna(year) else str(int(year)))
    rows = db.session.execute(select(Card.slug, Citation.fields, Citation.source_id, Citation.detail)
                              .join(Card, Citation.card_id == Card.id).order_by(Citation.position)).all()
    citations = pd.DataFrame(rows, columns=schema.CITATION_COLUMNS)
    for frame, name in ((works, schema.SOURCES_FILE), (citations, schema.CITATIONS_FILE)):
        path = Path(out_dir) / name
        frame.fillna("").to_csv(path, index=False, encoding="utf-8", lineterminator="\n")
        paths.append(path)
    return paths


cards_cli = AppGroup("cards", help="Load, export and review the card database.")


@cards_cli.command("load")
@click.option("--data-dir", type=click.Path(file_okay=False, exists=True), default=str(loader.DATA_DIR),
              show_default=True, help="Folder holding periods.csv and the deck CSV files.")
def load_command(data_dir):
    """Validate the card CSV files and load them into the database."""
    init_database()
    try:
        counts = load_cards(data_dir)
    except loader.CardDataError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"Loaded {counts['cards']} cards, {counts['works']} works they cite and {counts['periods']} periods.")


@cards_cli.command("sources")
@click.option("--data-dir", type=click.Path(file_okay=False, exists=True), default=str(loader.DATA_DIR),
              show_default=True, help="Folder holding the card files, sources.csv and citations.csv.")
def sources_command(data_dir):
    """Count each deck's numbers by the kind of work cited for them (the README's table)."""
    try:
        files = loader.read_card_files(data_dir)
    except loader.CardDataError as error:
        raise click.ClickException(str(error)) from error
    click.echo(loader.numbers_table(loader.numbers_by_kind(files)))


@cards_cli.command("export")
@click.argument("out_dir", type=click.Path(file_okay=False))
def export_command(out_dir):
    """Export the cards in the database to CSV files in OUT_DIR."""
    for path in export_cards(out_dir):
        click.echo(f"Wrote {path}")


@cards_cli.command("reports")
def reports_command():
    """List the open mistake reports for review."""
    reports = db.session.scalars(
        select(MistakeReport).where(MistakeReport.status == "open").order_by(MistakeReport.id)
    ).all()
    if not reports:
        click.echo("No open mistake reports.")
    for report in reports:
        click.echo(f"#{report.id} {report.card_slug} [{report.field}] {report.created_at:%Y-%m-%d}")
        click.echo(f"    {report.message}")
        if report.suggested_source:
            click.echo(f"    source: {report.suggested_source}")
