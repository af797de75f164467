"""Plotly figures of deep time and of the cards' characteristics, built from pandas DataFrames.

Figures are returned as plotly JSON (template-free, so they stay small) for the page to render
with the app's own copy of plotly.js.
"""

import itertools
import math

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from webapp.filters import format_length, format_lifespan, format_ma, format_mass, significant

# The ICS chart's period symbols, short enough to fit inside narrow period bars.
PERIOD_SYMBOLS = {"Cambrian": "Cm", "Ordovician": "O", "Silurian": "S", "Devonian": "D",
                  "Carboniferous": "C", "Permian": "P", "Triassic": "Tr", "Jurassic": "J",
                  "Cretaceous": "K", "Paleogene": "Pg", "Neogene": "N", "Quaternary": "Q"}
LOG_FLOOR_MA = 0.01  # 10,000 years: a log axis cannot reach "today" (0), so it stops here.
HUMAN_HEIGHT_M = 1.8
INK = "#14202b"
BAR = "#0b5d6b"


def to_json(figure):
    """Return the figure as compact plotly JSON."""
    return pio.to_json(figure, validate=False, pretty=False, remove_uids=True)


def _layout(figure, large, height, **extra):
    size = 20 if large else 14
    figure.update_layout(
        template=None, height=height, font={"family": "system-ui, sans-serif", "size": size, "color": INK},
        margin={"l": 130, "r": 20, "t": 30, "b": 50}, plot_bgcolor="#ffffff", paper_bgcolor="#ffffff",
        showlegend=False, bargap=0.25, **extra)
    return figure


def _ma_for_axis(values, scale):
    """Keep ages drawable on a log axis by lifting 0 (today) to the floor."""
    return values.clip(lower=LOG_FLOOR_MA) if scale == "log" else values


def timeline(periods, cards, extinctions, scale="linear", large=False):
    """Return the geological timeline: eras, periods, mass extinctions and cards as life-span bars.

    `periods`, `cards` and `extinctions` are DataFrames; cards need slug, common_name, url,
    first_appearance_ma, last_appearance_ma, first_period, last_period.
    """
    eras = (periods.groupby("era", sort=False)
            .agg(start_ma=("start_ma", "max"), end_ma=("end_ma", "min")).reset_index())
    era_colours = {"Paleozoic": "#99C08D", "Mesozoic": "#67C5CA", "Cenozoic": "#F2F91D"}
    rows = ["Eras", "Periods"] + list(cards["common_name"])
    figure = go.Figure()
    for frame, row, colours, text_colours, names, labels in (
        (eras, "Eras", eras["era"].map(era_colours), ["black"] * len(eras), eras["era"], eras["era"]),
        (periods, "Periods", periods["color_hex"], periods["label_text_color"], periods["period"],
         periods["period"].map(PERIOD_SYMBOLS)),
    ):
        start = _ma_for_axis(frame["start_ma"], scale)
        end = _ma_for_axis(frame["end_ma"], scale)
        figure.add_trace(go.Bar(
            y=[row] * len(frame), x=(start - end).tolist(), base=end.tolist(), orientation="h", width=0.9,
            marker={"color": list(colours), "line": {"color": INK, "width": 1}},
            text=list(labels), textposition="inside", insidetextanchor="middle",
            textfont={"color": list(text_colours)}, cliponaxis=False,
            customdata=[[n, significant(s, 4), significant(e, 4) if e else "today"]
                        for n, s, e in zip(names, frame["start_ma"], frame["end_ma"], strict=True)],
            hovertemplate="%{customdata[0]}: %{customdata[1]} to %{customdata[2]} million years ago<extra></extra>",
        ))
    if not cards.empty:
        start = _ma_for_axis(cards["first_appearance_ma"], scale)
        end = _ma_for_axis(cards["last_appearance_ma"], scale)
        # A card known from one date gets a sliver so it can still be seen and clicked.
        width = (start - end).where(start - end > 0, start * 0.02 if scale == "log" else 0.6)
        periods_text = [f if f == last else f"{f} to {last}"
                        for f, last in zip(cards["first_period"], cards["last_period"], strict=True)]
        figure.add_trace(go.Bar(
            y=list(cards["common_name"]), x=width.tolist(), base=end.tolist(), orientation="h",
            marker={"color": BAR},
            customdata=[[url, format_ma(f), format_ma(last), p] for url, f, last, p in zip(
                cards["url"], cards["first_appearance_ma"], cards["last_appearance_ma"], periods_text,
                strict=True)],
            hovertemplate="<b>%{y}</b><br>%{customdata[1]} to %{customdata[2]}<br>%{customdata[3]}"
                          "<extra>click to open the card</extra>",
        ))
    for number, (_, event) in enumerate(extinctions.iterrows(), start=1):
        x = max(event["ma"], LOG_FLOOR_MA) if scale == "log" else event["ma"]
        figure.add_trace(go.Scatter(
            x=[x, x], y=[rows[0], rows[-1]], mode="lines+text", line={"color": "#a4161a", "dash": "dash", "width": 2},
            text=[f"✝{number}", ""], textposition="top center", textfont={"color": "#a4161a"},
            hovertemplate=f"{event['name']} mass extinction, {significant(event['ma'], 4)} million years ago"
                          "<extra></extra>",
        ))
    axis = {"title": {"text": "Millions of years ago" + (" (log scale)" if scale == "log" else "")},
            "showgrid": True, "gridcolor": "#e3ded2", "zeroline": False}
    if scale == "log":
        ticks = [500, 200, 100, 50, 20, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01]
        axis.update(type="log", range=[math.log10(periods["start_ma"].max()), math.log10(LOG_FLOOR_MA)],
                    tickvals=ticks, ticktext=[f"{t:g}" for t in ticks])
    else:
        axis.update(range=[periods["start_ma"].max(), 0])
    height = 140 + 34 * len(rows) * (1.4 if large else 1)
    figure.update_layout(uniformtext={"minsize": 16 if large else 11, "mode": "hide"})
    return _layout(figure, large, height, xaxis=axis,
                   yaxis={"autorange": "reversed", "type": "category", "categoryorder": "array",
                          "categoryarray": rows, "automargin": True})


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


