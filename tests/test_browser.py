"""End to end: the app driven in a real headless Chromium (Debian's package), by keyboard, mouse and touch."""

import re
import time

import pytest
from conftest import wait_until
from flask import render_template_string
from playwright.sync_api import expect

from webapp.extensions import db
from webapp.models import Card


@pytest.mark.browser
def test_encyclopedia_journey(browser, live_server):
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="Encyclopedia").click()
    page.get_by_label("Name", exact=True).fill("stego")
    page.get_by_label("Name", exact=True).press("Enter")
    page.get_by_role("link", name="Stegosaurus").first.click()
    assert page.get_by_role("heading", level=1).inner_text().startswith("Stegosaurus")
    expect(page.get_by_role("img", name="Silhouette of Stegosaurus")).to_be_visible()  # the page may still load
    assert "Jurassic" in page.locator(".timescale figcaption").inner_text()

    page.get_by_role("link", name="imperial (feet, pounds)").click()
    assert " ft" in page.locator(".characteristics").inner_text()

    # Report a mistake by keyboard only.
    page.get_by_label("What is wrong?").select_option("mass")
    page.get_by_label("Describe the mistake").fill("too short")
    page.get_by_label("Describe the mistake").press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert "between 10 and 2000" in page.locator(".field-error").inner_text()
    page.get_by_label("Describe the mistake").fill("The weight differs from the museum's figure.")
    page.get_by_role("button", name="Send report").click()
    assert "Thank you" in page.locator(".flash").inner_text()

    assert all(url.startswith(live_server) for url in requests), "a page fetched something from elsewhere"


@pytest.mark.browser
def test_filters_and_pages_on_a_projector(browser, live_server):
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{live_server}/cards/")
    page.get_by_text("More filters").click()
    page.get_by_label("Deck").select_option("animals")
    page.get_by_label("Sort by").select_option("mass")
    page.get_by_label("Order").select_option("desc")
    page.get_by_role("button", name="Show cards").click()
    first = page.locator(".card-tile .tile-name").first.inner_text()
    assert first  # the heaviest animal leads the grid
    page.get_by_role("link", name="Next →").click()
    assert "Page 2 of" in page.locator(".pagination").inner_text()
    page.get_by_label("Weight from (kg)").fill("100")
    page.get_by_label("Weight to (kg)").fill("10")
    page.get_by_role("button", name="Show cards").click()
    assert "must not be below" in page.locator("#max_mass-error").inner_text()


def start_cardline(page, base):
    """Set up a game of one person against a computer player and return at the board."""
    page.goto(f"{base}/play/cardline/new")
    page.get_by_label("Sort the line by").select_option("length")
    page.locator("#seats-0-name").fill("Ada")
    page.locator("#seats-1-kind").select_option("easy")
    with page.expect_navigation():  # waits for load: play.js (deferred) listens before the test drags
        page.get_by_role("button", name="Start the game").click()
    assert page.get_by_role("heading", name="Ada, your turn").is_visible()


@pytest.mark.browser
def test_cardline_by_keyboard_only(browser, live_server):
    page = browser.new_page()
    start_cardline(page, live_server)
    page.locator("input[name=card]").first.focus()
    page.keyboard.press("Space")
    page.locator("input[name=gap]").first.focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")  # a radio group is one tab stop: the next one is the button
    assert page.evaluate("document.activeElement.textContent.trim()") == "Place card"
    page.keyboard.press("Enter")
    page.wait_for_selector("#last-move")
    assert "Ada" in page.locator("#last-move").inner_text() + page.locator(".move-log").inner_text()


@pytest.mark.browser
def test_cardline_touch_needs_a_confirmation_and_mouse_does_not(browser, live_server):
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = phone.new_page()
    start_cardline(page, live_server)
    url = page.url
    page.locator("label.hand-card").first.tap()
    page.locator("label.gap").first.tap()
    assert "confirm" in page.locator(".confirm-note").inner_text()
    assert page.url == url and page.get_by_role("heading", name="Ada, your turn").is_visible()
    page.get_by_role("button", name="Place card").tap()
    page.wait_for_selector("#last-move")
    phone.close()

    desktop = browser.new_page()
    start_cardline(desktop, live_server)
    desktop.locator("label.hand-card").first.click()
    with desktop.expect_navigation():
        desktop.locator("label.gap").last.click()
    assert desktop.locator("#last-move").is_visible()


