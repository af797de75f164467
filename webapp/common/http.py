"""Small HTTP helpers shared by pages and APIs: conditional HTML fragments, JSON bodies (and JSON in a form field),
bearer tokens."""

import hashlib
import json

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


def live_request():
    """Say whether a live page sent this by fetch (an answer, a teacher's control) and stays where it is."""
    return request.headers.get("X-Live-Panel") == "1"


# No request of this app nests deeper than a handful of levels ({"action": {"cards": [...]}}); a deeper one is
# refused before any code (a repr in a message, the JSON encoder) could recurse through it.
MAX_JSON_DEPTH = 32
TOO_DEEP = f"The JSON is nested too deeply: at most {MAX_JSON_DEPTH} levels of lists and objects are read."
LONE_SURROGATE = ("The JSON holds a lone surrogate escape (such as \\ud800), which is half of a character and "
                  "cannot be stored: send whole characters.")


def json_body():
    """Return the request's JSON object, or raise a 400 saying what is wrong with it."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # the parser gives up on "[[[[..." long before the request's size limit
        raise AppError(400, TOO_DEEP) from None
    if not isinstance(data, dict):
        raise AppError(400, "Send a JSON object in the body, with Content-Type: application/json.")
    refuse_unreadable(data)
    return data


def json_value(text):
    """Return the value of JSON text sent in a form field, or None when it is not JSON this app reads (malformed,
    nested too deeply, or holding a lone surrogate)."""
    try:
        value = json.loads(text)
        refuse_unreadable(value)
    except (ValueError, RecursionError, AppError):
        return None
    return value


def refuse_unreadable(value):
    """Raise a 400 for parsed JSON nested deeper than MAX_JSON_DEPTH or holding a lone surrogate in any text
    (a key or a value): it cannot be stored as UTF-8, and a page showing it would fail."""
    pending = [(value, 1)]
    while pending:  # a loop, not recursion: the check itself must not run out of stack
        item, depth = pending.pop()
        if isinstance(item, str):
            if has_lone_surrogate(item):
                raise AppError(400, LONE_SURROGATE)
        elif isinstance(item, dict | list):
            if depth > MAX_JSON_DEPTH:
                raise AppError(400, TOO_DEEP)
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)


def has_lone_surrogate(text):
    """Say whether the text holds half of a UTF-16 pair (U+D800 to U+DFFF), which no UTF-8 text can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # UTF-8 refuses exactly these
        return True
    return False


def bearer_token():
    """Return the token from 'Authorization: Bearer <token>', or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None
