"""Rules engines: pure Python, no Flask, no database, no IO.

Every game module offers the same protocol:

- ``new_game(config, seed) -> state``: same config and seed, same game;
- ``current_player(state) -> int | None``: the seat to act, None when the game is over;
- ``legal_actions(state) -> list[dict]``: what the current player may do;
- ``apply(state, player, action) -> state``: a new state; raises IllegalAction (with a reason)
  and leaves `state` untouched when the action is not legal;
- ``observation(state, viewer) -> dict``: what seat `viewer` (None: a spectator) may see;
- ``is_over(state) -> bool`` and ``result(state) -> dict | None``;
- for the tests, ``example_configs() -> list[dict]`` and ``hidden(state, viewer) -> set``: what `viewer` must
  not learn from its observation (the contract is in protocol.Engine).

States and actions are plain JSON values (dicts, lists, strings, numbers). protocol.Engine spells the protocol
out; tests/test_conformance.py checks every game registered in GAMES against it by seeded random play.
"""

from webapp.games import cardline, dinoblivion, practice, quiz, stack
from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.protocol import Engine

GAMES = {"cardline": cardline, "dinoblivion": dinoblivion, "practice": practice, "quiz": quiz, "stack": stack}

__all__ = ["GAMES", "Engine", "IllegalAction", "InvalidConfig"]
