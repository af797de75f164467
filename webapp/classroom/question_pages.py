"""The teacher's own questions: write, change, delete and share them, and run them as a quiz."""

import secrets

from flask import flash, g, redirect, render_template, request, url_for

from webapp.auth.access import teacher_required
from webapp.classroom import bp, questions, rounds
from webapp.classroom.classes import teacher_classes
from webapp.classroom.forms import QUESTION_FORMS, QuestionQuizForm
from webapp.common import codes
from webapp.common.forms import whole_number
from webapp.common.seats import remember_seats
from webapp.errors import AppError
from webapp.games import trivia
from webapp.play import quizzes
from webapp.play.adapters.quiz import start_quiz

QUIZ_HOMEWORK = "quiz_homework"  # the format a teacher's questions are set as homework in


def form_for(kind, **kwargs):
    """Return the form that writes a question of `kind`, or a 404 for a kind that does not exist."""
    if kind not in QUESTION_FORMS:
        raise AppError(404, f"There is no kind of question called {kind!r}: choose {' or '.join(QUESTION_FORMS)}.")
    # Both kinds' forms sit on one page: each field's name and id carry the kind ("choice-prompt").
    return QUESTION_FORMS[kind](prefix=kind, **kwargs)


def questions_page(forms=None, quiz_form=None, status=200):
    """Render the teacher's questions with the forms to write more and to run them."""
    forms = forms or {kind: form_for(kind, formdata=None) for kind in QUESTION_FORMS}
    return render_template("classroom/questions/index.html", questions=questions.teacher_questions(g.teacher),
                           forms=forms, kinds=questions.KINDS, quiz_form=quiz_form or quiz_form_for(formdata=None)), status


def quiz_form_for(**kwargs):
    """Return the form that runs the teacher's questions, with their classes to choose from."""
    form = QuestionQuizForm(teacher_classes=[c for c, _ in teacher_classes(g.teacher)], **kwargs)
    if request.method == "GET":
        form.timezone.render_kw = {"data-guess": "1"}  # the browser's own zone, once the page has loaded
    return form


@bp.get("/teach/questions/")
@teacher_required
def question_list():
    """List the teacher's questions."""
    return questions_page()


@bp.post("/teach/questions/new/<kind>")
@teacher_required
def new_question(kind):
    """Write a new question (multiple choice or put in order)."""
    form = form_for(kind)
    if not form.validate_on_submit():
        others = {other: form_for(other, formdata=None) for other in QUESTION_FORMS if other != kind}
        return questions_page({**others, kind: form}, status=400)
    questions.save(None, g.teacher, kind, form.prompt.data, form.filled(), form.answer(), form.explanation.data)
    flash("The question is saved.")
    return redirect(url_for("classroom.question_list"))


@bp.route("/teach/questions/<id:question_id>/edit", methods=["GET", "POST"])
@teacher_required
def edit_question(question_id):
    """Change one of the teacher's questions (quizzes already made keep the old words)."""
    question = questions.teacher_question(question_id, g.teacher)
    form = form_for(question.kind)
    if request.method == "GET":
        form = form_for(question.kind, data=form.data_of(question))
    if form.validate_on_submit():
        questions.save(question, g.teacher, question.kind, form.prompt.data, form.filled(), form.answer(),
                       form.explanation.data)
        flash("The question is changed.")
        return redirect(url_for("classroom.question_list"))
    return render_template("classroom/questions/edit.html", form=form, question=question,
                           kinds=questions.KINDS), 400 if form.errors else 200


@bp.post("/teach/questions/<id:question_id>")
@teacher_required
def question_action(question_id):
    """Delete or share one of the teacher's questions."""
    question = questions.teacher_question(question_id, g.teacher)
    action = request.form.get("action", "")
    if action == "delete":
        questions.delete(question)
        flash("The question is deleted.")
    elif action == "share":
        link = url_for("classroom.shared_question", code=codes.share_code(question), _external=True)
        flash(f"Send this link to a colleague: {link} It copies the question into their questions.")
    else:
        raise AppError(400, "Choose delete or share.")
    return redirect(url_for("classroom.question_list"))


