"""The values a round's transitions take and give: plain and frozen.

Named apart from the database's rows (webapp.models.Round and Student): these are what the state machine
sees of them.
"""

from dataclasses import dataclass, field
from typing import Any


class Refused(Exception):
    """A control or an answer that does not apply now; the message says why, for a person to read."""


@dataclass(frozen=True)
class RoundState:
    """What a transition needs of a round: its format's rules, status, settings, engine state and clock."""

    rules: Any  # the format's rules (webapp.games.rounds.formats)
    status: str = "lobby"  # lobby, playing, paused, finished
    settings: dict = field(default_factory=dict)
    state: dict = field(default_factory=dict)
    turn_started: float | None = None
    paused_at: float | None = None


@dataclass(frozen=True)
class StudentState:
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

    round: RoundState
    judged: dict = field(default_factory=dict)
