"""Admission: a process serves a bounded number of requests at once, answers first; the rest wait, then get a 503."""

import random
import threading
import time

import pytest
from sqlalchemy import create_engine, text

from webapp.common.admission import ACTS_NEXT, BUSY, LOOKS_AFTER, TEACHERS_FIRST, Gate, priority_of


def wait_for(condition, seconds=5.0):
    """Wait until condition() holds; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_no_more_than_the_slots_are_ever_inside_and_every_request_gets_in():
    gate, inside, most, served = Gate(3), [0], [0], []
    lock = threading.Lock()

    def request(seed):
        rng = random.Random(seed)
        assert gate.enter(rng.choice((ACTS_NEXT, LOOKS_AFTER)), 10)
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(rng.uniform(0, 0.004))
        with lock:
            inside[0] -= 1
            served.append(seed)
        gate.leave()

    threads = [threading.Thread(target=request, args=(seed,)) for seed in range(60)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 3 and sorted(served) == list(range(60))
    assert gate.free == 3 and gate.waiting() == 0


def queue_behind(gate, priority, admitted, name):
    """Start a request of `priority` that waits at the full gate; it appends `name` to `admitted` once in."""
    def request():
        if gate.enter(priority, 10):
            admitted.append(name)

    thread = threading.Thread(target=request)
    thread.start()
    return thread


def test_the_teacher_goes_first_then_an_answer_then_pages_in_their_order():
    gate, admitted = Gate(1), []
    assert gate.enter(LOOKS_AFTER, 0)  # the one slot is busy
    threads = []
    for method, teacher, name in (("GET", False, "page 1"), ("GET", False, "page 2"), ("POST", False, "answer"),
                                  ("GET", True, "teacher's screen")):
        threads.append(queue_behind(gate, priority_of(method, teacher), admitted, name))
        queued = len(threads)
        wait_for(lambda queued=queued: gate.waiting() == queued)
    for count in range(1, 5):
        gate.leave()
        wait_for(lambda count=count: len(admitted) == count)
    for thread in threads:
        thread.join()
    assert admitted == ["teacher's screen", "answer", "page 1", "page 2"]
    assert priority_of("POST", True) == TEACHERS_FIRST


def test_a_request_that_gives_up_takes_no_slot_with_it():
    gate = Gate(1)
    assert gate.enter(ACTS_NEXT, 0)
    assert not gate.enter(ACTS_NEXT, 0.02)  # waited, gave up
    gate.leave()  # the slot skips the one that left and is free again
    assert gate.free == 1 and gate.enter(LOOKS_AFTER, 0)


@pytest.fixture
def one_slot_app(app):
    app.config["REQUEST_WAIT_SECONDS"] = 0.05
    gate = app.extensions["admission_gate"] = Gate(1)
    return app, gate


def test_a_full_process_answers_503_busy_and_serves_again_once_a_slot_is_free(one_slot_app, classroom):
    app, gate = one_slot_app
    client = app.test_client()
    teacher = app.test_client()
    classroom.register(teacher)
    url, code = classroom.new_round(teacher)
    student = classroom.join(code, "Ada")
    assert gate.free == 1  # every request above gave its slot back

    assert gate.enter(ACTS_NEXT, 0)  # another request holds the only slot
    busy = client.get("/")
    assert busy.status_code == 503 and BUSY in busy.get_data(as_text=True)
    answer = student.post(f"/r/{code}/answer", data={"gap": "0"}, headers={"Accept": "application/json"})
    assert answer.status_code == 503 and answer.get_json()["error"] == BUSY
    # An event stream waits without a slot: it opens (or, where this server holds no streams, says so) at once.
    stream = student.get(f"/r/{code}/events", buffered=False)
    assert stream.status_code in (200, 204)
    stream.close()
    assert teacher.post(url + "/control", data={"action": "start"}).status_code == 503
    assert classroom.round(url).status == "lobby"  # a refused request changed nothing

    gate.leave()
    assert client.get("/").status_code == 200 and gate.free == 1


@pytest.mark.browser
def test_an_answer_the_busy_server_refused_says_so_and_goes_through_when_pressed_again(
        browser, live_server, teacher_page, new_round_page, loaded_database_url):
    teacher = teacher_page
    code = new_round_page(teacher)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{live_server}/join?code={code}")
    phone.get_by_label("Your name").fill("Ada")
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text("You're in!").wait_for()
    teacher.get_by_role("button", name="Start the round").click()

    phone.route("**/answer", lambda route: route.fulfill(status=503, content_type="text/html", body=BUSY))
    phone.locator("label.gap").first.tap()
    phone.get_by_role("button", name="Place card").tap()
    refusal = phone.get_by_role("alert").filter(has_text="very busy")
    refusal.wait_for()
    assert "your answer was not sent" in refusal.inner_text()
    assert phone.url.endswith(f"/r/{code}")  # no reload: the chosen place is still chosen

    phone.unroute("**/answer")
    phone.get_by_role("button", name="Place card").tap()
    phone.locator("form.place-form").wait_for(state="detached")
    engine = create_engine(loaded_database_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM answers")).scalar() == 1  # counted once, when sent
    engine.dispose()
