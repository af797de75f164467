"""Quiz pages: setting up, answering with explanations, refusing tampered answers, live quizzes."""

import re

import pytest

from webapp.extensions import db
from webapp.games import trivia
from webapp.models import Game


def current(client, url):
    html = client.get(url).get_data(as_text=True)
    question = re.search(r'name="question" value="([^"]+)"', html)
    return html, question.group(1) if question else None, re.findall(r'name="choice" value="([^"]+)"', html)


def test_setup_errors(client):
    response = client.post("/quiz/new", data={"deck": "dinosaurs", "difficulty": "easy", "count": "4"})
    assert response.status_code == 400 and "Tick at least one kind" in response.get_data(as_text=True)
    response = client.post("/quiz/new", data={"kinds": ["heavier"], "deck": "dinosaurs", "difficulty": "easy",
                                              "count": "99"})
    assert response.status_code == 400 and "3 to 20 questions" in response.get_data(as_text=True)
    response = client.post("/quiz/new", data={"kinds": ["astrology"], "deck": "dinosaurs", "difficulty": "easy",
                                              "count": "4"})
    assert response.status_code == 400


def test_answer_explanation_score_and_review(games, app, client):
    url = games.quiz(client)
    html, question, choices = current(client, url)
    assert "Score" in html and len(choices) >= 2
    assert client.post(url + "/answer", data={"question": question, "choice": choices[0]}).status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert ("Right!" in html or "Not quite" in html) and 'id="feedback"' in html
    for _ in range(3):
        html, question, choices = current(client, url)
        client.post(url + "/answer", data={"question": question, "choice": choices[0]})
    html = client.get(url).get_data(as_text=True)
    assert "You scored" in html and "Review" in html and html.count("Your answer:") == 4


@pytest.mark.parametrize("tamper", ["not offered", "other question", "other quiz", "stranger"])
def test_tampered_answers_are_refused_with_a_message(games, app, client, tamper):
    url = games.quiz(client)
    other = games.quiz(client)
    _html, question, choices = current(client, url)
    with app.app_context():
        before = db.session.get(Game, url.rsplit("/", 1)[1]).state
    if tamper == "not offered":
        response = client.post(url + "/answer", data={"question": question, "choice": "triceratops-xx"})
        assert response.status_code == 400 and "Not a valid choice" in response.get_data(as_text=True)
    elif tamper == "other question":
        response = client.post(url + "/answer", data={"question": "q3", "choice": choices[0]})
        assert response.status_code == 409 and "another question" in response.get_data(as_text=True)
    elif tamper == "other quiz":
        _other_html, _other_question, other_choices = current(client, other)
        response = client.post(url + "/answer", data={"question": "q99", "choice": other_choices[0]})
        assert response.status_code == 409
    else:
        response = app.test_client().post(url + "/answer", data={"question": question, "choice": choices[0]})
        assert response.status_code == 403
    with app.app_context():
        assert db.session.get(Game, url.rsplit("/", 1)[1]).state == before


def test_ordering_questions_need_every_position_once(games, client):
    url = games.quiz(client, kinds=("order",), count="3")
    html, question, _ = current(client, url)
    slugs = re.findall(r'name="position-([^"]+)"', html)
    assert len(slugs) == 4
    same = {"question": question, **{f"position-{s}": "1" for s in slugs}}
    response = client.post(url + "/answer", data=same)
    assert response.status_code == 400 and "different position" in response.get_data(as_text=True)
    right = {"question": question, **{f"position-{s}": str(i + 1) for i, s in enumerate(slugs)}}
    assert client.post(url + "/answer", data=right).status_code == 302


def test_live_quiz_round_for_the_class(classroom, app, client):
    classroom.register(client)
    url, code = classroom.live_quiz(client)
    ada, ben = classroom.join(code, "Ada"), classroom.join(code, "Ben")
    client.post(url + "/control", data={"action": "start"})
    html = ada.get(f"/r/{code}").get_data(as_text=True)
    assert 'name="gap" value="0"' in html and "Question 1 of 3" in html
    bad = ada.post(f"/r/{code}/answer", data={"gap": "9"})
    assert bad.status_code == 409 and "not one of the answers offered" in bad.get_data(as_text=True)
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    ben.post(f"/r/{code}/answer", data={"gap": "1"})
    panel = client.get(url + "/panel").get_data(as_text=True)
    assert "✔ right" in panel and "vote" in panel
    after = ada.get(f"/r/{code}").get_data(as_text=True)
    assert "You got it right" in after or "Not quite" in after
    client.post(url + "/control", data={"action": "end"})
    csv = client.get(url + "/results.csv").get_data().decode("utf-8-sig")
    assert csv.splitlines()[0] == "round,date,question_number,student,question,right_answer,answer,result,seconds"
    assert len(csv.strip().splitlines()) == 3


@pytest.mark.parametrize("kinds", [["period"], ["earlier", "heavier"], ["not_dinosaur", "met"]])
def test_prehistoric_questions_about_living_animals_are_explained_beside_the_field(client, kinds):
    response = client.post("/quiz/new", data={"kinds": kinds, "deck": "animals", "difficulty": "easy", "count": "5"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "can only be asked about prehistoric animals" in html and "did not make sense" not in html


@pytest.mark.parametrize("kind", ["not_dinosaur", "order", "diet"])
def test_the_number_of_questions_asked_for_is_the_number_given(games, client, kind):
    url = games.quiz(client, kinds=(kind,), count="10")
    html = client.get(url).get_data(as_text=True)
    assert re.search(r"[Qq]uestion 1 of 10\b", html), re.findall(r"[Qq]uestion \d+ of \d+", html)


@pytest.mark.parametrize(("units", "unit_words", "other_words"), [
    ("metric", r"\d (?:t|kg|g)\b", r"\d (?:tons|lb|oz)\b"),
    ("imperial", r"\d (?:tons|lb|oz)\b", r"\d (?:t|kg)\b"),
])
def test_explanations_are_written_in_the_readers_units(games, client, units, unit_words, other_words):
    url = games.quiz(client, kinds=("heavier", "order"), count="3")
    for _ in range(3):
        _html, question, choices = current(client, url)
        data = {"question": question, "choice": choices[0]} if choices else {}
        if not choices:  # an ordering question: the positions as offered
            html = client.get(url).get_data(as_text=True)
            data = {"question": question, **{name: str(i + 1) for i, name in enumerate(
                re.findall(r'name="(position-[^"]+)"', html))}}
        client.post(url + "/answer", data=data)
    review = client.get(url, query_string={"units": units}).get_data(as_text=True)
    notes = " ".join(re.findall(r'<span class="data-notes">(.*?)</span>', review))
    assert len(re.findall(unit_words, notes)) >= 6, notes
    assert not re.search(other_words, notes) and "[[" not in notes, notes


def test_every_kind_is_ticked_at_first_so_a_quiz_starts_in_one_tap(client):
    html = client.get("/quiz/new").get_data(as_text=True)
    assert len(re.findall(r'<input checked[^>]*name="kinds"|<input[^>]*name="kinds"[^>]*checked', html)) == len(trivia.KINDS)
    response = client.post("/quiz/new", data={"kinds": list(trivia.KINDS), "deck": "dinosaurs", "difficulty": "medium",
                                              "count": "8"})
    assert response.status_code == 302
