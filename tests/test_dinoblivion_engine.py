"""The Dinoblivion rules engine: the card list, each rule and decision, hidden information, bots, random play."""

import csv
import json
import random
import re
from collections import Counter

import pytest

from webapp.games import GAMES, IllegalAction, InvalidConfig
from webapp.games import dinoblivion as dino
from webapp.games.dinoblivion import bots
from webapp.games.dinoblivion import cards as C
from webapp.games.dinoblivion import engine as E

DUEL = {"mode": "duel", "players": ["Ann", "Bob"]}
SEAT_ZONES = ("deck", "hand", "discard", "play", "totems", "trophies")
SHARED_ZONES = ("jungle", "setaside", "box", "offer", "destroyed", "dinos_out")
SIDED_ZONES = ("grounds", "dinos", "enemies")


# ---------------------------------------------------------------------------------------------------
# Helpers: start a game, then move chosen cards where a test needs them (every card stays accounted for).

def solo_config(difficulty="gatherer"):
    return {"mode": "solo", "players": ["Ann"], "difficulty": difficulty}


def started(mode="duel", seed=1, difficulty="gatherer", chiefs=("chief_sillia-1", "chief_cornio-1")):
    """Return a game after the set-up steps, seat 0 first, with the given Chiefs (seat 0's first)."""
    state = E.new_game(DUEL if mode == "duel" else solo_config(difficulty), seed)
    while state["phase"] == "throw":
        state = E.apply(state, state["turn"], E.THROW)
    for chief in chiefs[: len(state["seats"])]:
        if chief not in state["offer"]:
            put(state, [state["offer"][0]], "box")
            put(state, [chief], "offer")
        state = E.apply(state, state["turn"], {"type": "chief", "card": chief})
    if mode == "duel" and state["first"] != 0:
        # Seat 0 plays first in these tests; swap the seats' contents so Chiefs stay as asked.
        state["seats"] = state["seats"][::-1]
        state["first"] = state["turn"] = 0
    return state


def _remove(state, card):
    for seat in state["seats"]:
        if seat["cave"] == card:
            seat["cave"] = None
            return
        for zone in SEAT_ZONES:
            if card in seat[zone]:
                seat[zone].remove(card)
                return
    for zone in SHARED_ZONES:
        if card in state[zone]:
            state[zone].remove(card)
            return
    for zone in SIDED_ZONES:
        for pile in state[zone].values():
            if card in pile:
                pile.remove(card)
                return
    raise AssertionError(f"{card} is nowhere")


def put(state, cards, zone, where=None):
    """Move `cards` from wherever they are to the top of `zone` (of seat or side `where`)."""
    for card in list(cards):
        _remove(state, card)
        if zone == "cave":
            assert state["seats"][where]["cave"] is None
            state["seats"][where]["cave"] = card
        elif zone in SEAT_ZONES:
            state["seats"][where][zone].append(card)
        elif zone in SIDED_ZONES:
            state[zone][where].append(card)
        else:
            state[zone].append(card)
    return state


def hand(state, seat, cards):
    """Give `seat` exactly these cards in hand (the old hand goes to the discard pile)."""
    put(state, list(state["seats"][seat]["hand"]), "discard", seat)
    return put(state, cards, "hand", seat)


def act(state, **action):
    return E.apply(state, state["turn"], action)