def centre(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.browser
def test_cardline_cards_can_be_dragged_onto_a_gap_by_mouse(browser, live_server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    start_cardline(page, live_server)
    page.wait_for_load_state("load")  # play.js (deferred) listens before the mouse goes down, even on a busy machine
    card = page.locator("label.hand-card").nth(1)
    name = card.locator(".mini-name").inner_text().replace("\u00ad", "")  # where a long name may break
    page.mouse.move(*centre(card))
    page.mouse.down()
    x, y = centre(page.locator("label.gap").last)
    page.mouse.move(x, y, steps=8)
    assert page.locator(".drag-ghost").count() == 1 and page.locator("label.gap.drop-target").count() == 1
    with page.expect_navigation():
        page.mouse.up()
    assert name in page.locator("#last-move").inner_text()
    assert page.locator(".drag-ghost").count() == 0


@pytest.mark.browser
def test_practice_cards_can_be_dragged_into_a_diet_bin(browser, live_server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server}/play/practice/new")
    page.get_by_label("Sort by").select_option("diet")
    page.get_by_role("button", name="Start").click()
    page.wait_for_load_state("load")  # play.js (deferred) listens before the mouse goes down, even on a busy machine
    name = page.locator("label.hand-card .mini-name").inner_text().replace("\u00ad", "")  # where a long name may break
    page.mouse.move(*centre(page.locator("label.hand-card")))
    page.mouse.down()
    page.mouse.move(*centre(page.get_by_text("Herbivore", exact=True)), steps=8)
    with page.expect_navigation():
        page.mouse.up()
    feedback = page.locator("#feedback").inner_text()
    assert name in feedback and ("right" in feedback or "not quite" in feedback)
    assert "Score" in page.locator(".score-bar").inner_text() and " of 1" in page.locator(".score-bar").inner_text()


# A name is broken when it takes more lines than it has words (and break hints), or runs out of its box
# or off the screen.
BROKEN_NAMES = """(selector) => [...document.querySelectorAll(selector)].filter((name) => {
  const range = document.createRange();
  range.selectNodeContents(name);
  const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  return lines > name.textContent.trim().split(/\\s+/).length + (name.textContent.match(/\\u00ad/g) || []).length
    || range.getBoundingClientRect().right > Math.min(name.getBoundingClientRect().right + 1,
                                                      document.documentElement.clientWidth);
}).map((name) => name.textContent)"""


def page_of_every_card(browser, live_server, app, body, width, large, **context):
    """Open a page that renders every card through `body` (a template over `cards`) with the app's styles."""
    with app.test_request_context():
        cards = db.session.scalars(db.select(Card)).all()
        html = render_template_string(
            "<html{{ ' class=large-type' if large }}><link rel='stylesheet' href='/static/style.css'><body><main>"
            + body + "</main>", cards=cards, large=large, **context)
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(f"{live_server}/ping")
    page.set_content(html)
    return page, cards


@pytest.mark.browser
@pytest.mark.parametrize(("width", "large"), [(390, False), (1280, False), (1280, True)])
def test_no_card_name_is_broken_inside_a_word(browser, live_server, app, width, large):
    page, cards = page_of_every_card(browser, live_server, app, (
        "{% from 'play/cardline/_line.html' import card_face %}<ul class='hand'>"
        "{% for card in cards %}<li class='hand-card'>{{ card_face(card) }}</li>{% endfor %}</ul>"
        "<ul class='order-list'>{% for card in cards %}<li class='order-item'>"
        "<span class='order-card'>{{ card_face(card) }}</span><label>Position</label></li>{% endfor %}</ul>"
        # The line's narrower cards, wrapped here so that every one is on screen.
        "<ol class='line' style='flex-wrap: wrap'>{% for card in cards %}<li class='line-card'>{{ card_face(card) }}</li>"
        "{% endfor %}</ol>"),
        width, large)
    assert page.locator(".mini-name").count() == 3 * len(cards) > 600
    assert page.evaluate(BROKEN_NAMES, ".mini-name") == []


@pytest.mark.browser
def test_no_card_page_name_is_broken_on_a_phone_in_large_type(browser, live_server, app):
    page, cards = page_of_every_card(browser, live_server, app, (
        "{% from 'macros.html' import face_names %}<div class='card-faces'>"
        "{% for card in cards %}<section class='card-face front'>{{ face_names(card) }}</section>{% endfor %}"
        "</div>"), 390, large=True)
    assert page.locator(".face-name").count() == page.locator(".face-scientific").count() == len(cards) > 200
    assert page.evaluate(BROKEN_NAMES, ".face-name, .face-scientific") == []


# The person's label and the animal's figure in a size comparison, as boxes on the screen, where they meet.
LABEL_ON_ANIMAL = """() => [...document.querySelectorAll("svg.size-comparison")].filter((figure) => {
  const label = figure.querySelector("text.comparison-label").getBoundingClientRect();
  const animal = figure.querySelectorAll(":scope > svg")[1].getBoundingClientRect();
  return label.right > animal.left && label.left < animal.right && label.bottom > animal.top && label.top < animal.bottom;
}).map((figure) => figure.querySelectorAll("text.comparison-label")[1].textContent)"""


@pytest.mark.browser
def test_the_persons_label_never_lies_on_the_animal_in_a_size_comparison(browser, live_server, app):
    from webapp.cards.silhouettes import comparison

    page, _ = page_of_every_card(browser, live_server, app, (
        "{% for card in cards if card.length_m %}<div class='comparison'>{{ comparison(card) }}</div>{% endfor %}"),
        1280, large=False, comparison=comparison)
    assert page.locator("svg.size-comparison").count() > 200
    assert page.evaluate(LABEL_ON_ANIMAL) == []


# Dragging with a finger (it lifts at once, no hold, and a drop places the card) is tests/test_drag.py.


@pytest.mark.browser
def test_stack_o_saurus_by_keyboard_and_touch(browser, live_server):
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = phone.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(f"{live_server}/play/stack/new")
    page.locator("#seats-0-name").fill("Mia")
    page.locator("#seats-1-kind").select_option("hard")
    # By the rulebook a player who can play may not discard: the house rule lets Mia discard whatever she holds.
    page.get_by_label("House rule: you may discard instead of playing").check()
    page.get_by_role("button", name="Start the game").tap()
    draw = page.get_by_role("button", name="Draw from the draw pile")
    draw.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.get_by_role("heading", name=re.compile(r"^Mia, your turn: (play or discard|you cannot play, so discard) a card$")).wait_for()
    with page.expect_navigation():
        page.get_by_role("button", name="Discard").first.tap()
    assert "Mia discarded" in page.locator(".stack-log").inner_text()
    assert errors == []
    phone.close()


@pytest.mark.browser
def test_a_player_on_their_own_device_sees_the_other_move_without_refreshing(browser, live_server):
    ada = browser.new_context().new_page()
    ada.goto(f"{live_server}/play/stack/new")
    ada.locator("#seats-0-name").fill("Ada")
    ada.locator("#seats-1-name").fill("Leo")
    ada.locator("#seats-1-kind").select_option("remote")
    ada.get_by_label("House rule: you may discard instead of playing").check()  # so a Discard button is always there
    ada.get_by_role("button", name="Start the game").click()
    code = ada.locator(".join-code").first.inner_text().strip()
    leo = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    leo.goto(f"{live_server}/join?code={code}")
    leo.get_by_label("Your name").fill("Leo")
    leo.get_by_role("button", name="Join").click()
    pages = {"Ada": ada, "Leo": leo}
    for _ in range(2):  # a turn each: the waiting page follows by itself both times
        leo.wait_for_timeout(300)
        mover = next(name for name, page in pages.items()
                     if page.get_by_role("heading", name=f"{name}, your turn: draw a card").count())
        waiting = next(name for name in pages if name != mover)
        assert pages[waiting].get_by_text(f"Waiting for {mover} to play").is_visible()
        page = pages[mover]
        with page.expect_navigation():
            page.get_by_role("button", name="Draw from the draw pile").click()
        with page.expect_navigation():
            page.get_by_role("button", name="Discard").first.click()
        pages[waiting].get_by_role("heading", name=f"{waiting}, your turn: draw a card").wait_for(timeout=8000)
        assert f"{mover} discarded" in pages[waiting].locator(".stack-log").inner_text()


@pytest.mark.browser
def test_dinoblivion_by_keyboard_and_touch(browser, live_server):
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = phone.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(f"{live_server}/play/dinoblivion/new")
    page.locator("#seats-0-name").fill("Mia")
    page.locator("#seats-1-kind").select_option("medium")
    page.get_by_label("When a Duel ends").select_option("dinosaur_decks")  # the longer game: more than one turn each
    page.get_by_role("button", name="Start the game").tap()
    throw = page.get_by_role("button", name="Throw your 6 Buddy pawns (the evolution game)")
    throw.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")  # keyboard
    for _ in range(12):  # a tied throw again, then the Chief draft if it is Mia's pick
        chief = page.locator("fieldset.action-group", has_text="Set-up").get_by_role("button")
        if not chief.count():
            break
        with page.expect_navigation():
            chief.first.tap()  # touch
    page.get_by_role("heading", name="Mia, your turn").wait_for()
    assert page.locator(".dino-hand .dino-card").count() >= 4  # the hand, each card in words with its buttons on it
    with page.expect_navigation():
        page.get_by_role("button", name="End your turn").tap()
    page.get_by_role("heading", name="Mia, your turn").wait_for()  # the computer has played its turn
    assert "Player 2 drew 4 cards." in page.locator(".stack-log").inner_text()  # the end of its turn
    assert errors == []
    phone.close()


@pytest.mark.browser
def test_timeline_renders_offline_without_console_errors(browser, live_server):
    context = browser.new_context()
    outside = []

    def only_the_app(route):
        if route.request.url.startswith(live_server):
            return route.continue_()
        outside.append(route.request.url)
        return route.abort()

    context.route("**/*", only_the_app)  # a classroom with no internet
    page = context.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}/timeline?scale=log")
    page.wait_for_selector(".figure .main-svg")
    labels = page.locator(".figure text").all_text_contents()
    assert "Mesozoic" in labels and "Tyrannosaurus" in labels
    page.get_by_role("link", name="Linear: true lengths of time").click()
    page.wait_for_selector(".figure .main-svg")
    page.goto(f"{live_server}/timeline/gap?cards=stegosaurus,tyrannosaurus")
    page.wait_for_selector(".figure .main-svg")
    assert "before you were born" in page.locator(".gap-sentences").inner_text()
    for path in ("/charts/sizes", "/charts/weights", "/periods/jurassic"):  # every chart page, hovered and zoomed
        page.goto(live_server + path)
        page.wait_for_selector(".figure .main-svg")
        page.locator(".figure .nsewdrag").first.hover()
        page.locator(".figure .modebar-btn[data-title='Zoom in']").first.click(force=True)
    assert errors == [] and outside == []
    context.close()


@pytest.mark.browser
def test_class_line_round_from_teacher_to_three_students_to_csv(browser, live_server, teacher_page, tmp_path,
                                                                 new_round_page):
    teacher = teacher_page
    code = new_round_page(teacher, count="3", seconds="0")
    assert teacher.locator(".qr svg:visible").count() == 1

    students = []
    for name, options in (("Ada", {}), ("Ben", {}), ("Cy", {"viewport": {"width": 390, "height": 844},
                                                        "has_touch": True, "is_mobile": True})):
        page = browser.new_context(**options).new_page()
        page.goto(f"{live_server}/join?code={code}")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Join").click()
        page.get_by_text("You're in!").wait_for()
        students.append(page)
    answers_sent = {id(page): [] for page in students}

    def count_answers(page):
        sent = answers_sent[id(page)]
        page.on("request", lambda request: sent.append(request.url)
                if request.method == "POST" and request.url.endswith("/answer") else None)
    for page in students:
        count_answers(page)
    teacher.get_by_text("Cy").first.wait_for()  # the lobby updates by itself

    teacher.get_by_role("button", name="Start the round").click()
    # On a 1280 x 720 projector the card to place and the class line share the first screen.
    assert teacher.viewport_size == {"width": 1280, "height": 720}
    for part in (teacher.locator(".current-card"), teacher.locator(".line-card").first):
        box = part.bounding_box()
        assert box["y"] + box["height"] <= 720, box
    for card in range(3):
        for page in students:
            page.locator("form.place-form").wait_for(timeout=5000)  # appears without a reload
            navigations = []

            def navigated(frame, navigations=navigations):
                navigations.append(frame.url)

            page.on("framenavigated", navigated)
            if page.context.browser and page.viewport_size["width"] < 500:
                page.locator("label.gap").first.tap()
                page.get_by_role("button", name="Place card").tap()
            elif card == 1:  # by dragging the card onto the gap
                page.locator("label.gap").first.scroll_into_view_if_needed()
                page.mouse.move(*centre(page.locator("label.hand-card").first))
                page.mouse.down()
                page.mouse.move(*centre(page.locator("label.gap").first), steps=6)
                page.mouse.up()
            else:
                page.locator("label.hand-card").first.click()
                page.locator("label.gap").first.click()
            # The answer went by fetch: the panel changed in place, focus on its news, no page load.
            page.locator("form.place-form").wait_for(state="detached", timeout=5000)
            # Focus moves to the news just after the panel is swapped: wait for it rather than race it.
            wait_until(lambda page=page: page.evaluate("() => document.activeElement.closest('#live') !== null"))
            page.remove_listener("framenavigated", navigated)
            assert navigations == []
            # One answer per card, whichever way it was given: a click on a gap's label sent two before.
            assert len(answers_sent[id(page)]) == card + 1
            assert "already answered" not in page.locator("#live").inner_text()
        for page in students:
            page.get_by_text("Wait for the next card").wait_for(timeout=5000)
        teacher.get_by_role("button", name="Next card").click()

    teacher.get_by_role("heading", name="Results").wait_for()
    with teacher.expect_download() as download:
        teacher.get_by_role("link", name="CSV: every answer").click()
    path = tmp_path / "results.csv"
    download.value.save_as(path)
    rows = path.read_text(encoding="utf-8-sig").strip().splitlines()
    assert rows[0].startswith("round,date,card_number,student") and len(rows) == 1 + 3 * 3
    for page in students:
        page.get_by_text("The round is over").wait_for(timeout=5000)


@pytest.mark.browser
def test_a_lesson_prints_without_navigation_or_controls(browser, live_server):
    page = browser.new_page()
    page.goto(f"{live_server}/lessons/diets")
    buttons = page.locator("main form button")
    assert buttons.count() and buttons.first.is_visible() and page.get_by_role("navigation", name="Main").is_visible()
    page.emulate_media(media="print")
    assert page.get_by_role("heading", level=1).is_visible() and page.locator(".lesson-body").is_visible()
    assert page.get_by_text("Learning goals").is_visible() and page.get_by_text("Key vocabulary").is_visible()
    assert not page.get_by_role("navigation", name="Main").is_visible()
    assert not any(buttons.nth(index).is_visible() for index in range(buttons.count()))


@pytest.mark.browser
def test_dinoblivion_says_while_the_searching_computer_plays(browser, live_server, monkeypatch):
    import webapp.games.dinoblivion as engine_package

    monkeypatch.setattr(engine_package, "THINK_SECONDS", 0.05)
    page = browser.new_page()
    page.goto(f"{live_server}/play/dinoblivion/new")
    page.locator("#seats-0-name").fill("Mia")
    page.locator("#seats-1-name").fill("Rex")
    page.locator("#seats-1-kind").select_option("hard")
    page.get_by_label("When a Duel ends").select_option("dinosaur_decks")  # the longer game: more than one turn each
    with page.expect_navigation():  # the set-up buttons are counted at once: the game's page must be there
        page.get_by_role("button", name="Start the game").click()
    status = page.locator(".busy[role=status]")
    for _ in range(12):  # the throw (again if tied) and the Chief draft, to Mia's first turn
        setup = page.locator("fieldset.action-group", has_text="Set-up").get_by_role("button")
        if not setup.count():
            break
        assert status.inner_text() == ""  # nothing is said before a move is sent
        with page.expect_navigation():
            setup.first.click()
    # Playwright cannot read a page while it waits for the next one, so the page notes what its
    # status said into sessionStorage, which the next page of the same tab can read.
    page.evaluate("""() => new MutationObserver(() => {
        sessionStorage.setItem("said", document.querySelector(".busy").textContent);
    }).observe(document.querySelector(".busy"), {childList: true, characterData: true, subtree: true})""")
    page.route("**/act", lambda route: (time.sleep(1), route.continue_()))  # a long turn, whatever the machine
    with page.expect_navigation():
        page.get_by_role("button", name="End your turn").click()
    said = page.evaluate("() => sessionStorage.getItem('said')")
    assert said.startswith("Rex (the searching computer player) may be playing its turn") and "5 to 20 seconds" in said
    page.get_by_role("heading", name="Mia, your turn").wait_for()
    assert status.inner_text() == ""


@pytest.mark.browser
@pytest.mark.parametrize("mode", ["line", "all"])
def test_a_finished_practice_fits_a_phone_with_every_column_of_its_review(browser, live_server, mode):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server}/play/practice/new")
    page.select_option("#deck", "dinosaurs")
    page.select_option("#characteristic", "mass")
    page.select_option("#mode", mode)
    page.fill("#count", "5")
    with page.expect_navigation():  # the answers are counted at once: the game's page must be there
        page.click("#submit")
    # With a mouse, a click on a gap places the card at once; all at once is sent with its button.
    answer = page.locator("label.gap" if mode == "line" else "button:has-text('Check my order')")
    while answer.count():
        with page.expect_navigation():
            answer.first.click()
    expect(page.locator("text=You scored")).to_have_count(1)  # waits: under load the last page may still be drawing
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    right = page.locator("table.review td[data-label='Right?']").first.bounding_box()
    assert right["x"] + right["width"] <= 390
    page.close()


