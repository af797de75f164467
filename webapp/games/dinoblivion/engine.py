"""Dinoblivion (Duel for 2 players, and Solo): the rules engine.

The rulebook (shared/rulebooks/dinoblivion.txt) is the specification; the card numbers come from
cards_db/data/dinoblivion_cards.csv. Where the rulebook is silent we decided (the same list is on the
rules page, rules.md):

- Costs: Action cards (hand icon) cost Food, Clan cards (person icon) cost Buddy pawns.
- Resources: each player has a bank of 3 Food tokens (worth 1 or 2 each, so at most 6 Food), 6 Dino
  tokens and 6 Buddy pawns. A gain moves resources from your bank to your reserve, a payment moves them
  back; what the bank cannot give is lost, so you never hold more than 6 of each. The Dinoblivion card
  destroys the Dino tokens it uses (the rulebook's word): they leave the game, and that player's bank
  has fewer to give from then on. Eggs come from one
  shared Egg bank (24 in Duel, 12 in Solo); once it is empty no more eggs are gained.
- Eggs: 12 worth 1 point, 8 worth 2 and 4 worth 2 that are indestructible. The rulebook does not give
  the split; these numbers are the fan notes' (najibyla/lua_dinoB). Nobody, not even the owner, sees an
  egg's value before the end of the game or a Neandertar.
- Set-up: the evolution throw and the Chief draft are steps of the game. Each Buddy pawn thrown stands
  upright with a chance of 1 in 3 (our choice); a tie throws again. Two Chiefs are revealed at random;
  the first player (Mace) takes one; one more Chief, at random, joins the one left for the second
  player, who takes one of the two. Seat 0 plays the Sun clan, seat 1 the Moon clan. In Solo two
  random Chiefs are revealed and you take one.
- A Clan card is used by taking it from your hand into play (rotated); it then does nothing else this
  turn. Its five uses: hunt, fight, play an Action card, mate, use its power.
- Strength: cards used to fight and strength ("axe") powers add to your fight strength for this turn;
  you then attack one revealed dinosaur (or, in Solo, one Enemy) whose strength your total matches or
  beats. You cannot attack with less. After an attack the fight strength starts again from 0 (leftover
  strength is lost), and whatever is not used is lost at the end of the turn. A hunt uses the strength
  of one Clan card or of one axe power (Rotam, Tigar, Mammotar, Patrak, Dominatar, Zazza, Slayar,
  Dinoblivion): those powers can hunt instead of fighting. Dino tokens only give strength through a
  power (Dinoblivion, Dominatar). Mom, Protectar and Dino Ridar count their strength when used.
- One fight per dinosaur deck per turn (rulebook); Enemies have no such limit.
- Defeating a dinosaur: it becomes your trophy and the next one is revealed; you must destroy 1 card
  (Triceratops: 2) from your hand or from play (Totems in play included), then gain its rewards; for
  each "gain a card" you must take a card of your choice, not UNIQUE, from the Hunting Ground on that
  side; the rest of the pile keeps its order.
- Action cards need a Clan card (rulebook). Workar and Artis are used the same way. Workar "lets you
  play 2 Action cards at once" (rulebook): the Action card played with Workar is followed at once by a
  second Action card that was already in your hand when Workar was used (not one the first card drew),
  or by none; nothing else can be done in between, and the two take effect in the order played. The
  house rule ``workar_later``, chosen at set-up, reads it as one more free Action play, usable any time
  this turn, on any card (our earlier reading). Artis draws a card after the Action card. The Monki
  Totem's power gives one free Action play.
- Totems are played like any Action card, stay in play and are ready at once: each Totem's power can
  be used once per turn, the turn it is played included, without a Clan card. The Totem card has no
  power (3 Totem symbols).
- Mate: two Clan cards whose half symbols complete a symbol (a card with a half on its right edge and
  a card with a half on its left edge) are both used and give 1 Buddy pawn. Gogo and Ayla have a half
  on each edge and can mate twice, once on each side, even after their first mate. Gogo draws 2 cards
  for each Buddy pawn it brings; Ayla adds 1 Egg when the symbol on her right edge is completed and 1
  more Buddy pawn for her left edge (the bonuses need a Buddy pawn to be gained).
- Clan Chiefs: using a Chief's power destroys one other card from your hand or from play for its
  bonus: Bobor 2 Buddy pawns, Cornio 3 Food, Magda 2 Dino tokens, Sillia 1 Dino token and 1 Food (the
  rulebook's example of a turn), Slayar +4 strength (an axe power). Like every Clan card, once a turn.
- Neandertar destroys a face-down egg of the opponent, chosen by its place; it is revealed; an
  indestructible egg stays with its owner face up. No use in Solo. Shaman needs 4 Totem symbols in
  play. Dino Farm gives 2 Food (the rulebook's example of a turn) or 1 Dino token.
- The Cave holds one card from your hand: place, take back or exchange at any time of your turn; it
  stays there across turns and is never discarded. Other players do not see it.
- Rage: the moment you draw the last card of your Player deck, at any time (end-of-turn draw or a
  power's draw), the dinosaurs are enraged: for each side, as many Jungle cards as the level of the
  revealed dinosaur are flipped onto that side's Hunting Ground (a side with no dinosaur left flips
  none in Duel). The discard pile is shuffled into a new deck only when a further card must be drawn.
- End of a Duel: the end is triggered when a Hunting Ground that had cards becomes empty (a card
  bought or gained), when the Jungle becomes empty, or when every dinosaur is defeated. Mace rule: if
  it is triggered in the first player's turn, the second player plays one last turn; if in the second
  player's turn, the game ends after it. After 200 turns (100 each) the game ends and is scored.
  Emptying a Hunting Ground is easy early on, so games between careful players are short; the option
  ``end_trigger: "dinosaur_decks"`` uses the fan notes' reading instead (a dinosaur deck, not a Hunting
  Ground, must empty), which gives games of about 50 turns.
- Score: 2 points a family symbol, 1 a Totem symbol on your Totems in play, 1 a dinosaur, and the eggs.
  Families: all your Clan cards (deck, hand, discard, Cave, play; Chiefs too) are paired, a half on a
  right edge with a half on a left edge of another card; Gogo and Ayla can pair on both sides; a card
  never pairs with itself; the most pairs count. A tie goes to the higher total of defeated dinosaurs'
  levels; then everyone tied wins.
- Solo: 2 Buddy pawns and 2 Food; the Jungle is 40/36/32/28 random Jungle cards (gatherer, hunter,
  warrior, chief) with the 4 Enemies shuffled in; the other Jungle cards are set aside face down; 12
  eggs in the bank; left 4 random level-1 dinosaurs, right 3 random level-2. Rage flips, per side, the
  dinosaur's level (3 for the Volcano once that side's dinosaur deck is empty) plus 1 per Enemy on that
  side. An Enemy flipped by the Rage, the Volcano or another Enemy goes beside the board on that side
  and 1 more card is flipped there; an Enemy flipped by a hunt goes under the Jungle without effect
  (it counts as one of the hunt's cards). Defeating an Enemy needs its strength: 1 gives 1 Dino token,
  2 gives 2 Food, 3 gives 1 Buddy pawn, 4 lets you destroy a card in play (you may decline); it is then
  shuffled back into the Jungle. An egg is revealed at once and adds that many set-aside cards under
  the Jungle. You win when every dinosaur is defeated. You lose when the Rage, the Volcano or an Enemy
  must flip a card and the Jungle is empty (a hunt only flips what is there; an empty Jungle cannot be
  hunted), or after 200 turns. The Moon starting cards stay in the box.
- Gaining a card after a win is not optional when a card can be gained (the rulebook says "gain").
- What everyone sees: the top card of each Hunting Ground and how many cards it holds (the rulebook's
  etiquette forbids looking through them; the whole piles are shown under the house rule of open
  Hunting Grounds, chosen at set-up, and to a player choosing a card from one after a win), discard piles, cards in play, Totems, trophies,
  Enemies, the revealed dinosaurs, resources, and counts of everything else. Cards a player has seen
  once but that went back into a deck are only known as a multiset of kinds (the log names kinds, not
  copies). Nobody sees a deck's order, another player's hand or Cave, the Jungle's order, a face-down
  dinosaur, or a face-down egg's value.
"""

import json
import random
from collections import Counter
from typing import NamedTuple

from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.dinoblivion import cards as C

NAME = "dinoblivion"
SIDES = ("left", "right")
OTHER_SIDE = {"left": "right", "right": "left"}
HAND_SIZE = 4
CAP = 6                      # Food, Dino tokens, Buddy pawns a player can hold
START_FOOD, START_BUDDY = 2, 2
MAX_TURNS = 200
LOG_LENGTH = 16
PAWNS, STAND_CHANCE = 6, 1 / 3
DIFFICULTIES = {"gatherer": 40, "hunter": 36, "warrior": 32, "chief": 28}
DUEL_EGGS, SOLO_EGGS = 24, 12
RESOURCES = ("food", "dino", "buddy")
RESOURCE_WORDS = {"food": "Food", "dino": "Dino tokens", "buddy": "Buddy pawns"}
USES = ("fight", "left", "right")
# What empties to trigger the end of a Duel (besides the Jungle): the rulebook's Hunting Grounds, or, as
# an option, the dinosaur decks (the fan notes' reading, which gives longer games).
END_TRIGGERS = ("hunting_grounds", "dinosaur_decks")
# House rules, each off unless chosen at set-up: config key -> what a wrong value is told.
HOUSE_RULES = {
    "open_grounds": "'open_grounds' (the house rule of open Hunting Grounds) is true or false.",
    "workar_later": "'workar_later' (the house rule: Workar's second Action card later in the turn) is true or false.",
}


