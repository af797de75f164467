"""The teacher's side of classroom rounds: dashboard, card sets, new round, lobby, live view, results."""

import io

from flask import flash, g, redirect, render_template, request, send_file, url_for

from webapp.auth.access import teacher_required
from webapp.cards import names
from webapp.classroom import bp, exports, push, results, reuse, rounds, screens
from webapp.classroom.classes import teacher_classes
from webapp.classroom.formats import FORMATS, format_of
from webapp.classroom.forms import NewRoundForm, TeacherCardSetForm
from webapp.classroom.roster import active_students, count_students
from webapp.common import codes
from webapp.common.admission import unmetered
from webapp.common.characteristics import CHARACTERISTICS
from webapp.common.forms import whole_number
from webapp.common.http import conditional_html, live_request
from webapp.errors import AppError
from webapp.timeline import card_sets


def teacher_sets():
    """Return the logged-in teacher's card sets."""
    return card_sets.teacher_sets(g.teacher)


@bp.get("/teach/")
@teacher_required
def dashboard():
    """Show the teacher's rounds (the history) and card sets."""
    archived = request.args.get("archived") == "1"
    return render_template("classroom/teacher/dashboard.html", rounds=results.teacher_rounds(g.teacher, archived),
                           archived=archived, sets=teacher_sets(), set_form=TeacherCardSetForm(), formats=FORMATS)


def filled_in(form, wanted):
    """Say whether a new set has a name and cards, not spaces and commas alone; say which is missing beside it."""
    if not form.name.data.strip():
        form.name.errors.append("Give the set a name.")
    if not wanted:
        form.cards.errors.append("List some cards.")
    return bool(form.name.data.strip() and wanted)


@bp.post("/teach/sets")
@teacher_required
def save_set():
    """Save a card set from a list of card names or slugs."""
    form = TeacherCardSetForm()
    wanted = [w.strip() for w in (form.cards.data or "").replace("\n", ",").split(",") if w.strip()]
    if not form.validate_on_submit() or not filled_in(form, wanted):
        return render_template("classroom/teacher/dashboard.html", rounds=results.teacher_rounds(g.teacher), sets=teacher_sets(),
                               set_form=form, formats=FORMATS), 400
    # The names people type, as the encyclopedia reads them: any case, nicknames (T rex, trike), small typos.
    index = names.name_index()
    found = {w: names.find_slug(w, index) for w in wanted}
    unknown = [w for w, slug in found.items() if slug is None]
    if unknown:
        hints = [f"{w} (did you mean {names.suggestion(w, index).title()}?)" if names.suggestion(w, index) else w
                 for w in unknown[:5]]
        form.cards.errors.append(f"Not a card: {', '.join(hints)}.")
        return render_template("classroom/teacher/dashboard.html", rounds=results.teacher_rounds(g.teacher), sets=teacher_sets(),
                               set_form=form, formats=FORMATS), 400
    card_set = card_sets.save(g.teacher, form.name.data.strip(), list(dict.fromkeys(found[w] for w in wanted)))
    flash(f"{card_set.name} is one of your card sets: only you see it until you share it from its timeline.")
    return redirect(url_for("classroom.dashboard"))


def round_form(**kwargs):
    """Return the round set-up form with the teacher's card sets and classes to choose from."""
    classes = [school_class for school_class, _ in teacher_classes(g.teacher)]
    return NewRoundForm(teacher_sets=teacher_sets(), teacher_classes=classes, **kwargs)


@bp.route("/teach/rounds/new", methods=["GET", "POST"])
@teacher_required
def new_round():
    """Create a round and open its lobby."""
    form = round_form()
    if request.method == "GET":
        if request.args.get("class_id") in form.teacher_class_ids:
            form.for_class.data = request.args["class_id"]
        zone = results.last_time_zone(g.teacher)
        if zone:
            form.timezone.data = zone
        else:  # the browser's own zone, once the page has loaded (timezone.js)
            form.timezone.render_kw = {"data-guess": "1"}
    if form.validate_on_submit():
        try:
            rnd = rounds.create_round(g.teacher, form.title.data.strip(), form.format.data, form.settings(),
                                      form.class_id())
        except AppError as error:
            form.choice.errors.append(error.message)
            return render_template("classroom/teacher/new_round.html", form=form), error.status
        return redirect(url_for("classroom.round_page", round_id=rnd.id))
    return render_template("classroom/teacher/new_round.html", form=form), 400 if form.errors else 200


