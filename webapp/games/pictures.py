"""Everyday things a child can picture beside a weight or a size ("about as heavy as 5 cars").

Pure code: the reference values are rounded everyday figures, used only after the word "about".
"""


from webapp.games.words import significant

MASSES = [  # (kg, one, many)
    (0.005, "a sheet of paper", "sheets of paper"), (0.06, "an egg", "eggs"), (0.5, "a football", "footballs"),
    (4, "a house cat", "house cats"), (35, "a ten-year-old child", "ten-year-old children"),
    (500, "a horse", "horses"), (1500, "a car", "cars"), (12000, "a double-decker bus", "double-decker buses"),
]
LENGTHS = [  # (m, one, many)
    (0.01, "a fingernail", "fingernails"), (0.15, "a pencil", "pencils"), (0.3, "a school ruler", "school rulers"),
    (1.5, "a ten-year-old child", "ten-year-old children"), (4.5, "a car", "cars"),
    (11, "a double-decker bus", "double-decker buses"), (25, "a swimming pool", "swimming pools"),
]


def picture(value, kind):
    """Return 'about as heavy as 5 cars' (kind 'mass') or 'about as long as 2 buses' (kind 'length')."""
    references, word, less = (MASSES, "heavy", "lighter") if kind == "mass" else (LENGTHS, "long", "shorter")
    if value < references[0][0] * 0.8:
        return f"{less} than {references[0][1]}"
    # The largest reference the value holds at least once, so the count stays a small whole number.
    size, one, many = next(r for r in reversed(references) if value >= r[0] * 0.8)
    count = value / size
    if count < 1.5:
        return f"about as {word} as {one}"
    return f"about as {word} as {round(count):,} {many}" if count < 1000 else f"as {word} as thousands of {many}"


def times(larger, smaller):
    """Return how many times one value holds another, in words, to two significant figures rounded half up.

    >>> times(25, 10), times(30, 10), times(2500, 10), times(11, 10)
    ('about 2.5 times', 'about 3 times', 'about 250 times', 'about the same as')
    """
    ratio = larger / smaller
    if ratio < 1.15:
        return "about the same as"
    return f"about {significant(ratio, 2)} times"
