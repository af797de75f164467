"""Solo sorting challenges: order cards by a characteristic, or sort them into diet bins.

Four modes, one player (seat 0):

- ``line``: one card at a time. The first card starts the line face up; each next card is placed
  into a gap. A wrong card is then put where it belongs, so the line always grows and shows the
  truth.
- ``endless``: the line mode over the whole deck with three lives, in the spirit of Wikitrivia: each
  wrong card costs a life, and the challenge ends when the lives or the cards run out.
- ``all``: every card at once. The player sends the whole order; each card whose value matches
  the value at its position in the true order counts as right (equal values may swap).
- ``bins``: one card at a time into carnivore, herbivore or omnivore.

Score = right answers; the streak counts right answers in a row.

Fairness: a config may give each card the (low, high) range published estimates span. A placement
that is wrong by the typical values but that no range contradicts (every card it was put after
could be lighter, every card it was put before could be heavier) counts as right and is marked
``close``: too close to call, because the estimates overlap.
"""

import random
from bisect import bisect_left, bisect_right

from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.protocol import EngineType

NAME = "practice"
TYPE = EngineType(hidden_information=True)
MODES = ("line", "all", "bins", "endless")
ONE_AT_A_TIME_INTO_A_LINE = ("line", "endless")
LIVES = 3
DIET_BINS = ("carnivore", "herbivore", "omnivore")
MIN_CARDS, MAX_CARDS = 3, 20


def new_game(config, seed):
    """Deal `count` cards (the endless mode: every card) chosen and shuffled with `seed` from the config's cards.

    A config's ``deal`` (the cards in order; in the line mode the first starts the line) replaces the random one.
    """
    mode, count, cards = config.get("mode"), config.get("count", 8), config.get("cards")
    if mode not in MODES:
        raise InvalidConfig(f"Choose a mode: {', '.join(MODES)}.")
    if mode == "endless":
        count = max(len(cards) - 1, MIN_CARDS) if isinstance(cards, dict) else MIN_CARDS
    elif not isinstance(count, int) or isinstance(count, bool) or not MIN_CARDS <= count <= MAX_CARDS:
        raise InvalidConfig(f"Practise with {MIN_CARDS} to {MAX_CARDS} cards.")
    # In the line modes one more card starts the line face up.
    line = mode in ONE_AT_A_TIME_INTO_A_LINE
    dealt = count + 1 if line else count
    if not isinstance(cards, dict) or len(cards) < dealt:
        raise InvalidConfig(f"There are not enough cards with a known value for {count} cards.")
    if mode == "bins" and not set(cards.values()) <= set(DIET_BINS):
        raise InvalidConfig("Diet bins need each card's diet: carnivore, herbivore or omnivore.")
    ranges = config.get("ranges") or {}
    if not isinstance(ranges, dict) or not all(_is_range(ranges[c], cards[c]) for c in ranges if c in cards):
        raise InvalidConfig("Each range must be [low, high] around the card's value.")
    chosen = _given_deal(config["deal"], cards, dealt, mode) if "deal" in config \
        else random.Random(seed).sample(sorted(cards), dealt)
    return {
        "game": NAME,
        "mode": mode,
        "characteristic": config.get("characteristic", ""),
        "values": {card: cards[card] for card in chosen},
        "ranges": {card: list(ranges[card]) for card in chosen if card in ranges},
        "cards": chosen,
        "line": chosen[:1] if line else [],
        "next": 1 if line else 0,
        "lives": LIVES if mode == "endless" else None,
        "answers": [],
        "streak": 0,
        "best_streak": 0,
    }


def _given_deal(deal, cards, dealt, mode):
    """Return a deal chosen outside the engine (the tricky cards' scheduler) once it is a fair one for this config."""
    if mode == "endless":
        raise InvalidConfig("The endless line deals the whole deck: it takes no given deal.")
    if not isinstance(deal, list) or len(deal) != dealt or len(set(map(str, deal))) != dealt \
            or not all(isinstance(card, str) and card in cards for card in deal):
        raise InvalidConfig(f"A given deal names {dealt} different cards, each with a known value.")
    return list(deal)