@bp.route("/teach/rounds/<id:round_id>/edit", methods=["GET", "POST"])
@teacher_required
def edit_round(round_id):
    """Change a round's set-up before anyone has joined it."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    reason = reuse.why_not_edit(rnd) or ("" if format_of(rnd).choice else
                                         "A lesson's quiz is set up from its lesson: duplicate it instead.")
    if reason:
        raise AppError(409, reason)
    form = round_form(data=NewRoundForm.data_of(rnd)) if request.method == "GET" else round_form()
    if form.validate_on_submit():
        try:
            reuse.edit(rnd, g.teacher, form.title.data.strip(), form.format.data, form.settings(), form.class_id())
        except AppError as error:
            form.choice.errors.append(error.message)
            return render_template("classroom/teacher/new_round.html", form=form, editing=rnd), 400
        flash("The round's set-up is changed; its code stays the same.")
        return redirect(url_for("classroom.round_page", round_id=rnd.id))
    return render_template("classroom/teacher/new_round.html", form=form, editing=rnd), 400 if form.errors else 200


@bp.post("/teach/rounds/<id:round_id>/reuse")
@teacher_required
def reuse_round(round_id):
    """Duplicate, archive, bring back, share or delete a round (deleting asks for a ticked box)."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    action = request.form.get("action", "")
    if action == "duplicate":
        copy = reuse.duplicate(rnd, g.teacher)
        flash(f"A copy of {rnd.title}, with a new code: nobody has joined it yet.")
        return redirect(url_for("classroom.round_page", round_id=copy.id))
    if action in ("archive", "unarchive"):
        reuse.archive(rnd, action == "archive")
        flash(f"{rnd.title} is {'archived' if action == 'archive' else 'back in your rounds'}.")
    elif action == "share":
        link = url_for("classroom.shared", code=codes.share_code(rnd), _external=True)
        flash(f"Send this link to a colleague: {link} It copies the set-up of {rnd.title} into their rounds "
              "(never your students or their answers).")
    elif action == "delete":
        if request.form.get("confirm") != "yes":
            flash("Nothing was deleted: tick the box to confirm that the round and its answers go.")
        else:
            title = rnd.title
            reuse.delete_round(rnd)
            flash(f"{title}, its students and their answers are deleted.")
            return redirect(url_for("classroom.dashboard"))
    else:
        raise AppError(400, "Choose duplicate, archive, share or delete.")
    return redirect(url_for("classroom.round_page", round_id=rnd.id))


@bp.route("/teach/shared/<code>", methods=["GET", "POST"])
@teacher_required
def shared(code):
    """Show a round a colleague shared, and copy its set-up into the teacher's own rounds."""
    rnd = reuse.shared_round(code)
    if request.method == "POST":
        copy = reuse.copy_round(rnd, g.teacher)
        flash(f"{copy.title} is in your rounds now, with its own code.")
        return redirect(url_for("classroom.round_page", round_id=copy.id))
    set_up = reuse.set_up_of(rnd)
    return render_template("classroom/teacher/shared.html", round=rnd, fmt=format_of(rnd), set_up=set_up,
                           sorted_by=CHARACTERISTICS.get(set_up.get("characteristic"), {}).get("label"))


@bp.get("/teach/rounds/<id:round_id>")
@teacher_required
def round_page(round_id):
    """Show the round: the lobby, the live view for the projector, or the results."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    rounds.settle(rnd)
    context = screens.teacher_view(rnd)
    view_key = push.teacher_view_key(rnd, "classroom/teacher/_panel.html", context)  # before the page's own parts
    if rnd.status == "finished":
        context.update(format_of(rnd).results_context(rnd))
    context.update(full_page=True, view_key=view_key)
    return render_template("classroom/teacher/round.html", join_url=screens.join_url(rnd), qr=screens.qr_svg(screens.join_url(rnd)),
                           editable=not reuse.why_not_edit(rnd) and bool(format_of(rnd).choice), **context)


@bp.get("/teach/rounds/<id:round_id>/panel")
@teacher_required
def round_panel(round_id):
    """Return the live part of the round page (polled every second; 304 when nothing changed)."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    rounds.settle(rnd)
    html = render_template("classroom/teacher/_panel.html", **screens.teacher_view(rnd))
    return conditional_html(html, rounds.seconds_left(rnd))


