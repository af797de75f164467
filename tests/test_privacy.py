"""Children's data is forgotten on time: removing a student, deleting a teacher's account, the `forget` job and
the app running it once a day (issue 27, point 5)."""

import csv
import io
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from conftest import database_config, posted, statements_run
from sqlalchemy import func, select

from webapp import create_app
from webapp.extensions import db
from webapp.games import cardline
from webapp.models import (
    Answer,
    Card,
    CardSet,
    Citation,
    Extinction,
    Game,
    Housekeeping,
    JoinCode,
    MistakeReport,
    Period,
    Pupil,
    PupilDevice,
    PupilPlacement,
    Round,
    SchoolClass,
    Source,
    Student,
    Teacher,
    TeacherQuestion,
    TeacherSession,
    Throttle,
)
from webapp.privacy import forget as job

EMAIL = "quillfeather.erase@school.example"
PASSWORD = "correct horse 1"
# Names no card, source or period holds, so finding one anywhere means a child's data was left behind.
ROSTER = "Ottoline Brackwater\nPeregrine Quistly"
PUPILS = ("Ottoline B.", "Peregrine Q.")
OPEN_ROUND = ("Zephyrine", "Balthazzo")
HOMEWORK = ("Marigoldia",)
QUIZ_HOMEWORK = ("Wendeline",)
SEATED = "Thaddeusina"  # took a game's seat with its join code
REFERENCE_TABLES = (Card, Citation, Source, Period, Extinction)


def everything_stored(app):
    """Return every row of every table of the database, as text."""
    with app.app_context():
        return {table.name: str(db.session.execute(table.select()).all()) for table in db.metadata.sorted_tables}


def found(app, secrets):
    """Return {secret: [tables holding it]} for each secret (any case) found anywhere in the database."""
    stored = {name: text.casefold() for name, text in everything_stored(app).items()}
    hits = {secret: [name for name, text in stored.items() if secret.casefold() in text] for secret in secrets}
    return {secret: tables for secret, tables in hits.items() if tables}


def counts(app, models):
    """Return {table: number of rows}."""
    with app.app_context():
        return {model.__tablename__: db.session.scalar(select(func.count()).select_from(model)) for model in models}


def a_term_of_data(app, classroom, teacher):
    """Fill a teacher's account as a term does; return the secrets a child's or the teacher's data holds."""
    class_url, pupils = classroom.new_class(teacher, ROSTER)
    url, code = classroom.class_round(teacher, class_url)
    devices = [classroom.join_as_pupil(code, pupils[name]) for name in PUPILS]
    teacher.post(url + "/control", data={"action": "start"})
    for device in devices:
        assert device.post(f"/r/{code}/answer", data={"gap": "0"}).status_code == 302

    _open_url, open_code, students = classroom.play_started(teacher, OPEN_ROUND)
    for student in students:
        assert student.post(f"/r/{open_code}/answer", data={"gap": "0"}).status_code == 302

    homework_url, homework_code = classroom.new_round(teacher, format="self_paced", count="3", title="Homework")
    child = classroom.join(homework_code, HOMEWORK[0])
    teacher.post(homework_url + "/control", data={"action": "start"})
    game_url = child.get(f"/r/{homework_code}").headers["Location"]
    assert child.post(game_url + "/answer", data={"gap": "0"}).status_code == 302

    quiz_url, quiz_code = classroom.quiz_homework(teacher)
    classroom.join(quiz_code, QUIZ_HOMEWORK[0])
    teacher.post(quiz_url + "/control", data={"action": "start"})

    with app.app_context():
        slug = db.session.scalar(select(Card.slug))
    assert teacher.post("/teach/sets", data={"name": "Quillfeather picks", "cards": slug}).status_code == 302

    game = posted(app.test_client(), "/play/cardline/new", {
        "deck": "dinosaurs", "characteristic": "mass", "hand_size": "4", "players": "2", "seats-0-name": "Hosting",
        "seats-0-kind": "human", "seats-1-name": "Guest", "seats-1-kind": "remote"})
    with app.app_context():
        join_code = db.session.scalar(select(JoinCode.code).where(JoinCode.game_id == game.rsplit("/", 1)[1]))
    assert app.test_client().post("/join", data={"code": join_code, "name": SEATED}).status_code == 302

    with app.app_context():
        slug = db.session.scalar(select(Card.slug).where(Card.deck == "dinosaurs"))
    tricky = app.test_client()  # a pupil keeps their tricky cards on the school's server
    assert tricky.post("/tricky/link", data={"personal_code": pupils[PUPILS[0]][1]}).status_code == 302
    placement = {"card": slug, "by": "mass", "right": True, "at": int(datetime.now(UTC).timestamp() * 1000)}
    assert tricky.post("/tricky/kept", data={"history": f"[{json.dumps(placement)}]"}).status_code == 200

    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(PupilPlacement)) == 1
        codes = list(db.session.scalars(select(Pupil.code)))
        assert db.session.scalar(select(func.count()).select_from(Answer)) >= 4
        assert db.session.scalar(select(func.count()).select_from(TeacherQuestion)) == 2
    secrets = [*PUPILS, *codes, *OPEN_ROUND, *HOMEWORK, *QUIZ_HOMEWORK, EMAIL]
    assert set(found(app, [*secrets, SEATED])) == {*secrets, SEATED}  # the search finds each before the erasure
    return secrets


