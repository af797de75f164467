"""Deal "Practise my tricky cards": the scheduler's choice from a browser's history, as a solo practice."""

import random
import secrets

from webapp.cards.queries import card_values
from webapp.errors import AppError
from webapp.play.adapters.practice import start_practice
from webapp.tricky import schedule


def start_tricky(deck, characteristic, count, history, now, seed=None):
    """Start "Practise my tricky cards": `count` cards placed into a line, dealt by the scheduler from `history`."""
    values = card_values(deck, characteristic)
    if count + 1 > len(values):
        raise AppError(400, f"This deck has {len(values)} cards with a {characteristic}: choose fewer cards.")
    memory = schedule.remember(history, characteristic, values)
    seed = secrets.randbelow(2**31) if seed is None else seed
    dealt = schedule.deal(memory, values, count + 1, now, random.Random(seed))
    return start_practice(deck, characteristic, count, "line", seed=seed, label="my tricky cards",
                          deal=[entry.card for entry in dealt])
