"""What a finished round tells the teacher: the answers CSV in words, the question report, homework scores, the history."""

import csv
import io
import re

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import escape

from webapp.classroom import results
from webapp.classroom.formats.team import NO_MOVE
from webapp.extensions import db
from webapp.filters import format_mass
from webapp.games import cardline, classline
from webapp.models import Card, Student


def csv_rows(teacher, url):
    """Return the round's results CSV as a list of dicts."""
    return list(csv.DictReader(io.StringIO(teacher.get(url + "/results.csv").get_data().decode("utf-8-sig"))))


def card_names(app):
    with app.app_context():
        return {card.slug: card.common_name for card in db.session.query(Card)}


def place(line, gap, names):
    """Say a gap of a line as the teacher's pages do."""
    if gap == 0:
        return f"before {names[line[0]]}"
    if gap == len(line):
        return f"after {names[line[-1]]}"
    return f"between {names[line[gap - 1]]} and {names[line[gap]]}"


def test_the_class_line_csv_says_places_true_values_and_tenths_of_seconds(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, count="3")
    chosen = []
    for gaps in ((0, 1), (1, 2)):
        ada.post(f"/r/{code}/answer", data={"gap": str(gaps[0])})
        ben.post(f"/r/{code}/answer", data={"gap": str(gaps[1])})  # everyone answered: the card is revealed
        chosen.append(gaps)
        teacher.post(url + "/control", data={"action": "next"})
    teacher.post(url + "/control", data={"action": "end"})
    reveals = classroom.round(url).state["reveals"]
    names = card_names(app)
    with app.app_context():
        masses = {card.common_name: card.mass_kg for card in db.session.query(Card)}
    rows = csv_rows(teacher, url)
    assert {"card_number", "student", "animal", "result", "seconds"} <= set(rows[0]) and "team" not in rows[0]
    assert [row["place"] for row in rows] == [place(reveal["line_before"], gap, names)
                                              for reveal, gaps in zip(reveals, chosen, strict=True) for gap in gaps]
    assert [row["animal"] for row in rows] == [names[reveal["card"]] for reveal in reveals for _ in range(2)]
    assert [row["true_value"] for row in rows] == [format_mass(masses[row["animal"]]) for row in rows]
    assert all(re.fullmatch(r"\d+\.\d", row["seconds"]) for row in rows)


def test_team_csv_numbers_teams_as_the_screen_and_rebuilds_each_turns_line(classroom, app, teacher):
    url, code, students = classroom.play_started(teacher, ("Ada", "Ben", "Cy", "Di"), format="team",
                                                 team_mode="majority")
    team_of = {0: (students[0], students[2]), 1: (students[1], students[3])}
    names, expected = card_names(app), []

    def vote(team, voters, right=True):
        state = classroom.round(url).state
        card = state["hands"][team][0]
        first, last = cardline.correct_gaps(state, card)
        gap = first if right else (last + 1 if last < len(state["line"]) else first - 1)
        for student in voters:
            student.post(f"/r/{code}/answer", data={"card": card, "gap": str(gap)})
            expected.append((f"Team {team + 1}", place(state["line"], gap, names)))
        return state["line"], gap, card

    vote(0, team_of[0][:1])
    teacher.post(url + "/control", data={"action": "skip"})  # a vote in, then the turn passed: the line is unchanged
    expected.append(("Team 1", NO_MOVE))  # and the CSV says the team placed no card that turn
    vote(1, team_of[1])
    vote(0, team_of[0])
    line, gap, card = vote(1, team_of[1], right=False)
    teacher.post(url + "/control", data={"action": "end"})
    rows = csv_rows(teacher, url)
    assert [(row["team"], row["place"]) for row in rows] == expected
    assert [row["card_number"] for row in rows if row["place"] == NO_MOVE] == ["1"]  # the turn Ada voted in
    assert [int(row["card_number"]) for row in rows] == sorted(int(row["card_number"]) for row in rows)
    page = teacher.get(url).get_data(as_text=True)
    assert re.search(rf">{escape(names[card])}</a></td><td>0 of 2</td><td>{escape(place(line, gap, names))}<", page)


