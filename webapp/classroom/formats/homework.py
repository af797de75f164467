"""Homework (self-paced): each student plays the same seeded sorting challenge alone while the teacher keeps it open."""

from typing import ClassVar

from flask import url_for
from sqlalchemy import select

from webapp import live
from webapp.classroom import exports, results
from webapp.classroom.clock import now
from webapp.classroom.formats.base import PARTIALS, RoundFormat
from webapp.classroom.roster import as_student
from webapp.extensions import db
from webapp.games import practice
from webapp.games import rounds as machine
from webapp.games.rounds.formats import HomeworkRules, when
from webapp.models import Game, Round, Student
from webapp.play import store
from webapp.play.adapters.practice import start_practice

GATE = "homework"  # the name its students' games carry in their settings


def homework_moved(session, game, how):
    """Return the change a move in a student's homework game is: the teacher's screens show their progress."""
    if how != "dirty" or game.settings.get("gate") != GATE:
        return None
    round_id = session.scalar(select(Student.round_id).where(Student.game_id == game.id))
    return round_id is not None and (round_id, live.ANSWER)


def timetable(rnd):
    """Say when the homework opens and closes, in the teacher's time zone ("" when the teacher does it by hand)."""
    settings, zone = rnd.settings, rnd.settings.get("timezone")
    parts = [f"{label} {when(settings[key], zone)}" for key, label in (("opens_at", "opens"), ("closes_at", "closes"))
             if settings.get(key) is not None]
    return ("The homework " + " and ".join(parts) + ".") if parts else ""


class Homework(RoundFormat):
    name = "self_paced"
    label = "Self-paced challenge (homework)"
    choice = "Self-paced challenge: homework, each student alone"
    rules = HomeworkRules(practice)
    live = False
    ranks_students = False
    control_words: ClassVar[dict] = {"start": "Open the homework", "end": "Close the homework"}
    result_tables: ClassVar[dict] = {"students": "each student's score", "answers": "every card of every student"}
    truth = "True value"  # what the results call the right answer to an item

    def partial(self, viewer):
        """Every homework shares the self-paced partials (each student's progress, the items hardest first)."""
        return f"{PARTIALS[viewer]}/self_paced.html"

    def init_app(self, app):
        store.register_gate(app, GATE, self.closed_for)
        live.watch(app, Game, homework_moved)

    def joined(self, rnd, student):
        settings = rnd.settings
        game, tokens = start_practice(settings["deck"], settings["characteristic"], settings["count"],
                                      settings.get("mode", "line"), seed=settings["seed"], label=rnd.title, gate=GATE)
        student.game_id = game.id
        return tokens

    def student_page(self, rnd, student):
        return url_for("play.game", kind="practice", game_id=student.game_id)

    def students_frame(self, rnd):
        """Return each student's progress and score (pandas: nickname, answered, score, out_of, ..., status)."""
        return results.self_paced_frame(rnd)

    def answers_table(self, rnd):
        """Return a row per student and item of the homework, numbered as on screen (pandas)."""
        return results.self_paced_answers(rnd)

    def item_report(self, answers):
        """Return per item of the homework: how many answered it and got it right, hardest first."""
        return results.self_paced_card_report(answers)

    def teacher_context(self, rnd, students, turn_answers):
        return {"results": self.students_frame(rnd).to_dict("records"),
                "card_report": self.item_report(self.answers_table(rnd)), "timetable": timetable(rnd)}

    def progress(self, rnd, obs):
        return {"lobby": "Homework: not open yet", "finished": "Homework closed"}.get(rnd.status, "Homework is open")

    def export_tables(self, rnd):
        students = self.students_frame(rnd).rename(columns={"nickname": "student"})
        return {"students": exports.with_round(rnd, students),
                "answers": exports.with_round(rnd, self.answers_table(rnd))}


    def closed_for(self, game):
        """Return why a student's homework game takes no move now (the round not open yet, or closed), or None."""
        student = db.session.scalar(select(Student).where(Student.game_id == game.id))
        rnd = student and db.session.get(Round, student.round_id)
        if rnd is None:
            return None
        try:
            machine.answer(self.machine(rnd), as_student(student), [], [], None, None, now().timestamp())
        except machine.Refused as refused:
            return str(refused)
        return None
