"""Lessons for teachers: Markdown files with front matter in lessons/, rendered with numbers taken
from the card database, each with activities launched in one click."""

import functools
import re
from pathlib import Path

import markdown
import yaml
from flask import Blueprint, abort, g, redirect, render_template, url_for
from markupsafe import Markup
from sqlalchemy import select

from webapp import classrooms, gameplay, quizzes
from webapp.auth import teacher_required
from webapp.errors import AppError
from webapp.extensions import db
from webapp.filters import current_units, format_length, format_lifespan, format_ma, format_mass, significant
from webapp.models import Card, Period

FOLDER = Path(__file__).resolve().parent.parent / "lessons"
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.DOTALL)
FIELD = re.compile(r"\{\{(card|name|period|gap):([^}]+)\}\}")
REQUIRED = ("title", "age_range", "duration_minutes", "learning_goals", "vocabulary", "materials", "activities")

bp = Blueprint("lessons", __name__, url_prefix="/lessons")


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
            return f"[{card.common_name}]({url_for('encyclopedia.card', slug=card.slug)})"
        if kind == "card":
            card, field = _card(args[0]), args[1]
            number = getattr(card, field)
            if number is None:
                return "unknown"
            return {"length_m": lambda v: format_length(v, units), "mass_kg": lambda v: format_mass(v, units),
                    "lifespan_years": format_lifespan, "first_appearance_ma": format_ma,
                    "last_appearance_ma": format_ma}[field](number)
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


@bp.get("/")
def index():
    """List the lessons."""
    return render_template("lessons/index.html", lessons=all_lessons())


@bp.get("/<slug>")
def show(slug):
    """Show a lesson plan and its activities."""
    lesson = load(slug)
    if lesson is None:
        abort(404, description=f"There is no lesson called {slug!r}.")
    return render_template("lessons/show.html", lesson=lesson, body=render(lesson),
                           activities=list(enumerate(lesson["meta"]["activities"])))


def activity_of(slug, number):
    """Return a lesson's activity by its position, or a 404."""
    lesson = load(slug)
    activities = lesson["meta"]["activities"] if lesson else []
    if not 0 <= number < len(activities):
        raise AppError(404, "There is no such activity in this lesson.")
    return lesson, activities[number]


@bp.post("/<slug>/activities/<int:number>")
def launch(slug, number):
    """Start an activity of a lesson in one click: a practice round, a quiz, or the timeline."""
    lesson, activity = activity_of(slug, number)
    kind = activity["type"]
    if kind == "timeline":
        return redirect(url_for("timeline.timeline", cards=",".join(activity["cards"]), scale=activity.get("scale", "linear")))
    if kind == "practice":
        game, tokens = gameplay.create_practice(activity["deck"], activity["characteristic"], activity["count"],
                                                activity.get("mode", "line"), label=lesson["meta"]["title"])
        from webapp.play import remember_seats
        remember_seats(game.id, tokens)
        return redirect(url_for("practice.show", game_id=game.id))
    if kind == "quiz":
        return quizzes.start(quiz_settings(lesson, activity))
    if kind == "round":
        return redirect(url_for("lessons.launch_round", slug=slug, number=number), code=307)
    raise AppError(400, "This activity cannot be launched here.")


def quiz_settings(lesson, activity):
    """Return the settings of a lesson's quiz activity."""
    return {"title": activity.get("label") or lesson["meta"]["title"], "kinds": activity.get("kinds", []),
            "count": activity.get("count", 8), "difficulty": activity.get("difficulty", "medium"),
            "deck": activity.get("deck", "dinosaurs"), "bank": lesson["bank"] if activity.get("bank") else []}


@bp.post("/<slug>/activities/<int:number>/round")
@teacher_required
def launch_round(slug, number):
    """Create a classroom round from a lesson's activity (a class line, or its quiz run live)."""
    lesson, activity = activity_of(slug, number)
    title = activity.get("label") or lesson["meta"]["title"]
    if activity["type"] == "round":
        settings = {"deck": activity["deck"], "characteristic": activity["characteristic"], "choice": "all",
                    "count": activity["count"], "hand_size": 4, "turn_seconds": activity.get("turn_seconds", 30),
                    "leaderboard": "every", "teams": 2, "team_mode": "captain"}
        rnd = classrooms.create_round(g.teacher, title, "class_line", settings)
    elif activity["type"] == "quiz":
        rnd = classrooms.create_quiz_round(g.teacher, title, quizzes.draw(quiz_settings(lesson, activity)),
                                           activity.get("turn_seconds", 30))
    else:
        raise AppError(400, "Only rounds and quizzes can be run for the class.")
    return redirect(url_for("classroom.round_page", round_id=rnd.id))
