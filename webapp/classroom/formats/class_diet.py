"""Diet sort: everyone puts the same card in a bin (carnivore, herbivore, omnivore); the reveal says what it ate."""

from webapp.classroom.formats.base import WholeClass
from webapp.games import classbins
from webapp.games.rounds.formats import SharedItemRules


class DietSort(WholeClass):
    name = "class_diet"
    label = "Diet sort (everyone puts the same card in a diet bin)"
    choice = "Diet sort: everyone puts the same card in a bin, carnivore, herbivore or omnivore"
    sorts_by = "diet"
    rules = SharedItemRules(classbins)

    def places(self, rnd, frame):
        bins = self.observe(rnd)["bins"]
        return [f"in the {bins[gap]} bin" if 0 <= gap < len(bins) else None for gap in frame["gap"]]
