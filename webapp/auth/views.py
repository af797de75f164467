"""Teacher accounts' pages: register, log in, log out."""

from flask import flash, g, redirect, render_template, request, session, url_for
from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from webapp.auth import bp
from webapp.auth.forms import LoginForm, RegisterForm
from webapp.common import limits
from webapp.extensions import db
from webapp.models import Teacher


@bp.before_app_request
def load_teacher():
    """Put the logged-in teacher (or None) in g.teacher."""
    teacher_id = session.get("teacher_id")
    g.teacher = db.session.get(Teacher, teacher_id) if isinstance(teacher_id, int) else None


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
        keys = limits.password_keys(form.email.data)
        limits.try_guess(keys, "Too many wrong passwords for this account.")
        teacher = db.session.scalar(select(Teacher).where(Teacher.email == form.email.data.strip().lower()))
        if teacher is None or not check_password_hash(teacher.password_hash, form.password.data):
            form.password.errors.append("That email and password do not match an account.")
            return render_template("auth/login.html", form=form), 400
        limits.guess_was_right(keys)
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
