"""Smoke test of scripts/load_live.py, what the README's load figures come from (scripts/load_matrix.py runs it for
each cell): a class of 3 plays a whole class-line round on a live server, by polling and by push.

Run here in-process (its main(argv)) against the threaded test server, so that a change of the app's pages, forms,
live endpoints or event streams that the script no longer understands fails here rather than at the next load test.
"""

import json

import pytest
from conftest import import_script


@pytest.fixture
def load_live(monkeypatch):
    """Import scripts/load_live.py (what scripts/load_matrix.py runs for each cell) as a module."""
    return import_script("load_live", monkeypatch)


@pytest.mark.parametrize(("mode", "discuss"), [("poll", 0.0), ("push", 0.0), ("push", 0.8)])
def test_the_live_load_script_plays_a_round_by_polling_and_by_push(load_live, live_server, tmp_path, capsys, mode,
                                                                    discuss):
    figures_path = tmp_path / "live.json"
    # --keepalive 0: a fresh connection per request. The development server that serves the tests sometimes
    # left a kept-alive poll unanswered for the request's whole timeout (gunicorn, which the figures use, does not).
    code = load_live.main(["--url", live_server, "--mode", mode, "--students", "3", "--cards", "3",
                           "--join-spread", "0.2", "--poll-interval", "0.2", "--think", "0.2", "--lobby-seconds", "0.2",
                           "--max-seconds", "90", "--seed", "1", "--keepalive", "0", "--json", str(figures_path),
                           "--discuss", f"{discuss}"])
    out = capsys.readouterr().out
    assert code == 0, out
    figures = json.loads(figures_path.read_text())
    assert figures["ok"] is True and figures["joined"] == 3 and figures["errors"] == 0
    assert figures["answers"]["once"] and figures["answers"]["accepted"] == figures["answers"]["expected"] == 9
    assert figures["change_to_screen"]["never_shown"] == 0
    # Each change's last screen by what the change was, and each request's time by its path, for finding the slow one.
    by_change = figures["change_to_screen"]["last_student_by_change"]
    assert by_change["start"]["count"] == 1 and by_change["next"]["count"] == 3  # the third ends the round
    assert sum(s["count"] for s in by_change.values()) == figures["change_to_screen"]["last_student"]["count"]
    paths = {(p["kind"], p["request"]): p["count"] for p in figures["paths"]}
    assert paths[("answer", "POST /r/<code>/answer")] == 9 and paths[("join", "POST /join")] == 3
    assert paths[("teacher", "POST /teach/rounds/<id>/control")] >= 3
    assert sum(paths.values()) == sum(kind["count"] for kind in figures["kinds"].values())
    assert "last student by change: " in out and "by request: " in out
    assert figures["play_seconds"] >= 3 * discuss  # the teacher let the class talk over each of the 3 reveals
    if mode == "push":  # every screen followed its stream: no page fell back to polling
        assert figures["views_pushed"] > 0 and figures["fallbacks_to_poll"] == 0
        assert figures["streams_ended_by_server"] == 0
        # A page polls only until its stream first speaks (as live.js does), which on a busy machine can take longer
        # than this run's 0.2 s poll interval: at most a poll or two per student, never a page left polling.
        assert figures["kinds"].get("poll", {}).get("count", 0) <= 2 * figures["joined"]
    else:
        assert figures["views_pushed"] == 0 and figures["kinds"]["poll"]["count"] > 0
