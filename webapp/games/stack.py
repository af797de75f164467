"""Stack-O-Saurus: draw a card, play a card; first to build the Dino Tower wins.

The Dino Tower is a black Apatosaurus followed by the four Balancing Dinosaurs in an order fixed
at the start. The rulebook's rules apply unless a house rule is chosen at set-up (each off by
default, each a key of the config and the state):

- `discard_any_time`: you may discard instead of playing. The rulebook: "If you cannot play,
  discard one card", so by default a discard is legal only when no play is.
- `sturdy_base`: the Apatosaurus cannot be scared; a scare needs a dinosaur above it. By the
  rulebook a Tyrannosaurus "scares the last dinosaur played", so a tower that is only its
  Apatosaurus loses it (a Scared-by-T-Rex matches a colour, and no colour is black) and must be
  started again with a new Apatosaurus.

Decisions where the rulebook is silent (also shown to players on the rules page):

- "From then on, if you draw an Apatosaurus discard it" is read as "while every tower is started":
  once a tower has lost its Apatosaurus, Apatosaurus cards are kept, taken and played again, and
  when every tower stands once more the spare ones are thrown away again. Thrown-away cards go to
  the discard pile, so a rebuilt draw pile brings them back: a tower is never lost for good.
- Drawing: the draw pile, or the top of the discard pile. When the draw pile is empty it is rebuilt
  from the discard pile (shuffled, top card flipped as the new discard pile); that needs at least
  two discarded cards. If neither pile can give a card, the player skips the draw and plays.
- Once every tower is started, an Apatosaurus is of no use: one drawn from the draw pile is
  discarded and replaced, and taking one from the discard pile is not allowed.
- A player with no card to play or discard passes.
- A game with no winner after 2,000 turns is a draw.
- The reference Dino Tower is built from the deck before the rest is shuffled ("A Dino Tower is
  created using cards from the deck"): an Apatosaurus and one dinosaur of each colour, so 41 cards
  are in play.
- A scare puts its two cards at the bottom of the discard pile "so that neither card can be drawn
  by the next player". They stay out of reach under the pile: the discard pile may be drawn from
  only while it holds a card discarded on top of them. When the pile is empty, the two cards are
  the whole pile and nobody may take them. A rebuild of the draw pile shuffles them in as usual.
"""

import random

from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.protocol import EngineType

NAME = "stack"
TYPE = EngineType(computer_players=True, hidden_information=True)
COLOURS = ("blue", "orange", "purple", "green")
MIN_PLAYERS, MAX_PLAYERS = 2, 6
MAX_TURNS = 2000
TOWER_HEIGHT = 5
# The house rules a set-up may choose, each off by default: the rulebook's rules are the game.
HOUSE_RULES = ("discard_any_time", "sturdy_base")
HOUSE_RULE_NAMES = {"discard_any_time": "you may discard instead of playing",
                    "sturdy_base": "the Apatosaurus cannot be scared"}
LOG_LENGTH = 12

# Card ids are short strings; KIND maps each to (kind, colour).
CARDS = (
    [f"apato-{i}" for i in range(1, 10)]
    + [f"{c}-{i}" for c in COLOURS for i in range(1, 7)]
    + [f"scare-{c}-{i}" for c in COLOURS for i in range(1, 3)]
    + [f"ptero-{i}" for i in range(1, 4)]
    + [f"trex-{i}" for i in range(1, 3)]
)
KIND = {}
for _card in CARDS:
    _parts = _card.split("-")
    if _parts[0] in COLOURS:
        KIND[_card] = ("dino", _parts[0])
    elif _parts[0] == "scare":
        KIND[_card] = ("scare", _parts[1])
    else:
        KIND[_card] = ({"apato": "apatosaurus", "ptero": "pterodactyl", "trex": "trex"}[_parts[0]], None)


CARDS_OF_KIND = {kind: [c for c in CARDS if KIND[c][0] == kind] for kind in ("apatosaurus", "pterodactyl", "trex")}
CARDS_OF_COLOUR = {colour: [c for c in CARDS if KIND[c] == ("dino", colour)] for colour in COLOURS}

# Actions are shared, never-mutated dicts: building them anew on every step is the engine's
# largest cost in random play.
DRAW_ACTIONS = {source: {"type": "draw", "source": source} for source in ("deck", "discard")}
PLAY_ACTIONS = {card: {"type": "play", "card": card} for card in CARDS}
DISCARD_ACTIONS = {card: {"type": "discard", "card": card} for card in CARDS}
SCARE_ACTIONS = {(card, target): {"type": "scare", "card": card, "target": target}
                 for card in CARDS if KIND[card][0] in ("scare", "trex") for target in range(MAX_PLAYERS)}


