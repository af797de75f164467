"""Cardline in the browser: at one screen (hot-seat), against computer players, or from own devices."""

from flask import request

from webapp.cards.queries import all_periods, card_ranges, card_values, cards_by_slug, first_appearances
from webapp.common.characteristics import CHARACTERISTICS
from webapp.errors import AppError
from webapp.games.cardline_bots import period_ranges
from webapp.play import store
from webapp.play.adapters.base import Adapter
from webapp.play.forms import NewCardlineForm, PlaceForm


def start_cardline(deck, characteristic, hand_size, seats, mode, seed=None):
    """Start a Cardline game over a deck's cards that have a value for the characteristic."""
    values = card_values(deck, characteristic)
    config = {"cards": values, "ranges": known_ranges(deck, characteristic, values),
              "players": [s["name"] for s in seats], "hand_size": hand_size, "characteristic": characteristic}
    settings = {"deck": deck, "characteristic": characteristic, "hand_size": hand_size}
    return store.create_game("cardline", config, seats, mode, settings, seed)


def known_ranges(deck, characteristic, values):
    """Return what the computer players know of each card (never the value a card is judged by): its published range,
    or by period the periods its published first appearance reaches (cardline_bots.period_ranges)."""
    if characteristic != "period":
        return card_ranges(deck, characteristic)
    spans = period_ranges(first_appearances(deck), [period.start_ma for period in all_periods()])
    # A card whose dated first appearance disagrees with its period (none today) is known by its period alone.
    return {card: span for card, span in spans.items() if card in values and span[0] <= values[card] <= span[1]}


def line_slugs(observation):
    """Return every card an observation of a line game shows: line, box, hand, card to place, recent moves."""
    slugs = [entry["card"] for entry in observation.get("line", []) + observation.get("box", [])]
    slugs += (observation.get("hand") or []) + observation.get("to_order", [])
    slugs += [observation.get("current")] + [a["card"] for a in observation.get("answers", [])]
    for move in observation.get("recent", []):
        slugs += [move["card"], move["belongs_after"], move["belongs_before"]]
    return list(dict.fromkeys(s for s in slugs if s))


class CardlineAdapter(Adapter):
    """Cardline: place a card from the hand into the line."""

    kind, title, path = "cardline", "Cardline game", "/play/cardline"
    move_verb, anchor = "place", "last-move"
    setup_form = NewCardlineForm

    def start(self, form):
        seats = form.chosen_seats()
        humans = sum(seat["kind"] == "human" for seat in seats)
        return start_cardline(form.deck.data, form.characteristic.data, form.hand_size.data, seats,
                              "hotseat" if humans > 1 else "computer")

    def again_data(self, game):
        return {**game.settings, "players": len(game.seats),
                "seats": [{"name": seat["name"], "kind": seat["kind"]} for seat in game.seats]}

    def move_form(self, game, viewer):
        return PlaceForm() if request.method == "POST" else PlaceForm(formdata=None)

    def action(self, game, seat, form):
        if not form.validate():
            raise AppError(400, " ".join(e for errors in form.errors.values() for e in errors))
        return {"type": "place", "card": form.card.data, "gap": form.gap.data}

    in_api = True

    def api_start(self, data, seats, seed):
        hand_size = data.get("hand_size", 4)
        if not isinstance(hand_size, int) or isinstance(hand_size, bool):
            raise AppError(400, "'hand_size' must be a whole number.")
        return start_cardline(data.get("deck", "dinosaurs"), data.get("characteristic", "length"), hand_size,
                              seats, "api", seed)

    def api_action(self, action):
        """Return the engine action for the API's {"card", "gap"}, or raise a 400."""
        if not isinstance(action, dict) or not isinstance(action.get("card"), str) or "gap" not in action:
            raise AppError(400, "Send {\"card\": \"<slug>\", \"gap\": <number>} to place a card.")
        return {"type": "place", "card": action["card"], "gap": action["gap"]}

    def context(self, game, viewer, form=None, error=None):
        observation = store.observe(game, viewer)
        key = game.settings["characteristic"]
        return {
            "game": game, "obs": observation, "viewer": viewer, "error": error,
            "form": form or PlaceForm(formdata=None),
            "cards": cards_by_slug(line_slugs(observation)),
            "periods": {p.position: p for p in all_periods()},
            "characteristic": CHARACTERISTICS[key], "characteristic_key": key,
        }

    def face_up(self, observation):
        return line_slugs({**observation, "hand": None})


ADAPTER = CardlineAdapter()
