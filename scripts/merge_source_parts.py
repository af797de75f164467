#!/usr/bin/env python
"""Merge the re-sourcing parts (issue 25) into the card data: the bibliography, the citations, the corrections.

    python scripts/merge_source_parts.py PARTS_DIR [--data-dir cards_db/data]

PARTS_DIR holds `common_sources.csv` (optional) and, per slice, `<part>_sources.csv`, `<part>_citations.csv` and
`<part>_corrections.csv` (see its BRIEF.md). The parts add to the data folder's own `sources.csv` and
`citations.csv`: a part's citation of a card's field replaces every citation the data held for that field, so
a slice re-sourced again names only its new works. The script writes `sources.csv` (one row per id, only works
a card cites) and `citations.csv` (in deck file order of slug, then fields), applies every correction to the
deck files and drops their old `sources` column. Running it twice changes nothing more. It stops, writing
nothing, at the first clash: two different rows for one id, a correction of an unknown card or column, two
corrections of one cell that disagree.
"""

import argparse
import sys
from pathlib import Path

import pandas as pd

from cards_db import schema
from cards_db.loader import DATA_DIR, split_fields

NEW_COLUMNS = {"lifespan_record_years": "lifespan_years"}  # a new column and the one it follows
CORRECTION_COLUMNS = ["slug", "column", "value", "reason"]


class MergeError(ValueError):
    """The parts disagree with each other or with the deck files; the message says where."""


def read_text_csv(path):
    """Read a CSV as text cells, empty cells as '', surrounding spaces removed."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    return frame.apply(lambda column: column.str.strip())


def part_files(parts_dir, suffix):
    """Return the parts' files ending in `suffix`, in name order (common_sources.csv is not a part)."""
    return sorted(p for p in Path(parts_dir).glob(f"*{suffix}") if p.name != "common_sources.csv")


def _require(frame, columns, path):
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise MergeError(f"{path}: the header lacks {', '.join(missing)}")


def merge_sources(parts_dir, data_dir):
    """Return the data's works and every part's, one row per id; two different rows for one id are an error."""
    rows, origin = {}, {}
    paths = [Path(data_dir) / schema.SOURCES_FILE, Path(parts_dir) / "common_sources.csv",
             *part_files(parts_dir, "_sources.csv")]
    for path in paths:
        if not path.exists():
            continue
        frame = read_text_csv(path)
        _require(frame, schema.SOURCE_COLUMNS, path)
        for index, row in frame[schema.SOURCE_COLUMNS].iterrows():
            record = row.to_dict()
            where = f"{path.name}, line {index + 2}"
            known = rows.get(record["id"])
            if known is not None and known != record:
                raise MergeError(f"work {record['id']!r} differs between {origin[record['id']]} and {where}:\n"
                                 f"  {known}\n  {record}")
            rows.setdefault(record["id"], record)
            origin.setdefault(record["id"], where)
    return pd.DataFrame(list(rows.values()), columns=schema.SOURCE_COLUMNS)


def merge_citations(parts_dir, slug_order, data_dir):
    """Return the data's citations with every part's, without repeats, in deck file order of slug, then fields.

    A part's citation of (card, field) replaces the data's citations of that field: each citation is split per
    field, those the parts cover are dropped, and what is left is joined again per card, work and detail.
    """
    frames = []
    for path in part_files(parts_dir, "_citations.csv"):
        frame = read_text_csv(path)
        _require(frame, schema.CITATION_COLUMNS, path)
        for index, slug in frame["slug"].items():
            if slug not in slug_order:
                raise MergeError(f"{path.name}, line {index + 2}: {slug!r} is not the slug of any card")
        frames.append(frame[schema.CITATION_COLUMNS])
    new = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=schema.CITATION_COLUMNS)
    held_path = Path(data_dir) / schema.CITATIONS_FILE
    held = read_text_csv(held_path)[schema.CITATION_COLUMNS] if held_path.exists() else new.iloc[0:0]
    covered = {(slug, field) for slug, fields in zip(new["slug"], new["fields"], strict=True)
               for field in split_fields(fields)}
    citations = pd.concat([without_fields(held, covered.__contains__), new], ignore_index=True)
    if citations.empty:
        return citations
    citations["fields"] = citations["fields"].map(lambda text: ", ".join(split_fields(text)))
    citations = citations.drop_duplicates()
    citations["_order"] = citations["slug"].map(slug_order)
    citations = citations.sort_values(["_order", "fields", "source"], kind="stable")
    return citations.drop(columns="_order").reset_index(drop=True)


