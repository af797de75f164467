"""Deep time made visible: the timeline, time gaps, period pages and charts, with JSON figures."""

import gzip
from functools import cache
from pathlib import Path

import pandas as pd
import plotly
from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from sqlalchemy import select

from webapp import figures, gameplay
from webapp.cards import all_periods, card_query
from webapp.errors import AppError
from webapp.extensions import db
from webapp.filters import current_units, large_type
from webapp.forms import CardFilterForm, CardSetForm, whole_number
from webapp.models import Card, CardSet, Extinction

bp = Blueprint("timeline", __name__)
api = Blueprint("figures_api", __name__, url_prefix="/api/figures")

MAX_CARDS = 60
DEFAULT_CARDS = ["anomalocaris", "dunkleosteus", "meganeura", "dimetrodon", "stegosaurus",
                 "tyrannosaurus", "triceratops", "titanoboa", "megalodon", "woolly-mammoth",
                 "smilodon", "human"]
FILTERS = ("q", "deck", "period", "diet", "group", "min_length", "max_length", "min_mass", "max_mass")
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
YEAR = 365 * 24 * 3600


def card_frame(cards):
    """Return cards as a DataFrame with a link to each card page."""
    columns = ["slug", "common_name", "first_appearance_ma", "last_appearance_ma", "first_period",
               "last_period", "length_m", "mass_kg", "size_measure"]
    frame = pd.DataFrame([{c: getattr(card, c) for c in columns} for card in cards], columns=columns)
    frame["url"] = [url_for("encyclopedia.card", slug=card.slug) for card in cards]
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


def selected_cards(args, default=DEFAULT_CARDS):
    """Return the cards a request chose: by name list, saved set, a round, a filter, or the default."""
    if args.get("cards"):
        slugs = list(dict.fromkeys(s.strip() for s in args["cards"].split(",") if s.strip()))
        if len(slugs) > MAX_CARDS:
            raise AppError(400, f"Choose at most {MAX_CARDS} cards; {len(slugs)} were asked for.")
        return cards_by_slugs(slugs)
    if args.get("set"):
        set_id = whole_number(args["set"])
        card_set = db.session.get(CardSet, set_id) if set_id is not None else None
        if card_set is None:
            raise AppError(404, "There is no saved card set with that number.")
        return cards_by_slugs(card_set.slugs[:MAX_CARDS])
    if args.get("game"):
        game = gameplay.get_game(args["game"])
        state = game.state
        # Only cards face up in the round: never a hand or the deck.
        revealed = list(state.get("line", [])) + list(state.get("box", []))
        return cards_by_slugs(list(dict.fromkeys(revealed)))
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


def timeline_figure(args):
    """Return (figure, dated cards, left-out names) for a request's card choice."""
    dated, left_out = split_dated(selected_cards(args))
    dated.sort(key=lambda c: (-c.first_appearance_ma, c.common_name))
    figure = figures.timeline(period_frame(), card_frame(dated), extinction_frame(), scale_of(args), large_type())
    return figure, dated, left_out


def json_figure(figure):
    """Answer with a figure's JSON, revalidated cheaply with an ETag."""
    response = Response(figures.to_json(figure), mimetype="application/json")
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/timeline")
def timeline():
    """Show the interactive timeline of the twelve periods with the chosen cards on it."""
    figure_error = None
    try:
        _, dated, left_out = timeline_figure(request.args)
    except AppError as error:
        figure_error, dated, left_out = error, [], []
    form = CardFilterForm(request.args)
    context = {"cards": dated, "left_out": left_out, "form": form, "set_form": CardSetForm(),
               "sets": db.session.scalars(select(CardSet).order_by(CardSet.id.desc()).limit(30)).all(),
               "extinctions": extinction_frame().to_dict("records"), "scale": request.args.get("scale", "linear"),
               "figure_url": url_for("figures_api.timeline_json", **request.args), "error": figure_error}
    return render_template("timeline/timeline.html", **context), figure_error.status if figure_error else 200


@bp.post("/timeline/sets")
def save_set():
    """Save the chosen cards as a named set and show it on the timeline."""
    form = CardSetForm()
    if not form.validate_on_submit():
        raise AppError(400, " ".join(e for errors in form.errors.values() for e in errors))
    slugs = [s for s in form.slugs.data.split(",") if s][:MAX_CARDS]
    cards_by_slugs(slugs)
    card_set = CardSet(name=form.name.data.strip(), slugs=slugs)
    db.session.add(card_set)
    db.session.commit()
    return redirect(url_for("timeline.timeline", set=card_set.id))


