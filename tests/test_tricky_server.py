"""My tricky cards kept on the school's server for a pupil on a class list: linking a browser with the personal
code, merging devices' histories, unlinking, the cap, erasure and the retention sweep (issue 29, point 1)."""

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from conftest import statements_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import expect
from sqlalchemy import func, select
from test_tricky import JSONISH

from webapp.common.tokens import token_hash
from webapp.extensions import db
from webapp.models import Game, PupilDevice, PupilPlacement
from webapp.privacy import forget as job
from webapp.tricky import kept, schedule

COOKIE = "tricky_pupil"


def ms(when):
    return int(when.timestamp() * 1000)


def placed(card, right=True, passed=(), days_ago=1.0, by="mass", game="g1"):
    """Return a placement as the browser posts it, made `days_ago` days before now."""
    return {"card": card, "by": by, "right": right, "close": False, "passed": list(passed), "beside": [],
            "game": game, "at": ms(datetime.now(UTC) - timedelta(days=days_ago))}


@pytest.fixture
def slugs(app):
    """The dinosaurs' slugs, lightest first."""
    with app.app_context():
        from webapp.cards.queries import card_values

        values = card_values("dinosaurs", "mass")
    return sorted(values, key=values.get)


@pytest.fixture
def ava(classroom, teacher):
    """A class of four made by the logged-in teacher; return (class page URL, Ava K.'s (id, personal code))."""
    class_url, pupils = classroom.new_class(teacher)
    return class_url, pupils["Ava K."]


def linked(app, code):
    """Return a new browser linked to the pupil with personal `code`."""
    device = app.test_client()
    response = device.post("/tricky/link", data={"personal_code": code})
    assert response.status_code == 302, re.findall(r'field-error[^>]*>([^<]*)', response.get_data(as_text=True))
    return device


def sync(device, history):
    """Post a browser's history to the server as tricky.js does; return the answer's JSON."""
    response = device.post("/tricky/kept", data={"history": json.dumps(history)}, headers={"Accept": "application/json"})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def stored(app, model=PupilPlacement):
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def keys(history):
    return sorted((p["at"], p["card"]) for p in history)


def test_a_pupil_links_this_browser_with_the_code_on_their_slip(app, ava):
    _class_url, (_ava_id, code) = ava
    device = app.test_client()
    page = device.get("/tricky/").get_data(as_text=True)
    assert "keep my tricky cards on the school's server" in page and 'name="personal_code"' in page
    response = device.post("/tricky/link", data={"personal_code": f" {code.lower()} "})  # as a child may type it
    assert response.status_code == 302 and response.headers["Location"] == "/tricky/"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "Path=/tricky/" in cookie
    assert "SameSite=Lax" in cookie and "Max-Age=31536000" in cookie
    token = device.get_cookie(COOKIE, path="/tricky/").value
    with app.app_context():
        assert db.session.scalars(select(PupilDevice.id)).all() == [token_hash(token)]  # the hash, never the token
    page = device.get("/tricky/").get_data(as_text=True)
    assert "Kept for Ava K. on the school's server" in page and "Stop keeping them here" in page
    assert 'name="personal_code"' not in page and "data-tricky-sync" in page


def test_a_linked_browser_keeps_its_link_as_long_as_it_is_used(app, ava):
    _class_url, (_ava_id, code) = ava
    device = app.test_client()
    device.post("/tricky/link", data={"personal_code": code})
    token = device.get_cookie(COOKIE, path="/tricky/").value
    for page in ("/tricky/", "/tricky/progress"):  # each visit keeps the token a full PRACTICE_DAYS_KEPT from now
        cookie = device.get(page).headers["Set-Cookie"]
        assert cookie.startswith(f"{COOKIE}={token};") and "Max-Age=31536000" in cookie and "Path=/tricky/" in cookie
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Set-Cookie" not in app.test_client().get("/tricky/").headers  # a browser never linked is given none


