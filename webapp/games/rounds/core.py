"""The values a round's transitions take and give: plain, frozen, JSON-friendly."""

from dataclasses import dataclass, field


class Refused(Exception):
    """A control or an answer that does not apply now; the message says why, for a person to read."""


@dataclass(frozen=True)
class Round:
    """What a transition needs of a round: its format, status, settings, engine state and clock."""

    format: str
    status: str = "lobby"  # lobby, playing, paused, finished
    settings: dict = field(default_factory=dict)
    state: dict = field(default_factory=dict)
    turn_started: float | None = None
    paused_at: float | None = None


@dataclass(frozen=True)
class Student:
    """A student as the round sees them."""

    id: int
    team: int | None = None
    removed: bool = False
    extra_seconds: int = 0


@dataclass(frozen=True)
class Vote:
    """A student's answer to the current turn: a gap (or option, or bin) and, in team rounds, a card."""

    student_id: int
    gap: int
    card: str | None = None


@dataclass(frozen=True)
class Change:
    """A transition's outcome: the round afterwards, and this turn's answers judged {student id: right?}."""

    round: Round
    judged: dict = field(default_factory=dict)