class Power(NamedTuple):
    """What a power does: pay, then gain, draw, give free Action plays, and give axe strength."""

    food: int = 0
    dino: int = 0
    buddy: int = 0
    eggs: int = 0
    draw: int = 0
    free: int = 0
    axe: int = 0
    pay: str = ""       # the resource paid first ("food", "dino", "buddy"), if any
    paid: int = 0
    burns: bool = False  # the payment is destroyed (it leaves the game), not returned to the bank


# Powers by card kind, from the card list's power texts.
CLAN_POWERS = {
    "amazar": Power(dino=1, food=1), "gilir": Power(dino=1), "krafdinar": Power(dino=2),
    "bananar_sun": Power(food=1), "bananar_moon": Power(food=1), "shaman": Power(eggs=1),
    "patrak": Power(pay="food", paid=1, axe=3), "dominatar": Power(pay="dino", paid=2, axe=7),
    "zazza": Power(pay="buddy", paid=2, axe=8),
}
CHIEF_POWERS = {
    "chief_bobor": Power(buddy=2), "chief_cornio": Power(food=3), "chief_magda": Power(dino=2),
    "chief_sillia": Power(dino=1, food=1), "chief_slayar": Power(axe=4),
}
ACTION_POWERS = {
    "ami_sun": Power(buddy=1), "ami_moon": Power(buddy=1), "banana_boost": Power(food=4),
    "capturar": Power(dino=2), "stellar": Power(food=1, dino=1, buddy=1), "troc": Power(eggs=1, buddy=2),
    "yolo": Power(dino=1, draw=2), "rotam": Power(axe=5),
}
TOTEM_POWERS = {
    "dino_tool": Power(pay="dino", paid=1, draw=2), "fiyar": Power(draw=1), "hut": Power(buddy=1),
    "mammotar": Power(pay="food", paid=2, axe=4), "monki": Power(free=1), "tigar": Power(axe=1),
    "yak": Power(food=1),
}
# Powers with a choice between two bonuses (the diagonal slash).
OPTION_POWERS = {
    "fructam_sun": {"food": Power(food=2), "draw": Power(draw=2)},
    "fructam_moon": {"food": Power(food=2), "draw": Power(draw=2)},
    "dino_farm": {"food": Power(food=2), "dino": Power(dino=1)},
}
DINOBLIVION = frozenset({"dinoblivion_sun", "dinoblivion_moon"})
MAX_DINOBLIVION_TOKENS = 6
SHAMAN_TOTEMS = 4
ENEMY_REWARDS = {1: Power(dino=1), 2: Power(food=2), 3: Power(buddy=1), 4: None}  # 4: destroy a card in play

KIND_OF = C.KIND_OF
CARD_KIND = C.CARDS
IS_CLAN, IS_ACTION, IS_ENEMY, IS_UNIQUE = C.IS_CLAN, C.IS_ACTION, C.IS_ENEMY, C.IS_UNIQUE
TOTEM_SYMBOLS, HALF = C.TOTEMS, C.HALF
STRENGTH = {c: k.strength for c, k in C.CARDS.items()}
FOOD_ICONS = {c: k.food_icons for c, k in C.CARDS.items() if k.food_icons}
LEVEL = {c: k.level for c, k in C.CARDS.items() if k.level}
IS_TOTEM = frozenset(TOTEM_SYMBOLS)
IS_BOTH = frozenset(c for c, h in HALF.items() if h == "both")
GIVES_RIGHT = frozenset(c for c, h in HALF.items() if h in ("right", "both"))   # a half on the right edge
GIVES_LEFT = frozenset(c for c, h in HALF.items() if h in ("left", "both"))     # a half on the left edge
NAME_OF = C.NAME
BOXED = frozenset(C.CHIEFS + C.ENEMIES + C.STARTING["moon"])  # what can be out of the game, in the box


class _Over(Exception):
    """Raised inside apply when the game ends in the middle of an action (Solo victory or defeat)."""


# ---------------------------------------------------------------------------------------------------
# Actions: shared, never-mutated dicts (building them anew on every step is the largest cost).

_ACTIONS = {}


def _act(*pairs):
    """Return the shared action dict for these (field, value) pairs, in this order."""
    action = _ACTIONS.get(pairs)
    if action is None:
        values = [list(v) if isinstance(v, tuple) else v for v in pairs[1::2]]
        action = _ACTIONS[pairs] = dict(zip(pairs[0::2], values))
    return action


END = _act("type", "end")
THROW = _act("type", "throw")
UNCAVE = _act("type", "uncave")
SKIP = _act("type", "skip")


# ---------------------------------------------------------------------------------------------------
# Set-up.

def new_game(config, seed):
    """Return a new game: Duel (2 players) or Solo (1 player and a difficulty), shuffled with `seed`."""
    if not isinstance(config, dict):
        raise InvalidConfig("Give the game's settings: a mode and the players.")
    players = config.get("players")
    mode = config.get("mode", "solo" if isinstance(players, list) and len(players) == 1 else "duel")
    if mode not in ("duel", "solo"):
        raise InvalidConfig("Dinoblivion is played as a Duel (2 players) or Solo (1 player).")
    wanted = 2 if mode == "duel" else 1
    if not isinstance(players, list) or len(players) != wanted or not all(isinstance(p, str) for p in players):
        raise InvalidConfig("A Duel needs exactly 2 players." if mode == "duel" else "Solo is for exactly 1 player.")
    difficulty = config.get("difficulty", "gatherer") if mode == "solo" else None
    end_trigger = config.get("end_trigger", END_TRIGGERS[0])
    if end_trigger not in END_TRIGGERS:
        raise InvalidConfig("The end of the game comes from the 'hunting_grounds' (the rulebook) or the "
                            "'dinosaur_decks' (the fan notes' reading).")
    if mode == "solo" and difficulty not in DIFFICULTIES:
        raise InvalidConfig("Choose a difficulty: " + ", ".join(DIFFICULTIES) + ".")
    for rule, message in HOUSE_RULES.items():
        if not isinstance(config.get(rule, False), bool):
            raise InvalidConfig(message)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise InvalidConfig("The seed must be a number or a word.")
    rng = random.Random(f"{seed}:setup")
    clans = ("sun", "moon")
    seats = [{"clan": clans[i], "chief": None, "deck": list(C.STARTING[clans[i]]), "hand": [], "discard": [],
              "play": [], "totems": [], "cave": None, "trophies": [], "eggs": [], "shown": [],
              "food": 0, "dino": 0, "buddy": 0, "burnt": 0} for i in range(wanted)]
    jungle = list(C.JUNGLE)
    rng.shuffle(jungle)
    eggs = [kind for kind in C.EGG_KINDS for _ in range(C.EGG_COUNTS[kind])]
    rng.shuffle(eggs)
    levels = {level: list(C.DINOS[level]) for level in (1, 2)}
    for pile in levels.values():
        rng.shuffle(pile)
    chiefs = list(C.CHIEFS)
    rng.shuffle(chiefs)
    state = {
        "game": NAME, "mode": mode, "difficulty": difficulty, "end_trigger": end_trigger,
        "open_grounds": config.get("open_grounds", False), "workar_later": config.get("workar_later", False),
        "players": list(players), "seed": seed, "draws": 0,
        "phase": "throw" if mode == "duel" else "chief", "turn": 0, "first": 0, "turns": 0,
        "throws": [None] * wanted, "offer": [chiefs.pop(), chiefs.pop()], "box": chiefs,
        "seats": seats, "jungle": jungle, "grounds": {"left": [], "right": []},
        "dinos": {}, "dinos_out": [], "enemies": {"left": [], "right": []}, "setaside": [], "bottom": [],
        "egg_bank": eggs, "eggs_out": [], "eggs_gone": [], "destroyed": [],
        "strength": 0, "fought": [], "free": 0, "used_totems": [], "mated": {}, "pending": [],
        "end": None, "outcome": None, "log": [],
    }
    if mode == "duel":
        state["dinos"] = {side: [levels[2].pop() for _ in range(3)] + [levels[1].pop() for _ in range(3)]
                          for side in SIDES}
        state["box"] = state["box"] + list(C.ENEMIES)
    else:
        size = DIFFICULTIES[difficulty]
        state["jungle"], state["setaside"] = jungle[:size] + list(C.ENEMIES), jungle[size:]
        rng.shuffle(state["jungle"])
        state["dinos"] = {"left": [levels[1].pop() for _ in range(4)], "right": [levels[2].pop() for _ in range(3)]}
        state["egg_bank"], state["eggs_out"] = eggs[:SOLO_EGGS], eggs[SOLO_EGGS:]
        state["box"] = state["box"] + list(C.STARTING["moon"])
    state["dinos_out"] = levels[1] + levels[2]
    return state


def current_player(state):
    """Return the seat to act, or None when the game is over."""
    return None if state["phase"] == "over" else state["turn"]


def is_over(state):
    """Say whether the game has ended."""
    return state["phase"] == "over"


def _rng(state):
    """Return the next random generator of this game (seed and a counter, so it survives JSON)."""
    state["draws"] += 1
    return random.Random(f"{state['seed']}:{state['draws']}")


_LOGGED_CARDS = ("card", "via", "dino", "revealed", "destroyed", "enemy")


