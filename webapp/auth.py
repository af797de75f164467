"""Teacher accounts: register, log in, log out; and the guard on every teacher-only view."""

import functools

from flask import Blueprint, flash, g, redirect, render_template, request, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash

from webapp import limits
from webapp.errors import AppError
from webapp.extensions import db
from webapp.forms import LoginForm, RegisterForm
from webapp.models import Teacher

bp = Blueprint("auth", __name__, url_prefix="/teach")


@bp.before_app_request
def load_teacher():
    """Put the logged-in teacher (or None) in g.teacher."""
    teacher_id = session.get("teacher_id")
    g.teacher = db.session.get(Teacher, teacher_id) if isinstance(teacher_id, int) else None


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


def safe_next(target):
    """Return `target` if it is a path on this site, else the teacher's dashboard."""
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("classroom.dashboard")


@bp.route("/register", methods=["GET", "POST"])
def register():
    """Create a teacher account and log in."""
    form = RegisterForm()
    if form.validate_on_submit():
        teacher = Teacher(name=form.name.data.strip(), email=form.email.data.strip().lower(),
                          password_hash=generate_password_hash(form.password.data))
        db.session.add(teacher)
        db.session.commit()
        session.clear()
        session["teacher_id"] = teacher.id
        return redirect(url_for("classroom.dashboard"))
    return render_template("auth/register.html", form=form), 400 if form.errors else 200


@bp.route("/login", methods=["GET", "POST"])
def login():
    """Log a teacher in."""
    form = LoginForm()
    if form.validate_on_submit():
        limits.check("login")
        teacher = db.session.query(Teacher).filter_by(email=form.email.data.strip().lower()).one_or_none()
        if teacher is None or not check_password_hash(teacher.password_hash, form.password.data):
            limits.failed("login")
            form.password.errors.append("That email and password do not match an account.")
            return render_template("auth/login.html", form=form), 400
        seats = session.get("seats")
        session.clear()
        if seats:
            session["seats"] = seats
        session["teacher_id"] = teacher.id
        return redirect(safe_next(request.args.get("next")))
    return render_template("auth/login.html", form=form), 400 if form.errors else 200


@bp.post("/logout")
def logout():
    """Log out."""
    session.pop("teacher_id", None)
    flash("You are logged out.")
    return redirect(url_for("main.home"))
