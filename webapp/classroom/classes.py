"""Class rosters in the database: pupils' display names and personal codes, erasure and export.

A child is asked for nothing: the teacher types a first name and an initial ("Ava Kowalski" is kept as
"Ava K."), and the app gives each pupil a personal code to print on a slip.
"""

import io
import re
import secrets
import zipfile

import pandas as pd
from sqlalchemy import delete, func, select

from webapp.classroom import erasure, exports
from webapp.classroom.formats import format_of
from webapp.common import codes, nicknames
from webapp.errors import AppError
from webapp.extensions import db
from webapp.models import Pupil, PupilDevice, Round, SchoolClass

CODE_LENGTH = 6
CODE_TRIES = 20  # 23**6 codes: a clash is rare, twenty in a row means something is wrong
MAX_PUPILS = 60


def roster_names(text):
    """Return the names in a typed or pasted list: one per line, or separated by commas or tabs."""
    return [name.strip() for name in re.split(r"[\n,;\t]+", text or "") if name.strip()]


def display_name(name):
    """Return the least of a name a class list needs: the first name and the last name's initial."""
    words = nicknames.tidy(name).split()
    if len(words) > 1:
        last = words[-1]
        # An initial the teacher wrote ("K", "Ko.") stays as written; a surname becomes its initial.
        words = [words[0], last if last.endswith(".") or len(last) == 1 else f"{last[0].upper()}."]
    return " ".join(words)


def name_problems(names, taken=()):
    """Return what is wrong with a list of new pupils' names (empty when nothing), in words."""
    problems, seen = [], {nicknames.key(n) for n in taken}
    for name in names:
        shown = display_name(name)
        reason = nicknames.problem(shown)
        if reason:
            problems.append(f"{name}: {reason}")
        elif nicknames.key(shown) in seen:
            problems.append(f"{name}: the class already has a {shown}; add a letter to tell them apart (\"{shown[:-1]}x.\")")
        seen.add(nicknames.key(shown))
    return problems


def new_pupil_code():
    """Return a personal code no pupil has."""
    for _ in range(CODE_TRIES):
        code = "".join(secrets.choice(codes.ALPHABET) for _ in range(CODE_LENGTH))
        if db.session.scalar(select(Pupil.id).where(Pupil.code == code)) is None:
            return code
    raise AppError(503, "No free personal code was found just now. Please try again.")


def create_class(teacher, name, names):
    """Create a class with its roster; return it."""
    school_class = SchoolClass(teacher_id=teacher.id, name=name.strip())
    db.session.add(school_class)
    db.session.flush()
    add_pupils(school_class, names)
    return school_class


def add_pupils(school_class, names):
    """Add pupils to a class (names checked by the form), each with a new personal code."""
    if len(pupils_of(school_class)) + len(names) > MAX_PUPILS:
        raise AppError(400, f"A class holds at most {MAX_PUPILS} pupils.")
    for name in names:
        shown = display_name(name)
        db.session.add(Pupil(class_id=school_class.id, display_name=shown, name_key=nicknames.key(shown),
                             code=new_pupil_code()))
    db.session.commit()


def pupils_of(school_class):
    """Return the class's pupils in name order."""
    return db.session.scalars(select(Pupil).where(Pupil.class_id == school_class.id)
                              .order_by(Pupil.name_key, Pupil.id)).all()


def teacher_classes(teacher):
    """Return the teacher's classes with how many pupils each has, by name."""
    counts = dict(db.session.execute(select(Pupil.class_id, func.count()).join(SchoolClass)
                                     .where(SchoolClass.teacher_id == teacher.id).group_by(Pupil.class_id)).all())
    classes = db.session.scalars(select(SchoolClass).where(SchoolClass.teacher_id == teacher.id)
                                 .order_by(SchoolClass.name, SchoolClass.id)).all()
    return [(school_class, counts.get(school_class.id, 0)) for school_class in classes]


def teacher_class(class_id, teacher):
    """Return the teacher's class, refusing anyone else's (404 for none, 403 for another teacher's)."""
    school_class = db.session.get(SchoolClass, class_id)
    if school_class is None:
        raise AppError(404, "There is no class with that number.")
    if school_class.teacher_id != teacher.id:
        raise AppError(403, "This class belongs to another teacher.")
    return school_class


def class_pupil(school_class, pupil_id):
    """Return one of the class's pupils, or a 404."""
    pupil = db.session.get(Pupil, pupil_id)
    if pupil is None or pupil.class_id != school_class.id:
        raise AppError(404, "There is no such pupil in this class.")
    return pupil


def rename_pupil(school_class, pupil, name):
    """Give a pupil another display name (their students in past rounds keep the name they played under)."""
    others = [p.display_name for p in pupils_of(school_class) if p.id != pupil.id]
    problems = name_problems([name], others)
    if problems:
        raise AppError(400, problems[0])
    pupil.display_name = display_name(name)
    pupil.name_key = nicknames.key(pupil.display_name)
    db.session.commit()


def new_code_for(pupil):
    """Give a pupil a new personal code: the old slip stops working, and so do the browsers it linked to their
    tricky cards (a lost slip is why a teacher gives a new one)."""
    pupil.code = new_pupil_code()
    db.session.execute(delete(PupilDevice).where(PupilDevice.pupil_id == pupil.id))
    db.session.commit()


def class_rounds(school_class):
    """Return the rounds held for the class, newest first."""
    return db.session.scalars(select(Round).where(Round.class_id == school_class.id).order_by(Round.id.desc())).all()


def erase_pupil(pupil):
    """Delete one pupil and all of their data."""
    erasure.erase_pupils([pupil.id])
    db.session.commit()


def erase_class(school_class):
    """Delete a class: its pupils and all their data, and the rounds held for it with every answer in them."""
    erasure.delete_class(school_class)


def class_export(school_class):
    """Return everything about a class as a zip of CSVs a spreadsheet opens right: the roster, its rounds, and
    each of the results tables of every round (answers, students) one below the other."""
    roster = pd.DataFrame([{"pupil": p.display_name, "personal_code": p.code, "added": p.created_at.date().isoformat()}
                           for p in pupils_of(school_class)], columns=["pupil", "personal_code", "added"])
    rounds = class_rounds(school_class)
    listing = pd.DataFrame([{"round": r.title, "date": exports.round_date(r), "format": format_of(r).short_label,
                             "status": r.status, "code": r.code} for r in reversed(rounds)],
                           columns=["round", "date", "format", "status", "code"])
    tables = {}
    for rnd in reversed(rounds):
        for name, frame in format_of(rnd).export_tables(rnd).items():
            tables.setdefault(name, []).append(frame)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("roster.csv", exports.csv_bytes(roster))
        archive.writestr("rounds.csv", exports.csv_bytes(listing))
        for name, frames in tables.items():
            archive.writestr(f"{name}.csv", exports.csv_bytes(pd.concat(frames, ignore_index=True)))
    return buffer.getvalue()
