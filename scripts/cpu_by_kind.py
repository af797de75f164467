"""Charge a gunicorn gevent worker's CPU to what it did: each kind of request, gevent's loop, each thread.

py-spy's samples leave out much of what a gevent worker spends in its event loop and in system calls, and cannot
say which request a greenlet served. This counts the thread's CPU time at every greenlet switch and charges it to
the greenlet that ran until then: a connection's greenlet to the endpoint of the request it serves (an event
stream for its whole life: its first look, every wave, every heartbeat), gevent's hub to "gevent loop", a thread's
greenlet (the live bus, its timers) to the function it runs. Each worker writes its totals every few seconds.

    gunicorn -w 4 -k gevent ... "scripts.cpu_by_kind:app"        # instead of "webapp:create_app()"
    python scripts/load_matrix.py ... --app scripts.cpu_by_kind:app
    python scripts/cpu_by_kind.py                                # the workers' totals, added up

Totals go to $CPU_BY_KIND_DIR (default /tmp/cpu-by-kind), one file per worker: empty it between runs. The
accounting costs each switch a call (a few per cent of a busy worker). gevent workers only: a thread worker's
requests run on threads of their own, which this does not follow.
"""

import argparse
import json
import os
import sys
import threading
import time
import weakref
from collections import Counter
from pathlib import Path

import greenlet
from werkzeug.exceptions import HTTPException

OUT = Path(os.environ.get("CPU_BY_KIND_DIR", "/tmp/cpu-by-kind"))
WRITE_EVERY_SECONDS = 5.0


class Accounts:
    """CPU seconds by what ran, counted at every greenlet switch of this thread."""

    def __init__(self, clock=time.thread_time):
        self.clock = clock
        self.seconds = Counter()
        self.requests = Counter()
        self.labels = weakref.WeakKeyDictionary()  # a connection's greenlet -> the kind of its request
        self.since = clock()

    def start(self):
        """Count from now on, at every switch of this thread's greenlets."""
        self.since = self.clock()
        greenlet.settrace(self.switched)

    def switched(self, event, args):
        """Charge the time since the last switch to the greenlet switched away from."""
        if event in ("switch", "throw"):
            origin, _target = args
            at = self.clock()
            self.seconds[self.label_of(origin)] += at - self.since
            self.since = at

    def serving(self, kind):
        """Note that the current greenlet serves a request of `kind` from now on."""
        self.labels[greenlet.getcurrent()] = kind
        self.requests[kind] += 1

    def label_of(self, running):
        """Return what a greenlet's time is charged to."""
        kind = self.labels.get(running)
        if kind is not None:
            return kind
        if type(running).__name__ == "Hub":
            return "gevent loop"
        thread = threading._active.get(id(running))  # gevent's threads are greenlets, known by their id
        work = thread and (getattr(thread, "function", None) or getattr(thread, "_target", None))
        if work is not None:
            return f"thread {getattr(work, '__qualname__', work)}"
        run = getattr(running, "_run", None) or getattr(running, "run", None)
        return f"greenlet {getattr(run, '__qualname__', type(running).__name__)}"

    def as_dict(self):
        return {"seconds": dict(self.seconds), "requests": dict(self.requests)}


def accounted(app, accounts=None, out=OUT):
    """Return `app` wrapped so that each worker charges its CPU to the kinds of request, and writes its totals."""
    accounts = accounts or Accounts()
    urls = app.url_map.bind("localhost")

    def kind_of(environ):
        method = environ.get("REQUEST_METHOD", "GET")
        try:
            endpoint, _ = urls.match(environ.get("PATH_INFO", "/"), method)
        except HTTPException:
            endpoint = "(no route)"
        return f"{method} {endpoint}"

    def wsgi(environ, start_response):
        accounts.serving(kind_of(environ))
        return app(environ, start_response)

    def write_forever():
        while True:
            time.sleep(WRITE_EVERY_SECONDS)
            try:
                out.mkdir(parents=True, exist_ok=True)
                (out / f"{os.getpid()}.json").write_text(json.dumps(accounts.as_dict()))
            except OSError as error:
                print(f"cpu_by_kind: cannot write to {out}: {error}", file=sys.stderr)

    accounts.start()
    threading.Thread(target=write_forever, name="cpu-by-kind", daemon=True).start()
    return wsgi


def __getattr__(name):
    # gunicorn asks for `app` once per worker, after the fork: each worker counts its own.
    if name == "app":
        from webapp import create_app

        return accounted(create_app())
    raise AttributeError(name)


def totals(directory):
    """Return the workers' totals in `directory`, added up: (seconds by label, requests by kind)."""
    seconds, requests = Counter(), Counter()
    for path in Path(directory).glob("*.json"):
        found = json.loads(path.read_text())
        seconds.update(found["seconds"])
        requests.update(found["requests"])
    return seconds, requests


def report(seconds, requests):
    """Return the totals as a Markdown table, the costliest first."""
    spent = sum(seconds.values()) or 1.0
    lines = ["| What ran | CPU s | Share | Requests | ms each |", "|---|---|---|---|---|"]
    for label, cpu in seconds.most_common():
        count = requests.get(label, 0)
        each = f"{cpu / count * 1000:.2f}" if count else ""
        lines.append(f"| {label} | {cpu:.2f} | {cpu / spent:.1%} | {count or ''} | {each} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", nargs="?", default=str(OUT), help="where the workers wrote their totals")
    args = parser.parse_args(argv)
    seconds, requests = totals(args.directory)
    if not seconds:
        print(f"no totals in {args.directory}: serve scripts.cpu_by_kind:app and wait {WRITE_EVERY_SECONDS:g} s",
              file=sys.stderr)
        return 1
    print(report(seconds, requests))
    return 0


if __name__ == "__main__":
    sys.exit(main())
