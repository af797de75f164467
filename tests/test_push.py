"""Push: the hub's listeners, the bus that carries committed changes, and the event streams of live rounds."""

import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from datetime import timedelta

import flask
import pytest
from conftest import SERVER_URL, ClassroomActions, database_config, statements_run, wait_until
from sqlalchemy import inspect as sa_inspect

from webapp import create_app, live
from webapp.classroom import push
from webapp.classroom.clock import now
from webapp.extensions import db
from webapp.live.hub import ANSWER, JOIN, ROSTER, STATE, SYNC, Hub, Listener
from webapp.models import Round


def read_events(response, count, timeout=10.0):
    """Return the next `count` events (name, data) of a streamed test-client response (heartbeats included)."""
    events, buffer = [], ""
    chunks = response.__dict__.setdefault("_chunks", iter(response.response))
    buffer = response.__dict__.get("_rest", "")
    deadline = time.monotonic() + timeout
    while len(events) < count and time.monotonic() < deadline:
        chunk = next(chunks)
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer and len(events) < count:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
            if "event" in fields:
                events.append((fields["event"], json.loads(fields["data"])))
    response.__dict__["_rest"] = buffer
    return events


def next_view(response, timeout=10.0):
    """Return the data of the next `view` event of a stream, skipping heartbeats."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        name, data = read_events(response, 1, timeout)[0]
        if name == "view":
            return data
        assert name == "alive", name
    raise AssertionError("no view came")


@pytest.fixture
def pushing(app):
    """Return the app with push on (the test client is not a server the app can tell holds streams cheaply)."""
    app.config.update(LIVE_PUSH="on", LIVE_STREAM_SECONDS=30)
    yield app
    app.extensions["live_hub"].close_all()
    app.extensions["live_bus"].stop()


def open_stream(client, url):
    response = client.get(url, buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    return response


# ------------------------------------------------------------------------------------------------ the hub


def test_an_urgent_change_wakes_at_once_and_others_at_most_once_per_lazy_period():
    hub = Hub()
    listener = hub.listen(1, follows=(STATE, ROSTER), urgent=(STATE,), lazy=0.3)
    hub.deliver(1, ROSTER)
    assert listener.take(1) == {ROSTER}  # the first change of a quiet stream is taken at once
    hub.deliver(1, ROSTER)
    started = time.monotonic()
    assert listener.take(1) == {ROSTER}
    assert time.monotonic() - started >= 0.25  # held: joins one after another redraw at most every `lazy`
    hub.deliver(1, ROSTER)
    hub.deliver(1, STATE)
    started = time.monotonic()
    assert listener.take(1) == {ROSTER, STATE}
    assert time.monotonic() - started < 0.1  # a reveal is never held


def test_an_urgent_change_ends_a_hold_at_once_and_a_stream_closed_meanwhile_wakes():
    hub = Hub()
    listener = hub.listen(1, follows=(STATE, ROSTER), urgent=(STATE,), lazy=5)
    hub.deliver(1, ROSTER)
    assert listener.take(1) == {ROSTER}
    hub.deliver(1, ROSTER)
    threading.Timer(0.2, hub.deliver, (1, STATE)).start()  # from another thread, while the join is held
    started = time.monotonic()
    assert listener.take(10) == {ROSTER, STATE}
    assert 0.15 < time.monotonic() - started < 1
    threading.Timer(0.2, listener.close).start()
    started = time.monotonic()
    assert listener.take(10) == set() and listener.closed
    assert time.monotonic() - started < 1


def test_a_listener_ignores_kinds_it_does_not_follow_and_other_topics():
    hub = Hub()
    listener = hub.listen(1, follows=(STATE,))
    hub.deliver(1, ANSWER)
    hub.deliver(2, STATE)
    assert listener.take(0.05) == set()
    assert hub.stamp(1)[ANSWER] == 1 and hub.stamp(2)[STATE] == 1  # every change is heard, followed or not


def test_closing_every_stream_wakes_them_and_leaving_forgets_them():
    hub = Hub()
    listeners = [hub.listen(topic, follows=(STATE,)) for topic in (1, 1, 2)]
    assert hub.streams() == 3
    hub.close_all()
    assert all(listener.take(1) == set() and listener.closed for listener in listeners)
    for listener in listeners:
        hub.leave(listener)
    assert hub.streams() == 0 and hub.following == {}


def test_a_change_is_offered_only_to_the_listeners_that_follow_its_kind(monkeypatch):
    hub, offered = Hub(), []
    monkeypatch.setattr(Listener, "deliver", lambda listener, kind: offered.append((listener, kind)))
    students = [hub.listen(1, follows=(STATE, ROSTER)) for _ in range(3)]
    teacher = hub.listen(1, follows=(STATE, ROSTER, ANSWER))
    elsewhere = hub.listen(2, follows=(ANSWER,))
    hub.deliver(1, ANSWER)
    assert offered == [(teacher, ANSWER)]  # an answer is not offered to each student's stream to be refused
    offered.clear()
    hub.deliver(1, STATE)
    assert {listener for listener, _kind in offered} == {*students, teacher}
    offered.clear()
    hub.resync()
    assert {listener for listener, _kind in offered} == {*students, teacher, elsewhere}
    hub.leave(teacher)
    offered.clear()
    hub.deliver(1, ANSWER)
    assert offered == [] and hub.streams() == 4


def look_in_turn_of(hub, listener, looks, entered=None, release=None, fail=False):
    """Look as a stream woken by a change does, noting when the look began and ended."""
    with hub.looking_in_turn(listener):
        looks.append(("in", listener))
        if entered is not None:
            entered.set()
        if release is not None:
            release.wait(5)
        looks.append(("out", listener))
        if fail:
            raise RuntimeError("the look failed")


def test_alike_streams_woken_by_a_change_look_once_the_first_has():
    hub, looks = Hub(), []
    first, alike, teacher = (hub.listen(1, follows=follows) for follows in ((STATE,), (STATE,), (STATE, ANSWER)))
    entered, release = threading.Event(), threading.Event()
    leader = threading.Thread(target=look_in_turn_of, args=(hub, first, looks, entered, release))
    leader.start()
    assert entered.wait(5)
    follower = threading.Thread(target=look_in_turn_of, args=(hub, alike, looks))
    follower.start()
    look_in_turn_of(hub, teacher, looks)  # another kind of screen (the teacher's) does not wait for students'
    follower.join(0.2)
    assert follower.is_alive() and ("in", alike) not in looks  # it waits: the first's look is being drawn
    release.set()
    leader.join(5)
    follower.join(5)
    assert looks.index(("out", first)) < looks.index(("in", alike))
    assert hub.leads == {}


def test_a_first_look_that_fails_or_takes_too_long_holds_no_one_up(monkeypatch):
    hub, looks = Hub(), []
    first, alike = hub.listen(1, follows=(STATE,)), hub.listen(1, follows=(STATE,))
    with pytest.raises(RuntimeError):
        look_in_turn_of(hub, first, looks, fail=True)
    assert hub.leads == {}
    look_in_turn_of(hub, alike, looks)  # nothing left to wait for
    monkeypatch.setattr(sys.modules["webapp.live.hub"], "LEAD_SECONDS", 0.2)
    entered, release = threading.Event(), threading.Event()
    stuck = threading.Thread(target=look_in_turn_of, args=(hub, first, looks, entered, release))
    stuck.start()
    assert entered.wait(5)
    started = time.monotonic()
    look_in_turn_of(hub, alike, looks)
    assert 0.15 < time.monotonic() - started < 2  # it looked after LEAD_SECONDS, though the first never ended
    release.set()
    stuck.join(5)


def test_the_first_woken_alike_listener_looks_for_the_others_once_and_only_while_nothing_came_since():
    hub, asked = Hub(), []

    def listener_with_view(name, follows=(STATE, ROSTER)):
        listener = hub.listen(1, follows=follows)
        listener.view = lambda woken_by: asked.append((name, woken_by)) or {"key": name}
        return listener

    lead, woken, asleep, own_request = (listener_with_view(name) for name in ("lead", "woken", "asleep", "mine"))
    own_request.view = None  # its view reads its own request (a teacher's): no one else may call it
    other_kinds = listener_with_view("teacher", follows=(STATE, ROSTER, ANSWER))
    hub.deliver(1, STATE)
    assert asleep.take(1) == {STATE}  # it took the change before the first looked: it is not waiting any more
    hub.prepare_alike(lead, {STATE})
    assert asked == [("woken", {STATE})]  # not the first itself, a stream not woken, one of its own, another kind's
    assert hub.prepared_for(woken) == ({"key": "woken"},)
    assert hub.prepared_for(woken) == ()  # once only
    hub.prepare_alike(lead, {STATE})
    hub.deliver(1, ROSTER)  # came after it was looked for: it looks for itself
    assert hub.prepared_for(woken) == ()
    assert own_request.prepared is None and other_kinds.prepared is None


def test_a_view_looked_for_another_that_fails_stops_the_looking_and_leaves_each_to_look_for_itself():
    hub = Hub()
    lead, failing, after = (hub.listen(1, follows=(STATE,)) for _ in range(3))
    failing.view = lambda woken_by: 1 / 0
    after.view = lambda woken_by: {"key": "after"}
    hub.deliver(1, STATE)
    hub.prepare_alike(lead, {STATE})  # raises nothing: the lead's own stream goes on
    assert hub.prepared_for(failing) == ()


def test_a_timed_call_runs_once_however_many_ask():
    hub, calls = Hub(), []
    for _ in range(5):
        hub.call_at("turn-ends", 0.05, lambda: calls.append(1))
    wait_until(lambda: calls)
    time.sleep(0.1)
    assert calls == [1] and hub.timers == {}


def test_a_failing_timed_call_is_logged_not_raised(caplog):
    hub = Hub()
    hub.call_at("boom", 0, lambda: 1 / 0)
    wait_until(lambda: "a timed call failed" in caplog.text)
    assert hub.timers == {}


# ------------------------------------------------------------------------------------------------ the bus


def round_id_of(url):
    return int(url.rsplit("/", 1)[1])


@pytest.fixture
def bus_started(pushing):
    """Start the app's bus (on PostgreSQL: its LISTEN connection) and wait until it listens."""
    bus = pushing.extensions["live_bus"]
    bus.start()
    if bus.postgres:
        assert bus.connected.wait(10)
    return bus


