"""Finding cards: the one query behind the encyclopedia page and the API, and the cards games are dealt from."""

from flask import abort
from sqlalchemy import case, false, func, or_, select

from cards_db import schema
from cards_db.schema import GROUPS, RANGES
from webapp.cards.names import GROUP_NICKNAMES, find_slug, kind_named, normalise
from webapp.common.characteristics import CHARACTERISTICS, problem
from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import Card, Period

GROUP_WORDS = {group for deck in GROUPS.values() for group in deck}
SORT_COLUMNS = {
    "name": Card.common_name,
    "scientific_name": Card.scientific_name,
    "length": Card.length_m,
    "mass": Card.mass_kg,
    "lifespan": Card.lifespan_years,
    # Larger Ma is older: "ascending" time runs from the oldest card.
    "age": -Card.first_appearance_ma,
}


def card_query(filters):
    """Return a select of the cards matching validated filter values (a dict)."""
    query, relevance = select(Card), None
    if filters.get("q"):
        query, relevance = search(query, filters["q"])
    for name in ("deck", "diet", "group"):
        if filters.get(name):
            query = query.where(getattr(Card, name) == filters[name])
    for name, column in (("continent", Card.continents), ("habitat", Card.habitat)):
        if filters.get(name):
            # A list cell is "A; B": pad it so only a whole item matches.
            query = query.where(("; " + column + "; ").contains(f"; {filters[name]}; ", autoescape=True))
    if filters.get("period"):
        period = db.session.get(Period, filters["period"])
        query = query.where(Card.first_appearance_ma > period.end_ma,
                            Card.last_appearance_ma < period.start_ma)
    bounds = [("min_length", Card.length_m.__ge__), ("max_length", Card.length_m.__le__),
              ("min_mass", Card.mass_kg.__ge__), ("max_mass", Card.mass_kg.__le__)]
    for name, compare in bounds:
        if filters.get(name) is not None:
            query = query.where(compare(filters[name]))
    column = SORT_COLUMNS[filters.get("sort") or "name"]
    ordered = column.desc() if filters.get("order") == "desc" else column.asc()
    # A search lists the best matches first: the card named, then whole words, then the group, then parts of words.
    first = [relevance] if relevance is not None else []
    return query.order_by(*first, ordered.nulls_last(), Card.common_name)


def search(query, text):
    """Return (query narrowed to cards matching `text`, a relevance to order by: 0 is best)."""
    words = normalise(text)
    named = find_slug(text)
    group = GROUP_NICKNAMES.get(words) or (words[:-1] if words.endswith("s") and words[:-1] in GROUP_WORDS else words)
    names = (Card.common_name, Card.scientific_name)
    part = or_(*(name.icontains(text.strip(), autoescape=True) for name in names))
    whole = or_(*(or_(func.lower(name) == words, func.lower(name).startswith(words + " ", autoescape=True),
                      func.lower(name).endswith(" " + words, autoescape=True),
                      func.lower(name).contains(" " + words + " ", autoescape=True)) for name in names))
    in_group = or_(Card.group == group, Card.slug.in_(kind_named(words)))
    exact = Card.slug == named if named else false()
    relevance = case((exact, 0), (whole, 1), (in_group, 2), else_=3)
    return query.where(or_(exact, part, whole, in_group)), relevance


def get_card(slug):
    """Return the card with `slug`, or None."""
    return db.session.scalar(select(Card).where(Card.slug == slug))


def all_periods():
    """Return the periods, oldest first."""
    return db.session.scalars(select(Period).order_by(Period.position)).all()


def all_eras(periods):
    """Return the eras of `periods` (oldest first), each with what its name means, what lived then, and its dates."""
    eras = {}
    for period in periods:
        era = eras.setdefault(period.era, {"name": period.era, "start_ma": period.start_ma, "end_ma": period.end_ma})
        era["end_ma"] = min(era["end_ma"], period.end_ma)
    return [{**era, "meaning": schema.ERA_WORDS[name][0], "lived": schema.ERA_WORDS[name][1]}
            for name, era in eras.items()]


def page_of_cards(form):
    """Return the page of cards a validated filter form asks for; 404 past the last page."""
    page = form.page.data or 1
    per_page = form.per_page.data or 24
    pagination = db.paginate(card_query(form.data), page=page, per_page=per_page, error_out=False)
    if page > 1 and page > pagination.pages:
        abort(404, description=f"There is no page {page}: these filters give "
                               f"{pagination.pages} page(s).")
    return pagination


def card_values(deck, characteristic):
    """Return {slug: value} for the deck's cards that have a value for the characteristic."""
    reason = problem(deck, characteristic)
    if reason:
        raise AppError(400, reason)
    cards = db.session.scalars(select(Card).where(Card.deck == deck)).all()
    if characteristic == "period":
        positions = dict(db.session.execute(select(Period.name, Period.position)).all())
        return {c.slug: positions[c.first_period] for c in cards if c.first_period in positions}
    column = CHARACTERISTICS[characteristic]["column"]
    return {c.slug: getattr(c, column) for c in cards if getattr(c, column) is not None}


def card_ranges(deck, characteristic):
    """Return {slug: [low, high]} of the published estimates, for characteristics that have ranges."""
    column = CHARACTERISTICS.get(characteristic, {}).get("column")
    ends = RANGES.get(column)
    if not ends:
        return {}
    low, high = (getattr(Card, end) for end in ends)
    rows = db.session.execute(select(Card.slug, low, high).where(
        Card.deck == deck, low.is_not(None), high.is_not(None)))
    return {slug: [lo, hi] for slug, lo, hi in rows}


def first_appearances(deck):
    """Return {slug: the published age of its first appearance, in millions of years} for the deck's dated cards."""
    return dict(db.session.execute(select(Card.slug, Card.first_appearance_ma).where(
        Card.deck == deck, Card.first_appearance_ma.is_not(None))).all())


def diets(deck):
    """Return {slug: diet} for the deck's cards with a known diet."""
    return dict(db.session.execute(select(Card.slug, Card.diet).where(Card.deck == deck, Card.diet.is_not(None))).all())


def cards_by_slug(slugs):
    """Return {slug: Card} for the cards named (public front-side facts); unknown slugs are left out."""
    slugs = set(slugs)
    if not slugs:
        return {}
    return {c.slug: c for c in db.session.scalars(select(Card).where(Card.slug.in_(slugs)))}