@pytest.mark.browser
def test_the_daily_challenge_keeps_a_streak_and_shares_with_a_link(browser, live_server):
    from datetime import date, timedelta

    page = browser.new_page(viewport={"width": 390, "height": 844})
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    page.goto(f"{live_server}/play/practice/daily")
    page.evaluate("([day]) => localStorage.setItem('deep-time-cards-daily', JSON.stringify({[day]: {score: 8, outOf: 8}}))",
                  [yesterday])
    gap = page.locator("label.gap")
    while gap.count():
        with page.expect_navigation():
            gap.first.click()
    record = page.locator(".daily-record")
    assert record.is_visible() and record.inner_text() == "Daily challenges in a row: 2 · your best result: 8/8"
    share = page.locator("#share").input_value()
    assert "/play/practice/daily" in share and share.startswith("Deep Time Cards · Daily challenge")
    page.locator("button[data-copy]").click()
    assert page.locator(".copy-note").inner_text() in ("Copied: paste it to share.",
                                                       "The text is selected: copy it (Ctrl+C, or press and hold).")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()


@pytest.mark.browser
def test_the_first_encyclopedia_card_is_on_a_phones_first_screen(browser, live_server):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{live_server}/cards/")
    assert page.locator(".card-tile").first.bounding_box()["y"] < 844
    page.locator("summary:has-text('More filters')").click()
    assert page.locator("#deck").is_visible()
    page.close()


