"""Lessons for teachers: the lesson pages, and their activities launched in one click."""

from flask import abort, g, redirect, render_template, request, url_for

from webapp.auth.access import teacher_required
from webapp.classroom import questions, rounds
from webapp.common import dino_names
from webapp.common.seats import remember_seats
from webapp.errors import AppError
from webapp.learn import bp
from webapp.learn.content import all_lessons, load, render
from webapp.learn.forms import LiveQuizForm
from webapp.play import quizzes
from webapp.play.adapters.practice import start_practice
from webapp.play.adapters.quiz import start_quiz


@bp.get("/lessons/")
def lessons():
    """List the lessons."""
    return render_template("learn/index.html", lessons=all_lessons())


@bp.get("/lessons/<slug>")
def lesson(slug):
    """Show a lesson plan and its activities."""
    lesson = load(slug)
    if lesson is None:
        abort(404, description=f"There is no lesson called {slug!r}.")
    return render_template("learn/show.html", lesson=lesson, body=render(lesson),
                           activities=list(enumerate(lesson["meta"]["activities"])),
                           dino_names_label=dino_names.SETTING_LABEL)


def activity_of(slug, number):
    """Return a lesson's activity by its position, or a 404."""
    lesson = load(slug)
    activities = lesson["meta"]["activities"] if lesson else []
    if not 0 <= number < len(activities):
        raise AppError(404, "There is no such activity in this lesson.")
    return lesson, activities[number]


@bp.post("/lessons/<slug>/activities/<int:number>")
def launch(slug, number):
    """Start an activity of a lesson in one click: a practice round, a quiz, or the timeline."""
    lesson, activity = activity_of(slug, number)
    kind = activity["type"]
    if kind == "timeline":
        return redirect(url_for("timeline.timeline", cards=",".join(activity["cards"]), scale=activity.get("scale", "linear")))
    if kind == "practice":
        return open_game(start_practice(activity["deck"], activity["characteristic"], activity["count"],
                                        activity.get("mode", "line"), label=lesson["meta"]["title"]))
    if kind == "quiz":
        return open_game(start_quiz(quiz_settings(lesson, activity)))
    if kind == "round":
        return redirect(url_for("learn.launch_round", slug=slug, number=number), code=307)
    raise AppError(400, "This activity cannot be launched here.")


def quiz_defaults(activity):
    """Return a lesson quiz's own length and timer, the values its live-quiz form starts from."""
    return {"count": activity.get("count", 8), "turn_seconds": activity.get("turn_seconds", 30), "leaderboard": "every"}


def quiz_settings(lesson, activity):
    """Return the settings of a lesson's quiz activity."""
    return {"title": activity.get("label") or lesson["meta"]["title"], "kinds": activity.get("kinds", []),
            "count": activity.get("count", 8), "difficulty": activity.get("difficulty", "medium"),
            "deck": activity.get("deck", "dinosaurs"), "bank": lesson["bank"] if activity.get("bank") else []}


@bp.post("/lessons/<slug>/activities/<int:number>/round")
@teacher_required
def launch_round(slug, number):
    """Create a classroom round from a lesson's activity (a class line, or its quiz run live)."""
    lesson, activity = activity_of(slug, number)
    title = activity.get("label") or lesson["meta"]["title"]
    if activity["type"] == "round":
        settings = {"deck": activity["deck"], "characteristic": activity["characteristic"], "choice": "all",
                    "count": activity["count"], "hand_size": 4, "turn_seconds": activity.get("turn_seconds", 30),
                    "leaderboard": "every", "teams": 2, "team_mode": "captain"}
        rnd = rounds.create_round(g.teacher, title, "class_line", settings)
    elif activity["type"] == "quiz":
        form = LiveQuizForm(data=quiz_defaults(activity))
        if not form.validate_on_submit():
            problems = [f"{form[name].label.text}: {' '.join(errors)}" for name, errors in form.errors.items()]
            raise AppError(400, "The live quiz could not start. " + " ".join(problems))
        chosen = {**quiz_settings(lesson, activity), "count": form.count.data}
        if request.form.get("mine") == "yes":  # the teacher's own multiple-choice questions join the draw
            mine = [questions.as_quiz_question(q) for q in questions.teacher_questions(g.teacher, "choice")]
            chosen["bank"] = [*chosen["bank"], *mine]
        rnd = rounds.create_quiz_round(g.teacher, title, quizzes.draw(chosen), form.turn_seconds.data,
                                       form.leaderboard.data, dino_names=form.dino_names.data)
    else:
        raise AppError(400, "Only rounds and quizzes can be run for the class.")
    return redirect(url_for("classroom.round_page", round_id=rnd.id))


def open_game(started):
    """Keep the seat of a game just started for this browser, and open it."""
    game, tokens = started
    remember_seats(game.id, tokens)
    return redirect(url_for("play.game", kind=game.kind, game_id=game.id))
