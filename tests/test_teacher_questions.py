"""Questions a teacher writes: checked forms, kept with the teacher, run live with generated ones, tried solo, shared."""

import csv
import io
import re

import pytest

from webapp.extensions import db
from webapp.models import Round, TeacherQuestion

CHOICE = {"prompt": "Which came first?", "option_1": "Trilobites", "option_2": "Dinosaurs", "option_3": "Mammoths",
          "right": "1", "explanation": "Trilobites lived 300 million years before the first dinosaurs."}
ORDER = {"prompt": "Put them in time order, oldest first.", "item_1": "Anomalocaris", "item_2": "Dimetrodon",
         "item_3": "Stegosaurus", "item_4": "Woolly mammoth", "explanation": "Cambrian, Permian, Jurassic, Quaternary."}


def prefixed(kind, data):
    """Return a question form's data as the page posts it (each field named with the kind)."""
    return {f"{kind}-{key}": value for key, value in data.items()}


def write(teacher, kind, data):
    return teacher.post(f"/teach/questions/new/{kind}", data=prefixed(kind, data))


def stored(app):
    with app.app_context():
        return [(q.kind, q.prompt, q.options, q.answer) for q in db.session.query(TeacherQuestion).order_by(TeacherQuestion.id)]


def test_a_teacher_writes_both_kinds_and_finds_them_again(app, teacher):
    assert write(teacher, "choice", CHOICE).status_code == 302
    assert write(teacher, "order", ORDER).status_code == 302
    assert stored(app) == [("choice", CHOICE["prompt"], ["Trilobites", "Dinosaurs", "Mammoths"], 0),
                           ("order", ORDER["prompt"], ["Anomalocaris", "Dimetrodon", "Stegosaurus", "Woolly mammoth"],
                            None)]
    page = teacher.get("/teach/questions/").get_data(as_text=True)
    assert "Which came first?" in page and "Anomalocaris → Dimetrodon → Stegosaurus → Woolly mammoth" in page


@pytest.mark.parametrize(("kind", "data", "error"), [
    ("choice", {**CHOICE, "prompt": ""}, "Write the question."),
    ("choice", {**CHOICE, "option_2": "", "option_3": ""}, "at least two options"),
    ("choice", {**CHOICE, "right": "4"}, "The right option is empty"),
    ("choice", {**CHOICE, "option_2": "trilobites"}, "Two options are the same"),
    ("choice", {**CHOICE, "right": "9"}, "Not a valid choice"),
    ("order", {**ORDER, "item_2": "", "item_3": "", "item_4": ""}, "at least two items"),
    ("order", {**ORDER, "prompt": "x" * 301}, "at most 300"),
])
def test_a_question_that_cannot_work_is_refused_beside_the_field(app, teacher, kind, data, error):
    response = write(teacher, kind, data)
    assert response.status_code == 400 and error in response.get_data(as_text=True)
    assert stored(app) == []


def test_an_unknown_kind_is_a_404(teacher):
    assert write(teacher, "essay", CHOICE).status_code == 404


def test_a_question_is_changed_and_deleted_by_its_teacher_only(classroom, app, teacher):
    write(teacher, "choice", CHOICE)
    with app.app_context():
        question_id = db.session.query(TeacherQuestion).one().id
    form = teacher.get(f"/teach/questions/{question_id}/edit").get_data(as_text=True)
    assert 'value="Trilobites"' in form and 'id="choice-option_1"' in form
    edited = teacher.post(f"/teach/questions/{question_id}/edit", data=prefixed("choice", {**CHOICE, "right": "2"}))
    assert edited.status_code == 302
    assert stored(app)[0][3] == 1
    other = app.test_client()
    classroom.register(other, email="other@school.org")
    assert other.get(f"/teach/questions/{question_id}/edit").status_code == 403
    assert other.post(f"/teach/questions/{question_id}", data={"action": "delete"}).status_code == 403
    assert teacher.post(f"/teach/questions/{question_id}", data={"action": "explode"}).status_code == 400
    assert teacher.post(f"/teach/questions/{question_id}", data={"action": "delete"}).status_code == 302
    assert stored(app) == []


