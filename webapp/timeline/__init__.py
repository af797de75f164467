"""Deep time made visible: timeline and chart pages, the figures as JSON, and plotly.js served locally."""

from flask import Blueprint

bp = Blueprint("timeline", __name__)


def register(app):
    """Register this feature's routes on the app (imported here, so importing a service never loads pages)."""
    from webapp.timeline import api, vendor, views  # noqa: F401  (their routes register on bp)

    app.register_blueprint(bp)
    app.add_template_global(vendor.plotly_url, "plotly_url")
