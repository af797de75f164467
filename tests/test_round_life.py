"""A round's life through the pages, at the edges a real class hits: extra time, captains, stale controls,
the lobby, the timer switched off and on, a locked room, team feedback, homework's opening and closing times."""

import re
import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from webapp.classroom.rounds import now
from webapp.extensions import db
from webapp.games import classbins, classline
from webapp.games.words import article
from webapp.models import Answer, CardSet, Round, Student


def student_id(app, name):
    with app.app_context():
        return db.session.scalar(db.select(Student.id).where(Student.nickname == name))


def test_extra_time_no_longer_stops_the_timed_reveal(classroom, app, teacher):
    """10 s timer, Ada given +15 s, Ben answers, Ada does nothing: revealed once her 25 s are up."""
    url, code, (ada, ben) = classroom.play_started(teacher, ("Ada", "Ben"), turn_seconds="10")
    teacher.post(f"{url}/students/{student_id(app, 'Ada')}", data={"action": "extra_time", "value": "15"})
    ben.post(f"/r/{code}/answer", data={"gap": "0"})
    classroom.set_round(url, turn_started_at=now() - timedelta(seconds=20))
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert classroom.round(url).state["phase"] == "answering"  # Ada's extra time still runs
    assert "extra time: Ada still answering" in panel  # the clock says 0, and the page says why it waits
    assert "⏱ Extra time: 1 still answering" in teacher.get(url + "/stage/panel").get_data(as_text=True)
    classroom.set_round(url, turn_started_at=now() - timedelta(seconds=26))
    teacher.get(url + "/panel")
    assert classroom.round(url).state["phase"] == "revealed"
    late = ada.post(f"/r/{code}/answer", data={"gap": "1"})
    assert late.status_code == 409


def first_team(classroom, app, teacher):
    """Start a team round of four in two teams; return its URL, code, the first team's two browsers and its hand."""
    url, code, students = classroom.play_started(teacher, ("Ada", "Ben", "Cy", "Di"), format="team", teams="2")
    with app.app_context():
        teams = {s.nickname: s.team for s in db.session.query(Student)}
    first = [s for s, name in zip(students, ("Ada", "Ben", "Cy", "Di"), strict=True) if teams[name] == 0]
    return url, code, first, classroom.round(url).state["hands"][0]


def test_only_the_captain_moves_and_scores_in_captain_mode(classroom, app, teacher):
    url, code, (_captain, member), hand = first_team(classroom, app, teacher)
    refused = member.post(f"/r/{code}/answer", data={"card": hand[0], "gap": "0"})
    assert refused.status_code == 409 and "captain places the card" in refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Answer).count() == 0
    assert classroom.round(url).state["turn"] == 0


def test_team_members_see_whether_the_move_was_right_and_the_team_standings(classroom, app, teacher):
    url, code, (captain, member), hand = first_team(classroom, app, teacher)
    captain.post(f"/r/{code}/answer", data={"card": hand[0], "gap": "0"})
    for page in (member.get(f"/r/{code}/panel"), teacher.get(url + "/panel")):
        html = page.get_data(as_text=True)
        assert "Last move" in html and re.search(r"✔ correct!|✘ wrong\.", html)
        assert "<h2>Teams</h2>" in html and "cards left" in html


def test_a_stale_control_returns_to_the_round_with_a_reason(classroom, app, teacher):
    url, code, (ada,) = classroom.play_started(teacher, ("Ada",))
    ada.post(f"/r/{code}/answer", data={"gap": "0"})  # everyone answered: revealed by itself
    page = teacher.post(url + "/control", data={"action": "reveal"}, follow_redirects=True)
    assert page.status_code == 200 and page.request.path == url
    assert "There is no card waiting to be revealed" in page.get_data(as_text=True)


LIVE_CONTROL = {"X-Live-Panel": "1", "Accept": "application/json"}