def _log(state, event):
    """Record a public event. Cards are named by kind: a card seen once may later hide in a deck."""
    for key in _LOGGED_CARDS:
        if key in event and event[key] in KIND_OF:
            event[key] = KIND_OF[event[key]]
    for key in ("cards", "flipped"):
        if key in event:
            event[key] = [KIND_OF[c] for c in event[key]]
    state["log"] = (state["log"] + [event])[-LOG_LENGTH:]


def _clone_seat(p):
    return {**p, "deck": p["deck"][:], "hand": p["hand"][:], "discard": p["discard"][:], "play": p["play"][:],
            "totems": p["totems"][:], "trophies": p["trophies"][:], "eggs": p["eggs"][:], "shown": p["shown"][:]}


def _clone(state, seat=None):
    """Copy every mutable part of the state that an action may change (the schema is fixed, so this beats
    copy.deepcopy): all seats, or only `seat`'s (the other seats are then shared, never changed)."""
    new = dict(state)
    new["seats"] = [_clone_seat(p) if seat is None or i == seat else p for i, p in enumerate(state["seats"])]
    for key in ("jungle", "throws", "offer", "box", "dinos_out", "setaside", "bottom", "egg_bank", "eggs_out",
                "eggs_gone", "destroyed", "fought", "used_totems", "pending"):
        new[key] = state[key][:]
    for key in ("grounds", "dinos", "enemies"):
        new[key] = {side: pile[:] for side, pile in state[key].items()}
    new["mated"] = dict(state["mated"])
    return new


# ---------------------------------------------------------------------------------------------------
# Strength and small helpers.

def totem_symbols(seat):
    """Return the Totem symbols on a player's Totems in play."""
    return sum(TOTEM_SYMBOLS[c] for c in seat["totems"])


def strength(state, seat, card):
    """Return `card`'s strength if `seat` used it now (Mom, Protectar and Dino Ridar count theirs)."""
    value = STRENGTH[card]
    if value is not None:
        return value
    kind = KIND_OF[card]
    if kind == "mom":
        return 1 + sum(1 for c in seat["play"] if c in IS_CLAN)
    if kind == "protectar":
        return totem_symbols(seat)
    if state["mode"] == "solo":  # Dino Ridar: in Solo, the revealed eggs from your bank
        return len(seat["shown"])
    return len(seat["eggs"]) + len(seat["shown"])


def _first_of_each_kind(cards):
    seen = {}
    for card in cards:
        seen.setdefault(KIND_OF[card], card)
    return list(seen.values())


def _opponent(state, seat_index):
    return None if state["mode"] == "solo" else 1 - seat_index


def _clan_power(kind):
    return CHIEF_POWERS.get(kind) or CLAN_POWERS.get(kind)


def _effect_power(kind, action):
    """Return the Power an action card or Totem gives with this action's choices."""
    if kind in OPTION_POWERS:
        return OPTION_POWERS[kind].get(action.get("option"))
    if kind in DINOBLIVION:
        tokens = action.get("tokens")
        return Power(pay="dino", paid=tokens, axe=2 * tokens, burns=True) if isinstance(tokens, int) else None
    return ACTION_POWERS.get(kind) or TOTEM_POWERS.get(kind)


def _destroy_choices(seat, exclude=None):
    """Cards a player may destroy: one of each kind from the hand, and everything in play."""
    return [c for c in _first_of_each_kind(seat["hand"]) + _first_of_each_kind(seat["play"]) + seat["totems"]
            if c != exclude]


# ---------------------------------------------------------------------------------------------------
# Legal actions.

