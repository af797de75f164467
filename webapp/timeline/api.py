"""The figures as JSON: the timeline, sizes, weights and a finished Cardline line (cheap to revalidate)."""

from flask import Response, request

from webapp.cards.queries import all_periods, cards_by_slug
from webapp.errors import AppError
from webapp.filters import current_units, large_type
from webapp.play.adapters import game_of_kind
from webapp.play.store import observe
from webapp.timeline import bp, figures
from webapp.timeline.selection import card_frame, chart_cards, chart_width, timeline_figure


def json_figure(figure):
    """Answer with a figure's JSON, revalidated cheaply with an ETag."""
    response = Response(figures.to_json(figure), mimetype="application/json")
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/api/figures/timeline")
def timeline_json():
    """Return the timeline figure for the chosen cards."""
    return json_figure(timeline_figure(request.args)[0])


@bp.get("/api/figures/sizes")
def sizes_json():
    """Return the size chart figure."""
    cards, _ = chart_cards(request.args, "length_m")
    return json_figure(figures.sizes(card_frame(cards), current_units(), large_type(), chart_width(request.args)))


@bp.get("/api/figures/weights")
def weights_json():  # named as its URL, which people read
    """Return the weight chart figure."""
    cards, _ = chart_cards(request.args, "mass_kg")
    if not cards:
        raise AppError(400, "None of these cards has a known weight.")
    return json_figure(figures.masses(card_frame(cards), current_units(), large_type(), chart_width(request.args)))


@bp.get("/api/figures/cardline/<game_id>")
def cardline_json(game_id):
    """Return a finished Cardline round's line as a chart (only face-up cards)."""
    adapter, game = game_of_kind("cardline", game_id)
    observation = observe(game, None)
    if not observation["over"]:
        raise AppError(409, "The chart of the line is shown when the round is over.")
    cards = cards_by_slug(adapter.face_up(observation))
    names = {slug: card.common_name for slug, card in cards.items()}
    period_names = [p.name for p in all_periods()]
    figure = figures.finished_line(observation["line"], observation["box"], game.settings["characteristic"],
                                   names, current_units(), period_names, large_type(),
                                   chart_width(request.args))
    return json_figure(figure)
