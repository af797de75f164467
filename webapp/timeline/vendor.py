"""plotly.js served by the app itself (nothing is fetched from the internet in a classroom)."""

import gzip
from functools import cache
from pathlib import Path

import plotly
from flask import Response, abort, request, url_for

from webapp.timeline import bp

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
YEAR = 365 * 24 * 3600


@cache
def compressed_plotly():
    """Return plotly.js gzipped once (the file never changes for an installed version)."""
    return gzip.compress(PLOTLY_JS.read_bytes(), compresslevel=9)


@bp.get("/vendor/plotly-<version>.min.js")
def plotly_js(version):
    """Serve the app's own copy of plotly.js, cached by browsers for a year (the URL is versioned)."""
    if version != plotly.__version__:
        abort(404, description="That version of plotly.js is not served here.")
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
    body = compressed_plotly() if gzipped else PLOTLY_JS.read_bytes()
    response = Response(body, mimetype="text/javascript")
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


def plotly_url():
    """Return the versioned address of plotly.js."""
    return url_for("timeline.plotly_js", version=plotly.__version__)
