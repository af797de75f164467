"""Fixtures: an app on its own copy of a database loaded once per test session.

The suite runs on SQLite files by default. With TEST_DATABASE_URL naming a PostgreSQL server
(for example postgresql://postgres@127.0.0.1:54329/postgres) every test gets a PostgreSQL database
of its own instead, created from a template database loaded once; CI runs the suite both ways.

Every game a test starts is dealt from a seed made from the test's name, so a test sees the same deal
on every run and machine. TEST_SEED=<anything> deals other games: how a test that works only for some
deals is found here rather than in CI.
"""

import importlib.util
import itertools
import os
import random
import re
import secrets
import shutil
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

import pytest
from markupsafe import escape
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool
from werkzeug.serving import make_server

from webapp import create_app, with_psycopg
from webapp.extensions import db
from webapp.models import Card, Game, Round

SERVER_URL = os.environ.get("TEST_DATABASE_URL")


# A test makes hundreds of rounds, games and joins from one address in a minute, which no school does:
# tests/test_limits.py sets each limit it checks, and the documented defaults where a class must never meet them.
NO_QUOTAS = {name: 10**9 for name in ("GAMES_PER_ADDRESS_HOUR", "JOINS_PER_ADDRESS_HOUR", "REPORTS_PER_ADDRESS_HOUR",
                                      "SIGNUPS_PER_ADDRESS_HOUR", "ROUNDS_PER_TEACHER_PER_DAY")}


SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def import_script(name, monkeypatch):
    """Import scripts/<name>.py as the module `name` (known to sys.modules for this test only)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def database_config(url):
    """Return test config for the database at `url`."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": str(url),
        "WTF_CSRF_ENABLED": False,
        **NO_QUOTAS,
        "FORGET_DAILY": 0,  # the daily clean-up after a test's first request: tests/test_privacy.py turns it on
    }


def build(url):
    """Create the schema and load every card into the (empty) database at `url`."""
    app = create_app(database_config(url))
    with app.app_context():
        db.engine.dispose()


class SQLiteDatabases:
    """Fresh SQLite databases: empty files, or copies of one loaded file."""

    def __init__(self, directory):
        self.directory = directory
        self.names = itertools.count()
        self.template = directory / "template.sqlite3"
        build(f"sqlite:///{self.template}")

    def empty(self):
        return f"sqlite:///{self.directory / f'db{next(self.names)}.sqlite3'}"

    def loaded(self):
        url = self.empty()
        shutil.copy(self.template, make_url(url).database)
        return url

    def drop(self, url):
        path = make_url(url).database
        if os.path.exists(path):
            os.remove(path)

    def close(self):
        pass


