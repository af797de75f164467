"""Every registered game keeps the engine protocol in seeded random play, after OpenSpiel's random-simulation test.

After every step the state survives a JSON round trip, every legal action is accepted, illegal actions are
refused with the state unchanged, and no viewer's observation gives away a secret the engine's hidden() names.
Nothing here knows a game's rules: a game registered in GAMES with example_configs() and hidden() gets every check.
"""

import copy
import json
import random
from types import SimpleNamespace

import pytest

from webapp.games import GAMES, IllegalAction
from webapp.games.protocol import ClassEngine, Engine, leaks, named

SEEDS = range(6)
STEP_CAP = 20_000  # far beyond any game's own turn limit: reaching it means a game that never ends
WRONG_SEAT = 99
GARBAGE = [None, {}, {"type": "nope"}, "place", [], 7]
# What replaces one field of a legal action to spoil it, by the field's JSON type.
NONSENSE = {str: "nope", int: -1, float: -1.0, list: []}

CASES = [pytest.param(name, index, id=f"{name}-{index}")
         for name, engine in sorted(GAMES.items()) for index in range(len(engine.example_configs()))]
MULTI_SEAT_CASES = [case for case in CASES
                    if len(GAMES[case.values[0]].example_configs()[case.values[1]].get("players", [])) > 1]


# ---------------------------------------------------------------------------------------------------
def plant(observation, secret):
    """Return a copy of `observation` with `secret` leaked deep inside it."""
    planted = copy.deepcopy(observation)
    if isinstance(secret, str):
        leak = {"image": f"/cards/{secret}.png"}
    else:
        holder, value = secret
        leak = {"id": holder, "detail": list(value) if isinstance(value, tuple) else value}
    planted["planted"] = [{"nested": [leak]}]
    return planted


# ---------------------------------------------------------------------------------------------------
# Playing.

def seats(config):
    """Return the seats of a game set up with `config`: one per player, or seat 0 alone."""
    return list(range(len(config.get("players", [None]))))


def viewers(config):
    """Return every viewer of a game: each seat, and a spectator (None)."""
    return [*seats(config), None]


def round_trip(value):
    """Return `value` after a trip through JSON text."""
    return json.loads(json.dumps(value))


def random_game(engine, config, seed):
    """Yield (state, move) along a seeded random game, the move being (player, action), or None once it is over."""
    rng = random.Random(seed)
    state = engine.new_game(config, seed)
    for _ in range(STEP_CAP):
        if engine.is_over(state):
            yield state, None
            return
        move = engine.current_player(state), rng.choice(engine.legal_actions(state))
        yield state, move
        state = engine.apply(state, *move)
    pytest.fail(f"{engine.NAME} did not end within {STEP_CAP} steps of random play")


def spoilt(action):
    """Yield copies of a legal action with one field other than its type dropped or set to nonsense."""
    for field, value in action.items():
        # An engine may infer the type from the game's mode (Cardline, practice), so it can be left alone.
        if field == "type":
            continue
        yield {key: item for key, item in action.items() if key != field}
        if type(value) in NONSENSE:
            yield {**action, field: NONSENSE[type(value)]}


def illegal_moves(engine, config, state):
    """Return (player, action) pairs the rules must refuse now: wrong players, spoilt actions, garbage."""
    player, legal = engine.current_player(state), engine.legal_actions(state)
    samples = legal[:1] + legal[-1:]
    others = [seat for seat in seats(config) if seat != player] + [WRONG_SEAT]
    moves = [(other, action) for other in others for action in samples]
    moves += [(player, bad) for action in samples for bad in spoilt(action)]
    actors = seats(config) if player is None else [player]
    return moves + [(actor, junk) for actor in actors for junk in GARBAGE]


# ---------------------------------------------------------------------------------------------------
# The checks of one step.

def assert_legal_actions_accepted(engine, state):
    """Every legal action passes check (where the engine has one) and can be applied."""
    player, check = engine.current_player(state), getattr(engine, "check", None)
    for action in engine.legal_actions(state):
        if check:
            check(state, player, action)
        engine.apply(state, player, action)


def assert_illegal_moves_refused(engine, config, state):
    """Every illegal move is refused by apply and by check with IllegalAction."""
    check = getattr(engine, "check", None)
    for player, action in illegal_moves(engine, config, state):
        with pytest.raises(IllegalAction):
            engine.apply(state, player, action)
        if check:
            with pytest.raises(IllegalAction):
                check(state, player, action)


def assert_secrets_kept(engine, config, state):
    """No viewer's observation, nor the acting seat's legal actions, gives away a secret; the state holds them all."""
    everyone = set()
    for viewer in viewers(config):
        secrets = engine.hidden(state, viewer)
        assert isinstance(secrets, set)
        assert all(isinstance(s, str) or isinstance(s, tuple) and len(s) == 2 for s in secrets), secrets
        leaked = leaks(engine.observation(state, viewer), secrets)
        assert not leaked, f"viewer {viewer} sees {sorted(map(str, leaked))}"
        everyone |= secrets
    player = engine.current_player(state)
    if player is not None:
        # Legal actions pair things with every possible answer, so only names are checked in them.
        names = {secret for secret in engine.hidden(state, player) if isinstance(secret, str)}
        assert not named(engine.legal_actions(state), names)
    assert leaks(state, everyone) == everyone, "hidden() names secrets the state does not hold"