def _builds_on(card):
    """Return what a tower must need for `card` to go on it."""
    kind, colour = KIND[card]
    if kind == "apatosaurus":
        return frozenset({"apatosaurus"})
    if kind == "dino":
        return frozenset({colour})
    if kind == "pterodactyl":
        return frozenset(COLOURS)
    return frozenset()


def _scares(card):
    """Return the tower tops `card` can scare off."""
    kind, colour = KIND[card]
    if kind == "trex":
        return frozenset(CARDS)
    if kind == "scare":
        return frozenset(top for top in CARDS if KIND[top] == ("dino", colour))
    return frozenset()


# The building and scaring rules, worked out once per card: the hot paths only look them up.
BUILDS_ON = {card: _builds_on(card) for card in CARDS}
SCARES = {card: _scares(card) for card in CARDS}
IS_APATOSAURUS = {card: KIND[card][0] == "apatosaurus" for card in CARDS}
# For each card, the play action it allows on a tower, keyed by what that tower needs next.
BUILD_ACTIONS = {card: dict.fromkeys(BUILDS_ON[card], PLAY_ACTIONS[card]) for card in CARDS}
# What each card allows in the play phase: its discard, its builds by need, the tops it scares.
CARD_ACTIONS = {card: (DISCARD_ACTIONS[card], BUILD_ACTIONS[card], SCARES[card]) for card in CARDS}
# The draw actions, in the order legal_actions lists them, by (deck possible, discard possible).
DRAW_CHOICES = {(deck, discard): tuple(action for action, allowed in
                                       ((DRAW_ACTIONS["deck"], deck), (DRAW_ACTIONS["discard"], discard)) if allowed)
                for deck in (False, True) for discard in (False, True)}


def reference_tower(order):
    """Return the five cards the reference Dino Tower is built from, taken out of the deck: Apatosaurus first."""
    return [CARDS_OF_KIND["apatosaurus"][-1]] + [CARDS_OF_COLOUR[colour][-1] for colour in order]


def new_game(config, seed):
    """Fix the tower order (given, or drawn at random with `seed`), build the reference tower from the deck,
    shuffle the rest with `seed` and deal 3 cards each."""
    players = config.get("players")
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidConfig(f"Stack-O-Saurus needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    rng = random.Random(seed)
    order = config.get("order")
    if order is None:
        order = list(COLOURS)
        rng.shuffle(order)
    elif not isinstance(order, list) or not all(isinstance(c, str) for c in order) or sorted(order) != sorted(COLOURS):
        raise InvalidConfig("The tower order must name each colour once: " + ", ".join(COLOURS) + ".")
    rules = {}
    for rule in HOUSE_RULES:
        rules[rule] = config.get(rule, False)
        if not isinstance(rules[rule], bool):
            raise InvalidConfig(f"'{rule}' (the house rule: {HOUSE_RULE_NAMES[rule]}) is true or false.")
    reference = reference_tower(order)
    deck = [card for card in CARDS if card not in reference]
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(3)] for _ in players]
    return {
        "game": NAME,
        "players": [str(p) for p in players],
        "order": list(order),
        **rules,
        "reference": reference,
        "draw": deck[:-1],
        "discard": deck[-1:],
        "under": 0,
        "hands": hands,
        "towers": [[] for _ in players],
        "turn": 0,
        "phase": "draw",
        "turns": 1,
        "seed": seed,
        "reshuffles": 0,
        "winner": None,
        "end_reason": None,
        "log": [],
    }


def current_player(state):
    """Return the seat to act, or None when the game is over."""
    return state["turn"]


def is_over(state):
    """Say whether the game has ended (a win or a draw)."""
    return state["turn"] is None


def all_started(state):
    """Say whether every player has an Apatosaurus down."""
    return all(state["towers"])


def needs(state, seat):
    """Return what the seat's tower takes next: 'apatosaurus', a colour, or None when complete."""
    tower = state["towers"][seat]
    if not tower:
        return "apatosaurus"
    if len(tower) >= TOWER_HEIGHT:
        return None
    return state["order"][len(tower) - 1]


def house_rule(state, rule):
    """Say whether the game plays with house rule `rule`."""
    # A state saved before the rulebook became the default has no such key: it keeps the rules it
    # started with, which were both house rules.
    return state.get(rule, True)


