"""Teacher accounts: sessions a teacher can end, e-mails nobody can find out, passwords nobody guesses, cookies sent
over HTTPS only, a private database file, and a `next` that never leaves the site."""

import hashlib
import itertools
import os
import re
import stat
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta

import flask
import pytest
from markupsafe import escape
from sqlalchemy import func, select

from webapp import create_app
from webapp.auth import accounts, sessions
from webapp.common import limits
from webapp.config import cookie_secure, private_database_file
from webapp.extensions import db
from webapp.models import Teacher, TeacherSession

PASSWORD = "correct horse 1"


def errors(response):
    """Return the form errors a page shows beside its fields."""
    return " ".join(re.findall(r'class="field-error"[^>]*>([^<]*)<', response.get_data(as_text=True)))


def log_in(client, email="teacher@school.org", password=PASSWORD, **query):
    return client.post("/teach/login", query_string=query, data={"email": email, "password": password})


def logged_in(client):
    """Return whether `client` opens the teacher's dashboard (not a redirect to the log-in page)."""
    return client.get("/teach/").status_code == 200


def copy_of(app, client):
    """Return a new browser holding a copy of `client`'s session cookie, as a thief who copied it would."""
    other = app.test_client()
    other.set_cookie("session", client.get_cookie("session").value)
    return other


def live_sessions(app):
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(TeacherSession))


@pytest.fixture
def moment(monkeypatch):
    """Freeze the clocks of sessions and of guess counting at one moment; return a function that moves both on."""
    now = [datetime(2030, 3, 4, 9, 0, tzinfo=UTC)]
    monkeypatch.setattr(sessions, "now", lambda: now[0])
    monkeypatch.setattr(limits, "now", lambda: now[0])

    def move(**delta):
        now[0] += timedelta(**delta)
    return move


# --- sessions that end ------------------------------------------------------------------------------------------

def test_the_cookie_holds_a_token_whose_hash_alone_is_kept(classroom, app, client):
    classroom.register(client)
    with client.session_transaction() as cookie:
        token = cookie["teacher_session"]
        assert "teacher_id" not in cookie
    with app.app_context():
        row = db.session.scalars(select(TeacherSession)).one()
        assert row.id == hashlib.sha256(token.encode()).hexdigest() != token
        assert row.teacher_id == db.session.scalars(select(Teacher.id)).one()


@pytest.mark.parametrize("forged", [{"teacher_session": "made-up-token"}, {"teacher_id": 1}, {"teacher_session": 1}])
def test_a_cookie_without_a_live_session_opens_nothing(classroom, app, client, forged):
    classroom.register(app.test_client())  # teacher 1 exists and is logged in elsewhere
    with client.session_transaction() as cookie:
        cookie.update(forged)
    response = client.get("/teach/")
    assert response.status_code == 302 and "/teach/login" in response.headers["Location"]


def test_logging_out_ends_every_copy_of_the_cookie(classroom, app, client):
    classroom.register(client)
    stolen = copy_of(app, client)
    assert logged_in(stolen)
    client.post("/teach/logout")
    assert not logged_in(client) and not logged_in(stolen)
    assert live_sessions(app) == 0


def test_logging_out_everywhere_ends_every_browser(classroom, app, client):
    classroom.register(client)
    laptop, stolen = app.test_client(), copy_of(app, client)
    log_in(laptop)
    other_teacher = app.test_client()
    classroom.register(other_teacher, email="other@school.org")
    assert all(logged_in(browser) for browser in (client, laptop, stolen, other_teacher))
    response = client.post("/teach/account/logout-everywhere")
    assert response.headers["Location"] == "/teach/login"
    assert not any(logged_in(browser) for browser in (client, laptop, stolen))
    assert logged_in(other_teacher) and live_sessions(app) == 1  # another teacher's session is not touched


def test_a_password_change_ends_every_other_session_but_this_one(classroom, app, client):
    classroom.register(client)
    laptop, phone = app.test_client(), app.test_client()
    log_in(laptop)
    log_in(phone)
    stolen = copy_of(app, laptop)
    response = client.post("/teach/account", data={"current": PASSWORD, "password": "new fossil beds 7",
                                                   "confirm": "new fossil beds 7"})
    assert response.status_code == 302 and "every other browser is logged out" in client.get("/teach/account").text
    assert logged_in(client) and not any(logged_in(browser) for browser in (laptop, phone, stolen))
    assert live_sessions(app) == 1
    assert log_in(app.test_client()).status_code == 400  # the old password is refused
    assert log_in(app.test_client(), password="new fossil beds 7").status_code == 302


