"""Computer players for Dinoblivion: each sees only its observation and the legal actions.

``random`` plays uniformly (ending its turn now and then so games stay short); ``greedy`` looks one step
ahead: it attacks when it can win a fight, gathers strength when a dinosaur is within reach, mates,
plays its resource cards and Totems, buys the best card it can afford, hunts with what is left and ends
its turn. A searching player can be added: ``engine.determinise`` turns an observation into a full state.
"""

from webapp.games.dinoblivion import cards as C
from webapp.games.dinoblivion import engine as E
from webapp.games.dinoblivion.labels import _strength

END_BIAS = 0.15

# How much the greedy player likes a card in its deck (buying, gaining; the lowest is destroyed first).
VALUE = {
    "totem_card": 5, "hut": 4, "dino_farm": 3.5, "fiyar": 3, "yak": 3, "tigar": 2, "mammotar": 3, "monki": 3,
    "dino_tool": 2.5, "rotam": 4, "capturar": 2.5, "stellar": 3, "troc": 3.5, "yolo": 3, "banana_boost": 3,
    "huntar": 4, "gogo": 4, "mom": 3.5, "neandertar": 4, "zazza": 4, "dominatar": 4, "krafdinar": 3, "amazar": 3.5,
    "workar": 3.5, "artis": 3, "patrak": 3, "gilir": 2, "shaman": 2.5, "protectar": 2.5, "ayla": 3, "dino_ridar": 2.5,
    "ami_sun": 0.5, "ami_moon": 0.5, "fructam_sun": 1.5, "fructam_moon": 1.5, "bananar_sun": 1, "bananar_moon": 1,
    "explorar_sun": 0.8, "explorar_moon": 0.8, "dinoblivion_sun": 5, "dinoblivion_moon": 5,
}
CHIEF_PREFERENCE = ("chief_sillia", "chief_cornio", "chief_slayar", "chief_magda", "chief_bobor")


def _value(card):
    return VALUE.get(C.KIND_OF[card], 5)


def random_bot(observation, actions, rng):
    """Choose uniformly, but end the turn with a modest probability so random games stay short."""
    if actions[0]["type"] == "end" and len(actions) > 1 and rng.random() < END_BIAS:
        return actions[0]
    return rng.choice(actions)


def _points(player):
    return 2 * player["families"] + player["totem_symbols"] + player["dinosaurs"] + 1.5 * (
        player["eggs"] + len(player["shown_eggs"]))


def _ahead(observation):
    """Say whether the observing seat leads on visible points (eggs counted at 1.5)."""
    me = observation["viewer"]
    mine = _points(observation["players"][me])
    return all(mine > _points(p) for p in observation["players"] if p["seat"] != me)


def _axe(observation, action):
    """Return the fight strength an action adds, and the strength of the Clan card it spends."""
    kind = action["type"]
    if kind == "fight":
        return _strength(observation, action["card"]), 0
    if action.get("use") != "fight":
        return 0, 0
    card_kind = C.KIND_OF[action["card"]]
    if kind == "power":
        power = E.CHIEF_POWERS.get(card_kind) or E.CLAN_POWERS[card_kind]
        return power.axe, _strength(observation, action["card"])
    power = E._effect_power(card_kind, action)
    via = action.get("via")
    spent = _strength(observation, via) if via not in (None, "free") else 0
    return power.axe, spent


def _reachable(observation, actions):
    """Estimate the most strength this turn could still add (each Clan card used once)."""
    clans = [c for c in observation["hand"] if c in C.IS_CLAN]
    own = sorted((_strength(observation, c) for c in clans), reverse=True)
    boosts = []
    for action in actions:
        if action.get("use") == "fight" and action["type"] in ("play", "totem", "power"):
            boosts.append((action["type"], action.get("card"), _axe(observation, action)[0]))
    best = {}
    for kind, card, amount in boosts:
        best[(kind, card)] = max(best.get((kind, card), 0), amount)
    totems = sum(v for (kind, _), v in best.items() if kind == "totem")
    cards = sorted((v for (kind, _), v in best.items() if kind != "totem"), reverse=True)
    total = totems
    # Each played axe card or power replaces one Clan card's own strength (the weakest first).
    for amount in cards:
        if own and amount > own[-1]:
            own.pop()
            total += amount
        elif not own and observation["free_plays"]:
            total += amount
    return total + sum(own)


