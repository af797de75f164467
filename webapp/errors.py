"""One way to answer an error: JSON for the API, a friendly page for people."""

from flask import jsonify, render_template, request
from sqlalchemy.exc import DataError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException

FRIENDLY_TITLES = {
    400: "That request did not make sense",
    404: "Page not found",
    405: "That action is not allowed here",
    413: "That was too much to send",
    500: "Something went wrong on our side",
    503: "The app is busy or its database is unreachable",
}


class AppError(Exception):
    """A request that cannot be served, with the HTTP status and a sentence for the person."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


def wants_json():
    """Say whether the client asked for JSON (the API, or an Accept header preferring it)."""
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def error_response(status, message, **extra):
    """Return an error as JSON or as an HTML page, with `status`."""
    if wants_json():
        response = jsonify({"error": message, "status": status, **extra})
        response.status_code = status
        return response
    title = FRIENDLY_TITLES.get(status, "That did not work")
    return render_template("errors/error.html", status=status, title=title, message=message), status


# No inline scripts anywhere: every script is a file the app serves. plotly.js sets styles from
# script, so inline styles stay allowed.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
                               "object-src 'none'; base-uri 'self'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def init_app(app):
    """Route every error through error_response, and send the security headers with every answer."""

    @app.after_request
    def security_headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.before_request
    def refuse_nul_characters():
        # PostgreSQL cannot store or even compare text with NUL characters; nobody types them.
        texts = [request.path, *request.args.values()]
        if request.mimetype == "application/x-www-form-urlencoded":
            texts += request.form.values()
        if any("\x00" in text for text in texts) or (request.is_json and b"\\u0000" in request.get_data()):
            return error_response(400, "The request contains a NUL character, which is never valid here.")
        return None

    @app.errorhandler(DataError)
    def handle_unstorable_value(error):
        app.logger.warning("value refused by the database: %s", error)
        return error_response(400, "A value in the request cannot be stored (it is too large or malformed).")

    @app.errorhandler(AppError)
    def handle_app_error(error):
        return error_response(error.status, error.message)

    @app.errorhandler(HTTPException)
    def handle_http(error):
        return error_response(error.code or 500, error.description or str(error))

    # Connections are not tested before use (no pool_pre_ping: a round trip on every request, the
    # poll's included). When the server restarted, the first request on a dead connection lands
    # here; SQLAlchemy then discards the pool's old connections and the next request reconnects.
    @app.errorhandler(OperationalError)
    def handle_database_down(error):
        app.logger.warning("database unavailable: %s", error)
        return error_response(503, "The database cannot be reached right now. Please try again in a moment.")

    # Every connection of this process's pool stayed busy for the pool's timeout: the server is overloaded.
    @app.errorhandler(PoolTimeout)
    def handle_busy(error):
        app.logger.warning("database connections all busy: %s", error)
        return error_response(503, "The app is very busy right now. Please try again in a moment.")

    @app.errorhandler(Exception)
    def handle_unexpected(error):
        app.logger.exception("unexpected error")
        return error_response(500, "Something went wrong on our side. It has been logged.")
