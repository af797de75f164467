"""The rules of each kind of round for the state machine: what a turn is, who answers, what ends it, how it is judged.

One rules object per format, owned by its format object (webapp.classroom.formats); the round's life itself is in
webapp.games.rounds. Engines are reached through their protocol (webapp.games.protocol.ClassEngine, or the
game Engine for team Cardline).
"""

from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from typing import ClassVar
from zoneinfo import ZoneInfo

from webapp.games import cardline
from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.rounds.core import Change, Refused


def when(seconds, zone=None):
    """Write a moment for people, in a time zone ("Tuesday 2 December at 08:00 (Europe/London)")."""
    tz = ZoneInfo(zone) if zone else UTC
    moment = datetime.fromtimestamp(seconds, tz)
    return f"{moment:%A} {moment.day} {moment:%B} at {moment:%H:%M} ({zone or 'UTC'})"


# A tie in a team's vote: the one rule, said the same on every screen.
TIED_VOTE_RULE = "On a tied vote, the move voted for first is played."


def refusing(step, *args):
    """Run an engine step; turn its IllegalAction into Refused with the same reason."""
    try:
        return step(*args)
    except IllegalAction as error:
        raise Refused(str(error)) from error


def reason_against(step, *args):
    """Return why an engine step would be refused now, or None."""
    try:
        step(*args)
    except IllegalAction as error:
        return str(error)
    return None


class Rules:
    """A format's rules: the defaults of a live round where the whole class answers."""

    engine = None  # its engine (a module offering the protocol)
    needs_students = True  # the round starts once someone has joined
    pausable = True
    teams = False
    whole_class = True  # everyone answers the same item, and the turn is due when all have answered
    closed: ClassVar[dict] = {"lobby": "The round has not started yet: wait for your teacher.", "paused": "The round is paused.",
                              "finished": "This round has finished."}

    @property
    def timed(self):
        """Say whether turns run against the teacher's clock: the engine declares it."""
        return self.engine.TYPE.timers

    def over(self, state):
        """Say whether the round's game has ended."""
        return self.engine.is_over(state)

    def ended(self, rnd, votes):
        """Return the change when the teacher ends the round: the answers already given to this turn are judged."""
        return Change(rnd, self.judged(rnd, votes) if votes and self.open(rnd) else {})

    def judged(self, rnd, votes):
        """Return whether each vote of this turn is right, without moving the round on."""
        return {}

    def answering(self, rnd, students):
        """Return who is expected to answer this turn."""
        return students

    def turn_changed(self, before, after):
        """Say whether a change started a new turn (its clock starts again)."""
        return self.turn(before) != self.turn(after)

    def due(self, rnd, students, votes, time_up):
        """Return the change the answers so far (or the clock) call for, or None."""

    def scheduled(self, rnd, now):
        """Return the round as its timetable has it at `now` (a homework opening or closing on time): by default as is."""
        return rnd

    def next_scheduled(self, rnd, now):
        """Return when the timetable next changes the round (seconds since the epoch), or None: by default never."""

    def closed_reason(self, rnd):
        """Return why no answer is taken in the round's status (not started, paused, finished), or None."""
        return self.closed.get(rnd.status)


