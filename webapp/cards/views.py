"""The dino card encyclopedia: browse, search and filter cards; one page per card."""

from flask import abort, flash, redirect, render_template, request, url_for

from cards_db.schema import RANGES
from webapp.cards import bp, names, silhouettes
from webapp.cards.forms import CardFilterForm, MistakeReportForm
from webapp.cards.queries import all_periods, get_card, page_of_cards
from webapp.common.forms import over_limit
from webapp.extensions import db
from webapp.models import MistakeReport


def card_colours(card, periods):
    """Return (background, ink) of a card: its first period's ICS colour; living animals Quaternary."""
    by_name = {period.name: period for period in periods}
    period = by_name.get(card.first_period) or by_name.get("Quaternary")
    if period is None:
        return "#dddddd", "black"
    return period.color_hex, period.label_text_color


@bp.get("/cards/")
def index():
    """Show a page of cards matching the search and filters."""
    form = CardFilterForm(request.args)
    periods = all_periods()
    if not form.validate():
        return render_template("cards/index.html", form=form, pagination=None,
                               periods=periods, card_colours=card_colours), 400
    pagination = page_of_cards(form)
    # Nothing found for a name typed a little wrong: offer the card meant, as a link (megladon -> Megalodon).
    meant = names.suggestion(form.q.data) if form.q.data and not pagination.total else None
    return render_template("cards/index.html", form=form, pagination=pagination, periods=periods,
                           card_colours=card_colours, meant=get_card(names.find_slug(meant)) if meant else None)


@bp.route("/cards/<slug>", methods=["GET", "POST"])
def card(slug):
    """Show both faces of a card, its sources, and the mistake report form."""
    found = get_card(slug)
    if found is None:
        abort(404, description=f"There is no card called {slug!r}. Try searching the encyclopedia.")
    form = MistakeReportForm()
    valid = form.validate_on_submit()
    limited = valid and over_limit(form.message, "report")
    if valid and not limited:
        db.session.add(MistakeReport(
            card_slug=found.slug, field=form.field.data, message=form.message.data.strip(),
            suggested_source=(form.suggested_source.data or "").strip() or None,
        ))
        db.session.commit()
        flash("Thank you! Your report has been saved and will be checked against the sources.")
        return redirect(url_for("cards.card", slug=found.slug, _anchor="report"))
    periods = all_periods()
    background, ink = card_colours(found, periods)
    status = 429 if limited else 400 if form.errors else 200
    return render_template(
        "cards/card.html", card=found, form=form, periods=periods, works=found.works_by_field(), ranges=RANGES,
        background=background, ink=ink,
        picture=silhouettes.silhouette(found, ink, f"Silhouette of {found.common_name}"),
        comparison=silhouettes.comparison(found),
        # Drawn again narrower for a phone, so its labels stay about 14 px there instead of shrinking to 8.
        narrow_comparison=silhouettes.comparison(found, width=360, height=220),
        comparison_sentence=silhouettes.comparison_sentence(found),
    ), status
