"""Speed points and answer streaks in live rounds: the pure rule, and every screen and file that shows points."""

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from conftest import posted, statements_run
from hypothesis import given
from hypothesis import strategies as st

from webapp.classroom import push
from webapp.classroom.formats import format_of
from webapp.extensions import db
from webapp.games import classline
from webapp.games.rounds import points
from webapp.models import Answer, Round

seconds = st.floats(min_value=0, max_value=1000, allow_nan=False)
turn_seconds = st.integers(min_value=0, max_value=600)


# ------------------------------------------------------------------------------------------------ the pure rule


@given(seconds, seconds, turn_seconds)
def test_a_right_answer_scores_no_more_the_later_it_comes(first, second, turn):
    early, late = sorted((first, second))
    assert points.speed_points(True, early, turn) >= points.speed_points(True, late, turn)


@given(seconds, turn_seconds)
def test_a_right_answer_scores_500_to_1000_and_a_wrong_or_unjudged_one_nothing(taken, turn):
    assert 500 <= points.speed_points(True, taken, turn) <= 1000
    assert points.speed_points(False, taken, turn) == points.speed_points(None, taken, turn) == 0


@pytest.mark.parametrize(("taken", "turn", "scored"), [
    (0, 20, 1000), (10, 20, 750), (20, 20, 500), (35, 20, 500),  # on extra time: still 500
    (15, 0, 750), (30, 0, 500),  # no timer: measured against 30 seconds
])
def test_speed_points_follow_kahoots_rule(taken, turn, scored):
    assert points.speed_points(True, taken, turn) == scored


def test_a_round_set_up_before_the_setting_scores_a_point_per_right_answer():
    assert points.rule_of({}) is points.rule_of({"points": "right"}) is points.RIGHT_ANSWERS
    assert points.rule_of({"points": "speed"}).points(True, 0, 30) == 1000
    assert points.RIGHT_ANSWERS.points(True, 25, 30) == 1 and points.RIGHT_ANSWERS.points(False, 1, 30) == 0


@pytest.mark.parametrize(("answers", "streak"), [
    ({0: True, 1: True, 2: True}, 3),
    ({0: True, 1: False, 2: True}, 1),  # a wrong answer breaks it
    ({0: True, 1: True}, 0),  # the last turn shown was missed
    ({0: True, 2: True}, 1),  # a missed turn in between breaks it
    ({0: True, 1: True, 2: True, 3: True}, 3),  # turn 3 is still open: not shown, not counted
    ({0: True, 1: True, 2: None}, 0),  # an answer to a shown turn never judged (the turn was skipped) is no right one
])
def test_a_streak_counts_right_answers_in_a_row_up_to_the_last_turn_shown(answers, streak):
    assert points.streak([0, 1, 2], answers) == streak


def test_a_skipped_turn_neither_breaks_nor_lengthens_a_streak():
    assert points.streak([0, 2, 3], {0: True, 1: None, 2: True, 3: True}) == 3


# ------------------------------------------------------------------------------------------------ live rounds


def answer(student, code, right, app, url):
    """Have a student place the current card of a class line right or wrong."""
    with app.app_context():
        state = db.session.get(Round, int(url.rsplit("/", 1)[1])).state
    first, last = classline.right_gaps(state)
    gap = first if right else (last + 1 if first == 0 else first - 1)
    card = re.search(r'name="card" value="([^"]+)"', student.get(f"/r/{code}").get_data(as_text=True)).group(1)
    assert student.post(f"/r/{code}/answer", data={"gap": str(gap), "card": card}).status_code in (200, 302)


def answer_after(student, code, right, app, url, classroom, taken):
    """Have a student answer `taken` seconds into the turn (the turn's clock is moved back that far)."""
    classroom.set_round(url, turn_started_at=datetime.now(UTC) - timedelta(seconds=taken))
    answer(student, code, right, app, url)


def control(teacher, url, action):
    assert teacher.post(url + "/control", data={"action": action}).status_code in (200, 302)


def csv_rows(teacher, url, table):
    data = teacher.get(f"{url}/results.csv?table={table}").get_data()
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def stage_top(teacher, url):
    """Return the stage's top list after a reveal as [(name, points words, streak words)]."""
    html = teacher.get(f"{url}/stage/panel").get_data(as_text=True)
    return re.findall(r'class="s-who">([^<]+)</span> <span class="s-points">([^<]+)</span>'
                      r'(?: <span class="s-streak">· ([^<]+)</span>)?', html)


@pytest.fixture
def speed_round(classroom, teacher):
    """A class line scored by speed, 30 s a turn, three students in and started."""
    return classroom.play_started(teacher, names=("Ada", "Ben", "Cy"), points="speed", turn_seconds="30", count="4")


