"""Results files a spreadsheet opens right: numbered as on screen, the round named, every student, UTF-8 with a BOM, .xlsx."""

import codecs
import csv
import io

import pandas as pd
import pytest
from markupsafe import escape

from webapp.classroom.formats import FORMATS
from webapp.extensions import db
from webapp.models import Round


def download(teacher, url, suffix="/results.csv"):
    """Return a results download's response, checked to be a file."""
    response = teacher.get(url + suffix)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert "attachment" in response.headers["Content-Disposition"]
    return response


def csv_rows(teacher, url, table=None):
    """Return a results CSV's rows as dicts (the byte-order mark checked and removed)."""
    data = download(teacher, url, "/results.csv" + (f"?table={table}" if table else "")).get_data()
    assert data.startswith(codecs.BOM_UTF8)
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def test_every_student_has_a_row_per_card_numbered_as_on_screen_and_a_missed_card_is_missed(classroom, app, teacher):
    url, code, (zoe, siobhan, _cy) = classroom.play_started(teacher, ("Zoë", "Siobhán", "Cy"), count="3",
                                                           title="Poids des dinosaures")
    zoe.post(f"/r/{code}/answer", data={"gap": "0"})
    siobhan.post(f"/r/{code}/answer", data={"gap": "1"})
    teacher.post(url + "/control", data={"action": "reveal"})  # Cy gave no answer to card 1
    teacher.post(url + "/control", data={"action": "next"})
    teacher.post(url + "/control", data={"action": "skip"})  # card 2 skipped: nobody missed it
    teacher.post(url + "/control", data={"action": "end"})
    rows = csv_rows(teacher, url)
    rnd = classroom.round(url)
    assert list(rows[0]) == ["round", "date", "card_number", "student", "animal", "true_value", "place", "result",
                             "seconds"]
    assert {row["round"] for row in rows} == {"Poids des dinosaures"}
    assert {row["date"] for row in rows} == {rnd.created_at.date().isoformat()}
    assert [(row["card_number"], row["student"]) for row in rows] == [("1", "Zoë"), ("1", "Siobhán"), ("1", "Cy")]
    cy_row = rows[2]
    assert cy_row["place"] == "no answer" and cy_row["result"] == "missed"
    assert cy_row["animal"] == rows[0]["animal"] and cy_row["true_value"] == rows[0]["true_value"]
    assert {rows[0]["result"], rows[1]["result"]} <= {"right", "wrong"}
    students = csv_rows(teacher, url, "students")
    assert [row["student"] for row in sorted(students, key=lambda r: r["student"])] == ["Cy", "Siobhán", "Zoë"]
    assert {row["out_of"] for row in students} == {"1"}
    assert next(row for row in students if row["student"] == "Cy")["answered"] == "0"


def test_the_file_is_named_for_the_round_and_its_date(classroom, app, teacher):
    url, _code, _students = classroom.play_started(teacher, title="Größen: Jurassic!", count="3")
    rnd = classroom.round(url)
    disposition = download(teacher, url).headers["Content-Disposition"]
    day = rnd.created_at.date().isoformat()
    assert f"filename*=UTF-8''{day}-gr%C3%B6%C3%9Fen-jurassic-{rnd.id}.csv" in disposition
    assert f'filename="{day}-' in disposition or f"filename={day}-" in disposition  # a plain name for old browsers
    assert f"-{rnd.id}-students.csv" in download(teacher, url, "/results.csv?table=students").headers["Content-Disposition"]


def test_the_workbook_holds_every_table_with_names_intact(classroom, app, teacher):
    url, code, (zoe, _ben) = classroom.play_started(teacher, ("Zoë", "Ben"), count="3")
    zoe.post(f"/r/{code}/answer", data={"gap": "0"})
    teacher.post(url + "/control", data={"action": "reveal"})
    response = download(teacher, url, "/results.xlsx")
    assert response.mimetype == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    sheets = pd.read_excel(io.BytesIO(response.get_data()), sheet_name=None)
    assert list(sheets) == ["Answers", "Students"]
    answers = sheets["Answers"]
    assert list(answers["student"]) == ["Zoë", "Ben"] and list(answers["result"])[1] == "missed"
    assert list(answers["card_number"]) == [1, 1]


