"""My tricky cards: the scheduler's memory and deal, the model student, the record a page gives, and the pages."""

import json
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import expect

from webapp.extensions import db
from webapp.games import InvalidConfig
from webapp.games import practice as pr
from webapp.models import Game
from webapp.play import tricky_record as record
from webapp.tricky import schedule
from webapp.tricky.learner import Learner, LearnerModel, confusable

NOW = datetime(2026, 3, 2, 17, tzinfo=UTC)


def ms(when):
    return int(when.timestamp() * 1000)


def placed(card, right=True, passed=(), beside=(), days_ago=1, by="mass", close=False, now=NOW):
    """Return a placement as the browser posts it."""
    return {"card": card, "by": by, "right": right, "close": close, "passed": list(passed), "beside": list(beside),
            "at": ms(now - timedelta(days=days_ago))}


def memory_of(*entries, by="mass"):
    return schedule.remember(schedule.parse_history(list(entries), NOW), by)


# The history as posted ------------------------------------------------------------------------------------------

def test_a_history_is_read_oldest_first():
    history = schedule.parse_history([placed("b", days_ago=1), placed("a", days_ago=3)], NOW)
    assert [p.card for p in history] == ["a", "b"]
    assert history[0].at == NOW - timedelta(days=3) and history[0].passed == ()


@pytest.mark.parametrize("raw, message", [
    ({"card": "a"}, "must be a list"),
    (["a"], "must be an object"),
    ([{**placed("a"), "card": ""}], "names its card"),
    ([{**placed("a"), "card": "x" * 81}], "names its card"),
    ([{**placed("a"), "by": 3}], "names its card"),
    ([{**placed("a"), "right": "yes"}], "whether it was right"),
    ([{**placed("a"), "close": 1}], "whether it was right"),
    ([{**placed("a"), "passed": "b"}], "short lists"),
    ([{**placed("a"), "beside": ["b"] * 21}], "short lists"),
    ([{**placed("a"), "passed": [7]}], "short lists"),
    ([{**placed("a"), "at": True}], "when it was made"),
    ([{**placed("a"), "game": 7}], "short id"),
    ([{**placed("a"), "at": "2026-03-01"}], "when it was made"),
    ([{**placed("a"), "at": 10 ** 20}], "out of range"),
    ([{**placed("a"), "at": ms(datetime(2020, 1, 1, tzinfo=UTC))}], "out of range"),
    ([placed("a")] * (schedule.HISTORY_LIMIT + 1), "at most 1000"),
])
def test_a_bad_history_is_refused_with_a_reason(raw, message):
    with pytest.raises(schedule.BadHistory, match=message):
        schedule.parse_history(raw, NOW)


VALUES = {card: float(index * index) for index, card in enumerate("abcdefgh")}


# Memory and deal --------------------------------------------------------------------------------------------------

def test_a_wrong_card_is_due_before_a_right_one_and_its_pair_is_remembered():
    memory = memory_of(placed("a", right=False, passed=["b"]), placed("c", right=True))
    assert memory.cards["a"].due <= memory.cards["c"].due
    assert memory.retrievability("a", NOW) < memory.retrievability("c", NOW)
    assert memory.confused == {"a": {"b": 1}, "b": {"a": 1}}
    assert frozenset("ab") in memory.pairs
    assert memory.status("a", NOW) == "tricky" and memory.status("b", NOW) == "tricky"
    assert memory.status("c", NOW) == "learning" and memory.status("z", NOW) == "new"


def test_a_right_placement_beside_its_old_partner_puts_the_pair_off():
    confused = placed("a", right=False, passed=["b"], days_ago=5)
    alone = memory_of(confused)
    together = memory_of(confused, placed("a", right=True, beside=["b", "c"], days_ago=4))
    assert together.pairs[frozenset("ab")].due > alone.pairs[frozenset("ab")].due


def test_a_right_placement_in_a_line_that_held_its_old_partner_puts_the_pair_off():
    confused = placed("a", right=False, passed=["b"], days_ago=5)
    partner_first = {**placed("b", right=True, days_ago=4), "game": "g1"}
    then_right = {**placed("a", right=True, beside=["c"], days_ago=4), "game": "g1"}
    elsewhere = {**then_right, "game": "g2"}
    pair = frozenset("ab")
    assert memory_of(confused, partner_first, then_right).pairs[pair].due > memory_of(confused).pairs[pair].due
    assert memory_of(confused, partner_first, elsewhere).pairs[pair].due == memory_of(confused).pairs[pair].due


