"""Form parts several features share: reading numbers, choice lists, seats at a table, a deck with its sort key."""

import math

from flask_wtf import FlaskForm
from sqlalchemy import select
from wtforms import Form, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional, ValidationError

from cards_db import schema
from webapp.common import limits, nicknames
from webapp.common.characteristics import CHARACTERISTICS, CHOICES, form_problem
from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import Period

# A choice left blank means "any"; whitespace is not blank, or Optional() would wave "\r" past the choice check.
blank_or_choice = Optional(strip_whitespace=False)


def whole_number(text, digits=9):
    """Return `text` as an int if it is 1 to `digits` plain digits 0-9, else None ("²" and "1e3" are not)."""
    return int(text) if 0 < len(text) <= digits and text.isascii() and text.isdigit() else None


def finite(form, field):
    """Refuse 'nan' and 'inf', which FloatField would otherwise accept."""
    if field.data is not None and not math.isfinite(field.data):
        raise ValidationError("Please enter an ordinary number.")


def options(pairs, anything=None):
    """Return SelectField choices from (value, label) pairs, led by an 'any' option if given."""
    lead = [SelectChoice("", anything)] if anything else []
    return lead + [SelectChoice(value, label) for value, label in pairs]


def period_options():
    """Return the periods as choices, oldest first, led by 'Any period'."""
    periods = db.session.scalars(select(Period.name).order_by(Period.position)).all()
    return options(((p, p) for p in periods), "Any period")


def group_options():
    """Return the animal groups of both decks as choices, led by 'Any group'."""
    groups = sorted({g for deck in schema.GROUPS.values() for g in deck})
    return options(((g, g.capitalize()) for g in groups), "Any group")


def diet_options():
    """Return the diets as choices, led by 'Any diet'."""
    return options(((d, d.capitalize()) for d in schema.DIETS), "Any diet")


def characteristic_options(extra=()):
    """Return what a line may be sorted by as choices, each saying which decks have it (decks.js offers only those)."""
    decks = {key: spec["decks"] for key, spec in CHARACTERISTICS.items()}
    pairs = [*CHOICES, *extra]
    return [SelectChoice(value, label, render_kw={"data-decks": " ".join(decks.get(value, schema.DECKS))})
            for value, label in pairs]


def deck_options():
    """Return the two decks as choices."""
    return options(schema.DECKS.items())


class DeckForm(FlaskForm):
    """A deck and what to sort its cards by; a characteristic the deck lacks is refused beside the field."""

    deck = SelectField("Deck", choices=deck_options())
    characteristic = SelectField("Sort the line by", choices=characteristic_options())

    def validate_characteristic(self, field):
        reason = form_problem(self.deck.data, field.data)
        if reason:
            raise ValidationError(reason)


class SeatForm(Form):
    """One seat at the table: a name, and a person or a computer player."""

    name = StringField("Name", validators=[Optional(), Length(max=40)])
    kind = SelectField("Played by", default="human", validate_choice=False, choices=options([
        ("human", "A person at this screen"), ("remote", "A person on their own device (join code)"),
        ("easy", "Computer (easy)"), ("medium", "Computer (medium)"), ("hard", "Computer (hard)")]))

    def validate_kind(self, field):
        # Unused seats arrive empty; a filled kind must be one of the choices.
        if field.data not in (None, "", *[choice.value for choice in field.choices]):
            raise ValidationError("Choose a person or a computer level.")


class SeatsForm(FlaskForm):
    """A game set-up with seats: the first `players` seats play."""

    def seats_in_play(self):
        """Return the seat entries that play."""
        return self.seats.entries[: self.players.data]

    def seat_names(self):
        """Return the names of the seats in play, unnamed ones called 'Player N'."""
        return [nicknames.tidy(entry.form.name.data) or f"Player {index + 1}"
                for index, entry in enumerate(self.seats_in_play())]

    def chosen_seats(self):
        """Return the seats in play as dicts, naming unnamed ones 'Player N'."""
        return [{"name": name, "kind": entry.form.kind.data or "human"}
                for name, entry in zip(self.seat_names(), self.seats_in_play())]

    def validate(self, extra_validators=None):
        """Check each field, then the names of the seats in play by the nickname rule, no two alike (beside each)."""
        valid = super().validate(extra_validators)
        keys = set()
        for name, entry in zip(self.seat_names(), self.seats_in_play()):
            reason = nicknames.problem(name) or ("Another seat has this name, or one that looks the same."
                                                 if nicknames.key(name) in keys else None)
            keys.add(nicknames.key(name))
            if reason:
                entry.form.name.errors = [*entry.form.name.errors, reason]
                self.seats.errors = [*self.seats.errors, {"name": [reason]}]  # what form.errors reads
                valid = False
        return valid


def over_limit(field, kind):
    """Count one creation of `kind` from this address (limits.use); when it is over the school's limit, put the
    reason beside `field` and say so."""
    try:
        limits.use(kind)
    except AppError as error:
        field.errors = [*field.errors, error.message]
        return True
    return False
