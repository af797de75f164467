"""The card loader: validation messages (the cards, the bibliography, the data rules), loading, export, the CLI."""

import shutil

import pandas as pd
import pytest
from sqlalchemy import func, select

from cards_db import CardDataError, read_card_files, read_cards
from cards_db.loader import DATA_DIR, format_number, numbers_by_kind, numbers_table
from cards_db.schema import CITATION_COLUMNS, DECK_COLUMNS, SOURCE_COLUMNS
from webapp.extensions import db
from webapp.models import Card, Citation, Source


@pytest.fixture
def data_dir(tmp_path):
    """Return a scratch copy of the real card data folder."""
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def edit_cell(data_dir, file, row, column, value):
    """Set one cell (row 0 is the first data row) of a CSV file."""
    path = data_dir / file
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[row, column] = value
    frame.to_csv(path, index=False)


# A small card data folder, written afresh for each test: one prehistoric card, one living card, the works
# they cite and the citations; each refusal below changes one cell of it.
STEGOSAURUS = {
    "slug": "stegosaurus", "common_name": "Stegosaurus", "scientific_name": "Stegosaurus stenops",
    "group": "dinosaur", "body_plan": "stegosaur", "diet": "herbivore", "diet_detail": "",
    "first_period": "Jurassic", "last_period": "Jurassic", "first_appearance_ma": "155", "last_appearance_ma": "150",
    "size_measure": "total length", "length_m": "7", "length_low_m": "6.5", "length_high_m": "9",
    "mass_kg": "3800", "mass_low_kg": "2500", "mass_high_kg": "6950", "continents": "North America; Europe",
    "countries": "United States; Portugal", "habitat": "land", "name_meaning": "roof lizard",
    "pronunciation": "STEG-oh-SORE-us", "named_by": "Othniel Charles Marsh", "named_year": "1877",
    "fact": "Stegosaurus grew to about 7 m long, yet its brain was the size of a dog's.", "notes": "",
}
LION = {
    "slug": "lion", "common_name": "Lion", "scientific_name": "Panthera leo", "group": "mammal",
    "body_plan": "mammal", "family": "Felidae", "diet": "carnivore", "diet_detail": "",
    "size_measure": "head-body length", "length_m": "1.9", "length_low_m": "1.4", "length_high_m": "2.5",
    "mass_kg": "160", "mass_low_kg": "120", "mass_high_kg": "250", "lifespan_years": "12",
    "lifespan_record_years": "20", "continents": "Africa; Asia", "habitat": "land", "iucn_status": "VU",
    "fact": "A lion's roar can be heard 8 km away.", "notes": "",
}
WORKS = [
    {"id": "benson2014", "kind": "paper", "authors": "Benson, R. B. J.; Campione, N. E.",
     "title": "Rates of dinosaur body mass evolution", "container": "PLoS Biology 12(5): e1001853", "year": "2014",
     "doi": "10.1371/journal.pbio.1001853", "url": ""},
    {"id": "nhm-dino-directory", "kind": "museum", "authors": "Natural History Museum, London",
     "title": "Dino Directory", "container": "", "year": "", "doi": "",
     "url": "https://www.nhm.ac.uk/discover/dino-directory/stegosaurus.html"},
    {"id": "wikipedia-stegosaurus", "kind": "wikipedia", "authors": "", "title": "Stegosaurus", "container": "",
     "year": "", "doi": "", "url": "https://en.wikipedia.org/wiki/Stegosaurus"},
    {"id": "adw", "kind": "reference", "authors": "University of Michigan Museum of Zoology",
     "title": "Animal Diversity Web", "container": "", "year": "", "doi": "", "url": "https://animaldiversity.org"},
    {"id": "iucn-red-list", "kind": "iucn", "authors": "IUCN", "title": "The IUCN Red List of Threatened Species",
     "container": "", "year": "2025", "doi": "", "url": "https://www.iucnredlist.org"},
]
CITATIONS = [
    {"slug": "stegosaurus", "fields": "length_m, length_low_m, length_high_m, diet", "source": "nhm-dino-directory",
     "detail": "6.5 to 9 m"},
    {"slug": "stegosaurus", "fields": "mass_kg, mass_low_kg, mass_high_kg", "source": "benson2014", "detail": ""},
    {"slug": "stegosaurus", "fields": "first_appearance_ma, last_appearance_ma, continents, countries, habitat, "
                                      "name_meaning, pronunciation, named_by, named_year",
     "source": "wikipedia-stegosaurus", "detail": ""},
    {"slug": "lion", "fields": "length_m, length_low_m, length_high_m, mass_kg, mass_low_kg, mass_high_kg, "
                               "lifespan_years, lifespan_record_years, continents, habitat",
     "source": "adw", "detail": ""},
    {"slug": "lion", "fields": "iucn_status", "source": "iucn-red-list", "detail": "VU, 2023"},
]