@bp.get("/timeline/gap")
def gap():
    """Show two or three animals and the gaps of time between them, in a sentence."""
    cards = selected_cards(request.args, default=["stegosaurus", "tyrannosaurus"])
    dated, left_out = split_dated(cards)
    if not 2 <= len(dated) <= 3:
        raise AppError(400, "Pick two or three prehistoric animals to compare.")
    sentences = figures.gap_sentences(card_frame(dated))
    return render_template("timeline/gap.html", cards=dated, left_out=left_out, sentences=sentences,
                           figure_url=url_for("figures_api.timeline_json", cards=",".join(c.slug for c in dated),
                                              scale=request.args.get("scale", "linear")))


@bp.get("/periods/<name>")
def period(name):
    """Show one period: its dates, climate, the extinction that ended it, and its animals."""
    found = next((p for p in all_periods() if p.slug == name.lower()), None)
    if found is None:
        abort(404, description=f"There is no period called {name!r}.")
    cards = db.session.scalars(select(Card).where(
        Card.first_appearance_ma > found.end_ma, Card.last_appearance_ma < found.start_ma)
        .order_by(Card.first_appearance_ma.desc())).all()
    extinction = db.session.scalar(select(Extinction).where(Extinction.period_ending == found.name))
    return render_template("timeline/period.html", period=found, cards=cards, extinction=extinction,
                           figure_url=url_for("figures_api.timeline_json",
                                              cards=",".join(c.slug for c in cards[:MAX_CARDS])) if cards else None)


def chart_cards(column):
    """Return the chosen cards that have a value in `column`, and the names of those without."""
    cards = selected_cards(request.args, default=["blue-whale", "african-bush-elephant", "tyrannosaurus",
                                                   "human", "house-mouse", "bee-hummingbird"])
    return [c for c in cards if getattr(c, column)], [c.common_name for c in cards if not getattr(c, column)]


@bp.get("/charts/<kind>")
def chart(kind):
    """Show the size chart (to scale, beside a person) or the weight chart (log scale)."""
    if kind not in ("sizes", "weights"):
        abort(404, description="There are size and weight charts: /charts/sizes and /charts/weights.")
    cards, left_out = chart_cards("length_m" if kind == "sizes" else "mass_kg")
    return render_template("timeline/chart.html", kind=kind, cards=cards, left_out=left_out,
                           figure_url=url_for(f"figures_api.{kind}_json", **request.args))


@api.get("/timeline")
def timeline_json():
    """Return the timeline figure for the chosen cards."""
    return json_figure(timeline_figure(request.args)[0])


@api.get("/sizes")
def sizes_json():
    """Return the size chart figure."""
    cards, _ = chart_cards("length_m")
    return json_figure(figures.sizes(card_frame(cards), current_units(), large_type()))


@api.get("/weights")
def weights_json():
    """Return the weight chart figure."""
    cards, _ = chart_cards("mass_kg")
    if not cards:
        raise AppError(400, "None of these cards has a known weight.")
    return json_figure(figures.weights(card_frame(cards), current_units(), large_type()))


@api.get("/cardline/<game_id>")
def cardline_json(game_id):
    """Return a finished Cardline round's line as a chart (only face-up cards)."""
    game = gameplay.get_game(game_id)
    if game.kind != "cardline":
        raise AppError(404, "That game is not a Cardline game.")
    observation = gameplay.observe(game, None)
    if not observation["over"]:
        raise AppError(409, "The chart of the line is shown when the round is over.")
    cards = gameplay.cards_by_slug(gameplay.observation_slugs(observation))
    names = {slug: card.common_name for slug, card in cards.items()}
    period_names = [p.name for p in all_periods()]
    figure = figures.finished_line(observation["line"], observation["box"], game.settings["characteristic"],
                                   names, current_units(), period_names, large_type())
    return json_figure(figure)


@cache
def compressed_plotly():
    """Return plotly.js gzipped once (the file never changes for an installed version)."""
    return gzip.compress(PLOTLY_JS.read_bytes(), compresslevel=9)


@bp.get("/vendor/plotly-<version>.min.js")
def plotly_js(version):
    """Serve the app's own copy of plotly.js, cached by browsers for a year (the URL is versioned)."""
    if version != plotly.__version__:
        abort(404, description="That version of plotly.js is not served here.")
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
    body = compressed_plotly() if gzipped else PLOTLY_JS.read_bytes()
    response = Response(body, mimetype="text/javascript")
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


def plotly_url():
    """Return the versioned address of plotly.js."""
    return url_for("timeline.plotly_js", version=plotly.__version__)

