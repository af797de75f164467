#!/usr/bin/env python
"""Play Dinoblivion computer players against each other and print win rates, scores and think times.

Duel matches (random vs greedy, greedy vs search, search vs random by default) play each deal twice with
the seats swapped, so each player starts as often as the other on the same cards. Solo: win rates per
difficulty for greedy and search. Every player sees only its observation.

    python scripts/bench_dinoblivion_bots.py --games 40 --think 1.0 --seed 1 --solo-games 10
"""

import argparse
import math
import multiprocessing
import random
import sys
import time

from webapp.games.dinoblivion import engine as E
from webapp.games.dinoblivion.bots import greedy_bot, random_bot
from webapp.games.dinoblivion.search import search_move

PLAYERS = ("random", "greedy", "search")
DEFAULT_MATCHES = ("random:greedy", "greedy:search", "search:random")


def choose(name, observation, actions, rng, think):
    """Return (action, (wall-clock seconds, CPU seconds) spent) for player `name`."""
    start, cpu = time.perf_counter(), time.process_time()
    if name == "random":
        action = random_bot(observation, actions, rng)
    elif name == "greedy":
        action = greedy_bot(observation, actions, rng)
    else:
        action = search_move(observation, actions, rng, think_seconds=think)
    return action, (time.perf_counter() - start, time.process_time() - cpu)


def play(config, seed, names, think):
    """Play one game; return the result, each seat's score and the search player's decision times."""
    state = E.new_game(config, seed)
    rngs = [random.Random(f"{seed}:{seat}:{name}") for seat, name in enumerate(names)]
    times = []
    while not E.is_over(state):
        seat = E.current_player(state)
        actions = E.legal_actions(state)
        action, spent = choose(names[seat], E.observation(state, seat), actions, rngs[seat], think)
        if names[seat] == "search" and len(actions) > 1:
            times.append(spent)
        state = E.apply(state, seat, action)
    return E.result(state), state["turns"], times


def duel_game(job):
    """Play deal `index` of a match with the seats in the order given; return what the tally needs."""
    first, second, index, seed, think, swap, end_trigger, workar_later = job
    names = (second, first) if swap else (first, second)
    config = {"mode": "duel", "players": list(names), "end_trigger": end_trigger, "workar_later": workar_later}
    result, turns, times = play(config, f"{seed}:{first}:{second}:{index}", names, think)
    me = 1 if swap else 0   # the seat `first` plays
    winners = result["winners"]
    outcome = "draw" if len(winners) > 1 else "win" if me in winners else "loss"
    return {"outcome": outcome, "scores": (result["scores"][me], result["scores"][1 - me]), "turns": turns,
            "times": times}


def solo_game(job):
    """Play one Solo game; return whether it was won and the search player's decision times."""
    name, difficulty, index, seed, think = job
    config = {"mode": "solo", "players": [name], "difficulty": difficulty}
    result, turns, times = play(config, f"{seed}:solo:{difficulty}:{index}", (name,), think)
    return {"won": result["won"], "turns": turns, "times": times, "dinosaurs": result["breakdown"][0]["dinosaurs"]}


def wilson(successes, n, z=1.96):
    """Return the 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _times(times, think):
    """Describe the search player's think times: wall clock (what a player waits) and CPU (what it computed)."""
    if not times:
        return "no searched decisions"
    wall = [w for w, _ in times]
    cpu = [c for _, c in times]
    late = sum(w > think + 0.05 for w in wall)
    return f"search time per decision ({len(times)} decisions): wall clock mean {1000 * sum(wall) / len(wall):.0f} ms, " \
           f"max {1000 * max(wall):.0f} ms, {late} over {think} s by more than 50 ms; " \
           f"CPU mean {1000 * sum(cpu) / len(cpu):.0f} ms, max {1000 * max(cpu):.0f} ms"


def report_duel(first, second, rows, think):
    n = len(rows)
    wins = sum(r["outcome"] == "win" for r in rows)
    draws = sum(r["outcome"] == "draw" for r in rows)
    losses = n - wins - draws
    lo, hi = wilson(wins, n)
    thinking = f", search think time {think} s" if "search" in (first, second) else ""
    print(f"Duel {first} vs {second}: {n} games (each deal twice, seats swapped){thinking}")
    print(f"  {first} wins {wins} ({100 * wins / n:.0f}%, 95% CI {100 * lo:.0f}-{100 * hi:.0f}%), "
          f"draws {draws} ({100 * draws / n:.0f}%), losses {losses} ({100 * losses / n:.0f}%)")
    print(f"  average score {first} {sum(r['scores'][0] for r in rows) / n:.1f}, "
          f"{second} {sum(r['scores'][1] for r in rows) / n:.1f}; average turns {sum(r['turns'] for r in rows) / n:.1f}")
    times = [t for r in rows for t in r["times"]]
    if "search" in (first, second):
        print(f"  {_times(times, think)}")
    sys.stdout.flush()


def report_solo(name, difficulty, rows, think):
    n = len(rows)
    wins = sum(r["won"] for r in rows)
    lo, hi = wilson(wins, n)
    line = f"Solo {difficulty:8} {name:6}: won {wins}/{n} ({100 * wins / n:.0f}%, 95% CI {100 * lo:.0f}-{100 * hi:.0f}%), " \
           f"average dinosaurs {sum(r['dinosaurs'] for r in rows) / n:.1f}/7, turns {sum(r['turns'] for r in rows) / n:.1f}"
    if name == "search":
        line += f"; think {think} s, {_times([t for r in rows for t in r['times']], think)}"
    print(line)
    sys.stdout.flush()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="Duel games per match (rounded up to an even number)")
    parser.add_argument("--think", type=float, default=1.0, help="search think time per decision, in seconds")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--matches", default=",".join(DEFAULT_MATCHES),
                        help="comma-separated first:second pairs of " + "/".join(PLAYERS) + " ('' for none)")
    parser.add_argument("--solo-games", type=int, default=0, help="Solo games per difficulty and player")
    parser.add_argument("--solo-players", default="greedy,search")
    parser.add_argument("--difficulties", default=",".join(E.DIFFICULTIES))
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--end-trigger", default=E.END_TRIGGERS[0], choices=E.END_TRIGGERS,
                        help="how a Duel ends: the rulebook's words (hunting_grounds) or the longer reading")
    parser.add_argument("--workar-later", action="store_true",
                        help="the house rule: Workar's second Action card later in the turn (default: the rulebook's, "
                             "at once)")
    args = parser.parse_args(argv)
    deals = (args.games + 1) // 2
    matches = [tuple(m.split(":")) for m in args.matches.split(",") if m]
    for first, second in matches:
        if first not in PLAYERS or second not in PLAYERS:
            parser.error(f"unknown player in {first}:{second}")
    started = time.perf_counter()
    with multiprocessing.Pool(args.processes) as pool:
        for first, second in matches:
            jobs = [(first, second, i, args.seed, args.think, swap, args.end_trigger, args.workar_later)
                    for i in range(deals) for swap in (False, True)]
            report_duel(first, second, pool.map(duel_game, jobs, chunksize=1), args.think)
        if args.solo_games:
            for name in args.solo_players.split(","):
                for difficulty in args.difficulties.split(","):
                    jobs = [(name, difficulty, i, args.seed, args.think) for i in range(args.solo_games)]
                    report_solo(name, difficulty, pool.map(solo_game, jobs, chunksize=1), args.think)
    print(f"({time.perf_counter() - started:.0f} s wall clock, {args.processes} processes)")


if __name__ == "__main__":
    main()
