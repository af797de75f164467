"""Template helpers: units (metric or imperial), ages and numbers for people to read."""

from urllib.parse import urlsplit

from flask import g, request

from cards_db import schema
from webapp.cards.silhouettes import drawing
from webapp.common.characteristics import CHARACTERISTICS
from webapp.common.words import breakable, name_line, name_parts
from webapp.games import words
from webapp.games.pictures import picture, times
from webapp.games.words import article, significant

UNIT_SYSTEMS = ("metric", "imperial")
FEET_PER_METRE = 1 / 0.3048
POUNDS_PER_KG = 2.2046226218
DAYS_PER_YEAR = 365.25


def format_length(metres, units="metric"):
    """Write a length for people: m/cm/mm or ft/in.

    >>> format_length(12.3)
    '12.3 m'
    >>> format_length(0.2, "imperial")
    '7.87 in'
    >>> format_length(1.8, "imperial")
    '5 ft 11 in'
    """
    if metres is None:
        return "unknown"
    if units == "imperial":
        feet = metres * FEET_PER_METRE
        if feet >= 10:
            return f"{significant(feet)} ft"
        if feet >= 1:
            whole, inches = divmod(round(feet * 12), 12)
            return f"{whole} ft {inches} in" if inches else f"{whole} ft"
        return f"{significant(feet * 12)} in"
    if metres >= 1:
        return f"{significant(metres)} m"
    if metres >= 0.01:
        return f"{significant(metres * 100)} cm"
    return f"{significant(metres * 1000)} mm"


def format_mass(kg, units="metric"):
    """Write a mass for people: t/kg/g or tons/lb/oz.

    >>> format_mass(6900)
    '6.9 t'
    >>> format_mass(0.03)
    '30 g'
    >>> format_mass(6900, "imperial")
    '7.61 tons'
    """
    if kg is None:
        return "unknown"
    if units == "imperial":
        pounds = kg * POUNDS_PER_KG
        if pounds >= 2000:
            return f"{significant(pounds / 2000)} tons"
        if pounds >= 1:
            return f"{significant(pounds)} lb"
        return f"{significant(pounds * 16)} oz"
    if kg >= 1000:
        return f"{significant(kg / 1000)} t"
    if kg >= 1:
        return f"{significant(kg)} kg"
    return f"{significant(kg * 1000)} g"


def in_units(text, units="metric"):
    """Write the measures a stored sentence marks (see webapp.games.words.measure) in `units`.

    >>> in_units("T. rex: [[mass:8400.0]], [[length:12.3]] long.", "imperial")
    'T. rex: 9.26 tons, 40.4 ft long.'
    """
    writers = {"mass": format_mass, "length": format_length}
    return words.in_units(text, lambda kind, value: writers[kind](value, units)) if text else text


def format_lifespan(years):
    """Write a lifespan in years, months or days.

    >>> format_lifespan(0.0027)
    '1 day'
    >>> format_lifespan(0.5)
    '6 months'
    """
    if years is None:
        return "unknown"
    if years >= 1:
        amount, unit = significant(years), "year"
    elif years * 12 >= 1:
        amount, unit = significant(years * 12, 2), "month"
    else:
        amount, unit = significant(max(years * DAYS_PER_YEAR, 1), 2), "day"
    return f"{amount} {unit}" if amount == "1" else f"{amount} {unit}s"


def format_ma(ma):
    """Write an age given in millions of years ago.

    >>> format_ma(150.8)
    '151 million years ago'
    >>> format_ma(0.3)
    '300,000 years ago'
    >>> format_ma(0)
    'today'
    """
    if ma is None:
        return "unknown"
    if ma == 0:
        return "today"
    if ma >= 1:
        return f"{significant(ma)} million years ago"
    return f"{significant(ma * 1_000_000, 2)} years ago"


