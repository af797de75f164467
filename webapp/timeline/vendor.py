"""plotly.js served by the app itself (nothing is fetched from the internet in a classroom).

The charts draw only bar and scatter traces, so the app serves plotly's published "basic" bundle (scatter, bar,
pie: 394,851 bytes gzipped) instead of the full one (1,468,879), vendored from the npm package plotly.js-basic-dist-min at the
version the installed plotly package writes its figures for (a test keeps the two in step).
"""

import gzip
import re
from functools import cache
from pathlib import Path

from flask import Response, abort, request, url_for

from webapp.timeline import bp

PLOTLY_JS = Path(__file__).parent / "vendor" / "plotly-basic.min.js"
# The trace types the bundle holds: a figure of any other type would draw nothing.
TRACE_TYPES = ("scatter", "bar", "pie")
YEAR = 365 * 24 * 3600


@cache
def bundle_version():
    """Return the plotly.js version of the vendored bundle, from its header ("plotly.js (basic - minified) v4.1.1")."""
    with PLOTLY_JS.open(encoding="utf-8") as bundle:
        return re.search(r"plotly\.js .*?v(\d+\.\d+\.\d+)", bundle.read(300)).group(1)


@cache
def compressed_plotly():
    """Return plotly.js gzipped once (the file never changes for an installed version)."""
    return gzip.compress(PLOTLY_JS.read_bytes(), compresslevel=9)


@bp.get("/vendor/plotly-basic-<version>.min.js")
def plotly_js(version):
    """Serve the app's own copy of plotly.js, cached by browsers for a year (the URL is versioned)."""
    if version != bundle_version():
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
    return url_for("timeline.plotly_js", version=bundle_version())