@pytest.mark.parametrize(("action", "status"), [("pause", "paused"), ("reveal", "playing"), ("end", "finished")])
def test_a_control_sent_by_the_live_page_is_answered_with_the_rounds_status_alone(classroom, teacher, action, status):
    """The live page sends its controls by fetch and stays: an empty reply naming the status (the page loads again
    only when that changed), and the round moved on as a posted form moves it."""
    url, _code, _students = classroom.play_started(teacher, ("Ada", "Ben"))
    reply = teacher.post(url + "/control", data={"action": action}, headers=LIVE_CONTROL)
    assert reply.status_code == 204 and reply.get_data() == b""
    assert reply.headers["X-Round-Status"] == status == classroom.round(url).status


def test_a_stale_control_sent_by_the_live_page_says_why_and_changes_nothing(classroom, teacher):
    url, code, (ada,) = classroom.play_started(teacher, ("Ada",))
    ada.post(f"/r/{code}/answer", data={"gap": "0"})  # everyone answered: revealed by itself
    before = classroom.round(url)
    reply = teacher.post(url + "/control", data={"action": "reveal"}, headers=LIVE_CONTROL)
    assert reply.status_code == 409 and "There is no card waiting to be revealed" in reply.get_json()["error"]
    after = classroom.round(url)
    assert (after.version, after.state) == (before.version, before.state)
    unknown = teacher.post(url + "/control", data={"action": "explode"}, headers=LIVE_CONTROL)
    assert unknown.status_code == 409 and unknown.get_json()["error"]


def test_the_teacher_sees_only_the_controls_that_apply(classroom, teacher):
    url, code = classroom.new_round(teacher, turn_seconds="20")
    lobby = teacher.get(url + "/panel").get_data(as_text=True)
    assert re.findall(r'name="action" value="(\w+)"', lobby) == ["lock", "end"]
    classroom.join(code, "Ada")
    teacher.post(url + "/control", data={"action": "start"})
    playing = teacher.get(url + "/panel").get_data(as_text=True)
    assert re.findall(r'name="action" value="(\w+)"', playing) == ["pause", "reveal", "skip", "timer_off", "lock", "end"]
    assert 'data-confirm="End this round' in playing


