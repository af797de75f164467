"""My tricky cards' pages: start a practice the scheduler deals, and see what is mastered."""

from datetime import UTC, datetime

from flask import redirect, render_template, url_for

from webapp.cards.queries import all_periods, cards_by_slug
from webapp.common.characteristics import CHARACTERISTICS
from webapp.common.seats import remember_seats
from webapp.tricky import bp, progress
from webapp.tricky.deal import start_tricky
from webapp.tricky.forms import ProgressForm, TrickyForm

LIVING_TODAY = "Living today"


@bp.route("/tricky/", methods=["GET", "POST"])
def index():
    """Show "My tricky cards" and start a practice dealt from the history this browser posts."""
    form = TrickyForm()
    if form.validate_on_submit():
        found, tokens = start_tricky(form.deck.data, form.characteristic.data, form.count.data,
                                     form.history.placements, datetime.now(UTC))
        remember_seats(found.id, tokens)
        return redirect(url_for("play.game", kind="practice", game_id=found.id))
    return render_template("tricky/index.html", form=form, progress_form=ProgressForm(formdata=None)), \
        400 if form.errors else 200


@bp.route("/tricky/progress", methods=["GET", "POST"])
def progress_page():
    """Show what the posted history says is mastered, by characteristic and by period (asked with a button)."""
    form = ProgressForm()
    if form.is_submitted() and not form.validate():
        return render_template("tricky/progress.html", form=form, posted=False), 400
    history = form.history.placements if form.is_submitted() else []
    rows = progress.card_statuses(history, datetime.now(UTC))
    pairs = progress.trickiest_pairs(history)
    cards = cards_by_slug({card for _, card, _ in rows} | {card for pair in pairs for card in pair[1:3]})
    rows = [row for row in rows if row[1] in cards and row[0] in CHARACTERISTICS]  # cards this app no longer has
    by_characteristic = progress.counts_by(rows, lambda row: CHARACTERISTICS[row[0]]["label"])
    by_period = progress.counts_by(rows, lambda row: _period(cards[row[1]]))
    period_order = [period.name for period in all_periods()] + [LIVING_TODAY]
    label_order = [spec["label"] for spec in CHARACTERISTICS.values()]
    return render_template(
        "tricky/progress.html", form=form, posted=form.is_submitted(), cards=cards,
        by_characteristic=[(name, by_characteristic[name]) for name in label_order if name in by_characteristic],
        by_period=[(name, by_period[name]) for name in period_order if name in by_period],
        characteristic_figure=progress.figure_json(progress.status_figure(
            by_characteristic, "Cards by what you sorted them by", label_order)),
        period_figure=progress.figure_json(progress.status_figure(by_period, "Cards by period", period_order)),
        pairs=[pair for pair in pairs if pair[1] in cards and pair[2] in cards and pair[0] in CHARACTERISTICS],
        characteristics=CHARACTERISTICS, statuses=progress.STATUS_WORDS)


def _period(card):
    """Return the period a card's animal first appeared in, or "Living today" for the living animals deck."""
    return LIVING_TODAY if card.deck == "animals" else card.first_period