def test_a_live_quiz_mixes_the_teachers_questions_with_generated_ones(classroom, app, teacher):
    write(teacher, "choice", CHOICE)
    write(teacher, "order", ORDER)
    with app.app_context():
        ids = [str(q.id) for q in db.session.query(TeacherQuestion)]
    response = teacher.post("/teach/questions/live", data={"question": ids, "generated": "4", "turn_seconds": "20",
                                                           "leaderboard": "end", "title": "Week 3 quiz"})
    rnd = classroom.round(response.headers["Location"])
    prompts = [q["prompt"] for q in rnd.state["questions"]]
    assert CHOICE["prompt"] in prompts and ORDER["prompt"] not in prompts  # put-in-order ones are played solo
    assert len(prompts) == 5 and rnd.title == "Week 3 quiz" and rnd.settings["turn_seconds"] == 20
    mine = next(q for q in rnd.state["questions"] if q["prompt"] == CHOICE["prompt"])
    assert next(o["text"] for o in mine["options"] if o["id"] == mine["answer"]) == "Trilobites"
    # A student never sees the right answer before the reveal.
    teacher.post(response.headers["Location"] + "/control", data={"action": "start"})


def test_a_live_quiz_needs_a_multiple_choice_question_of_the_teachers(classroom, app, teacher):
    write(teacher, "order", ORDER)
    with app.app_context():
        order_id = str(db.session.query(TeacherQuestion).one().id)
    for data in ({"question": [order_id]}, {}, {"question": ["999"]}, {"question": ["abc"]}):
        response = teacher.post("/teach/questions/live", data={"title": "Quiz", **data})
        assert response.status_code in (400, 404)
    with app.app_context():
        assert db.session.query(Round).count() == 0


def test_the_teacher_tries_their_questions_solo_put_in_order_ones_shuffled(app, teacher):
    write(teacher, "order", ORDER)
    with app.app_context():
        order_id = str(db.session.query(TeacherQuestion).one().id)
    response = teacher.post("/teach/questions/try", data={"question": [order_id]})
    page = teacher.get(response.headers["Location"]).get_data(as_text=True)
    assert ORDER["prompt"] in page
    shown = [name for name in re.findall(r"(Anomalocaris|Dimetrodon|Stegosaurus|Woolly mammoth)", page)][:4]
    assert sorted(shown) == sorted(ORDER[f"item_{i}"] for i in range(1, 5))
    assert shown != [ORDER[f"item_{i}"] for i in range(1, 5)]  # never shown in the right order


def test_a_colleague_copies_a_shared_question(classroom, app, teacher):
    write(teacher, "choice", CHOICE)
    with app.app_context():
        question_id = db.session.query(TeacherQuestion).one().id
    page = teacher.post(f"/teach/questions/{question_id}", data={"action": "share"}, follow_redirects=True)
    link = re.search(r"http://localhost(/teach/questions/shared/[\w-]+)", page.get_data(as_text=True)).group(1)
    colleague = app.test_client()
    classroom.register(colleague, email="colleague@school.org")
    assert "Copy into my questions" in colleague.get(link).get_data(as_text=True)
    assert colleague.post(link).status_code == 302
    with app.app_context():
        owners = {q.teacher_id for q in db.session.query(TeacherQuestion)}
    assert len(owners) == 2
    assert colleague.get("/teach/questions/shared/nope").status_code == 404


def test_a_lessons_live_quiz_can_mix_in_the_teachers_questions(classroom, app, teacher):
    from webapp.learn import content as lessons

    write(teacher, "choice", CHOICE)
    slug, number = next((s, n) for s in lessons.lesson_slugs() for n, a in enumerate(lessons.load(s)["meta"]["activities"])
                        if a["type"] == "quiz")
    response = teacher.post(f"/lessons/{slug}/activities/{number}/round", data={"count": "20", "mine": "yes"})
    assert CHOICE["prompt"] in [q["prompt"] for q in classroom.round(response.headers["Location"]).state["questions"]]


def answer_quiz(student, game_url, right):
    """Answer the current question of a student's quiz: rightly or wrongly (a put-in-order one by its positions)."""
    page = student.get(game_url).get_data(as_text=True)
    question = re.search(r'name="question" value="(\w+)"', page).group(1)
    if "position-" in page:
        positions = re.findall(r'id="position-(\w+)"', page)
        wanted = ["Anomalocaris", "Stegosaurus", "Woolly mammoth"]
        text = dict(re.findall(r'for="position-(\w+)">Position of ([^<]+)<', page))
        order = sorted(positions, key=lambda o: wanted.index(text[o]))
        if not right:
            order = order[::-1]
        data = {"question": question, **{f"position-{o}": str(order.index(o) + 1) for o in positions}}
    else:
        options = dict(re.findall(r'name="choice" value="(\w+)" required> ([^<\n]+)', page))
        pick = next(o for o, t in options.items() if (t.strip() == "Trilobites") == right)
        data = {"question": question, "choice": pick}
    return student.post(game_url + "/answer", data=data)