def test_a_finished_live_quiz_reports_each_question(classroom, app, teacher):
    url, code = classroom.live_quiz(teacher)
    ada, ben, cy = (classroom.join(code, name) for name in ("Ada", "Ben", "Cy"))
    teacher.post(url + "/control", data={"action": "start"})
    first = classroom.round(url).state["questions"][0]
    right = [option["id"] for option in first["options"]].index(first["answer"])
    wrong = (right + 1) % len(first["options"])
    for student, gap in ((ada, right), (ben, wrong), (cy, wrong)):
        student.post(f"/r/{code}/answer", data={"gap": str(gap)})
    teacher.post(url + "/control", data={"action": "next"})
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    teacher.post(url + "/control", data={"action": "end"})
    page = teacher.get(url).get_data(as_text=True)
    assert "Questions" in page
    assert (f"<td>{escape(first['prompt'])}</td><td>3</td><td>1 of 3</td>"
            f"<td>{escape(first['options'][wrong]['text'])} (2 students)</td>") in page
    # How many chose each option, the right one marked once revealed.
    assert f"<li>{escape(first['options'][wrong]['text'])}: <strong>2</strong></li>" in page
    assert f"<li>{escape(first['options'][right]['text'])}: <strong>1</strong> ✔ right</li>" in page
    second = classroom.round(url).state["questions"][1]
    ada_right = [option["id"] for option in second["options"]].index(second["answer"]) == 0
    # Ending the round judged the answer already given to the second question: it counts.
    assert f"<td>{escape(second['prompt'])}</td><td>1</td><td>{int(ada_right)} of 1</td>" in page


def test_homework_scores_are_whole_numbers_when_someone_has_not_finished(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="self_paced", count="4")
    eve = classroom.join(code, "Eve")
    classroom.join(code, "Fay")
    teacher.post(url + "/control", data={"action": "start"})  # homework opens when the teacher starts it
    game_url = eve.get(f"/r/{code}").headers["Location"]
    for _ in range(4):
        eve.post(game_url + "/answer", data={"gap": "0"})
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert re.search(r"<td>Eve</td><td>finished</td><td>\d of 4</td><td>\d</td>", panel), panel
    eve_row = next(row for row in csv_rows(teacher, url) if row["student"] == "Eve")
    assert re.fullmatch(r"\d", eve_row["score"]) and eve_row["out_of"] == "4"
    teacher.post(url + "/control", data={"action": "end"})
    assert teacher.get(url).status_code == 200  # a finished homework has no card report to build


