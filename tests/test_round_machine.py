"""The round state machine, driven by hypothesis through random controls, answers and clock jumps.

After every step: a timed turn has revealed itself once its time and the largest extra time owed ran out;
each student answers a turn at most once and only when allowed to; points are the judged answers; nothing is
accepted in the lobby or after the end; the controls offered are exactly the controls that apply; and every path
that asks whether a turn's time is up agrees (the machine, the database's count shortcut, the version poll's trigger).
The machine runs with the rules of every registered format object.
"""

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from webapp.classroom.formats import FORMATS
from webapp.games import cardline, classbins
from webapp.games import rounds as R

CARDS = {f"c{i}": float(i) for i in range(1, 16)}
DIETS = {f"c{i}": classbins.BINS[i % 3] for i in range(1, 16)}
QUESTIONS = [{"id": f"q{i}", "prompt": f"Question {i}?", "answer": "o1", "explanation": "Because.", "order": False,
              "options": [{"id": f"o{j}", "text": f"Option {j}"} for j in range(3)]} for i in range(3)]


SETTINGS = {"count": 3, "characteristic": "mass", "teams": 2, "hand_size": 2}
VALUES = {"class_diet": DIETS, "quiz": QUESTIONS, "quiz_homework": QUESTIONS}


def new_state(fmt, seed):
    """Return a small game for a round of `fmt`, made by its format object."""
    return FORMATS[fmt].new_state(VALUES.get(fmt, CARDS), SETTINGS, seed)


def new_round(fmt, status="lobby", settings=None, seed=1, **clock):
    """Return a round of `fmt` as the machine sees it."""
    return R.RoundState(FORMATS[fmt].rules, status, settings or {}, new_state(fmt, seed), **clock)


