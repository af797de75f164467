"""Feedback that feels like a game (feedback.js): a sound and a motion on each verdict, a streak that cheers at 3, 5
and 10 in a row, one mute switch kept by the browser, and nothing that moves under prefers-reduced-motion."""

import re

import pytest
from playwright.sync_api import expect

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def start_practice(page, base):
    page.goto(f"{base}/play/practice/new")
    page.get_by_role("button", name="Start").tap()
    page.wait_for_load_state("load")


def place_a_card(page):
    """Tap the first gap and confirm, as a child does; return the verdict the next page shows."""
    page.locator("form.place-form label.gap").first.tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Place card").tap()
    page.wait_for_load_state("load")
    return page.locator("[data-verdict]")


def heard(verdict):
    """Wait until feedback.js has dealt with `verdict`; return what it played ("right", "muted"...)."""
    expect(verdict).to_have_attribute("data-feedback", re.compile(r"^(?!pending$).+"))
    return verdict.get_attribute("data-feedback")


SWAP_IN = """([card, verdict, streak]) => {
    const section = document.createElement('section');
    section.className = 'last-move';
    section.dataset.verdict = verdict;
    if (streak !== null) section.dataset.streak = streak;
    section.innerHTML = `<p><strong>${card}</strong>: <span class="verdict">${verdict === 'right' ? '✔ right!' : '✘ not quite.'}</span></p>`;
    document.querySelector('#panel').replaceChildren(section);
    document.dispatchEvent(new Event('live-panel-swapped'));
}"""


@pytest.mark.browser
def test_the_streak_cheers_at_3_5_and_10_and_says_when_it_ends(browser, live_server):
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server}/play/")
    page.wait_for_load_state("load")
    # A stand-in for a live panel: verdicts swapped in one after another, as live.js swaps a student's panel.
    page.evaluate("() => document.querySelector('main').insertAdjacentHTML('afterbegin', '<div id=panel></div>')")
    meter = page.locator(".streak-meter")
    said = []
    for number in range(1, 11):
        page.evaluate(SWAP_IN, [f"Card {number}", "right", None])
        said.append(meter.inner_text())
    assert said[0] == "Streak: 1 right in a row" and said[1] == "Streak: 2 right in a row"
    assert said[2] == "★ 3 in a row! ★" and said[4] == "★ 5 in a row: brilliant! ★"
    assert said[9] == "★ 10 in a row: unstoppable! ★" and said[3] == "Streak: 4 right in a row"
    page.evaluate(SWAP_IN, ["Card 11", "wrong", None])
    assert meter.inner_text() == "Streak ended at 10. Start a new one!"
    # The same verdict drawn again (a reload, a panel redrawn) plays nothing and counts nothing.
    page.evaluate(SWAP_IN, ["Card 11", "wrong", None])
    assert page.locator("[data-verdict]").get_attribute("data-feedback") == "again"
    # A page that keeps the streak itself (practice) is believed.
    page.evaluate(SWAP_IN, ["Card 12", "right", "5"])
    assert meter.inner_text() == "★ 5 in a row: brilliant! ★"
    page.context.close()


@pytest.mark.browser
def test_the_mute_switch_is_remembered_and_silences_the_next_verdict(browser, live_server):
    page = browser.new_context(**PHONE).new_page()
    start_practice(page, live_server)
    switch = page.locator(".sound-switch")
    expect(switch).to_have_text("♪ Sound: on")
    box = switch.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    verdict = place_a_card(page)
    assert heard(verdict) in ("right", "wrong")  # the tap on the last page lets this one make a sound
    page.locator(".sound-switch").tap()
    expect(page.locator(".sound-switch")).to_have_text("♪ Sound: off")
    page.reload()
    expect(page.locator(".sound-switch")).to_have_text("♪ Sound: off")  # remembered by the browser
    assert heard(place_a_card(page)) == "muted"
    page.locator(".sound-switch").tap()
    assert page.evaluate("() => localStorage.getItem('deep-time-cards-muted')") == "false"
    page.context.close()


RUNNING = """() => document.getAnimations().filter((a) => a.playState === 'running')
    .map((a) => `${a.animationName || a.transitionProperty} on ${a.effect.target.className}`)"""


@pytest.mark.browser
@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_a_verdict_moves_only_when_motion_is_welcome(browser, live_server, motion):
    page = browser.new_context(**PHONE, reduced_motion=motion).new_page()
    start_practice(page, live_server)
    slot = page.locator(".line .gap-slot").first
    verdict = place_a_card(page)
    heard(verdict)
    animation = verdict.evaluate("(v) => getComputedStyle(v).animationName")
    if motion == "reduce":
        assert animation == "none" and page.evaluate(RUNNING) == []
        assert slot.evaluate("(s) => getComputedStyle(s).transitionDuration") == "0s"  # a drop place opens, still
        assert verdict.locator(".verdict").inner_text().startswith(("✔", "✘"))  # the words say it
    else:
        assert animation in ("verdict-pop", "verdict-shake")
        assert slot.evaluate("(s) => getComputedStyle(s).transitionDuration") != "0s"
    page.context.close()
