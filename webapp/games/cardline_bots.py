"""Cardline's computer players: each level is defined by what it knows about a card, never by the card's true value.

A computer player receives its observation (its hand's card ids, the line and the box face up with their values)
and, for each card in its hand, what the card data publishes about it: the range its published estimates span
(sizes and weights), or the one typical value where no range is published (lifespans); by period, the periods its
published first appearance spans once taken to be as uncertain as one figure is (`period_ranges`). Each level keeps
only part of that:

- **easy** knows the order of magnitude ("hundreds of kilograms", "a few metres": the power of ten the range's
  midpoint falls in); for periods, that of the age ("hundreds of millions of years ago"): every period that
  shares a power of ten of millions of years with the periods its first appearance may fall in.
- **medium** remembers the range's midpoint, roughly: blurred by a factor it does not know (log-normal, fixed per
  game and card); for periods, a period or so either way.
- **hard** knows the whole published range, and the values of every card already in the line. Where its range
  straddles a card in the line the data cannot say which side the card belongs, and it guesses. One figure alone
  (a lifespan, or a range of one estimate) is no certainty: hard takes it to be as uncertain as a published range
  of several estimates is in the median. So too a first appearance's age (one figure, in millions of years): hard
  believes each period that age's range reaches equally likely: sure of the Paleogene for an animal of 50 million
  years ago, torn between the Jurassic and the Cretaceous for one of 150, and among three of the Paleozoic's short
  periods for a trilobite of 520.

Every level plays the same way with what it knows: it places the card it is surest of (a card whose every possible
value belongs in the same gap is sure; among sure cards, the one furthest from its neighbours), and when no card is
sure, it guesses a gap in proportion to how much of what it believes falls there. So a level misses only where its
knowledge is too coarse, and the hard level only where the published estimates themselves overlap the line.
"""

import math
import random
from bisect import bisect_left, bisect_right

LEVELS = {
    "easy": "knows only each animal's order of magnitude (by period, of its age: tens or hundreds of millions of years)",
    "medium": "remembers each animal's typical value roughly",
    "hard": "knows the published estimates' ranges and every card in the line, and guesses where a range overlaps",
}
# How roughly medium remembers a midpoint: a log-normal factor (0.4: within a factor of 1.5 two times in three),
# and a number of periods (normal, rounded).
MEDIUM_LOG_SIGMA = 0.4
MEDIUM_PERIOD_SIGMA = 1.0
# How uncertain hard takes one published figure to be: half the median width (as a log ratio, 0.405) of the card
# data's ranges that span more than one estimate, so a factor of about 1.22 either way.
ONE_FIGURE_LOG_HALF_WIDTH = 0.2
# Each period's start and end (millions of years ago), positions 0-11 as in cards_db/data/periods.csv
# (tests/test_bots.py holds the two together).
PERIOD_SPANS = ((538.8, 486.85), (486.85, 443.1), (443.1, 419.62), (419.62, 358.86), (358.86, 298.9), (298.9, 251.902),
                (251.902, 201.4), (201.4, 143.1), (143.1, 66.0), (66.0, 23.04), (23.04, 2.58), (2.58, 0.0))
# A range is believed as this many equally likely values spread evenly across it.
SAMPLES = 24


def period_ranges(first_appearances, period_starts):
    """Return {card: (low, high)}, the positions of the periods each published first-appearance age (Ma) reaches
    when taken to be as uncertain as one figure (ONE_FIGURE_LOG_HALF_WIDTH); `period_starts` is each period's start
    (Ma), oldest first."""
    def position(age):
        return max((p for p, start in enumerate(period_starts) if start >= age), default=0)

    spread = math.exp(ONE_FIGURE_LOG_HALF_WIDTH)
    return {card: (position(age * spread), position(age / spread)) for card, age in first_appearances.items()}


