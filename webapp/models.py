"""Database models: cards, the works they cite, geological periods, and mistake reports."""

import re
from datetime import UTC, datetime

from sqlalchemy import JSON, BigInteger, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from cards_db.loader import split_fields, split_list
from webapp.extensions import db

API_FIELDS = [
    "slug", "deck", "common_name", "scientific_name", "group", "diet", "diet_detail",
    "first_period", "last_period", "first_appearance_ma", "last_appearance_ma", "length_m",
    "length_low_m", "length_high_m", "mass_kg", "mass_low_kg", "mass_high_kg", "lifespan_years",
    "lifespan_record_years", "family", "iucn_status", "name_meaning", "pronunciation", "named_by", "named_year", "fact",
]
LIST_FIELDS = ["continents", "countries", "habitat"]


class Period(db.Model):
    """A geological period of the ICS chart (Cambrian to Quaternary)."""

    __tablename__ = "periods"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    era: Mapped[str] = mapped_column(String(40))
    position: Mapped[int] = mapped_column(Integer, unique=True)
    start_ma: Mapped[float] = mapped_column(Float)
    end_ma: Mapped[float] = mapped_column(Float)
    color_hex: Mapped[str] = mapped_column(String(7))
    label_text_color: Mapped[str] = mapped_column(String(10))
    climate: Mapped[str] = mapped_column(Text, default="")
    climate_source: Mapped[str] = mapped_column(Text, default="")

    @property
    def slug(self):
        return self.name.lower()

    def to_dict(self):
        """Return the period as the API shows it."""
        return {
            "name": self.name, "era": self.era, "position": self.position,
            "start_ma": self.start_ma, "end_ma": self.end_ma, "color_hex": self.color_hex,
            "label_text_color": self.label_text_color, "climate": self.climate,
        }


class Card(db.Model):
    """One card of a deck: an animal and its characteristics."""

    __tablename__ = "cards"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(80), unique=True, index=True)
    deck: Mapped[str] = mapped_column(String(20), index=True)
    common_name: Mapped[str] = mapped_column(String(120))
    scientific_name: Mapped[str] = mapped_column(String(120))
    group: Mapped[str] = mapped_column(String(40), index=True)
    body_plan: Mapped[str] = mapped_column(String(40))
    family: Mapped[str | None] = mapped_column(String(80))
    diet: Mapped[str | None] = mapped_column(String(20))
    diet_detail: Mapped[str | None] = mapped_column(String(20))
    first_period: Mapped[str | None] = mapped_column(String(40))
    last_period: Mapped[str | None] = mapped_column(String(40))
    first_appearance_ma: Mapped[float | None] = mapped_column(Float)
    last_appearance_ma: Mapped[float | None] = mapped_column(Float)
    size_measure: Mapped[str | None] = mapped_column(String(40))
    length_m: Mapped[float | None] = mapped_column(Float)
    length_low_m: Mapped[float | None] = mapped_column(Float)
    length_high_m: Mapped[float | None] = mapped_column(Float)
    mass_kg: Mapped[float | None] = mapped_column(Float)
    mass_low_kg: Mapped[float | None] = mapped_column(Float)
    mass_high_kg: Mapped[float | None] = mapped_column(Float)
    lifespan_years: Mapped[float | None] = mapped_column(Float)
    lifespan_record_years: Mapped[float | None] = mapped_column(Float)
    continents: Mapped[str | None] = mapped_column(Text)
    countries: Mapped[str | None] = mapped_column(Text)
    habitat: Mapped[str | None] = mapped_column(String(60))
    name_meaning: Mapped[str | None] = mapped_column(Text)
    pronunciation: Mapped[str | None] = mapped_column(String(120))
    named_by: Mapped[str | None] = mapped_column(Text)
    named_year: Mapped[int | None] = mapped_column(Integer)
    iucn_status: Mapped[str | None] = mapped_column(String(2))
    fact: Mapped[str] = mapped_column(Text)
    notes: Mapped[str | None] = mapped_column(Text)
    citations: Mapped[list["Citation"]] = relationship(
        back_populates="card", order_by="Citation.position", cascade="all, delete-orphan")

    def works_by_field(self):
        """Return {field: [Source, ...]}: the works cited for each of the card's fields, in file order."""
        works = {}
        for citation in self.citations:
            for field in citation.field_list:
                works.setdefault(field, [])
                if citation.source not in works[field]:
                    works[field].append(citation.source)
        return works

    def empty_reason(self, column):
        """Return why a value is empty, from the notes' '<column> empty: <why>' line, or ''."""
        _, found, rest = (self.notes or "").partition(f"{column} empty:")
        if not found:
            return ""
        reason = re.split(r"(?<=[.;])\s+(?=[A-Za-z_]+ (?:empty|range):|[A-Z])", rest.strip(), maxsplit=1)[0]
        return reason.rstrip(" .;")

    def items(self, field):
        """Return a list field ('continents', 'countries', 'habitat') as a list."""
        return split_list(getattr(self, field) or "")

    def to_dict(self):
        """Return the card as the API shows it."""
        data = {name: getattr(self, name) for name in API_FIELDS}
        data["sources"] = {field: [work.to_dict() for work in works] for field, works in self.works_by_field().items()}
        data.update({name: self.items(name) for name in LIST_FIELDS})
        data["size_measure"] = self.size_measure
        data["body_plan"] = self.body_plan
        return data


