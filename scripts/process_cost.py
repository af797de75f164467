#!/usr/bin/env python
"""Measure what one request costs the server's CPU when several gunicorn processes share a core.

For each of --workers (default 1 and 4) a gevent gunicorn is started on one core (taskset, where there is one to
spare) against the same PostgreSQL; a teacher makes a round and --students students, one after another, open the join
page, join, open the round page and (once the teacher has started) answer the first card. Requests go one at a time,
never two at once, so what differs between the rows is only how many processes take turns on the core. The figure is
the CPU time all the workers spent (from /proc) divided by the requests of the step. PostgreSQL (started here)
shares the server's core, and this script runs on another, as in scripts/load_matrix.py. The last row runs the most
processes with all but one paused (SIGSTOP): every request then goes to that one, which shows whether the cost comes
from the processes taking turns (each one's working memory pushed out of the CPU's caches by the others between two of
its requests) or from having more of them.

    python scripts/process_cost.py --start-postgres                      # 1 and 4 processes, 300 students each
    python scripts/process_cost.py --postgres-url postgresql:///x --workers 1,2,4 --students 200

Needs the `test` (or `load`) extras: gunicorn, gevent and httpx. Linux only (/proc).
"""

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_matrix import ROOT, Postgres, free_port, server_env, stop, wait_healthy
from profile_way_in import JOIN_CODE, csrf_of

STEPS = ("join page", "join", "round page", "answer")
TICK = 1000.0 / os.sysconf("SC_CLK_TCK")  # ms


def expect(response, *statuses):
    """Return `response`, or stop with what went wrong when its status is not one of `statuses`."""
    if response.status_code not in statuses:
        raise SystemExit(f"{response.request.method} {response.request.url}: {response.status_code}\n"
                         f"{response.text[:500]}")
    return response


def workers_of(master):
    """Return the PIDs of a gunicorn master's workers."""
    return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]


def cpu_ms(pids):
    """Return the CPU time (user and system) the processes `pids` have used, in ms."""
    total = 0
    for pid in pids:
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()
        total += int(fields[11]) + int(fields[12])
    return total * TICK


def settle(pids, quiet_seconds=2.0, most_seconds=60.0):
    """Wait until the workers have used no CPU for `quiet_seconds` (each has loaded the app)."""
    deadline, last, quiet_since = time.monotonic() + most_seconds, cpu_ms(pids), time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - quiet_since < quiet_seconds:
        time.sleep(0.25)
        now = cpu_ms(pids)
        if now != last:
            last, quiet_since = now, time.monotonic()


def teacher_round(base):
    """Register a teacher and make a class-line round; return their client, the round's URL and its code."""
    teacher = httpx.Client(base_url=base, timeout=30)
    email, password = f"cost-{time.time_ns()}@example.org", "correct horse battery 1"
    token = csrf_of(expect(teacher.get("/teach/register"), 200).text)
    expect(teacher.post("/teach/register", data={"name": "Cost", "email": email, "password": password,
                                                 "confirm": password, "csrf_token": token}), 302)
    token = csrf_of(expect(teacher.get("/teach/login"), 200).text)
    expect(teacher.post("/teach/login", data={"email": email, "password": password, "csrf_token": token}), 302)
    token = csrf_of(expect(teacher.get("/teach/rounds/new"), 200).text)
    form = {"title": "Cost", "format": "class_line", "deck": "dinosaurs", "characteristic": "mass", "choice": "all",
            "count": "3", "hand_size": "4", "turn_seconds": "0", "leaderboard": "every", "teams": "2",
            "team_mode": "captain", "csrf_token": token}
    url = expect(teacher.post("/teach/rounds/new", data=form), 302).headers["location"]
    return teacher, url, JOIN_CODE.search(expect(teacher.get(url), 200).text).group(1)


