"""A model student for the benches: who confuses close values, learns a card from feedback, and forgets over days.

Pure code (no Flask, no database, randomness only from the `random.Random` passed in). The learning bench
(scripts/bench_learning.py) and the computer players' bench (scripts/bench_engines.py) share it.

The model, in four rules:

1. **Confusion.** Two cards are *confusable* when their values are closer than a threshold of the characteristic:
   a relative difference for measures (``|a - b| / max(|a|, |b|)`` below ``CONFUSION[characteristic]``), a number
   of periods for the period (neighbouring periods: the Triassic and the Jurassic).
2. **Placing.** The line's cards show their values (as on every board), so placing a card needs only that card's
   value. A card the student *remembers* is placed right. Otherwise the student places it right against every card
   it is not confusable with, and picks at random among the gaps between the cards it confuses it with.
3. **Learning.** After a verdict (the card is shown where it belongs), a card the student did not remember is
   learned with probability ``learn_chance``; it is then remembered with stability ``first_stability`` days.
   A card recalled again strengthens (stability times ``growth``: the spacing effect).
4. **Forgetting.** A learned card is recalled ``t`` days after its last review with probability
   ``exp(-t / stability)`` (Ebbinghaus's curve).

Interface: ``Learner(values, characteristic, rng, model=LearnerModel(), known=())``, then ``choose_gap(card, line,
day)`` for a placement, ``feedback(card, day)`` after its verdict, ``deck_accuracy(day)`` to measure.
"""

import math
from dataclasses import dataclass

# Values closer than this are confused: a relative difference for measures, a number of periods for the period.
CONFUSION = {"mass": 0.35, "length": 0.25, "lifespan": 0.3, "period": 1}
KNOWN_FOR_DAYS = 365.0


@dataclass(frozen=True)
class LearnerModel:
    """The model student's parameters (the defaults are the ones the README's figures use)."""

    learn_chance: float = 0.5
    first_stability: float = 2.0
    growth: float = 2.5
    confusion: dict | None = None  # per characteristic; None: CONFUSION


def confusable(a, b, characteristic, threshold=None):
    """Say whether values `a` and `b` are closer than the characteristic's threshold (equal values never confuse).

    >>> confusable(1000, 1200, "mass"), confusable(1000, 2000, "mass")
    (True, False)
    >>> confusable(3, 4, "period"), confusable(3, 5, "period")
    (True, False)
    """
    if a == b:
        return False
    threshold = CONFUSION.get(characteristic, 0.3) if threshold is None else threshold
    if characteristic == "period":
        return abs(a - b) <= threshold
    return abs(a - b) / max(abs(a), abs(b)) < threshold


class Learner:
    """One simulated student sorting one deck by one characteristic."""

    def __init__(self, values, characteristic, rng, model=None, known=()):
        """Start a student who knows the cards `known` for about a year and nothing else beyond rough sizes."""
        self.values, self.characteristic, self.rng = dict(values), characteristic, rng
        self.model = model or LearnerModel()
        self.threshold = (self.model.confusion or CONFUSION).get(characteristic, 0.3)
        # card -> (day of the last review, stability in days)
        self.memory = {card: (0.0, KNOWN_FOR_DAYS) for card in known}

    def confuses(self, a, b):
        """Say whether this student cannot tell cards `a` and `b` apart without knowing them."""
        return confusable(self.values[a], self.values[b], self.characteristic, self.threshold)

    def recall(self, card, day):
        """Return the probability the student remembers `card`'s value on `day`."""
        if card not in self.memory:
            return 0.0
        last, stability = self.memory[card]
        return math.exp(-max(day - last, 0.0) / stability)

    def window(self, card, line):
        """Return (first, last) gap the student may choose when not remembering `card`, before a line in order."""
        value = self.values[card]
        # Sure of every card it does not confuse: those below go left, those above go right.
        first = sum(1 for other in line if self.values[other] < value and not self.confuses(card, other))
        last = len(line) - sum(1 for other in line if self.values[other] > value and not self.confuses(card, other))
        return first, last

    def right_gaps(self, card, line):
        """Return (first, last) of the gaps where `card` belongs in `line` (equal values may go either side)."""
        value = self.values[card]
        return sum(self.values[o] < value for o in line), len(line) - sum(self.values[o] > value for o in line)

    def choose_gap(self, card, line, day):
        """Return the gap (0 to len(line)) where the student puts `card` in `line` (card ids sorted by value)."""
        if self.rng.random() < self.recall(card, day):
            self._strengthen(card, day)
            return self.right_gaps(card, line)[0]
        first, last = self.window(card, line)
        return self.rng.randint(first, last)

    def feedback(self, card, day):
        """Let the student see where `card` belongs: a card not remembered is learned with some probability."""
        if card in self.memory and self.memory[card][0] == day:
            return  # recalled this very day: choose_gap strengthened it already
        if self.rng.random() < self.model.learn_chance:
            self.memory[card] = (day, self.model.first_stability)

    def _strengthen(self, card, day):
        last, stability = self.memory[card]
        if last < day:
            self.memory[card] = (day, stability * self.model.growth)

    def chance_right(self, card, line, day):
        """Return the probability the student places `card` right in `line` on `day` (no randomness used)."""
        first, last = self.window(card, line)
        right_first, right_last = self.right_gaps(card, line)
        lucky = (min(last, right_last) - max(first, right_first) + 1) / (last - first + 1)
        recalled = self.recall(card, day)
        return recalled + (1 - recalled) * lucky

    def deck_accuracy(self, day):
        """Return the expected share of the deck's cards placed right, each into a line of all the others."""
        cards = sorted(self.values, key=lambda c: (self.values[c], c))
        chances = [self.chance_right(card, [c for c in cards if c != card], day) for card in cards]
        return sum(chances) / len(chances)
