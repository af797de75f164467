"""The stage: a round full-screen on the projector, for its teacher only, hiding what the class may not know yet."""

import re

import pytest
from conftest import sent_as_a_second_start, wait_until
from markupsafe import escape
from playwright.sync_api import expect

from webapp.extensions import db
from webapp.games import cardline, classline
from webapp.models import Card, Student
from webapp.timeline.figures import value_text


def stage_of(url):
    return url + "/stage"


def panel_of(url):
    return url + "/stage/panel"


def names(app, slugs):
    with app.app_context():
        return {card.slug: str(escape(card.common_name)) for card in
                db.session.scalars(db.select(Card).where(Card.slug.in_(slugs)))}


def wrong_gap(state):
    first, last = classline.right_gaps(state)
    return first - 1 if first > 0 else last + 1


def test_the_stage_is_its_teachers_only(classroom, app, teacher):
    url, _code = classroom.new_round(teacher)
    for path in (stage_of(url), panel_of(url)):
        assert teacher.get(path).status_code == 200
        anonymous = app.test_client().get(path)
        assert anonymous.status_code == 302 and "/teach/login" in anonymous.headers["Location"]
    other = app.test_client()
    classroom.register(other, email="other@school.org", name="Mr Other")
    for path in (stage_of(url), panel_of(url)):
        assert other.get(path).status_code == 403
    assert teacher.get("/teach/rounds/999999/stage").status_code == 404


def test_the_round_page_links_to_the_stage(classroom, teacher):
    url, _code = classroom.new_round(teacher)
    page = teacher.get(url).get_data(as_text=True)
    assert f'href="{stage_of(url)}"' in page and "Open the stage for the projector" in page


def test_the_stage_has_no_site_navigation_nor_anything_to_type_into(classroom, teacher):
    url, _code, _students = classroom.play_started(teacher, ("Ada", "Ben"))
    page = teacher.get(stage_of(url)).get_data(as_text=True)
    assert 'aria-label="Main"' not in page and 'class="site-header"' not in page
    assert not re.search(r"<(input|textarea|select)\b", page)
    assert '<meta name="csrf-token" content="' in page
    assert 'src="/static/stage.js"' in page and "<script>" not in page  # script files only (the CSP)
    assert "http://" not in page.replace("http://localhost/join", "")  # nothing fetched from elsewhere


