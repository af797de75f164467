"""The sources page: every work the cards cite, grouped by kind, with the cards and fields that use it."""

from flask import Blueprint

bp = Blueprint("sources", __name__)


def register(app):
    """Register this feature's routes on the app (imported here, so importing a service never loads pages)."""
    from webapp.sources import views  # noqa: F401  (their routes register on bp)

    app.register_blueprint(bp)