@bp.route("/teach/questions/shared/<code>", methods=["GET", "POST"])
@teacher_required
def shared_question(code):
    """Show a question a colleague shared, and copy it into the teacher's own questions."""
    question = questions.shared_question(code)
    if request.method == "POST":
        questions.copy_for(question, g.teacher)
        flash("The question is in your questions now.")
        return redirect(url_for("classroom.question_list"))
    return render_template("classroom/questions/shared.html", question=question, kinds=questions.KINDS)


def chosen_questions():
    """Return the teacher's questions ticked on the page, in the quiz's format (404 for one not theirs)."""
    numbers = [whole_number(value) for value in request.form.getlist("question")]  # "²" is a digit to isdigit()
    ticked = [questions.teacher_question(number, g.teacher) for number in numbers if number is not None]
    if not ticked:
        raise AppError(400, "Tick at least one of your questions.")
    return [questions.as_quiz_question(question) for question in ticked]


@bp.post("/teach/questions/live")
@teacher_required
def live_quiz_of_questions():
    """Run the ticked multiple-choice questions, with questions from the cards mixed in, as a live quiz."""
    form = quiz_form_for()
    valid = form.validate_on_submit()
    if valid and (form.opens_at.data or form.closes_at.data):
        form.opens_at.errors.append("Opening and closing times are for quiz homework: a live quiz runs now.")
        valid = False
    if not valid:
        return questions_page(quiz_form=form, status=400)
    mine = [q for q in chosen_questions() if not q["order"]]
    if not mine:
        raise AppError(400, "A live quiz asks multiple-choice questions: tick at least one of those "
                            "(put-in-order questions are played in a solo quiz).")
    extra = form.generated.data or 0
    # A live quiz asks only multiple-choice questions: none of the put-in-order kind is drawn for it.
    quiz = mixed_in(mine, extra, [kind for kind in trivia.KINDS if kind != trivia.ORDER_KIND])
    seconds = 30 if form.turn_seconds.data is None else form.turn_seconds.data
    rnd = rounds.create_quiz_round(g.teacher, form.title.data.strip(), quiz, seconds, form.leaderboard.data,
                                   form.class_id(), dino_names=form.only_dino_names(), points=form.points.data)
    return redirect(url_for("classroom.round_page", round_id=rnd.id))


def mixed_in(mine, extra, kinds):
    """Return the teacher's questions with `extra` questions of `kinds` from the cards, shuffled and numbered."""
    drawn = quizzes.draw({"kinds": kinds, "count": extra, "difficulty": "medium", "deck": "dinosaurs"}) if extra else []
    mixed = [*mine, *drawn]
    secrets.SystemRandom().shuffle(mixed)
    return [{**question, "id": f"q{number}"} for number, question in enumerate(mixed, start=1)]


@bp.post("/teach/questions/homework")
@teacher_required
def homework_of_questions():
    """Set the ticked questions (put-in-order ones too), with questions from the cards mixed in, as quiz homework:
    each student answers them alone until the teacher closes it."""
    form = quiz_form_for()
    if not form.validate_on_submit():
        return questions_page(quiz_form=form, status=400)
    quiz = mixed_in(chosen_questions(), form.generated.data or 0, list(trivia.KINDS))
    settings = {"deck": "dinosaurs", "characteristic": "quiz", "count": len(quiz), "leaderboard": "never",
                "stage_names": "scores", "dino_names": form.only_dino_names(), **form.timetable()}
    rnd = rounds.create_round(g.teacher, form.title.data.strip(), QUIZ_HOMEWORK, settings, form.class_id(), values=quiz)
    return redirect(url_for("classroom.round_page", round_id=rnd.id))


@bp.post("/teach/questions/try")
@teacher_required
def try_questions():
    """Play the ticked questions (put-in-order ones too) as a solo quiz in this browser."""
    bank = chosen_questions()
    game, tokens = start_quiz({"title": "My questions", "kinds": [], "count": len(bank), "bank": bank,
                               "deck": "dinosaurs"})
    remember_seats(game.id, tokens)
    return redirect(url_for("play.game", kind=game.kind, game_id=game.id))