def play(base, pids, students):
    """Take `students` students one by one through each step; return {step: mean worker CPU ms per request}."""
    teacher, url, code = teacher_round(base)
    clients = [httpx.Client(base_url=base, timeout=30) for _ in range(students)]
    tokens = {}
    figures = {}

    def step(name, request):
        began = cpu_ms(pids)
        for number, client in enumerate(clients):
            request(number, client)
        figures[name] = (cpu_ms(pids) - began) / len(clients)

    def join_page(number, client):
        tokens[number] = csrf_of(expect(client.get(f"/join?code={code}"), 200).text)

    step("join page", join_page)
    step("join", lambda number, client: expect(client.post("/join", data={
        "code": code, "name": f"Cost{number}", "csrf_token": tokens[number]}), 302))
    step("round page", lambda number, client: expect(client.get(f"/r/{code}"), 200))
    token = csrf_of(expect(teacher.get(url), 200).text)
    expect(teacher.post(f"{url}/control", data={"action": "start", "csrf_token": token},
                        headers={"X-Live-Panel": "1", "Accept": "application/json"}), 200, 204)
    step("answer", lambda number, client: expect(client.post(f"/r/{code}/answer", data={
        "gap": "0", "csrf_token": tokens[number]}, headers={"X-Live-Panel": "1"}), 200))
    for client in [teacher, *clients]:
        client.close()
    return figures


def one_row(args, database_url, workers, pause_others):
    """Start gunicorn with `workers` gevent processes (all but one paused if `pause_others`); return the step costs."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    pin = ["taskset", "-c", str(args.core)] if args.core is not None else []
    command = [*pin, sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", str(workers), "--keep-alive", "5",
               "-b", f"127.0.0.1:{port}", "webapp:create_app()"]
    server = subprocess.Popen(command, cwd=ROOT, env=server_env(database_url), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    paused = []
    try:
        wait_healthy(base, server)
        pids = workers_of(server.pid)
        while len(pids) < workers:
            time.sleep(0.2)
            pids = workers_of(server.pid)
        settle(pids)
        if pause_others:
            paused = pids[1:]
            for pid in paused:
                os.kill(pid, signal.SIGSTOP)
        return play(base, pids, args.students)
    finally:
        for pid in paused:
            os.kill(pid, signal.SIGCONT)
        stop(server)


def table(rows):
    """Return the rows as a Markdown table, each step also relative to the first row."""
    first = rows[0][1]
    lines = ["| Processes on one core | " + " | ".join(STEPS) + " |", "|---" * (len(STEPS) + 1) + "|"]
    for label, figures in rows:
        cells = [f"{figures[step]:.2f} ms ({figures[step] / first[step]:.2f}×)" for step in STEPS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--start-postgres", action="store_true", help="start a throwaway PostgreSQL server")
    where.add_argument("--postgres-url", help="an existing server (its database is used as it is)")
    parser.add_argument("--pg-port", type=int, default=54341)
    parser.add_argument("--pg-bin", default=None, help="PostgreSQL's bin directory (default: the newest installed)")
    parser.add_argument("--workers", default="1,4", help="comma-separated numbers of gunicorn processes")
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--core", type=int, default=0 if len(os.sched_getaffinity(0)) > 1 else None,
                        help="the core gunicorn runs on (default 0 where there are two or more)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse(argv)
    if args.core is not None:  # this script's requests on another core than the server's
        os.sched_setaffinity(0, set(os.sched_getaffinity(0)) - {args.core})
    counts = [int(number) for number in args.workers.split(",")]
    postgres = None
    if args.start_postgres:
        bindir = args.pg_bin or max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
        postgres = Postgres(bindir, args.pg_port, ["taskset", "-c", str(args.core)] if args.core is not None else [])
        database_url = postgres.start()
    else:
        database_url = args.postgres_url
    try:
        subprocess.run([sys.executable, "-c", "from webapp import create_app; create_app()"], cwd=ROOT,
                       env=server_env(database_url), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rows = [(str(workers), one_row(args, database_url, workers, False)) for workers in counts]
        if max(counts) > 1:
            rows.append((f"{max(counts)}, all but one paused", one_row(args, database_url, max(counts), True)))
    finally:
        if postgres is not None:
            postgres.stop()
    print(f"Worker CPU per request, mean of {args.students} students taken one at a time (relative to the first row):\n")
    print(table(rows))


if __name__ == "__main__":
    main()
