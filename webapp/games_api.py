"""The JSON API for games: create, observe, list legal actions, act. Seats authenticate by token."""

from flask import Blueprint, jsonify, request
from sqlalchemy import select

from webapp import gameplay
from webapp.errors import AppError
from webapp.extensions import csrf, db
from webapp.models import Game

bp = Blueprint("games_api", __name__, url_prefix="/api/games")
csrf.exempt(bp)  # API clients authenticate each seat with its token, not a cookie.

MAX_NAME_LENGTH = 40


def json_body():
    """Return the request's JSON object, or raise a 400 GameError saying what is wrong with it."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise AppError(400, "Send a JSON object in the body, with Content-Type: application/json.")
    return data


def bearer_token():
    """Return the seat token from 'Authorization: Bearer <token>', or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def seat_of_request(game, required):
    """Return the seat whose token the request carries; None for a spectator unless required."""
    token = bearer_token()
    if token is None:
        if required:
            raise AppError(401, "This needs your seat token: send 'Authorization: Bearer <token>'.")
        return None
    seat = gameplay.seat_for_token(game, token)
    if seat is None:
        raise AppError(403, "That seat token does not belong to this game.")
    return seat


def parse_seats(raw):
    """Validate the seats of a new game: a list of {name, kind}; kind is human, remote or a computer level."""
    if not isinstance(raw, list) or not raw:
        raise AppError(400, "Give 'seats' as a list like [{\"name\": \"Ada\", \"kind\": \"human\"}].")
    seats = []
    for index, seat in enumerate(raw, start=1):
        if not isinstance(seat, dict):
            raise AppError(400, f"Seat {index} must be an object with a name and a kind.")
        name, kind = seat.get("name"), seat.get("kind", "human")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
            raise AppError(400, f"Seat {index} needs a name of 1 to {MAX_NAME_LENGTH} characters.")
        if kind not in gameplay.SEAT_KINDS:
            raise AppError(400, f"Seat {index}'s kind must be one of: {', '.join(gameplay.SEAT_KINDS)}.")
        seats.append({"name": name.strip(), "kind": kind})
    return seats


API_GAMES = ("cardline", "stack", "dinoblivion")


@bp.post("")
def create():
    """Create a game; answer with its id and each human seat's token (shown only this once)."""
    data = json_body()
    kind, seed = data.get("game", "cardline"), data.get("seed")
    if kind not in API_GAMES:
        raise AppError(400, "'game' must be one of: " + ", ".join(API_GAMES) + ".")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31):
        raise AppError(400, "'seed' must be a whole number from 0 to 2147483647.")
    seats = parse_seats(data.get("seats"))
    if kind == "cardline":
        game, tokens = create_cardline(data, seats, seed)
    else:
        game, tokens = create_table_game(kind, data.get("config", {}), seats, seed)
    seats = [{"seat": i, "name": s["name"], "kind": s["kind"], **({"token": tokens[i]} if i in tokens else {})}
             for i, s in enumerate(game.seats)]
    return {"id": game.id, "game": game.kind, "seats": seats, "observation": gameplay.observe(game, None)}, 201


def create_cardline(data, seats, seed):
    """Start a Cardline game from the request's deck, characteristic and hand size."""
    hand_size = data.get("hand_size", 4)
    if not isinstance(hand_size, int) or isinstance(hand_size, bool):
        raise AppError(400, "'hand_size' must be a whole number.")
    return gameplay.create_cardline(deck=data.get("deck", "dinosaurs"), characteristic=data.get("characteristic", "length"),
                                    hand_size=hand_size, seats=seats, mode="api", seed=seed)


def create_table_game(kind, config, seats, seed):
    """Start a Stack-O-Saurus or Dinoblivion game from `config`; the players are the seats."""
    if not isinstance(config, dict):
        raise AppError(400, "'config' must be an object, like {\"mode\": \"duel\"}.")
    if not any(seat["kind"] in ("human", "remote") for seat in seats):
        # Computer players alone would play the whole game inside this request.
        raise AppError(400, "At least one seat must be a person (kind 'human' or 'remote').")
    config = {**config, "players": [seat["name"] for seat in seats]}
    return gameplay.create_game(kind, config, seats, mode="api", settings={}, seed=seed)


@bp.get("/<game_id>")
def show(game_id):
    """Return the observation for the token's seat, or the spectator's view without a token."""
    game = gameplay.get_game(game_id)
    return gameplay.observe(game, seat_of_request(game, required=False))


@bp.get("/<game_id>/version")
def version(game_id):
    """Say how many times the game has changed (304 if the If-None-Match version is still current).

    A waiting player's page asks every few seconds and reloads when it changed; that a move was
    made is public, so no token is needed, and nothing else is read.
    """
    current = db.session.scalar(select(Game.version).where(Game.id == game_id)) if len(game_id) <= 24 else None
    if current is None:
        raise AppError(404, "There is no game with that id. It may have been typed wrongly.")
    response = jsonify({"version": current})
    response.set_etag(str(current))
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/<game_id>/actions")
def actions(game_id):
    """List the legal actions of the token's seat (empty when it is not their turn)."""
    game = gameplay.get_game(game_id)
    seat = seat_of_request(game, required=True)
    return {"seat": seat, "actions": gameplay.legal_actions(game, seat)}


@bp.post("/<game_id>/actions")
def act(game_id):
    """Play an action for the token's seat; answer with that seat's new observation."""
    data = json_body()
    game = gameplay.get_game(game_id)
    seat = seat_of_request(game, required=True)
    action = data.get("action", data)
    if game.kind == "cardline":
        if not isinstance(action, dict) or not isinstance(action.get("card"), str) or "gap" not in action:
            raise AppError(400, "Send {\"card\": \"<slug>\", \"gap\": <number>} to place a card.")
        action = {"type": "place", "card": action["card"], "gap": action["gap"]}
    elif not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise AppError(400, "Send {\"action\": <one of the actions GET .../actions lists>}.")
    gameplay.act(game, seat, action)
    return gameplay.observe(game, seat)
