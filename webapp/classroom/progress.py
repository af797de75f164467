"""Progress over a term: how a class and each of its pupils do across the rounds held for the class.

Every round's answers come from its format's results tables (the same rows as its spreadsheet), so a class line,
a diet sort, a live quiz, a team round and homework all count, each by what it sorted (size, weight, period,
lifespan, diet, or quiz questions).
"""

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from sqlalchemy import select

from webapp.classroom import exports, rounds
from webapp.classroom.classes import class_rounds
from webapp.classroom.formats import format_of
from webapp.common.characteristics import CHARACTERISTICS
from webapp.extensions import db
from webapp.models import Card, Period, Student

JUDGED = ("right", "right (too close to call)", "wrong", "missed")
COLUMNS = ["pupil_id", "pupil", "round_id", "round", "date", "sorted_by", "item", "place", "result", "right"]
# Each line of a chart has its own marker shape and dash, so no line is told from another by colour alone.
SYMBOLS = ["circle", "square", "diamond", "triangle-up", "x", "star"]
DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]
INK = "#1d2a36"


def sorted_by(rnd):
    """Say what a round asked about, as the progress pages name it ("Weight", "Diet", "Quiz questions")."""
    key = rnd.settings.get("characteristic")
    return CHARACTERISTICS[key]["label"].split(" (")[0] if key in CHARACTERISTICS else \
        "Diet" if key == "diet" else "Quiz questions"


def round_answers(rnd):
    """Return the judged answers of a round for a class, one row per pupil and item (pandas, COLUMNS)."""
    answers = format_of(rnd).export_tables(rnd)["answers"]
    pupils = dict(db.session.execute(select(Student.nickname, Student.pupil_id).where(
        Student.round_id == rnd.id, Student.pupil_id.is_not(None))).all())
    item = answers["animal"] if "animal" in answers else answers.get("question", pd.Series(dtype=str))
    place = answers["place"] if "place" in answers else answers.get("answer", pd.Series(dtype=str))
    frame = pd.DataFrame({"pupil_id": answers["student"].map(pupils), "pupil": answers["student"],
                          "round_id": rnd.id, "round": rnd.title, "date": exports.round_date(rnd),
                          "sorted_by": sorted_by(rnd), "item": item, "place": place, "result": answers["result"]})
    frame = frame[frame["pupil_id"].notna() & frame["result"].isin(JUDGED)]
    return frame.assign(right=frame["result"].str.startswith("right"), pupil_id=frame["pupil_id"].astype(int))


def class_answers(school_class, pupil=None):
    """Return every judged answer the class's pupils (or one pupil) gave in the class's rounds, oldest round first."""
    held = class_rounds(school_class)
    for rnd in held:
        rounds.settle(rnd)  # a homework whose closing time passed with no page open is closed (and judged) now
    frames = [round_answers(rnd) for rnd in reversed(held) if rnd.status != "lobby"]
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
    return frame[frame["pupil_id"] == pupil.id] if pupil is not None else frame


def accuracy(frame, by):
    """Return the share right per group of `by` columns, with counts: right, answered, percent (whole numbers)."""
    if frame.empty:
        return pd.DataFrame(columns=[*by, "right", "answered", "percent"])
    table = frame.groupby(by, sort=False).agg(right=("right", "sum"), answered=("right", "size")).reset_index()
    table["right"] = table["right"].astype(int)
    return table.assign(percent=(100 * table["right"] / table["answered"]).round().astype(int))


def over_time(frame):
    """Return each round's share right, per round and what it sorted by, oldest first."""
    return accuracy(frame, ["round_id", "date", "round", "sorted_by"])


def by_card_facts(frame, fact):
    """Return the share right by a fact of the cards answered about ("period" or "group"), in time or name order."""
    cards = {card.common_name: card for card in db.session.scalars(select(Card))}
    positions = {period.name: period.position for period in db.session.scalars(select(Period))}
    about = frame[frame["item"].isin(cards)]
    column = "first_period" if fact == "period" else "group"
    about = about.assign(fact=about["item"].map(lambda name: getattr(cards[name], column) or "Living today"))
    table = accuracy(about, ["fact"])
    order = (lambda name: positions.get(name, 99)) if fact == "period" else str.casefold
    return table.sort_values("fact", key=lambda names: names.map(order)).reset_index(drop=True)


