"""What every round format gives the web layer, and the defaults of a whole-class round.

A format object owns all that differs between formats: its rules for the state machine (and through them its
engine), how a round of it starts, and its views for each viewer: the teacher's panel, a student's panel, the
stage, the results and the CSV rows, each a context (a method here) and a partial (``partial(viewer)``).
The generic round views, templates and reports ask the format and never its name.
"""

import math
from abc import ABC, abstractmethod
from collections import Counter
from typing import ClassVar

import pandas as pd

from webapp.cards.queries import cards_by_slug
from webapp.classroom import exports, results
from webapp.classroom.clock import seconds
from webapp.classroom.roster import active_students
from webapp.classroom.versioned import kept_cards, per_version
from webapp.common.words import DRAWN_CARD_LINE, name_line
from webapp.games.rounds import RoundState
from webapp.games.rounds import points as scoring

# The line's area on the stage is about this many times as wide as it is high; a card is this many times as high
# as wide (with its drawing; a compact card, name and value only, is lower).
LINE_ASPECT, CARD_HEIGHT, COMPACT_HEIGHT, GAP_WIDTH = 3.6, 1.32, 0.55, 0.6
# How much of a line the stage shows at once, so that every name is at least 24 px on a 1280 x 720 projector:
# a line this short whole, with drawings; a longer one as a window of compact cards that the teacher moves
# (↑ and ↓ on the stage); at a reveal, the window around the right place, its gaps between the cards.
WITH_DRAWINGS, WINDOW = 5, 8
WITH_DRAWINGS_AND_GAPS, REVEAL_WINDOW = 2, 6
PODIUM_PLACES = 3
PODIUM_NAMES = 3  # students named on a step; the rest are counted
# Where each viewer's partials are: one per format, named as the format (formats may share one).
PARTIALS = {"teacher": "classroom/teacher/formats", "student": "classroom/student/formats",
            "stage": "classroom/stage/formats", "results": "classroom/teacher/results"}
CONTROL_LABELS = {"start": "Start the round", "pause": "Pause", "resume": "Resume", "reveal": "Reveal",
                  "next": "Next card", "skip": "Skip this turn", "timer_off": "Switch the timer off",
                  "timer_on": "Switch the timer on", "lock": "Lock the room (no new players)",
                  "unlock": "Open the room to new players", "end": "End the round"}


