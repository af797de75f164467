"""Games in the database: create a game from cards, act for a seat, run the computer players.

The rules live in webapp.games; this module only feeds them cards, keeps seats' tokens, and
stores every state. A seat's token is shown once and only its hash is kept.
"""

import hashlib
import json
import random
import secrets

from flask import current_app, has_request_context
from sqlalchemy import delete, select
from sqlalchemy.orm.exc import StaleDataError

from webapp.common import codes, limits, nicknames
from webapp.common.tokens import new_token, token_hash
from webapp.errors import AppError
from webapp.extensions import db
from webapp.games import GAMES, IllegalAction, InvalidConfig
from webapp.games.seating import with_player_name
from webapp.models import Game, JoinCode

BOT_KINDS = ("easy", "medium", "hard")
# "human": a person at this browser; "remote": a person who joins from their own device with the
# game's join code; the rest are computer players.
SEAT_KINDS = ["human", "remote", *BOT_KINDS]


def register_gate(app, name, gate):
    """Let another feature refuse moves in the games it started with settings["gate"] == name.

    `gate(game)` returns why no move may be made now, or None (a homework game waits for its round to be open).
    """
    app.extensions.setdefault("move_gates", {})[name] = gate


def create_game(kind, config, seats, mode, settings, seed=None):
    """Start a game of any engine; return (game, {seat: token}) with tokens for the human seats."""
    if has_request_context():
        limits.use("game")
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        state = GAMES[kind].new_game(config, seed)
    except InvalidConfig as error:
        raise AppError(400, str(error)) from error
    if not GAMES[kind].TYPE.computer_players and any(seat["kind"] in BOT_KINDS for seat in seats):
        raise AppError(400, "This game has no computer players: every seat must be a person.")
    tokens, stored = {}, []
    for index, seat in enumerate(seats):
        entry = {"name": seat["name"], "kind": seat["kind"]}
        if seat["kind"] == "human":
            tokens[index] = new_token()
            entry["token_hash"] = token_hash(tokens[index])
        stored.append(entry)
    game = Game(id=secrets.token_urlsafe(9), kind=kind, mode=mode, seed=seed, settings=settings,
                seats=stored, state=run_computer_players(kind, state, stored, seed))
    db.session.add(game)
    if any(seat["kind"] == "remote" for seat in stored):
        db.session.add(JoinCode(code=codes.new_code(), game_id=game.id))
    db.session.commit()
    return game, tokens


def join_code_of(game):
    """Return the game's join code, or None."""
    return db.session.scalar(select(JoinCode.code).where(JoinCode.game_id == game.id))


def open_seats(game):
    """Return the seats waiting for someone to join from their own device."""
    return [i for i, seat in enumerate(game.seats) if seat["kind"] == "remote" and "token_hash" not in seat]


def join(game_id, name):
    """Give the first open seat of the game to `name` (checked by the nickname rule, and no other seat's name or a
    look-alike of it); return (game, seat, token)."""
    game = get_game(game_id)
    reason = nicknames.problem(name)
    if reason:
        raise AppError(400, reason)
    taken = {nicknames.key(s["name"]) for index, s in enumerate(game.seats) if index not in open_seats(game)}
    if nicknames.key(name) in taken:
        raise AppError(409, "Someone in this game already has that name, or one that looks the same: choose another.")
    seats = open_seats(game)
    if not seats or GAMES[game.kind].is_over(game.state):
        raise AppError(409, "Every seat in that game is taken.")
    seat, token = seats[0], new_token()
    updated = [dict(s) for s in game.seats]
    name = nicknames.tidy(name)
    updated[seat].update(name=name, token_hash=token_hash(token))
    game.seats = updated
    game.state = with_player_name(game.state, seat, name)
    try:
        db.session.commit()
    except StaleDataError as error:
        db.session.rollback()
        raise AppError(409, "Someone took a seat at the same moment. Please try again.") from error
    return game, seat, token


def reissue_seat(game, seat):
    """Give a seat a new token (the old one stops working); return it. The caller commits."""
    token = new_token()
    game.seats = [{**entry, "token_hash": token_hash(token)} if index == seat else entry
                  for index, entry in enumerate(game.seats)]
    return token


def get_game(game_id):
    """Return the game with this id, or raise a 404 AppError."""
    game = db.session.get(Game, game_id) if isinstance(game_id, str) and len(game_id) <= 24 else None
    if game is None:
        raise AppError(404, "There is no game with that id. It may have been typed wrongly.")
    return game


def run_computer_players(kind, state, seats, seed, step=0):
    """Let computer players move until a person is to act or the game ends."""
    engine = GAMES[kind]
    if not engine.TYPE.computer_players:
        return state
    while not engine.is_over(state) and seats[engine.current_player(state)]["kind"] in BOT_KINDS:
        seat = engine.current_player(state)
        step += 1
        rng = random.Random(f"{seed}:{step}")
        state = engine.apply(state, seat, engine.computer_move(state, seat, seats[seat]["kind"], seed, rng))
    return state


def closed(game):
    """Return why the game takes no move now from its gate (a homework not open yet, or closed), or None."""
    gate = current_app.extensions.get("move_gates", {}).get(game.settings.get("gate"))
    return gate(game) if gate else None


def view_version(game, reason):
    """Return what changes whenever a seat's view does: the game's version, and whether its gate is closed (`reason`)."""
    return f"{game.version}-closed" if reason else str(game.version)


def act(game, seat, action):
    """Apply a seat's action and the computer players' replies; store the result or refuse it."""
    engine = GAMES[game.kind]
    reason = closed(game)
    if reason:
        raise AppError(409, reason)
    try:
        state = engine.apply(game.state, seat, action)
    except IllegalAction as error:
        raise AppError(409, str(error)) from error
    game.state = run_computer_players(game.kind, state, game.seats, game.seed, step=game.version * 1000)
    if engine.is_over(game.state):  # nobody joins a finished game: its code goes back for others
        db.session.execute(delete(JoinCode).where(JoinCode.game_id == game.id))
    try:
        db.session.commit()
    except StaleDataError as error:
        db.session.rollback()
        raise AppError(409, "Someone else moved at the same moment. Reload to see the game.") from error
    return game


def board_key(game, seat):
    """Return a short key of what `seat` sees of the game: it changes with every move, not with a join or a reload."""
    seen = json.dumps([observe(game, seat), legal_actions(game, seat)], sort_keys=True, default=str)
    return hashlib.sha256(seen.encode()).hexdigest()[:16]


def observe(game, seat):
    """Return what a seat (None: a spectator) may see of the game."""
    return GAMES[game.kind].observation(game.state, seat)


def legal_actions(game, seat):
    """Return the actions open to `seat` now (none when it is not their turn)."""
    engine = GAMES[game.kind]
    return engine.legal_actions(game.state) if engine.current_player(game.state) == seat else []
