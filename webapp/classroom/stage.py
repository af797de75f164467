"""The stage: a round full-screen on the projector, with nothing to type into and no site links.

The teacher drives it from a second device (the round page shows the controls) or from the stage's
keyboard (static/stage.js: Space for the next step, P to pause). Its live part is a fragment polled
every second, the same HTML for the same state of the round, so an unchanged stage is a 304.
"""

import math

from flask import g, render_template, url_for

from webapp.auth.access import teacher_required
from webapp.cards.queries import cards_by_slug
from webapp.classroom import bp, results, rounds, screens
from webapp.common.http import conditional_html

# What Space does: the first of these the round allows now (start in the lobby, reveal, then go on).
MAIN_STEPS = ("start", "reveal", "next")
PAUSE_STEPS = ("pause", "resume")
TOP = 5  # the best students shown after a reveal
PODIUM = 3  # places on the podium
LOBBY_NAMES = 40  # names shown in the lobby; the rest are counted
# The line's area is about this many times as wide as it is high; a card is this many times as high as wide.
LINE_ASPECT, CARD_HEIGHT, GAP_WIDTH = 3.6, 1.32, 0.6


def line_layout(count, gaps=False):
    """Return how to lay out `count` cards (and the gaps between them) so that they are as big as the line's area allows.

    {rows, per_row: cards in a row, columns: a row's width in card widths (with gaps, n cards and n + 1 gaps)};
    the style sizes the cards from rows and columns to fit the area's real width and height.
    """
    best = (0.0, 1, max(count, 1))
    for rows in range(1, max(count, 1) + 1):
        cards = math.ceil(count / rows) if count else 1
        columns = cards + (cards + 1) * GAP_WIDTH if gaps else cards
        width = min(LINE_ASPECT / columns, 1 / (rows * CARD_HEIGHT))
        if width > best[0] + 1e-9:
            best = (width, rows, cards)
    _, rows, cards = best
    return {"rows": rows, "per_row": cards, "columns": round(cards + (cards + 1) * GAP_WIDTH if gaps else cards, 2)}


def podium(rows, score, places=PODIUM):
    """Return the podium's steps [(place, [rows])]: ranked rows grouped by equal `score`, the best `places` scores.

    Ties share a step, and the next score takes the next step (five tied first leave room for a second).
    """
    steps = []
    for row in rows:
        if steps and score(steps[-1][1][0]) == score(row):
            steps[-1][1].append(row)
        elif len(steps) < places:
            steps.append((len(steps) + 1, [row]))
        else:
            break
    return steps


def hardest(rnd, context):
    """Return what the class found hardest, or None: {card, value, right, answers, wrong_place} or a question's row.

    Only cards the class saw face up count (a team's vote for a card still in its hand does not).
    """
    report = results.card_report(rnd)
    if rnd.format == "quiz":
        asked = [row for row in report if row["right"] is not None and row["judged"]]
        return min(asked, key=lambda row: row["right"] / row["judged"], default=None)
    obs = context["obs"]
    face_up = {entry["card"]: entry["value"] for entry in obs.get("line", []) + obs.get("box", []) + obs.get("sorted", [])}
    row = next((row for row in report if row["answers"] and row["card"] in face_up), None)
    if row is None:
        return None
    return {"card": row["card"], "value": face_up[row["card"]], "right": row["right"], "answers": row["answers"],
            "wrong_place": row["common_wrong_place"]}


def reveal_key(rnd, obs):
    """Return what changes exactly when something is revealed (the stage chimes then), or ''."""
    if obs.get("phase") == "revealed":  # a whole-class item (card, bin, question) just turned over
        return f"turn-{obs['turn']}"
    if rnd.format == "team" and obs["recent"]:
        last = obs["recent"][-1]
        return f"move-{len(obs['line'])}-{len(obs['box'])}-{len(obs['recent'])}-{last['player']}-{last['card']}"
    return ""


def stage_view(rnd):
    """Return what the stage shows: the teacher's view of the round, laid out for a projector."""
    context = screens.teacher_view(rnd)
    allowed = dict(context["controls"])
    main_step = next((action for action in MAIN_STEPS if action in allowed), None)
    pause_step = next((action for action in PAUSE_STEPS if action in allowed), None)
    address = url_for("classroom.join", _external=True)
    context.update(main_step=main_step, main_label=allowed.get(main_step), pause_step=pause_step,
                   pause_label=allowed.get(pause_step), join_address=address.split("://", 1)[-1],
                   lobby_names=LOBBY_NAMES, top=[], podium=None, hardest=None, reveal_key="", line=None)
    if rnd.status == "lobby" or rnd.format == "self_paced":
        context["qr"] = screens.qr_svg(screens.join_url(rnd))
    obs = context.get("obs")
    if obs is not None:
        context["reveal_key"] = reveal_key(rnd, obs)
    board = context.get("leaderboard")
    if board:
        context["top"] = [row for row in board if row["points"] > 0][:TOP]
    if rnd.format == "class_line":
        last = obs["last_reveal"]
        if obs["phase"] == "revealed" and last and not last.get("skipped"):
            context["line"] = line_layout(len(last["line_before"]), gaps=True)
            context["values"] = {entry["card"]: entry["value"] for entry in obs["line"]}
            context["right_votes"] = sum(count for gap, count in context["votes"].items()
                                         if last["right_gaps"][0] <= gap <= last["right_gaps"][1])
            context["most_votes"] = max(context["votes"].values(), default=0)
        else:
            context["line"] = line_layout(len(obs["line"]))
    elif rnd.format == "team":
        context["line"] = line_layout(len(obs["line"]))
    else:
        context["most_votes"] = max(context.get("votes", {}).values(), default=0)
    if rnd.status == "finished" and rnd.format != "self_paced":
        if rnd.format == "team":
            standing = sorted(obs["players"], key=lambda p: (p["status"] != "won", p["hand_size"], p["seat"]))
            context["podium"] = podium(standing, lambda p: (p["status"] == "won", p["hand_size"]))
        elif board:
            context["podium"] = podium([row for row in board if row["points"] > 0], lambda row: row["points"])
        found = hardest(rnd, context)
        if found and rnd.format != "quiz":
            context["cards"] = {**context["cards"], **cards_by_slug([found["card"]])}
        context["hardest"] = found
    return context


@bp.get("/teach/rounds/<id:round_id>/stage")
@teacher_required
def stage(round_id):
    """Show the round full-screen for the projector: no site navigation, nothing to type into."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    rounds.settle(rnd)
    context = stage_view(rnd)
    return render_template("classroom/stage/stage.html", **context)


@bp.get("/teach/rounds/<id:round_id>/stage/panel")
@teacher_required
def stage_panel(round_id):
    """Return the stage's live part (polled every second; 304 when nothing changed, the clock in a header)."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    rounds.settle(rnd)
    html = render_template("classroom/stage/_panel.html", **stage_view(rnd))
    return conditional_html(html, rounds.seconds_left(rnd))
