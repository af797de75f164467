"""Results files a spreadsheet opens right: numbered as on screen, the round named, every student, UTF-8 with a BOM, .xlsx."""

import codecs
import csv
import io
import re
import zipfile

import pandas as pd
import pytest
from conftest import posted
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


# A spreadsheet runs a cell starting with = + - @ (or a tab or carriage return) as a formula (OWASP "CSV injection").
@pytest.mark.parametrize(("value", "written"), [
    ("=1+1", "'=1+1"), ("-2-3", "'-2-3"), ("+44 20 7946 0000", "'+44 20 7946 0000"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\t=1+1", "'\t=1+1"), ("\r=1+1", "'\r=1+1"), ("Ada", "Ada"), ("Jean-Luc", "Jean-Luc"), ("", ""),
])
def test_a_text_cell_a_spreadsheet_would_run_gets_an_apostrophe(value, written):
    from webapp.classroom.exports import csv_bytes

    table = pd.DataFrame({"student": [value], "points": [-2], "seconds": [-1.5]})
    row = next(csv.DictReader(io.StringIO(csv_bytes(table).decode("utf-8-sig"), newline="")))
    assert row == {"student": written, "points": "-2", "seconds": "-1.5"}  # numbers stay numbers


def rename_students(app, url, names):
    """Give the round's students these nicknames in the database: the nickname rule may refuse them at the door,
    and the files must be safe for names stored before it (or changed since)."""
    with app.app_context():
        from webapp.models import Student

        students = db.session.query(Student).filter_by(round_id=int(url.rsplit("/", 1)[1])).order_by(Student.id)
        for student, name in zip(students, names, strict=True):
            student.nickname = name
        db.session.commit()


FORMULAS = ["-2-3", "=1+1"]


def test_nicknames_and_a_title_that_look_like_formulas_are_text_in_the_csv(classroom, app, teacher):
    url, code, (first, _second) = classroom.play_started(teacher, ("Ada", "Ben"), count="3", title="@SUM(A1)")
    rename_students(app, url, FORMULAS)
    first.post(f"/r/{code}/answer", data={"gap": "0"})
    teacher.post(url + "/control", data={"action": "reveal"})
    answers = csv_rows(teacher, url)
    assert [row["student"] for row in answers] == ["'-2-3", "'=1+1"]
    assert {row["round"] for row in answers} == {"'@SUM(A1)"}
    students = csv_rows(teacher, url, "students")
    assert sorted(row["student"] for row in students) == ["'-2-3", "'=1+1"]
    assert all(row["points"].isdigit() and row["out_of"] == "1" for row in students)  # numbers stay numbers


def test_the_workbook_writes_formula_like_text_as_text(classroom, app, teacher):
    import openpyxl

    url, code, (first, _second) = classroom.play_started(teacher, ("Ada", "Ben"), count="3", title="=1+1")
    rename_students(app, url, FORMULAS)
    first.post(f"/r/{code}/answer", data={"gap": "0"})
    teacher.post(url + "/control", data={"action": "reveal"})
    book = openpyxl.load_workbook(io.BytesIO(download(teacher, url, "/results.xlsx").get_data()))
    cells = [cell for row in book["Answers"].iter_rows(min_row=2) for cell in row]
    by_value = {cell.value: cell for cell in cells}
    for text in ["=1+1", *FORMULAS]:  # kept as typed, stored as text (openpyxl alone makes "=1+1" a formula)
        assert by_value[text].data_type == "s" and by_value[text].quotePrefix
    assert not [cell for cell in cells if cell.data_type == "f"]
    numbers = [cell for cell in cells if cell.column_letter == "C"]  # card_number
    assert all(cell.data_type == "n" and not cell.quotePrefix for cell in numbers)


def test_a_teachers_question_and_options_that_look_like_formulas_are_text_in_the_csv(classroom, app, teacher):
    teacher.post("/teach/questions/new/choice", data={
        "choice-prompt": "@SUM(A1)", "choice-option_1": "=1+1", "choice-option_2": "-2-3", "choice-right": "1"})
    with app.app_context():
        from webapp.models import TeacherQuestion

        question_id = db.session.scalar(db.select(TeacherQuestion.id))
    url = posted(teacher, "/teach/questions/live", {"question": str(question_id), "title": "Formulas", "generated": "0",
                                                    "turn_seconds": "0", "leaderboard": "every"})
    code = re.search(r'class="join-code"[^>]*>(\w+)<', teacher.get(url).get_data(as_text=True)).group(1)
    ada = classroom.join(code, "Ada")
    teacher.post(url + "/control", data={"action": "start"})
    option = re.search(r'name="gap" value="([^"]+)"', ada.get(f"/r/{code}").get_data(as_text=True))
    ada.post(f"/r/{code}/answer", data={"gap": option.group(1) if option else "0"})
    teacher.post(url + "/control", data={"action": "reveal"})
    row = csv_rows(teacher, url)[0]
    assert row["question"] == "'@SUM(A1)" and row["right_answer"] == "'=1+1"
    assert row["answer"] in ("'=1+1", "'-2-3")


def test_a_class_progress_and_its_archive_keep_formula_like_names_as_text(classroom, app, teacher):
    class_url, pupils = classroom.new_class(teacher, roster="Ava Kowalski\nBen Ng")
    url, code = classroom.class_round(teacher, class_url, count="3", title="+1 weights")
    (ava_name, ava_pupil), (ben_name, ben_pupil) = sorted(pupils.items())
    with app.app_context():  # a roster name stored before the nickname rule (or changed since)
        from webapp.models import Pupil

        db.session.get(Pupil, ava_pupil[0]).display_name = "=1+1"
        db.session.commit()
    ava = classroom.join_as_pupil(code, ava_pupil)
    classroom.join_as_pupil(code, ben_pupil)
    teacher.post(url + "/control", data={"action": "start"})
    ava.post(f"/r/{code}/answer", data={"gap": "0"})
    teacher.post(url + "/control", data={"action": "reveal"})
    teacher.post(url + "/control", data={"action": "end"})
    progress = teacher.get(class_url + "/progress.csv")
    assert progress.status_code == 200
    rows = list(csv.DictReader(io.StringIO(progress.get_data().decode("utf-8-sig"))))
    assert "'=1+1" in {row["pupil"] for row in rows} and "=1+1" not in {row["pupil"] for row in rows}
    assert {row["round"] for row in rows} == {"'+1 weights"}
    archive = zipfile.ZipFile(io.BytesIO(teacher.get(class_url + "/export.zip").get_data()))
    roster = list(csv.DictReader(io.StringIO(archive.read("roster.csv").decode("utf-8-sig"))))
    assert sorted(row["pupil"] for row in roster) == sorted(["'=1+1", ben_name]) and ava_name != "=1+1"
    every_cell = [cell for name in archive.namelist()
                  for row in csv.reader(io.StringIO(archive.read(name).decode("utf-8-sig"))) for cell in row]
    assert not [cell for cell in every_cell if cell[:1] in ("=", "+", "-", "@")]
