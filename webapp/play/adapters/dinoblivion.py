"""Dinoblivion in the browser: Duel at one screen, against the computer or on two devices; Solo."""

import json
from pathlib import Path

import markdown
from flask import request
from markupsafe import Markup

from webapp.common.http import json_value
from webapp.errors import AppError
from webapp.games import dinoblivion
from webapp.games.dinoblivion import cards as C
from webapp.games.words import joined
from webapp.play import store
from webapp.play.adapters.base import Adapter
from webapp.play.forms import NewDinoblivionForm

RULES = Path(dinoblivion.__file__).with_name("rules.md")
# Buttons are grouped by what they do, in the order a turn usually goes.
GROUPS = (
    ("Set-up", ("throw", "chief")),
    ("Choose", ("destroy", "gain", "skip")),
    ("Attack", ("attack", "defeat")),
    ("Add strength to your fight", ("fight",)),
    ("Play an Action card", ("play",)),
    ("Use a power", ("power",)),
    ("Use a Totem", ("totem",)),
    ("Mate", ("mate",)),
    ("Hunt", ("hunt",)),
    ("Buy a card", ("buy",)),
    ("The Cave", ("cave", "uncave")),
    ("End your turn", ("end",)),
)


def rules_html():
    """Return the rules page's Markdown as HTML."""
    return Markup(markdown.markdown(RULES.read_text(encoding="utf-8"), extensions=["tables", "sane_lists"]))


# What a card shows of what it is: each dinosaur its animal, each clan card and enemy a person.
DINOSAUR_PICTURES = {
    "Allosaurus": "outlines/allosaurus.svg", "Ankylosaurus": "outlines/ankylosaurus.svg",
    "Brachiosaurus": "outlines/brachiosaurus.svg", "Compsognathus": "outlines/small-theropod.svg",
    "Dilophosaurus": "silhouettes/theropod.svg", "Parasaurolophus": "outlines/parasaurolophus.svg",
    "Pterodactyle": "silhouettes/pterosaur.svg", "Raptor": "outlines/dromaeosaur.svg",
    "Spinosaurus": "outlines/spinosaurus.svg", "Stegosaurus": "outlines/stegosaurus.svg",
    "Triceratops": "outlines/triceratops.svg", "Tyrannosaurus": "outlines/tyrannosaurus.svg"}
PERSON_PICTURE = "silhouettes/human.svg"


def card_info(card):
    """Return the printed facts of a card instance (its kind's row of the card list) and its picture (or None)."""
    row = C.CARDS[card]
    picture = DINOSAUR_PICTURES.get(row.name) if row.card_type == "dinosaur" else \
        PERSON_PICTURE if row.card_type in ("clan", "enemy") else None
    return {**row._asdict(), "picture": picture}


def ends_the_game(observation, action):
    """Say whether taking this card empties a Hunting Ground and so starts the end of a Duel."""
    if observation["mode"] != "duel" or observation["end_trigger"] != "hunting_grounds" or observation["end"]:
        return False
    side = action.get("ground") if action["type"] == "buy" else None
    if action["type"] == "gain" and observation["pending"]:
        side = observation["pending"][0].get("side")
    return observation["ground_sizes"].get(side) == 1


def _button(observation, action):
    """Return a button as (label, action JSON)."""
    return button_label(observation, action), json.dumps(action, sort_keys=True)


def button_label(observation, action):
    """Label a button, warning when it starts the end of the game."""
    label = dinoblivion.describe_action(observation, action)
    if ends_the_game(observation, action):
        label += " (last card there: this starts the end of the game)"
    return label


def on_a_hand_card(observation, action):
    """Say whether a button belongs on a card of the hand: the card it plays, uses or keeps."""
    return action.get("card") in (observation["hand"] or ())


def board_place(action):
    """Return where on the main board a button belongs, ("buy" or "attack", side), or None."""
    if action["type"] == "buy":
        return "buy", action["ground"]
    if action["type"] == "attack":
        return "attack", action["side"]
    return None


def board_buttons(observation, actions):
    """Return {("buy" | "attack", side): [(label, action JSON)]}: buying on the Hunting Ground's top card, an
    attack on the dinosaur it attacks."""
    buttons = {}
    for action in actions:
        place = board_place(action)
        if place:
            buttons.setdefault(place, []).append(_button(observation, action))
    return buttons


def card_buttons(observation, actions):
    """Return {card in hand: [(label, action JSON)]}: each button shown on the card it uses."""
    buttons = {}
    for action in actions:
        if on_a_hand_card(observation, action):
            buttons.setdefault(action["card"], []).append(_button(observation, action))
    return buttons


def grouped_actions(observation, actions):
    """Return [(group title, [(label, action JSON)])] for the buttons of the seat to act that use no hand card."""
    groups = []
    for title, types in GROUPS:
        buttons = [_button(observation, action) for action in actions
                   if action["type"] in types and not on_a_hand_card(observation, action) and not board_place(action)]
        if buttons:
            groups.append((title, buttons))
    return groups


def name_of(card):
    """Name a card given by its id or, as in the log, by its kind."""
    return C.NAME.get(card) or C.KIND_NAME.get(card) or ""


