"""A round's results as files a spreadsheet opens right: CSV with a byte-order mark, and .xlsx with a sheet per table.

Each format gives its tables (``export_tables``); this module adds what every file needs (the round's title and
date on every row, numbers as on screen) and writes them.
"""

import io
import re
import unicodedata

import pandas as pd

RESULT_WORDS = {True: "right", False: "wrong"}
MISSED = "missed"
NO_ANSWER = "no answer"


def round_date(rnd):
    """Return the day the round was made, as the files write it (YYYY-MM-DD)."""
    return rnd.created_at.date().isoformat()


def with_round(rnd, frame):
    """Return the frame with the round's title and date as its first two columns."""
    frame = frame.copy()
    frame.insert(0, "date", round_date(rnd))
    frame.insert(0, "round", rnd.title)
    return frame


def answers_table(frame, missed, item, answer_column, item_key, described):
    """Return every answer as a spreadsheet row: the round's items numbered as on screen, a row for each missed one.

    `frame` holds the answers given (turn from 0, nickname, team, the item's key, `answer_column`, correct, seconds);
    `missed` the rows of students who gave none to an item shown to the class; `described` the item's words by key
    ({column: {key: words}}) for rows no answer describes.
    """
    if not missed.empty:
        missed = missed.assign(**{answer_column: NO_ANSWER})
        frame = pd.concat([frame, missed], ignore_index=True) if not frame.empty else missed
    for column, words in described.items():
        known = frame[item_key].map(words)
        frame[column] = frame[column].fillna(known) if column in frame else known
    frame = frame.sort_values(["turn"], kind="stable").reset_index(drop=True)
    result = frame["correct"].map(lambda value: RESULT_WORDS.get(value, "") if isinstance(value, bool) else "")
    gave_none = frame[answer_column].isna() | frame[answer_column].isin([NO_ANSWER]) | frame["nickname"].isna()
    result = result.where(~(gave_none & (result == "")), MISSED)
    table = pd.DataFrame({f"{item.lower()}_number": frame["turn"].astype(int) + 1, "student": frame["nickname"]})
    if frame["team"].notna().any():
        table["team"] = frame["team"]
    for column in described:
        table[column] = frame[column]
    table[answer_column] = frame[answer_column].fillna(NO_ANSWER)
    table["result"] = result
    table["seconds"] = frame["seconds"]
    for column in frame.columns:
        if column not in table and column not in ("turn", "nickname", "correct", "team", item_key):
            table[column] = frame[column]
    return table


def students_table(board, team_names, by_speed=False):
    """Return the leaderboard as a spreadsheet table: place, student, team, points, answered, out of, accuracy (%);
    scored by speed, the right answers too (points then count more than them)."""
    rows = [{"place": row["place"], "student": row["nickname"], "team": team_names.get(row.get("team")),
             "points": row["points"], "right": row["right"],
             "answered": row["answered"], "out_of": row["out_of"],
             "accuracy_percent": round(100 * row["accuracy"]) if row["accuracy"] is not None else None,
             "average_seconds": round(row["average_seconds"], 1) if row["average_seconds"] is not None else None}
            for row in board]
    table = pd.DataFrame(rows, columns=["place", "student", "team", "points", "right", "answered", "out_of",
                                        "accuracy_percent", "average_seconds"])
    table = table.astype({"accuracy_percent": "Int64"})
    if not by_speed:
        table = table.drop(columns="right")
    return table if table["team"].notna().any() else table.drop(columns="team")


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection"): a student called
# "=1+1" or "-2-3", or a question "@SUM(A1)", would be computed, or worse, when the teacher opens the file.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def as_text(value):
    """Return a text value a spreadsheet would read as a formula with a leading apostrophe (shown as typed,
    never run); anything else, numbers included, as it is."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def neutralised(frame):
    """Return the table with every text cell a spreadsheet would run as a formula made plain text; numbers stay
    numbers."""
    frame = frame.copy()
    for column in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[column]):
            frame[column] = frame[column].map(as_text)
    frame.columns = [as_text(column) for column in frame.columns]
    return frame


def csv_bytes(frame):
    """Return the table as CSV in UTF-8 with a byte-order mark, so a spreadsheet on Windows reads "Zoë" right, its
    text cells never read as formulas."""
    return neutralised(frame).to_csv(index=False, lineterminator="\r\n").encode("utf-8-sig")


def text_stays_text(sheet):
    """Make every text cell of a sheet plain text: openpyxl stores a string starting with "=" as a formula, and
    a quote prefix keeps a cell text when someone edits it."""
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, str) and cell.value.startswith(FORMULA_STARTS):
                cell.data_type = "s"
                cell.quotePrefix = True


def xlsx_bytes(tables):
    """Return the tables as one .xlsx workbook, a sheet per table, headers bold and columns wide enough."""
    buffer = io.BytesIO()
    with pd.ExcelWriter(buffer, engine="openpyxl") as writer:
        for name, frame in tables.items():
            sheet_name = name[:31].capitalize()
            frame.to_excel(writer, sheet_name=sheet_name, index=False)
            sheet = writer.sheets[sheet_name]
            text_stays_text(sheet)
            sheet.freeze_panes = "A2"
            for index, column in enumerate(frame.columns, start=1):
                widest = max([len(str(column)), *(len(str(v)) for v in frame[column].head(500))])
                sheet.column_dimensions[sheet.cell(row=1, column=index).column_letter].width = min(60, widest + 2)
    return buffer.getvalue()


def file_stem_words(text):
    """Return a title as a file name's words: letters and digits of any alphabet, joined by dashes."""
    return re.sub(r"[\W_]+", "-", unicodedata.normalize("NFC", text)).strip("-").lower()[:60]


def file_stem(rnd):
    """Return a file name for the round's results: its date, title and number."""
    return f"{round_date(rnd)}-{file_stem_words(rnd.title) or 'round'}-{rnd.id}"