def without_fields(citations, dropped):
    """Return the citations less each (slug, field) for which `dropped(pair)` is true; what is left of a row keeps
    its work and detail."""
    kept = citations.assign(field=citations["fields"].map(split_fields)).explode("field")
    kept = kept[[not dropped(pair) for pair in zip(kept["slug"], kept["field"], strict=True)]]
    if not kept.empty:
        kept = (kept.groupby(["slug", "source", "detail"], sort=False)["field"].agg(", ".join)
                .reset_index().rename(columns={"field": "fields"}))
    return kept.reindex(columns=schema.CITATION_COLUMNS)


def read_corrections(parts_dir):
    """Return every correction as {(slug, column): (value, where)}; two different values for a cell are an error."""
    cells = {}
    for path in part_files(parts_dir, "_corrections.csv"):
        frame = read_text_csv(path)
        _require(frame, CORRECTION_COLUMNS, path)
        for index, row in frame.iterrows():
            key, where = (row["slug"], row["column"]), f"{path.name}, line {index + 2}"
            if key in cells and cells[key][0] != row["value"]:
                raise MergeError(f"{row['slug']}.{row['column']} is corrected to {cells[key][0]!r} in {cells[key][1]} "
                                 f"but to {row['value']!r} in {where}")
            cells.setdefault(key, (row["value"], where))
    return cells


def corrected_decks(data_dir, corrections):
    """Return {deck: frame} of the deck files with the corrections applied, the new columns added and
    the old `sources` column dropped; an unknown card or column is an error."""
    decks = {deck: read_text_csv(Path(data_dir) / name) for deck, name in schema.DECK_FILES.items()}
    deck_of = {slug: deck for deck, frame in decks.items() for slug in frame["slug"]}
    for deck, frame in decks.items():
        for column, after in NEW_COLUMNS.items():
            if column in schema.DECK_COLUMNS[deck] and column not in frame.columns:
                frame.insert(frame.columns.get_loc(after) + 1, column, "")
    for (slug, column), (value, where) in corrections.items():
        if slug not in deck_of:
            raise MergeError(f"{where}: {slug!r} is not the slug of any card")
        deck = deck_of[slug]
        if column not in schema.DECK_COLUMNS[deck] or column == "slug":
            raise MergeError(f"{where}: {column!r} is not a column of the {deck} deck that can be corrected")
        frame = decks[deck]
        frame.loc[frame["slug"] == slug, column] = value
    return {deck: frame[schema.DECK_COLUMNS[deck]] for deck, frame in decks.items()}


def merge(parts_dir, data_dir=DATA_DIR):
    """Merge the parts into `data_dir`; return a one-line summary of what was written."""
    corrections = read_corrections(parts_dir)
    decks = corrected_decks(data_dir, corrections)
    slug_order = {slug: i for i, slug in enumerate(s for deck in schema.DECKS for s in decks[deck]["slug"])}
    citations = merge_citations(parts_dir, slug_order, data_dir)
    # A value emptied by a correction keeps no citation: the card's page would name a work behind a blank.
    filled = {(slug, column) for frame in decks.values() for column in frame.columns
              for slug, value in zip(frame["slug"], frame[column], strict=True) if value != ""}
    citations = without_fields(citations, lambda pair: pair not in filled)
    works = merge_sources(parts_dir, data_dir)
    cited = set(citations["source"])
    unknown = sorted(cited - set(works["id"]))
    if unknown:
        raise MergeError(f"citations name works no sources file holds: {', '.join(unknown)}")
    uncited = works[~works["id"].isin(cited)]
    works = works[works["id"].isin(cited)].sort_values("id").reset_index(drop=True)
    # Everything checked: write.
    for deck, frame in decks.items():
        frame.to_csv(Path(data_dir) / schema.DECK_FILES[deck], index=False, encoding="utf-8", lineterminator="\n")
    works.to_csv(Path(data_dir) / schema.SOURCES_FILE, index=False, encoding="utf-8", lineterminator="\n")
    citations.to_csv(Path(data_dir) / schema.CITATIONS_FILE, index=False, encoding="utf-8", lineterminator="\n")
    left = f"; left out {len(uncited)} works no card cites ({', '.join(uncited['id'])})" if len(uncited) else ""
    return (f"{len(works)} works, {len(citations)} citations, {len(corrections)} corrections "
            f"applied{left}")


def main():
    """Merge, or exit 1 with the clash."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("parts_dir", help="folder of common_sources.csv and the parts' files")
    parser.add_argument("--data-dir", default=str(DATA_DIR), help="the card data folder to write into")
    args = parser.parse_args()
    try:
        print(merge(args.parts_dir, args.data_dir))
    except MergeError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
