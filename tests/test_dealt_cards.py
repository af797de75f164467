"""Every game, quiz and practice deals only cards that have a value for the characteristic played (issue 25)."""

import random

import pytest
from sqlalchemy import select

from webapp.cards.queries import card_values, diets
from webapp.classroom.rounds import chosen_values
from webapp.common.characteristics import CHARACTERISTICS
from webapp.extensions import db
from webapp.games import trivia
from webapp.models import Card, Teacher
from webapp.play import quizzes
from webapp.play.adapters.cardline import start_cardline
from webapp.play.adapters.practice import start_practice

PLAYS = [(deck, key) for key, spec in CHARACTERISTICS.items() for deck in spec["decks"]]
SEATS = [{"name": "Ana", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def has_value(card, characteristic):
    """Say whether a card has a value for a characteristic ('diet' too)."""
    if characteristic == "period":
        return card.first_period is not None
    column = "diet" if characteristic == "diet" else CHARACTERISTICS[characteristic]["column"]
    return getattr(card, column) is not None


def slugs_in(value, known):
    """Return every card slug found anywhere in a JSON-like state."""
    if isinstance(value, str):
        return {value} & known
    if isinstance(value, dict):
        return set().union(*(slugs_in(k, known) | slugs_in(v, known) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(slugs_in(item, known) for item in value))
    return set()


@pytest.fixture
def cards(app):
    """Return {slug: Card} of every card, in an app context."""
    with app.app_context():
        yield {card.slug: card for card in db.session.scalars(select(Card))}


def test_some_cards_lack_a_value_so_the_checks_below_test_something(cards):
    assert any(card.mass_kg is None for card in cards.values())


@pytest.mark.parametrize(("deck", "characteristic"), PLAYS)
def test_the_cards_dealt_from_are_those_with_a_value(cards, deck, characteristic):
    values = card_values(deck, characteristic)
    expected = {s for s, c in cards.items() if c.deck == deck and has_value(c, characteristic)}
    assert set(values) == expected and None not in values.values()


@pytest.mark.parametrize("deck", ["dinosaurs", "animals"])
def test_the_diet_sort_deals_only_cards_with_a_diet(cards, deck):
    assert set(diets(deck)) == {s for s, c in cards.items() if c.deck == deck and c.diet}


@pytest.mark.parametrize(("deck", "characteristic"), PLAYS)
def test_cardline_and_practice_deal_only_cards_with_a_value(cards, deck, characteristic):
    known = set(cards)
    for seed in range(5):
        game, _ = start_cardline(deck, characteristic, 4, SEATS, "table", seed)
        dealt = slugs_in(game.state, known)
        assert dealt and all(has_value(cards[s], characteristic) for s in dealt), characteristic
        practice, _ = start_practice(deck, characteristic, 8, "line", seed)
        dealt = slugs_in(practice.state, known)
        assert dealt and all(has_value(cards[s], characteristic) for s in dealt), characteristic


@pytest.mark.parametrize(("deck", "characteristic"), [*PLAYS, ("dinosaurs", "diet"), ("animals", "diet")])
def test_a_classroom_round_deals_only_cards_with_a_value(cards, deck, characteristic):
    teacher = Teacher(id=0, email="t@example.org", name="T", password_hash="x")
    for choice in ({"choice": "all"}, {"choice": "filter", "group": cards[next(iter(cards))].group}):
        values = chosen_values(teacher, {"deck": deck, "characteristic": characteristic, **choice})
        assert all(has_value(cards[slug], characteristic) for slug in values)


# What each kind of quiz question asks about, and the cards it may name.
QUESTION_FIELDS = {"heavier": "mass_kg", "longer": "length_m", "order": "mass_kg", "earlier": "first_appearance_ma",
                   "diet": "diet", "period": "first_period", "met": "first_appearance_ma"}


QUIZZES = [(kind, deck) for kind in sorted(QUESTION_FIELDS) for deck in ("dinosaurs", "animals", "both")
           if kind not in trivia.PREHISTORIC_KINDS or deck == "dinosaurs"]


@pytest.mark.parametrize(("kind", "deck"), QUIZZES)
def test_a_quiz_asks_only_about_cards_with_a_value(cards, kind, deck):
    pool = quizzes.card_dicts(deck)
    periods = [p.name for p in quizzes.all_periods()]
    field = QUESTION_FIELDS[kind]
    asked = 0
    for seed in range(20):
        try:
            question = trivia.question(kind, pool, random.Random(seed), "medium", periods)
        except trivia.NoQuestion:
            continue
        asked += 1
        named = {option["id"] for option in question["options"]} & set(cards)
        if kind in ("diet", "period", "met"):  # the options are words: the cards are the ones the prompt names
            named = {c["slug"] for c in pool if c["common_name"] in question["prompt"]}
            assert any(getattr(cards[slug], field) is not None for slug in named), question["prompt"]
            continue
        assert named
        for slug in named:
            assert getattr(cards[slug], field) is not None, (kind, slug)
    assert asked