def test_the_faster_right_answer_ranks_first_on_the_leaderboard_the_stage_and_the_csv(speed_round, classroom, app,
                                                                                      teacher):
    url, code, (ada, ben, _cy) = speed_round
    answer_after(ben, code, True, app, url, classroom, taken=12)
    answer_after(ada, code, True, app, url, classroom, taken=3)
    control(teacher, url, "reveal")
    with app.app_context():
        taken = dict(db.session.execute(db.select(Answer.student_id, Answer.seconds)).all())
    fast, slow = sorted(taken.values())
    assert fast >= 3 and slow >= 12
    ada_points, ben_points = points.speed_points(True, fast, 30), points.speed_points(True, slow, 30)
    assert 900 < ada_points <= 950 and 750 < ben_points <= 800

    teacher_page = teacher.get(f"{url}/panel").get_data(as_text=True)
    assert teacher_page.index(f"<strong>Ada</strong>: {ada_points} points") < \
        teacher_page.index(f"<strong>Ben</strong>: {ben_points} points")
    assert stage_top(teacher, url) == [("Ada", f"{ada_points} pts", ""), ("Ben", f"{ben_points} pts", "")]
    students = csv_rows(teacher, url, "students")
    assert [(row["student"], row["points"], row["right"]) for row in students] == [
        ("Ada", str(ada_points), "1"), ("Ben", str(ben_points), "1"), ("Cy", "0", "0")]
    assert {row["student"]: row["points"] for row in csv_rows(teacher, url, "answers")} == {
        "Ada": str(ada_points), "Ben": str(ben_points), "Cy": "0"}  # Cy missed the card: no answer, 0
    panel = ada.get(f"/r/{code}/panel").get_data(as_text=True)
    assert f"You: {ada_points} points · number 1 of 3" in panel


def test_streaks_count_right_answers_in_a_row_and_a_wrong_or_missed_turn_breaks_them(speed_round, classroom, app,
                                                                                    teacher):
    url, code, (ada, ben, cy) = speed_round
    for turn, (ada_right, ben_right, cy_right) in enumerate([(True, True, False), (True, True, True),
                                                             (True, None, True)]):
        if turn:
            control(teacher, url, "next")
        for student, right in ((ada, ada_right), (ben, ben_right), (cy, cy_right)):
            if right is not None:
                answer(student, code, right, app, url)
        if ben_right is None:
            control(teacher, url, "reveal")  # Ben missed this card: the teacher reveals it
        if turn == 1:
            assert [row[2] for row in stage_top(teacher, url)] == ["2 in a row", "2 in a row", ""]
    assert {name: streak for name, _, streak in stage_top(teacher, url)} == {  # Ben and Cy: who was quicker ranks
        "Ada": "3 in a row", "Cy": "2 in a row", "Ben": ""}
    phones = {name: student.get(f"/r/{code}/panel").get_data(as_text=True)
              for name, student in (("Ada", ada), ("Ben", ben), ("Cy", cy))}
    assert 'data-verdict="right" data-streak="3"' in phones["Ada"] and "number 1 of 3 · 3 in a row" in phones["Ada"]
    assert 'data-verdict="right" data-streak="2"' in phones["Cy"] and " · 2 in a row" in phones["Cy"]
    assert "You did not answer." in phones["Ben"] and "data-streak" not in phones["Ben"]
    assert re.search(r"data-standing>You: [\d,]+ points · number [23] of 3</p>", phones["Ben"])
    assert re.search(r"<strong>Ada</strong>: [\d,]+ points · 3 in a row</li>",
                     teacher.get(f"{url}/panel").get_data(as_text=True))  # the teacher's list too
    with app.test_request_context():  # the shared view holds each student's tally, built once per version
        rnd = db.session.get(Round, int(url.rsplit("/", 1)[1]))
        view = push.shared_view(rnd)
        assert sorted(tally.streak for tally in view["tallies"].values()) == [0, 2, 3]


def test_the_default_scores_a_point_per_right_answer_and_names_no_streak(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, count="4")
    for turn in range(2):
        if turn:
            control(teacher, url, "next")
        answer(ada, code, True, app, url)
        answer(ben, code, turn == 0, app, url)
    assert stage_top(teacher, url) == [("Ada", "2 pts", ""), ("Ben", "1 pt", "")]
    panel = ada.get(f"/r/{code}/panel").get_data(as_text=True)
    assert "You: 2 points · number 1 of 2</p>" in panel and "data-streak" not in panel and "in a row" not in panel
    assert list(csv_rows(teacher, url, "students")[0]) == [
        "round", "date", "place", "student", "points", "answered", "out_of", "accuracy_percent", "average_seconds"]
    assert "points" not in csv_rows(teacher, url, "answers")[0]
    assert format_of(classroom.round(url)).speed_points


def test_a_leaderboard_never_shown_shows_no_streak_to_students_or_the_stage(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, points="speed", leaderboard="never", count="4")
    for turn in range(2):
        if turn:
            control(teacher, url, "next")
        answer(ada, code, True, app, url)
        answer(ben, code, True, app, url)
    panel = ada.get(f"/r/{code}/panel").get_data(as_text=True)
    stage = teacher.get(f"{url}/stage/panel").get_data(as_text=True)
    assert "data-streak" not in panel and "in a row" not in panel and "in a row" not in stage and "s-points" not in stage