def names_of(cards):
    """Name a list of cards: "Huntar, Yak and Hut"."""
    return joined(name_of(card) for card in cards or []) or "nothing"


def log_sentence(event, names):
    """Tell one logged event in words."""
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    card = name_of(event.get("card"))
    kind = event.get("type")
    if kind == "turn":
        return f"Turn {event.get('turn')}: {who} plays."
    if kind == "throw":
        return f"{who} threw the Buddy pawns: {event.get('standing')} stood upright."
    if kind == "tie":
        return "A tie in the evolution game: throw again."
    if kind == "hunt":
        food = f", gaining {event['food']} Food" if event.get("food") else ""
        return (f"{who} hunted with {card} onto the {event.get('ground')} Hunting Ground: "
                f"{names_of(event.get('flipped'))}{food}.")
    if kind == "fight":
        return f"{who} added {card} to the fight (+{event.get('strength')}, {event.get('total')} in all)."
    if kind == "attack":
        revealed = f" {name_of(event['revealed'])} is revealed." if event.get("revealed") else ""
        return f"{who} defeated the {name_of(event.get('dino')) or 'dinosaur'}!{revealed}"
    if kind == "defeat":
        return f"{who} defeated the Enemy {name_of(event.get('enemy'))}."
    if kind == "mate":
        return f"{who} mated {names_of(event.get('cards'))}" + (": a new Buddy pawn!" if event.get("buddy") else ".")
    if kind == "egg":
        if "value" in event:
            return f"An egg worth {event['value']} was revealed: {event.get('added', 0)} cards go under the Jungle."
        return f"{who} gained an egg (face down)."
    if kind == "rage":
        return "RAGE! The dinosaurs are enraged and Jungle cards flee onto the Hunting Grounds."
    if kind == "flip":
        return f"Onto the {event.get('ground')} Hunting Ground: {names_of(event.get('flipped'))}."
    if kind == "draw":
        return f"{who} drew {event.get('count')} card{'' if event.get('count') == 1 else 's'}."
    if kind == "over":
        return f"Game over: {event.get('reason', 'the end')}."
    if kind == "end_triggered":
        return f"The end has begun: {event.get('reason', '')}."
    simple = {"chief": f"{who} took {card} as Clan Chief.", "buy": f"{who} bought {card}.",
              "play": f"{who} played {card}.", "totem": f"{who} used the Totem {card}.",
              "power": f"{who} used {card}'s power.", "cave": f"{who} put a card in the Cave.",
              "uncave": f"{who} took the card back from the Cave.", "destroy": f"{who} destroyed {card}.",
              "gain": f"{who} gained {card}.", "end_turn": f"{who} ended the turn.",
              "reshuffle": f"{who} shuffled the discard pile into a new deck."}
    return simple.get(kind, f"{who}: {str(kind).replace('_', ' ')}.")


def fight_targets(observation):
    """Say what each dinosaur or Enemy that may still be fought this turn needs: "the Raptor (right) needs 10"."""
    targets = [f"the {name_of(dino['top'])} ({side}) needs {C.CARDS[dino['top']].strength}"
               for side, dino in observation["dinosaurs"].items() if dino["top"] and side not in observation["fought"]]
    return targets + [f"{name_of(enemy)} needs {C.CARDS[enemy].strength}"
                      for pile in observation["enemies"].values() for enemy in pile]


class DinoblivionAdapter(Adapter):
    """Dinoblivion: a deck-building game, Duel for two or Solo against the Jungle."""

    kind, title, path = "dinoblivion", "Dinoblivion game", "/play/dinoblivion"
    setup_form = NewDinoblivionForm
    in_api = True

    def start(self, form):
        seats = form.chosen_seats()
        config = {"mode": form.mode.data, "players": [seat["name"] for seat in seats],
                  "end_trigger": form.end_trigger.data, "open_grounds": form.open_grounds.data,
                  "workar_later": form.workar_later.data}
        if form.mode.data == "solo":
            config["difficulty"] = form.difficulty.data
        return store.create_game("dinoblivion", config, seats, mode="table", settings={})

    def action(self, game, seat, form):
        """Read the chosen action: a JSON object sent by its button."""
        action = json_value(request.form.get("action", ""))
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise AppError(400, "Choose one of the buttons on the board.")
        return action

    def context(self, game, viewer, form=None, error=None):
        """Return what the board shows `viewer`: its observation, its buttons, the log in words."""
        observation = store.observe(game, viewer)
        names = [p["name"] for p in observation["players"]]
        actions = store.legal_actions(game, viewer) if viewer is not None else []
        return {
            "game": game, "obs": observation, "viewer": viewer, "error": error, "names": names,
            "groups": grouped_actions(observation, actions) if actions else [],
            "card_buttons": card_buttons(observation, actions) if actions else {},
            "board_buttons": board_buttons(observation, actions) if actions else {},
            "targets": fight_targets(observation) if observation["phase"] == "play" else [],
            "log": [log_sentence(event, names) for event in reversed(observation["log"])],
            "info": card_info, "join_code": store.join_code_of(game), "open_seats": store.open_seats(game),
        }


ADAPTER = DinoblivionAdapter()
