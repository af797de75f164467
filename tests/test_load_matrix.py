"""scripts/load_matrix.py's CPU table, where the README's "poll / push" ratios come from: a ratio against polling
that used all the CPU the server had is marked as a lower bound, since polling then took what the cores could give,
not what it needed."""

import pytest
from conftest import import_script


@pytest.fixture
def load_matrix(monkeypatch):
    """Import scripts/load_matrix.py as a module."""
    return import_script("load_matrix", monkeypatch)


def cell(mode, seconds, server_cpu_s, per_student_minute, students=1000):
    """Return one cell's figures as load_live.py writes them (the parts the CPU table reads)."""
    return {"cell": [students, students], "mode": mode,
            "cpu": {"play": {"seconds": seconds, "server_cpu_s": server_cpu_s, "generator_cpu_s": 1.0,
                             "other_cpu_s": 0.0, "per_student_minute": per_student_minute},
                    "lobby": {"per_student_minute": 0.002}}}


def push_row(load_matrix, poll_busy_cores, server_cores):
    """Return the push row of a cell whose polling kept `poll_busy_cores` busy on `server_cores` cores."""
    results = [cell("poll", 100.0, 100.0 * poll_busy_cores, 0.0564), cell("push", 100.0, 20.0, 0.0141)]
    return next(line for line in load_matrix.cpu_table(results, server_cores) if "| push |" in line)


@pytest.mark.parametrize(("poll_busy_cores", "server_cores", "shown"), [
    (0.53, 1, "| **4.0** |"),  # polling had CPU to spare: the ratio is what it is
    (0.94, 1, "| **≥ 4.0** (polling used all the CPU it had) |"),  # held back by its one core
    (0.94, 2, "| **4.0** |"),  # half of two cores: not held back
    (1.85, 2, "| **≥ 4.0** (polling used all the CPU it had) |"),
    (0.94, None, "| **4.0** |"),  # cores unknown: no claim either way
])
def test_a_ratio_against_polling_held_back_by_its_cores_is_a_lower_bound(load_matrix, poll_busy_cores, server_cores,
                                                                         shown):
    assert push_row(load_matrix, poll_busy_cores, server_cores).endswith(shown)


def test_the_polling_row_has_no_ratio(load_matrix):
    results = [cell("poll", 100.0, 94.0, 0.0564), cell("push", 100.0, 20.0, 0.0141)]
    poll_line = next(line for line in load_matrix.cpu_table(results, 1) if "| poll |" in line)
    assert poll_line.endswith("| 56.4 ms |  |")