def _is_range(pair, value):
    return (isinstance(pair, list | tuple) and len(pair) == 2
            and all(isinstance(x, int | float) and not isinstance(x, bool) for x in pair)
            and pair[0] <= value <= pair[1])


def _span(state, card):
    value = state["values"][card]
    return state.get("ranges", {}).get(card, (value, value))


def surely_less(state, a, b):
    """Say whether every published estimate puts card `a` below card `b`."""
    return _span(state, a)[1] < _span(state, b)[0]


def current_player(state):
    """Return 0 while there is something to answer, else None."""
    return None if is_over(state) else 0


def is_over(state):
    """Say whether every card has been answered."""
    if state["mode"] == "all":
        return bool(state["answers"])
    return state["next"] >= len(state["cards"]) or state.get("lives") == 0


def current_card(state):
    """Return the card to answer now in the one-at-a-time modes, or None."""
    if state["mode"] == "all" or is_over(state):
        return None
    return state["cards"][state["next"]]


def legal_actions(state):
    """Return the answers open now."""
    if is_over(state):
        return []
    if state["mode"] in ONE_AT_A_TIME_INTO_A_LINE:
        return [{"type": "place", "gap": gap} for gap in range(len(state["line"]) + 1)]
    if state["mode"] == "bins":
        return [{"type": "bin", "diet": diet} for diet in DIET_BINS]
    return [{"type": "order", "cards": list(state["cards"])}]


def _right_gaps(state, card):
    line_values = [state["values"][c] for c in state["line"]]
    value = state["values"][card]
    return bisect_left(line_values, value), bisect_right(line_values, value)


def check(state, player, action):
    """Raise IllegalAction with a reason unless the action answers the current question."""
    if is_over(state):
        raise IllegalAction("This challenge is finished.")
    if player != 0:
        raise IllegalAction("This is a one-player challenge.")
    if not isinstance(action, dict):
        raise IllegalAction("Send an answer.")
    mode = state["mode"]
    if mode in ONE_AT_A_TIME_INTO_A_LINE:
        gap, last = action.get("gap"), len(state["line"])
        if not isinstance(gap, int) or isinstance(gap, bool) or not 0 <= gap <= last:
            raise IllegalAction(f"There is no such place in the line: choose a gap from 0 to {last}.")
    elif mode == "bins":
        if action.get("diet") not in DIET_BINS:
            raise IllegalAction(f"Choose a bin: {', '.join(DIET_BINS)}.")
    else:
        order = action.get("cards")
        if not isinstance(order, list) or not all(isinstance(c, str) for c in order) \
                or sorted(order) != sorted(state["cards"]):
            raise IllegalAction("Put every card in the order exactly once.")


def apply(state, player, action):
    """Return the state after answering; the given state is never changed."""
    check(state, player, action)
    mode = state["mode"]
    if mode == "all":
        return _apply_order(state, action["cards"])
    card = current_card(state)
    state = {**state, "answers": list(state["answers"]), "next": state["next"] + 1}
    if mode == "bins":
        right = state["values"][card] == action["diet"]
        answer = {"card": card, "answer": action["diet"], "right": right, "value": state["values"][card]}
    else:
        first, last = _right_gaps(state, card)
        gap = action["gap"]
        exact = first <= gap <= last
        close = not exact and not any(surely_less(state, card, c) for c in state["line"][:gap]) \
            and not any(surely_less(state, c, card) for c in state["line"][gap:])
        right = exact or close
        # The card joins the line where it belongs, so the line always shows the truth.
        # The cards it was put on the wrong side of: for a close call, those whose estimates overlap its own.
        passed = state["line"][gap:first] if gap < first else state["line"][last:gap]
        state["line"] = state["line"][:first] + [card] + state["line"][first:]
        answer = {"card": card, "answer": gap, "right": right, "close": close, "passed": passed,
                  "value": state["values"][card], "right_gaps": [first, last]}
    state["answers"].append(answer)
    if state.get("lives") and not right:
        state["lives"] -= 1
    return _count(state, [right])


