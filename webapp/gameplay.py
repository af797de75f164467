"""Games in the database: create a game from cards, act for a seat, run the computer players.

The rules live in webapp.games; this module only feeds them cards, keeps seats' tokens, and
stores every state. A seat's token is shown once and only its hash is kept.
"""

import hashlib
import hmac
import random
import secrets

from sqlalchemy import select
from sqlalchemy.orm.exc import StaleDataError

from cards_db.schema import DECKS
from webapp.errors import AppError
from webapp.extensions import db
from webapp.games import GAMES, IllegalAction, InvalidConfig
from webapp.models import Card, Game, JoinCode, Period

CHARACTERISTICS = {
    "length": {"label": "Size", "column": "length_m", "decks": ["dinosaurs", "animals"]},
    "mass": {"label": "Weight", "column": "mass_kg", "decks": ["dinosaurs", "animals"]},
    "period": {"label": "Period (first appearance)", "column": None, "decks": ["dinosaurs"]},
    "lifespan": {"label": "Lifespan", "column": "lifespan_years", "decks": ["animals"]},
}
BOT_KINDS = ("easy", "medium", "hard")
# "human": a person at this browser; "remote": a person who joins from their own device with the
# game's join code; the rest are computer players.
SEAT_KINDS = ["human", "remote", *BOT_KINDS]
# No look-alike characters (0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B), so a code read off a projector works.
JOIN_ALPHABET = "ACDEFHJKMNPQRTUVWXY3479"
JOIN_CODE_LENGTH = 5


def card_values(deck, characteristic):
    """Return {slug: value} for the deck's cards that have a value for the characteristic."""
    if deck not in DECKS:
        raise AppError(400, f"There is no deck called {deck!r}: choose {' or '.join(DECKS)}.")
    spec = CHARACTERISTICS.get(characteristic)
    if spec is None or deck not in spec["decks"]:
        allowed = [k for k, v in CHARACTERISTICS.items() if deck in v["decks"]]
        raise AppError(400, f"The {deck} deck can be played by {', '.join(allowed)}.")
    cards = db.session.scalars(select(Card).where(Card.deck == deck)).all()
    if characteristic == "period":
        positions = dict(db.session.execute(select(Period.name, Period.position)).all())
        return {c.slug: positions[c.first_period] for c in cards if c.first_period in positions}
    column = spec["column"]
    return {c.slug: getattr(c, column) for c in cards if getattr(c, column) is not None}


def token_hash(token):
    """Return the stored form of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


def create_game(kind, config, seats, mode, settings, seed=None):
    """Start a game of any engine; return (game, {seat: token}) with tokens for the human seats."""
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        state = GAMES[kind].new_game(config, seed)
    except InvalidConfig as error:
        raise AppError(400, str(error)) from error
    tokens, stored = {}, []
    for index, seat in enumerate(seats):
        entry = {"name": seat["name"], "kind": seat["kind"]}
        if seat["kind"] == "human":
            tokens[index] = secrets.token_urlsafe(24)
            entry["token_hash"] = token_hash(tokens[index])
        stored.append(entry)
    game = Game(id=secrets.token_urlsafe(9), kind=kind, mode=mode, seed=seed, settings=settings,
                seats=stored, state=run_computer_players(kind, state, stored, seed))
    db.session.add(game)
    if any(seat["kind"] == "remote" for seat in stored):
        db.session.add(JoinCode(code=new_join_code(), game_id=game.id))
    db.session.commit()
    return game, tokens


def new_join_code():
    """Return a join code no other game uses."""
    while True:
        code = "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        if db.session.get(JoinCode, code) is None:
            return code


def join_code_of(game):
    """Return the game's join code, or None."""
    return db.session.scalar(select(JoinCode.code).where(JoinCode.game_id == game.id))


def open_seats(game):
    """Return the seats waiting for someone to join from their own device."""
    return [i for i, seat in enumerate(game.seats) if seat["kind"] == "remote" and "token_hash" not in seat]


