"""Class line: everyone places the same card in one shared line; the reveal shows how the class voted across the gaps."""

from webapp.classroom import results
from webapp.classroom.formats.base import WholeClass, line_window, names_of
from webapp.games import classline
from webapp.games.rounds.formats import SharedItemRules


class ClassLine(WholeClass):
    name = "class_line"
    label = "Class line (everyone places the same card)"
    choice = "Class line: everyone places the same card"
    rules = SharedItemRules(classline)

    def stage_context(self, rnd, context):
        obs, votes = context["obs"], context.get("votes", {})
        last = obs["last_reveal"]
        if obs["phase"] != "revealed" or not last or last.get("skipped"):
            return {"line": line_window(names_of(obs["line"], context), context.get("line_from", 0))}
        first, final = last["right_gaps"]
        line = line_window([context["cards"][slug].common_name for slug in last["line_before"]], gaps=True, focus=first)
        return {"line": line, "values": {entry["card"]: entry["value"] for entry in obs["line"]},
                "right_votes": sum(count for gap, count in votes.items() if first <= gap <= final),
                "most_votes": max(votes.values(), default=0),
                "votes_before": sum(count for gap, count in votes.items() if gap < line["start"]),
                "votes_after": sum(count for gap, count in votes.items() if gap > line["stop"])}

    def places(self, rnd, frame):
        # The line changes only at a reveal: a turn's line is the one the next reveal started from.
        obs = self.observe(rnd)
        revealed = [r for r in obs["reveals"] if not r.get("skipped")]
        line_now = [entry["card"] for entry in obs["line"]]
        lines = {turn: next((r["line_before"] for r in revealed if r["turn"] >= turn), line_now)
                 for turn in set(frame["turn"])}
        names = results.card_names(slug for line in lines.values() for slug in line)
        return [results.place_words(lines[turn], gap, names) for turn, gap in zip(frame["turn"], frame["gap"], strict=True)]
