"""My tricky cards kept on the school's server for a pupil on a class list, so they follow the pupil to any device.

A browser is linked to a pupil with the pupil's personal code: its cookie holds a random token, the database only
the token's hash (a `PupilDevice`). While it is linked, each tricky request merges the history the browser posts
into the pupil's placements (a placement is one card at one time: the same on every device), capped like the
browser's history at the newest `schedule.HISTORY_LIMIT`, and deals and draws from the merged history.
"""

import re
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from webapp.common import codes
from webapp.common.characteristics import CHARACTERISTICS
from webapp.common.tokens import new_token, token_hash
from webapp.extensions import db
from webapp.models import Card, Pupil, PupilDevice, PupilPlacement
from webapp.tricky import schedule

DEVICES_PER_PUPIL = 10  # linking an eleventh browser unlinks the one unused the longest
SEEN_EVERY = timedelta(hours=1)  # how often a linked browser's last use is written down
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,24}")


def pupil_with_code(typed):
    """Return the pupil whose personal code was typed, or None."""
    code = codes.normalise(typed)
    return db.session.scalar(select(Pupil).where(Pupil.code == code)) if 0 < len(code) <= 8 else None


def link(pupil, now):
    """Link a new browser to `pupil`; return the token for its cookie (only its hash is kept)."""
    token = new_token()
    db.session.add(PupilDevice(id=token_hash(token), pupil_id=pupil.id, created_at=now, last_seen_at=now))
    db.session.flush()
    newest = (select(PupilDevice.id).where(PupilDevice.pupil_id == pupil.id)
              .order_by(PupilDevice.last_seen_at.desc(), PupilDevice.created_at.desc()).limit(DEVICES_PER_PUPIL))
    db.session.execute(delete(PupilDevice).where(PupilDevice.pupil_id == pupil.id, PupilDevice.id.not_in(newest)))
    db.session.commit()
    return token


def unlink(token):
    """Unlink the browser holding `token` (the pupil's placements stay for their other devices)."""
    if token:
        db.session.execute(delete(PupilDevice).where(PupilDevice.id == token_hash(token)))
        db.session.commit()


def linked_pupil(token, now):
    """Return the pupil the browser holding `token` is linked to, or None; note its use (once an hour at most)."""
    if not token:
        return None
    found = db.session.execute(select(PupilDevice, Pupil).join(Pupil, Pupil.id == PupilDevice.pupil_id)
                               .where(PupilDevice.id == token_hash(token))).one_or_none()
    if found is None:
        return None
    if _aware(found.PupilDevice.last_seen_at) < now - SEEN_EVERY:
        db.session.execute(update(PupilDevice).where(PupilDevice.id == found.PupilDevice.id).values(last_seen_at=now))
        db.session.commit()
    return found.Pupil


def ms_since_1970(moment):
    """Return a time in whole milliseconds since 1970, as the browser writes it."""
    return (moment - EPOCH) // timedelta(milliseconds=1)


def storable(history, slugs):
    """Return the placements of a posted history that name this app's cards, characteristics and game ids (free
    text a browser might send, a name say, is never stored)."""
    return [placement for placement in history
            if placement.card in slugs and placement.by in CHARACTERISTICS and {*placement.passed, *placement.beside} <= slugs
            and (placement.game == "" or GAME_ID.fullmatch(placement.game))]


def merge(pupil, posted, now, days_kept):
    """Add the posted placements the server lacks to the pupil's, keep the newest HISTORY_LIMIT, and return the
    merged history (oldest first). Placements older than `days_kept` days are not stored (they would be deleted)."""
    history = history_of(pupil)
    oldest = ms_since_1970(now - timedelta(days=days_kept))
    known = {(ms_since_1970(p.at), p.card) for p in history}
    lacking = {(ms_since_1970(p.at), p.card): p for p in posted
               if (ms_since_1970(p.at), p.card) not in known and ms_since_1970(p.at) >= oldest}
    if not lacking:  # a device already in step writes nothing
        return history
    slugs = set(db.session.scalars(select(Card.slug)))
    rows = [{"pupil_id": pupil.id, "card": p.card, "by": p.by, "right": p.right, "close": p.close,
             "passed": list(p.passed), "beside": list(p.beside), "game": p.game, "at_ms": at}
            for (at, _card), p in lacking.items() if storable([p], slugs)]
    if rows:
        insert = (postgresql if db.engine.dialect.name == "postgresql" else sqlite).insert(PupilPlacement)
        # Two devices may send the same placement at once: the second adds nothing.
        db.session.execute(insert.values(rows).on_conflict_do_nothing(index_elements=["pupil_id", "at_ms", "card"]))
        newest = (select(PupilPlacement.id).where(PupilPlacement.pupil_id == pupil.id)
                  .order_by(PupilPlacement.at_ms.desc(), PupilPlacement.id.desc()).limit(schedule.HISTORY_LIMIT))
        db.session.execute(delete(PupilPlacement).where(PupilPlacement.pupil_id == pupil.id,
                                                        PupilPlacement.id.not_in(newest)))
        db.session.commit()
        history = history_of(pupil)
    return history


def history_of(pupil):
    """Return the pupil's placements kept on the server, oldest first."""
    rows = db.session.scalars(select(PupilPlacement).where(PupilPlacement.pupil_id == pupil.id)
                              .order_by(PupilPlacement.at_ms, PupilPlacement.id))
    return [schedule.Placement(row.card, row.by, row.right, EPOCH + timedelta(milliseconds=row.at_ms), row.close,
                               tuple(row.passed), tuple(row.beside), row.game) for row in rows]


def as_posted(history):
    """Return placements as the browser keeps them (JSON-safe), for it to catch up."""
    return [{"card": p.card, "by": p.by, "right": p.right, "close": p.close, "passed": list(p.passed),
             "beside": list(p.beside), "game": p.game, "at": ms_since_1970(p.at)} for p in history]


def _aware(moment):
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