def test_a_wrong_code_is_a_form_error_throttled_as_join_codes_are(app, ava):
    app.config["FREE_CODE_GUESSES"] = 2
    guesser = app.test_client()
    for _ in range(2):
        wrong = guesser.post("/tricky/link", data={"personal_code": "QQQQQQ"})
        text = wrong.get_data(as_text=True)
        assert wrong.status_code == 403 and re.search(r'id="personal_code-error">That is not a personal code', text)
        assert "<details" in text and " open>" in text  # the form stays open beside its error
    slowed = app.test_client().post("/tricky/link", data={"personal_code": ava[1][1]})  # even the right one waits
    assert slowed.status_code == 429 and "Too many wrong codes from here. Please wait 1 second" in slowed.get_data(
        as_text=True)
    empty = app.test_client().post("/tricky/link", data={"personal_code": ""})
    assert empty.status_code == 400 and "Type the personal code on your slip." in empty.get_data(as_text=True)
    assert COOKIE not in str(wrong.headers) and stored(app, PupilDevice) == 0


def test_two_devices_merge_their_histories_and_each_gets_the_union(app, ava, slugs):
    code = ava[1][1]
    phone, laptop = linked(app, code), linked(app, code)
    both = placed(slugs[5], days_ago=3)
    at_home = [placed(slugs[10], right=False, passed=[slugs[11]], days_ago=2), both]
    at_school = [both, placed(slugs[20], days_ago=1)]

    first = sync(phone, at_home)
    assert first["pupil"] == "Ava K." and keys(first["history"]) == keys(at_home)
    second = sync(laptop, at_school)
    assert keys(second["history"]) == keys(at_home + [at_school[1]])  # the union, the shared placement once
    assert at_home[0] in second["history"] and both in second["history"]  # each placement as the browser wrote it
    assert keys(sync(phone, at_home)["history"]) == keys(second["history"])  # the phone catches up, adds nothing
    assert stored(app) == 3

    # The laptop's own history holds nothing of the confusion: the deal and the progress come from the union.
    dealt = laptop.post("/tricky/", data={"deck": "dinosaurs", "characteristic": "mass", "count": "5", "history": "[]"})
    with app.app_context():
        cards = db.session.get(Game, dealt.headers["Location"].rsplit("/", 1)[1]).state["cards"]
    assert cards.index(slugs[11]) < cards.index(slugs[10])
    progress = laptop.post("/tricky/progress", data={"history": "[]"}).get_data(as_text=True)
    assert "The cards you mix up most" in progress and "Kept for Ava K. on the school's server" in progress
    # A browser that is not linked keeps deciding from its own history only.
    assert "No cards are remembered in this browser yet" in app.test_client().post(
        "/tricky/progress", data={"history": "[]"}).get_data(as_text=True)


def test_a_device_in_step_with_the_server_writes_nothing(app, ava, slugs):
    device = linked(app, ava[1][1])
    history = [placed(slugs[n], days_ago=n) for n in range(1, 6)]
    sync(device, history)
    with statements_run(app) as statements:
        assert keys(sync(device, history[2:])["history"]) == keys(history)
    assert not [s for s in statements if s.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))], statements


def test_only_real_cards_and_recent_placements_are_stored(app, ava, slugs):
    device = linked(app, ava[1][1])
    history = [placed(slugs[1]), {**placed(slugs[2]), "card": "ottoline-brackwater"},
               {**placed(slugs[3]), "passed": ["my-name-is-ava"]}, {**placed(slugs[4]), "game": "Ava's game"},
               placed(slugs[5], days_ago=app.config["PRACTICE_DAYS_KEPT"] + 1)]
    assert keys(sync(device, history)["history"]) == keys(history[:1])


def test_unlinking_forgets_this_browser_and_keeps_the_pupils_cards_for_their_other_devices(app, ava, slugs):
    code = ava[1][1]
    phone, laptop = linked(app, code), linked(app, code)
    sync(phone, [placed(slugs[3])])
    response = phone.post("/tricky/unlink")
    assert response.status_code == 302 and f"{COOKIE}=;" in response.headers["Set-Cookie"]
    assert phone.get_cookie(COOKIE, path="/tricky/") is None
    assert phone.post("/tricky/kept", data={"history": "[]"}, headers={"Accept": "application/json"}).status_code == 404
    page = phone.get("/tricky/").get_data(as_text=True)
    assert 'name="personal_code"' in page and "Kept for" not in page
    assert stored(app, PupilDevice) == 1 and len(sync(laptop, [])["history"]) == 1


