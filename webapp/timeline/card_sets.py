"""A teacher's card sets: private to their teacher, opened by anyone else only through the set's share link.

Sets saved before sets had owners (teacher_id None) are shown to nobody.
"""

from sqlalchemy import select

from webapp.common import codes
from webapp.common.forms import whole_number
from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import CardSet

# The same answer for another teacher's set, a deleted one and a number never used: set numbers tell nothing.
PRIVATE_OR_GONE = "This card set is private or has been deleted. Its teacher can share it with a link."
NOT_SHARED = "No card set is shared with that link: its teacher may have stopped sharing it or deleted it."


def teacher_sets(teacher):
    """Return the teacher's card sets by name."""
    return db.session.scalars(select(CardSet).where(CardSet.teacher_id == teacher.id)
                              .order_by(CardSet.name, CardSet.id)).all()


def own_set(set_id, teacher):
    """Return the teacher's set numbered `set_id` (a number or its text); 404 for anyone else's, or none."""
    number = whole_number(set_id) if isinstance(set_id, str) else set_id
    card_set = db.session.get(CardSet, number) if number is not None and teacher is not None else None
    if card_set is None or card_set.teacher_id != teacher.id:
        raise AppError(404, PRIVATE_OR_GONE)
    return card_set


def shared_set(code):
    """Return the set a share code opens, or a 404."""
    card_set = db.session.scalar(select(CardSet).where(CardSet.share_code == (code or "")[:16]))
    if card_set is None or card_set.teacher_id is None:
        raise AppError(404, NOT_SHARED)
    return card_set


def save(teacher, name, slugs):
    """Keep the cards as one of the teacher's sets, named `name`; return it."""
    card_set = CardSet(name=name, slugs=list(slugs), teacher_id=teacher.id)
    db.session.add(card_set)
    db.session.commit()
    return card_set


def rename(card_set, name):
    """Give the set another name."""
    card_set.name = name
    db.session.commit()


def share(card_set):
    """Return the set's share code, making one the first time."""
    return codes.share_code(card_set)


def stop_sharing(card_set):
    """Make the set private again: its share link stops working (sharing again makes a new one)."""
    card_set.share_code = None
    db.session.commit()


def delete(card_set):
    """Delete the set (rounds made from it keep their cards)."""
    db.session.delete(card_set)
    db.session.commit()


def copy_for(card_set, teacher):
    """Copy a set (a colleague's, shared) into the teacher's own sets; return the copy."""
    return save(teacher, card_set.name, card_set.slugs)