@pytest.fixture
def erasable(app, classroom, client):
    """A logged-in teacher with a term's data in their account; return their browser and the secrets it holds."""
    classroom.register(client, email=EMAIL, name="Ms Quillfeather")
    return client, a_term_of_data(app, classroom, client)


def test_deleting_an_account_leaves_nothing_of_it_or_its_children_in_any_table(app, classroom, erasable):
    teacher, secrets = erasable
    other = app.test_client()
    classroom.register(other, email="colleague@school.org")
    _url, colleague_code = classroom.new_round(other)
    classroom.join(colleague_code, "Colleagues Kid")
    reference = counts(app, REFERENCE_TABLES)

    page = teacher.get("/teach/account/delete").get_data(as_text=True)
    assert "<li>4 rounds</li>" in page and "<li>1 class</li>" in page and "<li>2 pupils on their lists</li>" in page
    deleted = teacher.post("/teach/account/delete", data={"confirm": "y", "password": PASSWORD})
    assert deleted.status_code == 302
    assert "Your account and everything in it are deleted" in teacher.get(deleted.headers["Location"]).get_data(
        as_text=True)
    assert teacher.get("/teach/").status_code == 302  # logged out: the dashboard sends them to log in

    assert found(app, secrets) == {}
    assert counts(app, REFERENCE_TABLES) == reference
    assert counts(app, (SchoolClass, Pupil, TeacherQuestion, TeacherSession, PupilPlacement, PupilDevice)) == {
        "classes": 0, "pupils": 0, "teacher_questions": 0, "teacher_sessions": 1,  # the colleague's login
        "pupil_placements": 0, "pupil_devices": 0}
    with app.app_context():
        assert db.session.scalars(select(CardSet.name)).all() == []
        assert db.session.scalars(select(Student.nickname)).all() == ["Colleagues Kid"]
        assert db.session.scalars(select(Teacher.email)).all() == ["colleague@school.org"]
    # A game played without an account is no part of it: its seat goes with the game, after GAME_DAYS_KEPT.
    assert list(found(app, [SEATED])) == [SEATED]


def test_forget_after_the_periods_leaves_no_round_or_game_data_in_any_table(app, classroom, erasable, runner,
                                                                             monkeypatch):
    _teacher, secrets = erasable
    children = [*OPEN_ROUND, *HOMEWORK, *QUIZ_HOMEWORK]
    reference = counts(app, REFERENCE_TABLES)
    start = datetime.now(UTC)

    monkeypatch.setattr(job, "now", lambda: start + timedelta(days=29))
    assert "Deleted 0 rounds" in runner.invoke(args=["forget"]).output
    assert list(found(app, [SEATED])) == [SEATED]

    monkeypatch.setattr(job, "now", lambda: start + timedelta(days=31))
    assert "Deleted 0 rounds (with their students, answers and homework), 1 games" in runner.invoke(
        args=["forget"]).output
    assert found(app, [SEATED]) == {}
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(JoinCode)) == 0  # the game's code is free
        # The homework games are older than a game is kept, but their rounds still show them.
        assert db.session.scalar(select(func.count()).select_from(Game)) == 2

    monkeypatch.setattr(job, "now", lambda: start + timedelta(days=366))
    assert "Deleted 4 rounds" in runner.invoke(args=["forget"]).output
    assert found(app, children) == {}
    assert counts(app, (Round, Student, Answer, Game, JoinCode, PupilPlacement, PupilDevice)) == {
        "rounds": 0, "students": 0, "answers": 0, "games": 0, "join_codes": 0, "pupil_placements": 0,
        "pupil_devices": 0}  # the tricky cards kept for a pupil: PRACTICE_DAYS_KEPT (365) days
    assert counts(app, REFERENCE_TABLES) == reference
    # The class list is the teacher's until they delete the class or their account.
    assert set(found(app, secrets)) == set(secrets) - set(children)


