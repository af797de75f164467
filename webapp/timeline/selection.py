"""Which cards a timeline or chart shows, chosen by a request: a list, a saved set, a game's face-up cards, a filter."""

import pandas as pd
from flask import g, url_for
from sqlalchemy import select

from webapp.cards.forms import CardFilterForm
from webapp.cards.names import find_slug, name_index, suggestion
from webapp.cards.queries import all_periods, card_query
from webapp.common.forms import whole_number
from webapp.errors import AppError
from webapp.extensions import db
from webapp.filters import large_type
from webapp.models import Card, Extinction
from webapp.play.adapters import face_up_slugs
from webapp.play.store import get_game
from webapp.timeline import card_sets, figures

MAX_CARDS = 60
DEFAULT_CARDS = ["anomalocaris", "dunkleosteus", "meganeura", "dimetrodon", "stegosaurus",
                 "tyrannosaurus", "triceratops", "titanoboa", "megalodon", "woolly-mammoth",
                 "smilodon", "human"]
FILTERS = ("q", "deck", "period", "diet", "group", "min_length", "max_length", "min_mass", "max_mass")


def card_frame(cards):
    """Return cards as a DataFrame with a link to each card page."""
    columns = ["slug", "common_name", "first_appearance_ma", "last_appearance_ma", "first_period",
               "last_period", "length_m", "mass_kg", "size_measure"]
    frame = pd.DataFrame([{c: getattr(card, c) for c in columns} for card in cards], columns=columns)
    frame["url"] = [url_for("cards.card", slug=card.slug) for card in cards]
    return frame


def period_frame():
    """Return the periods, oldest first, as a DataFrame."""
    return pd.DataFrame([{"period": p.name, "era": p.era, "start_ma": p.start_ma, "end_ma": p.end_ma,
                          "color_hex": p.color_hex, "label_text_color": p.label_text_color}
                         for p in all_periods()])


def extinction_frame():
    """Return the five mass extinctions, oldest first."""
    rows = db.session.scalars(select(Extinction).order_by(Extinction.ma.desc())).all()
    return pd.DataFrame([{"name": e.name, "ma": e.ma, "explanation": e.explanation, "source": e.source}
                         for e in rows], columns=["name", "ma", "explanation", "source"])


def cards_by_slugs(slugs):
    """Return the cards named, in the order given; 404 for an unknown one."""
    found = {c.slug: c for c in db.session.scalars(select(Card).where(Card.slug.in_(slugs)))}
    missing = [s for s in slugs if s not in found]
    if missing:
        raise AppError(404, f"There is no card called {missing[0]!r}.")
    return [found[s] for s in slugs]


class UnknownName(AppError):
    """A name no card answers to; it knows the card the person most likely meant (`meant`: a Card, or None)."""

    def __init__(self, name, meant):
        hint = f" Did you mean {meant.common_name}?" if meant else ""
        super().__init__(404, f"There is no card called {name!r}.{hint}")
        self.name, self.meant = name, meant


def slugs_named(names):
    """Return the slugs of the cards named (any case, nicknames, small typos), each once; UnknownName for an unknown one."""
    index = name_index()
    slugs = []
    for name in names:
        slug = find_slug(name, index)
        if slug is None:
            close = suggestion(name, index)
            raise UnknownName(name, db.session.scalar(select(Card).where(Card.slug == index[close])) if close else None)
        slugs.append(slug)
    return list(dict.fromkeys(slugs))


def asked_names(args):
    """Return the animals a request lists by name (`cards`, in one box or several), blanks left out."""
    asked = ",".join(args.getlist("cards")) if hasattr(args, "getlist") else args.get("cards", "")
    return [s.strip() for s in asked.split(",") if s.strip()]


def chosen_set(args):
    """Return the card set a request opens: the logged-in teacher's own (`set`), or one shared with a link
    (`shared`); None when it names neither, or lists cards (a list comes first)."""
    if asked_names(args):
        return None
    if args.get("set"):
        return card_sets.own_set(args["set"], g.get("teacher"))
    if args.get("shared"):
        return card_sets.shared_set(args["shared"])
    return None