@pytest.fixture
def small_dir(tmp_path):
    """Return a folder of valid card data: two cards, five works, five citations, the real denylist."""
    target = tmp_path / "small"
    target.mkdir()
    for name in ("periods.csv", "extinctions.csv", "denied_hosts.txt"):
        shutil.copy(DATA_DIR / name, target / name)
    for name, rows, columns in (("dinosaurs.csv", [STEGOSAURUS], DECK_COLUMNS["dinosaurs"]),
                                ("animals.csv", [LION], DECK_COLUMNS["animals"]),
                                ("sources.csv", WORKS, SOURCE_COLUMNS), ("citations.csv", CITATIONS, CITATION_COLUMNS)):
        pd.DataFrame(rows, columns=columns).to_csv(target / name, index=False)
    return target


def test_the_small_folder_is_valid(small_dir):
    files = read_card_files(small_dir)
    assert list(files.cards["slug"]) == ["stegosaurus", "lion"]
    assert len(files.sources) == 5 and len(files.citations) == 5


# (file, row, column, value, the column the error names, words of its sentence)
REFUSALS = [
    ("dinosaurs.csv", 0, "mass_kg", "heavy", "mass_kg", "'heavy' is not a number"),
    ("dinosaurs.csv", 0, "mass_kg", "-3", "mass_kg", "must be greater than zero"),
    ("dinosaurs.csv", 0, "length_m", "inf", "length_m", "is not a number"),
    ("dinosaurs.csv", 0, "first_period", "Jurasic", "first_period", "is not one of"),
    ("dinosaurs.csv", 0, "first_period", "Quaternary", "first_period", "does not match"),
    ("dinosaurs.csv", 0, "first_appearance_ma", "600", "first_appearance_ma", "before the Cambrian"),
    ("dinosaurs.csv", 0, "last_appearance_ma", "1000", "last_appearance_ma", "older than the first appearance"),
    ("dinosaurs.csv", 0, "diet", "vegetarian", "diet", "is not one of"),
    ("dinosaurs.csv", 0, "group", "", "group", "is empty but required"),
    ("dinosaurs.csv", 0, "body_plan", "blob", "body_plan", "is not one of"),
    ("dinosaurs.csv", 0, "slug", "Bad Slug", "slug", "lowercase letters"),
    ("dinosaurs.csv", 0, "fact", "x" * 300, "fact", "longer than"),
    ("dinosaurs.csv", 0, "mass_low_kg", "5000", "mass_kg", "outside its published range"),
    ("dinosaurs.csv", 0, "mass_high_kg", "", "mass_high_kg", "give the range published estimates span"),
    ("dinosaurs.csv", 0, "continents", "North America; Atlantis", "continents", "'Atlantis' is not one of"),
    ("dinosaurs.csv", 0, "size_measure", "standing height", "size_measure", "measured by total length"),
    ("animals.csv", 0, "iucn_status", "XX", "iucn_status", "is not one of"),
    ("animals.csv", 0, "lifespan_years", "ten", "lifespan_years", "'ten' is not a number"),
    ("animals.csv", 0, "family", "", "family", "is empty but required"),
    ("animals.csv", 0, "lifespan_years", "", "notes", "must say why lifespan_years is empty"),
    # The data rules: a fact's whole-animal figure in the card's range, a range end or a one-value
    # range explained, a record no shorter than the typical life.
    ("dinosaurs.csv", 0, "fact", "One record fossil is 37 cm long.", "fact", "outside the card's range"),
    ("dinosaurs.csv", 0, "fact", "It grew up to three feet long.", "fact", "'three feet'"),
    ("dinosaurs.csv", 0, "fact", "The biggest weighed 20 tonnes.", "fact", "outside the card's range"),
    ("animals.csv", 0, "fact", "One male weighed 71 g.", "fact", "outside the card's range"),
    ("animals.csv", 0, "fact", "A big male can weigh 900 pounds.", "fact", "outside the card's range"),
    ("dinosaurs.csv", 0, "mass_kg", "2500", "notes", "sits on an end of its range"),
    ("dinosaurs.csv", 0, "length_m", "9", "notes", "sits on an end of its range"),
    ("animals.csv", 0, "lifespan_record_years", "10", "lifespan_record_years", "less than the typical lifespan"),
    # The bibliography.
    ("sources.csv", 0, "id", "Benson 2014", "id", "lowercase letters, digits and single hyphens"),
    ("sources.csv", 1, "id", "benson2014", "id", "the id of another work above"),
    ("sources.csv", 0, "kind", "blog", "kind", "'blog' is not a kind of work a card may cite"),
    ("sources.csv", 3, "kind", "", "kind", "is not a kind of work a card may cite"),
    ("sources.csv", 0, "doi", "pbio.1001853", "doi", "is not a bare DOI"),
    ("sources.csv", 0, "year", "14", "year", "is not a year"),
    ("sources.csv", 3, "title", "", "title", "every work needs its title"),
    ("sources.csv", 1, "url", "https://piglix.com/stegosaurus", "url", "on the denylist (piglix.com"),
    ("sources.csv", 1, "url", "https://www.wikiwand.com/en/Stegosaurus", "url", "on the denylist (wikiwand.com"),
    ("sources.csv", 1, "url", "https://dinopedia.fandom.com/wiki/Stegosaurus", "url", "on the denylist (fandom.com"),
    ("sources.csv", 1, "url", "https://bafybeiemxf5.ipfs.dweb.link/wiki/Stegosaurus.html", "url", "denylist (dweb.link"),
    ("sources.csv", 1, "url", "https://someone.blogspot.com/2019/stegosaurus.html", "url", "denylist (blogspot.com"),
    ("sources.csv", 1, "url", "https://www.theguardian.com/science/stegosaurus", "url", "denylist (theguardian.com"),
    ("sources.csv", 1, "url", "https://www.nhm.ac.uk/search?q=stegosaurus", "url", "search-result, edit or history"),
    ("sources.csv", 1, "url", "ftp://nhm.ac.uk/stegosaurus", "url", "is not a web address"),
    ("sources.csv", 2, "url", "https://en.m.wikipedia.org/wiki/Stegosaurus", "url", "Wikipedia is cited only as"),
    ("sources.csv", 2, "url", "https://en.m.wikipedia.org/wiki/Stegosaurus", "url", "Wikipedia is cited only as"),
    ("sources.csv", 2, "url", "https://en.wikipedia.org/w/index.php?title=Stegosaurus&action=edit", "url",
     "search-result, edit or history"),
    ("sources.csv", 2, "url", "https://www.nhm.ac.uk/stegosaurus", "url", "links to its article on en.wikipedia.org"),
    ("sources.csv", 1, "url", "https://en.wikipedia.org/wiki/Stegosaurus", "kind", "its kind must be 'wikipedia'"),
    ("citations.csv", 0, "source", "nhm", "source", "'nhm' is not the id of a work in sources.csv"),
    ("citations.csv", 0, "slug", "unicorn", "slug", "'unicorn' is not the slug of any card"),
    ("citations.csv", 0, "fields", "length_m, colour", "fields", "'colour' is not a field a citation can name"),
    ("citations.csv", 0, "fields", "lifespan_years", "fields", "'lifespan_years' is not a field a citation can name"),
    ("citations.csv", 0, "fields", "", "fields", "names no field"),
    ("citations.csv", 0, "fields", "length_m, diet", "length_low_m", "no citation in citations.csv names it"),
    ("citations.csv", 3, "fields", ("length_m, length_low_m, length_high_m, mass_kg, mass_low_kg, mass_high_kg, "
                                    "lifespan_years, continents, habitat"), "lifespan_record_years", "no citation"),
    ("citations.csv", 4, "fields", "habitat", "iucn_status", "no citation in citations.csv names it"),
]
DECK_OF_CITATION_ROW = {0: "dinosaurs.csv", 1: "dinosaurs.csv", 2: "dinosaurs.csv", 3: "animals.csv", 4: "animals.csv"}