class Source(db.Model):
    """A work cards cite: a paper, a data set, a museum's page, a reference work... (sources.csv)."""

    __tablename__ = "sources"
    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), index=True)
    authors: Mapped[str | None] = mapped_column(Text)
    title: Mapped[str] = mapped_column(Text)
    container: Mapped[str | None] = mapped_column(Text)
    year: Mapped[int | None] = mapped_column(Integer)
    doi: Mapped[str | None] = mapped_column(String(200))
    url: Mapped[str | None] = mapped_column(Text)
    citations: Mapped[list["Citation"]] = relationship(back_populates="source", order_by="Citation.position")

    @property
    def doi_url(self):
        """Return the DOI as a link, or None."""
        return f"https://doi.org/{self.doi}" if self.doi else None

    @property
    def link(self):
        """Return where the work can be read: its DOI, else its own page, or None."""
        return self.doi_url or self.url

    @property
    def short_name(self):
        """Name the work in a few words, as a card page writes it beside a value ("Benson et al. 2014")."""
        if self.kind in ("paper", "dataset") and self.authors:
            names = [name.split(",")[0].strip() for name in self.authors.split(";") if name.strip()]
            who = names[0] if len(names) == 1 else f"{names[0]} & {names[1]}" if len(names) == 2 else f"{names[0]} et al."
            return f"{who} {self.year}" if self.year else who
        if self.kind == "wikipedia":
            return f"Wikipedia, “{self.title}”"
        if self.kind in ("museum", "university", "government", "zoo") and self.authors:
            return self.authors
        return self.title

    @property
    def reference(self):
        """Write the citation without its DOI: authors (year). Title. Container."""
        parts = [f"{self.authors} ({self.year})." if self.authors and self.year else
                 f"{self.authors}." if self.authors else f"({self.year})." if self.year else "",
                 f"{self.title.rstrip('.')}.", f"{self.container.rstrip('.')}." if self.container else ""]
        return " ".join(part for part in parts if part)

    @property
    def citation(self):
        """Write the full citation: authors (year). Title. Container. doi:…"""
        return f"{self.reference} doi:{self.doi}" if self.doi else self.reference

    def to_dict(self):
        """Return the work as the API shows it."""
        return {"id": self.id, "kind": self.kind, "citation": self.citation, "url": self.link}


class Citation(db.Model):
    """One card's citation of one work, for some of its fields (citations.csv)."""

    __tablename__ = "citations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"), index=True)
    source_id: Mapped[str] = mapped_column(ForeignKey("sources.id"), index=True)
    fields: Mapped[str] = mapped_column(Text)
    detail: Mapped[str | None] = mapped_column(Text)
    position: Mapped[int] = mapped_column(Integer)
    card: Mapped[Card] = relationship(back_populates="citations")
    source: Mapped[Source] = relationship(back_populates="citations")

    @property
    def field_list(self):
        """Return the card fields this citation supports."""
        return split_fields(self.fields)