def scale(value, characteristic):
    """Return a value on the scale its comparisons are judged on: periods as positions, measures by ratio."""
    return value if characteristic == "period" else math.log(max(value, 1e-12))


def beliefs(level, published, characteristic, seed):
    """Return {card: the equally likely values (on the scale) a computer player of `level` holds for it}.

    `published` is {card: (low, high)} for the player's hand only: the published range, or (typical, typical).
    """
    if level not in LEVELS:
        raise ValueError(f"There is no computer level {level!r}.")
    return {card: _belief(level, low, high, characteristic, random.Random(f"{seed}:{card}:{level}"))
            for card, (low, high) in published.items()}


def _belief(level, low, high, characteristic, rng):
    if characteristic == "period":
        middle = round((low + high) / 2)
        if level == "easy":
            return same_order_of_magnitude(range(math.floor(low), math.ceil(high) + 1))
        if level == "medium":
            return [round(middle + rng.gauss(0, MEDIUM_PERIOD_SIGMA))]
        return sorted({low, high} | set(range(math.ceil(low), math.floor(high) + 1)))
    low, high = scale(low, characteristic), scale(high, characteristic)
    middle = (low + high) / 2
    if level == "easy":
        power = math.floor(middle / math.log(10))
        return _spread(power * math.log(10), (power + 1) * math.log(10))
    if level == "medium":
        return [middle + rng.gauss(0, MEDIUM_LOG_SIGMA)]
    if low == high:
        return _spread(low - ONE_FIGURE_LOG_HALF_WIDTH, high + ONE_FIGURE_LOG_HALF_WIDTH)
    return _spread(low, high)


def powers_of_ten(start, end):
    """Return the powers of ten of millions of years a span of time (Ma, oldest first) reaches."""
    return set(range(math.floor(math.log10(max(end, 0.01))), math.floor(math.log10(start)) + 1))


def same_order_of_magnitude(positions):
    """Return the positions of the periods sharing a power of ten of millions of years with any of `positions`."""
    powers = set().union(*(powers_of_ten(*PERIOD_SPANS[p]) for p in positions if 0 <= p < len(PERIOD_SPANS)))
    return [p for p, span in enumerate(PERIOD_SPANS) if powers_of_ten(*span) & powers]


def _spread(low, high):
    if low == high:
        return [low]
    step = (high - low) / SAMPLES
    return [low + (i + 0.5) * step for i in range(SAMPLES)]


def gap_shares(believed, line):
    """Return, for each gap of `line` (values on the scale, in order), the share of `believed` values right there."""
    shares = [0.0] * (len(line) + 1)
    for value in believed:
        for gap in range(bisect_left(line, value), bisect_right(line, value) + 1):
            shares[gap] += 1 / len(believed)
    return shares


def room(believed, line, gap):
    """Return how far the believed values keep from the line's cards on either side of `gap`."""
    left = min(believed) - line[gap - 1] if gap > 0 else math.inf
    right = line[gap] - max(believed) if gap < len(line) else math.inf
    return min(left, right)


def choose(observation, actions, rng, believed):
    """Return the placement a computer player makes from its observation and `believed` ({card: values})."""
    characteristic = observation["characteristic"]
    line = [scale(entry["value"], characteristic) for entry in observation["line"]]
    best, best_score = None, None
    for card in observation["hand"]:
        shares = gap_shares(believed[card], line)
        gap = max(range(len(shares)), key=lambda g: (shares[g], room(believed[card], line, g)))
        sure = shares[gap] > 1 - 1e-9
        score = (shares[gap], room(believed[card], line, gap) if sure else 0.0, rng.random())
        if best_score is None or score > best_score:
            best, best_score = (card, gap, shares), score
    card, gap, shares = best
    if best_score[0] <= 1 - 1e-9:
        gap = rng.choices(range(len(shares)), weights=shares)[0]
    action = {"type": "place", "card": card, "gap": gap}
    return action if action in actions else rng.choice(actions)
