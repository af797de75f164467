"""Deep time made visible: the timeline, time gaps, period pages and charts."""

from flask import abort, redirect, render_template, request, url_for
from sqlalchemy import select

from webapp.cards.forms import CardFilterForm
from webapp.cards.names import common_names
from webapp.cards.queries import all_eras, all_periods
from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import Card, CardSet, Extinction
from webapp.timeline import bp, figures
from webapp.timeline.forms import CardSetForm
from webapp.timeline.selection import (
    MAX_CARDS,
    card_frame,
    cards_by_slugs,
    chart_cards,
    extinction_frame,
    selected_cards,
    split_dated,
    timeline_figure,
)


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
               "extinctions": extinction_frame().to_dict("records"), "eras": all_eras(all_periods()),
               "zoom": request.args.get("zoom", "cards"), "scale": request.args.get("scale", "linear"),
               "figure_url": url_for("timeline.timeline_json", **query_args()), "error": figure_error}
    return render_template("timeline/timeline.html", **context), figure_error.status if figure_error else 200


def query_args():
    """Return the query string as keyword arguments, the animals typed in several boxes joined into one list."""
    args = request.args.to_dict()
    if "cards" in request.args:
        args["cards"] = ",".join(name for name in request.args.getlist("cards") if name.strip())
    return args


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


GAP_EXAMPLE = ["stegosaurus", "tyrannosaurus"]


@bp.get("/timeline/gap")
def gap():
    """Show two or three animals and the gaps of time between them, in a sentence.

    A name no card answers to, or one animal twice, keeps the form as typed and says why beside it, with the
    animal most likely meant as a link; the example pair is shown meanwhile.
    """
    typed = typed_names(request.args)
    try:
        dated, left_out = gap_cards(request.args, typed)
        problem = None
    except AppError as error:
        (dated, left_out), problem = gap_cards({"cards": ",".join(GAP_EXAMPLE)}, GAP_EXAMPLE), error
    sentences = figures.gap_sentences(card_frame(dated))
    page = render_template("timeline/gap.html", cards=dated, typed=typed, left_out=left_out, sentences=sentences,
                           names=common_names(), **said_of(problem, typed, "timeline.gap"),
                           zoom=request.args.get("zoom", "today"),
                           figure_url=url_for("timeline.timeline_json", cards=",".join(c.slug for c in dated),
                                              scale=request.args.get("scale", "linear"),
                                              zoom=request.args.get("zoom", "today")))
    return page, problem.status if problem else 200


def said_of(problem, typed, endpoint, **values):
    """Return what a page says of a name problem: the problem, the card meant, and the link that asks for it instead."""
    meant = getattr(problem, "meant", None)
    fixed = url_for(endpoint, cards=",".join(meant.slug if name == problem.name else name for name in typed),
                    **values) if meant else None
    return {"problem": problem, "meant": meant, "fixed": fixed}


def typed_names(args):
    """Return the animals' names as typed in the boxes (or a list), blanks left out."""
    return [name.strip() for value in args.getlist("cards") for name in value.split(",") if name.strip()]


def gap_cards(args, names):
    """Return (dated cards, names left out) for a time gap between the animals chosen, or raise AppError saying why."""
    cards = selected_cards(args, default=GAP_EXAMPLE)
    if names and len(cards) < len(names):
        raise AppError(400, "One animal is named twice: choose two or three different animals.")
    dated, left_out = split_dated(cards)
    if not 2 <= len(dated) <= 3:
        raise AppError(400, "Pick two or three prehistoric animals to compare.")
    return dated, left_out


@bp.get("/periods/<name>")
def period(name):
    """Show one period: its dates, climate, the extinction that ended it, and its animals."""
    periods = all_periods()
    found = next((p for p in periods if p.slug == name.lower()), None)
    if found is None:
        abort(404, description=f"There is no period called {name!r}.")
    cards = db.session.scalars(select(Card).where(
        Card.first_appearance_ma > found.end_ma, Card.last_appearance_ma < found.start_ma)
        .order_by(Card.first_appearance_ma.desc())).all()
    extinction = db.session.scalar(select(Extinction).where(Extinction.period_ending == found.name))
    era = next(e for e in all_eras(periods) if e["name"] == found.era)
    return render_template("timeline/period.html", period=found, cards=cards, extinction=extinction, era=era,
                           zoom=request.args.get("zoom", found.slug),
                           figure_url=url_for("timeline.timeline_json", cards=",".join(c.slug for c in cards[:MAX_CARDS]),
                                              zoom=request.args.get("zoom", found.slug)) if cards else None)


@bp.get("/charts/<kind>")
def chart(kind):
    """Show the size chart (to scale, beside a person) or the weight chart (log scale)."""
    if kind not in ("sizes", "weights"):
        abort(404, description="There are size and weight charts: /charts/sizes and /charts/weights.")
    column, typed = "length_m" if kind == "sizes" else "mass_kg", typed_names(request.args)
    try:
        (cards, left_out), problem = chart_cards(request.args, column), None
    except AppError as error:  # a name no card answers to: the form as typed, why, and the example meanwhile
        (cards, left_out), problem = chart_cards({}, column), error
    page = render_template("timeline/chart.html", kind=kind, cards=cards, left_out=left_out, names=common_names(),
                           typed=typed, **said_of(problem, typed, "timeline.chart", kind=kind),
                           figure_url=url_for(f"timeline.{kind}_json", **({} if problem else query_args())))
    return page, problem.status if problem else 200
