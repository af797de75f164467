"""Read the whole-animal figures a card's fact quotes ("37 cm long", "weighed 71 g", "up to three feet").

Pure text code: the loader checks each figure against the card's range.
"""

import re

# Each unit: the card column it measures and its size in that column's unit (metres, kilograms).
UNITS = {
    "m": ("length_m", 1.0), "metre": ("length_m", 1.0), "metres": ("length_m", 1.0), "meter": ("length_m", 1.0),
    "meters": ("length_m", 1.0), "cm": ("length_m", 0.01), "centimetres": ("length_m", 0.01),
    "centimeters": ("length_m", 0.01), "mm": ("length_m", 0.001), "millimetres": ("length_m", 0.001),
    "millimeters": ("length_m", 0.001), "feet": ("length_m", 0.3048), "foot": ("length_m", 0.3048),
    "ft": ("length_m", 0.3048), "inches": ("length_m", 0.0254), "inch": ("length_m", 0.0254),
"kg": ("mass_kg", 1.0), "kilograms": ("mass_kg", 1.0),
    "kilos": ("mass_kg", 1.0), "g": ("mass_kg", 0.001), "grams": ("mass_kg", 0.001),
    "grammes": ("mass_kg", 0.001), "t": ("mass_kg", 1000.0), "tonnes": ("mass_kg", 1000.0),
    "tons": ("mass_kg", 1000.0), "tonne": ("mass_kg", 1000.0), "ton": ("mass_kg", 1000.0),
    "pounds": ("mass_kg", 0.45359237), "pound": ("mass_kg", 0.45359237), "lb": ("mass_kg", 0.45359237),
    "lbs": ("mass_kg", 0.45359237),
}
# Units that are not metric: the card holds a converted, rounded figure, so allow 5% either way.
CONVERTED = {"feet", "foot", "ft", "inches", "inch", "pounds", "pound", "lb", "lbs", "tons", "ton"}
WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
    "half": 0.5,
}
_WORD = "|".join(sorted((w for w in WORDS if w not in ("a", "an")), key=len, reverse=True))
_AMOUNT = rf"(?:\d[\d,]*(?:\.\d+)?|(?:(?:a|an|{_WORD})[\s-]+)*(?:{_WORD}))"
_UNIT = "|".join(sorted(map(re.escape, UNITS), key=len, reverse=True))
FIGURE = re.compile(rf"(?<![\w.])(?P<amount>{_AMOUNT})(?:\s*(?:to|-|–|or)\s*(?P<upper>{_AMOUNT}))?"
                    rf"[\s-]*(?P<unit>{_UNIT})\b", re.IGNORECASE)
# Words that show a figure is about something else: part of the animal, an egg, a young one, a distance,
# a depth or a film. A word right after "of" or "with" does not count ("a female full of eggs weighed 71 g").
OTHER_SUBJECT = re.compile(
    r"(?<!of )(?<!with )(?:skull|tooth|teeth|claw|\beggs?\b|wing|neck|tail|\bheads?\b|jaw|\blegs?\b|spine|sail|horn|"
    r"frill|plate|shell|tusk|\barms?\b|feather|\bfins?\b|\beyes?\b|bab(?:y|ies)|hatchling|newborn|calf|calves|"
    r"young|juvenile|grubs?\b|larva|caterpillar|nymph|tadpole|tongue|heart|brain|track|footprint|beak|antler|"
    r"tentacle|crest|spike|bone|dive|diving|deep|depth|\bkm\b|mile|jump|leap|fang|prey|meal|mouth|nose|\bbill|"
    r"pouch|a day|per day|each day|litres|gallons|distance|away|altitude|\blimbs?\b|femur|vertebra|\bribs?\b|"
    r"chick|\bpups?\b|\bcubs?\b|nest|\bweb\b|burrow|\bears?\b|whisker|trunk|apart|sea level|shoulder|thick|"
    r"\bwide\b|\bTV\b|film|movie|sprint|\brun|swim|\bfl(?:y|ies|ew)\b|travel|walk|migrat|stride|inside|swallow|\bate\b|eaten)",
    re.IGNORECASE)