def _apply_order(state, order):
    true_values = sorted(state["values"][card] for card in order)
    answers = []
    for position, card in enumerate(order):
        exact = state["values"][card] == true_values[position]
        # The places no published estimate rules out: after every card surely below it, before every one surely above.
        below = sum(surely_less(state, other, card) for other in order)
        above = sum(surely_less(state, card, other) for other in order)
        close = not exact and below <= position <= len(order) - 1 - above
        answers.append({"card": card, "answer": position, "right": exact or close, "close": close,
                        "value": state["values"][card],
                        "right_positions": [bisect_left(true_values, state["values"][card]),
                                            bisect_right(true_values, state["values"][card]) - 1]})
    line = sorted(order, key=lambda card: (state["values"][card], order.index(card)))
    state = {**state, "answers": answers, "line": line}
    return _count(state, [a["right"] for a in answers])


def _count(state, results):
    streak, best = state["streak"], state["best_streak"]
    for right in results:
        streak = streak + 1 if right else 0
        best = max(best, streak)
    return {**state, "streak": streak, "best_streak": best}


def result(state):
    """Return the score when finished, else None."""
    if not is_over(state):
        return None
    score = sum(a["right"] for a in state["answers"])
    return {"score": score, "out_of": len(state["answers"]), "best_streak": state["best_streak"],
            **({"lives": state["lives"]} if state.get("lives") is not None else {})}


def observation(state, viewer=0):
    """Return what the player may see: answered and face-up cards with values, the rest without."""
    over = is_over(state)
    return {
        "game": NAME,
        "mode": state["mode"],
        "characteristic": state["characteristic"],
        "lives": state.get("lives"),
        "line": [{"card": c, "value": state["values"][c]} for c in state["line"]]
        if state["mode"] != "bins" else [],
        "current": current_card(state),
        "to_order": list(state["cards"]) if state["mode"] == "all" and not over else [],
        "remaining": len(state["cards"]) - state["next"] if state["mode"] != "all" else (0 if over else len(state["cards"])),
        "answers": state["answers"],
        "score": sum(a["right"] for a in state["answers"]),
        "streak": state["streak"],
        "best_streak": state["best_streak"],
        "over": over,
        "result": result(state),
    }


def hidden(state, viewer=0):
    """Return what the player must not learn yet: the cards to come and each unanswered card's value."""
    if state["mode"] == "all":
        to_come, unanswered = [], [] if is_over(state) else state["cards"]
    else:
        to_come, unanswered = state["cards"][state["next"] + 1:], state["cards"][state["next"]:]
    return set(to_come) | {(card, state["values"][card]) for card in unanswered}


EXAMPLE_VALUES = {"c1": 0.5, "c2": 1.25, "c3": 1.25, "c4": 2.0, "c5": 3.5, "c6": 6.0}
EXAMPLE_RANGES = {"c1": [0.4, 0.6], "c2": [1.0, 1.5], "c3": [0.9, 2.2], "c4": [1.8, 2.5], "c5": [3.0, 4.0],
                  "c6": [5.0, 7.0]}
EXAMPLE_DIETS = {"c1": "carnivore", "c2": "herbivore", "c3": "omnivore", "c4": "herbivore", "c5": "carnivore"}


def example_configs():
    """Return small valid set-ups for tests, one per mode, over made-up cards."""
    return [
        {"mode": "line", "count": 4, "cards": dict(EXAMPLE_VALUES), "characteristic": "mass",
         "ranges": dict(EXAMPLE_RANGES)},
        {"mode": "all", "count": 5, "cards": dict(EXAMPLE_VALUES), "characteristic": "mass",
         "ranges": dict(EXAMPLE_RANGES)},
        {"mode": "bins", "count": 4, "cards": dict(EXAMPLE_DIETS), "characteristic": "diet"},
        {"mode": "endless", "cards": dict(EXAMPLE_VALUES), "characteristic": "mass", "ranges": dict(EXAMPLE_RANGES)},
        {"mode": "line", "count": 3, "cards": dict(EXAMPLE_VALUES), "characteristic": "mass",
         "ranges": dict(EXAMPLE_RANGES), "deal": ["c4", "c2", "c3", "c6"]},
    ]
