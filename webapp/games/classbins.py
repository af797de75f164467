"""Class diet sort: the whole class puts the same card into a diet bin (carnivore, herbivore, omnivore).

The turn flow is webapp.games.classturns' (the current card, reveal, next, skip, end); an answer is the
index of a bin. Pure Python, JSON state.
"""

import random

from webapp.games import classturns
from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.classturns import TYPE, current_card, end, hidden, is_over, legal_actions, result

__all__ = ["BINS", "NAME", "TYPE", "answers", "apply", "check_answer", "current_card", "end", "example_configs",
           "hidden", "is_over", "legal_actions", "new_game", "observation", "result", "right_gaps"]

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


def answers(state):
    """Return the bins a student may choose now (their indexes)."""
    return list(range(len(BINS))) if state["phase"] == "answering" else []


def check_answer(state, gap):
    """Raise IllegalAction unless `gap` is a bin while answers are open."""
    classturns.check_phase(state)
    if not classturns.whole_number_below(gap, len(BINS)):
        raise IllegalAction("Choose one of the three bins: carnivore, herbivore or omnivore.")


def right_gaps(state):
    """Return (first, last): the right bin's index, twice (one bin is right)."""
    index = BINS.index(state["values"][current_card(state)])
    return index, index


def reveal(state):
    """Say what the current card ate; answers close."""
    record = classturns.reveal_record(state)
    record.update(value=state["values"][record["card"]], right_gaps=list(right_gaps(state)))
    return {**state, "phase": "revealed", "reveals": state["reveals"] + [record]}


def apply(state, action):
    """Apply the teacher's move (reveal, next, skip); raise IllegalAction with a reason if it does not apply now."""
    return classturns.apply(state, action, reveal)


def observation(state, viewer=None):
    """Return what everyone may see: the bins, the sorted cards with their diets, the current card's name only."""
    shown = [r for r in state["reveals"] if not r.get("skipped")]
    return {"game": NAME, "characteristic": "diet", "bins": list(BINS), "turn": state["turn"],
            "turns": len(state["cards"]), "phase": state["phase"],
            "current": current_card(state) if state["phase"] == "answering" else None,
            "sorted": [{"card": r["card"], "value": r["value"]} for r in shown],
            "last_reveal": state["reveals"][-1] if state["reveals"] else None, "reveals": list(state["reveals"])}


def example_configs():
    """Return small diet sorts for the tests (a card of unknown diet left out)."""
    cards = {"c1": "carnivore", "c2": "herbivore", "c3": "omnivore", "c4": "herbivore", "c5": "unknown"}
    return [{"cards": cards, "count": 3}, {"cards": cards, "count": 4}]
