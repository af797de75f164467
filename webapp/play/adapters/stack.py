"""Stack-O-Saurus in the browser: at one screen, against computer players, or from own devices."""

from flask import request

from webapp.common.forms import whole_number
from webapp.errors import AppError
from webapp.games import stack
from webapp.play import store
from webapp.play.adapters.base import Adapter
from webapp.play.forms import NewStackForm

# Colours always come with a symbol and a name, so nobody needs to tell them apart by colour.
SYMBOLS = {"blue": "●", "orange": "▲", "purple": "◆", "green": "■"}
ACTIONS = ("draw", "play", "scare", "discard")


# The animal each card shows beside its words: each colour a dinosaur of its own shape too, so the colours differ
# by more than their colour (as they do by their symbol and name).
PICTURES = {"apatosaurus": "silhouettes/sauropod.svg", "pterodactyl": "silhouettes/pterosaur.svg",
            "trex": "outlines/tyrannosaurus.svg", "scare": "outlines/tyrannosaurus.svg",
            "blue": "silhouettes/stegosaur.svg", "orange": "silhouettes/ceratopsian.svg",
            "purple": "silhouettes/ankylosaur.svg", "green": "silhouettes/ornithopod.svg"}


def card_face(card):
    """Return what a card's face shows but its words: (kind, colour or None, the drawing under static/)."""
    kind, colour = stack.KIND[card]
    return kind, colour, PICTURES[colour if kind == "dino" else kind]


def card_label(card):
    """Name a card in words, with its colour's symbol."""
    kind, colour = stack.KIND[card]
    if kind == "dino":
        return f"{colour.capitalize()} dinosaur {SYMBOLS[colour]}"
    if kind == "scare":
        return f"Scared-by-T-Rex {colour} {SYMBOLS[colour]}"
    return {"apatosaurus": "Apatosaurus (black)", "pterodactyl": "Lucky Pterodactyl ★",
            "trex": "Tyrannosaurus (red)"}[kind]


def log_sentence(event, names):
    """Tell one logged event as a sentence: "Mia's T-Rex scared off Leo's purple dinosaur"."""
    who = names[event["player"]] if "player" in event else ""
    kind = event["type"]
    if kind == "draw":
        pile = "the draw pile" if event["source"] == "deck" else f"the discard pile ({card_label(event['card'])})"
        return f"{who} drew from {pile}."
    if kind == "play":
        return f"{who} added {card_label(event['card'])} to their tower."
    if kind == "scare":
        scarer = "Tyrannosaurus" if stack.KIND[event["card"]][0] == "trex" else "Scared-by-T-Rex card"
        return (f"{who}'s {scarer} scared off {names[event['target']]}'s "
                f"{card_label(event['fallen'])}.")
    if kind == "discard":
        return f"{who} discarded {card_label(event['card'])}."
    if kind == "replace":
        return f"{who} threw away a spare {card_label(event['card'])} and drew again."
    if kind == "reshuffle":
        return "The draw pile ran out: the discard pile was shuffled into a new draw pile."
    return f"{who} could not play and passed."


class StackAdapter(Adapter):
    """Stack-O-Saurus: build a tower in the Dino Tower's order, scare the others'."""

    kind, title, path, anchor = "stack", "Stack-O-Saurus game", "/play/stack", "table"
    setup_form = NewStackForm
    in_api = True

    def start(self, form):
        seats = form.chosen_seats()
        config = {"players": [seat["name"] for seat in seats], "order": form.tower_order(), **form.house_rules()}
        return store.create_game("stack", config, seats, mode="table", settings={})

    def action(self, game, seat, form):
        """Read the posted action: a draw source, or a card with what to do with it."""
        kind = request.form.get("type")
        if kind not in ACTIONS:
            raise AppError(400, "Choose what to do: draw, play, scare or discard.")
        if kind == "draw":
            return {"type": "draw", "source": request.form.get("source")}
        action = {"type": kind, "card": request.form.get("card")}
        if kind == "scare":
            action["target"] = whole_number(request.form.get("target", ""))
            if action["target"] is None:
                raise AppError(400, "Choose whose tower to scare.")
        return action

    def context(self, game, viewer, form=None, error=None):
        """Return what the table shows `viewer`: its observation, in words."""
        observation = store.observe(game, viewer)
        names = [p["name"] for p in observation["players"]]
        actions = store.legal_actions(game, viewer)
        return {
            "game": game, "obs": observation, "viewer": viewer, "error": error,
            "names": names, "card_label": card_label, "kind_of": card_face,
            "symbols": SYMBOLS, "log": [log_sentence(e, names) for e in reversed(observation["log"])],
            "join_code": store.join_code_of(game), "open_seats": store.open_seats(game),
            "playable": {a["card"] for a in actions if a["type"] in ("play", "scare")},
            "scareable": {(a["card"], a["target"]) for a in actions if a["type"] == "scare"},
            "discardable": {a["card"] for a in actions if a["type"] == "discard"},
            "house_rules": [stack.HOUSE_RULE_NAMES[rule] for rule, chosen in observation["house_rules"].items()
                            if chosen],
        }


ADAPTER = StackAdapter()
