"""Classroom rounds: teacher accounts and permissions, joining, answering once, the clock, results."""

import re
import threading
import time
from datetime import timedelta

import pytest
from conftest import SERVER_URL, statements_run

from webapp import create_app
from webapp.classroom import screens
from webapp.classroom.rounds import now
from webapp.extensions import db
from webapp.filters import measure_word
from webapp.models import Answer, Card, CardSet, Round, Student

# --- teacher accounts -------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "message"), [
    ({"password": "short", "confirm": "short"}, "at least 10 characters"),
    ({"confirm": "something else"}, "The passwords differ"),
    ({"email": "not-an-email"}, "Enter an email address"),
    ({"name": ""}, "Enter your name"),
])
def test_registration_errors_show_beside_the_field(client, data, message):
    form = {"name": "T", "email": "t@s.org", "password": "correct horse 1", "confirm": "correct horse 1", **data}
    response = client.post("/teach/register", data=form)
    assert response.status_code == 400 and message in response.get_data(as_text=True)


def test_passwords_are_hashed_and_emails_unique(classroom, app, client):
    classroom.register(client)
    from webapp.models import Teacher
    with app.app_context():
        stored = db.session.query(Teacher).one().password_hash
    assert "correct horse" not in stored and stored.startswith(("scrypt:", "pbkdf2:"))
    again = app.test_client().post("/teach/register", data={"name": "X", "email": "TEACHER@school.org",
                                                             "password": "correct horse 1", "confirm": "correct horse 1"})
    assert again.status_code == 302  # answered as a new e-mail would be (tests/test_auth.py), and nothing made
    with app.app_context():
        assert [t.name for t in db.session.query(Teacher)] == ["Ms Teacher"]


def test_login_logout(classroom, app, client):
    classroom.register(client)
    client.post("/teach/logout")
    assert client.get("/teach/").status_code == 302
    wrong = client.post("/teach/login", data={"email": "teacher@school.org", "password": "nope"})
    assert wrong.status_code == 400 and "do not match" in wrong.get_data(as_text=True)
    right = client.post("/teach/login?next=/teach/rounds/new", data={"email": "teacher@school.org",
                                                                    "password": "correct horse 1"})
    assert right.headers["Location"] == "/teach/rounds/new"
    evil = app.test_client().post("/teach/login?next=//evil.example", data={"email": "teacher@school.org",
                                                                            "password": "correct horse 1"})
    assert evil.headers["Location"] == "/teach/"


def test_teacher_pages_refuse_everyone_else(classroom, app, teacher):
    url, _code = classroom.new_round(teacher)
    round_id = url.rsplit("/", 1)[1]
    anonymous = app.test_client()
    for path in ("/teach/", "/teach/rounds/new", url, url + "/panel", url + "/results.csv", url + "/results.xlsx"):
        assert anonymous.get(path).status_code == 302  # to the login page
    assert anonymous.post(url + "/control", data={"action": "start"}).status_code == 302
    other = app.test_client()
    classroom.register(other, email="other@school.org")
    for path in (url, url + "/panel", url + "/results.csv", url + "/results.xlsx"):
        response = other.get(path)
        assert response.status_code == 403 and "another teacher" in response.get_data(as_text=True)
    assert other.post(url + "/control", data={"action": "start"}).status_code == 403
    assert other.post(f"/teach/rounds/{round_id}/students/1", data={"action": "remove"}).status_code == 403
    assert classroom.round(url).status == "lobby"


@pytest.mark.parametrize(("changes", "message"), [
    ({"count": "99"}, "Choose 3 to 40 cards"),
    ({"characteristic": "lifespan"}, "living animals deck"),
    ({"choice": "set"}, "Choose one of your card sets"),
    ({"turn_seconds": "-5"}, "0 (no timer) to 600"),
    ({"choice": "filter", "period": "Cambrian", "count": "20"}, "choose fewer"),
    ({"format": "team", "teams": "9"}, "2 to 8 teams"),
])
def test_new_round_form_errors(classroom, teacher, changes, message):
    response = teacher.post("/teach/rounds/new", data={**classroom.ROUND, **changes})
    assert response.status_code == 400 and message in response.get_data(as_text=True)


def test_card_sets_are_saved_per_teacher_and_used_for_rounds(classroom, app, teacher):
    bad = teacher.post("/teach/sets", data={"name": "Mine", "cards": "stegosaurus, unicorn"})
    assert bad.status_code == 400 and "Not a card: unicorn" in bad.get_data(as_text=True)
    teacher.post("/teach/sets", data={"name": "Big ones", "cards": "Stegosaurus\nTyrannosaurus\nBrachiosaurus\nTriceratops\ndiplodocus"})
    page = teacher.get("/teach/rounds/new").get_data(as_text=True)
    set_id = re.search(r'<option value="(\d+)">Big ones</option>', page).group(1)
    url, _ = classroom.new_round(teacher, choice="set", card_set=set_id, count="4")
    cards = set(classroom.round(url).state["values"])
    assert cards == {"stegosaurus", "tyrannosaurus", "brachiosaurus", "triceratops", "diplodocus"}
    other = app.test_client()
    classroom.register(other, email="other@school.org")
    assert "Big ones" not in other.get("/teach/rounds/new").get_data(as_text=True)