# Every label a chart draws, as boxes on the screen: tick labels, titles, row labels, band names and markers.
CHART_LABELS = """(figure) => {
    const chart = figure.getBoundingClientRect();
    const shown = (el) => { const s = getComputedStyle(el); return s.display !== "none" && s.visibility !== "hidden"
                                                                   && Number(s.opacity || 1) > 0 && el.textContent.trim(); };
    return [...figure.querySelectorAll(".xtick text, .ytick text, .g-xtitle text, .g-ytitle text, .annotation-text, .bartext, .textpoint text")]
        .filter(shown).map((el) => { const r = el.getBoundingClientRect();
            return {text: el.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })
        .filter((r) => r.right > r.left)
        .map((r) => ({...r, outside: r.left < chart.left - 1 || r.right > chart.right + 1 || r.top < chart.top - 1 || r.bottom > chart.bottom + 1}));
}"""


def label_problems(labels):
    """Return the labels cut off by the chart's edge and the pairs that overlap."""
    problems = [f"clipped: {label['text']!r}" for label in labels if label["outside"]]
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            across = min(a["right"], b["right"]) - max(a["left"], b["left"])
            down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if across > 1 and down > 1:
                problems.append(f"overlap: {a['text']!r} and {b['text']!r}")
    return problems


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
def test_chart_labels_never_collide_and_are_never_clipped(browser, live_server, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    created = page.request.post(f"{live_server}/api/games", data={
        "deck": "animals", "characteristic": "mass", "seed": 5,
        "seats": [{"name": "Ada"}, {"name": "Bot", "kind": "hard"}]}).json()
    headers = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    for _ in range(100):  # play the game to its end through the games API
        listed = page.request.get(f"{live_server}/api/games/{created['id']}/actions", headers=headers).json()
        if not listed["actions"]:
            break
        page.request.post(f"{live_server}/api/games/{created['id']}/actions", headers=headers,
                          data={**listed["actions"][0], "version": listed["version"]})
    problems = {}
    for url in ("/timeline", "/timeline?scale=log", "/timeline?scale=log&zoom=all", "/periods/jurassic",
                "/periods/cretaceous?scale=log", "/timeline/gap", "/charts/sizes", "/charts/weights",
                "/charts/weights?units=imperial&cards=blue-whale,house-mouse,honey-bee-worker,human",
                "/timeline?large=1", "/charts/sizes?large=1", f"/play/cardline/{created['id']}"):
        page.goto(f"{live_server}{url}")
        figure = page.locator("[data-figure]").first
        figure.locator(".main-svg").first.wait_for(timeout=10_000)
        page.wait_for_timeout(200)
        labels = figure.evaluate(CHART_LABELS)
        assert len(labels) >= 6, (url, labels)
        problems[url] = label_problems(labels)
    assert not any(problems.values()), {url: found for url, found in problems.items() if found}
    page.close()


def phone(browser):
    """Return a page on a touch phone: 390 px wide, taps not clicks."""
    return browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()


@pytest.mark.browser
def test_the_endless_line_on_a_phone_from_the_home_page_to_same_again(browser, live_server):
    page = phone(browser)
    page.goto(f"{live_server}/")
    page.locator("#on-your-own ~ a", has_text="Endless line").tap()
    page.locator("#endless-dinosaurs ~ form").get_by_role("button", name="By weight").tap()
    assert "3 lives left" in page.locator(".score-bar").inner_text()
    for _ in range(200):  # always the far left: three wrong cards come soon
        if not page.locator("label.gap").count():
            break
        page.locator("label.gap").first.tap()
        assert "Press the button to confirm" in page.locator(".confirm-note").inner_text()  # a tap only selects
        with page.expect_navigation():
            page.get_by_role("button", name="Place card").tap()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    over = page.locator(".game-over")
    assert "Out of lives!" in over.inner_text() or "every card" in over.inner_text()
    score = int(page.locator(".endless-record").get_attribute("data-score"))
    assert page.evaluate("JSON.parse(localStorage.getItem('deep-time-cards-endless'))['dinosaurs-mass']") == score
    assert "/play/practice/endless" in page.locator("#share").input_value()
    with page.expect_navigation():
        page.get_by_role("button", name="Same again").tap()
    assert "3 lives left" in page.locator(".score-bar").inner_text()
    assert page.locator(".endless-best").inner_text() == (f"· best {score}" if score else "")
    page.evaluate("localStorage.setItem('deep-time-cards-endless', JSON.stringify({'dinosaurs-mass': 41}))")
    page.goto(f"{live_server}/play/practice/endless")
    assert page.locator(".endless-best[data-endless-key=dinosaurs-mass]").inner_text() == "· best 41"
    page.context.close()


@pytest.mark.browser
def test_a_quiz_on_a_phone_from_the_home_page_to_its_review(browser, live_server):
    page = phone(browser)
    page.goto(f"{live_server}/")
    page.locator("#on-your-own ~ a", has_text="Trivia quiz").tap()
    page.get_by_label("Number of questions").fill("3")
    page.get_by_role("button", name="Start the quiz").tap()
    for number in range(1, 4):
        assert f"question {number} of 3" in page.locator(".score-bar").inner_text()
        options = page.locator(".quiz-option")
        if options.count():
            options.first.tap()
        with page.expect_navigation():
            page.get_by_role("button", name="Answer").tap()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if number < 3:
            feedback = page.locator("#feedback")
            assert feedback.is_visible() and ("Right!" in feedback.inner_text() or "Not quite" in feedback.inner_text())
    assert "You scored" in page.locator(".game-over").inner_text()
    assert page.locator(".quiz-review li").count() == 3
    assert "[[" not in page.locator(".quiz-review").inner_text()
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), [(1280, 720), (390, 844)])
def test_a_line_of_twelve_cards_shows_whole_on_a_projector_and_scrolls_in_its_own_box_on_a_phone(
        browser, live_server, app, width, height):
    with app.app_context():
        longest = db.session.scalars(db.select(Card).order_by(db.func.length(Card.common_name).desc()).limit(12)).all()
        line = [{"card": card.slug, "value": float(i)} for i, card in enumerate(longest)]
    page, _cards = page_of_every_card(browser, live_server, app, (
        "{% from 'play/cardline/_line.html' import line_view %}<fieldset class='line-field'>"
        "{{ line_view({'line': line, 'recent': []}, by_slug, 'period', periods, with_gaps=true) }}</fieldset>"),
        width, False, line=line, by_slug={card.slug: card for card in longest},
        periods={i: {"name": name} for i, name in enumerate(["Carboniferous", "Ordovician", "Cretaceous", "Quaternary"] * 3)})
    page.set_viewport_size({"width": width, "height": height})
    box = page.locator(".line").evaluate("line => [line.scrollWidth, line.clientWidth]")
    assert page.locator(".line .line-card").count() == 12 and page.locator(".line .gap").count() == 13
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # never the page
    # No value (the longest period names here) runs out of its card.
    assert page.locator(".line .line-value").evaluate_all(
        "values => values.filter(v => v.getBoundingClientRect().width > v.closest('.line-card').clientWidth)"
        ".map(v => v.textContent)") == []
    if width >= 1280:
        assert box[0] <= box[1], f"the line of 12 is {box[0]} px wide in a {box[1]} px box"
        assert page.evaluate(BROKEN_NAMES, ".line .mini-name") == []
    else:
        assert box[0] > box[1]  # the line scrolls sideways inside its own box
    page.close()


