"""Every sentence kind the app says about an animal, for every card: the tense fits (a koala is, a Stegosaurus was),
the measure is named ("Its shell is 1.35 m long"), names keep their capitals and numbers their units."""

import html
import re

import pytest
from flask import render_template_string

from webapp.extensions import db
from webapp.games import trivia
from webapp.games.words import living, significant
from webapp.models import Card
from webapp.play.quizzes import card_dicts

VALUE = """{% from 'play/cardline/_line.html' import value_sentence %}{{ value_sentence(key, v, periods, card) }}"""
DIET = """{% from 'macros.html' import diet_said %}{{ card.common_name }} {{ 'is' if card|living else 'was' }} {{ diet_said(card, card.diet) }}."""
PAST = re.compile(r"\b(was|weighed|did|ate)\b")
PRESENT = re.compile(r"\b(is|weighs|does|lives|eats)\b")
KEYS = {"length": "length_m", "mass": "mass_kg", "lifespan": "lifespan_years"}


def sentences(app):
    """Yield (card, key, sentence) for every card and every value sentence it has, and its diet sentence."""
    from webapp.cards.queries import all_periods

    with app.test_request_context():
        periods = {p.position: p for p in all_periods()}
        for card in db.session.scalars(db.select(Card)):
            for key, column in KEYS.items():
                if getattr(card, column):
                    yield card, key, render_template_string(VALUE, key=key, v=getattr(card, column), periods=periods, card=card)
            if card.diet:
                yield card, "diet", render_template_string(DIET, card=card)


def test_every_sentence_about_every_card_has_its_tense_its_measure_and_its_unit(app):
    said = list(sentences(app))
    assert len(said) > 400
    for card, key, sentence in said:
        sentence = html.unescape(" ".join(sentence.split()))
        wrong_tense = PAST if living(card) else PRESENT
        if key != "lifespan":  # a lifespan is said of living animals only, always in the present
            assert not wrong_tense.search(sentence.replace("an animal that eats", "")), (card.slug, sentence)
        assert sentence[0].isupper() and card.common_name in sentence or key != "diet", (card.slug, sentence)
        if key == "length":
            assert re.search(r"\d (m|cm|mm)\b", sentence) and not re.search(r"\d (m|cm|mm) (shell|wingspan|body)", sentence), \
                (card.slug, sentence)
        if key == "mass":
            assert re.search(r"\d (t|kg|g)$", sentence), (card.slug, sentence)
        if key == "lifespan":
            assert re.match(r"It lives [\d.,]+ (years?|months?|days?)$", sentence), (card.slug, sentence)


@pytest.mark.parametrize("kind", ["heavier", "longer", "diet", "not_dinosaur"])
def test_every_trivia_question_asks_in_the_tense_of_its_animals(app, kind):
    with app.app_context():
        cards = card_dicts("both")
    import random
    rng = random.Random(0)
    asked = 0
    for _ in range(200):
        try:
            question = trivia.question(kind, cards, rng, "easy")
        except trivia.NoQuestion:
            continue
        asked += 1
        named = [c for c in cards if c["common_name"] in question["prompt"] or c["common_name"] in question["explanation"]]
        text = question["prompt"] + " " + question["explanation"]
        if named and all(living(c) for c in named) and kind != "not_dinosaur":
            assert not re.search(r"\b(was|did)\b", text), text
        if named and not any(living(c) for c in named):
            assert not re.search(r"\b(is|does)\b", question["prompt"].replace("is not a dinosaur", "")), text
    assert asked


@pytest.mark.parametrize(("value", "digits", "written"), [(12.25, 3, "12.3"), (14.25, 3, "14.3"), (0.125, 2, "0.13"),
                                                         (2.5, 1, "3"), (12345.6, 3, "12,300"), (7.0, 3, "7")])
def test_numbers_round_half_up_as_people_do(value, digits, written):
    assert significant(value, digits) == written