def test_a_history_sorted_by_another_characteristic_is_another_memory():
    memory = memory_of(placed("a", right=False, passed=["b"], by="length"))
    assert memory.cards == {} and memory.confused == {}


def test_spaced_right_placements_master_a_card():
    history = [placed("a", right=True, days_ago=days) for days in (60, 50, 30)]
    assert memory_of(*history).status("a", NOW) == "mastered"
    assert memory_of(*history[:1]).status("a", NOW) == "learning"


def test_the_deal_puts_a_due_card_after_the_card_it_was_confused_with_then_new_cards_after_a_neighbour():
    memory = memory_of(placed("a", right=False, passed=["b"], days_ago=3), placed("c", right=True, days_ago=0))
    dealt = schedule.deal(memory, VALUES, 5, NOW, random.Random(1))
    cards = [d.card for d in dealt]
    assert len(cards) == 5 == len(set(cards))
    assert cards.index("b") < cards.index("a")
    due = next(d for d in dealt if d.card == "a")
    assert due.why == "due" and due.goes_with == "b"
    assert dealt[0].why != "due" and "new" in {d.why for d in dealt}
    assert_each_card_follows_one_it_could_be_mistaken_for(dealt, memory)


def assert_each_card_follows_one_it_could_be_mistaken_for(dealt, memory, values=VALUES):
    """Every card placed (all but the first) goes with a card before it: the next value either way, or a confused one."""
    ranks = schedule.value_ranks(values)
    cards = [d.card for d in dealt]
    for index, entry in enumerate(dealt[1:], start=1):
        if entry.why in ("due", "new"):
            assert entry.goes_with in cards[:index]
            assert abs(ranks[entry.goes_with] - ranks[entry.card]) == 1 or entry.goes_with in memory.confused.get(
                entry.card, {})


def test_new_cards_come_after_a_neighbour_in_value_and_a_due_card_never_confused_after_one():
    memory = schedule.Memory()
    dealt = schedule.deal(memory, VALUES, 6, NOW, random.Random(2))
    assert {d.why for d in dealt} <= {"new", "neighbour"} and len({d.card for d in dealt}) == 6
    assert_each_card_follows_one_it_could_be_mistaken_for(dealt, memory)
    memory = memory_of(placed("d", right=True, days_ago=9))
    dealt = schedule.deal(memory, VALUES, 2, NOW, random.Random(2))
    assert [(d.card, d.why) for d in dealt] in ([("c", "neighbour"), ("d", "due")], [("e", "neighbour"), ("d", "due")])


def test_without_a_history_the_deal_is_random_new_cards_and_their_neighbours():
    dealt = schedule.deal(schedule.Memory(), VALUES, 4, NOW, random.Random(3))
    assert {d.why for d in dealt} <= {"new", "neighbour"}
    assert [d.card for d in dealt] != [d.card for d in schedule.deal(schedule.Memory(), VALUES, 4, NOW,
                                                                     random.Random(4))]


def test_a_right_placement_is_good_only_when_the_line_held_a_card_it_could_be_mistaken_for():
    values = {"a": 1.0, "b": 2.0, "c": 3.0, "z": 100.0}
    tested = {**placed("b", beside=["a"], days_ago=5), "game": "g1"}
    untested = {**placed("b", beside=["z"], days_ago=5), "game": "g2"}

    def stability(*entries):
        return schedule.remember(schedule.parse_history(list(entries), NOW), "mass", values).cards["b"].stability

    assert stability(tested) > stability(untested)  # a first sight beside nothing close: Hard, not Good
    later = {**placed("b", beside=["z"], days_ago=2), "game": "g3"}
    assert stability(tested, later) == stability(tested)  # could not have gone wrong: no review
    assert stability(tested, {**later, "beside": ["c", "z"]}) > stability(tested)


def test_a_deal_larger_than_the_deck_is_refused():
    with pytest.raises(ValueError):
        schedule.deal(schedule.Memory(), {"a": 1, "b": 2, "c": 3}, 4, NOW, random.Random(0))


