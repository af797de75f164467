"""The searching Dinoblivion player: legal, on time, deterministic, blind to hidden cards, and stronger than random."""

import json
import random
import time

import pytest

from webapp.games.dinoblivion import engine as E
from webapp.games.dinoblivion import search as S
from webapp.games.dinoblivion.bots import greedy_bot, random_bot

DUEL = {"mode": "duel", "players": ["Ann", "Bob"]}


def solo(difficulty="gatherer"):
    return {"mode": "solo", "players": ["Ann"], "difficulty": difficulty}


def positions(config, games, every=3, seed=0):
    """Return states met in games of greedy against random play: every `every` steps, and every pending choice."""
    found = []
    rng = random.Random(seed)
    for game in range(games):
        state = E.new_game(config, f"positions:{seed}:{game}")
        step = 0
        while not E.is_over(state):
            seat = E.current_player(state)
            if step % every == 0 or state["pending"]:
                found.append(state)
            bot = greedy_bot if (seat + game) % 2 == 0 else random_bot
            state = E.apply(state, seat, bot(E.observation(state, seat), E.legal_actions(state), rng))
            step += 1
    return found


def blind(state):
    """Return the acting seat's observation as plain JSON data: nothing in it can reach the real state."""
    seat = E.current_player(state)
    return json.loads(json.dumps(E.observation(state, seat)))


def choose(state, seed=0, **options):
    options.setdefault("think_seconds", None)
    options.setdefault("iterations", 24)
    return S.search_move(blind(state), E.legal_actions(state), random.Random(seed), **options)


@pytest.fixture(scope="module")
def duel_positions():
    return positions(DUEL, 6)


@pytest.fixture(scope="module")
def solo_positions():
    return positions(solo(), 2, every=6) + positions(solo("chief"), 2, every=6, seed=1)


def sample(states, count, seed=0):
    return random.Random(seed).sample(states, min(count, len(states)))


def test_legal_in_many_duel_positions(duel_positions):
    pending = [s for s in duel_positions if s["pending"]]
    assert pending, "the sample should hold pending choices (a card to destroy or to gain)"
    for state in sample(duel_positions, 40) + pending[:10]:
        assert choose(state) in E.legal_actions(state)


def test_legal_in_many_solo_positions(solo_positions):
    pending = [s for s in solo_positions if s["pending"]]
    for state in sample(solo_positions, 30) + pending[:10]:
        assert choose(state) in E.legal_actions(state)


def test_legal_in_the_set_up_steps():
    state = E.new_game(DUEL, 3)
    while state["phase"] != "play":
        assert choose(state) in E.legal_actions(state)
        state = E.apply(state, state["turn"], choose(state))
    state = E.new_game(solo(), 3)
    assert choose(state) in E.legal_actions(state)


def workar_positions(config, wanted=4):
    """Return states of random games where a player chooses Workar's second Action card (the rulebook's reading)."""
    found = []
    rng = random.Random(0)
    for game in range(300):
        state = E.new_game(config, f"workar:{game}")
        while not E.is_over(state) and len(found) < wanted:
            if state["pending"] and state["pending"][0]["kind"] == "workar":
                found.append(state)
            state = E.apply(state, E.current_player(state), random_bot(None, E.legal_actions(state), rng))
        if len(found) >= wanted:
            break
    return found


def test_legal_under_either_reading_of_workar():
    found = workar_positions(DUEL)
    assert found, "random play should reach Workar's second Action card"
    later = positions({**DUEL, "workar_later": True}, 2, every=5)
    for index, state in enumerate(found + later[::3]):
        actions = E.legal_actions(state)
        assert choose(state, seed=index) in actions
        assert greedy_bot(E.observation(state, state["turn"]), actions, random.Random(index)) in actions


def test_keeps_to_its_think_time(duel_positions, solo_positions):
    # The machine may be shared: the margin allows for the scheduler, the fake-clock test below is exact.
    think = 0.15
    for state in sample(duel_positions, 6, seed=1) + sample(solo_positions, 3, seed=1):
        start = time.perf_counter()
        action = choose(state, think_seconds=think, iterations=None)
        assert time.perf_counter() - start < think + 0.25
        assert action in E.legal_actions(state)


