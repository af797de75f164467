"""Dragging a card into the line with a finger, as in Wikitrivia (drag.js), on a 390 px touch phone.

The card lifts as the finger touches it (no hold), a place opens in the line as it passes, and letting go there sends
the same form as tapping the gap and pressing the button: in practice, the daily challenge, the endless line,
Cardline and a student's live round. Touches are sent as the phone's own (Chrome DevTools' Input.dispatchTouchEvent).
"""

import re

import pytest
from playwright.sync_api import expect

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
HINT = "Drag the card into the line, or tap a gap."


def centre(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def touch(session, kind, x=None, y=None):
    session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [] if x is None else [{"x": x, "y": y}]})


def to_practice(page, base):
    page.goto(f"{base}/play/practice/new")
    page.get_by_role("button", name="Start").tap()


def to_daily(page, base):
    page.goto(f"{base}/play/practice/daily")


def to_endless(page, base):
    page.goto(f"{base}/play/practice/endless")
    page.locator("#endless-dinosaurs ~ form").get_by_role("button", name="By weight").tap()


def to_cardline(page, base):
    page.goto(f"{base}/play/cardline/new")
    page.locator("#seats-0-name").fill("Ada")
    page.locator("#seats-1-kind").select_option("easy")
    page.get_by_role("button", name="Start the game").tap()


def to_live_round(page, base, teacher, new_round_page):
    code = new_round_page(teacher, count="3", seconds="0")
    page.goto(f"{base}/join?code={code}")
    page.get_by_label("Your name").fill("Ada")
    page.get_by_role("button", name="Join").tap()
    page.get_by_text("You're in!").wait_for()
    teacher.get_by_text("Ada").first.wait_for()
    teacher.get_by_role("button", name="Start the round").click()
    page.locator("form.place-form").wait_for(timeout=5000)  # the panel swaps in without a reload


PLACES = {"practice": to_practice, "daily": to_daily, "endless": to_endless, "cardline": to_cardline,
          "live": to_live_round}


@pytest.fixture
def phone_page(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def open_board(request, page, place, base):
    """Bring `page` to a board of `place` where a card waits to be placed."""
    if place == "live":
        to_live_round(page, base, request.getfixturevalue("teacher_page"), request.getfixturevalue("new_round_page"))
    else:
        PLACES[place](page, base)
    page.wait_for_load_state("load")  # drag.js (deferred) listens before the finger goes down
    page.locator("form.place-form .hand").evaluate("(hand) => hand.scrollIntoView({block: 'start'})")


def drag_by_finger(page, card, gap, drop):
    """Drag `card` onto `gap` with one finger, checking it lifts at once and the place opens; `drop` lets go."""
    session = page.context.new_cdp_session(page)
    (cx, cy), (gx, gy) = centre(card), centre(gap)
    touch(session, "touchStart", cx, cy)
    expect(page.locator(".drag-ghost")).to_have_count(1)  # lifted at once: no hold
    for step in range(1, 9):
        touch(session, "touchMove", cx + (gx - cx) * step / 8, cy + (gy - cy) * step / 8)
    ghost = page.locator(".drag-ghost").bounding_box()  # drawn over the line, where the finger is
    assert ghost["x"] <= gx <= ghost["x"] + ghost["width"] and ghost["y"] <= gy <= ghost["y"] + ghost["height"], ghost
    opened = page.locator(".gap-slot.drop-open")
    expect(opened).to_have_count(1)
    assert opened.locator("input[name=gap]").get_attribute("value") == gap.locator("input").get_attribute("value")
    drop(lambda: touch(session, "touchEnd"))
    session.detach()


@pytest.mark.browser
@pytest.mark.parametrize("place", list(PLACES))
def test_a_finger_drags_a_card_into_the_line_and_places_it(request, phone_page, live_server, place):
    page = phone_page
    open_board(request, page, place, live_server)
    card = page.locator("form.place-form label.hand-card").first
    name = card.locator(".mini-name").inner_text().replace("\u00ad", "")  # where a long name may break
    gap = page.locator("form.place-form label.gap").first
    # Only the hand card takes the finger: the line and the page still scroll under a swipe.
    assert card.evaluate("(card) => getComputedStyle(card).touchAction") == "none"
    assert page.locator(".line .line-card").first.evaluate("(c) => getComputedStyle(c).touchAction") == "auto"
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))

    if place == "live":
        drag_by_finger(page, card, gap, lambda let_go: let_go())
        # The answer went by fetch, as a tapped gap's does: the panel changed in place, with no page load.
        page.locator("form.place-form").wait_for(state="detached", timeout=5000)
        expect(page.locator("#live")).to_contain_text(name)
        assert navigations == []
        # The reveal on the student's phone is a game's: feedback.js played it ("again" once the same reveal is
        # redrawn, which only a verdict already played in this fresh browser can be).
        expect(page.locator("#live [data-verdict]")).to_have_attribute("data-feedback",
                                                                       re.compile("^(right|wrong|again)$"))
    else:
        def drop(let_go):
            with page.expect_navigation():
                let_go()
        drag_by_finger(page, card, gap, drop)
        said = page.locator("#feedback, #last-move, .your-move").first
        expect(said).to_contain_text(name)
        assert len(navigations) == 1
    assert page.locator(".drag-ghost").count() == 0


@pytest.mark.browser
def test_the_hint_shows_once_per_browser_and_a_card_let_go_away_from_the_line_places_nothing(phone_page, live_server):
    page = phone_page
    open_board(None, page, "practice", live_server)
    hint = page.locator(".drag-hint")
    expect(hint).to_contain_text(HINT)
    session = page.context.new_cdp_session(page)
    x, y = centre(page.locator("label.hand-card"))
    touch(session, "touchStart", x, y)
    touch(session, "touchMove", x, y - 30)  # up, away from the line
    assert page.locator(".gap-slot.drop-open").count() == 0
    touch(session, "touchEnd")
    expect(page.locator(".drag-ghost")).to_have_count(0)
    assert page.locator("input[name=gap]:checked").count() == 0 and page.locator("#feedback").count() == 0
    assert page.evaluate("() => localStorage.getItem('deep-time-cards-drag-hint')") == "shown"
    box = hint.get_by_role("button", name="Got it").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    hint.get_by_role("button", name="Got it").tap()
    expect(hint).to_have_count(0)
    page.reload()
    page.wait_for_load_state("load")
    assert page.locator("form.place-form label.gap").count() and page.locator(".drag-hint").count() == 0
