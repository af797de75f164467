"""The turn flow every whole-class engine shares: one item at a time is answered, revealed, then the next.

An engine's state holds "cards" (the items in order: card slugs or question ids), "turn", "phase"
(answering, revealed, over) and "reveals" (what each reveal showed the class). The engine gives its own
reveal; the rest of the flow is here. Pure Python, JSON state.
"""

from webapp.games.base import IllegalAction
from webapp.games.protocol import EngineType

TYPE = EngineType(hidden_information=True, timers=True)
TEACHER_MOVES = ("reveal", "next", "skip")


def is_over(state):
    """Say whether every item has been revealed or skipped (or the round was ended)."""
    return state["phase"] == "over"


def current_card(state):
    """Return the item the class is answering (or has just seen revealed), or None."""
    return None if is_over(state) else state["cards"][state["turn"]]


def legal_actions(state):
    """Return the teacher's moves that apply now."""
    return {"answering": [{"type": "reveal"}, {"type": "skip"}], "revealed": [{"type": "next"}]}.get(state["phase"], [])


def apply(state, action, reveal):
    """Apply a teacher's move, with the engine's own `reveal`; raise IllegalAction with a reason if it does not apply."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind not in TEACHER_MOVES:
        raise IllegalAction(f"Unknown move: the teacher may {', '.join(TEACHER_MOVES)}.")
    return {"reveal": reveal, "next": next_card, "skip": skip}[kind](state)


def next_card(state):
    """Move on to the next item after a reveal (or end when none is left)."""
    if state["phase"] != "revealed":
        raise IllegalAction("Reveal the card before moving on.")
    return _advance(state)


def skip(state):
    """Put the current item aside unanswered and unscored, and move on."""
    if state["phase"] != "answering":
        raise IllegalAction("Only a card still being answered can be skipped.")
    record = {"turn": state["turn"], "card": current_card(state), "skipped": True}
    return _advance({**state, "reveals": state["reveals"] + [record]})


def end(state):
    """Finish now."""
    return {**state, "phase": "over"}


def result(state):
    """Return how many items were revealed and skipped, once over."""
    if not is_over(state):
        return None
    skipped = sum(1 for record in state["reveals"] if record.get("skipped"))
    return {"revealed": len(state["reveals"]) - skipped, "skipped": skipped}


def check_phase(state, noun="card"):
    """Raise IllegalAction unless answers are open."""
    if state["phase"] != "answering":
        raise IllegalAction(f"Answers are closed for this {noun}.")


def reveal_record(state, noun="card"):
    """Return the start of a reveal's record; raise IllegalAction unless an item waits to be revealed."""
    if state["phase"] != "answering":
        raise IllegalAction(f"There is no {noun} waiting to be revealed.")
    return {"turn": state["turn"], "card": current_card(state)}


def upcoming(state):
    """Return the items not yet shown to the class (the current one is shown while it is answered)."""
    return state["cards"][state["turn"] + 1:]


def hidden(state, viewer=None):
    """Return what the class must not learn now: the cards to come, and the current card's value before its reveal."""
    secrets = set(upcoming(state))
    if state["phase"] == "answering":
        card = current_card(state)
        secrets.add((card, state["values"][card]))
    return secrets


def whole_number_below(answer, count):
    """Say whether `answer` is an int from 0 to count - 1 (True and False are not)."""
    return isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < count


def _advance(state):
    turn = state["turn"] + 1
    if turn >= len(state["cards"]):
        return {**state, "turn": turn, "phase": "over"}
    return {**state, "turn": turn, "phase": "answering"}
