"""Small pieces of English for sentences the app writes: "a" or "an", lists joined with "and", measures to write later.

Pure code: the engines, the trivia generator and the templates' filters share it.
"""

import re

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