def test_a_live_quiz_numbers_questions_and_gives_the_right_answer(classroom, app, teacher):
    url, code = classroom.live_quiz(teacher)
    ada = classroom.join(code, "Ada")
    classroom.join(code, "Ben")
    teacher.post(url + "/control", data={"action": "start"})
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    teacher.post(url + "/control", data={"action": "reveal"})
    rows = csv_rows(teacher, url)
    assert list(rows[0])[:7] == ["round", "date", "question_number", "student", "question", "right_answer", "answer"]
    assert [(row["question_number"], row["student"]) for row in rows] == [("1", "Ada"), ("1", "Ben")]
    assert rows[0]["right_answer"] and rows[0]["right_answer"] == rows[1]["right_answer"]
    assert rows[1]["answer"] == "no answer" and rows[1]["result"] == "missed"
    assert "question_id" not in rows[0]


def test_a_team_round_names_teams_and_its_passes(classroom, app, teacher):
    url, _code, _students = classroom.play_started(teacher, ("Ada", "Ben", "Cy", "Di"), format="team", teams="2")
    teacher.post(url + "/control", data={"action": "skip"})
    rows = csv_rows(teacher, url)
    assert rows[0]["card_number"] == "1" and rows[0]["team"] == "Team 1" and rows[0]["result"] == "missed"
    assert {row["team"] for row in csv_rows(teacher, url, "students")} == {"Team 1", "Team 2"}


def test_homework_has_each_students_progress_and_every_card(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="self_paced", characteristic="mass", count="3", title="Homework")
    eve, fin = classroom.join(code, "Eve"), classroom.join(code, "Fin")
    classroom.join(code, "Gus")
    teacher.post(url + "/control", data={"action": "start"})
    eve_game = eve.get(f"/r/{code}").headers["Location"]
    for _ in range(3):
        eve.post(eve_game + "/answer", data={"gap": "0"})
    fin_game = fin.get(f"/r/{code}").headers["Location"]
    fin.post(fin_game + "/answer", data={"gap": "1"})
    students = {row["student"]: row for row in csv_rows(teacher, url)}
    assert students["Eve"]["status"] == "finished"
    assert students["Fin"]["status"] == "part way (1 of 3)"
    assert students["Gus"]["status"] == "not started" and students["Gus"]["answered"] == "0"
    cards = csv_rows(teacher, url, "answers")
    assert [(row["student"], row["card_number"]) for row in cards] == [
        (name, str(n)) for name in ("Eve", "Fin", "Gus") for n in (1, 2, 3)]
    eve_rows = [row for row in cards if row["student"] == "Eve"]
    assert all(row["animal"] and row["true_value"] and row["result"].startswith(("right", "wrong")) for row in eve_rows)
    assert eve_rows[0]["answer"].startswith("before ")
    fin_rows = [row for row in cards if row["student"] == "Fin"]
    assert fin_rows[0]["answer"].startswith("after ") and fin_rows[1]["answer"] == "not answered yet"
    assert all(row["answer"] == "not answered yet" and not row["animal"] for row in cards if row["student"] == "Gus")


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_each_format_offers_the_tables_it_exports(classroom, app, teacher, name):
    fmt = FORMATS[name]
    if name in ("quiz", "quiz_homework"):
        url, code = classroom.live_quiz(teacher) if name == "quiz" else classroom.quiz_homework(teacher)
        classroom.join(code, "Ada")
        teacher.post(url + "/control", data={"action": "start"})
    else:
        url, _code, _students = classroom.play_started(teacher, format=name, count="3")
    page = teacher.get(url).get_data(as_text=True)
    for table in fmt.result_tables:
        assert csv_rows(teacher, url, table) is not None
    assert all(str(escape(words)) in page for words in fmt.result_tables.values())
    with app.test_request_context():
        rnd = db.session.get(Round, classroom.round(url).id)
        assert list(fmt.export_tables(rnd)) == list(fmt.result_tables)


def test_an_unknown_table_is_a_clear_404(classroom, app, teacher):
    url, _code, _students = classroom.play_started(teacher, count="3")
    response = teacher.get(url + "/results.csv?table=secrets")
    assert response.status_code == 404 and "no table called" in response.get_data(as_text=True)