def test_the_server_keeps_the_newest_placements_up_to_the_browsers_cap(app, ava, slugs, monkeypatch):
    monkeypatch.setattr(schedule, "HISTORY_LIMIT", 10)  # as 1,000, in fewer rows
    phone, laptop = linked(app, ava[1][1]), linked(app, ava[1][1])
    older = [placed(slugs[n], days_ago=20 - n) for n in range(10)]
    newer = [placed(slugs[n], days_ago=5 - n / 10) for n in range(4)]
    sync(phone, older)
    merged = sync(laptop, newer)["history"]
    assert keys(merged) == keys(older[4:] + newer) and stored(app) == 10


A_PLACEMENT = st.fixed_dictionaries({
    "card": st.text(min_size=1, max_size=80), "by": st.sampled_from(["mass", "period", "x" * 80, "Ava K."]),
    "right": st.booleans(), "at": st.integers(-1, 2 * 10 ** 12), "passed": st.lists(st.text(max_size=80), max_size=3),
    "game": st.text(max_size=30)})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=st.lists(A_PLACEMENT, max_size=4) | JSONISH)
def test_any_history_a_linked_browser_posts_is_merged_or_a_clear_400(app, ava, history):
    device = linked(app, ava[1][1])
    before = stored(app)
    response = device.post("/tricky/kept", data={"history": json.dumps(history)}, headers={"Accept": "application/json"})
    assert response.status_code in (200, 400), response.get_data(as_text=True)
    assert stored(app) == before  # no card of this app is named so: nothing is stored


@pytest.mark.parametrize("history, message", [
    ("not json", "not valid JSON"),
    ('[{"card": "a", "by": "mass", "right": "no", "at": 1767225600000}]', "whether it was right"),
    ("x" * 200_001, "too long"),
    ('[{"card": "a\\u0000", "by": "mass", "right": true, "at": 1767225600000}]', "NUL character"),
])
def test_a_bad_history_from_a_linked_browser_is_a_400_that_stores_nothing(app, ava, history, message):
    device = linked(app, ava[1][1])
    for path in ("/tricky/", "/tricky/progress", "/tricky/kept"):
        response = device.post(path, data={"deck": "dinosaurs", "characteristic": "mass", "count": "5",
                                           "history": history})
        assert response.status_code == 400 and message in response.get_data(as_text=True), path
    assert stored(app) == 0 and stored(app, Game) == 0


def test_erasing_the_pupil_erases_their_cards_and_unlinks_their_browsers(app, teacher, ava, slugs):
    class_url, (ava_id, code) = ava
    device = linked(app, code)
    sync(device, [placed(slugs[1]), placed(slugs[2], right=False, passed=[slugs[3]])])
    ben = linked(app, _code_of(app, "Ben N."))
    sync(ben, [placed(slugs[4])])
    assert stored(app) == 3 and stored(app, PupilDevice) == 2
    page = teacher.get("/teach/account/delete").get_data(as_text=True)
    assert "<li>3 tricky card placements kept for their pupils</li>" in page
    assert teacher.post(f"{class_url}/pupils/{ava_id}", data={"action": "erase"}).status_code == 302
    with app.app_context():
        assert db.session.scalars(select(PupilPlacement.card)).all() == [slugs[4]]  # Ben's
        assert db.session.scalars(select(PupilDevice.pupil_id)).all() != [ava_id]
        assert stored(app, PupilDevice) == 1
    # The erased pupil's browser is no longer linked, and is told to drop its cookie.
    response = device.get("/tricky/")
    assert "Kept for" not in response.get_data(as_text=True) and f"{COOKIE}=;" in response.headers["Set-Cookie"]


def _code_of(app, name):
    with app.app_context():
        from webapp.models import Pupil

        return db.session.scalar(select(Pupil.code).where(Pupil.display_name == name))


