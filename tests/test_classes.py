"""Classes: rosters kind to children's privacy, personal codes, the same child in every round and on any device,
erasure and export."""

import codecs
import io
import json
import re
import time
import zipfile

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from playwright.sync_api import expect
from sqlalchemy import create_engine, inspect, select, text

from webapp.classroom.classes import display_name
from webapp.extensions import db
from webapp.models import Answer, Game, Pupil, Round, SchoolClass, Student


def count(app, model, **where):
    with app.app_context():
        return db.session.query(model).filter_by(**where).count()


@pytest.mark.parametrize(("typed", "kept"), [
    ("Ava Kowalski", "Ava K."), ("ava   kowalski", "ava K."), ("Ben Ng", "Ben N."), ("Cy", "Cy"),
    ("Mary Ann Smith", "Mary S."), ("Dev P", "Dev P"), ("Dev Pa.", "Dev Pa."), ("Siobhán O'Neill", "Siobhán O."),
])
def test_only_a_first_name_and_an_initial_are_kept(typed, kept):
    assert display_name(typed) == kept


def test_a_pasted_roster_makes_a_class_with_a_personal_code_each(classroom, app, teacher):
    url, pupils = classroom.new_class(teacher, "Zoë Smith\nSiobhán O'Neill\tBen Ng, Ava Kowalski")
    assert sorted(pupils) == ["Ava K.", "Ben N.", "Siobhán O.", "Zoë S."]
    codes = [code for _, code in pupils.values()]
    assert len(set(codes)) == 4 and all(re.fullmatch(r"[ACDEFHJKMNPQRTUVWXY3479]{6}", c) for c in codes)
    page = teacher.get(url).get_data(as_text=True)
    assert all(code in page for code in codes) and "Zoë S." in page
    slips = teacher.get(url + "/slips").get_data(as_text=True)
    assert all(code in slips for code in codes) and slips.count('class="slip"') == 4
    # Nothing but a display name and a code is kept of a child.
    assert {c.name for c in inspect(Pupil).columns} == {"id", "class_id", "display_name", "name_key", "code",
                                                          "created_at"}


@pytest.mark.parametrize(("roster", "error"), [
    ("Ava Kowalski\nAva Kramer", "already has a Ava K."), ("", "List at least one pupil."),
    ("A", "Use 2 to 20 characters."), ("<b>Ava</b>", "Use letters"),
    ("\n".join(f"Pupil {i}" for i in range(61)), "at most 60 pupils"),
])
def test_a_roster_with_a_problem_is_refused_beside_the_field(classroom, app, teacher, roster, error):
    response = teacher.post("/teach/classes/", data={"name": "7B", "roster": roster})
    assert response.status_code == 400 and error in response.get_data(as_text=True)
    assert count(app, SchoolClass) == 0 and count(app, Pupil) == 0


def test_class_pages_refuse_everyone_else(classroom, app, teacher):
    url, pupils = classroom.new_class(teacher)
    pupil_id = next(iter(pupils.values()))[0]
    anonymous = app.test_client()
    for path in ("/teach/classes/", url, url + "/slips", url + "/export.zip"):
        assert anonymous.get(path).status_code == 302
    other = app.test_client()
    classroom.register(other, email="other@school.org")
    for path in (url, url + "/slips", url + "/export.zip"):
        response = other.get(path)
        assert response.status_code == 403 and "another teacher" in response.get_data(as_text=True)
    for path, data in ((url + "/pupils", {"roster": "Eve"}), (f"{url}/pupils/{pupil_id}", {"action": "erase"}),
                       (url + "/delete", {"confirm": "yes"})):
        assert other.post(path, data=data).status_code == 403
    assert other.post("/teach/rounds/new", data={**classroom.ROUND, "for_class": url.rsplit("/", 1)[1]}).status_code == 400
    assert count(app, Pupil) == 4 and count(app, Round) == 0


@pytest.mark.parametrize("path", ["/teach/classes/999", "/teach/classes/999/slips", "/teach/classes/abc",
                                  "/teach/classes/99999999999999999999999"])