def legal_actions(state):
    """Return every action open to the current player (one copy of each kind of card in hand)."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "throw":
        return [THROW]
    if phase == "chief":
        return [_act("type", "chief", "card", c) for c in state["offer"]]
    if state["pending"]:
        return _pending_actions(state)
    seat_index = state["turn"]
    seat = state["seats"][seat_index]
    jungle = bool(state["jungle"])
    uses = USES if jungle else USES[:1]
    actions = [END]
    firsts = _first_of_each_kind(seat["hand"])
    clans = [c for c in firsts if c in IS_CLAN]
    plays = [c for c in firsts if c not in IS_CLAN]
    tokens = min(MAX_DINOBLIVION_TOKENS, seat["dino"])
    for card in clans:
        if strength(state, seat, card) > 0:
            actions.extend(_FIGHT_HUNT[card] if jungle else _FIGHT[card])
        kind = KIND_OF[card]
        if kind in CHIEF_POWERS or kind in CLAN_POWERS or kind == "neandertar":
            actions.extend(_power_actions(state, seat_index, seat, card, kind, uses))
        for action_card in plays:
            actions.extend(_play_actions(action_card, card, tokens, jungle))
    if state["free"] > 0:
        for action_card in plays:
            actions.extend(_play_actions(action_card, "free", tokens, jungle))
    actions.extend(_mate_actions(state, seat, firsts))
    used = state["used_totems"]
    for card in _first_of_each_kind([c for c in seat["totems"] if c not in used]):
        kind = KIND_OF[card]
        if kind in OPTION_POWERS:
            actions.extend(_act("type", "totem", "card", card, "option", o) for o in OPTION_POWERS[kind])
            continue
        power = TOTEM_POWERS.get(kind)
        if power is None or (power.pay and seat[power.pay] < power.paid):
            continue
        if power.axe:
            actions.extend(_act("type", "totem", "card", card, "use", u) for u in uses)
        else:
            actions.append(_act("type", "totem", "card", card))
    cave = seat["cave"]
    cave_kind = KIND_OF[cave] if cave else None
    for card in firsts:
        if KIND_OF[card] != cave_kind:
            actions.append(_CAVE[card])
    if cave:
        actions.append(UNCAVE)
    strength_now = state["strength"]
    for side in SIDES:
        pile = state["grounds"][side]
        if pile and _affordable(seat, pile[-1]):
            actions.append(_BUY[side])
        dinos = state["dinos"][side]
        if dinos and strength_now >= STRENGTH[dinos[-1]] and side not in state["fought"]:
            actions.append(_ATTACK[side])
        for enemy in state["enemies"][side]:
            if strength_now >= STRENGTH[enemy]:
                actions.append(_act("type", "defeat", "enemy", enemy))
    return actions


# Per-card action lists built once.
_FIGHT = {c: [_act("type", "fight", "card", c)] for c in IS_CLAN}
_FIGHT_HUNT = {c: _FIGHT[c] + [_act("type", "hunt", "card", c, "ground", g) for g in SIDES] for c in IS_CLAN}
_CAVE = {c: _act("type", "cave", "card", c) for c in C.ALL_CARDS}
_BUY = {side: _act("type", "buy", "ground", side) for side in SIDES}
_ATTACK = {side: _act("type", "attack", "side", side) for side in SIDES}
_PLAYS = {}


def _affordable(seat, card):
    kind = CARD_KIND[card]
    return seat["buddy"] >= kind.cost_buddy if card in IS_CLAN else seat["food"] >= kind.cost_food


def _power_actions(state, seat_index, seat, card, kind, uses):
    if kind in CHIEF_POWERS:
        targets = _destroy_choices(seat, exclude=card)
        if kind == "chief_slayar":
            return [_act("type", "power", "card", card, "target", t, "use", u) for t in targets for u in uses]
        return [_act("type", "power", "card", card, "target", t) for t in targets]
    if kind == "neandertar":
        other = _opponent(state, seat_index)
        if other is None:
            return []
        return [_act("type", "power", "card", card, "egg", i) for i in range(len(state["seats"][other]["eggs"]))]
    power = CLAN_POWERS.get(kind)
    if power is None:
        return []
    if kind == "shaman" and totem_symbols(seat) < SHAMAN_TOTEMS:
        return []
    if power.pay and seat[power.pay] < power.paid:
        return []
    if power.axe:
        return [_act("type", "power", "card", card, "use", u) for u in uses]
    return [_act("type", "power", "card", card)]


def _play_actions(card, via, tokens, jungle):
    """Return the plays of `card` with `via` (a Clan card or "free"); cached, as they depend on little."""
    kind = KIND_OF[card]
    if kind not in DINOBLIVION:
        tokens = 0
    key = (card, via, tokens, jungle)
    actions = _PLAYS.get(key)
    if actions is not None:
        return actions
    uses = USES if jungle else USES[:1]
    if kind in OPTION_POWERS and card not in IS_TOTEM:
        actions = [_act("type", "play", "card", card, "via", via, "option", o) for o in OPTION_POWERS[kind]]
    elif kind in DINOBLIVION:
        actions = [_act("type", "play", "card", card, "via", via, "tokens", n, "use", u)
                   for n in range(1, tokens + 1) for u in uses]
    elif ACTION_POWERS.get(kind, Power()).axe:
        actions = [_act("type", "play", "card", card, "via", via, "use", u) for u in uses]
    else:
        actions = [_act("type", "play", "card", card, "via", via)]
    _PLAYS[key] = actions
    return actions


def _mate_actions(state, seat, firsts):
    mated = state["mated"]
    hand = seat["hand"]
    rights = [c for c in firsts if c in GIVES_RIGHT]
    lefts = [c for c in firsts if c in GIVES_LEFT]
    if mated:
        rights += [c for c in seat["play"] if mated.get(c) == "L"]
        lefts += [c for c in seat["play"] if mated.get(c) == "R"]
    actions = []
    for x in rights:
        for y in lefts:
            if x == y:
                y = next((c for c in hand if c != x and KIND_OF[c] == KIND_OF[x]), None)
                if y is None:
                    continue
            actions.append(_act("type", "mate", "cards", (x, y)))
    return actions


def _pending_actions(state):
    step = state["pending"][0]
    seat = state["seats"][state["turn"]]
    if step["kind"] == "workar":
        jungle = bool(state["jungle"])
        tokens = min(MAX_DINOBLIVION_TOKENS, seat["dino"])
        actions = [a for card in _workar_choices(seat, step) for a in _play_actions(card, step["card"], tokens, jungle)]
        return actions + [SKIP]
    if step["kind"] == "gain":
        return [_act("type", "gain", "card", c) for c in state["grounds"][step["side"]] if c not in IS_UNIQUE]
    if step["from"] == "play":
        choices = _first_of_each_kind(seat["play"]) + seat["totems"]
    else:
        choices = _destroy_choices(seat)
    actions = [_act("type", "destroy", "card", c) for c in choices]
    return actions + [SKIP] if step.get("optional") else actions


def _workar_choices(seat, step):
    """Action cards Workar may still play at once: one of each kind of those held when Workar was used."""
    return [c for c in _first_of_each_kind(seat["hand"][:step["held"]]) if c in IS_ACTION]


# ---------------------------------------------------------------------------------------------------
# Checking an action: every refusal says why, in words a player understands.

def check(state, player, action):
    """Raise IllegalAction with a reason unless `player` may take `action` now."""
    if state["phase"] == "over":
        raise IllegalAction("The game is over.")
    if player != state["turn"]:
        raise IllegalAction(f"It is not your turn: it is {state['players'][state['turn']]}'s turn.")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("Send an action with a type, such as {'type': 'end'}.")
    for field, value in action.items():
        if field == "cards":
            if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
                raise IllegalAction("'cards' is a list of card names.")
        elif isinstance(value, list | dict):
            raise IllegalAction(f"{field!r} is a name or a number, not {json.dumps(value)}.")
    reason = _why_not(state, player, action)
    if reason:
        raise IllegalAction(reason)


def _name(card):
    return NAME_OF.get(card, str(card)) if isinstance(card, str) else str(card)


def _fields(action, *allowed):
    extra = sorted(set(action) - {"type", *allowed})
    return f"This action does not take {', '.join(repr(f) for f in extra)}." if extra else None


def _why_not(state, player, action):
    kind = action["type"]
    phase = state["phase"]
    if phase == "throw":
        return None if kind == "throw" and len(action) == 1 else "First throw your Buddy pawns to see who plays first."
    if phase == "chief":
        if kind != "chief":
            return "First choose your Clan Chief."
        if action.get("card") not in state["offer"]:
            return "Choose one of the two Chiefs on offer: " + " or ".join(_name(c) for c in state["offer"]) + "."
        return _fields(action, "card")
    if state["pending"]:
        return _why_not_pending(state, player, action)
    checker = _CHECKERS.get(kind)
    if checker is None:
        return f"There is no action called {kind!r}."
    return checker(state, player, state["seats"][player], action)


def _why_not_pending(state, player, action):
    step = state["pending"][0]
    seat = state["seats"][player]
    kind = action["type"]
    if step["kind"] == "workar":
        return _why_not_workar(state, seat, step, action)
    if step["kind"] == "gain":
        if kind != "gain":
            return f"First choose the card you gain from the {step['side']} Hunting Ground."
        card = action.get("card")
        if card not in state["grounds"][step["side"]]:
            return f"Choose a card from the {step['side']} Hunting Ground."
        if card in IS_UNIQUE:
            return f"{_name(card)} is UNIQUE: it cannot be gained by defeating a dinosaur, only bought."
        return _fields(action, "card")
    if kind == "skip" and step.get("optional"):
        return _fields(action)
    if kind != "destroy":
        where = "in play" if step["from"] == "play" else "in your hand or in play"
        return f"First choose a card {where} to destroy."
    card = action.get("card")
    allowed = seat["play"] + seat["totems"] + ([] if step["from"] == "play" else seat["hand"])
    if card not in allowed:
        return "Choose a card in play to destroy." if step["from"] == "play" else \
            "Choose a card in your hand or in play to destroy."
    return _fields(action, "card")


def _why_not_workar(state, seat, step, action):
    """Check the second Action card of a Workar play (the rulebook: 2 Action cards at once), or playing none."""
    kind = action["type"]
    if kind == "skip":
        return _fields(action)
    workar = _name(step["card"])
    if kind != "play":
        return (f"{workar} plays 2 Action cards at once: first play the second one from your hand, "
                "or choose to play none.")
    card = action.get("card")
    if action.get("via") != step["card"]:
        return f"Play the second Action card with {workar} (via {step['card']!r}), or choose to play none."
    if card not in seat["hand"]:
        return f"{_name(card) if card in NAME_OF else 'That card'} is not in your hand."
    if card not in IS_ACTION:
        return f"{_name(card)} is a Clan card: {workar} plays Action cards (hand icon)."
    if card not in seat["hand"][:step["held"]]:
        return (f"{_name(card)} was drawn after {workar} was used: the 2 Action cards are played at once, "
                "so the second must already have been in your hand.")
    return _why_not_action_effect(state, seat, card, action)


def _why_not_hand_clan(state, seat, card, verb):
    if card in seat["play"] or card in seat["totems"]:
        return f"{_name(card)} has already been used this turn."
    if card not in seat["hand"]:
        return f"{_name(card) if card in NAME_OF else 'That card'} is not in your hand."
    if card not in IS_CLAN:
        return f"{_name(card)} is an Action card: only a Clan card (person icon) can {verb}."
    return None


def _why_not_use(state, action, axe):
    """Check the 'use' of axe strength: 'fight', or hunt on 'left' / 'right'."""
    use = action.get("use")
    if use not in USES:
        return "Say how to use the strength: 'fight', or hunt on the 'left' or 'right' Hunting Ground."
    if use != "fight" and not state["jungle"]:
        return "The Jungle is empty: there is nothing left to hunt."
    if axe <= 0:
        return "That gives no strength."
    return None


def _why_not_power_spec(state, seat, power, name, action, allowed=()):
    if power.pay and (not isinstance(power.paid, int) or seat[power.pay] < power.paid):
        return f"{name} needs {power.paid} {RESOURCE_WORDS[power.pay]}: you have {seat[power.pay]}."
    if power.axe:
        reason = _why_not_use(state, action, power.axe)
        if reason:
            return reason
        return _fields(action, "card", "use", *allowed)
    return _fields(action, "card", *allowed)


def _check_end(state, player, seat, action):
    return _fields(action)


def _check_buy(state, player, seat, action):
    side = action.get("ground")
    if side not in SIDES:
        return "Buy from the 'left' or the 'right' Hunting Ground."
    pile = state["grounds"][side]
    if not pile:
        return f"The {side} Hunting Ground is empty."
    card = pile[-1]
    kind = CARD_KIND[card]
    if card in IS_CLAN and seat["buddy"] < kind.cost_buddy:
        return f"{kind.name} costs {kind.cost_buddy} Buddy pawns: you have {seat['buddy']}."
    if card in IS_ACTION and seat["food"] < kind.cost_food:
        return f"{kind.name} costs {kind.cost_food} Food: you have {seat['food']}."
    return _fields(action, "ground")


def _check_hunt(state, player, seat, action):
    card = action.get("card")
    reason = _why_not_hand_clan(state, seat, card, "hunt")
    if reason:
        return reason
    if action.get("ground") not in SIDES:
        return "Hunt on the 'left' or the 'right' Hunting Ground."
    if not state["jungle"]:
        return "The Jungle is empty: there is nothing left to hunt."
    if strength(state, seat, card) <= 0:
        return f"{_name(card)} has no strength now, so it cannot hunt."
    return _fields(action, "card", "ground")


def _check_fight(state, player, seat, action):
    card = action.get("card")
    reason = _why_not_hand_clan(state, seat, card, "fight")
    if reason:
        return reason
    if strength(state, seat, card) <= 0:
        return f"{_name(card)} has no strength now, so it cannot fight."
    return _fields(action, "card")


def _check_power(state, player, seat, action):
    card = action.get("card")
    reason = _why_not_hand_clan(state, seat, card, "use a power")
    if reason:
        return reason
    kind = KIND_OF[card]
    name = _name(card)
    if kind in ("artis", "workar"):
        return f"{name}'s power is used by playing an Action card with {name}."
    if kind in CHIEF_POWERS:
        target = action.get("target")
        if target == card:
            return "A Chief cannot destroy itself: choose another card."
        if target not in seat["hand"] and target not in seat["play"] and target not in seat["totems"]:
            return f"Choose a card in your hand or in play for {name} to destroy."
        return _why_not_power_spec(state, seat, CHIEF_POWERS[kind], name, action, ("target",))
    if kind == "neandertar":
        other = _opponent(state, player)
        if other is None:
            return "Neandertar's power is of no use in Solo."
        eggs = state["seats"][other]["eggs"]
        if not eggs:
            return f"{state['players'][other]} has no face-down egg to destroy."
        egg = action.get("egg")
        if not isinstance(egg, int) or isinstance(egg, bool) or not 0 <= egg < len(eggs):
            return f"Choose one of {state['players'][other]}'s face-down eggs: 0 to {len(eggs) - 1}."
        return _fields(action, "card", "egg")
    power = CLAN_POWERS.get(kind)
    if power is None:
        return f"{name} has no power to use: it can hunt, fight, play an Action card or mate."
    if kind == "shaman" and totem_symbols(seat) < SHAMAN_TOTEMS:
        return f"Shaman needs {SHAMAN_TOTEMS} Totem symbols in play: you have {totem_symbols(seat)}."
    return _why_not_power_spec(state, seat, power, name, action)


def _check_play(state, player, seat, action):
    card = action.get("card")
    if card in seat["play"] or card in seat["totems"]:
        return f"{_name(card)} has already been played."
    if card not in seat["hand"]:
        return f"{_name(card) if card in NAME_OF else 'That card'} is not in your hand."
    if card not in IS_ACTION:
        return f"{_name(card)} is a Clan card: play Action cards (hand icon) with a Clan card."
    via = action.get("via")
    if via == "free":
        if state["free"] <= 0:
            return "You have no free Action play: you need a Clan card (person icon) to play an Action card."
    else:
        if via is None:
            return "To play an Action card you need a Clan card (person icon): say which one ('via')."
        reason = _why_not_hand_clan(state, seat, via, "play an Action card")
        if reason:
            return reason
    return _why_not_action_effect(state, seat, card, action)


def _why_not_action_effect(state, seat, card, action):
    """Check what a played Action card is told to do: its bonus, its Dino tokens, how its strength is used."""
    kind = KIND_OF[card]
    if card in IS_TOTEM:
        return _fields(action, "card", "via")
    extra = ("via", "tokens") if kind in DINOBLIVION else ("via",)
    if kind in OPTION_POWERS:
        if action.get("option") not in OPTION_POWERS[kind]:
            return f"{_name(card)}: choose one bonus: " + " or ".join(repr(o) for o in OPTION_POWERS[kind]) + "."
        return _fields(action, "card", "via", "option")
    if kind in DINOBLIVION:
        tokens = action.get("tokens")
        if not isinstance(tokens, int) or isinstance(tokens, bool) or not 1 <= tokens <= MAX_DINOBLIVION_TOKENS:
            return f"Dinoblivion: pay 1 to {MAX_DINOBLIVION_TOKENS} Dino tokens ('tokens') for 2 strength each."
    return _why_not_power_spec(state, seat, _effect_power(kind, action), _name(card), action, extra)


def _check_totem(state, player, seat, action):
    card = action.get("card")
    if card not in seat["totems"]:
        return f"{_name(card) if card in NAME_OF else 'That card'} is not one of your Totems in play."
    if card in state["used_totems"]:
        return f"{_name(card)} has already been used this turn."
    kind = KIND_OF[card]
    if kind in OPTION_POWERS:
        if action.get("option") not in OPTION_POWERS[kind]:
            return f"{_name(card)}: choose one bonus: " + " or ".join(repr(o) for o in OPTION_POWERS[kind]) + "."
        return _fields(action, "card", "option")
    power = TOTEM_POWERS.get(kind)
    if power is None:
        return f"{_name(card)} has no power: it is worth {TOTEM_SYMBOLS[card]} Totem symbols."
    return _why_not_power_spec(state, seat, power, _name(card), action)


def _check_mate(state, player, seat, action):
    pair = action.get("cards")
    if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(isinstance(c, str) for c in pair):
        return "Mate two Clan cards: the one with a half symbol on its right edge, then the one with a half on its left."
    x, y = pair
    if x == y:
        return "A card cannot mate with itself."
    mated = state["mated"]
    for card, gives, side, needed in ((x, GIVES_RIGHT, "right", "R"), (y, GIVES_LEFT, "left", "L")):
        if card in seat["hand"]:
            if card not in IS_CLAN:
                return f"{_name(card)} is an Action card: only Clan cards mate."
            if card not in gives:
                return f"{_name(card)} has no half symbol on its {side} edge."
        elif card in seat["play"] and card in IS_BOTH and mated.get(card) == {"R": "L", "L": "R"}[needed]:
            continue
        elif card in seat["play"]:
            return f"{_name(card)} has already been used this turn."
        else:
            return f"{_name(card) if card in NAME_OF else 'That card'} is not in your hand."
    return _fields(action, "cards")


def _check_cave(state, player, seat, action):
    card = action.get("card")
    if card not in seat["hand"]:
        return f"{_name(card) if card in NAME_OF else 'That card'} is not in your hand: only a card from your hand goes in the Cave."
    return _fields(action, "card")


def _check_uncave(state, player, seat, action):
    if not seat["cave"]:
        return "Your Cave is empty."
    return _fields(action)


def _check_attack(state, player, seat, action):
    side = action.get("side")
    if side not in SIDES:
        return "Attack the 'left' or the 'right' dinosaur."
    dinos = state["dinos"][side]
    if not dinos:
        return f"There is no dinosaur left on the {side}."
    if side in state["fought"]:
        return f"You have already fought a dinosaur from the {side} deck this turn: only 1 fight per deck per turn."
    dino = dinos[-1]
    if state["strength"] < STRENGTH[dino]:
        return (f"The {_name(dino)} has strength {STRENGTH[dino]}: your fight strength is {state['strength']}. "
                "Use more cards or powers to fight first.")
    return _fields(action, "side")


def _check_defeat(state, player, seat, action):
    enemy = action.get("enemy")
    if not any(enemy in pile for pile in state["enemies"].values()):
        return "There is no such Enemy beside the board."
    if state["strength"] < STRENGTH[enemy]:
        return f"{_name(enemy)} needs strength {STRENGTH[enemy]}: your fight strength is {state['strength']}."
    return _fields(action, "enemy")


def _check_pending_only(state, player, seat, action):
    return "There is nothing to choose now."


_CHECKERS = {
    "end": _check_end, "buy": _check_buy, "hunt": _check_hunt, "fight": _check_fight, "power": _check_power,
    "play": _check_play, "totem": _check_totem, "mate": _check_mate, "cave": _check_cave,
    "uncave": _check_uncave, "attack": _check_attack, "defeat": _check_defeat,
    "destroy": _check_pending_only, "gain": _check_pending_only, "skip": _check_pending_only,
    "throw": lambda *a: "The evolution throw is over.", "chief": lambda *a: "The Chiefs are already chosen.",
}


# ---------------------------------------------------------------------------------------------------
# Applying an action.

def apply(state, player, action):
    """Return the state after `player` takes `action`; the given state is never changed."""
    check(state, player, action)
    # Only the Chief draft (everyone draws) and Neandertar (the opponent's eggs) touch another seat.
    state = _clone(state, None if action["type"] == "chief" or "egg" in action else player)
    try:
        _APPLIERS[action["type"]](state, player, state["seats"][player], action)
    except _Over:
        pass
    return state


def _gain(seat, resource, amount):
    # Dino tokens destroyed by a Dinoblivion card have left the game: the bank has that many fewer to give.
    cap = CAP - (seat.get("burnt", 0) if resource == "dino" else 0)
    seat[resource] = max(seat[resource], min(cap, seat[resource] + amount))


def _take_egg(state, seat_index):
    """Give one egg from the bank (Solo: reveal it and add that many set-aside cards under the Jungle)."""
    if not state["egg_bank"]:
        return
    egg = state["egg_bank"].pop()
    seat = state["seats"][seat_index]
    if state["mode"] == "duel":
        seat["eggs"].append(egg)
        _log(state, {"type": "egg", "seat": seat_index})
        return
    seat["shown"].append(egg)
    added = 0
    for _ in range(C.EGG_POINTS[egg]):
        if state["setaside"]:
            state["jungle"].insert(0, state["setaside"].pop())
            state["bottom"].insert(0, "s")
            added += 1
    _log(state, {"type": "egg", "seat": seat_index, "value": egg, "added": added})


def _resolve(state, seat_index, power, use=None):
    """Pay, gain, draw, then use any axe strength: add it to the fight or hunt with it."""
    seat = state["seats"][seat_index]
    if power.pay:
        seat[power.pay] -= power.paid
        if power.burns:
            seat["burnt"] = seat.get("burnt", 0) + power.paid
    if power.food:
        _gain(seat, "food", power.food)
    if power.dino:
        _gain(seat, "dino", power.dino)
    if power.buddy:
        _gain(seat, "buddy", power.buddy)
    for _ in range(power.eggs):
        _take_egg(state, seat_index)
    if power.free:
        state["free"] += power.free
    if power.draw:
        _draw(state, seat_index, power.draw)
    if power.axe:
        if use == "fight":
            state["strength"] += power.axe
        else:
            _hunt(state, seat_index, use, power.axe)


def _apply_throw(state, player, seat, action):
    rng = _rng(state)
    standing = sum(1 for _ in range(PAWNS) if rng.random() < STAND_CHANCE)
    state["throws"][player] = standing
    _log(state, {"type": "throw", "seat": player, "standing": standing})
    if player == 0:
        state["turn"] = 1
        return
    first, second = state["throws"]
    if first == second:
        _log(state, {"type": "tie"})
        state["throws"] = [None, None]
        state["turn"] = 0
        return
    state["first"] = state["turn"] = 0 if first > second else 1
    state["phase"] = "chief"


def _apply_chief(state, player, seat, action):
    card = action["card"]
    state["offer"].remove(card)
    seat["chief"] = card
    seat["deck"].append(card)
    _log(state, {"type": "chief", "seat": player, "card": card})
    if state["mode"] == "duel" and player == state["first"]:
        box = state["box"]
        chiefs = [c for c in box if c in C.CHIEFS]
        added = chiefs[_rng(state).randrange(len(chiefs))]
        box.remove(added)
        state["offer"].append(added)
        state["turn"] = 1 - player
        return
    state["box"] = state["box"] + state["offer"]
    state["offer"] = []
    for index, other in enumerate(state["seats"]):
        _rng(state).shuffle(other["deck"])
        other["food"], other["buddy"] = START_FOOD, START_BUDDY
        _draw(state, index, HAND_SIZE)
    state["phase"] = "play"
    state["turn"] = state["first"]
    state["turns"] = 1
    _log(state, {"type": "turn", "seat": state["turn"], "turn": 1})


def _use_clan(seat, card):
    """Take a Clan card from the hand into play (rotated)."""
    seat["hand"].remove(card)
    seat["play"].append(card)


def _apply_hunt(state, player, seat, action):
    card = action["card"]
    amount = strength(state, seat, card)
    _use_clan(seat, card)
    _hunt(state, player, action["ground"], amount, card)


def _hunt(state, seat_index, side, amount, card=None):
    """Flip `amount` Jungle cards onto a Hunting Ground; gain the Food on the brown cards revealed."""
    jungle, bottom, pile = state["jungle"], state["bottom"], state["grounds"][side]
    food = 0
    flipped = []
    for _ in range(amount):
        if not jungle:
            break
        flip = jungle.pop()
        if len(bottom) > len(jungle):
            del bottom[len(jungle):]
        if flip in IS_ENEMY:
            # Solo: an Enemy found by a hunt goes under the Jungle, without effect.
            jungle.insert(0, flip)
            bottom.insert(0, KIND_OF[flip])
            flipped.append(flip)
            continue
        pile.append(flip)
        flipped.append(flip)
        food += FOOD_ICONS.get(flip, 0)
    _gain(state["seats"][seat_index], "food", food)
    _log(state, {"type": "hunt", "seat": seat_index, "card": card, "ground": side, "strength": amount,
                 "flipped": flipped, "food": food})
    _check_jungle(state)


def _check_jungle(state):
    if not state["jungle"] and state["mode"] == "duel":
        _trigger_end(state, "the Jungle is empty")


def _trigger_end(state, reason):
    if state["end"] is None:
        state["end"] = {"reason": reason, "turn": state["turns"], "seat": state["turn"]}
        _log(state, {"type": "end_triggered", "reason": reason, "seat": state["turn"]})


def _apply_fight(state, player, seat, action):
    card = action["card"]
    amount = strength(state, seat, card)
    _use_clan(seat, card)
    state["strength"] += amount
    _log(state, {"type": "fight", "seat": player, "card": card, "strength": amount, "total": state["strength"]})


def _apply_power(state, player, seat, action):
    card = action["card"]
    kind = KIND_OF[card]
    _use_clan(seat, card)
    event = {"type": "power", "seat": player, "card": card}
    if kind in CHIEF_POWERS:
        target = action["target"]
        _destroy(state, seat, target)
        event["destroyed"] = target
        _log(state, event)
        _resolve(state, player, CHIEF_POWERS[kind], action.get("use"))
        return
    if kind == "neandertar":
        other = state["seats"][1 - player]
        egg = other["eggs"].pop(action["egg"])
        if egg == "2i":
            other["shown"].append(egg)
        else:
            state["eggs_gone"].append(egg)
        event.update(egg=action["egg"], value=egg)
        _log(state, event)
        return
    _log(state, event)
    _resolve(state, player, CLAN_POWERS[kind], action.get("use"))


def _destroy(state, seat, card):
    """Remove a card of this player from the game (from the hand, play or the Totems)."""
    for zone in ("hand", "play", "totems"):
        if card in seat[zone]:
            seat[zone].remove(card)
            break
    state["destroyed"].append(card)
    state["mated"].pop(card, None)
    if card in state["used_totems"]:
        state["used_totems"].remove(card)


def _apply_play(state, player, seat, action):
    card, via = action["card"], action["via"]
    second = bool(state["pending"])  # the second Action card of a Workar play (the only pending play)
    via_kind = None if via == "free" else KIND_OF[via]
    if via == "free":
        state["free"] -= 1
    elif second:
        state["pending"] = state["pending"][1:]
    else:
        _use_clan(seat, via)
    seat["hand"].remove(card)
    kind = KIND_OF[card]
    _log(state, {"type": "play", "seat": player, "card": card, "via": via})
    if via_kind == "workar" and not second:
        if state.get("workar_later"):
            state["free"] += 1
        else:
            # The rulebook: 2 Action cards at once. The second must be one of the cards held now, before this
            # card's power draws any: they are the first `held` cards of the hand (a draw adds at the end).
            state["pending"] = [{"kind": "workar", "card": via, "held": len(seat["hand"])}]
    if card in IS_TOTEM:
        seat["totems"].append(card)
    else:
        seat["play"].append(card)
        _resolve(state, player, _effect_power(kind, action), action.get("use"))
    if via_kind == "artis":
        _draw(state, player, 1)
    _settle(state)


def _apply_totem(state, player, seat, action):
    card = action["card"]
    state["used_totems"].append(card)
    _log(state, {"type": "totem", "seat": player, "card": card})
    _resolve(state, player, _effect_power(KIND_OF[card], action), action.get("use"))


def _apply_mate(state, player, seat, action):
    x, y = action["cards"]
    mated = state["mated"]
    for card, side in ((x, "R"), (y, "L")):
        if card in seat["hand"]:
            _use_clan(seat, card)
            if card in IS_BOTH:
                mated[card] = side
        else:
            mated[card] = "LR"
    gained = seat["buddy"] < CAP
    _gain(seat, "buddy", 1)
    _log(state, {"type": "mate", "seat": player, "cards": [x, y], "buddy": int(gained)})
    if not gained:
        return
    for card in (x, y):
        if KIND_OF[card] == "ayla":
            if card == x:   # Ayla's right edge completed
                _take_egg(state, player)
            else:
                _gain(seat, "buddy", 1)
    for card in (x, y):
        if KIND_OF[card] == "gogo":
            _draw(state, player, 2)


def _apply_cave(state, player, seat, action):
    card = action["card"]
    seat["hand"].remove(card)
    if seat["cave"]:
        seat["hand"].append(seat["cave"])
    seat["cave"] = card
    _log(state, {"type": "cave", "seat": player})


def _apply_uncave(state, player, seat, action):
    seat["hand"].append(seat["cave"])
    seat["cave"] = None
    _log(state, {"type": "uncave", "seat": player})


def _apply_buy(state, player, seat, action):
    side = action["ground"]
    card = state["grounds"][side].pop()
    kind = CARD_KIND[card]
    if card in IS_CLAN:
        seat["buddy"] -= kind.cost_buddy
    else:
        seat["food"] -= kind.cost_food
    seat["discard"].append(card)
    _log(state, {"type": "buy", "seat": player, "card": card, "ground": side})
    _check_ground(state, side)


def _check_ground(state, side):
    if not state["grounds"][side] and state["mode"] == "duel" and state["end_trigger"] == "hunting_grounds":
        _trigger_end(state, f"the {side} Hunting Ground is empty")


def _apply_attack(state, player, seat, action):
    side = action["side"]
    dino = state["dinos"][side].pop()
    kind = CARD_KIND[dino]
    seat["trophies"].append(dino)
    state["fought"].append(side)
    state["strength"] = 0
    revealed = state["dinos"][side][-1] if state["dinos"][side] else None
    _log(state, {"type": "attack", "seat": player, "dino": dino, "side": side, "revealed": revealed})
    if not state["dinos"]["left"] and not state["dinos"]["right"]:
        if state["mode"] == "solo":
            _finish(state, {"won": True, "reason": "every dinosaur is defeated"})
        _trigger_end(state, "every dinosaur is defeated")
    elif not state["dinos"][side] and state["mode"] == "duel" and state["end_trigger"] == "dinosaur_decks":
        _trigger_end(state, f"the {side} dinosaur deck is empty")
    state["pending"] = [{"kind": "destroy", "from": "hand_play"}] * kind.destroy + \
        [{"kind": "gain", "side": side}] * kind.gain
    _resolve(state, player, Power(food=kind.food, dino=kind.tokens, buddy=kind.buddy, eggs=kind.eggs))
    _settle(state)


def _settle(state):
    """Drop pending choices that have nothing to choose from."""
    seat = state["seats"][state["turn"]]
    while state["pending"]:
        step = state["pending"][0]
        if step["kind"] == "workar":
            if _workar_choices(seat, step):
                return
        elif step["kind"] == "gain":
            if any(c not in IS_UNIQUE for c in state["grounds"][step["side"]]):
                return
        elif seat["play"] or seat["totems"] or (step["from"] != "play" and seat["hand"]):
            return
        state["pending"] = state["pending"][1:]


def _apply_defeat(state, player, seat, action):
    enemy = action["enemy"]
    for pile in state["enemies"].values():
        if enemy in pile:
            pile.remove(enemy)
    state["strength"] = 0
    state["jungle"].append(enemy)
    _rng(state).shuffle(state["jungle"])
    state["bottom"] = []
    _log(state, {"type": "defeat", "seat": player, "enemy": enemy})
    reward = ENEMY_REWARDS[STRENGTH[enemy]]
    if reward is None:
        state["pending"] = [{"kind": "destroy", "from": "play", "optional": True}]
        _settle(state)
    else:
        _resolve(state, player, reward)


def _apply_destroy(state, player, seat, action):
    card = action["card"]
    _destroy(state, seat, card)
    state["pending"] = state["pending"][1:]
    _log(state, {"type": "destroy", "seat": player, "card": card})
    _settle(state)


def _apply_skip(state, player, seat, action):
    state["pending"] = state["pending"][1:]
    _settle(state)


def _apply_gain(state, player, seat, action):
    side = state["pending"][0]["side"]
    card = action["card"]
    state["grounds"][side].remove(card)
    seat["discard"].append(card)
    state["pending"] = state["pending"][1:]
    _log(state, {"type": "gain", "seat": player, "card": card, "ground": side})
    _check_ground(state, side)
    _settle(state)


def _apply_end(state, player, seat, action):
    seat["discard"].extend(seat["play"])
    seat["discard"].extend(seat["hand"])
    seat["play"], seat["hand"] = [], []
    state.update(strength=0, fought=[], free=0, used_totems=[], mated={})
    _log(state, {"type": "end_turn", "seat": player})
    _draw(state, player, HAND_SIZE)
    if state["mode"] == "solo":
        if state["turns"] >= MAX_TURNS:
            _finish(state, {"won": False, "reason": f"the clan did not defeat every dinosaur in {MAX_TURNS} turns"})
    elif player != state["first"]:
        if state["end"] is not None:
            _finish(state, {"reason": state["end"]["reason"]})
        if state["turns"] >= MAX_TURNS:
            _finish(state, {"reason": f"the turn limit ({MAX_TURNS} turns) is reached"})
    state["turns"] += 1
    state["turn"] = _opponent(state, player) if state["mode"] == "duel" else player
    _log(state, {"type": "turn", "seat": state["turn"], "turn": state["turns"]})


def _finish(state, outcome):
    state["phase"] = "over"
    state["pending"] = []
    state["outcome"] = outcome
    _log(state, {"type": "over", **outcome})
    raise _Over


def _draw(state, seat_index, count):
    """Draw cards; drawing the last card of the deck enrages the dinosaurs; reshuffle only when needed."""
    seat = state["seats"][seat_index]
    drawn = 0
    for _ in range(count):
        if not seat["deck"]:
            if not seat["discard"]:
                break
            seat["deck"], seat["discard"] = seat["discard"], []
            _rng(state).shuffle(seat["deck"])
            _log(state, {"type": "reshuffle", "seat": seat_index})
        seat["hand"].append(seat["deck"].pop())
        drawn += 1
        if not seat["deck"] and state["phase"] == "play":
            _log(state, {"type": "draw", "seat": seat_index, "count": drawn})
            drawn = 0
            _rage(state)
    if drawn:
        _log(state, {"type": "draw", "seat": seat_index, "count": drawn})


def _rage(state):
    """The dinosaurs are enraged: flip Jungle cards onto each side's Hunting Ground."""
    solo = state["mode"] == "solo"
    counts = {}
    for side in SIDES:
        dinos = state["dinos"][side]
        count = LEVEL[dinos[-1]] if dinos else (3 if solo else 0)
        counts[side] = count + (len(state["enemies"][side]) if solo else 0)
    _log(state, {"type": "rage", "counts": counts})
    for side in SIDES:
        _flip(state, side, counts[side])


