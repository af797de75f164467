"""Home page, the geological periods overview, the health check, and a bare /ping."""

from flask import make_response, render_template, request
from sqlalchemy import func, select, text

from webapp.cards.queries import all_eras, all_periods, get_card
from webapp.extensions import db
from webapp.main import bp
from webapp.models import Card


def deep_time_gap():
    """Return the Stegosaurus-Tyrannosaurus comparison from the cards, or None if either is missing."""
    stegosaurus, tyrannosaurus = get_card("stegosaurus"), get_card("tyrannosaurus")
    if not (stegosaurus and tyrannosaurus):
        return None
    between = stegosaurus.last_appearance_ma - tyrannosaurus.first_appearance_ma
    since = tyrannosaurus.last_appearance_ma
    return {"stegosaurus": stegosaurus, "tyrannosaurus": tyrannosaurus,
            "between": between, "since": since}


@bp.get("/")
def home():
    """Show the home page."""
    counts = dict(db.session.execute(select(Card.deck, func.count()).group_by(Card.deck)).all())
    return render_template("main/home.html", counts=counts, gap=deep_time_gap())


@bp.get("/periods")
def periods():
    """Show the twelve periods to scale, with how many cards lived in each."""
    rows = all_periods()
    counts = {
        period.name: db.session.scalar(
            select(func.count()).select_from(Card).where(
                Card.first_appearance_ma > period.end_ma, Card.last_appearance_ma < period.start_ma))
        for period in rows
    }
    return render_template("main/periods.html", periods=rows, counts=counts, eras=all_eras(rows))


@bp.get("/healthz")
def healthz():
    """Answer 200 when the app and its database respond."""
    db.session.execute(text("SELECT 1"))
    return {"status": "ok"}


@bp.get("/ping")
def ping():
    """Answer a constant JSON without touching the database: the bare reference of the load test."""
    return {"ok": True}


@bp.get("/periods.css")
def periods_css():
    """Serve a stylesheet with each period's ICS colour and its width to scale."""
    rows = all_periods()
    longest = max((p.start_ma - p.end_ma for p in rows), default=1)
    response = make_response(render_template("main/periods.css", periods=rows, longest=longest))
    response.headers["Content-Type"] = "text/css; charset=utf-8"
    response.headers["Cache-Control"] = "public, max-age=3600"
    response.add_etag()
    return response.make_conditional(request)