def test_the_lobby_shows_nothing_of_the_first_card_or_question(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    classroom.join(code, "Ada")
    first = classline.current_card(classroom.round(url).state)
    for html in (teacher.get(url).get_data(as_text=True), teacher.get(url + "/panel").get_data(as_text=True)):
        assert "Card 1 of" not in html and f"/cards/{first}" not in html and f'value="{first}"' not in html


def test_switching_the_timer_off_and_on_does_not_restart_the_turn(classroom, teacher):
    url, _code, _ = classroom.play_started(teacher, ("Ada", "Ben"), turn_seconds="30")
    classroom.set_round(url, turn_started_at=now() - timedelta(seconds=20))
    teacher.post(url + "/control", data={"action": "timer_off"})
    teacher.post(url + "/control", data={"action": "timer_on"})
    left = float(teacher.get(url + "/panel").headers["X-Seconds-Left"])
    assert 5 <= left <= 11


def test_a_locked_room_refuses_new_players_until_it_is_opened(classroom, teacher, client):
    url, code = classroom.new_round(teacher)
    teacher.post(url + "/control", data={"action": "lock"})
    refused = client.post("/join", data={"code": code, "name": "Zed"})
    assert refused.status_code == 409 and "closed this round to new players" in refused.get_data(as_text=True)
    teacher.post(url + "/control", data={"action": "unlock"})
    assert classroom.join(code, "Zed")


def test_nicknames_differing_only_in_spacing_are_the_same(classroom, teacher, client):
    _url, code = classroom.new_round(teacher)
    classroom.join(code, "Mia Z")
    twice = client.post("/join", data={"code": code, "name": "mia   z"})
    assert twice.status_code == 409 and "already has that nickname" in twice.get_data(as_text=True)


def test_a_move_to_a_new_device_as_the_round_moves_on_is_refused_and_works_when_tried_again(classroom, app, teacher,
                                                                                              monkeypatch):
    from sqlalchemy import update

    from webapp.classroom import rounds

    url, code, (_ada, _ben) = classroom.play_started(teacher)
    given = one_time_code(teacher, url, student_id(app, "Ada"))
    relink = rounds.relink

    def moved_on_meanwhile(rnd, student, token):
        with db.engine.begin() as other:  # a reveal, say, committed while this request ran
            other.execute(update(Round).where(Round.id == rnd.id).values(version=Round.version + 1))
        return relink(rnd, student, token)

    monkeypatch.setattr(rounds, "relink", moved_on_meanwhile)
    new_device = app.test_client()
    refused = new_device.post("/join", data={"code": code, "name": "Ada", "one_time_code": given})
    assert refused.status_code == 409 and "moved on at that very moment" in refused.get_data(as_text=True)
    monkeypatch.setattr(rounds, "relink", relink)
    assert new_device.post("/join", data={"code": code, "name": "Ada", "one_time_code": given}).status_code == 302
    assert "Card 1 of" in new_device.get(f"/r/{code}").get_data(as_text=True)


def test_a_removed_student_cannot_rejoin_under_another_name_from_the_same_device(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    ada = classroom.join(code, "Ada")
    teacher.post(f"{url}/students/{student_id(app, 'Ada')}", data={"action": "remove"})
    again = ada.post("/join", data={"code": code, "name": "Not Ada"})
    assert again.status_code == 403 and "taken you out" in again.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Student).count() == 1


def test_a_students_round_page_has_no_site_links_and_shows_their_points_and_rank(classroom, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, ("Ada", "Ben"))
    first, last = classline.right_gaps(classroom.round(url).state)
    ada.post(f"/r/{code}/answer", data={"gap": str(first)})
    ben.post(f"/r/{code}/answer", data={"gap": str(first - 1 if first > 0 else last + 1)})
    page = ben.get(f"/r/{code}").get_data(as_text=True)
    assert 'aria-label="Main"' not in page and 'href="/cards/"' not in page
    assert "You: 0 points · number 2 of 2" in page
    assert "You: 1 point · number 1 of 2" in ada.get(f"/r/{code}/panel").get_data(as_text=True)


def one_time_code(teacher, url, student):
    """Ask for a one-time code that lets a student back in on a new device; return it as the teacher reads it."""
    page = teacher.post(f"{url}/students/{student}", data={"action": "rejoin"}, follow_redirects=True)
    return re.search(r"One-time code: (\w{6})", page.get_data(as_text=True)).group(1)


def test_the_teacher_lets_a_student_back_in_on_a_new_device(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    old_device = classroom.join(code, "Ada")
    given = one_time_code(teacher, url, student_id(app, 'Ada'))
    assert "a one-time code is waiting to be used" in teacher.get(url).get_data(as_text=True)
    new_device = app.test_client()
    assert new_device.post("/join", data={"code": code, "name": "ada", "one_time_code": given}).status_code == 302
    assert "You are Ada" in new_device.get(f"/r/{code}").get_data(as_text=True)
    assert old_device.get(f"/r/{code}/version").status_code == 403
    with app.app_context():
        assert db.session.query(Student).count() == 1
    assert app.test_client().post("/join", data={"code": code, "name": "Ada"}).status_code == 409  # once only


def test_homework_continues_on_the_new_device_in_the_same_game(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="self_paced", characteristic="mass", count="4")
    old_device = classroom.join(code, "Eve")
    game_url = old_device.get(f"/r/{code}").headers["Location"]
    teacher.post(url + "/control", data={"action": "start"})
    old_device.post(game_url + "/answer", data={"gap": "0"})
    given = one_time_code(teacher, url, student_id(app, 'Eve'))
    new_device = app.test_client()
    assert new_device.post("/join", data={"code": code, "name": "Eve", "one_time_code": given}).status_code == 302
    assert new_device.get(f"/r/{code}").headers["Location"] == game_url
    assert new_device.post(game_url + "/answer", data={"gap": "0"}).status_code == 302
    assert old_device.post(game_url + "/answer", data={"gap": "0"}).status_code == 403
    assert re.search(r"<td>Eve</td><td>part way \(2 of 4\)</td>", teacher.get(url + "/panel").get_data(as_text=True))


def test_a_diet_sort_round_reveals_the_bins_and_what_the_animal_ate(classroom, app, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, ("Ada", "Ben"), format="class_diet", count="3")
    state = classroom.round(url).state
    right = classbins.right_gaps(state)[0]
    card = classbins.current_card(state)
    phone = ada.get(f"/r/{code}").get_data(as_text=True)
    assert "what did it eat?" in phone and "Carnivore" in phone and state["values"][card] not in phone.split("Put it in")[0]
    ada.post(f"/r/{code}/answer", data={"gap": str(right)})
    ben.post(f"/r/{code}/answer", data={"gap": str((right + 1) % 3)})
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert re.search(rf"(?:is|was) {article(state['values'][card])}, an animal that ", panel) and "✔ right: <strong>1</strong> vote" in panel
    assert "✔ You got it right!" in ada.get(f"/r/{code}/panel").get_data(as_text=True)
    assert "✘ Not quite." in ben.get(f"/r/{code}/panel").get_data(as_text=True)
    csv = teacher.get(url + "/results.csv").get_data(as_text=True)
    assert f"in the {state['values'][card]} bin" in csv


def test_the_diet_sort_engine_judges_by_the_cards_diet():
    state = classbins.new_game({"cards": {"a": "carnivore", "b": "herbivore", "c": "omnivore", "d": "insects"},
                                "count": 3}, 7)
    assert set(state["values"].values()) == set(classbins.BINS)  # a diet that is not a bin is left out
    for _ in range(3):
        first, _last = classbins.right_gaps(state)
        assert classbins.BINS[first] == state["values"][classbins.current_card(state)]
        state = classbins.apply(classbins.apply(state, {"type": "reveal"}), {"type": "next"})
    assert classbins.is_over(state)


@pytest.mark.parametrize("round_format", ["class_line", "class_diet"])
def test_an_answer_for_a_card_the_class_has_moved_on_from_is_refused(classroom, app, teacher, round_format):
    url, code, (ada, _ben) = classroom.play_started(teacher, ("Ada", "Ben"), format=round_format, turn_seconds="0")
    old_card = re.search(r'name="card" value="([^"]+)"', ada.get(f"/r/{code}").get_data(as_text=True))[1]
    teacher.post(url + "/control", data={"action": "skip"})
    stale = ada.post(f"/r/{code}/answer", data={"gap": "0", "card": old_card})  # a tab still showing the first card
    assert stale.status_code == 409 and "moved on" in stale.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Answer).count() == 0
    fresh = re.search(r'name="card" value="([^"]+)"', ada.get(f"/r/{code}").get_data(as_text=True))[1]
    assert fresh != old_card and ada.post(f"/r/{code}/answer", data={"gap": "0", "card": fresh}).status_code == 302


def test_a_teams_timeout_is_said_on_every_screen_and_counted_in_the_results(classroom, app, teacher):
    url, code, (_ada, ben) = classroom.play_started(teacher, ("Ada", "Ben"), format="team", teams="2", hand_size="2",
                                                   turn_seconds="10")
    classroom.set_round(url, turn_started_at=now() - timedelta(seconds=11))  # Team 1's time runs out with no vote
    said = "<strong>Team 1</strong> placed no card this turn: the time ran out, or the turn was skipped."
    assert said in teacher.get(url + "/panel").get_data(as_text=True)
    assert said in teacher.get(url + "/stage/panel").get_data(as_text=True)
    assert said in ben.get(f"/r/{code}/panel").get_data(as_text=True)
    teacher.post(url + "/control", data={"action": "end"})
    assert "<td>Team 1</td><td>Ada</td><td>2</td><td>1</td>" in teacher.get(url).get_data(as_text=True)


def test_the_captains_phone_shows_the_hand_and_the_line_once(classroom, app, teacher):
    _url, code, (ada, _ben, cy) = classroom.play_started(teacher, ("Ada", "Ben", "Cy"), format="team", teams="2",
                                                         hand_size="2")
    captain = ada.get(f"/r/{code}").get_data(as_text=True)
    assert "Place card" in captain and "<h2>The line</h2>" not in captain and "Your team&#39;s hand</h2>" not in captain
    member = cy.get(f"/r/{code}").get_data(as_text=True)  # Ada's team mate sees them, to talk it over
    assert "<h2>The line</h2>" in member and "talk it over" in member


def homework_with_dates(classroom, teacher, **times):
    """Create a homework with opening and closing times (London time); return its URL and code."""
    return classroom.new_round(teacher, format="self_paced", characteristic="mass", count="3",
                               timezone="Europe/London", **times)


def move_timetable(classroom, url, **moments):
    """Move a homework's opening or closing time (seconds since the epoch), as if the clock had moved on."""
    rnd = classroom.round(url)
    classroom.set_round(url, settings={**rnd.settings, **moments})


def test_homework_opens_and_closes_on_time_and_says_when(classroom, app, teacher):
    url, code = homework_with_dates(classroom, teacher, opens_at="2099-01-15T08:00", closes_at="2099-01-22T17:30")
    settings = classroom.round(url).settings
    london = ZoneInfo("Europe/London")
    assert settings["opens_at"] == datetime(2099, 1, 15, 8, 0, tzinfo=london).timestamp()
    assert settings["closes_at"] == datetime(2099, 1, 22, 17, 30, tzinfo=london).timestamp()
    assert "The homework opens Thursday 15 January at 08:00 (Europe/London)" in teacher.get(url).get_data(as_text=True)
    eve = classroom.join(code, "Eve")
    game_url = eve.get(f"/r/{code}").headers["Location"]
    page = eve.get(game_url).get_data(as_text=True)
    assert "This homework opens on Thursday 15 January at 08:00 (Europe/London)." in page
    assert 'name="gap"' not in page  # nothing to press
    early = eve.post(game_url + "/answer", data={"gap": "0"})
    assert early.status_code == 409 and "opens on Thursday 15 January" in early.get_data(as_text=True)

    move_timetable(classroom, url, opens_at=time.time() - 60)  # opening time reached
    assert 'name="gap"' in eve.get(game_url).get_data(as_text=True)
    assert eve.post(game_url + "/answer", data={"gap": "0"}).status_code == 302
    teacher.get(url)
    assert classroom.round(url).status == "playing"

    move_timetable(classroom, url, closes_at=time.time() - 1)  # closing time reached
    late = eve.post(game_url + "/answer", data={"gap": "0"})
    assert late.status_code == 409 and "This homework closed on" in late.get_data(as_text=True)
    assert "This homework closed on" in eve.get(game_url).get_data(as_text=True)
    teacher.get(url)
    assert classroom.round(url).status == "finished"
    assert re.search(r"<td>Eve</td><td>part way \(1 of 3\)</td>", teacher.get(url).get_data(as_text=True))


def test_a_homework_with_dates_can_still_be_opened_by_hand(classroom, app, teacher):
    url, code = homework_with_dates(classroom, teacher, opens_at="2099-01-15T08:00")
    eve = classroom.join(code, "Eve")
    teacher.post(url + "/control", data={"action": "start"})
    game_url = eve.get(f"/r/{code}").headers["Location"]
    assert eve.post(game_url + "/answer", data={"gap": "0"}).status_code == 302


@pytest.mark.parametrize(("times", "error"), [
    ({"opens_at": "2099-01-15T08:00", "closes_at": "2099-01-14T08:00"}, "must close after it opens"),
    ({"closes_at": "2001-01-14T08:00"}, "still to come"),
    ({"opens_at": "tomorrow"}, "Not a valid datetime value."),
    ({"opens_at": "2099-01-15T08:00", "format": "class_line"}, "for a self-paced challenge"),
    ({"closes_at": "2099-01-15T08:00", "timezone": "Mars/Olympus"}, "Not a valid choice"),
])
def test_homework_dates_that_cannot_work_are_refused_beside_the_field(classroom, app, teacher, times, error):
    response = teacher.post("/teach/rounds/new", data={**classroom.ROUND, "format": "self_paced", **times})
    assert response.status_code == 400 and error in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Round).count() == 0


