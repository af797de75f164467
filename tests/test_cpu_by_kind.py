"""scripts/cpu_by_kind.py, what the README's CPU by kind of request comes from: it charges a worker's CPU, counted
at every greenlet switch, to the greenlet that ran, and each request's greenlet to the request's endpoint."""

import json
import time

import greenlet
import pytest
from conftest import import_script
from werkzeug.test import Client


@pytest.fixture
def cpu_by_kind(monkeypatch):
    """Import the script as a module, and put back whatever traced greenlet switches before."""
    module = import_script("cpu_by_kind", monkeypatch)
    before = greenlet.gettrace()
    yield module
    greenlet.settrace(before)


class Clock:
    """A thread clock the test moves by hand."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_each_greenlets_time_is_charged_to_the_request_it_serves(cpu_by_kind):
    clock = Clock()
    accounts = cpu_by_kind.Accounts(clock)
    accounts.start()

    def serve(kind, seconds):
        accounts.serving(kind)
        clock.now += seconds
        greenlet.getcurrent().parent.switch()  # waits (on the database, say): the others run meanwhile
        clock.now += seconds

    answer, join = greenlet.greenlet(lambda: serve("POST answer", 3.0)), greenlet.greenlet(lambda: serve("POST join", 1.0))
    answer.switch()
    join.switch()
    clock.now += 0.5  # the loop's own work, charged to the greenlet that switches away: here the test's
    answer.switch()
    join.switch()
    greenlet.settrace(None)
    assert accounts.seconds["POST answer"] == 6.0 and accounts.seconds["POST join"] == 2.0
    assert accounts.requests == {"POST answer": 1, "POST join": 1}
    assert sum(accounts.seconds.values()) == clock.now


def test_a_wrapped_app_names_requests_by_endpoint_and_writes_its_totals(cpu_by_kind, app, tmp_path, monkeypatch):
    monkeypatch.setattr(cpu_by_kind, "WRITE_EVERY_SECONDS", 0.05)
    accounts = cpu_by_kind.Accounts()
    client = Client(cpu_by_kind.accounted(app, accounts, out=tmp_path))
    assert client.get("/ping").status_code == 200
    assert client.get("/no/such/page").status_code == 404
    client.post("/ping")
    assert accounts.requests == {"GET main.ping": 1, "GET (no route)": 1, "POST (no route)": 1}
    deadline = time.monotonic() + 5
    while not list(tmp_path.glob("*.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    _seconds, requests = cpu_by_kind.totals(tmp_path)
    assert requests["GET main.ping"] == 1


def test_the_totals_of_every_worker_are_added_up_costliest_first(cpu_by_kind, tmp_path, capsys):
    (tmp_path / "1.json").write_text(json.dumps({"seconds": {"POST answer": 2.0, "gevent loop": 1.0},
                                                "requests": {"POST answer": 400}}))
    (tmp_path / "2.json").write_text(json.dumps({"seconds": {"POST answer": 1.0, "thread Bus.listen_forever": 0.5},
                                                "requests": {"POST answer": 200}}))
    assert cpu_by_kind.main([str(tmp_path)]) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert rows == ["| POST answer | 3.00 | 66.7% | 600 | 5.00 |", "| gevent loop | 1.00 | 22.2% |  |  |",
                    "| thread Bus.listen_forever | 0.50 | 11.1% |  |  |"]
    assert cpu_by_kind.main([str(tmp_path / "empty")]) == 1
