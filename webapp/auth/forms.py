"""Teacher accounts' forms: register and log in."""

from flask_wtf import FlaskForm
from sqlalchemy import select
from wtforms import PasswordField, StringField, SubmitField
from wtforms.validators import EqualTo, InputRequired, Length, Regexp, ValidationError

from webapp.extensions import db
from webapp.models import Teacher

EMAIL = Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message="Enter an email address like name@school.org.")


class RegisterForm(FlaskForm):
    """Create a teacher account."""

    name = StringField("Your name", validators=[InputRequired(message="Enter your name."), Length(max=80)])
    email = StringField("Email", validators=[InputRequired(message="Enter your email."), Length(max=254), EMAIL])
    password = PasswordField("Password", validators=[
        InputRequired(message="Choose a password."),
        Length(min=10, max=200, message="Use at least 10 characters.")])
    confirm = PasswordField("Password again", validators=[EqualTo("password", message="The passwords differ.")])
    submit = SubmitField("Create account")

    def validate_email(self, field):
        if db.session.scalar(select(Teacher.id).where(Teacher.email == field.data.strip().lower())):
            raise ValidationError("An account with this email exists already: log in instead.")


class LoginForm(FlaskForm):
    """Log a teacher in."""

    email = StringField("Email", validators=[InputRequired(message="Enter your email."), Length(max=254)])
    password = PasswordField("Password", validators=[InputRequired(message="Enter your password."), Length(max=200)])
    submit = SubmitField("Log in")
