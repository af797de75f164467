"""Play live rounds by polling and by push, side by side in one run, on PostgreSQL; print Markdown tables.

    python scripts/load_matrix.py --start-postgres                          # the whole matrix, about 20 minutes
    python scripts/load_matrix.py --start-postgres --students 40 --classes ""   # one size, both modes

Cells: one round of each of --students (40, 400, 1,000) and --classes (25 classes of 40, each with its own teacher,
side by side). For every cell each of --modes runs against a server of its own that this script starts on a fresh
database and stops afterwards (poll then push, so that a change of the machine's load falls on both alike):

- poll: today's live pages (scripts/load_live.py --mode poll) against gunicorn's thread worker,
  `-w 4 --threads 4 --keep-alive 5 --worker-connections 4096`;
- push: the event streams (--mode push) against gunicorn's gevent worker,
  `-k gevent -w 4 --worker-connections 4096 --keep-alive 5`, where an open stream holds no thread.

--keep-alive 5: with gunicorn's default of 2 s a poll sent as the server closes the idle connection fails.
--worker-connections 4096: the default 1,000 would stop a process from accepting once 1,000 students are connected.

PostgreSQL: one this script starts itself with --start-postgres (initdb in a temporary directory, port --pg-port,
default settings; as the postgres user when this runs as root), or the server at --postgres-url (a database of this
script's own is made there and dropped). The schema and the cards are loaded before gunicorn starts, as in
production; the server runs with a random SECRET_KEY, COOKIE_SECURE=0 (plain HTTP) and the per-address limits lifted
(every student comes from this one address).

On a machine with 2 or more cores the load generator runs on a core of its own and gunicorn and PostgreSQL (started
here) on the others (`taskset`), so that the generator does not take the server's CPU; the output says which.
Students join at --join-rate a second (max(10 s, N / rate)); all wait --lobby-seconds once in (the idle cost), then
play --cards cards, answering after 0..--think seconds. The gunicorn master and the postmaster are watched (all
their processes), so the server's CPU per student-minute can be set side by side for the two modes.

Every run's full report and JSON go to --out; the tables to stdout (and --markdown). The exit code is 1 if any run
had an error, lost an answer or counted one twice, or did not finish.
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
LOAD_SCRIPT = ROOT / "scripts" / "load_live.py"
SERVERS = {
    "poll": ["--threads", "4"],
    "push": ["-k", "gevent"],
}
SERVER_LABELS = {"poll": "gthread, 4 threads", "push": "gevent"}
LIMITS = ("SIGNUPS_PER_ADDRESS_HOUR", "JOINS_PER_ADDRESS_HOUR", "GAMES_PER_ADDRESS_HOUR")


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


def pinning():
    """Return (the generator's taskset prefix, the server's, a sentence) : its own core for the generator."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cores) < 2 or not shutil.which("taskset"):
        return [], [], f"not pinned ({len(cores) or os.cpu_count()} core(s) or no taskset): all share the machine"
    generator, server = cores[-1], cores[:-1]
    listed = ",".join(map(str, server))
    return (["taskset", "-c", str(generator)], ["taskset", "-c", listed],
            f"load generator pinned to core {generator}, gunicorn and PostgreSQL to core(s) {listed} (taskset)")


# --------------------------------------------------------------------------------------------- PostgreSQL


class Postgres:
    """A throwaway PostgreSQL server in a temporary directory (as the postgres user when run as root)."""

    def __init__(self, bindir, port, pin):
        self.bindir, self.port, self.pin = Path(bindir), port, pin
        self.dir = Path(tempfile.mkdtemp(prefix="load-matrix-pg-"))
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.postmaster_pid = None

    def run(self, *command):
        subprocess.run([*self.pin, *self.as_user, *command], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)

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


def connect(url):
    import psycopg

    return psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True)


def server_version(url):
    with connect(url) as connection:
        return connection.execute("SHOW server_version").fetchone()[0].split()[0]


def admin(url, sql):
    with connect(url) as connection:
        connection.execute(sql)


def with_database(url, name):
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


