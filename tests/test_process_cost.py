"""scripts/process_cost.py, what the README's figures on processes sharing a core come from: the workers' CPU read
from /proc, each step's cost relative to one process, and the CSRF token its students send."""

import os
import subprocess
import sys
import time

import pytest
from conftest import import_script


@pytest.fixture
def process_cost(monkeypatch):
    """Import the script as a module."""
    return import_script("process_cost", monkeypatch)


def busy(seconds):
    """Spend `seconds` of this process's CPU."""
    ends = time.process_time() + seconds
    while time.process_time() < ends:
        pass


def test_the_cpu_of_processes_counts_what_they_spent(process_cost):
    before = process_cost.cpu_ms([os.getpid()])
    busy(0.2)
    spent = process_cost.cpu_ms([os.getpid()]) - before
    assert 150 <= spent <= 1000


def test_a_masters_workers_are_its_children(process_cost):
    children = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) for _ in range(2)]
    try:
        assert sorted(process_cost.workers_of(os.getpid())) == sorted(child.pid for child in children)
    finally:
        for child in children:
            child.kill()
            child.wait()


def test_each_step_is_set_against_one_process(process_cost):
    one = dict.fromkeys(process_cost.STEPS, 2.0)
    four = {**one, "answer": 3.0}
    lines = process_cost.table([("1", one), ("4", four)]).splitlines()
    assert lines[0] == "| Processes on one core | join page | join | round page | answer |"
    assert lines[2].endswith("| 2.00 ms (1.00×) |")
    assert lines[3] == "| 4 | 2.00 ms (1.00×) | 2.00 ms (1.00×) | 2.00 ms (1.00×) | 3.00 ms (1.50×) |"


@pytest.mark.parametrize("html, token", [
    ('<input id="csrf_token" name="csrf_token" type="hidden" value="form-token">\n'
     + '<meta name="csrf-token" content="meta-token">', "form-token"),
    ('<meta name="csrf-token" content="meta-token">', "meta-token"),
    ("<p>no form</p>", ""),
])
def test_students_send_the_pages_csrf_token(process_cost, html, token):
    assert process_cost.csrf_of(html) == token
