"""Class diet sort: the whole class puts the same card into a diet bin (carnivore, herbivore, omnivore).

The turn flow is the class line's (the current card, reveal, next, skip, end); an answer is the index of a
bin. Pure Python, JSON state.
"""

import random

from webapp.games.base import IllegalAction, InvalidConfig

# The turn flow is the class line's: the cards to sort stand where its cards to place do.
from webapp.games.classline import current_card, end, is_over, next_card, skip

__all__ = ["BINS", "check_answer", "current_card", "end", "is_over", "new_game", "next_card", "observation",
           "reveal", "reveals", "right_gaps", "skip"]

NAME = "classbins"
BINS = ("carnivore", "herbivore", "omnivore")
MIN_CARDS, MAX_CARDS = 3, 40


def new_game(config, seed):
    """Choose `count` cards with a known diet, with `seed`."""
    cards, count = config.get("cards"), config.get("count", 10)
    if not isinstance(count, int) or isinstance(count, bool) or not MIN_CARDS <= count <= MAX_CARDS:
        raise InvalidConfig(f"A diet sort has {MIN_CARDS} to {MAX_CARDS} cards.")
    known = {slug: diet for slug, diet in (cards or {}).items() if diet in BINS}
    if len(known) < count:
        raise InvalidConfig(f"There are only {len(known)} cards with a known diet: choose fewer or widen the choice.")
    chosen = random.Random(seed).sample(sorted(known), count)
    return {"game": NAME, "characteristic": "diet", "values": {c: known[c] for c in chosen}, "line": [],
            "cards": chosen, "turn": 0, "phase": "answering", "reveals": []}


def right_gaps(state):
    """Return (first, last): the right bin's index, twice (one bin is right)."""
    index = BINS.index(state["values"][current_card(state)])
    return index, index


def check_answer(state, gap):
    """Raise IllegalAction unless `gap` is a bin while answers are open."""
    if state["phase"] != "answering":
        raise IllegalAction("Answers are closed for this card.")
    if not isinstance(gap, int) or isinstance(gap, bool) or not 0 <= gap < len(BINS):
        raise IllegalAction("Choose one of the three bins: carnivore, herbivore or omnivore.")


def reveal(state):
    """Say what the current card ate; answers close."""
    if state["phase"] != "answering":
        raise IllegalAction("There is no card waiting to be revealed.")
    card = current_card(state)
    record = {"turn": state["turn"], "card": card, "value": state["values"][card], "right_gaps": list(right_gaps(state))}
    return {**state, "phase": "revealed", "reveals": state["reveals"] + [record]}


def reveals(state):
    """Return every reveal so far, oldest first (each was shown to the whole class)."""
    return list(state["reveals"])


def observation(state):
    """Return what everyone may see: the bins, the sorted cards with their diets, the current card's name only."""
    shown = [r for r in state["reveals"] if not r.get("skipped")]
    return {"game": NAME, "characteristic": "diet", "bins": list(BINS), "turn": state["turn"],
            "turns": len(state["cards"]), "phase": state["phase"],
            "current": current_card(state) if state["phase"] == "answering" else None,
            "sorted": [{"card": r["card"], "value": r["value"]} for r in shown],
            "last_reveal": state["reveals"][-1] if state["reveals"] else None}
