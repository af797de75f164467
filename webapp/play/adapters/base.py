"""What the web layer needs from a game, in one place: its engine, pages, set-up, form-to-action and face-up cards.

Generic pages (webapp.play.views) and the games API look a game's adapter up by the stored game's kind,
in the spirit of CTFd's challenge types. An adapter reads a game only through its engine's observation.
"""

from abc import ABC, abstractmethod

from flask import request, url_for

from webapp.common.forms import whole_number
from webapp.common.seats import held_seats, viewer_of
from webapp.errors import AppError
from webapp.play import store


class Adapter(ABC):
    """A game as the web layer sees it; each game's adapter gives its start, its moves and its board."""

    kind = ""
    title = ""
    path = ""  # where its pages live: <path>/new, <path>/<id>, <path>/<id>/<move_verb>
    move_verb = "act"
    anchor = "board"  # where the page scrolls to after a move
    solo = False  # one seat, played by the browser that started it
    setup_form = None  # the WTForms class of its set-up page

    @property
    def new_template(self):
        """Return the set-up page's template."""
        return f"play/{self.kind}/new.html"

    @property
    def board_template(self):
        """Return the board's template."""
        return f"play/{self.kind}/board.html"

    @property
    def public_template(self):
        """Return the template of what anyone at the table may see (shown while the device is passed)."""
        return f"play/{self.kind}/_public.html"

    @property
    def not_yours(self):
        """Return why a move for a seat this browser does not hold is refused."""
        return f"This {self.title} belongs to another browser." if self.solo else \
            "This browser does not hold that seat in this game."

    def new_form(self):
        """Return the set-up form, filled from the request, or with an earlier game's settings ("Play again")."""
        return self.setup_form(data=self.again()) if request.method == "GET" else self.setup_form()

    def again(self):
        """Return the set-up form data that starts the game `?again=<id>` names again, or {}."""
        try:
            earlier = store.get_game(request.args["again"]) if request.args.get("again") else None
        except AppError:
            return {}  # a mistyped link: start from the usual settings
        return self.again_data(earlier) if earlier is not None and earlier.kind == self.kind else {}

    def again_data(self, game):
        """Return the set-up form data that starts `game` again (the same settings and seats)."""
        return {}

    @abstractmethod
    def start(self, form):
        """Start a game from a validated set-up form; return (game, {seat: token})."""

    def viewer(self, game):
        """Return (viewer, pass_to): whose view this browser gets, or the seat to pass the device to first."""
        return (0, None) if self.solo else viewer_of(game)

    def moving_seat(self, game):
        """Return the seat the posted move is for, refusing a seat this browser does not hold."""
        seat = 0 if self.solo else whole_number(request.form.get("seat", ""))
        if seat not in held_seats(game):
            raise AppError(403, self.not_yours)
        return seat

    def move_form(self, game, viewer):
        """Return the form a move is posted with (None: the raw request form is read)."""
        return

    @abstractmethod
    def action(self, game, seat, form):
        """Return the engine action a posted move asks for, or raise a 400 saying what is missing."""

    @abstractmethod
    def context(self, game, viewer, form=None, error=None):
        """Return what the board (and the pass-the-device page) shows `viewer`."""

    def face_up(self, observation):
        """Return the slugs of the cards of the card database that an observation shows face up."""
        return []

    def after_move(self, game, seat):
        """Return where the browser goes after a move."""
        seat_arg = {} if self.solo else {"seat": seat}
        return url_for("play.game", kind=self.kind, game_id=game.id, _anchor=self.anchor, **seat_arg)

    in_api = False  # created and played through the JSON games API too

    def api_start(self, data, seats, seed):
        """Start a game from a games-API request: `config` is passed to the engine, the players are the seats."""
        config = data.get("config", {})
        if not isinstance(config, dict):
            raise AppError(400, "'config' must be an object, like {\"mode\": \"duel\"}.")
        if not any(seat["kind"] in ("human", "remote") for seat in seats):
            # Computer players alone would play the whole game inside this request.
            raise AppError(400, "At least one seat must be a person (kind 'human' or 'remote').")
        config = {**config, "players": [seat["name"] for seat in seats]}
        return store.create_game(self.kind, config, seats, mode="api", settings={}, seed=seed)

    def api_action(self, action):
        """Return the engine action a games-API request sends, or raise a 400."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise AppError(400, "Send {\"action\": <one of the actions GET .../actions lists>}.")
        return action


class SoloAdapter(Adapter):
    """A game for one browser, played from seat 0: each move answers the question on the page."""

    move_verb, anchor, solo = "answer", "feedback", True
