"""Plotly figures of deep time and of the cards' characteristics, built from pandas DataFrames.

Figures are returned as plotly JSON (template-free, so they stay small) for the page to render
with the app's own copy of plotly.js.
"""

import itertools
import math
import textwrap

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from cards_db.schema import PERIOD_SYMBOLS
from webapp.filters import (
    FEET_PER_METRE,
    format_length,
    format_lifespan,
    format_ma,
    format_mass,
    measure_word,
    significant,
)

LOG_FLOOR_MA = 0.01  # 10,000 years: a log axis cannot reach "today" (0), so it stops here.
DEFAULT_WIDTH = 800  # pixels, when the page did not say how wide the chart is
RIGHT_MARGIN = 24
ROW_LABEL_GAP = {"ticks": "outside", "ticklen": 8, "tickcolor": "#ffffff"}  # room between a row's label and its bar
MARKER_ROWS = 3  # rows of extinction numbers above the timeline, at most
LOG_MINOR_GRID = {"dtick": 1, "showgrid": True, "gridcolor": "#f0ece2"}  # a faint line at every power of ten
WEIGHT_TITLES = ("Weight (log scale: each grid line is 10 times heavier)", "Weight (log scale)")
HUMAN_HEIGHT_M = 1.8
INK = "#14202b"
BAR = "#0b5d6b"


def to_json(figure):
    """Return the figure as compact plotly JSON."""
    return pio.to_json(figure, validate=False, pretty=False, remove_uids=True)


def _layout(figure, large, height, **extra):
    figure.update_layout(
        template=None, height=height, font={"family": "system-ui, sans-serif", "size": _font(large), "color": INK},
        margin={"l": 20, "r": RIGHT_MARGIN, "t": 30, "b": 50}, plot_bgcolor="#ffffff", paper_bgcolor="#ffffff",
        showlegend=False, bargap=0.25)
    figure.update_layout(**extra)
    figure.update_xaxes(automargin=True)  # the axis title always clears the tick labels, in large type too
    return figure


def _font(large):
    return 20 if large else 14


def text_px(text, large=False):
    """Return about how wide `text` is drawn, in pixels: generous, so labels planned apart stay apart."""
    return len(text) * _font(large) * 0.62


def _plot_px(width, labels, large):
    """Return about how wide the plot area is once the longest row label has taken its margin."""
    left = max((text_px(line, large) for label in labels for line in str(label).split("<br>")), default=0) + 24
    return max(width - left - RIGHT_MARGIN, 80)


def _axis_title(long, short, plot_px, large):
    """Return the long title if it fits under the plot, else the short one, else the short one on two lines: a
    title is never clipped."""
    return next((title for title in (long, short) if text_px(title, large) <= plot_px),
                _wrapped(short, plot_px, large))


def _ma_for_axis(values, scale):
    """Keep ages drawable on a log axis by lifting 0 (today) to the floor."""
    return values.clip(lower=LOG_FLOOR_MA) if scale == "log" else values


def fitted_span(cards, periods, scale):
    """Return (oldest, youngest) ages in Ma that frame the cards with a margin; the whole scale without cards."""
    whole = (float(periods["start_ma"].max()), 0.0)
    if cards.empty:
        return whole
    oldest, youngest = float(cards["first_appearance_ma"].max()), float(cards["last_appearance_ma"].min())
    if scale == "log":
        return min(oldest * 1.25, whole[0]), max(youngest / 1.25, LOG_FLOOR_MA) if youngest > LOG_FLOOR_MA else 0.0
    margin = max((oldest - youngest) * 0.06, 0.5)
    return min(oldest + margin, whole[0]), max(youngest - margin, 0.0)


class _Scale:
    """Where an age in Ma falls across the plot, in pixels, on a linear or log time axis from `oldest` to `youngest`."""

    def __init__(self, oldest, youngest, kind, plot_px):
        self.kind, self.plot_px = kind, plot_px
        self.low, self.high = self.axis(youngest), self.axis(oldest)

    def axis(self, ma):
        """Return the value plotly places for an age: its log10 on a log axis (for annotations)."""
        return math.log10(max(ma, LOG_FLOOR_MA)) if self.kind == "log" else ma

    def px(self, ma):
        """Return the age's distance from the plot's left edge (the oldest end), in pixels."""
        return (self.high - self.axis(ma)) / (self.high - self.low) * self.plot_px


def _band_label(name, symbol, px, large):
    """Return the period's name if it fits in its bar, else its symbol, else nothing."""
    return next((text for text in (name, symbol) if text and text_px(text, large) + 8 <= px), "")


