"""Every board on a 390 x 844 phone: where it starts, how tall the players' row is, and the Dinoblivion turn in about
two screens (issue 29, point 6); at 1280 x 720 the players and piles show in full as before."""

import pytest
from playwright.sync_api import expect

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
PROJECTOR = {"viewport": {"width": 1280, "height": 720}}

# Ceilings a little above what the phone layout measures; in brackets what the layout before measured (this file run
# on commit 401c717, 2026-12-02). Dinoblivion's figures span the default deal and TEST_SEED=a, b, c, d, e.
CARDLINE_PLAYERS_ROW = 120  # px, four players; measured 74 (418: a card a player, one under the other)
CARDLINE_FORM_TOP = 420  # px, where "your turn" starts; measured 342 (687)
STACK_MOVE_TOP = 400  # px; measured 323 (573: the tower order a card a line)
STACK_TOWERS = 1000  # px, the Dino Tower to build and four players' towers; measured 830 (1,821)
DINO_ESSENTIALS = 1400  # px to the bottom of "End your turn"; measured 1,108 to 1,307 (1,581 to 1,760)
DINO_PAGE = 2400  # px, the whole page; measured 2,027 to 2,226 (2,667 to 2,846)
DINO_PLAYERS = 240  # px, the players' row; measured 208 (291)


def top(page, selector):
    """Return where `selector` starts on the page, in px from its top."""
    return page.locator(selector).first.evaluate("e => e.getBoundingClientRect().top + window.scrollY")


def height(page, selector):
    """Return the height of `selector` in px."""
    return page.locator(selector).first.evaluate("e => e.getBoundingClientRect().height")


def page_height(page):
    """Return the height of the whole page in px."""
    return page.evaluate("() => document.documentElement.scrollHeight")


def start(page, live_server, kind, kinds):
    """Start a game of `kind` with one seat per entry of `kinds` (the first a person) and show its board."""
    page.goto(f"{live_server}/play/{kind}/new")
    if kind != "dinoblivion":
        page.locator("#players").fill(str(len(kinds)))
    for seat, seat_kind in enumerate(kinds):
        page.locator(f"#seats-{seat}-kind").select_option(seat_kind)
    with page.expect_navigation():
        page.locator("form.setup [type=submit]").click()


def to_first_turn(page):
    """Press Dinoblivion's set-up buttons (the throw, the Chief draft) until the first turn of play."""
    for _ in range(12):
        setup = page.locator("fieldset.action-group", has_text="Set-up").get_by_role("button")
        if not setup.count():
            return
        with page.expect_navigation():
            setup.first.click()


@pytest.mark.browser
def test_on_a_phone_the_players_are_one_compact_row_and_the_move_starts_high(browser, live_server):
    phone = browser.new_context(**PHONE)
    page = phone.new_page()
    start(page, live_server, "cardline", ["human", "easy", "medium", "hard"])
    chips = page.locator("ol.players > li")
    expect(chips).to_have_count(4)
    assert len({round(chip.bounding_box()["y"]) for chip in chips.all()}) == 1  # one line
    assert height(page, "ol.players") < CARDLINE_PLAYERS_ROW, height(page, "ol.players")
    assert top(page, "form.place-form") < CARDLINE_FORM_TOP, top(page, "form.place-form")
    expect(chips.first).to_contain_text("playing now")  # whose turn in words, not colour alone
    expect(chips.nth(2)).to_contain_text("computer, medium")
    expect(chips.nth(2)).to_contain_text("4 cards")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    cardline = page.url

    start(page, live_server, "stack", ["human", "easy", "medium", "hard"])
    assert top(page, ".my-move") < STACK_MOVE_TOP, top(page, ".my-move")
    assert height(page, ".tower-table") < STACK_TOWERS, height(page, ".tower-table")
    towers = [box.bounding_box()["y"] for box in page.locator(".tower-box").all()]  # the Dino Tower, then each player's
    assert towers[0] == towers[1] and towers[2] == towers[3] > towers[1]  # two to a row
    expect(page.locator(".tower-box.is-turn")).to_contain_text("playing now")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    stack = page.url
    phone.close()

    # At 1280 each player is a card as before: side by side, each at least 9rem wide, with every line of words.
    desk = browser.new_page(**PROJECTOR)
    desk.goto(cardline)
    chips = desk.locator("ol.players > li")
    assert all(chip.bounding_box()["width"] >= 160 for chip in chips.all())
    assert height(desk, "ol.players") > 90  # name, kind or cards, and status each on a line of their own
    desk.goto(stack)
    assert all(box.bounding_box()["width"] >= 190 for box in desk.locator(".towers > .tower-box").all())
    desk.close()


@pytest.mark.browser
def test_a_dinoblivion_turn_on_a_phone_folds_its_piles_and_scrolls_its_hand_sideways(browser, live_server):
    phone = browser.new_context(**PHONE)
    page = phone.new_page()
    start(page, live_server, "dinoblivion", ["human", "medium"])
    to_first_turn(page)
    end = page.locator(".dino-end-turn").bounding_box()
    assert end["y"] + end["height"] < DINO_ESSENTIALS and page_height(page) < DINO_PAGE, (end, page_height(page))
    assert height(page, ".dino-players") < DINO_PLAYERS, height(page, ".dino-players")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # the hand scrolls, never the page

    # The hand: one row that scrolls sideways and snaps to a card.
    row = page.locator(".dino-hand")
    assert row.evaluate("r => r.scrollWidth > r.clientWidth + 50 && getComputedStyle(r).scrollSnapType.startsWith('x')")
    slots = row.locator("> li")
    assert len({round(slot.bounding_box()["y"]) for slot in slots.all()}) == 1
    # Every card by keyboard: the row takes the focus (arrow keys scroll it), then each card's choices in turn.
    row.focus()
    summaries = row.locator(".dino-moves > summary")
    for index in range(summaries.count()):
        page.keyboard.press("Tab")
        expect(summaries.nth(index)).to_be_focused()
    last = summaries.last
    assert row.evaluate("r => r.scrollLeft") > 0  # the focused card was brought into view
    # And by touch: the last card's choices open with a tap; the row then wraps so the card and its choices show whole.
    last.tap()
    expect(last.locator("xpath=..")).to_have_attribute("open", "")
    for button in last.locator("xpath=..").get_by_role("button").all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["height"] >= 44
    last.tap()

    # A pile shows one line of words (its top card's name and strength) and opens to the card, by touch or keyboard.
    piles = page.locator(".dino-side .pile-fold")
    first = piles.first
    expect(first.locator("> summary")).to_contain_text("strength")
    expect(first.locator(".dino-card")).to_be_hidden()
    first.locator("> summary").tap()
    expect(first.locator(".dino-card")).to_be_visible()
    piles.nth(1).locator("> summary").focus()
    page.keyboard.press("Enter")
    expect(piles.nth(1).locator(".dino-card")).to_be_visible()
    board = page.url
    phone.close()

    # At 1280 the piles show their cards with nothing to open, and the players' panels are side by side as before.
    desk = browser.new_page(**PROJECTOR)
    desk.goto(board)
    for pile in desk.locator(".dino-side .pile-fold").all():
        expect(pile.locator("> summary")).to_be_hidden()
        expect(pile.locator(".dino-card")).to_be_visible()
    players = desk.locator(".dino-player")
    assert players.nth(0).bounding_box()["y"] == players.nth(1).bounding_box()["y"]
    desk.close()
