#!/usr/bin/env python
"""Measure the rules engines: engine steps per second and full random games per second (one core); or how often
Cardline's computer players win against a model student, or how often Stack-O-Saurus runs to a draw."""

import argparse
import math
import random
import time

from cards_db import loader
from cards_db.schema import RANGES
from webapp.common.characteristics import CHARACTERISTICS
from webapp.games import cardline, dinoblivion, stack
from webapp.games.cardline_bots import period_ranges
from webapp.games.dinoblivion.bots import random_bot
from webapp.tricky.learner import Learner


def cardline_games(seconds, players=4, hand_size=4, deck=110):
    """Play random Cardline games for `seconds`; return (steps, games, elapsed)."""
    rng = random.Random(0)
    cards = {f"card-{i}": rng.lognormvariate(3, 2) for i in range(deck)}
    config = {"cards": cards, "players": [f"P{i}" for i in range(players)],
              "hand_size": hand_size, "characteristic": "mass"}
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = cardline.new_game(config, games)
        while not cardline.is_over(state):
            seat = cardline.current_player(state)
            state = cardline.apply(state, seat, rng.choice(cardline.legal_actions(state)))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def stack_games(seconds, players=4):
    """Play random Stack-O-Saurus games for `seconds`; return (steps, games, elapsed)."""
    rng = random.Random(0)
    names = [f"P{i}" for i in range(players)]
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = stack.new_game({"players": names}, games)
        while not stack.is_over(state):
            state = stack.apply(state, state["turn"], rng.choice(stack.legal_actions(state)))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def dinoblivion_games(seconds, mode="duel", end_trigger="hunting_grounds"):
    """Play random Dinoblivion games (Duel, or Solo at gatherer) for `seconds`; return (steps, games, elapsed)."""
    rng = random.Random(0)
    config = {"mode": "duel", "players": ["P0", "P1"], "end_trigger": end_trigger} if mode == "duel" else \
        {"mode": "solo", "players": ["P0"], "difficulty": "gatherer"}
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = dinoblivion.new_game(config, games)
        while not dinoblivion.is_over(state):
            # The random bot ignores its observation, so none is built here: a step = legal_actions + apply.
            action = random_bot(None, dinoblivion.legal_actions(state), rng)
            state = dinoblivion.apply(state, state["turn"], action)
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


# The rule sets the draw count is measured under: the rulebook's, each house rule, both.
STACK_RULE_SETS = {"the rulebook's rules": {}, "house rule discard_any_time": {"discard_any_time": True},
                   "house rule sturdy_base": {"sturdy_base": True},
                   "both house rules": {"discard_any_time": True, "sturdy_base": True}}


def stack_draws(games, house_rules=None, players=2):
    """Play `games` Stack-O-Saurus games between hard computer players; return how many ran to the draw."""
    draws = 0
    names = [f"P{i}" for i in range(players)]
    for seed in range(games):
        state = stack.new_game({"players": names, **(house_rules or {})}, seed)
        rng = random.Random(seed)
        while not stack.is_over(state):
            seat = state["turn"]
            observation = stack.observation(state, seat)
            state = stack.apply(state, seat, stack.bot_choose(observation, stack.legal_actions(state), rng, "hard"))
        draws += state["winner"] is None
    return draws


def card_decks():
    """Return {(deck, characteristic): (values, ranges)} from the card data, as the app deals a Cardline game."""
    periods = loader.read_periods()
    positions = dict(zip(periods["period"], range(len(periods)), strict=True))
    decks = {}
    for key, spec in CHARACTERISTICS.items():
        for deck in spec["decks"]:
            frame = loader.read_deck(deck, periods=periods)
            if key == "period":
                values = {row.slug: positions[row.first_period] for row in frame.itertuples()
                          if row.first_period in positions}
            else:
                values = {row.slug: float(getattr(row, spec["column"])) for row in frame.itertuples()
                          if _known(getattr(row, spec["column"]))}
            low, high = RANGES.get(spec["column"], (None, None))
            ranges = {row.slug: [float(getattr(row, low)), float(getattr(row, high))] for row in frame.itertuples()
                      if low and row.slug in values and _known(getattr(row, low)) and _known(getattr(row, high))}
            if key == "period":  # as the app's Cardline adapter: the periods a first appearance's age reaches
                ages = {row.slug: float(row.first_appearance_ma) for row in frame.itertuples()
                        if row.slug in values and _known(row.first_appearance_ma)}
                spans = period_ranges(ages, [float(start) for start in periods["start_ma"]])
                ranges = {card: list(span) for card, span in spans.items() if span[0] <= values[card] <= span[1]}
            decks[deck, key] = values, ranges
    return decks


def _known(cell):
    return isinstance(cell, int | float) and math.isfinite(cell)


def child_move(state, student):
    """Return the model student's placement: the card it is surest of (fewest gaps it hesitates between)."""
    line, hand = state["line"], state["hands"][state["turn"]]
    width = {card: student.window(card, line)[1] - student.window(card, line)[0] for card in hand}
    card = min(hand, key=lambda c: (width[c], student.rng.random()))
    return {"type": "place", "card": card, "gap": student.choose_gap(card, line, day=0)}