def test_quiz_homework_asks_put_in_order_questions_and_reports_each_student(classroom, app, teacher):
    url, code = classroom.quiz_homework(teacher)
    eve, fin = classroom.join(code, "Eve"), classroom.join(code, "Fin")
    classroom.join(code, "Gus")
    eve_game = eve.get(f"/r/{code}").headers["Location"]
    assert eve_game.startswith("/quiz/")
    waiting = eve.get(eve_game).get_data(as_text=True)
    assert "not open yet" in waiting and 'name="question"' not in waiting  # nothing to answer before it opens
    teacher.post(url + "/control", data={"action": "start"})
    for _ in range(2):
        assert answer_quiz(eve, eve_game, right=True).status_code == 302
    fin_game = fin.get(f"/r/{code}").headers["Location"]
    assert answer_quiz(fin, fin_game, right=False).status_code == 302
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert re.search(r"<td>Eve</td><td>finished</td><td>2 of 2</td>", panel)
    assert re.search(r"<td>Fin</td><td>part way \(1 of 2\)</td>", panel)
    assert re.search(r"<td>Gus</td><td>not started</td>", panel)
    assert "Questions, hardest first" in panel
    rows = list(csv.DictReader(io.StringIO(teacher.get(url + "/results.csv?table=answers").get_data().decode("utf-8-sig"))))
    eve_rows = [row for row in rows if row["student"] == "Eve"]
    assert {row["result"] for row in eve_rows} == {"right"}
    assert any(row["answer"] == "Anomalocaris → Stegosaurus → Woolly mammoth" for row in eve_rows)
    teacher.post(url + "/control", data={"action": "end"})
    closed = fin.get(fin_game).get_data(as_text=True)
    assert "closed" in closed and 'name="question"' not in closed  # nothing to answer once it closed
    late = fin.post(fin_game + "/answer", data={"question": "q2", "choice": "t1o0"})
    assert late.status_code == 409 and "closed" in late.get_data(as_text=True)


def test_a_duplicated_quiz_homework_asks_the_same_questions(classroom, app, teacher):
    url, _code = classroom.quiz_homework(teacher)
    copy_url = teacher.post(url + "/reuse", data={"action": "duplicate"}).headers["Location"]
    original, copy = classroom.round(url), classroom.round(copy_url)
    assert copy.format == "quiz_homework" and copy.state == original.state


def test_quiz_homework_keeps_its_opening_and_closing_times(classroom, app, teacher):
    url, code = classroom.quiz_homework(teacher, opens_at="2099-03-02T09:00", timezone="Europe/Paris")
    assert "opens Monday 2 March at 09:00 (Europe/Paris)" in teacher.get(url).get_data(as_text=True)
    eve = classroom.join(code, "Eve")
    page = eve.get(eve.get(f"/r/{code}").headers["Location"]).get_data(as_text=True)
    assert "This homework opens on Monday 2 March at 09:00 (Europe/Paris)." in page


def test_a_live_quiz_refuses_homework_times(app, teacher):
    write(teacher, "choice", CHOICE)
    with app.app_context():
        question_id = str(db.session.query(TeacherQuestion).one().id)
    response = teacher.post("/teach/questions/live", data={"question": [question_id], "title": "Now",
                                                           "opens_at": "2099-03-02T09:00"})
    assert response.status_code == 400 and "for quiz homework" in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/teach/questions/live", "/teach/questions/homework"])
def test_the_teachers_questions_can_be_run_for_dino_names_only(classroom, app, teacher, path):
    write(teacher, "choice", CHOICE)
    with app.app_context():
        ids = [str(q.id) for q in db.session.query(TeacherQuestion)]
    assert "Students choose a dino name" in teacher.get("/teach/questions/").get_data(as_text=True)
    response = teacher.post(path, data={"question": ids, "title": "Named", "dino_names": "y"})
    rnd = classroom.round(response.headers["Location"])
    assert rnd.settings["dino_names"] is True
    assert app.test_client().post("/join", data={"code": rnd.code, "name": "Ada"}).status_code == 400
    class_url, _pupils = classroom.new_class(teacher)
    for_class = teacher.post(path, data={"question": ids, "title": "7B", "dino_names": "y",
                                         "for_class": class_url.rsplit("/", 1)[1]})
    assert classroom.round(for_class.headers["Location"]).settings["dino_names"] is False  # a class plays as listed
