"""Trivia quizzes in the browser: generated from the card database, answered one at a time."""

import secrets

from flask import Blueprint, redirect, render_template, request, url_for
from sqlalchemy import select

from webapp import gameplay, trivia
from webapp.cards import all_periods
from webapp.errors import AppError
from webapp.extensions import db
from webapp.forms import NewQuizForm, QuizAnswerForm, whole_number
from webapp.models import Card
from webapp.play import held_seats, remember_seats

bp = Blueprint("quiz", __name__, url_prefix="/quiz")
CARD_FIELDS = ["slug", "deck", "common_name", "group", "diet", "diet_detail", "first_period", "first_appearance_ma",
               "last_appearance_ma", "length_m", "mass_kg", "size_measure"]


def card_dicts(deck):
    """Return the cards of a deck ('both' for all) as plain dicts for the question generator."""
    query = select(Card) if deck == "both" else select(Card).where(Card.deck == deck)
    return [{field: getattr(card, field) for field in CARD_FIELDS} for card in db.session.scalars(query)]


def draw(settings):
    """Draw the questions of a quiz from its settings (kinds, difficulty, count, deck, authored bank)."""
    unknown = [k for k in settings["kinds"] if k not in trivia.KINDS]
    if unknown:
        raise AppError(400, f"Unknown kind of question: {unknown[0]}.")
    periods = [p.name for p in all_periods()]
    return trivia.quiz(settings["kinds"], card_dicts(settings.get("deck", "dinosaurs")), settings["count"],
                       secrets.randbelow(2**31), settings.get("difficulty", "medium"), periods, settings.get("bank", []))


def start(settings):
    """Create a quiz for this browser and open it."""
    questions = draw(settings)
    game, tokens = gameplay.create_game("quiz", {"questions": questions, "title": settings["title"]},
                                        [{"name": "You", "kind": "human"}], "quiz", {"title": settings["title"]})
    remember_seats(game.id, tokens)
    return redirect(url_for("quiz.show", game_id=game.id))


@bp.route("/new", methods=["GET", "POST"])
def new():
    """Set up a trivia quiz."""
    form = NewQuizForm(kinds=trivia.KINDS.items())
    if form.validate_on_submit():
        return start({"title": "Trivia quiz", "kinds": form.kinds.data, "count": form.count.data,
                      "difficulty": form.difficulty.data, "deck": form.deck.data})
    return render_template("quiz/new.html", form=form), 400 if form.errors else 200


def own_quiz(game_id):
    """Return a quiz game this browser plays."""
    game = gameplay.get_game(game_id)
    if game.kind != "quiz":
        raise AppError(404, "There is no quiz with that id.")
    return game


def answer_form(observation, formdata=None):
    """Return the answer form for the current question, its options as the only choices."""
    form = QuizAnswerForm(formdata=formdata) if formdata is not None else QuizAnswerForm(formdata=None)
    current = observation["current"]
    if current and not current["order"]:
        form.choice.choices = [(o["id"], o["text"]) for o in current["options"]]
        form.question.data = form.question.data or current["id"]
    return form


@bp.get("/<game_id>")
def show(game_id):
    """Show the current question, the explanation of the last answer, or the review."""
    game = own_quiz(game_id)
    observation = gameplay.observe(game, 0)
    return render_template("quiz/show.html", game=game, obs=observation, form=answer_form(observation),
                           owner=0 in held_seats(game))


@bp.post("/<game_id>/answer")
def answer(game_id):
    """Answer the current question; a forged or stale answer is refused with a reason."""
    game = own_quiz(game_id)
    if 0 not in held_seats(game):
        raise AppError(403, "This quiz belongs to another browser.")
    observation = gameplay.observe(game, 0)
    current = observation["current"]
    form = answer_form(observation, request.form)
    try:
        if current is None:
            raise AppError(409, "This quiz is finished.")
        if request.form.get("question") != current["id"]:
            raise AppError(409, "That answer is for another question: here is the current one.")
        if current["order"]:
            positions = {o["id"]: whole_number(request.form.get(f"position-{o['id']}", "")) for o in current["options"]}
            if None in positions.values() or sorted(positions.values()) != list(range(1, len(positions) + 1)):
                raise AppError(400, "Give every animal a different position.")
            action = {"question": current["id"], "order": sorted(positions, key=positions.get)}
        else:
            if not form.validate():
                raise AppError(400, " ".join(form.choice.errors) or "Choose one of the answers offered.")
            action = {"question": current["id"], "choice": form.choice.data}
        gameplay.act(game, 0, action)
    except AppError as error:
        return render_template("quiz/show.html", game=game, obs=observation, form=form, owner=True,
                               error=error.message), error.status
    return redirect(url_for("quiz.show", game_id=game.id, _anchor="feedback"))
