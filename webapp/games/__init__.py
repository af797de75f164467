"""Rules engines: pure Python, no Flask, no database, no IO.

Every game module offers the same protocol:

- ``new_game(config, seed) -> state``: same config and seed, same game;
- ``current_player(state) -> int | None``: the seat to act, None when the game is over;
- ``legal_actions(state) -> list[dict]``: what the current player may do;
- ``apply(state, player, action) -> state``: a new state; raises IllegalAction (with a reason)
  and leaves `state` untouched when the action is not legal;
- ``observation(state, viewer) -> dict``: what seat `viewer` (None: a spectator) may see;
- ``is_over(state) -> bool`` and ``result(state) -> dict | None``.

States and actions are plain JSON values (dicts, lists, strings, numbers).
"""

from webapp.games import cardline, dinoblivion, practice, quiz, stack
from webapp.games.base import IllegalAction, InvalidConfig

GAMES = {"cardline": cardline, "dinoblivion": dinoblivion, "practice": practice, "quiz": quiz, "stack": stack}

__all__ = ["GAMES", "IllegalAction", "InvalidConfig"]
