"""Playing games: the game store, one adapter per game, one generic set of game pages, and the games API."""

from flask import Blueprint

bp = Blueprint("play", __name__)


def register(app):
    """Register this feature's routes on the app (imported here, so importing a service never loads pages)."""
    from webapp.play import api, store, views  # noqa: F401  (their routes register on bp)

    app.register_blueprint(bp)
    app.add_template_global(store.board_key, "board_key")  # what a board showed, sent back with a move