def test_a_round_is_kept_while_it_is_used_and_forgotten_a_school_year_after(app, classroom, teacher):
    days = app.config["ROUND_DAYS_KEPT"]
    at = datetime.now(UTC)
    long_ago = at - timedelta(days=days + 1)
    rounds = {}
    for name in ("finished long ago", "finished lately", "answered lately", "joined lately", "idle"):
        rounds[name] = classroom.new_round(teacher, title=name)
        classroom.set_round(rounds[name][0], created_at=long_ago, turn_started_at=long_ago)
    classroom.set_round(rounds["finished long ago"][0], status="finished", finished_at=long_ago)
    classroom.set_round(rounds["finished lately"][0], status="finished", finished_at=at - timedelta(days=days - 1))
    classroom.join(rounds["joined lately"][1], "Newcomer")
    url, code = rounds["answered lately"]
    ada = classroom.join(code, "Ada")
    teacher.post(url + "/control", data={"action": "start"})
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    with app.app_context():
        db.session.execute(Student.__table__.update().values(joined_at=long_ago).where(Student.nickname == "Ada"))
        db.session.execute(Round.__table__.update().values(turn_started_at=long_ago))
        db.session.commit()
        assert job.forget(at)["rounds"] == 2
        assert set(db.session.scalars(select(Round.title))) == {"finished lately", "answered lately", "joined lately"}
        assert db.session.scalars(select(Student.nickname).order_by(Student.id)).all() == ["Newcomer", "Ada"]


def test_forget_ends_old_logins_and_clears_old_counters_but_keeps_mistake_reports(app, client, classroom):
    classroom.register(client)
    client.post("/teach/login", data={"email": "nobody@school.org", "password": "wrong password 1"})
    with app.app_context():
        db.session.add(MistakeReport(card_slug="stegosaurus", field="mass_kg", message="Too heavy?"))
        db.session.commit()
        assert db.session.scalar(select(func.count()).select_from(Throttle)) > 0
        logins = db.session.scalar(select(func.count()).select_from(TeacherSession))
        assert logins >= 1
        assert job.forget(datetime.now(UTC))["logins"] == 0
        later = datetime.now(UTC) + app.permanent_session_lifetime + timedelta(days=3)
        assert job.forget(later)["logins"] == logins
        assert db.session.scalar(select(func.count()).select_from(Throttle)) == 0
        assert db.session.scalar(select(func.count()).select_from(MistakeReport)) == 1


def answers_csv(teacher, url):
    """Return the round's answers CSV as rows."""
    data = teacher.get(url + "/results.csv").get_data().decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(data)))


def test_removing_a_student_erases_their_name_and_answers_at_once(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, ("Adalinda", "Ben"))
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    ben.post(f"/r/{code}/answer", data={"gap": "0"})
    with app.app_context():
        ada_id = db.session.scalar(select(Student.id).where(Student.nickname == "Adalinda"))
    assert any(row["student"] == "Adalinda" for row in answers_csv(teacher, url))
    assert teacher.post(f"{url}/students/{ada_id}", data={"action": "remove"}).status_code == 302

    with app.app_context():
        student = db.session.get(Student, ada_id)
        assert student.removed and student.nickname == "(removed)" and "adalinda" not in student.nickname_key
        assert db.session.scalar(select(func.count()).select_from(Answer).where(Answer.student_id == ada_id)) == 0
    assert found(app, ["Adalinda"]) == {}
    for page in ("", "/students", "/panel", "/results.csv", "/results.xlsx"):
        assert b"Adalinda" not in teacher.get(url + page).get_data(), page
    assert [row["student"] for row in answers_csv(teacher, url)] == ["Ben"]
    # Her device still holds its cookie: it is told she was taken out, and cannot come back as someone new.
    assert ada.get(f"/r/{code}").status_code == 403
    again = ada.post("/join", data={"code": code, "name": "Not Adalinda"})
    assert again.status_code == 403 and "taken you out" in again.get_data(as_text=True)