def assert_step_keeps_the_protocol(engine, config, state):
    """The state is plain JSON, moves are judged right without changing it, secrets are kept, the end is an end."""
    given = json.dumps(state, sort_keys=True)
    assert round_trip(state) == state, "the state is not plain JSON"
    assert_legal_actions_accepted(engine, state)
    assert_illegal_moves_refused(engine, config, state)
    assert json.dumps(state, sort_keys=True) == given, "an action changed the state it was given"
    assert_secrets_kept(engine, config, state)
    if engine.is_over(state):
        assert engine.legal_actions(state) == [] and engine.current_player(state) is None
        assert engine.result(state) is not None
    else:
        assert engine.legal_actions(state) and engine.current_player(state) is not None
        assert engine.result(state) is None


# ---------------------------------------------------------------------------------------------------
# Tests.

@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_offers_the_engine_protocol(name):
    engine = GAMES[name]
    assert isinstance(engine, Engine)
    configs = engine.example_configs()
    assert configs and round_trip(configs) == configs
    for config in configs:
        assert engine.new_game(config, 7) == engine.new_game(round_trip(config), 7)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("name", "index"), CASES)
def test_random_play_keeps_the_protocol_at_every_step(name, index, seed):
    engine = GAMES[name]
    config = engine.example_configs()[index]
    for state, move in random_game(engine, config, seed):
        assert_step_keeps_the_protocol(engine, config, state)
        if move:
            assert engine.apply(round_trip(state), *move) == engine.apply(state, *move), "the JSON copy plays differently"


@pytest.mark.parametrize(("name", "index"), CASES)
def test_secrets_exist_and_the_full_state_would_leak_them(name, index):
    """hidden() is not vacuous: in play some viewer has secrets, and the full state, as an observation, leaks them all."""
    engine = GAMES[name]
    config = engine.example_configs()[index]
    steps_with_secrets = 0
    for state, _ in random_game(engine, config, seed=0):
        for viewer in viewers(config):
            secrets = engine.hidden(state, viewer)
            assert leaks(state, secrets) == secrets
            steps_with_secrets += bool(secrets)
    assert steps_with_secrets


@pytest.mark.parametrize(("name", "index"), CASES)
def test_the_checker_finds_any_secret_planted_in_an_observation(name, index):
    engine = GAMES[name]
    config = engine.example_configs()[index]
    state = next(state for state, _ in random_game(engine, config, seed=0)
                 if any(engine.hidden(state, viewer) for viewer in viewers(config)))
    for viewer in viewers(config):
        secrets = engine.hidden(state, viewer)
        observation = engine.observation(state, viewer)
        for secret in secrets:
            assert leaks(plant(observation, secret), {secret}) == {secret}
        if secrets:
            leaky = leaky_engine(engine, min(secrets, key=str))
            with pytest.raises(AssertionError, match="sees"):
                assert_secrets_kept(leaky, config, state)


def leaky_engine(engine, secret):
    """Return `engine` with `secret` planted in every observation."""
    def observation(state, viewer):
        return plant(engine.observation(state, viewer), secret)
    return SimpleNamespace(hidden=engine.hidden, observation=observation, current_player=engine.current_player,
                           legal_actions=engine.legal_actions)


@pytest.mark.parametrize(("name", "index"), MULTI_SEAT_CASES)
def test_the_checker_catches_a_seat_shown_another_seats_view(name, index):
    engine = GAMES[name]
    config = engine.example_configs()[index]
    pairs = [(seen, shown) for seen in seats(config) for shown in seats(config) if seen != shown]
    assert any(leaks(engine.observation(state, shown), engine.hidden(state, seen))
               for state, _ in random_game(engine, config, seed=0) for seen, shown in pairs)


def test_the_checker_matches_whole_names_and_keys():
    assert leaks({"line": ["c12", "scare-c1", "c1_b", "xc1"]}, {"c1"}) == set()
    assert leaks({"image": "/cards/c1.png"}, {"c1"}) == {"c1"}
    assert leaks({"values": {"c1": 2.5}}, {"c1"}) == {"c1"}
    assert leaks(["Ada drew c1."], {"c1", "c2"}) == {"c1"}