@pytest.mark.parametrize(("step", "kind"), [("join", JOIN), ("start", STATE), ("answer", ANSWER)])
def test_a_committed_change_reaches_the_hub_as_its_kind(pushing, bus_started, teacher, classroom, step, kind):
    url, code = classroom.new_round(teacher)
    ada = classroom.join(code, "Ada")
    if step == "answer":
        teacher.post(url + "/control", data={"action": "start"})
    listener = pushing.extensions["live_hub"].listen(round_id_of(url), follows=(STATE, JOIN, ANSWER),
                                                     urgent=(STATE, JOIN, ANSWER))
    while listener.take(0.3):  # what the set-up sent (a join is sent a moment after its commit, with any others)
        pass
    if step == "join":
        classroom.join(code, "Ben")
    elif step == "start":
        teacher.post(url + "/control", data={"action": "start"})
    else:
        ada.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(ada, code)})
    heard = set()  # the answer completes the card: its reveal may be heard first (answers are sent a moment later)
    wait_until(lambda: heard.update(listener.take(0.5)) or kind in heard)


def test_a_change_rolled_back_is_never_heard(pushing, bus_started, teacher, classroom):
    url, code = classroom.new_round(teacher)
    listener = pushing.extensions["live_hub"].listen(round_id_of(url), follows=(STATE, JOIN), urgent=(STATE, JOIN))
    with pushing.app_context():
        from webapp.extensions import db
        from webapp.models import Student

        rnd = db.session.get(Round, round_id_of(url))
        rnd.status = "playing"
        db.session.flush()  # on PostgreSQL this sends NOTIFY inside the transaction...
        db.session.rollback()  # ...which PostgreSQL then never delivers
        db.session.add(Student(round_id=rnd.id, nickname="Nobody", nickname_key="nobody", token_hash="x" * 64))
        db.session.flush()  # a join is gathered to be sent after its commit...
        db.session.rollback()  # ...which never comes
    assert listener.take(1) == set()
    classroom.join(code, "Ada")
    assert listener.take(5) == {JOIN}  # the bus still works after it


def test_answers_and_joins_send_no_notify_in_their_own_transaction(pushing, bus_started, teacher, classroom):
    """A transaction that sends NOTIFY holds a lock of the whole database server while it commits: answers and
    joins are gathered and sent after their commit, a round moving on in its own transaction."""
    url, code = classroom.new_round(teacher)
    ada, _ben = classroom.join(code, "Ada"), classroom.join(code, "Ben")
    with statements_run(pushing) as started:
        teacher.post(url + "/control", data={"action": "start"})
    with statements_run(pushing) as answered:  # Ben has not answered: the card stays open
        ada.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(ada, code)})
    with statements_run(pushing) as joined:
        classroom.join(code, "Cy")
    notifies = [sum("pg_notify" in statement for statement in run) for run in (started, answered, joined)]
    assert notifies == ([1, 0, 0] if bus_started.postgres else [0, 0, 0])


def test_gathered_changes_that_cannot_be_sent_are_logged_and_sending_goes_on(caplog):
    from webapp.live.bus import Bus

    bus = Bus(Hub(), "postgresql://nobody@127.0.0.1:9/none?connect_timeout=2")  # port 9: nothing listens
    bus.send_soon({7: ANSWER})
    bus.send_soon({7: ROSTER})  # within the same moment: one send
    wait_until(lambda: "could not be sent" in caplog.text)
    assert caplog.text.count("could not be sent") == 1 and bus.gathered == {}
    bus.send_soon({8: ANSWER})
    wait_until(lambda: caplog.text.count("could not be sent") == 2)


