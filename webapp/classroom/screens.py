"""What the teacher's screens show of a round: its live panel, its controls in words (the stage uses them too)."""

import functools
import io

import segno
from flask import url_for
from markupsafe import Markup

from webapp.cards.queries import all_periods
from webapp.classroom import rounds
from webapp.classroom.formats import format_of
from webapp.classroom.roster import active_students, as_student


def teacher_view(rnd):
    """Return what the teacher's live panel (and the stage) shows: state, controls, who joined, answers, scores."""
    fmt = format_of(rnd)
    students = active_students(rnd)
    turn_answers = rounds.answers_for_turn(rnd)
    context = {"round": rnd, "fmt": fmt, "students": students,
               "seconds_left": rounds.seconds_left(rnd), "turn_open": rounds.answering(rnd) or rnd.status == "paused",
               "periods": {p.position: p for p in all_periods()},
               "controls": [(action, fmt.control_label(action)) for action in rounds.controls(rnd, turn_answers)],
               "full_page": False, "answered": 0}
    context.update(fmt.teacher_context(rnd, students, turn_answers))
    context["on_extra_time"] = on_extra_time(rnd, students, turn_answers, context["seconds_left"])
    return context


def on_extra_time(rnd, students, turn_answers, seconds_left):
    """Return the students still answering on their extra time once the turn's own time is over (else none)."""
    if seconds_left != 0 or not rounds.answering(rnd):
        return []
    done = {answer.student_id for answer in turn_answers}
    expected = {s.id for s in format_of(rnd).rules.answering(rounds.machine_round(rnd), [as_student(s) for s in students])}
    return [s for s in students if s.extra_seconds and s.id in expected and s.id not in done]


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