def test_looks_at_the_clock_between_every_step(duel_positions, solo_positions, monkeypatch):
    """With a clock that moves 1 ms per reading, the search stops within a reading or two of its limit."""
    now = [0.0]

    def clock():
        now[0] += 0.001
        return now[0]

    monkeypatch.setattr(S, "clock", clock)
    used = []
    for state in sample(duel_positions, 4, seed=3) + sample(solo_positions, 2, seed=3):
        start = now[0]
        assert choose(state, think_seconds=0.3, iterations=None) in E.legal_actions(state)
        used.append(now[0] - start)
    assert max(used) <= 0.3 + 0.003
    assert sum(u > 0.25 for u in used) >= 3, "most of these decisions need a search that fills the time"


def test_deterministic_for_a_seed_and_a_budget(duel_positions, solo_positions):
    for state in sample(duel_positions, 8, seed=2) + sample(solo_positions, 4, seed=2):
        assert choose(state, seed=7) == choose(state, seed=7)


def test_refuses_a_full_state(duel_positions):
    state = duel_positions[5]
    with pytest.raises(TypeError):
        S.search_move(state, E.legal_actions(state), random.Random(0), think_seconds=None, iterations=4)


def test_blind_to_the_opponents_hidden_cards(duel_positions, monkeypatch):
    """Reshuffling what the searcher cannot see (other hand, decks, Jungle, eggs) does not change its choice."""
    sampled = []
    real_determinise = E.determinise

    def determinise(observation, viewer, rng):
        assert "seats" not in observation, "the search must sample from an observation, never from a state"
        sampled.append(viewer)
        return real_determinise(observation, viewer, rng)

    monkeypatch.setattr(S.E, "determinise", determinise)
    checked = 0
    for state in duel_positions:
        me = E.current_player(state)
        other = state["seats"][1 - me]
        if state["phase"] != "play" or state["pending"] or not other["hand"] or not other["deck"]:
            continue
        changed = E._clone(state)
        seat = changed["seats"][1 - me]
        pool = seat["hand"] + seat["deck"]
        random.Random(checked).shuffle(pool)
        seat["hand"], seat["deck"] = pool[:len(seat["hand"])], pool[len(seat["hand"]):]
        random.Random(checked + 1).shuffle(changed["jungle"][len(changed["bottom"]):])
        random.Random(checked + 2).shuffle(changed["egg_bank"])
        if seat["hand"] == other["hand"]:
            continue
        assert blind(changed) == blind(state)
        assert choose(changed, seed=checked) == choose(state, seed=checked)
        checked += 1
        if checked == 6:
            break
    assert checked == 6 and set(sampled) <= {0, 1}


def test_rollout_view_reads_like_the_observation(duel_positions, solo_positions):
    """The cheap view used in rollouts agrees with the observation, so the greedy player decides the same."""
    for index, state in enumerate(duel_positions[::4] + solo_positions[::4]):
        seat = E.current_player(state)
        full = E.observation(state, seat)
        view = S.rollout_view(state, seat)
        for key in ("hand", "strength", "free_plays", "fought", "grounds", "enemies", "mode", "end_trigger", "turn",
                    "pending", "workar_later"):
            assert view[key] == full[key]
        assert view["jungle"]["size"] == full["jungle"]["size"]
        for mine, theirs in zip(view["players"], full["players"]):
            for key in ("families", "totem_symbols", "dinosaurs", "eggs", "shown_eggs", "play", "dino", "hidden"):
                assert mine[key] == theirs[key]
        actions = E.legal_actions(state)
        assert greedy_bot(view, actions, random.Random(index)) == greedy_bot(full, actions, random.Random(index))


def play_against_random(game, iterations):
    names = ("search", "random") if game % 2 == 0 else ("random", "search")
    state = E.new_game(DUEL, f"search-vs-random:{game}")
    rng = random.Random(game)
    while not E.is_over(state):
        seat = E.current_player(state)
        observation, actions = E.observation(state, seat), E.legal_actions(state)
        if names[seat] == "search":
            action = S.search_move(observation, actions, rng, think_seconds=None, iterations=iterations, horizon=4)
        else:
            action = random_bot(observation, actions, rng)
        state = E.apply(state, seat, action)
    return names.index("search") in E.result(state)["winners"]


def test_beats_the_random_player_in_most_games():
    wins = sum(play_against_random(game, iterations=12) for game in range(10))
    assert wins >= 7