def _flip(state, side, count):
    """Flip cards onto a side (Rage, Volcano, Enemies); in Solo an Enemy stays beside the board."""
    jungle, bottom = state["jungle"], state["bottom"]
    solo = state["mode"] == "solo"
    flipped = []
    while count > 0:
        count -= 1
        if not jungle:
            if solo:
                _finish(state, {"won": False, "reason": "the Jungle ran out: the volcano erupts"})
            break
        card = jungle.pop()
        if len(bottom) > len(jungle):
            del bottom[len(jungle):]
        flipped.append(card)
        if card in IS_ENEMY:
            state["enemies"][side].append(card)
            count += 1
        else:
            state["grounds"][side].append(card)
    if flipped:
        _log(state, {"type": "flip", "ground": side, "flipped": flipped})
    _check_jungle(state)


_APPLIERS = {
    "throw": _apply_throw, "chief": _apply_chief, "end": _apply_end, "buy": _apply_buy, "hunt": _apply_hunt,
    "fight": _apply_fight, "power": _apply_power, "play": _apply_play, "totem": _apply_totem,
    "mate": _apply_mate, "cave": _apply_cave, "uncave": _apply_uncave, "attack": _apply_attack,
    "defeat": _apply_defeat, "destroy": _apply_destroy, "skip": _apply_skip, "gain": _apply_gain,
}


