"""scripts/merge_source_parts.py: the re-sourcing parts merged into the card data, once and idempotently."""

import importlib.util
import shutil
from pathlib import Path

import pandas as pd
import pytest

from cards_db.loader import DATA_DIR
from cards_db.schema import DECK_COLUMNS

SCRIPT = Path(__file__).parent.parent / "scripts" / "merge_source_parts.py"
spec = importlib.util.spec_from_file_location("merge_source_parts", SCRIPT)
merge_source_parts = importlib.util.module_from_spec(spec)
spec.loader.exec_module(merge_source_parts)

HEADER = "id,kind,authors,title,container,year,doi,url\n"


@pytest.fixture
def folders(tmp_path):
    """Return (data, parts): a copy of the deck files and a parts folder of two slices."""
    data, parts = tmp_path / "data", tmp_path / "parts"
    data.mkdir()
    parts.mkdir()
    for name in ("dinosaurs.csv", "animals.csv"):
        shutil.copy(DATA_DIR / name, data / name)
    first = pd.read_csv(data / "dinosaurs.csv", dtype=str, keep_default_na=False)["slug"][:2].tolist()
    animal = pd.read_csv(data / "animals.csv", dtype=str, keep_default_na=False)["slug"][0]
    (parts / "common_sources.csv").write_text(HEADER + "pbdb,dataset,PBDB,The Paleobiology Database,,,,https://paleobiodb.org\n"
                                              "unused,reference,X,Never cited,,,,\n")
    (parts / "a_sources.csv").write_text(HEADER + "adw,reference,UMMZ,Animal Diversity Web,,,,https://animaldiversity.org\n")
    (parts / "a_citations.csv").write_text(f"slug,fields,source,detail\n{animal},lifespan_record_years,adw,record\n"
                                           f"{first[1]},first_appearance_ma,pbdb,\n{first[0]},last_appearance_ma,pbdb,\n")
    (parts / "b_corrections.csv").write_text(f"slug,column,value,reason\n{first[0]},fact,A corrected fact.,issue 25\n"
                                             f"{animal},lifespan_record_years,70,a record\n")
    return data, parts, first, animal


def test_the_merge_writes_the_bibliography_and_applies_the_corrections(folders):
    data, parts, first, animal = folders
    summary = merge_source_parts.merge(parts, data)
    assert "2 works, 3 citations, 2 corrections" in summary and "unused" in summary
    works = pd.read_csv(data / "sources.csv", dtype=str, keep_default_na=False)
    assert list(works["id"]) == ["adw", "pbdb"]
    citations = pd.read_csv(data / "citations.csv", dtype=str, keep_default_na=False)
    assert list(citations["slug"]) == [first[0], first[1], animal]  # deck file order
    dinosaurs = pd.read_csv(data / "dinosaurs.csv", dtype=str, keep_default_na=False)
    animals = pd.read_csv(data / "animals.csv", dtype=str, keep_default_na=False)
    assert list(dinosaurs.columns) == DECK_COLUMNS["dinosaurs"] and list(animals.columns) == DECK_COLUMNS["animals"]
    assert "sources" not in dinosaurs.columns
    assert dinosaurs.set_index("slug").loc[first[0], "fact"] == "A corrected fact."
    assert animals.set_index("slug").loc[animal, "lifespan_record_years"] == "70"


def test_the_merge_is_idempotent(folders):
    data, parts, _, _ = folders
    merge_source_parts.merge(parts, data)
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    merge_source_parts.merge(parts, data)
    assert {p.name: p.read_bytes() for p in data.iterdir()} == before


@pytest.mark.parametrize(("name", "text", "message"), [
    ("c_sources.csv", HEADER + "adw,reference,UMMZ,Animal Diversity Web (2),,,,https://animaldiversity.org\n",
     "work 'adw' differs between a_sources.csv, line 2 and c_sources.csv, line 2"),
    ("c_corrections.csv", "slug,column,value,reason\nunicorn,fact,x,r\n", "'unicorn' is not the slug of any card"),
    ("c_corrections.csv", "slug,column,value,reason\nlion,colour,gold,r\n", "'colour' is not a column"),
    ("c_corrections.csv", "slug,column,value,reason\nlion,sources,x,r\n", "'sources' is not a column"),
    ("c_citations.csv", "slug,fields,source,detail\nunicorn,length_m,adw,\n", "'unicorn' is not the slug of any card"),
    ("c_citations.csv", "slug,fields,source,detail\nlion,length_m,nobody,\n", "works no sources file holds: nobody"),
])
def test_a_clash_stops_the_merge_and_writes_nothing(folders, name, text, message):
    data, parts, _, _ = folders
    (parts / name).write_text(text)
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    with pytest.raises(merge_source_parts.MergeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        merge_source_parts.merge(parts, data)
    assert {p.name: p.read_bytes() for p in data.iterdir()} == before


def test_a_part_re_sourcing_a_field_replaces_the_datas_citations_of_that_field_only(tmp_path):
    data, parts = tmp_path / "data", tmp_path / "parts"
    shutil.copytree(DATA_DIR, data)
    parts.mkdir()
    held = pd.read_csv(data / "citations.csv", dtype=str, keep_default_na=False)
    row = held[held["fields"].str.contains(",")].iloc[0]  # a citation of several fields of one card
    field, *others = [f.strip() for f in row["fields"].split(",")]
    (parts / "c_sources.csv").write_text(HEADER + "newwork2026,reference,A. Author,A new handbook,Press,2026,,\n")
    (parts / "c_citations.csv").write_text(f"slug,fields,source,detail\n{row['slug']},{field},newwork2026,p. 12\n")
    merge_source_parts.merge(parts, data)
    merged = pd.read_csv(data / "citations.csv", dtype=str, keep_default_na=False)
    mine = merged[merged["slug"] == row["slug"]]
    cites = {(f.strip(), source) for fields, source in zip(mine["fields"], mine["source"], strict=True)
             for f in fields.split(",")}
    assert (field, "newwork2026") in cites and (field, row["source"]) not in cites
    assert all((other, row["source"]) in cites for other in others)  # the same work still backs the other fields
    assert len(merged[merged["slug"] != row["slug"]]) == len(held[held["slug"] != row["slug"]])


def test_a_value_a_part_empties_keeps_no_citation(tmp_path):
    data, parts = tmp_path / "data", tmp_path / "parts"
    shutil.copytree(DATA_DIR, data)
    parts.mkdir()
    held = pd.read_csv(data / "citations.csv", dtype=str, keep_default_na=False)
    slug = held[held["fields"].str.contains("mass_kg")]["slug"].iloc[0]
    (parts / "d_corrections.csv").write_text(f"slug,column,value,reason\n{slug},mass_kg,,no allowed source\n"
                                             f"{slug},mass_low_kg,,\n{slug},mass_high_kg,,\n")
    merge_source_parts.merge(parts, data)
    merged = pd.read_csv(data / "citations.csv", dtype=str, keep_default_na=False)
    fields = {f.strip() for f in merged[merged["slug"] == slug]["fields"] for f in f.split(",")}
    assert not fields & {"mass_kg", "mass_low_kg", "mass_high_kg"} and fields