TAP_TARGETS = """() => [...document.querySelectorAll('form.place-form label.gap, form.place-form button, form.place-form label.hand-card')]
    .map((el) => { const box = el.getBoundingClientRect(); return [el.className || el.tagName, box.width, box.height]; })
    .filter(([, width, height]) => width < 44 || height < 44)"""


@pytest.mark.browser
@pytest.mark.parametrize("large", [0, 1])
def test_every_place_to_tap_on_a_phone_is_44_px_and_a_long_line_opens_at_its_start(browser, live_server, large):
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{live_server}/play/practice/new?large={large}")
    phone.get_by_label("Number of cards").fill("12")
    phone.get_by_role("button", name="Start").tap()
    for _ in range(9):  # a line of ten cards: longer than a phone is wide
        phone.locator("form.place-form label.gap").last.tap()
        with phone.expect_navigation():
            phone.get_by_role("button", name="Place card").tap()
    assert phone.locator("form.place-form label.gap").count() >= 10
    assert phone.evaluate(TAP_TARGETS) == []
    line = phone.locator("form.place-form .line")
    assert line.evaluate("(line) => line.scrollWidth > line.clientWidth")  # it does scroll sideways
    phone.goto(phone.url)  # opened afresh, with no card just placed: the line shows its start
    assert phone.locator("form.place-form .line").evaluate("(line) => line.scrollLeft") == 0


