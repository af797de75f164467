"""The home page, the periods overview, the health check and a bare /ping."""

from flask import Blueprint

bp = Blueprint("main", __name__)


def register(app):
    """Register this feature's routes on the app (imported here, so importing a service never loads pages)."""
    from webapp.main import views  # noqa: F401  (their routes register on bp)

    app.register_blueprint(bp)
