"""Trivia: generated questions are fair, answerable and right against the card database."""

import itertools
import random
import re

import pandas as pd
import pytest

from cards_db import read_cards, schema
from cards_db.loader import split_list
from webapp.games import IllegalAction, InvalidConfig, trivia
from webapp.games import quiz as qz

PERIODS_FRAME, CARDS_FRAME = read_cards()
PERIODS = list(PERIODS_FRAME["period"])
LISTS = ("continents", "countries", "habitat")
CARDS = [{k: split_list(v if isinstance(v, str) else "") if k in LISTS else (None if pd.isna(v) or v == "" else v) for k, v in row.items()}
         for row in CARDS_FRAME.to_dict("records")]
BY_SLUG = {c["slug"]: c for c in CARDS}
DINOSAURS_DECK = [c for c in CARDS if c["deck"] == "dinosaurs"]


def check_question(q):
    """Assert a question is answerable and its answer is right by the data."""
    ids = [o["id"] for o in q["options"]]
    assert len(ids) == len(set(ids)) >= 2
    if q["order"]:
        assert sorted(q["answer"]) == sorted(ids)
    else:
        assert q["answer"] in ids
    kind = q["kind"]
    if kind in ("heavier", "longer"):
        field = "mass_kg" if kind == "heavier" else "length_m"
        a, b = (BY_SLUG[i] for i in ids)
        assert a[field] and b[field]
        assert BY_SLUG[q["answer"]][field] == max(a[field], b[field])
        # The ranges of published estimates do not overlap: the answer is right by every estimate.
        lighter, heavier = sorted((a, b), key=lambda c: c[field])
        low, high = schema.RANGES[field]
        assert lighter[high] < heavier[low]
        if kind == "longer":
            assert a["size_measure"] == b["size_measure"]
    elif kind == "earlier":
        a, b = (BY_SLUG[i] for i in ids)
        assert BY_SLUG[q["answer"]]["first_appearance_ma"] == max(a["first_appearance_ma"], b["first_appearance_ma"])
        assert abs(a["first_appearance_ma"] - b["first_appearance_ma"]) >= trivia.DATING_MARGIN_MA
    elif kind == "met":
        names = q["prompt"][len("Did "):-len(" ever meet?")].split(" and ")
        a, b = (next(c for c in CARDS if c["common_name"] == n) for n in names)
        apart = max(a["last_appearance_ma"] - b["first_appearance_ma"], b["last_appearance_ma"] - a["first_appearance_ma"])
        assert abs(apart) > trivia.DATING_MARGIN_MA
        same_place = set(a["continents"]) & set(b["continents"]) and set(a["habitat"]) & set(b["habitat"])
        assert q["answer"] == ("yes" if apart < 0 and same_place else "no")
        assert q["explanation"].startswith("Yes" if q["answer"] == "yes" else "No")
    elif kind == "diet":
        name = re.fullmatch(r"What (?:did|does) (.+) eat\?", q["prompt"])[1]
        assert next(c for c in CARDS if c["common_name"] == name)["diet"] == q["answer"]
    elif kind == "period":
        name = q["prompt"][len("In which period did "):-len(" first appear?")]
        assert next(c for c in CARDS if c["common_name"] == name)["first_period"] == q["answer"]
    elif kind == "not_dinosaur":
        groups = [BY_SLUG[i]["group"] for i in ids]
        assert groups.count("dinosaur") == 3 and BY_SLUG[q["answer"]]["group"] not in ("dinosaur", "bird")
    elif kind == "order":
        chosen = [BY_SLUG[i] for i in q["answer"]]
        assert all(a["mass_high_kg"] < b["mass_low_kg"] for a, b in itertools.pairwise(chosen))


@pytest.mark.parametrize("kind", list(trivia.KINDS))
@pytest.mark.parametrize("difficulty", list(trivia.DIFFICULTY))
def test_generated_questions_are_right_and_fair(kind, difficulty):
    cards = CARDS if kind in ("heavier", "order") else DINOSAURS_DECK
    drawn = 0
    for seed in range(150):
        try:
            q = trivia.question(kind, cards, random.Random(seed), difficulty, PERIODS)
        except trivia.NoQuestion:
            continue
        check_question(q)
        drawn += 1
    assert drawn >= 100


@pytest.mark.parametrize(("difficulty", "low", "high"), [("easy", 10, float("inf")), ("hard", 1, 3)])
def test_difficulty_is_how_close_the_values_are(difficulty, low, high):
    for seed in range(50):
        q = trivia.question("heavier", CARDS, random.Random(seed), difficulty, PERIODS)
        a, b = (BY_SLUG[o["id"]]["mass_kg"] for o in q["options"])
        assert low <= max(a, b) / min(a, b) < high


