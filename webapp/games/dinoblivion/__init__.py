"""Dinoblivion (Duel and Solo): the rules engine's protocol, for the app and the computer players.

The rules and the decisions where the rulebook is silent are in engine.py's docstring and rules.md
(RULES_PATH, the Markdown of the app's rules page).
"""

from pathlib import Path

from webapp.games.dinoblivion.bots import BOT_LEVELS, bot_choose
from webapp.games.dinoblivion.engine import (
    NAME,
    apply,
    check,
    current_player,
    determinise,
    example_configs,
    hidden,
    is_over,
    legal_actions,
    new_game,
    observation,
    result,
    score_breakdown,
)
from webapp.games.dinoblivion.labels import describe_action
from webapp.games.dinoblivion.search import THINK_SECONDS, search_move
from webapp.games.protocol import EngineType

TYPE = EngineType(computer_players=True, hidden_information=True)
RULES_PATH = Path(__file__).with_name("rules.md")

__all__ = ["BOT_LEVELS", "NAME", "RULES_PATH", "TYPE", "apply", "bot_choose", "check", "computer_move", "current_player",
           "describe_action", "determinise", "example_configs", "hidden", "is_over", "legal_actions", "new_game",
           "observation", "result", "score_breakdown"]


def computer_move(state, seat, level, seed, rng):
    """Return the move of a computer player of `level` ("easy", "medium", "hard"), from its observation only.

    easy plays at random, medium is the greedy player, hard searches for up to THINK_SECONDS a decision.
    """
    actions = legal_actions(state)
    if level == "hard" and len(actions) > 1:
        return search_move(observation(state, seat), actions, rng, think_seconds=THINK_SECONDS)
    return bot_choose(observation(state, seat), actions, rng, level)