MEASURE_WORDS = {
    "total length": "long", "head-body length": "long (head and body)", "standing height": "tall",
    "shoulder height": "tall at the shoulder", "wingspan": "wingspan", "shell length": "shell",
    "carapace length": "shell (carapace)", "mantle length": "body (mantle)",
}


def measure_word(size_measure):
    """Say in a word or two what a card's size measures, to follow the number ('12 m long').

    >>> measure_word("standing height")
    'tall'
    """
    return MEASURE_WORDS.get(size_measure, "")


# What each card field is called where a page names the values a work supports.
FIELD_LABELS = {
    "length_m": "size", "length_low_m": "smallest size", "length_high_m": "largest size", "mass_kg": "weight",
    "mass_low_kg": "lowest weight", "mass_high_kg": "highest weight", "lifespan_years": "lifespan",
    "lifespan_record_years": "lifespan record", "first_appearance_ma": "first appearance",
    "last_appearance_ma": "last appearance", "iucn_status": "extinction risk", "diet": "diet",
    "continents": "continents", "countries": "countries", "habitat": "habitat", "name_meaning": "name's meaning",
    "pronunciation": "pronunciation", "named_by": "who named it", "named_year": "year named",
}


def field_label(field):
    """Name a card field in words.

    >>> field_label("mass_high_kg")
    'highest weight'
    """
    return FIELD_LABELS.get(field, field.replace("_", " "))


def host(url):
    """Return a web address's host, shortened, to show as a link's text.

    >>> host("https://www.nhm.ac.uk/discover/dino-directory.html")
    'nhm.ac.uk'
    """
    name = (urlsplit(url).hostname or url).removeprefix("www.")
    return name if len(name) <= 40 else name[:18] + "…" + name[-18:]


def chart_number(value):
    """Write a boundary age as the chart prints it: 486.85, 66, 251.902."""
    return f"{value:g}"


def large_type():
    """Say whether the reader chose large type (for projectors): the query string, else a cookie."""
    asked = request.args.get("large")
    return asked == "1" if asked in ("0", "1") else request.cookies.get("large") == "1"


def current_units():
    """Return the reader's unit system: the query string, else their cookie, else metric."""
    if "units" not in g:
        asked = request.args.get("units")
        saved = request.cookies.get("units")
        g.units = asked if asked in UNIT_SYSTEMS else saved if saved in UNIT_SYSTEMS else "metric"
    return g.units


def init_app(app):
    """Register the filters, the unit context and the cookie that remembers the unit choice."""
    app.jinja_env.filters.update(
        size=lambda m: format_length(m, current_units()),
        mass=lambda kg: format_mass(kg, current_units()),
        lifespan=format_lifespan,
        in_units=lambda text: in_units(text, current_units()),
        ma=format_ma,
        significant=significant,
        field_label=field_label,
        host=host,
        measure_word=measure_word,
        picture=picture,
        times=times,
        habitat_words=schema.HABITAT_WORDS.get,
        diet_words=schema.DIET_WORDS.get,
        period_symbol=schema.PERIOD_SYMBOLS.get,
        living=words.living,
        size_sentence=lambda card, metres: words.size_sentence(card, format_length(metres, current_units())),
        article=article,
        drawing=drawing,
        breakable=breakable,
        name_parts=name_parts,
        name_line=name_line,
        chart_number=chart_number,
        sorted_by=lambda key: CHARACTERISTICS[key]["label"].lower(),
        left_end=lambda key: CHARACTERISTICS.get(key, {}).get("left", "lowest on the left"),
    )

    @app.context_processor
    def unit_context():
        return {"units": current_units(), "large": large_type(), "iucn_names": schema.IUCN_STATUSES,
                "decks": schema.DECKS}

    @app.after_request
    def remember_choices(response):
        for name, allowed in (("units", UNIT_SYSTEMS), ("large", ("0", "1"))):
            if request.args.get(name) in allowed:
                response.set_cookie(name, request.args[name], max_age=365 * 24 * 3600,
                                    samesite="Lax", httponly=True)
        return response