class PostgresDatabases:
    """Fresh PostgreSQL databases on one server: empty, or copies of one loaded template database."""

    def __init__(self, server_url):
        self.server = make_url(with_psycopg(server_url))
        self.admin = create_engine(self.server.set(database="postgres"), isolation_level="AUTOCOMMIT",
                                   poolclass=NullPool)
        self.prefix = f"test_{os.getpid()}_"
        self.names = itertools.count()
        self.template = self.prefix + "template"
        self.execute(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
        self.execute(f'CREATE DATABASE "{self.template}"')
        build(self.url(self.template))

    def execute(self, sql):
        with self.admin.connect() as connection:
            connection.execute(text(sql))

    def url(self, name):
        return self.server.set(database=name).render_as_string(hide_password=False)

    def empty(self):
        name = f"{self.prefix}{next(self.names)}"
        self.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def loaded(self):
        name = f"{self.prefix}{next(self.names)}"
        self.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        return self.url(name)

    def drop(self, url):
        self.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')

    def close(self):
        self.execute(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
        self.admin.dispose()


def pytest_collection_modifyitems(config, items):
    """On PostgreSQL, run only the tests that use a database through the app's requests: the rest give the same
    answer on any database, and the SQLite pass has run them. Those are the tests with no database (the engines'
    random play, the nickname rule...) and the browser tests, which drive the same pages over the same requests
    that the HTTP tests send to PostgreSQL; CI's time goes to the database."""
    if not SERVER_URL:
        return
    elsewhere = [item for item in items
                 if "databases" not in getattr(item, "fixturenames", ()) or item.get_closest_marker("browser")]
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        items[:] = [item for item in items if item not in elsewhere]


@pytest.fixture(scope="session")
def databases(tmp_path_factory):
    """Where tests get fresh databases: SQLite files, or PostgreSQL when TEST_DATABASE_URL is set."""
    store = PostgresDatabases(SERVER_URL) if SERVER_URL else SQLiteDatabases(tmp_path_factory.mktemp("databases"))
    yield store
    store.close()


@pytest.fixture
def loaded_database_url(databases):
    """URL of a database of this test's own with the schema and every card."""
    url = databases.loaded()
    yield url
    databases.drop(url)


@pytest.fixture
def empty_database_url(databases):
    """URL of an empty database of this test's own."""
    url = databases.empty()
    yield url
    databases.drop(url)


@pytest.fixture(autouse=True)
def dealt_by_test_name(request, monkeypatch):
    """Seed the games a test starts (the app draws seeds with secrets.randbelow) from the test's name."""
    rng = random.Random(f"{os.environ.get('TEST_SEED', '')}:{request.node.nodeid}")
    monkeypatch.setattr(secrets, "randbelow", rng.randrange)


@pytest.fixture
def app(loaded_database_url):
    """Return an app on a fresh copy of the loaded database."""
    app = create_app(database_config(loaded_database_url))
    yield app
    app.extensions["live_bus"].stop()  # a page that drew a live view started listening (on PostgreSQL)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@contextmanager
def statements_run(app):
    """Collect, in the list it gives, every SQL statement the app's database runs inside the block."""
    statements = []
    with app.app_context():
        engine = db.engine

    def record(_conn, _cursor, statement, *_args):
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)


def wait_until(read, timeout=5.0):
    """Return read() once it is truthy, asking every 50 ms; fail after `timeout` seconds.

    Browser tests read a page's value with page.evaluate of a function, which the page's content security
    policy allows; Playwright's wait_for_function with a string is evaluated by eval, which it refuses.
    """
    deadline = time.monotonic() + timeout
    while not (value := read()):
        assert time.monotonic() < deadline, f"still {value!r} after {timeout} s"
        time.sleep(0.05)
    return value


def posted(client, path, data):
    """Post a set-up form and return where it redirects; fail with the page's errors if it does not."""
    response = client.post(path, data=data)
    assert response.status_code == 302, re.findall(r'field-error[^>]*>([^<]*)', response.get_data(as_text=True)) \
        or response.get_data(as_text=True)[:400]
    return response.headers["Location"]


def seat_fields(kinds):
    """Return a set-up form's seat fields: seats Pa, Pb... (two letters: names have at least two) played by these
    kinds."""
    fields = {}
    for index, kind in enumerate(kinds):
        fields[f"seats-{index}-name"] = f"P{'abcdefgh'[index]}"
        fields[f"seats-{index}-kind"] = kind
    return fields


class GameActions:
    """Start games through their set-up pages, as a browser does, and read what the database stored."""

    def __init__(self, app):
        self.app = app

    def cardline(self, client, kinds=("human", "human"), characteristic="mass", deck="dinosaurs"):
        return posted(client, "/play/cardline/new", {"deck": deck, "characteristic": characteristic, "hand_size": "4",
                                                     "players": str(len(kinds)), **seat_fields(kinds)})

    def stack(self, client, kinds=("human", "human"), order_mode="random", order=("blue", "orange", "purple", "green")):
        return posted(client, "/play/stack/new", {"players": str(len(kinds)), "order_mode": order_mode,
                                                  **dict(zip(("first", "second", "third", "fourth"), order)),
                                                  **seat_fields(kinds)})

    def dinoblivion(self, client, mode="duel", kinds=("human", "human"), difficulty="gatherer",
                    end_trigger="hunting_grounds"):
        return posted(client, "/play/dinoblivion/new", {"mode": mode, "difficulty": difficulty,
                                                        "end_trigger": end_trigger, **seat_fields(kinds)})

    def practice(self, client, **data):
        return posted(client, "/play/practice/new", {"deck": "dinosaurs", "characteristic": "mass", "count": "5",
                                                     "mode": "line", **data})

    def quiz(self, client, kinds=("heavier", "diet"), count="4"):
        return posted(client, "/quiz/new", {"kinds": list(kinds), "deck": "dinosaurs", "difficulty": "easy",
                                            "count": count})

    def state(self, url):
        """Return the stored state of the game whose page is at `url`."""
        with self.app.app_context():
            return db.session.get(Game, url.split("?")[0].rsplit("/", 1)[1]).state


@pytest.fixture
def games(app):
    return GameActions(app)


ROUND = {"title": "Weights", "format": "class_line", "deck": "dinosaurs", "characteristic": "mass", "choice": "all",
         "count": "3", "hand_size": "2", "turn_seconds": "0", "leaderboard": "every", "teams": "2",
         "team_mode": "captain"}


class ClassroomActions:
    """A teacher's and students' steps in classroom rounds, as their browsers take them."""

    ROUND = ROUND

    def __init__(self, app):
        self.app = app

    def register(self, client, email="teacher@school.org", name="Ms Teacher"):
        """Register a teacher account and log `client` in to it (registering alone logs no one in)."""
        posted(client, "/teach/register", {"name": name, "email": email, "password": "correct horse 1",
                                           "confirm": "correct horse 1"})
        posted(client, "/teach/login", {"email": email, "password": "correct horse 1"})

    def new_round(self, teacher, **changes):
        """Create a round; return its page's URL and join code."""
        url = posted(teacher, "/teach/rounds/new", {**ROUND, **changes})
        code = re.search(r'class="join-code"[^>]*>(\w+)<', teacher.get(url).get_data(as_text=True)).group(1)
        return url, code

    def join(self, code, name):
        """Return a new student's browser, joined to the round with `code`."""
        student = self.app.test_client()
        posted(student, "/join", {"code": code, "name": name})
        return student

    def new_class(self, teacher, roster="Ava Kowalski\nBen Ng\nCy Diaz\nDev Patel", name="7B"):
        """Create a class; return its page's URL and {pupil's name: (pupil id, personal code)}."""
        url = posted(teacher, "/teach/classes/", {"name": name, "roster": roster})
        with self.app.app_context():
            from webapp.models import Pupil

            pupils = db.session.query(Pupil).filter_by(class_id=int(url.rsplit("/", 1)[1])).all()
            return url, {p.display_name: (p.id, p.code) for p in pupils}

    def class_round(self, teacher, class_url, **changes):
        """Create a round for a class; return its page's URL and join code."""
        return self.new_round(teacher, for_class=class_url.rsplit("/", 1)[1], **changes)

    def join_as_pupil(self, code, pupil, device=None):
        """Join a class's round as (pupil id, personal code) from `device` (a new browser by default); return it."""
        device = device or self.app.test_client()
        response = device.post(f"/r/{code}/me", data={"pupil": str(pupil[0]), "personal_code": pupil[1]})
        assert response.status_code == 302, re.findall(r'field-error[^>]*>([^<]*)', response.get_data(as_text=True))
        return device

    def play_started(self, teacher, names=("Ada", "Ben"), **changes):
        """Create a round, let students join and start it; return its URL, code and the students' browsers."""
        url, code = self.new_round(teacher, **changes)
        students = [self.join(code, name) for name in names]
        teacher.post(url + "/control", data={"action": "start"})
        return url, code, students

    def live_quiz(self, teacher, turn_seconds=0):
        """Create a live quiz round of three questions for the logged-in teacher; return its URL and join code."""
        from webapp.classroom import rounds
        from webapp.models import Teacher
        from webapp.play import quizzes

        with self.app.test_request_context():
            owner = db.session.query(Teacher).one()
            questions = quizzes.draw({"kinds": ["heavier", "diet"], "count": 3, "difficulty": "easy", "deck": "dinosaurs"})
            url = f"/teach/rounds/{rounds.create_quiz_round(owner, 'Quick quiz', questions, turn_seconds).id}"
        code = re.search(r'class="join-code"[^>]*>(\w+)<', teacher.get(url).get_data(as_text=True)).group(1)
        return url, code

    def quiz_homework(self, teacher, **form):
        """Write two questions (one put in order) and set them as quiz homework; return its URL and join code."""
        teacher.post("/teach/questions/new/choice", data={
            "choice-prompt": "Which came first?", "choice-option_1": "Trilobites", "choice-option_2": "Dinosaurs",
            "choice-right": "1", "choice-explanation": "Trilobites lived long before the first dinosaurs."})
        teacher.post("/teach/questions/new/order", data={
            "order-prompt": "Oldest first", "order-item_1": "Anomalocaris", "order-item_2": "Stegosaurus",
            "order-item_3": "Woolly mammoth"})
        with self.app.app_context():
            from webapp.models import TeacherQuestion

            ids = [str(q.id) for q in db.session.query(TeacherQuestion)]
        url = posted(teacher, "/teach/questions/homework", {"question": ids, "title": "Quiz homework", **form})
        code = re.search(r'class="join-code"[^>]*>(\w+)<', teacher.get(url).get_data(as_text=True)).group(1)
        return url, code

    def round(self, url):
        """Return the stored round whose teacher page is at `url` (detached)."""
        with self.app.app_context():
            rnd = db.session.get(Round, int(url.rsplit("/", 1)[1]))
            db.session.expunge(rnd)
            return rnd

    def set_round(self, url, **fields):
        """Change stored fields of a round (to move its clock, say)."""
        with self.app.app_context():
            rnd = db.session.get(Round, int(url.rsplit("/", 1)[1]))
            for name, value in fields.items():
                setattr(rnd, name, value)
            db.session.commit()


@pytest.fixture
def classroom(app):
    return ClassroomActions(app)


@pytest.fixture
def teacher(client, classroom):
    """Return a client logged in as a teacher who has just registered."""
    classroom.register(client)
    return client


@pytest.fixture
def shows_card(app):
    """Return a test of whether a page shows a card where pages show cards: a choice, a link or its name.

    A slug alone may also be a silhouette's file name (human.svg), so it is not looked for bare.
    Names are looked for as the page writes them: escaped, with any break hint (a soft hyphen) removed.
    """
    with app.app_context():
        names = {card.slug: str(escape(card.common_name)) for card in db.session.scalars(db.select(Card))}

    def shows(html, slug):
        text = html.replace("&shy;", "")
        return f'value="{slug}"' in html or f"/cards/{slug}" in html or f">{names[slug]}<" in text
    return shows


@pytest.fixture
def in_ci():
    """True when running under CI, where nothing that CI installs may be skipped."""
    return bool(os.environ.get("CI"))


CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]


