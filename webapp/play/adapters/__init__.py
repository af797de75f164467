"""The registry of games the web layer serves: one adapter per game, looked up by the stored game's kind."""

from webapp.errors import AppError
from webapp.play import store
from webapp.play.adapters import cardline, dinoblivion, practice, quiz, stack

ADAPTERS = {adapter.kind: adapter for adapter in (cardline.ADAPTER, stack.ADAPTER, dinoblivion.ADAPTER,
                                                   practice.ADAPTER, quiz.ADAPTER)}


def adapter_for(game):
    """Return the adapter of a stored game."""
    return ADAPTERS[game.kind]


def game_of_kind(kind, game_id):
    """Return (adapter, game) for a game of `kind`; a game of another kind is a 404, as a missing one is."""
    adapter = ADAPTERS.get(kind)
    game = store.get_game(game_id) if adapter else None
    if game is None or game.kind != kind:
        raise AppError(404, f"There is no {adapter.title if adapter else 'game'} with that id.")
    return adapter, game


def face_up_slugs(game):
    """Return the cards of the card database that `game` shows face up to anyone watching."""
    adapter = adapter_for(game)
    return adapter.face_up(store.observe(game, None))
