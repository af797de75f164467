"""The life of a classroom round, as one pure state machine: no Flask, no database, the clock passed in.

A round is lobby → playing ⇄ paused → finished (homework: not yet open → open → closed). Every teacher
control and every student answer is a transition with a guard that either applies or refuses with a
reason (`Refused`). What differs between formats (class line, live quiz, team Cardline, homework) is
supplied by each format's rules (`webapp.games.rounds.formats`), which a `RoundState` carries; a turn's
time is decided in `webapp.games.rounds.clock`.

The web layer loads a `RoundState`, the class (`StudentState`s) and this turn's `Vote`s, calls a transition
with `now` (seconds), stores what it returns, and renders; `controls()` says which buttons to show.
"""

from collections.abc import Sequence
from dataclasses import replace

from webapp.games.base import IllegalAction
from webapp.games.rounds import clock
from webapp.games.rounds.clock import seconds_left, time_up
from webapp.games.rounds.core import Change, Refused, RoundState, StudentState, Vote

__all__ = [
    "CONTROLS",
    "Change",
    "Refused",
    "RoundState",
    "StudentState",
    "Vote",
    "answer",
    "balanced",
    "clock",
    "control",
    "controls",
    "nothing_due",
    "on_schedule",
    "seconds_left",
    "settle",
    "time_up",
    "why_not_join",
    "why_not_regroup",
]

CONTROLS = ("start", "pause", "resume", "reveal", "next", "skip", "timer_off", "timer_on", "lock", "unlock", "end")


def active(students):
    """Return the students still in the round."""
    return [s for s in students if not s.removed]


def next_turn(rnd, now):
    """Return the round with a fresh turn clock."""
    return replace(rnd, turn_started=now, paused_at=now if rnd.status == "paused" else None,
                   settings={**rnd.settings, "elapsed_when_off": 0.0})


def _guard(rnd, action, students, votes, now):
    """Return why `action` cannot be taken now, or None."""
    fmt = rnd.rules
    if action not in CONTROLS:
        return "Unknown control."
    if rnd.status == "finished":
        return "This round has finished."
    if action == "start":
        if rnd.status != "lobby":
            return "The round has already started."
        return None if active(students) or not fmt.needs_students else "Wait until at least one student has joined."
    if action in ("lock", "unlock"):
        return None if rnd.settings.get("locked", False) == (action == "unlock") else \
            f"The room is already {'locked' if action == 'lock' else 'open'}."
    if action == "end":
        return None
    if rnd.status == "lobby":
        return "Start the round first."
    if action == "pause":
        return None if rnd.status == "playing" and fmt.pausable else "Only a running live round can be paused."
    if action == "resume":
        return None if rnd.status == "paused" else "The round is not paused."
    if action in ("timer_off", "timer_on"):
        if not fmt.timed or not rnd.settings.get("turn_seconds"):
            return "This round has no timer."
        return None if rnd.settings.get("timer_on", True) == (action == "timer_off") else \
            f"The timer is already {'off' if action == 'timer_off' else 'on'}."
    return fmt.why_not(rnd, action, students, votes)


def controls(rnd, students, votes, now):
    """Return the controls the teacher may use now: exactly the transitions that would apply."""
    return [action for action in CONTROLS if _guard(rnd, action, students, votes, now) is None]


