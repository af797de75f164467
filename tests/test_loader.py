"""The card loader: validation messages, loading, export round trip, and the CLI."""

import shutil

import pandas as pd
import pytest
from sqlalchemy import func, select

from cards_db import CardDataError, read_cards, read_deck
from cards_db.loader import DATA_DIR, format_number, parse_sources
from webapp.extensions import db
from webapp.models import Card


@pytest.fixture
def data_dir(tmp_path):
    """Return a scratch copy of the real card data folder."""
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def edit_cell(data_dir, file, row, column, value):
    """Set one cell (row 0 is the first card) of a card file."""
    path = data_dir / file
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[row, column] = value
    frame.to_csv(path, index=False)


@pytest.mark.parametrize(("file", "column", "value", "message"), [
    ("dinosaurs.csv", "mass_kg", "heavy", "'heavy' is not a number"),
    ("dinosaurs.csv", "mass_kg", "-3", "must be greater than zero"),
    ("dinosaurs.csv", "length_m", "0", "must be greater than zero"),
    ("dinosaurs.csv", "length_m", "inf", "is not a number"),
    ("dinosaurs.csv", "first_period", "Jurasic", "is not one of"),
    ("dinosaurs.csv", "first_period", "Quaternary", "does not match"),
    ("dinosaurs.csv", "first_appearance_ma", "600", "before the Cambrian"),
    ("dinosaurs.csv", "last_appearance_ma", "1000", "older than the first appearance"),
    ("dinosaurs.csv", "diet", "vegetarian", "is not one of"),
    ("dinosaurs.csv", "group", "", "is empty but required"),
    ("dinosaurs.csv", "group", "alien", "is not one of"),
    ("dinosaurs.csv", "body_plan", "blob", "is not one of"),
    ("dinosaurs.csv", "slug", "Bad Slug", "lowercase letters"),
    ("dinosaurs.csv", "common_name", "", "is empty but required"),
    ("dinosaurs.csv", "sources", "", "is empty but required"),
    ("dinosaurs.csv", "sources", "fact: a book with no numbers", "no source is given for"),
    ("dinosaurs.csv", "fact", "x" * 300, "longer than"),
    ("animals.csv", "iucn_status", "XX", "is not one of"),
    ("animals.csv", "lifespan_years", "ten", "'ten' is not a number"),
    ("animals.csv", "family", "", "is empty but required"),
])
def test_bad_cell_names_file_row_and_column(data_dir, file, column, value, message):
    edit_cell(data_dir, file, 2, column, value)
    with pytest.raises(CardDataError) as caught:
        read_cards(data_dir)
    error = caught.value
    assert error.path.endswith(file)
    assert error.row.startswith("4")  # the third card sits on line 4, under the header
    assert error.column == column or (column == "first_appearance_ma" and error.column)
    assert message in str(error)
    assert f"{file}, row 4" in str(error)


def test_diet_detail_must_belong_to_diet(data_dir):
    edit_cell(data_dir, "dinosaurs.csv", 0, "diet", "herbivore")
    edit_cell(data_dir, "dinosaurs.csv", 0, "diet_detail", "piscivore")
    with pytest.raises(CardDataError, match="'piscivore' is not a sub-diet of 'herbivore'"):
        read_cards(data_dir)


def test_missing_column_is_named(data_dir):
    path = data_dir / "animals.csv"
    pd.read_csv(path, dtype=str, keep_default_na=False).drop(columns="lifespan_years").to_csv(path, index=False)
    with pytest.raises(CardDataError, match="column 'lifespan_years': column is missing"):
        read_cards(data_dir)


def test_slug_shared_between_decks_is_refused(data_dir):
    dinosaur_slug = read_deck("dinosaurs", data_dir).iloc[0]["slug"]
    edit_cell(data_dir, "animals.csv", 0, "slug", dinosaur_slug)
    with pytest.raises(CardDataError, match="used by more than one card"):
        read_cards(data_dir)


def test_parse_sources_splits_fields_citation_and_link():
    entries = parse_sources("length_m, mass_kg: Smith 2020, https://example.org/a | "
                            "iucn_status: Benson 2014 doi:10.1371/journal.pbio.1001853")
    assert entries[0] == {"fields": ["length_m", "mass_kg"], "citation": "Smith 2020, https://example.org/a",
                          "url": "https://example.org/a"}
    assert entries[1]["url"] == "https://doi.org/10.1371/journal.pbio.1001853"


@pytest.mark.parametrize(("value", "text"), [(12.0, "12"), (0.5, "0.5"), (float("nan"), ""), (None, "")])
def test_format_number(value, text):
    assert format_number(value) == text


def test_export_round_trips_the_files(app, tmp_path):
    from webapp.database import export_cards

    with app.app_context():
        export_cards(tmp_path / "out")
    shutil.copy(DATA_DIR / "periods.csv", tmp_path / "out" / "periods.csv")
    _, original = read_cards(DATA_DIR)
    _, exported = read_cards(tmp_path / "out")
    pd.testing.assert_frame_equal(original, exported)