def test_the_dashboard_counts_students_still_in_the_round_and_writes_plurals(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    for name in ("Ada", "Ben", "Cy"):
        classroom.join(code, name)
    with app.app_context():
        removed = db.session.query(Student).filter_by(nickname="Ben").one().id
        slug = db.session.query(Card.slug).first()[0]
    teacher.post(f"{url}/students/{removed}", data={"action": "remove"})
    teacher.post("/teach/sets", data={"name": "Just one", "cards": slug})
    dashboard = teacher.get("/teach/").get_data(as_text=True)
    assert f'<td data-label="Code">{code}</td><td data-label="Students">2</td>' in dashboard
    assert "(1 card)" in dashboard and "(1 cards)" not in dashboard


def test_ending_mid_card_counts_the_answers_given_and_shows_the_class_vote(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, ("Ada", "Ben"), turn_seconds="0")
    right = classline.right_gaps(classroom.round(url).state)[0]
    ada.post(f"/r/{code}/answer", data={"gap": str(right)})
    ben.post(f"/r/{code}/answer", data={"gap": str(right)})
    teacher.post(url + "/control", data={"action": "next"})  # the card was revealed when both answered
    ada.post(f"/r/{code}/answer", data={"gap": "0"})  # the second card: one answer in, then the teacher ends
    teacher.post(url + "/control", data={"action": "end"})
    page = teacher.get(url).get_data(as_text=True)
    assert re.search(r"<td>Ada</td><td>(\d)</td>\s*<td>\d+% \(\1 of 2\)</td>", page)  # both her answers were judged
    assert page.count("<strong>1</strong> vote</li>") == 1  # the class's vote on the last card, still shown at the end
    rows = csv_rows(teacher, url)
    assert [row["result"] for row in rows if row["student"] == "Ada"] in (  # every answer judged
        [first, second] for first in ("right", "wrong") for second in ("right", "wrong"))
    assert [row["result"] for row in rows if row["student"] == "Ben"][1] == "missed"  # the card ending judged


def test_skipping_a_card_with_answers_asks_first_and_says_how_many(classroom, app, teacher):
    url, code, (ada, _ben) = classroom.play_started(teacher, ("Ada", "Ben"), turn_seconds="0")
    assert "will not count" not in teacher.get(url + "/panel").get_data(as_text=True)
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert 'data-confirm="Skip this card? The 1 answer given to it will not count."' in panel


def test_a_question_a_student_let_pass_counts_against_their_accuracy(classroom, app, teacher):
    url, code = classroom.live_quiz(teacher)
    ada, ben = classroom.join(code, "Ada"), classroom.join(code, "Ben")
    teacher.post(url + "/control", data={"action": "start"})
    for turn in range(2):
        question = classroom.round(url).state["questions"][turn]
        right = [option["id"] for option in question["options"]].index(question["answer"])
        ben.post(f"/r/{code}/answer", data={"gap": str(right)})
        if turn == 0:
            ada.post(f"/r/{code}/answer", data={"gap": str(right)})
        teacher.post(url + "/control", data={"action": "reveal"})
        teacher.post(url + "/control", data={"action": "next"})
    teacher.post(url + "/control", data={"action": "end"})
    page = teacher.get(url).get_data(as_text=True)
    assert "<td>Ada</td><td>1</td>\n    <td>50% (1 of 2)</td>" in page
    assert "<td>Ben</td><td>2</td>\n    <td>100% (2 of 2)</td>" in page


def test_a_team_round_reports_its_teams_and_each_members_votes(classroom, app, teacher):
    url, _code, _students = classroom.play_started(teacher, ("Ada", "Ben"), format="team", teams="2", hand_size="2",
                                                   turn_seconds="0")
    teacher.post(url + "/control", data={"action": "end"})
    page = teacher.get(url).get_data(as_text=True)
    assert "<h3>Teams</h3>" in page and "<td>Team 1</td><td>Ada</td><td>2</td>" in page
    assert "<td>Team 2</td><td>Ben</td><td>2</td>" in page
    assert re.search(r"<td>Ben</td><td>Team 2</td>\s*<td>0</td><td>0</td>", page)


def test_a_finished_team_round_says_nobody_is_playing_and_ranks_tied_teams_together(classroom, app, teacher):
    url, _code, _students = classroom.play_started(teacher, ("Ada", "Ben"), format="team", teams="2", hand_size="2")
    teacher.post(url + "/control", data={"action": "end"})
    page = teacher.get(url).get_data(as_text=True)
    assert "Now playing" not in page and "played to the end" in page
    assert re.findall(r'<li value="(\d)"><strong>Team', page) == ["1", "1"]  # two teams with two cards each share 1st


@given(st.lists(st.integers(min_value=0, max_value=3000), max_size=60))
def test_places_of_a_whole_class_follow_the_one_ranking_rule(every):
    """Worked out in one sort, each score's place is one more than how many scored more (1, 1, 3), and so is no score's."""
    worked_out = results.places(every)
    assert worked_out == {points: results.place_of(points, every) for points in {0, *every}}
    ranked = results.with_places([{"points": points} for points in sorted(every, reverse=True)])
    assert [row["place"] for row in ranked] == [results.place_of(row["points"], every) for row in ranked]
