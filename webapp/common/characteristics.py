"""What a line of cards can be sorted by, and which deck has it: written once for games, forms and labels."""

from cards_db.schema import DECKS

CHARACTERISTICS = {
    "length": {"label": "Size", "column": "length_m", "decks": ["dinosaurs", "animals"],
               "left": "smallest on the left"},
    "mass": {"label": "Weight", "column": "mass_kg", "decks": ["dinosaurs", "animals"],
             "left": "lightest on the left"},
    "period": {"label": "Period (first appearance)", "column": None, "decks": ["dinosaurs"],
               "left": "oldest on the left"},
    "lifespan": {"label": "Lifespan", "column": "lifespan_years", "decks": ["animals"],
                 "left": "shortest-lived on the left"},
}
CHOICES = [("length", "Size"), ("mass", "Weight"), ("period", "Period (prehistoric deck)"),
           ("lifespan", "Lifespan (living animals deck)")]
WRONG_DECK = {"period": "Only prehistoric animals have a period: choose the prehistoric deck.",
              "lifespan": "Lifespans are on the living animals deck: choose that deck."}


def problem(deck, characteristic):
    """Return why a deck cannot be sorted by a characteristic (as the API says it), or None."""
    if deck not in DECKS:
        return f"There is no deck called {deck!r}: choose {' or '.join(DECKS)}."
    spec = CHARACTERISTICS.get(characteristic)
    if spec is None or deck not in spec["decks"]:
        allowed = [key for key, value in CHARACTERISTICS.items() if deck in value["decks"]]
        return f"The {deck} deck can be played by {', '.join(allowed)}."
    return None


def form_problem(deck, characteristic):
    """Return why a set-up form's deck and characteristic do not go together, in the form's words, or None."""
    return WRONG_DECK.get(characteristic) if problem(deck, characteristic) and deck in DECKS else None