def most_missed(frame, limit=10):
    """Return the animals (or questions) answered wrong most often, with where the wrong answers put them most."""
    rows = []
    for item, group in frame.groupby("item", sort=False):
        wrong = group[~group["right"]]
        if wrong.empty:
            continue
        places = wrong.loc[wrong["place"] != exports.NO_ANSWER, "place"].dropna()
        rows.append({"item": item, "wrong": len(wrong), "answered": len(group),
                     "common_place": places.mode().iloc[0] if not places.empty else None})
    return sorted(rows, key=lambda row: (-row["wrong"], -row["wrong"] / row["answered"], row["item"]))[:limit]


def pupil_summary(frame, pupils):
    """Return each pupil's rounds played, answers and share right over the term (pupils with none included)."""
    table = accuracy(frame, ["pupil_id"]).set_index("pupil_id") if not frame.empty else None
    rows = []
    for pupil in pupils:
        counts = table.loc[pupil.id] if table is not None and pupil.id in table.index else None
        played = frame.loc[frame["pupil_id"] == pupil.id, "round_id"].nunique() if not frame.empty else 0
        rows.append({"pupil": pupil, "rounds": int(played),
                     "answered": int(counts["answered"]) if counts is not None else 0,
                     "right": int(counts["right"]) if counts is not None else 0,
                     "percent": int(counts["percent"]) if counts is not None else None})
    return rows


def progress_csv(frame):
    """Return the term's results per pupil and round as a table for a spreadsheet."""
    table = accuracy(frame, ["pupil", "date", "round", "sorted_by"])
    return table.rename(columns={"sorted_by": "sorted_by", "percent": "percent_right"})


def _layout(figure, title, height):
    # The title is the figure's name for the page (its aria-label and the table under it say it too).
    figure.update_layout(template=None, height=height, meta={"title": title},
                         font={"family": "system-ui, sans-serif", "size": 14, "color": INK},
                         margin={"l": 20, "r": 20, "t": 20, "b": 40}, plot_bgcolor="#ffffff", paper_bgcolor="#ffffff")
    figure.update_yaxes(automargin=True)
    figure.update_xaxes(automargin=True)
    return figure


def over_time_figure(frame):
    """Return a line chart of the share right in each round, a line per thing sorted (marker and dash apart)."""
    table = over_time(frame)
    figure = go.Figure()
    # A round's title on the axis (its date in the table and on hover): short enough for a phone.
    labels = [f"{index + 1}. {row.round[:18]}" for index, row in enumerate(table.itertuples())]
    table = table.assign(label=labels)
    for index, (kind, rows) in enumerate(table.groupby("sorted_by", sort=False)):
        figure.add_trace(go.Scatter(
            x=rows["label"], y=rows["percent"], name=kind, mode="lines+markers+text",
            text=[f"{p}%" for p in rows["percent"]], textposition="top center",
            marker={"symbol": SYMBOLS[index % len(SYMBOLS)], "size": 11},
            line={"dash": DASHES[index % len(DASHES)], "width": 3},
            customdata=rows["date"], hovertemplate="%{x} (%{customdata})<br>" + kind + ": %{y}% right<extra></extra>"))
    figure.update_yaxes(range=[0, 109], title="% right", ticksuffix="%")
    figure.update_xaxes(type="category", categoryorder="array", categoryarray=labels)
    figure.update_layout(legend={"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"})
    figure = _layout(figure, "Share right in each round", 440)
    return figure.update_layout(margin={"t": 60})


def facts_figure(frame, fact):
    """Return a bar chart of the share right by period or group, each bar labelled with its share and count."""
    table = by_card_facts(frame, fact)
    figure = go.Figure(go.Bar(
        y=[name[:1].upper() + name[1:] for name in table["fact"]], x=table["percent"], orientation="h", marker={"color": "#2f6f8f"},
        text=[f"{row.percent}% of {row.answered}" for row in table.itertuples()], textposition="outside",
        hovertemplate="%{y}: %{x}% right<extra></extra>"))
    figure.update_xaxes(range=[0, 119], title="% right", ticksuffix="%")
    figure.update_yaxes(autorange="reversed")
    return _layout(figure, f"Share right by {'period' if fact == 'period' else 'group'}", 120 + 34 * max(1, len(table)))


FIGURES = {"over-time": over_time_figure, "by-period": lambda frame: facts_figure(frame, "period"),
           "by-group": lambda frame: facts_figure(frame, "group")}


def figure_json(frame, kind):
    """Return the chart `kind` of a progress frame as plotly JSON."""
    return pio.to_json(FIGURES[kind](frame), validate=False, pretty=False, remove_uids=True)
