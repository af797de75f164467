"""One page lists every work the cards cite, so a teacher can check a number in one click."""

from flask import render_template
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from cards_db.schema import SOURCE_GROUPS
from webapp.extensions import db
from webapp.models import Citation, Source
from webapp.sources import bp


def uses(work):
    """Return [(card, [field, ...])] of the cards citing `work`, in deck order, each card once."""
    by_card = {}
    for citation in work.citations:
        fields = by_card.setdefault(citation.card, [])
        fields.extend(field for field in citation.field_list if field not in fields)
    return list(by_card.items())


def grouped_works():
    """Return [(anchor, heading, [(work, uses)])] for each kind of work, in the order of SOURCE_GROUPS."""
    works = db.session.scalars(select(Source).options(
        selectinload(Source.citations).selectinload(Citation.card))).all()
    groups = []
    for anchor, heading, kinds in SOURCE_GROUPS:
        chosen = sorted((w for w in works if w.kind in kinds), key=lambda w: (w.short_name.lower(), w.id))
        groups.append((anchor, heading, [(work, uses(work)) for work in chosen]))
    return groups


@bp.get("/sources")
def index():
    """List every work the cards cite, grouped by kind."""
    return render_template("sources/index.html", groups=grouped_works())
