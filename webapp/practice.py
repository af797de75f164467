"""Solo practice for students: sorting challenges, diet bins, and the daily challenge."""

from datetime import date

from flask import Blueprint, redirect, render_template, request, session, url_for

from webapp import gameplay
from webapp.cards import all_periods
from webapp.errors import AppError
from webapp.forms import AnswerForm, PracticeForm, whole_number
from webapp.play import held_seats, remember_seats

bp = Blueprint("practice", __name__, url_prefix="/play/practice")
DAILY_CHARACTERISTICS = ("mass", "length", "period")
DAILY_CARDS = 8


@bp.route("/new", methods=["GET", "POST"])
def new():
    """Set up a practice round (the query string may preselect the deck and characteristic)."""
    preset = {name: request.args[name] for name in ("deck", "characteristic") if name in request.args}
    form = PracticeForm(**preset)
    if form.validate_on_submit():
        game, tokens = gameplay.create_practice(form.deck.data, form.characteristic.data,
                                                form.count.data, form.mode.data)
        remember_seats(game.id, tokens)
        return redirect(url_for("practice.show", game_id=game.id))
    return render_template("practice/new.html", form=form), 400 if form.errors else 200


def daily_settings(day):
    """Return (seed, characteristic) of the daily challenge: the same for everyone on `day`."""
    return int(day.strftime("%Y%m%d")), DAILY_CHARACTERISTICS[day.toordinal() % len(DAILY_CHARACTERISTICS)]


@bp.get("/daily")
def daily():
    """Start (or return to) today's challenge: the same cards for everyone today."""
    today = date.today()
    key = f"daily-{today.isoformat()}"
    game_id = session.get("daily", {}).get(key)
    if game_id:
        return redirect(url_for("practice.show", game_id=game_id))
    seed, characteristic = daily_settings(today)
    game, tokens = gameplay.create_practice("dinosaurs", characteristic, DAILY_CARDS, "line",
                                            seed=seed, label=f"Daily challenge {today.isoformat()}")
    remember_seats(game.id, tokens)
    session["daily"] = {key: game.id}
    return redirect(url_for("practice.show", game_id=game.id))


def page_context(game, form=None, error=None):
    """Return what a practice page needs: the observation and the cards it names."""
    observation = gameplay.observe(game, 0)
    key = game.settings["characteristic"]
    return {
        "game": game, "obs": observation, "form": form or AnswerForm(formdata=None), "error": error,
        "cards": gameplay.cards_by_slug(gameplay.observation_slugs(observation)),
        "periods": {p.position: p for p in all_periods()},
        "characteristic_key": key,
        "characteristic": gameplay.CHARACTERISTICS.get(key, {"label": "Diet"}),
        "owner": 0 in held_seats(game),
    }


@bp.get("/<game_id>")
def show(game_id):
    """Show the challenge: the next question, or the review at the end."""
    game = gameplay.get_game(game_id)
    if game.kind != "practice":
        raise AppError(404, "There is no practice round with that id.")
    return render_template("practice/show.html", **page_context(game))


def answer_from_form(game, form):
    """Turn the submitted form into an engine action, or raise a 400 AppError naming what is missing."""
    mode = game.state["mode"]
    if mode == "line":
        if form.gap.data is None:
            raise AppError(400, "Choose a place in the line.")
        return {"type": "place", "gap": form.gap.data}
    if mode == "bins":
        return {"type": "bin", "diet": form.diet.data}
    positions = {}
    for card in game.state["cards"]:
        positions[card] = whole_number(request.form.get(f"position-{card}", ""))
        if positions[card] is None:
            raise AppError(400, "Give every card a position.")
    if sorted(positions.values()) != list(range(1, len(positions) + 1)):
        raise AppError(400, "Use each position once: two cards cannot share a place.")
    return {"type": "order", "cards": sorted(positions, key=positions.get)}


@bp.post("/<game_id>/answer")
def answer(game_id):
    """Record one answer (or the whole order) and show what happened."""
    game = gameplay.get_game(game_id)
    if game.kind != "practice" or 0 not in held_seats(game):
        raise AppError(403, "This practice round belongs to another browser.")
    form = AnswerForm()
    try:
        if not form.validate():
            raise AppError(400, "That answer could not be read.")
        gameplay.act(game, 0, answer_from_form(game, form))
    except AppError as error:
        return render_template("practice/show.html", **page_context(game, form, error.message)), error.status
    return redirect(url_for("practice.show", game_id=game.id, _anchor="feedback"))
