"""The JSON API: cards and periods."""

from flask import request

from webapp.cards import bp
from webapp.cards.forms import CardFilterForm
from webapp.cards.queries import all_periods, get_card, page_of_cards
from webapp.errors import error_response


def read_filters():
    """Validate the query string as card filters; return (form, None) or (None, error response)."""
    form = CardFilterForm(request.args)
    unknown = sorted(set(request.args) - set(form._fields) - {"units"})
    if unknown:
        allowed = ", ".join(form._fields)
        return None, error_response(400, f"Unknown filter {unknown[0]!r}. Filters are: {allowed}.")
    if not form.validate():
        problems = form.error_messages()
        message = " ".join(f"{name}: {text}" for name, text in problems.items())
        return None, error_response(400, f"Some filters are not valid. {message}", fields=problems)
    return form, None


@bp.get("/api/cards")
def api_cards():
    """List cards matching the filters, one page at a time."""
    form, error = read_filters()
    if error:
        return error
    pagination = page_of_cards(form)
    return {
        "items": [card.to_dict() for card in pagination.items],
        "total": pagination.total,
        "page": pagination.page,
        "pages": pagination.pages,
        "per_page": pagination.per_page,
    }


@bp.get("/api/cards/<slug>")
def api_card(slug):
    """Return one card."""
    found = get_card(slug)
    if found is None:
        return error_response(404, f"There is no card called {slug!r}.")
    return found.to_dict()


@bp.get("/api/periods")
def api_periods():
    """List the geological periods, oldest first."""
    return {"items": [period.to_dict() for period in all_periods()]}