def test_no_such_class_is_a_404(teacher, path):
    assert teacher.get(path).status_code == 404


def test_a_pupil_joins_by_picking_their_name_and_typing_their_code(classroom, app, teacher):
    class_url, pupils = classroom.new_class(teacher)
    _url, code = classroom.class_round(teacher, class_url)
    kid = app.test_client()
    assert kid.get(f"/join?code={code}").headers["Location"] == f"/r/{code}/me"
    page = kid.get(f"/r/{code}/me").get_data(as_text=True)
    assert all(name in page for name in pupils) and all(c not in page for _, c in pupils.values())
    ava_id, _ava_code = pupils["Ava K."]
    wrong = kid.post(f"/r/{code}/me", data={"pupil": str(ava_id), "personal_code": pupils["Ben N."][1]})
    assert wrong.status_code == 403 and "not the personal code on Ava K.&#39;s slip" in wrong.get_data(as_text=True)
    assert count(app, Student) == 0
    classroom.join_as_pupil(code, pupils["Ava K."], kid)
    assert "You are Ava K." in kid.get(f"/r/{code}").get_data(as_text=True)
    with app.app_context():
        student = db.session.query(Student).one()
        assert student.pupil_id == ava_id and student.nickname == "Ava K."
    # A nickname is not a way in to a class's round.
    assert app.test_client().post("/join", data={"code": code, "name": "Mallory"}).headers["Location"] == f"/r/{code}/me"


def test_a_pupil_keeps_their_score_on_another_device_and_the_old_one_is_told(classroom, app, teacher):
    class_url, pupils = classroom.new_class(teacher)
    url, code = classroom.class_round(teacher, class_url, count="3")
    phone = classroom.join_as_pupil(code, pupils["Dev P."])
    classroom.join_as_pupil(code, pupils["Ava K."])
    teacher.post(url + "/control", data={"action": "start"})
    phone.post(f"/r/{code}/answer", data={"gap": "0"})
    laptop = classroom.join_as_pupil(code, pupils["Dev P."])
    assert count(app, Student) == 2 and count(app, Answer) == 1
    assert "You are Dev P." in laptop.get(f"/r/{code}").get_data(as_text=True)
    old = phone.get(f"/r/{code}")
    assert old.status_code == 409 and "on another device now" in old.get_data(as_text=True)
    assert phone.get(f"/r/{code}/version").status_code == 403
    assert phone.post(f"/r/{code}/answer", data={"gap": "1"}).status_code == 403
    # The old device may take the pupil back, with the personal code: still one student.
    classroom.join_as_pupil(code, pupils["Dev P."], phone)
    assert count(app, Student) == 2
    assert laptop.get(f"/r/{code}").status_code == 409


def test_the_same_pupil_is_the_same_student_across_rounds(classroom, app, teacher):
    class_url, pupils = classroom.new_class(teacher)
    _first, first_code = classroom.class_round(teacher, class_url, title="Week 1")
    _second, second_code = classroom.class_round(teacher, class_url, title="Week 2")
    classroom.join_as_pupil(first_code, pupils["Ava K."])
    classroom.join_as_pupil(second_code, pupils["Ava K."])
    with app.app_context():
        assert {s.pupil_id for s in db.session.query(Student)} == {pupils["Ava K."][0]}
    assert "Week 1" in teacher.get(class_url).get_data(as_text=True)


