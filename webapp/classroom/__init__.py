"""Classroom rounds: the round's life (rounds), the teacher's pages (teacher), the students' pages (student), results."""

from flask import Blueprint

bp = Blueprint("classroom", __name__)


def register(app):
    """Register this feature's routes on the app (imported here, so importing a service never loads pages)."""
    from webapp.classroom import account, class_pages, push, question_pages, stage, student, teacher  # noqa: F401
    from webapp.classroom.formats import FORMATS
    from webapp.games.rounds.clock import EXTRA_TIME_STEP, more_time

    app.register_blueprint(bp)
    from webapp.classroom.questions import answer_words

    app.jinja_env.globals.update(extra_time_step=EXTRA_TIME_STEP, more_time=more_time, team_names=team_names,
                                 question_answer=answer_words)
    push.watch_rounds(app)
    for fmt in FORMATS.values():
        fmt.init_app(app)


def team_names(rnd):
    """Return {team number: its name} of a round (the names its screens show; none without teams)."""
    from webapp.classroom.formats import format_of

    return format_of(rnd).team_names(rnd)
