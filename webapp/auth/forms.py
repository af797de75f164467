"""Teacher accounts' forms: register, log in, change the password."""

from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField, SubmitField
from wtforms.validators import EqualTo, InputRequired, Length, Regexp, ValidationError

from webapp.auth import accounts
from webapp.common import limits
from webapp.errors import AppError

EMAIL = Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message="Enter an email address like name@school.org.")
NEW_PASSWORD = [InputRequired(message="Choose a password."),
                Length(min=10, max=200, message="Use at least 10 characters (200 at most).")]


def normal_email(text):
    """Return an e-mail as accounts keep it: trimmed, in lower case."""
    return text.strip().lower() if isinstance(text, str) else text


def refuse_weak(field, *personal):
    """Refuse the password in `field` if it is easy to guess (once it has the length it needs)."""
    problem = None if field.errors else accounts.weakness(field.data, *personal)
    if problem:
        raise ValidationError(problem)


def refuse_wrong_password(teacher, field, wrong):
    """Refuse the password in `field` unless it is `teacher`'s, saying `wrong`: a guess like any other (counted and
    slowed), so someone holding a stolen cookie cannot try passwords here without end."""
    if field.errors:  # too long to be anyone's password: not a guess worth counting
        return
    keys = limits.password_keys(teacher.email, known_device=True)
    try:
        right = limits.guess(keys, lambda: accounts.password_is(teacher.password_hash, field.data),
                             "Too many wrong passwords for this account.")
    except AppError as error:
        raise ValidationError(error.message) from error
    if not right:
        raise ValidationError(wrong)


class RegisterForm(FlaskForm):
    """Create a teacher account."""

    name = StringField("Your name", validators=[InputRequired(message="Enter your name."), Length(max=80)])
    email = StringField("Email", filters=[normal_email],
                        validators=[InputRequired(message="Enter your email."), Length(max=254), EMAIL])
    password = PasswordField("Password", validators=NEW_PASSWORD)
    confirm = PasswordField("Password again", validators=[EqualTo("password", message="The passwords differ.")])
    submit = SubmitField("Create account")

    def validate_password(self, field):
        refuse_weak(field, self.email.data, self.name.data)


class LoginForm(FlaskForm):
    """Log a teacher in."""

    email = StringField("Email", filters=[normal_email],
                        validators=[InputRequired(message="Enter your email."), Length(max=254)])
    password = PasswordField("Password", validators=[InputRequired(message="Enter your password."), Length(max=200)])
    submit = SubmitField("Log in")


class ChangePasswordForm(FlaskForm):
    """Change a logged-in teacher's password."""

    current = PasswordField("Current password", validators=[
        InputRequired(message="Enter your current password."), Length(max=200)])
    password = PasswordField("New password", validators=NEW_PASSWORD)
    confirm = PasswordField("New password again", validators=[EqualTo("password", message="The passwords differ.")])
    submit = SubmitField("Change password")

    def __init__(self, teacher, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.teacher = teacher

    def validate_current(self, field):
        refuse_wrong_password(self.teacher, field, "That is not your current password.")

    def validate_password(self, field):
        refuse_weak(field, self.teacher.email, self.teacher.name)
