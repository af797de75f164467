"""Solo practice: the engine's four modes, and the pages with their review, daily challenge and endless line."""

import json
import random
import re

import pytest

from webapp.extensions import db
from webapp.games import IllegalAction, InvalidConfig
from webapp.games import practice as pr
from webapp.models import Card, Game

VALUES = {f"c{i:02d}": float(i % 7) for i in range(30)}


@pytest.mark.parametrize("mode", ["line", "all"])
def test_random_play_ends_with_a_true_order_and_hides_unanswered_values(mode):
    for seed in range(200):
        state = pr.new_game({"mode": mode, "count": 6, "cards": VALUES}, seed)
        rng = random.Random(seed)
        while not pr.is_over(state):
            obs = pr.observation(state)
            answered = {a["card"] for a in state["answers"]}
            # Values appear only beside face-up line cards and answered cards, never elsewhere.
            assert "values" not in obs
            assert {e["card"] for e in obs["line"]} <= answered | set(state["cards"][:1])
            assert obs["current"] is None or obs["current"] not in answered
            state = pr.apply(state, 0, rng.choice(pr.legal_actions(state)))
        values = [state["values"][c] for c in state["line"]]
        assert values == sorted(values) and sorted(state["line"]) == sorted(state["cards"])
        result = pr.result(state)
        assert result["out_of"] == 6 and 0 <= result["score"] <= 6
        assert json.loads(json.dumps(state)) == state


def test_line_mode_scores_streaks_and_puts_wrong_cards_where_they_belong():
    cards = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}
    state = pr.new_game({"mode": "line", "count": 3, "cards": cards}, 1)
    state.update(cards=["b", "a", "d", "c"], line=["b"], next=1)
    state = pr.apply(state, 0, {"gap": 0})  # a before b: right
    state = pr.apply(state, 0, {"gap": 0})  # d at the far left: wrong
    assert state["line"] == ["a", "b", "d"]
    assert [a["right"] for a in state["answers"]] == [True, False]
    state = pr.apply(state, 0, {"gap": 2})  # c between b and d: right
    assert pr.result(state) == {"score": 2, "out_of": 3, "best_streak": 1}


def test_all_mode_counts_cards_in_their_true_place_and_equal_values_may_swap():
    cards = {"a": 1.0, "b": 2.0, "b2": 2.0, "c": 3.0}
    state = pr.new_game({"mode": "all", "count": 4, "cards": cards}, 1)
    state = pr.apply(state, 0, {"cards": ["a", "b2", "b", "c"]})
    assert pr.result(state)["score"] == 4
    state = pr.new_game({"mode": "all", "count": 4, "cards": cards}, 1)
    state = pr.apply(state, 0, {"cards": ["c", "b", "b2", "a"]})
    assert pr.result(state)["score"] == 2


def test_endless_mode_deals_the_whole_deck_and_ends_on_the_third_wrong_card():
    cards = {f"c{i}": float(i) for i in range(10)}
    state = pr.new_game({"mode": "endless", "cards": cards}, 3)
    assert sorted(state["cards"]) == sorted(cards) and state["lives"] == 3
    right, wrong = 0, 0
    while not pr.is_over(state):
        card = state["cards"][state["next"]]
        first, last = pr._right_gaps(state, card)
        # Alternate: right, wrong, right, wrong...
        gap = first if right <= wrong else (last + 1 if last < len(state["line"]) else 0)
        state = pr.apply(state, 0, {"gap": gap})
        right, wrong = right + state["answers"][-1]["right"], wrong + (not state["answers"][-1]["right"])
        assert pr.observation(state)["lives"] == 3 - wrong
    assert wrong == 3 and state["lives"] == 0 and pr.legal_actions(state) == []
    assert pr.result(state) == {"score": right, "out_of": right + 3, "best_streak": 1, "lives": 0}
    assert state["next"] < len(cards)  # cards were left in the deck
    with pytest.raises(IllegalAction, match="finished"):
        pr.apply(state, 0, {"gap": 0})


def test_endless_mode_ends_with_lives_left_when_the_deck_runs_out():
    cards = {f"c{i}": float(i) for i in range(5)}
    state = pr.new_game({"mode": "endless", "cards": cards}, 1)
    while not pr.is_over(state):
        state = pr.apply(state, 0, {"gap": pr._right_gaps(state, state["cards"][state["next"]])[0]})
    assert pr.result(state) == {"score": 4, "out_of": 4, "best_streak": 4, "lives": 3}
    assert [state["values"][c] for c in state["line"]] == sorted(cards.values())


def test_endless_mode_keeps_the_cards_to_come_hidden():
    state = pr.new_game({"mode": "endless", "cards": VALUES}, 5)
    obs = json.dumps(pr.observation(state))
    assert not any(f'"{card}"' in obs for card in state["cards"][2:])
    assert pr.hidden(state) >= set(state["cards"][2:])