def test_the_lobby_shows_the_code_and_qr_but_nothing_of_the_first_card(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    classroom.join(code, "Ada")
    first = classline.current_card(classroom.round(url).state)
    name = names(app, [first])[first]
    for html in (teacher.get(stage_of(url)).get_data(as_text=True), teacher.get(panel_of(url)).get_data(as_text=True)):
        assert f">{code}<" in html and "<svg" in html and "QR code of the join link" in html
        assert "Ada" in html and 'data-main="start"' in html
        assert "Card 1 of" not in html and f">{name}<" not in html.replace("&shy;", "")
        assert f"/cards/{first}" not in html and f'"{first}"' not in html


def test_space_starts_only_when_someone_has_joined(classroom, teacher):
    url, code = classroom.new_round(teacher)
    assert 'data-main=""' in teacher.get(panel_of(url)).get_data(as_text=True)
    classroom.join(code, "Ada")
    panel = teacher.get(panel_of(url)).get_data(as_text=True)
    assert 'data-main="start"' in panel and "<kbd>Space</kbd> Start the round" in panel


def test_a_running_card_shows_without_its_value(classroom, app, teacher, shows_card):
    url, code, (ada, _ben) = classroom.play_started(teacher, ("Ada", "Ben"), count="4")
    state = classroom.round(url).state
    card = classline.current_card(state)
    hidden = f">{value_text('mass', state['values'][card], 'metric', [])}<"
    shown = [f">{value_text('mass', state['values'][c], 'metric', [])}<" for c in state["line"]]
    for html in (teacher.get(stage_of(url)).get_data(as_text=True), teacher.get(panel_of(url)).get_data(as_text=True)):
        assert shows_card(html, card) and "Card 1 of 4" in html and all(value in html for value in shown)
        if hidden not in shown:  # a card of the line may weigh the same: then its value is rightly there
            assert hidden not in html
        assert not [c for c in state["cards"][1:] if shows_card(html, c)]  # nor the cards to come
        assert 'data-main="reveal"' in html and "<strong>0</strong> of 2 answered" in html
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    assert "<strong>1</strong> of 2 answered" in teacher.get(panel_of(url)).get_data(as_text=True)


def _code_of(teacher, url):
    return re.search(r'class="join-code"[^>]*>(\w+)<', teacher.get(url).get_data(as_text=True)).group(1)


def test_the_panel_is_the_same_for_the_same_state_and_an_unchanged_poll_is_a_304(classroom, teacher):
    url, _code, _students = classroom.play_started(teacher, ("Ada", "Ben"), turn_seconds="30")
    first = teacher.get(panel_of(url))
    assert first.status_code == 200 and "csrf" not in first.get_data(as_text=True)
    assert 0 < float(first.headers["X-Seconds-Left"]) <= 30 and "data-countdown" in first.get_data(as_text=True)
    again = teacher.get(panel_of(url), headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and not again.get_data() and "X-Seconds-Left" in again.headers
    teacher.post(url + "/control", data={"action": "pause"})
    paused = teacher.get(panel_of(url), headers={"If-None-Match": first.headers["ETag"]})
    assert paused.status_code == 200 and "Paused" in paused.get_data(as_text=True)
    assert 'data-pause="resume"' in paused.get_data(as_text=True)


def test_the_reveal_shows_the_value_and_the_class_votes_over_the_gaps(classroom, app, teacher):
    url, code, (ada, ben, cy) = classroom.play_started(teacher, ("Ada", "Ben", "Cy"), count="4")
    state = classroom.round(url).state
    card = classline.current_card(state)
    first, last = classline.right_gaps(state)
    ada.post(f"/r/{code}/answer", data={"gap": str(first)})
    ben.post(f"/r/{code}/answer", data={"gap": str(first)})
    cy.post(f"/r/{code}/answer", data={"gap": str(wrong_gap(state))})  # everyone answered: revealed
    html = teacher.get(panel_of(url)).get_data(as_text=True)
    assert 'data-phase="revealed"' in html and 'data-main="next"' in html and 'data-reveal="turn-0"' in html
    assert f">{value_text('mass', state['values'][card], 'metric', [])}<" in html
    gaps = re.findall(r'<li class="s-gap( is-right)?" style="--share: ([\d.]+)">\s*<span class="s-gap-count"[^>]*>(\d+)<', html)
    assert len(gaps) == len(state["line"]) + 1
    votes = {gap: int(count) for gap, (_right, _share, count) in enumerate(gaps)}
    assert votes[first] == 2 and votes[wrong_gap(state)] == 1 and sum(votes.values()) == 3
    assert [gap for gap, (right, _s, _c) in enumerate(gaps) if right] == list(range(first, last + 1))
    assert "✔<br>right" in html and "the right place" in html  # said in words, not only in colour
    assert "<strong>2</strong> of 3 placed it there" in html
    assert "Top 2" in html and "Ada" in html and "Ben" in html and "Cy</span>" not in html  # nobody without a point


def test_the_end_shows_the_podium_and_the_hardest_card(classroom, app, teacher):
    url, code, (ada, ben, cy) = classroom.play_started(teacher, ("Ada", "Ben", "Cy"), count="3")
    for turn in range(3):
        state = classroom.round(url).state
        right, wrong = classline.right_gaps(state)[0], wrong_gap(state)
        ada.post(f"/r/{code}/answer", data={"gap": str(right)})
        ben.post(f"/r/{code}/answer", data={"gap": str(right if turn else wrong)})
        cy.post(f"/r/{code}/answer", data={"gap": str(wrong if turn < 2 else right)})
        teacher.post(url + "/control", data={"action": "next"})
    rnd = classroom.round(url)
    assert rnd.status == "finished"
    hardest = rnd.state["cards"][0]  # one of three placed it right
    html = teacher.get(stage_of(url)).get_data(as_text=True)
    podium = re.findall(r'<li class="s-step s-step-(\d)">\s*<span class="s-step-who">(.*?)</span>\s*<span class="s-step-block">'
                        r'<span class="s-step-place">(\w+)</span>', html, re.DOTALL)
    assert [(step, place) for step, _who, place in podium] == [("1", "1st"), ("2", "2nd"), ("3", "3rd")]
    assert "Ada" in podium[0][1] and "3 points" in podium[0][1] and "Ben" in podium[1][1] and "Cy" in podium[2][1]
    assert "The card the class found hardest" in html and f">{names(app, [hardest])[hardest]}<" in html.replace("&shy;", "")
    assert f">{value_text('mass', rnd.state['values'][hardest], 'metric', [])}<" in html
    assert "<strong>1</strong> of 3 placed it right" in html
    assert 'data-main=""' in html and 'data-round-status="finished"' in html


def test_ties_share_a_step_and_a_round_without_leaderboard_has_no_podium(classroom, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, ("Ada", "Ben"), count="3")
    state = classroom.round(url).state
    for student in (ada, ben):
        student.post(f"/r/{code}/answer", data={"gap": str(classline.right_gaps(state)[0])})
    teacher.post(url + "/control", data={"action": "end"})
    html = teacher.get(stage_of(url)).get_data(as_text=True)
    assert html.count('class="s-step ') == 1 and "1st" in html and "<strong>Ada</strong><strong>Ben</strong>" in html
    url, code, (ada,) = classroom.play_started(teacher, ("Ada",), count="3", leaderboard="never")
    ada.post(f"/r/{code}/answer", data={"gap": "0"})
    teacher.post(url + "/control", data={"action": "end"})
    html = teacher.get(stage_of(url)).get_data(as_text=True)
    assert "s-podium" not in html and "Top " not in html and "Ada" not in html.split('class="s-body"')[1]


def test_a_live_quiz_hides_the_answer_until_the_reveal(classroom, app, teacher):
    url, code = classroom.live_quiz(teacher, turn_seconds=20)
    questions = classroom.round(url).state["questions"]
    lobby = teacher.get(panel_of(url)).get_data(as_text=True)
    question = questions[0]
    assert str(escape(question["prompt"])) not in lobby
    ada, ben = classroom.join(code, "Ada"), classroom.join(code, "Ben")
    teacher.post(url + "/control", data={"action": "start"})
    right = [option["id"] for option in question["options"]].index(question["answer"])
    asking = teacher.get(panel_of(url)).get_data(as_text=True)
    assert str(escape(question["prompt"])) in asking and "Question 1 of 3" in asking and "data-countdown" in asking
    assert "right answer" not in asking and str(escape(question["explanation"])) not in asking and "is-right" not in asking
    ada.post(f"/r/{code}/answer", data={"gap": str(right)})
    ben.post(f"/r/{code}/answer", data={"gap": str((right + 1) % len(question["options"]))})
    revealed = teacher.get(panel_of(url)).get_data(as_text=True)
    assert "✔ right answer" in revealed and str(escape(question["explanation"])) in revealed
    tiles = re.findall(r'<li class="s-option( is-right)?"[^>]*>.*?<strong>(\d+)</strong> vote', revealed, re.DOTALL)
    assert [(bool(r), int(n)) for r, n in tiles][right] == (True, 1) and sum(int(n) for _r, n in tiles) == 2
    teacher.post(url + "/control", data={"action": "end"})
    end = teacher.get(stage_of(url)).get_data(as_text=True)
    assert "The hardest question" in end and "1st" in end


def test_a_team_round_shows_each_moves_verdict_the_tie_rule_and_the_winning_team(classroom, app, teacher):
    url, code, students = classroom.play_started(teacher, ("Ada", "Ben", "Cy", "Di"), format="team", teams="2",
                                                 team_mode="majority")
    with app.app_context():
        teams = {s.nickname: s.team for s in db.session.query(Student)}
    team_of = {team: [s for s, name in zip(students, ("Ada", "Ben", "Cy", "Di"), strict=True) if teams[name] == team]
               for team in (0, 1)}
    html = teacher.get(panel_of(url)).get_data(as_text=True)
    assert "Now playing: Team 1" in html and "On a tied vote, the move voted for first is played." in html
    hand = classroom.round(url).state["hands"][0]
    assert not [card for card in hand if f"/{card}" in html or f'"{card}"' in html]  # no team's hand on the stage
    for student in team_of[0]:
        student.post(f"/r/{code}/answer", data={"card": hand[0], "gap": "0"})
    html = teacher.get(panel_of(url)).get_data(as_text=True)
    assert "Last move" in html and re.search(r"✔ correct!|✘ wrong\.", html) and "Now playing: Team 2" in html
    assert re.search(r"Team 2</strong>\s*<span>\d cards? left</span>\s*<span class=\"s-team-state\">▶ playing now", html)
    teacher.post(url + "/control", data={"action": "end"})
    end = teacher.get(stage_of(url)).get_data(as_text=True)
    assert "s-podium" in end and "cards left" in end and "1st" in end


def test_a_finished_team_game_names_the_winning_team_on_the_podium(classroom, app, teacher):
    url, code, students = classroom.play_started(teacher, ("Ada", "Ben"), format="team", teams="2", hand_size="1")
    with app.app_context():
        teams = {s.nickname: s.team for s in db.session.query(Student)}
    by_team = {teams[name]: student for student, name in zip(students, ("Ada", "Ben"), strict=True)}
    for _ in range(8):
        state = classroom.round(url).state
        if cardline.is_over(state):
            break
        team = state["turn"]
        card = state["hands"][team][0]
        first, last = cardline.correct_gaps(state, card)
        gap = first if team == 0 else (last + 1 if last < len(state["line"]) else first - 1)  # Team 2 misses
        by_team[team].post(f"/r/{code}/answer", data={"card": card, "gap": str(gap)})
    assert classroom.round(url).status == "finished"
    html = teacher.get(stage_of(url)).get_data(as_text=True)
    assert "The game is over: Team 1 wins!" in html
    assert re.search(r's-step-1">\s*<span class="s-step-who"><strong>Team 1</strong>.*?★ winner', html, re.DOTALL)


def test_homework_shows_the_code_until_opened_then_who_has_finished(classroom, teacher):
    url, code = classroom.new_round(teacher, format="self_paced", count="4")
    eve = classroom.join(code, "Eve")
    classroom.join(code, "Fay")
    lobby = teacher.get(panel_of(url)).get_data(as_text=True)
    assert f">{code}<" in lobby and "<svg" in lobby and "Homework: not open yet" in lobby
    assert 'data-main="start"' in lobby and "Open the homework" in lobby
    teacher.post(url + "/control", data={"action": "start"})
    game_url = eve.get(f"/r/{code}").headers["Location"]
    for _ in range(4):
        eve.post(game_url + "/answer", data={"gap": "0"})
    opened = teacher.get(panel_of(url)).get_data(as_text=True)
    assert "<strong>1</strong> of 2 finished" in opened and re.search(r"Eve</strong>\s*<span>✔ finished: \d of 4", opened)
    assert re.search(r"Fay</strong>\s*<span>working… 0 answered", opened)
    teacher.post(url + "/control", data={"action": "end"})
    closed = teacher.get(stage_of(url)).get_data(as_text=True)
    assert "The homework is closed" in closed and "Eve" in closed


# ---- In a real browser: the stage fits the projector without scrolling, and Space reveals. ----

FITS = """() => ({scrollHeight: document.documentElement.scrollHeight, innerHeight: innerHeight,
                 scrollWidth: document.documentElement.scrollWidth, innerWidth: innerWidth,
                 outside: [...document.querySelectorAll('.s-screen *')].filter((el) => {
                     const box = el.getBoundingClientRect();
                     return box.width && (box.bottom > innerHeight + 1 || box.right > innerWidth + 1 || box.top < -1);
                 }).map((el) => el.className || el.tagName).slice(0, 5),
                 broken: [...document.querySelectorAll('.s-name')].filter((name) => {
                     const range = document.createRange();
                     range.selectNodeContents(name);
                     const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
                     return lines > name.textContent.trim().split(/\\s+/).length + (name.textContent.match(/\\u00ad/g) || []).length;
                 }).map((name) => name.textContent)})"""
SCREENS = [(1280, 720), (1920, 1080)]
# Counts the tones the page makes (each is an OscillatorNode: nothing is fetched to make a sound).
COUNT_TONES = """window.tones = 0;
const made = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.tones += 1; return made.call(this); };"""


def check_fits(page, base, state):
    """Open the stage at each projector size, in normal and large type: nothing scrolls, falls off or breaks a name.

    axe-core (as tests/test_accessibility.py runs it) finds nothing on it either.
    """
    from axe_playwright_python.sync_playwright import Axe

    for width, height in SCREENS:
        for large in (0, 1):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{base}?large={large}")
            page.locator(".s-screen").wait_for()
            page.evaluate("document.fonts.ready")
            fits = page.evaluate(FITS)
            where = f"{state} at {width}x{height}{' in large type' if large else ''}"
            assert fits["scrollHeight"] <= fits["innerHeight"], (where, fits)
            assert fits["scrollWidth"] <= fits["innerWidth"], (where, fits)
            assert fits["outside"] == [], (where, fits)
            assert fits["broken"] == [], (where, fits)  # no card's name is broken inside a word
            page.screenshot(path=f"/tmp/stage-{state}-{width}x{height}{'-large' if large else ''}.png")
            if (width, large) == (1280, 0):
                found = Axe().run(page).response["violations"]
                assert not found, [(v["id"], v["help"], v["nodes"][0]["html"][:200]) for v in found]


@pytest.mark.browser
def test_the_stage_fits_a_projector_and_space_reveals(browser, live_server, teacher_page, new_round_page):
    teacher = teacher_page
    code = new_round_page(teacher, count="5", seconds="90")
    with teacher.expect_popup() as popup:
        teacher.get_by_role("link", name="Open the stage for the projector").click()
    stage = popup.value
    stage_url = stage.url
    stage.add_init_script(COUNT_TONES)
    assert stage_url.endswith("/stage")
    errors = []
    stage.on("pageerror", lambda error: errors.append(str(error)))
    stage.on("console", lambda message: message.type == "error" and errors.append(message.text))

    students = []
    for name in ("Ada", "Ben", "Cy"):
        page = browser.new_context().new_page()
        page.goto(f"{live_server}/join?code={code}")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Join").click()
        page.get_by_text("You're in!").wait_for()
        students.append(page)
    stage.get_by_text("Cy").wait_for()  # the lobby updates by itself
    check_fits(stage, stage_url, "lobby")
    assert stage.locator(".s-code").inner_text() == code and stage.locator(".s-qr svg").is_visible()

    stage.keyboard.press("Space")  # starts the round
    stage.locator(".s-screen[data-phase=answering]").wait_for(timeout=5000)
    stage.locator("[data-countdown-number]").filter(has_text=re.compile(r"^\d+$")).wait_for(timeout=5000)
    assert 80 <= int(stage.locator("[data-countdown-number]").inner_text()) <= 90
    for page in students[:2]:
        page.locator("form.place-form").wait_for(timeout=5000)
        page.locator("label.hand-card").first.click()
        page.locator("label.gap").first.click()  # with a mouse, card then gap sends the answer
        page.locator("form.place-form").wait_for(state="detached", timeout=5000)
    stage.get_by_text("2 of 3 answered").wait_for(timeout=5000)
    check_fits(stage, stage_url, "card")
    assert stage.locator(".s-value").count() == stage.locator(".s-line .s-card").count()  # the card's own value hidden

    before = int(stage.locator("[data-countdown-number]").inner_text())
    stage.wait_for_timeout(2200)
    assert int(stage.locator("[data-countdown-number]").inner_text()) < before  # the clock runs between polls

    assert stage.locator("#stage-sound").inner_text() == "Sound: off"  # off until the teacher switches it on
    assert stage.evaluate("window.tones") == 0
    stage.locator("#stage-sound").click()
    assert stage.locator("#stage-sound").inner_text() == "Sound: on" and stage.evaluate("window.tones") == 1
    stage.reload()
    assert stage.locator("#stage-sound").inner_text() == "Sound: on"  # remembered
    stage.keyboard.press("Space")  # reveals, with a chime
    stage.locator(".s-screen[data-phase=revealed]").wait_for(timeout=5000)
    wait_until(lambda: stage.evaluate("() => window.tones") >= 4)
    assert stage.locator(".s-gap").count() == 2 and stage.locator(".s-gap.is-right").count() >= 1
    assert "right" in stage.locator(".s-gap.is-right").first.inner_text()
    check_fits(stage, stage_url, "reveal")

    stage.locator("#stage-sound").focus()  # Space goes on to the next card, never presses a focused button
    stage.keyboard.press("Space")  # the next card, not the focused button
    stage.get_by_text("Card 2 of 5").wait_for(timeout=5000)
    assert stage.locator("#stage-sound").inner_text() == "Sound: on"

    def running_out(route):  # the server's clock says 3.2 seconds are left
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "x-seconds-left": "3.2"})

    stage.route("**/stage/events*", lambda route: route.fulfill(status=204))  # no stream: the stage polls, and the test
    stage.reload()  # sets the server's clock in the polled panel's header
    stage.get_by_text("Card 2 of 5").wait_for(timeout=5000)
    tones = stage.evaluate("window.tones")
    stage.route("**/stage/panel?*", running_out)
    stage.locator("[data-countdown-number]").filter(has_text=re.compile(r"^[34]$")).wait_for(timeout=5000)
    wait_until(lambda: stage.evaluate("() => window.tones") > tones)  # a tick in the last five seconds
    stage.unroute("**/stage/panel?*", running_out)
    assert errors == []

    def stale_token(route):  # the stage was opened more than an hour ago: its CSRF token has expired
        response = route.fetch()
        route.fulfill(response=response, body=re.sub(r'(name="csrf-token" content=")[^"]+', r"\1stale", response.text()))

    stage.route(lambda url: url.split("?")[0].endswith("/stage"), stale_token, times=1)
    stage.reload()
    assert stage.locator("meta[name=csrf-token]").get_attribute("content") == "stale"
    stage.keyboard.press("p")  # refused for its token, then sent again with a fresh one
    stage.locator(".s-paused").wait_for(timeout=5000)
    stage.keyboard.press("p")
    stage.locator(".s-paused").wait_for(state="detached", timeout=5000)
    assert [error for error in errors if "status of 400" not in error] == []  # only the refused token

    # A control that no longer applies when it arrives (another screen moved the round on): the stage says why,
    # and nothing changes. The test turns the key's pause into a second start on its way to the server.
    stage.route("**/control", sent_as_a_second_start(teacher), times=1)
    stage.keyboard.press("p")
    expect(stage.locator("#stage-notice")).to_have_text("The round has already started.", timeout=5000)
    assert stage.locator(".s-paused").count() == 0


