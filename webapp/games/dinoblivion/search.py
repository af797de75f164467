"""A searching computer player for Dinoblivion: flat Monte Carlo over determinised hidden information.

The player sees only its observation. For each decision it samples full states consistent with the
observation (``engine.determinise``: the other hand and Cave, deck orders, the Jungle, face-down dinosaurs
and egg values are drawn again), tries each candidate action in the same sampled worlds (common random
numbers, so candidates are compared on the same luck), plays on with the greedy player for every seat, and
scores where that leads. Duel: rollouts play the rest of this turn and HORIZON more turns; the value is the
score difference plus a bonus for the result if the game ended, else for the lead. Solo: rollouts play to
the end; the value is the dinosaurs defeated, the Jungle left and a large bonus for a win.

Candidates are narrowed by sequential halving (after each phase the worse half is dropped, so the promising
actions get most of the rollouts). The greedy player's own choice is the yardstick: it is never dropped, and
another action is played only if it beats it on the same worlds by CONFIDENCE standard errors, so with little
time the player falls back on the greedy choice rather than on noise. It stops at the think-time limit (the clock is read
before every rollout step), or after a number of rollouts (then deterministic for a given ``rng``).
"""

import math
import random
import time
from collections import Counter

from webapp.games.base import IllegalAction
from webapp.games.dinoblivion import engine as E
from webapp.games.dinoblivion.bots import greedy_bot

THINK_SECONDS = 1.0
HORIZON = 8            # Duel: player turns played out after the current one before a rollout is scored
SOLO_HORIZON = E.MAX_TURNS  # Solo: to the end (the objective is all or nothing)
WIN_BONUS = 10         # Duel: points a win is worth over the score difference
SOLO_WIN = 100         # Solo: a win, over 10 points for each dinosaur defeated and SOLO_JUNGLE a Jungle card left
SOLO_JUNGLE = 1.0
CONFIDENCE = 1.0       # how many standard errors a candidate must beat the greedy choice by
IGNORED = frozenset({"cave", "uncave"})  # rarely useful, and the greedy rollouts never follow them up

clock = time.perf_counter  # the think-time clock (a test may replace it)


# ---------------------------------------------------------------------------------------------------
# A cheap observation of a sampled state for the greedy player in rollouts.

class _Lazy(dict):
    """A dict with the cheap parts of an observation; a missing key is loaded (with its neighbours) on first use."""

    def __init__(self, values, load):
        super().__init__(values)
        self._load = load

    def __missing__(self, key):
        loaded = self._load(key)
        for name, value in loaded.items():
            self.setdefault(name, value)
        return loaded[key]

    def get(self, key, default=None):
        """Return the value of `key` (loading the full observation if needed), or `default`."""
        try:
            return self[key]
        except KeyError:
            return default