def test_a_duplicate_has_the_same_set_up_and_cards_a_new_code_and_no_students(classroom, app, teacher):
    url, _code, _students = classroom.play_started(teacher, count="3", title="Weights")
    copy = teacher.post(url + "/reuse", data={"action": "duplicate"})
    copy_url = copy.headers["Location"]
    original, duplicate = classroom.round(url), classroom.round(copy_url)
    assert duplicate.code != original.code and duplicate.title == "Weights (copy)" and duplicate.status == "lobby"
    assert duplicate.settings["seed"] == original.settings["seed"]
    assert set(duplicate.state["values"]) == set(original.state["values"])  # the same cards
    dates = ("locked", "opens_at", "closes_at")
    assert {k: v for k, v in duplicate.settings.items() if k not in dates} == {
        k: v for k, v in original.settings.items() if k not in dates}
    with app.app_context():
        assert db.session.query(Student).filter_by(round_id=duplicate.id).count() == 0


def test_a_live_quiz_duplicates_with_the_same_questions(classroom, app, teacher):
    url, _code = classroom.live_quiz(teacher)
    copy_url = teacher.post(url + "/reuse", data={"action": "duplicate"}).headers["Location"]
    assert classroom.round(copy_url).state["questions"] == classroom.round(url).state["questions"]
    assert teacher.get(copy_url + "/edit").status_code == 409  # a lesson's quiz is changed from its lesson


