"""What the teacher's screens show of a round: its live panel, its controls in words (the stage uses them too)."""

import functools
import io
from collections import Counter

import segno
from flask import url_for
from markupsafe import Markup

from webapp.cards.queries import all_periods, cards_by_slug
from webapp.classroom import results, rounds
from webapp.games import rounds as machine
from webapp.games.rounds.formats import TIE_RULE

CONTROL_LABELS = {"start": "Start the round", "pause": "Pause", "resume": "Resume", "reveal": "Reveal",
                  "next": "Next card", "skip": "Skip this turn", "timer_off": "Switch the timer off",
                  "timer_on": "Switch the timer on", "lock": "Lock the room (no new players)",
                  "unlock": "Open the room to new players", "end": "End the round"}
# What a control is called where the format gives it other words.
FORMAT_LABELS = {"quiz": {"next": "Next question"},
                 "team": {"reveal": "Play the team's vote now"},
                 "self_paced": {"start": "Open the homework", "end": "Close the homework"}}


def control_label(rnd, action):
    """Return a control's words on this round's page."""
    return FORMAT_LABELS.get(rnd.format, {}).get(action, CONTROL_LABELS[action])


def teacher_view(rnd):
    """Return what the teacher's live panel (and the stage) shows: state, controls, who joined, answers, scores."""
    students = rounds.active_students(rnd)
    turn_answers = rounds.answers_for_turn(rnd) if rnd.format != "self_paced" else []
    context = {"round": rnd, "students": students, "formats": rounds.FORMATS, "seconds_left": rounds.seconds_left(rnd),
               "turn_open": rounds.answering(rnd) or rnd.status == "paused",
               "periods": {p.position: p for p in all_periods()},
               "controls": [(action, control_label(rnd, action)) for action in rounds.controls(rnd, turn_answers)],
               "tie_rule": TIE_RULE if rnd.settings.get("team_mode") == "majority" else None, "full_page": False}
    fmt = machine.FORMATS[rnd.format]
    if rnd.format == "self_paced":
        context.update(results=results.self_paced_frame(rnd).to_dict("records"))
    else:
        observation = fmt.view(rnd.state)
        revealed = observation.get("phase") == "revealed"
        context.update(obs=observation, answered=0 if revealed else len(turn_answers),
                       votes=dict(Counter(a.gap for a in turn_answers)) if revealed else {},
                       cards=cards_by_slug(names_in(observation)),
                       outcome=team_outcome(observation) if fmt.teams else None)
    show_board = rnd.settings.get("leaderboard", "every")
    ranks_students = rnd.format != "self_paced" and not machine.FORMATS[rnd.format].teams
    if ranks_students and (show_board == "every" or (show_board == "end" and rnd.status == "finished")):
        context["leaderboard"] = results.leaderboard(rnd)
    return context


def names_in(value):
    """Return every string in a JSON value: the cards an observation names are among them."""
    if isinstance(value, dict):
        return [name for item in value.values() for name in names_in(item)]
    if isinstance(value, list):
        return [name for item in value for name in names_in(item)]
    return [value] if isinstance(value, str) else []


def team_outcome(observation, team=None):
    """Say who won a finished team game, to everyone or to a member of `team`; None while it is played."""
    result = observation["result"]
    if result is None:
        return None
    names = [observation["players"][seat]["name"] for seat in result["winners"]]
    if not names:
        return "The game is over: nobody wins this time."
    said = f"The game is over: {' and '.join(names)} {'wins' if len(names) == 1 else 'win'}!"
    return said + (" Well played, your team won!" if team in result["winners"] else "")


def join_url(rnd):
    """Return the link a student opens to join this round."""
    return url_for("classroom.join", code=rnd.code, _external=True)


@functools.lru_cache(maxsize=256)
def qr_svg(url):
    """Return a QR code of `url` as inline SVG."""
    buffer = io.BytesIO()
    # A viewBox and no fixed size: the page's style sizes it, so it scales instead of being cut.
    segno.make(url, error="m").save(buffer, kind="svg", scale=8, border=2, xmldecl=False, svgns=True, omitsize=True,
                                    title="QR code of the join link")
    return Markup(buffer.getvalue().decode())