OVERLAPPING = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 8.0}
RANGES = {"a": [0.8, 1.2], "b": [1.5, 3.5], "c": [2.5, 4.0], "d": [7.0, 9.0]}


def test_line_mode_accepts_either_order_when_estimates_overlap_and_says_so():
    state = pr.new_game({"mode": "line", "count": 3, "cards": OVERLAPPING, "ranges": RANGES}, 1)
    state.update(cards=["a", "c", "b", "d"], line=["a"], next=1)
    state = pr.apply(state, 0, {"gap": 1})  # c after a: right
    state = pr.apply(state, 0, {"gap": 2})  # b after c: wrong by the typical values, but 1.5-3.5 overlaps 2.5-4
    assert state["answers"][-1] == {**state["answers"][-1], "right": True, "close": True, "passed": ["c"]}
    assert state["line"] == ["a", "b", "c"]  # the line still shows the typical values' order
    state = pr.apply(state, 0, {"gap": 0})  # d before a: wrong by every estimate
    assert state["answers"][-1]["right"] is False and state["answers"][-1]["close"] is False
    assert pr.result(state)["score"] == 2


def test_all_mode_accepts_overlapping_neighbours_swapped_but_not_a_sure_mistake():
    state = pr.new_game({"mode": "all", "count": 4, "cards": OVERLAPPING, "ranges": RANGES}, 1)
    state = pr.apply(state, 0, {"cards": ["a", "c", "b", "d"]})
    assert [(a["right"], a["close"]) for a in state["answers"]] == [(True, False), (True, True), (True, True), (True, False)]
    state = pr.new_game({"mode": "all", "count": 4, "cards": OVERLAPPING, "ranges": RANGES}, 1)
    state = pr.apply(state, 0, {"cards": ["b", "a", "c", "d"]})
    assert [a["right"] for a in state["answers"]] == [False, False, True, True]


def test_ranges_that_miss_their_card_are_refused():
    with pytest.raises(InvalidConfig, match="range"):
        pr.new_game({"mode": "line", "count": 3, "cards": OVERLAPPING, "ranges": {**RANGES, "a": [2, 3]}}, 1)


def test_bins_mode():
    cards = {"rex": "carnivore", "trike": "herbivore", "bear": "omnivore"}
    state = pr.new_game({"mode": "bins", "count": 3, "cards": cards}, 2)
    answers = [cards[c] if i != 1 else "omnivore" if cards[c] != "omnivore" else "herbivore"
               for i, c in enumerate(state["cards"])]
    for diet in answers:
        state = pr.apply(state, 0, {"diet": diet})
    assert pr.result(state)["score"] == 2


@pytest.mark.parametrize(("config", "message"), [
    ({"mode": "race"}, "Choose a mode"),
    ({"mode": "line", "count": 2}, "3 to 20"),
    ({"mode": "line", "count": 21}, "3 to 20"),
    ({"mode": "line", "count": 30}, "3 to 20"),
    ({"mode": "bins", "count": 3}, "diet"),
    ({"mode": "endless", "cards": {"a": 1.0, "b": 2.0, "c": 3.0}}, "not enough cards"),
])
def test_bad_practice_config(config, message):
    with pytest.raises(InvalidConfig, match=message):
        pr.new_game({"cards": VALUES, **config}, 1)


@pytest.mark.parametrize(("mode", "action", "message"), [
    ("line", {"gap": 99}, "choose a gap"),
    ("all", {"cards": ["c01"]}, "exactly once"),
    ("all", {"cards": [1, 2, 3]}, "exactly once"),
])
def test_bad_answers_are_refused(mode, action, message):
    state = pr.new_game({"mode": mode, "count": 3, "cards": VALUES}, 1)
    with pytest.raises(IllegalAction, match=message):
        pr.apply(state, 0, action)


def test_one_at_a_time_round_ends_with_a_review_linking_every_card(games, app, client):
    url = games.practice(client)
    for _ in range(5):
        assert client.post(url + "/answer", data={"gap": "0"}).status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert "You scored" in html and "The true order" in html
    for card in games.state(url)["cards"][1:]:
        assert f'href="/cards/{card}"' in html


@pytest.mark.parametrize("mode", ["line", "bins"])
def test_an_answer_from_a_stale_tab_is_refused_and_the_fresh_card_shown(games, app, client, mode):
    url = games.practice(client, **({"characteristic": "diet"} if mode == "bins" else {}))
    shown = re.search(r'name="card" value="([^"]+)"', client.get(url).get_data(as_text=True))[1]
    answer = {"gap": "0"} if mode == "line" else {"diet": "herbivore"}
    assert client.post(url + "/answer", data={**answer, "card": shown}).status_code == 302  # the first tab answers
    before = games.state(url)
    stale = client.post(url + "/answer", data={**answer, "card": shown})  # the second tab still shows that card
    page = stale.get_data(as_text=True)
    assert stale.status_code == 409 and "placed already" in page
    assert games.state(url) == before  # nothing moved: not the next card, not the score
    fresh = re.search(r'name="card" value="([^"]+)"', page)[1]
    assert fresh != shown and fresh == before["cards"][before["next"]]