DECK = {f"c{i}": float(i % 5) for i in range(12)}
a_placement = st.builds(
    lambda card, right, passed, days: placed(card, right, passed if not right else [], days_ago=days),
    st.sampled_from(sorted(DECK)), st.booleans(), st.lists(st.sampled_from(sorted(DECK)), max_size=3), st.integers(0, 90))


@settings(max_examples=60, deadline=None)
@given(st.lists(a_placement, max_size=40), st.integers(3, 12), st.integers(0, 2**31))
def test_every_deal_is_size_different_cards_of_the_deck_partners_first_and_repeatable(entries, size, seed):
    memory = memory_of(*entries)
    dealt = schedule.deal(memory, DECK, size, NOW, random.Random(seed))
    cards = [d.card for d in dealt]
    assert len(cards) == size == len(set(cards)) and set(cards) <= set(DECK)
    for index, entry in enumerate(dealt):
        if entry.why == "due" and entry.goes_with:
            assert entry.goes_with in cards[:index]
    assert dealt == schedule.deal(memory, DECK, size, NOW, random.Random(seed))
    due_items = memory.due(NOW)
    if 2 * len(due_items) <= size:  # room for every due item with a partner each
        assert {item for item in due_items if isinstance(item, str)} <= set(cards)


# The record a page gives ------------------------------------------------------------------------------------------

def test_the_record_takes_neighbours_from_the_line_as_it_was_when_placed():
    observation = {"mode": "line", "characteristic": "mass",
                   "line": [{"card": c, "value": v} for c, v in (("a", 1), ("b", 2), ("c", 3), ("d", 4))],
                   "answers": [{"card": "d", "right": True, "close": False, "passed": []},
                               {"card": "a", "right": False, "close": False, "passed": ["c"]},
                               {"card": "b", "right": True, "close": True, "passed": ["a"]}]}
    # c started the line; then d, a, and b joined it.
    assert [(p["card"], p["beside"]) for p in record.shown_placements(observation)] == [
        ("d", ["c"]), ("a", ["c"]), ("b", ["a", "c"])]
    assert record.shown_placements({**observation, "mode": "bins"}) == []


def test_the_record_a_real_game_gives_is_a_history_the_server_accepts():
    state = pr.new_game(pr.example_configs()[0], 5)
    while not pr.is_over(state):
        state = pr.apply(state, 0, pr.legal_actions(state)[0])
        shown = record.shown_placements(pr.observation(state))
        assert [p["card"] for p in shown] == [a["card"] for a in state["answers"]]
    history = schedule.parse_history([{**p, "at": ms(NOW)} for p in shown], NOW)
    assert len(history) == len(state["answers"])


# The engine takes a given deal --------------------------------------------------------------------------------------

def test_the_engine_deals_a_given_deal_in_its_order():
    config = {"mode": "line", "count": 3, "cards": dict(pr.EXAMPLE_VALUES), "deal": ["c5", "c1", "c6", "c2"]}
    state = pr.new_game(config, 1)
    assert state["cards"] == ["c5", "c1", "c6", "c2"] and state["line"] == ["c5"]
    assert pr.observation(state)["current"] == "c1"


@pytest.mark.parametrize("deal, mode", [
    (["c1", "c2", "c3"], "line"), (["c1", "c2", "c3", "c3"], "line"), (["c1", "c2", "c3", "nope"], "line"),
    ("c1 c2 c3 c4", "line"), (["c1", "c2", "c3", 4], "line"), (["c1", "c2", "c3", "c4", "c5", "c6"], "endless")])
def test_a_given_deal_that_does_not_fit_is_refused(deal, mode):
    with pytest.raises(InvalidConfig):
        pr.new_game({"mode": mode, "count": 3, "cards": dict(pr.EXAMPLE_VALUES), "deal": deal}, 1)


# The model student --------------------------------------------------------------------------------------------------

def test_the_model_student_confuses_close_values_relative_to_their_size():
    assert confusable(10, 12, "mass") and confusable(10_000, 12_000, "mass")
    assert not confusable(10, 20, "mass") and not confusable(5, 5, "mass")
    assert confusable(4, 5, "period") and not confusable(4, 6, "period")