def test_one_ranking_rule_on_every_screen_a_tie_shares_a_place_and_the_next_skips(classroom, app, teacher):
    url, code, students = classroom.play_started(teacher, ("Ada", "Ben", "Cy", "Dee"), count="3", turn_seconds="0")
    ada, ben, cy, dee = students
    for card in range(2):
        state = classroom.round(url).state
        first, last = classline.right_gaps(state)
        right, wrong = first, 0 if first else len(state["line"])
        assert not first <= wrong <= last
        for student, gap in ((ada, right), (ben, right), (cy, right if card == 0 else wrong), (dee, wrong)):
            student.post(f"/r/{code}/answer", data={"gap": str(gap)})
        if card == 0:
            teacher.post(url + "/control", data={"action": "next"})
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert re.findall(r'<li value="(\d)"><strong>(\w+)</strong>', panel) == [
        ("1", "Ada"), ("1", "Ben"), ("3", "Cy"), ("4", "Dee")]
    assert "number 1 of 4" in ben.get(f"/r/{code}").get_data(as_text=True)
    assert "number 3 of 4" in cy.get(f"/r/{code}").get_data(as_text=True)
    assert re.findall(r'<li value="(\d)"><strong>(\w+)</strong>', ada.get(f"/r/{code}/panel").get_data(as_text=True)) == [
        ("1", "Ada"), ("1", "Ben"), ("3", "Cy")]
    late = classroom.join(code, "Eve")  # a late joiner is counted on everyone's phone at once
    assert "number 1 of 5" in ben.get(f"/r/{code}/panel").get_data(as_text=True) and late
    teacher.post(url + "/control", data={"action": "end"})
    html = teacher.get(stage_of(url)).get_data(as_text=True)
    podium = re.findall(r'<span class="s-step-who">(.*?)</span>\s*<span class="s-step-block"><span class="s-step-place">(\w+)',
                        html, re.DOTALL)
    assert [place for _, place in podium] == ["1st", "3rd"]
    assert "Ada" in podium[0][0] and "Ben" in podium[0][0] and "Cy" in podium[1][0]