def test_a_round_can_be_changed_until_someone_joins(classroom, app, teacher):
    url, code = classroom.new_round(teacher, count="3", title="Weights")
    form = teacher.get(url + "/edit").get_data(as_text=True)
    assert 'value="Weights"' in form and "Save the changes" in form
    changed = teacher.post(url + "/edit", data={**classroom.ROUND, "title": "Sizes", "characteristic": "length",
                                                "count": "5"})
    assert changed.status_code == 302
    rnd = classroom.round(url)
    assert (rnd.title, rnd.code, rnd.settings["characteristic"], len(rnd.state["cards"])) == ("Sizes", code, "length", 5)
    bad = teacher.post(url + "/edit", data={**classroom.ROUND, "count": "99"})
    assert bad.status_code == 400 and classroom.round(url).title == "Sizes"
    classroom.join(code, "Ada")
    refused = teacher.post(url + "/edit", data={**classroom.ROUND, "title": "Again"})
    assert refused.status_code == 409 and "duplicate it instead" in refused.get_data(as_text=True)


def test_archived_rounds_leave_the_dashboard_and_come_back(classroom, app, teacher):
    url, _code = classroom.new_round(teacher, title="Old round")
    teacher.post(url + "/reuse", data={"action": "archive"})
    assert ">Old round</a>" not in teacher.get("/teach/").get_data(as_text=True)
    assert "Old round" in teacher.get("/teach/?archived=1").get_data(as_text=True)
    teacher.post(url + "/reuse", data={"action": "unarchive"})
    assert ">Old round</a>" in teacher.get("/teach/").get_data(as_text=True)


