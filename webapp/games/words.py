"""Small pieces of English for sentences the app writes: "a" or "an", lists joined with "and", measures to write later.

Pure code: the engines, the trivia generator and the templates' filters share it.
"""

import math
import re
from decimal import ROUND_HALF_UP, Decimal

# A measure in a sentence stored before anyone reads it (a quiz's explanation), written in the reader's units
# only when shown: [[mass:6100.0]] or [[length:12.3]].
MEASURE = re.compile(r"\[\[(mass|length):([0-9.e+-]+)\]\]")


def article(word):
    """Put "a" or "an" before `word`: 'an omnivore', 'a carnivore'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def joined(items):
    """Join names as people write them: 'Asia', 'Asia and Europe', 'Asia, Europe and Africa'."""
    items = list(items)
    return " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else "".join(items)


def measure(kind, value):
    """Return a marker for a mass (kg) or length (m) that `in_units` later writes in the reader's units."""
    return f"[[{kind}:{float(value)!r}]]"


def in_units(text, write):
    """Return `text` with each measure marker written by `write(kind, value)`."""
    return MEASURE.sub(lambda found: write(found[1], float(found[2])), text)


def field(card, name):
    """Return a card's field, from a database row or a plain dict alike."""
    return card[name] if isinstance(card, dict) else getattr(card, name)


def living(card):
    """Say whether an animal lives today: a card of the living animals deck, or one whose fossil record reaches today."""
    return field(card, "deck") == "animals" or field(card, "last_appearance_ma") == 0


def tense(cards, present, past):
    """Return `present` when every animal named lives today, else `past` ("Which is heavier" for a lion and a tiger)."""
    return present if all(living(card) for card in cards) else past


# How each size measure reads in a sentence about the animal: "It is 12 m long", "Its wingspan is 5.6 m".
SIZE_SENTENCES = {
    "total length": "It {be} {size} long", "head-body length": "It {be} {size} long (head and body)",
    "standing height": "It {be} {size} tall", "shoulder height": "It {be} {size} tall at the shoulder",
    "wingspan": "Its wingspan {be} {size}", "shell length": "Its shell {be} {size} long",
    "carapace length": "Its shell (carapace) {be} {size} long", "mantle length": "Its body (mantle) {be} {size} long",
}


def size_sentence(card, size):
    """Say an animal's size as a sentence that names what was measured, in its tense.

    >>> size_sentence({"deck": "animals", "size_measure": "shell length"}, "1.35 m")
    'Its shell is 1.35 m long'
    >>> size_sentence({"deck": "dinosaurs", "size_measure": "wingspan"}, "10.5 m")
    'Its wingspan was 10.5 m'
    """
    pattern = SIZE_SENTENCES.get(field(card, "size_measure"), SIZE_SENTENCES["total length"])
    return pattern.format(be=tense([card], "is", "was"), size=size)


def significant(value, digits=3):
    """Round to `digits` significant figures, halves up (12.25 m is 12.3 m, as people round), with thousands separators.

    >>> significant(12345.6)
    '12,300'
    >>> significant(0.04567)
    '0.0457'
    >>> significant(12.25), significant(14.25), significant(2.5, 1)
    ('12.3', '14.3', '3')
    """
    if value == 0:
        return "0"
    step = Decimal(1).scaleb(math.floor(math.log10(abs(value))) - digits + 1)
    rounded = Decimal(repr(float(value))).quantize(step, rounding=ROUND_HALF_UP)
    if rounded == rounded.to_integral_value():
        return f"{int(rounded):,}"
    return f"{rounded:,f}".rstrip("0").rstrip(".")