@bp.get("/teach/rounds/<id:round_id>/events")
@unmetered
@teacher_required
def round_events(round_id):
    """Stream the live part of the round page (server-sent events): now, and after every change."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    return push.teacher_stream(rnd, "classroom/teacher/_panel.html", screens.teacher_view)


@bp.post("/teach/rounds/<id:round_id>/control")
@teacher_required
def round_control(round_id):
    """Start, pause, resume, reveal, go on, skip, end, switch the timer, or lock the room; a stale one says why.

    The live page sends it by fetch and stays: the reply is empty, with the round's status (a change of it draws the
    page again), and the page's stream shows what changed, as it does for every student. A page load after each
    control used to land in the wave of screens the control had just woken, and wait behind it."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    try:
        status = rounds.control(rnd, request.form.get("action", ""))
    except AppError as error:
        if live_request():
            raise  # the page says why beside its controls, and its stream or poll shows what it can do now
        # The round may have moved on by itself (an automatic reveal, say): never a dead end.
        flash(f"{error.message} The round page shows what you can do now.")
        return redirect(url_for("classroom.round_page", round_id=round_id))
    if live_request():
        return "", 204, {"X-Round-Status": status}
    # round_id, not rnd.id: the commit expired the round, and reading it again would wait behind the looks it woke.
    return redirect(url_for("classroom.round_page", round_id=round_id))


@bp.post("/teach/rounds/<id:round_id>/students/<id:student_id>")
@teacher_required
def student_control(round_id, student_id):
    """Rename or remove a student, or give them extra time."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    action = request.form.get("action", "")
    value = request.form.get("value", "")
    if action in ("extra_time", "team"):
        value = whole_number(value)
    given = rounds.student_action(rnd, student_id, action, value)
    if given:
        flash(f"One-time code: {given}. On the new device: the round's code, the same nickname and this code. "
              "It works once.")
    return back_to_students(rnd)


def back_to_students(rnd):
    """Go back to where the teacher manages the students: the lobby before the start (unless it lists names only),
    the students' page after."""
    in_lobby = rnd.status == "lobby" and count_students(rnd) <= screens.ROSTER_CONTROLS_UP_TO
    target = "classroom.round_page" if in_lobby else "classroom.students_page"
    return redirect(url_for(target, round_id=rnd.id))


@bp.post("/teach/rounds/<id:round_id>/teams")
@teacher_required
def teams_control(round_id):
    """Balance a team round's teams, or name them before the start."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    if request.form.get("action") == "balance":
        rounds.balance_teams(rnd)
        flash("The teams are balanced.")
    elif request.form.get("action") == "name":
        rounds.name_teams(rnd, g.teacher, [request.form.get(f"team-{i}", "") for i in range(rnd.settings.get("teams", 0))])
        flash("The teams have their names.")
    else:
        raise AppError(400, "Choose balance or name.")
    return back_to_students(rnd)


@bp.get("/teach/rounds/<id:round_id>/students")
@teacher_required
def students_page(round_id):
    """List the round's students with the controls to rename, remove or give extra time."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    return render_template("classroom/teacher/students.html", round=rnd, students=active_students(rnd))


@bp.get("/teach/rounds/<id:round_id>/results.csv")
@teacher_required
def results_csv(round_id):
    """Download one table of the round's results as CSV (`?table=`, the first by default): every answer, or each
    student's score."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    tables = format_of(rnd).export_tables(rnd)
    name = request.args.get("table", next(iter(tables)))
    if name not in tables:
        raise AppError(404, f"This round's results have no table called {name!r}: choose {' or '.join(tables)}.")
    suffix = "" if name == next(iter(tables)) else f"-{name}"
    return download(exports.csv_bytes(tables[name]), f"{exports.file_stem(rnd)}{suffix}.csv", "text/csv")


@bp.get("/teach/rounds/<id:round_id>/results.xlsx")
@teacher_required
def results_xlsx(round_id):
    """Download the round's results as a spreadsheet workbook, a sheet per table."""
    rnd = rounds.teacher_round(round_id, g.teacher)
    return download(exports.xlsx_bytes(format_of(rnd).export_tables(rnd)), f"{exports.file_stem(rnd)}.xlsx",
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


def download(data, filename, mimetype):
    """Return `data` as a file the browser saves as `filename` (kept whole in any alphabet, plain for old browsers)."""
    return send_file(io.BytesIO(data), mimetype=mimetype, as_attachment=True, download_name=filename)