def control(rnd, action, students, votes, now):
    """Carry out a teacher's control; raise Refused with the reason when it does not apply now."""
    reason = _guard(rnd, action, students, votes, now)
    if reason:
        raise Refused(reason)
    if action == "start":
        return Change(replace(rnd, status="playing", turn_started=now, paused_at=None))
    if action == "pause":
        return Change(replace(rnd, status="paused", paused_at=now))
    if action == "resume":
        shifted = rnd.turn_started + (now - rnd.paused_at) if rnd.turn_started is not None else None
        return Change(replace(rnd, status="playing", paused_at=None, turn_started=shifted))
    if action == "timer_off":
        # Keep the time already used, so switching the timer on again does not restart the turn at full time.
        return Change(replace(rnd, settings={**rnd.settings, "timer_on": False,
                                             "elapsed_when_off": clock.elapsed(rnd, now)}))
    if action == "timer_on":
        used = rnd.settings.get("elapsed_when_off", 0.0)
        start = (rnd.paused_at if rnd.paused_at is not None else now) - used
        return Change(replace(rnd, settings={**rnd.settings, "timer_on": True}, turn_started=start))
    if action in ("lock", "unlock"):
        return Change(replace(rnd, settings={**rnd.settings, "locked": action == "lock"}))
    if action == "end":
        change = rnd.rules.ended(rnd, votes)
        return replace(change, round=replace(change.round, status="finished"))
    return _moved_on(rnd, rnd.rules.turn_control(rnd, action, students, votes), now)


def _moved_on(before, change, now):
    """Return a change with the next turn's clock if it ended a turn, and the round finished if the game is."""
    rnd = change.round
    if rnd.rules.over(rnd.state):
        return replace(change, round=replace(rnd, status="finished"))
    return replace(change, round=next_turn(rnd, now)) if rnd.rules.turn_changed(before.state, rnd.state) else change


def why_not_join(rnd):
    """Return why nobody new may join the round now, or None."""
    if rnd.status == "finished":
        return "That round has finished."
    if rnd.settings.get("locked"):
        return "The teacher has closed this round to new players: ask them to open it."
    return None


def why_not_regroup(rnd, votes):
    """Return why the teams cannot change now (a student moved, the teams balanced or named), or None.

    Teams change before the start or between turns: never while a vote of the turn is in.
    """
    if not rnd.rules.teams:
        return "This round has no teams."
    if rnd.status == "finished":
        return "This round has finished."
    if votes:
        return "A vote is in for this turn: change the teams once it is played."
    return None


def balanced(students, teams):
    """Return {student id: team} that spreads the students still in over the teams, by joining order."""
    return {student.id: index % teams for index, student in enumerate(active(students))}


def answer(rnd, student, students, votes: Sequence[Vote], gap, card, now):
    """Check a student's answer to the current turn; return the Vote to record, or raise Refused."""
    if student is None or student.removed:
        raise Refused("You are not a player in this round (the teacher may have removed you).")
    rnd = rnd.rules.scheduled(rnd, now)
    fmt = rnd.rules
    reason = fmt.closed_reason(rnd)
    if reason:
        raise Refused(reason)
    if not fmt.open(rnd):
        raise Refused("Answers are closed right now.")
    left = seconds_left(rnd, now, student.extra_seconds)
    if left is not None and left <= 0:
        raise Refused("Time is up for this card: your answer came too late.")
    if any(vote.student_id == student.id for vote in votes):
        raise Refused("You have already answered this card.")
    fmt.check_answer(rnd, student, students, gap, card)
    return Vote(student.id, gap, card)


def on_schedule(rnd, now):
    """Return the change the round's timetable calls for now (a homework opening or closing on time), or None."""
    scheduled = rnd.rules.scheduled(rnd, now)
    return Change(scheduled) if scheduled != rnd else None


def settle(rnd, students, votes, now):
    """Return the change that is due now (the timetable, everyone answered, time ran out, a team's move), or None."""
    timetabled = on_schedule(rnd, now)
    if timetabled:
        return timetabled
    if rnd.status != "playing" or not rnd.rules.open(rnd):
        return None
    try:
        change = rnd.rules.due(rnd, active(students), votes, time_up(rnd, students, now))
    except IllegalAction:
        return None
    return _moved_on(rnd, change, now) if change else None


def nothing_due(rnd, now, everyone_answered, most_extra):
    """Say from the turn's progress alone that a whole-class turn cannot be due: not everyone answered, and time
    still runs for the most extra time anyone has.

    This is what the database tells in one cheap query; when this cannot tell (False), settle decides from the
    whole class.
    """
    if not rnd.rules.whole_class:
        return False
    return not clock.out_of_time(rnd, now, most_extra) and not everyone_answered
