"""Nothing exhausts a school's server and nobody locks anyone else out (webapp/common/limits.py, codes.py).

Each test lowers one school setting so a flood is a few requests; on PostgreSQL (TEST_DATABASE_URL) the same tests
show the counts hold there too.
"""

import threading
from collections import Counter
from datetime import timedelta

import pytest
from sqlalchemy import select

from webapp.common import codes, limits
from webapp.extensions import db
from webapp.games import GAMES
from webapp.models import Game, JoinCode, Student, Throttle
from webapp.play import store

SOLO_GAME = {"seats": [{"name": "Ada"}, {"name": "Bot", "kind": "easy"}]}
ROUND_GAME = {"hand_size": 1, "seats": [{"name": "Ada"}, {"name": "Ben", "kind": "remote"}]}


@pytest.fixture
def clock(monkeypatch):
    """Move the limits' clock on by hand."""
    now = [limits.now()]
    monkeypatch.setattr(limits, "now", lambda: now[0])

    def later(**delta):
        now[0] += timedelta(**delta)

    return later


def from_address(app, address):
    """Return a browser that comes from `address`."""
    browser = app.test_client()
    browser.environ_base["REMOTE_ADDR"] = address
    return browser


def play_to_the_end(app, game_id):
    """Play every seat's first legal move until the game is over, through store.act as the views do."""
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        engine = GAMES[game.kind]
        for _ in range(200):
            if engine.is_over(game.state):
                return
            seat = engine.current_player(game.state)
            store.act(game, seat, engine.legal_actions(game.state)[0])
    raise AssertionError("the game did not end")


def test_when_every_join_code_is_taken_a_new_game_is_a_clear_503_and_a_finished_game_frees_its_code(
        app, client, classroom, teacher, monkeypatch):
    monkeypatch.setattr(codes, "ALPHABET", "AC")
    monkeypatch.setattr(codes, "LENGTH", 1)  # two codes in all
    made = [client.post("/api/games", json=ROUND_GAME) for _ in range(2)]
    assert [response.status_code for response in made] == [201, 201]
    full = client.post("/api/games", json=ROUND_GAME)
    assert full.status_code == 503 and "Every join code is in use" in full.get_json()["error"]
    refused = teacher.post("/teach/rounds/new", data=classroom.ROUND)
    assert refused.status_code == 503 and "Every join code is in use" in refused.get_data(as_text=True)
    # Ben joins the first game from his device; when it ends, its code is free for the next game.
    first = made[0].get_json()["id"]
    with app.app_context():
        code = db.session.scalar(select(JoinCode.code).where(JoinCode.game_id == first))
    assert app.test_client().post("/join", data={"code": code, "name": "Ben"}).status_code == 302
    play_to_the_end(app, first)
    with app.app_context():
        assert db.session.scalar(select(JoinCode.code).where(JoinCode.game_id == first)) is None
    assert client.post("/api/games", json=ROUND_GAME).status_code == 201


@pytest.mark.parametrize(("setting", "flood"), [
    ("GAMES_PER_ADDRESS_HOUR", lambda browser, n: browser.post("/api/games", json=SOLO_GAME)),
    ("GAMES_PER_ADDRESS_HOUR", lambda browser, n: browser.post("/play/practice/new", data={
        "deck": "dinosaurs", "characteristic": "mass", "count": "5", "mode": "line"})),
    ("REPORTS_PER_ADDRESS_HOUR", lambda browser, n: browser.post("/cards/tyrannosaurus", data={
        "field": "mass", "message": f"Report number {n} says the mass looks wrong."})),
])
def test_one_address_cannot_flood_the_server_but_another_address_still_can_create(app, clock, setting, flood):
    app.config[setting] = 3
    flooder = from_address(app, "203.0.113.7")
    assert all(flood(flooder, n).status_code in (200, 201, 302) for n in range(3))
    refused = flood(flooder, 3)
    text = refused.get_data(as_text=True)
    assert refused.status_code == 429 and "limit of 3" in text and "try again in 60 minutes" in text
    assert flood(from_address(app, "198.51.100.2"), 4).status_code in (200, 201, 302)
    clock(hours=1, seconds=1)
    assert flood(flooder, 5).status_code in (200, 201, 302)


