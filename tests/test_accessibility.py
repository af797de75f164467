"""Accessibility: axe-core (Deque's checker, run in the real browser) finds nothing on any page we serve.

Nor does any page scroll sideways (WCAG's reflow): on a phone a page is as wide as the screen.

Each page is checked as a visitor, a player in the middle of each game, a teacher and a student
see it, on a projector-sized screen and on a phone, with its charts drawn.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe

PAGES = ["/", "/cards/", "/cards/stegosaurus", "/cards/?deck=animals", "/periods", "/periods/jurassic",
         "/timeline", "/charts/sizes", "/charts/weights", "/play/", "/play/cardline/new", "/play/practice/new",
         "/play/practice/daily", "/play/practice/endless", "/play/stack/new", "/play/dinoblivion/new", "/play/dinoblivion/rules",
         "/tricky/", "/tricky/progress", "/lessons/", "/lessons/diets", "/join", "/teach/login", "/teach/register",
         "/?large=1", "/cards/stegosaurus?large=1&units=imperial", "/timeline?large=1", "/play/?large=1",
         "/cards/carcharodontosaurus?large=1", "/cards/lion?large=1",  # a long name; a web address in its notes
         "/lessons/scientific-names?large=1"]  # a table
SCREENS = {"projector": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


WIDER_THAN_SCREEN = """() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return null;
    const wide = [...document.querySelectorAll("body *")]  // the innermost element too wide, or with text too wide
        .filter(el => el.getBoundingClientRect().right > width + 1 || el.scrollWidth > el.clientWidth + 1).pop();
    return `${document.documentElement.scrollWidth}px wide on a ${width}px screen, e.g. ${wide ? wide.outerHTML.slice(0, 120) : "?"}`;
}"""


@pytest.fixture
def axe():
    """Return a function that runs axe-core on a page and returns its violations, readably."""
    checker = Axe()

    def violations(page):
        page.wait_for_load_state()  # a click that submits a form leaves a page still loading
        charts = page.locator("[data-figure]")
        for index in range(charts.count()):  # every chart is drawn
            charts.nth(index).locator(".main-svg").first.wait_for(timeout=10_000)
        found = checker.run(page).response["violations"]
        problems = [f"{page.url}: {v['id']} ({v['impact']}): {v['help']}; e.g. {v['nodes'][0]['html'][:200]}"
                    for v in found]
        too_wide = page.evaluate(WIDER_THAN_SCREEN)
        return problems + ([f"{page.url}: scrolls sideways: {too_wide}"] if too_wide else [])
    return violations


@pytest.mark.browser
@pytest.mark.parametrize("screen", SCREENS)
def test_every_public_page_passes_axe(browser, live_server, axe, screen):
    page = browser.new_page(viewport=SCREENS[screen])
    found = []
    for url in PAGES:
        response = page.goto(live_server + url)
        assert response.status == 200, url
        found += axe(page)
    assert found == []


def click_first_action(page, times):
    """Press the first button of the game's moves in view `times` times, as a hurried player would."""
    for _ in range(times):
        page.locator("main button[name=action]:visible").first.click()
        page.wait_for_load_state()


@pytest.mark.browser
def test_every_game_board_passes_axe(browser, live_server, axe):
    page = browser.new_page(viewport=SCREENS["projector"])
    onlooker = browser.new_page(viewport=SCREENS["phone"])  # another browser: sees no hand
    found = []
    for game in ("cardline", "stack", "dinoblivion"):
        page.goto(f"{live_server}/play/{game}/new")
        page.locator("#seats-0-name").fill("Ada")
        page.locator("#seats-1-kind").select_option("medium")
        with page.expect_navigation():
            page.locator("form.setup [type=submit]").click()
        found += axe(page)
        onlooker.goto(page.url.split("?")[0])
        found += axe(onlooker)
        if game == "dinoblivion":
            click_first_action(page, 4)  # past the set-up, into a turn with cards in hand
            found += axe(page)
    page.goto(f"{live_server}/play/practice/new")
    with page.expect_navigation():  # axe must not run on a page that is going away
        page.get_by_role("button", name="Start").click()
    found += axe(page)
    page.goto(f"{live_server}/play/practice/endless")
    with page.expect_navigation():
        page.locator("#endless-animals ~ form").get_by_role("button", name="By weight").click()
    found += axe(page)
    while page.locator("label.gap").count():  # the far left: soon three lives are gone
        with page.expect_navigation():
            page.locator("label.gap").first.click()
    found += axe(page)
    assert found == []