@pytest.mark.browser
@pytest.mark.parametrize("path", ["/play/practice/new", "/play/cardline/new"])
def test_a_set_up_offers_only_what_the_chosen_deck_can_be_sorted_by(browser, live_server, path):
    page = browser.new_page()
    page.goto(f"{live_server}{path}")
    page.get_by_label("Deck").select_option("animals")
    sort_by = page.locator("select[name=characteristic]")
    assert sort_by.locator("option[value=period]").is_disabled() and not sort_by.locator("option[value=lifespan]").is_disabled()
    page.get_by_label("Deck").select_option("dinosaurs")
    assert sort_by.locator("option[value=lifespan]").is_disabled() and not sort_by.locator("option[value=period]").is_disabled()


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
def test_the_size_comparisons_labels_are_readable_on_a_phone_and_a_projector(browser, live_server, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{live_server}/cards/tyrannosaurus")
    sizes = page.evaluate("""() => [...document.querySelectorAll('.comparison-label')]
        .filter((label) => label.getBoundingClientRect().height > 0)
        .map((label) => label.getBoundingClientRect().height)""")
    assert len(sizes) == 2 and min(sizes) >= 12, sizes  # two labels shown, each at least 12 px tall on the screen


@pytest.mark.browser
def test_on_a_phone_a_games_board_is_the_first_screen_and_the_site_links_fold_into_a_menu(browser, live_server):
    page = phone(browser)
    desk = browser.new_page(viewport={"width": 1280, "height": 720})
    for kind in ("cardline", "stack", "dinoblivion", "practice"):
        page.goto(f"{live_server}/play/{kind}/new")
        with page.expect_navigation():
            page.locator("main form").first.locator("[type=submit]").last.tap()  # the set-up form's start
        assert page.url.startswith(f"{live_server}/play/{kind}/"), page.url
        assert page.evaluate("document.querySelector('main').getBoundingClientRect().top") < 90, kind  # was 220
        assert not page.get_by_role("navigation", name="Main").first.is_visible()
        menu = page.locator(".play-menu > summary")
        menu.tap()
        assert page.locator(".play-menu-panel").get_by_role("link", name="Encyclopedia").is_visible()
        assert page.locator(".play-menu-panel").get_by_role("link", name="Large type (projector)").is_visible()
        menu.tap()
        desk.goto(page.url)
        assert desk.locator(".site-header > nav").get_by_role("link", name="Encyclopedia").is_visible(), kind
        assert not desk.locator(".play-menu").is_visible()
    page.keyboard.press("Tab")  # past the skip link, the brand, to the menu: it opens from the keyboard too
    page.locator(".play-menu > summary").focus()
    page.keyboard.press("Enter")
    assert page.locator(".play-menu-panel").is_visible()
    page.goto(f"{live_server}/play/")  # not a board: the links as everywhere
    assert page.get_by_role("navigation", name="Main").is_visible() and not page.locator(".play-menu").count()
    page.context.close()
    desk.close()
