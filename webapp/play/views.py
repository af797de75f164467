"""The game pages, one generic set for every registered game: set up, board (or pass the device), move."""

from datetime import date

from flask import redirect, render_template, request, session, url_for

from cards_db.schema import DECKS
from webapp.common.characteristics import CHARACTERISTICS
from webapp.common.forms import DeckForm
from webapp.common.seats import remember_seats
from webapp.errors import AppError
from webapp.play import bp, store
from webapp.play.adapters import ADAPTERS, dinoblivion, game_of_kind, practice


@bp.get("/play/")
def index():
    """Show the ways to play."""
    return render_template("play/index.html")


def new(kind):
    """Set up a game of `kind` at this screen."""
    adapter = ADAPTERS[kind]
    form = adapter.new_form()
    if form.validate_on_submit():
        game, tokens = adapter.start(form)
        remember_seats(game.id, tokens)
        return redirect(url_for("play.game", kind=kind, game_id=game.id))
    return render_template(adapter.new_template, form=form), 400 if form.errors else 200


def game(kind, game_id):
    """Show the game: a pass-the-device screen between local players, else the board for this browser's seat."""
    adapter, found = game_of_kind(kind, game_id)
    viewer, pass_to = adapter.viewer(found)
    if pass_to is not None:
        return render_template("play/pass_device.html", adapter=adapter, turn=pass_to,
                               turn_name=found.seats[pass_to]["name"], **adapter.context(found, None))
    return render_template(adapter.board_template, **adapter.context(found, viewer))


STALE_BOARD = "The game has moved on since this page was shown (another tab, or another player): nothing was played. Here is the board as it is now."


def move(kind, game_id):
    """Make one move for a seat this browser holds; a refused move shows the board again with the reason."""
    adapter, found = game_of_kind(kind, game_id)
    seat = adapter.moving_seat(found)
    form = adapter.move_form(found, seat)
    try:
        # A board sends a key of what it showed (store.board_key): a move from a page the game has since left (another
        # tab, or another player moved) is refused, and the board as it is now shown, not applied to a turn it never showed.
        seen = request.form.get("seen")
        if seen is not None and seen != store.board_key(found, seat):
            raise AppError(409, STALE_BOARD)
        closed = store.closed(found)  # a homework not open, or closed: said before anything of the move is read
        if closed:
            raise AppError(409, closed)
        store.act(found, seat, adapter.action(found, seat, form))
    except AppError as error:
        page = render_template(adapter.board_template, **adapter.context(found, seat, form, error.message))
        return page, error.status
    return redirect(adapter.after_move(found, seat))


for registered in ADAPTERS.values():
    defaults = {"kind": registered.kind}
    bp.add_url_rule(f"{registered.path}/new", "new", new, methods=["GET", "POST"], defaults=defaults)
    bp.add_url_rule(f"{registered.path}/<game_id>", "game", game, defaults=defaults)
    bp.add_url_rule(f"{registered.path}/<game_id>/{registered.move_verb}", "move", move, methods=["POST"],
                    defaults=defaults)


@bp.get("/play/practice/daily")
def daily():
    """Start (or return to) today's challenge: the same cards for everyone today."""
    today = date.today()
    key = f"daily-{today.isoformat()}"
    game_id = session.get("daily", {}).get(key)
    if not game_id:
        found, tokens = practice.start_daily(today)
        remember_seats(found.id, tokens)
        session["daily"], game_id = {key: found.id}, found.id
    return redirect(url_for("play.game", kind="practice", game_id=game_id))


@bp.route("/play/practice/endless", methods=["GET", "POST"])
def endless():
    """Choose an endless line by a tap on its deck and characteristic, and start it."""
    form = DeckForm()
    if form.validate_on_submit():
        found, tokens = practice.start_endless(form.deck.data, form.characteristic.data)
        remember_seats(found.id, tokens)
        return redirect(url_for("play.game", kind="practice", game_id=found.id))
    lines = {deck: [key for key, spec in CHARACTERISTICS.items() if deck in spec["decks"]] for deck in DECKS}
    return render_template("play/practice/endless.html", form=form, lines=lines), 400 if form.errors else 200


@bp.get("/play/dinoblivion/rules")
def dinoblivion_rules():
    """Show how to play, the decisions we took where the rulebook is silent, and the icon reference."""
    return render_template("play/dinoblivion/rules.html", rules=dinoblivion.rules_html())