def test_the_model_student_places_known_cards_right_and_guesses_only_between_confusable_ones():
    values = {"a": 1.0, "b": 1.1, "c": 1.2, "d": 10.0, "e": 100.0}
    line = ["a", "c", "d", "e"]
    knows_all = Learner(values, "mass", random.Random(0), known=values)
    assert all(knows_all.choose_gap("b", line, 1) == 1 for _ in range(20))
    novice = Learner(values, "mass", random.Random(0))
    assert novice.window("b", line) == (0, 2)  # a and c are too close to tell; d and e surely above
    assert {novice.choose_gap("b", line, 1) for _ in range(60)} == {0, 1, 2}
    assert novice.chance_right("b", line, 1) == pytest.approx(1 / 3)
    assert novice.chance_right("e", ["a", "b", "c", "d"], 1) == 1


def test_the_model_student_learns_from_feedback_and_forgets_over_days():
    values = {"a": 1.0, "b": 1.1}
    learner = Learner(values, "mass", random.Random(0), LearnerModel(learn_chance=1.0, first_stability=2.0))
    assert learner.recall("a", 0) == 0
    learner.feedback("a", 0)
    assert learner.recall("a", 0) == 1
    assert learner.recall("a", 2) == pytest.approx(0.3679, abs=1e-3)
    assert learner.recall("a", 10) < learner.recall("a", 2)
    assert 0.5 <= learner.deck_accuracy(0) < 1 and learner.deck_accuracy(30) < learner.deck_accuracy(0)


# The pages -----------------------------------------------------------------------------------------------------------

def history_field(entries):
    return json.dumps(entries)


def test_the_practice_page_leads_to_my_tricky_cards_and_its_progress(client):
    page = client.get("/play/practice/new").get_data(as_text=True)
    assert 'href="/tricky/"' in page and 'action="/tricky/progress"' in page
    index = client.get("/tricky/")
    assert index.status_code == 200
    text = index.get_data(as_text=True)
    assert "Practise my tricky cards" in text and "<noscript>" in text and "deals cards at random" in text


def test_a_tricky_practice_deals_the_confused_cards_first(app, client):
    with app.app_context():
        from webapp.cards.queries import card_values
        values = card_values("dinosaurs", "mass")
    slugs = sorted(values, key=values.get)
    tricky, partner = slugs[10], slugs[11]
    history = [placed(tricky, right=False, passed=[partner], days_ago=2, now=datetime.now(UTC))]
    response = client.post("/tricky/", data={"deck": "dinosaurs", "characteristic": "mass", "count": "5",
                                             "history": history_field(history)})
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        game = db.session.get(Game, game_id)
        cards = game.state["cards"]
        assert game.settings["tricky"] and game.mode == "line" and len(cards) == 6
    assert cards.index(partner) < cards.index(tricky)
    board = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "tricky-record" not in board  # nothing placed yet: nothing to keep


def test_without_javascript_a_tricky_practice_is_dealt_at_random(client):
    response = client.post("/tricky/", data={"deck": "animals", "characteristic": "lifespan", "count": "4",
                                             "history": ""})
    assert response.status_code == 302


@pytest.mark.parametrize("history, message", [
    ("not json", "not valid JSON"),
    ('{"card": "a"}', "must be a list"),
    ('[{"card": "a", "by": "mass", "right": "no", "at": 1767225600000}]', "whether it was right"),
    ("[" * 5000 + "]" * 5000, "not valid JSON"),
    ("x" * 200_001, "too long"),
])
def test_a_bad_history_is_a_400_that_says_why_and_starts_nothing(app, client, history, message):
    with app.app_context():
        before = db.session.query(Game).count()
    for path in ("/tricky/", "/tricky/progress"):
        response = client.post(path, data={"deck": "dinosaurs", "characteristic": "mass", "count": "5",
                                           "history": history})
        assert response.status_code == 400
        assert message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Game).count() == before


def test_a_played_card_is_recorded_from_what_the_page_shows(games, app, client):
    url = games.practice(client, count="3")
    state = games.state(url)
    assert client.post(f"{url}/answer", data={"gap": "0", "card": state["cards"][1]}).status_code == 302
    board = client.get(url).get_data(as_text=True)
    shown = json.loads(re.search(r"data-placements='([^']*)'", board).group(1))
    assert [p["card"] for p in shown] == [state["cards"][1]]
    assert set(shown[0]) == {"card", "by", "right", "close", "passed", "beside"}
    assert shown[0]["beside"] == [state["cards"][0]]
    assert state["cards"][2] not in board.split("tricky-record")[1]  # the card to place now is not in the record


