"""The dino card encyclopedia: card pages, the cards API, card queries, silhouettes."""

from flask import Blueprint

bp = Blueprint("cards", __name__)


def register(app):
    """Register this feature's routes on the app (imported here, so importing a service never loads pages)."""
    from webapp.cards import api, views  # noqa: F401  (their routes register on bp)

    app.register_blueprint(bp)
