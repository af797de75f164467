"""Read and validate the card CSV files with pandas; write them back out.

Pure data code: nothing here knows about Flask or the database.
"""

import hashlib
import math
import re
from pathlib import Path

import pandas as pd

from cards_db import schema

DATA_DIR = Path(__file__).parent / "data"
SLUG_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
PERIOD_COLUMNS = ["period", "era", "start_ma", "end_ma", "color_hex", "label_text_color", "climate",
                  "climate_source"]
EXTINCTION_COLUMNS = ["name", "ma", "period_ending", "explanation", "source"]


class CardDataError(ValueError):
    """A card file breaks the schema; the message names file, row and column."""

    def __init__(self, path, row, column, problem):
        self.path, self.row, self.column, self.problem = str(path), row, column, problem
        where = f"{path}" if row is None else f"{path}, row {row}"
        super().__init__(f"{where}, column {column!r}: {problem}")


def data_digest(data_dir=DATA_DIR):
    """Return a digest of every CSV file in `data_dir`: it changes whenever a card file does."""
    digest = hashlib.sha256()
    for path in sorted(Path(data_dir).glob("*.csv")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def read_csv(path):
    """Read a CSV as text cells, empty cells as ''."""
    return pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8").apply(
        lambda column: column.str.strip()
    )


def _require_columns(frame, columns, path):
    """Raise CardDataError naming the first of `columns` missing from the file's header."""
    for column in columns:
        if column not in frame.columns:
            raise CardDataError(path, None, column, "column is missing from the header")


def read_periods(data_dir=DATA_DIR):
    """Return the geological periods, oldest first, with numeric boundaries."""
    path = Path(data_dir) / schema.PERIODS_FILE
    frame = read_csv(path)
    _require_columns(frame, PERIOD_COLUMNS, path)
    frame = frame[PERIOD_COLUMNS].copy()
    for column in ("start_ma", "end_ma"):
        frame[column] = _numbers(frame, column, path)
    frame = frame.sort_values("start_ma", ascending=False).reset_index(drop=True)
    frame["position"] = range(len(frame))
    return frame


def read_extinctions(data_dir=DATA_DIR, periods=None):
    """Return the five great mass extinctions, each dated at the end of a period."""
    path = Path(data_dir) / schema.EXTINCTIONS_FILE
    frame = read_csv(path)
    _require_columns(frame, EXTINCTION_COLUMNS, path)
    frame = frame[EXTINCTION_COLUMNS].copy()
    frame["ma"] = _numbers(frame, "ma", path)
    names = set((read_periods(data_dir) if periods is None else periods)["period"])
    for index, row in frame.iterrows():
        if row["period_ending"] not in names:
            raise CardDataError(path, row_number(index), "period_ending", f"{row['period_ending']!r} is not a period")
        for column in ("explanation", "source"):
            if not row[column]:
                raise CardDataError(path, row_number(index), column, "is empty but required")
    return frame


def read_deck(deck, data_dir=DATA_DIR, periods=None):
    """Return one deck's cards as a DataFrame, raising CardDataError on the first bad cell."""
    path = Path(data_dir) / schema.DECK_FILES[deck]
    frame = read_csv(path)
    columns = schema.DECK_COLUMNS[deck]
    _require_columns(frame, columns, path)
    extra = [c for c in frame.columns if c not in columns]
    if extra:
        raise CardDataError(path, None, extra[0], "column is not part of the schema")
    frame = frame[columns].copy()
    _check_required(frame, deck, path)
    _check_text(frame, deck, path)
    for column in schema.POSITIVE_NUMBERS + schema.AGE_NUMBERS + schema.YEAR_NUMBERS:
        if column in frame.columns:
            frame[column] = _numbers(frame, column, path)
    _check_numbers(frame, path)
    _check_ranges(frame, path)
    _check_lists(frame, path)
    _check_size_measures(frame, deck, path)
    if deck == "dinosaurs":
        _check_periods(frame, path, read_periods(data_dir) if periods is None else periods)
    _check_sources(frame, path)
    frame.insert(1, "deck", deck)
    return frame


def read_cards(data_dir=DATA_DIR):
    """Return (periods, cards) for all decks, with slugs unique across decks."""
    periods = read_periods(data_dir)
    decks = [read_deck(deck, data_dir, periods) for deck in schema.DECKS]
    cards = pd.concat(decks, ignore_index=True)
    duplicated = cards[cards["slug"].duplicated()]
    if not duplicated.empty:
        slug = duplicated.iloc[0]["slug"]
        deck = duplicated.iloc[0]["deck"]
        raise CardDataError(
            Path(data_dir) / schema.DECK_FILES[deck], None, "slug",
            f"slug {slug!r} is used by more than one card",
        )
    return periods, cards


