"""What the teacher's screens show of a round: its live panel, its controls in words (the stage uses them too)."""

import functools
import io

import segno
from flask import url_for
from markupsafe import Markup

from webapp.classroom import rounds
from webapp.classroom.classes import pupils_of
from webapp.classroom.formats import format_of
from webapp.classroom.roster import as_student, every_student
from webapp.classroom.versioned import kept_periods
from webapp.extensions import db
from webapp.models import SchoolClass

# Above this many students the live panel lists names only (each row's controls are on the students page): a
# lobby of 1,000 redrawn every second as they join would otherwise send about 1.5 MB each time.
ROSTER_CONTROLS_UP_TO = 60
# Up to this many still to answer, the panel names them ("we are waiting for Cy"); more, it counts them: 1,000
# names a second are nothing a teacher can read, and drawing them was half of the teacher's redraw at 1,000.
NAMES_STILL_TO_ANSWER_UP_TO = 60


def teacher_view(rnd, everyone=None, turn_answers=None):
    """Return what the teacher's live panel (and the stage) shows: state, controls, who joined, answers, scores
    (`everyone`: the round's students, removed ones too, in joining order, and `turn_answers`: this turn's answers,
    first given first, where the caller has them: a pushed screen's round snapshot)."""
    fmt = format_of(rnd)
    everyone = every_student(rnd) if everyone is None else everyone
    students = [student for student in everyone if not student.removed]
    the_class = [as_student(student) for student in everyone]  # as the state machine sees them, once per redraw
    turn_answers = rounds.turn_votes(rnd) if turn_answers is None else turn_answers
    allowed = rounds.controls(rnd, turn_answers, the_class)
    context = {"round": rnd, "fmt": fmt, "students": students,
               "seconds_left": rounds.seconds_left(rnd), "turn_open": rounds.answering(rnd) or rnd.status == "paused",
               "periods": kept_periods(),
               "controls": [(action, fmt.control_label(action)) for action in allowed],
               "full_page": False, "answered": 0, "roster_controls_up_to": ROSTER_CONTROLS_UP_TO,
               "names_still_to_answer_up_to": NAMES_STILL_TO_ANSWER_UP_TO}
    context.update(fmt.teacher_context(rnd, students, turn_answers))
    context["not_answered"] = not_answered(rnd, students, turn_answers,
                                           [student for student in the_class if not student.removed])
    context["on_extra_time"] = on_extra_time(context["not_answered"], context["seconds_left"])
    context["not_joined"] = not_joined(rnd, students)
    return context


def not_answered(rnd, students, turn_answers, as_seen):
    """Return the students who are expected to answer the open turn and have not yet (none between turns; `as_seen`:
    the same students as the state machine sees them)."""
    if not rounds.answering(rnd):
        return []
    done = {answer.student_id for answer in turn_answers}
    expected = {s.id for s in format_of(rnd).rules.answering(rounds.machine_round(rnd), as_seen)}
    return [s for s in students if s.id in expected and s.id not in done]


def not_joined(rnd, students):
    """Return the names of the class's pupils who are not in a round for their class (none in an open round)."""
    if rnd.class_id is None:
        return []
    here = {s.pupil_id for s in students}
    return [p.display_name for p in pupils_of(db.session.get(SchoolClass, rnd.class_id)) if p.id not in here]


def on_extra_time(not_answered, seconds_left):
    """Return the students still answering on their extra time once the turn's own time is over (else none)."""
    return [s for s in not_answered if s.extra_seconds] if seconds_left == 0 else []


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
