"""Join codes: one alphabet and one lookup for classroom rounds and games played from own devices."""

import secrets

from sqlalchemy import bindparam, select

from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import JoinCode, Round

# No look-alike characters (0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B), so a code read off a projector works.
ALPHABET = "ACDEFHJKMNPQRTUVWXY3479"
LENGTH = 5
# Built once: every request of every student looks its round up by code.
ROUND_BY_CODE = select(Round).where(Round.code == bindparam("code"))


def normalise(code):
    """Return a code as typed, in the form it is stored: capitals, no spaces."""
    return (code or "").strip().upper().replace(" ", "")


# Random picks before giving up. With a tenth of the 6.4 million codes in use, 20 picks all hit a used one with a
# chance of 1e-20; when none is found the space is (nearly) full, and a clear 503 beats a request that never ends.
PICKS = 20


def new_code():
    """Return a join code that no round and no game uses, or refuse with 503 when none is found in PICKS tries."""
    for _ in range(PICKS):
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        if find_round(code) is None and find_game_id(code) is None:
            return code
    raise AppError(503, "Every join code is in use right now. Finished games and rounds free theirs: please try "
                        "again later, or ask the school's administrator to run `flask --app webapp forget`.")


SHARE_CODE_LENGTH = 10


def share_code(row):
    """Return a row's share code (a round's or a question's set-up shared with a colleague), making one the first
    time; it is random and long, so nobody finds another teacher's by guessing."""
    if row.share_code is None:
        row.share_code = secrets.token_urlsafe(SHARE_CODE_LENGTH)[:SHARE_CODE_LENGTH]
        db.session.commit()
    return row.share_code


def find_round(code):
    """Return the round with this code, or None."""
    code = normalise(code)
    return db.session.scalar(ROUND_BY_CODE, {"code": code}) if 0 < len(code) <= 8 else None


def find_game_id(code):
    """Return the id of the game with this join code, or None."""
    code = normalise(code)
    entry = db.session.get(JoinCode, code) if 0 < len(code) <= 8 else None
    return entry.game_id if entry else None