def write_deck(frame, deck, data_dir):
    """Write one deck's cards to its CSV file in `data_dir`, in the schema's column order."""
    out = frame[schema.DECK_COLUMNS[deck]].copy()
    for column in schema.POSITIVE_NUMBERS + schema.AGE_NUMBERS + schema.YEAR_NUMBERS:
        if column in out.columns:
            out[column] = out[column].map(format_number)
    path = Path(data_dir) / schema.DECK_FILES[deck]
    path.parent.mkdir(parents=True, exist_ok=True)
    out.to_csv(path, index=False, encoding="utf-8", lineterminator="\n")
    return path


def format_number(value):
    """Write a number without a trailing '.0'; missing values as ''."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return f"{float(value):g}" if float(value).is_integer() else repr(float(value))


def parse_sources(text):
    """Split a sources cell into [{'fields': [...], 'citation': str, 'url': str|None}]."""
    entries = []
    for part in text.split(schema.SOURCE_SEPARATOR):
        part = part.strip()
        if not part:
            continue
        fields, sep, citation = part.partition(": ")
        if not sep or not re.fullmatch(r"[a-z_]+(,\s*[a-z_]+)*", fields.strip()):
            fields, citation = "", part
        url = re.search(r"https?://[^\s)\]]+", citation)
        doi = re.search(r"\bdoi:\s*(10\.\S+[^\s.,;)])", citation, flags=re.IGNORECASE)
        link = url.group(0) if url else (f"https://doi.org/{doi.group(1)}" if doi else None)
        entries.append({
            "fields": [f.strip() for f in fields.split(",") if f.strip()],
            "citation": citation.strip(),
            "url": link,
        })
    return entries


def row_number(index):
    """Return the line of the CSV file that holds DataFrame row `index` (line 1 is the header)."""
    return int(index) + 2


def _fail(path, frame, index, column, problem):
    slug = frame.at[index, "slug"] if "slug" in frame.columns else ""
    label = f" (card {slug!r})" if slug else ""
    raise CardDataError(path, f"{row_number(index)}{label}", column, problem)


def _numbers(frame, column, path):
    values = pd.to_numeric(frame[column].replace("", None), errors="coerce")
    bad = frame[(frame[column] != "") & (values.isna() | ~values.map(_finite))]
    if not bad.empty:
        index = bad.index[0]
        _fail(path, frame, index, column, f"{frame.at[index, column]!r} is not a number")
    return values.astype(float)


def _finite(value):
    return value is None or pd.isna(value) or math.isfinite(value)


def _check_required(frame, deck, path):
    for column in schema.REQUIRED[deck]:
        empty = frame[frame[column] == ""]
        if not empty.empty:
            _fail(path, frame, empty.index[0], column, "is empty but required")


def _check_choice(frame, column, allowed, path, allow_empty=True):
    bad = frame[~frame[column].isin(list(allowed)) & ~((frame[column] == "") & allow_empty)]
    if not bad.empty:
        index = bad.index[0]
        shown = ", ".join(sorted(allowed))
        _fail(path, frame, index, column, f"{frame.at[index, column]!r} is not one of: {shown}")


def _check_text(frame, deck, path):
    bad_slug = frame[~frame["slug"].str.match(SLUG_PATTERN)]
    if not bad_slug.empty:
        index = bad_slug.index[0]
        _fail(path, frame, index, "slug", "must be lowercase letters, digits and single hyphens")
    duplicated = frame[frame["slug"].duplicated()]
    if not duplicated.empty:
        _fail(path, frame, duplicated.index[0], "slug", "the same slug is used twice")
    _check_choice(frame, "group", schema.GROUPS[deck], path, allow_empty=False)
    _check_choice(frame, "body_plan", schema.BODY_PLANS, path, allow_empty=False)
    _check_choice(frame, "diet", schema.DIETS, path)
    _check_choice(frame, "size_measure", schema.SIZE_MEASURES, path)
    if "iucn_status" in frame.columns:
        _check_choice(frame, "iucn_status", schema.IUCN_STATUSES, path)
    for index, row in frame.iterrows():
        if row["diet_detail"] and row["diet_detail"] not in schema.DIETS.get(row["diet"], []):
            _fail(path, frame, index, "diet_detail",
                  f"{row['diet_detail']!r} is not a sub-diet of {row['diet'] or 'an unknown diet'!r}")
        if len(row["fact"]) > schema.MAX_FACT_LENGTH:
            _fail(path, frame, index, "fact", f"is longer than {schema.MAX_FACT_LENGTH} characters")
        if row["length_m"] and not row["size_measure"]:
            _fail(path, frame, index, "size_measure", "must say what length_m measures")


def _check_numbers(frame, path):
    for column in schema.POSITIVE_NUMBERS:
        if column in frame.columns:
            bad = frame[frame[column] <= 0]
            if not bad.empty:
                _fail(path, frame, bad.index[0], column, "must be greater than zero")
    for column in schema.AGE_NUMBERS:
        if column in frame.columns:
            bad = frame[frame[column] < 0]
            if not bad.empty:
                _fail(path, frame, bad.index[0], column, "cannot be negative (millions of years ago)")


def _check_ranges(frame, path):
    for index, row in frame.iterrows():
        for column, (low, high) in schema.RANGES.items():
            typical, ends = row[column], (row[low], row[high])
            if not _filled(typical):
                filled = [end for end, value in zip((low, high), ends, strict=True) if _filled(value)]
                if filled:
                    _fail(path, frame, index, filled[0], f"is filled but {column} is empty")
                continue
            for end, value in zip((low, high), ends, strict=True):
                if not _filled(value):
                    _fail(path, frame, index, end,
                          f"is empty: give the range published estimates span around {column}")
            if not ends[0] <= typical <= ends[1]:
                _fail(path, frame, index, column,
                      f"{typical:g} is outside its published range {ends[0]:g} to {ends[1]:g}")
        for column in schema.EXPLAINED_WHEN_EMPTY:
            if column in frame.columns and not _filled(row[column]) and f"{column} empty:" not in row["notes"]:
                _fail(path, frame, index, "notes", f"must say why {column} is empty ('{column} empty: …')")
        year = row.get("named_year")
        if _filled(year) and not (1700 <= year <= 2100 and float(year).is_integer()):
            _fail(path, frame, index, "named_year", f"{year:g} is not a year")


def split_list(text):
    """Split a list cell ('Asia; Europe') into its items."""
    return [item.strip() for item in text.split(";") if item.strip()]


def _check_lists(frame, path):
    for column, allowed in schema.LISTS.items():
        if column not in frame.columns:
            continue
        for index, text in frame[column].items():
            items = split_list(text)
            wrong = [item for item in items if allowed is not None and item not in allowed]
            if wrong:
                _fail(path, frame, index, column, f"{wrong[0]!r} is not one of: {', '.join(allowed)}")
            if len(set(items)) != len(items):
                _fail(path, frame, index, column, "names the same place twice")


def _check_size_measures(frame, deck, path):
    for index, row in frame.iterrows():
        expected = schema.size_measure_for(deck, row["body_plan"])
        if row["size_measure"] and row["size_measure"] != expected:
            _fail(path, frame, index, "size_measure",
                  f"{row['size_measure']!r}: every {row['body_plan']} in this deck is measured by {expected}")


def _check_periods(frame, path, periods):
    names = list(periods["period"])
    oldest = periods["start_ma"].max()
    for index, row in frame.iterrows():
        first, last = row["first_appearance_ma"], row["last_appearance_ma"]
        for column in ("first_period", "last_period"):
            if row[column] not in names:
                _fail(path, frame, index, column, f"{row[column]!r} is not one of: {', '.join(names)}")
        if first < last:
            _fail(path, frame, index, "last_appearance_ma",
                  f"{last:g} Ma is older than the first appearance ({first:g} Ma)")
        if first > oldest:
            _fail(path, frame, index, "first_appearance_ma",
                  f"{first:g} Ma is before the Cambrian ({oldest:g} Ma)")
        expected_first = period_of(periods, first, edge="first")
        if row["first_period"] != expected_first:
            _fail(path, frame, index, "first_period",
                  f"{row['first_period']!r} does not match {first:g} Ma ({expected_first})")
        expected_last = period_of(periods, last, edge="last")
        if row["last_period"] != expected_last:
            _fail(path, frame, index, "last_period",
                  f"{row['last_period']!r} does not match {last:g} Ma ({expected_last})")


def period_of(periods, ma, edge):
    """Name the period holding `ma`; a boundary age belongs to the younger period when it is a
    first appearance and to the older one when it is a last appearance."""
    for _, period in periods.iterrows():
        if edge == "first" and period["end_ma"] < ma <= period["start_ma"]:
            return period["period"]
        if edge == "last" and period["end_ma"] <= ma < period["start_ma"]:
            return period["period"]
    return None


def _check_sources(frame, path):
    for index, row in frame.iterrows():
        entries = parse_sources(row["sources"])
        named = {field for entry in entries for field in entry["fields"]}
        for column in schema.SOURCED:
            if column in frame.columns and _filled(row[column]) and column not in named:
                _fail(path, frame, index, "sources", f"no source is given for {column}")
        empty = [entry for entry in entries if not entry["citation"]]
        if empty:
            _fail(path, frame, index, "sources", "a source entry has no citation")


def _filled(value):
    if isinstance(value, str):
        return value != ""
    return value is not None and not pd.isna(value)
