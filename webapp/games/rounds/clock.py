"""A turn's time, in one place: the timer, extra time (its step and cap), and when the time is up.

Every path that asks whether a turn's time ran out comes here: the state machine's settle, the database's
cheap check of the class's counts, and the students' version poll (tests/test_round_machine.py checks they agree).
"""

EXTRA_TIME_STEP = 15  # what one press of "+15 s" gives a student
EXTRA_TIME_CAP = 600  # the most extra time a student may have, in seconds


def timer_seconds(rnd):
    """Return the seconds per turn, or None when there is no timer (none set, switched off, or not a timed format)."""
    seconds = rnd.settings.get("turn_seconds") or 0
    return seconds if seconds > 0 and rnd.settings.get("timer_on", True) and rnd.rules.timed else None


def elapsed(rnd, now):
    """Return the seconds this turn has run (a pause stops the clock)."""
    if rnd.turn_started is None:
        return 0.0
    return max(0.0, (rnd.paused_at if rnd.paused_at is not None else now) - rnd.turn_started)


def seconds_left(rnd, now, extra=0):
    """Return the seconds a student with `extra` seconds has left to answer (None: no timer running)."""
    seconds = timer_seconds(rnd)
    if seconds is None or rnd.status not in ("playing", "paused"):
        return None
    return max(0.0, seconds + extra - elapsed(rnd, now))


def out_of_time(rnd, now, most_extra):
    """Say whether the turn's time has run out for a student with `most_extra` seconds (the most anyone has)."""
    seconds = timer_seconds(rnd)
    return seconds is not None and elapsed(rnd, now) >= seconds + (most_extra or 0)


def time_up(rnd, students, now):
    """Say whether this turn's time has run out for everyone who answers it, the largest extra time included."""
    answering = rnd.rules.answering(rnd, [s for s in students if not s.removed])
    return out_of_time(rnd, now, max((s.extra_seconds for s in answering), default=0))


def may_be_due(rnd, now):
    """Say whether a running turn's time may have run out: the turn's own time is over (extra time aside).

    The cheap trigger a poll uses before asking the machine, which knows the class: never false when time_up is true.
    """
    return rnd.status == "playing" and out_of_time(rnd, now, 0)


def more_time(extra):
    """Return a student's extra time after one more step, never past the cap."""
    return min(extra + EXTRA_TIME_STEP, EXTRA_TIME_CAP)


def extra_time_problem(value):
    """Return why `value` cannot be a student's extra time, or None."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= EXTRA_TIME_CAP:
        return f"Extra time is 0 to {EXTRA_TIME_CAP} seconds."
    return None