def test_an_open_round_lets_a_student_back_in_with_a_one_time_code_once(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    old_phone = classroom.join(code, "Dev")
    with app.app_context():
        dev = db.session.query(Student).filter_by(nickname="Dev").one().id
    given = teacher.post(f"{url}/students/{dev}", data={"action": "rejoin"}, follow_redirects=True)
    one_time = re.search(r"One-time code: (\w{6})", given.get_data(as_text=True)).group(1)
    new_phone = app.test_client()
    without = new_phone.post("/join", data={"code": code, "name": "Dev"})
    assert without.status_code == 403 and "one-time code your teacher gave you" in without.get_data(as_text=True)
    wrong = new_phone.post("/join", data={"code": code, "name": "Dev", "one_time_code": "AAAAAA"})
    assert wrong.status_code == 403
    assert new_phone.post("/join", data={"code": code, "name": "dev", "one_time_code": one_time.lower()}).status_code == 302
    assert "You are Dev" in new_phone.get(f"/r/{code}").get_data(as_text=True)
    moved = old_phone.get(f"/r/{code}")
    assert moved.status_code == 409 and "ask your teacher to let you back in" in moved.get_data(as_text=True)
    # The old phone cannot become a second Dev under another name, and the code works once.
    again = old_phone.post("/join", data={"code": code, "name": "Dev Two"})
    assert again.status_code == 409 and "now plays on another device" in again.get_data(as_text=True)
    third = app.test_client().post("/join", data={"code": code, "name": "Dev", "one_time_code": one_time})
    assert third.status_code == 403
    assert count(app, Student) == 1


def test_a_rostered_student_needs_no_one_time_code(classroom, app, teacher):
    class_url, pupils = classroom.new_class(teacher)
    url, code = classroom.class_round(teacher, class_url)
    classroom.join_as_pupil(code, pupils["Cy D."])
    with app.app_context():
        cy = db.session.query(Student).one().id
    refused = teacher.post(f"{url}/students/{cy}", data={"action": "rejoin"})
    assert refused.status_code == 400 and "personal code" in refused.get_data(as_text=True)
    assert "gets back in on any device with their personal code" in teacher.get(url).get_data(as_text=True)


def class_with_history(classroom, app, teacher):
    """Return a class of four whose pupils played a class line and homework; its URL and pupils."""
    class_url, pupils = classroom.new_class(teacher)
    url, code = classroom.class_round(teacher, class_url, count="3", title="Line")
    devices = [classroom.join_as_pupil(code, pupil) for pupil in pupils.values()]
    teacher.post(url + "/control", data={"action": "start"})
    for device in devices:
        device.post(f"/r/{code}/answer", data={"gap": "0"})
    homework, hw_code = classroom.class_round(teacher, class_url, format="self_paced", count="3", title="Homework")
    teacher.post(homework + "/control", data={"action": "start"})
    kid = classroom.join_as_pupil(hw_code, pupils["Zoë S."] if "Zoë S." in pupils else pupils["Ava K."])
    game = kid.get(f"/r/{hw_code}").headers["Location"]
    kid.post(game + "/answer", data={"gap": "0"})
    return class_url, pupils


def test_everything_about_a_class_downloads_as_a_zip_of_csvs(classroom, app, teacher):
    class_url, pupils = class_with_history(classroom, app, teacher)
    response = teacher.get(class_url + "/export.zip")
    assert response.mimetype == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.get_data()))
    assert set(archive.namelist()) == {"roster.csv", "rounds.csv", "answers.csv", "students.csv"}
    for name in archive.namelist():
        assert archive.read(name).startswith(codecs.BOM_UTF8)
    roster = archive.read("roster.csv").decode("utf-8-sig")
    assert all(name in roster and code in roster for name, (_, code) in pupils.items())
    answers = archive.read("answers.csv").decode("utf-8-sig")
    assert "Line" in answers and "Homework" in answers and "Ava K." in answers


def test_deleting_a_class_leaves_nothing_of_its_children_in_any_table(classroom, app, teacher):
    class_url, pupils = class_with_history(classroom, app, teacher)
    _open_url, open_code = classroom.new_round(teacher, title="Open round")
    classroom.join(open_code, "Mia")  # not in the class: kept
    kept_games = count(app, Game)
    assert teacher.post(class_url + "/delete", data={}).status_code == 302
    assert count(app, Pupil) == 4  # not confirmed: nothing deleted
    assert teacher.post(class_url + "/delete", data={"confirm": "yes"}).status_code == 302
    assert count(app, SchoolClass) == 0 and count(app, Pupil) == 0
    assert count(app, Student) == 1 and count(app, Answer) == 0 and count(app, Round) == 1
    assert count(app, Game) == kept_games - 1  # the homework game went with its child
    with app.app_context():
        for table in db.metadata.sorted_tables:
            rows = db.session.execute(select(text("*")).select_from(table)).all()
            dump = repr(rows)
            for name, (_, code) in pupils.items():
                assert name not in dump and code not in dump, (table.name, name)


