"""The JSON API for games: create, observe, list legal actions, act. Seats authenticate by token."""

from flask import jsonify, request
from sqlalchemy import select

from webapp.common import nicknames
from webapp.common.http import bearer_token, json_body
from webapp.common.seats import seat_for_token
from webapp.errors import AppError, error_response
from webapp.extensions import csrf, db
from webapp.models import Game
from webapp.play import bp, store
from webapp.play.adapters import ADAPTERS, adapter_for

API_GAMES = [kind for kind, adapter in ADAPTERS.items() if adapter.in_api]


def seat_of_request(game, required):
    """Return the seat whose token the request carries; None for a spectator unless required."""
    token = bearer_token()
    if token is None:
        if required:
            raise AppError(401, "This needs your seat token: send 'Authorization: Bearer <token>'.")
        return None
    seat = seat_for_token(game, token)
    if seat is None:
        raise AppError(403, "That seat token does not belong to this game.")
    return seat


def parse_seats(raw):
    """Validate the seats of a new game: a list of {name, kind}; kind is human, remote or a computer level; each name
    by the nickname rule, and no two alike."""
    if not isinstance(raw, list) or not raw:
        raise AppError(400, "Give 'seats' as a list like [{\"name\": \"Ada\", \"kind\": \"human\"}].")
    seats, keys = [], set()
    for index, seat in enumerate(raw, start=1):
        if not isinstance(seat, dict):
            raise AppError(400, f"Seat {index} must be an object with a name and a kind.")
        name, kind = seat.get("name"), seat.get("kind", "human")
        reason = nicknames.problem(name) if isinstance(name, str) else "Give it a name."
        if reason:
            raise AppError(400, f"Seat {index}'s name: {reason}")
        if nicknames.key(name) in keys:
            raise AppError(400, f"Seat {index}'s name is another seat's, or looks the same: give each seat its own name.")
        keys.add(nicknames.key(name))
        if kind not in store.SEAT_KINDS:
            raise AppError(400, f"Seat {index}'s kind must be one of: {', '.join(store.SEAT_KINDS)}.")
        seats.append({"name": nicknames.tidy(name), "kind": kind})
    return seats


PERSON_KINDS = ("human", "remote")


def observed(game, seat):
    """Return a seat's observation with the game's version, which its next move must send back."""
    return {**store.observe(game, seat), "version": game.version}


def answered_version(game, data):
    """Refuse a move that does not name the version it answers, or answers one the game has left (a retry, or
    another move in between): nothing is played twice, and the client gets the game as it is now."""
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise AppError(400, "Send 'version', the game's version your move answers (in every observation and in "
                            "GET .../actions): a move sent twice is then refused instead of played twice.")
    if version != game.version:
        raise AppError(409, f"The game has moved on to version {game.version} since version {version}: nothing "
                            "was played. Here is the game as it is now.")


@bp.post("/api/games")
@csrf.exempt  # API clients authenticate each seat with its token, not a cookie.
def api_create():
    """Create a game; answer with its id and each human seat's token (shown only this once)."""
    data = json_body()
    kind, seed = data.get("game", "cardline"), data.get("seed")
    if kind not in API_GAMES:
        raise AppError(400, "'game' must be one of: " + ", ".join(API_GAMES) + ".")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31):
        raise AppError(400, "'seed' must be a whole number from 0 to 2147483647.")
    seats = parse_seats(data.get("seats"))
    if seed is not None and sum(seat["kind"] in PERSON_KINDS for seat in seats) > 1:
        # Engines are public and a seed fixes the deal: its creator could work out the other players' hands.
        raise AppError(400, "A 'seed' is taken only for a game with one person in it: with two or more, the deal "
                            "must be a secret from everyone.")
    game, tokens = ADAPTERS[kind].api_start(data, seats, seed)
    seats = [{"seat": i, "name": s["name"], "kind": s["kind"], **({"token": tokens[i]} if i in tokens else {})}
             for i, s in enumerate(game.seats)]
    return {"id": game.id, "game": game.kind, "seats": seats, "observation": observed(game, None)}, 201


@bp.get("/api/games/<game_id>")
def api_game(game_id):
    """Return the observation for the token's seat, or the spectator's view without a token."""
    game = store.get_game(game_id)
    return observed(game, seat_of_request(game, required=False))


@bp.get("/api/games/<game_id>/version")
def api_version(game_id):
    """Say how many times the game has changed (304 if the If-None-Match version is still current).

    A waiting player's page asks every few seconds and reloads when it changed; that a move was
    made is public, so no token is needed, and nothing else is read.
    """
    row = db.session.execute(select(Game.version, Game.settings).where(Game.id == game_id)).one_or_none() \
        if len(game_id) <= 24 else None
    if row is None:
        raise AppError(404, "There is no game with that id. It may have been typed wrongly.")
    # A gated game (homework) also changes view when its gate opens or closes.
    gated = db.session.get(Game, game_id) if row.settings.get("gate") else None
    shown = store.view_version(gated, store.closed(gated)) if gated else str(row.version)
    response = jsonify({"version": row.version})
    response.set_etag(shown)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/api/games/<game_id>/actions")
def api_actions(game_id):
    """List the legal actions of the token's seat (empty when it is not their turn)."""
    game = store.get_game(game_id)
    seat = seat_of_request(game, required=True)
    return {"seat": seat, "version": game.version, "actions": store.legal_actions(game, seat)}


@bp.post("/api/games/<game_id>/actions")
@csrf.exempt
def api_act(game_id):
    """Play an action for the token's seat; answer with that seat's new observation."""
    data = json_body()
    game = store.get_game(game_id)
    seat = seat_of_request(game, required=True)
    try:
        answered_version(game, data)
    except AppError as error:
        return error_response(error.status, error.message, observation=observed(game, seat))
    action = data.get("action", {key: value for key, value in data.items() if key != "version"})
    store.act(game, seat, adapter_for(game).api_action(action))
    return observed(game, seat)
