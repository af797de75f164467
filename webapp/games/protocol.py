"""The protocol every game engine in GAMES offers: what the app, the computer players and the tests rely on.

An engine is a module of pure functions over plain JSON states and actions (no Flask, no database, no IO).
Most engines also offer ``check(state, player, action)``, which raises IllegalAction exactly when `apply`
would; it is optional, so it is not part of the Protocol.
"""

import json
import re
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

State = dict[str, Any]
Action = dict[str, Any]


@dataclass(frozen=True)
class EngineType:
    """What an engine can do, declared once as OpenSpiel's GameType does; the store and the tests ask this.

    The conformance tests hold every declaration to the engine's behaviour.
    """

    computer_players: bool = False  # offers computer_move(state, seat, level, seed, rng)
    hidden_information: bool = False  # some viewer is kept from something (hidden() is not always empty)
    timers: bool = False  # its turns may run against the teacher's clock (classroom rounds)


@runtime_checkable
class Engine(Protocol):
    """A rules engine: a game's set-up, turns, legal actions, moves, views and result.

    Two functions exist for the conformance test (tests/test_conformance.py), so that it needs no
    knowledge of any game:

    ``example_configs()`` returns a few small valid configs covering the game's modes. A config's
    "players" lists the seats; a config without "players" is for one player, seat 0.

    ``hidden(state, viewer)`` returns a set of the secrets seat `viewer` (None: a spectator) must not
    learn from ``observation(state, viewer)`` now. A secret is either:

    - a name (a str), such as the id of a card in another player's hand: it must not occur in the
      observation, neither as a whole string (a value or a key) nor as a token inside a longer string
      (as in "/cards/<id>"), where a token is bounded by anything but letters, digits, "_" and "-".
      Give only names that nothing public shares: card instance ids, never a kind that repeats;
    - a pair ``(holder, secret)``, a fact about a thing that may itself be public, such as (a card's
      id, its face-down value) or (a question's id, its answer): no JSON object in the observation may
      hold `holder` (as a key or a value) together with `secret` (as a value). A tuple stands for a
      JSON list, and types count: 1, 1.0 and True differ.

    Every secret must also be found in the full state by the same rules, so that a leak would be caught.
    """

    NAME: str
    TYPE: EngineType

    def new_game(self, config: dict, seed: Any) -> State:
        """Return a new game from `config`; the same config and seed give the same game."""

    def current_player(self, state: State) -> int | None:
        """Return the seat to act, or None when the game is over."""

    def legal_actions(self, state: State) -> list[Action]:
        """Return what the current player may do now (nothing once the game is over)."""

    def apply(self, state: State, player: int | None, action: Any) -> State:
        """Return the next state; raise IllegalAction with a reason, leaving `state` untouched, if not legal."""

    def observation(self, state: State, viewer: int | None) -> dict:
        """Return what seat `viewer` (None: a spectator) may see, as a JSON value."""

    def is_over(self, state: State) -> bool:
        """Say whether the game has ended."""

    def result(self, state: State) -> dict | None:
        """Return the outcome once the game is over, else None."""

    def example_configs(self) -> list[dict]:
        """Return a few small valid configs covering the game's modes, for tests; pure data."""

    def hidden(self, state: State, viewer: int | None) -> set:
        """Return the secrets `viewer` must not learn from its observation now (see the class docstring)."""


@runtime_checkable
class ClassEngine(Protocol):
    """A classroom round's engine: the whole class answers one item at a time (a card's place, a bin, a question).

    The teacher moves it on (``legal_actions`` and ``apply``: reveal, next, skip); the students' answers are
    checked against it (``answers`` and ``check_answer``) and stored by the web layer, which judges them
    from the observation after the reveal (its ``last_reveal`` holds the right answers as ``right_gaps``).
    Every viewer sees the same observation. ``example_configs`` and ``hidden`` are as in Engine, so
    tests/test_conformance.py runs the same checks over every registered round format's engine.
    """

    NAME: str
    TYPE: EngineType

    def new_game(self, config: dict, seed: Any) -> State:
        """Return a new round's game from `config`; the same config and seed give the same game."""

    def legal_actions(self, state: State) -> list[Action]:
        """Return the teacher's moves that apply now ({"type": "reveal" | "next" | "skip"}); none once over."""

    def apply(self, state: State, action: Any) -> State:
        """Return the next state; raise IllegalAction with a reason, leaving `state` untouched, if not legal."""

    def answers(self, state: State) -> list[int]:
        """Return the answers a student may give now (gaps, bins or options); none while answers are closed."""

    def check_answer(self, state: State, answer: Any) -> None:
        """Raise IllegalAction with a reason unless `answer` may be given now."""

    def observation(self, state: State, viewer: Any = None) -> dict:
        """Return what the class may see, as a JSON value."""

    def is_over(self, state: State) -> bool:
        """Say whether every item has been revealed or skipped (or the teacher ended it)."""

    def result(self, state: State) -> dict | None:
        """Return the outcome once over ({"revealed", "skipped"}), else None."""

    def end(self, state: State) -> State:
        """Return the state ended now, whatever its phase."""

    def example_configs(self) -> list[dict]:
        """Return a few small valid configs, for tests; pure data."""

    def hidden(self, state: State, viewer: Any) -> set:
        """Return the secrets the class must not learn from its observation now (see Engine)."""


# The leak checker: the contract of Engine.hidden, for tests of the engines and of every page and JSON answer.

def frozen(value):
    """Return a hashable form of a JSON value that keeps its type (1, 1.0 and True differ); a tuple is a list."""
    if isinstance(value, list | tuple):
        return "list", tuple(frozen(item) for item in value)
    if isinstance(value, dict):
        return "dict", tuple((key, frozen(item)) for key, item in sorted(value.items()))
    return type(value).__name__, value


def objects(value):
    """Yield every JSON object in `value`, `value` itself included."""
    if isinstance(value, dict):
        yield value
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            yield from objects(item)


def named(document, names):
    """Return the names that occur in `document`, as whole strings or as tokens inside longer ones."""
    if not names:
        return set()
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return set(re.findall(rf"(?<![\w-])(?:{alternatives})(?![\w-])", json.dumps(document, ensure_ascii=False)))


def attached(document, pairs):
    """Return the (holder, secret) pairs held together by some JSON object of `document`."""
    wanted = {(frozen(holder), frozen(secret)): (holder, secret) for holder, secret in pairs}
    found = set()
    for obj in objects(document):
        values = {frozen(value) for value in obj.values()}
        held = values | {frozen(key) for key in obj}
        found |= {pair for (holder, secret), pair in wanted.items() if holder in held and secret in values}
    return found


def leaks(document, secrets):
    """Return the secrets (see Engine.hidden) that `document` gives away."""
    names = {secret for secret in secrets if isinstance(secret, str)}
    return named(document, names) | attached(document, secrets - names)
