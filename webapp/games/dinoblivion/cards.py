"""The Dinoblivion cards, read once from cards_db/data/dinoblivion_cards.csv into immutable lookups.

Each printed card is one instance with a short id, ``<kind>-<n>`` (``huntar-2``); the kind is the CSV row.
Egg tokens are not cards: their split is below, with where it comes from.
"""

import csv
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

CSV_PATH = Path(__file__).resolve().parents[3] / "cards_db" / "data" / "dinoblivion_cards.csv"

GROUPS = ("jungle", "start_sun", "start_moon", "chief", "enemy", "dino_level1", "dino_level2")

# The rulebook's component list, checked against the CSV by the tests.
COMPONENT_COUNTS = MappingProxyType({
    "start_sun": 9, "start_moon": 9, "chief": 5, "enemy": 4, "jungle_clan": 42, "jungle_action": 41,
    "dino_level1": 8, "dino_level2": 8,
})

# Egg tokens: the rulebook gives 24 eggs worth 1, 2, or 2 and indestructible, not how many of each. The
# split 12 / 8 / 4 is the fan notes' (najibyla/lua_dinoB, regles/regleslimpides.txt: "4 dino bleu
# indestructible, 8 dino rouge, 12 dino vert"). Kinds: "1" (1 point), "2" (2 points), "2i" (2 points,
# indestructible).
EGG_KINDS = ("1", "2", "2i")
EGG_COUNTS = MappingProxyType({"1": 12, "2": 8, "2i": 4})
EGG_POINTS = MappingProxyType({"1": 1, "2": 2, "2i": 2})


class Kind(NamedTuple):
    """One row of the card list: a kind of card and how many copies the box holds."""

    id: str
    name: str
    group: str
    card_type: str          # clan, action, enemy or dinosaur
    qty: int
    unique: bool
    strength: int | None    # None: variable (Mom, Protectar, Dino Ridar)
    cost_food: int
    cost_buddy: int
    food_icons: int
    half: str               # "left", "right", "both" or ""
    totems: int
    power: str
    level: int              # dinosaurs: 1 or 2; 0 otherwise
    destroy: int
    gain: int
    food: int
    tokens: int
    buddy: int
    eggs: int


def _int(text):
    return int(text) if text not in ("", None) else 0


def _read(path=CSV_PATH):
    kinds = {}
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            group = row["group"]
            kinds[row["id"]] = Kind(
                id=row["id"], name=row["name"], group=group, card_type=row["card_type"], qty=int(row["qty"]),
                unique=row["unique"] == "yes",
                strength=None if row["strength"] == "variable" else _int(row["strength"]),
                cost_food=_int(row["cost_food"]), cost_buddy=_int(row["cost_buddy"]),
                food_icons=_int(row["food_icons"]), half=row["half_symbol"], totems=_int(row["totem_symbols"]),
                power=row["power"], level={"dino_level1": 1, "dino_level2": 2}.get(group, 0),
                destroy=_int(row["dino_destroy_cards"]), gain=_int(row["dino_gain_cards"]),
                food=_int(row["dino_food"]), tokens=_int(row["dino_tokens"]), buddy=_int(row["dino_buddy"]),
                eggs=_int(row["dino_eggs"]))
    return MappingProxyType(kinds)


KINDS = _read()

# Every physical card: instance id -> its Kind.
CARDS = MappingProxyType({f"{kind.id}-{n}": kind for kind in KINDS.values() for n in range(1, kind.qty + 1)})
KIND_OF = MappingProxyType({card: kind.id for card, kind in CARDS.items()})


def instances(group, card_type=None):
    """Return the ids of every card of `group` (and `card_type`), in CSV order."""
    return tuple(c for c, k in CARDS.items() if k.group == group and (card_type is None or k.card_type == card_type))


JUNGLE = instances("jungle")
STARTING = MappingProxyType({"sun": instances("start_sun"), "moon": instances("start_moon")})
CHIEFS = instances("chief")
ENEMIES = instances("enemy")
DINOS = MappingProxyType({1: instances("dino_level1"), 2: instances("dino_level2")})
ALL_CARDS = tuple(CARDS)
ALL_DINOS = DINOS[1] + DINOS[2]

# Fast per-instance lookups used on every engine step.
IS_CLAN = frozenset(c for c, k in CARDS.items() if k.card_type == "clan")
IS_ACTION = frozenset(c for c, k in CARDS.items() if k.card_type == "action")
IS_ENEMY = frozenset(ENEMIES)
IS_UNIQUE = frozenset(c for c, k in CARDS.items() if k.unique)
TOTEMS = MappingProxyType({c: k.totems for c, k in CARDS.items() if k.totems})
HALF = MappingProxyType({c: k.half for c, k in CARDS.items() if k.half})
NAME = MappingProxyType({c: k.name for c, k in CARDS.items()})
KIND_NAME = MappingProxyType({k.id: k.name for k in KINDS.values()})