@pytest.mark.parametrize(("file", "row", "column", "value", "named", "message"), REFUSALS,
                         ids=[f"{r[0]}:{r[2]}={r[3][:24]}" for r in REFUSALS])
def test_a_bad_cell_is_refused_naming_file_line_column_and_why(small_dir, file, row, column, value, named, message):
    edit_cell(small_dir, file, row, column, value)
    with pytest.raises(CardDataError) as caught:
        read_card_files(small_dir)
    error = caught.value
    assert error.column == named, str(error)
    assert message in str(error), str(error)
    # The line of the file to mend: the bad row, or the card's own row when a value lacks its citation.
    expected = DECK_OF_CITATION_ROW[row] if file == "citations.csv" and named not in ("source", "slug", "fields") \
        else file
    line = 2 if expected != file else row + 2
    assert error.path.endswith(expected), str(error)
    assert str(error.row).startswith(str(line)), str(error)
    assert f"{expected}, row {line}" in str(error)


@pytest.mark.parametrize(("cells", "allowed"), [
    ({"doi": ""}, True),
    ({"doi": "", "year": ""}, False),
    ({"doi": "", "container": ""}, False),
    ({"container": "", "year": ""}, True),
])
def test_a_paper_needs_its_journal_and_year_or_a_doi(small_dir, cells, allowed):
    for column, value in cells.items():
        edit_cell(small_dir, "sources.csv", 0, column, value)
    if allowed:
        read_card_files(small_dir)
    else:
        with pytest.raises(CardDataError, match=r"a paper needs its journal \(container\) and year, or a DOI"):
            read_card_files(small_dir)