def test_page_shows_no_value_of_the_card_to_place(games, app, client, shows_card):
    url = games.practice(client)
    state = games.state(url)
    html = client.get(url).get_data(as_text=True)
    assert html.count('class="line-value"') == 1
    assert not any(shows_card(html, card) for card in state["cards"][2:])
    assert all(shows_card(html, card) for card in state["cards"][:2])


def test_every_card_face_up_is_found_on_the_page(games, app, client, shows_card):
    """The privacy test's looking-glass must find every card's name as pages write it (long, escaped)."""
    url = games.practice(client)
    game_id = url.rsplit("/", 1)[1]
    with app.app_context():
        slugs = list(db.session.scalars(db.select(Card.slug)))
        missed = []
        for slug in slugs:
            game = db.session.get(Game, game_id)
            state = dict(game.state, cards=[slug, *game.state["cards"][1:]], line=[slug])
            state["values"] = dict(state["values"], **{slug: 1.0})
            game.state = state
            db.session.commit()
            if not shows_card(client.get(url).get_data(as_text=True), slug):
                missed.append(slug)
    assert len(slugs) > 200 and not missed


def test_all_at_once_round_and_duplicate_positions(games, app, client):
    url = games.practice(client, mode="all", characteristic="period")
    cards = games.state(url)["cards"]
    same = {f"position-{c}": "1" for c in cards}
    response = client.post(url + "/answer", data=same)
    assert response.status_code == 400 and "Use each position once" in response.get_data(as_text=True)
    order = {f"position-{c}": str(i + 1) for i, c in enumerate(cards)}
    assert client.post(url + "/answer", data=order).status_code == 302
    assert "You scored" in client.get(url).get_data(as_text=True)


def test_diet_sort(games, client):
    url = games.practice(client, characteristic="diet")
    html = client.get(url).get_data(as_text=True)
    assert "Carnivore" in html and "Herbivore" in html and "Omnivore" in html
    response = client.post(url + "/answer", data={"diet": "vegan"})
    assert response.status_code == 409 and "Choose a bin" in response.get_data(as_text=True)
    assert client.post(url + "/answer", data={"diet": "herbivore"}).status_code == 302


def test_daily_challenge_is_the_same_for_everyone_today(games, app, client):
    first = client.get("/play/practice/daily").headers["Location"]
    assert client.get("/play/practice/daily").headers["Location"] == first
    other = app.test_client().get("/play/practice/daily").headers["Location"]
    assert other != first
    assert games.state(first)["cards"] == games.state(other)["cards"]
    for _ in range(8):
        client.post(first + "/answer", data={"gap": "0"})
    html = client.get(first).get_data(as_text=True)
    # The sort key's name may hold words and brackets of its own ("period (first appearance)", every third day).
    assert re.search(r"Daily challenge \d{4}-\d\d-\d\d \(.+\): \d/8 [✔✘]{8}", html)


def test_someone_elses_round_cannot_be_answered(games, app, client):
    url = games.practice(client)
    response = app.test_client().post(url + "/answer", data={"gap": "0"})
    assert response.status_code == 403


@pytest.mark.parametrize(("data", "message"), [
    ({"count": "2"}, "between 3 and 20"),
    ({"deck": "animals", "characteristic": "period"}, "prehistoric deck"),
])
def test_bad_practice_setup(client, data, message):
    form = {"deck": "dinosaurs", "characteristic": "mass", "count": "5", "mode": "line", **data}
    response = client.post("/play/practice/new", data=form)
    assert response.status_code == 400 and message in response.get_data(as_text=True)


def test_practice_stores_published_ranges_and_says_too_close_to_call(games, app, client):
    url = games.practice(client, characteristic="mass", count="20")
    state = games.state(url)
    assert set(state["ranges"]) == set(state["cards"])
    # Place each card where it is wrong by the typical values but no estimate rules it out, if there is one.
    for _ in range(20):
        state = games.state(url)
        card, line = state["cards"][state["next"]], state["line"]
        first, last = pr._right_gaps(state, card)
        close = [gap for gap in range(len(line) + 1) if not first <= gap <= last
                 and not any(pr.surely_less(state, card, c) for c in line[:gap])
                 and not any(pr.surely_less(state, c, card) for c in line[gap:])]
        client.post(url + "/answer", data={"gap": str(close[0] if close else first)})
        if close:
            html = client.get(url).get_data(as_text=True)
            assert "too close to call: estimates overlap" in html
            assert games.state(url)["answers"][-1]["right"] is True
            return
    pytest.fail("twenty cards gave no close call")