@pytest.mark.parametrize(("shown", "names", "scores"), [("scores", True, True), ("names", True, False),
                                                       ("count", False, False)])
def test_the_teacher_chooses_what_the_homework_stage_shows_of_each_child(classroom, teacher, shown, names, scores):
    url, code = classroom.new_round(teacher, format="self_paced", count="4", stage_names=shown)
    eve = classroom.join(code, "Eve")
    teacher.post(url + "/control", data={"action": "start"})
    game_url = eve.get(f"/r/{code}").headers["Location"]
    for _ in range(4):
        eve.post(game_url + "/answer", data={"gap": "0"})
    stage = teacher.get(panel_of(url)).get_data(as_text=True)
    assert "<strong>1</strong> of 1 finished" in stage
    assert ("Eve" in stage) == names and ("of 4" in stage) == scores


def test_the_teachers_leaderboard_ranks_nobody_before_anyone_scores_as_the_students_and_stage_do(classroom, teacher):
    url, code, (ada, ben) = classroom.play_started(teacher, ("Ada", "Ben"))
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert "No points yet" in panel and "0 points" not in panel  # before any reveal, nobody shares first place
    state = classroom.round(url).state
    ada.post(f"/r/{code}/answer", data={"gap": str(classline.right_gaps(state)[0])})
    ben.post(f"/r/{code}/answer", data={"gap": str(wrong_gap(state))})  # everyone answered: revealed
    board = teacher.get(url + "/panel").get_data(as_text=True).split("<h2>Leaderboard</h2>")[1].split("</ol>")[0]
    assert "<strong>Ada</strong>: 1 point<" in board and "No points yet" not in board
    assert board.index("Ada") < board.index("Ben")  # the teacher still sees everyone, the pointless last