@pytest.mark.parametrize(("cells", "allowed"), [
    ({"mass_kg": "2500"}, False),
    ({"mass_kg": "2500", "notes": "mass range: one published estimate only (Benson et al. 2014)."}, True),
    ({"length_low_m": "7", "length_high_m": "7"}, False),
    ({"length_low_m": "7", "length_high_m": "7", "notes": "length range: one published estimate only."}, True),
    ({"length_low_m": "7", "length_high_m": "7", "notes": "mass range: one published estimate only."}, False),
    ({"length_low_m": "7", "length_high_m": "7", "notes": "length range:"}, False),
])
def test_a_range_end_or_a_one_value_range_needs_its_marker_in_notes(small_dir, cells, allowed):
    for column, value in cells.items():
        edit_cell(small_dir, "dinosaurs.csv", 0, column, value)
    if allowed:
        read_card_files(small_dir)
    else:
        with pytest.raises(CardDataError, match="say why in notes"):
            read_card_files(small_dir)


@pytest.mark.parametrize(("fact", "allowed"), [
    ("Stegosaurus grew to about 7 m long.", True),
    ("Some grew to 30 feet long.", True),  # 9.1 m: the top of the range, allowing the conversion
    ("Its tail spikes were up to 90 cm long.", True),  # a part of the animal
    ("It weighed as much as 5 tonnes.", True),
    ("It laid eggs that weighed 2 kg.", True),
    ("It could walk 20 km a day.", True),
    ("Its skull was 40 cm long: tiny for an animal of its size.", True),
    ("It grew to 12 metres.", False),
    ("It weighed around two hundred pounds.", False),
])
def test_facts_are_checked_for_whole_animal_figures_in_any_unit(small_dir, fact, allowed):
    edit_cell(small_dir, "dinosaurs.csv", 0, "fact", fact)
    if allowed:
        read_card_files(small_dir)
    else:
        with pytest.raises(CardDataError, match="outside the card's range"):
            read_card_files(small_dir)