def against_student(level, values, ranges, characteristic, seed, hand_size=4):
    """Play one Cardline game, a computer player of `level` (seat 0) against a model student; return the winners."""
    state = cardline.new_game({"cards": values, "ranges": ranges, "players": ["computer", "student"],
                               "hand_size": hand_size, "characteristic": characteristic,
                               "first_player": seed % 2}, seed)
    # A student who knows a little: rough sizes (it confuses close values), no card by heart. Within one game no
    # card is placed twice, so its learning from feedback plays no part.
    student = Learner(values, characteristic, random.Random(f"{seed}:student"))
    step = 0
    while not cardline.is_over(state):
        seat = cardline.current_player(state)
        step += 1
        action = cardline.computer_move(state, seat, level, seed, random.Random(f"{seed}:{step}")) if seat == 0 \
            else child_move(state, student)
        state = cardline.apply(state, seat, action)
    return state["winners"]


def win_rates(games, decks, hand_size=4):
    """Return {(deck, characteristic): {level: (computer alone, student alone, shared)}} over seeds 0 to games-1."""
    table = {}
    for (deck, key), (values, ranges) in decks.items():
        row = table[deck, key] = {}
        for level in cardline.BOT_LEVELS:
            winners = [against_student(level, values, ranges, key, seed, hand_size) for seed in range(games)]
            row[level] = (winners.count([0]), winners.count([1]), winners.count([0, 1]))
    return table


def print_win_rates(games, hand_size):
    """Print each computer level's wins against the model student, deck by deck, levels side by side."""
    table = win_rates(games, card_decks(), hand_size)
    levels = list(cardline.BOT_LEVELS)
    print(f"Cardline, a computer player against the model student (webapp/tricky/learner.py, knowing no card by "
          f"heart), {games} games a cell (seeds 0-{games - 1}, each side first in half), {hand_size} cards each.")
    print("Computer wins / student wins / shared, as % of games:")
    print(f"{'deck, sorted by':<28}" + "".join(f"{level:>22}" for level in levels))
    totals = {level: [0, 0, 0] for level in levels}
    for (deck, key), row in table.items():
        print(f"{deck + ', ' + key:<28}" + "".join(f"{_percentages(row[level], games):>22}" for level in levels))
        for level in levels:
            totals[level] = [a + b for a, b in zip(totals[level], row[level], strict=True)]
    print(f"{'all six':<28}" + "".join(f"{_percentages(totals[level], games * len(table)):>22}" for level in levels))


def _percentages(counts, games):
    return " / ".join(f"{100 * count / games:.0f}" for count in counts)


def main():
    """Print steps and games per second for each engine."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to run each engine")
    parser.add_argument("--stack-draws", type=int, metavar="GAMES",
                        help="instead, count Stack-O-Saurus draws in GAMES games between hard computer players, "
                             "under the rulebook's rules and under each house rule")
    parser.add_argument("--stack-players", type=int, default=2, metavar="N",
                        help="with --stack-draws: how many hard computer players sit at each game (2 to 6)")
    parser.add_argument("--cardline-bots", type=int, metavar="GAMES",
                        help="instead, play GAMES Cardline games for each computer level and deck against the model "
                             "student and print who wins")
    parser.add_argument("--hand-size", type=int, default=4, metavar="N", help="with --cardline-bots: cards each")
    args = parser.parse_args()
    if args.cardline_bots:
        print_win_rates(args.cardline_bots, args.hand_size)
        return
    if args.stack_draws:
        for label, house_rules in STACK_RULE_SETS.items():
            draws = stack_draws(args.stack_draws, house_rules, args.stack_players)
            print(f"stack-o-saurus, {args.stack_players} hard players, {label}: {draws} draws in {args.stack_draws} games "
                  f"(seeds 0-{args.stack_draws - 1})")
        return
    steps, games, elapsed = cardline_games(args.seconds)
    print(f"cardline: {steps / elapsed:,.0f} steps/s, {games / elapsed:,.0f} games/s "
          f"({steps:,} steps in {games:,} random games of 4 players x 4 cards, {elapsed:.1f} s; "
          f"a step = legal_actions + apply)")
    steps, games, elapsed = stack_games(args.seconds)
    print(f"stack-o-saurus: {steps / elapsed:,.0f} steps/s, {games / elapsed:,.0f} games/s "
          f"({steps:,} steps in {games:,} random 4-player games, {steps / games:.0f} steps a game)")
    steps, games, elapsed = dinoblivion_games(args.seconds)
    print(f"dinoblivion duel: {steps / elapsed:,.0f} steps/s, {games / elapsed:,.0f} games/s "
          f"({steps:,} steps in {games:,} random Duel games, {steps / games:.0f} steps a game)")
    steps, games, elapsed = dinoblivion_games(args.seconds, end_trigger="dinosaur_decks")
    print(f"dinoblivion duel, longer end reading: {steps / elapsed:,.0f} steps/s, {games / elapsed:,.0f} games/s "
          f"({steps:,} steps in {games:,} random Duel games, {steps / games:.0f} steps a game)")
    steps, games, elapsed = dinoblivion_games(args.seconds, mode="solo")
    print(f"dinoblivion solo: {steps / elapsed:,.0f} steps/s, {games / elapsed:,.0f} games/s "
          f"({steps:,} steps in {games:,} random Solo games at gatherer, {steps / games:.0f} steps a game)")


if __name__ == "__main__":
    main()
