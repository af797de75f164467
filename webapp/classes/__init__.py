"""Classes: a teacher's rosters of pupils, each with a personal code, so a child is the same student in every round."""

from flask import Blueprint

bp = Blueprint("classes", __name__)


def register(app):
    """Register this feature's routes on the app."""
    from webapp.classes import views  # noqa: F401  (its routes register on bp)

    app.register_blueprint(bp)