@pytest.mark.parametrize(("form", "field", "message"), [
    ({"current": "not my password"}, "current", "not your current password"),
    ({"current": ""}, "current", "Enter your current password"),
    ({"password": "aaaaaaaaaa", "confirm": "aaaaaaaaaa"}, "password", 'Repeats like "aaa" are easy to guess'),
    ({"password": "password123", "confirm": "password123"}, "password", "This is a very common password"),
    ({"password": "ms teacher 2", "confirm": "ms teacher 2"}, "password", "too easy to guess"),  # the name
    ({"password": "short", "confirm": "short"}, "password", "at least 10 characters"),
    ({"confirm": "something else"}, "confirm", "The passwords differ"),
])
def test_a_password_change_is_refused_beside_the_field_and_changes_nothing(classroom, app, client, form, field,
                                                                          message):
    classroom.register(client)
    other = app.test_client()
    log_in(other)
    data = {"current": PASSWORD, "password": "new fossil beds 7", "confirm": "new fossil beds 7", **form}
    response = client.post("/teach/account", data=data)
    assert response.status_code == 400
    assert re.search(rf'id="{field}-error">[^<]*{re.escape(str(escape(message)))}', response.get_data(as_text=True))
    assert logged_in(other) and log_in(app.test_client()).status_code == 302  # nothing changed


def test_wrong_current_passwords_are_slowed_beside_the_field(classroom, app, client, moment):
    classroom.register(client)
    wrong = {"current": "not my password", "password": "new fossil beds 7", "confirm": "new fossil beds 7"}
    pages = [client.post("/teach/account", data=wrong).get_data(as_text=True) for _ in range(10)]
    assert "Too many wrong passwords" in pages[-1] and re.search(r'id="current-error">[^<]*wait \d+ second', pages[-1])
    right = {**wrong, "current": PASSWORD}
    assert "Too many wrong passwords" in client.post("/teach/account", data=right).get_data(as_text=True)
    moment(minutes=10)
    assert client.post("/teach/account", data=right).status_code == 302


def test_sessions_older_than_the_lifetime_are_refused(classroom, app, client, moment):
    assert app.permanent_session_lifetime == timedelta(days=31)
    classroom.register(client)
    moment(days=30)
    assert logged_in(client)
    moment(days=1, minutes=1)
    assert not logged_in(client) and live_sessions(app) == 0


def test_last_seen_moves_at_most_once_a_minute(classroom, app, client, moment):
    classroom.register(client)

    def last_seen():
        with app.app_context():
            seen = db.session.scalars(select(TeacherSession.last_seen_at)).one()
            return seen if seen.tzinfo else seen.replace(tzinfo=UTC)

    started = last_seen()
    moment(seconds=59)
    assert logged_in(client) and last_seen() == started
    moment(seconds=2)
    assert logged_in(client) and last_seen() == started + timedelta(seconds=61)


def test_the_account_page_is_linked_from_the_dashboard_and_offers_what_a_teacher_needs(classroom, app, client):
    assert client.get("/teach/account").status_code == 302  # to the log-in page
    classroom.register(client)
    dashboard = client.get("/teach/").get_data(as_text=True)
    assert 'href="/teach/account"' in dashboard
    page = client.get("/teach/account").get_data(as_text=True)
    for label in ("Current password", "New password", "New password again", "Log out everywhere",
                  "You are logged in on 1 browser."):
        assert label in page
    deleting = "classroom.delete_account" in app.view_functions
    assert ("Delete my account" in page) == deleting
    if deleting:
        assert 'href="/teach/account/delete"' in page


# --- e-mails nobody can find out --------------------------------------------------------------------------------