class RoundFormat(ABC):
    """A classroom round format as the web layer sees it; subclasses give what differs."""

    name = ""  # its key in FORMATS and in the database
    label = ""  # its name on the teacher's screens
    choice = ""  # how the new-round form offers it ("" when it is started another way, as a lesson's live quiz)
    sorts_by = None  # what its cards are sorted by, when not the round's chosen characteristic
    rules = None  # its rules for the state machine (webapp.games.rounds.formats), which hold its engine
    live = True  # the class plays at once: a lobby on the stage, the join code in its corner, a podium at the end
    ranks_students = True  # a leaderboard of students (teams rank otherwise)
    speed_points = False  # a right answer may score by its speed (the whole class answers each item at once)
    item = "Card"  # what one turn asks about, on the stage's progress line
    control_words: ClassVar[dict] = {}  # a control's words where this format says it otherwise
    # The tables of its results files (export_tables' names, in order) and the words of their download links.
    result_tables: ClassVar[dict] = {"answers": "every answer", "students": "the students ranked"}

    @property
    def engine(self):
        """Return the format's engine."""
        return self.rules.engine

    @property
    def short_label(self):
        """Return the format's name in a few words, for tables and status lines."""
        return self.label.split(" (")[0]

    def partial(self, viewer):
        """Return the template of this format's part of a viewer's screen (teacher, student, stage, results)."""
        return f"{PARTIALS[viewer]}/{self.name}.html"

    def confirm(self, action, answered):
        """Return the question a control asks before it acts (None: it acts at once)."""
        return "End this round for everyone? Nobody can answer after that." if action == "end" else None

    def control_label(self, action):
        """Return a control's words on this format's round page."""
        return self.control_words.get(action, CONTROL_LABELS[action])

    def init_app(self, app):
        """Register what the format adds to the app (homework gates its students' games)."""

    # --- the round as the state machine and each viewer see it ----------------------------------------------

    def machine(self, rnd, state=None):
        """Return a stored round as the state machine sees it (times as seconds)."""
        return RoundState(self.rules, rnd.status, rnd.settings, rnd.state if state is None else state,
                          seconds(rnd.turn_started_at), seconds(rnd.paused_at))

    def observe(self, rnd, viewer=None):
        """Return what `viewer` (None: the class, the teacher and the stage) may see of the round's game."""
        return self.engine.observation(rnd.state, viewer)

    def turn(self, rnd):
        """Return the number of the turn being played (answers are kept per turn)."""
        return self.rules.turn(rnd.state)

    def shown_turns(self, rnd):
        """Return the turns whose item the class was shown the answer to, in order (a streak runs over them)."""
        return []

    # --- starting and joining ------------------------------------------------------------------------------

    def config(self, values, settings):
        """Return the engine's config for a round over the chosen cards' values."""
        return {"cards": values, "count": settings["count"], "characteristic": settings["characteristic"]}

    def new_state(self, values, settings, seed):
        """Return the round's game (raises InvalidConfig with a reason)."""
        return self.rules.new_state(self.config(values, settings), seed)

    def copy_values(self, rnd, chosen):
        """Return what a copy of the round is built from (`chosen()` finds the cards its settings choose)."""
        return self.values_again(rnd.state, chosen)

    def values_again(self, game, chosen):
        """Return what a copy of a round with this game is built from: by default the cards its settings choose."""
        return chosen()

    def team_for_newcomer(self, rnd):
        """Return the team a student who joins now goes to (None: no teams)."""
        return

    def joined(self, rnd, student):
        """Set up what a new student needs besides their row; return {seat: token} of a game they were given."""
        return {}

    def student_viewer(self, student):
        """Return whose view of the game a student gets (None: the class's)."""
        return

    def student_page(self, rnd, student):
        """Return where a student's round page sends them instead of the live page, or None."""
        return

    def team_names(self, rnd):
        """Return {team number: the name its screen shows} (none without teams)."""
        return {}

    def item_answered(self, rnd, vote):
        """Return the item (card or question) a vote answers, as the answer row stores it."""
        return self.observe(rnd)["current"]

    # --- views: a context per viewer (the partial is partial(viewer)) ---------------------------------------

    def teacher_context(self, rnd, students, turn_answers):
        """Return what the teacher's live panel shows of this format."""
        return {}

    def student_context(self, rnd, student, answers, obs):
        """Return what a student's panel shows of this format (`answers`: {turn: right?} of theirs).

        Plain data only (JSON's kinds): it names the variant of the panel a pushed view draws once for every
        student it is the same for (classroom/push.py)."""
        return {}

    def stage_context(self, rnd, context):
        """Return what the stage adds to the teacher's view for this format."""
        return {}

    def progress(self, rnd, obs):
        """Return the stage's progress line ("Card 2 of 5")."""
        if rnd.status == "lobby":
            return "Waiting for the start"
        if rnd.status == "finished":
            return "The round is over"
        return f"{self.item} {min(obs['turn'] + 1, obs['turns'])} of {obs['turns']}"

    def lobby_note(self, rnd):
        """Return what the stage's lobby adds after the count of who joined."""
        return ""

    def reveal_key(self, obs):
        """Return what changes exactly when something is revealed (the stage chimes then), or ''."""
        return f"turn-{obs['turn']}" if obs.get("phase") == "revealed" else ""

    def ending(self, rnd, context):
        """Return the stage's end: {podium: [(place, [names], score words)], note, hardest, hardest_partial}."""
        return {}

    def results_context(self, rnd):
        """Return what the finished round's page shows below the live panel."""
        return {}

    @abstractmethod
    def export_tables(self, rnd):
        """Return the round's results as tables for a spreadsheet, {name: frame}, the main one first; every row
        names the round and its date."""