def test_a_process_sends_answers_and_joins_soon_after_a_quiet_spell_and_then_at_most_twice_a_second():
    """A class answering a card, a few dozen a second, wakes every other process twice a second, not once per
    answer; the first answer after a quiet spell still goes within GATHER_SECONDS."""
    from webapp.live.bus import GATHER_SECONDS, SEND_EVERY_SECONDS, Bus

    sent = []

    class Recording(Bus):
        def notify(self, changes):
            sent.append((time.monotonic(), changes))

    bus = Recording(Hub(), "postgresql://unused")
    first_at = time.monotonic()
    bus.send_soon({7: ANSWER})
    bus.send_soon({8: JOIN})
    wait_until(lambda: len(sent) == 1)
    bus.send_soon({7: ANSWER})
    time.sleep(0.1)
    bus.send_soon({9: ROSTER})
    wait_until(lambda: len(sent) == 2, timeout=3)
    (one_at, one), (two_at, two) = sent
    assert one == {7: ANSWER, 8: JOIN} and two == {7: ANSWER, 9: ROSTER}
    assert one_at - first_at < GATHER_SECONDS + 0.2
    assert two_at - one_at >= SEND_EVERY_SECONDS - 0.01
    time.sleep(SEND_EVERY_SECONDS)  # quiet again: the next goes at once
    again_at = time.monotonic()
    bus.send_soon({7: ANSWER})
    wait_until(lambda: len(sent) == 3)
    assert sent[2][0] - again_at < GATHER_SECONDS + 0.2


def test_the_bus_listens_again_after_its_connection_is_cut(pushing, bus_started):
    """A server restart or a proxy dropping the LISTEN connection: the bus reconnects, has every stream look again
    (it may have missed changes), and hears what is sent after."""
    if not bus_started.postgres:
        pytest.skip("SQLite hands changes over in-process: there is no connection to cut")
    import psycopg

    from webapp.live.bus import CHANNEL

    hub, marker = pushing.extensions["live_hub"], 10**9
    syncs = hub.syncs
    with psycopg.connect(bus_started.postgres_url, autocommit=True) as connection:
        cut = connection.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE datname = current_database() AND query = %s AND pid <> pg_backend_pid()", (f"LISTEN {CHANNEL}",)).fetchall()
        assert cut == [(True,)]
        wait_until(lambda: hub.syncs > syncs and bus_started.connected.is_set())
        connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{marker} {STATE}"))
    wait_until(lambda: hub.stamp(marker)[STATE] == 1)


def current_card(student, code):
    html = student.get(f"/r/{code}").get_data(as_text=True)
    return re.search(r'name="card" value="([^"]+)"', html).group(1)


# ------------------------------------------------------------------------------------------------ streams


def test_a_student_stream_sends_the_view_at_once_then_every_change(pushing, teacher, classroom):
    url, code, (ada, _ben) = classroom.play_started(teacher)
    stream = open_stream(ada, f"/r/{code}/events")
    first = next_view(stream)
    assert 'data-live-submit' in first["html"] and "Card 1 of" in first["html"]
    teacher.post(url + "/control", data={"action": "reveal"})
    revealed = next_view(stream)
    assert "You did not answer." in revealed["html"] and "data-live-submit" not in revealed["html"]
    assert revealed["key"] != first["key"]
    stream.close()


@pytest.mark.parametrize("screen", ["student", "teacher"])
def test_a_streams_looks_match_its_url_once_and_hold_no_connection_while_it_waits(pushing, teacher, classroom, screen,
                                                                               monkeypatch):
    url, code, (ada, _ben) = classroom.play_started(teacher)
    matched, connections_held = [], []
    original = flask.ctx.RequestContext.match_request

    def match_request(context):
        matched.append(context.request.path)
        return original(context)
    monkeypatch.setattr(flask.ctx.RequestContext, "match_request", match_request)
    browser, events = {"student": (ada, f"/r/{code}/events"), "teacher": (teacher, f"{url}/events")}[screen]
    stream = open_stream(browser, events)
    with pushing.app_context():
        pool = db.engine.pool
    next_view(stream)
    connections_held.append(pool.checkedout())
    for action in ("reveal", "next"):
        teacher.post(url + "/control", data={"action": action})
        assert next_view(stream)["html"]  # the teacher's stream still knows its teacher: their checks are kept
        connections_held.append(pool.checkedout())
    stream.close()
    # Once for the request that opened it, once more for its three looks together (each look's own: four).
    assert matched.count(events) == 2
    assert connections_held == [0, 0, 0]


def test_a_reconnecting_stream_that_holds_the_current_view_gets_only_a_heartbeat(pushing, teacher, classroom):
    _url, code, (ada, _ben) = classroom.play_started(teacher)
    stream = open_stream(ada, f"/r/{code}/events")
    key = next_view(stream)["key"]
    stream.close()
    again = ada.get(f"/r/{code}/events", headers={"Last-Event-ID": key}, buffered=False)
    assert read_events(again, 1) == [("alive", {})]
    again.close()


def test_a_heartbeat_looks_again_only_once_its_stream_has_not_looked_for_a_while(pushing, bus_started, teacher,
                                                                               classroom, monkeypatch):
    """The class's heartbeats 15 s after a change woke them all (which a teacher's next press meets) cost a write
    each and no look; a change the bus missed still shows, at the first heartbeat a while after the last look."""
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 0.05)
    monkeypatch.setattr(live, "LOOK_AGAIN_SECONDS", 0.6)
    url, _code, _students = classroom.play_started(teacher)
    looks, original = [], push.teacher_look
    monkeypatch.setattr(push, "teacher_look", lambda *args: looks.append(args) or original(*args))
    page = open_stream(teacher, f"{url}/events")
    assert "Reveal" in next_view(page)["html"]
    monkeypatch.setattr(Hub, "deliver", lambda *_args: None)  # the bus never hears it (on PostgreSQL: nor later)
    teacher.post(url + "/control", data={"action": "reveal"})
    heartbeats = 0
    while (event := read_events(page, 1)[0])[0] == "alive":
        heartbeats += 1
    assert event[0] == "view" and "Revealed:" in event[1]["html"]
    assert heartbeats >= 6 and len(looks) == 2  # the first look, and the one a while after it
    page.close()


@pytest.mark.parametrize("screen", ["student", "teacher", "stage"])
def test_a_pages_stream_sends_no_view_until_something_changes_since_the_page(pushing, teacher, classroom, screen):
    url, code, (ada, _ben) = classroom.play_started(teacher)
    browser, page = {"student": (ada, f"/r/{code}"), "teacher": (teacher, url), "stage": (teacher, f"{url}/stage")}[screen]
    events = re.search(r'data-events="([^"]+)"', browser.get(page).get_data(as_text=True)).group(1)
    stream = open_stream(browser, events.replace("&amp;", "&"))
    assert read_events(stream, 1) == [("alive", {})]  # the page is what the stream would show: nothing redrawn
    teacher.post(url + "/control", data={"action": "reveal"})
    assert next_view(stream)["html"]
    stream.close()


