"""Deleting a teacher's account with everything in it, once they confirm with their password."""

from flask import flash, g, redirect, render_template, url_for
from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, SubmitField
from wtforms.validators import DataRequired, InputRequired, Length

from webapp.auth.access import teacher_required
from webapp.auth.forms import refuse_wrong_password
from webapp.classroom import bp, erasure


class DeleteAccountForm(FlaskForm):
    """Confirm that an account and everything in it goes: a ticked box and the password typed again."""

    confirm = BooleanField("I understand that my account, my classes and their pupils, my rounds with every student "
                           "and answer in them, my questions and my card sets are deleted for good.",
                           validators=[DataRequired(message="Tick the box to confirm that everything goes.")])
    password = PasswordField("Your password", validators=[InputRequired(message="Type your password."),
                                                          Length(max=200)])
    submit = SubmitField("Delete my account and everything in it")

    def __init__(self, teacher, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.teacher = teacher

    def validate_password(self, field):
        refuse_wrong_password(self.teacher, field, "That is not your password.")


@bp.route("/teach/account/delete", methods=["GET", "POST"])
@teacher_required
def delete_account():
    """Ask for confirmation, then delete the teacher's account and everything in it, which logs them out."""
    form = DeleteAccountForm(g.teacher)
    if form.validate_on_submit():
        erasure.delete_teacher(g.teacher)
        flash("Your account and everything in it are deleted. You are logged out.")
        return redirect(url_for("main.home"))
    return render_template("classroom/teacher/delete_account.html", form=form,
                           contents=erasure.account_contents(g.teacher)), 400 if form.errors else 200
