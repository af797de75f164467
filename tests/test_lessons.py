"""Lessons: every lesson parses, renders with numbers from the database, and its activities launch."""

import re

import pytest

from webapp.extensions import db
from webapp.learn import content as lessons
from webapp.models import Round

SLUGS = [path.stem for path in sorted(lessons.FOLDER.glob("*.md"))]


def test_there_are_at_least_ten_lessons():
    assert len(SLUGS) >= 10


@pytest.mark.parametrize("slug", SLUGS)
def test_lesson_parses_with_its_front_matter_and_question_bank(slug):
    lesson = lessons.load(slug)
    meta = lesson["meta"]
    for key in lessons.REQUIRED:
        assert meta[key], key
    assert any(a["type"] == "quiz" for a in meta["activities"])
    assert meta.get("sources")
    for question in lesson["bank"]:
        assert question["answer"] in [o["id"] for o in question["options"]]


def test_question_ids_are_unique_across_lessons():
    ids = [q["bank_id"] for slug in SLUGS for q in lessons.load(slug)["bank"]]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("slug", SLUGS)
def test_lesson_renders_with_numbers_from_the_database(client, slug):
    response = client.get(f"/lessons/{slug}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "{{" not in html and "unknown card" not in html
    assert "<h2" in html and "Activities" in html
    assert html.count("<h1") == 1


def test_placeholders_take_the_cards_values(app):
    with app.test_request_context():
        text = lessons.fill("{{name:stegosaurus}} weighed {{card:stegosaurus:mass_kg}} and died out "
                            "{{card:stegosaurus:last_appearance_ma}}; {{gap:stegosaurus:tyrannosaurus}} later "
                            "came {{name:tyrannosaurus}}. The Jurassic began {{period:Jurassic:start_ma}}.")
    assert "[Stegosaurus](/cards/stegosaurus)" in text
    assert "million years ago" in text and "201.4 million years ago" in text
    assert re.search(r"about \d+ million years later", text)


@pytest.mark.parametrize(("slug", "number"), [(slug, n) for slug in SLUGS
                                              for n in range(len(lessons.load(slug)["meta"]["activities"]))])
def test_every_activity_launches(classroom, app, client, slug, number):
    activity = lessons.load(slug)["meta"]["activities"][number]
    url = f"/lessons/{slug}/activities/{number}"
    if activity["type"] == "round":
        assert client.post(url + "/round").status_code == 302  # to the login page
        classroom.register(client, email=f"{slug}-{number}@school.org")
        response = client.post(url + "/round")
        assert response.headers["Location"].startswith("/teach/rounds/")
    else:
        response = client.post(url)
        assert response.status_code == 302, response.get_data(as_text=True)[:300]
        target = {"timeline": "/timeline", "practice": "/play/practice/", "quiz": "/quiz/"}[activity["type"]]
        assert response.headers["Location"].startswith(target)
    assert client.get(response.headers["Location"]).status_code == 200


def test_quiz_activities_run_live_for_a_teacher(classroom, client):
    slug, number = next((s, n) for s in SLUGS for n, a in enumerate(lessons.load(s)["meta"]["activities"])
                        if a["type"] == "quiz")
    classroom.register(client, email="live@school.org")
    response = client.post(f"/lessons/{slug}/activities/{number}/round")
    assert response.status_code == 302
    assert "Live quiz" in client.get(response.headers["Location"]).get_data(as_text=True)


def test_unknown_lesson_and_activity(client):
    assert client.get("/lessons/atlantis").status_code == 404
    assert client.post(f"/lessons/{SLUGS[0]}/activities/99").status_code == 404


@pytest.mark.parametrize("slug", ["atlantis", "a" * 300, "Diets", "diets.questions", "%2e%2e%2fpyproject"])
def test_unknown_lessons_are_a_404_and_nothing_is_read_or_kept(client, slug):
    for slug_known in SLUGS:
        lessons.load(slug_known)
    kept = lessons.read_lesson.cache_info().currsize
    assert client.get(f"/lessons/{slug}").status_code == 404  # a name too long for a file was a 500
    assert client.post(f"/lessons/{slug}/activities/0").status_code == 404
    assert lessons.read_lesson.cache_info().currsize == kept == len(SLUGS)  # a URL cannot grow the cache


def test_a_logged_in_teacher_is_not_asked_to_log_in(app, teacher):
    slug = lessons.all_lessons()[0]["slug"]
    assert "you will be asked to log in" not in teacher.get(f"/lessons/{slug}").get_data(as_text=True)
    assert "you will be asked to log in" in app.test_client().get(f"/lessons/{slug}").get_data(as_text=True)


@pytest.mark.parametrize(("choices", "count", "seconds", "board"), [
    ({}, None, None, "every"), ({"count": "5", "turn_seconds": "0", "leaderboard": "end"}, 5, 0, "end"),
    ({"count": "12", "turn_seconds": "45", "leaderboard": "never"}, 12, 45, "never")])
def test_a_live_quiz_runs_with_the_length_timer_and_leaderboard_chosen(classroom, app, client, choices, count, seconds,
                                                                       board):
    slug, number = next((s, n) for s in SLUGS for n, a in enumerate(lessons.load(s)["meta"]["activities"])
                        if a["type"] == "quiz")
    activity = lessons.load(slug)["meta"]["activities"][number]
    classroom.register(client, email="live@school.org")
    response = client.post(f"/lessons/{slug}/activities/{number}/round", data=choices)
    rnd = classroom.round(response.headers["Location"])
    assert len(rnd.state["questions"]) <= (count or activity.get("count", 8))
    assert rnd.settings["turn_seconds"] == (activity.get("turn_seconds", 30) if seconds is None else seconds)
    assert rnd.settings["leaderboard"] == board


@pytest.mark.parametrize("choices", [{"count": "2"}, {"count": "99"}, {"count": "abc"}, {"turn_seconds": "-5"},
                                     {"leaderboard": "always"}])
def test_a_live_quiz_with_odd_choices_is_refused_and_nothing_is_made(classroom, app, client, choices):
    slug, number = next((s, n) for s in SLUGS for n, a in enumerate(lessons.load(s)["meta"]["activities"])
                        if a["type"] == "quiz")
    classroom.register(client, email="live@school.org")
    response = client.post(f"/lessons/{slug}/activities/{number}/round", data={"count": "8", **choices})
    assert response.status_code == 400 and "The live quiz could not start" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Round).count() == 0


@pytest.mark.parametrize(("choices", "only_dino_names"), [({}, False), ({"dino_names": "y"}, True)])
def test_a_lessons_live_quiz_can_take_dino_names_only(classroom, app, client, choices, only_dino_names):
    slug, number = next((s, n) for s in SLUGS for n, a in enumerate(lessons.load(s)["meta"]["activities"])
                        if a["type"] == "quiz")
    classroom.register(client, email="live@school.org")
    assert "Students choose a dino name" in client.get(f"/lessons/{slug}").get_data(as_text=True)
    response = client.post(f"/lessons/{slug}/activities/{number}/round", data=choices)
    rnd = classroom.round(response.headers["Location"])
    assert rnd.settings["dino_names"] is only_dino_names
    joined = app.test_client().post("/join", data={"code": rnd.code, "name": "Ada"})
    assert joined.status_code == (400 if only_dino_names else 302)