@pytest.mark.parametrize("screen", ["teacher", "stage"])
def test_a_teachers_page_reads_its_view_once_for_the_page_and_its_streams_key(pushing, teacher, classroom, screen,
                                                                           monkeypatch):
    """The page and the key its stream starts from are drawn from one reading of the class (a teacher's page of
    1,000 students was read twice on every load, after every "next")."""
    from webapp.classroom import screens

    url, _code, _students = classroom.play_started(teacher)
    calls, teacher_view = [], screens.teacher_view
    monkeypatch.setattr(screens, "teacher_view", lambda rnd, *known: calls.append(rnd.id) or teacher_view(rnd, *known))
    page = teacher.get({"teacher": url, "stage": f"{url}/stage"}[screen])
    assert page.status_code == 200 and 'data-events="' in page.get_data(as_text=True)
    assert len(calls) == 1


def test_what_a_student_sees_is_their_own_and_hides_nothing_of_the_line(pushing, teacher, classroom):
    _url, code, (ada, ben) = classroom.play_started(teacher)
    ada.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(ada, code)})
    ben.post(f"/r/{code}/answer", data={"gap": "1", "card": current_card(ben, code)})  # everyone in: revealed
    views = {name: next_view(open_stream(student, f"/r/{code}/events")) for name, student in (("ada", ada), ("ben", ben))}
    right = [name for name, view in views.items() if "You got it right" in view["html"]]
    assert len(right) == 1  # one of the two gaps is right: their panels differ in what is their own
    assert views[right[0]]["standing"].startswith("You: 1 point · number 1 of 2")
    wrong = ({"ada", "ben"} - set(right)).pop()
    assert views[wrong]["standing"].startswith("You: 0 points · number 2 of 2")
    assert all(view["seconds"] is None for view in views.values())  # no timer in this round


def test_a_panel_is_drawn_once_per_variant_not_once_per_student(pushing, teacher, classroom):
    url, code = classroom.new_round(teacher)
    students = [classroom.join(code, f"Kid{chr(65 + n)}{chr(97 + n)}") for n in range(12)]
    teacher.post(url + "/control", data={"action": "start"})
    for student in students[:4]:
        student.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(student, code)})
    streams = [open_stream(student, f"/r/{code}/events") for student in students]
    drawn = []

    def count(_sender, template, **_extra):
        if template.name == "classroom/student/_panel.html":
            drawn.append(1)

    with flask.template_rendered.connected_to(count, pushing):
        views = [next_view(stream) for stream in streams]
    assert 1 <= len(drawn) <= 2  # answered and not yet: twelve students, two variants (one drawn for the pages)
    assert len({view["html"] for view in views}) == 2
    teacher.post(url + "/control", data={"action": "reveal"})
    drawn.clear()
    with flask.template_rendered.connected_to(count, pushing):
        views = [next_view(stream) for stream in streams]
    assert 1 <= len(drawn) <= 3  # right, wrong, or no answer: never one per student
    assert sum("You did not answer." in view["html"] for view in views) == 8
    for stream in streams:
        stream.close()


def test_an_answer_is_answered_with_the_panel_drawn_once_for_all_who_answered_alike(pushing, teacher, classroom):
    """Under push an answer's reply is the student's variant, drawn once for everyone who answered alike, with their
    own standing and clock in headers: the same view their stream would send."""
    from urllib.parse import unquote

    url, code, students = classroom.play_started(teacher, names=("Ada", "Ben", "Cy"))
    for student in students:  # a card judged: points, and with them a standing to show
        student.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(student, code)})
    teacher.post(url + "/control", data={"action": "next"})
    drawn, replies = [], []

    def count(_sender, template, **_extra):
        if template.name == "classroom/student/_panel.html":
            drawn.append(1)

    cards = [current_card(student, code) for student in students]
    with flask.template_rendered.connected_to(count, pushing):
        for student, card in zip(students[:2], cards, strict=False):
            replies.append(student.post(f"/r/{code}/answer", data={"gap": "0", "card": card},
                                        headers={"X-Live-Panel": "1"}))
    assert [reply.status_code for reply in replies] == [200, 200] and len(drawn) <= 1
    assert replies[0].get_data() == replies[1].get_data()
    assert "Your answer is in" in replies[0].get_data(as_text=True)
    pushed = next_view(open_stream(students[0], f"/r/{code}/events"))
    assert replies[0].headers["X-Panel"] == "1" and replies[0].get_data(as_text=True) == pushed["html"]
    assert unquote(replies[0].headers["X-Standing"]) == pushed["standing"] and "point" in pushed["standing"]


def test_a_snapshot_takes_in_new_answers_by_reading_this_turns_alone(pushing, bus_started, teacher, classroom):
    """Answers come in all through a turn: a snapshot then reads only this turn's answers (not its students, nor
    every answer of the round)."""
    from conftest import statements_run

    url, code = classroom.new_round(teacher)
    ada, _ben = classroom.join(code, "Ada"), classroom.join(code, "Ben")
    teacher.post(url + "/control", data={"action": "start"})
    with pushing.test_request_context():
        before = push.snapshot(round_id_of(url))
    ada_id = next(student.id for student in before.students.values() if student.nickname == "Ada")
    assert ada_id not in before.answers
    ada.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(ada, code)})
    with pushing.test_request_context(), statements_run(pushing) as statements:
        after = push.snapshot(round_id_of(url))
    assert list(after.answers[ada_id]) == [0]  # the first card's answer, not yet judged
    assert after.students is before.students
    assert len(statements) == 1 and "answers.turn" in statements[0] and "students" not in statements[0]



def heard_everything(app, bus):
    """Wait until this process's hub has heard every change committed so far: on PostgreSQL a round moving on reaches
    it by its LISTEN connection a moment after the reply, in commit order, so a marker sent now comes after them."""
    if not bus.postgres:
        return  # SQLite: heard at commit
    import psycopg

    from webapp.live.bus import CHANNEL

    hub, marker = app.extensions["live_hub"], 10**9  # no round has this id
    sent = hub.stamp(marker)[ANSWER]
    with psycopg.connect(bus.postgres_url, autocommit=True) as connection:
        connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{marker} {ANSWER}"))
    wait_until(lambda: hub.stamp(marker)[ANSWER] > sent)


