"""A classroom round of each format, end to end in real browsers, as a teacher and three students live it.

The teacher (a 1280 x 720 window) creates the round through the new-round form (or launches a lesson's
quiz), opens the stage in a second tab of the same window and drives the round from the stage's keyboard or
the round page's buttons; three students, each on their own phone (390 x 844, touch), join with the code
read from the teacher's page and answer by tapping. Where a step needs someone who knows the answer, the
test reads the round's stored state (the right gap, bin or option), as a student who knows would answer.
Screenshots of the stage and of one phone per journey go to /tmp/journey-<format>-*.png.
"""

import codecs
import re

import pytest
from conftest import sent_as_a_second_start
from playwright.sync_api import expect

from webapp.games import cardline, classbins, classline, livequiz
from webapp.games.words import article
from webapp.timeline.figures import value_text

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
WAIT = 6000  # ms: the pages poll every second
STUDENTS = ("Ada", "Ben", "Cy")
END_QUESTION = "End this round for everyone? Nobody can answer after that."


# ---- The teacher's steps ----

def new_round(teacher, base, title, round_format, **fields):
    """Create a small round (3 cards, no timer) through the new-round form; return its join code, read from the page."""
    teacher.goto(f"{base}/teach/rounds/new")
    teacher.get_by_label("Title").fill(title)
    teacher.get_by_label("Format", exact=True).select_option(round_format)
    teacher.get_by_label("Sort the line by").select_option("mass")  # a diet sort sorts by diet whatever this says
    teacher.get_by_label("Cards to place (class line, self-paced)").fill("3")
    teacher.get_by_label("Seconds per turn (0 = no timer)").fill("0")
    for label, value in fields.items():
        field = teacher.get_by_label(label)
        if field.evaluate("(element) => element.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    teacher.get_by_role("button", name="Create the round").click()
    return join_code(teacher)


def join_code(teacher):
    code = teacher.locator(".join-code").first.inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{5}", code), code
    return code


def open_stage(teacher):
    """Open the stage from the round page's link: a second tab of the teacher's window."""
    with teacher.expect_popup() as popup:
        teacher.get_by_role("link", name="Open the stage for the projector").click()
    stage = popup.value
    assert stage.context is teacher.context and re.search(r"/teach/rounds/\d+/stage$", stage.url)
    stage.locator(".s-screen").wait_for()
    return stage


def controls(teacher):
    return teacher.locator("form.controls button")


def end_round(teacher, button="End the round"):
    """Press End on the round page, say no to the question once (nothing happens), then yes."""
    asked = []

    def say_no(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    def say_yes(dialog):
        asked.append(dialog.message)
        dialog.accept()

    teacher.once("dialog", say_no)
    teacher.get_by_role("button", name=button).click()
    expect(teacher.locator("[data-round-status]")).not_to_have_attribute("data-round-status", "finished")
    teacher.once("dialog", say_yes)
    teacher.get_by_role("button", name=button).click()
    teacher.get_by_role("heading", name="Results").wait_for(timeout=WAIT)
    assert asked == [END_QUESTION, END_QUESTION]


def results_csv(teacher, base):
    """Return the rows of the results CSV the finished round page links to."""
    link = teacher.get_by_role("link", name=re.compile("^CSV: ")).first
    expect(link).to_be_visible()
    response = teacher.context.request.get(base + link.get_attribute("href"))
    assert response.ok and response.body().startswith(codecs.BOM_UTF8)
    return response.body().decode("utf-8-sig").strip().splitlines()


def shows_only(teacher, labels):
    """The round page offers exactly these controls, in this order (it follows the round by itself)."""
    expect(controls(teacher)).to_have_text(labels, timeout=WAIT)


# ---- The students' steps ----

def join(browser, base, code, name):
    """A student joins on their own phone: types the code from the board and a nickname.

    Cy's network lets no event stream through (a proxy that refuses them): Cy's phone polls, and must
    follow the round all the same; the others' are pushed."""
    phone = browser.new_context(**PHONE).new_page()
    if name == "Cy":
        phone.route("**/events*", lambda route: route.abort())
    phone.goto(f"{base}/join")
    phone.get_by_label("Join code").fill(code)
    phone.get_by_label("Your name").fill(name)
    phone.get_by_role("button", name="Join").tap()
    return phone


def join_class(browser, base, code, live=True):
    phones = {name: join(browser, base, code, name) for name in STUDENTS}
    if live:
        for name, phone in phones.items():
            expect(phone.locator(".big-status")).to_have_text("You're in! Wait for your teacher to start.")
            expect(phone.locator(".student-title")).to_contain_text(f"You are {name}")
    return phones


def round_only(phone):
    """A student's round page shows the round only: no site navigation."""
    expect(phone.locator("nav[aria-label=Main]")).to_have_count(0)


def tap_gap(phone, gap):
    phone.locator("#live form.place-form label.gap").nth(gap).tap()


def place(phone, gap):
    """Tap a gap of the line (only selected on a touch screen), then confirm with the button."""
    tap_gap(phone, gap)
    expect(phone.locator("#live input[name=gap]").nth(gap)).to_be_checked()
    phone.get_by_role("button", name="Place card").tap()
    expect(phone.locator("#live form.place-form")).to_have_count(0, timeout=WAIT)


def pick_option(phone, index):
    """Tap a bin or an option, then the Answer button."""
    phone.locator("#live .quiz-option").nth(index).tap()
    expect(phone.locator("#live .quiz-option input").nth(index)).to_be_checked()
    phone.get_by_role("button", name="Answer").tap()
    expect(phone.locator("#live form.quiz-form")).to_have_count(0, timeout=WAIT)


def verdicts(phones, right):
    """Each phone says by itself whether its own answer was right."""
    for name, phone in phones.items():
        said = "✔ You got it right!" if name in right else "✘ Not quite."
        expect(phone.locator("#live .last-move .verdict")).to_have_text(said, timeout=WAIT)


def standing(phone, points, rank):
    expect(phone.locator(".my-standing")).to_have_text(
        f"You: {points} point{'' if points == 1 else 's'} · number {rank} of 3", timeout=WAIT)


def wrong_of(first, last, choices):
    """A wrong place next to the right ones (a line's gaps: 0..choices-1)."""
    return first - 1 if first > 0 else (last + 1) % choices


def shoot(page, name):
    page.screenshot(path=f"/tmp/journey-{name}.png")


# ---- The journeys ----

@pytest.mark.browser
def test_class_line_journey(browser, live_server, teacher_page, classroom):
    teacher = teacher_page
    assert teacher.viewport_size == {"width": 1280, "height": 720}
    code = new_round(teacher, live_server, "Who weighs more?", "class_line")
    round_url = teacher.url
    stage = open_stage(teacher)
    expect(stage.locator(".s-code")).to_have_text(code)
    phones = join_class(browser, live_server, code)
    ada, ben, cy = phones.values()
    expect(stage.locator(".s-names")).to_contain_text("3 have joined")
    for phone in phones.values():
        round_only(phone)

    stage.keyboard.press("Space")  # starts the round
    expect(stage.locator(".s-progress")).to_have_text("Card 1 of 3", timeout=WAIT)
    shows_only(teacher, ["Pause", "Reveal", "Skip this turn", "Lock the room (no new players)", "End the round"])

    # Card 1: Ada and Cy right, Ben wrong. Nobody presses Reveal: it comes once everyone answered.
    state = classroom.round(round_url).state
    first, last = classline.right_gaps(state)
    wrong = wrong_of(first, last, len(state["line"]) + 1)
    for phone, gap in ((ada, first), (ben, wrong), (cy, first)):
        place(phone, gap)
    stage.locator(".s-screen[data-phase=revealed]").wait_for(timeout=WAIT)
    verdicts(phones, right={"Ada", "Cy"})
    counts = [int(count) for count in stage.locator(".s-gap-count").all_inner_texts()]
    assert len(counts) == len(state["line"]) + 1 and sum(counts) == 3
    assert counts[first] == 2 and counts[wrong] == 1
    expect(stage.locator(".s-gap.is-right").first).to_contain_text("right")
    expect(stage.locator(".s-revealed")).to_contain_text("2 of 3 placed it there")
    expect(stage.locator(".s-top-five")).to_contain_text("Ada")
    expect(stage.locator(".s-top-five")).not_to_contain_text("Ben")
    expect(stage.locator(".s-top-five .s-place")).to_have_text(["1.", "1."])  # Ada and Cy share the first place
    shows_only(teacher, ["Pause", "Next card", "Lock the room (no new players)", "End the round"])
    expect(teacher.get_by_role("button", name="Reveal")).to_have_count(0)
    standing(ada, 1, 1)
    standing(cy, 1, 1)
    standing(ben, 0, 3)
    shoot(stage, "class_line-stage-reveal")
    shoot(ben, "class_line-phone-reveal")

    # Card 2: Cy taps a gap but has not sent it when the teacher gives Ada extra time, which refreshes
    # every polling phone (Cy's): the tapped gap is still chosen afterwards, and the button sends it.
    stage.keyboard.press("Space")
    expect(stage.locator(".s-progress")).to_have_text("Card 2 of 3", timeout=WAIT)
    state = classroom.round(round_url).state
    first, _last = classline.right_gaps(state)
    place(ada, first)
    place(ben, first)
    cy.locator("#live form.place-form").wait_for(timeout=WAIT)
    tap_gap(cy, first)
    expect(cy.locator("#live .confirm-note")).to_contain_text("Press the button to confirm")
    cy.evaluate("document.querySelector('#live form.place-form').dataset.drawnBefore = 'yes'")
    teacher.get_by_role("link", name="Rename or remove students, give extra time").click()
    teacher.locator("li", has_text="Ada").get_by_role("button", name="+15 s").click()
    expect(teacher.locator("li", has_text="Ada")).to_contain_text("+15 s")
    cy.locator("#live form.place-form:not([data-drawn-before])").wait_for(timeout=WAIT)  # drawn anew
    expect(cy.locator("#live input[name=gap]").nth(first)).to_be_checked()
    cy.get_by_role("button", name="Place card").tap()
    verdicts(phones, right={"Ada", "Ben", "Cy"})  # Cy's answer was the gap kept through the refresh
    teacher.get_by_role("link", name="Who weighs more?").click()  # back to the round page
    shows_only(teacher, ["Pause", "Next card", "Lock the room (no new players)", "End the round"])

    # Card 3 from the round page's button: Ada and Ben right, Cy wrong; then the teacher ends the round. The
    # control goes by fetch: the page stays where it is (not loaded again) and its stream shows the new card.
    teacher.evaluate("window.stillTheSamePage = true")
    teacher.get_by_role("button", name="Next card").click()
    expect(stage.locator(".s-progress")).to_have_text("Card 3 of 3", timeout=WAIT)
    expect(teacher.locator("#live")).to_contain_text("Card 3 of 3", timeout=WAIT)
    assert teacher.evaluate("window.stillTheSamePage === true")
    expect(teacher.locator("[data-control-news]")).to_be_hidden()
    state = classroom.round(round_url).state
    first, last = classline.right_gaps(state)
    wrong = wrong_of(first, last, len(state["line"]) + 1)
    for phone, gap in ((ada, first), (ben, first), (cy, wrong)):
        place(phone, gap)
    verdicts(phones, right={"Ada", "Ben"})
    shows_only(teacher, ["Pause", "Next card", "Lock the room (no new players)", "End the round"])
    # A control that no longer applies when it arrives (the stage moved the round on, say) is refused with the
    # reason beside the controls, and changes nothing. The test turns "Pause" into a second start on its way.
    teacher.route("**/control", sent_as_a_second_start(teacher), times=1)
    teacher.get_by_role("button", name="Pause").click()
    expect(teacher.locator("[data-control-news]")).to_have_text("The round has already started.", timeout=WAIT)
    shows_only(teacher, ["Pause", "Next card", "Lock the room (no new players)", "End the round"])
    end_round(teacher)
    expect(teacher.locator("[data-control-news]")).to_be_hidden()  # the page drawn again for the end
    assert len(results_csv(teacher, live_server)) == 1 + 3 * 3

    # The stage shows the podium (Ada 3 points; Ben and Cy share second with 2) and the hardest card.
    stage.locator(".s-podium").wait_for(timeout=WAIT)
    expect(stage.locator(".s-step-1")).to_contain_text("Ada")
    expect(stage.locator(".s-step-1")).to_contain_text("3 points")
    expect(stage.locator(".s-step-2")).to_contain_text("Ben")
    expect(stage.locator(".s-step-2")).to_contain_text("Cy")
    expect(stage.locator(".s-hardest")).to_contain_text("The card the class found hardest")
    shoot(stage, "class_line-stage-end")
    expect(ada.locator(".big-status")).to_have_text("The round is over. You scored 3 points: number 1 of 3.",
                                                    timeout=WAIT)
    expect(cy.locator(".big-status")).to_have_text("The round is over. You scored 2 points: number 2 of 3.")


@pytest.mark.browser
def test_diet_sort_journey(browser, live_server, teacher_page, classroom):
    teacher = teacher_page
    code = new_round(teacher, live_server, "What did it eat?", "class_diet")
    round_url = teacher.url
    stage = open_stage(teacher)
    expect(stage.locator(".s-code")).to_have_text(code)
    phones = join_class(browser, live_server, code)
    ada, ben, cy = phones.values()
    teacher.get_by_text("Students (3)").wait_for(timeout=WAIT)  # the lobby follows by itself

    teacher.get_by_role("button", name="Start the round").click()
    shows_only(teacher, ["Pause", "Reveal", "Skip this turn", "Lock the room (no new players)", "End the round"])
    for phone in phones.values():
        round_only(phone)
        expect(phone.locator("#live .quiz-form h2")).to_have_text("Card 1 of 3: what did it eat?", timeout=WAIT)
        expect(phone.locator("#live .quiz-option")).to_have_text(["Carnivore", "Herbivore", "Omnivore"])

    # Card 1: Ada and Cy pick the right bin, Ben another; the reveal comes by itself.
    state = classroom.round(round_url).state
    card = classbins.current_card(state)
    right = classbins.right_gaps(state)[0]
    wrong = (right + 1) % 3
    for phone, index in ((ada, right), (ben, wrong), (cy, right)):
        pick_option(phone, index)
    verdicts(phones, right={"Ada", "Cy"})
    diet = state["values"][card]
    expect(ben.locator("#live .last-move")).to_contain_text(re.compile(rf"(is|was) {article(diet)}, an animal that "))
    standing(ada, 1, 1)
    standing(ben, 0, 3)
    expect(teacher.locator(".current-card h2")).to_contain_text(re.compile(rf"(is|was) {article(diet)}, an animal that "), timeout=WAIT)
    bars = teacher.locator(".vote-bars li")
    expect(bars.nth(right)).to_contain_text("✔ right")
    expect(bars.nth(right)).to_contain_text("2 votes")
    expect(bars.nth(wrong)).to_contain_text("1 vote")
    shows_only(teacher, ["Pause", "Next card", "Lock the room (no new players)", "End the round"])
    expect(teacher.get_by_role("button", name="Reveal")).to_have_count(0)
    shoot(ben, "class_diet-phone-reveal")
    shoot(stage, "class_diet-stage-reveal")  # see test_the_stage_of_a_diet_sort_round below

    # Card 2: everyone right, then the teacher ends the round.
    teacher.get_by_role("button", name="Next card").click()
    for phone in phones.values():
        expect(phone.locator("#live .quiz-form h2")).to_have_text("Card 2 of 3: what did it eat?", timeout=WAIT)
    right = classbins.right_gaps(classroom.round(round_url).state)[0]
    for phone in phones.values():
        pick_option(phone, right)
    verdicts(phones, right=set(STUDENTS))
    end_round(teacher)
    assert len(results_csv(teacher, live_server)) == 1 + 3 * 2
    expect(teacher.locator("table.review").first).to_contain_text("Ada")
    expect(ada.locator(".big-status")).to_have_text("The round is over. You scored 2 points: number 1 of 3.",
                                                    timeout=WAIT)
    expect(ben.locator(".big-status")).to_have_text("The round is over. You scored 1 point: number 3 of 3.")


@pytest.mark.browser
def test_the_stage_of_a_diet_sort_round(browser, live_server, teacher_page, classroom):
    teacher = teacher_page
    code = new_round(teacher, live_server, "What did it eat?", "class_diet")
    round_url = teacher.url
    stage = open_stage(teacher)
    phone = join(browser, live_server, code, "Ada")
    expect(stage.locator(".s-names")).to_contain_text("Ada", timeout=WAIT)
    stage.keyboard.press("Space")  # starts the round (the lobby's stage works)
    phone.locator("#live .quiz-form").wait_for(timeout=WAIT)
    expect(stage.locator(".s-screen")).to_have_attribute("data-round-status", "playing", timeout=4000)
    assert stage.reload().status == 200
    state = classroom.round(round_url).state
    pick_option(phone, classbins.right_gaps(state)[0])
    expect(stage.locator(".s-screen")).to_have_attribute("data-phase", "revealed", timeout=WAIT)
    teacher.once("dialog", lambda dialog: dialog.accept())
    teacher.get_by_role("button", name="End the round").click()
    stage.locator(".s-podium").wait_for(timeout=WAIT)


@pytest.mark.browser
def test_team_cardline_journey(browser, live_server, teacher_page, classroom):
    teacher = teacher_page
    code = new_round(teacher, live_server, "Team weights", "team", **{
        "Cards per team (team Cardline)": "1", "Teams (team Cardline)": "2", "Team decisions": "captain"})
    round_url = teacher.url
    stage = open_stage(teacher)
    phones = join_class(browser, live_server, code)
    ada, ben, cy = phones.values()
    for phone, team in ((ada, 1), (ben, 2), (cy, 1)):  # teams fill in turn; a team's first member captains it
        expect(phone.locator(".student-title")).to_contain_text(f"Team {team}")
    expect(stage.locator(".s-names")).to_contain_text("(2 teams)")

    stage.keyboard.press("Space")
    expect(stage.locator(".s-headline")).to_have_text("Now playing: Team 1", timeout=WAIT)
    expect(stage.locator(".s-team-now")).to_contain_text("The captain places the card")
    for phone in phones.values():
        round_only(phone)
    expect(ada.locator("#live form.place-form h2")).to_have_text(
        "Your team's turn: you are the captain, you place the card", timeout=WAIT)
    expect(cy.locator("#live .big-status")).to_have_text("Your captain Ada places the card: talk it over!")
    expect(cy.get_by_role("button", name="Place card")).to_have_count(0)
    expect(cy.locator("#live form.place-form")).to_have_count(0)
    expect(ben.locator("#live .big-status")).to_have_text("Team 1 is playing.")

    # Team 1's captain places the card where it belongs: every phone and the stage say so, with its value.
    stored = classroom.round(round_url)
    state, key = stored.state, stored.settings["characteristic"]
    card = state["hands"][0][0]
    name = ada.locator("#live form.place-form label.hand-card .mini-name").inner_text().replace("\u00ad", "")  # where a long name may break
    expect(ada.locator("#live form.place-form input[name=card]")).to_be_checked()  # one card: already chosen
    place(ada, cardline.correct_gaps(state, card)[0])
    # The value may be followed by what it measures and something to picture.
    said = re.compile(rf"Team 1 placed {re.escape(name)}:\s*✔ correct!\s*(It|Its) [^.]*"
                      rf"{re.escape(value_text(key, state['values'][card], 'metric', []))}[^.]*\.")
    for screen in (ada, ben, cy, stage):
        expect(screen.locator("#last-move")).to_contain_text(said, timeout=WAIT)
    expect(stage.locator(".s-headline")).to_have_text("Now playing: Team 2")
    expect(ben.locator("#live form.place-form h2")).to_have_text(
        "Your team's turn: you are the captain, you place the card")
    expect(ada.locator("#live .big-status")).to_have_text("Team 2 is playing.")
    shoot(stage, "team-stage-move")
    shoot(cy, "team-phone-move")

    # Team 2's captain misses: Team 1, out of cards, wins. The round ends by itself: the round page, never
    # reloaded by the test, redraws itself with the results, and the stage names the winning team.
    state = classroom.round(round_url).state
    card = state["hands"][1][0]
    first, last = cardline.correct_gaps(state, card)
    place(ben, wrong_of(first, last, len(state["line"]) + 1))
    teacher.get_by_role("heading", name="Results").wait_for(timeout=WAIT)
    assert len(results_csv(teacher, live_server)) == 1 + 2
    expect(controls(teacher)).to_have_count(0)
    expect(stage.locator(".s-headline")).to_have_text("The game is over: Team 1 wins!", timeout=WAIT)
    expect(stage.locator(".s-step-1")).to_contain_text("Team 1")
    expect(stage.locator(".s-step-1")).to_contain_text("★ winner")
    shoot(stage, "team-stage-end")
    for phone in (ada, cy):
        expect(phone.locator("#live .big-status")).to_have_text(
            "The game is over: Team 1 wins! Well played, your team won!", timeout=WAIT)
    expect(ben.locator("#live .big-status")).to_have_text("The game is over: Team 1 wins!")


@pytest.mark.browser
def test_homework_journey(browser, live_server, teacher_page):
    teacher = teacher_page
    code = new_round(teacher, live_server, "Weigh them at home", "self_paced")
    stage = open_stage(teacher)
    expect(stage.locator(".s-progress")).to_have_text("Homework: not open yet")
    phones = join_class(browser, live_server, code, live=False)
    ada, cy = phones["Ada"], phones["Cy"]
    for phone in phones.values():  # each student lands on their own copy of the challenge, which waits to open
        expect(phone.get_by_role("status").filter(has_text="not open yet")).to_have_text(
            "This homework is not open yet: your teacher opens it.")
        expect(phone.get_by_role("button", name="Place card")).to_have_count(0)  # nothing of the first card yet
    shows_only(teacher, ["Open the homework", "Lock the room (no new players)", "Close the homework"])

    stage.keyboard.press("Space")  # Open the homework
    expect(stage.locator(".s-headline")).to_have_text("Who has finished?", timeout=WAIT)
    for phone in phones.values():  # each waiting page reloads itself once the homework is open
        expect(phone.get_by_role("heading", name="Where does this card go?")).to_be_visible(timeout=WAIT)
    shows_only(teacher, ["Lock the room (no new players)", "Close the homework"])  # no pause, no reveal
    scores = {name: play_homework(phones[name], 3) for name in ("Ada", "Ben")}
    play_homework(cy, 1)

    expect(stage.locator(".s-meter-words")).to_have_text("2 of 3 finished", timeout=WAIT)
    for name, score in scores.items():
        expect(stage.locator(".s-finished li", has_text=name)).to_contain_text(f"✔ finished: {score} of 3")
        expect(teacher.locator("tr", has_text=name)).to_contain_text(f"{score} of 3", timeout=WAIT)
    expect(stage.locator(".s-finished li", has_text="Cy")).to_contain_text("working… 1 answered")
    expect(teacher.locator("tr", has_text="Cy")).to_contain_text("not finished")
    shoot(stage, "self_paced-stage-open")
    shoot(ada, "self_paced-phone-finished")

    end_round(teacher, "Close the homework")
    rows = results_csv(teacher, live_server)
    assert rows[0] == "round,date,student,answered,score,out_of,best_streak,finished,status" and len(rows) == 1 + 3
    assert f",Ada,3,{scores['Ada']},3," in rows[1] and ",Cy,1,,,,False,part way (1 of 3)" in rows[3]
    expect(stage.locator(".s-headline")).to_have_text("The homework is closed", timeout=WAIT)
    expect(stage.locator(".s-homework")).to_contain_text("2 of 3 finished.")
    shoot(stage, "self_paced-stage-closed")

    # After the teacher closed it, Cy's next move is refused.
    tap_practice_gap(cy)
    cy.get_by_role("button", name="Place card").tap()
    expect(cy.locator(".notice")).to_have_text("This homework is closed: your teacher has ended it.")
    expect(cy.locator(".score-bar")).to_contain_text(re.compile(r"Score \d of 1\s"))  # nothing counted after the close
    shoot(cy, "self_paced-phone-closed")


def tap_practice_gap(phone, gap=0):
    phone.locator("form.place-form label.gap").nth(gap).tap()
    expect(phone.locator("form.place-form input[name=gap]").nth(gap)).to_be_checked()


def play_homework(phone, moves):
    """Place `moves` cards of the homework challenge (each in the first gap); return the final score if finished."""
    for move in range(moves):
        tap_practice_gap(phone)
        with phone.expect_navigation():
            phone.get_by_role("button", name="Place card").tap()
        expect(phone.locator(".score-bar")).to_contain_text(f" of {move + 1}")
    finished = phone.get_by_role("heading", name=re.compile(r"You scored \d out of 3"))
    if moves < 3:
        expect(finished).to_have_count(0)
        return None
    return int(re.search(r"You scored (\d)", finished.inner_text()).group(1))


@pytest.mark.browser
def test_a_homework_students_screen_shows_no_site_navigation(browser, live_server, teacher_page):
    code = new_round(teacher_page, live_server, "Weigh them at home", "self_paced")
    phone = join(browser, live_server, code, "Ada")
    expect(phone.get_by_role("status").filter(has_text="not open yet")).to_be_visible()
    expect(phone.locator("nav[aria-label=Main]")).to_have_count(0, timeout=1000)


@pytest.mark.browser
def test_live_quiz_journey(browser, live_server, teacher_page, classroom):
    teacher = teacher_page
    teacher.goto(f"{live_server}/lessons/diets")
    teacher.get_by_role("button", name="Run it live for my class").click()
    expect(teacher.get_by_role("heading", level=1)).to_have_text("What did it eat?")
    expect(teacher.locator(".round-status")).to_contain_text("Live quiz")
    round_url = teacher.url
    code = join_code(teacher)
    stage = open_stage(teacher)
    phones = join_class(browser, live_server, code)
    ada, ben, cy = phones.values()
    teacher.get_by_text("Students (3)").wait_for(timeout=WAIT)

    teacher.get_by_role("button", name="Start the round").click()
    turns = len(classroom.round(round_url).state["questions"])
    expect(stage.locator(".s-progress")).to_have_text(f"Question 1 of {turns}", timeout=WAIT)
    stage.locator("[data-countdown-number]").filter(has_text=re.compile(r"^\d+$")).wait_for(timeout=WAIT)
    shows_only(teacher, ["Pause", "Reveal", "Skip this turn", "Switch the timer off", "Lock the room (no new players)",
                         "End the round"])

    # Question 1: Ada and Cy right, Ben wrong; revealed as soon as all three answered.
    state = classroom.round(round_url).state
    question = livequiz.current_question(state)
    right = livequiz.right_gaps(state)[0]
    wrong = (right + 1) % len(question["options"])
    for phone in phones.values():
        round_only(phone)
        expect(phone.locator("#live .quiz-question legend")).to_contain_text(f"Question 1 of {turns}", timeout=WAIT)
    for phone, index in ((ada, right), (ben, wrong), (cy, right)):
        pick_option(phone, index)
    verdicts(phones, right={"Ada", "Cy"})
    expect(ben.locator("#live .last-move")).to_contain_text(question["explanation"])
    standing(ada, 1, 1)
    standing(ben, 0, 3)
    options = stage.locator(".s-option")
    expect(options.nth(right)).to_contain_text("✔ right answer", timeout=WAIT)
    expect(options.nth(right)).to_contain_text("2 votes")
    expect(options.nth(wrong)).to_contain_text("1 vote")
    expect(stage.locator(".s-question")).to_contain_text(question["explanation"])
    expect(stage.locator(".s-top-five")).to_contain_text("Ada")
    # Switching the timer off still applies: the next questions would run without it.
    shows_only(teacher, ["Pause", "Next question", "Switch the timer off", "Lock the room (no new players)",
                         "End the round"])
    expect(teacher.get_by_role("button", name="Reveal")).to_have_count(0)
    shoot(stage, "quiz-stage-reveal")
    shoot(ben, "quiz-phone-reveal")

    # Question 2 from the stage's keyboard: Ada and Ben right, Cy wrong; then the teacher ends the quiz early.
    stage.keyboard.press("Space")
    expect(stage.locator(".s-progress")).to_have_text(f"Question 2 of {turns}", timeout=WAIT)
    state = classroom.round(round_url).state
    right = livequiz.right_gaps(state)[0]
    wrong = (right + 1) % len(livequiz.current_question(state)["options"])
    for phone, index in ((ada, right), (ben, right), (cy, wrong)):
        pick_option(phone, index)
    verdicts(phones, right={"Ada", "Ben"})
    end_round(teacher)
    assert len(results_csv(teacher, live_server)) == 1 + 3 * 2
    expect(teacher.get_by_role("heading", name="Questions")).to_be_visible()

    stage.locator(".s-podium").wait_for(timeout=WAIT)
    expect(stage.locator(".s-step-1")).to_contain_text("Ada")
    expect(stage.locator(".s-step-1")).to_contain_text("2 points")
    expect(stage.locator(".s-step-2")).to_contain_text("Ben")
    expect(stage.locator(".s-step-2")).to_contain_text("Cy")
    expect(stage.locator(".s-hardest")).to_contain_text("The hardest question")
    shoot(stage, "quiz-stage-end")
    expect(ada.locator(".big-status")).to_have_text("The round is over. You scored 2 points: number 1 of 3.",
                                                    timeout=WAIT)
    expect(cy.locator(".big-status")).to_have_text("The round is over. You scored 1 point: number 2 of 3.")


@pytest.mark.browser
@pytest.mark.parametrize("teacher_stream", [True, False], ids=["pushed", "polled"])
def test_the_teachers_page_starts_pauses_and_resumes_in_place_and_loads_again_at_the_end(
        browser, live_server, teacher_page, teacher_stream):
    """Start, pause and resume show and hide the page's parts without loading it again (the keyboard's place is
    kept on a control); only the end, whose results the page draws, loads it again."""
    teacher = teacher_page
    if not teacher_stream:
        teacher.route("**/events*", lambda route: route.abort())
    code = new_round(teacher, live_server, "In place", "class_line")
    join(browser, live_server, code, "Ada")
    teacher.get_by_text("Students (1)").wait_for(timeout=WAIT)
    late, lobby_box = teacher.locator(".join-box-compact"), teacher.locator(".join-box:not(.join-box-compact)")
    so_far = teacher.get_by_role("heading", name="Answers so far")
    expect(late).to_be_hidden()
    expect(so_far).to_be_hidden()
    expect(teacher.get_by_role("link", name=re.compile("^CSV: "))).to_have_count(0)
    teacher.evaluate("window.drawnOnce = true")

    teacher.get_by_role("button", name="Start the round").focus()
    teacher.keyboard.press("Enter")
    shows_only(teacher, ["Pause", "Reveal", "Skip this turn", "Lock the room (no new players)", "End the round"])
    expect(late).to_be_visible()
    expect(late).to_contain_text(f"Late? Join at {live_server}/join with the code {code}")
    expect(lobby_box).to_be_hidden()
    expect(so_far).to_be_visible()
    expect(teacher.get_by_role("link", name=re.compile("^CSV: ")).first).to_be_visible()
    expect(teacher.get_by_role("button", name="Pause")).to_be_focused()
    assert teacher.evaluate("window.drawnOnce") is True

    teacher.keyboard.press("Enter")  # Pause, where the focus is
    shows_only(teacher, ["Resume", "Reveal", "Skip this turn", "Lock the room (no new players)", "End the round"])
    expect(teacher.locator("[data-round-status]")).to_have_attribute("data-round-status", "paused")
    expect(teacher.get_by_role("button", name="Resume")).to_be_focused()
    teacher.get_by_role("button", name="Resume").click()
    shows_only(teacher, ["Pause", "Reveal", "Skip this turn", "Lock the room (no new players)", "End the round"])
    expect(late).to_be_visible()
    assert teacher.evaluate("window.drawnOnce") is True

    end_round(teacher)
    assert teacher.evaluate("window.drawnOnce") is None  # the results are drawn by the page loaded again
    expect(late).to_have_count(0)
