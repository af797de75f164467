"""Deep time made visible: the timeline, time gaps, period pages and charts."""

from flask import abort, flash, g, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from webapp.auth.access import teacher_required
from webapp.cards.forms import CardFilterForm
from webapp.cards.names import common_names
from webapp.cards.queries import all_eras, all_periods
from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import Card, Extinction
from webapp.timeline import bp, card_sets, figures
from webapp.timeline.forms import CardSetForm, CardSetNameForm
from webapp.timeline.selection import (
    MAX_CARDS,
    card_frame,
    cards_by_slugs,
    chart_cards,
    chosen_set,
    extinction_frame,
    selected_cards,
    split_dated,
    timeline_figure,
)


@bp.get("/timeline")
def timeline():
    """Show the interactive timeline of the twelve periods with the chosen cards on it."""
    return timeline_page(request.args)


def timeline_page(args, save_form=None, name_form=None, status=200):
    """Render the timeline for a card choice, with the card set it opened and the ways to keep the choice."""
    figure_error, card_set, chosen = None, None, []
    try:
        card_set = chosen_set(args)
        chosen = selected_cards(args)
        _, dated, left_out = timeline_figure(args, chosen)
    except AppError as error:
        figure_error, dated, left_out = error, [], []
    context = {"cards": dated, "left_out": left_out, "form": CardFilterForm(args), "error": figure_error,
               "extinctions": extinction_frame().to_dict("records"), "eras": all_eras(all_periods()),
               "zoom": args.get("zoom", "cards"), "scale": args.get("scale", "linear"),
               "page_args": query_args(args), "figure_url": url_for("timeline.timeline_json", **query_args(args)),
               **set_context(card_set, name_form), **keeping_context(chosen, args, save_form)}
    return render_template("timeline/timeline.html", **context), figure_error.status if figure_error else status


def set_context(card_set, name_form=None):
    """Return what the page shows of card sets: the teacher's own to choose from, and the set it opened (the
    teacher's own, with its controls, or one shared by a link)."""
    teacher = g.get("teacher")
    own = card_set if card_set is not None and teacher is not None and card_set.teacher_id == teacher.id else None
    return {"sets": card_sets.teacher_sets(teacher) if teacher else [], "own_set": own,
            "shared_set": card_set if own is None else None,
            "share_link": url_for("timeline.timeline", shared=own.share_code, _external=True)
            if own and own.share_code else None,
            "name_form": name_form or CardSetNameForm(formdata=None, prefix="rename",
                                                      data={"name": own.name if own else ""})}


def keeping_context(chosen, args, save_form=None):
    """Return the ways to keep the cards shown: a link anyone copies, and a set a teacher saves."""
    return {"selection_link": selection_link(chosen, args) if chosen else None,
            "selection_slugs": ",".join(card.slug for card in chosen),
            "selection_label": ", ".join(card.common_name for card in chosen),
            "set_form": save_form or CardSetForm(formdata=None)}


def selection_link(cards, args):
    """Return the address of the timeline with these cards (and the axis and zoom chosen): a selection anyone keeps
    as a link, nothing stored on the server."""
    shown = {key: args[key] for key in ("scale", "zoom") if args.get(key) not in (None, "", "linear", "cards")}
    return url_for("timeline.timeline", cards=",".join(card.slug for card in cards), **shown, _external=True)


def query_args(args=None):
    """Return the query string as keyword arguments, the animals typed in several boxes joined into one list."""
    args = request.args if args is None else args
    joined = args.to_dict() if hasattr(args, "to_dict") else dict(args)
    if hasattr(args, "getlist") and "cards" in args:
        joined["cards"] = ",".join(name for name in args.getlist("cards") if name.strip())
    return joined


@bp.post("/timeline/sets")
@teacher_required
def save_set():
    """Keep the chosen cards as one of the teacher's card sets, and open it on the timeline."""
    form = CardSetForm()
    slugs = [s for s in (form.slugs.data or "").split(",") if s][:MAX_CARDS]
    if not form.validate_on_submit():
        return timeline_page(MultiDict({"cards": ",".join(slugs)}), save_form=form, status=400)
    if not cards_by_slugs(slugs):
        raise AppError(400, "There are no cards to save.")
    card_set = card_sets.save(g.teacher, form.name.data, slugs)
    flash(f"{card_set.name} is one of your card sets now: only you see it until you share it.")
    return redirect(url_for("timeline.timeline", set=card_set.id))


@bp.post("/timeline/sets/<id:set_id>")
@teacher_required
def set_action(set_id):
    """Rename, share, stop sharing or delete one of the teacher's card sets."""
    card_set = card_sets.own_set(set_id, g.teacher)
    action = request.form.get("action", "")
    if action == "rename":
        form = CardSetNameForm(prefix="rename")
        if not form.validate_on_submit():
            return timeline_page(MultiDict({"set": str(card_set.id)}), name_form=form, status=400)
        card_sets.rename(card_set, form.name.data)
        flash(f"The set is called {card_set.name} now.")
    elif action == "share":
        card_sets.share(card_set)
        flash("Anyone with the share link below can open the set on the timeline, and a colleague can copy it "
              "into their own card sets.")
    elif action == "unshare":
        card_sets.stop_sharing(card_set)
        flash("The set is private again: its share link no longer opens it.")
    elif action == "delete":
        name = card_set.name
        card_sets.delete(card_set)
        flash(f"{name} is deleted. Rounds made from it keep their cards; a copy of one of them needs another set.")
        return redirect(url_for("timeline.timeline"))
    else:
        raise AppError(400, "Choose rename, share, unshare or delete.")
    return redirect(url_for("timeline.timeline", set=card_set.id))


@bp.post("/timeline/shared/<code>")
@teacher_required
def copy_shared_set(code):
    """Copy a set a colleague shared into the teacher's own card sets, and open the copy."""
    copy = card_sets.copy_for(card_sets.shared_set(code), g.teacher)
    flash(f"{copy.name} is one of your card sets now: only you see your copy until you share it.")
    return redirect(url_for("timeline.timeline", set=copy.id))


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
