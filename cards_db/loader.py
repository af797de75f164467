"""Read and validate the card CSV files with pandas; write them back out.

Pure data code: nothing here knows about Flask or the database.
"""

import hashlib
import math
import re
from pathlib import Path
from typing import NamedTuple
from urllib.parse import parse_qs, urlsplit

import pandas as pd

from cards_db import schema
from cards_db.figures import quoted_figures, quoted_lifespans

DATA_DIR = Path(__file__).parent / "data"
SLUG_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
SOURCE_ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DOI_PATTERN = re.compile(r"^10\.\d{4,9}/\S+$")
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
    _check_range_notes(frame, path)
    _check_lifespan_record(frame, path)
    _check_facts(frame, path)
    if "lifespan_years" in frame.columns:
        _check_quoted_lifespans(frame, path)
    frame.insert(1, "deck", deck)
    return frame


class CardFiles(NamedTuple):
    """Everything in the card data folder, validated: periods, cards, works and citations."""

    periods: pd.DataFrame
    cards: pd.DataFrame
    sources: pd.DataFrame
    citations: pd.DataFrame


def read_card_files(data_dir=DATA_DIR):
    """Return periods, cards (slugs unique across decks), works and citations, all checked."""
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
    sources = read_sources(data_dir)
    citations = read_citations(data_dir, cards, sources)
    _check_cited(cards, citations, data_dir)
    return CardFiles(periods, cards, sources, citations)


def read_cards(data_dir=DATA_DIR):
    """Return (periods, cards) for all decks, every file checked (the bibliography too)."""
    files = read_card_files(data_dir)
    return files.periods, files.cards


