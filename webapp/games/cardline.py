"""Cardline (Dinosaurs and Animals editions): place face-down cards into a line ordered by a
characteristic; the first player to be the only one to place their last card correctly wins.

Rules decided where the rulebooks are silent (also shown to players on the rules page):

- Rounds: a round is one turn for each player still in the game, in seat order from the first
  player. "Only one to place their last card during a round" is judged when the round ends.
- Ties: if several players place their last card correctly in the same round, everyone else is
  eliminated and each tied player draws one card; play goes on in rounds among them.
- Empty deck: if a player must draw and the deck is empty, the misplaced card goes back to their
  hand (nothing to replace it with) and the game ends at once. The player(s) with the fewest
  cards win; equal counts share the win. If the deck cannot give every tied player a card, the
  tied players share the win.
- Equal values may sit side by side in either order, so a card is correct anywhere between the
  first and the last card of equal value.

A config may give each card the (low, high) range its published estimates span ("ranges"): what the
computer players know of a card (webapp/games/cardline_bots.py), never its true value.
"""

import math
import random
from bisect import bisect_left, bisect_right

from webapp.games import cardline_bots
from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.protocol import EngineType

NAME = "cardline"
# Timers: a classroom team round plays it against the teacher's clock.
TYPE = EngineType(computer_players=True, hidden_information=True, timers=True)
MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_HAND_SIZE = 12
RECENT_MOVES = 8