def test_the_captains_turn_says_whom_it_waits_for_and_the_lobby_ranks_nobody(classroom, app, teacher):
    url, code = classroom.new_round(teacher, format="team", teams="2", hand_size="2")
    classroom.join(code, "Ada")
    assert "Leaderboard" not in teacher.get(url + "/panel").get_data(as_text=True)  # nobody ranked at 0 points
    teacher.post(url + "/control", data={"action": "start"})
    panel = teacher.get(url + "/panel").get_data(as_text=True)
    assert "waiting for the captain" in panel and "0 votes" not in panel
    assert "The captain places the card" in teacher.get(stage_of(url) + "/panel").get_data(as_text=True)


def test_the_right_places_keep_their_names_capitals(app):
    from flask import render_template_string

    cards = {slug: type("Card", (), {"common_name": name}) for slug, name in (("a", "Deinosuchus"), ("b", "Deinotherium"),
                                                                             ("c", "T. rex"))}
    said = "{% from 'classroom/stage/_parts.html' import gap_words %}{{ gap_words(line, 1, cards) }}, or " \
           "{{ gap_words(line, 2, cards, false) }}"
    with app.test_request_context():
        assert render_template_string(said, line=["a", "b", "c"], cards=cards) == \
            "Between Deinosuchus and Deinotherium, or between Deinotherium and T. rex"


