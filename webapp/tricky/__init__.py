"""My tricky cards: the practice that schedules what a student confuses, and its progress page."""

from flask import Blueprint

bp = Blueprint("tricky", __name__)


def register(app):
    """Register this feature's routes on the app (imported here, so importing the scheduler never loads pages)."""
    from webapp.tricky import views  # noqa: F401  (its routes register on bp)

    app.register_blueprint(bp)
