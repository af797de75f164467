"""What is forgotten when, and the app running it once a day across all its processes (no cron job needed).

Due, with the school's settings (webapp.config.SCHOOL_SETTINGS):
- a round finished ROUND_DAYS_KEPT days ago, or never finished and untouched that long (no turn, join, answer or
  homework move), with its students, their answers and homework games; its join code is free again;
- a game nobody moved in for GAME_DAYS_KEPT days, with its join codes, unless a round still kept shows it;
- a pupil's tricky-card placement made PRACTICE_DAYS_KEPT days ago, and a browser linked to keep them unused that long;
- counters of guesses and creations a day or two old, and teachers' logins past their lifetime.
Mistake reports are kept: they hold no personal data.
"""

from datetime import UTC, datetime, timedelta

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy import and_, delete, exists, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from webapp.classroom import erasure
from webapp.common import limits
from webapp.extensions import db
from webapp.models import Answer, Game, Housekeeping, PupilDevice, PupilPlacement, Round, Student, TeacherSession

JOB = "forget"  # its row in the housekeeping table
EVERY = timedelta(days=1)
RETRY_AFTER = timedelta(hours=1)  # after a failed run, this process waits this long before trying again
BATCH = 200  # rows deleted per transaction: a first run on a big database never holds SQLite's write lock for long


def now():
    """Return the time the job goes by (tests move it on)."""
    return datetime.now(UTC)


def round_is_due(cutoff):
    """Return the condition on Round of a round due to be forgotten when what happened before `cutoff` goes."""
    answered = exists().where(Answer.round_id == Round.id, Answer.answered_at >= cutoff)
    joined = exists().where(Student.round_id == Round.id, Student.joined_at >= cutoff)
    moved = exists().where(Student.round_id == Round.id, Game.id == Student.game_id, Game.updated_at >= cutoff)
    untouched = and_(Round.finished_at.is_(None), Round.created_at < cutoff,
                     or_(Round.turn_started_at.is_(None), Round.turn_started_at < cutoff), ~answered, ~joined, ~moved)
    return or_(Round.finished_at < cutoff, untouched)


def game_is_due(cutoff):
    """Return the condition on Game of a game nobody moved in since `cutoff` and no round shows."""
    return and_(Game.updated_at < cutoff, ~exists().where(Student.game_id == Game.id))


def in_batches(query, erase):
    """Erase the rows whose ids `query` selects, a batch per transaction; return how many went."""
    total = 0
    while ids := list(db.session.scalars(query.limit(BATCH))):
        erase(ids)
        db.session.commit()
        total += len(ids)
    return total


def forget_practice(cutoff):
    """Delete pupils' tricky-card placements made before `cutoff`, and linked browsers unused since; return how
    many placements went."""
    milliseconds = (cutoff - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)
    placements = in_batches(select(PupilPlacement.id).where(PupilPlacement.at_ms < milliseconds),
                            lambda ids: db.session.execute(delete(PupilPlacement).where(PupilPlacement.id.in_(ids))))
    db.session.execute(delete(PupilDevice).where(PupilDevice.last_seen_at < cutoff))
    db.session.commit()
    return placements


def forget(at=None):
    """Delete everything due at `at` (now by default); return how many rounds, games, logins and tricky-card
    placements went."""
    at = at or now()
    config = current_app.config
    rounds = in_batches(select(Round.id).where(round_is_due(at - timedelta(days=config["ROUND_DAYS_KEPT"]))),
                        erasure.erase_rounds)
    # After the rounds: a homework game of a round just forgotten went with it, one of a kept round stays.
    games = in_batches(select(Game.id).where(game_is_due(at - timedelta(days=config["GAME_DAYS_KEPT"]))),
                       erasure.erase_games)
    logins = db.session.execute(delete(TeacherSession).where(
        TeacherSession.created_at < at - current_app.permanent_session_lifetime)).rowcount
    db.session.commit()
    placements = forget_practice(at - timedelta(days=config["PRACTICE_DAYS_KEPT"]))
    limits.forget_old(at)
    return {"rounds": rounds, "games": games, "logins": logins, "placements": placements}


def claim_the_day(at):
    """Take the job's run for this day if no process ran it in the last day; return whether this one did.

    One atomic statement decides: two processes racing both try, the database lets exactly one change the row.
    """
    # RETURNING, not rowcount: psycopg reports -1 rows for an INSERT ... ON CONFLICT DO NOTHING.
    claimed = db.session.execute(update(Housekeeping).where(Housekeeping.name == JOB,
                                                            Housekeeping.last_run_at < at - EVERY)
                                 .values(last_run_at=at).returning(Housekeeping.name)).first() is not None
    if not claimed:  # no row yet (the first run ever), or it ran within the day
        insert = (postgresql if db.engine.dialect.name == "postgresql" else sqlite).insert(Housekeeping)
        claimed = db.session.execute(insert.values(name=JOB, last_run_at=at)
                                     .on_conflict_do_nothing(index_elements=["name"])
                                     .returning(Housekeeping.name)).first() is not None
    db.session.commit()
    return claimed


def last_run():
    """Return when the job last ran (None: never)."""
    moment = db.session.scalar(select(Housekeeping.last_run_at).where(Housekeeping.name == JOB))
    return moment if moment is None or moment.tzinfo else moment.replace(tzinfo=UTC)


def record_run(at):
    """Note that the job ran at `at` (a run by hand counts as the day's)."""
    if not claim_the_day(at):
        db.session.execute(update(Housekeeping).where(Housekeeping.name == JOB).values(last_run_at=at))
        db.session.commit()


class DailyRun:
    """Run forget() at most once a day across every process, after a response is sent, when FORGET_DAILY is 1.

    The database decides who runs it (claim_the_day); this process only remembers when it is next worth asking,
    so every other request costs no query at all.
    """

    def __init__(self, app):
        self.app = app
        self.next_look = None  # before this time the job cannot be due: no need to ask the database

    def after_request(self, response):
        """Have the job looked at once this response is sent, if it may be due."""
        if self.app.config["FORGET_DAILY"] and (self.next_look is None or now() >= self.next_look):
            response.call_on_close(self.run_if_due)
        return response

    def run_if_due(self):
        """Run the job if no process has run it in the last day; never raise (a request must not fail for it)."""
        with self.app.app_context():
            at = now()
            try:
                if claim_the_day(at):
                    self.next_look = at + EVERY
                    forgotten = forget(at)
                    self.app.logger.info("forgot what was due: %s", forgotten)
                else:
                    self.next_look = (last_run() or at) + EVERY
            except Exception:
                db.session.rollback()
                self.next_look = at + RETRY_AFTER
                self.app.logger.exception("forgetting what was due failed; it is tried again within the hour")


@click.command("forget")
@with_appcontext
def forget_command():
    """Delete the children's data that is due now: old rounds, games and counters (see the README's privacy note)."""
    at = now()
    forgotten = forget(at)
    record_run(at)
    click.echo(f"Deleted {forgotten['rounds']} rounds (with their students, answers and homework), "
               f"{forgotten['games']} games, {forgotten['logins']} old teacher logins and "
               f"{forgotten['placements']} old placements of pupils' tricky cards; "
               "old counters of guesses are cleared.")