def selected_cards(args, default=DEFAULT_CARDS):
    """Return the cards a request chose: by name list, card set, a round, a filter, or the default."""
    wanted = asked_names(args)
    if wanted:
        if len(wanted) > MAX_CARDS:
            raise AppError(400, f"Choose at most {MAX_CARDS} cards; {len(wanted)} were asked for.")
        return cards_by_slugs(slugs_named(wanted))
    card_set = chosen_set(args)
    if card_set is not None:
        return cards_by_slugs(card_set.slugs[:MAX_CARDS])
    if args.get("game"):
        # Only cards the game shows face up to anyone watching: never a hand, the deck or a face-down card.
        return cards_by_slugs(face_up_slugs(get_game(args["game"])))
    if any(args.get(name) for name in FILTERS):
        form = CardFilterForm(args)
        if not form.validate():
            problems = " ".join(f"{k}: {v}" for k, v in form.error_messages().items())
            raise AppError(400, f"Some filters are not valid. {problems}")
        cards = db.session.scalars(card_query(form.data).limit(MAX_CARDS + 1)).all()
        if len(cards) > MAX_CARDS:
            raise AppError(400, f"More than {MAX_CARDS} cards match: narrow the filter to show them.")
        return cards
    return cards_by_slugs(default) if default else []


def scale_of(args):
    """Return the time axis asked for: linear or log."""
    scale = args.get("scale", "linear")
    if scale not in ("linear", "log"):
        raise AppError(400, "The time axis can be 'linear' or 'log'.")
    return scale


def split_dated(cards):
    """Return (cards with fossil dates, names of those without: living animals)."""
    dated = [c for c in cards if c.first_appearance_ma is not None]
    return dated, [c.common_name for c in cards if c.first_appearance_ma is None]


def chart_width(args):
    """Return the width in pixels the page says its chart has (figures.js sends it), within reason."""
    width = whole_number(args.get("width", ""), digits=5)
    return min(max(width, 240), 3840) if width else figures.DEFAULT_WIDTH


def time_span(args, periods, cards, scale):
    """Return (oldest, youngest) in Ma that the timeline shows: `zoom` is 'all', 'today' (from the oldest card to
    today), a period's name, or by default the cards shown."""
    zoom = args.get("zoom", "cards")
    if zoom == "all":
        return None
    if zoom == "today":
        return figures.fitted_span(cards, periods, scale)[0], 0.0
    period = periods[periods["period"].str.lower() == zoom.lower()]
    if not period.empty:
        start, end = float(period["start_ma"].iloc[0]), float(period["end_ma"].iloc[0])
        margin = (start - end) * 0.05
        return min(start + margin, float(periods["start_ma"].max())), max(end - margin, 0.0)
    if zoom != "cards":
        raise AppError(400, "The timeline can zoom to 'all', 'today', 'cards' or a period's name.")
    return figures.fitted_span(cards, periods, scale)


def timeline_figure(args, cards=None):
    """Return (figure, dated cards, left-out names) for a request's card choice (or the `cards` it chose)."""
    dated, left_out = split_dated(selected_cards(args) if cards is None else cards)
    dated.sort(key=lambda c: (-c.first_appearance_ma, c.common_name))
    periods, cards, scale = period_frame(), card_frame(dated), scale_of(args)
    figure = figures.timeline(periods, cards, extinction_frame(), scale, large_type(), chart_width(args),
                              time_span(args, periods, cards, scale))
    return figure, dated, left_out


def chart_cards(args, column):
    """Return the chosen cards that have a value in `column`, and the names of those without."""
    cards = selected_cards(args, default=["blue-whale", "african-bush-elephant", "tyrannosaurus",
                                                   "human", "house-mouse", "bee-hummingbird"])
    return [c for c in cards if getattr(c, column)], [c.common_name for c in cards if not getattr(c, column)]