@pytest.mark.parametrize(("fact", "allowed"), [
    ("A lion lives about 12 years in the wild.", True),
    ("In zoos some lions have lived more than 20 years.", True),  # at least 20: the record allows it
    ("A lion can live 60 years.", False),  # longer than its record
    ("A lion lives only about 3 years.", False),  # far shorter than its typical life
    ("Cubs stay with their mother for two years.", True),  # not a life
])
def test_a_life_a_fact_quotes_agrees_with_the_cards_lifespans(small_dir, fact, allowed):
    edit_cell(small_dir, "animals.csv", 0, "fact", fact)
    edit_cell(small_dir, "animals.csv", 0, "lifespan_years", "12")
    edit_cell(small_dir, "animals.csv", 0, "lifespan_record_years", "25")
    if allowed:
        read_card_files(small_dir)
    else:
        with pytest.raises(CardDataError, match="a fact's life agrees with its card"):
            read_card_files(small_dir)


def test_a_bibliography_file_missing_a_column_is_refused(small_dir):
    (small_dir / "citations.csv").write_text("slug,fields,source\n")
    with pytest.raises(CardDataError, match="column 'detail': column is missing"):
        read_card_files(small_dir)


def test_slug_shared_between_decks_is_refused(small_dir):
    edit_cell(small_dir, "animals.csv", 0, "slug", "stegosaurus")
    with pytest.raises(CardDataError, match="used by more than one card"):
        read_card_files(small_dir)


def test_diet_detail_must_belong_to_diet(small_dir):
    edit_cell(small_dir, "dinosaurs.csv", 0, "diet_detail", "piscivore")
    with pytest.raises(CardDataError, match="'piscivore' is not a sub-diet of 'herbivore'"):
        read_cards(small_dir)


def test_missing_column_is_named(small_dir):
    path = small_dir / "animals.csv"
    pd.read_csv(path, dtype=str, keep_default_na=False).drop(columns="lifespan_years").to_csv(path, index=False)
    with pytest.raises(CardDataError, match="column 'lifespan_years': column is missing"):
        read_cards(small_dir)


def test_the_old_sources_column_is_refused(small_dir):
    edit_cell(small_dir, "dinosaurs.csv", 0, "sources", "length_m: a book")
    with pytest.raises(CardDataError, match="column 'sources': column is not part of the schema"):
        read_cards(small_dir)


def test_numbers_are_counted_by_the_kind_of_work_behind_them(small_dir):
    table = numbers_by_kind(read_card_files(small_dir))
    # Stegosaurus: 3 lengths (museum), 3 masses (paper), 2 dates (Wikipedia); the lion: 8 numbers (reference).
    assert table.loc["numbers"].to_dict() == {"dinosaurs": 8, "animals": 8}
    assert table.loc["museum", "dinosaurs"] == 3 and table.loc["paper", "dinosaurs"] == 3
    assert table.loc["wikipedia", "dinosaurs"] == 2 and table.loc["paper or data set", "dinosaurs"] == 3
    assert table.loc["reference", "animals"] == 8
    assert "| Paper | 3 (38%) | 0 (0%) |" in numbers_table(table)