def test_cli_load_reloads_and_replaces_edits(app, runner):
    with app.app_context():
        card = db.session.scalar(select(Card).limit(1))
        original_fact, card_id = card.fact, card.id
        card.fact = "changed"
        db.session.commit()
    result = runner.invoke(args=["cards", "load"])
    assert result.exit_code == 0, result.output
    assert "Loaded" in result.output
    with app.app_context():
        assert db.session.get(Card, card_id).fact == original_fact


def test_cli_load_refuses_bad_data_and_changes_nothing(app, runner, data_dir):
    edit_cell(data_dir, "dinosaurs.csv", 5, "mass_kg", "lots")
    with app.app_context():
        before = db.session.scalar(select(func.count()).select_from(Card))
    result = runner.invoke(args=["cards", "load", "--data-dir", str(data_dir)])
    assert result.exit_code != 0
    assert "dinosaurs.csv, row 7" in result.output and "mass_kg" in result.output
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Card)) == before


def test_cli_export_writes_both_decks(runner, tmp_path):
    result = runner.invoke(args=["cards", "export", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "dinosaurs.csv").exists() and (tmp_path / "animals.csv").exists()


def test_cli_reports_lists_open_reports(client, runner):
    client.post("/cards/tyrannosaurus", data={"field": "mass", "message": "The weight looks too high to me."})
    result = runner.invoke(args=["cards", "reports"])
    assert "tyrannosaurus [mass]" in result.output


def edit_card(data_dir, file, slug, **cells):
    """Set cells of the card with `slug`; return the line of the file it sits on."""
    path = data_dir / file
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    index = frame.index[frame["slug"] == slug][0]
    for column, value in cells.items():
        frame.loc[index, column] = value
    frame.to_csv(path, index=False)
    return index + 2


@pytest.mark.parametrize(("file", "slug", "cells", "column", "message"), [
    ("dinosaurs.csv", "tyrannosaurus", {"mass_low_kg": "20000"}, "mass_kg", "outside its published range"),
    ("dinosaurs.csv", "tyrannosaurus", {"length_high_m": "1"}, "length_m", "outside its published range"),
    ("dinosaurs.csv", "tyrannosaurus", {"mass_high_kg": ""}, "mass_high_kg", "give the range published estimates span"),
    ("dinosaurs.csv", "tyrannosaurus", {"mass_kg": "", "notes": ""}, "mass_low_kg", "is filled but mass_kg is empty"),
    ("dinosaurs.csv", "tyrannosaurus", {"mass_kg": "", "mass_low_kg": "", "mass_high_kg": "", "notes": ""},
     "notes", "must say why mass_kg is empty"),
    ("dinosaurs.csv", "tyrannosaurus", {"continents": "North America; Atlantis"}, "continents", "'Atlantis' is not one of"),
    ("dinosaurs.csv", "tyrannosaurus", {"habitat": "space"}, "habitat", "'space' is not one of"),
    ("dinosaurs.csv", "tyrannosaurus", {"named_year": "1905.5"}, "named_year", "is not a year"),
    ("dinosaurs.csv", "tyrannosaurus", {"size_measure": "standing height"}, "size_measure", "every theropod in this deck is measured by total length"),
    ("dinosaurs.csv", "tyrannosaurus", {"sources": "length_m, length_low_m, length_high_m, mass_kg, mass_low_kg, mass_high_kg, "
                                                   "first_appearance_ma, last_appearance_ma, named_year, countries, habitat, "
                                                   "name_meaning, pronunciation, named_by: a book"},
     "sources", "no source is given for continents"),
    ("animals.csv", "lion", {"lifespan_years": "", "notes": ""}, "notes", "must say why lifespan_years is empty"),
    ("animals.csv", "lion", {"size_measure": "total length"}, "size_measure", "every mammal in this deck is measured by head-body length"),
])
def test_ranges_places_and_measures_are_checked(data_dir, file, slug, cells, column, message):
    line = edit_card(data_dir, file, slug, **cells)
    with pytest.raises(CardDataError) as caught:
        read_cards(data_dir)
    assert caught.value.column == column, str(caught.value)
    assert message in str(caught.value)
    assert f"{file}, row {line} (card '{slug}')" in str(caught.value)


def test_cli_load_refuses_a_range_that_misses_the_typical_value(app, runner, data_dir):
    line = edit_card(data_dir, "dinosaurs.csv", "stegosaurus", mass_high_kg="10")
    result = runner.invoke(args=["cards", "load", "--data-dir", str(data_dir)])
    assert result.exit_code != 0
    assert f"dinosaurs.csv, row {line}" in result.output and "'mass_kg'" in result.output


def test_changed_card_files_are_loaded_on_the_next_start(app, data_dir, monkeypatch):
    from cards_db import loader
    from webapp import database

    edit_card(data_dir, "dinosaurs.csv", "tyrannosaurus", fact="A new fact.")
    monkeypatch.setattr(loader.data_digest, "__defaults__", (data_dir,))
    monkeypatch.setattr(database.load_cards, "__defaults__", (data_dir,))
    with app.app_context():
        assert db.session.scalar(select(Card.fact).where(Card.slug == "tyrannosaurus")) != "A new fact."
        database.init_database()
        assert db.session.scalar(select(Card.fact).where(Card.slug == "tyrannosaurus")) == "A new fact."