def _lowest_scareable(state):
    """Return the smallest tower a scare can reach: 1 by the rulebook, 2 when the Apatosaurus is a sturdy base."""
    return 2 if house_rule(state, "sturdy_base") else 1


def _can_draw_from_deck(state):
    """Say whether the draw pile, or a rebuild of it from the discard pile, can give a card."""
    return bool(state["draw"]) or len(state["discard"]) >= 2


def _can_draw_from_discard(state):
    """Say whether the top of the discard pile may be taken: a card discarded on top of the scared ones."""
    discard = state["discard"]
    return len(discard) > state.get("under", 0) and not (IS_APATOSAURUS[discard[-1]] and all(state["towers"]))


def _can_draw_from(state, source):
    """Say whether the player to act may draw from `source`."""
    if source == "deck":
        return _can_draw_from_deck(state)
    return source == "discard" and _can_draw_from_discard(state)


def _can_scare(state, card, tower):
    """Say whether `card` knocks the top dinosaur off `tower` (its Apatosaurus too, unless it is a sturdy base)."""
    return len(tower) >= _lowest_scareable(state) and tower[-1] in SCARES[card]


def _hand_actions(state, seat):
    """Return the build and scare actions, then the discards, for the seat's distinct cards in hand order.

    By the rulebook a discard is legal only when no play is; the house rule `discard_any_time` always allows it.
    """
    hand = state["hands"][seat]
    # Card ids are unique, so only a hand-made state repeats one; testing that is cheaper than
    # always de-duplicating.
    if len(set(hand)) != len(hand):
        hand = dict.fromkeys(hand)
    need = needs(state, seat)
    towers = state["towers"]
    lowest = _lowest_scareable(state)
    plays = []
    discards = []
    for card in hand:
        discard, builds, scared = CARD_ACTIONS[card]
        discards.append(discard)
        if need in builds:
            plays.append(builds[need])
        elif scared:
            for target, tower in enumerate(towers):
                if len(tower) >= lowest and target != seat and tower[-1] in scared:
                    plays.append(SCARE_ACTIONS[card, target])
    if plays and not house_rule(state, "discard_any_time"):
        return plays
    plays += discards
    return plays


def legal_actions(state):
    """Return every action open to the current player."""
    seat = state["turn"]
    if seat is None:
        return []
    if state["phase"] == "draw":
        return list(DRAW_CHOICES[_can_draw_from_deck(state), _can_draw_from_discard(state)])
    return _hand_actions(state, seat)


def check(state, player, action):
    """Raise IllegalAction with a reason unless `player` may take `action` now."""
    turn = state["turn"]
    if turn is None:
        raise IllegalAction("The game is over.")
    if player != turn:
        raise IllegalAction(f"It is not your turn: it is {state['players'][turn]}'s turn.")
    if not isinstance(action, dict):
        raise IllegalAction("Send an action: draw, play, scare or discard.")
    kind = action.get("type")
    if state["phase"] == "draw":
        if kind != "draw":
            raise IllegalAction("First draw a card, from the draw pile or the discard pile.")
        if not _can_draw_from(state, action.get("source")):
            raise IllegalAction(_why_not_draw(state, action.get("source")))
        return
    if kind == "draw":
        raise IllegalAction("You have already drawn this turn: now play or discard a card.")
    card = action.get("card")
    if not isinstance(card, str) or card not in state["hands"][player]:
        raise IllegalAction("That card is not in your hand.")
    if kind == "discard":
        if house_rule(state, "discard_any_time") or _hand_actions(state, player)[0]["type"] == "discard":
            return
        raise IllegalAction("You can play a card, so you may not discard: the rulebook lets you discard only "
                            "when you cannot play.")
    if kind == "play" and needs(state, player) in BUILDS_ON[card]:
        return
    target = action.get("target")
    if kind == "scare" and isinstance(target, int) and not isinstance(target, bool) \
            and 0 <= target < len(state["towers"]) and target != player \
            and _can_scare(state, card, state["towers"][target]):
        return
    raise IllegalAction(_why_not_play(state, player, action))


def _why_not_draw(state, source):
    if source == "discard" and len(state["discard"]) <= state.get("under", 0) and state["discard"]:
        return "The scared dinosaur and its card lie at the bottom of the discard pile: nobody may take them."
    if source == "discard" and state["discard"]:
        return "Every tower is started, so an Apatosaurus from the discard pile is no use."
    if source in ("deck", "discard"):
        return "That pile has no card to give."
    return "Draw from 'deck' (the draw pile) or 'discard' (the discard pile)."