# Every card of the line on the stage: its value and name inside its card, never scrolled, the name at least 24 px.
CARDS_MEASURED = """() => [...document.querySelectorAll('.s-line .s-face')].map((face) => {
    const box = face.getBoundingClientRect();
    const inside = (el) => {
        const r = el.getBoundingClientRect();
        return r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1
            && el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1;
    };
    const name = face.querySelector('.s-name'), value = face.querySelector('.s-value');
    return {name: name.textContent.trim(), px: parseFloat(getComputedStyle(name).fontSize),
            inside: inside(name) && (!value || inside(value))};
})"""
LONGEST_LINE = 40  # the most cards a class line round deals (classroom/forms.py), so its line ends 41 long


def measure_line(stage, where):
    """Assert every card of the stage's line is whole and its name at least 24 px; return how many were measured."""
    cards = stage.evaluate(CARDS_MEASURED)
    assert cards, where
    assert [card["name"] for card in cards if not card["inside"]] == [], where
    assert [(card["name"], card["px"]) for card in cards if card["px"] < 24] == [], where
    return len(cards)


@pytest.mark.browser
def test_the_longest_line_shows_in_a_window_nothing_cut_off_and_names_24_px(browser, live_server, teacher_page,
                                                                           new_round_page):
    teacher = teacher_page
    code = new_round_page(teacher, count=str(LONGEST_LINE), **{"Sort the line by": "length"})
    url = teacher.url
    student = browser.new_context().new_page()
    student.goto(f"{live_server}/join?code={code}")
    student.get_by_label("Your name").fill("Ada")
    student.get_by_role("button", name="Join").click()
    with teacher.expect_popup() as popup:
        teacher.get_by_role("link", name="Open the stage for the projector").click()
    stage = popup.value
    teacher.get_by_role("button", name="Start the round").click()
    token = teacher.locator("meta[name=csrf-token]").get_attribute("content")

    def step(action):
        # Sent as the live page sends it, so a refusal is a status, not a redirect that hides it. A press the server
        # was too busy to take (503) or that met the round changing at the same moment (409: a screen's look settling
        # it) did nothing and is pressed again, as the page tells a teacher to.
        for _press in range(5):
            status = teacher.request.post(url + "/control", form={"action": action, "csrf_token": token},
                                          headers={"X-Live-Panel": "1"}, max_redirects=0).status
            if status not in (409, 503):
                break
        assert status == 204, (action, status)

    for turn in range(LONGEST_LINE - 1):  # every card but the last revealed: the line is 40 long, the last to place
        step("reveal")
        step("next")
    for width, height in SCREENS:
        for large in (0, 1):
            stage.set_viewport_size({"width": width, "height": height})
            stage.goto(f"{url}/stage?large={large}")
            assert measure_line(stage, ("asking", width, height, large)) == 8
            expect(stage.locator(".s-window")).to_contain_text(f"Cards 1–8 of {LONGEST_LINE}")
    stage.keyboard.press("ArrowDown")  # the teacher moves the window on: the next eight cards
    expect(stage.locator(".s-window")).to_contain_text(f"Cards 9–16 of {LONGEST_LINE}")
    expect(stage.locator(".s-line .s-row").first).to_have_attribute("start", "9")
    measure_line(stage, "moved")
    stage.keyboard.press("ArrowUp")
    expect(stage.locator(".s-window")).to_contain_text(f"Cards 1–8 of {LONGEST_LINE}")
    step("reveal")  # the reveal shows the window around the right place, its gaps between the cards
    for width, height in SCREENS:
        for large in (0, 1):
            stage.set_viewport_size({"width": width, "height": height})
            stage.goto(f"{url}/stage?large={large}")
            assert measure_line(stage, ("revealed", width, height, large)) == 6
            expect(stage.locator(".s-gap.is-right").first).to_be_visible()
            expect(stage.locator(".s-window")).to_contain_text("around the right place")