def test_unknown_weights_are_never_compared():
    no_weight = [c for c in DINOSAURS_DECK if c["mass_kg"] is None]
    assert no_weight
    for seed in range(200):
        q = trivia.question("heavier", DINOSAURS_DECK, random.Random(seed), "medium", PERIODS)
        assert not {o["id"] for o in q["options"]} & {c["slug"] for c in no_weight}


@pytest.mark.parametrize(("first", "second", "reason"), [
    ("camptosaurus", "mamenchisaurus", "far apart"),
    ("megalodon", "argentavis", "lived in the sea"),
    ("stegosaurus", "tyrannosaurus", "different times"),
])
def test_they_did_not_meet_and_the_reason_is_said(first, second, reason):
    a, b = BY_SLUG[first], BY_SLUG[second]
    same_time = max(a["last_appearance_ma"] - b["first_appearance_ma"], b["last_appearance_ma"] - a["first_appearance_ma"]) < 0
    answer, explanation = trivia.met_verdict(a, b, same_time)
    assert answer == "no" and reason in explanation, explanation


def test_animals_that_shared_time_place_and_habitat_could_have_met():
    a, b = BY_SLUG["tyrannosaurus"], BY_SLUG["triceratops"]
    answer, explanation = trivia.met_verdict(a, b, True)
    assert answer == "yes" and "North America" in explanation and "on land" in explanation


def test_no_heavier_question_where_estimates_overlap():
    # Triceratops and Tyrannosaurus: both about 6 to 9 t by published estimates.
    pair = [BY_SLUG["tyrannosaurus"], BY_SLUG["triceratops"]]
    with pytest.raises(trivia.NoQuestion):
        trivia.question("heavier", pair, random.Random(1), "hard", PERIODS)


def test_a_quiz_mixes_kinds_without_repeating():
    questions = trivia.quiz(list(trivia.KINDS), DINOSAURS_DECK, 15, seed=4, periods=PERIODS)
    # No question twice: the same words may only ask about other animals ("Which of these is not a dinosaur?").
    assert len(questions) == 15 and len({(q["prompt"], frozenset(o["id"] for o in q["options"])) for q in questions}) == 15
    assert len({q["kind"] for q in questions}) >= 4
    for q in questions:
        check_question(q)


def play(questions):
    state = qz.new_game({"questions": questions})
    for _ in questions:
        state = qz.apply(state, 0, qz.legal_actions(state)[0])
    return state


def test_quiz_engine_hides_answers_until_answered():
    questions = trivia.quiz(["heavier", "diet"], CARDS, 5, seed=2, periods=PERIODS)
    state = qz.new_game({"questions": questions})
    obs = qz.observation(state)
    assert "answer" not in obs["current"] and "explanation" not in obs["current"]
    state = qz.apply(state, 0, qz.legal_actions(state)[0])
    assert "explanation" in qz.observation(state)["answered"][0]
    final = play(questions)
    assert qz.result(final)["out_of"] == 5


@pytest.mark.parametrize(("action", "message"), [
    ({"question": "q2", "choice": "x"}, "another question"),
    ({"question": "q1", "choice": "not-offered"}, "not one of the answers offered"),
    ("nonsense", "Send an answer"),
])
def test_quiz_engine_refuses_tampered_answers(action, message):
    questions = trivia.quiz(["heavier"], CARDS, 3, seed=1, periods=PERIODS)
    with pytest.raises(IllegalAction, match=message):
        qz.apply(qz.new_game({"questions": questions}), 0, action)
    with pytest.raises(InvalidConfig):
        qz.new_game({"questions": []})


def test_did_they_meet_is_never_asked_of_living_animals_and_never_crashes():
    animals = [c for c in CARDS if c["deck"] == "animals"]
    assert trivia.quiz(["met", "earlier"], animals, 10, seed=3, periods=PERIODS) == []


@pytest.mark.parametrize(("difficulty", "plain"), [("easy", True), ("hard", False)])
def test_diet_questions_are_harder_when_the_diet_is_less_plain(app, difficulty, plain):
    from webapp.play.quizzes import card_dicts

    with app.app_context():
        cards = {c["slug"]: c for c in card_dicts("dinosaurs")}
    rng = random.Random(1)
    for _ in range(40):
        question = trivia.question("diet", list(cards.values()), rng, difficulty)
        card = next(c for c in cards.values() if f"{c['common_name']} eat?" in question["prompt"])
        assert (card["diet"] in ("herbivore", "carnivore") and not card.get("diet_detail")) == plain, card["slug"]
