"""Slowing down guessing: too many failed log-ins or join codes from one address get a 429."""

from datetime import UTC, datetime, timedelta

from flask import request
from sqlalchemy import delete, func, select

from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import FailedAttempt

WINDOW = timedelta(minutes=10)
# A whole class often shares one school address, and children mistype codes: the join limit must
# survive a class's typos. Guessing stays hopeless: 100 tries in 23**5 (6.4 million) codes.
LIMITS = {"login": 10, "join": 100}


def _key(kind):
    return f"{kind}:{request.remote_addr or 'unknown'}"


def check(kind):
    """Refuse with 429 when this address failed `kind` too often in the last ten minutes."""
    since = datetime.now(UTC) - WINDOW
    failures = db.session.scalar(select(func.count(FailedAttempt.id)).where(
        FailedAttempt.key == _key(kind), FailedAttempt.at >= since))
    if failures >= LIMITS[kind]:
        raise AppError(429, "Too many wrong tries from this device. Please wait ten minutes and try again.")


def failed(kind):
    """Record a failed attempt (and forget old ones)."""
    db.session.execute(delete(FailedAttempt).where(FailedAttempt.at < datetime.now(UTC) - WINDOW))
    db.session.add(FailedAttempt(key=_key(kind)))
    db.session.commit()
