"""The teacher's class pages: rosters, printed slips, progress over the term, erasure and export."""

import io

from flask import flash, g, redirect, render_template, request, send_file, url_for

from webapp.auth.access import teacher_required
from webapp.classroom import bp, progress
from webapp.classroom import classes as rosters
from webapp.classroom.class_forms import AddPupilsForm, NewClassForm
from webapp.classroom.exports import csv_bytes, file_stem_words
from webapp.errors import AppError

JSON_TYPE = {"Content-Type": "application/json"}


def classes_page(form, status=200):
    """Render the list of the teacher's classes with the new-class form."""
    return render_template("classroom/classes/index.html", classes=rosters.teacher_classes(g.teacher), form=form), status


@bp.get("/teach/classes/")
@teacher_required
def class_list():
    """List the teacher's classes."""
    return classes_page(NewClassForm())


@bp.post("/teach/classes/")
@teacher_required
def create_class():
    """Create a class from a typed or pasted roster."""
    form = NewClassForm()
    if not form.validate_on_submit():
        return classes_page(form, 400)
    school_class = rosters.create_class(g.teacher, form.name.data, rosters.roster_names(form.roster.data))
    flash(f"The class {school_class.name} is ready. Print the slips so each pupil has their personal code.")
    return redirect(url_for("classroom.class_page", class_id=school_class.id))


def roster_page(school_class, form=None, status=200):
    """Render a class's roster page."""
    pupils = rosters.pupils_of(school_class)
    form = form or AddPupilsForm(formdata=None)
    return render_template("classroom/classes/class.html", school_class=school_class, pupils=pupils, form=form,
                           rounds=rosters.class_rounds(school_class)), status


@bp.get("/teach/classes/<id:class_id>")
@teacher_required
def class_page(class_id):
    """Show a class: its pupils and their personal codes, its rounds, and what can be done with it."""
    return roster_page(rosters.teacher_class(class_id, g.teacher))


@bp.post("/teach/classes/<id:class_id>/pupils")
@teacher_required
def add_pupils(class_id):
    """Add pupils to a class."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    form = AddPupilsForm(taken_names=[p.display_name for p in rosters.pupils_of(school_class)])
    if not form.validate_on_submit():
        return roster_page(school_class, form, 400)
    try:
        rosters.add_pupils(school_class, rosters.roster_names(form.roster.data))
    except AppError as error:
        form.roster.errors.append(error.message)
        return roster_page(school_class, form, error.status)
    return redirect(url_for("classroom.class_page", class_id=school_class.id))


@bp.post("/teach/classes/<id:class_id>/pupils/<id:pupil_id>")
@teacher_required
def pupil_action(class_id, pupil_id):
    """Rename a pupil, give them a new personal code, or erase them and all their answers."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    pupil = rosters.class_pupil(school_class, pupil_id)
    action = request.form.get("action", "")
    if action == "rename":
        rosters.rename_pupil(school_class, pupil, request.form.get("name", ""))
    elif action == "new_code":
        rosters.new_code_for(pupil)
        flash(f"{pupil.display_name} has a new personal code: {pupil.code}. The old slip no longer works.")
    elif action == "erase":
        name = pupil.display_name
        rosters.erase_pupil(pupil)
        flash(f"{name} and all of their answers are deleted.")
    else:
        raise AppError(400, "Choose rename, new code or delete.")
    return redirect(url_for("classroom.class_page", class_id=school_class.id))


@bp.get("/teach/classes/<id:class_id>/slips")
@teacher_required
def class_slips(class_id):
    """Show the class's slips to print and cut out: each pupil's name, personal code and where to join."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    return render_template("classroom/classes/slips.html", school_class=school_class, pupils=rosters.pupils_of(school_class),
                           join_url=url_for("classroom.join", _external=True))


@bp.get("/teach/classes/<id:class_id>/export.zip")
@teacher_required
def class_export_zip(class_id):
    """Download everything about the class as a zip of CSVs: roster, rounds, every answer, homework."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    return send_file(io.BytesIO(rosters.class_export(school_class)), mimetype="application/zip", as_attachment=True,
                     download_name=f"class-{file_stem_words(school_class.name)}-{school_class.id}.zip")