def _why_not_play(state, player, action):
    kind, colour = KIND[action["card"]]
    need = needs(state, player)
    if action.get("type") == "play":
        if kind == "apatosaurus":
            return "Your tower is already started: only one Apatosaurus per tower."
        if kind in ("scare", "trex"):
            return "Play this card on another player's tower (scare), not on your own."
        if need == "apatosaurus":
            return "Start your tower with an Apatosaurus first."
        if need is None:
            return "Your tower is complete."
        return f"Your tower needs {need} next, in the tower order."
    if action.get("type") == "scare":
        target = action.get("target")
        if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < len(state["towers"]):
            return "Choose another player's tower to scare."
        if target == player:
            return "You cannot scare your own tower."
        tower = state["towers"][target]
        if not tower:
            return "That tower is not started yet: it has no dinosaur to scare."
        if len(tower) < _lowest_scareable(state):
            return ("That tower has no dinosaur above its Apatosaurus, and the Apatosaurus cannot fall "
                    "(the house rule of the sturdy base).")
        if kind not in ("scare", "trex"):
            return "Only a Scared-by-T-Rex or a Tyrannosaurus card scares a dinosaur."
        if KIND[tower[-1]][0] == "pterodactyl":
            return "A Lucky Pterodactyl can fly: only a Tyrannosaurus scares it."
        if KIND[tower[-1]][0] == "apatosaurus":
            return "No Scared-by-T-Rex card is black: only a Tyrannosaurus scares the Apatosaurus."
        return f"This Scared-by-T-Rex is {colour}: it only scares a {colour} dinosaur."
    return "Choose draw, play, scare or discard."


def _take(state, source):
    """Take the top card of a pile (rebuilding the draw pile if needed); return it or None."""
    if source == "discard":
        discard = state["discard"]
        state["discard"] = discard[:-1]
        return discard[-1]
    return _take_from_deck(state)


def _take_from_deck(state):
    """Take the top card of the draw pile (rebuilding it if needed); return it or None."""
    draw = state["draw"]
    if not draw:
        if len(state["discard"]) < 2:
            return None
        draw = _rebuild_draw_pile(state)
    state["draw"] = draw[:-1]
    return draw[-1]


def _rebuild_draw_pile(state):
    """Shuffle the discard pile into a new draw pile, its top card flipped as the new discard pile."""
    rebuilt = list(state["discard"])
    random.Random(f"{state['seed']}:{state['reshuffles']}").shuffle(rebuilt)
    state["reshuffles"] += 1
    state["discard"] = [rebuilt.pop()]
    state["draw"] = rebuilt
    state["under"] = 0
    _log(state, {"type": "reshuffle"})
    return rebuilt


def _draw_useful(state, seat):
    """Draw from the draw pile for `seat`, throwing away Apatosaurus cards once all towers stand."""
    # Bounded: a pile of nothing but Apatosaurus cards could otherwise be reshuffled forever.
    for _ in range(len(CARDS)):
        card = _take_from_deck(state)
        if card is None:
            return
        if IS_APATOSAURUS[card] and all(state["towers"]):
            state["discard"] = state["discard"] + [card]
            _log(state, {"type": "replace", "player": seat, "card": card})
            continue
        state["hands"][seat].append(card)
        return


def _log(state, event):
    """Add `event` to the log, keeping only the last LOG_LENGTH events."""
    log = state["log"][1 - LOG_LENGTH:]
    log.append(event)
    state["log"] = log


def apply(state, player, action):
    """Return the state after the action; the given state is never changed."""
    check(state, player, action)
    # A shallow copy: the lists below are replaced, never changed, except the player's own hand,
    # which is copied first.
    state = state.copy()
    hands = state["hands"] = list(state["hands"])
    hand = hands[player] = list(hands[player])
    kind = action["type"]
    if kind == "draw":
        return _draw(state, player, hand, action["source"])
    card = action["card"]
    hand.remove(card)
    if kind == "discard":
        state["discard"] = state["discard"] + [card]
        _log(state, {"type": "discard", "player": player, "card": card})
    elif kind == "play":
        towers = state["towers"] = list(state["towers"])
        tower = towers[player] = towers[player] + [card]
        _log(state, {"type": "play", "player": player, "card": card})
        if len(tower) == TOWER_HEIGHT:
            return _end(state, [player], "tower complete")
        # Every tower has just become started exactly when this card began the last empty one.
        if len(tower) == 1 and all(towers):
            _replace_spare_apatosaurus(state)
    else:
        target = action["target"]
        towers = list(state["towers"])
        towers[target] = towers[target][:-1]
        fallen = state["towers"][target][-1]
        state["towers"] = towers
        state["discard"] = [card, fallen] + state["discard"]
        state["under"] = state.get("under", 0) + 2
        _log(state, {"type": "scare", "player": player, "card": card, "target": target, "fallen": fallen})
    return _next_turn(state)