def postmaster_pid(url):
    """Return the PID of the postmaster of a local server at `url`, or None."""
    import psycopg

    try:
        with connect(url) as connection:
            backend = connection.execute("SELECT pg_backend_pid()").fetchone()[0]
        stat = Path(f"/proc/{backend}/stat").read_text()
        return int(stat[stat.rindex(")") + 2:].split()[1])
    except (psycopg.Error, OSError, ValueError):  # not local, or no /proc: the server's CPU is then gunicorn's only
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
    """Stop gunicorn at once (SIGINT: the figures are in; a graceful stop would wait for every open stream)."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def server_env(database_url):
    """Return the environment of one server: its database, a random key, plain HTTP, no per-address limits."""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "SECRET_KEY")}
    env.update(DATABASE_URL=database_url, SECRET_KEY=secrets.token_hex(32), PYTHONPATH=str(ROOT), COOKIE_SECURE="0",
               **dict.fromkeys(LIMITS, "100000000"))
    return env


def gunicorn_command(args, mode, port):
    return [sys.executable, "-m", "gunicorn", "-w", str(args.workers), *SERVERS[mode], "--worker-connections",
            str(args.worker_connections), "--keep-alive", f"{args.keep_alive:g}", "-b", f"127.0.0.1:{port}",
            args.app]


def load_command(args, cell, mode, url, watch, json_path):
    students, class_size = cell
    command = [sys.executable, str(LOAD_SCRIPT), "--url", url, "--mode", mode, "--students", str(students),
               "--cards", str(args.cards), "--think", f"{args.think:g}", "--discuss", f"{args.discuss:g}",
               "--lobby-seconds", f"{args.lobby_seconds:g}",
               "--join-spread", f"{max(10.0, students / args.join_rate):g}", "--max-seconds", f"{args.max_seconds:g}",
               "--watch-pids", ",".join(map(str, watch)), "--json", str(json_path), "--quiet"]
    if class_size:
        command += ["--class-size", str(class_size), "--start-spread", f"{args.start_spread:g}"]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    return command


def warm_up(args, mode, url, pins, path):
    """Play a short round of --warm-up students first, not counted: a school's server has every page compiled."""
    if args.warm_up < 1:
        return
    command = [*pins["generator"], sys.executable, str(LOAD_SCRIPT), "--url", url, "--mode", mode, "--students",
               str(args.warm_up), "--cards", "3", "--think", "0.5", "--join-spread", "1", "--max-seconds", "60",
               "--quiet"]
    with open(path, "w") as report:
        subprocess.run(command, check=False, cwd=ROOT, stdout=report, stderr=subprocess.STDOUT, timeout=120)


def one_run(args, cell, mode, database_url, watch, pins, out):
    """Start a server of `mode` on `database_url`, play the cell against it; return the load script's figures."""
    students, class_size = cell
    name = f"{mode}-{students}" + (f"-classes-of-{class_size}" if class_size else "")
    env = server_env(database_url)
    with open(out / f"{name}.init.log", "w") as init_log:  # the schema and the cards, once, before the workers
        subprocess.run([sys.executable, "-c", "from webapp import create_app; create_app()"], cwd=ROOT, env=env,
                       check=True, stdout=init_log, stderr=subprocess.STDOUT)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server_command = [*pins["server"], *gunicorn_command(args, mode, port)]
    with open(out / f"{name}.gunicorn.log", "w") as server_log:
        server = subprocess.Popen(server_command, cwd=ROOT, env=env, stdout=server_log, stderr=subprocess.STDOUT)
        try:
            wait_healthy(url, server)
            time.sleep(1)  # every worker up
            warm_up(args, mode, url, pins, out / f"{name}.warm-up.txt")
            load = [*pins["generator"], *load_command(args, cell, mode, url, [server.pid, *watch], out / f"{name}.json")]
            log(f"{name}: {' '.join(server_command)}")
            with open(out / f"{name}.txt", "w") as report:
                report.write(f"$ {' '.join(server_command)}\n$ {' '.join(load)}\n")
                report.flush()
                try:
                    code = subprocess.run(load, check=False, cwd=ROOT, stdout=report, stderr=subprocess.STDOUT,
                                          timeout=args.max_seconds + students / args.join_rate + 180).returncode
                except subprocess.TimeoutExpired:
                    code = "timeout"
        finally:
            stop(server)
    try:
        figures = json.loads((out / f"{name}.json").read_text())
    except (OSError, ValueError):
        figures = {"ok": False, "outcome": f"no figures (exit {code})"}
    figures.update(exit=code, cell=list(cell), mode=mode)
    log(f"{name}: exit {code}, {figures.get('outcome')}; report in {out / f'{name}.txt'}")
    return figures


