"""Lesson plans: Markdown files with front matter in lessons/, rendered with numbers taken
from the card database."""

import functools
import re
from pathlib import Path

import markdown
import yaml
from flask import url_for
from markupsafe import Markup
from sqlalchemy import select

from webapp.extensions import db
from webapp.filters import current_units, format_length, format_lifespan, format_ma, format_mass, significant
from webapp.models import Card, Period

FOLDER = Path(__file__).resolve().parents[2] / "lessons"
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.DOTALL)
FIELD = re.compile(r"\{\{(card|name|period|gap):([^}]+)\}\}")
REQUIRED = ("title", "age_range", "duration_minutes", "learning_goals", "vocabulary", "materials", "activities")


class LessonError(ValueError):
    """A lesson file that cannot be used; the message names the file and the problem."""


@functools.cache
def lesson_slugs():
    """Return the names of the lesson files, without ".md" (files never change at run time)."""
    return tuple(sorted(path.stem for path in FOLDER.glob("*.md") if re.fullmatch(r"[a-z0-9-]+", path.stem)))


def load(slug):
    """Return a lesson by its slug, or None; only real lessons are read (and cached), whatever a URL says."""
    return read_lesson(slug) if slug in lesson_slugs() else None


@functools.cache
def read_lesson(slug):
    """Return a lesson's front matter, Markdown body and question bank (files never change at run time)."""
    path = FOLDER / f"{slug}.md"
    match = FRONT_MATTER.match(path.read_text(encoding="utf-8"))
    if not match:
        raise LessonError(f"{path.name}: no front matter between --- lines")
    meta = yaml.safe_load(match.group(1))
    missing = [key for key in REQUIRED if key not in meta]
    if missing:
        raise LessonError(f"{path.name}: front matter lacks {', '.join(missing)}")
    bank_path = FOLDER / f"{slug}.questions.yaml"
    bank = [bank_question(q) for q in (yaml.safe_load(bank_path.read_text(encoding="utf-8")) or [])] \
        if bank_path.exists() else []
    return {"slug": slug, "meta": meta, "body": match.group(2), "bank": bank}


def bank_question(raw):
    """Turn an authored question into the quiz's question format."""
    options = [{"id": f"o{i}", "text": str(text)} for i, text in enumerate(raw["options"])]
    return {"bank_id": raw["id"], "kind": "bank", "prompt": raw["question"], "options": options,
            "answer": f"o{int(raw['answer'])}", "explanation": raw["explanation"], "order": False,
            "source": raw.get("source", "")}


def all_lessons():
    """Return every lesson, in file name order."""
    return [read_lesson(slug) for slug in lesson_slugs()]


def _card(slug):
    card = db.session.scalar(select(Card).where(Card.slug == slug))
    if card is None:
        raise LessonError(f"no card called {slug!r}")
    return card


def fill(text):
    """Fill the {{…}} fields with values from the card database."""
    units = current_units()

    def value(match):
        kind, args = match.group(1), match.group(2).split(":")
        if kind == "name":
            card = _card(args[0])
            return f"[{card.common_name}]({url_for('cards.card', slug=card.slug)})"
        if kind == "card":
            card, field = _card(args[0]), args[1]
            number = getattr(card, field)
            if number is None:
                return "unknown"
            length, mass = (lambda v: format_length(v, units)), (lambda v: format_mass(v, units))
            return {"length_m": length, "length_low_m": length, "length_high_m": length, "mass_kg": mass,
                    "mass_low_kg": mass, "mass_high_kg": mass, "lifespan_years": format_lifespan,
                    "first_appearance_ma": format_ma, "last_appearance_ma": format_ma}[field](number)
        if kind == "period":
            period = db.session.get(Period, args[0])
            if period is None:
                raise LessonError(f"no period called {args[0]!r}")
            ma = getattr(period, args[1])
            return "today" if ma == 0 else f"{ma:g} million years ago"
        older, younger = _card(args[0]), _card(args[1])
        gap = older.last_appearance_ma - younger.first_appearance_ma
        return f"about {significant(gap, 2)} million years" if gap > 0 else "no time at all (they overlapped)"

    return FIELD.sub(value, text)


def render(lesson):
    """Return the lesson body as HTML, with the database's numbers filled in."""
    body = re.sub(r"\A\s*# [^\n]*\n", "", lesson["body"])  # the page shows the title already
    return Markup(markdown.markdown(fill(body), extensions=["tables", "sane_lists"]))