class MistakeReport(db.Model):
    """A reader's report that something on a card is wrong, kept for review."""

    __tablename__ = "mistake_reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_slug: Mapped[str] = mapped_column(String(80), index=True)
    field: Mapped[str] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(Text)
    suggested_source: Mapped[str | None] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20), default="open")
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=lambda: datetime.now(UTC)
    )


class Game(db.Model):
    """A game of any engine, stored after every move; `version` guards against racing moves."""

    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    mode: Mapped[str] = mapped_column(String(20))
    seed: Mapped[int] = mapped_column(Integer)
    settings: Mapped[dict] = mapped_column(JSON)
    seats: Mapped[list] = mapped_column(JSON)
    state: Mapped[dict] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=lambda: datetime.now(UTC))
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=lambda: datetime.now(UTC),
        onupdate=lambda: datetime.now(UTC))

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 (SQLAlchemy reads it as is)


class JoinCode(db.Model):
    """A short code that lets people join a game's open seats from their own devices."""

    __tablename__ = "join_codes"
    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(24), ForeignKey("games.id"), index=True)


class Extinction(db.Model):
    """One of the five great mass extinctions."""

    __tablename__ = "extinctions"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    ma: Mapped[float] = mapped_column(Float)
    period_ending: Mapped[str] = mapped_column(String(40))
    explanation: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(Text)


class CardData(db.Model):
    """Which version of the card files the database holds: the digest of the files last loaded."""

    __tablename__ = "card_data"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    digest: Mapped[str] = mapped_column(String(64))