def test_erasing_one_pupil_deletes_their_answers_in_every_round(classroom, app, teacher):
    class_url, pupils = class_with_history(classroom, app, teacher)
    ava_id = pupils["Ava K."][0]
    with app.app_context():
        students = [s.id for s in db.session.query(Student).filter_by(pupil_id=ava_id)]
    assert teacher.post(f"{class_url}/pupils/{ava_id}", data={"action": "erase"}).status_code == 302
    assert count(app, Pupil) == 3
    with app.app_context():
        assert db.session.query(Answer).filter(Answer.student_id.in_(students)).count() == 0
        assert db.session.query(Student).filter(Student.id.in_(students)).count() == 0
    assert ">Ava K.</a></th>" not in teacher.get(class_url).get_data(as_text=True)


def test_a_new_code_replaces_the_old_slip(classroom, app, teacher):
    class_url, pupils = classroom.new_class(teacher)
    ben_id, old_code = pupils["Ben N."]
    page = teacher.post(f"{class_url}/pupils/{ben_id}", data={"action": "new_code"}, follow_redirects=True)
    new_code = re.search(r"new personal code: (\w{6})", page.get_data(as_text=True)).group(1)
    assert new_code != old_code
    _url, code = classroom.class_round(teacher, class_url)
    stale = app.test_client().post(f"/r/{code}/me", data={"pupil": str(ben_id), "personal_code": old_code})
    assert stale.status_code == 403
    classroom.join_as_pupil(code, (ben_id, new_code))


def test_the_class_progress_counts_every_round_and_pupil(classroom, app, teacher):
    class_url, pupils = class_with_history(classroom, app, teacher)
    page = teacher.get(class_url + "/progress").get_data(as_text=True)
    assert "Line" in page and "Homework" in page and "Weight" in page and "What the class gets wrong most" in page
    assert all(name in page for name in pupils)
    with app.app_context():
        answers = db.session.query(Answer).join(Student).filter(Student.pupil_id.is_not(None),
                                                                  Answer.correct.is_not(None)).all()
    if answers:  # the line's first card was judged when all four answered
        right = sum(a.correct for a in answers)
        assert f"({right} of {len(answers)})" in page
    for kind in ("over-time", "by-period", "by-group"):
        chart = teacher.get(f"{class_url}/progress/{kind}.json?width=800").get_json()
        assert chart["data"] and chart["layout"]["meta"]["title"]
    lines = teacher.get(class_url + "/progress.csv").get_data().decode("utf-8-sig").splitlines()
    assert lines[0] == "pupil,date,round,sorted_by,right,answered,percent_right" and len(lines) > 1
    assert teacher.get(class_url + "/progress/secrets.json").status_code == 404


def test_a_pupils_page_shows_their_term_and_prints_alone(classroom, app, teacher):
    class_url, pupils = class_with_history(classroom, app, teacher)
    ava = pupils["Ava K."][0]
    page = teacher.get(f"{class_url}/pupils/{ava}").get_data(as_text=True)
    assert "Ava K." in page and "Round by round" in page and "Ben N." not in page
    assert "By period" in page and "By group" in page
    for kind in ("over-time", "by-period", "by-group"):
        assert teacher.get(f"{class_url}/pupils/{ava}/{kind}.json").get_json()["data"]
    other = app.test_client()
    classroom.register(other, email="other@school.org")
    for path in (f"{class_url}/progress", f"{class_url}/pupils/{ava}", f"{class_url}/progress.csv",
                 f"{class_url}/progress/over-time.json", f"{class_url}/pupils/{ava}/over-time.json"):
        assert other.get(path).status_code == 403
    assert teacher.get(f"{class_url}/pupils/99999").status_code == 404