@pytest.fixture
def browser(in_ci):
    """Launch headless Chromium; under CI a missing browser is a failure, not a skip."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if in_ci:
            pytest.fail("playwright is not installed")
        pytest.skip("playwright is not installed")
    if not CHROMIUM.exists():
        if in_ci:
            pytest.fail("Debian's chromium is missing at /usr/bin/chromium")
        pytest.skip("install Debian's chromium to run browser tests")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield browser
        browser.close()


class ServedAt(str):
    """The base URL of a live server, which also holds the app it serves (`.app`)."""


@pytest.fixture
def live_server(loaded_database_url):
    """Serve the app on a free local port in a background thread; yield its base URL."""
    app = create_app({**database_config(loaded_database_url), "WTF_CSRF_ENABLED": True})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    served = ServedAt(f"http://127.0.0.1:{server.server_port}")
    served.app = app  # a test may act on the server itself (cut its streams, say)
    yield served
    app.extensions["live_hub"].close_all()  # open streams end, so the server's threads do
    app.extensions["live_bus"].stop()
    server.shutdown()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def teacher_page(browser, live_server):
    """Return a browser page of a teacher who has just registered and logged in on the live server."""
    page = browser.new_context().new_page()
    page.goto(f"{live_server}/teach/register")
    page.get_by_label("Your name").fill("Ms Rivera")
    page.get_by_label("Email").fill("rivera@school.org")
    page.get_by_label("Password", exact=True).fill("fossils-rock-42")
    page.get_by_label("Password again").fill("fossils-rock-42")
    page.get_by_role("button", name="Create account").click()
    page.get_by_label("Email").fill("rivera@school.org")  # registering leads to the log-in page
    page.get_by_label("Password").fill("fossils-rock-42")
    page.get_by_role("button", name="Log in").click()
    return page


def sent_as_a_second_start(teacher):
    """Return a route handler that turns a control on its way to the server into a second "start" (with the logged-in
    `teacher` page's CSRF token): a control that no longer applies when it arrives, which the server refuses."""
    token = teacher.locator("meta[name=csrf-token]").get_attribute("content")

    def as_start(route):
        route.fulfill(response=route.fetch(
            post_data=urlencode({"csrf_token": token, "action": "start"}),
            headers={**route.request.headers, "content-type": "application/x-www-form-urlencoded"}))
    return as_start


def create_round_in_browser(teacher, title="Who weighs more?", count="3", seconds="0", **choices):
    """Create a classroom round through the teacher's browser page; return its join code."""
    teacher.get_by_role("link", name="New classroom round").click()
    teacher.get_by_label("Title").fill(title)
    for label, value in choices.items():
        teacher.get_by_label(label).select_option(value)
    teacher.get_by_label("Cards to place (class line, self-paced)").fill(count)
    teacher.get_by_label("Seconds per turn (0 = no timer)").fill(seconds)
    teacher.get_by_role("button", name="Create the round").click()
    return teacher.locator(".join-code").first.inner_text().strip()


@pytest.fixture
def new_round_page():
    """Return the step that creates a classroom round in the teacher's browser (create_round_in_browser)."""
    return create_round_in_browser