class SharedItemRules(Rules):
    """Everyone answers the same item (a card's place, a bin, a question), then it is revealed."""

    def __init__(self, engine):
        self.engine = engine

    def new_state(self, config, seed):
        """Return the round's game from its engine config (raises InvalidConfig with a reason)."""
        return self.engine.new_game(config, seed)

    def open(self, rnd):
        return bool(self.engine.answers(rnd.state))

    def turn(self, state):
        return self.engine.observation(state)["turn"]

    def ended(self, rnd, votes):
        change = self.reveal(rnd, votes) if votes and self.open(rnd) else Change(rnd)
        return replace(change, round=replace(change.round, state=self.engine.end(change.round.state)))

    def check_answer(self, rnd, student, students, gap, card):
        if card is not None and card != self.engine.observation(rnd.state)["current"]:
            # A second tab, or a page from before the last reveal, answering an item the class has moved on from.
            raise Refused("That is not the card (or question) being answered now: the class has moved on. "
                          "Here is the one to answer.")
        refusing(self.engine.check_answer, rnd.state, gap)

    def why_not(self, rnd, action, students, votes):
        return reason_against(self.engine.apply, rnd.state, {"type": action})

    def turn_control(self, rnd, action, students, votes):
        if action == "reveal":
            return self.reveal(rnd, votes)
        return Change(replace(rnd, state=refusing(self.engine.apply, rnd.state, {"type": action})))

    def reveal(self, rnd, votes):
        """Turn the item over and judge every answer given to it by the right answers the reveal shows."""
        state = refusing(self.engine.apply, rnd.state, {"type": "reveal"})
        first, last = self.engine.observation(state)["last_reveal"]["right_gaps"]
        return Change(replace(rnd, state=state), {vote.student_id: first <= vote.gap <= last for vote in votes})

    def due(self, rnd, students, votes, time_up):
        answered = {vote.student_id for vote in votes}
        if time_up or (students and all(s.id in answered for s in students)):
            return self.reveal(rnd, votes)
        return None


class TeamCardlineRules(Rules):
    """Teams play the rulebook's Cardline: the captain places, or the team's majority vote does."""

    engine = cardline
    teams = True
    whole_class = False

    def new_state(self, config, seed):
        return cardline.new_game(config, seed)

    def open(self, rnd):
        return not cardline.is_over(rnd.state)

    def turn(self, state):
        return cardline.turn_number(state)

    def team(self, rnd):
        """Return the team whose turn it is."""
        return cardline.current_player(rnd.state)

    def answering(self, rnd, students):
        return [s for s in students if s.team == self.team(rnd)]

    def captain(self, rnd, students):
        """Return the captain of the team whose turn it is: its first member still in the round."""
        return next(iter(self.answering(rnd, [s for s in students if not s.removed])), None)

    def check_answer(self, rnd, student, students, gap, card):
        if student.team != self.team(rnd):
            raise Refused("It is another team's turn.")
        leader = self.captain(rnd, students)
        if rnd.settings.get("team_mode", "captain") == "captain" and leader and leader.id != student.id:
            raise Refused("Your team's captain places the card: tell them where you think it goes.")
        refusing(cardline.check, rnd.state, student.team, {"type": "place", "card": card, "gap": gap})

    def why_not(self, rnd, action, students, votes):
        if action == "next":
            return "That control does not apply to this round."
        if cardline.is_over(rnd.state):
            return "The game is over."
        if action == "reveal" and not votes:
            return "No team member has voted yet."
        return None

    def turn_control(self, rnd, action, students, votes):
        if action == "skip":
            return self.pass_turn(rnd, votes)
        return self.play(rnd, self.chosen(rnd, students, votes, decide_now=True), votes)

    def chosen(self, rnd, students, votes, decide_now=False):
        """Return the team's move from its votes (None: not decided yet); a tie follows TIED_VOTE_RULE."""
        members = {s.id for s in self.answering(rnd, students)}
        votes = [vote for vote in votes if vote.student_id in members]
        if rnd.settings.get("team_mode", "captain") == "captain" and not decide_now:
            leader = self.captain(rnd, students)
            return next((vote for vote in votes if leader and vote.student_id == leader.id), None)
        if not votes or (not decide_now and len(votes) < len(members)):
            return None
        tally = Counter((vote.card, vote.gap) for vote in votes)
        best = max(tally.values())
        return next(vote for vote in votes if tally[(vote.card, vote.gap)] == best)

    def judged(self, rnd, votes):
        """Return whether each vote put its card in a right place of the line."""
        return {vote.student_id: self.right(rnd.state, vote) for vote in votes}

    def right(self, state, vote):
        """Say whether a vote's card belongs in its gap."""
        first, last = cardline.correct_gaps(state, vote.card)
        return first <= vote.gap <= last

    def play(self, rnd, vote, votes):
        """Play the team's chosen move and judge every vote of this turn."""
        move = {"type": "place", "card": vote.card, "gap": vote.gap}
        state = refusing(cardline.apply, rnd.state, self.team(rnd), move)
        return Change(replace(rnd, state=state), self.judged(rnd, votes))

    def pass_turn(self, rnd, votes):
        """The team plays nothing this turn (skipped, or no vote in time)."""
        return Change(replace(rnd, state=cardline.pass_turn(rnd.state)), self.judged(rnd, votes))

    def due(self, rnd, students, votes, time_up):
        if not self.answering(rnd, students):
            return self.pass_turn(rnd, votes)
        move = self.chosen(rnd, students, votes, decide_now=time_up)
        if move is not None:
            return self.play(rnd, move, votes)
        return self.pass_turn(rnd, votes) if time_up else None