def test_the_progress_page_shows_mastery_by_characteristic_and_period_as_charts_and_tables(app, client):
    with app.app_context():
        from webapp.cards.queries import card_values
        values = card_values("dinosaurs", "mass")
    a, b, c = sorted(values)[:3]
    now = datetime.now(UTC)  # the page's clock
    history = [placed(a, right=False, passed=[b], days_ago=3, now=now)] + \
        [placed(c, right=True, days_ago=days, now=now) for days in (60, 50, 30)] + \
        [placed(c, right=True, days_ago=2, by="period", now=now)]
    response = client.post("/tricky/progress", data={"history": history_field(history)})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert page.count("data-tricky-figure=") == 2 and "/vendor/plotly-basic-" in page
    table = page.split('id="by-characteristic-title"')[1].split("</table>")[0]
    assert re.search(r"Weight</th><td[^>]*>1</td><td[^>]*>0</td><td[^>]*>2</td>", table), table[-400:]  # c mastered; a, b tricky
    assert re.search(r"Period \(first appearance\)</th><td[^>]*>0</td><td[^>]*>1</td><td[^>]*>0</td>", table)
    assert "The cards you mix up most" in page


def test_the_progress_page_without_a_history_asks_for_it_or_says_nothing_is_kept(client):
    assert "See my progress" in client.get("/tricky/progress").get_data(as_text=True)
    page = client.post("/tricky/progress", data={"history": "[]"}).get_data(as_text=True)
    assert "No cards are remembered in this browser yet" in page


# Any form the pages may receive ---------------------------------------------------------------------------------------

JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                           st.sampled_from(["card", "by", "right", "close", "passed", "beside", "at", "x"]), inner,
                           max_size=7), max_leaves=30)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=JSONISH, deck=st.sampled_from(["dinosaurs", "animals", "x"]),
       characteristic=st.sampled_from(["mass", "period", "lifespan", "diet"]), count=st.sampled_from(["3", "20", "x"]))
def test_any_posted_history_is_a_page_or_a_clear_400(client, history, deck, characteristic, count):
    for path in ("/tricky/", "/tricky/progress"):
        response = client.post(path, data={"deck": deck, "characteristic": characteristic, "count": count,
                                           "history": json.dumps(history)})
        assert response.status_code in (200, 302, 400), (path, history)


# In a real browser ------------------------------------------------------------------------------------------------------

def assert_accessible(page):
    """Fail with axe-core's findings on the page, and if it scrolls sideways."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    assert not found, [f"{v['id']}: {v['help']}; e.g. {v['nodes'][0]['html'][:200]}" for v in found]
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"], page.evaluate(
        "() => [...document.querySelectorAll('body *')].filter(el => el.getBoundingClientRect().right > innerWidth + 1)"
        ".map(el => el.outerHTML.slice(0, 80))")


@pytest.mark.browser
def test_placements_are_kept_in_the_browser_and_deal_and_chart_my_tricky_cards(browser, live_server):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{live_server}/play/practice/new")
    page.get_by_label("Number of cards").fill("3")
    with page.expect_navigation():
        page.get_by_role("button", name="Start").click()
    gap = page.locator("label.gap")
    while gap.count():
        with page.expect_navigation():
            gap.first.click()
    page.reload()  # a reload keeps nothing twice
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('deep-time-cards-tricky')).history")
    assert len(kept) == 3 and all(set(p) == {"card", "by", "right", "close", "passed", "beside", "game", "at"}
                                  for p in kept)

    page.goto(f"{live_server}/play/practice/new")
    with page.expect_navigation():
        page.get_by_role("button", name="My progress").click()
    expect(page.locator(".figure.js-plotly-plot")).to_have_count(2)
    assert "Weight" in page.locator(".tricky-table").first.inner_text()
    assert_accessible(page)

    page.goto(f"{live_server}/tricky/")
    expect(page.locator(".tricky-summary")).to_contain_text("3 placements kept in this browser")
    assert_accessible(page)
    page.get_by_label("Number of cards").fill("4")
    with page.expect_navigation():
        page.get_by_role("button", name="Practise my tricky cards").click()
    assert page.get_by_role("heading", level=1).inner_text().startswith("My tricky cards")
    assert page.locator("label.gap").count() >= 2
    assert all(url.startswith(live_server) for url in requests), "a page fetched something from elsewhere"
    page.close()
