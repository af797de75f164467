"""Trivia questions generated from the card database, fair by construction.

Pure code over plain card dicts (no Flask, no database). A question is a JSON-safe dict:
{"id", "kind", "prompt", "options": [{"id", "text"}], "answer": option id (or, for ordering, the
option ids in order), "explanation"}.

Fairness: no question compares a value that is unknown; two sizes or weights are compared only
when the ranges their published estimates span do not overlap (the heavier one is heavier by every
estimate), and sizes only when measured the same way (total length with total length);
"who lived earlier" needs first appearances at least 5 million years (and 10%) apart; "did they
meet" is asked only of cards whose places and habitats are known, and only when the fossil ranges
overlap by more than the dating margin or are apart by more than it. They met when they lived at
the same time, on the same continent and in the same habitat. Difficulty is how close the compared
values are.
"""

import itertools
import math
import random

from cards_db import schema
from webapp.games import pictures
from webapp.games.words import article, joined, measure, tense

KINDS = {
    "earlier": "Which lived earlier?",
    "heavier": "Which was heavier?",
    "longer": "Which was bigger?",
    "diet": "What did it eat?",
    "period": "In which period did it first appear?",
    "met": "Did they ever meet?",
    "not_dinosaur": "Which of these is not a dinosaur?",
    "order": "Put them in order",
}
ORDER_KIND = "order"  # the kind whose questions put cards in order (the others are multiple choice)
# Kinds that need a card's dates or group: only prehistoric animals can be asked them.
PREHISTORIC_KINDS = {"earlier", "period", "met", "not_dinosaur"}
DIFFICULTY = {  # the ratio band (largest / smallest) that makes a comparison easy, medium or hard
    "easy": (10.0, math.inf),
    "medium": (3.0, 10.0),
    "hard": (1.0, 3.0),
}
DATING_MARGIN_MA = 5.0
TRIES = 200


class NoQuestion(Exception):
    """No fair question of this kind can be drawn from these cards."""


def _ma(value):
    return f"{value:g} million years ago" if value >= 1 else f"{value * 1_000_000:,.0f} years ago"


def _options(cards, rng, text=lambda c: c["common_name"]):
    order = list(cards)
    rng.shuffle(order)
    return [{"id": c["slug"], "text": text(c)} for c in order]


def _span(card, field):
    low, high = schema.RANGES[field]
    return card.get(low) or card[field], card.get(high) or card[field]


def surely_less(a, b, field):
    """Say whether every published estimate puts card `a` below card `b`."""
    return _span(a, field)[1] < _span(b, field)[0]


def _ratio_ok(a, b, field, difficulty):
    # Sizes are compared only when measured the same way (a wingspan is not a body length).
    if field == "length_m" and a.get("size_measure") != b.get("size_measure"):
        return False
    if not (surely_less(a, b, field) or surely_less(b, a, field)):
        return False
    low, high = sorted((a[field], b[field]))
    floor, ceiling = DIFFICULTY[difficulty]
    return floor <= high / low < ceiling


def _pair(cards, rng, test):
    if len(cards) < 2:
        raise NoQuestion
    for _ in range(TRIES):
        a, b = rng.sample(cards, 2)
        if test(a, b):
            return a, b
    raise NoQuestion


def _compare(cards, rng, difficulty, field, verb, unit_text):
    known = [c for c in cards if c.get(field)]
    a, b = _pair(known, rng, lambda x, y: _ratio_ok(x, y, field, difficulty))
    winner, loser = (a, b) if a[field] > b[field] else (b, a)
    word = "heavy" if field == "mass_kg" else "big"
    return {"prompt": f"Which {tense([a, b], 'is', 'was')} {verb}: {a['common_name']} or {b['common_name']}?",
            "options": _options([a, b], rng), "answer": winner["slug"],
            "explanation": f"{winner['common_name']}: {unit_text(winner[field])}, "
                           f"{pictures.picture(winner[field], 'mass' if field == 'mass_kg' else 'length')}. "
                           f"That is {pictures.times(winner[field], loser[field])} as {word} as "
                           f"{loser['common_name']} ({unit_text(loser[field])}), by every published estimate."}