def _draw(state, player, hand, source):
    """Draw for `player` from `source` into their (already copied) hand, then move to the play phase."""
    if source == "discard":
        card = _take(state, "discard")
        hand.append(card)
        _log(state, {"type": "draw", "player": player, "source": "discard", "card": card})
    else:
        _draw_useful(state, player)
        _log(state, {"type": "draw", "player": player, "source": "deck"})
    state["phase"] = "play"
    if not hand:
        _log(state, {"type": "pass", "player": player})
        return _next_turn(state)
    return state


def _replace_spare_apatosaurus(state):
    state["hands"] = [list(h) for h in state["hands"]]
    for seat, hand in enumerate(state["hands"]):
        for card in [c for c in hand if KIND[c][0] == "apatosaurus"]:
            hand.remove(card)
            state["discard"] = state["discard"] + [card]
            _log(state, {"type": "replace", "player": seat, "card": card})
            _draw_useful(state, seat)


def _next_turn(state):
    """Pass the turn on; a player with no pile to draw from and no card to play passes."""
    # Passing changes no pile or tower, so whether a card can be drawn is the same for every seat.
    can_draw = _can_draw_from_deck(state) or _can_draw_from_discard(state)
    while True:
        turns = state["turns"] = state["turns"] + 1
        if turns > MAX_TURNS:
            return _end(state, [], "draw: no winner after 2,000 turns")
        turn = state["turn"] = (state["turn"] + 1) % len(state["players"])
        if can_draw:
            state["phase"] = "draw"
            return state
        state["phase"] = "play"
        if state["hands"][turn]:
            return state
        _log(state, {"type": "pass", "player": turn})


def _end(state, winners, reason):
    state["turn"] = None
    state["winner"] = winners[0] if winners else None
    state["end_reason"] = reason
    return state


def result(state):
    """Return the winner (None for a draw) and how the game ended, or None while playing."""
    if not is_over(state):
        return None
    return {"winners": [] if state["winner"] is None else [state["winner"]], "reason": state["end_reason"]}


def observation(state, viewer=None):
    """Return what seat `viewer` (None: a spectator) may see: never other hands or the draw order."""
    return {
        "game": NAME,
        "viewer": viewer,
        "players": [{"seat": seat, "name": name, "hand_size": len(state["hands"][seat]),
                     "tower": list(state["towers"][seat]), "needs": needs(state, seat)}
                    for seat, name in enumerate(state["players"])],
        "order": list(state["order"]),
        "hand": list(state["hands"][viewer]) if viewer is not None else None,
        "draw_size": len(state["draw"]),
        "discard_top": state["discard"][-1] if state["discard"] else None,
        "discard_size": len(state["discard"]),
        "discard_takeable": _can_draw_from_discard(state),
        "discard_under": state.get("under", 0),
        "reference": list(state.get("reference", [])),
        "house_rules": {rule: house_rule(state, rule) for rule in HOUSE_RULES},
        "turn": state["turn"],
        "phase": state["phase"],
        "turns": state["turns"],
        "all_started": all_started(state),
        "over": is_over(state),
        "result": result(state),
        "log": list(state["log"]),
    }


def hidden(state, viewer):
    """Return the card ids seat `viewer` (None: a spectator) must not learn: other hands and the draw pile."""
    # The log names the cards everyone saw face up, wherever they are now.
    named = {event.get(key) for event in state["log"] for key in ("card", "fallen")}
    others = [card for seat, hand in enumerate(state["hands"]) if seat != viewer for card in hand]
    return {card for card in others + state["draw"] if card not in named}


