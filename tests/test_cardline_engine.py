"""The Cardline rules engine: each rule, the gaps we decided, and seeded random play."""

import json
import random
from collections import Counter

import pytest

from webapp.games import GAMES, IllegalAction, InvalidConfig
from webapp.games import cardline as cl

VALUES = {f"a{i:02d}": float(i) for i in range(1, 41)}


def new(players=2, hand_size=4, seed=1, cards=VALUES, **extra):
    return cl.new_game({"cards": cards, "players": [f"P{i}" for i in range(players)],
                        "hand_size": hand_size, "characteristic": "mass", **extra}, seed)


def scenario(line, hands, deck, values=None, turn=0):
    """Return a state with a chosen line, hands and deck (top of deck last)."""
    state = new(players=len(hands), cards=values or VALUES)
    seats = list(range(len(hands)))
    state.update(line=list(line), hands=[list(h) for h in hands], deck=list(deck), box=[],
                 active=seats, turn=turn,
                 round={"number": 1, "to_play": seats[turn + 1:], "finished": []})
    return state


def place(state, card, gap, player=None):
    player = state["turn"] if player is None else player
    return cl.apply(state, player, {"type": "place", "card": card, "gap": gap})


def test_registered_under_its_name():
    assert GAMES["cardline"] is cl


def test_setup_deals_hands_and_starts_the_line():
    state = new(players=3, hand_size=5)
    assert [len(h) for h in state["hands"]] == [5, 5, 5]
    assert len(state["line"]) == 1
    assert len(state["deck"]) == 40 - 15 - 1
    assert state["turn"] == 0


def test_same_seed_same_game_and_different_seed_different_game():
    assert new(seed=7) == new(seed=7)
    assert new(seed=7)["deck"] != new(seed=8)["deck"]


@pytest.mark.parametrize(("config", "message"), [
    ({"players": ["solo"]}, "2 to 8 players"),
    ({"players": [str(i) for i in range(9)]}, "2 to 8 players"),
    ({"hand_size": 0}, "between 1 and 12"),
    ({"hand_size": "4"}, "between 1 and 12"),
    ({"cards": {"a": 1.0, "b": None}}, "known value"),
    ({"cards": {f"c{i}": 1.0 for i in range(8)}}, "need at least 9 cards"),
    ({"first_player": 5}, "first player"),
    ({"ranges": {"a05": [6.0, 9.0]}}, "around the card's value"),
    ({"ranges": {"a05": [4.0]}}, "around the card's value"),
    ({"ranges": {"a05": ["4", 6.0]}}, "around the card's value"),
    ({"ranges": [[4.0, 6.0]]}, "around the card's value"),
])
def test_bad_config_is_refused(config, message):
    base = {"cards": VALUES, "players": ["A", "B"], "hand_size": 4, **config}
    with pytest.raises(InvalidConfig, match=message):
        cl.new_game(base, 1)


def test_a_line_of_n_cards_has_n_plus_one_places():
    state = scenario(line=["a10", "a20"], hands=[["a05"], ["a15"]], deck=["a30"])
    gaps = {a["gap"] for a in cl.legal_actions(state)}
    assert gaps == {0, 1, 2}


def test_correct_placement_stays_in_the_line():
    state = scenario(line=["a10", "a20"], hands=[["a15", "a01"], ["a30"]], deck=["a33"])
    after = place(state, "a15", 1)
    assert after["line"] == ["a10", "a15", "a20"]
    assert after["hands"][0] == ["a01"]
    assert after["turn"] == 1
    assert after["history"][-1]["correct"] is True


def test_wrong_placement_goes_to_the_box_and_draws():
    state = scenario(line=["a10", "a20"], hands=[["a15", "a01"], ["a30"]], deck=["a33", "a34"])
    after = place(state, "a15", 0)
    assert after["line"] == ["a10", "a20"]
    assert after["box"] == ["a15"]
    assert after["hands"][0] == ["a01", "a34"]
    assert after["deck"] == ["a33"]
    move = after["history"][-1]
    assert move["correct"] is False and move["correct_gaps"] == [1, 1]


def test_apply_never_changes_the_state_it_was_given():
    state = scenario(line=["a10"], hands=[["a15", "a01"], ["a30"]], deck=["a33"])
    frozen = json.dumps(state, sort_keys=True)
    place(state, "a15", 0)
    place(state, "a01", 0)
    assert json.dumps(state, sort_keys=True) == frozen


@pytest.mark.parametrize(("player", "action", "reason"), [
    (1, {"type": "place", "card": "a30", "gap": 0}, "not your turn: it is P0's turn"),
    (0, {"type": "place", "card": "a30", "gap": 0}, "not in your hand"),
    (0, {"type": "place", "card": "a15", "gap": 2}, "choose a gap from 0 to 1"),
    (0, {"type": "place", "card": "a15", "gap": -1}, "choose a gap from 0 to 1"),
    (0, {"type": "place", "card": "a15", "gap": "1"}, "choose a gap"),
    (0, {"type": "place", "card": "a15", "gap": True}, "choose a gap"),
    (0, {"type": "draw"}, "only action"),
    (0, "place", "only action"),
])
def test_illegal_actions_are_refused_with_a_reason(player, action, reason):
    state = scenario(line=["a10"], hands=[["a15", "a01"], ["a30"]], deck=["a33"])
    frozen = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match=reason):
        cl.apply(state, player, action)
    assert json.dumps(state, sort_keys=True) == frozen


