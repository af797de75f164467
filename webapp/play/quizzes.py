"""Drawing a quiz's questions from the card database (the generator itself, webapp.games.trivia, is pure)."""

import secrets

from sqlalchemy import select

from webapp.cards.queries import all_periods
from webapp.errors import AppError
from webapp.extensions import db
from webapp.games import trivia
from webapp.models import Card

CARD_FIELDS = ["slug", "deck", "common_name", "group", "diet", "diet_detail", "first_period", "first_appearance_ma",
               "last_appearance_ma", "length_m", "length_low_m", "length_high_m", "mass_kg", "mass_low_kg",
               "mass_high_kg", "size_measure"]
LIST_FIELDS = ["continents", "habitat"]


def card_dicts(deck):
    """Return the cards of a deck ('both' for all) as plain dicts for the question generator."""
    query = select(Card) if deck == "both" else select(Card).where(Card.deck == deck)
    return [{**{field: getattr(card, field) for field in CARD_FIELDS}, **{field: card.items(field) for field in LIST_FIELDS}}
            for card in db.session.scalars(query)]


def draw(settings):
    """Draw the questions of a quiz from its settings (kinds, difficulty, count, deck, authored bank)."""
    unknown = [k for k in settings["kinds"] if k not in trivia.KINDS]
    if unknown:
        raise AppError(400, f"Unknown kind of question: {unknown[0]}.")
    periods = [p.name for p in all_periods()]
    return trivia.quiz(settings["kinds"], card_dicts(settings.get("deck", "dinosaurs")), settings["count"],
                       secrets.randbelow(2**31), settings.get("difficulty", "medium"), periods, settings.get("bank", []))