@pytest.mark.parametrize("moves", [("reveal",), ("reveal", "next"), ("reveal", "next", "reveal")])
def test_a_round_moving_on_rereads_its_answers_from_the_snapshots_turn_alone(pushing, bus_started, teacher,
                                                                             classroom, moves):
    """A reveal or "next" changes no student and judges only the turn being played: the snapshot keeps its students
    and reads answers from its own turn on, and holds exactly what reading everything again would."""
    from conftest import statements_run

    url, code = classroom.new_round(teacher)
    ada, ben = classroom.join(code, "Ada"), classroom.join(code, "Ben")
    teacher.post(url + "/control", data={"action": "start"})
    for _ in range(2):  # two cards played: answers of earlier turns are kept, not read again
        for student in (ada, ben):
            student.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(student, code)})
        teacher.post(url + "/control", data={"action": "next"})
    ada.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(ada, code)})
    round_id = round_id_of(url)
    with pushing.test_request_context():
        before = push.snapshot(round_id)
    for move in moves:
        assert teacher.post(url + "/control", data={"action": move}).status_code in (200, 302)
    heard_everything(pushing, bus_started)
    with pushing.test_request_context(), statements_run(pushing) as statements:
        after = push.snapshot(round_id)
    with pushing.test_request_context():
        full = push.read_snapshot(round_id)
    assert after.students is before.students
    assert after.answers == full.answers and after.round.version == full.round.version
    assert any(turn == 2 and right is not None for given in after.answers.values() for turn, right in given.items())
    assert not any("FROM students" in statement for statement in statements)
    assert any("answers.turn >=" in statement for statement in statements)


def test_a_next_keeps_the_answers_of_the_card_revealed_before_the_snapshot_and_reads_the_new_cards_alone(
        pushing, bus_started, teacher, classroom):
    """A revealed card's answers are final: a snapshot read after the reveal keeps them through "next" and reads
    again only the new card's (one of them is changed behind the app's back here, to show it is not read again)."""
    from sqlalchemy import update

    from webapp.extensions import db
    from webapp.models import Answer

    url, code = classroom.new_round(teacher)
    students = [classroom.join(code, name) for name in ("Ada", "Ben")]
    teacher.post(url + "/control", data={"action": "start"})
    for student in students:  # the last answer reveals the card
        student.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(student, code)})
    heard_everything(pushing, bus_started)
    round_id = round_id_of(url)
    with pushing.test_request_context():
        revealed = push.snapshot(round_id)
    ada_id = next(student.id for student in revealed.students.values() if student.nickname == "Ada")
    judged = revealed.answers[ada_id][0]
    assert judged is not None and not push.rounds.turn_open(revealed.round)
    with pushing.app_context():
        db.session.execute(update(Answer).where(Answer.student_id == ada_id, Answer.turn == 0)
                           .values(correct=not judged))
        db.session.commit()
    assert teacher.post(url + "/control", data={"action": "next"}).status_code in (200, 302)
    heard_everything(pushing, bus_started)
    with pushing.test_request_context():
        after = push.snapshot(round_id)
    assert after.round.version != revealed.round.version and push.rounds.turn_of(after.round) == 1
    assert after.students is revealed.students
    assert after.answers[ada_id] == {0: judged}


@pytest.mark.parametrize("leaderboard", ["every", "never"])
def test_a_snapshot_gives_the_shared_view_the_class_standing_the_database_gives_without_reading_it(
        pushing, bus_started, teacher, classroom, leaderboard):
    """Every process builds each round's shared view after every change: from its snapshot, the class's size, points,
    places and leaderboard (ties by name) are the ones the database gives, and no count is read for them."""
    from conftest import statements_run

    names = ("Ada", "ben", "Cy", "Dee", "Eve")
    url, code, students = classroom.play_started(teacher, names=names, leaderboard=leaderboard)
    for gaps in ((0, 0, 1, 1, 0), (1, 0, 0, 1, 1)):  # one place of each pair is right: points differ and tie
        for student, gap in zip(students, gaps, strict=True):
            student.post(f"/r/{code}/answer", data={"gap": str(gap), "card": current_card(student, code)})
        teacher.post(url + "/control", data={"action": "next"})
    eve = student_id(pushing, "Eve")
    teacher.post(f"{url}/students/{eve}", data={"action": "remove"})
    heard_everything(pushing, bus_started)
    with pushing.test_request_context():
        snap = push.snapshot(round_id_of(url))
        from_database = push.build_shared_view(snap.round, None)
        with statements_run(pushing) as statements:
            from_snapshot = push.build_shared_view(snap.round, None, snap)
    for shared in ("leaderboard", "scores", "places", "class_size"):
        assert from_snapshot[shared] == from_database[shared], shared
    assert from_database["class_size"] == 4
    assert (from_database["leaderboard"] is not None) == (leaderboard == "every")
    if leaderboard == "every":
        assert sum(from_database["scores"]) == sum(
            right is True for given in snap.answers.values() for right in given.values()) - sum(
            right is True for right in snap.answers.get(eve, {}).values())
    assert not any("count(" in statement.lower() for statement in statements)

def test_in_the_lobby_joins_wake_no_student_screen_but_the_start_does(pushing, bus_started, teacher, classroom):
    url, code = classroom.new_round(teacher)
    ada = classroom.join(code, "Ada")
    stream = open_stream(ada, f"/r/{code}/events")
    assert "You're in!" in next_view(stream)["html"]
    (listener,) = pushing.extensions["live_hub"].following[(round_id_of(url), SYNC)]  # every listener follows syncs
    assert listener.ignored == {JOIN}
    for name in ("Ben", "Cy", "Dev"):
        classroom.join(code, name)
    assert JOIN not in listener.pending  # three joins, and Ada's stream was not woken by one
    teacher.post(url + "/control", data={"action": "start"})
    assert "Card 1 of" in next_view(stream)["html"]
    assert listener.ignored == set()  # playing, a join changes "number 2 of N"
    stream.close()


def test_a_newcomer_whose_stream_opens_on_a_snapshot_read_before_they_joined_sees_their_round(pushing, teacher, classroom):
    _url, code, (ada, _ben) = classroom.play_started(teacher)
    next_view(open_stream(ada, f"/r/{code}/events"))  # reads the round's snapshot
    cy = classroom.join(code, "Cy")  # within the second: Cy's first look may use that snapshot
    view = next_view(open_stream(cy, f"/r/{code}/events"))
    assert "Card 1 of" in view["html"]


def test_a_removed_student_is_told_they_are_gone(pushing, teacher, classroom):
    url, code, (ada, _ben) = classroom.play_started(teacher)
    stream = open_stream(ada, f"/r/{code}/events")
    next_view(stream)
    teacher.post(f"{url}/students/{student_id(pushing, 'Ada')}", data={"action": "remove"})
    name, _ = next(event for event in iter(lambda: read_events(stream, 1)[0], None) if event[0] != "alive")
    assert name == "gone"
    assert ada.get(f"/r/{code}/events").status_code == 403


def test_after_a_change_the_first_woken_student_stream_looks_for_every_other_in_one_context(pushing, teacher,
                                                                                             classroom, monkeypatch):
    url, code = classroom.new_round(teacher)
    students = [classroom.join(code, f"Kid{chr(65 + n)}{chr(97 + n)}") for n in range(6)]
    teacher.post(url + "/control", data={"action": "start"})
    for gap, student in zip((0, 1, 0), students):
        student.post(f"/r/{code}/answer", data={"gap": str(gap), "card": current_card(student, code)})
    streams = [open_stream(student, f"/r/{code}/events") for student in students]
    for stream in streams:
        next_view(stream)
    pushed, original = [], live.LookContext.push
    monkeypatch.setattr(live.LookContext, "push", lambda context: pushed.append(1) or original(context))
    teacher.post(url + "/control", data={"action": "reveal"})
    views = [next_view(stream) for stream in streams]
    assert len(pushed) == 1  # six screens, one look in the first one's contexts
    with pushing.test_request_context():
        round_id = db.session.get(Round, round_id_of(url)).id
        for nickname, view in zip([f"Kid{chr(65 + n)}{chr(97 + n)}" for n in range(6)], views):
            student = db.session.get(push.Student, student_id(pushing, nickname))
            looked = push.student_look(round_id, student.id, student.token_hash, {STATE})
            assert view == {name: value for name, value in looked.items() if name != "ignores"}  # each their own
    assert {view["standing"] for view in views} == {"You: 1 point · number 1 of 6", "You: 0 points · number 2 of 6"}
    for stream in streams:
        stream.close()


