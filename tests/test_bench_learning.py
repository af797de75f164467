"""A small run of scripts/bench_learning.py, where the README's learning figures come from."""

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "bench_learning.py"


def bench_module():
    """Import scripts/bench_learning.py as a module."""
    spec = importlib.util.spec_from_file_location("bench_learning", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_small_bench_reaches_the_target_both_ways_and_prints_its_summary(monkeypatch, capsys):
    bench = bench_module()
    rows = bench.bench("mass", deck_size=12, seeds=2, count=6, max_days=150)
    assert [seed for seed, _, _ in rows] == [0, 1]
    for _, at_random, tricky in rows:
        assert at_random and tricky and at_random % 6 == 0 and tricky % 6 == 0
    random_median, tricky_median, saving = bench.summary(rows)
    assert saving == 1 - tricky_median / random_median
    monkeypatch.setattr(sys, "argv", ["bench_learning.py", "--deck-size", "12", "--seeds", "1", "--count", "6"])
    bench.main()
    printed = capsys.readouterr().out
    assert "random" in printed and "tricky" in printed and printed.splitlines()[-1].startswith("summary: ")


def test_the_same_seed_gives_the_same_figures():
    bench = bench_module()
    assert bench.bench("period", deck_size=10, seeds=1, count=5) == bench.bench("period", deck_size=10, seeds=1, count=5)