def _log_ticks(low, high, plot_px, label_px):
    """Return marks between `low` and `high` on a log axis (1, 2, 5 in each decade, or only the powers of ten, or
    every few powers) spaced so that labels `label_px` wide never touch."""
    per_decade = plot_px / max(math.log10(high / low), 1e-9)
    need = label_px + 16
    decades = range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
    if math.log10(2) * per_decade >= need:
        marks = [m * 10.0 ** d for d in decades for m in (1, 2, 5)]
    else:
        step = max(1, math.ceil(need / per_decade))
        marks = [10.0 ** d for d in decades if d % step == 0]
    return [mark for mark in marks if low <= mark <= high]


def timeline(periods, cards, extinctions, scale="linear", large=False, width=DEFAULT_WIDTH, span=None):
    """Return the geological timeline: eras, periods, mass extinctions and cards as life-span bars.

    `periods`, `cards` and `extinctions` are DataFrames; cards need slug, common_name, url,
    first_appearance_ma, last_appearance_ma, first_period, last_period. `span` is (oldest, youngest)
    in Ma (default: the whole scale); `width` is the chart's width in pixels, to keep labels apart.
    """
    oldest, youngest = span or (float(periods["start_ma"].max()), 0.0)
    eras = (periods.groupby("era", sort=False)
            .agg(start_ma=("start_ma", "max"), end_ma=("end_ma", "min")).reset_index())
    era_colours = {"Paleozoic": "#99C08D", "Mesozoic": "#67C5CA", "Cenozoic": "#F2F91D"}
    rows = ["Eras", "Periods"] + list(cards["common_name"])
    plot_px = _plot_px(width, rows, large)
    where = _Scale(oldest, youngest, scale, plot_px)
    figure = go.Figure()
    for frame, row, colours, text_colours, symbols in (
        (eras, "Eras", eras["era"].map(era_colours), ["black"] * len(eras), [""] * len(eras)),
        (periods, "Periods", periods["color_hex"], periods["label_text_color"], periods["period"].map(PERIOD_SYMBOLS)),
    ):
        names = frame["era" if row == "Eras" else "period"]
        # Only the part of each band inside the view is drawn, so its label is centred where it can be seen.
        start = _ma_for_axis(frame["start_ma"].clip(upper=oldest), scale)
        end = _ma_for_axis(frame["end_ma"].clip(lower=youngest), scale)
        shown = start > end
        labels = [_band_label(n, s, where.px(e) - where.px(b), large)
                  for n, s, b, e in zip(names, symbols, start, end, strict=True)]
        figure.add_trace(go.Bar(
            y=[row] * int(shown.sum()), x=(start - end)[shown].tolist(), base=end[shown].tolist(), orientation="h",
            width=0.9, marker={"color": list(colours[shown]), "line": {"color": INK, "width": 1}},
            text=[label for label, keep in zip(labels, shown, strict=True) if keep], textposition="inside",
            insidetextanchor="middle", textfont={"color": list(pd.Series(text_colours, index=frame.index)[shown])},
            cliponaxis=True,
            customdata=[[n, significant(s, 4), significant(e, 4) if e else "today"]
                        for n, s, e in zip(names[shown], frame["start_ma"][shown], frame["end_ma"][shown], strict=True)],
            hovertemplate="%{customdata[0]}: %{customdata[1]} to %{customdata[2]} million years ago<extra></extra>",
        ))
    if not cards.empty:
        start = _ma_for_axis(cards["first_appearance_ma"], scale)
        end = _ma_for_axis(cards["last_appearance_ma"], scale)
        # A card known from one date gets a sliver so it can still be seen and clicked.
        sliver = start * 0.02 if scale == "log" else max((oldest - youngest) * 0.0012, 0.02)
        width_ma = (start - end).where(start - end > 0, sliver)
        periods_text = [f if f == last else f"{f} to {last}"
                        for f, last in zip(cards["first_period"], cards["last_period"], strict=True)]
        figure.add_trace(go.Bar(
            y=list(cards["common_name"]), x=width_ma.tolist(), base=end.tolist(), orientation="h",
            marker={"color": BAR},
            customdata=[[url, format_ma(f), format_ma(last), p] for url, f, last, p in zip(
                cards["url"], cards["first_appearance_ma"], cards["last_appearance_ma"], periods_text,
                strict=True)],
            hovertemplate="<b>%{y}</b><br>%{customdata[1]} to %{customdata[2]}<br>%{customdata[3]}"
                          "<extra>click to open the card</extra>",
        ))
    marker_rows = _mark_extinctions(figure, extinctions, where, oldest, youngest, len(rows), large)
    title = _axis_title("Millions of years ago" + (" (log scale)" if scale == "log" else ""),
                        "Millions of years ago" + (" (log)" if scale == "log" else ""), plot_px, large)
    axis = {"title": {"text": title}, "showgrid": True, "gridcolor": "#e3ded2", "zeroline": False, "tickangle": 0}
    if scale == "log":
        low = max(youngest, LOG_FLOOR_MA)
        ticks = _log_ticks(low, oldest, plot_px, text_px("0.01", large))
        axis.update(type="log", range=[math.log10(oldest), math.log10(low)],
                    tickvals=ticks, ticktext=[f"{t:g}" for t in ticks])
    else:
        axis.update(range=[oldest, youngest], nticks=max(2, int(plot_px // (text_px("500", large) + 40))))
    height = 140 + 34 * len(rows) * (1.4 if large else 1) + marker_rows * (_font(large) + 6)
    return _layout(figure, large, height, xaxis=axis,
                   margin={"l": 20, "r": RIGHT_MARGIN, "t": 20 + marker_rows * (_font(large) + 6), "b": 50},
                   yaxis={"autorange": "reversed", "type": "category", "categoryorder": "array",
                          "categoryarray": rows, "automargin": True})


def _mark_extinctions(figure, extinctions, where, oldest, youngest, row_count, large):
    """Draw each mass extinction in view as a dashed line under the bands, numbered above the chart; return the
    rows of numbers used. A number that would touch another in every row is left out (its line stays)."""
    rows_right = []  # the right edge, in pixels, of the last number in each row
    for number, (_, event) in enumerate(extinctions.iterrows(), start=1):
        if not youngest < event["ma"] < oldest:
            continue
        x = where.axis(event["ma"])
        if row_count > 2:  # from below the period band to the last card: never over a name
            # Shapes take ages as they are; annotations take their log10 on a log axis.
            figure.add_shape(type="line", xref="x", yref="y", x0=event["ma"], x1=event["ma"], y0=1.5, y1=row_count - 0.5,
                             line={"color": "#a4161a", "dash": "dash", "width": 2})
        label, centre = f"✝{number}", where.px(event["ma"])
        half = text_px(label, large) / 2 + 3
        row = next((r for r, right in enumerate(rows_right) if centre - half > right), None)
        if row is None and len(rows_right) < MARKER_ROWS:
            rows_right.append(-math.inf)
            row = len(rows_right) - 1
        if row is None:
            continue
        rows_right[row] = centre + half
        figure.add_annotation(
            x=x, xref="x", y=1, yref="paper", yanchor="bottom", yshift=2 + row * (_font(large) + 6),
            text=label, showarrow=False, font={"color": "#a4161a"},
            hovertext=f"{event['name']} mass extinction, {significant(event['ma'], 4)} million years ago")
    return len(rows_right)


def gap_sentences(cards):
    """Say in words how far apart in time the chosen animals lived, oldest first."""
    ordered = cards.sort_values("first_appearance_ma", ascending=False).to_dict("records")
    sentences = []
    for older, younger in itertools.pairwise(ordered):
        gap = older["last_appearance_ma"] - younger["first_appearance_ma"]
        if gap > 0:
            sentences.append(f"{older['common_name']} died out about {_myears(gap)} before "
                             f"{younger['common_name']} appeared.")
        else:
            sentences.append(f"{older['common_name']} and {younger['common_name']} lived at the same "
                             f"time for a while.")
    extinct = [card for card in ordered if card["last_appearance_ma"] > 0]
    if extinct:
        last = extinct[-1]
        sentences.append(f"{last['common_name']} died out {_myears(last['last_appearance_ma'])} "
                         f"before you were born.")
        first_gap = ordered[0]["last_appearance_ma"] - ordered[1]["first_appearance_ma"]
        if last is ordered[1] and first_gap > last["last_appearance_ma"]:
            sentences.append(f"So {ordered[0]['common_name']} lived further in time from "
                             f"{last['common_name']} than {last['common_name']} lives from us!")
    for card in ordered:
        if card["last_appearance_ma"] == 0:
            sentences.append(f"{card['common_name']} still lives today.")
    return sentences


def _myears(ma):
    if ma >= 1:
        return f"{significant(ma, 2)} million years"
    return f"{significant(ma * 1_000_000, 2)} years"


def _wrapped(text, max_px, large):
    """Return `text` broken into lines (joined by <br>) no wider than `max_px`."""
    return "<br>".join(textwrap.wrap(text, max(8, int(max_px / text_px("x", large))), break_long_words=False))


def _row_labels(names, values, width=DEFAULT_WIDTH, large=False):
    """Return row labels, a name over its value, each wrapped to at most 40% of the chart: never clipped."""
    return [_wrapped(name, width * 0.4, large) + "<br>" + _wrapped(value, width * 0.4, large)
            for name, value in zip(names, values, strict=True)]


def _bar_chart(frame, column, labels, colours, large, axis, width):
    """Return horizontal bars, one row per card labelled with its name and value, for the size and weight charts."""
    rows = list(frame["common_name"])
    figure = go.Figure(go.Bar(
        y=rows, x=list(frame[column]), orientation="h", marker={"color": colours},
        customdata=[[u, text] for u, text in zip(frame["url"], labels, strict=True)],
        hovertemplate="<b>%{y}</b>: %{customdata[1]}<extra></extra>"))
    row_labels = _row_labels(rows, labels, width, large)
    plot_px = _plot_px(width, row_labels, large)
    axis["title"]["text"] = _axis_title(*axis["title"]["text"], plot_px, large)
    height = 120 + _row_height(row_labels, large) * len(frame)
    return _layout(figure, large, height, xaxis={"gridcolor": "#e3ded2", "tickangle": 0, **axis},
                   yaxis={"autorange": "reversed", "automargin": True, "tickmode": "array", "tickvals": rows,
                          "ticktext": row_labels, **ROW_LABEL_GAP}), plot_px


def _row_height(labels, large):
    """Return a row's height in pixels: room for the most lines any label has."""
    lines = max((label.count("<br>") + 1 for label in labels), default=1)
    return (lines * 1.3 + 1.2) * _font(large)


def sizes(cards, units="metric", large=False, width=DEFAULT_WIDTH):
    """Return bars of the cards' sizes to scale beside a 1.8 m person, largest first."""
    frame = pd.concat([cards[["common_name", "length_m", "size_measure", "url"]],
                       pd.DataFrame([{"common_name": "A person", "length_m": HUMAN_HEIGHT_M,
                                      "size_measure": "standing height", "url": ""}])])
    frame = frame.sort_values("length_m", ascending=False)
    colours = ["#a4161a" if name == "A person" else BAR for name in frame["common_name"]]
    labels = [f"{format_length(v, units)} {measure_word(m)}" for v, m in zip(frame["length_m"], frame["size_measure"],
                                                                              strict=True)]
    unit = "feet" if units == "imperial" else "metres"
    if units == "imperial":
        frame = frame.assign(length_m=frame["length_m"] * FEET_PER_METRE)
    figure, plot_px = _bar_chart(frame, "length_m", labels, colours, large,
                                 {"title": {"text": (f"Size in {unit} (to scale)", f"Size in {unit}")}}, width)
    figure.update_xaxes(nticks=max(2, int(plot_px // (text_px("100", large) + 40))))
    return figure


MASS_TICKS = {  # a mark every thousand times heavier, in words a child reads: kg -> label
    "metric": [(1e-6, "1 mg"), (1e-3, "1 g"), (1, "1 kg"), (1e3, "1 t"), (1e6, "1,000 t")],
    "imperial": [(0.0002835, "0.01 oz"), (0.02835, "1 oz"), (4.536, "10 lb"), (907.2, "1 ton"),
                 (907_185, "1,000 tons")],
}


def mass_axis(low, high, units, large, plot_px):
    """Return a log weight axis from `low` to `high` kg, its marks written with their units (1 g, 1 kg, 1 t), far
    enough apart that their labels never touch."""
    lowest, highest = math.log10(low) - 0.3, math.log10(high) + 0.3
    per_decade = plot_px / (highest - lowest)
    marks, right = [], -math.inf
    for kg, text in MASS_TICKS[units]:
        at = (math.log10(kg) - lowest) * per_decade
        if 0 <= at <= plot_px and at - text_px(text, large) / 2 > right + 12:
            marks.append((kg, text))
            right = at + text_px(text, large) / 2
    return {"type": "log", "range": [lowest, highest], "tickvals": [kg for kg, _ in marks],
            "ticktext": [text for _, text in marks], "minor": LOG_MINOR_GRID}


def masses(cards, units="metric", large=False, width=DEFAULT_WIDTH):
    """Return the cards' weights on a log scale, heaviest first."""
    frame = cards[["common_name", "mass_kg", "url"]].sort_values("mass_kg", ascending=False)
    labels = [format_mass(v, units) for v in frame["mass_kg"]]
    figure, plot_px = _bar_chart(frame, "mass_kg", labels, BAR, large, {"title": {"text": WEIGHT_TITLES}}, width)
    figure.update_xaxes(**mass_axis(frame["mass_kg"].min(), frame["mass_kg"].max(), units, large, plot_px))
    return figure


def value_text(characteristic, value, units, period_names):
    """Write a characteristic's value for people."""
    if characteristic == "length":
        return format_length(value, units)
    if characteristic == "mass":
        return format_mass(value, units)
    if characteristic == "lifespan":
        return format_lifespan(value)
    return period_names[int(value)]


LINE_TITLES = {"length": "Size", "mass": "Weight", "lifespan": "Lifespan", "period": "Period (first appearance)"}


def finished_line(line, misplaced, characteristic, names, units="metric", period_names=None, large=False,
                  width=DEFAULT_WIDTH):
    """Return a finished Cardline line as a dot chart: one row per card, smallest at the top, each labelled with
    its name and value; misplaced cards (marked ✘) sit in the row where they belonged.

    `line` and `misplaced` are lists of {"card", "value"}; `names` maps slugs to names.
    """
    entries = sorted([(e, False) for e in line] + [(e, True) for e in misplaced], key=lambda pair: pair[0]["value"])
    rows = [("✘ " if wrong else "") + names[e["card"]] for e, wrong in entries]
    texts = [value_text(characteristic, e["value"], units, period_names) for e, _ in entries]
    # Sizes are drawn in the reader's unit (the axis says which); every other value as it is.
    factor = FEET_PER_METRE if characteristic == "length" and units == "imperial" else 1
    xs = [e["value"] * factor for e, _ in entries]
    figure = go.Figure()
    for wrong in (False, True):
        chosen = [(row, x, text) for row, (_, w), x, text in zip(rows, entries, xs, texts, strict=True) if w == wrong]
        if not chosen:
            continue
        figure.add_trace(go.Scatter(
            y=[row for row, _, _ in chosen], x=[x for _, x, _ in chosen], mode="markers",
            marker={"size": 14 if wrong else 12, "color": "#a4161a" if wrong else BAR, "symbol": "x" if wrong else "circle"},
            text=[text for _, _, text in chosen],
            hovertemplate="<b>%{y}</b>: %{text}<extra>" + ("misplaced: shown where it belonged" if wrong
                                                           else "placed correctly") + "</extra>"))
    labels = _row_labels(rows, texts, width, large)
    plot_px = _plot_px(width, labels, large)
    xaxis = {"gridcolor": "#e3ded2", "tickangle": 0}
    if characteristic == "mass":
        xaxis.update(mass_axis(min(xs), max(xs), units, large, plot_px))
        title = WEIGHT_TITLES
    elif characteristic == "period":
        used = sorted({int(e["value"]) for e, _ in entries})
        fit = all(text_px(name, large) + 12 <= plot_px / max(len(used), 1) for name in period_names)
        xaxis.update(tickmode="array", tickvals=used, range=[used[0] - 0.5, used[-1] + 0.5],
                     ticktext=[period_names[i] if fit else PERIOD_SYMBOLS.get(period_names[i], "") for i in used])
        title = (LINE_TITLES["period"], "Period")
    else:
        low, high = min(xs), max(xs)
        ticks = _log_ticks(low / 2, high * 2, plot_px, text_px("1,000", large))
        unit = "years" if characteristic == "lifespan" else ("feet" if units == "imperial" else "metres")
        xaxis.update(type="log", range=[math.log10(low / 2), math.log10(high * 2)], tickvals=ticks,
                     ticktext=[significant(t) for t in ticks], minor=LOG_MINOR_GRID)
        title = (f"{LINE_TITLES[characteristic]} in {unit} (log scale)", f"{LINE_TITLES[characteristic]} in {unit} (log)")
    xaxis["title"] = {"text": _axis_title(*title, plot_px, large)}
    height = 100 + _row_height(labels, large) * len(rows)
    return _layout(figure, large, height, xaxis=xaxis,
                   yaxis={"autorange": "reversed", "automargin": True, "type": "category", "categoryorder": "array",
                          "categoryarray": rows, "tickmode": "array", "tickvals": rows, "ticktext": labels,
                          **ROW_LABEL_GAP})
