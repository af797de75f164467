"""Teachers' accounts and passwords: creating an account, checking a password, and how strong a new one must be.

Nothing here tells whether an e-mail has an account: creating one where it exists changes nothing and takes as
long, and a password checked for an unknown e-mail is checked against a hash that matches nothing.
"""

import functools
import re
import secrets
import threading

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash
from zxcvbn import zxcvbn

from webapp.common.loop import off_the_loop
from webapp.extensions import db
from webapp.models import Teacher

# Words a teacher of this app might build a password from, which a guesser would try first.
APP_WORDS = ("deep time", "deeptime", "dinosaur", "dinosaurs", "cards", "deep time cards")
STRONG_ENOUGH = 3  # zxcvbn's score: 3 is "safely unguessable" online (about 10^8 guesses)
ZXCVBN_LENGTH = 72  # zxcvbn refuses longer passwords; their first 72 characters are judged
# zxcvbn keeps the user's words in a module-level dictionary: two threads judging at once would swap them.
_zxcvbn_lock = threading.Lock()


def weakness(password, *personal):
    """Return why `password` is too easy to guess, in zxcvbn's plain words (None if it is strong enough); the
    person's own words (`personal`: e-mail, name) and the app's count as easy to guess."""
    words = []  # the person's own first: zxcvbn ranks earlier words as likelier guesses
    for text in personal:
        if text:
            parts = [part for part in re.split(r"[\s@._+-]+", text) if len(part) >= 3]
            words += [text, "".join(parts), *parts]
    words += APP_WORDS
    with _zxcvbn_lock:
        result = zxcvbn(password[:ZXCVBN_LENGTH], user_inputs=words)
    if result["score"] >= STRONG_ENOUGH:
        return None
    hints = [result["feedback"]["warning"], *result["feedback"]["suggestions"]]
    hints = [hint for hint in hints if hint] or ["Add another word or two. Uncommon words are better."]
    return " ".join(["This password is too easy to guess.", *hints])


def hash_password(password):
    """Return the stored form of a new password (scrypt), made where it holds up no other request."""
    return off_the_loop(generate_password_hash, password)


def password_is(stored, password):
    """Say whether `password` is the one `stored` was made from, checked where it holds up no other request."""
    return off_the_loop(check_password_hash, stored, password)


@functools.cache
def _dummy_hash():
    """Return a hash no password matches, made once with the same method as the accounts' hashes."""
    return hash_password(secrets.token_urlsafe(32))


def find(email):
    """Return the teacher whose e-mail is `email` (already in lower case), or None."""
    return db.session.scalar(select(Teacher).where(Teacher.email == email))


def password_matches(teacher, password):
    """Return whether `password` is `teacher`'s; with no teacher, check it against a dummy hash, so that the answer
    takes as long whether or not the e-mail has an account."""
    dummy = _dummy_hash()  # made before either branch, so its making never times only one of them
    stored = teacher.password_hash if teacher is not None else dummy
    return password_is(stored, password) and teacher is not None


def with_password(email, password):
    """Return the teacher whose e-mail is `email` if `password` is theirs, else None (as slow either way)."""
    teacher = find(email)
    return teacher if password_matches(teacher, password) else None


def create(name, email, password):
    """Create an account unless `email` has one already, in which case change nothing (the password is hashed
    either way, so both take as long)."""
    password_hash = hash_password(password)
    if find(email) is not None:
        return
    db.session.add(Teacher(name=name, email=email, password_hash=password_hash))
    try:
        db.session.commit()
    except IntegrityError:  # the same e-mail registered at the same moment: the first one keeps it
        db.session.rollback()


def change_password(teacher, password):
    """Give `teacher` a new password."""
    teacher.password_hash = hash_password(password)
    db.session.commit()
