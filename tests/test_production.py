"""Production conditions: real server processes killed and restarted, two processes, a lost database."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from sqlalchemy.exc import OperationalError


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(database, port):
    """Start the app as its own process (as gunicorn would run it) and wait until it answers."""
    env = {**os.environ, "DATABASE_URL": database, "SECRET_KEY": "production-test"}
    process = subprocess.Popen([sys.executable, "-m", "flask", "--app", "webapp", "run", "--port", str(port)],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def call(port, method, path, body=None, token=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@pytest.fixture
def database(empty_database_url):
    """An empty database: the server creates the schema and loads the cards on its first start."""
    return empty_database_url


def test_a_game_survives_sigkill_in_the_middle(database):
    port = free_port()
    server = start_server(database, port)
    try:
        game = call(port, "POST", "/api/games", {"deck": "dinosaurs", "characteristic": "mass",
                                                 "seats": [{"name": "Ada"}, {"name": "Ben"}]})
        token = game["seats"][0]["token"]
        listed = call(port, "GET", f"/api/games/{game['id']}/actions", token=token)
        action = listed["actions"][0]
        before = call(port, "POST", f"/api/games/{game['id']}/actions",
                      {"card": action["card"], "gap": action["gap"], "version": listed["version"]}, token=token)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server = start_server(database, port)
    try:
        after = call(port, "GET", f"/api/games/{game['id']}", token=token)
        assert after == before
        ben = game["seats"][1]["token"]
        listed = call(port, "GET", f"/api/games/{game['id']}/actions", token=ben)
        move = {**listed["actions"][0], "version": listed["version"]}
        assert call(port, "POST", f"/api/games/{game['id']}/actions", move, token=ben)["turn"] == 0
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()


def test_two_processes_serve_one_game_consistently(database):
    first_port, second_port = free_port(), free_port()
    first = start_server(database, first_port)
    second = start_server(database, second_port)
    try:
        game = call(first_port, "POST", "/api/games", {"deck": "animals", "characteristic": "lifespan",
                                                       "seats": [{"name": "Ada"}, {"name": "Ben"}]})
        ada, ben = (seat["token"] for seat in game["seats"])
        listed = call(second_port, "GET", f"/api/games/{game['id']}/actions", token=ada)
        call(second_port, "POST", f"/api/games/{game['id']}/actions",
             {**listed["actions"][0], "version": listed["version"]}, token=ada)
        listed = call(first_port, "GET", f"/api/games/{game['id']}/actions", token=ben)
        call(first_port, "POST", f"/api/games/{game['id']}/actions",
             {**listed["actions"][0], "version": listed["version"]}, token=ben)
        seen_first = call(first_port, "GET", f"/api/games/{game['id']}")
        seen_second = call(second_port, "GET", f"/api/games/{game['id']}")
        assert seen_first == seen_second and len(seen_first["recent"]) == 2
    finally:
        for server in (first, second):
            server.send_signal(signal.SIGKILL)
            server.wait()


def test_an_unreachable_database_gets_a_clear_503_and_the_app_recovers(app, client, monkeypatch):
    from webapp.extensions import db

    real_execute = db.session.execute

    def unreachable(*args, **kwargs):
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    monkeypatch.setattr(db.session, "execute", unreachable)
    response = client.get("/healthz", headers={"Accept": "application/json"})
    assert response.status_code == 503
    assert "database cannot be reached" in response.get_json()["error"]
    page = client.get("/", headers={"Accept": "text/html"})
    assert page.status_code == 503 and "Traceback" not in page.get_data(as_text=True)
    monkeypatch.setattr(db.session, "execute", real_execute)
    assert client.get("/healthz").status_code == 200


def test_a_server_whose_every_database_connection_stays_busy_answers_503_not_500(app, client, monkeypatch):
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    from webapp.extensions import db

    def pool_exhausted(*args, **kwargs):
        raise PoolTimeout("QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00")

    monkeypatch.setattr(db.session, "execute", pool_exhausted)
    response = client.get("/healthz", headers={"Accept": "application/json"})
    assert response.status_code == 503 and "very busy" in response.get_json()["error"]


def test_connections_a_restarted_database_dropped_are_replaced_by_themselves(app, client, databases):
    from sqlalchemy.engine import make_url

    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() != "postgresql":
        pytest.skip("an embedded SQLite file has no server connections to lose")
    assert client.get("/cards/").status_code == 200  # the pool holds a connection now
    # What a server restart or failover does to the pool: every connection is cut.
    databases.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      f"WHERE datname = '{url.database}' AND pid <> pg_backend_pid()")
    first = client.get("/cards/", headers={"Accept": "application/json"})
    assert first.status_code in (200, 503)
    if first.status_code == 503:
        assert "database cannot be reached" in first.get_json()["error"]
    assert [client.get("/cards/").status_code for _ in range(3)] == [200, 200, 200]


class Browser:
    """A tiny HTTP client with cookies and CSRF tokens, like one browser tab."""

    def __init__(self, port):
        import http.cookiejar

        self.port = port
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path):
        with self.opener.open(f"http://127.0.0.1:{self.port}{path}", timeout=10) as response:
            return response.read().decode()

    def post(self, path, form, token_from):
        import re
        import urllib.parse

        page = self.get(token_from)
        token = re.search(r'name="csrf[-_]token"[^>]*(?:value|content)="([^"]+)"', page) or \
            re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
        data = urllib.parse.urlencode({**form, "csrf_token": token.group(1)}).encode()
        with self.opener.open(f"http://127.0.0.1:{self.port}{path}", data=data, timeout=10) as response:
            return response.read().decode()


def test_a_classroom_round_survives_sigkill_in_the_middle(database):
    import re

    port = free_port()
    server = start_server(database, port)
    teacher, student = Browser(port), Browser(port)
    try:
        teacher.post("/teach/register", {"name": "T", "email": "k@school.org", "password": "correct horse 1",
                                         "confirm": "correct horse 1"}, "/teach/register")
        teacher.post("/teach/login", {"email": "k@school.org", "password": "correct horse 1"}, "/teach/login")
        page = teacher.post("/teach/rounds/new", {"title": "Kill test", "format": "class_line", "deck": "dinosaurs",
                                                  "characteristic": "mass", "choice": "all", "count": "3",
                                                  "hand_size": "4", "turn_seconds": "0", "leaderboard": "every",
                                                  "teams": "2", "team_mode": "captain"}, "/teach/rounds/new")
        code = re.search(r'class="join-code"[^>]*>(\w+)<', page).group(1)
        round_path = re.search(r'action="(/teach/rounds/\d+)/control"', page).group(1)
        student.post("/join", {"code": code, "name": "Ada"}, f"/join?code={code}")
        teacher.post(round_path + "/control", {"action": "start"}, round_path)
        student.post(f"/r/{code}/answer", {"gap": "0"}, f"/r/{code}")
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server = start_server(database, port)
    try:
        assert "Revealed:" in teacher.get(round_path + "/panel")  # Ada's answer and the reveal were kept
        teacher.post(round_path + "/control", {"action": "next"}, round_path)
        assert "Card 2 of 3" in student.get(f"/r/{code}")
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()


def test_two_processes_serve_one_classroom_round_consistently(database):
    import re

    first_port, second_port = free_port(), free_port()
    servers = [start_server(database, first_port), start_server(database, second_port)]
    teacher, ada, ben = Browser(first_port), Browser(first_port), Browser(second_port)
    try:
        teacher.post("/teach/register", {"name": "T", "email": "two@school.org", "password": "correct horse 1",
                                                "confirm": "correct horse 1"}, "/teach/register")
        teacher.post("/teach/login", {"email": "two@school.org", "password": "correct horse 1"}, "/teach/login")
        page = teacher.post("/teach/rounds/new", {"title": "Two servers", "format": "class_line", "deck": "dinosaurs",
                                                  "characteristic": "mass", "choice": "all", "count": "3",
                                                  "hand_size": "4", "turn_seconds": "0", "leaderboard": "every",
                                                  "teams": "2", "team_mode": "captain"}, "/teach/rounds/new")
        code = re.search(r'class="join-code"[^>]*>(\w+)<', page).group(1)
        round_path = re.search(r'action="(/teach/rounds/\d+)/control"', page).group(1)
        ada.post("/join", {"code": code, "name": "Ada"}, f"/join?code={code}")
        ben.post("/join", {"code": code, "name": "Ben"}, f"/join?code={code}")
        assert "Ada" in teacher.get(round_path + "/panel") and "Ben" in teacher.get(round_path + "/panel")
        teacher.post(round_path + "/control", {"action": "start"}, round_path)
        ada.post(f"/r/{code}/answer", {"gap": "0"}, f"/r/{code}")
        ben.post(f"/r/{code}/answer", {"gap": "1"}, f"/r/{code}")
        panel = teacher.get(round_path + "/panel")
        assert "Revealed:" in panel and panel.count("<strong>1</strong> vote") == 2  # both answers, one per process
        boards = [re.search(r'<ol class="leaderboard">.*?</ol>', student.get(f"/r/{code}/panel"), re.DOTALL).group(0)
                  for student in (ada, ben)]
        assert boards[0] == boards[1] and ("Ada" in boards[0]) != ("Ben" in boards[0])  # one of two places was right
        teacher.post(round_path + "/control", {"action": "next"}, round_path)
        assert "Card 2 of 3" in ada.get(f"/r/{code}") and "Card 2 of 3" in ben.get(f"/r/{code}")
    finally:
        for server in servers:
            server.send_signal(signal.SIGKILL)
            server.wait()


def test_production_mode_shows_no_debugger_traceback_or_secret(loaded_database_url, monkeypatch):
    from webapp import create_app

    monkeypatch.setenv("SECRET_KEY", "a-production-secret")
    app = create_app({"SQLALCHEMY_DATABASE_URI": loaded_database_url})

    def broken():
        raise RuntimeError("internal detail: /srv/app/secret.py")

    app.add_url_rule("/broken", "broken", broken)
    client = app.test_client()
    assert not app.debug and not app.testing
    failed = client.get("/broken")
    text = failed.get_data(as_text=True)
    assert failed.status_code == 500 and "went wrong on our side" in text
    assert not any(leak in text for leak in ("Traceback", "internal detail", "a-production-secret", "Debugger"))
    assert client.get("/console").status_code == 404
    assert "a-production-secret" not in client.get("/healthz").get_data(as_text=True)
    from webapp.extensions import db

    with app.app_context():
        db.engine.dispose()