# ---------------------------------------------------------------------------------------------------
# Score and result.

def owned_cards(seat):
    """Return every card a player owns (deck, hand, discard, play, Totems, Cave)."""
    cave = [seat["cave"]] if seat["cave"] else []
    return seat["deck"] + seat["hand"] + seat["discard"] + seat["play"] + seat["totems"] + cave


def families(cards):
    """Return the most family symbols these cards make: a right-edge half with a left-edge half of another card.

    >>> families(["bananar_sun-1", "explorar_sun-1", "explorar_sun-2"])
    1
    >>> families(["gogo-1"]), families(["gogo-1", "gogo-2"]), families(["gogo-1", "explorar_sun-1"])
    (0, 2, 1)
    """
    lefts = rights = both = 0
    for card in cards:
        half = HALF.get(card)
        if half == "left":
            lefts += 1
        elif half == "right":
            rights += 1
        elif half == "both":
            both += 1
    # Pair left-edge halves (left + both) with right-edge halves (right + both). The pairing is complete
    # bipartite except a card with itself, which only matters for a lone Gogo or Ayla.
    if both == 1 and lefts == 0 and rights == 0:
        return 0
    return min(lefts + both, rights + both)


def score_breakdown(state, seat_index):
    """Return a player's points: family symbols, Totem symbols, dinosaurs and eggs (eggs are revealed)."""
    seat = state["seats"][seat_index]
    pairs = families(owned_cards(seat))
    symbols = totem_symbols(seat)
    eggs = seat["eggs"] + seat["shown"]
    egg_points = sum(C.EGG_POINTS[e] for e in eggs)
    dinos = len(seat["trophies"])
    return {"families": pairs, "family_points": 2 * pairs, "totem_symbols": symbols, "dinosaurs": dinos,
            "dinosaur_levels": sum(LEVEL[d] for d in seat["trophies"]), "eggs": len(eggs), "egg_points": egg_points,
            "total": 2 * pairs + symbols + dinos + egg_points}