def test_registering_answers_alike_for_a_new_and_a_taken_email_and_changes_nothing(app):
    browser = app.test_client()
    first = browser.post("/teach/register", data={"name": "Ms Teacher", "email": "teacher@school.org",
                                                  "password": PASSWORD, "confirm": PASSWORD})
    assert (first.status_code, first.headers["Location"]) == (302, "/teach/login")
    assert "If this e-mail was new, your account is ready: log in." in browser.get("/teach/login").text
    assert not logged_in(browser)  # registering logs no one in: that would tell a new e-mail from a taken one
    with app.app_context():
        before = db.session.execute(select(Teacher.name, Teacher.password_hash)).one()
    taken = app.test_client()
    again = taken.post("/teach/register", data={"name": "Mallory", "email": " TEACHER@School.org ",
                                                "password": "mallory takes over 9", "confirm": "mallory takes over 9"})
    new = app.test_client().post("/teach/register", data={"name": "Ms New", "email": "new@school.org",
                                                          "password": PASSWORD, "confirm": PASSWORD})
    assert (again.status_code, again.headers["Location"]) == (new.status_code, new.headers["Location"])
    assert taken.get("/teach/login").text.count("If this e-mail was new") == 1
    with app.app_context():
        assert db.session.execute(select(Teacher.name, Teacher.password_hash).where(
            Teacher.email == "teacher@school.org")).one() == before
        assert db.session.scalar(select(func.count()).select_from(Teacher)) == 2
    assert log_in(app.test_client(), email="teacher@school.org", password="mallory takes over 9").status_code == 400
    assert log_in(app.test_client(), email="Teacher@School.org ").status_code == 302


def test_registering_counts_toward_the_addresss_signups_taken_emails_too(classroom, app, client):
    app.config["SIGNUPS_PER_ADDRESS_HOUR"] = 2
    form = {"name": "T", "email": "teacher@school.org", "password": PASSWORD, "confirm": PASSWORD}
    assert [client.post("/teach/register", data=form).status_code for _ in range(2)] == [302, 302]
    refused = client.post("/teach/register", data={**form, "email": "new@school.org"})
    assert refused.status_code == 429 and "limit of 2 accounts made per hour" in refused.text
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Teacher)) == 1


def test_a_login_for_an_unknown_email_checks_a_hash_as_costly_as_a_real_one(classroom, app, client, monkeypatch):
    classroom.register(client)
    checked = []
    real_check = accounts.check_password_hash
    monkeypatch.setattr(accounts, "check_password_hash", lambda stored, password: checked.append(stored)
                        or real_check(stored, password))
    for email in ("teacher@school.org", "nobody@school.org", "nobody-else@school.org"):
        response = log_in(app.test_client(), email=email, password="wrong but long")
        assert response.status_code == 400 and "do not match an account" in errors(response)
    with app.app_context():
        real = db.session.scalars(select(Teacher.password_hash)).one()
    method = real.split("$")[0]  # e.g. scrypt:32768:8:1: the work a check takes
    assert len(checked) == 3 and checked[0] == real
    assert checked[1] == checked[2] != real and checked[1].split("$")[0] == method  # one dummy, made once

    def fastest(email):
        times = []
        for _ in range(3):
            started = time.perf_counter()
            log_in(app.test_client(), email=email, password="wrong but long")
            times.append(time.perf_counter() - started)
        return min(times)
    # Without the dummy check an unknown e-mail answered in 13 ms against 795 ms for a wrong password.
    assert fastest("nobody@school.org") > 0.5 * fastest("teacher@school.org")


# --- passwords nobody guesses -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("password", "message"), [
    ("aaaaaaaaaa", 'Repeats like "aaa" are easy to guess'),
    ("password123", "This is a very common password"),
    ("zoewhitfield!", "too easy to guess"),  # strong enough for zxcvbn alone: it is her name
    ("deeptimecards", "too easy to guess"),  # strong enough for zxcvbn alone: it is the app's name
    ("aaaaaaaaa", "at least 10 characters"),
])
def test_easy_passwords_are_refused_beside_the_field_in_plain_words(client, password, message):
    response = client.post("/teach/register", data={"name": "Zoe Whitfield", "email": "zoe.whitfield@beechwood.org",
                                                    "password": password, "confirm": password})
    assert response.status_code == 400
    assert re.search(rf'id="password-error">[^<]*{re.escape(str(escape(message)))}', response.get_data(as_text=True))


