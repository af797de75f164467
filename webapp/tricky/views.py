"""My tricky cards' pages: start a practice the scheduler deals, see what is mastered, and keep the cards on the
school's server for a pupil on a class list (a browser linked with their personal code)."""

from datetime import UTC, datetime, timedelta

from flask import after_this_request, current_app, jsonify, redirect, render_template, request, session, url_for

from webapp.cards.queries import all_periods, cards_by_slug
from webapp.common import limits
from webapp.common.characteristics import CHARACTERISTICS
from webapp.common.seats import remember_seats
from webapp.common.tokens import new_token
from webapp.errors import AppError
from webapp.tricky import bp, kept, progress
from webapp.tricky.deal import start_tricky
from webapp.tricky.forms import KeptForm, LinkForm, ProgressForm, TrickyForm, UnlinkForm

LIVING_TODAY = "Living today"
COOKIE = "tricky_pupil"  # the linked browser's token (only its hash is stored); sent to the tricky pages only
WRONG_CODE = "That is not a personal code on a class list. Check the code on your slip, or ask your teacher."
TOO_MANY_CODES = "Too many wrong codes from here."


@bp.route("/tricky/", methods=["GET", "POST"])
def index():
    """Show "My tricky cards" and start a practice dealt from the history this browser posts."""
    form, pupil = TrickyForm(), linked_pupil()
    if form.validate_on_submit():
        found, tokens = start_tricky(form.deck.data, form.characteristic.data, form.count.data,
                                     merged(pupil, form.history.placements), datetime.now(UTC))
        remember_seats(found.id, tokens)
        return redirect(url_for("play.game", kind="practice", game_id=found.id))
    return render_index(pupil, form=form, status=400 if form.errors else 200)


def render_index(pupil, form=None, link_form=None, status=200):
    """Return the tricky cards' page: the practice's form, the progress button, and linking this browser."""
    return render_template("tricky/index.html", form=form or TrickyForm(formdata=None), pupil=pupil,
                           progress_form=ProgressForm(formdata=None), kept_form=KeptForm(formdata=None),
                           link_form=link_form or LinkForm(formdata=None), unlink_form=UnlinkForm(formdata=None),
                           days_kept=current_app.config["PRACTICE_DAYS_KEPT"]), status


def linked_pupil():
    """Return the pupil this browser is linked to, or None (a cookie of an erased pupil or device is dropped)."""
    token = request.cookies.get(COOKIE)
    pupil = kept.linked_pupil(token, datetime.now(UTC))
    if token and pupil is None:
        after_this_request(forget_cookie)
    elif pupil is not None:  # kept as long as the browser is used, as the server keeps its link
        after_this_request(lambda response: keep_cookie(response, token))
    return pupil


def keep_cookie(response, token):
    """Have the browser keep its link's token for PRACTICE_DAYS_KEPT days from now."""
    response.set_cookie(COOKIE, token, path=url_for("tricky.index"),
                        max_age=timedelta(days=current_app.config["PRACTICE_DAYS_KEPT"]), httponly=True,
                        secure=current_app.config["SESSION_COOKIE_SECURE"], samesite="Lax")
    return response


def forget_cookie(response):
    """Drop the linked browser's cookie."""
    response.delete_cookie(COOKIE, path=url_for("tricky.index"))
    return response


def merged(pupil, posted):
    """Return the history to deal and draw from: the posted one, merged into the pupil's on the server if linked."""
    if pupil is None:
        return posted
    return kept.merge(pupil, posted, datetime.now(UTC), current_app.config["PRACTICE_DAYS_KEPT"])


@bp.post("/tricky/link")
def link():
    """Link this browser to the pupil whose personal code is typed (a guess, throttled as a join code is)."""
    form, status = LinkForm(), 400
    session.setdefault("device", new_token())
    if form.validate_on_submit():
        try:
            pupil = limits.guess(limits.code_keys(session.get("device")),
                                 lambda: kept.pupil_with_code(form.personal_code.data), TOO_MANY_CODES)
        except AppError as error:  # too many wrong codes from here: the field says how long to wait
            form.personal_code.errors.append(error.message)
            return render_index(linked_pupil(), link_form=form, status=error.status)
        if pupil is not None:
            kept.unlink(request.cookies.get(COOKIE))  # a browser keeps one pupil's cards at a time
            return keep_cookie(redirect(url_for("tricky.index")), kept.link(pupil, datetime.now(UTC)))
        form.personal_code.errors.append(WRONG_CODE)
        status = 403
    return render_index(linked_pupil(), link_form=form, status=status)


@bp.post("/tricky/unlink")
def unlink():
    """Stop keeping this browser's tricky cards on the server (the pupil's other devices keep theirs)."""
    if not UnlinkForm().validate_on_submit():
        raise AppError(400, "The form to stop keeping your cards here has expired: reload the page and try again.")
    kept.unlink(request.cookies.get(COOKIE))
    return forget_cookie(redirect(url_for("tricky.index")))


@bp.post("/tricky/kept")
def kept_history():
    """Merge the history this browser posts into its pupil's on the server and answer the merged one, as JSON."""
    pupil = linked_pupil()
    if pupil is None:
        raise AppError(404, "This browser does not keep its tricky cards on the school's server.")
    form = KeptForm()
    if not form.validate_on_submit():
        raise AppError(400, " ".join(error for errors in form.errors.values() for error in errors))
    history = merged(pupil, form.history.placements)
    return jsonify({"pupil": pupil.display_name, "history": kept.as_posted(history)})


@bp.route("/tricky/progress", methods=["GET", "POST"])
def progress_page():
    """Show what the posted history says is mastered, by characteristic and by period (asked with a button)."""
    form, pupil = ProgressForm(), linked_pupil()
    if form.is_submitted() and not form.validate():
        return render_template("tricky/progress.html", form=form, posted=False, pupil=pupil), 400
    history = merged(pupil, form.history.placements) if form.is_submitted() else []
    rows = progress.card_statuses(history, datetime.now(UTC))
    pairs = progress.trickiest_pairs(history)
    cards = cards_by_slug({card for _, card, _ in rows} | {card for pair in pairs for card in pair[1:3]})
    rows = [row for row in rows if row[1] in cards and row[0] in CHARACTERISTICS]  # cards this app no longer has
    by_characteristic = progress.counts_by(rows, lambda row: CHARACTERISTICS[row[0]]["label"])
    by_period = progress.counts_by(rows, lambda row: _period(cards[row[1]]))
    period_order = [period.name for period in all_periods()] + [LIVING_TODAY]
    label_order = [spec["label"] for spec in CHARACTERISTICS.values()]
    return render_template(
        "tricky/progress.html", form=form, posted=form.is_submitted(), cards=cards, pupil=pupil,
        kept_form=KeptForm(formdata=None),
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