@bp.post("/teach/classes/<id:class_id>/delete")
@teacher_required
def delete_class(class_id):
    """Delete a class with its pupils, its rounds and every answer in them, once the teacher confirmed it."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    if request.form.get("confirm") != "yes":
        flash("Nothing was deleted: tick the box to confirm that the class and all its answers go.")
        return redirect(url_for("classroom.class_page", class_id=school_class.id))
    name = school_class.name
    rosters.erase_class(school_class)
    flash(f"The class {name}, its pupils, its rounds and all their answers are deleted.")
    return redirect(url_for("classroom.class_list"))


def chart_kind(kind):
    """Return a progress chart's name, or a 404 for one that does not exist."""
    if kind not in progress.FIGURES:
        raise AppError(404, f"There is no chart called {kind!r}: choose {', '.join(progress.FIGURES)}.")
    return kind


@bp.get("/teach/classes/<id:class_id>/progress")
@teacher_required
def class_progress(class_id):
    """Show how the class does across its rounds: charts, the animals it gets wrong most, each pupil's share."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    frame = progress.class_answers(school_class)
    return render_template("classroom/classes/progress.html", school_class=school_class, frame=frame,
                           over_time=progress.over_time(frame).to_dict("records"),
                           by_period=progress.by_card_facts(frame, "period").to_dict("records"),
                           by_group=progress.by_card_facts(frame, "group").to_dict("records"),
                           missed=progress.most_missed(frame),
                           pupils=progress.pupil_summary(frame, rosters.pupils_of(school_class)))


@bp.get("/teach/classes/<id:class_id>/progress/<kind>.json")
@teacher_required
def class_progress_chart(class_id, kind):
    """Return one of the class's progress charts as plotly JSON."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    return progress.figure_json(progress.class_answers(school_class), chart_kind(kind)), 200, JSON_TYPE


@bp.get("/teach/classes/<id:class_id>/progress.csv")
@teacher_required
def class_progress_csv(class_id):
    """Download the term's results per pupil and round as CSV."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    table = progress.progress_csv(progress.class_answers(school_class))
    return send_file(io.BytesIO(csv_bytes(table)), mimetype="text/csv", as_attachment=True,
                     download_name=f"progress-{file_stem_words(school_class.name)}-{school_class.id}.csv")


@bp.get("/teach/classes/<id:class_id>/pupils/<id:pupil_id>")
@teacher_required
def pupil_progress(class_id, pupil_id):
    """Show (and print, for a parent meeting) one pupil's term: their rounds, share right and tricky animals."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    pupil = rosters.class_pupil(school_class, pupil_id)
    frame = progress.class_answers(school_class, pupil)
    return render_template("classroom/classes/pupil.html", school_class=school_class, pupil=pupil, frame=frame,
                           over_time=progress.over_time(frame).to_dict("records"),
                           by_kind=progress.accuracy(frame, ["sorted_by"]).to_dict("records"),
                           by_period=progress.by_card_facts(frame, "period").to_dict("records"),
                           by_group=progress.by_card_facts(frame, "group").to_dict("records"),
                           missed=progress.most_missed(frame, limit=5))


@bp.get("/teach/classes/<id:class_id>/pupils/<id:pupil_id>/<kind>.json")
@teacher_required
def pupil_progress_chart(class_id, pupil_id, kind):
    """Return one of a pupil's progress charts as plotly JSON."""
    school_class = rosters.teacher_class(class_id, g.teacher)
    pupil = rosters.class_pupil(school_class, pupil_id)
    return progress.figure_json(progress.class_answers(school_class, pupil), chart_kind(kind)), 200, JSON_TYPE