def _earlier(cards, rng, difficulty):
    dated = [c for c in cards if c.get("first_appearance_ma") is not None]

    def fair(a, b):
        older, younger = sorted((a["first_appearance_ma"], b["first_appearance_ma"]), reverse=True)
        gap = older - younger
        if gap < max(DATING_MARGIN_MA, 0.1 * older):
            return False
        return {"easy": gap >= 100, "medium": 30 <= gap < 100, "hard": gap < 30}[difficulty]

    a, b = _pair(dated, rng, fair)
    winner = a if a["first_appearance_ma"] > b["first_appearance_ma"] else b
    return {"prompt": f"Which lived earlier: {a['common_name']} or {b['common_name']}?",
            "options": _options([a, b], rng), "answer": winner["slug"],
            "explanation": f"{a['common_name']} first appears {_ma(a['first_appearance_ma'])}; "
                           f"{b['common_name']} {_ma(b['first_appearance_ma'])}."}


def _shared(a, b, field):
    return [item for item in a.get(field) or [] if item in (b.get(field) or [])]


def _met(cards, rng, difficulty):
    dated = [c for c in cards if c.get("first_appearance_ma") is not None and c.get("continents") and c.get("habitat")]

    def separation(a, b):
        # Positive: years apart; negative: years of overlap.
        return max(a["last_appearance_ma"] - b["first_appearance_ma"], b["last_appearance_ma"] - a["first_appearance_ma"])

    def fair(a, b):
        apart = separation(a, b)
        if abs(apart) <= DATING_MARGIN_MA:
            return False
        if difficulty == "easy":
            return apart > 50 or apart < -DATING_MARGIN_MA
        if difficulty == "medium":
            return 15 < apart <= 50 or apart < -DATING_MARGIN_MA
        return DATING_MARGIN_MA < apart <= 15 or apart < -DATING_MARGIN_MA

    a, b = _pair(dated, rng, fair)
    options = [{"id": "yes", "text": "Yes, they could have met"},
               {"id": "no", "text": "No, they never met"}]
    answer, reason = met_verdict(a, b, separation(a, b) < 0)
    return {"prompt": f"Did {a['common_name']} and {b['common_name']} ever meet?", "options": options,
            "answer": answer, "explanation": reason}


def _when(card):
    if card["first_appearance_ma"] == card["last_appearance_ma"]:
        return f"about {_ma(card['first_appearance_ma'])}"
    return f"{_ma(card['first_appearance_ma'])} to {_ma(card['last_appearance_ma'])}".replace(
        " million years ago to ", " to ")


def met_verdict(a, b, same_time):
    """Return ("yes" or "no", the reason in words): time first, then place, then habitat."""
    name_a, name_b = a["common_name"], b["common_name"]
    if not same_time:
        older, younger = sorted((a, b), key=lambda c: -c["first_appearance_ma"])
        return "no", (f"No: they lived at different times. {older['common_name']} lived {_when(older)}, "
                      f"{younger['common_name']} {_when(younger)}.")
    places = _shared(a, b, "continents")
    if not places:
        return "no", (f"No: they lived at the same time but far apart. {name_a}'s fossils are found in "
                      f"{_list(a['continents'])}, {name_b}'s in {_list(b['continents'])}.")
    habitats = _shared(a, b, "habitat")
    if not habitats:
        return "no", (f"No: they lived at the same time and both are found in {_list(places)}, but {name_a} "
                      f"lived {_list(a['habitat'], schema.HABITAT_WORDS)} and {name_b} {_list(b['habitat'], schema.HABITAT_WORDS)}.")
    return "yes", (f"Yes: both lived at the same time ({name_a} {_when(a)}, {name_b} {_when(b)}), "
                   f"both are found in {_list(places)}, and both lived {_list(habitats, schema.HABITAT_WORDS)}.")


def _list(items, words=None):
    return joined(words.get(i, i) for i in items) if words else joined(items)


def _plain_diet(card):
    """Say whether an animal's diet is the plain kind a child guesses first: a plant eater or a meat eater, no more."""
    return card["diet"] in ("herbivore", "carnivore") and not card.get("diet_detail")


def _diet(cards, rng, difficulty):
    # Difficulty by how plain the diet is: easy asks plant and meat eaters, hard omnivores and specialists
    # (a fish eater, an insect eater), medium any.
    known = [c for c in cards if c.get("diet") and (difficulty == "medium" or _plain_diet(c) == (difficulty == "easy"))]
    if not known:
        raise NoQuestion
    card = rng.choice(known)
    options = [{"id": d, "text": d.capitalize()} for d in ("carnivore", "herbivore", "omnivore")]
    detail = f"; more exactly {article(card['diet_detail'])}, an animal that {schema.DIET_WORDS[card['diet_detail']]}" \
        if card.get("diet_detail") else ""
    return {"prompt": f"What {tense([card], 'does', 'did')} {card['common_name']} eat?", "options": options,
            "answer": card["diet"],
            "explanation": f"{card['common_name']} {tense([card], 'is', 'was')} {article(card['diet'])}, an animal that "
                           f"{schema.DIET_WORDS[card['diet']]}{detail}."}


