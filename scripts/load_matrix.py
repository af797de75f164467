"""Run the classroom load test over a matrix of server set-ups and class sizes; print Markdown tables.

    python scripts/load_matrix.py --start-postgres                  # the whole matrix, about 22 minutes
    python scripts/load_matrix.py --setups sqlite --students 40     # one cell

For every set-up and class size this script starts the server itself, on a fresh database, and stops
it afterwards:

- sqlite: gunicorn, one process (--sqlite-workers 1) with --sqlite-threads threads, on a new SQLite
  file;
- postgres: gunicorn, --pg-workers processes (4) with --pg-threads threads each, on a new database
  of a PostgreSQL server: one this script starts itself with --start-postgres (initdb in a temporary
  directory, port --pg-port, default settings; run as the postgres user when this runs as root), or
  the one at --postgres-url (the script creates and drops a database of its own there).

Both run gunicorn's gthread worker with --keep-alive 5 (gunicorn's default of 2 s races the students'
1 s polls once the machine is loaded: a request sent as the server closes the idle connection fails)
and --worker-connections 4096 (the default 1,000 would stop a single process from accepting once
1,000 students hold their connections).

The schema and the cards are loaded once before gunicorn starts (as in production), with a random
SECRET_KEY and DATABASE_URL set for that server only. Against each server scripts/load_classroom.py
plays one class-line round with N students (joining over max(10, N / --join-rate) seconds, polling
every second) and then runs its closed-loop hammer: GET /ping (a constant JSON, no database) against
GET /r/<code>/version (304 and 200), with N connections, the targets taking turns. The gunicorn
master and the PostgreSQL postmaster are watched so that the server's CPU (all its processes) is
reported next to the load generator's and the whole machine's.

Every run's full report and JSON go to --out; the tables go to stdout (and --markdown if given).
The exit code is 1 if any run had an error, lost an answer or did not finish.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOAD_SCRIPT = ROOT / "scripts" / "load_classroom.py"


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def raise_open_files(needed):
    """Raise the soft limit of open files (inherited by the server and the load generator)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(needed, soft)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft < needed:
        log(f"warning: open-files limit {soft} is below the {needed} this matrix may need (ulimit -n)")
    return soft


# --------------------------------------------------------------------------------------------- PostgreSQL


