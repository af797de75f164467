"""The stage: a round full-screen on the projector, with nothing to type into and no site links.

The teacher drives it from a second device (the round page shows the controls) or from the stage's
keyboard (static/stage.js: Space for the next step, P to pause). Its live part is a fragment polled
every second, the same HTML for the same state of the round, so an unchanged stage is a 304.
"""

from flask import g, render_template, request, url_for

from webapp.auth.access import teacher_required
from webapp.classroom import bp, push, rounds, screens
from webapp.common.admission import unmetered
from webapp.common.http import conditional_html

# What Space does: the first of these the round allows now (start in the lobby, reveal, then go on).
MAIN_STEPS = ("start", "reveal", "next")
PAUSE_STEPS = ("pause", "resume")
TOP = 5  # the best students shown after a reveal
LOBBY_NAMES = 40  # names shown in the lobby; the rest are counted


def stage_view(rnd, everyone=None, turn_answers=None):
    """Return what the stage shows: the teacher's view of the round (see screens.teacher_view), laid out for a
    projector by its format.

    `?from=N` is where the window on a long line starts (↑ and ↓ on the stage move it; the format clamps it).
    """
    context = screens.teacher_view(rnd, everyone, turn_answers)
    context["line_from"] = max(0, request.args.get("from", 0, type=int))
    fmt = context["fmt"]
    obs = context.get("obs")
    allowed = dict(context["controls"])
    main_step = next((action for action in MAIN_STEPS if action in allowed), None)
    pause_step = next((action for action in PAUSE_STEPS if action in allowed), None)
    address = url_for("classroom.join", _external=True)
    context.update(main_step=main_step, main_label=allowed.get(main_step), pause_step=pause_step,
                   pause_label=allowed.get(pause_step), join_address=address.split("://", 1)[-1],
                   lobby_names=LOBBY_NAMES, top=[], reveal_key=fmt.reveal_key(obs) if obs is not None else "",
                   progress=fmt.progress(rnd, obs), lobby_note=fmt.lobby_note(rnd),
                   answering=rnd.status in ("playing", "paused") and rounds.turn_open(rnd))
    if rnd.status == "lobby" or not fmt.live:
        context["qr"] = screens.qr_svg(screens.join_url(rnd))
    board = context.get("leaderboard")
    if board:
        context["top"] = [row for row in board if row["points"] > 0][:TOP]
    context.update(fmt.stage_context(rnd, context))
    if rnd.status == "finished" and fmt.live:
        context["end"] = fmt.ending(rnd, context)
    return context


@bp.get("/teach/rounds/<id:round_id>/stage")
@teacher_required
def stage(round_id):
    """Show the round full-screen for the projector: no site navigation, nothing to type into."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    rounds.settle(rnd)
    context = stage_view(rnd)
    view_key = push.teacher_view_key(rnd, "classroom/stage/_panel.html", context)
    return render_template("classroom/stage/stage.html", view_key=view_key, **context)


@bp.get("/teach/rounds/<id:round_id>/stage/panel")
@teacher_required
def stage_panel(round_id):
    """Return the stage's live part (polled every second; 304 when nothing changed, the clock in a header)."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    rounds.settle(rnd)
    html = render_template("classroom/stage/_panel.html", **stage_view(rnd))
    return conditional_html(html, rounds.seconds_left(rnd))


@bp.get("/teach/rounds/<id:round_id>/stage/events")
@unmetered
@teacher_required
def stage_events(round_id):
    """Stream the stage's live part (server-sent events; `?from=N`: where the window on a long line starts)."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    return push.teacher_stream(rnd, "classroom/stage/_panel.html", stage_view)
