"""Team Cardline: teams play the rulebook's Cardline, the captain placing or the team's majority vote."""

from typing import ClassVar

import pandas as pd

from webapp.classroom import results
from webapp.classroom.formats.base import Answered, answer_on, line_window, names_in, names_of, plural, podium
from webapp.classroom.roster import active_students, captain, team_sizes
from webapp.classroom.versioned import kept_cards
from webapp.common import limits
from webapp.games.rounds.formats import TIED_VOTE_RULE, TeamCardlineRules

NO_MOVE = "no card placed: the time ran out or the turn was skipped"


class TeamRound(Answered):
    name = "team"
    label = "Team Cardline (teams play the rulebook game)"
    choice = "Team Cardline: teams play the rulebook game"
    rules = TeamCardlineRules()
    ranks_students = False
    control_words: ClassVar[dict] = {"reveal": "Play the team's vote now"}

    def config(self, values, settings):
        names = settings.get("team_names") or []
        return {"cards": values, "players": [names[i] if i < len(names) else f"Team {i + 1}"
                                             for i in range(settings["teams"])],
                "hand_size": settings["hand_size"], "characteristic": settings["characteristic"]}

    def team_for_newcomer(self, rnd):
        """The smallest team (the first of those as small), its sizes read while the round's other joins wait for
        this one's commit: joins at the same moment would otherwise read the same sizes and crowd one team."""
        limits.one_at_a_time(f"join-round-{rnd.id}")
        sizes = team_sizes(rnd)
        return min(range(rnd.settings["teams"]), key=lambda t: (sizes[t], t))

    def student_viewer(self, student):
        return student.team

    def item_answered(self, rnd, vote):
        return vote.card

    def tie_rule(self, rnd):
        """Return the rule for a tied vote where the team's majority decides, else None."""
        return TIED_VOTE_RULE if rnd.settings.get("team_mode") == "majority" else None

    def teacher_context(self, rnd, students, turn_answers):
        obs = self.observe(rnd)
        return {"obs": obs, "answered": len(turn_answers), "votes": {}, "cards": kept_cards(names_in(obs)),
                "outcome": outcome(obs), "tie_rule": self.tie_rule(rnd)}

    def student_context(self, rnd, student, answers, obs):
        leader = captain(rnd, student.team)
        return {"mine": answer_on(answers, self.turn(rnd)), "captain": leader and {"nickname": leader.nickname},
                "tie_rule": self.tie_rule(rnd), "outcome": outcome(obs, student.team),
                "can_act": rnd.settings.get("team_mode") == "majority" or bool(leader and leader.id == student.id)}

    def stage_context(self, rnd, context):
        # The moves and the teams take part of the stage's height: the line is always compact, so names stay 24 px.
        return {"line": line_window(names_of(context["obs"]["line"], context), context.get("line_from", 0), drawn_up_to=0)}

    def progress(self, rnd, obs):
        return f"Team Cardline · round {obs['round']}" if rnd.status in ("playing", "paused") else \
            super().progress(rnd, obs)

    def lobby_note(self, rnd):
        return f"({rnd.settings['teams']} teams)"

    def reveal_key(self, obs):
        if not obs["recent"]:
            return ""
        last = obs["recent"][-1]
        return f"move-{len(obs['line'])}-{len(obs['box'])}-{len(obs['recent'])}-{last['player']}-{last['card']}"

    def ending(self, rnd, context):
        obs = context["obs"]
        standing = sorted(obs["players"], key=lambda p: (p["status"] != "won", p["hand_size"], p["seat"]))
        steps = podium(standing, lambda p: (p["status"] == "won", p["hand_size"]))
        return {"podium": [(place, [p["name"] for p in group], 0,
                            plural(group[0]["hand_size"], "card") + " left" + (" · ★ winner" if group[0]["status"] == "won" else ""))
                           for place, group in steps],
                "note": "" if context.get("outcome") else "Ranked by the cards each team has left, fewest first.",
                "no_podium": "", **self.hardest_part(rnd, obs)}

    def partial(self, viewer):
        return "classroom/teacher/results/team.html" if viewer == "results" else super().partial(viewer)

    def results_context(self, rnd):
        members = {}
        for student in active_students(rnd):
            members.setdefault(student.team, []).append(student.nickname)
        players = self.observe(rnd)["players"]
        teams = sorted(({**p, "members": members.get(p["seat"], [])} for p in players),
                       key=lambda p: (p["status"] != "won", p["hand_size"], p["seat"]))
        return {**super().results_context(rnd), "teams": teams}

    def team_names(self, rnd):
        return {player["seat"]: player["name"] for player in self.observe(rnd)["players"]}

    def csv_frame(self, rnd):
        """Every answer, and a row for each turn a team placed no card (its time ran out, or the turn was skipped)."""
        frame = self.answers_frame(rnd)
        names = self.team_names(rnd)
        passes = pd.DataFrame([{"turn": turn, "team": names[seat], "place": NO_MOVE}
                               for turn, seat in self.observe(rnd)["passed_turns"]], columns=["turn", "team", "place"])
        if passes.empty:
            return frame
        return pd.concat([frame, passes], ignore_index=True).sort_values("turn", kind="stable")[frame.columns]

    def places(self, rnd, frame):
        # Cards only ever join the line, in place: a turn's line is today's less the cards placed from that turn on.
        # When each was placed the game says (not the answers: a removed student's went with them).
        obs = self.observe(rnd)
        line_now, placed_at = [entry["card"] for entry in obs["line"]], obs["placed_turns"]
        lines = {turn: [card for card in line_now if placed_at.get(card, -1) < turn] for turn in set(frame["turn"])}
        names = results.card_names(line_now)
        return [results.place_words(lines[turn], gap, names) for turn, gap in zip(frame["turn"], frame["gap"], strict=True)]


def outcome(obs, team=None):
    """Say who won a finished team game, to everyone or to a member of `team`; None while it is played."""
    result = obs["result"]
    if result is None:
        return None
    names = [obs["players"][seat]["name"] for seat in result["winners"]]
    if not names:
        return "The game is over: nobody wins this time."
    said = f"The game is over: {' and '.join(names)} {'wins' if len(names) == 1 else 'win'}!"
    return said + (" Well played, your team won!" if team in result["winners"] else "")
