"""Every teacher control and every student answer, in every state of every round format, over HTTP.

A walk takes each format through its states (lobby, playing, paused, revealed, finished; homework not open, open,
closed). In each state every control and a handful of answers, right, wrong and malformed, are posted, and every
page of the teacher, the stage and a student is fetched: never a 5xx, a refused action changes nothing, and a page
that refuses says why.
"""

import re

import pytest

from webapp.classroom.formats import FORMATS
from webapp.extensions import db
from webapp.games.rounds import CONTROLS
from webapp.models import Round

ANSWERS = [{"gap": "0"}, {"gap": "1"}, {"gap": "-1"}, {"gap": "x"}, {}, {"gap": "0", "card": "not-a-card"}]
# The controls that move each format through its states, in order; between them every action is tried.
WALKS = {"team": ["start", "pause", "resume", "skip", "end"], "self_paced": ["start", "end"],
         "quiz_homework": ["start", "end"]}
WALK = ["start", "pause", "resume", "reveal", "next", "skip", "end"]


def version(app, url):
    """Return the stored round's version (it moves with every change)."""
    with app.app_context():
        return db.session.get(Round, int(url.rsplit("/", 1)[1])).version


def offered(teacher, url):
    """Return the controls the teacher's panel offers now."""
    return set(re.findall(r'name="action" value="(\w+)"', teacher.get(url + "/panel").get_data(as_text=True)))


def probe(app, teacher, students, url, code):
    """Try everything in the round's present state; every answer is below 500 and a refusal changes nothing."""
    for path in ("", "/panel", "/stage", "/stage/panel", "/students", "/results.csv", "/results.xlsx",
                 "/results.csv?table=students"):
        assert teacher.get(url + path).status_code < 500, path
    for student in students:
        for path in ("", "/panel", "/version"):
            assert student.get(f"/r/{code}{path}").status_code < 500, path
        for answer in ANSWERS:
            before = version(app, url)
            for headers in ({}, {"X-Live-Panel": "1"}):
                response = student.post(f"/r/{code}/answer", data=answer, headers=headers)
                assert response.status_code < 500, answer
                if response.status_code >= 400:
                    assert response.get_data(as_text=True).strip(), "a refusal with nothing to say"
            assert answer.get("gap") in ("0", "1") or version(app, url) == before, answer
    allowed = offered(teacher, url)
    for action in [a for a in CONTROLS if a not in allowed] + ["", "explode"]:
        before = version(app, url)
        response = teacher.post(url + "/control", data={"action": action})
        assert response.status_code == 302 and version(app, url) == before, action
        assert teacher.get(url).status_code == 200


@pytest.mark.parametrize("round_format", sorted(FORMATS))
def test_every_action_in_every_state_is_answered_without_a_server_error(classroom, app, teacher, round_format):
    if round_format == "quiz":
        url, code = classroom.live_quiz(teacher)
    elif round_format == "quiz_homework":
        url, code = classroom.quiz_homework(teacher)
    else:
        url, code = classroom.new_round(teacher, format=round_format, turn_seconds="0", count="3", hand_size="2",
                                        teams="2")
    students = [classroom.join(code, name) for name in ("Ada", "Ben")]
    probe(app, teacher, students, url, code)
    for step in WALKS.get(round_format, WALK):
        if step in offered(teacher, url):
            teacher.post(url + "/control", data={"action": step})
        probe(app, teacher, students, url, code)
    assert classroom.round(url).status == "finished"
    outsider = app.test_client()
    for path in ("", "/panel", "/version"):
        assert outsider.get(f"/r/{code}{path}").status_code < 500
    assert outsider.post(f"/r/{code}/answer", data={"gap": "0"}).status_code < 500