class Postgres:
    """A throwaway PostgreSQL server in a temporary directory (as the postgres user when run as root)."""

    def __init__(self, bindir, port):
        self.bindir, self.port = Path(bindir), port
        self.dir = Path(tempfile.mkdtemp(prefix="load-matrix-pg-"))
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.postmaster_pid = None

    def run(self, *command):
        subprocess.run([*self.as_user, *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def start(self):
        if self.as_user:
            shutil.chown(self.dir, "postgres")
        data = self.dir / "data"
        self.run(str(self.bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
        self.run(str(self.bindir / "pg_ctl"), "-D", str(data), "-l", str(self.dir / "log"), "-w", "-o",
                 f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1", "start")
        self.postmaster_pid = int((data / "postmaster.pid").read_text().split()[0])
        log(f"PostgreSQL started on port {self.port} (pid {self.postmaster_pid}, {self.dir})")
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self):
        try:
            self.run(str(self.bindir / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def server_version(url):
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as connection:
        return connection.execute("SHOW server_version").fetchone()[0].split()[0]


def admin(url, sql):
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as connection:
        connection.execute(sql)


def with_database(url, name):
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


def postmaster_pid(url):
    """Return the PID of the postmaster of a local server at `url`, or None."""
    import psycopg

    try:
        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as connection:
            backend = connection.execute("SELECT pg_backend_pid()").fetchone()[0]
        stat = Path(f"/proc/{backend}/stat").read_text()
        return int(stat[stat.rindex(")") + 2:].split()[1])
    except (psycopg.Error, OSError, ValueError):  # not local, or no /proc: the server's CPU is then reported without PostgreSQL
        return None


# --------------------------------------------------------------------------------------------- one run


def wait_healthy(url, process, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"the server did not answer /healthz within {seconds} s")


def stop(process, seconds=30):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def one_run(args, setup, students, database_url, watch, out):
    """Start a server on `database_url`, run the load script against it; return its JSON figures."""
    name = f"{setup['name']}-{students}" + (f"-classes-of-{args.class_size}" if args.class_size else "")
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "SECRET_KEY")}
    # COOKIE_SECURE=0: the load runs over plain HTTP, where a Secure cookie would never come back. Every teacher
    # and every student comes from this one address (--class-size 10 of 1,000 students is 100 teachers), which
    # no school's limits allow: they are lifted for the run.
    env.update(DATABASE_URL=database_url, SECRET_KEY=secrets.token_hex(32), PYTHONPATH=str(ROOT), COOKIE_SECURE="0",
               **dict.fromkeys(("SIGNUPS_PER_ADDRESS_HOUR", "JOINS_PER_ADDRESS_HOUR", "GAMES_PER_ADDRESS_HOUR"),
                               "100000000"))
    with open(out / f"{name}.init.log", "w") as init_log:  # the schema and the cards, once, before the workers
        subprocess.run([sys.executable, "-c", "from webapp import create_app; create_app()"], cwd=ROOT, env=env,
                       check=True, stdout=init_log, stderr=subprocess.STDOUT)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "gunicorn", "-w", str(setup["workers"]), "--threads", str(setup["threads"]),
               "--worker-connections", str(args.worker_connections), "--keep-alive", f"{args.keep_alive:g}",
               "-b", f"127.0.0.1:{port}", "webapp:create_app()"]
    with open(out / f"{name}.gunicorn.log", "w") as server_log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=server_log, stderr=subprocess.STDOUT)
        try:
            wait_healthy(url, server)
            time.sleep(1)  # every worker up
            spread = max(10.0, students / args.join_rate)
            load = [sys.executable, str(LOAD_SCRIPT), "--url", url, "--students", str(students),
                    "--cards", str(args.cards), "--join-spread", f"{spread:g}", "--max-seconds", str(args.max_seconds),
                    "--hammer-seconds", str(args.hammer_seconds), "--hammer-rounds", str(args.hammer_rounds),
                    "--hammer-concurrency", str(args.hammer_concurrency or students),
                    "--watch-pids", ",".join(str(pid) for pid in [server.pid, *watch]),
                    "--json", str(out / f"{name}.json"), "--quiet"]
            if args.class_size:
                load += ["--class-size", str(args.class_size)]
            if args.seed is not None:
                load += ["--seed", str(args.seed)]
            log(f"{name}: {' '.join(command[1:])}; {students} students joining over {spread:g} s")
            hammer_time = 3 * args.hammer_rounds * (args.hammer_seconds + 1 + args.timeout_margin)
            with open(out / f"{name}.txt", "w") as report:
                report.write(f"$ {' '.join(command)}\n$ {' '.join(load)}\n")
                report.flush()
                try:
                    code = subprocess.run(load, check=False, cwd=ROOT, stdout=report, stderr=subprocess.STDOUT,
                                          timeout=args.max_seconds + hammer_time + 120).returncode
                except subprocess.TimeoutExpired:
                    code = "timeout"
        finally:
            stop(server)
    try:
        figures = json.loads((out / f"{name}.json").read_text())
    except (OSError, ValueError):
        figures = {"round": None, "hammer": None, "ok": False}
    figures["exit"] = code
    figures["setup"] = setup
    log(f"{name}: exit {code}; report in {out / f'{name}.txt'}")
    return figures


# --------------------------------------------------------------------------------------------- tables


def ms(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value / 1000:.1f} s" if value >= 1000 else f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"


def cores(cpu, key):
    value = cpu.get(key) if cpu else None
    return f"{value:.2f}" if isinstance(value, (int, float)) else "–"


SHORT_ERRORS = {"RemoteProtocolError": "closed before answering", "ReadTimeout": "timeouts",
                "ConnectTimeout": "connect timeouts", "ConnectError": "refused", "ReadError": "reset",
                "PoolTimeout": "client pool timeouts"}


def errors(rnd):
    """The round's error count with its kinds, e.g. "12 (10 closed before answering, 2 HTTP 503)"."""
    kinds = rnd.get("error_kinds") or {}
    if not rnd["errors"] or not kinds:
        return str(rnd["errors"])
    return f"{rnd['errors']} (" + ", ".join(f"{n} {SHORT_ERRORS.get(k, k)}" for k, n in kinds.items()) + ")"


def tables(results):
    lines = ["Classroom rounds (a teacher per round, N students joining, polling every second, answering 5 cards):", "",
             ("| Set-up | Students | Joined | Answers | Requests | Throughput | p50 | p95 | p99 | Errors "
             "| Version poll p95 | CPU: server / load generator / other (cores) | Outcome |"),
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        label, rnd = r["setup"]["label"], r.get("round")
        if not rnd:
            lines.append(f"| {label} | {r['students']} | run failed (exit {r['exit']}) |||||||||||")
            continue
        o, cpu = rnd["overall"], rnd["cpu"]
        poll = rnd["endpoints"].get("poll: GET /r/<code>/version", {})
        rounds = rnd.get("rounds", 1)
        students = f"{rnd['students']}" + (f" in {rounds} rounds" if rounds > 1 else "")
        lines.append(
            f"| {label} | {students} | {rnd['joined']} | {rnd['answers_accepted']} of {rnd['answers_expected']} "
            f"| {o['requests']} | {o['per_second']:.0f} req/s | {ms(o['p50_ms'])} | **{ms(o['p95_ms'])}** "
            f"| {ms(o['p99_ms'])} | {errors(rnd)} | {ms(poll.get('p95_ms'))} "
            f"| {cores(cpu, 'server_cores')} / {cores(cpu, 'client_cores')} / {cores(cpu, 'other_cores')} "
            f"| {rnd['outcome']} |")
    if not any(r.get("hammer") for r in results):
        return "\n".join(lines)
    lines += ["", ("Closed-loop throughput, N connections, same server and run "
                  "(req/s, p50 / p99; ratio = poll / bare):"), "",
              ("| Set-up | Connections | Bare `/ping` | Poll, 304 | Ratio 304 | Poll, 200 | Ratio 200 | Errors "
              "| CPU: server / load generator / other (cores) | Server CPU per request: bare / 304 / 200 "
              "| CPU-cost ratio 304 / 200 |"),
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        label, hammer = r["setup"]["label"], r.get("hammer")
        if not hammer or "targets" not in hammer:
            lines.append(f"| {label} | {r['students']} | hammer failed: {(hammer or {}).get('failed', '?')} |||||||")
            continue
        t = hammer["targets"]
        bare, p304, p200 = (t[name] for name in ("bare GET /ping", "poll GET /r/<code>/version, 304",
                                                 "poll GET /r/<code>/version, 200"))

        def cell(f):
            return f"{f['per_second']:.0f} ({ms(f['p50_ms'])} / {ms(f['p99_ms'])})"

        cpu = {key: sum(f["cpu"].get(key, math.nan) for f in (bare, p304, p200)) / 3
               for key in ("server_cores", "client_cores", "other_cores")}
        lines.append(
            f"| {label} | {hammer['connections']} | {cell(bare)} | {cell(p304)} "
            f"| **{hammer['ratios']['poll GET /r/<code>/version, 304']:.2f}** | {cell(p200)} "
            f"| **{hammer['ratios']['poll GET /r/<code>/version, 200']:.2f}** | {hammer['errors']} "
            f"| {cores(cpu, 'server_cores')} / {cores(cpu, 'client_cores')} / {cores(cpu, 'other_cores')} "
            f"| {per_request(bare, p304, p200)} |")
    return "\n".join(lines)


def per_request(bare, p304, p200):
    """The server's CPU per request of each target, and bare's over the poll's: the throughput ratio
    the server would reach if the CPU were all its own (other work on the machine does not change it)."""
    costs = [f["cpu"].get("server_cpu_ms_per_request") for f in (bare, p304, p200)]
    if any(c is None for c in costs):
        return "– | –"
    text = f"{costs[0]:.2f} / {costs[1]:.2f} / {costs[2]:.2f} ms"
    # The watched processes are gunicorn first, then PostgreSQL: show the database's part.
    parts = [list(f["cpu"].get("server_cpu_ms_per_request_by_pid", {}).values()) for f in (bare, p304, p200)]
    if all(len(p) > 1 for p in parts):
        text += f" (PostgreSQL: {' / '.join(f'{sum(p[1:]):.2f}' for p in parts)})"
    return f"{text} | {costs[0] / costs[1]:.2f} / {costs[0] / costs[2]:.2f}"


def machine():
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} cores{f' ({model})' if model else ''}, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--setups", default="sqlite,postgres", help="comma-separated: sqlite, postgres")
    parser.add_argument("--students", default="40,400,1000", help="comma-separated class sizes")
    parser.add_argument("--sqlite-workers", type=int, default=1)
    parser.add_argument("--sqlite-threads", type=int, default=8)
    parser.add_argument("--pg-workers", type=int, default=4)
    parser.add_argument("--pg-threads", type=int, default=4)
    parser.add_argument("--worker-connections", type=int, default=4096,
                        help="gunicorn --worker-connections (1,000 students keep more than the default 1,000 open)")
    parser.add_argument("--keep-alive", type=float, default=5.0,
                        help="gunicorn --keep-alive, seconds: above the students' 1 s poll plus the load generator's "
                             "own delays (its clients drop a connection idle 1.5 s)")
    parser.add_argument("--start-postgres", action="store_true", help="start a throwaway PostgreSQL server")
    parser.add_argument("--pg-bin", default=None, help="PostgreSQL's bin directory (default: the newest in "
                                                        "/usr/lib/postgresql)")
    parser.add_argument("--pg-port", type=int, default=54339, help="port of the PostgreSQL server started here")
    parser.add_argument("--postgres-url", default=os.environ.get("LOAD_POSTGRES_URL"),
                        help="a PostgreSQL server to use instead of --start-postgres (a database is made there)")
    parser.add_argument("--cards", type=int, default=5)
    parser.add_argument("--class-size", type=int, default=None,
                        help="split the N students into rounds of this size, played side by side (default: one round)")
    parser.add_argument("--join-rate", type=float, default=20.0,
                        help="students join over max(10, N / JOIN_RATE) seconds")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="deadline of one classroom round")
    parser.add_argument("--hammer-seconds", type=float, default=5.0, help="seconds per hammer target and turn")
    parser.add_argument("--hammer-rounds", type=int, default=2, help="turns of the hammer targets")
    parser.add_argument("--hammer-concurrency", type=int, default=None, help="hammer connections (default: N)")
    parser.add_argument("--timeout-margin", type=float, default=10.0, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out", default=None, help="directory of the full reports (default: a new temp dir)")
    parser.add_argument("--markdown", default=None, help="also write the tables to this file")
    args = parser.parse_args(argv)
    setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    sizes = [int(n) for n in args.students.split(",") if n.strip()]
    if not setups or set(setups) - {"sqlite", "postgres"} or not sizes or min(sizes) < 1:
        parser.error("--setups takes sqlite and/or postgres; --students positive numbers")
    if "postgres" in setups and not (args.start_postgres or args.postgres_url):
        parser.error("the postgres set-up needs --start-postgres or --postgres-url")
    out = Path(args.out or tempfile.mkdtemp(prefix="load-matrix-"))
    out.mkdir(parents=True, exist_ok=True)
    # Per student: up to 4 connections in the client and as many sockets in the server, plus slack.
    limit = raise_open_files(8 * max(sizes) + 1024)
    started = time.strftime("%Y-%m-%d %H:%M")
    load_before = os.getloadavg()
    log(f"reports in {out}; open-files limit {limit}; {machine()}; load average {load_before[0]:.2f}")

    results = []
    postgres = None
    try:
        for setup_name in setups:
            if setup_name == "sqlite":
                setup = {"name": "sqlite", "workers": args.sqlite_workers, "threads": args.sqlite_threads,
                         "label": f"SQLite, {args.sqlite_workers} process{'es' if args.sqlite_workers > 1 else ''} "
                                  f"x {args.sqlite_threads} threads"}
                for students in sizes:
                    path = out / f"sqlite-{students}.sqlite3"
                    for suffix in ("", "-wal", "-shm"):
                        Path(f"{path}{suffix}").unlink(missing_ok=True)
                    figures = one_run(args, setup, students, f"sqlite:///{path}", [], out)
                    figures["students"] = students
                    results.append(figures)
                continue
            if args.start_postgres and postgres is None:
                bindir = args.pg_bin or max(Path("/usr/lib/postgresql").glob("*/bin"),
                                            key=lambda p: int(p.parent.name))
                postgres = Postgres(bindir, args.pg_port)
                server_url = postgres.start()
            else:
                server_url = args.postgres_url
            version = server_version(server_url)
            watch = [postgres.postmaster_pid] if postgres else [p for p in [postmaster_pid(server_url)] if p]
            setup = {"name": "postgres", "workers": args.pg_workers, "threads": args.pg_threads,
                     "label": f"PostgreSQL {version}, {args.pg_workers} processes x {args.pg_threads} threads"}
            for students in sizes:
                database = f"load_matrix_{os.getpid()}_{students}"
                admin(server_url, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
                admin(server_url, f'CREATE DATABASE "{database}"')
                try:
                    figures = one_run(args, setup, students, with_database(server_url, database), watch, out)
                finally:
                    admin(server_url, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
                figures["students"] = students
                results.append(figures)
    finally:
        if postgres is not None:
            postgres.stop()

    load_after = os.getloadavg()
    text = "\n".join([
        (f"Load matrix {started}, {machine()}; load generator, server and database on the same machine; "
        f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}."), "",
        tables(results), "",
        ("CPU columns: cores used on average by the server (gunicorn and PostgreSQL, all their processes), by the "
        "load generator, and by everything else on the machine."), ""])
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    (out / "matrix.json").write_text(json.dumps(results, indent=1, default=str))
    return 0 if all(r.get("ok") and r.get("exit") == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
