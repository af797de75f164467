"""Classroom rounds: the round's life (rounds), the teacher's pages (teacher), the students' pages (student), results."""

from flask import Blueprint

bp = Blueprint("classroom", __name__)


def register(app):
    """Register this feature's routes on the app (imported here, so importing a service never loads pages)."""
    from webapp.classroom import stage, student, teacher  # noqa: F401  (their routes register on bp)
    from webapp.classroom.formats import FORMATS
    from webapp.games.rounds.clock import EXTRA_TIME_STEP, more_time

    app.register_blueprint(bp)
    app.jinja_env.globals.update(extra_time_step=EXTRA_TIME_STEP, more_time=more_time)
    for fmt in FORMATS.values():
        fmt.init_app(app)