def test_a_class_with_no_answers_says_so(classroom, app, teacher):
    class_url, _pupils = classroom.new_class(teacher)
    assert "No answers yet" in teacher.get(class_url + "/progress").get_data(as_text=True)
    assert teacher.get(class_url + "/progress/over-time.json").status_code == 200


@pytest.mark.parametrize(("data", "status"), [({"action": "rename", "name": "Ava K."}, 400),
                                              ({"action": "rename", "name": "x" * 200}, 400),
                                              ({"action": "fly"}, 400), ({"action": "rename", "name": "Bea"}, 302)])
def test_renaming_a_pupil_checks_the_name(classroom, app, teacher, data, status):
    class_url, pupils = classroom.new_class(teacher)
    assert teacher.post(f"{class_url}/pupils/{pupils['Ben N.'][0]}", data=data).status_code == status


CHILDREN = ("Ada", "Ben")
DEVICES = 3


class DevicesMachine(RuleBasedStateMachine):
    """Children join an open round and a class's round from any of a few devices, reload, change device with a
    one-time code or their personal code, try again under another name, and are taken out: whatever the order,
    one child is never two students."""

    def __init__(self, app, classroom, teacher):
        super().__init__()
        self.app, self.classroom, self.teacher = app, classroom, teacher
        self.open_url, self.open_code = classroom.new_round(teacher)
        class_url, self.pupils = classroom.new_class(teacher, "Ada\nBen")
        self.class_url, self.class_code = classroom.class_round(teacher, class_url)
        self.devices = [app.test_client() for _ in range(DEVICES)]
        self.used = {child: set() for child in CHILDREN}  # the devices each child has played on in the open round
        self.given = {}  # one-time codes the teacher gave, per child

    def student(self, child):
        with self.app.app_context():
            return db.session.scalar(select(Student).join(Round).where(Round.code == self.open_code,
                                                                       Student.nickname == child))

    @rule(child=st.sampled_from(CHILDREN), device=st.integers(0, DEVICES - 1))
    def joins_the_open_round(self, child, device):
        response = self.devices[device].post("/join", data={"code": self.open_code, "name": child})
        if response.status_code == 302:
            self.used[child].add(device)

    @rule(child=st.sampled_from(CHILDREN), data=st.data())
    def tries_another_name_on_a_device_they_used(self, child, data):
        # Another name only from a device the child has played on: a new device is a stranger to the server.
        if self.used[child]:
            device = data.draw(st.sampled_from(sorted(self.used[child])))
            self.devices[device].post("/join", data={"code": self.open_code, "name": f"{child} Two"})

    @rule(child=st.sampled_from(CHILDREN), device=st.integers(0, DEVICES - 1), use_old_code=st.booleans())
    def changes_device_with_a_one_time_code(self, child, device, use_old_code):
        """The teacher gives the child a one-time code (or the child types the one used before) on a device."""
        student = self.student(child)
        if not use_old_code and student is not None and not student.removed:
            page = self.teacher.post(f"{self.open_url}/students/{student.id}", data={"action": "rejoin"},
                                     follow_redirects=True).get_data(as_text=True)
            self.given[child] = re.search(r"One-time code: (\w{6})", page).group(1)
        if child not in self.given:
            return
        response = self.devices[device].post("/join", data={"code": self.open_code, "name": child,
                                                            "one_time_code": self.given[child]})
        if response.status_code == 302:
            self.used[child].add(device)

    @rule(child=st.sampled_from(CHILDREN), device=st.integers(0, DEVICES - 1))
    def pupil_joins_the_class_round(self, child, device):
        self.classroom.join_as_pupil(self.class_code, self.pupils[child], self.devices[device])

    @rule(device=st.integers(0, DEVICES - 1))
    def reload(self, device):
        for code in (self.open_code, self.class_code):
            assert self.devices[device].get(f"/r/{code}").status_code in (200, 302, 403, 409)

    @rule(child=st.sampled_from(CHILDREN))
    def teacher_removes(self, child):
        student = self.student(child)
        if student is not None:
            self.teacher.post(f"{self.open_url}/students/{student.id}", data={"action": "remove"})

    @invariant()
    def one_child_is_one_student(self):
        with self.app.app_context():
            rows = db.session.execute(select(Student.nickname, Student.pupil_id, Round.code).join(Round)).all()
        for child in CHILDREN:
            assert len([r for r in rows if r.code == self.open_code and r.nickname in (child, f"{child} Two")]) <= 1
            assert len([r for r in rows if r.code == self.class_code and r.pupil_id == self.pupils[child][0]]) <= 1

    @invariant()
    def a_device_holds_at_most_one_child_per_round(self):
        for device in self.devices:
            page = device.get(f"/r/{self.class_code}")
            if page.status_code == 200:
                shown = re.search(r"You are ([^<,]+)", page.get_data(as_text=True)).group(1)
                assert shown in self.pupils