# --------------------------------------------------------------------------------------------- tables


def ms(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value / 1000:.1f} s" if value >= 1000 else f"{value:.0f} ms" if value >= 10 else f"{value:.1f} ms"


def cell_label(cell):
    students, class_size = cell
    if not class_size:
        return f"{students} in one round"
    return f"{students} in {math.ceil(students / class_size)} classes of {class_size}"


def error_text(figures):
    """The run's errors with their kinds, e.g. "12 (10 connection, 2 5xx)"."""
    groups = figures.get("error_groups") or {}
    text = str(figures.get("errors", "–"))
    if groups:
        text += " (" + ", ".join(f"{n} {kind}" for kind, n in groups.items()) + ")"
    return text


def answers_text(figures):
    a = figures.get("answers")
    if not a:
        return "–"
    return f"{a['counted']} of {a['expected']}" + (", each once" if a["once"] else ", NOT each once")


KIND_COLUMNS = ("join", "page", "poll", "panel", "answer", "teacher", "events")


def latency_table(results):
    lines = ["| Students | Mode | " + " | ".join(KIND_COLUMNS) + " | Change to screen p95 (last student p95) "
             "| Errors | Answers counted | Outcome |",
             "|---|---|" + "---|" * len(KIND_COLUMNS) + "---|---|---|---|"]
    for f in results:
        kinds = f.get("kinds", {})
        cells = [ms(kinds[k]["p95_ms"]) if k in kinds else "–" for k in KIND_COLUMNS]
        change = f.get("change_to_screen")
        screen = (f"**{ms(change['pairs']['p95_ms'])}** ({ms(change['last_student']['p95_ms'])})"
                  + (f", {change['never_shown']} never shown" if change["never_shown"] else "")) if change else "–"
        lines.append(f"| {cell_label(f['cell'])} | {f['mode']} | " + " | ".join(cells)
                     + f" | {screen} | {error_text(f)} | {answers_text(f)} | {f.get('outcome', '–')} |")
    return lines


def play_cpu(figures, key):
    value = figures.get("cpu", {}).get("play", {}).get(key)
    return value if isinstance(value, (int, float)) else None


def cores_busy(figures):
    """Return how many cores the server kept busy during play, on average (None: not measured)."""
    seconds, server = play_cpu(figures, "seconds"), play_cpu(figures, "server_cpu_s")
    return server / seconds if seconds and server is not None else None


# Polling that kept this share of the server's cores busy was held back by them: its CPU per student-minute is then
# what the cores could give, not what polling needed, and push's advantage is at least the ratio shown.
FULL = 0.9


def ratio_text(poll, push, poll_cores, server_cores):
    """Return how many times less CPU per student-minute push used than polling ("at least" where polling was held
    back by the server's cores), or "" when either is missing."""
    if not poll or not push:
        return ""
    held_back = poll_cores is not None and server_cores and poll_cores >= FULL * server_cores
    return f"**≥ {poll / push:.1f}** (polling used all the CPU it had)" if held_back else f"**{poll / push:.1f}**"