def test_a_stream_looked_for_before_another_change_came_looks_again_for_itself(pushing, bus_started, teacher,
                                                                              classroom):
    url, code, (ada, ben) = classroom.play_started(teacher)
    streams = [open_stream(student, f"/r/{code}/events") for student in (ada, ben)]
    for stream in streams:
        next_view(stream)
    teacher.post(url + "/control", data={"action": "reveal"})
    assert "You did not answer." in next_view(streams[0])["html"]  # Ben's view was looked for with Ada's
    teacher.post(url + "/control", data={"action": "next"})
    heard_everything(pushing, bus_started)
    assert "Card 2 of" in next_view(streams[1])["html"]  # not the revealed card it was looked for
    for stream in streams:
        stream.close()


def test_a_student_removed_meanwhile_is_told_they_are_gone_when_another_looked_for_them(pushing, teacher, classroom):
    url, code, (ada, ben) = classroom.play_started(teacher)
    streams = [open_stream(student, f"/r/{code}/events") for student in (ada, ben)]
    for stream in streams:
        next_view(stream)
    teacher.post(f"{url}/students/{student_id(pushing, 'Ben')}", data={"action": "remove"})
    next_view(streams[0], timeout=5)  # Ada's class is one smaller; her look was the one for both
    assert streams[1].__dict__.get("_rest", "") == ""
    assert [name for name, _ in read_events(streams[1], 1)] == ["gone"]
    for stream in streams:
        stream.close()


def student_id(app, nickname):
    with app.app_context():
        from webapp.extensions import db
        from webapp.models import Student

        return db.session.query(Student).filter_by(nickname=nickname).one().id


def test_only_the_rounds_students_and_teacher_may_follow_it(pushing, teacher, classroom, client):
    url, code, _students = classroom.play_started(teacher)
    stranger = pushing.test_client()
    assert stranger.get(f"/r/{code}/events").status_code in (302, 403, 404)
    assert stranger.get(f"{url}/events").status_code in (302, 401, 403)
    other_teacher = pushing.test_client()
    classroom.register(other_teacher, email="other@school.org", name="Mr Other")
    refused = other_teacher.get(f"{url}/panel").status_code
    assert refused in (403, 404)  # as the polled panel refuses another teacher
    assert other_teacher.get(f"{url}/events").status_code == refused
    assert other_teacher.get(f"{url}/stage/events").status_code == refused


def test_a_server_that_only_polls_says_so_and_its_pages_name_no_stream(app, teacher, classroom):
    app.config["LIVE_PUSH"] = "off"
    url, code, (ada, _ben) = classroom.play_started(teacher)
    assert ada.get(f"/r/{code}/events").status_code == 204  # EventSource's "do not reconnect"
    assert teacher.get(f"{url}/events").status_code == 204
    assert "data-events" not in ada.get(f"/r/{code}").get_data(as_text=True)
    assert "data-events" not in teacher.get(url).get_data(as_text=True)
    app.config["LIVE_PUSH"] = "on"
    assert 'data-events="/r/' in ada.get(f"/r/{code}").get_data(as_text=True)
    assert f'data-events="{url}/events?have=' in teacher.get(url).get_data(as_text=True)
    assert f'data-events="{url}/stage/events?have=' in teacher.get(f"{url}/stage").get_data(as_text=True)


def test_the_teachers_page_and_stage_streams_show_answers_coming_in(pushing, teacher, classroom):
    url, code, (ada, _ben) = classroom.play_started(teacher)
    page, stage = open_stream(teacher, f"{url}/events"), open_stream(teacher, f"{url}/stage/events")
    before = next_view(page)["html"], next_view(stage)["html"]
    ada.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(ada, code)})
    after = next_view(page)["html"], next_view(stage)["html"]
    assert after[0] != before[0] and after[1] != before[1]
    assert "1 of 2" in re.sub(r"<[^>]+>", "", after[0]) or "Ben" in after[0]
    page.close()
    stage.close()


def test_a_teachers_screens_redraw_for_answers_from_the_rounds_snapshot_alone(pushing, bus_started, teacher,
                                                                               classroom):
    """A teacher's page and stage redraw every second while answers come in: from the round's snapshot, with one
    read of this turn's answers for both (and for the round's students' screens), never the class or the round."""
    from conftest import statements_run

    url, code, (ada, ben) = classroom.play_started(teacher)
    page, stage = open_stream(teacher, f"{url}/events"), open_stream(teacher, f"{url}/stage/events")
    next_view(page), next_view(stage)
    ada.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(ada, code)})
    with statements_run(pushing) as statements:
        after = next_view(page)["html"], next_view(stage)["html"]
    assert "1 of 2 answered" in re.sub(r"<[^>]+>", "", after[0])
    assert len(statements) == 1 and "FROM answers" in statements[0]
    ben.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(ben, code)})  # the last: the card is revealed
    assert "Revealed:" in next_view(page)["html"]
    page.close()
    stage.close()


def test_a_teachers_screens_redraw_for_the_round_moving_on_from_its_snapshot(pushing, bus_started, teacher, classroom):
    """A reveal or a "next" (25 classes pressing it in the same minute) redraws a teacher's page and stage from the
    round's snapshot, read once for both and for the students' screens: the round and the answers it judged, never
    the class (nor the periods, kept by the process)."""
    from conftest import statements_run

    url, code, (ada, _ben) = classroom.play_started(teacher)
    page, stage = open_stream(teacher, f"{url}/events"), open_stream(teacher, f"{url}/stage/events")
    next_view(page), next_view(stage)
    ada.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(ada, code)})
    next_view(page), next_view(stage)
    teacher.post(url + "/control", data={"action": "reveal"})
    with statements_run(pushing) as statements:
        after = next_view(page)["html"], next_view(stage)["html"]
    assert "Revealed:" in after[0] and "Right:" in after[1]
    tables = [statement.split("FROM ")[1].split()[0] for statement in statements]
    assert tables.count("rounds") == 1 and "students" not in tables and "periods" not in tables
    page.close()
    stage.close()


