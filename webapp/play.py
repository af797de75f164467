"""Play in the browser: Cardline at one screen (hot-seat) and against computer players."""

from flask import Blueprint, redirect, render_template, request, session, url_for

from webapp import gameplay
from webapp.cards import all_periods
from webapp.errors import AppError
from webapp.forms import NewCardlineForm, PlaceForm, whole_number

bp = Blueprint("play", __name__, url_prefix="/play")
KEPT_GAMES = 20  # seat tokens of this many recent games stay in the browser's session


@bp.get("/")
def index():
    """Show the ways to play."""
    return render_template("play/index.html")


@bp.route("/cardline/new", methods=["GET", "POST"])
def new_cardline():
    """Set up a Cardline game at this screen."""
    form = NewCardlineForm()
    if form.validate_on_submit():
        seats = form.chosen_seats()
        humans = sum(seat["kind"] == "human" for seat in seats)
        mode = "hotseat" if humans > 1 else "computer"
        game, tokens = gameplay.create_cardline(form.deck.data, form.characteristic.data,
                                                form.hand_size.data, seats, mode)
        remember_seats(game.id, tokens)
        return redirect(url_for("play.cardline_game", game_id=game.id))
    return render_template("play/new_cardline.html", form=form), 400 if form.errors else 200


def remember_seats(game_id, tokens):
    """Keep this browser's seat tokens for a game in its signed session cookie."""
    saved = dict(session.get("seats", {}))
    saved[game_id] = {**saved.pop(game_id, {}), **{str(seat): token for seat, token in tokens.items()}}
    session["seats"] = dict(list(saved.items())[-KEPT_GAMES:])


def held_seats(game):
    """Return the seats of `game` whose tokens this browser holds."""
    tokens = session.get("seats", {}).get(game.id, {})
    return sorted(seat for seat in (gameplay.seat_for_token(game, t) for t in tokens.values())
                  if seat is not None)


def viewer_of(game):
    """Return (viewer, pass_to): the seat this browser sees, or the seat to pass the device to first."""
    held = held_seats(game)
    turn = gameplay.GAMES[game.kind].current_player(game.state)
    if turn in held and len(held) > 1 and request.args.get("seat") != str(turn):
        return None, turn
    return (turn if turn in held else (held[0] if len(held) == 1 else None)), None


def posted_seat(game, kind):
    """Return the seat named by the posted form if this browser holds it in a game of `kind`, else refuse."""
    seat = request.form.get("seat", "")
    seat = whole_number(seat)
    if game.kind != kind or seat not in held_seats(game):
        raise AppError(403, "This browser does not hold that seat in this game.")
    return seat


def board_context(game, viewer, form=None, error=None):
    """Return what the Cardline page needs: the viewer's observation and the cards it names."""
    observation = gameplay.observe(game, viewer)
    return {
        "game": game, "obs": observation, "viewer": viewer, "error": error,
        "form": form or PlaceForm(formdata=None),
        "cards": gameplay.cards_by_slug(gameplay.observation_slugs(observation)),
        "periods": {p.position: p for p in all_periods()},
        "characteristic": gameplay.CHARACTERISTICS[game.settings["characteristic"]],
        "characteristic_key": game.settings["characteristic"],
    }


@bp.get("/cardline/<game_id>")
def cardline_game(game_id):
    """Show the game: a pass-the-device screen in hot-seat, else the board for this browser's seat."""
    game = gameplay.get_game(game_id)
    viewer, pass_to = viewer_of(game)
    if pass_to is not None:
        return render_template("play/pass_device.html", **board_context(game, None), turn=pass_to)
    return render_template("play/cardline.html", **board_context(game, viewer))


@bp.post("/cardline/<game_id>/place")
def place(game_id):
    """Place a card for the seat whose turn it is, if this browser holds that seat."""
    game = gameplay.get_game(game_id)
    form = PlaceForm()
    seat = form.seat.data
    if seat not in held_seats(game):
        raise AppError(403, "This browser does not hold that seat in this game.")
    if not form.validate():
        return render_template("play/cardline.html", **board_context(game, seat, form)), 400
    try:
        gameplay.act(game, seat, {"type": "place", "card": form.card.data, "gap": form.gap.data})
    except AppError as error:
        return render_template("play/cardline.html",
                               **board_context(game, seat, form, error.message)), error.status
    return redirect(url_for("play.cardline_game", game_id=game.id, _anchor="last-move"))


GAME_PAGES = {"cardline": "play.cardline_game", "stack": "stack.game", "dinoblivion": "dinoblivion.game"}