def test_removing_a_homework_student_deletes_their_game(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="self_paced", count="3")
    eve = classroom.join(code, "Evangelina")
    classroom.join(code, "Fay")
    teacher.post(url + "/control", data={"action": "start"})
    game_url = eve.get(f"/r/{code}").headers["Location"]
    eve.post(game_url + "/answer", data={"gap": "0"})
    with app.app_context():
        eve_id, game_id = db.session.execute(select(Student.id, Student.game_id)
                                             .where(Student.nickname == "Evangelina")).one()
    teacher.post(f"{url}/students/{eve_id}", data={"action": "remove"})
    with app.app_context():
        assert db.session.get(Game, game_id) is None and db.session.get(Student, eve_id).game_id is None
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1  # Fay's
    assert eve.get(game_url).status_code == 404
    assert found(app, ["Evangelina"]) == {}
    assert [row["student"] for row in answers_csv(teacher, url)] == ["Fay"]


def test_a_removed_pupil_stays_out_of_the_round_but_keeps_their_place_in_the_class(classroom, app, teacher):
    class_url, pupils = classroom.new_class(teacher, ROSTER)
    url, code = classroom.class_round(teacher, class_url)
    device = classroom.join_as_pupil(code, pupils["Ottoline B."])
    with app.app_context():
        student_id = db.session.scalar(select(Student.id))
    teacher.post(f"{url}/students/{student_id}", data={"action": "remove"})
    again = app.test_client().post(f"/r/{code}/me", data={"pupil": str(pupils["Ottoline B."][0]),
                                                         "personal_code": pupils["Ottoline B."][1]})
    assert again.status_code == 403 and "taken you out" in again.get_data(as_text=True)
    assert device.get(f"/r/{code}").status_code == 403
    assert "Ottoline B." not in teacher.get(url).get_data(as_text=True).split("Not here yet")[0]
    with app.app_context():
        assert db.session.scalars(select(Student.nickname)).all() == ["(removed)"]
        assert db.session.scalars(select(Pupil.display_name).order_by(Pupil.id)).all() == list(PUPILS)


def test_removing_a_captain_leaves_the_other_teams_answers_read_as_before(classroom, app, teacher):
    url, code, students = classroom.play_started(teacher, ("Ada", "Ben", "Cy", "Di"), format="team", teams="2",
                                                 hand_size="4")
    with app.app_context():
        teams = dict(db.session.execute(select(Student.nickname, Student.team)).all())
        ada_id = db.session.scalar(select(Student.id).where(Student.nickname == "Ada"))
    captains = {}  # each team's first member is its captain
    for name, device in zip(("Ada", "Ben", "Cy", "Di"), students, strict=True):
        captains.setdefault(teams[name], (name, device))
    assert set(captains) == {0, 1} and captains[teams["Ada"]][0] == "Ada"
    other = next(name for name, _ in captains.values() if name != "Ada")
    for turn in range(6):  # the teacher skips the second turn; otherwise every captain places a card right
        state = classroom.round(url).state
        if turn == 1:
            assert teacher.post(url + "/control", data={"action": "skip"}).status_code == 302
            continue
        seat = state["turn"]
        card = state["hands"][seat][0]
        gap = cardline.correct_gaps(state, card)[0]
        assert captains[seat][1].post(f"/r/{code}/answer", data={"card": card, "gap": str(gap)}).status_code == 302
        assert len(classroom.round(url).state["line"]) == len(state["line"]) + 1
    before = [row for row in answers_csv(teacher, url) if row["student"] == other]
    assert len(before) == 2 and all(row["place"].startswith(("before", "between", "after")) for row in before)
    teacher.post(f"{url}/students/{ada_id}", data={"action": "remove"})
    rows = answers_csv(teacher, url)
    assert "Ada" not in {row["student"] for row in rows}
    assert [row for row in rows if row["student"] == other] == before