def test_deleting_a_round_needs_the_box_ticked_and_takes_its_answers(classroom, app, teacher):
    url, code, (ada, _ben) = classroom.play_started(teacher, count="3")
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    teacher.post(url + "/reuse", data={"action": "delete"})
    assert classroom.round(url) is not None
    assert teacher.post(url + "/reuse", data={"action": "delete", "confirm": "yes"}).status_code == 302
    with app.app_context():
        assert db.session.query(Round).count() == 0 and db.session.query(Student).count() == 0
        assert db.session.query(Answer).count() == 0
    assert teacher.get(url).status_code == 404


def test_a_colleague_copies_a_shared_set_up_but_never_the_students(classroom, app, teacher):
    teacher.post("/teach/sets", data={"name": "Giants", "cards": "T. rex, Triceratops, Stegosaurus, Velociraptor"})
    with app.app_context():
        set_id = db.session.query(CardSet).one().id
    url, code, (ada, _ben) = classroom.play_started(teacher, count="3", choice="set", card_set=str(set_id))
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    page = teacher.post(url + "/reuse", data={"action": "share"}, follow_redirects=True).get_data(as_text=True)
    link = re.search(r"http://localhost(/teach/shared/[\w-]+)", page).group(1)
    colleague = app.test_client()
    assert colleague.get(link).status_code == 302  # to the login page
    classroom.register(colleague, email="colleague@school.org")
    shown = colleague.get(link).get_data(as_text=True)
    assert "Copy into my rounds" in shown and "Ada" not in shown
    copied = colleague.post(link)
    copy = classroom.round(copied.headers["Location"])
    with app.app_context():
        owner = db.session.get(Round, copy.id).teacher_id
        their_set = db.session.get(CardSet, copy.settings["set_id"])
        assert their_set.teacher_id == owner != classroom.round(url).teacher_id
        assert db.session.query(Student).filter_by(round_id=copy.id).count() == 0
    assert app.test_client().get("/teach/shared/nope").status_code == 302
    assert colleague.get("/teach/shared/nope").status_code == 404