def _period(cards, rng, difficulty, periods):
    dated = [c for c in cards if c.get("first_period")]
    if not dated:
        raise NoQuestion
    card = rng.choice(dated)
    right = periods.index(card["first_period"])
    spread = {"easy": 4, "medium": 2, "hard": 1}[difficulty]
    others = [p for i, p in enumerate(periods) if i != right and abs(i - right) >= spread]
    options = [card["first_period"]] + rng.sample(others, min(3, len(others)))
    rng.shuffle(options)
    return {"prompt": f"In which period did {card['common_name']} first appear?",
            "options": [{"id": p, "text": p} for p in options], "answer": card["first_period"],
            "explanation": f"{card['common_name']} first appears {_ma(card['first_appearance_ma'])}, "
                           f"in the {card['first_period']}."}


def _not_dinosaur(cards, rng, difficulty):
    # Birds are dinosaurs too: they are neither the odd one out nor a distractor, to stay fair.
    dinosaurs = [c for c in cards if c.get("group") == "dinosaur"]
    others = [c for c in cards if c.get("group") in ("pterosaur", "marine reptile", "reptile", "synapsid",
                                                      "mammal", "fish", "amphibian")]
    if len(dinosaurs) < 3 or not others:
        raise NoQuestion
    odd = rng.choice(others)
    options = _options(rng.sample(dinosaurs, 3) + [odd], rng)
    return {"prompt": "Which of these is not a dinosaur?", "options": options, "answer": odd["slug"],
            "explanation": f"{odd['common_name']} {tense([odd], 'is', 'was')} {article(odd['group'])}, not a dinosaur; "
                           "the others were dinosaurs."}


def _order(cards, rng, difficulty, field="mass_kg"):
    known = [c for c in cards if c.get(field)]
    for _ in range(TRIES):
        chosen = sorted(rng.sample(known, 4), key=lambda c: c[field])
        if all(surely_less(a, b, field) for a, b in itertools.pairwise(chosen)):
            return {"prompt": "Put these animals in order, lightest first.",
                    "options": _options(chosen, rng), "answer": [c["slug"] for c in chosen], "order": True,
                    "explanation": "; ".join(f"{c['common_name']}: {_mass(c[field])}" for c in chosen) + "."}
    raise NoQuestion


def _mass(kg):
    return measure("mass", kg)


def _length(metres):
    return measure("length", metres)


def question(kind, cards, rng, difficulty="medium", periods=()):
    """Draw one fair question of `kind`, or raise NoQuestion."""
    if kind == "heavier":
        q = _compare(cards, rng, difficulty, "mass_kg", "heavier", _mass)
    elif kind == "longer":
        q = _compare(cards, rng, difficulty, "length_m", "bigger (by its size on the card)", _length)
    elif kind == "earlier":
        q = _earlier(cards, rng, difficulty)
    elif kind == "met":
        q = _met(cards, rng, difficulty)
    elif kind == "diet":
        q = _diet(cards, rng, difficulty)
    elif kind == "period":
        q = _period(cards, rng, difficulty, list(periods))
    elif kind == "not_dinosaur":
        q = _not_dinosaur(cards, rng, difficulty)
    elif kind == "order":
        q = _order(cards, rng, difficulty)
    else:
        raise ValueError(f"unknown kind of question: {kind}")
    return {"kind": kind, "order": False, **q}


def quiz(kinds, cards, count, seed, difficulty="medium", periods=(), bank=()):
    """Return `count` questions mixing the kinds asked for (and authored ones from `bank`)."""
    rng = random.Random(seed)
    pool = list(bank)
    rng.shuffle(pool)
    questions, seen = [], set()
    attempts = 0
    while len(questions) < count and attempts < count * 20:
        attempts += 1
        if pool and (not kinds or rng.random() < 0.4):
            q = {"kind": "bank", "order": False, **pool.pop()}
        elif kinds:
            try:
                q = question(rng.choice(kinds), cards, rng, difficulty, periods)
            except NoQuestion:
                continue
        else:
            break
        # The same wording ("Which of these is not a dinosaur?") may ask about other animals.
        key = (q["prompt"], tuple(sorted(o["id"] for o in q["options"])))
        if key in seen:
            continue
        seen.add(key)
        questions.append({**q, "id": f"q{len(questions) + 1}"})
    return questions