def test_one_child_is_never_two_students_whatever_the_devices_do(app, classroom, teacher):
    run_state_machine_as_test(lambda: DevicesMachine(app, classroom, teacher),
                              settings=settings(max_examples=60, stateful_step_count=18, deadline=None,
                                                suppress_health_check=list(HealthCheck)))


def roster_codes(teacher, pupils):
    """Each pupil's personal code on the class page, once its roster shows all `pupils` (the page may still be loading)."""
    rows = teacher.locator("table.roster tbody tr")
    expect(rows).to_have_count(pupils)
    return {row.locator("th").inner_text(): row.locator("td.pupil-code").inner_text() for row in rows.all()}


@pytest.mark.browser
def test_a_class_plays_a_round_and_a_pupil_changes_phone_mid_round(browser, live_server, teacher_page):
    teacher = teacher_page
    teacher.goto(f"{live_server}/teach/classes/")
    teacher.get_by_label("Name of the class").fill("Year 5 Oak")
    teacher.get_by_label("Pupils").fill("Zoë Smith, Siobhán O'Neill, Ava Kowalski, Dev Patel")  # pasted on one line
    teacher.get_by_role("button", name="Create the class").click()
    codes = roster_codes(teacher, 4)
    assert sorted(codes) == ["Ava K.", "Dev P.", "Siobhán O.", "Zoë S."]
    teacher.get_by_role("link", name="Print the slips (personal codes)").click()
    expect(teacher.locator(".slip")).to_have_count(4)
    teacher.go_back()
    teacher.get_by_role("link", name="New round for Year 5 Oak").click()
    teacher.get_by_label("Cards to place (class line, self-paced)").fill("3")
    teacher.get_by_label("Seconds per turn (0 = no timer)").fill("0")
    teacher.get_by_role("button", name="Create the round").click()
    join_code = teacher.locator(".join-code").first.inner_text().strip()

    def phone_of(name):
        page = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
        page.goto(f"{live_server}/join?code={join_code}")
        page.get_by_label(name).check()
        page.get_by_label("Your personal code (on your slip)").fill(codes[name])
        page.get_by_role("button", name="Join").click()
        expect(page.locator(".student-title")).to_contain_text(f"You are {name}")
        return page

    zoe, dev = phone_of("Zoë S."), phone_of("Dev P.")
    expect(teacher.locator(".waiting-for")).to_contain_text("Not here yet (2 of the class): Ava K., Siobhán O.")
    teacher.get_by_role("button", name="Start the round").click()
    for page in (zoe, dev):
        page.locator("#live form.place-form label.gap").first.tap()
        page.get_by_role("button", name="Place card").tap()
        expect(page.locator("#live form.place-form")).to_have_count(0, timeout=5000)
    teacher.get_by_role("button", name="Next card").click()
    standing = zoe.locator(".my-standing")
    expect(standing).to_contain_text("You:")
    points = standing.inner_text()
    new_phone = phone_of("Zoë S.")  # Zoë's phone broke: she picks her name on another one
    expect(zoe.locator(".big-status")).to_contain_text("on another device now", timeout=5000)
    expect(new_phone.locator(".my-standing")).to_have_text(points)
    expect(teacher.locator(".waiting-for").first).to_contain_text("Still to answer (2): Zoë S., Dev P.")