@pytest.mark.parametrize(("value", "text"), [(12.0, "12"), (0.5, "0.5"), (float("nan"), ""), (None, "")])
def test_format_number(value, text):
    assert format_number(value) == text


def test_export_round_trips_the_files(app, tmp_path):
    from webapp.database import export_cards

    with app.app_context():
        export_cards(tmp_path / "out")
    for name in ("periods.csv", "denied_hosts.txt"):
        shutil.copy(DATA_DIR / name, tmp_path / "out" / name)
    original, exported = read_card_files(DATA_DIR), read_card_files(tmp_path / "out")
    for part in ("cards", "sources", "citations"):
        pd.testing.assert_frame_equal(getattr(original, part), getattr(exported, part))


def test_cli_load_reloads_and_replaces_edits(app, runner):
    with app.app_context():
        card = db.session.scalar(select(Card).limit(1))
        original_fact, card_id = card.fact, card.id
        card.fact = "changed"
        db.session.commit()
    result = runner.invoke(args=["cards", "load"])
    assert result.exit_code == 0, result.output
    assert "Loaded" in result.output and "works" in result.output
    with app.app_context():
        assert db.session.get(Card, card_id).fact == original_fact


def test_cli_load_loads_works_and_citations(app, runner, small_dir):
    result = runner.invoke(args=["cards", "load", "--data-dir", str(small_dir)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Card)) == 2
        assert set(db.session.scalars(select(Source.id))) == {work["id"] for work in WORKS}
        assert db.session.scalar(select(func.count()).select_from(Citation)) == len(CITATIONS)
        card = db.session.scalar(select(Card).where(Card.slug == "stegosaurus"))
        assert [w.id for w in card.works_by_field()["mass_kg"]] == ["benson2014"]
        assert card.to_dict()["sources"]["mass_kg"] == [{
            "id": "benson2014", "kind": "paper", "url": "https://doi.org/10.1371/journal.pbio.1001853",
            "citation": "Benson, R. B. J.; Campione, N. E. (2014). Rates of dinosaur body mass evolution. "
                        "PLoS Biology 12(5): e1001853. doi:10.1371/journal.pbio.1001853"}]


@pytest.mark.parametrize(("file", "row", "column", "value", "where"), [
    ("dinosaurs.csv", 0, "mass_kg", "lots", "dinosaurs.csv, row 2"),
    ("sources.csv", 1, "url", "https://wikimili.com/en/Stegosaurus", "sources.csv, row 3"),
    ("citations.csv", 1, "source", "nobody2020", "citations.csv, row 3"),
])
def test_cli_load_refuses_bad_data_and_changes_nothing(app, runner, small_dir, file, row, column, value, where):
    edit_cell(small_dir, file, row, column, value)
    with app.app_context():
        before = db.session.scalar(select(func.count()).select_from(Card))
    result = runner.invoke(args=["cards", "load", "--data-dir", str(small_dir)])
    assert result.exit_code != 0
    assert where in result.output and repr(column) in result.output
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Card)) == before


def test_cli_sources_prints_the_counts(runner, small_dir):
    result = runner.invoke(args=["cards", "sources", "--data-dir", str(small_dir)])
    assert result.exit_code == 0, result.output
    assert "| Museum | 3 (38%) | 0 (0%) |" in result.output and "| Numbers | 8 | 8 |" in result.output


def test_cli_export_writes_both_decks_and_the_bibliography(runner, tmp_path):
    result = runner.invoke(args=["cards", "export", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for name in ("dinosaurs.csv", "animals.csv", "sources.csv", "citations.csv"):
        assert (tmp_path / name).exists()


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