class Answered(RoundFormat):
    """A round whose answers are stored turn by turn and judged at each reveal or move: reports and CSV per answer."""

    hardest_partial = "classroom/stage/hardest/card.html"
    item_key = "card"  # the answers' column that names the item answered
    answer_column = "place"  # what an answer is called in the results: a place in the line, a bin, an option

    def partial(self, viewer):
        return f"{PARTIALS['results']}/cards.html" if viewer == "results" else super().partial(viewer)

    def results_context(self, rnd):
        return {"board": results.leaderboard(rnd, self.asked_count(rnd)), "card_report": self.report(rnd)}

    def asked_count(self, rnd):
        """Return how many items the class was asked and shown the answer to (None: count each one's own answers)."""
        return

    def report(self, rnd):
        """Return per card: how many got it right, and where most wrong answers put it, hardest first."""
        return results.card_report(self.answers_frame(rnd))

    def hardest(self, rnd, obs):
        """Return the card the class found hardest among those it saw face up, or None: {card, value, right, ...}.

        Only cards the class saw face up count (a team's vote for a card still in its hand does not).
        """
        face_up = {entry["card"]: entry["value"] for entry in obs.get("line", []) + obs.get("box", [])
                   + obs.get("sorted", [])}
        row = next((row for row in self.report(rnd) if row["answers"] and row["card"] in face_up), None)
        if row is None:
            return None
        return {"card": row["card"], "value": face_up[row["card"]], "right": row["right"], "answers": row["answers"],
                "wrong_place": row["common_wrong_place"]}

    def hardest_part(self, rnd, obs):
        """Return the stage's end's "hardest" part: the item, its partial, and its card if it has one."""
        found = self.hardest(rnd, obs)
        return {"hardest": found, "hardest_partial": self.hardest_partial,
                "hardest_cards": cards_by_slug([found["card"]]) if found and found.get("card") else {}}

    def answers_frame(self, rnd):
        """Return every answer, its place in words, the team as its screen names it, the card's true value."""
        frame = results.answer_rows(rnd)
        frame["gap"] = self.places(rnd, frame)
        frame["team"] = frame["team"].map(self.team_names(rnd))
        frame["true_value"] = frame["card"].map(results.true_values(rnd, frame["card"]))
        return frame.rename(columns={"gap": "place"})

    def csv_frame(self, rnd):
        """Return every answer given, as answers_frame, with what else the results list per turn (pandas)."""
        return self.answers_frame(rnd)

    def export_tables(self, rnd):
        frame = self.csv_frame(rnd)
        missed = self.missed_rows(rnd, frame)
        keys = pd.concat([frame[self.item_key], missed[self.item_key]]).dropna().unique()
        answers = exports.answers_table(frame, missed, self.item, self.answer_column, self.item_key,
                                        self.described(rnd, keys))
        by_speed = results.points_rule(rnd).by_speed
        if by_speed and "points" in answers:  # what each answer scored, so that a student's total can be checked
            answers["points"] = answers["points"].fillna(0).astype(int)
        board = results.leaderboard(rnd, self.asked_count(rnd))
        return {"answers": exports.with_round(rnd, answers),
                "students": exports.with_round(rnd, exports.students_table(board, self.team_names(rnd), by_speed))}

    def shown_items(self, rnd):
        """Return (turn, item) of each item the class was asked and shown the answer to: who gave none missed it."""
        return []

    def shown_turns(self, rnd):
        return [turn for turn, _ in self.shown_items(rnd)]

    def missed_rows(self, rnd, frame):
        """Return a row (turn, nickname, team, item) for each student in the round who gave no answer to a shown item."""
        answered = set(zip(frame["turn"], frame["nickname"], strict=True))
        names = self.team_names(rnd)
        students = active_students(rnd)
        rows = [{"turn": turn, "nickname": student.nickname, "team": names.get(student.team), self.item_key: item}
                for turn, item in self.shown_items(rnd) for student in students
                if (turn, student.nickname) not in answered]
        return pd.DataFrame(rows, columns=["turn", "nickname", "team", self.item_key])

    def described(self, rnd, keys):
        """Return the words the results give each item, {column: {item: words}}: the animal and its true value."""
        return {"animal": results.card_names(keys), "true_value": results.true_values(rnd, keys)}

    @abstractmethod
    def places(self, rnd, frame):
        """Return, for each answer of the frame, the place (or bin, or option) it chose in words."""


class WholeClass(Answered):
    """The whole class answers the same item, then it is revealed; students are ranked by points (a point per right
    answer, or speed points as the teacher chose)."""

    speed_points = True

    def teacher_context(self, rnd, students, turn_answers):
        obs = self.observe(rnd)
        answering, last = obs["phase"] == "answering", obs["last_reveal"]
        # After a reveal, and still once the round is over, the votes shown are those given to the item revealed.
        shown = [] if answering or not last else [a.gap for a in turn_answers] if last["turn"] == obs["turn"] \
            else results.gaps_on_turn(rnd, last["turn"])
        context = {"obs": obs, "answered": len(turn_answers) if answering else 0, "votes": dict(Counter(shown)),
                   "cards": kept_cards(names_in(obs))}
        board = rnd.settings.get("leaderboard", "every")
        # Not in the lobby: a list of everyone at 0 points is no leaderboard.
        if (board == "every" and rnd.status != "lobby") or (board == "end" and rnd.status == "finished"):
            # Points move only at a reveal, which changes the version: answers coming in redraw it from what is kept.
            context["leaderboard"] = per_version(rnd, "leaderboard", lambda: results.leaderboard(
                rnd, shown_turns=self.shown_turns(rnd), students=students))
        return context

    def confirm(self, action, answered):
        if action == "skip" and answered:
            return f"Skip this card? The {plural(answered, 'answer')} given to it will not count."
        return super().confirm(action, answered)

    def student_context(self, rnd, student, answers, obs):
        last = obs.get("last_reveal")
        # The streak is part of the panel's variant only where it is named: a few more variants, one per length.
        streak = scoring.streak(shown_turns_in(obs), answers) if results.streaks_shown(rnd) else None
        return {"mine": answer_on(answers, obs["turn"]), "last": last,
                "last_mine": last and answer_on(answers, last["turn"]), "streak": streak}

    def stage_context(self, rnd, context):
        return {"most_votes": max(context.get("votes", {}).values(), default=0)}

    def asked_count(self, rnd):
        return len(self.shown_items(rnd))

    def shown_items(self, rnd):
        return shown_in(self.observe(rnd))

    def ending(self, rnd, context):
        board = [row for row in context.get("leaderboard") or [] if row["points"] > 0]
        return {"podium": [(place, [row["nickname"] for row in group[:PODIUM_NAMES]], max(0, len(group) - PODIUM_NAMES),
                            plural(group[0]["points"], "point"))
                           for place, group in podium(board, lambda row: row["points"])],
                "no_podium": "Nobody scored a point this time." if rnd.settings.get("leaderboard") != "never" else "",
                **self.hardest_part(rnd, context["obs"])}