# --- students ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "status", "message"), [
    ("A", 400, "2 to 20 characters"),
    ("x" * 21, 400, "2 to 20 characters"),
    ("<b>bold</b>", 400, "letters, digits"),
    ("Sh1thead", 400, "friendlier"),
])
def test_nicknames_are_checked(classroom, app, teacher, name, status, message):
    _, code = classroom.new_round(teacher)
    response = app.test_client().post("/join", data={"code": code, "name": name})
    assert response.status_code == status and message in response.get_data(as_text=True)


def test_ordinary_names_pass_and_are_escaped(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    for name in ("Peacock", "Grape", "O'Neil", "Zoë"):
        classroom.join(code, name)
    html = teacher.get(url).get_data(as_text=True)
    assert "O&#39;Neil" in html and "Zoë" in html


def test_unknown_code_duplicate_nickname_and_finished_round(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    response = app.test_client().post("/join", data={"code": "QQQQQ", "name": "Ada"})
    assert response.status_code == 404 and "No round or game has that code" in response.get_data(as_text=True)
    classroom.join(code, "Ada")
    dup = app.test_client().post("/join", data={"code": code.lower(), "name": " ada "})
    assert dup.status_code == 409 and "already has that nickname" in dup.get_data(as_text=True)
    teacher.post(url + "/control", data={"action": "end"})
    late = app.test_client().post("/join", data={"code": code, "name": "Ben"})
    assert late.status_code == 409 and "finished" in late.get_data(as_text=True)


def test_a_student_comes_back_to_the_same_seat(classroom, app, teacher):
    _url, code = classroom.new_round(teacher)
    ada = classroom.join(code, "Ada")
    again = ada.post("/join", data={"code": code, "name": "Someone else"})
    assert again.headers["Location"] == f"/r/{code}"
    assert "You are Ada" in ada.get(f"/r/{code}").get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Student).count() == 1


def test_lobby_start_needs_a_student_and_teacher_sees_who_joined(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    refused = teacher.post(url + "/control", data={"action": "start"}, follow_redirects=True)
    assert refused.request.path == url and "at least one student" in refused.get_data(as_text=True)
    classroom.join(code, "Ada")
    assert "Ada" in teacher.get(url + "/panel").get_data(as_text=True)
    assert teacher.post(url + "/control", data={"action": "start"}).status_code == 302
    assert classroom.round(url).status == "playing"


def test_a_big_lobby_lists_names_on_the_live_panel_and_the_controls_on_the_students_page(
        classroom, app, teacher, monkeypatch):
    url, code = classroom.new_round(teacher)
    classroom.join(code, "Ada")
    assert 'value="rename"' in teacher.get(url + "/panel").get_data(as_text=True)
    monkeypatch.setattr(screens, "ROSTER_CONTROLS_UP_TO", 1)
    classroom.join(code, "Ben")
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert "Students (2)" in panel and "Ada, Ben" in panel and 'value="rename"' not in panel
    assert f'href="{url}/students">Rename or remove students, give extra time<' in panel  # no teams: none to sort
    assert teacher.get(url + "/students").get_data(as_text=True).count('value="rename"') == 2
    with app.app_context():
        ben = db.session.query(Student).filter_by(nickname="Ben").one().id
    renamed = teacher.post(f"{url}/students/{ben}", data={"action": "rename", "value": "Bea"})
    assert renamed.headers["Location"].endswith(f"{url}/students")  # back where the controls are


def test_the_join_code_shrinks_once_the_round_runs_but_stays_for_latecomers(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    lobby = teacher.get(url).get_data(as_text=True)
    assert 'class="join-row"' in lobby and "<svg" in lobby
    # The latecomers' box is there, hidden, for the start to show without loading the page again.
    assert '<section class="join-box join-box-compact" aria-labelledby="late-title" data-when-status="playing paused" hidden>' \
        in lobby
    classroom.join(code, "Ada")
    teacher.post(url + "/control", data={"action": "start"})
    playing = teacher.get(url).get_data(as_text=True)
    assert 'class="join-row"' not in playing and "Late? Join at" in playing
    assert f'class="join-code" aria-label="Join code {" ".join(code)}">{code}<' in playing
    assert "<details><summary>Show the QR code</summary>" in playing and "<svg" in playing
    teacher.post(url + "/control", data={"action": "end"})
    assert "join-code" not in teacher.get(url).get_data(as_text=True)


def test_teacher_renames_removes_and_gives_extra_time(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    ada = classroom.join(code, "Ada")
    with app.app_context():
        student_id = db.session.query(Student).one().id
    path = f"{url}/students/{student_id}"
    assert teacher.post(path, data={"action": "rename", "value": "Ada L"}).status_code == 302
    bad = teacher.post(path, data={"action": "rename", "value": "x"})
    assert bad.status_code == 400
    teacher.post(path, data={"action": "extra_time", "value": "30"})
    with app.app_context():
        student = db.session.get(Student, student_id)
        assert (student.nickname, student.extra_seconds) == ("Ada L", 30)
    teacher.post(path, data={"action": "remove"})
    assert ada.get(f"/r/{code}").status_code == 403


def wait_for_polls_to_see_changes(app):
    time.sleep(app.config["POLL_CACHE_SECONDS"] + 0.05)


@pytest.mark.parametrize(("characteristic", "words"), [("mass", "weight"), ("length", "size")])
def test_students_and_the_projector_are_told_what_the_line_is_sorted_by(classroom, app, teacher, characteristic, words):
    url, code, (ada,) = classroom.play_started(teacher, ("Ada",), characteristic=characteristic)
    left = {"mass": "lightest on the left", "length": "smallest on the left"}[characteristic]
    assert f"The class line: {words}, {left}" in ada.get(f"/r/{code}/panel").get_data(as_text=True)
    assert f"The class line: {words}, {left}" in teacher.get(url + "/panel").get_data(as_text=True)


def test_the_teacher_reads_a_revealed_size_as_the_students_do_with_what_was_measured(classroom, app, teacher):
    url, code, (ada,) = classroom.play_started(teacher, ("Ada",), characteristic="length")
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    name, said = re.search(r"Revealed: ([^<]+?) is ([^<]+)</h2>", panel).groups()
    assert f"<strong>{name}</strong> is {said}." in ada.get(f"/r/{code}").get_data(as_text=True)
    with app.app_context():
        measure = db.session.scalar(db.select(Card.size_measure).where(Card.common_name == name))
    assert said.endswith(" " + measure_word(measure))  # "6 m long", "1.2 m tall"


def test_one_answer_per_student_per_turn_and_strangers_cannot_answer(classroom, app, teacher):
    _url, code, (ada, _ben) = classroom.play_started(teacher)
    assert ada.post(f"/r/{code}/answer", data={"gap": "0"}).status_code == 302
    twice = ada.post(f"/r/{code}/answer", data={"gap": "1"})
    assert twice.status_code == 409 and "already answered" in twice.get_data(as_text=True)
    stranger = app.test_client().post(f"/r/{code}/answer", data={"gap": "0"})
    assert stranger.status_code == 403
    with app.app_context():
        assert db.session.query(Answer).count() == 1


def test_racing_answers_count_exactly_once(classroom, app, teacher):
    _url, code, (ada, _ben) = classroom.play_started(teacher)
    cookie = ada.get_cookie("session").value
    statuses = []

    def answer():
        racer = app.test_client()
        racer.set_cookie("session", cookie)
        statuses.append(racer.post(f"/r/{code}/answer", data={"gap": "0"}).status_code)

    threads = [threading.Thread(target=answer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses.count(302) == 1 and all(s == 409 for s in statuses if s != 302)
    with app.app_context():
        assert db.session.query(Answer).count() == 1


def test_the_last_answers_racing_still_reveal_and_count_the_class_once_their_answer_is_committed(classroom, app,
                                                                                                 teacher, monkeypatch):
    """Each answer counts the class only once its own answer is committed (on PostgreSQL as its INSERT runs, so it
    counts on the same connection; on SQLite after its commit): two last answers at once each see the other's, or one
    of them does, and the card is revealed."""
    from sqlalchemy import func, select

    from webapp.classroom import rounds
    from webapp.models import Answer

    url, code, (ada, ben) = classroom.play_started(teacher)
    seen_elsewhere, statuses = [], []

    def counting(rnd, count=rounds.turn_progress):
        with db.engine.connect() as other:  # what everyone else sees: the answer must be in it
            seen_elsewhere.append(other.scalar(select(func.count(Answer.id)).where(Answer.round_id == rnd.id)))
        return count(rnd)

    monkeypatch.setattr(rounds, "turn_progress", counting)
    threads = [threading.Thread(target=lambda s=s: statuses.append(s.post(f"/r/{code}/answer", data={"gap": "0"})
                                                                    .status_code)) for s in (ada, ben)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [302, 302] and len(seen_elsewhere) >= 2 and min(seen_elsewhere) >= 1
    assert classroom.round(url).state["phase"] == "revealed"


def test_an_answer_reads_the_round_the_student_and_their_answers_in_one_statement(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher)
    for student in (ada, ben):
        student.post(f"/r/{code}/answer", data={"gap": "0"})
    teacher.post(url + "/control", data={"action": "next"})
    with statements_run(app) as statements:
        reply = ada.post(f"/r/{code}/answer", data={"gap": "0"}, headers={"X-Live-Panel": "1"})
    assert reply.status_code == 200
    before_insert = statements[:next(i for i, sql in enumerate(statements) if sql.startswith("INSERT INTO answers"))]
    assert [sql.split()[0] for sql in before_insert] == ["SELECT"]
    assert "FROM rounds JOIN students" in before_insert[0] and "LEFT OUTER JOIN answers" in before_insert[0]
    again = ada.post(f"/r/{code}/answer", data={"gap": "1"})  # her first card's answer, read with her, is not this one's
    assert again.status_code == 409 and "already" in again.get_data(as_text=True)


def test_a_teachers_panel_in_the_lobby_asks_for_no_answers(classroom, app, teacher):
    """Nothing is answered before the round starts: the teacher's panel, redrawn every second while a class joins,
    reads the students and not the turn's answers."""
    url, code = classroom.new_round(teacher)
    for name in ("Ada", "Ben"):
        classroom.join(code, name)
    with statements_run(app) as statements:
        panel = teacher.get(url + "/panel")
    assert panel.status_code == 200 and "Ben" in panel.get_data(as_text=True)
    assert any("FROM students" in sql for sql in statements)
    assert not [sql for sql in statements if "FROM answers" in sql]


def test_an_answers_read_and_insert_go_to_postgresql_outside_a_transaction(classroom, app, teacher, monkeypatch):
    """No BEGIN and no COMMIT around an answer's statements (two round trips of every answer), and the class counted
    on the answer's own connection (no second one taken from the pool); the settle after it, which may write the
    round and the judged answers together, is in a transaction of its own."""
    from webapp.classroom import rounds

    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("SQLite opens no transaction for a read, and an answer's insert commits at once")
    url, code, (ada, ben) = classroom.play_started(teacher)
    seen = []

    def committing(commit=rounds.commit_keeping_loaded):
        db.session.flush()  # the insert: were it in a transaction, the server would say so now
        seen.append(("insert", db.session.connection().connection.dbapi_connection.info.transaction_status.name))
        commit()

    def saving(rnd, change, save=rounds.save):
        seen.append(("settle", db.session.connection().connection.dbapi_connection.info.transaction_status.name))
        return save(rnd, change)

    monkeypatch.setattr(rounds, "commit_keeping_loaded", committing)
    monkeypatch.setattr(rounds, "save", saving)
    monkeypatch.setattr(rounds, "read_connection", lambda read=rounds.read_connection: seen.append("another") or read())
    assert ada.post(f"/r/{code}/answer", data={"gap": "0"}).status_code == 302
    assert ben.post(f"/r/{code}/answer", data={"gap": "0"}).status_code == 302  # the last: it reveals the card
    assert seen == [("insert", "IDLE"), ("insert", "IDLE"), ("settle", "INTRANS")]
    assert classroom.round(url).state["phase"] == "revealed"


def test_everyone_answered_reveals_and_scores(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher)
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    ben.post(f"/r/{code}/answer", data={"gap": "1"})
    rnd = classroom.round(url)
    assert rnd.state["phase"] == "revealed"
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert "Revealed:" in panel and "How the class voted" in panel and "Leaderboard" in panel
    html = ada.get(f"/r/{code}").get_data(as_text=True)
    assert "You got it right" in html or "Not quite" in html


def test_the_turn_progress_holds_only_students_still_in_their_answers_to_this_turn_and_extra_time_once_it_counts(
        classroom, app, teacher):
    from webapp.classroom import rounds

    url, code, (ada, ben, _cy) = classroom.play_started(teacher, names=("Ada", "Ben", "Cy"), turn_seconds="20")

    def progress():
        with app.app_context():
            everyone, most_extra = rounds.turn_progress(db.session.get(Round, int(url.rsplit("/", 1)[1])))
            return bool(everyone), most_extra

    def change(name, action, value=""):
        with app.app_context():
            student_id = db.session.query(Student).filter_by(nickname=name).one().id
        assert teacher.post(f"{url}/students/{student_id}", data={"action": action, "value": value}).status_code == 302

    assert progress() == (False, 0)
    change("Ben", "extra_time", "30")
    for student in (ada, ben):
        student.post(f"/r/{code}/answer", data={"gap": "0"})
    assert progress() == (False, 0)  # Cy has not answered; while the turn's own time runs, extra time cannot matter
    classroom.set_round(url, turn_started_at=now() - timedelta(seconds=25))
    assert progress() == (False, 30)  # the turn's own time is over: Ben's extra time keeps it open
    change("Cy", "remove")
    assert progress() == (True, 30)
    teacher.get(url + "/panel")  # settles the round, as any look does
    assert classroom.round(url).state["phase"] == "revealed"
    teacher.post(url + "/control", data={"action": "next"})
    assert progress() == (False, 0)  # answers to the last card are not answers to this one
    change("Ben", "remove")
    change("Ada", "remove")
    assert progress() == (False, 0)  # no one left is not everyone answered


@pytest.mark.skipif(not SERVER_URL, reason="how PostgreSQL's planner reads the statement")
def test_whether_everyone_answered_is_looked_up_student_by_student_before_the_tables_statistics_are_gathered(app):
    """A database's first big round is played before PostgreSQL has gathered the tables' statistics. Planned as a
    join from none, the lookup scanned the turn's answers once for every student it passed (80 ms an answer with
    1,000 students answering in the order they joined): each student's answer must be found by its unique key."""
    import json

    from sqlalchemy import insert, text

    from webapp.classroom import rounds
    from webapp.models import Answer, Teacher

    with app.app_context():
        teacher = Teacher(email="planner@example.org", name="P", password_hash="x")
        db.session.add(teacher)
        db.session.flush()
        rnd = Round(code="PLANNED", teacher_id=teacher.id, format="class_line", title="Plan", status="playing",
                    settings={}, state={})
        db.session.add(rnd)
        db.session.flush()
        ids = db.session.scalars(insert(Student).returning(Student.id), [
            {"round_id": rnd.id, "nickname": f"S{i}", "nickname_key": f"s{i}", "token_hash": f"{i:064d}"}
            for i in range(300)]).all()
        db.session.execute(insert(Answer), [{"round_id": rnd.id, "student_id": student_id, "turn": 0, "card": "x",
                                             "gap": 0, "seconds": 1.0} for student_id in sorted(ids)[:250]])
        db.session.commit()
        statement = rounds.TURN_PROGRESS.params(round_id=rnd.id, turn=0)
        sql = str(statement.compile(db.engine, compile_kwargs={"literal_binds": True}))
        plan = json.dumps(db.session.execute(text(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}")).scalar())
        assert tuple(db.session.execute(statement).one()) == (False, 0)

    scans = [node for node in re.findall(r'\{[^{}]*"Relation Name": "answers"[^{}]*\}', plan)]
    assert scans and all("student_id" in json.loads(node).get("Index Cond", "") for node in scans), plan


def test_the_teachers_panel_names_who_is_still_to_answer_only_when_few_are(classroom, teacher, monkeypatch):
    """A class of 1,000 is counted, not listed, a second at a time: no teacher reads 1,000 names on a projector."""
    url, code, (ada, _ben, _cy) = classroom.play_started(teacher, names=("Ada", "Ben", "Cy"))
    monkeypatch.setattr(screens, "NAMES_STILL_TO_ANSWER_UP_TO", 2)
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert "Still to answer (3)</span>" in panel and "Ada, Ben, Cy" not in panel
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert "Still to answer (2): Ben, Cy</span>" in panel


def test_the_server_clock_refuses_late_answers_and_extra_time_helps(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, turn_seconds="20")
    classroom.set_round(url, turn_started_at=now() - timedelta(seconds=25))
    with app.app_context():
        ben_row = db.session.query(Student).filter_by(nickname="Ben").one()
        ben_row.extra_seconds = 30
        db.session.commit()
    late = ada.post(f"/r/{code}/answer", data={"gap": "0"})
    assert late.status_code == 409 and "Time is up" in late.get_data(as_text=True)
    assert ben.post(f"/r/{code}/answer", data={"gap": "0"}).status_code == 302


def test_time_up_for_everyone_reveals_by_itself(classroom, app, teacher):
    url, _code, (_ada, _ben) = classroom.play_started(teacher, turn_seconds="10")
    classroom.set_round(url, turn_started_at=now() - timedelta(seconds=11))
    teacher.get(url + "/panel")
    assert classroom.round(url).state["phase"] == "revealed"


def test_pause_resume_and_timer_off(classroom, app, teacher):
    url, code, (ada, _ben) = classroom.play_started(teacher, turn_seconds="30")
    teacher.post(url + "/control", data={"action": "pause"})
    paused = ada.post(f"/r/{code}/answer", data={"gap": "0"})
    assert paused.status_code == 409 and "paused" in paused.get_data(as_text=True)
    classroom.set_round(url, paused_at=now() - timedelta(seconds=100), turn_started_at=now() - timedelta(seconds=110))
    teacher.post(url + "/control", data={"action": "resume"})
    rnd = classroom.round(url)
    assert (now() - rnd.turn_started_at.replace(tzinfo=now().tzinfo)).total_seconds() < 15  # the pause did not count
    teacher.post(url + "/control", data={"action": "timer_off"})
    response = ada.get(f"/r/{code}/panel")
    assert "X-Seconds-Left" not in response.headers


def test_panels_answer_304_when_nothing_changed_and_carry_the_clock(classroom, app, teacher):
    url, code, (ada, _ben) = classroom.play_started(teacher, turn_seconds="30")
    first = ada.get(f"/r/{code}/panel")
    assert float(first.headers["X-Seconds-Left"]) <= 30
    again = ada.get(f"/r/{code}/panel", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and "X-Seconds-Left" in again.headers
    teacher_first = teacher.get(url + "/panel")
    teacher_again = teacher.get(url + "/panel", headers={"If-None-Match": teacher_first.headers["ETag"]})
    assert teacher_again.status_code == 304


@pytest.mark.parametrize(("mode", "during", "after"), [("every", True, True), ("end", False, True), ("never", False, False)])
def test_leaderboard_visibility(classroom, app, teacher, mode, during, after):
    url, code, (ada, ben) = classroom.play_started(teacher, leaderboard=mode)
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    ben.post(f"/r/{code}/answer", data={"gap": "0"})
    assert ("Leaderboard" in ada.get(f"/r/{code}/panel").get_data(as_text=True)) == during
    teacher.post(url + "/control", data={"action": "end"})
    assert ("Leaderboard" in teacher.get(url + "/panel").get_data(as_text=True)) == after


def test_skip_reveal_next_and_end_to_results_and_csv(classroom, app, teacher):
    url, code, (ada, _ben) = classroom.play_started(teacher, count="3")
    teacher.post(url + "/control", data={"action": "skip"})
    for _ in range(2):
        ada.post(f"/r/{code}/answer", data={"gap": "0"})
        teacher.post(url + "/control", data={"action": "reveal"})
        teacher.post(url + "/control", data={"action": "next"})
    rnd = classroom.round(url)
    assert rnd.status == "finished" and rnd.state["reveals"][0]["skipped"]
    page = teacher.get(url).get_data(as_text=True)
    assert "Results" in page and "Cards, hardest first" in page and "Accuracy" in page
    csv = teacher.get(url + "/results.csv")
    assert csv.headers["Content-Type"].startswith("text/csv")
    lines = csv.get_data().decode("utf-8-sig").strip().splitlines()
    # Card 1 was skipped: cards 2 and 3, Ada's answer and Ben's missed one each.
    assert lines[0] == "round,date,card_number,student,animal,true_value,place,result,seconds" and len(lines) == 5
    assert [line.split(",")[2:4] for line in lines[1:]] == [["2", "Ada"], ["2", "Ben"], ["3", "Ada"], ["3", "Ben"]]
    assert "Weights" in teacher.get("/teach/").get_data(as_text=True)  # kept in the history


def test_a_round_survives_a_restart(classroom, app, teacher):
    _url, code, (ada, ben) = classroom.play_started(teacher)
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    restarted = create_app({**app.config})
    again = restarted.test_client()
    again.set_cookie("session", ben.get_cookie("session").value)
    assert again.post(f"/r/{code}/answer", data={"gap": "0"}).status_code == 302
    with restarted.app_context():
        assert db.session.query(Answer).count() == 2
        db.engine.dispose()


def test_team_round_with_captains(classroom, app, teacher):
    url, code, students = classroom.play_started(teacher, ("Ada", "Ben", "Cy", "Di"), format="team", deck="animals",
                                       characteristic="lifespan", teams="2")
    rnd = classroom.round(url)
    with app.app_context():
        teams = {s.nickname: s.team for s in db.session.query(Student)}
    assert sorted(teams.values()) == [0, 0, 1, 1]
    captain, member = [s for s, name in zip(students, ("Ada", "Ben", "Cy", "Di")) if teams[name] == 0]
    html = member.get(f"/r/{code}").get_data(as_text=True)
    assert "places the card: talk it over" in html
    hand = rnd.state["hands"][0]
    assert all(card in captain.get(f"/r/{code}").get_data(as_text=True) for card in hand)
    other_team = next(s for s, name in zip(students, ("Ada", "Ben", "Cy", "Di")) if teams[name] == 1)
    other_html = other_team.get(f"/r/{code}").get_data(as_text=True)
    assert not any(f'value="{card}"' in other_html for card in hand)
    refused = member.post(f"/r/{code}/answer", data={"card": hand[0], "gap": "0"})
    assert refused.status_code in (302, 409)
    assert captain.post(f"/r/{code}/answer", data={"card": hand[0], "gap": "0"}).status_code == 302
    assert classroom.round(url).state["turn"] == 1


def test_self_paced_challenge(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="self_paced", characteristic="period", count="4")
    eve = classroom.join(code, "Eve")
    game_url = eve.get(f"/r/{code}").headers["Location"]
    assert game_url.startswith("/play/practice/")
    early = eve.post(game_url + "/answer", data={"gap": "0"})
    assert early.status_code == 409 and "not open yet" in early.get_data(as_text=True)
    teacher.post(url + "/control", data={"action": "start"})
    for _ in range(4):
        eve.post(game_url + "/answer", data={"gap": "0"})
    assert "You scored" in eve.get(game_url).get_data(as_text=True)
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert re.search(r"<td>Eve</td><td>finished</td><td>\d of 4</td>", panel)
    assert "student,answered,score" in teacher.get(url + "/results.csv").get_data(as_text=True)


def test_homework_waits_without_showing_a_card_and_its_page_learns_when_it_opens(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="self_paced", characteristic="mass", count="4")
    eve = classroom.join(code, "Eve")
    game_url = eve.get(f"/r/{code}").headers["Location"]
    waiting = eve.get(game_url).get_data(as_text=True)
    assert "not open yet" in waiting and "Place card" not in waiting and 'name="card"' not in waiting
    watched = re.search(r'data-watch="([^"]+)" data-version="([^"]+)"', waiting)
    assert eve.get(watched[1], headers={"If-None-Match": f'"{watched[2]}"'}).status_code == 304
    teacher.post(url + "/control", data={"action": "start"})
    assert eve.get(watched[1], headers={"If-None-Match": f'"{watched[2]}"'}).status_code == 200  # the page reloads
    assert "Place card" in eve.get(game_url).get_data(as_text=True)


@pytest.mark.parametrize("opened", [False, True])
def test_the_live_rounds_answer_and_panel_send_a_homework_student_to_their_own_page(classroom, app, teacher, opened):
    url, code = classroom.new_round(teacher, format="self_paced", characteristic="mass", count="4")
    eve = classroom.join(code, "Eve")
    if opened:
        teacher.post(url + "/control", data={"action": "start"})
    for response in (eve.post(f"/r/{code}/answer", data={"gap": "0"}), eve.get(f"/r/{code}/panel"),
                     eve.post(f"/r/{code}/answer", data={"gap": "0"}, headers={"X-Live-Panel": "1"})):
        assert response.status_code == 409 and "its own page" in response.get_data(as_text=True)


def test_homework_closed_by_end_takes_no_more_moves(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="self_paced", characteristic="mass", count="4")
    eve = classroom.join(code, "Eve")
    game_url = eve.get(f"/r/{code}").headers["Location"]
    teacher.post(url + "/control", data={"action": "start"})
    assert eve.post(game_url + "/answer", data={"gap": "0"}).status_code == 302
    teacher.post(url + "/control", data={"action": "end"})
    late = eve.post(game_url + "/answer", data={"gap": "0"})
    assert late.status_code == 409 and "closed" in late.get_data(as_text=True)
    assert re.search(r"<td>Eve</td><td>part way \(1 of \d+\)</td>", teacher.get(url).get_data(as_text=True))


def test_scores_do_not_move_before_the_reveal(classroom, app, teacher):
    url, code, (ada, ben, cy) = classroom.play_started(teacher, ("Ada", "Ben", "Cy"))
    rnd = classroom.round(url)
    from webapp.games import classline
    first, _ = classline.right_gaps(rnd.state)
    ada.post(f"/r/{code}/answer", data={"gap": str(first)})
    panel = ben.get(f"/r/{code}/panel").get_data(as_text=True)
    assert "No points yet" in panel and not re.findall(r"<strong>(\w+)</strong>: (\d+)", panel)
    with app.app_context():
        assert db.session.query(Answer).one().correct is None
    ben.post(f"/r/{code}/answer", data={"gap": str(first)})
    cy.post(f"/r/{code}/answer", data={"gap": str(first)})
    board = dict(re.findall(r"<strong>(\w+)</strong>: (\d+)", ben.get(f"/r/{code}/panel").get_data(as_text=True)))
    assert board == {"Ada": "1", "Ben": "1", "Cy": "1"}


def test_panels_share_what_every_student_sees_once_per_round_version(classroom, app, teacher):
    url, code, students = classroom.play_started(teacher, ("Ada", "Ben", "Cy"))
    with statements_run(app) as statements:
        panels = [s.get(f"/r/{code}/panel").get_data(as_text=True) for s in students]
        card_reads = [s for s in statements if "FROM cards" in s]
        assert len(card_reads) <= 1  # at most the first panel read the cards (the process keeps them); the others reused them
        rnd = classroom.round(url)
        name = re.search(r'class="mini-name"[^>]*>([^<]+)<', panels[0]).group(1)
        assert all(name in panel for panel in panels)
        for student in students:
            student.post(f"/r/{code}/answer", data={"gap": "0"})
        statements.clear()
        revealed = students[0].get(f"/r/{code}/panel").get_data(as_text=True)
        assert classroom.round(url).version > rnd.version and "Wait for the next card" in revealed
        # A new version, drawn afresh: one read, of the card it names anew (the process keeps the others).
        assert len([s for s in statements if "FROM cards" in s]) == 1


def test_a_rename_or_removal_reaches_the_other_students_leaderboards(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher)
    rnd = classroom.round(url)
    from webapp.games import classline
    first, _ = classline.right_gaps(rnd.state)
    ada.post(f"/r/{code}/answer", data={"gap": str(first)})
    ben.post(f"/r/{code}/answer", data={"gap": str(first)})
    etag = ben.get(f"/r/{code}/version").headers["ETag"]
    assert "<strong>Ada</strong>: 1" in ben.get(f"/r/{code}/panel").get_data(as_text=True)
    with app.app_context():
        ada_id = db.session.query(Student).filter_by(nickname="Ada").one().id
    teacher.post(f"{url}/students/{ada_id}", data={"action": "rename", "value": "Ada Lovelace"})
    wait_for_polls_to_see_changes(app)
    assert ben.get(f"/r/{code}/version", headers={"If-None-Match": etag}).status_code == 200
    panel = ben.get(f"/r/{code}/panel").get_data(as_text=True)
    assert "<strong>Ada Lovelace</strong>: 1" in panel
    teacher.post(f"{url}/students/{ada_id}", data={"action": "remove"})
    assert "Ada Lovelace" not in ben.get(f"/r/{code}/panel").get_data(as_text=True)


def test_students_poll_a_tiny_version_that_changes_only_with_the_view(classroom, app, teacher):
    _url, code, (ada, ben) = classroom.play_started(teacher, turn_seconds="30")
    first = ada.get(f"/r/{code}/version")
    assert first.is_json and "X-Seconds-Left" in first.headers
    same = ada.get(f"/r/{code}/version", headers={"If-None-Match": first.headers["ETag"]})
    assert same.status_code == 304
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    ben.post(f"/r/{code}/answer", data={"gap": "0"})  # everyone answered: revealed
    wait_for_polls_to_see_changes(app)
    changed = ada.get(f"/r/{code}/version", headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200
    assert app.test_client().get(f"/r/{code}/version").status_code == 403


def test_the_live_page_answers_by_fetch_and_gets_its_panel_back(classroom, app, teacher):
    _url, code, (ada, _ben) = classroom.play_started(teacher)
    etag = ada.get(f"/r/{code}/version").headers["ETag"]
    live = {"X-Live-Panel": "1"}
    placed = ada.post(f"/r/{code}/answer", data={"gap": "0"}, headers=live)
    html = placed.get_data(as_text=True)
    assert placed.status_code == 200 and placed.headers["X-Panel"] == "1"
    assert "Your answer is in" in html and "<html" not in html and "<form" not in html
    again = ada.post(f"/r/{code}/answer", data={"gap": "1"}, headers=live)
    assert again.status_code == 409 and again.headers["X-Panel"] == "1"
    assert "already answered" in again.get_data(as_text=True) and "<html" not in again.get_data(as_text=True)
    # The poll stays quiet: the answer's own reply already brought the new panel.
    assert ada.get(f"/r/{code}/version", headers={"If-None-Match": etag}).status_code == 304
    with app.app_context():
        assert db.session.query(Answer).count() == 1
    stranger = app.test_client().post(f"/r/{code}/answer", data={"gap": "0"}, headers=live)
    assert stranger.status_code == 403 and "X-Panel" not in stranger.headers  # the page reloads to say why


def test_polls_read_a_round_once_per_cache_period_and_see_every_change_after_it(classroom, app, teacher):
    url, code, students = classroom.play_started(teacher, ("Ada", "Ben", "Cy"))
    etags = [s.get(f"/r/{code}/version").headers["ETag"] for s in students]
    with statements_run(app) as statements:
        started = time.monotonic()
        for _ in range(3):
            for student, etag in zip(students, etags, strict=True):
                assert student.get(f"/r/{code}/version", headers={"If-None-Match": etag}).status_code == 304
        periods = (time.monotonic() - started) / app.config["POLL_CACHE_SECONDS"]
        assert len(statements) <= 1 + int(periods) and len(statements) < 9  # a read per period, not per poll
        teacher.post(url + "/control", data={"action": "pause"})
        wait_for_polls_to_see_changes(app)
        statements.clear()
        seen = [s.get(f"/r/{code}/version", headers={"If-None-Match": e}) for s, e in zip(students, etags, strict=True)]
        assert [r.status_code for r in seen] == [200, 200, 200]  # the pause reached every student
        assert len({r.get_json()["view"] for r in seen}) == 3 and len(statements) == 3  # one row per student


def test_a_reveal_judges_the_turns_answers_in_a_statement_per_verdict(classroom, app, teacher):
    """A reveal in front of 1,000 students marks their answers right or wrong in two statements, loading none."""
    url, code, (ada, ben, _cy) = classroom.play_started(teacher, ("Ada", "Ben", "Cy"))
    for student, gap in ((ada, "0"), (ben, "1")):  # the line holds one card: one of its two gaps is right
        assert student.post(f"/r/{code}/answer", data={"gap": gap}).status_code == 302
    with statements_run(app) as statements:
        teacher.post(url + "/control", data={"action": "reveal"})
    writes = [s for s in statements if s.lstrip().startswith("UPDATE answers")]
    assert len(writes) == 2 and not any("SELECT answers.id" in s for s in statements)  # the votes are read as rows
    with app.app_context():
        verdicts = dict(db.session.query(Student.nickname, Answer.correct).join(Student, Student.id == Answer.student_id))
    assert sorted(verdicts) == ["Ada", "Ben"] and {verdicts["Ada"], verdicts["Ben"]} == {True, False}


def test_a_request_that_read_an_older_round_changes_nothing(classroom, app, teacher):
    from webapp.classroom import rounds

    url, _code, _ = classroom.play_started(teacher)
    changes = []
    with app.app_context():
        rnd = db.session.get(Round, int(url.rsplit("/", 1)[1]))
        classroom.set_round(url, title="Changed by another request")  # commits in a session of its own
        rounds._update(rnd, lambda: changes.append("judged"))
        assert changes == [] and rnd.title == "Changed by another request"  # it locked, saw, and kept theirs


@pytest.mark.parametrize("method, path", [
    ("get", ""), ("get", "/panel"), ("post", "/control"), ("get", "/students"), ("get", "/results.csv"),
    ("get", "/results.xlsx"), ("post", "/students/{big}"),
])
def test_ids_too_big_for_the_database_are_a_clear_404(classroom, teacher, method, path):
    url, _ = classroom.new_round(teacher)
    big = "9" * 30
    target = url + path.format(big=big) if "{big}" in path else url.rsplit("/", 1)[0] + f"/{big}{path}"
    response = getattr(teacher, method)(target, data={"action": "remove"} if method == "post" else None)
    assert response.status_code == 404


def test_a_card_set_takes_names_as_people_type_them(app, teacher):
    response = teacher.post("/teach/sets", data={"name": "Favourites", "cards": "T rex, trike\nbrontosarus"})
    assert response.status_code == 302
    with app.app_context():
        assert db.session.query(CardSet).one().slugs == ["tyrannosaurus", "triceratops", "brontosaurus"]
    refused = teacher.post("/teach/sets", data={"name": "Sharks", "cards": "megladonn, zzzz"})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 400 and "did you mean Megalodon?" in html and "zzzz" in html


def test_the_teachers_panel_reads_the_leaderboard_once_per_round_version(classroom, app, teacher):
    """Answers coming in redraw the teacher's panel every second; points move only at a reveal, which changes the
    round's version: the leaderboard is read once per version, and is right after the next reveal."""
    from conftest import statements_run
    from test_speed_points import answer, control

    def panel():
        with statements_run(app) as statements:
            html = teacher.get(url + "/panel").get_data(as_text=True)
        return html, sum("avg(answers.seconds)" in statement for statement in statements)

    url, code, (ada, ben, cy) = classroom.play_started(teacher, names=("Ada", "Ben", "Cy"), count="4")
    for student, right in ((ada, True), (ben, False), (cy, False)):
        answer(student, code, right, app, url)  # the third answer completes the card: it is revealed
    control(teacher, url, "next")
    answer(ada, code, True, app, url)
    html, read = panel()
    assert read == 1 and re.search(r"Ada</strong>: 1 point\b", html)
    answer(ben, code, True, app, url)
    html, read = panel()
    assert read == 0 and re.search(r"Ada</strong>: 1 point\b", html) and "Ben</strong>: 0" in html
    answer(cy, code, False, app, url)  # the card is revealed: Ada and Ben score
    html, read = panel()
    assert read == 1 and re.search(r"Ada</strong>: 2 points", html) and re.search(r"Ben</strong>: 1 point\b", html)
