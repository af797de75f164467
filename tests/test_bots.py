"""Cardline's computer players: what each level knows, that none reads a hidden value, and that a child can beat easy."""

import importlib.util
import math
import random
import statistics
import sys
from pathlib import Path

import numpy
import pytest

from cards_db import loader
from cards_db.schema import RANGES
from webapp.games import cardline as cl
from webapp.games import cardline_bots as bots

BENCH = Path(__file__).resolve().parent.parent / "scripts" / "bench_engines.py"


def game(values, ranges=None, seed=1, hand_size=4, characteristic="mass"):
    """Return a new two-player Cardline game over `values` with published `ranges`."""
    return cl.new_game({"cards": values, "ranges": ranges or {}, "players": ["Bot", "Ada"], "hand_size": hand_size,
                        "characteristic": characteristic}, seed)


def arranged(values, ranges, line, hand, characteristic="mass"):
    """Return a game whose line and first hand are chosen; the other cards are the deck."""
    state = game(values, ranges, hand_size=1, characteristic=characteristic)
    rest = [card for card in values if card not in line and card not in hand]
    state.update(line=list(line), hands=[list(hand), rest[:1]], deck=rest[1:], box=[], turn=0,
                 round={"number": 1, "to_play": [1], "finished": []})
    return state


def moves(state, level, tries=200):
    """Return the placements seat 0 makes from `state` over `tries` differently seeded turns."""
    return [cl.computer_move(state, 0, level, 7, random.Random(n)) for n in range(tries)]


def test_the_levels_know_less_the_easier_they_are():
    believed = {level: bots.beliefs(level, {"rex": (100.0, 200.0)}, "mass", seed=3)["rex"] for level in bots.LEVELS}
    assert min(believed["hard"]) >= math.log(100) and max(believed["hard"]) <= math.log(200)
    assert max(believed["hard"]) - min(believed["hard"]) > 0.6  # the whole range, not its middle
    assert len(believed["medium"]) == 1  # one remembered value, sure of itself
    assert min(believed["easy"]) >= math.log(100) and max(believed["easy"]) <= math.log(1000)  # "hundreds of kg"
    assert max(believed["easy"]) - min(believed["easy"]) > 2 * (max(believed["hard"]) - min(believed["hard"]))


def test_medium_remembers_a_midpoint_roughly_the_same_way_all_game():
    published = {f"c{i}": (10.0, 40.0) for i in range(400)}
    first = bots.beliefs("medium", published, "mass", seed=5)
    assert first == bots.beliefs("medium", published, "mass", seed=5)
    assert first != bots.beliefs("medium", published, "mass", seed=6)
    errors = [believed[0] - math.log(20) for believed in first.values()]
    spread = math.sqrt(sum(e * e for e in errors) / len(errors))
    assert 0.3 < spread < 0.5
    assert abs(sum(errors) / len(errors)) < 0.1


def test_hard_takes_one_figure_as_uncertain_as_a_typical_published_range():
    believed = bots.beliefs("hard", {"cat": (15.0, 15.0)}, "lifespan", seed=1)["cat"]
    half = bots.ONE_FIGURE_LOG_HALF_WIDTH
    assert min(believed) == pytest.approx(math.log(15) - half, abs=0.02)
    assert max(believed) == pytest.approx(math.log(15) + half, abs=0.02)


def test_the_one_figure_uncertainty_is_half_the_median_width_of_the_card_data_ranges():
    widths = []
    for deck in ("dinosaurs", "animals"):
        frame = loader.read_deck(deck)
        for low, high in RANGES.values():
            spans = frame[frame[low] < frame[high]]
            widths += list(numpy.log(spans[high] / spans[low]))
    assert abs(statistics.median(widths) / 2 - bots.ONE_FIGURE_LOG_HALF_WIDTH) < 0.03


def test_by_period_easy_knows_the_order_of_magnitude_of_the_age_and_hard_the_period_it_is_given():
    # A Jurassic animal lived hundreds of millions of years ago, as did every animal from the Cambrian to the
    # Cretaceous; one of the Paleogene tens of millions, as did those of the Cretaceous and the Neogene.
    assert bots.beliefs("easy", {"rex": (7, 7)}, "period", 1)["rex"] == list(range(9))
    assert bots.beliefs("easy", {"whale": (9, 9)}, "period", 1)["whale"] == [8, 9, 10]
    assert bots.beliefs("hard", {"rex": (7, 7)}, "period", 1)["rex"] == [7]


@pytest.mark.parametrize(("age", "periods"), [
    (50, ["Paleogene"]), (150, ["Jurassic", "Cretaceous"]), (520, ["Cambrian", "Ordovician", "Silurian"])])