def test_a_turn_whose_time_ran_out_is_revealed_with_no_poll_at_all(pushing, teacher, classroom):
    url, code, (ada, _ben) = classroom.play_started(teacher, turn_seconds="10")
    classroom.set_round(url, turn_started_at=now() - timedelta(seconds=9.6))
    stream = open_stream(ada, f"/r/{code}/events")
    first = next_view(stream)
    assert 0 < first["seconds"] <= 0.5
    revealed = next_view(stream, timeout=5)  # the stream's process settles the round when the time is up
    assert "You did not answer." in revealed["html"]


# ------------------------------------------------------------------------------------ two processes (PostgreSQL)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(database_url, port):
    """Start the app in a process of its own (gunicorn's gevent worker, as in production) on `port`."""
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret", "COOKIE_SECURE": "0",
           "JOINS_PER_ADDRESS_HOUR": "100000"}
    return subprocess.Popen([sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--graceful-timeout", "1",
                             "-b", f"127.0.0.1:{port}",
                             "webapp:create_app()"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def follow(base, cookie, path, into):
    """Read a stream in a thread: put (time it came, event name, data) of each event into `into`."""
    import httpx

    def read():
        try:
            with httpx.Client(base_url=base, cookies={"session": cookie}, timeout=None) as http, \
                    http.stream("GET", path) as response:
                name = None
                for line in response.iter_lines():
                    if line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("data: ") and name:
                        into.put((time.monotonic(), name, json.loads(line[6:])))
        except httpx.HTTPError:
            return  # the test stopped the server: its streams end mid-body

    threading.Thread(target=read, daemon=True).start()


def next_pushed(into, timeout=15.0):
    """Return (when, data) of the next view pushed into `into`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        when, name, data = into.get(timeout=max(0.01, deadline - time.monotonic()))
        if name == "view":
            return when, data
    raise AssertionError("no view was pushed")


@pytest.mark.skipif(not SERVER_URL, reason="LISTEN/NOTIFY: the processes share a PostgreSQL database")
def test_two_app_processes_push_one_rounds_changes_to_students_on_each(app, teacher, classroom, loaded_database_url):
    pytest.importorskip("gevent")
    ports = free_port(), free_port()
    servers = [serve(str(loaded_database_url).replace("+psycopg", ""), port) for port in ports]
    try:
        for port in ports:
            wait_until(lambda port=port: ping(port), timeout=30)
        url, code, (ada, ben) = classroom.play_started(teacher)
        streams = {"ada": queue.Queue(), "ben": queue.Queue()}
        follow(f"http://127.0.0.1:{ports[0]}", ada.get_cookie("session").value, f"/r/{code}/events", streams["ada"])
        follow(f"http://127.0.0.1:{ports[1]}", ben.get_cookie("session").value, f"/r/{code}/events", streams["ben"])
        for pushed in streams.values():
            assert "Card 1 of" in next_pushed(pushed)[1]["html"]
        # A change made in a third process (this test's app) reaches both...
        teacher.post(url + "/control", data={"action": "reveal"})
        for pushed in streams.values():
            assert "You did not answer." in next_pushed(pushed)[1]["html"]
        # ...and the class's answers, which make the reveal, reach both too.
        teacher.post(url + "/control", data={"action": "next"})
        for pushed in streams.values():
            assert "Card 2 of" in next_pushed(pushed)[1]["html"]
        for student in (ada, ben):
            student.post(f"/r/{code}/answer", data={"gap": "0", "card": current_card(student, code)})
        verdicts = [next_pushed(pushed)[1]["html"] for pushed in streams.values()]
        assert all("You got it right" in html or "Not quite" in html for html in verdicts)
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)


def ping(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False



def test_a_homework_opens_on_time_for_a_teacher_watching_its_page_with_no_poll(pushing, teacher, classroom):
    url, _code = classroom.new_round(teacher, format="self_paced")
    rnd = classroom.round(url)
    classroom.set_round(url, settings={**rnd.settings, "opens_at": time.time() + 0.5})
    stream = open_stream(teacher, f"{url}/events")
    next_view(stream)
    assert classroom.round(url).status == "lobby"
    next_view(stream, timeout=5)  # the stream's process opened it when the time came, and showed it
    assert classroom.round(url).status == "playing"
    stream.close()


# ------------------------------------------------------------------------------------------------ in a browser


def polls_since(requests, moment):
    """Return how many version or panel polls a page sent since `moment`."""
    return sum(1 for at, url in requests if at >= moment and re.search(r"/r/\w+/(version|panel)$", url))


@pytest.mark.browser
def test_a_phone_whose_stream_is_cut_mid_round_catches_up_by_polling_then_takes_push_again(
        browser, live_server, teacher_page, new_round_page, loaded_database_url):
    from playwright.sync_api import expect

    code = new_round_page(teacher_page, count="3")
    phones = {}
    for name in ("Ada", "Ben"):  # Ben never answers: Ada's answer alone does not reveal the card
        phones[name] = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
        phones[name].goto(f"{live_server}/join?code={code}")
        phones[name].get_by_label("Your name").fill(name)
        phones[name].get_by_role("button", name="Join").tap()
        expect(phones[name].locator(".big-status")).to_have_text("You're in! Wait for your teacher to start.")
    phone, requests = phones["Ada"], []
    phone.on("request", lambda request: requests.append((time.monotonic(), request.url)))
    teacher_page.get_by_role("button", name="Start the round").click()
    expect(phone.locator("#live h2").first).to_contain_text("Card 1 of 3", timeout=5000)  # pushed
    pushed_since = time.monotonic()
    time.sleep(2.5)
    assert polls_since(requests, pushed_since) == 0  # while the stream works, the phone asks nothing

    phone.locator("#live form.place-form label.gap").first.tap()
    phone.get_by_role("button", name="Place card").tap()
    expect(phone.locator(".big-status")).to_have_text("Your answer is in. Wait for the reveal…")

    # The server drops every stream (a restart, a proxy timing out), and the phone's network now refuses
    # streams: it polls, and must catch up with the reveal made meanwhile.
    phone.route("**/events*", lambda route: route.abort())
    cut_at = time.monotonic()
    live_server.app.extensions["live_hub"].close_all()
    teacher_page.get_by_role("button", name="Reveal").click()
    expect(phone.locator("#live .last-move .verdict")).to_have_count(1, timeout=8000)  # caught up by polling
    assert polls_since(requests, cut_at) > 0

    # Streams get through again: the phone takes push up again and stops polling.
    phone.unroute("**/events*")
    wait_until(lambda: quiet_for(requests, 2.5), timeout=20)
    teacher_page.get_by_role("button", name="Next card").click()
    expect(phone.locator("#live h2").first).to_contain_text("Card 2 of 3", timeout=5000)

    # What Ada did while cut off counted once.
    with create_app_for(loaded_database_url).app_context():
        from webapp.extensions import db
        from webapp.models import Answer, Student

        ada = db.session.query(Student).filter_by(nickname="Ada").one()
        assert db.session.query(Answer).filter_by(student_id=ada.id).count() == 1


def quiet_for(requests, seconds):
    """Say whether a page has sent no poll for the last `seconds` (it has had push back for that long)."""
    time.sleep(seconds)
    return polls_since(requests, time.monotonic() - seconds) == 0


def create_app_for(database_url):
    return create_app(database_config(database_url))


def test_requests_waiting_for_a_round_being_read_give_their_connection_back(loaded_database_url, monkeypatch):
    # Two connections in the pool (PostgreSQL's start-up needs two) and two pages holding them while they wait for
    # the reader, which needs one: without giving them back all three would hang until the pool's timeout (at
    # 1,000 students every connection was held so, and requests timed out).
    two = create_app({**database_config(loaded_database_url), "LIVE_PUSH": "on",
                      "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 2, "max_overflow": 0, "pool_timeout": 3}})
    teacher = two.test_client()
    helper = ClassroomActions(two)
    helper.register(teacher)
    url, _code = helper.new_round(teacher)
    round_id = round_id_of(url)
    pages_hold_connections, read_snapshot = threading.Barrier(3), push.read_snapshot

    def slow_read(found_id):
        if threading.current_thread() is first:  # PostgreSQL not listening yet: the pages read the round too
            pages_hold_connections.wait(5)
        return read_snapshot(found_id)

    monkeypatch.setattr(push, "read_snapshot", slow_read)
    outcomes, kept = [], []

    def reader():
        with two.test_request_context():
            outcomes.append(("reader", push.snapshot(round_id).round.id))

    def page():
        with two.test_request_context():
            mine = db.session.get(Round, round_id)  # the page's own reading: one of the pool's connections is its
            pages_hold_connections.wait(5)
            outcomes.append(("page", push.snapshot(round_id).round.id))
            kept.append(not sa_inspect(mine).expired)  # what it read stays loaded: not read again row by row

    first = threading.Thread(target=reader)
    first.start()
    wait_until(lambda: round_id in two.extensions.get("live_snapshots", {}).get("locks", {})
               and two.extensions["live_snapshots"]["locks"][round_id].locked())
    pages = [threading.Thread(target=page) for _ in range(2)]
    for thread in pages:
        thread.start()
    for thread in (first, *pages):
        thread.join(10)
    two.extensions["live_bus"].stop()  # the snapshot started it listening (on PostgreSQL); the database goes next
    with two.app_context():
        db.engine.dispose()
    assert sorted(outcomes) == [("page", round_id), ("page", round_id), ("reader", round_id)]
    assert kept == [True, True]


def test_a_round_being_read_holds_up_no_other_rounds_screens(pushing, bus_started, teacher, classroom, monkeypatch):
    """25 classes on one server: one round's snapshot being read (its lock held) must not make another's wait."""
    slow_url, _ = classroom.new_round(teacher)
    other_url, _ = classroom.new_round(teacher)
    reading, go_on, read_snapshot = threading.Event(), threading.Event(), push.read_snapshot

    def slow_read(found_id):
        if found_id == round_id_of(slow_url):
            reading.set()
            go_on.wait(10)
        return read_snapshot(found_id)

    monkeypatch.setattr(push, "read_snapshot", slow_read)

    def look(url, found):
        with pushing.test_request_context():
            found.append(push.snapshot(round_id_of(url)).round.id)

    slow, other = [], []
    first = threading.Thread(target=look, args=(slow_url, slow))
    first.start()
    assert reading.wait(5)
    look(other_url, other)  # would wait for the slow read (and time out the test's join below) with one lock
    assert other == [round_id_of(other_url)] and slow == []
    go_on.set()
    first.join(10)
    assert slow == [round_id_of(slow_url)]


def test_shared_views_read_the_periods_and_cards_once_a_minute_per_process(pushing, teacher, classroom, monkeypatch):
    """Every round's shared view in every process needs the periods and the line's cards after every change: they
    are reference data, kept for a minute, so 25 classes starting at once do not read them a hundred times."""
    from conftest import statements_run

    from webapp.classroom import versioned

    def started_round():
        url, code = classroom.new_round(teacher)
        classroom.join(code, "Ada")
        teacher.post(url + "/control", data={"action": "start"})
        return round_id_of(url)

    def shared_view_reads(round_id):
        with pushing.test_request_context(), statements_run(pushing) as statements:
            rnd = db.session.get(Round, round_id)
            view = push.shared_view(rnd)
            assert view["periods"] and view["cards"]  # what the panel is drawn from is all there
            assert all(card.common_name for card in view["cards"].values())  # detached, its columns loaded
        return [s for s in statements if "FROM periods" in s or "FROM cards" in s]

    first, second = started_round(), started_round()
    monkeypatch.setattr(versioned, "REFERENCE_SECONDS", 0.0)  # forget what the teacher's pages read
    assert shared_view_reads(first)  # the first view of the process reads them...
    monkeypatch.setattr(versioned, "REFERENCE_SECONDS", 60.0)
    assert not any("FROM periods" in s for s in shared_view_reads(second))  # ...the next ones do not
    with pushing.app_context():
        versioned.move_version_on(db.session.get(Round, first))  # a change: the view is built again
        db.session.commit()
    # Nor the cards it read (the observation's other words, which name no card, are not looked for again).
    assert shared_view_reads(first) == []
    monkeypatch.setattr(versioned, "REFERENCE_SECONDS", 0.0)
    third = started_round()
    assert any("FROM periods" in s for s in shared_view_reads(third))  # past the minute, read again


def test_a_student_removed_in_the_lobby_is_told_they_are_gone_at_once(pushing, teacher, classroom):
    url, code = classroom.new_round(teacher)
    ada, _ben = classroom.join(code, "Ada"), classroom.join(code, "Ben")
    stream = open_stream(ada, f"/r/{code}/events")
    assert "You're in" in next_view(stream)["html"]
    teacher.post(f"{url}/students/{student_id(pushing, 'Ada')}", data={"action": "remove"})
    removed_at = time.monotonic()
    name, _ = read_events(stream, 1)[0]  # not a heartbeat's look, 15 s on: a join may be ignored in a lobby, this not
    assert (name, time.monotonic() - removed_at < 5) == ("gone", True)


def test_in_the_lobby_a_newcomers_first_look_reads_no_class_however_old_the_snapshot(
        pushing, bus_started, teacher, classroom, monkeypatch):
    monkeypatch.setattr(push, "JOINS_READ_EVERY", 0.0)  # out of the lobby, a snapshot missing a join is now too old
    url, code = classroom.new_round(teacher)
    classroom.join(code, "Ada")
    round_id = round_id_of(url)
    with pushing.test_request_context():
        push.snapshot(round_id, joins_may_lag=True)
    cy = [classroom.join(code, name) for name in ("Ben", "Cy")][-1]
    heard_everything(pushing, bus_started)
    with statements_run(pushing) as statements:
        assert "You're in!" in next_view(open_stream(cy, f"/r/{code}/events"))["html"]
    assert not any("FROM students" in statement and "students.round_id =" in statement for statement in statements)
    teacher.post(url + "/control", data={"action": "start"})
    heard_everything(pushing, bus_started)
    with pushing.test_request_context():
        assert len(push.snapshot(round_id, joins_may_lag=True).students) == 3  # the start: the class is read again