def rollout_view(state, viewer):
    """Return what `viewer` sees of a sampled state, as ``engine.observation`` would, built lazily.

    The greedy player reads only a few fields; the costly ones (hidden multisets, the log, the result)
    are computed only if something asks for them.
    """
    cache = {}

    def full():
        if "obs" not in cache:
            cache["obs"] = E.observation(state, viewer)
        return cache["obs"]

    def player(index):
        # Points shown are computed only when the greedy player compares scores; the rest from the full view.
        def load(key):
            seat = state["seats"][index]
            if key in ("families", "totem_symbols"):
                return {"families": E.families(E.owned_cards(seat)), "totem_symbols": E.totem_symbols(seat)}
            if key == "hidden":
                cards = seat["deck"] if index == viewer else seat["deck"] + seat["hand"] + [c for c in [seat["cave"]] if c]
                return {"hidden": dict(sorted(Counter(E.KIND_OF[c] for c in cards).items()))}
            return full()["players"][index]
        return load

    players = []
    for index, seat in enumerate(state["seats"]):
        players.append(_Lazy({
            "seat": index, "clan": seat["clan"], "chief": seat["chief"],
            "food": seat["food"], "dino": seat["dino"], "buddy": seat["buddy"],
            "hand_size": len(seat["hand"]), "deck_size": len(seat["deck"]), "cave": seat["cave"] is not None,
            "discard": seat["discard"], "play": seat["play"], "totems": seat["totems"], "trophies": seat["trophies"],
            "eggs": len(seat["eggs"]), "shown_eggs": seat["shown"], "dinosaurs": len(seat["trophies"]),
        }, player(index)))
    dinos = {}
    for side in E.SIDES:
        pile = state["dinos"][side]
        below = sum(E.LEVEL[d] == 1 for d in pile[:-1])
        dinos[side] = {"top": pile[-1] if pile else None, "below": {"1": below, "2": max(0, len(pile) - 1 - below)}}
    me = state["seats"][viewer]
    return _Lazy({
        "game": E.NAME, "mode": state["mode"], "difficulty": state["difficulty"], "end_trigger": state["end_trigger"],
        "viewer": viewer,
        "phase": state["phase"], "turn": E.current_player(state), "first": state["first"], "turns": state["turns"],
        "max_turns": E.MAX_TURNS, "offer": state["offer"], "players": players,
        "hand": me["hand"], "cave": me["cave"], "dinosaurs": dinos,
        "grounds": {side: E.shown_ground(state, side, viewer) for side in E.SIDES},
        "ground_sizes": {side: len(pile) for side, pile in state["grounds"].items()},
        "jungle": _Lazy({"size": len(state["jungle"]), "setaside": len(state["setaside"])}, lambda key: full()["jungle"]),
        "enemies": state["enemies"], "strength": state["strength"], "fought": state["fought"],
        "free_plays": state["free"], "used_totems": state["used_totems"], "mated": state["mated"],
        "pending": state["pending"], "end": state["end"], "outcome": state["outcome"],
        "over": E.is_over(state), "workar_later": state.get("workar_later", False),
    }, lambda key: full())


# ---------------------------------------------------------------------------------------------------
# Rollouts and their value.

def _policy(state, seat, actions, rng):
    if len(actions) == 1:
        return actions[0]
    return greedy_bot(rollout_view(state, seat), actions, rng)


def rollout(state, me, rng, horizon=HORIZON, deadline=math.inf):
    """Play `state` on with the greedy player for every seat for `horizon` more turns; return its value for `me`.

    Return None if the `deadline` (a ``time.perf_counter`` value) passes first.
    """
    limit = state["turns"] + horizon
    while not E.is_over(state) and state["turns"] <= limit:
        if clock() >= deadline:
            return None
        seat = state["turn"]
        state = E.apply(state, seat, _policy(state, seat, E.legal_actions(state), rng))
    return value(state, me)


def value(state, me):
    """Score a (sampled) state for seat `me`: higher is better."""
    if state["mode"] == "solo":
        return _solo_value(state)
    mine = E.score_breakdown(state, me)
    theirs = E.score_breakdown(state, 1 - me)
    diff = mine["total"] - theirs["total"]
    if E.is_over(state):
        winners = E.result(state)["winners"]
        return diff + (0 if len(winners) > 1 else WIN_BONUS if me in winners else -WIN_BONUS)
    return diff + WIN_BONUS * 0.5 * (diff > 0) - WIN_BONUS * 0.5 * (diff < 0)


def _solo_value(state):
    # Dinosaurs defeated, and the Jungle left: it is the clock (an empty Jungle loses).
    progress = 10 * len(state["seats"][0]["trophies"]) + SOLO_JUNGLE * len(state["jungle"])
    if E.is_over(state) and state["outcome"]["won"]:
        return progress + SOLO_WIN
    return progress


# ---------------------------------------------------------------------------------------------------
# The search.

def candidates(observation, legal_actions):
    """Return the actions worth searching: all but the Cave moves (unless nothing else is left)."""
    return [a for a in legal_actions if a["type"] not in IGNORED] or list(legal_actions)