def result(state):
    """Return the winners, scores and how the game ended, or None while it is being played."""
    if not is_over(state):
        return None
    outcome = state["outcome"]
    breakdown = [score_breakdown(state, i) for i in range(len(state["players"]))]
    if state["mode"] == "solo":
        return {"winners": [0] if outcome["won"] else [], "won": outcome["won"], "reason": outcome["reason"],
                "scores": [breakdown[0]["total"]], "breakdown": breakdown}
    keys = [(b["total"], b["dinosaur_levels"]) for b in breakdown]
    best = max(keys)
    return {"winners": [i for i, k in enumerate(keys) if k == best], "reason": outcome["reason"],
            "scores": [b["total"] for b in breakdown], "breakdown": breakdown}


# ---------------------------------------------------------------------------------------------------
# What a player sees.

def _kinds(cards):
    return dict(sorted(Counter(KIND_OF[c] for c in cards).items()))


def _floating_enemies(state):
    """Enemies in the Jungle whose place nobody knows (those put under it by a hunt are known)."""
    known = Counter(tag for tag in state["bottom"] if tag != "s")
    inside = Counter(KIND_OF[c] for c in state["jungle"] if c in IS_ENEMY)
    return dict(sorted((inside - known).items()))


def shown_ground(state, side, viewer):
    """Return the cards of a Hunting Ground that `viewer` may see, bottom first: only the top card ("the game
    etiquette does not allow the player to look at the Hunting Ground cards at any time"), the whole pile under
    the house rule of open Hunting Grounds, or to the player choosing a card from it after a win."""
    pile = state["grounds"][side]
    choosing = viewer is not None and viewer == current_player(state) and state["pending"] \
        and state["pending"][0]["kind"] == "gain" and state["pending"][0]["side"] == side
    return list(pile) if state.get("open_grounds") or choosing else pile[-1:]