SENTENCE_BREAK = re.compile(r"[.;:!?]\s")
CLAUSE_BREAK = re.compile(r"[,;:.!?()—]\s|[;:()—]")


def amount(text):
    """Return the number a figure's amount says: '1,200' -> 1200, 'three' -> 3, 'two hundred' -> 200.

    >>> amount("1,200"), amount("three"), amount("two hundred"), amount("a half")
    (1200.0, 3, 200, 0.5)
    """
    text = text.strip().lower()
    if text[0].isdigit():
        return float(text.replace(",", ""))
    total, current = 0, 0
    for word in re.split(r"[\s-]+", text):
        value = WORDS[word]
        if value in (100, 1000):
            current = (current or 1) * value
            if value == 1000:
                total, current = total + current, 0
        elif value == 0.5:
            current = (current or 1) * 0.5
        else:
            current += value
    return total + current


def context_of(text, start, end):
    """Return the words that say what a figure measures: its sentence (or the part after a colon or
    semicolon) up to the end of the figure's clause."""
    before = [m.end() for m in SENTENCE_BREAK.finditer(text, 0, start)]
    after = CLAUSE_BREAK.search(text, end)
    return text[before[-1] if before else 0:after.start() if after else len(text)]


def quoted_figures(fact):
    """Yield (column, value, tolerance, words) for each whole-animal length or mass a fact quotes.

    The tolerance is how far the figure may lie outside a range and still agree: half a unit of the
    last digit written ('12 m' is 11.5 to 12.5 m), and 5% more for a figure in feet, inches, pounds
    or tons, which a card holds converted.

    >>> [(c, round(v, 3)) for c, v, _, _ in quoted_figures("One fossil is 37 cm long.")]
    [('length_m', 0.37)]
    >>> [(c, round(v, 2)) for c, v, _, _ in quoted_figures("It grew up to three feet long.")]
    [('length_m', 0.91)]
    >>> list(quoted_figures("Its skull alone was 1.5 m long."))
    []
    """
    for match in FIGURE.finditer(fact):
        if OTHER_SUBJECT.search(context_of(fact, match.start(), match.end())):
            continue
        unit = match.group("unit").lower()
        column, scale = UNITS[unit]
        for text in filter(None, (match.group("amount"), match.group("upper"))):
            value = amount(text) * scale
            digits = text.replace(",", "")
            if digits[0].isdigit():
                decimals = len(digits.partition(".")[2])
                rounding = 0.5 * 10 ** -decimals * scale
            else:
                rounding = 0.5 * scale if value >= scale else 0.25 * scale
            converted = 0.05 * value if unit in CONVERTED else 0.0
            yield column, value, rounding + converted, match.group(0)


# A life quoted in words: "lives only about four years", "can live more than 100 years".
LIFE = re.compile(rf"\bliv(?:e|es|ed|ing)\b\W+(?:\w+\W+){{0,4}}?(?P<amount>{_AMOUNT})\s*years?\b", re.IGNORECASE)
AT_LEAST = re.compile(r"(?:more than|over|at least|beyond)\s*$", re.IGNORECASE)


def quoted_lifespans(fact):
    """Yield (years, at_least, words) for each life a fact quotes; `at_least` when it says "more than" or "over".

    >>> [(y, a) for y, a, _ in quoted_lifespans("It lives only about four years; some can live more than 100 years.")]
    [(4, False), (100.0, True)]
    >>> list(quoted_lifespans("It spends 17 years underground."))
    []
    """
    for match in LIFE.finditer(fact):
        before = fact[match.start():match.start("amount")]
        yield amount(match.group("amount")), bool(AT_LEAST.search(before)), match.group(0)