def test_equal_values_may_sit_on_either_side():
    values = {**VALUES, "twin": 10.0}
    for gap in (0, 1):
        state = scenario(line=["a10"], hands=[["twin", "a01"], ["a30"]], deck=["a33"], values=values)
        assert place(state, "twin", gap)["history"][-1]["correct"] is True
    state = scenario(line=["a05", "a10", "a20"], hands=[["twin", "a01"], ["a30"]], deck=["a33"],
                     values=values)
    assert cl.correct_gaps(state, "twin") == (1, 2)
    assert place(state, "twin", 0)["history"][-1]["correct"] is False


def test_the_only_player_to_place_their_last_card_in_a_round_wins():
    state = scenario(line=["a10"], hands=[["a15"], ["a01", "a02"]], deck=["a33", "a34"])
    after = place(state, "a15", 1)
    assert not cl.is_over(after)  # the round is not over: P1 still plays
    after = place(after, "a01", 1)  # wrong: P1 draws
    assert cl.is_over(after)
    assert cl.result(after) == {"winners": [0], "reason": "last card", "cards_left": [0, 2]}
    assert cl.player_status(after, 0) == "won" and cl.player_status(after, 1) == "lost"


def test_last_player_of_a_round_placing_last_card_wins_at_once():
    state = scenario(line=["a10"], hands=[["a01", "a02"], ["a15"]], deck=["a33", "a34"])
    after = place(state, "a01", 1)  # P0 wrong
    after = place(after, "a15", 1)
    assert cl.result(after)["winners"] == [1]


def test_ties_eliminate_the_others_and_the_tied_players_draw_one_card():
    state = scenario(line=["a10"], hands=[["a15"], ["a01", "a02"], ["a05"]],
                     deck=["a31", "a32", "a33", "a34"])
    after = place(state, "a15", 1)
    after = place(after, "a02", 0)  # P1 keeps going with cards left
    after = place(after, "a05", 1)  # P2 also places their last card
    assert not cl.is_over(after)
    assert after["active"] == [0, 2]
    assert after["eliminated"] == [1]
    assert [len(after["hands"][s]) for s in (0, 2)] == [1, 1]
    assert cl.player_status(after, 1) == "eliminated"
    assert after["turn"] == 0 and after["round"]["number"] == 2
    # Tie-break round: only P2 places correctly, so P2 wins.
    p0_card, p2_card = after["hands"][0][0], after["hands"][2][0]
    after = place(after, p0_card, 0)  # a higher card at the far left: wrong
    line_end = len(after["line"])
    after = place(after, p2_card, line_end)
    assert cl.result(after)["winners"] == [2]
    assert {p0_card, p2_card} == {"a33", "a34"}


def test_empty_deck_ends_the_game_and_fewest_cards_win():
    state = scenario(line=["a10"], hands=[["a15", "a16"], ["a01", "a02", "a03"]], deck=[])
    after = place(state, "a15", 0)  # wrong, and nothing to draw
    assert cl.is_over(after)
    assert after["hands"][0] == ["a16", "a15"]
    assert cl.result(after) == {"winners": [0], "reason": "deck exhausted", "cards_left": [2, 3]}


def test_empty_deck_with_equal_hands_shares_the_win():
    state = scenario(line=["a10"], hands=[["a15", "a16"], ["a01", "a02"]], deck=[])
    after = place(state, "a15", 0)
    assert cl.result(after)["winners"] == [0, 1]


def test_tie_with_too_few_cards_to_draw_is_a_shared_win():
    state = scenario(line=["a10"], hands=[["a15"], ["a05"]], deck=["a33"])
    after = place(place(state, "a15", 1), "a05", 0)
    assert cl.result(after) == {"winners": [0, 1], "reason": "deck exhausted", "cards_left": [0, 0]}


def test_over_game_refuses_moves():
    state = scenario(line=["a10"], hands=[["a15"], ["a01", "a02"]], deck=["a33"], turn=1)
    state["round"]["to_play"] = []
    state["round"]["finished"] = [0]
    state["hands"][0] = []
    over = place(state, "a01", 0, player=1)
    assert cl.is_over(over)
    with pytest.raises(IllegalAction, match="The game is over"):
        place(over, "a02", 0, player=1)


def test_observation_hides_face_down_values_and_other_hands():
    state = new(players=3, seed=3)
    for viewer in (None, 0, 1, 2):
        seen = cl.observation(state, viewer)
        text = json.dumps(seen)
        assert "deck" not in seen or not isinstance(seen.get("deck"), list)
        assert "values" not in seen
        for seat, hand in enumerate(state["hands"]):
            for card in hand:
                assert (card in text) == (seat == viewer)
        for card in state["deck"]:
            assert card not in text
    assert cl.observation(state, 1)["hand"] == state["hands"][1]
    assert cl.observation(state, None)["hand"] is None