def join(code, name):
    """Give the first open seat of the game with `code` to `name`; return (game, seat, token)."""
    code = (code or "").strip().upper().replace(" ", "")
    entry = db.session.get(JoinCode, code) if 0 < len(code) <= 8 else None
    if entry is None:
        raise AppError(404, "No round or game has that code. Check the letters on the board and try again.")
    game = get_game(entry.game_id)
    seats = open_seats(game)
    if not seats or GAMES[game.kind].is_over(game.state):
        raise AppError(409, "Every seat in that game is taken.")
    seat, token = seats[0], secrets.token_urlsafe(24)
    updated = [dict(s) for s in game.seats]
    updated[seat].update(name=name, token_hash=token_hash(token))
    game.seats = updated
    players = list(game.state["players"])
    players[seat] = name
    game.state = {**game.state, "players": players}
    try:
        db.session.commit()
    except StaleDataError as error:
        db.session.rollback()
        raise AppError(409, "Someone took a seat at the same moment. Please try again.") from error
    return game, seat, token


def create_cardline(deck, characteristic, hand_size, seats, mode, seed=None):
    """Start a Cardline game over a deck's cards that have a value for the characteristic."""
    config = {"cards": card_values(deck, characteristic), "players": [s["name"] for s in seats],
              "hand_size": hand_size, "characteristic": characteristic}
    settings = {"deck": deck, "characteristic": characteristic, "hand_size": hand_size}
    return create_game("cardline", config, seats, mode, settings, seed)


def create_practice(deck, characteristic, count, mode, seed=None, label="practice"):
    """Start a solo sorting challenge; `characteristic` 'diet' sorts into diet bins."""
    if characteristic == "diet":
        cards = db.session.scalars(select(Card).where(Card.deck == deck, Card.diet.is_not(None))).all()
        values, mode = {c.slug: c.diet for c in cards}, "bins"
    else:
        values = card_values(deck, characteristic)
    config = {"cards": values, "count": count, "mode": mode, "characteristic": characteristic}
    settings = {"deck": deck, "characteristic": characteristic, "count": count, "label": label}
    return create_game("practice", config, [{"name": "You", "kind": "human"}], mode, settings, seed)


def get_game(game_id):
    """Return the game with this id, or raise a 404 AppError."""
    game = db.session.get(Game, game_id) if isinstance(game_id, str) and len(game_id) <= 24 else None
    if game is None:
        raise AppError(404, "There is no game with that id. It may have been typed wrongly.")
    return game


def seat_for_token(game, token):
    """Return the seat a token belongs to, or None."""
    if not token:
        return None
    digest = token_hash(token)
    for index, seat in enumerate(game.seats):
        if hmac.compare_digest(seat.get("token_hash", ""), digest):
            return index
    return None


def run_computer_players(kind, state, seats, seed, step=0):
    """Let computer players move until a person is to act or the game ends."""
    engine = GAMES[kind]
    while not engine.is_over(state) and seats[engine.current_player(state)]["kind"] in BOT_KINDS:
        seat = engine.current_player(state)
        step += 1
        rng = random.Random(f"{seed}:{step}")
        state = engine.apply(state, seat, engine.computer_move(state, seat, seats[seat]["kind"], seed, rng))
    return state


def act(game, seat, action):
    """Apply a seat's action and the computer players' replies; store the result or refuse it."""
    engine = GAMES[game.kind]
    try:
        state = engine.apply(game.state, seat, action)
    except IllegalAction as error:
        raise AppError(409, str(error)) from error
    game.state = run_computer_players(game.kind, state, game.seats, game.seed, step=game.version * 1000)
    try:
        db.session.commit()
    except StaleDataError as error:
        db.session.rollback()
        raise AppError(409, "Someone else moved at the same moment. Reload to see the game.") from error
    return game


def observe(game, seat):
    """Return what a seat (None: a spectator) may see of the game."""
    return GAMES[game.kind].observation(game.state, seat)


def legal_actions(game, seat):
    """Return the actions open to `seat` now (none when it is not their turn)."""
    engine = GAMES[game.kind]
    return engine.legal_actions(game.state) if engine.current_player(game.state) == seat else []


def cards_by_slug(slugs):
    """Return {slug: Card} for the cards named in an observation (public front-side facts)."""
    slugs = set(slugs)
    if not slugs:
        return {}
    return {c.slug: c for c in db.session.scalars(select(Card).where(Card.slug.in_(slugs)))}


def observation_slugs(observation):
    """Return every card slug an observation mentions."""
    slugs = [entry["card"] for entry in observation["line"] + observation.get("box", [])]
    slugs += (observation.get("hand") or []) + observation.get("to_order", [])
    slugs += [observation.get("current")] + [a["card"] for a in observation.get("answers", [])]
    for move in observation.get("recent", []):
        slugs += [move["card"], move["belongs_after"], move["belongs_before"]]
    return [s for s in slugs if s]
