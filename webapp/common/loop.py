"""The server's loop: under gunicorn's gevent worker one thread serves every connection of a process in turn, so
work that holds the processor for long (a password hash) is handed to a real thread, lest every live screen of the
process wait for it."""

import sys


def under_gevent():
    """Say whether this process runs under gevent's patched sockets (gunicorn -k gevent)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("socket")


def off_the_loop(work, *args):
    """Return `work(*args)`, run in gevent's pool of real threads under gevent (where `work` lets go of the
    interpreter, as hashlib's scrypt does, the loop serves the others meanwhile), and here otherwise."""
    if not under_gevent():
        return work(*args)
    from gevent import get_hub  # only where gevent runs the process

    return get_hub().threadpool.apply(work, args)
