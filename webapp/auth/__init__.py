"""Teacher accounts: register, log in, log out, and the guard on every teacher-only view."""

from flask import Blueprint

bp = Blueprint("auth", __name__, url_prefix="/teach")


def register(app):
    """Register this feature's routes on the app (imported here, so importing a service never loads pages)."""
    from webapp.auth import views  # noqa: F401  (their routes register on bp)

    app.register_blueprint(bp)
