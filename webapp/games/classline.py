"""Class line: the whole class places the same card into one shared line, turn after turn.

The engine holds the line and the cards to come; students' answers (gaps) are checked against it, and
the teacher's moves (reveal, next, skip) move it on. Pure Python, JSON state; the turn flow is
webapp.games.classturns'.
"""

import random
from bisect import bisect_left, bisect_right

from webapp.games import classturns
from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.classturns import TYPE, current_card, end, hidden, is_over, legal_actions, result

__all__ = ["NAME", "TYPE", "answers", "apply", "check_answer", "current_card", "end", "example_configs", "hidden",
           "is_over", "legal_actions", "new_game", "observation", "result", "right_gaps"]

NAME = "classline"
MIN_CARDS, MAX_CARDS = 3, 40


def new_game(config, seed):
    """Choose `count` cards to place plus one to start the line, with `seed`."""
    cards, count = config.get("cards"), config.get("count", 10)
    if not isinstance(count, int) or isinstance(count, bool) or not MIN_CARDS <= count <= MAX_CARDS:
        raise InvalidConfig(f"A class line has {MIN_CARDS} to {MAX_CARDS} cards to place.")
    if not isinstance(cards, dict) or len(cards) < count + 1:
        raise InvalidConfig(f"There are only {len(cards or {})} cards with a known value: choose fewer or widen the choice.")
    chosen = random.Random(seed).sample(sorted(cards), count + 1)
    return {"game": NAME, "characteristic": config.get("characteristic", ""),
            "values": {c: cards[c] for c in chosen}, "line": chosen[:1], "cards": chosen[1:],
            "turn": 0, "phase": "answering", "reveals": []}


def right_gaps(state):
    """Return (first, last): the gaps of the line where the current card belongs (equal values either side)."""
    line_values = [state["values"][c] for c in state["line"]]
    value = state["values"][current_card(state)]
    return bisect_left(line_values, value), bisect_right(line_values, value)


def answers(state):
    """Return the gaps a student may choose now."""
    return list(range(len(state["line"]) + 1)) if state["phase"] == "answering" else []


def check_answer(state, gap):
    """Raise IllegalAction unless `gap` is a place in the line while answers are open."""
    classturns.check_phase(state)
    last = len(state["line"])
    if not classturns.whole_number_below(gap, last + 1):
        raise IllegalAction(f"There is no such place in the line: choose a gap from 0 to {last}.")


def reveal(state):
    """Turn the current card over and put it in its place; answers close."""
    record = classturns.reveal_record(state)
    card = record["card"]
    first, last = right_gaps(state)
    line = state["line"][:first] + [card] + state["line"][first:]
    record.update(value=state["values"][card], right_gaps=[first, last], line_before=list(state["line"]))
    return {**state, "line": line, "phase": "revealed", "reveals": state["reveals"] + [record]}


def apply(state, action):
    """Apply the teacher's move (reveal, next, skip); raise IllegalAction with a reason if it does not apply now."""
    return classturns.apply(state, action, reveal)


def observation(state, viewer=None):
    """Return what everyone may see: the line with values, the current card's name only, every reveal so far."""
    return {
        "game": NAME,
        "characteristic": state["characteristic"],
        "line": [{"card": c, "value": state["values"][c]} for c in state["line"]],
        "current": current_card(state) if state["phase"] == "answering" else None,
        "turn": state["turn"],
        "turns": len(state["cards"]),
        "phase": state["phase"],
        "last_reveal": state["reveals"][-1] if state["reveals"] else None,
        "reveals": list(state["reveals"]),
    }


def example_configs():
    """Return small class lines for the tests (equal values included)."""
    cards = {"c1": 1.0, "c2": 2.0, "c3": 2.0, "c4": 4.5, "c5": 8.0, "c6": 0.5}
    return [{"cards": cards, "count": 3, "characteristic": "mass"}, {"cards": cards, "count": 5}]