def test_a_line_by_size_says_what_each_size_measures(games, client):
    url = games.practice(client, characteristic="length", count="5")
    html = client.get(url).get_data(as_text=True)
    assert re.search(r'class="line-value">[\d.,]+ (?:m|cm|mm) (?:long|tall|wingspan|shell)', html)


def test_feedback_says_where_a_card_belongs_and_gives_something_to_picture(games, client):
    url = games.practice(client, characteristic="mass", count="5")
    client.post(url + "/answer", data={"gap": "0"})
    html = client.get(url).get_data(as_text=True)
    feedback = html[html.index('id="feedback"'):html.index("</section>", html.index('id="feedback"'))]
    assert re.search(r"It weighed [\d.,]+ (?:t|kg|g), (?:about as heavy as|lighter than|as heavy as thousands)", feedback), feedback
    assert re.search(r"It (?:goes|belongs) (?:after|before) ", feedback), feedback


def test_diet_feedback_explains_the_words(games, client):
    url = games.practice(client, characteristic="diet", count="5")
    client.post(url + "/answer", data={"diet": "omnivore"})
    html = client.get(url).get_data(as_text=True)
    assert re.search(r"It (?:is|was) (?:a carnivore, an animal that eats other animals|a herbivore, an animal that eats plants|"
                     r"an omnivore, an animal that eats plants and animals)", html)
    assert " a omnivore" not in html


def test_a_line_by_period_says_oldest_on_the_left(games, client):
    html = client.get(games.practice(client, characteristic="period", count="5")).get_data(as_text=True)
    assert "oldest on the left" in html and "lowest on the left" not in html


def started_endless(client, deck="dinosaurs", characteristic="mass"):
    """Start an endless line as the tap on its button does; return the game's page."""
    response = client.post("/play/practice/endless", data={"deck": deck, "characteristic": characteristic})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"]


def test_endless_line_page_offers_each_deck_and_what_it_sorts_by(client):
    html = client.get("/play/practice/endless").get_data(as_text=True)
    for deck, keys in (("dinosaurs", ("mass", "length", "period")), ("animals", ("mass", "length", "lifespan"))):
        section = html[html.index(f'id="endless-{deck}"'):html.index("</section>", html.index(f'id="endless-{deck}"'))]
        assert {key for key in re.findall(r'name="characteristic" value="(\w+)"', section)} == set(keys)


def test_endless_line_plays_the_whole_deck_with_three_lives_and_same_again_keeps_the_line(games, app, client):
    url = started_endless(client, "animals", "lifespan")
    state = games.state(url)
    with app.app_context():
        known = db.session.scalar(db.select(db.func.count()).select_from(Card).where(
            Card.deck == "animals", Card.lifespan_years.is_not(None)))
    assert len(state["cards"]) == known and state["lives"] == 3
    html = client.get(url).get_data(as_text=True)
    assert "3</strong> lives left" in html and 'data-endless-key="animals-lifespan"' in html
    while not games.state(url)["answers"] or games.state(url)["lives"]:
        state = games.state(url)
        first, last = pr._right_gaps(state, state["cards"][state["next"]])
        wrong = last + 1 if last < len(state["line"]) else 0
        assert client.post(url + "/answer", data={"gap": str(wrong if wrong < first or wrong > last else first)}).status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert "Out of lives!" in html and 'data-over="yes"' in html and "Same again" in html
    assert re.search(r"Endless line \(living animals by lifespan\): \d+ cards placed", html)
    again = re.search(r'<form method="post" action="(/play/practice/endless)" class="same-again">.*?name="deck" value="(\w+)".*?'
                      r'name="characteristic" value="(\w+)"', html, re.DOTALL)
    assert again.groups() == ("/play/practice/endless", "animals", "lifespan")
    assert games.state(started_endless(client, "animals", "lifespan"))["cards"] != state["cards"]


@pytest.mark.parametrize(("data", "message"), [
    ({"deck": "animals", "characteristic": "period"}, "prehistoric deck"),
    ({"deck": "dinosaurs", "characteristic": "lifespan"}, "living animals deck"),
    ({"deck": "dinosaurs", "characteristic": "diet"}, "Not a valid choice"),
    ({"deck": "moon", "characteristic": "mass"}, "Not a valid choice"),
])
def test_bad_endless_line_is_refused_with_a_reason_and_starts_nothing(app, client, data, message):
    with app.app_context():
        before = db.session.scalar(db.select(db.func.count()).select_from(Game))
    response = client.post("/play/practice/endless", data=data)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == before