def test_joins_from_one_address_are_limited_and_a_round_has_a_cap(app, classroom, teacher, clock):
    _url, code = classroom.new_round(teacher)
    app.config["STUDENTS_PER_ROUND"] = 3
    for name in ("Ada", "Ben", "Cy"):
        assert from_address(app, "198.51.100.9").post("/join", data={"code": code, "name": name}).status_code == 302
    full = app.test_client().post("/join", data={"code": code, "name": "Dee"})
    assert full.status_code == 409 and "room for 3 students" in full.get_data(as_text=True)
    app.config["JOINS_PER_ADDRESS_HOUR"] = 4
    flooder = from_address(app, "203.0.113.8")
    answers = [flooder.post("/join", data={"code": "QQQQQ", "name": f"Eve {n}"}).status_code for n in range(5)]
    assert answers == [404, 404, 404, 404, 429]


def test_a_place_a_removed_student_frees_is_found_again_once_the_round_is_full(app, classroom, teacher):
    url, code = classroom.new_round(teacher)
    app.config["STUDENTS_PER_ROUND"] = 3
    for name in ("Ada", "Ben", "Cy"):
        classroom.join(code, name)
    assert app.test_client().post("/join", data={"code": code, "name": "Dee"}).status_code == 409
    with app.app_context():
        ben = db.session.scalar(select(Student.id).where(Student.nickname == "Ben"))
    teacher.post(f"{url}/students/{ben}", data={"action": "remove"})
    assert app.test_client().post("/join", data={"code": code, "name": "Dee"}).status_code == 302
    full = app.test_client().post("/join", data={"code": code, "name": "Eve"})
    assert full.status_code == 409 and "room for 3 students" in full.get_data(as_text=True)