def test_the_checker_matches_a_secret_only_beside_its_holder_and_of_its_type():
    value = ("c1", 1.0)
    assert leaks({"current": "c1", "remaining": 1, "over": True}, {value}) == set()
    assert leaks({"current": "c1", "line": [{"card": "c2", "value": 1.0}]}, {value}) == set()
    assert leaks({"current": {"card": "c1", "value": 1.0}}, {value}) == {value}
    assert leaks({"values": {"c1": 1.0}}, {value}) == {value}
    order = ("q2", ("b", "a"))
    assert leaks({"id": "q2", "options": [{"id": "b"}, {"id": "a"}], "order": True}, {order}) == set()
    assert leaks({"id": "q2", "answer": ["b", "a"]}, {order}) == {order}


# ---------------------------------------------------------------------------------------------------
# Classroom round formats: every registered format's engine keeps its protocol, as every game does.

def class_engines():
    """Return {name: engine} of the whole-class engines the registered round formats use."""
    from webapp.classroom.formats import FORMATS

    return {fmt.engine.NAME: fmt.engine for fmt in FORMATS.values() if isinstance(fmt.engine, ClassEngine)}


CLASS_CASES = [pytest.param(name, index, id=f"{name}-{index}")
               for name, engine in sorted(class_engines().items()) for index in range(len(engine.example_configs()))]
BAD_ANSWERS = [-1, None, "1", True, 1.0, [], 99]


def test_every_round_format_has_an_engine_that_keeps_a_protocol():
    from webapp.classroom.formats import FORMATS

    for fmt in FORMATS.values():
        assert fmt.engine in GAMES.values() or isinstance(fmt.engine, ClassEngine), fmt.name
        assert fmt.rules.timed == fmt.engine.TYPE.timers, fmt.name
    assert len(class_engines()) == 3


def random_class_round(engine, config, seed):
    """Yield the states of a seeded random class round, each teacher's move chosen among the legal ones."""
    rng = random.Random(seed)
    state = engine.new_game(config, seed)
    for _ in range(STEP_CAP):
        yield state
        if engine.is_over(state):
            return
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    pytest.fail(f"{engine.NAME} did not end within {STEP_CAP} steps")


def assert_class_step_keeps_the_protocol(engine, state):
    """The state is plain JSON; legal moves and answers are accepted, others refused unchanged; secrets are kept."""
    given = json.dumps(state, sort_keys=True)
    assert round_trip(state) == state, "the state is not plain JSON"
    legal = engine.legal_actions(state)
    for action in legal:
        engine.apply(state, action)
    for action in [{"type": kind} for kind in ("reveal", "next", "skip") if {"type": kind} not in legal] + GARBAGE:
        with pytest.raises(IllegalAction):
            engine.apply(state, action)
    answers = engine.answers(state)
    for answer in answers:
        engine.check_answer(state, answer)
    for answer in [a for a in BAD_ANSWERS if a not in answers or isinstance(a, bool | float)]:
        with pytest.raises(IllegalAction):
            engine.check_answer(state, answer)
    assert json.dumps(state, sort_keys=True) == given, "a move changed the state it was given"
    secrets = engine.hidden(state, None)
    assert not leaks(engine.observation(state), secrets), f"the class sees {sorted(map(str, leaks(engine.observation(state), secrets)))}"
    assert leaks(state, secrets) == secrets, "hidden() names secrets the state does not hold"
    over = engine.is_over(state)
    assert (engine.result(state) is not None) == over
    assert not over or (legal == [] and answers == [])
    assert over or legal


@pytest.mark.parametrize("name", sorted(class_engines()))
def test_every_class_engine_offers_the_class_engine_protocol(name):
    engine = class_engines()[name]
    configs = engine.example_configs()
    assert configs and round_trip(configs) == configs
    for config in configs:
        assert engine.new_game(config, 7) == engine.new_game(round_trip(config), 7)
    assert engine.TYPE.timers and not engine.TYPE.computer_players


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("name", "index"), CLASS_CASES)
def test_random_class_rounds_keep_the_protocol_at_every_step(name, index, seed):
    engine = class_engines()[name]
    for state in random_class_round(engine, engine.example_configs()[index], seed):
        assert_class_step_keeps_the_protocol(engine, state)
        assert round_trip(engine.end(state))["phase"] == "over"


@pytest.mark.parametrize(("name", "index"), CLASS_CASES)
def test_class_secrets_exist_and_a_planted_one_is_found(name, index):
    engine = class_engines()[name]
    states = list(random_class_round(engine, engine.example_configs()[index], seed=0))
    secrets = [engine.hidden(state, None) for state in states]
    assert any(secrets) == engine.TYPE.hidden_information
    state, hidden = next((s, h) for s, h in zip(states, secrets, strict=True) if h)
    for secret in hidden:
        assert leaks(plant(engine.observation(state), secret), {secret}) == {secret}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_declares_what_it_can_do(name):
    engine = GAMES[name]
    assert engine.TYPE.computer_players == hasattr(engine, "computer_move")
    config = engine.example_configs()[0]
    secret_seen = any(engine.hidden(state, viewer) for state, _ in random_game(engine, config, seed=0)
                      for viewer in viewers(config))
    assert secret_seen == engine.TYPE.hidden_information