def greedy_bot(observation, actions, rng):
    """Choose the action that looks best one step ahead (see the module docstring)."""
    first = actions[0]["type"]
    if first in ("throw",):
        return actions[0]
    if first == "chief":
        return min(actions, key=lambda a: CHIEF_PREFERENCE.index(C.KIND_OF[a["card"]]))
    by_type = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    if "gain" in by_type:
        return max(by_type["gain"], key=lambda a: _value(a["card"]))
    if "destroy" in by_type:
        worst = min(by_type["destroy"], key=lambda a: _value(a["card"]))
        if "skip" in by_type and _value(worst["card"]) >= 2:
            return by_type["skip"][0]
        return worst
    if "attack" in by_type:
        return max(by_type["attack"], key=lambda a: E.STRENGTH[observation["dinosaurs"][a["side"]]["top"]])
    if "defeat" in by_type:
        return max(by_type["defeat"], key=lambda a: E.STRENGTH[a["enemy"]])
    pool = observation["strength"]
    targets = [E.STRENGTH[observation["dinosaurs"][s]["top"]] for s in E.SIDES
               if observation["dinosaurs"][s]["top"] and s not in observation["fought"]]
    targets += [E.STRENGTH[e] for side in E.SIDES for e in observation["enemies"][side]]
    if targets and pool + _reachable(observation, actions) >= min(targets):
        adds = [a for a in actions if a["type"] == "fight" or (a.get("use") == "fight" and a["type"] != "play")
                or (a["type"] == "play" and a.get("use") == "fight")]
        if adds:
            return max(adds, key=lambda a: (_axe(observation, a)[0] - _axe(observation, a)[1],
                                            -a.get("tokens", 0), rng.random()))
    if "mate" in by_type:
        return by_type["mate"][0]
    useful = _useful(observation, by_type)
    if useful:
        return useful
    buys = [a for a in by_type.get("buy", ()) if _value(observation["grounds"][a["ground"]][-1]) >= 2]
    if buys:
        choice = max(buys, key=lambda a: _value(observation["grounds"][a["ground"]][-1]))
        if len(observation["grounds"][choice["ground"]]) > 1 or _ahead(observation):
            return choice
    hunts = by_type.get("hunt", ())
    if hunts and (observation["jungle"]["size"] > 6 or _ahead(observation)):
        return max(hunts, key=lambda a: (_strength(observation, a["card"]), len(observation["grounds"][a["ground"]])))
    return by_type["end"][0]


def _useful(observation, by_type):
    """Return a power, Totem or Action play that gains something, using the least useful Clan card."""
    me = observation["players"][observation["viewer"]]
    for action in by_type.get("totem", ()):
        kind = C.KIND_OF[action["card"]]
        if kind in ("hut", "yak", "fiyar", "monki") or action.get("option") == "food" \
                or (kind == "dino_tool" and me["dino"] >= 2):
            return action
    plays = []
    for action in by_type.get("play", ()):
        if action.get("use") not in (None, "fight") or action.get("tokens"):
            continue
        kind = C.KIND_OF[action["card"]]
        if kind in E.OPTION_POWERS and action.get("option") != ("draw" if "fructam" in kind else "food"):
            continue
        if action.get("use") == "fight":
            continue
        via = action["via"]
        spent = -1 if via == "free" else (_strength(observation, via) - {"workar": 3, "artis": 2}.get(C.KIND_OF[via], 0))
        plays.append((spent, -_value(action["card"]), action))
    if plays:
        return min(plays, key=lambda t: (t[0], t[1]))[2]
    for action in by_type.get("power", ()):
        kind = C.KIND_OF[action["card"]]
        if "target" in action:
            if action.get("use", "fight") == "fight" and _value(action["target"]) <= 1.5 \
                    and kind != "chief_slayar":
                return action
        elif kind in ("amazar", "gilir", "krafdinar", "bananar_sun", "bananar_moon", "shaman", "neandertar"):
            return action
    return None


BOTS = {"random": random_bot, "greedy": greedy_bot}
BOT_LEVELS = {"easy": "random", "medium": "greedy", "hard": "greedy"}


def bot_choose(observation, actions, rng, level):
    """Choose one of `actions` for the observing seat with the bot of `level` (a bot name or easy/medium/hard)."""
    name = BOT_LEVELS.get(level, level)
    return BOTS.get(name, random_bot)(observation, actions, rng)
