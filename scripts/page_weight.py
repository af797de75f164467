#!/usr/bin/env python
"""Measure the bytes a browser transfers for pages on a first visit and on a repeat visit.

Starts the app on a temporary database (or uses --url of a running server) and loads each page
twice in one headless Chromium profile, summing what crossed the network (Chrome DevTools
Protocol: encodedDataLength, headers included). Needs Debian's chromium and playwright.
"""

import argparse
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

PAGES = ["/", "/cards/", "/cards/tyrannosaurus", "/timeline", "/timeline?scale=log", "/play/", "/play/cardline/new",
         "/play/stack/new", "/play/practice/new", "/quiz/new", "/lessons/", "/lessons/deep-time-gaps", "/join",
         "/teach/login", "/play/dinoblivion/new", "/play/dinoblivion/rules"]
# A student doing a lesson at home: the lesson, then its timeline activity and the time-gap chart it leads to.
LESSON_CARDS = "dimetrodon,coelophysis,brontosaurus,stegosaurus,velociraptor,tyrannosaurus,triceratops,woolly-mammoth,human"
LESSON_JOURNEY = ["/lessons/deep-time-gaps", f"/timeline?cards={LESSON_CARDS}", "/timeline/gap"]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]


def serve_app():
    """Start the app on a temporary SQLite database in a thread; return its base URL."""
    import logging

    from werkzeug.serving import make_server

    from webapp import create_app

    logging.getLogger("werkzeug").setLevel(logging.WARNING)

    folder = Path(tempfile.mkdtemp())
    app = create_app({"SECRET_KEY": "page-weight", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'db.sqlite3'}"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def cardline_game(base):
    """Start a Cardline game through the API; return its page's path (as a spectator sees it)."""
    import json
    import urllib.request

    body = json.dumps({"deck": "dinosaurs", "characteristic": "mass", "seats": [{"name": "Ada"}, {"name": "Ben"}]})
    request = urllib.request.Request(base + "/api/games", data=body.encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return f"/play/cardline/{json.loads(response.read())['id']}"


def visit(page, session, url):
    """Load `url` until the network is idle; return (bytes transferred, requests made)."""
    totals = {"bytes": 0, "requests": 0}

    def finished(event):
        totals["bytes"] += event["encodedDataLength"]
        totals["requests"] += 1

    session.on("Network.loadingFinished", finished)
    page.goto(url, wait_until="networkidle")
    session.remove_listener("Network.loadingFinished", finished)
    return totals["bytes"], totals["requests"]


def main():
    """Print first-visit and repeat-visit transfer for each page."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", help="base URL of a running server (default: start one)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    base = args.url or serve_app()
    print(f"{'page':28} {'first visit':>16} {'repeat visit':>16}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, headless=True, args=ARGS)
        for path in [*PAGES, cardline_game(base)]:
            context = browser.new_context()
            page = context.new_page()
            session = context.new_cdp_session(page)
            session.send("Network.enable")
            first = visit(page, session, base + path)
            repeat = visit(page, session, base + path)
            print(f"{path:28} {first[0] / 1024:9.1f} KB ({first[1]:2}) {repeat[0] / 1024:9.1f} KB ({repeat[1]:2})")
            context.close()
        print(f"{'a lesson, its timeline and the gap chart':42} {'first visit':>16} {'next visit':>16}")
        context = browser.new_context()
        page = context.new_page()
        session = context.new_cdp_session(page)
        session.send("Network.enable")
        visits = [[visit(page, session, base + path) for path in LESSON_JOURNEY] for _ in range(2)]
        for path, first, repeat in zip(LESSON_JOURNEY, *visits, strict=True):
            print(f"{path[:42]:42} {first[0] / 1024:9.1f} KB ({first[1]:2}) {repeat[0] / 1024:9.1f} KB ({repeat[1]:2})")
        first, repeat = (sum(size for size, _ in journey) for journey in visits)
        print(f"{'the whole lesson':42} {first / 1024:9.1f} KB      {repeat / 1024:9.1f} KB")
        context.close()
        browser.close()


if __name__ == "__main__":
    main()
