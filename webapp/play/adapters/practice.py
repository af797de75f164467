"""Solo practice for students: sorting challenges, diet bins, the daily challenge, and my tricky cards."""


from flask import request

from webapp.cards.queries import all_periods, card_ranges, card_values, cards_by_slug, diets
from webapp.common.characteristics import CHARACTERISTICS
from webapp.common.forms import whole_number
from webapp.common.seats import held_seats
from webapp.errors import AppError
from webapp.play import store, tricky_record
from webapp.play.adapters.base import SoloAdapter
from webapp.play.adapters.cardline import line_slugs
from webapp.play.forms import AnswerForm, PracticeForm

DAILY_CHARACTERISTICS = ("mass", "length", "period")
DAILY_CARDS = 8


def start_practice(deck, characteristic, count, mode, seed=None, label="practice", gate=None, deal=None):
    """Start a solo sorting challenge; `characteristic` 'diet' sorts into diet bins; `gate` names a check on moves.

    `deal` (cards in order, the first starting the line) replaces the random deal: the tricky cards' scheduler's.
    """
    ranges = {}
    if characteristic == "diet":
        values, mode = diets(deck), "bins"
    else:
        values, ranges = card_values(deck, characteristic), card_ranges(deck, characteristic)
    config = {"cards": values, "ranges": ranges, "count": count, "mode": mode, "characteristic": characteristic,
              **({"deal": deal} if deal is not None else {})}
    settings = {"deck": deck, "characteristic": characteristic, "count": count, "label": label,
                **({"gate": gate} if gate else {}), **({"tricky": True} if deal is not None else {})}
    return store.create_game("practice", config, [{"name": "You", "kind": "human"}], mode, settings, seed)


def daily_settings(day):
    """Return (seed, characteristic) of the daily challenge: the same for everyone on `day`."""
    return int(day.strftime("%Y%m%d")), DAILY_CHARACTERISTICS[day.toordinal() % len(DAILY_CHARACTERISTICS)]


def start_daily(day):
    """Start `day`'s challenge: the same prehistoric cards for everyone that day."""
    seed, characteristic = daily_settings(day)
    return start_practice("dinosaurs", characteristic, DAILY_CARDS, "line", seed=seed,
                          label=f"Daily challenge {day.isoformat()}")


def start_endless(deck, characteristic, seed=None):
    """Start an endless line: the whole deck one card at a time, three lives."""
    return start_practice(deck, characteristic, None, "endless", seed=seed, label="endless line")


class PracticeAdapter(SoloAdapter):
    """A solo sorting challenge: one card at a time into a line, all at once, or into diet bins."""

    kind, title, path = "practice", "practice round", "/play/practice"
    setup_form = PracticeForm

    def new_form(self):
        # The query string may preselect the deck and characteristic (links from lessons and cards).
        preset = {name: request.args[name] for name in ("deck", "characteristic") if name in request.args}
        return PracticeForm(**{**self.again(), **preset})

    def again_data(self, game):
        settings = game.settings
        return {"deck": settings["deck"], "characteristic": settings["characteristic"], "count": settings["count"],
                "mode": "all" if game.mode == "all" else "line"}

    def start(self, form):
        return start_practice(form.deck.data, form.characteristic.data, form.count.data, form.mode.data)

    def move_form(self, game, viewer):
        return AnswerForm() if request.method == "POST" else AnswerForm(formdata=None)

    def action(self, game, seat, form):
        if not form.validate():
            raise AppError(400, "That answer could not be read.")
        shown, current = form.card.data, store.observe(game, seat).get("current")
        if shown and shown != current:
            # A second tab, or Back, answering a card already placed: never apply it to the card after it.
            raise AppError(409, "That card has been placed already (in another tab?). Here is the card to place now.")
        mode = game.mode
        if mode in ("line", "endless"):
            if form.gap.data is None:
                raise AppError(400, "Choose a place in the line.")
            return {"type": "place", "gap": form.gap.data}
        if mode == "bins":
            return {"type": "bin", "diet": form.diet.data}
        return {"type": "order", "cards": self.posted_order(store.observe(game, seat))}

    def posted_order(self, observation):
        """Return the cards in the order the posted positions give them, or raise a 400."""
        positions = {}
        for card in observation["to_order"]:
            positions[card] = whole_number(request.form.get(f"position-{card}", ""))
            if positions[card] is None:
                raise AppError(400, "Give every card a position.")
        if sorted(positions.values()) != list(range(1, len(positions) + 1)):
            raise AppError(400, "Use each position once: two cards cannot share a place.")
        return sorted(positions, key=positions.get)

    def context(self, game, viewer, form=None, error=None):
        observation = store.observe(game, 0)
        key = game.settings["characteristic"]
        closed = store.closed(game)  # the gate asks the database: once per page
        return {
            "game": game, "obs": observation, "form": form or AnswerForm(formdata=None), "error": error,
            "cards": cards_by_slug(line_slugs(observation)),
            "periods": {p.position: p for p in all_periods()},
            "characteristic_key": key,
            "characteristic": CHARACTERISTICS.get(key, {"label": "Diet"}),
            "owner": 0 in held_seats(game),
            "closed": closed, "view_version": store.view_version(game, closed),
            # What this browser keeps for "My tricky cards": only placements the page shows after their verdicts.
            "tricky_record": tricky_record.shown_placements(observation),
        }

    def face_up(self, observation):
        return line_slugs(observation)


ADAPTER = PracticeAdapter()
