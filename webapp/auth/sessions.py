"""A teacher's logged-in browsers, kept on the server: the signed cookie holds a random token, the database only
its hash, so logging out (here or everywhere) or changing the password ends every copy of a cookie.

The cookie also remembers (as keyed digests) which accounts logged in on this browser before, so that password
guessing from the same school address never slows a teacher on their own computer.
"""

import hashlib
import hmac
import secrets
from datetime import UTC, datetime, timedelta

from flask import current_app, session
from sqlalchemy import delete, func, select

from webapp.extensions import db
from webapp.models import Teacher, TeacherSession

SEEN_EVERY = timedelta(minutes=1)  # last_seen_at moves at most this often, to keep writes rare
KNOWN_ACCOUNTS = 5  # accounts a browser remembers having logged in to
KEPT_AT_LOGIN = ("seats", "known_accounts")  # what of the browser's session outlives a login


def now():
    """Return the time sessions are kept in (tests move it on)."""
    return datetime.now(UTC)


def _aware(moment):
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _hash(token):
    return hashlib.sha256(token.encode()).hexdigest()


def _lifetime():
    return current_app.permanent_session_lifetime


def start(teacher):
    """Log `teacher` in on this browser: a new session on the server and its token in a fresh cookie."""
    token, at = secrets.token_urlsafe(32), now()
    db.session.execute(delete(TeacherSession).where(TeacherSession.teacher_id == teacher.id,
                                                    TeacherSession.created_at < at - _lifetime()))
    db.session.add(TeacherSession(id=_hash(token), teacher_id=teacher.id, created_at=at, last_seen_at=at))
    db.session.commit()
    kept = {key: session[key] for key in KEPT_AT_LOGIN if key in session}
    session.clear()  # nothing set before the login rides into it
    session.update(kept, teacher_session=token)
    remember_account(teacher.email)


def current_teacher():
    """Return the teacher this browser's cookie is logged in as through a live session, or None."""
    token = session.get("teacher_session")
    if not isinstance(token, str):
        return None
    found = db.session.execute(select(TeacherSession, Teacher).join(Teacher, Teacher.id == TeacherSession.teacher_id)
                               .where(TeacherSession.id == _hash(token))).first()
    if found is None:
        session.pop("teacher_session")
        return None
    row, teacher = found
    at = now()
    if at - _aware(row.created_at) > _lifetime():
        db.session.delete(row)
        db.session.commit()
        session.pop("teacher_session")
        return None
    if at - _aware(row.last_seen_at) >= SEEN_EVERY:
        row.last_seen_at = at
        db.session.commit()
    return teacher


def end_this():
    """Log this browser out: its session ends on the server, so a copy of its cookie opens nothing."""
    token = session.pop("teacher_session", None)
    if isinstance(token, str):
        db.session.execute(delete(TeacherSession).where(TeacherSession.id == _hash(token)))
        db.session.commit()


def end_all(teacher, but_this=False):
    """End every session of `teacher` (on every browser), or every one but this browser's."""
    ending = delete(TeacherSession).where(TeacherSession.teacher_id == teacher.id)
    token = session.get("teacher_session")
    if but_this and isinstance(token, str):
        ending = ending.where(TeacherSession.id != _hash(token))
    else:
        session.pop("teacher_session", None)
    db.session.execute(ending)
    db.session.commit()


def count_live(teacher):
    """Return how many browsers `teacher` is logged in on."""
    return db.session.scalar(select(func.count()).select_from(TeacherSession).where(
        TeacherSession.teacher_id == teacher.id, TeacherSession.created_at >= now() - _lifetime()))


def _account_digest(email):
    # Keyed, so that a cookie read by someone else does not give the e-mail away to a dictionary of addresses.
    key = current_app.secret_key
    return hmac.new(key if isinstance(key, bytes) else key.encode(), email.encode(), "sha256").hexdigest()[:20]


def knows_account(email):
    """Return whether `email`'s account logged in on this browser before."""
    known = session.get("known_accounts")
    return isinstance(known, list) and _account_digest(email) in known


def remember_account(email):
    """Remember on this browser that `email`'s account logged in here (the few most recent accounts)."""
    digest = _account_digest(email)
    known = session.get("known_accounts")
    others = [item for item in known if item != digest] if isinstance(known, list) else []
    session["known_accounts"] = [digest, *others][:KNOWN_ACCOUNTS]