class CardSet(db.Model):
    """A named, saved selection of cards, reusable on the timeline and in charts."""

    __tablename__ = "card_sets"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    slugs: Mapped[list] = mapped_column(JSON)
    # None: a set anyone saved from the timeline; otherwise a teacher's own set.
    teacher_id: Mapped[int | None] = mapped_column(ForeignKey("teachers.id"), index=True)
    # A code that lets a colleague open (and copy) the set; None until its teacher shares it.
    share_code: Mapped[str | None] = mapped_column(String(16), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


class Teacher(db.Model):
    """A teacher's account: rounds and card sets belong to it."""

    __tablename__ = "teachers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


class TeacherQuestion(db.Model):
    """A question a teacher wrote: multiple choice (options, the right one) or put in order (items, in order)."""

    __tablename__ = "teacher_questions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))  # "choice" or "order"
    prompt: Mapped[str] = mapped_column(Text)
    options: Mapped[list] = mapped_column(JSON)  # a choice's options, or the items in the right order
    answer: Mapped[int | None] = mapped_column(Integer)  # the right option of a choice
    explanation: Mapped[str] = mapped_column(Text, default="")
    share_code: Mapped[str | None] = mapped_column(String(16), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


class SchoolClass(db.Model):
    """A teacher's class: a roster of pupils who are the same students in every round for the class."""

    __tablename__ = "classes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


class Pupil(db.Model):
    """A child on a class roster: a display name (a first name and an initial) and a personal code, nothing else."""

    __tablename__ = "pupils"
    __table_args__ = (UniqueConstraint("class_id", "name_key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id"), index=True)
    display_name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str] = mapped_column(String(24))
    # Printed on the child's slip, so kept as it is typed (not a secret from their teacher); unique everywhere.
    code: Mapped[str] = mapped_column(String(8), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


class Round(db.Model):
    """A classroom round a teacher hosts; its students join with `code`."""

    __tablename__ = "rounds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(8), unique=True, index=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"), index=True)
    format: Mapped[str] = mapped_column(String(20))
    title: Mapped[str] = mapped_column(String(120))
    status: Mapped[str] = mapped_column(String(20), default="lobby")
    settings: Mapped[dict] = mapped_column(JSON)
    state: Mapped[dict] = mapped_column(JSON, default=dict)
    # The server's clock for the current turn: when it started, and pause bookkeeping.
    turn_started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A round for a class: its pupils join by picking their name and typing their personal code.
    class_id: Mapped[int | None] = mapped_column(ForeignKey("classes.id"), index=True)
    archived_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A code that lets a colleague copy the round's set-up (never its students) into their own rounds.
    share_code: Mapped[str | None] = mapped_column(String(16), unique=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012 (SQLAlchemy reads it as is)


class Student(db.Model):
    """A student in a round: a nickname and the hash of the token in their browser's cookie."""

    __tablename__ = "students"
    __table_args__ = (UniqueConstraint("round_id", "nickname_key"), UniqueConstraint("round_id", "pupil_id"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    nickname: Mapped[str] = mapped_column(String(24))
    nickname_key: Mapped[str] = mapped_column(String(24))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    team: Mapped[int | None] = mapped_column(Integer)
    removed: Mapped[bool] = mapped_column(default=False)
    extra_seconds: Mapped[int] = mapped_column(Integer, default=0)
    # Self-paced rounds: the student's own practice game.
    game_id: Mapped[str | None] = mapped_column(String(24))
    # In a round for a class, the pupil this student is (one student per pupil and round).
    pupil_id: Mapped[int | None] = mapped_column(ForeignKey("pupils.id"), index=True)
    # The device the student last left for another: it is told so, and cannot join again as someone new.
    moved_token_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    # A one-time code the teacher gave to let the student back in on a new device (its hash).
    rejoin_code_hash: Mapped[str | None] = mapped_column(String(64))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


class Answer(db.Model):
    """One student's placement in one turn of a round; the unique key counts it exactly once."""

    __tablename__ = "answers"
    __table_args__ = (UniqueConstraint("round_id", "student_id", "turn"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("students.id"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    card: Mapped[str] = mapped_column(String(80))
    gap: Mapped[int] = mapped_column(Integer)
    correct: Mapped[bool | None] = mapped_column()
    seconds: Mapped[float] = mapped_column(Float)
    answered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


class Throttle(db.Model):
    """A counter kept to slow down guessing and flooding: failed guesses of a code or password, or creations from an
    address, keyed by what is counted (in the database, so every app process sees the same count)."""

    __tablename__ = "throttles"
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # Guessing: the next try is refused before this time (backoff grows with the failures).
    next_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class TeacherSession(db.Model):
    """A teacher's logged-in browser: its cookie holds a token whose hash is the id, so logging out (here or
    everywhere) or changing the password ends every copy of that cookie."""

    __tablename__ = "teacher_sessions"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    teacher_id: Mapped[int] = mapped_column(ForeignKey("teachers.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


class Housekeeping(db.Model):
    """When a periodic job (forgetting old data) last ran, so one process a day runs it."""

    __tablename__ = "housekeeping"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    last_run_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PupilDevice(db.Model):
    """A browser a pupil linked with their personal code to keep their tricky cards on the school's server: its
    cookie holds a token whose hash is the id."""

    __tablename__ = "pupil_devices"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupils.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC),
                                                   index=True)


class PupilPlacement(db.Model):
    """One card a pupil placed, kept for "My tricky cards": what their browser's history holds, nothing more."""

    __tablename__ = "pupil_placements"
    # A placement is the same one on every device: its card at its time (in milliseconds, as the browser has it).
    __table_args__ = (UniqueConstraint("pupil_id", "at_ms", "card"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pupil_id: Mapped[int] = mapped_column(ForeignKey("pupils.id"), index=True)
    card: Mapped[str] = mapped_column(String(80))
    by: Mapped[str] = mapped_column(String(80))  # the characteristic it was sorted by
    right: Mapped[bool] = mapped_column()
    close: Mapped[bool] = mapped_column(default=False)
    passed: Mapped[list] = mapped_column(JSON)  # the cards it was put on the wrong side of
    beside: Mapped[list] = mapped_column(JSON)  # the cards either side of where it belongs
    game: Mapped[str] = mapped_column(String(80), default="")
    at_ms: Mapped[int] = mapped_column(BigInteger, index=True)