def shown_in(obs):
    """Return (turn, item) of each item a whole-class round's observation shows as revealed (not skipped)."""
    return [(record["turn"], record["card"]) for record in obs["reveals"] if not record.get("skipped")]


def shown_turns_in(obs):
    """Return the turns of the items a whole-class round's observation shows as revealed."""
    return [turn for turn, _ in shown_in(obs)]


def names_of(line, context):
    """Return the common names of a line's entries ({"card": slug, ...}), from the context's cards."""
    return [context["cards"][entry["card"]].common_name for entry in line]


def names_in(value):
    """Return every string in a JSON value: the cards an observation names are among them."""
    if isinstance(value, dict):
        return [name for item in value.values() for name in names_in(item)]
    if isinstance(value, list):
        return [name for item in value for name in names_in(item)]
    return [value] if isinstance(value, str) else []


def answer_on(answers, turn):
    """Return the student's answer on `turn` as {"correct": True/False/None (not judged yet)}, or None."""
    return {"correct": answers[turn]} if turn in answers else None


def plural(count, noun):
    """Return "1 point", "2 points", "3,450 points"."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def line_window(names, start=0, gaps=False, focus=None, drawn_up_to=None):
    """Return which cards of a line (its cards' `names`) the stage shows, and how: {start, stop, count, compact} and
    the layout.

    A line of at most `drawn_up_to` cards (by default as many as fit the line's area with drawings) whose names fit a
    drawn card shows whole, with drawings. Otherwise the stage shows a window of compact cards from `start`, or, at a
    reveal (`gaps`), the window around gap `focus` (the right place, known once revealed, never before).
    """
    count = len(names)
    whole, size = (WITH_DRAWINGS_AND_GAPS, REVEAL_WINDOW) if gaps else (WITH_DRAWINGS, WINDOW)
    whole = whole if drawn_up_to is None else drawn_up_to
    if count <= whole and all(name_line(name) <= DRAWN_CARD_LINE for name in names):
        return {"start": 0, "stop": count, "count": count, "compact": False, **line_layout(count, gaps)}
    if focus is not None:
        start = focus - size // 2
    start = max(0, min(start, count - size))
    stop = min(count, start + size)
    return {"start": start, "stop": stop, "count": count, "compact": True,
            **line_layout(stop - start, gaps, COMPACT_HEIGHT)}


def line_layout(count, gaps=False, card_height=CARD_HEIGHT):
    """Return how to lay out `count` cards (and the gaps between them) so that they are as big as the line's area allows.

    {rows, per_row: cards in a row, columns: a row's width in card widths (with gaps, n cards and n + 1 gaps)};
    the style sizes the cards from rows and columns to fit the area's real width and height.
    """
    best = (0.0, 1, max(count, 1))
    for rows in range(1, max(count, 1) + 1):
        cards = math.ceil(count / rows) if count else 1
        columns = cards + (cards + 1) * GAP_WIDTH if gaps else cards
        width = min(LINE_ASPECT / columns, 1 / (rows * card_height))
        if width > best[0] + 1e-9:
            best = (width, rows, cards)
    _, rows, cards = best
    return {"rows": rows, "per_row": cards, "columns": round(cards + (cards + 1) * GAP_WIDTH if gaps else cards, 2),
            "card_height": card_height}


def podium(rows, score, places=PODIUM_PLACES):
    """Return the podium's steps [(place, [rows])]: ranked rows grouped by equal `score`, those placed `places` or better.

    Places follow the one ranking rule (results.place_of): a tie shares a place and the next place skips, so two
    students tied first are followed by a third.
    """
    steps = []
    for index, row in enumerate(rows):
        if steps and score(steps[-1][1][0]) == score(row):
            steps[-1][1].append(row)
        elif index + 1 <= places:
            steps.append((index + 1, [row]))
        else:
            break
    return steps