def new_game(config, seed):
    """Return a new game: shuffle the cards with `seed`, deal, and start the line."""
    cards = config.get("cards")
    players = config.get("players")
    hand_size = config.get("hand_size", 4)
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidConfig(f"Cardline needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    if not isinstance(hand_size, int) or not 1 <= hand_size <= MAX_HAND_SIZE:
        raise InvalidConfig(f"Deal between 1 and {MAX_HAND_SIZE} cards to each player.")
    if not isinstance(cards, dict) or not all(_is_number(v) for v in cards.values()):
        raise InvalidConfig("Every card needs a known value for the chosen characteristic.")
    needed = len(players) * hand_size + 1
    if len(cards) < needed:
        raise InvalidConfig(
            f"{len(players)} players with {hand_size} cards each need at least {needed} cards; "
            f"this deck has {len(cards)}.")
    first = config.get("first_player", 0)
    if not isinstance(first, int) or not 0 <= first < len(players):
        raise InvalidConfig("The first player must be one of the seats.")
    ranges = config.get("ranges") or {}
    if not isinstance(ranges, dict) or not all(_is_range(ranges[c], cards[c]) for c in ranges if c in cards):
        raise InvalidConfig("Each range must be [low, high] around the card's value.")
    deck = sorted(cards)
    random.Random(seed).shuffle(deck)
    hands = [[deck.pop() for _ in range(hand_size)] for _ in players]
    line = [deck.pop()]
    seats = list(range(len(players)))
    order = seats[first:] + seats[:first]
    return {
        "game": NAME,
        "characteristic": config.get("characteristic", ""),
        "values": dict(cards),
        "ranges": {card: [float(end) for end in ranges[card]] for card in ranges if card in cards},
        "players": [str(p) for p in players],
        "first_player": first,
        "deck": deck,
        "line": line,
        "box": [],
        "hands": hands,
        "active": order,
        "eliminated": [],
        "round": {"number": 1, "to_play": order[1:], "finished": []},
        "turn": order[0],
        "winners": [],
        "end_reason": None,
        "history": [],
    }


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_range(pair, value):
    return (isinstance(pair, list | tuple) and len(pair) == 2 and all(_is_number(x) for x in pair)
            and pair[0] <= value <= pair[1])


def current_player(state):
    """Return the seat to act, or None when the game is over."""
    return state["turn"]


def is_over(state):
    """Say whether the game has ended."""
    return state["turn"] is None


def legal_actions(state):
    """Return every placement open to the current player: each card in hand, each gap."""
    if is_over(state):
        return []
    gaps = range(len(state["line"]) + 1)
    return [{"type": "place", "card": card, "gap": gap}
            for card in state["hands"][state["turn"]] for gap in gaps]


def correct_gaps(state, card):
    """Return (first, last): the gaps where `card` would be placed correctly."""
    values = state["values"]
    line_values = [values[c] for c in state["line"]]
    value = values[card]
    return bisect_left(line_values, value), bisect_right(line_values, value)


def check(state, player, action):
    """Raise IllegalAction with a reason unless `player` may play `action` now."""
    if is_over(state):
        raise IllegalAction("The game is over.")
    if player != state["turn"]:
        name = state["players"][state["turn"]]
        raise IllegalAction(f"It is not your turn: it is {name}'s turn.")
    if not isinstance(action, dict) or action.get("type", "place") != "place":
        raise IllegalAction("The only action in Cardline is placing a card: give a card and a gap.")
    card, gap = action.get("card"), action.get("gap")
    if not isinstance(card, str) or card not in state["hands"][player]:
        raise IllegalAction("That card is not in your hand.")
    last_gap = len(state["line"])
    if not isinstance(gap, int) or isinstance(gap, bool) or not 0 <= gap <= last_gap:
        raise IllegalAction(f"There is no such place in the line: choose a gap from 0 to {last_gap}.")


def apply(state, player, action):
    """Return the state after `player` places a card; the given state is never changed."""
    check(state, player, action)
    card, gap = action["card"], action["gap"]
    first, last = correct_gaps(state, card)
    correct = first <= gap <= last
    state = {**state, "hands": [list(h) for h in state["hands"]], "round": dict(state["round"])}
    hand = state["hands"][player]
    hand.remove(card)
    line = state["line"]
    move = {"player": player, "card": card, "gap": gap, "correct": correct,
            "value": state["values"][card], "correct_gaps": [first, last], "drew": False,
            # The revealed neighbours of the right place, to show where a card belonged.
            "belongs_after": line[first - 1] if first > 0 else None,
            "belongs_before": line[last] if last < len(line) else None}
    if correct:
        state["line"] = state["line"][:gap] + [card] + state["line"][gap:]
        if not hand:
            state["round"]["finished"] = state["round"]["finished"] + [player]
    elif state["deck"]:
        state["box"] = state["box"] + [card]
        hand.append(state["deck"][-1])
        state["deck"] = state["deck"][:-1]
        move["drew"] = True
    else:
        hand.append(card)
        state["history"] = state["history"] + [move]
        return _end({**state, "last_passed": None}, "deck exhausted", _fewest_cards(state))
    state["history"] = state["history"] + [move]
    return _advance({**state, "last_passed": None})


def _advance(state):
    """Pass the turn on; at the end of a round, settle wins, ties and eliminations."""
    round_ = state["round"]
    if round_["to_play"]:
        state["turn"], round_["to_play"] = round_["to_play"][0], round_["to_play"][1:]
        return state
    finished = round_["finished"]
    if len(finished) == 1:
        return _end(state, "last card", finished)
    if len(finished) > 1:
        if len(state["deck"]) < len(finished):
            return _end(state, "deck exhausted", finished)
        state["eliminated"] = state["eliminated"] + [s for s in state["active"] if s not in finished]
        state["active"] = [s for s in state["active"] if s in finished]
        deck = list(state["deck"])
        for seat in state["active"]:
            state["hands"][seat].append(deck.pop())
        state["deck"] = deck
    order = state["active"]
    state["round"] = {"number": round_["number"] + 1, "to_play": order[1:], "finished": []}
    state["turn"] = order[0]
    return state


def _fewest_cards(state):
    fewest = min(len(state["hands"][s]) for s in state["active"])
    return [s for s in state["active"] if len(state["hands"][s]) == fewest]


def _end(state, reason, winners):
    state["turn"] = None
    state["winners"] = sorted(winners)
    state["end_reason"] = reason
    state["round"] = {**state["round"], "to_play": []}
    return state


def result(state):
    """Return the winners and how the game ended, or None while it is being played."""
    if not is_over(state):
        return None
    return {
        "winners": state["winners"],
        "reason": state["end_reason"],
        "cards_left": [len(h) for h in state["hands"]],
    }


def player_status(state, seat):
    """Name a seat's standing: playing, eliminated, won or lost."""
    if seat in state["winners"]:
        return "won"
    if seat in state["eliminated"]:
        return "eliminated"
    return "lost" if is_over(state) else "playing"


def _revealed(state, card):
    return {"card": card, "value": state["values"][card]}


def observation(state, viewer=None):
    """Return what seat `viewer` may see (None: a spectator). Face-down values never appear."""
    passed = state.get("passed_by") or [0] * len(state["players"])
    players = [
        {"seat": seat, "name": name, "hand_size": len(state["hands"][seat]),
         "status": player_status(state, seat), "passed": passed[seat]}
        for seat, name in enumerate(state["players"])
    ]
    return {
        "game": NAME,
        "characteristic": state["characteristic"],
        "viewer": viewer,
        "players": players,
        "hand": list(state["hands"][viewer]) if viewer is not None else None,
        "line": [_revealed(state, card) for card in state["line"]],
        "box": [_revealed(state, card) for card in state["box"]],
        "deck_size": len(state["deck"]),
        "turn": state["turn"],
        "round": state["round"]["number"],
        "over": is_over(state),
        "result": result(state),
        "recent": state["history"][-RECENT_MOVES:],
        # The seat whose turn passed without a card (a team's time ran out, or the teacher skipped it), if that was
        # the last thing to happen.
        "last_passed": state.get("last_passed"),
        "passed_turns": [list(turn) for turn in state.get("passed_turns", [])],  # [turn number, seat], oldest first
        "placed_turns": placed_turns(state),  # {card: the turn it joined the line at}: the line as it stood then
    }


def hidden(state, viewer):
    """Return what seat `viewer` (None: a spectator) must not learn: others' cards, the deck, unrevealed values."""
    revealed = set(state["line"]) | set(state["box"]) | {move["card"] for move in state["history"]}
    unseen = [card for seat, hand in enumerate(state["hands"]) if seat != viewer for card in hand] + state["deck"]
    return ({card for card in unseen if card not in revealed}
            | {(card, value) for card, value in state["values"].items() if card not in revealed})


EXAMPLE_CARDS = {f"c{n}": value for n, value in
                 enumerate([0.5, 1.25, 1.25, 2.0, 3.5, 4.75, 4.75, 6.0, 8.5, 10.25, 12.0, 15.5], start=1)}


def example_configs():
    """Return small valid set-ups over a dozen made-up cards (some of equal value; ranges in the first), 2 to 4 players."""
    return [
        {"players": ["Ada", "Ben"], "cards": dict(EXAMPLE_CARDS), "characteristic": "mass",
         "ranges": {card: [value * 0.8, value * 1.25] for card, value in EXAMPLE_CARDS.items()}},
        {"players": ["Ada", "Ben", "Cy", "Dee"], "cards": dict(EXAMPLE_CARDS), "hand_size": 2, "first_player": 1},
        # One card each: games end on a last card, often with ties, not only when the deck runs out.
        {"players": ["Ada", "Ben", "Cy"], "cards": dict(EXAMPLE_CARDS), "hand_size": 1},
    ]


# Computer players (webapp/games/cardline_bots.py): each level is defined by what it knows of a card.
BOT_LEVELS = cardline_bots.LEVELS


def published(state, card):
    """Return (low, high): the range the published estimates of `card` span, or its one typical value twice."""
    if card in state.get("ranges", {}):
        return tuple(state["ranges"][card])
    # No range is published (lifespans, periods): the typical value is what the card data says of it.
    return state["values"][card], state["values"][card]


def computer_move(state, seat, level, seed, rng):
    """Return the move of a computer player of `level`: its observation and the published facts of its hand."""
    seen = observation(state, seat)
    known = cardline_bots.beliefs(level, {card: published(state, card) for card in seen["hand"]},
                                  seen["characteristic"], seed)
    return cardline_bots.choose(seen, legal_actions(state), rng, known)


def pass_turn(state):
    """Return the state with the current player's turn passed without a move (a teacher's skip)."""
    if is_over(state):
        raise IllegalAction("The game is over.")
    seat = state["turn"]
    passed = list(state.get("passed_by") or [0] * len(state["players"]))
    passed[seat] += 1
    turns = [*state.get("passed_turns", []), [turn_number(state), seat]]
    return _advance({**state, "round": dict(state["round"]), "hands": [list(h) for h in state["hands"]],
                     "passes": state.get("passes", 0) + 1, "passed_by": passed, "last_passed": seat,
                     "passed_turns": turns})


def turn_number(state):
    """Count the turns taken so far, moves and passes alike."""
    return len(state["history"]) + state.get("passes", 0)


def placed_turns(state):
    """Return {card: the turn it joined the line at} for each card a move placed right, turns numbered as
    turn_number numbers them (the cards dealt into the line at the start have none)."""
    passed = {turn for turn, _seat in state.get("passed_turns", [])}
    placed, turn = {}, 0
    for move in state["history"]:
        while turn in passed:
            turn += 1
        if move["correct"]:
            placed[move["card"]] = turn
        turn += 1
    return placed