def joining_at_once(app, code, names):
    """Send a join for each of `names` at the same moment; return the statuses."""
    statuses = []

    def join(name):
        statuses.append(app.test_client().post("/join", data={"code": code, "name": name}).status_code)

    threads = [threading.Thread(target=join, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_racing_joins_never_overshoot_a_rounds_room(app, classroom, teacher):
    _url, code = classroom.new_round(teacher)
    app.config["STUDENTS_PER_ROUND"] = 5
    statuses = joining_at_once(app, code, [f"Kid {letter}" for letter in "ABCDEFGHIJKL"])
    assert Counter(statuses) == {302: 5, 409: 7}
    with app.app_context():
        assert db.session.query(Student).count() == 5


def test_joins_racing_each_other_and_a_reveal_mid_round_all_get_in(app, classroom, teacher):
    """A join mid-round moves the round's version on (every screen counts the newcomer) without rewriting the
    round: racing joins, and a reveal the last answers may make, never find the version they read gone stale."""
    url, code, (ada, ben) = classroom.play_started(teacher)
    before = classroom.round(url).version
    answers = []
    answering = [threading.Thread(target=lambda s=s: answers.append(s.post(f"/r/{code}/answer", data={"gap": "0"})
                                                                     .status_code)) for s in (ada, ben)]
    for thread in answering:
        thread.start()
    statuses = joining_at_once(app, code, [f"Late {letter}" for letter in "ABCDEFGH"])
    for thread in answering:
        thread.join()
    assert statuses == [302] * 8 and answers == [302, 302]
    assert classroom.round(url).version >= before + 8  # the reveal happens only if both answered before any join
    with app.app_context():
        assert db.session.query(Student).count() == 10


def test_rounds_a_teacher_starts_in_a_day_are_capped(app, classroom, teacher, clock):
    app.config["ROUNDS_PER_TEACHER_PER_DAY"] = 2
    classroom.new_round(teacher)
    classroom.new_round(teacher)
    refused = teacher.post("/teach/rounds/new", data=classroom.ROUND)
    assert refused.status_code == 429 and "limit of 2 rounds started per day" in refused.get_data(as_text=True)
    colleague = app.test_client()
    classroom.register(colleague, email="colleague@school.org", name="Mr Colleague")
    classroom.new_round(colleague)
    clock(days=1, seconds=1)
    classroom.new_round(teacher)


def test_a_class_of_forty_behind_one_address_never_meets_a_limit(app, classroom, teacher):
    from webapp.config import SCHOOL_SETTINGS

    app.config.update({name: default for name, (default, _meaning) in SCHOOL_SETTINGS.items()})
    _url, code = classroom.new_round(teacher)
    for n in range(40):
        child = app.test_client()  # every child's device, all from the school's one address
        assert child.post("/join", data={"code": code, "name": f"Child {chr(65 + n % 26)}{chr(65 + n // 26)}"}
                          ).status_code == 302
        for _ in range(3):
            assert child.post("/api/games", json=SOLO_GAME).status_code == 201
        assert child.post("/join", data={"code": "QQQQQ", "name": "Oops"}).status_code == 404  # one typo each
        assert child.post("/cards/tyrannosaurus", data={"field": "mass", "message": "Looks too heavy to me."}
                          ).status_code == 302


def test_wrong_codes_slow_an_address_down_without_walling_off_a_classmate(app, classroom, teacher, clock):
    _url, code = classroom.new_round(teacher)
    app.config["FREE_CODE_GUESSES"] = 5
    for n in range(5):
        assert app.test_client().post("/join", data={"code": "QQQQQ", "name": "Eve"}).status_code == 404
    waiting = app.test_client().post("/join", data={"code": "QQQQQ", "name": "Eve"})
    assert waiting.status_code == 429 and "wait 1 second" in waiting.get_data(as_text=True)
    classmate = app.test_client()
    assert classmate.post("/join", data={"code": code, "name": "Ada"}).status_code == 429  # the same address waits
    clock(seconds=2)
    assert classmate.post("/join", data={"code": code, "name": "Ada"}).status_code == 302
    # A right code is taken back (the next wrong one waits no longer for it); each further wrong one doubles the wait.
    clock(seconds=2)
    assert app.test_client().post("/join", data={"code": "QQQQQ", "name": "Eve"}).status_code == 404
    backoff = app.test_client().post("/join", data={"code": "QQQQQ", "name": "Eve"})
    assert backoff.status_code == 429 and "wait 2 seconds" in backoff.get_data(as_text=True)
    clock(minutes=11)  # after ten quiet minutes the count starts again
    assert all(app.test_client().post("/join", data={"code": "QQQQQ", "name": "E"}).status_code == 404
               for _ in range(5))


def test_a_join_link_opened_while_an_address_waits_shows_the_form_with_the_wait(app, classroom, teacher, clock):
    _url, code = classroom.new_round(teacher)
    app.config["FREE_CODE_GUESSES"] = 2
    for n in range(2):
        app.test_client().get(f"/r/QQQQ{'QX'[n]}")
    page = app.test_client().get(f"/join?code={code}")
    text = page.get_data(as_text=True)
    assert page.status_code == 429 and 'name="code"' in text and "Please wait 1 second" in text


@pytest.mark.parametrize("path", ["/r/{code}", "/r/{code}/panel", "/join?code={code}"])
def test_every_route_that_tells_a_live_code_from_a_dead_one_counts_as_a_guess(app, classroom, teacher, path):
    _url, live = classroom.new_round(teacher)
    app.config["FREE_CODE_GUESSES"] = 3
    guesser = app.test_client()
    for n in range(3):
        assert guesser.get(path.format(code=f"QQQQ{'QXY'[n]}")).status_code in (200, 404)
    assert guesser.get(path.format(code=live)).status_code == 429


def test_a_code_a_browser_found_live_is_no_guess_when_its_form_sends_it(app, classroom, teacher, clock):
    _url, code = classroom.new_round(teacher)
    app.config["FREE_CODE_GUESSES"] = 1
    child = app.test_client()
    assert child.get(f"/join?code={code}").status_code == 200  # a guess, right: taken back
    for _ in range(3):
        app.test_client().get("/r/QQQQQ")  # a stranger at the same address makes it wait
    assert app.test_client().get(f"/join?code={code}").status_code == 429
    assert child.post("/join", data={"code": code, "name": "Ada"}).status_code == 302  # known live: not a guess


def test_a_student_in_the_round_is_not_slowed_by_others_guessing(app, classroom, teacher, clock):
    _url, code = classroom.new_round(teacher)
    student = classroom.join(code, "Ada")
    app.config["FREE_CODE_GUESSES"] = 2
    for n in range(4):
        app.test_client().get(f"/r/QQQQ{'QXYZ'[n]}")
    assert student.get(f"/r/{code}").status_code == 200
    assert student.get(f"/r/{code}/panel").status_code in (200, 304)


def test_racing_wrong_codes_never_overshoot_the_free_tries(app):
    app.config["FREE_CODE_GUESSES"] = 5
    statuses = []

    def guess():
        statuses.append(app.test_client().post("/join", data={"code": "QQQQQ", "name": "Eve"}).status_code)

    threads = [threading.Thread(target=guess) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(statuses) == {404: 5, 429: 15}


def test_racing_joins_never_overshoot_the_quota(app, classroom, teacher):
    _url, code = classroom.new_round(teacher)
    app.config["JOINS_PER_ADDRESS_HOUR"] = 5
    statuses = []

    def join(n):
        statuses.append(app.test_client().post("/join", data={"code": code, "name": f"Kid {chr(65 + n)}"}).status_code)

    threads = [threading.Thread(target=join, args=(n,)) for n in range(14)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Counter(statuses) == {302: 5, 429: 9}
    with app.app_context():
        assert db.session.get(Throttle, "join:127.0.0.1").count == 5
        assert len(db.session.scalars(select(Student)).all()) == 5


def test_racing_right_codes_all_get_in_and_write_no_count(app, classroom, teacher):
    _url, code = classroom.new_round(teacher)
    app.config["FREE_CODE_GUESSES"] = 1  # counted first and taken back, two racing right codes would make one wait
    statuses = []

    def open_join_link():
        statuses.append(app.test_client().get(f"/join?code={code}").status_code)

    threads = [threading.Thread(target=open_join_link) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 12
    with app.app_context():
        assert db.session.get(Throttle, "code-address:127.0.0.1") is None  # not even made at zero: only read


def test_wrong_personal_codes_slow_that_pupil_only(app, classroom, teacher, clock):
    class_url, pupils = classroom.new_class(teacher)
    _url, code = classroom.class_round(teacher, class_url)
    guesser = app.test_client()
    ava_id, _ava_code = pupils["Ava K."]
    for n in range(10):
        wrong = guesser.post(f"/r/{code}/me", data={"pupil": str(ava_id), "personal_code": f"WRONG{n}"})
        assert wrong.status_code == 403
    slowed = guesser.post(f"/r/{code}/me", data={"pupil": str(ava_id), "personal_code": "WRONGX"})
    assert slowed.status_code == 429 and "Too many wrong codes for Ava K." in slowed.get_data(as_text=True)
    ben_id, ben_code = pupils["Ben N."]
    assert app.test_client().post(f"/r/{code}/me", data={"pupil": str(ben_id), "personal_code": ben_code}
                                  ).status_code == 302


def test_thirty_two_children_joining_at_once_make_four_even_teams(app, classroom, teacher):
    _url, code = classroom.new_round(teacher, format="team", teams="4")
    errors = []

    def join(n):
        response = app.test_client().post("/join", data={"code": code, "name": f"Kid {chr(65 + n % 26)}{chr(65 + n // 26)}"})
        if response.status_code != 302:
            errors.append(response.status_code)

    threads = [threading.Thread(target=join, args=(n,)) for n in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with app.app_context():
        teams = Counter(db.session.scalars(select(Student.team).where(Student.removed.is_(False))))
    assert sorted(teams.values()) == [8, 8, 8, 8]


def test_the_readme_lists_every_school_setting_with_its_default():
    from pathlib import Path

    from webapp.config import SCHOOL_SETTINGS

    readme = (Path(__file__).parent.parent / "README.md").read_text()
    for name, (default, _meaning) in SCHOOL_SETTINGS.items():
        assert f"| `{name}` | {default} |" in readme, name


def test_behind_a_trusted_proxy_the_address_counted_is_the_one_it_forwards(loaded_database_url):
    from conftest import database_config

    from webapp import create_app

    app = create_app({**database_config(loaded_database_url), "TRUSTED_PROXIES": 1, "GAMES_PER_ADDRESS_HOUR": 1})
    proxy = app.test_client()
    school = {"X-Forwarded-For": "198.51.100.20"}
    assert proxy.post("/api/games", json=SOLO_GAME, headers=school).status_code == 201
    assert proxy.post("/api/games", json=SOLO_GAME, headers=school).status_code == 429
    assert proxy.post("/api/games", json=SOLO_GAME, headers={"X-Forwarded-For": "203.0.113.30"}).status_code == 201
    with app.app_context():
        db.engine.dispose()