def test_the_words_that_make_a_password_weak_here_are_the_persons_and_the_apps():
    from zxcvbn import zxcvbn

    for password in ("zoewhitfield!", "deeptimecards"):
        assert zxcvbn(password)["score"] >= accounts.STRONG_ENOUGH  # so it is our words that refuse them
        assert accounts.weakness(password, "zoe.whitfield@beechwood.org", "Zoe Whitfield")
    assert accounts.weakness(PASSWORD, "teacher@school.org", "Ms Teacher") is None  # the tests' password passes
    assert accounts.weakness("b" * 200) and accounts.weakness("tyrannosaurus pelican mouse " * 7) is None


# --- guessing that slows only the guesser -----------------------------------------------------------------------

def wrong_tries_before_a_wait(app):
    """Return how many wrong passwords for one account are checked, at one moment, before the next must wait."""
    with app.app_context():
        return next(count for count in itertools.count(1) if limits.PASSWORD_ACCOUNT.wait(count) > 0)


def test_wrong_passwords_for_one_account_slow_that_account_only_until_the_wait_is_over(classroom, app, moment):
    for email in ("a@school.org", "b@school.org"):
        classroom.register(app.test_client(), email=email)
    stranger = app.test_client()
    tries = [log_in(stranger, email="a@school.org", password="guess number 1").status_code for _ in range(10)]
    admitted = wrong_tries_before_a_wait(app)
    assert admitted <= app.config["FREE_PASSWORD_GUESSES"] + 1 and tries == [400] * admitted + [429] * (10 - admitted)
    refused = log_in(app.test_client(), email="a@school.org")
    assert refused.status_code == 429 and re.search(r"wait \d+ seconds?", refused.text)
    assert log_in(app.test_client(), email="b@school.org").status_code == 302  # B, same address, at once
    moment(seconds=2)
    assert log_in(app.test_client(), email="a@school.org").status_code == 302


def test_a_teachers_own_browser_is_not_slowed_by_a_strangers_guesses_from_the_school(classroom, app, moment):
    own = app.test_client()
    classroom.register(own, email="b@school.org")
    own.post("/teach/logout")
    stranger = app.test_client()
    for number in range(40):  # wrong passwords spread over many e-mails, from the school's one address
        log_in(stranger, email=f"guess{number}@school.org", password="guess number 1")
    assert log_in(app.test_client(), email="b@school.org").status_code == 429  # a new browser waits
    response = log_in(own, email="b@school.org", next="/teach/account")
    assert response.headers["Location"] == "/teach/account"  # the browser B logged in from before does not
    with own.session_transaction() as cookie:
        assert len(cookie["known_accounts"]) == 1 and "b@school.org" not in str(cookie["known_accounts"])


def test_concurrent_wrong_logins_admit_no_more_than_the_free_tries(classroom, app, moment):
    classroom.register(app.test_client())
    browsers = [app.test_client() for _ in range(20)]
    statuses, start = [], threading.Barrier(len(browsers))

    def guess(browser):
        start.wait()
        statuses.append(log_in(browser, password="guess number 1").status_code)

    threads = [threading.Thread(target=guess, args=(browser,)) for browser in browsers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    admitted = wrong_tries_before_a_wait(app)
    assert sorted(statuses) == [400] * admitted + [429] * (len(browsers) - admitted)


# --- next stays on the site -------------------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["/\t/evil.example", "/\\evil.example", "/\\/evil.example", "//evil", "https://x",
                                    "http:/evil.example", "/\n/evil.example", "/\r\n//evil", "/\x01", "/\x7f/x",
                                    "evil.example", " /x", "/ /x", "\\\\evil.example", "/teach/\u2028"])
def test_next_that_leaves_the_site_goes_to_the_dashboard(classroom, app, target):
    classroom.register(app.test_client())
    response = log_in(app.test_client(), next=target)
    assert response.status_code == 302 and response.headers["Location"] == "/teach/"


@pytest.mark.parametrize("target", ["/teach/rounds/new", "/teach/?archived=1", "/teach/classes/#7B"])
def test_next_on_the_site_is_followed(classroom, app, target):
    classroom.register(app.test_client())
    assert log_in(app.test_client(), next=target).headers["Location"] == target


def test_a_raw_tab_in_next_is_refused_as_sent(classroom, app):
    classroom.register(app.test_client())
    response = app.test_client().post("/teach/login?next=/%09/evil.example",
                                      data={"email": "teacher@school.org", "password": PASSWORD})
    assert response.headers["Location"] == "/teach/"


