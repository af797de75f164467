"""The guard on every teacher-only view."""

import functools

from flask import g, redirect, request, url_for

from webapp.errors import AppError


def teacher_required(view):
    """Refuse a view to anyone who is not a logged-in teacher."""

    @functools.wraps(view)
    def wrapped(**kwargs):
        if g.teacher is None:
            if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
                raise AppError(401, "Log in as a teacher first.")
            return redirect(url_for("auth.login", next=request.path))
        return view(**kwargs)

    return wrapped