def test_state_round_trips_through_json():
    state = new(players=4, seed=5)
    rng = random.Random(5)
    for _ in range(10):
        state = cl.apply(state, cl.current_player(state), rng.choice(cl.legal_actions(state)))
        assert json.loads(json.dumps(state)) == state


def test_published_ranges_are_kept_for_the_deck_cards_only():
    state = new(ranges={"a05": [4, 6.5], "elsewhere": "not a range"})
    assert state["ranges"] == {"a05": [4.0, 6.5]}
    assert cl.published(state, "a05") == (4.0, 6.5)
    assert cl.published(state, "a06") == (6.0, 6.0)
    assert "ranges" not in json.dumps(cl.observation(state, 0))


@pytest.mark.parametrize("level", cl.BOT_LEVELS)
def test_computer_players_play_legal_moves_to_the_end(level):
    ranges = {card: [value * 0.8, value * 1.25] for card, value in VALUES.items()}
    state = new(players=3, seed=4, ranges=ranges)
    step = 0
    while not cl.is_over(state):
        seat = cl.current_player(state)
        action = cl.computer_move(state, seat, level, 4, random.Random(step))
        assert action in cl.legal_actions(state)
        state = cl.apply(state, seat, action)
        step += 1
    assert cl.result(state)["winners"]


def test_hard_bots_beat_easy_bots_more_often():
    cards = {f"x{i}": float(random.Random(i).lognormvariate(3, 2)) for i in range(120)}
    ranges = {card: [value / 1.3, value * 1.3] for card, value in cards.items()}
    wins = Counter()
    for seed in range(60):
        state = cl.new_game({"cards": cards, "ranges": ranges, "players": ["hard", "easy"], "hand_size": 4,
                             "characteristic": "mass", "first_player": seed % 2}, seed)
        rng = random.Random(seed)
        while not cl.is_over(state):
            seat = cl.current_player(state)
            state = cl.apply(state, seat, cl.computer_move(state, seat, "hard" if seat == 0 else "easy", seed, rng))
        wins.update(state["winners"])
    assert wins[0] > wins[1]


def check_invariants(state, all_cards):
    """Assert what must hold after every step of any Cardline game."""
    held = [c for h in state["hands"] for c in h]
    everything = state["deck"] + state["line"] + state["box"] + held
    assert Counter(everything) == Counter(all_cards), "a card was created or lost"
    line_values = [state["values"][c] for c in state["line"]]
    assert line_values == sorted(line_values), "the revealed line is out of order"
    revealed = {move["card"] for move in state["history"]}
    for viewer in [None, *range(len(state["players"]))]:
        seen = json.dumps(cl.observation(state, viewer))
        for card in state["deck"]:
            assert f'"{card}"' not in seen, "a deck card leaked"
        for seat, hand in enumerate(state["hands"]):
            if seat != viewer:
                for card in set(hand) - revealed:
                    assert f'"{card}"' not in seen, "another player's hand leaked"
    if cl.is_over(state):
        assert cl.legal_actions(state) == []
        assert cl.result(state)["winners"]


@pytest.mark.parametrize(("players", "hand_size", "deck_size"), [
    (2, 4, 40), (3, 4, 20), (4, 6, 60), (8, 4, 33), (5, 1, 12), (2, 12, 30),
])
def test_random_play_keeps_every_invariant(players, hand_size, deck_size):
    rng = random.Random(players * 100 + hand_size)
    for seed in range(400):  # 6 configurations x 400 = 2,400 games
        # Few distinct values, so equal values and ties come up often.
        cards = {f"r{i}": float(rng.randint(1, 12)) for i in range(deck_size)}
        state = cl.new_game({"cards": cards, "players": [str(p) for p in range(players)],
                             "hand_size": hand_size, "characteristic": "size"}, seed)
        steps = 0
        while not cl.is_over(state):
            check_invariants(state, list(cards))
            seat = cl.current_player(state)
            actions = cl.legal_actions(state)
            if rng.random() < 0.1:
                before = json.dumps(state, sort_keys=True)
                wrong_seat = (seat + 1) % players
                not_held = next(c for c in cards if c not in state["hands"][seat])
                for player, action in [
                    (wrong_seat, actions[0]),
                    (seat, {**actions[0], "gap": len(state["line"]) + 1}),
                    (seat, {**actions[0], "card": not_held}),
                ]:
                    with pytest.raises(IllegalAction):
                        cl.apply(state, player, action)
                assert json.dumps(state, sort_keys=True) == before
            state = cl.apply(state, seat, rng.choice(actions))
            steps += 1
            assert steps < 10_000, "the game did not end"
        check_invariants(state, list(cards))
        assert json.loads(json.dumps(state)) == state