def test_the_account_page_asks_for_the_box_and_the_password_and_deletes_nothing_without_them(classroom, app, client):
    assert client.get("/teach/account/delete").status_code == 302  # logged out: to the log-in page
    classroom.register(client, email=EMAIL)
    classroom.new_round(client)
    page = client.get("/teach/account/delete").get_data(as_text=True)
    assert EMAIL in page and "<li>1 round</li>" in page and 'type="password"' in page
    unticked = client.post("/teach/account/delete", data={"password": PASSWORD})
    assert unticked.status_code == 400 and "Tick the box" in unticked.get_data(as_text=True)
    wrong = client.post("/teach/account/delete", data={"confirm": "y", "password": "not my password"})
    html = wrong.get_data(as_text=True)
    assert wrong.status_code == 400
    assert re.search(r'id="password-error">[^<]*That is not your password', html)
    for odd in ({"confirm": "\x00", "password": "\x00" * 300}, {"confirm": ["y", "n"], "password": "p" * 5000},
                {}):
        assert client.post("/teach/account/delete", data=odd).status_code == 400, odd
    surrogate = client.post("/teach/account/delete", data="confirm=y&password=%ED%A0%80",
                            content_type="application/x-www-form-urlencoded")
    assert surrogate.status_code == 400
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Teacher)) == 1
        assert db.session.scalar(select(func.count()).select_from(Round)) == 1


def requests_cost(app, client, path="/ping"):
    """Return the SQL statements one request (sent, then closed as a server does) runs."""
    with statements_run(app) as statements:
        client.get(path).close()
    return statements


def test_the_app_forgets_once_a_day_across_processes_and_again_the_next_day(app, loaded_database_url, monkeypatch):
    runs = []
    real = job.forget
    monkeypatch.setattr(job, "forget", lambda at=None: runs.append(at) or real(at))
    day = datetime(2031, 3, 4, 8, 0, tzinfo=UTC)
    monkeypatch.setattr(job, "now", lambda: day)
    app.config["FORGET_DAILY"] = 1
    other = create_app({**database_config(loaded_database_url), "FORGET_DAILY": 1})  # a second process, same database
    try:
        app.test_client().get("/ping").close()
        other.test_client().get("/ping").close()
        app.test_client().get("/ping").close()
        assert runs == [day]
        assert requests_cost(app, app.test_client()) == []  # the day's run is known: no query at all
        assert requests_cost(other, other.test_client()) == []

        monkeypatch.setattr(job, "now", lambda: day + timedelta(hours=23))
        other.test_client().get("/ping").close()
        assert runs == [day]

        tomorrow = day + timedelta(days=1, minutes=1)
        monkeypatch.setattr(job, "now", lambda: tomorrow)
        other.test_client().get("/ping").close()
        app.test_client().get("/ping").close()
        assert runs == [day, tomorrow]
        with app.app_context():
            assert db.session.get(Housekeeping, "forget").last_run_at.replace(tzinfo=UTC) == tomorrow
    finally:
        with other.app_context():
            db.engine.dispose()


def test_a_failing_run_never_fails_a_request_and_is_tried_again_later(app, monkeypatch, caplog):
    def broken(at=None):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(job, "forget", broken)
    app.config["FORGET_DAILY"] = 1
    at = datetime(2031, 3, 4, 8, 0, tzinfo=UTC)
    monkeypatch.setattr(job, "now", lambda: at)
    response = app.test_client().get("/ping")
    response.close()
    assert response.status_code == 200 and "forgetting what was due failed" in caplog.text
    assert requests_cost(app, app.test_client()) == []  # not tried again at once


def test_with_forget_daily_off_the_app_never_runs_it(app, monkeypatch):
    app.config["FORGET_DAILY"] = 0
    monkeypatch.setattr(job, "forget", lambda at=None: pytest.fail("forget ran"))
    assert requests_cost(app, app.test_client()) == []
    with app.app_context():
        assert db.session.get(Housekeeping, "forget") is None
