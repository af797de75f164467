"""Short labels for Dinoblivion actions, for buttons: describe_action(observation, action)."""

from webapp.games.dinoblivion import cards as C
from webapp.games.dinoblivion import engine as E

GROUND = {"left": "the left Hunting Ground", "right": "the right Hunting Ground"}


def _name(card):
    return C.NAME.get(card, str(card))


def _strength(observation, card):
    """Return a card's strength for the acting player, as the engine would count it now."""
    value = E.STRENGTH.get(card)
    if value is not None:
        return value
    me = observation["players"][observation["turn"]]
    kind = C.KIND_OF[card]
    if kind == "mom":
        return 1 + sum(1 for c in me["play"] if c in C.IS_CLAN)
    if kind == "protectar":
        return me["totem_symbols"]
    if observation["mode"] == "solo":
        return len(me["shown_eggs"])
    return me["eggs"] + len(me["shown_eggs"])


def _gains(power):
    parts = []
    if power.pay:
        parts.append(f"pay {power.paid} {E.RESOURCE_WORDS[power.pay] if power.paid != 1 else _one(power.pay)}")
    for amount, one, many in ((power.food, "Food", "Food"), (power.dino, "Dino token", "Dino tokens"),
                              (power.buddy, "Buddy pawn", "Buddy pawns"), (power.eggs, "egg", "eggs")):
        if amount:
            parts.append(f"gain {amount} {one if amount == 1 else many}")
    if power.draw:
        parts.append(f"draw {power.draw} card{'s' if power.draw > 1 else ''}")
    if power.free:
        parts.append("play 1 more Action card")
    return ", ".join(parts)


def _one(resource):
    return {"food": "Food", "dino": "Dino token", "buddy": "Buddy pawn"}[resource]


def _axe(amount, use):
    if use == "fight":
        return f"+{amount} strength for the fight"
    return f"hunt {amount} card{'s' if amount != 1 else ''} onto {GROUND.get(use, 'a Hunting Ground')}"


def _effect(power, use=None):
    text = _gains(power)
    if power.axe:
        text = f"{text} for {_axe(power.axe, use)}" if text else _axe(power.axe, use)
    return text


def _workar_step(observation):
    """Say whether the player is choosing the second Action card of a Workar play."""
    pending = observation.get("pending")
    return bool(pending) and pending[0].get("kind") == "workar"


def describe_action(observation, action):
    """Return a short label for a button, e.g. 'Hunt with Huntar (strength 3) on the left Hunting Ground'."""
    kind = action.get("type")
    card = action.get("card")
    if kind == "end":
        return "End your turn"
    if kind == "throw":
        return "Throw your 6 Buddy pawns (the evolution game)"
    if kind == "chief":
        return f"Take {_name(card)} as your Clan Chief ({C.CARDS[card].power})"
    if kind == "buy":
        pile = observation["grounds"][action["ground"]]
        top = pile[-1] if pile else None
        if top is None:
            return f"Buy from {GROUND[action['ground']]}"
        info = C.CARDS[top]
        price = f"{info.cost_buddy} Buddy pawn{'s' if info.cost_buddy != 1 else ''}" if top in C.IS_CLAN \
            else f"{info.cost_food} Food"
        return f"Buy {info.name} for {price}"
    if kind == "hunt":
        return f"Hunt with {_name(card)} (strength {_strength(observation, card)}) on {GROUND[action['ground']]}"
    if kind == "fight":
        return f"Fight with {_name(card)} (strength {_strength(observation, card)})"
    if kind == "power":
        card_kind = C.KIND_OF[card]
        if "target" in action:
            power = E.CHIEF_POWERS[card_kind]
            return f"Use {_name(card)}: destroy {_name(action['target'])}, {_effect(power, action.get('use'))}"
        if "egg" in action:
            return f"Use {_name(card)}: destroy your opponent's egg number {action['egg'] + 1}"
        return f"Use {_name(card)}: {_effect(E.CLAN_POWERS[card_kind], action.get('use'))}"
    if kind == "play":
        via = action.get("via")
        card_kind = C.KIND_OF[card]
        if card in E.IS_TOTEM:
            what = "put the Totem in play"
        else:
            what = _effect(E._effect_power(card_kind, action), action.get("use"))
        if _workar_step(observation):
            return f"Play {_name(card)} with {_name(via)} too, at once: {what}"
        how = "as a free play" if via == "free" else f"with {_name(via)}"
        workar = " (Workar: 1 more Action card later this turn)" if observation.get("workar_later") \
            else " (Workar: then 1 more Action card from your hand, at once)"
        extra = {"workar": workar, "artis": " (Artis: then draw a card)"}
        return f"Play {_name(card)} {how}: {what}{extra.get(C.KIND_OF.get(via), '')}"
    if kind == "totem":
        return f"Use {_name(card)}: {_effect(E._effect_power(C.KIND_OF[card], action), action.get('use'))}"
    if kind == "mate":
        x, y = action["cards"]
        return f"Mate {_name(x)} and {_name(y)}: gain 1 Buddy pawn"
    if kind == "cave":
        cave = observation.get("cave")
        if cave:
            return f"Swap {_name(card)} with {_name(cave)} in the Cave"
        return f"Put {_name(card)} in the Cave"
    if kind == "uncave":
        return f"Take {_name(observation.get('cave'))} back from the Cave"
    if kind == "attack":
        dino = observation["dinosaurs"][action["side"]]["top"]
        return f"Attack the {_name(dino)} (strength {E.STRENGTH.get(dino)}) on the {action['side']}"
    if kind == "defeat":
        enemy = action["enemy"]
        return f"Defeat {_name(enemy)} (strength {E.STRENGTH[enemy]}): {C.CARDS[enemy].power.split(': ', 1)[-1]}"
    if kind == "destroy":
        return f"Destroy {_name(card)}"
    if kind == "gain":
        side = observation["pending"][0]["side"] if observation.get("pending") else None
        return f"Gain {_name(card)} from {GROUND.get(side, 'the Hunting Ground')}"
    if kind == "skip":
        if _workar_step(observation):
            return f"Play no second Action card with {_name(observation['pending'][0]['card'])}"
        return "Destroy nothing"
    return str(kind)
