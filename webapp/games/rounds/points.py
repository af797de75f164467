"""How a live round's answers score, and a student's answer streak: pure rules, no Flask, no database.

A round's settings name its points rule ("points"): one point per right answer (the default), or speed points,
where a right answer scores more the faster it comes (Kahoot's rule: 500 to 1,000). The streak is a student's
current run of right answers over the turns the class was shown, a missed turn breaking it.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

SPEED_MOST = 1000  # a right answer given at once
SPEED_REFERENCE_SECONDS = 30  # what a right answer's speed is measured against in a round with no timer
STREAK_SHOWN_FROM = 2  # "1 in a row" says nothing: a streak is named from two


def speed_points(correct, seconds, turn_seconds):
    """Return what an answer scores by speed: round(1000 * (1 - seconds / turn / 2)) when right, so 500 to 1,000
    (a right answer later than the turn's time, on extra time, scores 500); 0 when wrong or not judged.

    >>> speed_points(True, 0, 20), speed_points(True, 10, 20), speed_points(True, 20, 20), speed_points(False, 1, 20)
    (1000, 750, 500, 0)
    """
    if correct is not True:
        return 0
    turn = turn_seconds if turn_seconds and turn_seconds > 0 else SPEED_REFERENCE_SECONDS
    share = min(max(seconds or 0.0, 0.0), turn) / turn
    return round(SPEED_MOST * (1 - share / 2))


def one_point(correct, seconds, turn_seconds):
    """Return what an answer scores by right answers alone: 1 when right, else 0."""
    return 1 if correct is True else 0


@dataclass(frozen=True)
class PointsRule:
    """A way of scoring a live round's answers, as the teacher picks it when setting the round up."""

    name: str  # its key in a round's settings
    label: str  # its words in the set-up form
    score: object  # (correct, seconds, turn_seconds) -> points
    by_speed: bool  # an answer's points depend on its time, not on it being right alone
    streaks: bool  # students' answer streaks show beside their points

    def points(self, correct, seconds, turn_seconds):
        """Return what one answer scores."""
        return self.score(correct, seconds, turn_seconds)


RIGHT_ANSWERS = PointsRule("right", "1 point per right answer", one_point, by_speed=False, streaks=False)
SPEED = PointsRule("speed", "Speed points and streaks", speed_points, by_speed=True, streaks=True)
RULES = {rule.name: rule for rule in (RIGHT_ANSWERS, SPEED)}
DEFAULT = RIGHT_ANSWERS.name


def rule_of(settings):
    """Return the points rule a round's settings name (rounds set up before the setting score one point)."""
    return RULES.get(settings.get("points") or DEFAULT, RIGHT_ANSWERS)


def streak(shown_turns: Iterable[int], right: Mapping[int, bool | None]):
    """Return the run of right answers that ends at the last turn shown: a wrong or missing answer ends it.

    `right` is {turn: right?} of one student's answers; turns never shown (skipped, or still open) do not count.

    >>> streak([0, 1, 2, 3], {0: False, 1: True, 2: True, 3: True}), streak([0, 1, 2], {0: True, 2: True})
    (3, 1)
    """
    run = 0
    for turn in sorted(shown_turns):
        run = run + 1 if right.get(turn) is True else 0
    return run


@dataclass(frozen=True)
class Tally:
    """A student's standing by a points rule: points, right answers, and their current streak."""

    points: int = 0
    right: int = 0
    streak: int = 0


def tally(answers: Iterable[tuple], shown_turns: Iterable[int], rule: PointsRule, turn_seconds):
    """Return a student's Tally from their answers [(turn, right?, seconds)] and the turns the class was shown."""
    right = [(turn, seconds) for turn, correct, seconds in answers if correct is True]  # only a right one scores
    return Tally(points=sum(rule.score(True, seconds, turn_seconds) for _, seconds in right), right=len(right),
                 streak=streak(shown_turns, dict.fromkeys((turn for turn, _ in right), True)))
