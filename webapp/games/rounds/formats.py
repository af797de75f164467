"""What differs between round formats, one object each; the round's life itself is in webapp.games.rounds."""

from collections import Counter
from dataclasses import replace
from typing import ClassVar

from webapp.games import cardline, classbins, classline, livequiz
from webapp.games.base import IllegalAction, InvalidConfig
from webapp.games.rounds.core import Change, Refused

TIE_RULE = "On a tied vote, the move voted for first is played."


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


class Format:
    """A round format: the defaults of a live round where the whole class answers."""

    label = ""  # its name on the teacher's screens
    choice = ""  # how the new-round form offers it ("" when it is started another way, as a lesson's live quiz)
    sorts_by = None  # what its cards are sorted by, when not the round's chosen characteristic
    needs_students = True  # the round starts once someone has joined
    pausable = True
    timed = True  # turns run against the clock when the teacher sets one
    teams = False
    closed: ClassVar[dict] = {"lobby": "The round has not started yet: wait for your teacher.", "paused": "The round is paused.",
              "finished": "This round has finished."}

    def over(self, state):
        """Say whether the round's game has ended."""
        return False

    def end(self, state):
        """Return the state once the teacher ends the round."""
        return state

    def answering(self, rnd, students):
        """Return who is expected to answer this turn."""
        return students

    def view(self, state, team=None):
        """Return what the class (or one team) may see of the round's game."""
        return {}

    def turn_changed(self, before, after):
        """Say whether a change started a new turn (its clock starts again)."""
        return self.turn(before) != self.turn(after)

    def due(self, rnd, students, votes, time_up):
        """Return the change the answers so far (or the clock) call for, or None."""


class SharedItem(Format):
    """Everyone answers the same item (a card's place, a bin, a question), then it is revealed."""

    def __init__(self, engine, label, choice="", sorts_by=None):
        self.engine, self.label, self.choice, self.sorts_by = engine, label, choice, sorts_by

    def new_state(self, values, settings, seed):
        """Return the round's game over the chosen cards' values (raises InvalidConfig with a reason)."""
        return self.engine.new_game({"cards": values, "count": settings["count"],
                                     "characteristic": settings["characteristic"]}, seed)

    def open(self, rnd):
        return self.engine.observation(rnd.state)["phase"] == "answering"

    def view(self, state, team=None):
        return self.engine.observation(state)

    def turn(self, state):
        return self.engine.observation(state)["turn"]

    def over(self, state):
        return self.engine.is_over(state)

    def end(self, state):
        return self.engine.end(state)

    def check_answer(self, rnd, student, students, gap, card):
        refusing(self.engine.check_answer, rnd.state, gap)

    def why_not(self, rnd, action, students, votes):
        step = {"reveal": self.engine.reveal, "next": self.engine.next_card, "skip": self.engine.skip}.get(action)
        if step is None:
            return "That control does not apply to this round."
        return reason_against(step, rnd.state)

    def turn_control(self, rnd, action, students, votes):
        if action == "reveal":
            return self.reveal(rnd, votes)
        step = {"next": self.engine.next_card, "skip": self.engine.skip}[action]
        return Change(replace(rnd, state=refusing(step, rnd.state)))

    def reveal(self, rnd, votes):
        """Turn the item over and judge every answer given to it."""
        first, last = self.engine.right_gaps(rnd.state)
        judged = {vote.student_id: first <= vote.gap <= last for vote in votes}
        return Change(replace(rnd, state=refusing(self.engine.reveal, rnd.state)), judged)

    def due(self, rnd, students, votes, time_up):
        answered = {vote.student_id for vote in votes}
        if time_up or (students and all(s.id in answered for s in students)):
            return self.reveal(rnd, votes)
        return None


class TeamCardline(Format):
    """Teams play the rulebook's Cardline: the captain places, or the team's majority vote does."""

    label = "Team Cardline (teams play the rulebook game)"
    choice = "Team Cardline: teams play the rulebook game"
    teams = True

    def new_state(self, values, settings, seed):
        teams = [f"Team {i + 1}" for i in range(settings["teams"])]
        return cardline.new_game({"cards": values, "players": teams, "hand_size": settings["hand_size"],
                                  "characteristic": settings["characteristic"]}, seed)

    def open(self, rnd):
        return not cardline.is_over(rnd.state)

    def turn(self, state):
        return cardline.turn_number(state)

    def over(self, state):
        return cardline.is_over(state)

    def view(self, state, team=None):
        return cardline.observation(state, team)

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
        """Return the team's move from its votes (None: not decided yet)."""
        members = {s.id for s in self.answering(rnd, students)}
        votes = [vote for vote in votes if vote.student_id in members]
        if rnd.settings.get("team_mode", "captain") == "captain" and not decide_now:
            leader = self.captain(rnd, students)
            return next((vote for vote in votes if leader and vote.student_id == leader.id), None)
        if not votes or (not decide_now and len(votes) < len(members)):
            return None
        tally = Counter((vote.card, vote.gap) for vote in votes)
        best = max(tally.values())
        return next(vote for vote in votes if tally[(vote.card, vote.gap)] == best)  # TIE_RULE

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


class Homework(Format):
    """Self-paced: each student plays the same seeded challenge alone, while the teacher keeps it open."""

    label = "Self-paced challenge (homework)"
    choice = "Self-paced challenge: homework, each student alone"
    needs_students, pausable, timed = False, False, False

    def new_state(self, values, settings, seed):
        if len(values) < settings["count"] + 1:
            raise InvalidConfig(f"Only {len(values)} cards fit this choice: choose fewer cards.")
        return {"values": values}
    closed: ClassVar[dict] = {"lobby": "This homework is not open yet: your teacher opens it.",
              "finished": "This homework is closed: your teacher has ended it."}

    def open(self, rnd):
        return True

    def turn(self, state):
        return 0

    def check_answer(self, rnd, student, students, gap, card):
        """Accept any move while the homework is open: the student's own game judges it."""

    def why_not(self, rnd, action, students, votes):
        return "That control does not apply to homework."


FORMATS = {
    "class_line": SharedItem(classline, "Class line (everyone places the same card)",
                             "Class line: everyone places the same card"),
    "class_diet": SharedItem(classbins, "Diet sort (everyone puts the same card in a diet bin)",
                             "Diet sort: everyone puts the same card in a bin, carnivore, herbivore or omnivore",
                             sorts_by="diet"),
    "quiz": SharedItem(livequiz, "Live quiz (everyone answers the same question)"),
    "team": TeamCardline(),
    "self_paced": Homework(),
}
