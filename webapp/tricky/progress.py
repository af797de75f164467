"""My tricky cards' progress: what a history says is mastered, by characteristic and by period, as tables and charts.

No Flask and no database: the view passes the cards' facts (name, period) in.
"""

from collections import Counter

import plotly.graph_objects as go
import plotly.io as pio

from webapp.tricky import schedule

STATUSES = ("mastered", "learning", "tricky")
STATUS_WORDS = {"mastered": "mastered", "learning": "learning", "tricky": "tricky (confused)"}
# Colours that stay apart for the common colour blindnesses; every bar also says its status in words.
STATUS_COLOURS = {"mastered": "#1b7837", "learning": "#9ecae1", "tricky": "#b35806"}


def card_statuses(history, now):
    """Return [(characteristic, card, status)] for every card a history placed or confused, by characteristic."""
    rows = []
    for characteristic in sorted({placement.by for placement in history}):
        memory = schedule.remember(history, characteristic)
        for card in sorted(set(memory.cards) | set(memory.confused)):
            rows.append((characteristic, card, memory.status(card, now)))
    return rows


def counts_by(rows, key):
    """Return {group: Counter of statuses}, grouping each row by `key(row)` (rows whose key is None are left out)."""
    groups = {}
    for row in rows:
        group = key(row)
        if group is not None:
            groups.setdefault(group, Counter())[row[2]] += 1
    return groups


def trickiest_pairs(history, limit=8):
    """Return [(characteristic, card, card, times)] of the pairs most often confused, most first."""
    times = Counter()
    for placement in history:
        for other in placement.passed:
            times[(placement.by, *sorted((placement.card, other)))] += 1
    return [(*pair, count) for pair, count in times.most_common(limit)]


def status_figure(groups, title, order):
    """Return a stacked bar chart of the statuses per group (groups in `order`), each bar saying its status."""
    names = [group for group in order if group in groups]
    figure = go.Figure([
        go.Bar(y=names, x=[groups[name][status] for name in names], name=STATUS_WORDS[status], orientation="h",
               marker={"color": STATUS_COLOURS[status], "line": {"color": "#222", "width": 1}},
               text=[f"{groups[name][status]} {status}" if groups[name][status] else "" for name in names],
               textposition="inside", insidetextanchor="middle",
               hovertemplate=f"%{{y}}: %{{x}} {STATUS_WORDS[status]}<extra></extra>")
        for status in STATUSES])
    figure.update_layout(barmode="stack", title=title, height=140 + 40 * max(1, len(names)),
                         margin={"l": 10, "r": 10, "t": 50, "b": 40}, legend={"orientation": "h", "y": -0.15},
                         font={"size": 14}, paper_bgcolor="white", plot_bgcolor="white")
    figure.update_yaxes(autorange="reversed", automargin=True)
    figure.update_xaxes(title="cards", dtick=1 if max((sum(c.values()) for c in groups.values()), default=0) < 10
                        else None)
    return figure


def figure_json(figure):
    """Return a figure as plotly JSON for the page to draw."""
    return pio.to_json(figure, validate=False, pretty=False, remove_uids=True)