def cpu_table(results, server_cores=None):
    """Return the CPU table's lines; `server_cores`: how many cores gunicorn and PostgreSQL had (None: unknown)."""
    lines = [("| Students | Mode | Play | Server CPU | Server cores | Generator cores | Other cores "
              "| Generator loop lag p99 | Idle (lobby) CPU per student-minute | CPU per student-minute | Poll / push |"),
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    per_minute = {(tuple(f["cell"]), f["mode"]): play_cpu(f, "per_student_minute") for f in results}
    busy = {(tuple(f["cell"]), f["mode"]): cores_busy(f) for f in results}
    for f in results:
        seconds, server, generator, other = (play_cpu(f, k) for k in ("seconds", "server_cpu_s", "generator_cpu_s",
                                                                       "other_cpu_s"))
        lobby = f.get("cpu", {}).get("lobby", {}).get("per_student_minute")
        mine, poll = per_minute[(tuple(f["cell"]), f["mode"])], per_minute.get((tuple(f["cell"]), "poll"))
        ratio = ratio_text(poll, mine, busy.get((tuple(f["cell"]), "poll")), server_cores) if f["mode"] == "push" else ""
        lag = f.get("loop_lag_ms", {}).get("p99")
        lines.append(
            f"| {cell_label(f['cell'])} | {f['mode']} | {f'{seconds:.0f} s' if seconds else '–'} "
            f"| {f'{server:.1f} s' if server is not None else '–'} "
            f"| {f'{server / seconds:.2f}' if server is not None and seconds else '–'} "
            f"| {f'{generator / seconds:.2f}' if generator is not None and seconds else '–'} "
            f"| {f'{other / seconds:.2f}' if other is not None and seconds else '–'} | {ms(lag)} "
            f"| {f'{lobby * 1000:.1f} ms' if lobby else '–'} | {f'{mine * 1000:.1f} ms' if mine else '–'} | {ratio} |")
    return lines


def tables(results, server_cores=None):
    return "\n".join([
        ("p95 per kind of request (events: from opening the stream to its first event), and the time from a change "
         "(a teacher's start, reveal or next; an automatic reveal) to each student's screen; answers counted by the "
         "teachers' results, each once (none twice, none accepted and missing, none that no student sent):"), "",
        *latency_table(results), "",
        ("CPU during play (from the first start to the last round's end, or the deadline): the server (gunicorn and "
         "PostgreSQL, all their processes), the load generator, everything else on the machine, and the server's CPU "
         "per student-minute (students who joined); idle: the same during the lobby, everyone in and nothing "
         "changing:"), "",
        *cpu_table(results, server_cores)])


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


def versions():
    """Return the versions of gunicorn and gevent this machine runs."""
    found = []
    for package in ("gunicorn", "gevent"):
        try:
            from importlib.metadata import version

            found.append(f"{package} {version(package)}")
        except Exception:  # noqa: BLE001 - not installed: say so in the output
            found.append(f"{package} not installed")
    return ", ".join(found)


def code_version():
    """Return the commit the servers run, and whether the work tree differs from it."""
    def git(*command):
        return subprocess.run(["git", "-C", str(ROOT), *command], capture_output=True, text=True, check=False)

    head = git("rev-parse", "--short", "HEAD")
    if head.returncode != 0:
        return "the code in " + str(ROOT) + " (not a git checkout)"
    changed = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return f"commit {head.stdout.strip()}" + (" with uncommitted changes" if changed else "")


# --------------------------------------------------------------------------------------------- main


def cells_of(args):
    """Return the cells: (students, None) for one round, (students, class size) for classes side by side."""
    cells = [(int(n), None) for n in args.students.split(",") if n.strip()]
    for spec in (s for s in args.classes.split(",") if s.strip()):
        count, _, size = spec.partition("x")
        cells.append((int(count) * int(size), int(size)))
    return cells


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--students", default="40,400,1000", help="comma-separated sizes of one round")
    parser.add_argument("--classes", default="25x40", help="comma-separated COUNTxSIZE: classes side by side")
    parser.add_argument("--modes", default="poll,push", help="comma-separated: poll, push")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn processes")
    parser.add_argument("--app", default="webapp:create_app()",
                        help="what gunicorn serves (scripts.cpu_by_kind:app charges each worker's CPU to the kinds "
                             "of request: python scripts/cpu_by_kind.py adds it up)")
    parser.add_argument("--worker-connections", type=int, default=4096,
                        help="gunicorn --worker-connections (1,000 students keep more than the default 1,000 open)")
    parser.add_argument("--keep-alive", type=float, default=5.0, help="gunicorn --keep-alive, seconds")
    parser.add_argument("--start-postgres", action="store_true", help="start a throwaway PostgreSQL server")
    parser.add_argument("--pg-bin", default=None, help="PostgreSQL's bin directory (default: the newest in "
                                                        "/usr/lib/postgresql)")
    parser.add_argument("--pg-port", type=int, default=54339, help="port of the PostgreSQL server started here")
    parser.add_argument("--postgres-url", default=os.environ.get("LOAD_POSTGRES_URL"),
                        help="a PostgreSQL server to use instead of --start-postgres (a database is made there)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the generator and the server to cores")
    parser.add_argument("--cards", type=int, default=5)
    parser.add_argument("--think", type=float, default=2.0, help="students answer after 0..THINK seconds")
    parser.add_argument("--discuss", type=float, default=0.0,
                        help="teachers send next this many seconds after a reveal shows (a class's talk)")
    parser.add_argument("--start-spread", type=float, default=0.0,
                        help="the teachers of classes side by side start 0..S seconds after the lobby (0: in the same "
                             "moment)")
    parser.add_argument("--lobby-seconds", type=float, default=10.0, help="idle time once all are in")
    parser.add_argument("--join-rate", type=float, default=20.0, help="students join over max(10, N / RATE) s")
    parser.add_argument("--max-seconds", type=float, default=150.0,
                        help="deadline of one cell's rounds (a server that cannot keep up then stops there)")
    parser.add_argument("--warm-up", type=int, default=8,
                        help="students of a short round played on each new server before the measured one (0: none)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out", default=None, help="directory of the full reports (default: a new temp dir)")
    parser.add_argument("--markdown", default=None, help="also write the tables to this file")
    args = parser.parse_args(argv)
    args.mode_list = [m.strip() for m in args.modes.split(",") if m.strip()]
    try:
        args.cells = cells_of(args)
    except ValueError:
        parser.error("--students takes numbers, --classes COUNTxSIZE")
    if not args.mode_list or set(args.mode_list) - set(SERVERS) or not args.cells:
        parser.error("--modes takes poll and/or push; give at least one cell")
    if not (args.start_postgres or args.postgres_url):
        parser.error("give --start-postgres or --postgres-url")
    return args


def main(argv=None):
    args = parse(argv)
    out = Path(args.out or tempfile.mkdtemp(prefix="load-matrix-"))
    out.mkdir(parents=True, exist_ok=True)
    # Per student: a stream and up to two requests in the client, as many sockets in the server, plus slack.
    limit = raise_open_files(8 * max(students for students, _ in args.cells) + 1024)
    generator_pin, server_pin, pinned = ([], [], "not pinned (--no-pin)") if args.no_pin else pinning()
    pins = {"generator": generator_pin, "server": server_pin}
    started, load_before, code = time.strftime("%Y-%m-%d %H:%M"), os.getloadavg(), code_version()
    log(f"reports in {out}; open-files limit {limit}; {machine()}; {pinned}; load average {load_before[0]:.2f}")
    results, postgres = [], None
    try:
        if args.start_postgres:
            bindir = args.pg_bin or max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
            postgres = Postgres(bindir, args.pg_port, server_pin)
            server_url = postgres.start()
        else:
            server_url = args.postgres_url
            pinned += "; PostgreSQL at --postgres-url is not pinned"
        version = server_version(server_url)
        watch = [postgres.postmaster_pid] if postgres else [p for p in [postmaster_pid(server_url)] if p]
        for cell in args.cells:
            for mode in args.mode_list:
                database = f"load_matrix_{os.getpid()}_{mode}_{cell[0]}_{cell[1] or 0}"
                admin(server_url, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
                admin(server_url, f'CREATE DATABASE "{database}"')
                try:
                    results.append(one_run(args, cell, mode, with_database(server_url, database), watch, pins, out))
                finally:
                    admin(server_url, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    finally:
        if postgres is not None:
            postgres.stop()
    starts = f"the classes' teachers starting within {args.start_spread:g} s, " if args.start_spread else ""
    text = "\n".join([
        (f"Load matrix {started} to {time.strftime('%H:%M')}, {code}, {machine()}, {versions()}, PostgreSQL {version} "
         f"(default settings), {args.workers} gunicorn process{'' if args.workers == 1 else 'es'} (poll: {SERVER_LABELS['poll']}; push: "
         f"{SERVER_LABELS['push']}); {pinned}; {args.cards} cards, answers after 0-{args.think:g} s, "
         f"next {args.discuss:g} s after a reveal, {starts}"
         f"lobby {args.lobby_seconds:g} s, joining at {args.join_rate:g} a second; load average before "
         f"{load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}."), "",
        tables(results, len(server_pin[-1].split(",")) if server_pin else os.cpu_count()), ""])
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)
    (out / "matrix.json").write_text(json.dumps(results, indent=1, default=str))
    return 0 if all(r.get("ok") and r.get("exit") == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
