"""Small HTTP helpers shared by pages and APIs: conditional HTML fragments, JSON bodies, bearer tokens."""

import hashlib

from flask import Response, request

from webapp.errors import AppError


def conditional_html(html, seconds_left=None):
    """Answer with an HTML fragment and an ETag (304 when unchanged); the seconds left travel in a header."""
    response = Response(html, mimetype="text/html")
    response.set_etag(hashlib.sha256(html.encode()).hexdigest()[:32])
    response.headers["Cache-Control"] = "no-cache"
    response = response.make_conditional(request)
    if seconds_left is not None:
        response.headers["X-Seconds-Left"] = f"{seconds_left:.1f}"
    return response


def json_body():
    """Return the request's JSON object, or raise a 400 saying what is wrong with it."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise AppError(400, "Send a JSON object in the body, with Content-Type: application/json.")
    return data


def bearer_token():
    """Return the token from 'Authorization: Bearer <token>', or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None