def test_a_copy_of_the_round_keeps_speed_points(speed_round, classroom, teacher):
    url, _code, _students = speed_round
    copy = posted(teacher, url + "/reuse", {"action": "duplicate"})
    assert classroom.round(copy).settings["points"] == "speed"
    assert re.search(r'<option selected value="speed">', teacher.get(copy + "/edit").get_data(as_text=True))


@pytest.mark.parametrize(("changes", "said"), [
    ({"points": "turbo"}, "Choose how answers score: 1 point per right answer or speed points."),
    ({"points": "speed", "format": "team"}, ("Speed points are for rounds where the whole class answers the same "
                                             "card at once (class line and diet sort)")),
])
def test_a_points_setting_that_does_not_apply_is_refused_beside_the_field(classroom, app, teacher, changes, said):
    with app.app_context():
        before = db.session.query(Round).count()
    response = teacher.post("/teach/rounds/new", data={**classroom.ROUND, **changes})
    assert response.status_code == 400
    assert re.search(r'id="points-error">([^<]*)<', response.get_data(as_text=True)).group(1).startswith(said)
    with app.app_context():
        assert db.session.query(Round).count() == before


def test_a_live_quiz_of_the_teachers_questions_can_score_by_speed(classroom, app, teacher):
    teacher.post("/teach/questions/new/choice", data={
        "choice-prompt": "Which came first?", "choice-option_1": "Trilobites", "choice-option_2": "Dinosaurs",
        "choice-right": "1"})
    with app.app_context():
        from webapp.models import TeacherQuestion

        ids = [str(q.id) for q in db.session.query(TeacherQuestion)]
    url = posted(teacher, "/teach/questions/live", {"question": ids, "title": "Quick", "points": "speed",
                                                     "turn_seconds": "20", "leaderboard": "every"})
    assert classroom.round(url).settings["points"] == "speed"


def test_the_shared_view_of_a_speed_round_takes_no_more_queries_than_the_default(classroom, app, teacher):
    counted = {}
    for rule in ("right", "speed"):
        url, code, (ada, ben) = classroom.play_started(teacher, points=rule, count="4")
        answer(ada, code, True, app, url)
        answer(ben, code, True, app, url)
        with app.test_request_context():
            rnd = db.session.get(Round, int(url.rsplit("/", 1)[1]))
            with statements_run(app) as statements:
                push.build_shared_view(rnd, None)
            counted[rule] = len(statements)
    assert counted["speed"] <= counted["right"]


@pytest.mark.browser
def test_the_stage_and_a_phone_show_speed_points_and_a_streak_after_a_reveal(browser, live_server, classroom, app,
                                                                             teacher):
    from test_stage import FITS

    url, code = classroom.new_round(teacher, points="speed", turn_seconds="30", count="3")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{live_server}/join?code={code}")
    phone.get_by_label("Your name").fill("Zoë S.")
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text("You're in!").wait_for()
    ben = classroom.join(code, "Ben")
    control(teacher, url, "start")
    for turn in range(2):
        if turn:
            control(teacher, url, "next")
        with app.app_context():
            first, _ = classline.right_gaps(db.session.get(Round, int(url.rsplit("/", 1)[1])).state)
        phone.reload()  # the round is driven from this test's own app, whose changes reach no stream of the server's
        phone.locator("label.gap").nth(first).tap()
        phone.get_by_role("button", name="Place card").tap()
        phone.locator("form.place-form").wait_for(state="detached", timeout=5000)
        answer(ben, code, turn == 0, app, url)  # everyone in: the card is revealed
    phone.reload()
    phone.locator("[data-verdict=right][data-streak='2']").wait_for(timeout=5000)
    phone.locator("[data-standing]").filter(has_text="· 2 in a row").wait_for(timeout=5000)
    phone.screenshot(path="/tmp/speed-points-phone-390x844.png", full_page=True)

    stage = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    stage.goto(f"{live_server}/teach/login")
    stage.get_by_label("Email").fill("teacher@school.org")
    stage.get_by_label("Password").fill("correct horse 1")
    stage.get_by_role("button", name="Log in").click()
    stage.goto(f"{live_server}{url}/stage")
    top = stage.locator(".s-top-five li")
    assert top.first.locator(".s-who").inner_text() == "Zoë S."  # two right answers beat Ben's one
    assert re.fullmatch(r"1,\d{3} pts", top.first.locator(".s-points").inner_text())
    assert top.first.locator(".s-streak").inner_text() == "· 2 in a row" and top.first.locator(".s-streak").is_visible()
    fits = stage.evaluate(FITS)
    assert fits["scrollHeight"] <= fits["innerHeight"] and fits["outside"] == [], fits
    stage.screenshot(path="/tmp/speed-points-stage-1280x720.png")