def refused(state, message, seat=None, **action):
    """Assert the action is refused with `message` and the state is unchanged."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match=message):
        E.apply(state, state["turn"] if seat is None else seat, action)
    assert json.dumps(state, sort_keys=True) == before


def seat0(state):
    return state["seats"][0]


# ---------------------------------------------------------------------------------------------------
# The card list.

RULEBOOK_COUNTS = {
    "start_sun": {"Ami": 1, "Dinoblivion": 1, "Fructam": 1, "Bananar": 3, "Explorar": 3},
    "jungle_action": {"Banana Boost": 1, "Capturar": 3, "Dino Farm": 3, "Dino Tool": 3, "Fiyar": 3, "Hut": 3,
                      "Mammotar": 3, "Monki": 1, "Rotam": 3, "Stellar": 3, "Tigar": 3, "Totem": 3, "Troc": 3,
                      "Yak": 3, "Yolo": 3},
    "jungle_clan": {"Amazar": 3, "Artis": 3, "Ayla": 1, "Dino Ridar": 1, "Dominatar": 3, "Gilir": 3, "Gogo": 3,
                    "Huntar": 3, "Kraf Dinar": 3, "Mom": 3, "Neandertar": 3, "Patrak": 3, "Protectar": 3,
                    "Shaman": 3, "Workar": 3, "Zazza": 1},
    "chief": {"Bobor": 1, "Cornio": 1, "Magda": 1, "Sillia": 1, "Slayar": 1},
    "enemy": {"Cannibalar": 1, "Cultist": 1, "Piranar": 1, "Coconar": 1},
    "dinosaur": {"Compsognathus": 1, "Pterodactyle": 1, "Stegosaurus": 2, "Ankylosaurus": 1, "Dilophosaurus": 1,
                 "Raptor": 2, "Parasaurolophus": 1, "Allosaurus": 2, "Triceratops": 1, "Brachiosaurus": 1,
                 "Spinosaurus": 1, "Tyrannosaurus": 2},
}
RULEBOOK_COUNTS["start_moon"] = RULEBOOK_COUNTS["start_sun"]


def test_registered():
    assert GAMES["dinoblivion"] is dino
    for name in ("new_game", "current_player", "legal_actions", "apply", "observation", "is_over", "result",
                 "describe_action", "determinise", "score_breakdown", "computer_move"):
        assert callable(getattr(dino, name))


def test_the_engine_imports_no_app_code():
    import pathlib

    folder = pathlib.Path(E.__file__).parent
    for path in folder.glob("*.py"):
        imports = [line for line in path.read_text(encoding="utf-8").splitlines()
                   if line.startswith(("import ", "from "))]
        for line in imports:
            assert "flask" not in line and "sqlalchemy" not in line, (path.name, line)
            if "webapp" in line:
                assert line.startswith(("from webapp.games.base ", "from webapp.games.protocol ", "from webapp.games.dinoblivion")), (path.name, line)


def test_every_count_matches_the_rulebooks_component_list():
    def counted(group, card_type=None):
        return {k.name: k.qty for k in C.KINDS.values()
                if k.group == group and (card_type is None or k.card_type == card_type)}

    assert counted("start_sun") == RULEBOOK_COUNTS["start_sun"]
    assert counted("start_moon") == RULEBOOK_COUNTS["start_moon"]
    assert counted("jungle", "action") == RULEBOOK_COUNTS["jungle_action"]
    assert counted("jungle", "clan") == RULEBOOK_COUNTS["jungle_clan"]
    assert counted("chief") == RULEBOOK_COUNTS["chief"]
    assert counted("enemy") == RULEBOOK_COUNTS["enemy"]
    dinos = Counter()
    for kind in C.KINDS.values():
        if kind.card_type == "dinosaur":
            dinos[kind.name] += kind.qty
    assert dinos == RULEBOOK_COUNTS["dinosaur"]
    sizes = {group: sum(k.qty for k in C.KINDS.values() if k.group == group) for group in C.GROUPS}
    assert sizes["jungle"] == 83 and len(C.JUNGLE) == 83
    assert len(C.instances("jungle", "clan")) == C.COMPONENT_COUNTS["jungle_clan"] == 42
    assert len(C.instances("jungle", "action")) == C.COMPONENT_COUNTS["jungle_action"] == 41
    for group in ("start_sun", "start_moon", "chief", "enemy", "dino_level1", "dino_level2"):
        assert sizes[group] == C.COMPONENT_COUNTS[group]
    assert sum(sizes[g] for g in ("jungle", "start_sun", "start_moon", "chief", "enemy")) == 110  # Dinoblivion cards
    assert sizes["dino_level1"] == sizes["dino_level2"] == 8
    # "5 cards have the UNIQUE symbol."
    assert sorted(k.name for k in C.KINDS.values() if k.unique) == ["Ayla", "Banana Boost", "Dino Ridar", "Monki",
                                                                      "Zazza"]
    assert sum(C.EGG_COUNTS.values()) == 24
    assert dict(C.EGG_COUNTS) == {"1": 12, "2": 8, "2i": 4}  # the fan notes' split (a decision, see rules.md)


def test_card_list_columns_sources_and_notes():
    with open(C.CSV_PATH, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    # The fan file's columns, then where each value comes from and where the rulebook wins.
    assert list(rows[0]) == [
        "id", "name", "group", "card_type", "qty", "unique", "strength", "cost_food", "cost_buddy", "food_icons",
        "half_symbol", "totem_symbols", "power", "dino_destroy_cards", "dino_gain_cards", "dino_food", "dino_tokens",
        "dino_buddy", "dino_eggs", "source", "notes"]
    for row in rows:
        assert "rulebook: component list" in row["source"], row["id"]
        assert "fan transcription najibyla/lua_dinoB" in row["source"], row["id"]
    by_id = {row["id"]: row for row in rows}
    # Where the rulebook wins over the fan file, the notes say so.
    for enemy, reward in (("piranar", "1 Dino token"), ("coconar", "2 Food"), ("cannibalar", "1 Buddy pawn"),
                          ("cultist", "destroy a card in play")):
        assert reward in by_id[enemy]["power"] and by_id[enemy]["notes"]
    assert by_id["dino_farm"]["power"] == "gain 2 Food or 1 Dino token" and "Example of a Turn" in by_id["dino_farm"]["notes"]
    assert "Example of a Turn" in by_id["chief_sillia"]["source"]
    # Mom, Protectar and Dino Ridar's strengths are the rulebook's (variable).
    assert {by_id[k]["strength"] for k in ("mom", "protectar", "dino_ridar")} == {"variable"}


def test_the_rules_page_lists_the_decisions():
    text = dino.RULES_PATH.read_text(encoding="utf-8")
    assert text.index("## Where the rulebook is silent, we decided") < text.index("## Icons")
    for words in ("Action cards cost Food, Clan cards cost Buddy pawns", "12 are worth 1 point", "Workar",
                  "ready the moment they are played", "Sillia 1 Dino token and 1 Food", "Rage** happens whenever",
                  "had cards and becomes empty", "dinosaur stack", "never pairs with itself", "1 in 3", "The Cave"):
        assert words in text, words
    for words in ("Costs: Action cards", "Rage: the moment you draw the last card", "Mace rule",
                  "12 worth 1 point, 8 worth 2 and 4 worth 2", "Families: all your Clan cards"):
        assert words in E.__doc__, words


def test_the_rulebooks_example_chief_is_sillia():
    # "destroy his Ami card with his Clan Chief power in order to gain 1 Dino token and 1 Food"
    assert E.CHIEF_POWERS["chief_sillia"] == E.Power(dino=1, food=1)
    assert [k for k, p in E.CHIEF_POWERS.items() if p == E.Power(dino=1, food=1)] == ["chief_sillia"]


# ---------------------------------------------------------------------------------------------------
# Set-up.

@pytest.mark.parametrize(("config", "message"), [
    ({"mode": "trio", "players": ["a", "b", "c"]}, "Duel .* or Solo"),
    ({"mode": "duel", "players": ["a"]}, "exactly 2 players"),
    ({"mode": "duel", "players": ["a", "b", "c"]}, "exactly 2 players"),
    ({"mode": "solo", "players": ["a", "b"]}, "exactly 1 player"),
    ({"mode": "solo", "players": ["a"], "difficulty": "easy"}, "gatherer, hunter, warrior, chief"),
    ({"players": "ab"}, "exactly 2 players"),
    ("duel", "settings"),
    ({"mode": "duel", "players": ["a", "b"], "end_trigger": "volcano"}, "hunting_grounds"),
])
def test_bad_config(config, message):
    with pytest.raises(InvalidConfig, match=message):
        E.new_game(config, 1)


def test_duel_setup():
    state = E.new_game(DUEL, 7)
    assert state["phase"] == "throw" and E.legal_actions(state) == [{"type": "throw"}]
    assert len(state["jungle"]) == 83 and state["grounds"] == {"left": [], "right": []}
    assert len(state["egg_bank"]) == 24 and Counter(state["egg_bank"]) == dict(C.EGG_COUNTS)
    for side in E.SIDES:
        levels = [E.LEVEL[d] for d in state["dinos"][side]]
        assert levels == [2, 2, 2, 1, 1, 1]  # 3 level 2 face down, 3 level 1 on top; the top is revealed
    assert len(state["dinos_out"]) == 4
    assert [len(s["deck"]) for s in state["seats"]] == [9, 9]
    assert {s["clan"] for s in state["seats"]} == {"sun", "moon"}


def test_evolution_throw_then_chief_draft():
    state = E.new_game(DUEL, 3)
    state = E.apply(state, 0, E.THROW)
    assert state["throws"][0] is not None and state["turn"] == 1
    refused(state, "not your turn", seat=0, type="throw")
    while state["phase"] == "throw":
        state = E.apply(state, state["turn"], E.THROW)
    first = state["first"]
    assert state["turn"] == first and state["phase"] == "chief"
    offer = list(state["offer"])
    assert len(offer) == 2 and all(c in C.CHIEFS for c in offer)
    refused(state, "First choose your Clan Chief", type="end")
    state = E.apply(state, first, {"type": "chief", "card": offer[0]})
    # The Chief left over stays; one more, at random, joins it for the second player.
    assert state["turn"] == 1 - first and offer[1] in state["offer"] and len(state["offer"]) == 2
    refused(state, "one of the two Chiefs", type="chief", card=offer[0])
    state = E.apply(state, 1 - first, {"type": "chief", "card": state["offer"][0]})
    assert state["phase"] == "play" and state["turn"] == first and state["turns"] == 1
    for seat in state["seats"]:
        assert len(seat["hand"]) == 4 and len(seat["deck"]) == 6 and seat["chief"] in seat["hand"] + seat["deck"]
        assert (seat["food"], seat["buddy"], seat["dino"]) == (2, 2, 0)
    assert sorted(state["box"]) == sorted([c for c in C.CHIEFS if c not in {s["chief"] for s in state["seats"]}]
                                          + list(C.ENEMIES))


def test_a_tied_throw_is_thrown_again():
    for seed in range(300):
        state = E.new_game(DUEL, seed)
        state = E.apply(E.apply(state, 0, E.THROW), 1, E.THROW)
        if any(event["type"] == "tie" for event in state["log"]):
            assert state["phase"] == "throw" and state["throws"] == [None, None] and state["turn"] == 0
            return
    pytest.fail("no tie in 300 seeds")


def test_the_throw_winner_plays_first():
    for seed in range(20):
        state = E.new_game(DUEL, seed)
        while state["phase"] == "throw":
            state = E.apply(state, state["turn"], E.THROW)
        throws = [e["standing"] for e in state["log"] if e["type"] == "throw"][-2:]
        assert state["first"] == (0 if throws[0] > throws[1] else 1)


@pytest.mark.parametrize(("difficulty", "size"), [("gatherer", 40), ("hunter", 36), ("warrior", 32), ("chief", 28)])
def test_solo_setup(difficulty, size):
    state = E.new_game(solo_config(difficulty), 5)
    assert state["phase"] == "chief" and len(state["offer"]) == 2
    assert len(state["jungle"]) == size + 4 and set(C.ENEMIES) <= set(state["jungle"])
    assert len(state["setaside"]) == 83 - size
    assert len(state["egg_bank"]) == 12 and len(state["eggs_out"]) == 12
    assert [E.LEVEL[d] for d in state["dinos"]["left"]] == [1] * 4
    assert [E.LEVEL[d] for d in state["dinos"]["right"]] == [2] * 3
    state = E.apply(state, 0, {"type": "chief", "card": state["offer"][1]})
    seat = seat0(state)
    assert state["phase"] == "play" and len(seat["hand"]) == 4 and (seat["food"], seat["buddy"]) == (2, 2)
    assert set(C.STARTING["moon"]) <= set(state["box"])


def test_same_seed_same_game():
    assert E.new_game(DUEL, 11) == E.new_game(DUEL, 11)
    assert E.new_game(DUEL, 11)["jungle"] != E.new_game(DUEL, 12)["jungle"]


# ---------------------------------------------------------------------------------------------------
# Buying, hunting, fighting.

def test_buy_action_cards_with_food_and_clan_cards_with_buddy_pawns():
    state = started()
    put(state, ["hut-1"], "grounds", "left")
    put(state, ["huntar-1"], "grounds", "right")
    state["seats"][0].update(food=4, buddy=2)
    state = act(state, type="buy", ground="left")
    assert seat0(state)["food"] == 0 and seat0(state)["buddy"] == 2 and seat0(state)["discard"][-1] == "hut-1"
    state = act(state, type="buy", ground="right")
    assert seat0(state)["buddy"] == 0 and seat0(state)["discard"][-1] == "huntar-1"


@pytest.mark.parametrize(("card", "food", "buddy", "message"), [
    ("totem_card-1", 5, 6, "Totem costs 6 Food: you have 5"),
    ("gogo-1", 6, 2, "Gogo costs 3 Buddy pawns: you have 2"),
])
def test_unaffordable_buy_is_refused(card, food, buddy, message):
    state = started()
    put(state, [card], "grounds", "left")
    state["seats"][0].update(food=food, buddy=buddy)
    assert {"type": "buy", "ground": "left"} not in E.legal_actions(state)
    refused(state, message, type="buy", ground="left")


def test_only_the_top_card_of_a_hunting_ground_is_bought():
    state = started()
    put(state, ["yak-1", "hut-1"], "grounds", "left")
    state["seats"][0]["food"] = 6
    state = act(state, type="buy", ground="left")
    assert state["grounds"]["left"] == ["yak-1"] and "hut-1" in seat0(state)["discard"]


def test_hunting_flips_as_many_cards_as_the_strength_and_gains_their_food():
    state = started()
    hand(state, 0, ["huntar-1"])
    put(state, ["dino_farm-1", "huntar-2", "yak-1"], "jungle")  # the top of the Jungle is its end
    state["seats"][0]["food"] = 0
    state = act(state, type="hunt", card="huntar-1", ground="right")
    assert state["grounds"]["right"] == ["yak-1", "huntar-2", "dino_farm-1"]
    assert seat0(state)["food"] == 1 + 2  # Yak 1 and Dino Farm 2; a Clan card has no food
    assert "huntar-1" in seat0(state)["play"]
    refused(state, "Huntar has already been used this turn", type="hunt", card="huntar-1", ground="left")


def test_a_card_without_strength_cannot_hunt_or_fight():
    state = started()
    hand(state, 0, ["bananar_sun-1", "artis-1"])
    actions = E.legal_actions(state)
    assert not any(a["type"] in ("hunt", "fight") for a in actions)
    refused(state, "no strength", type="hunt", card="artis-1", ground="left")
    refused(state, "no strength", type="fight", card="bananar_sun-1")


def fighting_hand(state, cards, dino, side="left", ground=()):
    hand(state, 0, cards)
    put(state, [dino], "dinos", side)
    put(state, list(ground), "grounds", side)
    return state


def test_fight_success_trophy_next_dinosaur_destroy_and_rewards():
    state = fighting_hand(started(), ["huntar-1", "huntar-2", "huntar-3", "ami_sun-1"], "ankylosaurus-1",
                          ground=["hut-1", "yak-1"])
    below = state["dinos"]["left"][-2]
    food = seat0(state)["food"]
    for card in ("huntar-1", "huntar-2", "huntar-3"):
        state = act(state, type="fight", card=card)
    assert state["strength"] == 9
    state = act(state, type="attack", side="left")
    assert seat0(state)["trophies"] == ["ankylosaurus-1"] and state["dinos"]["left"][-1] == below
    assert state["strength"] == 0 and state["fought"] == ["left"]
    assert seat0(state)["food"] == min(6, food + 2)
    # First destroy a card from hand or play, then gain a card from the left Hunting Ground.
    assert state["pending"][0]["kind"] == "destroy"
    refused(state, "First choose a card in your hand or in play to destroy", type="end")
    refused(state, "First choose a card", type="buy", ground="left")
    state = act(state, type="destroy", card="ami_sun-1")
    assert "ami_sun-1" in state["destroyed"] and state["pending"] == [{"kind": "gain", "side": "left"}]
    state = act(state, type="gain", card="hut-1")
    assert seat0(state)["discard"][-1] == "hut-1" and state["grounds"]["left"] == ["yak-1"] and not state["pending"]


def test_attack_without_enough_strength_is_refused_and_the_strength_stays():
    state = fighting_hand(started(), ["huntar-1", "huntar-2"], "raptor-1")
    state = act(state, type="fight", card="huntar-1")
    state = act(state, type="fight", card="huntar-2")
    assert {"type": "attack", "side": "left"} not in E.legal_actions(state)
    refused(state, "strength 10: your fight strength is 6", type="attack", side="left")
    assert state["strength"] == 6


def test_one_fight_per_dinosaur_deck_per_turn_and_leftover_strength_is_lost():
    state = fighting_hand(started(), ["dinoblivion_sun-1", "explorar_sun-1"], "pterodactyle-1")
    put(state, ["compsognathus-1"], "dinos", "left")
    put(state, ["pterodactyle-1"], "dinos", "left")
    state["seats"][0]["dino"] = 6
    state = act(state, type="play", card="dinoblivion_sun-1", via="explorar_sun-1", tokens=6, use="fight")
    assert state["strength"] == 12 and seat0(state)["dino"] == 0
    state = act(state, type="attack", side="left")
    assert state["strength"] == 0  # 5 left over, lost
    while state["pending"]:
        state = act(state, **E.legal_actions(state)[0])
    state["strength"] = 7  # even with the strength, the left deck was fought this turn
    assert state["dinos"]["left"][-1] == "compsognathus-1"
    refused(state, "already fought a dinosaur from the left deck", type="attack", side="left")


def test_gain_a_card_excludes_unique_cards_and_keeps_the_piles_order():
    state = fighting_hand(started(), ["huntar-1"], "raptor-1", ground=["yak-1", "ayla-1", "hut-1", "monki-1"])
    state["strength"] = 10
    state = act(state, type="attack", side="left")
    state = act(state, type="destroy", card="huntar-1")
    gains = [a["card"] for a in E.legal_actions(state)]
    assert gains == ["yak-1", "hut-1"]
    refused(state, "UNIQUE", type="gain", card="ayla-1")
    refused(state, "First choose the card you gain", type="skip")  # gaining is not optional
    state = act(state, type="gain", card="yak-1")
    assert state["grounds"]["left"] == ["ayla-1", "hut-1", "monki-1"]


def test_triceratops_destroys_two_and_gains_three():
    state = fighting_hand(started(), ["huntar-1", "ami_sun-1", "fructam_sun-1"], "triceratops-1",
                          ground=["yak-1", "hut-1", "tigar-1", "rotam-1"])
    state["strength"] = 18
    state = act(state, type="attack", side="left")
    assert [step["kind"] for step in state["pending"]] == ["destroy", "destroy", "gain", "gain", "gain"]
    for card in ("ami_sun-1", "fructam_sun-1", "yak-1", "tigar-1", "rotam-1"):
        state = act(state, type="destroy" if state["pending"][0]["kind"] == "destroy" else "gain", card=card)
    assert state["grounds"]["left"] == ["hut-1"] and not state["pending"]


def test_nothing_to_gain_skips_the_gain():
    state = fighting_hand(started(), ["huntar-1"], "raptor-1", ground=["ayla-1"])
    put(state, ["monki-1"], "grounds", "left")
    state["strength"] = 10
    state = act(state, type="attack", side="left")
    state = act(state, type="destroy", card="huntar-1")
    assert not state["pending"]


@pytest.mark.parametrize(("dino", "food", "tokens", "buddy", "eggs"), [
    ("compsognathus-1", 0, 2, 0, 1), ("pterodactyle-1", 0, 0, 1, 1), ("stegosaurus-1", 0, 0, 0, 2),
    ("brachiosaurus-1", 0, 0, 0, 3), ("parasaurolophus-1", 0, 0, 2, 2),
])
def test_dinosaur_rewards(dino, food, tokens, buddy, eggs):
    state = fighting_hand(started(), ["huntar-1"], dino)
    state["seats"][0].update(food=0, dino=0, buddy=0)
    state["strength"] = 20
    state = act(state, type="attack", side="left")
    seat = seat0(state)
    assert (seat["food"], seat["dino"], seat["buddy"], len(seat["eggs"])) == (food, tokens, buddy, eggs)
    assert len(state["egg_bank"]) == 24 - eggs


# ---------------------------------------------------------------------------------------------------
# Action cards, Workar, Artis, Totems.

def test_an_action_card_needs_a_clan_card():
    state = started()
    hand(state, 0, ["capturar-1", "ami_sun-1", "explorar_sun-1"])
    refused(state, "need a Clan card", type="play", card="capturar-1", via="free")
    refused(state, "Ami is an Action card: only a Clan card", type="play", card="capturar-1", via="ami_sun-1")
    refused(state, "need a Clan card", type="play", card="capturar-1")
    state["seats"][0]["dino"] = 0
    state = act(state, type="play", card="capturar-1", via="explorar_sun-1")
    assert seat0(state)["dino"] == 2 and seat0(state)["play"] == ["explorar_sun-1", "capturar-1"]
    refused(state, "Explorar has already been used this turn", type="play", card="ami_sun-1", via="explorar_sun-1")


def test_workar_plays_two_action_cards_at_once():
    """The rulebook: "Workar: lets you play 2 Action cards at once": the second at once, or none."""
    state = started()
    hand(state, 0, ["workar-1", "capturar-1", "stellar-1", "ami_sun-1", "huntar-1"])
    state["seats"][0].update(food=0, dino=0, buddy=0)
    state = act(state, type="play", card="capturar-1", via="workar-1")
    assert state["free"] == 0 and state["pending"] == [{"kind": "workar", "card": "workar-1", "held": 3}]
    assert E.legal_actions(state) == [{"type": "play", "card": "stellar-1", "via": "workar-1"},
                                      {"type": "play", "card": "ami_sun-1", "via": "workar-1"}, {"type": "skip"}]
    refused(state, "Workar plays 2 Action cards at once", type="end")
    refused(state, "Workar plays 2 Action cards at once", type="hunt", card="huntar-1", ground="left")
    refused(state, "with Workar", type="play", card="stellar-1", via="huntar-1")
    refused(state, "with Workar", type="play", card="stellar-1", via="free")
    refused(state, "Huntar is a Clan card", type="play", card="huntar-1", via="workar-1")
    obs = E.observation(state, 0)
    assert dino.describe_action(obs, {"type": "play", "card": "stellar-1", "via": "workar-1"}) == \
        "Play Stellar with Workar too, at once: gain 1 Food, gain 1 Dino token, gain 1 Buddy pawn"
    assert dino.describe_action(obs, E.SKIP) == "Play no second Action card with Workar"
    state = act(state, type="play", card="stellar-1", via="workar-1")
    assert state["pending"] == [] and state["free"] == 0
    assert (seat0(state)["food"], seat0(state)["dino"], seat0(state)["buddy"]) == (1, 3, 1)
    refused(state, "Workar has already been used", type="play", card="ami_sun-1", via="workar-1")
    refused(state, "no free Action play", type="play", card="ami_sun-1", via="free")


def test_workar_may_play_only_one_action_card():
    state = started()
    hand(state, 0, ["workar-1", "capturar-1", "stellar-1", "huntar-1"])
    state = act(state, type="play", card="capturar-1", via="workar-1")
    state = act(state, type="skip")
    assert state["pending"] == [] and "stellar-1" in seat0(state)["hand"]
    refused(state, "Workar has already been used", type="play", card="stellar-1", via="workar-1")
    state = act(state, type="play", card="stellar-1", via="huntar-1")  # another Clan card still plays it
    assert "stellar-1" in seat0(state)["play"]


def test_workars_second_card_cannot_be_one_the_first_drew():
    state = started()
    hand(state, 0, ["workar-1", "yolo-1", "stellar-1"])
    put(state, ["capturar-1", "ami_sun-1"], "deck", 0)  # Yolo draws these two
    state = act(state, type="play", card="yolo-1", via="workar-1")
    assert seat0(state)["hand"] == ["stellar-1", "ami_sun-1", "capturar-1"]
    assert [a.get("card") for a in E.legal_actions(state)] == ["stellar-1", None]
    refused(state, "Capturar was drawn after Workar was used", type="play", card="capturar-1", via="workar-1")
    # With no other Action card in hand when Workar was used, there is nothing to choose: the turn goes on.
    state = started()
    hand(state, 0, ["workar-1", "yolo-1", "huntar-1"])
    put(state, ["capturar-1", "ami_sun-1"], "deck", 0)
    state = act(state, type="play", card="yolo-1", via="workar-1")
    assert state["pending"] == [] and {"type": "end"} in E.legal_actions(state)
    refused(state, "Workar has already been used", type="play", card="capturar-1", via="workar-1")


def test_workar_later_is_a_house_rule_chosen_at_set_up():
    """The house rule (our earlier reading): Workar gives one free Action play, any time this turn, on any card."""
    state = started()
    state["workar_later"] = True
    hand(state, 0, ["workar-1", "yolo-1", "huntar-1"])
    put(state, ["capturar-1", "ami_sun-1"], "deck", 0)
    obs = E.observation(state, 0)
    assert obs["workar_later"] is True and E.observation(state, 1)["workar_later"] is True
    assert dino.describe_action(obs, {"type": "play", "card": "yolo-1", "via": "workar-1"}).endswith(
        "(Workar: 1 more Action card later this turn)")
    state = act(state, type="play", card="yolo-1", via="workar-1")
    assert state["pending"] == [] and state["free"] == 1
    state = act(state, type="hunt", card="huntar-1", ground="left")  # anything in between
    state = act(state, type="play", card="capturar-1", via="free")  # a card Yolo drew
    assert state["free"] == 0 and "capturar-1" in seat0(state)["play"]
    assert E.new_game({**DUEL, "workar_later": True}, 1)["workar_later"] is True
    assert E.new_game(DUEL, 1)["workar_later"] is False
    with pytest.raises(InvalidConfig, match="workar_later"):
        E.new_game({**DUEL, "workar_later": "yes"}, 1)


def test_the_rulebooks_workar_is_labelled_as_such():
    state = started()
    hand(state, 0, ["workar-1", "capturar-1", "stellar-1"])
    label = dino.describe_action(E.observation(state, 0), {"type": "play", "card": "capturar-1", "via": "workar-1"})
    assert label == "Play Capturar with Workar: gain 2 Dino tokens (Workar: then 1 more Action card from your hand, at once)"


def test_artis_plays_an_action_card_then_draws():
    state = started()
    hand(state, 0, ["artis-1", "capturar-1"])
    put(state, ["yak-1"], "deck", 0)
    state = act(state, type="play", card="capturar-1", via="artis-1")
    assert seat0(state)["hand"] == ["yak-1"]


def test_totems_stay_in_play_and_are_used_once_a_turn():
    state = started()
    hand(state, 0, ["hut-1", "explorar_sun-1"])
    state["seats"][0]["buddy"] = 0
    state = act(state, type="play", card="hut-1", via="explorar_sun-1")
    assert seat0(state)["totems"] == ["hut-1"] and seat0(state)["buddy"] == 0  # ready, not yet used
    state = act(state, type="totem", card="hut-1")  # usable the turn it is played
    assert seat0(state)["buddy"] == 1
    refused(state, "Hut has already been used this turn", type="totem", card="hut-1")
    state = act(state, type="end")
    assert seat0(state)["totems"] == ["hut-1"] and "hut-1" not in seat0(state)["discard"]
    state = act(state, type="end")  # the other player's turn
    state = act(state, type="totem", card="hut-1")  # reactivated
    assert seat0(state)["buddy"] == 2


def test_the_totem_card_has_no_power_but_three_symbols():
    state = started()
    hand(state, 0, ["totem_card-1", "explorar_sun-1"])
    state = act(state, type="play", card="totem_card-1", via="explorar_sun-1")
    assert not any(a["type"] == "totem" for a in E.legal_actions(state))
    refused(state, "has no power: it is worth 3 Totem symbols", type="totem", card="totem_card-1")
    assert E.totem_symbols(seat0(state)) == 3 and E.score_breakdown(state, 0)["totem_symbols"] == 3


def test_monki_gives_a_free_action_play():
    state = started()
    hand(state, 0, ["capturar-1"])
    put(state, ["monki-1"], "totems", 0)
    state = act(state, type="totem", card="monki-1")
    state = act(state, type="play", card="capturar-1", via="free")
    assert "capturar-1" in seat0(state)["play"]


@pytest.mark.parametrize(("totem", "action", "change"), [
    ("yak-1", {}, {"food": 1}), ("dino_farm-1", {"option": "food"}, {"food": 2}),
    ("dino_farm-1", {"option": "dino"}, {"dino": 1}), ("hut-1", {}, {"buddy": 1}),
    ("dino_tool-1", {}, {"dino": -1, "hand": 2}), ("fiyar-1", {}, {"hand": 1}),
    ("mammotar-1", {"use": "fight"}, {"food": -2, "strength": 4}), ("tigar-1", {"use": "fight"}, {"strength": 1}),
])
def test_totem_powers(totem, action, change):
    state = started()
    hand(state, 0, [])
    put(state, [totem], "totems", 0)
    state["seats"][0].update(food=3, dino=3, buddy=3)
    after = act(state, type="totem", card=totem, **action)
    got = {key: after["seats"][0][key] - state["seats"][0][key] for key in ("food", "dino", "buddy")}
    got.update(hand=len(after["seats"][0]["hand"]), strength=after["strength"])
    assert {key: got[key] for key in change} == change


@pytest.mark.parametrize(("card", "action", "change"), [
    ("ami_sun-1", {}, {"buddy": 1}), ("banana_boost-1", {}, {"food": 3}), ("capturar-1", {}, {"dino": 2}),
    ("stellar-1", {}, {"food": 1, "dino": 1, "buddy": 1}), ("troc-1", {}, {"buddy": 2, "eggs": 1}),
    ("yolo-1", {}, {"dino": 1, "hand": 2}), ("rotam-1", {"use": "fight"}, {"strength": 5}),
    ("fructam_sun-1", {"option": "food"}, {"food": 2}), ("fructam_sun-1", {"option": "draw"}, {"hand": 2}),
    ("dinoblivion_sun-1", {"tokens": 2, "use": "fight"}, {"dino": -2, "strength": 4}),
])
def test_action_card_powers(card, action, change):
    state = started()
    hand(state, 0, [card, "explorar_sun-1"])
    state["seats"][0].update(food=3, dino=3, buddy=3)
    after = act(state, type="play", card=card, via="explorar_sun-1", **action)
    got = {key: after["seats"][0][key] - state["seats"][0][key] for key in ("food", "dino", "buddy")}
    got.update(hand=len(after["seats"][0]["hand"]), strength=after["strength"], eggs=len(after["seats"][0]["eggs"]))
    assert {key: got[key] for key in change} == change


def test_resources_are_capped_by_the_bank():
    state = started()
    hand(state, 0, ["banana_boost-1", "explorar_sun-1"])
    state["seats"][0]["food"] = 5
    state = act(state, type="play", card="banana_boost-1", via="explorar_sun-1")
    assert seat0(state)["food"] == E.CAP == 6  # 3 Food tokens worth 2 each at most


def test_strength_powers_are_axes_that_can_hunt():
    state = started()
    hand(state, 0, ["rotam-1", "explorar_sun-1"])
    put(state, C.instances("jungle", "clan")[:5], "jungle")
    state = act(state, type="play", card="rotam-1", via="explorar_sun-1", use="right")
    assert len(state["grounds"]["right"]) == 5 and state["strength"] == 0


def test_dinoblivion_pays_at_most_six_tokens():
    state = started()
    hand(state, 0, ["dinoblivion_sun-1", "explorar_sun-1"])
    state["seats"][0]["dino"] = 6
    plays = [a for a in E.legal_actions(state) if a["type"] == "play" and a["use"] == "fight"]
    assert sorted(a["tokens"] for a in plays) == [1, 2, 3, 4, 5, 6]
    refused(state, "pay 1 to 6 Dino tokens", type="play", card="dinoblivion_sun-1", via="explorar_sun-1",
            tokens=7, use="fight")
    state["seats"][0]["dino"] = 2
    refused(state, "needs 3 Dino tokens: you have 2", type="play", card="dinoblivion_sun-1",
            via="explorar_sun-1", tokens=3, use="fight")


@pytest.mark.parametrize(("card", "pay", "gain"), [
    ("patrak-1", "food", 3), ("dominatar-1", "dino", 7), ("zazza-1", "buddy", 8),
])
def test_paid_strength_powers(card, pay, gain):
    state = started()
    hand(state, 0, [card])
    state["seats"][0].update(food=2, dino=2, buddy=2)
    after = act(state, type="power", card=card, use="fight")
    assert after["strength"] == gain and after["seats"][0][pay] == 2 - E.CLAN_POWERS[C.KIND_OF[card]].paid
    state["seats"][0][pay] = 0
    refused(state, "needs", type="power", card=card, use="fight")


def test_variable_strengths():
    state = started()
    hand(state, 0, ["mom-1", "protectar-1", "dino_ridar-1", "explorar_sun-1", "bananar_sun-1"])
    seat = seat0(state)
    assert E.strength(state, seat, "mom-1") == 1
    put(state, ["hut-1", "totem_card-1"], "totems", 0)
    assert E.strength(state, seat, "protectar-1") == 4
    state["seats"][0]["eggs"] = ["1", "2"]
    assert E.strength(state, seat, "dino_ridar-1") == 2
    state = act(state, type="mate", cards=["bananar_sun-1", "explorar_sun-1"])
    state = act(state, type="fight", card="mom-1")
    assert state["strength"] == 3  # Bananar, Explorar and Mom herself


def test_shaman_needs_four_totem_symbols():
    state = started()
    hand(state, 0, ["shaman-1"])
    put(state, ["hut-1"], "totems", 0)
    refused(state, "Shaman needs 4 Totem symbols in play: you have 1", type="power", card="shaman-1")
    put(state, ["totem_card-1"], "totems", 0)
    state = act(state, type="power", card="shaman-1")
    assert len(seat0(state)["eggs"]) == 1


@pytest.mark.parametrize("card", ["artis-1", "workar-1"])
def test_artis_and_workar_powers_are_used_by_playing(card):
    state = started()
    hand(state, 0, [card])
    refused(state, "by playing an Action card", type="power", card=card)


def test_a_card_without_a_power_says_so():
    state = started()
    hand(state, 0, ["huntar-1"])
    refused(state, "has no power", type="power", card="huntar-1")


# ---------------------------------------------------------------------------------------------------
# Mating.

def test_mate_two_halves_for_a_buddy_pawn():
    state = started()
    hand(state, 0, ["bananar_sun-1", "explorar_sun-1", "explorar_sun-2", "huntar-1"])
    state["seats"][0]["buddy"] = 0
    refused(state, "Explorar has no half symbol on its right edge", type="mate", cards=["explorar_sun-1", "huntar-1"])
    refused(state, "A card cannot mate with itself", type="mate", cards=["bananar_sun-1", "bananar_sun-1"])
    state = act(state, type="mate", cards=["bananar_sun-1", "explorar_sun-1"])
    assert seat0(state)["buddy"] == 1 and set(seat0(state)["play"]) == {"bananar_sun-1", "explorar_sun-1"}
    refused(state, "Bananar has already been used this turn", type="mate", cards=["bananar_sun-1", "huntar-1"])


def test_gogo_mates_on_both_sides_and_draws_two_cards_per_buddy_pawn():
    state = started()
    hand(state, 0, ["gogo-1", "bananar_sun-1", "explorar_sun-1"])
    state["seats"][0]["buddy"] = 0
    state = act(state, type="mate", cards=["bananar_sun-1", "gogo-1"])  # Gogo's left edge
    assert seat0(state)["buddy"] == 1 and len(seat0(state)["hand"]) == 3  # Explorar + 2 drawn
    assert {"type": "mate", "cards": ["gogo-1", "explorar_sun-1"]} in E.legal_actions(state)
    state = act(state, type="mate", cards=["gogo-1", "explorar_sun-1"])  # and its right edge
    assert seat0(state)["buddy"] == 2 and len(seat0(state)["hand"]) == 4
    refused(state, "already been used", type="mate", cards=["gogo-1", "explorar_sun-1"])


def test_two_gogos_make_one_symbol_and_draw_four():
    state = started()
    hand(state, 0, ["gogo-1", "gogo-2"])
    state = act(state, type="mate", cards=["gogo-1", "gogo-2"])
    assert len(seat0(state)["hand"]) == 4


def test_ayla_bonus_depends_on_the_side_completed():
    state = started()
    hand(state, 0, ["ayla-1", "explorar_sun-1", "bananar_sun-1"])
    state["seats"][0]["buddy"] = 0
    state = act(state, type="mate", cards=["ayla-1", "explorar_sun-1"])  # Ayla's right edge: 1 egg
    assert seat0(state)["buddy"] == 1 and len(seat0(state)["eggs"]) == 1
    state = act(state, type="mate", cards=["bananar_sun-1", "ayla-1"])  # her left edge: 1 more Buddy pawn
    assert seat0(state)["buddy"] == 3


def test_mating_with_a_full_bank_gives_no_pawn_and_no_bonus():
    state = started()
    hand(state, 0, ["gogo-1", "bananar_sun-1"])
    state["seats"][0]["buddy"] = 6
    state = act(state, type="mate", cards=["bananar_sun-1", "gogo-1"])
    assert seat0(state)["buddy"] == 6 and seat0(state)["hand"] == []


# ---------------------------------------------------------------------------------------------------
# Chiefs and Neandertar.

@pytest.mark.parametrize(("chief", "gain"), [
    ("chief_bobor-1", {"buddy": 2}), ("chief_cornio-1", {"food": 3}), ("chief_magda-1", {"dino": 2}),
    ("chief_sillia-1", {"dino": 1, "food": 1}), ("chief_slayar-1", {"strength": 4}),
])
def test_each_chief_destroys_a_card_for_its_bonus(chief, gain):
    state = started(chiefs=(chief, "chief_sillia-1" if chief != "chief_sillia-1" else "chief_bobor-1"))
    hand(state, 0, [chief, "ami_sun-1"])
    state["seats"][0].update(food=0, dino=0, buddy=0)
    extra = {"use": "fight"} if chief == "chief_slayar-1" else {}
    refused(state, "cannot destroy itself", type="power", card=chief, target=chief, **extra)
    after = act(state, type="power", card=chief, target="ami_sun-1", **extra)
    assert "ami_sun-1" in after["destroyed"] and chief in after["seats"][0]["play"]
    got = {key: after["seats"][0][key] for key in ("food", "dino", "buddy")} | {"strength": after["strength"]}
    assert {key: got[key] for key in gain} == gain
    assert sum(got.values()) == sum(gain.values())
    hand(after, 0, after["seats"][0]["hand"] + ["explorar_sun-1"])
    refused(after, "already been used this turn", type="power", card=chief, target="explorar_sun-1", **extra)


def test_a_chief_can_destroy_a_card_in_play_or_a_totem():
    state = started()
    hand(state, 0, ["chief_sillia-1", "capturar-1", "explorar_sun-1"])
    put(state, ["hut-1"], "totems", 0)
    state = act(state, type="play", card="capturar-1", via="explorar_sun-1")
    targets = {a["target"] for a in E.legal_actions(state) if a["type"] == "power"}
    assert targets == {"capturar-1", "explorar_sun-1", "hut-1"}
    state = act(state, type="power", card="chief_sillia-1", target="hut-1")
    assert seat0(state)["totems"] == [] and "hut-1" in state["destroyed"]


def test_neandertar_destroys_an_opponents_egg_and_indestructible_eggs_stay():
    state = started()
    hand(state, 0, ["neandertar-1", "neandertar-2"])
    state["seats"][1]["eggs"] = ["1", "2i"]
    state["egg_bank"] = state["egg_bank"][2:]  # those two came from the bank
    actions = [a for a in E.legal_actions(state) if a["type"] == "power"]
    assert actions == [{"type": "power", "card": "neandertar-1", "egg": 0}, {"type": "power", "card": "neandertar-1", "egg": 1}]
    refused(state, "0 to 1", type="power", card="neandertar-1", egg=2)
    state = act(state, type="power", card="neandertar-1", egg=1)
    assert state["seats"][1]["eggs"] == ["1"] and state["seats"][1]["shown"] == ["2i"]
    assert state["log"][-1]["value"] == "2i"
    state = act(state, type="power", card="neandertar-2", egg=0)
    assert state["seats"][1]["eggs"] == [] and state["eggs_gone"] == ["1"]
    assert E.score_breakdown(state, 1)["egg_points"] == 2


def test_neandertar_needs_an_egg_and_is_no_use_in_solo():
    state = started()
    hand(state, 0, ["neandertar-1"])
    assert not any(a["type"] == "power" for a in E.legal_actions(state))
    refused(state, "no face-down egg", type="power", card="neandertar-1", egg=0)
    state = started("solo")
    hand(state, 0, ["neandertar-1"])
    refused(state, "no use in Solo", type="power", card="neandertar-1", egg=0)


def test_no_egg_once_the_bank_is_empty():
    state = started()
    hand(state, 0, ["troc-1", "explorar_sun-1"])
    state["seats"][1]["eggs"], state["egg_bank"] = state["egg_bank"], []
    state = act(state, type="play", card="troc-1", via="explorar_sun-1")
    assert seat0(state)["eggs"] == []


# ---------------------------------------------------------------------------------------------------
# The Cave, the end of a turn, Rage.

def test_the_cave_keeps_one_card_across_turns():
    state = started()
    hand(state, 0, ["rotam-1", "yak-1"])
    state = act(state, type="cave", card="rotam-1")
    assert seat0(state)["cave"] == "rotam-1" and seat0(state)["hand"] == ["yak-1"]
    assert E.observation(state, 0)["cave"] == "rotam-1"
    for viewer in (1, None):  # the other player and spectators only see that the Cave holds a card
        obs = E.observation(state, viewer)
        assert obs["players"][0]["cave"] is True and "rotam-1" not in json.dumps(obs)
    state = act(state, type="cave", card="yak-1")  # exchange
    assert seat0(state)["cave"] == "yak-1" and seat0(state)["hand"] == ["rotam-1"]
    state = act(state, type="end")
    assert seat0(state)["cave"] == "yak-1" and "yak-1" not in seat0(state)["discard"]
    state = act(state, type="end")
    state = act(state, type="uncave")
    assert seat0(state)["cave"] is None and "yak-1" in seat0(state)["hand"]
    refused(state, "Your Cave is empty", type="uncave")


def test_end_of_turn_discards_play_and_hand_and_draws_four():
    state = started()
    hand(state, 0, ["capturar-1", "explorar_sun-1", "ami_sun-1"])
    state = act(state, type="play", card="capturar-1", via="explorar_sun-1")
    deck = list(seat0(state)["deck"])
    state = act(state, type="end")
    seat = seat0(state)
    assert {"capturar-1", "explorar_sun-1", "ami_sun-1"} <= set(seat["discard"]) and seat["play"] == []
    assert seat["hand"] == deck[::-1][:4] and state["turn"] == 1 and state["turns"] == 2
    assert (state["strength"], state["fought"], state["free"], state["used_totems"]) == (0, [], 0, [])


def rage_state(tops, deck_size, seed=1):
    state = started(seed=seed)
    for side, top in zip(E.SIDES, tops):
        put(state, [top], "dinos", side)
    seat = seat0(state)
    put(state, seat["deck"][: len(seat["deck"]) - deck_size], "discard", 0)
    return state


@pytest.mark.parametrize(("tops", "flips"), [
    (("raptor-1", "stegosaurus-1"), (1, 1)), (("allosaurus-1", "raptor-2"), (2, 1)),
    (("allosaurus-1", "tyrannosaurus-1"), (2, 2)),
])
def test_rage_on_drawing_the_last_card_flips_by_the_dinosaurs_level(tops, flips):
    state = rage_state(tops, 4)
    jungle = len(state["jungle"])
    state = act(state, type="end")
    assert tuple(len(state["grounds"][side]) for side in E.SIDES) == flips
    assert len(state["jungle"]) == jungle - sum(flips)
    assert any(e["type"] == "rage" for e in state["log"]) and not any(e["type"] == "reshuffle" for e in state["log"])
    assert seat0(state)["deck"] == [] and len(seat0(state)["hand"]) == 4  # no reshuffle until a card is needed


def test_no_rage_while_cards_remain_and_a_reshuffle_only_when_needed():
    state = rage_state(("raptor-1", "raptor-2"), 5)
    state = act(state, type="end")
    assert len(seat0(state)["deck"]) == 1 and not state["grounds"]["left"]
    state = rage_state(("raptor-1", "raptor-2"), 2)
    discard = len(seat0(state)["discard"]) + len(seat0(state)["hand"])
    state = act(state, type="end")
    events = [e["type"] for e in state["log"]]
    # Drew 2 (the last one enrages), then reshuffled the discard pile to draw 2 more.
    assert events.index("rage") < events.index("reshuffle")
    assert len(seat0(state)["hand"]) == 4 and len(seat0(state)["deck"]) == discard - 2


def test_rage_when_a_power_draws_the_last_card():
    state = rage_state(("raptor-1", "raptor-2"), 1)
    hand(state, 0, ["fiyar-1"])
    put(state, ["fiyar-1"], "totems", 0)
    state = act(state, type="totem", card="fiyar-1")
    assert len(state["grounds"]["left"]) == 1 and len(state["grounds"]["right"]) == 1


def test_a_side_without_dinosaurs_flips_nothing_in_duel():
    state = rage_state(("raptor-1", "raptor-2"), 4)
    put(state, state["dinos"]["left"], "dinos_out")
    state = act(state, type="end")
    assert state["grounds"]["left"] == [] and len(state["grounds"]["right"]) == 1


# ---------------------------------------------------------------------------------------------------
# The end of a Duel and the score.

def test_emptying_a_hunting_ground_in_the_first_players_turn_gives_the_second_one_last_turn():
    state = started()
    put(state, ["yak-1"], "grounds", "left")
    state["seats"][0]["food"] = 2
    state = act(state, type="buy", ground="left")
    assert state["end"] == {"reason": "the left Hunting Ground is empty", "turn": 1, "seat": 0}
    state = act(state, type="end")
    assert not E.is_over(state) and state["turn"] == 1
    state = act(state, type="end")
    assert E.is_over(state) and E.current_player(state) is None and E.legal_actions(state) == []
    assert E.result(state)["reason"] == "the left Hunting Ground is empty"
    refused(state, "The game is over", seat=0, type="end")


def test_the_end_triggered_in_the_second_players_turn_ends_the_game_after_it():
    state = act(started(), type="end")
    put(state, ["yak-1"], "grounds", "right")
    state["seats"][1]["food"] = 2
    state = act(state, type="buy", ground="right")
    state = act(state, type="end")
    assert E.is_over(state) and state["turns"] == 2


def test_an_empty_jungle_triggers_the_end_and_cannot_be_hunted():
    state = started()
    hand(state, 0, ["huntar-1", "huntar-2"])
    put(state, state["jungle"][:-2], "box")
    state = act(state, type="hunt", card="huntar-1", ground="left")
    assert state["jungle"] == [] and state["end"]["reason"] == "the Jungle is empty"
    assert not any(a["type"] == "hunt" for a in E.legal_actions(state))
    refused(state, "The Jungle is empty", type="hunt", card="huntar-2", ground="left")


def test_option_the_dinosaur_decks_end_the_game_instead_of_the_hunting_grounds():
    state = E.new_game({**DUEL, "end_trigger": "dinosaur_decks"}, 1)
    while state["phase"] != "play":
        state = E.apply(state, state["turn"], E.legal_actions(state)[0])
    state["first"] = state["turn"] = 0
    put(state, ["yak-1"], "grounds", "left")
    state["seats"][0]["food"] = 2
    state = act(state, type="buy", ground="left")
    assert state["end"] is None  # an empty Hunting Ground does not end this game
    put(state, state["dinos"]["right"][:-1], "dinos_out")
    hand(state, 0, ["huntar-1"])
    state["strength"] = 40
    state = act(state, type="attack", side="right")
    assert state["end"]["reason"] == "the right dinosaur deck is empty"
    assert E.observation(state, 1)["end_trigger"] == "dinosaur_decks"


def test_every_dinosaur_defeated_triggers_the_end():
    state = started()
    for side in E.SIDES:
        put(state, state["dinos"][side][:-1], "dinos_out")
    hand(state, 0, ["huntar-1"])
    state["strength"] = 40
    state = act(state, type="attack", side="left")
    state = act(state, type="destroy", card="huntar-1")
    state["strength"] = 40
    state = act(state, type="attack", side="right")
    assert state["end"]["reason"] == "every dinosaur is defeated"


def test_the_turn_limit_ends_the_game():
    state = started()
    state["turns"] = E.MAX_TURNS - 1
    state = act(state, type="end")
    assert not E.is_over(state)
    state = act(state, type="end")
    assert E.is_over(state) and "turn limit" in E.result(state)["reason"]


@pytest.mark.parametrize(("cards", "pairs"), [
    ([], 0), (["bananar_sun-1"], 0), (["bananar_sun-1", "explorar_sun-1"], 1),
    (["bananar_sun-1", "bananar_sun-2", "explorar_sun-1"], 1),
    (["gogo-1"], 0), (["gogo-1", "gogo-2"], 2), (["gogo-1", "explorar_sun-1"], 1),
    (["bananar_sun-1", "gogo-1", "explorar_sun-1"], 2), (["ayla-1", "gogo-1", "gogo-2"], 3),
    (["huntar-1", "huntar-2", "huntar-3", "gogo-1"], 1), (["capturar-1", "hut-1"], 0),
    (["chief_bobor-1", "chief_magda-1"], 1),
])
def test_family_symbols(cards, pairs):
    assert E.families(cards) == pairs


def test_families_brute_force():
    """The formula equals the best pairing found by brute force, for small sets of halves."""
    import itertools

    def best(halves):
        lefts = [(i, "L") for i, h in enumerate(halves) if h in ("left", "both")]
        rights = [(i, "R") for i, h in enumerate(halves) if h in ("right", "both")]
        top = 0
        for perm in itertools.permutations(rights, min(len(lefts), len(rights))):
            top = max(top, sum(1 for (a, _), (b, _) in zip(lefts, perm) if a != b))
        return top

    cards = {"left": ["explorar_sun-1", "explorar_sun-2", "explorar_sun-3"], "right": ["bananar_sun-1", "bananar_sun-2"],
             "both": ["gogo-1", "gogo-2", "ayla-1"]}
    for combo in itertools.product(range(4), range(3), range(4)):
        halves = ["left"] * combo[0] + ["right"] * combo[1] + ["both"] * combo[2]
        chosen = cards["left"][:combo[0]] + cards["right"][:combo[1]] + cards["both"][:combo[2]]
        assert E.families(chosen) == best(halves), combo


def test_score_counts_families_everywhere_totems_in_play_dinosaurs_and_eggs():
    state = started()
    seat = seat0(state)
    put(state, ["bananar_sun-1"], "cave", 0)
    put(state, ["hut-1", "totem_card-1"], "totems", 0)
    put(state, ["totem_card-2"], "discard", 0)  # not in play: no points
    put(state, ["raptor-1", "allosaurus-1"], "trophies", 0)
    seat["eggs"], seat["shown"] = ["1", "2i"], ["2"]
    breakdown = E.score_breakdown(state, 0)
    owned = E.owned_cards(seat)
    assert breakdown["families"] == E.families(owned) == 4  # 3 Bananar + Sillia (right) with 3 Explorar (left)
    assert breakdown["totem_symbols"] == 4 and breakdown["dinosaurs"] == 2 and breakdown["dinosaur_levels"] == 3
    assert breakdown["egg_points"] == 5 and breakdown["total"] == 8 + 4 + 2 + 5


def finished_with(trophies0, trophies1, eggs0=(), eggs1=()):
    state = started()
    put(state, trophies0, "trophies", 0)
    put(state, trophies1, "trophies", 1)
    state["seats"][0]["eggs"], state["seats"][1]["eggs"] = list(eggs0), list(eggs1)
    state["phase"], state["outcome"] = "over", {"reason": "test"}
    return state


def test_the_highest_score_wins():
    assert E.result(finished_with(["raptor-1"], [], ["2"]))["winners"] == [0]


def test_a_tie_goes_to_the_higher_dinosaur_levels_then_is_shared():
    state = finished_with(["raptor-1"], ["allosaurus-1"])
    assert E.result(state)["scores"][0] == E.result(state)["scores"][1]
    assert E.result(state)["winners"] == [1]
    assert E.result(finished_with(["raptor-1"], ["raptor-2"]))["winners"] == [0, 1]


# ---------------------------------------------------------------------------------------------------
# Solo.

def test_solo_rage_with_enemies_and_the_volcano():
    state = started("solo")
    seat = seat0(state)
    put(state, seat["deck"][:-4], "discard", 0)
    put(state, ["cultist-1"], "enemies", "left")
    put(state, ["piranar-1", "coconar-1"], "enemies", "right")
    put(state, state["dinos"]["left"], "dinos_out")  # the left deck is empty: the Volcano
    put(state, C.instances("jungle", "clan")[:8], "jungle")
    jungle = len(state["jungle"])
    state = act(state, type="end")
    counts = next(e for e in state["log"] if e["type"] == "rage")["counts"]
    assert counts == {"left": 3 + 1, "right": 2 + 2}
    assert len(state["jungle"]) == jungle - 8
    assert len(state["grounds"]["left"]) == 4 and len(state["grounds"]["right"]) == 4


def test_solo_an_enemy_revealed_by_the_rage_goes_beside_the_board_and_flips_one_more():
    state = started("solo")
    put(state, seat0(state)["deck"][:-4], "discard", 0)
    put(state, ["yak-1", "huntar-1", "cannibalar-1"], "jungle")   # right side flips first Cannibalar... after left
    put(state, ["hut-1"], "jungle")                                # the left side flips Hut (level 1)
    state = act(state, type="end")
    assert state["grounds"]["left"] == ["hut-1"]
    assert state["enemies"]["right"] == ["cannibalar-1"]
    assert state["grounds"]["right"] == ["huntar-1", "yak-1"]  # 2 for the level-2 dinosaur, the Enemy adds 1


def test_solo_an_enemy_revealed_by_a_hunt_goes_under_the_jungle():
    state = started("solo")
    hand(state, 0, ["huntar-1"])
    put(state, ["yak-1", "cultist-1", "hut-1"], "jungle")
    state = act(state, type="hunt", card="huntar-1", ground="left")
    assert state["grounds"]["left"] == ["hut-1", "yak-1"] and state["jungle"][0] == "cultist-1"
    assert state["bottom"] == ["cultist"] and not state["enemies"]["left"]
    assert E.observation(state, 0)["jungle"]["bottom"] == ["cultist"]


@pytest.mark.parametrize(("enemy", "change"), [
    ("piranar-1", {"dino": 1}), ("coconar-1", {"food": 2}), ("cannibalar-1", {"buddy": 1}),
])
def test_solo_defeating_an_enemy(enemy, change):
    state = started("solo")
    put(state, [enemy], "enemies", "left")
    state["seats"][0].update(food=0, dino=0, buddy=0)
    need = E.STRENGTH[enemy]
    state["strength"] = need - 1
    refused(state, f"needs strength {need}", type="defeat", enemy=enemy)
    state["strength"] = need
    after = act(state, type="defeat", enemy=enemy)
    assert {k: after["seats"][0][k] for k in change} == change
    assert enemy in after["jungle"] and not after["enemies"]["left"] and after["strength"] == 0


def test_solo_the_cultist_lets_you_destroy_a_card_in_play():
    state = started("solo")
    hand(state, 0, ["huntar-1", "huntar-2", "ami_sun-1"])
    put(state, ["cultist-1"], "enemies", "right")
    state = act(state, type="fight", card="huntar-1")
    state = act(state, type="fight", card="huntar-2")
    state = act(state, type="defeat", enemy="cultist-1")
    choices = E.legal_actions(state)
    assert {"type": "skip"} in choices and {"type": "destroy", "card": "ami_sun-1"} not in choices
    refused(state, "Choose a card in play", type="destroy", card="ami_sun-1")
    assert "huntar-1" in act(state, type="destroy", card="huntar-1")["destroyed"]
    assert not act(state, type="skip")["pending"]


def test_solo_an_egg_is_revealed_and_adds_set_aside_cards_under_the_jungle():
    state = started("solo")
    state["egg_bank"].append("2")
    hand(state, 0, ["troc-1", "explorar_sun-1"])
    jungle, aside = len(state["jungle"]), len(state["setaside"])
    state = act(state, type="play", card="troc-1", via="explorar_sun-1")
    assert seat0(state)["shown"] == ["2"] and seat0(state)["eggs"] == []
    assert len(state["jungle"]) == jungle + 2 and len(state["setaside"]) == aside - 2
    assert state["bottom"][:2] == ["s", "s"]
    assert E.strength(state, seat0(state), "dino_ridar-1") == 1  # Solo: revealed eggs from the bank


def test_solo_victory_when_every_dinosaur_is_defeated():
    state = started("solo")
    put(state, state["dinos"]["left"], "dinos_out")
    put(state, state["dinos"]["right"][:-1], "dinos_out")
    state["strength"] = 19
    state = act(state, type="attack", side="right")
    assert E.is_over(state) and E.result(state)["won"] and E.result(state)["winners"] == [0]


def test_solo_defeat_when_the_rage_finds_the_jungle_empty():
    state = started("solo")
    put(state, seat0(state)["deck"][:-4], "discard", 0)
    put(state, state["jungle"][:-2], "setaside")
    state = act(state, type="end")
    assert E.is_over(state) and not E.result(state)["won"] and "Jungle ran out" in E.result(state)["reason"]


def test_solo_a_hunt_only_flips_what_is_left():
    state = started("solo")
    hand(state, 0, ["huntar-1"])
    put(state, state["jungle"][:-1], "setaside")
    state = act(state, type="hunt", card="huntar-1", ground="left")
    assert state["jungle"] == [] and not E.is_over(state)


def test_solo_emptying_a_hunting_ground_does_not_end_the_game():
    state = started("solo")
    put(state, ["yak-1"], "grounds", "left")
    state = act(state, type="buy", ground="left")
    assert state["end"] is None


# ---------------------------------------------------------------------------------------------------
# Illegal actions: refused with a reason, the state untouched.

def pending_state():
    state = fighting_hand(started(), ["huntar-1"], "raptor-1")
    state["strength"] = 10
    return act(state, type="attack", side="left")


@pytest.mark.parametrize(("make", "seat", "action", "message"), [
    (started, 1, {"type": "end"}, "not your turn: it is Ann's turn"),
    (started, 0, {"type": "fly"}, "no action called 'fly'"),
    (started, 0, "end", "Send an action"),
    (started, 0, {"type": "end", "now": True}, "does not take 'now'"),
    (started, 0, {"type": "hunt", "card": [], "ground": "left"}, "'card' is a name or a number, not \\[\\]"),
    (started, 0, {"type": "buy", "ground": {"left": 1}}, "'ground' is a name or a number"),
    (started, 0, {"type": "destroy", "cards": "huntar-1"}, "'cards' is a list of card names"),
    (started, 0, {"type": "buy", "ground": "middle"}, "'left' or the 'right'"),
    (started, 0, {"type": "hunt", "card": "huntar-3", "ground": "left"}, "Huntar is not in your hand"),
    (started, 0, {"type": "attack", "side": "left"}, "your fight strength is 0"),
    (pending_state, 0, {"type": "end"}, "First choose a card in your hand or in play to destroy"),
    (pending_state, 0, {"type": "destroy", "card": "huntar-2"}, "Choose a card in your hand or in play"),
])
def test_illegal_actions_are_refused_with_a_reason(make, seat, action, message):
    state = make()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match=message):
        E.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before


def test_play_a_card_that_was_already_played():
    state = started()
    hand(state, 0, ["capturar-1", "explorar_sun-1", "bananar_sun-1"])
    state = act(state, type="play", card="capturar-1", via="explorar_sun-1")
    refused(state, "Capturar has already been played", type="play", card="capturar-1", via="bananar_sun-1")


# ---------------------------------------------------------------------------------------------------
# Labels.

def test_describe_action_examples():
    state = started()
    hand(state, 0, ["huntar-1", "capturar-1", "fructam_sun-1"])
    put(state, ["hut-1"], "grounds", "left")
    put(state, ["raptor-1"], "dinos", "right")
    obs = E.observation(state, 0)
    assert dino.describe_action(obs, {"type": "hunt", "card": "huntar-1", "ground": "left"}) == \
        "Hunt with Huntar (strength 3) on the left Hunting Ground"
    assert dino.describe_action(obs, {"type": "buy", "ground": "left"}) == "Buy Hut for 4 Food"
    assert dino.describe_action(obs, {"type": "play", "card": "capturar-1", "via": "huntar-1"}) == \
        "Play Capturar with Huntar: gain 2 Dino tokens"
    assert dino.describe_action(obs, {"type": "play", "card": "fructam_sun-1", "via": "huntar-1", "option": "draw"}) \
        == "Play Fructam with Huntar: draw 2 cards"
    assert dino.describe_action(obs, {"type": "attack", "side": "right"}) == "Attack the Raptor (strength 10) on the right"
    assert dino.describe_action(obs, {"type": "end"}) == "End your turn"


# ---------------------------------------------------------------------------------------------------
# Hidden information, determinise, JSON, random play.

CARD_ID = re.compile(r'"([a-z_]+-\d)"')


def hidden_ids(state, viewer):
    """Card ids the viewer must not find in their observation."""
    hidden = set(state["jungle"]) | set(state["setaside"]) | set(state["box"]) | set(state["dinos_out"])
    for pile in state["dinos"].values():
        hidden.update(pile[:-1])
    for index, seat in enumerate(state["seats"]):
        hidden.update(seat["deck"])
        if index != viewer:
            hidden.update(seat["hand"])
            if seat["cave"]:
                hidden.add(seat["cave"])
    # A Chief is chosen in front of everyone: its name is public, only where it is (deck or hand) is not.
    return hidden - {seat["chief"] for seat in state["seats"]}


def check_observation(state, viewer):
    obs = E.observation(state, viewer)
    text = json.dumps(obs)
    assert not set(CARD_ID.findall(text)) & hidden_ids(state, viewer), "a hidden card is in the observation"
    assert "seed" not in obs and "draws" not in obs and "egg_bank" not in text
    if not obs["over"]:
        for p in obs["players"]:
            assert p["revealed_eggs"] is None
    for p, seat in zip(obs["players"], state["seats"]):
        assert p["hand_size"] == len(seat["hand"]) and p["deck_size"] == len(seat["deck"])
    return obs


ALL_CARDS = Counter(C.ALL_CARDS)
ALL_CARD_SET = set(C.ALL_CARDS)  # every id is unique, so 126 ids and the right set means each card once
ALL_EGGS = Counter({kind: count for kind, count in C.EGG_COUNTS.items()})


def check_invariants(state):
    """Assert what must hold after every step of any Dinoblivion game."""
    held = []
    for seat in state["seats"]:
        for zone in SEAT_ZONES:
            held += seat[zone]
        if seat["cave"]:
            held.append(seat["cave"])
        for resource in E.RESOURCES:
            assert 0 <= seat[resource] <= E.CAP
    for zone in SHARED_ZONES:
        held += state[zone]
    for zone in SIDED_ZONES:
        for pile in state[zone].values():
            held += pile
    assert len(held) == len(ALL_CARDS) and set(held) == ALL_CARD_SET, "a card was made or lost"
    eggs = state["egg_bank"] + state["eggs_out"] + state["eggs_gone"]
    for seat in state["seats"]:
        eggs += seat["eggs"] + seat["shown"]
    assert Counter(eggs) == ALL_EGGS, "an egg was made or lost"
    assert state["strength"] >= 0 and state["free"] >= 0
    assert len(state["bottom"]) <= len(state["jungle"])
    for tag, card in zip(state["bottom"], state["jungle"]):
        assert (tag == "s" and card not in C.IS_ENEMY) or tag == C.KIND_OF[card]
    if state["mode"] == "solo":
        assert state["end"] is None
    if E.is_over(state):
        assert E.legal_actions(state) == [] and E.result(state) is not None


def play_random(config, seed, every_step=None, illegal_every=0):
    state = E.new_game(config, seed)
    rng = random.Random(seed)
    steps = 0
    while not E.is_over(state):
        if every_step:
            every_step(state)
        actions = E.legal_actions(state)
        assert actions, "a live game must offer an action"
        seat = E.current_player(state)
        if illegal_every and steps % illegal_every == 0 and len(state["seats"]) == 2:
            before = json.dumps(state, sort_keys=True)
            with pytest.raises(IllegalAction):
                E.apply(state, 1 - seat, actions[0])
            assert json.dumps(state, sort_keys=True) == before
        action = bots.random_bot(None, actions, rng)
        if steps % 10 == 3:  # a legal action never changes the state it is applied to either
            before = json.dumps(state, sort_keys=True)
            after = E.apply(state, seat, action)
            assert json.dumps(state, sort_keys=True) == before
            state = after
        else:
            state = E.apply(state, seat, action)
        steps += 1
        assert steps < 5000
    if every_step:
        every_step(state)
    return state


def full_check(state):
    check_invariants(state)
    assert json.loads(json.dumps(state)) == state
    acting = E.current_player(state)
    viewers = [None] + [v for v in range(len(state["seats"])) if v != acting]
    for viewer in viewers:
        check_observation(state, viewer)


@pytest.mark.parametrize("block", range(6))
def test_random_duel_games_keep_every_invariant(block):
    reasons = Counter()
    for seed in range(block * 100, block * 100 + 100):  # 600 Duel games in all (a quarter fully checked)
        state = play_random(DUEL, seed, every_step=full_check if seed % 4 == 0 else check_invariants,
                            illegal_every=7)
        reasons[state["outcome"]["reason"]] += 1
        assert E.result(state)["winners"]
    assert set(reasons) <= {"the Jungle is empty", "the left Hunting Ground is empty",
                            "the right Hunting Ground is empty", "every dinosaur is defeated",
                            f"the turn limit ({E.MAX_TURNS} turns) is reached"}


def test_random_duel_games_end_under_either_reading_of_workar():
    workar_steps = Counter()

    def counted(state):
        check_invariants(state)
        if state["pending"] and state["pending"][0]["kind"] == "workar":
            workar_steps[state["workar_later"]] += 1
        if state["workar_later"]:
            assert not any(step["kind"] == "workar" for step in state["pending"])

    for seed in range(150):
        house = seed % 2 == 1
        config = {**DUEL, "workar_later": True} if house else DUEL
        state = play_random(config, seed, every_step=full_check if seed % 10 == 0 else counted)
        assert E.result(state)["winners"] and state["workar_later"] is house
    assert workar_steps[False] > 0 and workar_steps[True] == 0  # the rulebook's second card was chosen in play


@pytest.mark.parametrize("difficulty", list(E.DIFFICULTIES))
def test_random_solo_games_keep_every_invariant(difficulty):
    for seed in range(150):  # 600 Solo games in all (a quarter fully checked)
        state = play_random(solo_config(difficulty), seed,
                            every_step=full_check if seed % 4 == 0 else check_invariants)
        assert E.result(state)["reason"]


@pytest.mark.parametrize("mode", ["duel", "solo"])
def test_determinise_is_consistent_with_every_observation(mode):
    config = DUEL if mode == "duel" else solo_config("warrior")
    for seed in range(12):
        state = E.new_game(config, seed)
        rng = random.Random(seed)
        while True:
            for viewer in [None, *range(len(state["seats"]))]:
                obs = E.observation(state, viewer)
                guess = E.determinise(obs, viewer, random.Random(seed))
                assert E.observation(guess, viewer) == obs
                assert set(guess) == set(state) and json.loads(json.dumps(guess)) == guess
                check_invariants(guess)
                if viewer == E.current_player(state):
                    assert E.legal_actions(guess) == E.legal_actions(state)
            if E.is_over(state):
                break
            state = E.apply(state, E.current_player(state), bots.random_bot(None, E.legal_actions(state), rng))


def test_determinise_resamples_what_is_hidden():
    state = started(seed=4)
    obs = E.observation(state, 0)
    guesses = [E.determinise(obs, 0, random.Random(n)) for n in range(6)]
    assert len({tuple(g["jungle"]) for g in guesses}) > 1
    assert len({tuple(sorted(g["seats"][1]["hand"])) for g in guesses}) > 1
    assert all(g["seats"][0]["hand"] == state["seats"][0]["hand"] for g in guesses)


def test_a_json_round_tripped_state_plays_on_identically():
    for seed in range(20):
        state = E.new_game(DUEL, seed)
        copy = json.loads(json.dumps(state))
        rng = random.Random(seed)
        while not E.is_over(state):
            action = bots.random_bot(None, E.legal_actions(state), rng)
            seat = E.current_player(state)
            state, copy = E.apply(state, seat, action), json.loads(json.dumps(E.apply(copy, seat, action)))
            assert state == copy


def test_every_legal_action_passes_the_check_and_has_a_label():
    for seed in range(40):
        for config in (DUEL, solo_config()):
            state = E.new_game(config, seed)
            rng = random.Random(seed)
            while not E.is_over(state):
                actions = E.legal_actions(state)
                seat = E.current_player(state)
                obs = E.observation(state, seat)
                assert len({json.dumps(a, sort_keys=True) for a in actions}) == len(actions)
                for action in actions:
                    E.check(state, seat, action)
                    assert dino.describe_action(obs, action)
                state = E.apply(state, seat, bots.random_bot(None, actions, rng))


# ---------------------------------------------------------------------------------------------------
# Computer players.

def play_bots(levels, seed, config=DUEL):
    state = E.new_game(config, seed)
    rng = random.Random(seed)
    while not E.is_over(state):
        seat = E.current_player(state)
        actions = E.legal_actions(state)
        action = bots.bot_choose(E.observation(state, seat), actions, rng, levels[seat])
        assert action in actions
        state = E.apply(state, seat, action)
    return E.result(state)


def test_greedy_beats_random_in_most_games():
    wins = 0
    games = 40
    for seed in range(games):
        levels = ("greedy", "random") if seed % 2 == 0 else ("random", "greedy")
        winners = play_bots(levels, seed)["winners"]
        wins += winners == [levels.index("greedy")]
    assert wins / games > 0.6  # 31 of these 40 seeds today


def test_computer_move_uses_the_app_levels():
    state = started()
    for level in ("easy", "medium", "hard"):
        assert dino.computer_move(state, 0, level, 1, random.Random(1)) in E.legal_actions(state)
    assert play_bots(("greedy",), 3, solo_config())["reason"]


def _candidates(state):
    """A broad superset of actions for the player to move, most of them illegal."""
    seat = state["seats"][state["turn"]]
    hand_, play, totems = seat["hand"], seat["play"], seat["totems"]
    some = hand_ + play[:2] + totems[:2] + ["huntar-1", "nothing"]
    options = [{}, {"use": "fight"}, {"use": "left"}, {"option": "food"}, {"option": "draw"}, {"option": "dino"},
               {"tokens": 1, "use": "fight"}, {"tokens": 2, "use": "right"}, {"tokens": 7, "use": "fight"}]
    out = [{"type": "end"}, {"type": "uncave"}, {"type": "skip"}, {"type": "throw"}]
    out += [{"type": t, "ground": g} for t in ("buy",) for g in ("left", "right", "up")]
    out += [{"type": "attack", "side": s} for s in ("left", "right")]
    out += [{"type": "defeat", "enemy": e} for e in C.ENEMIES]
    for card in some:
        out += [{"type": "fight", "card": card}, {"type": "cave", "card": card}, {"type": "destroy", "card": card},
                {"type": "gain", "card": card}]
        out += [{"type": "hunt", "card": card, "ground": g} for g in ("left", "right")]
        out += [{"type": "power", "card": card, **o} for o in options[:3]]
        out += [{"type": "power", "card": card, "target": t, **o} for t in some[:4] for o in options[:2]]
        out += [{"type": "power", "card": card, "egg": i} for i in range(2)]
        out += [{"type": "totem", "card": card, **o} for o in options]
        for via in hand_ + play[-2:] + ["free"]:  # a Workar in play plays its second card
            out += [{"type": "play", "card": card, "via": via, **o} for o in options]
        out += [{"type": "mate", "cards": [card, other]} for other in some]
    for pile in state["grounds"].values():
        out += [{"type": "gain", "card": c} for c in pile]
    return out


def _canonical(state, action):
    """The instance legal_actions would offer for this action (one card of each kind from a zone)."""
    seat = state["seats"][state["turn"]]

    def first(card, exclude=None):
        for zone in (seat["hand"], seat["play"]):
            if card in zone:
                return next(c for c in zone if C.KIND_OF[c] == C.KIND_OF[card] and c != exclude)
        return card

    out = dict(action)
    for key in ("card", "via", "target"):
        if key == "via" and out.get(key) in seat["play"]:
            continue  # the very Workar whose second Action card is being played
        if key in out and isinstance(out[key], str) and not (key == "card" and out["type"] in ("totem", "gain")):
            out[key] = first(out[key])
    if out["type"] == "mate":
        x, y = action["cards"]
        x = first(x) if x in seat["hand"] else x
        y = (first(y, exclude=x) if C.KIND_OF[y] == C.KIND_OF[x] else first(y)) if y in seat["hand"] else y
        out["cards"] = [x, y]
    return out


def test_check_and_legal_actions_agree():
    """Whatever the check accepts is offered by legal_actions (up to which copy of a kind), and the reverse."""
    accepted = 0
    for seed in range(12):
        for config in (DUEL, solo_config("hunter")):
            state = E.new_game(config, seed)
            rng = random.Random(seed)
            step = 0
            while not E.is_over(state):
                actions = E.legal_actions(state)
                if step % 3 == 0:
                    legal = {json.dumps(a, sort_keys=True) for a in actions}
                    for action in _candidates(state):
                        try:
                            E.check(state, state["turn"], action)
                        except IllegalAction as error:
                            assert str(error)
                            assert json.dumps(action, sort_keys=True) not in legal
                            continue
                        accepted += 1
                        if action["type"] == "cave" and state["seats"][state["turn"]]["cave"] and \
                                C.KIND_OF[state["seats"][state["turn"]]["cave"]] == C.KIND_OF[action["card"]]:
                            continue  # swapping a card for one of its own kind is allowed but not offered
                        assert json.dumps(_canonical(state, action), sort_keys=True) in legal, action
                state = E.apply(state, state["turn"], bots.random_bot(None, actions, rng))
                step += 1
    assert accepted > 1000


def test_the_dinoblivion_card_destroys_its_dino_tokens_and_the_bank_has_fewer_to_give():
    state = started()
    hand(state, 0, ["dinoblivion_sun-1", "explorar_sun-1", "capturar-1", "explorar_sun-2"])
    state["seats"][0]["dino"] = 5
    state = act(state, type="play", card="dinoblivion_sun-1", via="explorar_sun-1", tokens=4, use="fight")
    assert seat0(state)["dino"] == 1 and seat0(state)["burnt"] == 4 and state["strength"] == 8
    assert E.observation(state, 1)["players"][0]["burnt"] == 4  # everyone sees the bank shrink
    state["seats"][0]["dino"] = 2
    state = act(state, type="play", card="capturar-1", via="explorar_sun-2")  # +2 Dino tokens, from a bank of 0
    assert seat0(state)["dino"] == 2  # 6 tokens - 4 destroyed - 2 held: nothing left to give


def test_a_hunting_ground_shows_only_its_top_card_and_its_size():
    state = started()
    put(state, ["yak-1", "hut-1", "monki-1"], "grounds", "left")
    for viewer in (0, 1, None):
        obs = E.observation(state, viewer)
        assert obs["grounds"]["left"] == ["monki-1"] and obs["ground_sizes"]["left"] == 3
        assert not {"yak-1", "hut-1"} & set(json.dumps(obs).replace('"', " ").split())
        assert {"yak-1", "hut-1"} <= E.hidden(state, viewer)
    # The cards under the top stay among the cards the viewer may not look at, without saying where.
    assert E.observation(state, 0)["jungle"]["unseen"].get(C.KIND_OF["yak-1"], 0) >= 1


def test_open_hunting_grounds_is_a_house_rule_chosen_at_set_up():
    state = E.new_game({**DUEL, "open_grounds": True}, 1)
    put(state, ["yak-1", "hut-1", "monki-1"], "grounds", "left")
    assert E.observation(state, 1)["grounds"]["left"] == ["yak-1", "hut-1", "monki-1"]
    with pytest.raises(InvalidConfig, match="open_grounds"):
        E.new_game({**DUEL, "open_grounds": "yes"}, 1)


def test_the_winner_choosing_a_card_after_a_fight_sees_that_pile_and_only_they_do():
    state = fighting_hand(started(), ["huntar-1"], "raptor-1", ground=["yak-1", "ayla-1", "hut-1", "monki-1"])
    state["strength"] = 10
    state = act(state, type="attack", side="left")
    state = act(state, type="destroy", card="huntar-1")
    assert E.observation(state, 0)["grounds"]["left"] == state["grounds"]["left"]
    assert E.observation(state, 1)["grounds"]["left"] == state["grounds"]["left"][-1:]


@pytest.mark.parametrize("seed", range(20))
def test_a_determinised_game_keeps_the_hidden_piles_sizes_and_tops(seed):
    state = started(seed=seed)
    put(state, ["yak-1", "hut-1", "monki-1"], "grounds", "left")
    obs = E.observation(state, 0)
    world = E.determinise(obs, 0, random.Random(seed))
    assert len(world["grounds"]["left"]) == 3 and world["grounds"]["left"][-1] == "monki-1"
    assert E.observation(world, 0)["grounds"] == obs["grounds"]
