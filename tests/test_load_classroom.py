"""Smoke test of scripts/load_classroom.py: a class of 3 plays a whole class-line round on a live server.

The script is what the README's load figures come from; run here in-process (its main(argv)) against the
threaded test server, so that a change of the app's pages, forms or live endpoints that the script no
longer understands fails here rather than at the next load test. A tiny hammer (half a second per target)
checks its raw HTTP/1.1 client too.
"""

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "load_classroom.py"
STUDENTS, CARDS = 3, 5


@pytest.fixture
def load_classroom(monkeypatch):
    """Import scripts/load_classroom.py (not a package) as a module."""
    spec = importlib.util.spec_from_file_location("load_classroom", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "load_classroom", module)  # dataclasses look the module up
    spec.loader.exec_module(module)
    return module


def test_a_class_of_three_plays_a_whole_round(load_classroom, live_server, tmp_path, capsys):
    figures_path = tmp_path / "load.json"
    code = load_classroom.main([
        "--url", live_server, "--students", str(STUDENTS), "--cards", str(CARDS),
        "--join-spread", "0.2", "--poll-interval", "0.2", "--think", "0.2", "--baseline", "2",
        "--timeout", "5", "--max-seconds", "20", "--seed", "1",
        "--hammer-seconds", "0.5", "--hammer-warmup", "0.2", "--hammer-rounds", "1",
        "--hammer-students", str(STUDENTS),
        "--json", str(figures_path),
    ])
    out = capsys.readouterr().out
    assert code == 0, out

    # The report, as printed: every student in, every answer accepted, no error, the round over.
    assert (f"answers accepted: 15 of {STUDENTS} students x {CARDS} cards = 15 (refused or failed: 0); "
            f"students who joined: 3 of {STUDENTS}") in out
    assert re.search(r"^errors: 0$", out, re.MULTILINE), out
    assert re.search(r"^outcome: round finished$", out, re.MULTILINE), out
    assert f"Closed-loop hammer of {live_server}: 3 connections, 3 students' cookies" in out

    # The same figures in the JSON that scripts/load_matrix.py reads.
    figures = json.loads(figures_path.read_text())
    assert figures["ok"] is True
    played = figures["round"]
    assert (played["joined"], played["answers_accepted"], played["answers_expected"]) == (3, 15, 15)
    assert played["errors"] == 0 and played["error_kinds"] == {}
    assert played["outcome"] == "round finished"
    answers = played["endpoints"]["answer: POST /r/<code>/answer"]
    assert (answers["requests"], answers["errors"], answers["conflicts"]) == (15, 0, 0)
    for endpoint in ("join: GET /join", "join: POST /join", "join: GET /r/<code>"):
        assert (played["endpoints"][endpoint]["requests"], played["endpoints"][endpoint]["errors"]) == (3, 0)
    # The teacher started the round, sent "next" after each of the 5 reveals, and no "reveal" was needed.
    assert played["endpoints"]["teacher: POST /teach/rounds/<id>/control"]["requests"] == 1 + CARDS
    # The students' polls were answered with 304 when nothing changed.
    assert played["endpoints"]["poll: GET /r/<code>/version"]["not_modified"] > 0

    hammer = figures["hammer"]
    assert hammer["errors"] == 0 and hammer["students"] == 3
    for name, target in hammer["targets"].items():
        assert target["requests"] > 0 and target["errors"] == 0, (name, target)


LIVE_SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "load_live.py"


@pytest.fixture
def load_live(monkeypatch):
    """Import scripts/load_live.py (what scripts/load_matrix.py runs for each cell) as a module."""
    spec = importlib.util.spec_from_file_location("load_live", LIVE_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "load_live", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("mode", ["poll", "push"])
def test_the_live_load_script_plays_a_round_by_polling_and_by_push(load_live, live_server, tmp_path, capsys, mode):
    figures_path = tmp_path / "live.json"
    code = load_live.main(["--url", live_server, "--mode", mode, "--students", "3", "--cards", "3",
                           "--join-spread", "0.2", "--poll-interval", "0.2", "--think", "0.2", "--lobby-seconds", "0.2",
                           "--max-seconds", "30", "--seed", "1", "--json", str(figures_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    figures = json.loads(figures_path.read_text())
    assert figures["ok"] is True and figures["joined"] == 3 and figures["errors"] == 0
    assert figures["answers"]["once"] and figures["answers"]["accepted"] == figures["answers"]["expected"] == 9
    assert figures["change_to_screen"]["never_shown"] == 0
    if mode == "push":  # every screen followed its stream: no page fell back to polling
        assert figures["views_pushed"] > 0 and figures["fallbacks_to_poll"] == 0
        assert "poll" not in figures["kinds"]
    else:
        assert figures["views_pushed"] == 0 and figures["kinds"]["poll"]["count"] > 0