def read_denied_hosts(data_dir=DATA_DIR):
    """Return the hosts no citation may link to (denied_hosts.txt: one a line, '#' starts a comment)."""
    path = Path(data_dir) / schema.DENIED_HOSTS_FILE
    if not path.exists():
        return set()
    lines = (line.partition("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return {normal_host(line) for line in lines if line}


def normal_host(host):
    """Return a host as compared with the denylist: lower case, no trailing dot, no 'www.'.

    >>> normal_host("WWW.Piglix.com.")
    'piglix.com'
    """
    host = host.strip().lower().rstrip(".")
    return host.removeprefix("www.")


def denied_entry(url, denied_hosts):
    """Return the denylist entry that covers `url`'s host (the host or a parent domain), or None.

    >>> denied_entry("https://en.m.wikipedia.org/wiki/X", {"wikipedia.org"})
    'wikipedia.org'
    >>> denied_entry("https://www.nhm.ac.uk/a", {"piglix.com"}) is None
    True
    """
    labels = normal_host(urlsplit(url).hostname or "").split(".")
    for start in range(len(labels) - 1):
        parent = ".".join(labels[start:])
        if parent in denied_hosts:
            return parent
    return None


SEARCH_KEYS = {"q", "query", "search", "searchterm", "s", "keyword", "keywords", "diff", "oldid"}


def is_search_or_edit_page(url):
    """Say whether `url` is a search-result, edit or page-history page rather than a page of a work.

    >>> is_search_or_edit_page("https://www.nhm.ac.uk/search?q=stegosaurus")
    True
    >>> is_search_or_edit_page("https://www.fishbase.se/summary/SpeciesSummary.php?ID=2")
    False
    """
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    segments = [segment.lower() for segment in parts.path.split("/")]
    return bool(SEARCH_KEYS & set(query)) or query.get("action") == ["edit"] or "search" in segments


WIKIPEDIA_EDITION = re.compile(r"(?:[a-z]{2,3}(?:-[a-z]+)?|simple)\.wikipedia\.org")  # en, de, zh-yue, simple


def is_wikipedia(url):
    """Say whether `url` is on any Wikipedia (any language, mobile or not)."""
    host = normal_host(urlsplit(url).hostname or "")
    return host == "wikipedia.org" or host.endswith(".wikipedia.org")


def is_wikipedia_article(url):
    """Say whether `url` is an article of a Wikipedia edition itself: https://<language>.wikipedia.org/wiki/…

    >>> is_wikipedia_article("https://de.wikipedia.org/wiki/Stegosaurus"), is_wikipedia_article("https://en.m.wikipedia.org/wiki/X")
    (True, False)
    """
    parts = urlsplit(url)
    return (parts.scheme in ("http", "https") and bool(WIKIPEDIA_EDITION.fullmatch(parts.hostname or ""))
            and parts.path.startswith("/wiki/") and len(parts.path) > len("/wiki/"))


def read_sources(data_dir=DATA_DIR):
    """Return the works cards cite (sources.csv), each checked: id, kind, a paper's journal, its links."""
    path = Path(data_dir) / schema.SOURCES_FILE
    frame = read_csv(path)
    _require_columns(frame, schema.SOURCE_COLUMNS, path)
    frame = frame[schema.SOURCE_COLUMNS].copy()
    denied_hosts = read_denied_hosts(data_dir)
    seen = set()
    for index, work in frame.iterrows():
        line = row_number(index)
        if not SOURCE_ID_PATTERN.match(work["id"]):
            raise CardDataError(path, line, "id",
                                f"{work['id']!r}: an id is lowercase letters, digits and single hyphens")
        if work["id"] in seen:
            raise CardDataError(path, line, "id", f"{work['id']!r} is the id of another work above")
        seen.add(work["id"])
        line = f"{line} (work {work['id']!r})"
        _check_work(work, path, line, denied_hosts)
    return frame


def _check_work(work, path, line, denied_hosts):
    if work["kind"] not in schema.SOURCE_KINDS:
        raise CardDataError(path, line, "kind", f"{work['kind']!r} is not a kind of work a card may cite "
                                                f"(one of: {', '.join(schema.SOURCE_KINDS)})")
    if not work["title"]:
        raise CardDataError(path, line, "title", "is empty: every work needs its title")
    if work["year"] and not re.fullmatch(r"\d{4}", work["year"]):
        raise CardDataError(path, line, "year", f"{work['year']!r} is not a year")
    if work["doi"] and not DOI_PATTERN.match(work["doi"]):
        raise CardDataError(path, line, "doi", f"{work['doi']!r} is not a bare DOI (10.xxxx/…)")
    if work["kind"] == "paper" and not ((work["container"] and work["year"]) or work["doi"]):
        column = "doi" if work["container"] and not work["year"] else "container"
        raise CardDataError(path, line, column, "a paper needs its journal (container) and year, or a DOI")
    url = work["url"]
    if not url:
        if work["kind"] == "wikipedia":
            raise CardDataError(path, line, "url", "a Wikipedia work needs the address of its article")
        return
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise CardDataError(path, line, "url", f"{url!r} is not a web address (http:// or https://)")
    entry = denied_entry(url, denied_hosts)
    if entry:
        raise CardDataError(path, line, "url", f"{parts.hostname!r} is on the denylist ({entry} in "
                                               f"{schema.DENIED_HOSTS_FILE}): cite the work itself, not a copy, "
                                               "a wiki, a blog, a forum or a news story about it")
    if is_search_or_edit_page(url):
        raise CardDataError(path, line, "url", f"{url!r} is a search-result, edit or history page: "
                                               "link to the page of the work itself")
    if is_wikipedia(url) and not is_wikipedia_article(url):
        raise CardDataError(path, line, "url", f"{url!r}: Wikipedia is cited only as an article of an edition "
                                               "(https://en.wikipedia.org/wiki/…), not a mobile, search or edit page")
    if (work["kind"] == "wikipedia") != is_wikipedia(url):
        problem = ("a Wikipedia work links to its article on en.wikipedia.org" if work["kind"] == "wikipedia"
                   else "links to Wikipedia: its kind must be 'wikipedia'")
        raise CardDataError(path, line, "url" if work["kind"] == "wikipedia" else "kind", problem)


def split_fields(text):
    """Split a citation's fields cell ('length_m, mass_kg') into field names."""
    return [field.strip() for field in text.split(",") if field.strip()]


def read_citations(data_dir, cards, sources):
    """Return the citations (citations.csv), each naming a card, fields of its deck and a known work."""
    path = Path(data_dir) / schema.CITATIONS_FILE
    frame = read_csv(path)
    _require_columns(frame, schema.CITATION_COLUMNS, path)
    frame = frame[schema.CITATION_COLUMNS].copy()
    decks = dict(zip(cards["slug"], cards["deck"], strict=True))
    ids = set(sources["id"])
    for index, citation in frame.iterrows():
        line = row_number(index)
        slug = citation["slug"]
        if slug not in decks:
            raise CardDataError(path, line, "slug", f"{slug!r} is not the slug of any card")
        line = f"{line} (card {slug!r})"
        if citation["source"] not in ids:
            raise CardDataError(path, line, "source",
                                f"{citation['source']!r} is not the id of a work in {schema.SOURCES_FILE}")
        fields = split_fields(citation["fields"])
        if not fields:
            raise CardDataError(path, line, "fields", "names no field: say which of the card's values the work gives")
        citable = [f for f in schema.CITABLE if f in schema.DECK_COLUMNS[decks[slug]]]
        for field in fields:
            if field not in citable:
                raise CardDataError(path, line, "fields", f"{field!r} is not a field a citation can name on a "
                                                          f"{decks[slug]} card (one of: {', '.join(citable)})")
    frame["field_list"] = frame["fields"].map(split_fields)
    return frame


def _check_cited(cards, citations, data_dir):
    named = {(row.slug, field) for row in citations.itertuples() for field in row.field_list}
    for deck, frame in cards.groupby("deck", sort=False):
        path = Path(data_dir) / schema.DECK_FILES[deck]
        for index, card in frame.reset_index(drop=True).iterrows():
            for column in schema.SOURCED:
                if column in schema.DECK_COLUMNS[deck] and _filled(card[column]) \
                        and (card["slug"], column) not in named:
                    raise CardDataError(path, f"{row_number(index)} (card {card['slug']!r})", column,
                                        f"is filled but no citation in {schema.CITATIONS_FILE} names it")


def numbers_by_kind(files):
    """Count each deck's numbers (filled COUNTED_NUMBERS) by the kind of work cited for them.

    A number backed by works of two kinds counts once under each; the rows 'paper or data set' and
    'numbers' (all of them) count each number once.
    """
    kinds = dict(zip(files.sources["id"], files.sources["kind"], strict=True))
    backing = {}
    for row in files.citations.itertuples():
        for field in row.field_list:
            backing.setdefault((row.slug, field), set()).add(kinds[row.source])
    rows = [*schema.SOURCE_KINDS, "paper or data set", "numbers"]
    table = pd.DataFrame(0, index=rows, columns=list(schema.DECKS))
    for card in files.cards.itertuples():
        for column in schema.COUNTED_NUMBERS:
            if not _filled(getattr(card, column, None)):
                continue
            cited = backing.get((card.slug, column), set())
            for kind in cited:
                table.loc[kind, card.deck] += 1
            table.loc["paper or data set", card.deck] += bool(cited & {"paper", "dataset"})
            table.loc["numbers", card.deck] += 1
    return table


def numbers_table(table):
    """Write numbers_by_kind's table in Markdown: counts and shares of each deck's numbers."""
    decks = list(table.columns)
    lines = ["| Kind of work | " + " | ".join(schema.DECKS[d].split(" (")[0] for d in decks) + " |",
             "|---|" + "---:|" * len(decks)]
    for kind in table.index:
        label = schema.SOURCE_KINDS.get(kind, kind)
        cells = []
        for deck in decks:
            count, total = int(table.loc[kind, deck]), int(table.loc["numbers", deck])
            cells.append(f"{count}" if kind == "numbers" else f"{count} ({100 * count / total if total else 0:.0f}%)")
        lines.append(f"| {label[0].upper() + label[1:]} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


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


def _check_range_notes(frame, path):
    for index, row in frame.iterrows():
        for column, (low, high) in schema.RANGES.items():
            typical, ends = row[column], (row[low], row[high])
            if not _filled(typical) or not all(map(_filled, ends)):
                continue
            marker = schema.RANGE_NOTES[column]
            if (typical in ends or ends[0] == ends[1]) and not re.search(re.escape(marker) + r"\s*\w", row["notes"]):
                what = (f"the range {ends[0]:g} to {ends[1]:g} has one value" if ends[0] == ends[1]
                        else f"{column} {typical:g} sits on an end of its range {ends[0]:g} to {ends[1]:g}")
                _fail(path, frame, index, "notes",
                      f"{what}: say why in notes ('{marker} one published estimate only', or which estimate "
                      "and why), or give the range published estimates span")


def _check_lifespan_record(frame, path):
    if "lifespan_record_years" not in frame.columns:
        return
    for index, row in frame.iterrows():
        record, typical = row["lifespan_record_years"], row["lifespan_years"]
        if _filled(record) and _filled(typical) and record < typical:
            _fail(path, frame, index, "lifespan_record_years",
                  f"{record:g} years is less than the typical lifespan ({typical:g}): a record is the longest life known")


def _check_facts(frame, path):
    for index, row in frame.iterrows():
        for column, value, tolerance, words in quoted_figures(row["fact"]):
            low, high = schema.RANGES[column]
            ends = (row[low], row[high]) if _filled(row[low]) and _filled(row[high]) else (row[column], row[column])
            if not _filled(ends[0]):
                continue
            if not ends[0] - tolerance <= value <= ends[1] + tolerance:
                unit = "m" if column == "length_m" else "kg"
                _fail(path, frame, index, "fact",
                      f"quotes {words!r} ({value:.4g} {unit}), outside the card's range {ends[0]:g} to {ends[1]:g} "
                      f"{unit}: a fact's whole-animal figure agrees with its card")


def _check_quoted_lifespans(frame, path):
    """A life a fact quotes is no longer than the longest known (the record, else the typical life, a quarter more
    for words like "about"), and a plain figure no shorter than three quarters of the typical life."""
    for index, row in frame.iterrows():
        typical, record = row["lifespan_years"], row["lifespan_record_years"]
        known = [value for value in (typical, record) if _filled(value)]
        if not known:
            continue
        for years, at_least, words in quoted_lifespans(row["fact"]):
            too_long = years > max(known) * 1.25
            too_short = not at_least and _filled(typical) and years < typical * 0.75
            if too_long or too_short:
                _fail(path, frame, index, "fact",
                      f"quotes {words!r}, but the card's typical life is {typical:g} years"
                      + (f" and its record {record:g}" if _filled(record) else "")
                      + ": a fact's life agrees with its card")


def _filled(value):
    if isinstance(value, str):
        return value != ""
    return value is not None and not pd.isna(value)