@pytest.mark.parametrize("count", [3, 5, 6, 8, 9, 14, 41])
@pytest.mark.parametrize("start", [0, 4, 8, 40, 99])
def test_a_line_window_shows_a_whole_window_within_the_line_and_a_short_line_whole(count, start):
    from webapp.classroom.formats.base import REVEAL_WINDOW, WINDOW, WITH_DRAWINGS, line_window

    names = ["Stegosaurus"] * count
    shown = line_window(names, start)
    assert 0 <= shown["start"] < shown["stop"] <= count and shown["count"] == count
    assert shown["stop"] - shown["start"] == min(count, WINDOW)
    assert shown["compact"] == (count > WITH_DRAWINGS)
    assert shown["rows"] * shown["per_row"] >= shown["stop"] - shown["start"]
    for focus in range(count + 1):  # at a reveal, the right place (gap `focus`) is always inside the window
        around = line_window(names, gaps=True, focus=focus)
        assert around["start"] <= focus <= around["stop"]
        assert around["stop"] - around["start"] == min(count, REVEAL_WINDOW)


def test_a_name_too_long_for_a_drawn_card_makes_even_a_short_line_compact():
    from webapp.classroom.formats.base import line_window

    assert not line_window(["Stegosaurus", "Tyrannosaurus"])["compact"]
    assert line_window(["Stegosaurus", "West Indian Ocean coelacanth"])["compact"]