def example_configs():
    """Return small valid set-ups for tests: 2 players with a random tower order and the rulebook's rules,
    4 with a given order and both house rules, 3 with one house rule each way."""
    return [{"players": ["Ada", "Ben"]},
            {"players": ["Ada", "Ben", "Cy", "Dee"], "order": ["green", "purple", "orange", "blue"],
             "discard_any_time": True, "sturdy_base": True},
            {"players": ["Ada", "Ben", "Cy"], "discard_any_time": True},
            {"players": ["Ada", "Ben", "Cy"], "sturdy_base": True}]


# Computer players see only their observation and choose among the legal actions, so they keep
# whichever rules the game was set up with. "easy" plays at random; "medium" is greedy (build,
# else scare, else discard at random); "hard" plans: it picks up useful discards, stops a player
# about to win, saves Pterodactyls for gaps and discards what its tower no longer needs (a
# Tyrannosaurus it may not discard goes to the tallest tower).
BOT_LEVELS = ("easy", "medium", "hard")


def bot_choose(observation, actions, rng, level):
    """Choose one of `actions` for the observing seat."""
    if level == "easy":
        return rng.choice(actions)
    if level == "medium":
        return _greedy(actions, rng)
    return _planner(observation, actions, rng)


def _greedy(actions, rng):
    for kind in ("draw", "play", "scare", "discard"):
        choices = [a for a in actions if a["type"] == kind]
        if kind == "draw" and choices:
            return next((a for a in choices if a["source"] == "deck"), choices[0])
        if choices:
            return rng.choice(choices)
    return actions[0]


def _usefulness(observation, card):
    """Score how much a card helps the observing seat's tower (higher keeps it)."""
    me = observation["players"][observation["viewer"]]
    need, kind, colour = me["needs"], *KIND[card]
    order = observation["order"]
    if kind == "apatosaurus":
        return 10 if need == "apatosaurus" else 0
    if kind == "dino":
        if need in (None, "apatosaurus"):
            return 4 if need == "apatosaurus" else 0
        ahead = order.index(colour) - order.index(need)
        return 10 - 2 * ahead if ahead >= 0 else 0
    if kind == "pterodactyl":
        return 9 if need not in (None,) else 0
    if kind == "trex":
        return 8
    return 3


def _useful_to(card, need):
    kind, colour = KIND[card]
    if kind == "apatosaurus":
        return need == "apatosaurus"
    if kind == "dino":
        return colour == need
    return kind == "pterodactyl" and need not in (None, "apatosaurus")


def _planner(observation, actions, rng, hold_until=3):
    me = observation["viewer"]
    players = observation["players"]
    if actions[0]["type"] == "draw":
        top = observation["discard_top"]
        take = next((a for a in actions if a["source"] == "discard"), None)
        if take and top and _usefulness(observation, top) >= 8:
            return take
        return next((a for a in actions if a["source"] == "deck"), actions[0])
    builds = [a for a in actions if a["type"] == "play"]
    scares = [a for a in actions if a["type"] == "scare"]
    danger = [a for a in scares if len(players[a["target"]]["tower"]) >= TOWER_HEIGHT - 1]
    if danger:
        # Stop a player about to win; spend a matching Scared-by-T-Rex before the Tyrannosaurus.
        return min(danger, key=lambda a: (KIND[a["card"]][0] == "trex", rng.random()))
    if builds:
        return min(builds, key=lambda a: (KIND[a["card"]][0] == "pterodactyl", rng.random()))
    # Keep the Tyrannosaurus for a tall tower; a matching Scared-by-T-Rex is used at once.
    worth = [a for a in scares
             if KIND[a["card"]][0] == "scare" or len(players[a["target"]]["tower"]) >= hold_until]
    if worth:
        return max(worth, key=lambda a: (len(players[a["target"]]["tower"]),
                                         KIND[a["card"]][0] != "trex", rng.random()))
    discards = [a for a in actions if a["type"] == "discard"]
    if not discards:
        # By the rulebook a player who can play must: the Tyrannosaurus goes to the tallest tower.
        return max(scares, key=lambda a: (len(players[a["target"]]["tower"]), rng.random()))
    # Discard what helps us least, and never what the next player needs.
    others_need = {p["needs"] for p in players if p["seat"] != me}
    scores = {a["card"]: _usefulness(observation, a["card"])
              + (6 if any(_useful_to(a["card"], need) for need in others_need) else 0)
              for a in discards}
    lowest = min(scores.values())
    return rng.choice([a for a in discards if scores[a["card"]] == lowest])


def computer_move(state, seat, level, seed, rng):
    """Return the move of a computer player of `level`, from its observation only."""
    return bot_choose(observation(state, seat), legal_actions(state), rng, level)
