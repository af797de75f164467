#!/usr/bin/env python
"""Measure the rules engines: engine steps per second and full random games per second (one core)."""

import argparse
import random
import time

from webapp.games import cardline, dinoblivion, stack
from webapp.games.dinoblivion.bots import random_bot


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


def main():
    """Print steps and games per second for each engine."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to run each engine")
    parser.add_argument("--stack-draws", type=int, metavar="GAMES",
                        help="instead, count Stack-O-Saurus draws in GAMES games between hard computer players, "
                             "under the rulebook's rules and under each house rule")
    parser.add_argument("--stack-players", type=int, default=2, metavar="N",
                        help="with --stack-draws: how many hard computer players sit at each game (2 to 6)")
    args = parser.parse_args()
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