class HomeworkRules(Rules):
    """Self-paced: each student plays the same seeded challenge alone, while the teacher keeps it open."""

    needs_students, pausable, whole_class = False, False, False
    closed: ClassVar[dict] = {"lobby": "This homework is not open yet: your teacher opens it.",
                              "finished": "This homework is closed: your teacher has ended it."}

    def __init__(self, engine):
        self.engine = engine  # each student's own game's engine

    def new_state(self, config, seed):
        if len(config["cards"]) < config["count"] + 1:
            raise InvalidConfig(f"Only {len(config['cards'])} cards fit this choice: choose fewer cards.")
        return {"values": config["cards"]}

    def over(self, state):
        return False

    def open(self, rnd):
        return True

    def scheduled(self, rnd, now):
        """Open the homework at its opening time and close it at its closing time (the teacher may do either sooner)."""
        opens, closes = rnd.settings.get("opens_at"), rnd.settings.get("closes_at")
        if rnd.status in ("lobby", "playing") and closes is not None and now >= closes:
            return replace(rnd, status="finished", settings={**rnd.settings, "closed_on_time": True})
        if rnd.status == "lobby" and opens is not None and now >= opens:
            return replace(rnd, status="playing", turn_started=opens)
        return rnd

    def next_scheduled(self, rnd, now):
        """Return the opening time of a homework not open yet, else its closing time while it is open."""
        opens, closes = rnd.settings.get("opens_at"), rnd.settings.get("closes_at")
        moments = [opens] if rnd.status == "lobby" else []
        moments += [closes] if rnd.status in ("lobby", "playing") else []
        return min((moment for moment in moments if moment is not None and moment > now), default=None)

    def closed_reason(self, rnd):
        """Say when the homework opens, or that it closed (and when), in the teacher's time zone."""
        zone = rnd.settings.get("timezone")
        if rnd.status == "lobby" and rnd.settings.get("opens_at") is not None:
            return f"This homework opens on {when(rnd.settings['opens_at'], zone)}."
        if rnd.status == "finished" and rnd.settings.get("closed_on_time"):
            return f"This homework closed on {when(rnd.settings['closes_at'], zone)}."
        return self.closed.get(rnd.status)

    def turn(self, state):
        return 0

    def check_answer(self, rnd, student, students, gap, card):
        """Accept any move while the homework is open: the student's own game judges it."""

    def why_not(self, rnd, action, students, votes):
        return "That control does not apply to homework."


class QuizHomeworkRules(HomeworkRules):
    """Quiz homework: each student answers the same questions alone, in a quiz of their own, while it is open."""

    def new_state(self, config, seed):
        if not config["questions"]:
            raise InvalidConfig("Choose at least one question.")
        return {"questions": config["questions"]}

    def questions(self, state):
        """Return the homework's questions (each student's quiz asks them)."""
        return [dict(question) for question in state["questions"]]