class RoundMachine(RuleBasedStateMachine):
    """A teacher, students joining and leaving, and the clock, against the pure round machine."""

    @initialize(fmt=st.sampled_from(sorted(FORMATS)), seconds=st.sampled_from([0, 10, 30]),
                mode=st.sampled_from(["captain", "majority"]), seed=st.integers(0, 1000),
                opens=st.sampled_from([None, 5, 40]), closes=st.sampled_from([None, 60, 200]))
    def set_up(self, fmt, seconds, mode, seed, opens, closes):
        self.now = 1000.0
        timetable = {"opens_at": opens and self.now + opens, "closes_at": closes and self.now + closes,
                     "timezone": "Europe/London"} if fmt == "self_paced" else {}
        self.round = new_round(fmt, settings={"turn_seconds": seconds, "team_mode": mode, "teams": 2, **timetable},
                               seed=seed)
        self.students, self.votes, self.points = [], [], {}
        self.turn = self.turn_key()

    # --- helpers -------------------------------------------------------------------------------------

    def turn_key(self):
        """Return what identifies the current turn (answers are kept per turn)."""
        return self.round.rules.turn(self.round.state)

    def apply(self, change):
        """Store a change as the app does: the round, then the judged answers of the turn."""
        assert set(change.judged) <= {vote.student_id for vote in self.votes}, "judged someone who did not answer"
        for student_id, right in change.judged.items():
            self.points[student_id] = self.points.get(student_id, 0) + int(right)
        self.round = change.round
        if self.turn_key() != self.turn:
            self.turn, self.votes = self.turn_key(), []

    def settle(self):
        """Settle what is due, as every request of the app does, once every path agrees on the time."""
        change = R.settle(self.round, self.students, self.votes, self.now)
        self.time_paths_agree(change)
        if change:
            self.apply(change)

    def time_paths_agree(self, change):
        """The poll's trigger never misses a turn whose time is up; the database's count shortcut never hides one."""
        if self.round.status == "playing" and R.time_up(self.round, self.students, self.now):
            assert R.clock.may_be_due(self.round, self.now), "the poll's trigger would miss a turn whose time is up"
        active = [s for s in self.students if not s.removed]
        answered = sum(1 for vote in self.votes if vote.student_id in {s.id for s in active})
        most_extra = max((s.extra_seconds for s in active), default=None)
        if R.nothing_due(self.round, self.now, bool(active) and answered >= len(active), most_extra):
            assert change is None, "the progress shortcut hid a due turn"

    # --- rules ---------------------------------------------------------------------------------------

    @rule(team=st.integers(0, 1))
    def join(self, team):
        if R.why_not_join(self.round) is None:
            self.students.append(R.StudentState(len(self.students) + 1, team if self.round.rules.teams else None))
        self.settle()

    @precondition(lambda self: self.students)
    @rule(index=st.integers(0, 20), extra=st.sampled_from([0, 15, 60]), remove=st.booleans())
    def teacher_changes_a_student(self, index, extra, remove):
        student = self.students[index % len(self.students)]
        changed = replace(student, removed=True) if remove else replace(student, extra_seconds=extra)
        self.students = [changed if s.id == student.id else s for s in self.students]
        self.settle()

    @rule(seconds=st.sampled_from([0.5, 3, 9, 12, 31, 80]))
    def time_passes(self, seconds):
        self.now += seconds
        self.settle()

    @rule(action=st.sampled_from(R.CONTROLS))
    def teacher_control(self, action):
        offered = R.controls(self.round, self.students, self.votes, self.now)
        try:
            change = R.control(self.round, action, self.students, self.votes, self.now)
        except R.Refused as refused:
            assert action not in offered, (action, str(refused))
            assert str(refused)
        else:
            assert action in offered, action
            judges = self.round.rules.whole_class or self.round.rules.teams  # homework's answers are its games'
            if action == "end" and judges and self.round.rules.open(self.round) and self.round.status != "lobby":
                # Ending the round never drops an answer already given: each is judged.
                assert set(change.judged) == {vote.student_id for vote in self.votes}, "an answer was dropped at the end"
            self.apply(change)
        self.settle()

    @precondition(lambda self: self.students)
    @rule(index=st.integers(0, 20), gap=st.integers(-1, 5), pick=st.integers(0, 3))
    def student_answers(self, index, gap, pick):
        student = self.students[index % len(self.students)]
        card = self.card_for(student, pick)
        before = self.round
        try:
            vote = R.answer(self.round, student, self.students, self.votes, gap, card, self.now)
        except R.Refused as refused:
            assert str(refused)
        else:
            assert before.status == "playing", "an answer was accepted in the lobby, while paused or after the end"
            assert not student.removed
            assert all(v.student_id != student.id for v in self.votes), "a second answer to one turn"
            if self.round.rules.teams and self.round.settings["team_mode"] == "captain":
                members = [s for s in self.students if not s.removed and s.team == student.team]
                assert members[0].id == student.id, "a team member who is not the captain moved"
            left = R.seconds_left(self.round, self.now, student.extra_seconds)
            assert left is None or left > 0, "an answer after the time was up"
            self.votes.append(vote)
        self.settle()

    def card_for(self, student, pick):
        """Return a card a team student might send: one of their team's hand, or one that is not."""
        if not self.round.rules.teams or cardline.is_over(self.round.state):
            return None
        hand = cardline.observation(self.round.state, student.team)["hand"] or []
        return hand[pick] if pick < len(hand) else "not-a-card"

    # --- invariants ----------------------------------------------------------------------------------

    @invariant()
    def a_timed_turn_never_waits_past_its_time(self):
        if not hasattr(self, "round"):
            return
        if self.round.status == "playing" and self.round.rules.open(self.round):
            assert not R.time_up(self.round, self.students, self.now), "the time is up and nothing was revealed"

    @invariant()
    def the_controls_offered_are_exactly_those_that_apply(self):
        if not hasattr(self, "round"):
            return
        offered = set(R.controls(self.round, self.students, self.votes, self.now))
        for action in R.CONTROLS:
            try:
                R.control(self.round, action, self.students, self.votes, self.now)
            except R.Refused:
                assert action not in offered, action
            else:
                assert action in offered, action

    @invariant()
    def nothing_is_open_in_the_lobby_or_after_the_end(self):
        if not hasattr(self, "round") or self.round.status not in ("lobby", "finished") or not self.students:
            return
        with pytest.raises(R.Refused):
            R.answer(self.round, self.students[0], self.students, [], 0, None, self.now)

    @invariant()
    def a_homework_keeps_its_timetable(self):
        if not hasattr(self, "round"):
            return
        opens, closes = self.round.settings.get("opens_at"), self.round.settings.get("closes_at")
        if closes is not None and self.now >= closes:
            assert self.round.status == "finished", "a homework still open after its closing time"
        elif opens is not None and self.now >= opens:
            assert self.round.status != "lobby", "a homework still shut after its opening time"
        still_in = [s for s in self.students if not s.removed]
        if self.round.status == "lobby" and opens is not None and still_in:
            with pytest.raises(R.Refused, match="This homework opens on"):
                R.answer(self.round, still_in[0], self.students, [], 0, None, self.now)

    @invariant()
    def points_are_the_judged_answers(self):
        if hasattr(self, "round"):
            assert all(0 <= points for points in self.points.values())
            assert len({vote.student_id for vote in self.votes}) == len(self.votes)


RoundMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=40, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
test_round_machine = RoundMachine.TestCase


def test_extra_time_does_not_stop_the_reveal():
    """10 s timer, one student with +15 s, the other answers, the first does nothing: revealed at 25 s."""
    rnd = new_round("class_line", "playing", {"turn_seconds": 10}, turn_started=0.0)
    ada, ben = R.StudentState(1, extra_seconds=15), R.StudentState(2)
    votes = [R.answer(rnd, ben, [ada, ben], [], 0, None, 2.0)]
    assert R.settle(rnd, [ada, ben], votes, 24.0) is None
    assert R.answer(rnd, ada, [ada, ben], votes, 1, None, 24.0)  # Ada still has her extra time
    change = R.settle(rnd, [ada, ben], votes, 25.0)
    assert change and change.judged.keys() == {2}
    assert not change.round.rules.open(change.round)


def test_only_the_captain_moves_in_captain_mode():
    rnd = new_round("team", "playing", {"team_mode": "captain"}, seed=3, turn_started=0.0)
    captain, member = R.StudentState(1, team=0), R.StudentState(2, team=0)
    card = cardline.observation(rnd.state, 0)["hand"][0]
    with pytest.raises(R.Refused, match="captain"):
        R.answer(rnd, member, [captain, member], [], 0, card, 1.0)
    assert R.answer(rnd, captain, [captain, member], [], 0, card, 1.0)


def test_switching_the_timer_off_and_on_keeps_the_time_used():
    rnd = new_round("class_line", "playing", {"turn_seconds": 30}, turn_started=0.0)
    off = R.control(rnd, "timer_off", [R.StudentState(1)], [], 12.0).round
    on = R.control(off, "timer_on", [R.StudentState(1)], [], 50.0).round
    assert R.seconds_left(on, 50.0) == pytest.approx(18.0)


@pytest.mark.parametrize("status", ["lobby", "finished"])
def test_homework_is_closed_before_start_and_after_end(status):
    rnd = new_round("self_paced", status)
    with pytest.raises(R.Refused):
        R.answer(rnd, R.StudentState(1), [R.StudentState(1)], [], None, None, 1.0)


def test_a_locked_room_refuses_new_players():
    rnd = R.control(new_round("class_line"), "lock", [], [], 0.0).round
    assert "closed" in R.why_not_join(rnd)
    assert R.why_not_join(R.control(rnd, "unlock", [], [], 0.0).round) is None
