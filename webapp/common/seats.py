"""The seats a browser holds: their tokens live in its signed session cookie, only their hashes in the database."""

from flask import request, session

from webapp.common.tokens import same_hash
from webapp.games import GAMES

KEPT_GAMES = 20  # seat tokens of this many recent games stay in the browser's session


def remember_seats(game_id, tokens):
    """Keep this browser's seat tokens for a game in its signed session cookie."""
    saved = dict(session.get("seats", {}))
    saved[game_id] = {**saved.pop(game_id, {}), **{str(seat): token for seat, token in tokens.items()}}
    session["seats"] = dict(list(saved.items())[-KEPT_GAMES:])


def seat_for_token(game, token):
    """Return the seat of `game` a token belongs to, or None."""
    return next((index for index, seat in enumerate(game.seats) if same_hash(seat.get("token_hash"), token)), None)


def held_seats(game):
    """Return the seats of `game` whose tokens this browser holds."""
    tokens = session.get("seats", {}).get(game.id, {})
    return sorted(seat for seat in (seat_for_token(game, t) for t in tokens.values()) if seat is not None)


def viewer_of(game):
    """Return (viewer, pass_to): the seat this browser sees, or the seat to pass the device to first."""
    held = held_seats(game)
    turn = GAMES[game.kind].current_player(game.state)
    if turn in held and len(held) > 1 and request.args.get("seat") != str(turn):
        return None, turn
    return (turn if turn in held else (held[0] if len(held) == 1 else None)), None