def test_by_period_hard_knows_the_periods_a_first_appearances_age_reaches(age, periods):
    table = loader.read_periods()
    names = list(table["period"])
    low, high = bots.period_ranges({"card": age}, list(table["start_ma"]))["card"]
    assert names[low:high + 1] == periods
    assert bots.beliefs("hard", {"card": (low, high)}, "period", 1)["card"] == list(range(low, high + 1))


def test_every_dated_card_of_the_period_deck_is_known_by_a_span_around_its_period(app):
    from webapp.play.adapters.cardline import known_ranges
    with app.app_context():
        from webapp.cards.queries import card_values
        values = card_values("dinosaurs", "period")
        spans = known_ranges("dinosaurs", "period", values)
    assert set(spans) == set(values)  # every card dated: none known by its period alone
    assert sum(high > low for low, high in spans.values()) > len(spans) / 2  # most leave hard a doubt


def test_the_period_spans_are_those_of_the_period_data():
    periods = loader.read_periods()
    assert [(float(start), float(end)) for start, end in zip(periods["start_ma"], periods["end_ma"].fillna(0),
                                                             strict=True)] == list(bots.PERIOD_SPANS)


@pytest.mark.parametrize("level", bots.LEVELS)
def test_no_level_reads_a_hidden_value(level):
    """Two games that differ only in the true values inside the published ranges get the same moves."""
    cards = [f"c{i:02d}" for i in range(30)]
    ranges = {card: [1.5 ** i, 1.5 ** i * 6] for i, card in enumerate(cards)}
    at_low = {card: low for card, (low, _high) in ranges.items()}
    told_apart = 0
    for seed in range(40):
        low_game = game(at_low, ranges, seed)
        # Every card but the one face up in the line takes the other end of its range.
        face_up = low_game["line"][0]
        high_game = game({card: high if card != face_up else low for card, (low, high) in ranges.items()}, ranges, seed)
        assert high_game["hands"] == low_game["hands"] and high_game["line"] == [face_up]
        hand = low_game["hands"][0]
        told_apart += any(cl.correct_gaps(low_game, c) != cl.correct_gaps(high_game, c) for c in hand)
        assert cl.computer_move(low_game, 0, level, seed, random.Random(seed)) == \
            cl.computer_move(high_game, 0, level, seed, random.Random(seed))
    assert told_apart >= 5  # the right places did differ: a player reading true values would have moved otherwise


def test_hard_misses_where_the_published_ranges_overlap_the_line_and_only_there():
    values = {"small": 15.0, "middle": 100.0, "unclear": 60.0, "x1": 1.0, "x2": 2.0}
    ranges = {"small": [10.0, 20.0], "middle": [100.0, 100.0], "unclear": [50.0, 200.0]}
    sure_and_unsure = arranged(values, ranges, line=["middle"], hand=["unclear", "small"])
    assert {(m["card"], m["gap"]) for m in moves(sure_and_unsure, "hard")} == {("small", 0)}  # the sure card first
    only_unsure = arranged(values, ranges, line=["middle"], hand=["unclear"])
    gaps = [m["gap"] for m in moves(only_unsure, "hard")]
    # Its range puts half its ratio below 100 kg and half above: a guess, right only about half the time.
    assert 0.35 < gaps.count(0) / len(gaps) < 0.65


def test_easy_cannot_tell_apart_cards_of_the_same_order_of_magnitude():
    values = {"a": 400.0, "b": 200.0, "c": 50.0, "x1": 1.0, "x2": 2.0}
    ranges = {"a": [300.0, 500.0], "b": [200.0, 200.0], "c": [50.0, 50.0]}
    same_hundreds = {m["gap"] for m in moves(arranged(values, ranges, line=["b"], hand=["a"]), "easy")}
    assert same_hundreds == {0, 1}
    a_different_power = {m["gap"] for m in moves(arranged(values, ranges, line=["c"], hand=["a"]), "easy")}
    assert a_different_power == {1}
    assert {m["gap"] for m in moves(arranged(values, ranges, line=["b"], hand=["a"]), "hard")} == {1}


@pytest.fixture(scope="module")
def bench():
    """Import scripts/bench_engines.py, where the README's win rates against the model student come from."""
    spec = importlib.util.spec_from_file_location("bench_engines", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_engines"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["bench_engines"]


def test_a_child_beats_easy_and_hard_beats_the_child_most_but_not_all_of_the_time(bench):
    decks = bench.card_decks()
    table = bench.win_rates(60, {key: decks[key] for key in [("dinosaurs", "length"), ("animals", "lifespan")]})
    computer = {level: sum(row[level][0] for row in table.values()) for level in bots.LEVELS}
    student = {level: sum(row[level][1] for row in table.values()) for level in bots.LEVELS}
    assert computer["easy"] < computer["medium"] < computer["hard"]
    assert student["easy"] > 60  # of 120 games: the child wins most
    assert 60 < computer["hard"] < 120
    assert student["hard"] > 0
