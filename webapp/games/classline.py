"""Class line: the whole class places the same card into one shared line, turn after turn.

The engine holds the line and the cards to come; students' answers are judged against it, and the
teacher's controls (reveal, next, skip) move it on. Pure Python, JSON state.
"""

import random
from bisect import bisect_left, bisect_right

from webapp.games.base import IllegalAction, InvalidConfig

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


def is_over(state):
    """Say whether every card has been placed or skipped."""
    return state["phase"] == "over"


def current_card(state):
    """Return the card the class is placing now, or None."""
    return None if is_over(state) else state["cards"][state["turn"]]


def right_gaps(state, card=None):
    """Return (first, last): the gaps of the line where the card belongs (equal values either side)."""
    card = card or current_card(state)
    line_values = [state["values"][c] for c in state["line"]]
    value = state["values"][card]
    return bisect_left(line_values, value), bisect_right(line_values, value)


def check_answer(state, gap):
    """Raise IllegalAction unless `gap` is a place in the line while answers are open."""
    if state["phase"] != "answering":
        raise IllegalAction("Answers are closed for this card.")
    last = len(state["line"])
    if not isinstance(gap, int) or isinstance(gap, bool) or not 0 <= gap <= last:
        raise IllegalAction(f"There is no such place in the line: choose a gap from 0 to {last}.")


def reveal(state):
    """Turn the current card over and put it in its place; answers close."""
    if state["phase"] != "answering":
        raise IllegalAction("There is no card waiting to be revealed.")
    card = current_card(state)
    first, last = right_gaps(state)
    line = state["line"][:first] + [card] + state["line"][first:]
    record = {"turn": state["turn"], "card": card, "value": state["values"][card], "right_gaps": [first, last],
              "line_before": list(state["line"])}
    return {**state, "line": line, "phase": "revealed", "reveals": state["reveals"] + [record]}


def next_card(state):
    """Move on to the next card after a reveal (or end when none is left)."""
    if state["phase"] != "revealed":
        raise IllegalAction("Reveal the card before moving on.")
    return _advance(state)


def skip(state):
    """Put the current card aside unplaced and unscored, and move on."""
    if state["phase"] != "answering":
        raise IllegalAction("Only a card still being answered can be skipped.")
    record = {"turn": state["turn"], "card": current_card(state), "skipped": True}
    return _advance({**state, "reveals": state["reveals"] + [record]})


def end(state):
    """Finish the class line now."""
    return {**state, "phase": "over"}


def _advance(state):
    turn = state["turn"] + 1
    if turn >= len(state["cards"]):
        return {**state, "turn": turn, "phase": "over"}
    return {**state, "turn": turn, "phase": "answering"}


def observation(state):
    """Return what everyone may see: the line with values, the current card's name only."""
    last = state["reveals"][-1] if state["reveals"] else None
    return {
        "game": NAME,
        "characteristic": state["characteristic"],
        "line": [{"card": c, "value": state["values"][c]} for c in state["line"]],
        "current": current_card(state) if state["phase"] == "answering" else None,
        "turn": state["turn"],
        "turns": len(state["cards"]),
        "phase": state["phase"],
        "last_reveal": last,
    }


def reveals(state):
    """Return every reveal so far, oldest first (each was shown to the whole class)."""
    return list(state["reveals"])