def test_the_daily_forget_deletes_placements_and_browsers_older_than_the_schools_setting(app, ava, slugs,
                                                                                       monkeypatch):
    app.config["PRACTICE_DAYS_KEPT"] = 30
    device = linked(app, ava[1][1])
    sync(device, [placed(slugs[1], days_ago=20), placed(slugs[2], days_ago=5)])
    now = datetime.now(UTC)
    with app.app_context():
        assert job.forget(now + timedelta(days=9))["placements"] == 0
        assert job.forget(now + timedelta(days=11))["placements"] == 1
        assert db.session.scalars(select(PupilPlacement.card)).all() == [slugs[2]]
        assert db.session.scalar(select(func.count()).select_from(PupilDevice)) == 1  # used today
        assert job.forget(now + timedelta(days=31))["placements"] == 1
        assert db.session.scalar(select(func.count()).select_from(PupilDevice)) == 0  # unused for 30 days
    monkeypatch.setattr(job, "now", lambda: now + timedelta(days=40))
    assert "0 old placements of pupils' tricky cards" in app.test_cli_runner().invoke(args=["forget"]).output


def test_a_placement_is_one_card_at_one_millisecond_on_every_device(app):
    moment = datetime(2026, 3, 2, 17, 0, 0, 123000, tzinfo=UTC)
    assert kept.ms_since_1970(moment) == ms(moment) == 1772470800123
    times = [ms(moment) + step * 7919 for step in range(1000)]  # every millisecond digit, as browsers write them
    history = schedule.parse_history([{"card": "a", "by": "mass", "right": True, "at": at} for at in times],
                                     moment + timedelta(days=1))
    assert [placement["at"] for placement in kept.as_posted(history)] == times


@pytest.mark.browser
def test_a_second_device_catches_up_with_the_first(browser, live_server, slugs):
    from test_tricky import assert_accessible

    from webapp.classroom import classes
    from webapp.models import Teacher

    with live_server.app.app_context():
        owner = Teacher(email="rivera@school.org", name="Ms Rivera", password_hash="x")
        db.session.add(owner)
        db.session.commit()
        classes.create_class(owner, "7B", ["Zoë Smith"])
    code = _code_of(live_server.app, "Zoë S.")
    at_home = [placed(slugs[10], right=False, passed=[slugs[11]], days_ago=2), placed(slugs[4], days_ago=1)]
    devices = []
    for history in (at_home, []):
        page = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
        page.goto(f"{live_server}/tricky/")
        page.evaluate("h => localStorage.setItem('deep-time-cards-tricky', JSON.stringify({history: h, games: {}}))",
                      history)
        page.get_by_text("I'm in a class: keep my tricky cards on the school's server").click()
        page.get_by_label("Your personal code (on your slip)").fill(code)
        if not devices:
            assert_accessible(page)  # the link form, open
        with page.expect_navigation():
            page.get_by_role("button", name="Keep my tricky cards on the school's server").click()
        expect(page.get_by_role("heading", name="Kept for Zoë S. on the school's server")).to_be_visible()
        expect(page.locator(".tricky-summary")).to_contain_text("2 placements kept for Zoë S.")
        devices.append(page)
    assert_accessible(devices[0])  # linked
    second = devices[1]
    kept_there = second.evaluate("() => JSON.parse(localStorage.getItem('deep-time-cards-tricky')).history")
    assert keys(kept_there) == keys(at_home)
    with second.expect_navigation():
        second.get_by_role("button", name="Stop keeping them here").click()
    assert second.evaluate("() => localStorage.getItem('deep-time-cards-tricky')") is None
    expect(second.get_by_role("button", name="Forget my cards in this browser")).to_be_visible()


def test_a_new_personal_code_unlinks_the_browsers_the_old_slip_linked_and_keeps_the_cards(app, teacher, ava, slugs):
    class_url, (ava_id, code) = ava
    found_slip = linked(app, code)
    sync(found_slip, [placed(slugs[2])])
    assert teacher.post(f"{class_url}/pupils/{ava_id}", data={"action": "new_code"}).status_code == 302
    assert "Kept for" not in found_slip.get("/tricky/").get_data(as_text=True)
    assert stored(app, PupilDevice) == 0 and stored(app) == 1  # the cards stay for the pupil's new slip
    assert len(sync(linked(app, _code_of(app, "Ava K.")), [])["history"]) == 1