def observation(state, viewer=None):
    """Return what seat `viewer` (None: a spectator) may see: no hidden card, deck order or egg value."""
    players = []
    over = is_over(state)
    for index, seat in enumerate(state["seats"]):
        own = viewer == index
        hidden = seat["deck"] if own else seat["deck"] + seat["hand"] + ([seat["cave"]] if seat["cave"] else [])
        players.append({
            "seat": index, "name": state["players"][index], "clan": seat["clan"], "chief": seat["chief"],
            "food": seat["food"], "dino": seat["dino"], "buddy": seat["buddy"], "burnt": seat.get("burnt", 0),
            "hand_size": len(seat["hand"]), "deck_size": len(seat["deck"]), "cave": seat["cave"] is not None,
            "discard": list(seat["discard"]), "play": list(seat["play"]), "totems": list(seat["totems"]),
            "trophies": list(seat["trophies"]), "eggs": len(seat["eggs"]), "shown_eggs": list(seat["shown"]),
            # Face-down eggs are revealed only when the game is over.
            "revealed_eggs": list(seat["eggs"]) if over else None,
            # The cards of this seat the viewer cannot see (the viewer's own: the deck), as a multiset of kinds.
            "hidden": _kinds(hidden),
            "families": families(owned_cards(seat)), "totem_symbols": totem_symbols(seat),
            "dinosaurs": len(seat["trophies"]),
        })
    me = state["seats"][viewer] if viewer is not None else None
    dinos = {}
    for side in SIDES:
        pile = state["dinos"][side]
        below = Counter(LEVEL[d] for d in pile[:-1])
        dinos[side] = {"top": pile[-1] if pile else None, "below": {"1": below[1], "2": below[2]}}
    face_down = [d for pile in state["dinos"].values() for d in pile[:-1]] + state["dinos_out"]
    unrevealed = state["egg_bank"] + state["eggs_out"] + [e for seat in state["seats"] if not over for e in seat["eggs"]]
    return {
        "game": NAME, "mode": state["mode"], "difficulty": state["difficulty"], "end_trigger": state["end_trigger"],
        "viewer": viewer,
        "phase": state["phase"], "turn": current_player(state), "first": state["first"], "turns": state["turns"],
        "max_turns": MAX_TURNS, "throws": list(state["throws"]), "offer": list(state["offer"]),
        "players": players,
        "hand": list(me["hand"]) if me else None, "cave": me["cave"] if me else None,
        "grounds": {side: shown_ground(state, side, viewer) for side in SIDES},
        "ground_sizes": {side: len(pile) for side, pile in state["grounds"].items()},
        "open_grounds": state.get("open_grounds", False), "workar_later": state.get("workar_later", False),
        "dinosaurs": dinos, "unseen_dinosaurs": _kinds(face_down),
        "jungle": {"size": len(state["jungle"]), "setaside": len(state["setaside"]), "bottom": list(state["bottom"]),
                   # Kinds of the cards the viewer may not look at: the Jungle, the set-aside cards and the
                   # Hunting Grounds under their top cards, together, so that which is where is not told.
                   "unseen": _kinds([c for c in state["jungle"] + state["setaside"] if c not in IS_ENEMY]
                                    + _unseen_ground_cards(state, viewer)),
                   "enemies": _floating_enemies(state)},
        "enemies": {side: list(pile) for side, pile in state["enemies"].items()},
        "eggs": {"bank": len(state["egg_bank"]), "out": len(state["eggs_out"]),
                 "unrevealed": dict(sorted(Counter(unrevealed).items())), "gone": list(state["eggs_gone"])},
        "destroyed": list(state["destroyed"]),
        "strength": state["strength"], "fought": list(state["fought"]), "free_plays": state["free"],
        "used_totems": list(state["used_totems"]), "mated": dict(state["mated"]),
        "pending": [dict(step) for step in state["pending"]],
        "end": dict(state["end"]) if state["end"] else None, "outcome": state["outcome"],
        "over": over, "result": result(state), "log": list(state["log"]),
    }


def _unseen_ground_cards(state, viewer):
    """Return the Hunting Ground cards `viewer` may not look at."""
    return [card for side in SIDES
            for card in state["grounds"][side][:len(state["grounds"][side]) - len(shown_ground(state, side, viewer))]]


def determinise(observation, viewer, rng):
    """Return a full state consistent with `observation`, every hidden thing drawn again with `rng`.

    Hidden things: deck orders, the other hands and Caves, the Jungle and the set-aside cards (keeping
    the places everyone knows: Enemies a hunt put under the Jungle), face-down dinosaurs and egg values.
    """
    obs = observation
    visible = set(obs["offer"]) | set(obs["destroyed"])
    for p in obs["players"]:
        visible.update(p["discard"], p["play"], p["totems"], p["trophies"])
    for side in SIDES:
        visible.update(obs["grounds"][side], obs["enemies"][side])
        if obs["dinosaurs"][side]["top"]:
            visible.add(obs["dinosaurs"][side]["top"])
    if viewer is not None:
        visible.update(obs["hand"])
        if obs["cave"]:
            visible.add(obs["cave"])
    unseen = {}
    for card in C.ALL_CARDS:
        if card not in visible:
            unseen.setdefault(KIND_OF[card], []).append(card)

    def take(multiset):
        cards = [unseen[kind].pop() for kind, count in multiset.items() for _ in range(count)]
        rng.shuffle(cards)
        return cards

    seats = []
    for p in obs["players"]:
        pool = take(p["hidden"])
        seat = {"clan": p["clan"], "chief": p["chief"], "deck": pool, "hand": [], "discard": list(p["discard"]),
                "play": list(p["play"]), "totems": list(p["totems"]), "cave": None, "trophies": list(p["trophies"]),
                "eggs": [], "shown": list(p["shown_eggs"]), "food": p["food"], "dino": p["dino"], "buddy": p["buddy"],
                "burnt": p["burnt"]}
        if p["seat"] == viewer:
            seat["hand"], seat["cave"] = list(obs["hand"]), obs["cave"]
        else:
            seat["hand"], pool = pool[:p["hand_size"]], pool[p["hand_size"]:]
            if p["cave"]:
                seat["cave"], pool = pool[0], pool[1:]
            seat["deck"] = pool
        seats.append(seat)
    jungle_info = obs["jungle"]
    loose = take(jungle_info["unseen"])
    grounds = {side: [loose.pop() for _ in range(obs["ground_sizes"][side] - len(obs["grounds"][side]))]
               + list(obs["grounds"][side]) for side in SIDES}
    bottom = [loose.pop() if tag == "s" else unseen[tag].pop() for tag in jungle_info["bottom"]]
    top = take(jungle_info["enemies"])
    top += [loose.pop() for _ in range(jungle_info["size"] - len(bottom) - len(top))]
    rng.shuffle(top)
    dinos, out = {}, []
    by_level = {1: [], 2: []}
    for card in take(obs["unseen_dinosaurs"]):
        by_level[LEVEL[card]].append(card)
    for side in SIDES:
        info = obs["dinosaurs"][side]
        pile = [by_level[2].pop() for _ in range(info["below"]["2"])] + [by_level[1].pop() for _ in range(info["below"]["1"])]
        dinos[side] = pile + ([info["top"]] if info["top"] else [])
    out = by_level[1] + by_level[2]
    eggs = [kind for kind, count in obs["eggs"]["unrevealed"].items() for _ in range(count)]
    rng.shuffle(eggs)
    for seat, p in zip(seats, obs["players"]):
        seat["eggs"] = list(p["revealed_eggs"]) if obs["over"] else [eggs.pop() for _ in range(p["eggs"])]
    bank = [eggs.pop() for _ in range(obs["eggs"]["bank"])]
    box = [card for cards in unseen.values() for card in cards]
    if any(card not in BOXED for card in box):
        raise ValueError(f"The observation does not account for every card: {sorted(box)}.")
    return {
        "game": NAME, "mode": obs["mode"], "difficulty": obs["difficulty"], "end_trigger": obs["end_trigger"],
        "players": [p["name"] for p in obs["players"]], "seed": rng.getrandbits(64), "draws": 0,
        "phase": obs["phase"], "turn": obs["turn"] if obs["turn"] is not None else obs["players"][0]["seat"],
        "first": obs["first"], "turns": obs["turns"], "throws": list(obs["throws"]), "offer": list(obs["offer"]),
        "box": box, "seats": seats, "jungle": bottom + top, "grounds": grounds, "open_grounds": obs["open_grounds"],
        "workar_later": obs["workar_later"],
        "dinos": dinos, "dinos_out": out, "enemies": {s: list(obs["enemies"][s]) for s in SIDES},
        "setaside": loose, "bottom": list(jungle_info["bottom"]), "egg_bank": bank, "eggs_out": eggs,
        "eggs_gone": list(obs["eggs"]["gone"]), "destroyed": list(obs["destroyed"]),
        "strength": obs["strength"], "fought": list(obs["fought"]), "free": obs["free_plays"],
        "used_totems": list(obs["used_totems"]), "mated": dict(obs["mated"]),
        "pending": [dict(step) for step in obs["pending"]], "end": dict(obs["end"]) if obs["end"] else None,
        "outcome": obs["outcome"], "log": list(obs["log"]),
    }


def hidden(state, viewer):
    """Return what seat `viewer` (None: a spectator) must not learn: the ids of unseen cards, face-down egg values."""
    unseen = state["jungle"] + state["setaside"] + state["dinos_out"]
    # The box: Chiefs never offered and cards left out of this game. The Chief left over from the draft lies
    # there too; it was seen once, but no observation names it again, so it is kept as the box keeps it.
    unseen += state["box"]
    unseen += [dino for pile in state["dinos"].values() for dino in pile[:-1]]
    unseen += _unseen_ground_cards(state, viewer)
    for index, seat in enumerate(state["seats"]):
        unseen += seat["deck"]
        if index != viewer:
            unseen += seat["hand"] + ([seat["cave"]] if seat["cave"] else [])
    # Everyone saw the Chief draft, so each Chief is known wherever it lies.
    chiefs = {seat["chief"] for seat in state["seats"]}
    secrets = {card for card in unseen if card not in chiefs}
    if not is_over(state):
        # A face-down set of eggs equal to the revealed ones could not be told apart from them.
        secrets |= {(seat["clan"], tuple(seat["eggs"])) for seat in state["seats"]
                    if seat["eggs"] and seat["eggs"] != seat["shown"]}
    return secrets


def example_configs():
    """Return small valid set-ups for tests: a Duel under each end trigger (one with both house rules, open Hunting
    Grounds and Workar's later play), and a Solo game at the shortest difficulty."""
    return [{"mode": "duel", "players": ["Ada", "Ben"]},
            {"mode": "duel", "players": ["Ada", "Ben"], "end_trigger": "dinosaur_decks", "open_grounds": True,
             "workar_later": True},
            {"mode": "solo", "players": ["Ada"], "difficulty": "chief"}]