def search_move(observation, legal_actions, rng, think_seconds=THINK_SECONDS, iterations=None, horizon=None):
    """Choose one of `legal_actions` for the observing seat by flat Monte Carlo over determinised states.

    `observation` is ``engine.observation(state, seat)``: a full state is refused. The search stops after
    `think_seconds` (None: no time limit) or after `iterations` rollouts (None: no limit), whichever
    comes first; with only `iterations` it is deterministic for a given `rng`. `horizon`: the player turns
    each rollout plays after this one (default: HORIZON in a Duel, to the end in Solo).
    """
    if "seats" in observation or "viewer" not in observation:
        raise TypeError("search_move takes an observation (engine.observation), never a full state.")
    if think_seconds is None and iterations is None:
        raise ValueError("Give a think time, a number of rollouts, or both.")
    start = clock()
    deadline = start + think_seconds if think_seconds is not None else math.inf
    actions = list(legal_actions)
    if len(actions) == 1:
        return actions[0]
    me = observation["viewer"]
    if horizon is None:
        horizon = SOLO_HORIZON if observation["mode"] == "solo" else HORIZON
    greedy = greedy_bot(observation, actions, random.Random(rng.getrandbits(32)))
    pool = [greedy] + [a for a in candidates(observation, actions) if a != greedy]
    if len(pool) == 1:
        return greedy
    # values[i][r]: candidate i's rollout value in round r (one sampled world per round), None if not tried.
    values = [[] for _ in pool]
    alive = list(range(len(pool)))
    budget = iterations if iterations is not None else math.inf
    spent = 0
    per_rollout = None
    phases = max(1, math.ceil(math.log2(len(pool))))
    for phase in range(phases):
        # Sequential halving: each phase plays an equal share of the rollouts left, then drops the worse half.
        target, done = None, 0
        while target is None or done < target:
            if spent + len(alive) > budget or clock() >= deadline:
                break
            results = _round(observation, me, [pool[i] for i in alive], rng, horizon, deadline)
            if results is None:
                break
            spent += len(alive)
            done += 1
            tried = dict(zip(alive, results))
            for i, row in enumerate(values):
                row.append(tried.get(i))
            if target is None:
                if per_rollout is None:
                    per_rollout = max(1e-6, (clock() - start) / len(alive))
                left = min(budget - spent, (deadline - clock()) / per_rollout)
                target = done + int(left / (phases - phase) // len(alive))
        else:
            if len(alive) > 2:
                # The greedy choice stays as the yardstick; the others keep the better half.
                ranked = sorted(alive[1:], key=lambda i: (-_mean(values[i]), i))
                alive = [0] + sorted(ranked[:max(1, math.ceil(len(alive) / 2) - 1)])
            continue
        break
    best = max(alive, key=lambda i: (_mean(values[i]), -i))
    return pool[best] if _better(values[best], values[0]) else greedy


def _mean(row):
    tried = [v for v in row if v is not None]
    return sum(tried) / len(tried) if tried else -math.inf


def _better(row, baseline):
    """Say whether a candidate beats the greedy choice clearly on the worlds both were tried in."""
    diffs = [v - b for v, b in zip(row, baseline) if v is not None and b is not None]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return mean > CONFIDENCE * spread / math.sqrt(n)


def _round(observation, me, actions, rng, horizon, deadline):
    """Evaluate every action on one sampled world with the same rollout luck; None if time ran out."""
    world = E.determinise(observation, me, rng)
    seed = rng.getrandbits(64)
    results = []
    for action in actions:
        if clock() >= deadline:
            return None
        try:
            state = E.apply(world, me, action)
        except IllegalAction:
            results.append(-1e9)
            continue
        result = rollout(state, me, random.Random(seed), horizon, deadline)
        if result is None:
            return None
        results.append(result)
    return results