@pytest.mark.browser
def test_teacher_and_student_pages_pass_axe(browser, live_server, teacher_page, axe):
    teacher = teacher_page
    found = axe(teacher)
    teacher.get_by_role("link", name="New classroom round").click()
    found += axe(teacher)
    teacher.get_by_label("Title").fill("Who weighs more?")
    teacher.get_by_role("button", name="Create the round").click()
    code = teacher.locator(".join-code").first.inner_text().strip()

    student = browser.new_context(viewport=SCREENS["phone"], has_touch=True, is_mobile=True).new_page()
    student.goto(f"{live_server}/join?code={code}")
    student.get_by_label("Your name").fill("Ada")
    student.get_by_role("button", name="Join").click()
    student.get_by_text("You're in!").wait_for()
    found += axe(student)
    teacher.get_by_text("Ada").first.wait_for()
    found += axe(teacher)
    teacher.get_by_role("button", name="Start the round").click()
    student.locator("form.place-form").wait_for(timeout=5000)
    found += axe(student) + axe(teacher)
    teacher.set_viewport_size(SCREENS["phone"])  # a teacher running the round from their phone
    found += axe(teacher)
    assert found == []


@pytest.mark.browser
@pytest.mark.parametrize("game", ["cardline", "stack", "dinoblivion"])
def test_every_game_board_fits_a_phone_for_the_player_and_passes_axe(browser, live_server, axe, game):
    page = browser.new_context(viewport=SCREENS["phone"], has_touch=True, is_mobile=True).new_page()
    page.goto(f"{live_server}/play/{game}/new")
    page.locator("#seats-1-kind").select_option("medium")
    page.locator("form.setup [type=submit]").click()
    page.wait_for_load_state()
    for _ in range(4 if game == "dinoblivion" else 0):  # past the set-up, into a turn with cards in hand
        with page.expect_navigation():
            page.locator("main button[name=action]:visible").first.click()  # a hand card's choices are folded
    assert page.evaluate(WIDER_THAN_SCREEN) is None
    assert axe(page) == []
    page.context.close()


@pytest.mark.browser
def test_class_pages_and_a_pupils_join_pass_axe_on_a_projector_and_a_phone(browser, live_server, teacher_page, axe):
    teacher = teacher_page
    teacher.set_viewport_size(SCREENS["projector"])
    teacher.goto(f"{live_server}/teach/classes/")
    found = axe(teacher)
    teacher.get_by_label("Name of the class").fill("Year 5 Oak")
    teacher.get_by_label("Pupils").fill("Zoë Smith\nSiobhán O'Neill\nAva Kowalski\nDev Patel")
    teacher.get_by_role("button", name="Create the class").click()
    found += axe(teacher)
    code = teacher.locator("td.pupil-code").first.inner_text()
    teacher.get_by_role("link", name="Print the slips (personal codes)").click()
    found += axe(teacher)
    teacher.go_back()
    teacher.get_by_role("link", name="New round for Year 5 Oak").click()
    found += axe(teacher)
    teacher.get_by_role("button", name="Create the round").click()
    join_code = teacher.locator(".join-code").first.inner_text().strip()
    phone = browser.new_context(viewport=SCREENS["phone"], has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{live_server}/join?code={join_code}")
    found += axe(phone)
    phone.get_by_label("Ava K.").check()
    phone.get_by_label("Your personal code (on your slip)").fill("AAAAAA" if code != "AAAAAA" else "CCCCCC")
    phone.get_by_role("button", name="Join").click()
    found += axe(phone)
    box = phone.get_by_label("Ava K.").locator("xpath=..").bounding_box()
    assert box["height"] >= 44  # a name is a big target on a phone
    for path in ("/teach/account", "/teach/questions/", "/teach/classes/"):  # the classes page last: used below
        teacher.goto(live_server + path)
        found += axe(teacher)
    teacher.get_by_role("link", name="Year 5 Oak").click()
    teacher.get_by_role("link", name="Progress over the term").click()
    found += axe(teacher)
    teacher.locator("table.roster a, a[href*='/pupils/']").first.click()
    found += axe(teacher)
    for page in (teacher, phone):
        page.set_viewport_size(SCREENS["phone"])
    teacher.goto(live_server + "/teach/questions/")
    found += axe(teacher)
    assert found == []