def test_reuse_refuses_other_teachers_and_odd_actions(classroom, app, teacher):
    url, _code = classroom.new_round(teacher)
    other = app.test_client()
    classroom.register(other, email="other@school.org")
    for action in ("duplicate", "archive", "share", "delete"):
        assert other.post(url + "/reuse", data={"action": action, "confirm": "yes"}).status_code == 403
    assert other.get(url + "/edit").status_code == 403
    assert teacher.post(url + "/reuse", data={"action": "explode"}).status_code == 400
    assert classroom.round(url) is not None


def teams_of(app, url):
    with app.app_context():
        rnd_id = int(url.rsplit("/", 1)[1])
        return {s.nickname: s.team for s in db.session.query(Student).filter_by(round_id=rnd_id)}


def test_the_teacher_names_the_teams_before_the_start(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="team", teams="2")
    ada = classroom.join(code, "Ada")
    named = teacher.post(url + "/teams", data={"action": "name", "team-0": "Raptors", "team-1": "Trilobites"})
    assert named.status_code == 302
    assert classroom.round(url).state["players"] == ["Raptors", "Trilobites"]
    assert "You are Ada, Raptors" in ada.get(f"/r/{code}").get_data(as_text=True)
    assert "Raptors" in teacher.get(url + "/stage").get_data(as_text=True)
    same = teacher.post(url + "/teams", data={"action": "name", "team-0": "Rex", "team-1": "rex"})
    assert same.status_code == 400 and "different name" in same.get_data(as_text=True)
    teacher.post(url + "/control", data={"action": "start"})
    late = teacher.post(url + "/teams", data={"action": "name", "team-0": "A1", "team-1": "B1"})
    assert late.status_code == 409 and "before the round starts" in late.get_data(as_text=True)


def test_the_teacher_moves_a_child_and_balances_teams_between_turns(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="team", teams="2", team_mode="majority")
    students = {name: classroom.join(code, name) for name in ("Ada", "Ben", "Cy", "Di", "Eve")}
    ids = {}
    with app.app_context():
        ids = {s.nickname: s.id for s in db.session.query(Student)}
    for name in ("Ben", "Di"):
        assert teacher.post(f"{url}/students/{ids[name]}", data={"action": "team", "value": "0"}).status_code == 302
    assert set(teams_of(app, url).values()) == {0}  # everyone in the first team
    teacher.post(url + "/teams", data={"action": "balance"})
    assert teams_of(app, url) == {"Ada": 0, "Ben": 1, "Cy": 0, "Di": 1, "Eve": 0}
    teacher.post(url + "/control", data={"action": "start"})
    state = classroom.round(url).state
    hand = state["hands"][0]
    students["Ada"].post(f"/r/{code}/answer", data={"card": hand[0], "gap": "0"})  # a vote is in for this turn
    refused = teacher.post(f"{url}/students/{ids['Cy']}", data={"action": "team", "value": "1"})
    assert refused.status_code == 409 and "vote is in" in refused.get_data(as_text=True)
    assert teacher.post(url + "/teams", data={"action": "balance"}).status_code == 409
    for value in ("5", "abc", "-1", ""):
        assert teacher.post(f"{url}/students/{ids['Cy']}", data={"action": "team", "value": value}).status_code in (400, 409)
    assert teams_of(app, url)["Cy"] == 0


def test_a_round_without_teams_has_no_team_tools(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    classroom.join(code, "Ada")
    assert "Balance the teams" not in teacher.get(url).get_data(as_text=True)
    assert teacher.post(url + "/teams", data={"action": "balance"}).status_code == 409
