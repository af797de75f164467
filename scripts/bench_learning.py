#!/usr/bin/env python
"""Simulate learners practising a deck: random dealing against "Practise my tricky cards", side by side in one run.

Each seed makes one deck (cards drawn from the app's own card data) and one model student (webapp/tricky/learner.py),
copied for the two ways of dealing, so both meet the same student with the same luck. A practice a day deals
`count` + 1 cards into a line (the first starts the line face up, as in the app); each placement is judged and
shown where it belongs, and the student learns from it. The accuracy on the deck (the expected share of its cards
placed right into a line of all the others) is measured at the start of each day, before practising; the figure is
the number of placements made before it first reaches the target.

    PYTHONPATH=. python scripts/bench_learning.py                         # mass: the README's first figure
    PYTHONPATH=. python scripts/bench_learning.py --characteristic period  # length, period, lifespan: the others
"""

import argparse
import csv
import itertools
import random
import statistics
from datetime import UTC, datetime, timedelta
from pathlib import Path

from webapp.tricky import schedule
from webapp.tricky.learner import Learner, LearnerModel

DATA = Path(__file__).resolve().parent.parent / "cards_db" / "data"
COLUMNS = {"mass": ("dinosaurs", "mass_kg"), "length": ("dinosaurs", "length_m"), "lifespan": ("animals", "lifespan_years")}
START = datetime(2026, 1, 5, 16, tzinfo=UTC)  # a weekday after school: one practice a day from then on


def deck_values(characteristic):
    """Return {slug: value} of every card of the app's data with a value for the characteristic."""
    if characteristic == "period":
        with open(DATA / "periods.csv", newline="") as periods:
            positions = {row["period"]: index for index, row in enumerate(csv.DictReader(periods))}
        with open(DATA / "dinosaurs.csv", newline="") as cards:
            return {row["slug"]: positions[row["first_period"]] for row in csv.DictReader(cards)
                    if row["first_period"] in positions}
    deck, column = COLUMNS[characteristic]
    with open(DATA / f"{deck}.csv", newline="") as cards:
        return {row["slug"]: float(row[column]) for row in csv.DictReader(cards) if row[column]}


def random_deal(history, values, size, now, rng):
    """Deal as every practice did before: `size` cards at random."""
    return rng.sample(sorted(values), size)


def tricky_deal(characteristic):
    """Return a dealer that deals as "Practise my tricky cards" does: from the history and the deck's values."""
    def dealer(history, values, size, now, rng):
        memory = schedule.remember(history, characteristic, values)
        return [dealt.card for dealt in schedule.deal(memory, values, size, now, rng)]
    return dealer


def practise(learner, dealt, day, now, characteristic):
    """Play one line of the dealt cards; return the placements, as the browser would record them."""
    values, placements = learner.values, []
    line = [dealt[0]]
    for card in dealt[1:]:
        gap = learner.choose_gap(card, line, day)
        first, last = learner.right_gaps(card, line)
        right = first <= gap <= last
        passed = line[gap:first] if gap < first else line[last:gap]
        learner.feedback(card, day)
        line.insert(first, card)
        beside = [c for c in line[max(first - 1, 0):first + 2] if c != card]
        placements.append(schedule.Placement(card, characteristic, right, now, passed=tuple(passed),
                                             beside=tuple(beside), game=f"day-{day}"))
        now += timedelta(seconds=10)
    assert all(values[a] <= values[b] for a, b in itertools.pairwise(line))
    return placements


def placements_to_target(values, characteristic, dealer, seed, count, target, max_days):
    """Return (placements, days) a student needs before the deck's accuracy reaches `target` (None if never)."""
    learner = Learner(values, characteristic, random.Random(seed), LearnerModel())
    deal_rng, history, made = random.Random(seed + 1), [], 0
    for day in range(max_days):
        if learner.deck_accuracy(day) >= target:
            return made, day
        now = START + timedelta(days=day)
        dealt = dealer(history, values, count + 1, now, deal_rng)
        history += practise(learner, dealt, day, now, characteristic)
        made += count
    return None, max_days


def bench(characteristic="mass", deck_size=30, seeds=40, count=10, target=0.9, max_days=400):
    """Return one row per seed: (seed, random placements, tricky placements), None when the target was not reached."""
    everything = deck_values(characteristic)
    rows = []
    for seed in range(seeds):
        values = dict(random.Random(seed).sample(sorted(everything.items()), deck_size))
        at_random = placements_to_target(values, characteristic, random_deal, seed, count, target, max_days)[0]
        tricky = placements_to_target(values, characteristic, tricky_deal(characteristic), seed, count, target,
                                      max_days)[0]
        rows.append((seed, at_random, tricky))
    return rows


def summary(rows):
    """Return (median random, median tricky, saving) over the seeds where both reached the target."""
    both = [(a, b) for _, a, b in rows if a is not None and b is not None]
    if not both:
        return None, None, None
    random_median = statistics.median(a for a, _ in both)
    tricky_median = statistics.median(b for _, b in both)
    return random_median, tricky_median, 1 - tricky_median / random_median


def main():
    """Print the placements each way of dealing needs, seed by seed, and a summary line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characteristic", default="mass", choices=["mass", "length", "lifespan", "period"])
    parser.add_argument("--deck-size", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--count", type=int, default=10, help="cards placed per practice (one practice a day)")
    parser.add_argument("--target", type=float, default=0.9)
    args = parser.parse_args()
    model = LearnerModel()
    print(f"Model student: learns a card after feedback with p={model.learn_chance}, remembers it "
          f"{model.first_stability} days at first (x{model.growth} per recall), confuses {args.characteristic} "
          f"values closer than {Learner({}, args.characteristic, None).threshold}.")
    print(f"Deck of {args.deck_size} cards, {args.count} placements a day, target {args.target:.0%} accuracy.")
    rows = bench(args.characteristic, args.deck_size, args.seeds, args.count, args.target)
    print(f"{'seed':>4}  {'random':>8}  {'tricky':>8}")
    for seed, at_random, tricky in rows:
        print(f"{seed:>4}  {at_random if at_random is not None else 'never':>8}  "
              f"{tricky if tricky is not None else 'never':>8}")
    random_median, tricky_median, saving = summary(rows)
    if saving is None:
        print("summary: no seed reached the target both ways")
    else:
        fewer = sum(1 for _, a, b in rows if a is not None and b is not None and b < a)
        print(f"summary: median placements to {args.target:.0%}: random {random_median:g}, tricky {tricky_median:g}: "
              f"tricky needs {saving:.0%} fewer (fewer in {fewer} of {len(rows)} seeds)")


if __name__ == "__main__":
    main()
