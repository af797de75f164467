"""Learning: lesson plans for teachers, and trivia questions drawn fairly from the cards."""

from flask import Blueprint

bp = Blueprint("learn", __name__)


def register(app):
    """Register this feature's routes on the app (imported here, so importing a service never loads pages)."""
    from webapp.learn import views  # noqa: F401  (their routes register on bp)

    app.register_blueprint(bp)