def sizes(cards, units="metric", large=False):
    """Return bars of the cards' sizes to scale beside a 1.8 m person, largest first."""
    frame = pd.concat([cards[["common_name", "length_m", "size_measure", "url"]],
                       pd.DataFrame([{"common_name": "A person", "length_m": HUMAN_HEIGHT_M,
                                      "size_measure": "standing height", "url": ""}])])
    frame = frame.sort_values("length_m", ascending=False)
    colours = ["#a4161a" if name == "A person" else BAR for name in frame["common_name"]]
    labels = [f"{format_length(v, units)} ({m})" for v, m in zip(frame["length_m"], frame["size_measure"],
                                                               strict=True)]
    figure = go.Figure(go.Bar(
        y=list(frame["common_name"]), x=list(frame["length_m"]), orientation="h",
        marker={"color": colours}, text=labels, textposition="outside", cliponaxis=False,
        customdata=[[u] for u in frame["url"]], hovertemplate="<b>%{y}</b>: %{text}<extra></extra>"))
    height = 120 + 40 * len(frame) * (1.4 if large else 1)
    return _layout(figure, large, height, xaxis={"title": {"text": "Size in metres (to scale)"},
                                                 "gridcolor": "#e3ded2"},
                   yaxis={"autorange": "reversed", "automargin": True})


def weights(cards, units="metric", large=False):
    """Return the cards' weights on a log scale, heaviest first."""
    frame = cards[["common_name", "mass_kg", "url"]].sort_values("mass_kg", ascending=False)
    labels = [format_mass(v, units) for v in frame["mass_kg"]]
    figure = go.Figure(go.Bar(
        y=list(frame["common_name"]), x=list(frame["mass_kg"]), orientation="h", marker={"color": BAR},
        text=labels, textposition="outside", cliponaxis=False, customdata=[[u] for u in frame["url"]],
        hovertemplate="<b>%{y}</b>: %{text}<extra></extra>"))
    low, high = frame["mass_kg"].min(), frame["mass_kg"].max()
    height = 120 + 40 * len(frame) * (1.4 if large else 1)
    return _layout(figure, large, height,
                   xaxis={"type": "log", "title": {"text": "Weight in kilograms (log scale: each step is 10 times heavier)"},
                          "range": [math.floor(math.log10(low)), math.ceil(math.log10(high)) + 0.5],
                          "gridcolor": "#e3ded2", "dtick": 1},
                   yaxis={"autorange": "reversed", "automargin": True})


def value_text(characteristic, value, units, period_names):
    """Write a characteristic's value for people."""
    if characteristic == "length":
        return format_length(value, units)
    if characteristic == "mass":
        return format_mass(value, units)
    if characteristic == "lifespan":
        return format_lifespan(value)
    return period_names[int(value)]


def finished_line(line, misplaced, characteristic, names, units="metric", period_names=None, large=False):
    """Return a Cardline line as a chart: values in order, misplaced cards where they belonged.

    `line` and `misplaced` are lists of {"card", "value"}; `names` maps slugs to names.
    """
    values = [entry["value"] for entry in line]
    log = characteristic in ("length", "mass", "lifespan")
    figure = go.Figure(go.Scatter(
        x=list(range(1, len(line) + 1)), y=values, mode="lines+markers+text",
        marker={"size": 12, "color": BAR, "symbol": "circle"}, line={"color": BAR},
        text=[names[e["card"]] for e in line], textposition="top center",
        customdata=[[value_text(characteristic, v, units, period_names)] for v in values],
        hovertemplate="<b>%{text}</b>: %{customdata[0]}<extra>placed correctly</extra>"))
    if misplaced:
        # A misplaced card is drawn between the line cards it belonged between.
        positions = [sum(v < entry["value"] for v in values) + 0.5 for entry in misplaced]
        figure.add_trace(go.Scatter(
            x=positions, y=[e["value"] for e in misplaced], mode="markers+text",
            marker={"size": 14, "color": "#a4161a", "symbol": "x"},
            text=[f"✘ {names[e['card']]}" for e in misplaced], textposition="bottom center",
            customdata=[[value_text(characteristic, e["value"], units, period_names)] for e in misplaced],
            hovertemplate="<b>%{text}</b>: %{customdata[0]}<extra>misplaced: shown where it belonged</extra>"))
    yaxis = {"title": {"text": {"length": "Size", "mass": "Weight", "lifespan": "Lifespan",
                                "period": "Period"}[characteristic] + (" (log scale)" if log else "")},
             "gridcolor": "#e3ded2"}
    if log:
        yaxis["type"] = "log"
    else:
        yaxis.update(tickmode="array", tickvals=list(range(len(period_names))), ticktext=period_names)
    return _layout(figure, large, 420 if not large else 560,
                   xaxis={"title": {"text": "Position in the line"}, "dtick": 1, "gridcolor": "#e3ded2"},
                   yaxis=yaxis)
