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
    """Visible points of a player (its eggs counted at 1.5 each)."""
    return 2 * player["families"] + player["totem_symbols"] + player["dinosaurs"] + 1.5 * (
        player["eggs"] + len(player["shown_eggs"]))


def _my_kinds(observation):
    """Every card kind the observing seat owns (deck as a multiset, the rest by sight)."""
    me = observation["players"][observation["viewer"]]
    kinds = [kind for kind, count in me["hidden"].items() for _ in range(count)]
    seen = observation["hand"] + me["discard"] + me["play"] + me["totems"]
    if observation["cave"]:
        seen.append(observation["cave"])
    return kinds + [C.KIND_OF[c] for c in seen]


def _families(kinds):
    return E.families([f"{kind}-1" for kind in kinds])


def _lead(observation, extra_points=0):
    """Return the observing seat's visible lead over its best opponent (0 in Solo)."""
    me = observation["viewer"]
    others = [_points(p) for p in observation["players"] if p["seat"] != me]
    return _points(observation["players"][me]) + extra_points - max(others) if others else 0


def _safe_to_end(observation, extra_points=0):
    """Say whether ending the game now would likely win: the first player must leave room for a last turn."""
    if observation["mode"] == "solo":
        return True
    needed = 2 if observation["viewer"] == observation["first"] else 0.5
    return _lead(observation, extra_points) >= needed


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
    buy = _best_buy(observation, by_type.get("buy", ()))
    if buy:
        return buy
    hunts = by_type.get("hunt", ())
    solo = observation["mode"] == "solo"
    if hunts and not (solo and observation["grounds"]["left"] and observation["grounds"]["right"]) \
            and (observation["jungle"]["size"] > 8 or _safe_to_end(observation)):
        return max(hunts, key=lambda a: (_strength(observation, a["card"]), -observation["ground_sizes"][a["ground"]]))
    # Nothing worth doing: end the turn, or, choosing Workar's second Action card, play none.
    return (by_type.get("end") or by_type.get("skip") or actions)[0]


def _best_buy(observation, buys):
    """Return the buy worth most (deck value and family points), or None; end the game only when it wins."""
    if not buys:
        return None
    kinds = _my_kinds(observation)
    families = _families(kinds)
    last_turn = observation["end"] is not None
    best, best_score = None, 2 if not last_turn else 0.5
    for action in buys:
        card, size = observation["grounds"][action["ground"]][-1], observation["ground_sizes"][action["ground"]]
        gained = 2 * (_families(kinds + [C.KIND_OF[card]]) - families)
        if size == 1 and not last_turn and observation["mode"] == "duel" \
                and not _safe_to_end(observation, gained):
            continue
        score = (_value(card) if not last_turn else 0) + gained * (3 if last_turn else 1)
        if size == 1 and not last_turn and observation["mode"] == "duel":
            score += 10  # a won game
        if score >= best_score:
            best, best_score = action, score
    return best


def _play_bonus(observation, action):
    """Return what playing through this Clan card is worth beyond its use: Artis draws; Workar plays one more
    Action card (at once, under the rulebook, so only if another Action card is in hand; or later, house rule)."""
    kind = C.KIND_OF[action["via"]]
    if kind == "artis":
        return 2
    if kind != "workar":
        return 0
    if observation.get("workar_later"):
        return 3
    if observation.get("pending"):  # already Workar's second card
        return 3
    others = [c for c in observation["hand"] if c in C.IS_ACTION and c != action["card"]]
    return 3 if others else 0


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
        spent = -1 if via == "free" else (_strength(observation, via) - _play_bonus(observation, action))
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
BOT_LEVELS = {"easy": "random", "medium": "greedy", "hard": "greedy"}  # hard: computer_move searches instead


def bot_choose(observation, actions, rng, level):
    """Choose one of `actions` for the observing seat with the bot of `level` (a bot name or easy/medium/hard)."""
    name = BOT_LEVELS.get(level, level)
    return BOTS.get(name, random_bot)(observation, actions, rng)