# --- cookies over HTTPS and a private database ------------------------------------------------------------------

@pytest.mark.parametrize(("environ", "testing", "secure"), [
    ({}, False, True),  # gunicorn, waitress, any WSGI server
    ({"FLASK_RUN_FROM_CLI": "true"}, False, False),  # flask run
    ({}, True, False),
    ({"FLASK_RUN_FROM_CLI": "true", "COOKIE_SECURE": "1"}, False, True),
    ({"COOKIE_SECURE": "0"}, False, False),  # a school's plain-HTTP network
    ({"COOKIE_SECURE": "1"}, True, True),
])
def test_cookies_are_secure_outside_the_development_server(environ, testing, secure):
    assert cookie_secure(testing=testing, environ=environ) is secure


def test_a_cookie_setting_that_is_not_0_or_1_stops_the_start():
    with pytest.raises(RuntimeError, match="COOKIE_SECURE must be 0 or 1"):
        cookie_secure(environ={"COOKIE_SECURE": "yes"})


def test_an_app_under_a_production_server_sends_its_cookie_over_https_only(loaded_database_url, monkeypatch):
    for name in ("FLASK_RUN_FROM_CLI", "COOKIE_SECURE"):
        monkeypatch.delenv(name, raising=False)
    app = create_app({"SECRET_KEY": "production", "SQLALCHEMY_DATABASE_URI": loaded_database_url,
                      "WTF_CSRF_ENABLED": False})
    try:
        assert app.config["SESSION_COOKIE_SECURE"] is True
        response = app.test_client().post("/teach/register", base_url="https://localhost", data={
            "name": "T", "email": "t@school.org", "password": PASSWORD, "confirm": PASSWORD})
        cookie = response.headers["Set-Cookie"]
        assert "session=" in cookie and "Secure" in cookie and "HttpOnly" in cookie
    finally:
        with app.app_context():
            db.engine.dispose()


def test_the_instance_folder_and_a_new_sqlite_file_are_private(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    old_umask = os.umask(0o022)  # the usual umask: what the app makes is private all the same
    instance = tmp_path / "instance"
    monkeypatch.setattr(flask.Flask, "auto_find_instance_path", lambda self: str(instance))
    try:
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite:///fresh.sqlite3"})
    finally:
        os.umask(old_umask)
    try:
        mode = {path.name: stat.S_IMODE(path.stat().st_mode) for path in (instance, *instance.iterdir())}
        assert mode["instance"] == 0o700 and mode["fresh.sqlite3"] == 0o600 and mode["secret_key"] == 0o600
        assert app.test_client().get("/cards/").status_code == 200  # the schema and cards went into that file
    finally:
        with app.app_context():
            db.engine.dispose()


def test_an_existing_database_file_and_other_databases_are_left_alone(tmp_path):
    existing = tmp_path / "kept.sqlite3"
    existing.write_bytes(b"")
    existing.chmod(0o640)
    private_database_file(f"sqlite:///{existing}", tmp_path)
    private_database_file("postgresql+psycopg://u@h/d", tmp_path)
    private_database_file("sqlite://", tmp_path)
    assert stat.S_IMODE(existing.stat().st_mode) == 0o640 and sorted(tmp_path.iterdir()) == [existing]


# Under gevent a process serves all its connections from one thread: another greenlet that runs while the hash is made
# is another request (a live screen's push, say) that did not wait for it. The plain call shows the test can fail.
UNDER_GEVENT = """
from gevent import monkey; monkey.patch_all()
import gevent
from werkzeug.security import generate_password_hash
from webapp.auth import accounts

def others_ran_during(call):
    ran = []
    other = gevent.spawn(ran.append, True)
    result = call()
    during = bool(ran)
    other.join()
    return during, result

plain, _ = others_ran_during(lambda: generate_password_hash("a long password"))
made, stored = others_ran_during(lambda: accounts.hash_password("a long password"))
checked, right = others_ran_during(lambda: accounts.password_is(stored, "a long password"))
print(plain, made, checked, right)
"""


def test_under_gevent_a_password_hash_holds_up_no_other_request_of_its_process():
    pytest.importorskip("gevent")
    done = subprocess.run([sys.executable, "-c", UNDER_GEVENT], check=False, capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.split() == ["False", "True", "True", "True"], done.stderr[-2000:]