def move_timetable(database_url, title, **moments):
    """Move a homework's opening or closing time in the live server's database, as if the clock had moved on."""
    engine = create_engine(database_url)
    with engine.begin() as connection:
        round_id, settings = connection.execute(text("SELECT id, settings FROM rounds WHERE title = :title"),
                                                {"title": title}).one()
        settings = {**(json.loads(settings) if isinstance(settings, str) else settings), **moments}
        connection.execute(text("UPDATE rounds SET settings = :settings, version = version + 1 WHERE id = :id"),
                           {"settings": json.dumps(settings), "id": round_id})
    engine.dispose()


@pytest.mark.browser
def test_a_classs_homework_opens_and_closes_on_time_and_the_teacher_reads_the_progress(
        browser, live_server, teacher_page, loaded_database_url):
    teacher = teacher_page
    teacher.goto(f"{live_server}/teach/classes/")
    teacher.get_by_label("Name of the class").fill("Year 5 Oak")
    teacher.get_by_label("Pupils").fill("Zoë Smith\nDev Patel")
    teacher.get_by_role("button", name="Create the class").click()
    codes = roster_codes(teacher, 2)
    teacher.get_by_role("link", name="New round for Year 5 Oak").click()
    teacher.get_by_label("Title").fill("Weights homework")
    teacher.get_by_label("Format").select_option("self_paced")
    teacher.get_by_label("Cards to place (class line, self-paced)").fill("3")
    teacher.get_by_label("Homework opens (optional)").fill("2099-01-15T08:00")
    teacher.get_by_label("Homework closes (optional)").fill("2099-01-22T17:30")
    teacher.get_by_label("Time zone of these times").select_option("Europe/London")
    teacher.get_by_role("button", name="Create the round").click()
    expect(teacher.locator(".timetable")).to_contain_text("opens Thursday 15 January at 08:00 (Europe/London)")
    join_code = teacher.locator(".join-code").first.inner_text().strip()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{live_server}/join?code={join_code}")
    phone.get_by_label("Zoë S.").check()
    phone.get_by_label("Your personal code (on your slip)").fill(codes["Zoë S."])
    phone.get_by_role("button", name="Join").click()
    expect(phone.locator(".big-status")).to_contain_text("This homework opens on Thursday 15 January at 08:00")
    expect(phone.locator("form.place-form")).to_have_count(0)  # nothing to press

    move_timetable(loaded_database_url, "Weights homework", opens_at=time.time() - 60)
    phone.reload()
    for move in range(2):  # two of the three cards before the homework closes
        phone.locator("form.place-form label.gap").first.tap()
        with phone.expect_navigation():
            phone.get_by_role("button", name="Place card").tap()
        expect(phone.locator(".score-bar")).to_contain_text(f" of {move + 1}")
    move_timetable(loaded_database_url, "Weights homework", closes_at=time.time() - 1)
    phone.reload()
    expect(phone.locator(".big-status")).to_contain_text("This homework closed on ")  # the moment we moved it to
    expect(phone.locator("form.place-form")).to_have_count(0)

    # The round's page redraws itself when it sees the homework closed: read the progress in a tab of its own.
    teacher = teacher.context.new_page()
    teacher.goto(f"{live_server}/teach/classes/")
    teacher.get_by_role("link", name="Year 5 Oak").click()
    teacher.get_by_role("link", name="Progress over the term").click()
    teacher.locator("[data-figure] .main-svg").first.wait_for(timeout=10_000)  # the chart is drawn
    expect(teacher.locator("table.review").first).to_contain_text("Weights homework")
    with teacher.expect_download() as download:
        teacher.get_by_role("link", name="Download the progress (CSV)").click()
    lines = download.value.path().read_text(encoding="utf-8-sig").splitlines()
    assert lines[0] == "pupil,date,round,sorted_by,right,answered,percent_right" and lines[1].startswith("Zoë S.,")
