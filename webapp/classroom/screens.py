"""What the teacher's screens show of a round: its live panel, its controls in words (the stage uses them too)."""

import io
from collections import Counter

import segno
from flask import url_for
from markupsafe import Markup
from sqlalchemy import select

from webapp.cards.queries import all_periods, cards_by_slug
from webapp.classroom import results, rounds
from webapp.extensions import db
from webapp.games import cardline, classline, livequiz
from webapp.games import rounds as machine
from webapp.games.rounds.formats import TIE_RULE
from webapp.models import Answer
from webapp.play.adapters.cardline import line_slugs

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
    context = {"round": rnd, "students": students, "formats": rounds.FORMATS,
               "seconds_left": rounds.seconds_left(rnd), "periods": {p.position: p for p in all_periods()},
               "controls": [(action, control_label(rnd, action)) for action in rounds.controls(rnd)],
               "tie_rule": TIE_RULE if rnd.settings.get("team_mode") == "majority" else None, "full_page": False}
    if rnd.format == "class_line":
        observation = classline.observation(rnd.state)
        answers = rounds.answers_for_turn(rnd) if observation["phase"] == "answering" else []
        votes = {}
        last = observation["last_reveal"]
        if last and not last.get("skipped"):
            turn_answers = db.session.scalars(select(Answer).where(
                Answer.round_id == rnd.id, Answer.turn == last["turn"])).all()
            votes = dict(Counter(a.gap for a in turn_answers))
        context.update(obs=observation, answered=len(answers), votes=votes,
                       cards=cards_by_slug([e["card"] for e in observation["line"]]
                                                    + [observation["current"], last and last["card"]]
                                                    + (last or {}).get("line_before", [])))
    elif rnd.format == "quiz":
        observation = livequiz.observation(rnd.state)
        answers = rounds.answers_for_turn(rnd) if observation["phase"] == "answering" else []
        votes = Counter(a.gap for a in rounds.answers_for_turn(rnd)) if observation["phase"] == "revealed" else {}
        context.update(obs=observation, answered=len(answers), votes=dict(votes))
    elif rnd.format == "team":
        observation = cardline.observation(rnd.state, None)
        context.update(obs=observation, answered=len(rounds.answers_for_turn(rnd)),
                       cards=cards_by_slug(line_slugs(observation)), outcome=team_outcome(observation))
    else:
        context.update(results=results.self_paced_frame(rnd).to_dict("records"))
    show_board = rnd.settings.get("leaderboard", "every")
    ranks_students = rnd.format != "self_paced" and not machine.FORMATS[rnd.format].teams
    if ranks_students and (show_board == "every" or (show_board == "end" and rnd.status == "finished")):
        context["leaderboard"] = results.leaderboard(rnd)
    return context


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


def qr_svg(url):
    """Return a QR code of `url` as inline SVG."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=8, border=2, xmldecl=False, svgns=True,
                                    title="QR code of the join link")
    return Markup(buffer.getvalue().decode())
