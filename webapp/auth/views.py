"""Teacher accounts' pages: register, log in, log out, and the account page (password, sessions)."""

from urllib.parse import urlsplit

from flask import current_app, flash, g, redirect, render_template, request, url_for

from webapp.auth import accounts, bp, sessions
from webapp.auth.access import teacher_required
from webapp.auth.forms import ChangePasswordForm, LoginForm, RegisterForm
from webapp.common import limits


@bp.before_app_request
def load_teacher():
    """Put the logged-in teacher (or None) in g.teacher, found only through a live session."""
    g.teacher = sessions.current_teacher()


def safe_next(target):
    """Return `target` if it is a path on this site, else the teacher's dashboard."""
    # Browsers drop tabs and newlines from a URL and read a backslash as a slash: "/\t/evil" goes to //evil.
    if (target and target.startswith("/") and not target.startswith("//")
            and not any(ch.isspace() or not ch.isprintable() or ch == "\\" for ch in target)):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("classroom.dashboard")


@bp.route("/register", methods=["GET", "POST"])
def register():
    """Create a teacher account; the answer is the same whether the e-mail is new or has an account already."""
    form = RegisterForm()
    if form.validate_on_submit():
        limits.use("signup")
        accounts.create(form.name.data.strip(), form.email.data, form.password.data)
        flash("If this e-mail was new, your account is ready: log in.")
        return redirect(url_for("auth.login"))
    return render_template("auth/register.html", form=form), 400 if form.errors else 200


@bp.route("/login", methods=["GET", "POST"])
def login():
    """Log a teacher in."""
    form = LoginForm()
    if form.validate_on_submit():
        email = form.email.data
        keys = limits.password_keys(email, known_device=sessions.knows_account(email))
        teacher = limits.guess(keys, lambda: accounts.with_password(email, form.password.data),
                               "Too many wrong passwords for this account.")
        if teacher is None:
            form.password.errors.append("That email and password do not match an account.")
            return render_template("auth/login.html", form=form), 400
        sessions.start(teacher)
        return redirect(safe_next(request.args.get("next")))
    return render_template("auth/login.html", form=form), 400 if form.errors else 200


@bp.post("/logout")
def logout():
    """Log out: this browser's session ends, so a copy of its cookie opens nothing either."""
    sessions.end_this()
    flash("You are logged out.")
    return redirect(url_for("main.home"))


@bp.route("/account", methods=["GET", "POST"])
@teacher_required
def account():
    """Show the teacher's account: change the password (which logs every other browser out), log out everywhere."""
    form = ChangePasswordForm(g.teacher)
    if form.validate_on_submit():
        accounts.change_password(g.teacher, form.password.data)
        sessions.end_all(g.teacher, but_this=True)
        flash("Your password is changed, and every other browser is logged out.")
        return redirect(url_for("auth.account"))
    return render_template("auth/account.html", form=form, browsers=sessions.count_live(g.teacher),
                           can_delete="classroom.delete_account" in current_app.view_functions,
                           ), 400 if form.errors else 200


@bp.post("/account/logout-everywhere")
@teacher_required
def logout_everywhere():
    """End every session of this teacher, on every browser and this one."""
    sessions.end_all(g.teacher)
    flash("You are logged out on every browser, this one too.")
    return redirect(url_for("auth.login"))
