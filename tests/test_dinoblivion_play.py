"""Dinoblivion in the browser: set-up, hot-seat privacy, buttons, refusals with reasons, computer players, join codes."""

import html as html_lib
import json
import random
import re

import pytest

from webapp.extensions import db
from webapp.games import dinoblivion
from webapp.models import Game

BUTTON = re.compile(r'<button class="button[^"]*"(?: form="dino-actions")? name="action" value="([^"]+)">([^<]+)</button>')


def buttons(page):
    """Return [(action, label)] for the buttons on a board page."""
    return [(json.loads(html_lib.unescape(value)), html_lib.unescape(label)) for value, label in BUTTON.findall(page)]


def press(client, url, seat, action):
    return client.post(url + "/act", data={"seat": str(seat), "action": json.dumps(action)})


def test_new_game_page_offers_both_modes_and_every_difficulty(client):
    page = client.get("/play/dinoblivion/new").get_data(as_text=True)
    for text in ("Duel: 2 players", "Solo", "Gatherer", "Hunter", "Warrior", "Chief", "Computer: searching"):
        assert text in page


@pytest.mark.parametrize(("mode", "kinds", "message"), [
    ("solo", ("medium", "human"), "Solo is played by a person"),
    ("duel", ("easy", "hard"), "must be a person"),
    ("chess", ("human", "human"), "Not a valid choice"),
])
def test_bad_setup_is_explained_and_starts_nothing(app, client, mode, kinds, message):
    data = {"mode": mode, "difficulty": "gatherer", "end_trigger": "hunting_grounds"}
    for index, kind in enumerate(kinds):
        data[f"seats-{index}-kind"] = kind
    response = client.post("/play/dinoblivion/new", data=data)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Game).count() == 0


@pytest.mark.parametrize(("difficulty", "jungle"), [("gatherer", 44), ("hunter", 40), ("warrior", 36), ("chief", 32)])
def test_solo_at_each_difficulty(games, app, client, difficulty, jungle):
    url = games.dinoblivion(client, mode="solo", kinds=("human", "human"), difficulty=difficulty)
    state = games.state(url)
    assert state["mode"] == "solo" and len(state["players"]) == 1
    assert len(state["jungle"]) == jungle  # the difficulty's cards and the 4 Enemies
    page = client.get(url).get_data(as_text=True)
    assert f"Solo ({difficulty})" in page and buttons(page)


def test_hot_seat_shows_a_pass_screen_without_any_hand(games, app, client):
    url = games.dinoblivion(client)
    page = client.get(url).get_data(as_text=True)
    assert "Pass the device to Pa" in page and not buttons(page)
    state = games.state(url)
    for seat in state["seats"]:
        for card in seat["hand"] + seat["deck"]:
            assert card not in page
    assert "Your hand" not in page


def play_to_the_first_turn(games, client, url):
    """Throw the pawns and choose Chiefs with the first button each time; return the board page."""
    for _ in range(60):  # a tied throw is thrown again
        seat = dinoblivion.current_player(games.state(url))
        page = client.get(url, query_string={"seat": seat}).get_data(as_text=True)
        options = buttons(page)
        if options[0][0]["type"] not in ("throw", "chief"):
            return seat, page
        assert press(client, url, seat, options[0][0]).status_code == 302
    raise AssertionError("the set-up did not end")


def test_every_button_is_a_legal_action_and_pressing_it_moves_the_game(games, app, client):
    url = games.dinoblivion(client)
    seat, page = play_to_the_first_turn(games, client, url)
    state = games.state(url)
    offered = [action for action, _ in buttons(page)]
    def key(action):
        return json.dumps(action, sort_keys=True)

    assert sorted(map(key, offered)) == sorted(map(key, dinoblivion.legal_actions(state)))
    assert any(label == "End your turn" for _, label in buttons(page))
    end = next(action for action, label in buttons(page) if label == "End your turn")
    assert press(client, url, seat, end).status_code == 302
    assert games.state(url)["turn"] == 1 - seat


def test_a_move_from_a_board_the_game_has_left_is_refused_with_the_fresh_board(games, app, client):
    url = games.dinoblivion(client)
    seat, page = play_to_the_first_turn(games, client, url)
    shown = re.search(r'name="seen" value="(\w+)"', page)[1]
    end = next(action for action, label in buttons(page) if label == "End your turn")
    assert client.post(url + "/act", data={"seat": str(seat), "action": json.dumps(end), "seen": shown}).status_code == 302
    before = games.state(url)
    stale = client.post(url + "/act", data={"seat": str(seat), "action": json.dumps(end), "seen": shown})
    assert stale.status_code == 409 and "nothing was played" in stale.get_data(as_text=True)
    assert games.state(url) == before


@pytest.mark.parametrize(("action", "status", "message"), [
    ({"type": "buy", "ground": "left"}, 409, ""),
    ({"type": "hunt", "card": "no-such-card", "ground": "left"}, 409, ""),
    ({"type": "fly"}, 409, ""),
    ("not json", 400, "Choose one of the buttons"),
    ([1, 2], 400, "Choose one of the buttons"),
])
def test_refused_actions_are_explained_and_change_nothing(games, app, client, action, status, message):
    url = games.dinoblivion(client)
    seat, _ = play_to_the_first_turn(games, client, url)
    before = json.dumps(games.state(url), sort_keys=True)
    body = action if isinstance(action, str) else json.dumps(action)
    response = client.post(url + "/act", data={"seat": str(seat), "action": body})
    assert response.status_code == status
    text = response.get_data(as_text=True)
    assert message in text and 'role="alert"' in text or status == 400
    assert json.dumps(games.state(url), sort_keys=True) == before


def test_another_browser_cannot_act(games, app, client):
    url = games.dinoblivion(client)
    seat, page = play_to_the_first_turn(games, client, url)
    stranger = app.test_client()
    response = stranger.post(url + "/act", data={"seat": str(seat), "action": json.dumps(buttons(page)[0][0])})
    assert response.status_code == 403
    assert buttons(stranger.get(url).get_data(as_text=True)) == []


def test_against_the_computer_it_replies_at_once(games, app, client):
    # The longer end reading: under the rulebook's words the computer's own turn can end the game.
    url = games.dinoblivion(client, kinds=("human", "medium"), end_trigger="dinosaur_decks")
    for _ in range(60):
        state = games.state(url)
        if state["phase"] not in ("throw", "chief"):
            break
        press(client, url, 0, dinoblivion.legal_actions(state)[0])
    state = games.state(url)
    if state["turn"] == 0:
        press(client, url, 0, {"type": "end"})
    state = games.state(url)
    # The computer played its turn and handed back (or, rarely, its turn ended the game).
    assert state["turn"] == 0 or dinoblivion.is_over(state)
    assert dinoblivion.current_player(state) in (0, None)
    assert "Pb" in client.get(url).get_data(as_text=True)


def test_two_devices_join_with_a_code(games, app, client):
    url = games.dinoblivion(client, kinds=("human", "remote"))
    code = re.search(r'class="join-code">(\w+)<', client.get(url).get_data(as_text=True)).group(1)
    other = app.test_client()
    joined = other.post("/join", data={"code": code, "name": "Bea"})
    assert joined.status_code == 302 and "/play/dinoblivion/" in joined.headers["Location"]
    assert games.state(url)["players"][1] == "Bea"
    page = other.get(url).get_data(as_text=True)
    assert "Bea" in page and "Your clan" in page


def test_rules_page_has_the_decisions_and_the_icon_reference(client):
    page = client.get("/play/dinoblivion/rules").get_data(as_text=True)
    assert "Where the rulebook is silent" in page or "we decided" in page
    assert "Totem" in page and "Rage" in page


def test_buying_the_last_card_of_a_hunting_ground_warns_that_the_end_begins(games, app, client):
    url = games.dinoblivion(client)
    seat, page = play_to_the_first_turn(games, client, url)
    for action, _ in buttons(page):
        if action["type"] == "hunt":
            press(client, url, seat, action)
            break
    page = client.get(url, query_string={"seat": seat}).get_data(as_text=True)
    state = games.state(url)
    for action, label in buttons(page):
        if action["type"] == "buy":
            assert ("starts the end of the game" in label) == (len(state["grounds"][action["ground"]]) == 1)


@pytest.mark.parametrize("seed", range(2))
def test_a_whole_game_through_the_pages_ends_with_the_scores(games, app, client, seed):
    rng = random.Random(seed)
    url = games.dinoblivion(client, kinds=("human", "easy"), end_trigger="dinosaur_decks")
    for _ in range(3000):
        state = games.state(url)
        if dinoblivion.is_over(state):
            break
        page = client.get(url, query_string={"seat": 0}).get_data(as_text=True)
        options = buttons(page)
        ends = [a for a, _ in options if a["type"] == "end"]
        action = ends[0] if ends and rng.random() < 0.2 else rng.choice(options)[0]
        assert press(client, url, 0, action).status_code == 302
    page = client.get(url).get_data(as_text=True)
    assert dinoblivion.is_over(games.state(url)) and "Game over" in page and "Total" in page


def test_the_play_page_leads_to_dinoblivion(client):
    page = client.get("/play/").get_data(as_text=True)
    assert 'href="/play/dinoblivion/new"' in page


def test_the_hard_computer_player_searches_within_its_think_time(games, app, client, monkeypatch):
    import webapp.games.dinoblivion as engine_package

    calls = []
    real_search = engine_package.search_move

    def counted(observation, actions, rng, think_seconds):
        calls.append(think_seconds)
        assert "hand" in observation and "seats" not in observation  # it sees an observation, not the state
        return real_search(observation, actions, rng, think_seconds=think_seconds)

    monkeypatch.setattr(engine_package, "THINK_SECONDS", 0.02)
    monkeypatch.setattr(engine_package, "search_move", counted)
    url = games.dinoblivion(client, kinds=("human", "hard"), end_trigger="dinosaur_decks")
    for _ in range(60):
        state = games.state(url)
        if state["phase"] not in ("throw", "chief") and state["turn"] == 0:
            break
        press(client, url, 0, dinoblivion.legal_actions(state)[0])
    press(client, url, 0, {"type": "end"})
    assert calls and set(calls) == {0.02}
    state = games.state(url)
    # the searching player played its turn and handed back (or, rarely, its turn ended the game)
    assert state["turn"] == 0 or dinoblivion.is_over(state)


def test_the_board_says_what_each_fight_needs_until_that_stack_is_fought(games, app, client):
    from webapp.games.dinoblivion import cards

    url = games.dinoblivion(client)
    seat, page = play_to_the_first_turn(games, client, url)
    tops = {side: pile[-1] for side, pile in games.state(url)["dinos"].items()}
    for side, dino in tops.items():
        assert f"the {cards.CARDS[dino].name} ({side}) needs {cards.CARDS[dino].strength}" in page
    game_id = url.rsplit("/", 1)[1]
    with app.app_context():  # as after a fight on the left this turn
        game = db.session.get(Game, game_id)
        game.state = dict(game.state, fought=["left"])
        db.session.commit()
    page = client.get(url, query_string={"seat": seat}).get_data(as_text=True)
    assert "(left) needs" not in page and "(right) needs" in page


def test_the_board_shows_a_hunting_grounds_top_card_and_size_and_the_destroyed_dino_tokens(games, app, client):
    url = games.dinoblivion(client)
    seat, _page = play_to_the_first_turn(games, client, url)
    with app.app_context():
        game = db.session.get(Game, url.rsplit("/", 1)[1])
        state = json.loads(json.dumps(game.state))
        pile = state["jungle"][:3]
        state["jungle"] = state["jungle"][3:]
        state["grounds"]["left"] = pile
        state["seats"][seat].update(dino=1, burnt=2)
        game.state = state
        db.session.commit()
    page = client.get(url, query_string={"seat": seat}).get_data(as_text=True)
    info = dinoblivion.cards.CARDS
    assert "Hunting Ground (3 cards)" in page and info[pile[-1]].name in page
    assert "2 more below, not to be looked through" in page
    assert not any(card in page for card in pile[:-1])
    assert "(bank 3; 2 destroyed by Dinoblivion)" in page
    open_url = client.post("/play/dinoblivion/new", data={
        "mode": "duel", "difficulty": "gatherer", "end_trigger": "hunting_grounds", "open_grounds": "y",
        "seats-0-kind": "human", "seats-1-kind": "human"}).headers["Location"]
    assert games.state(open_url)["open_grounds"] is True


def test_the_set_up_starts_with_the_rulebook_and_names_the_departure_a_house_rule(client):
    html = client.get("/play/dinoblivion/new").get_data(as_text=True)
    ends = html[html.index('name="end_trigger"'):]
    chosen = re.search(r'<option selected value="(\w+)">([^<]+)</option>', ends[:ends.index("</select>")])
    assert chosen and chosen[1] == "hunting_grounds" and chosen[2].startswith("The rulebook")
    assert "House rule, a longer game" in html


def test_the_set_up_offers_workars_house_rule_unchecked_and_the_board_names_it(games, app, client):
    html = client.get("/play/dinoblivion/new").get_data(as_text=True)
    box = re.search(r'<input[^>]*name="workar_later"[^>]*>', html)
    assert box and "checked" not in box[0] and 'type="checkbox"' in box[0]
    assert "House rule: Workar&#39;s second Action card later in the turn (the rulebook plays both at once)" in html
    url = games.dinoblivion(client)
    assert games.state(url)["workar_later"] is False
    assert "The rulebook&#39;s rules, no house rule" in client.get(url, query_string={"seat": 0}).get_data(as_text=True)
    later = client.post("/play/dinoblivion/new", data={
        "mode": "duel", "difficulty": "gatherer", "end_trigger": "hunting_grounds", "workar_later": "y",
        "seats-0-kind": "human", "seats-1-kind": "human"}).headers["Location"]
    assert games.state(later)["workar_later"] is True and games.state(later)["open_grounds"] is False
    board = client.get(later, query_string={"seat": 0}).get_data(as_text=True)
    assert "House rules: Workar&#39;s second Action card later in the turn" in board


def give_hand(app, url, seat, cards):
    """Put exactly `cards` in `seat`'s hand (the hand it held goes to its discard pile), taken from wherever they are."""
    with app.app_context():
        game = db.session.get(Game, url.rsplit("/", 1)[1].split("?")[0])
        state = json.loads(json.dumps(game.state))
        mine = state["seats"][seat]
        mine["discard"] += mine["hand"]
        mine["hand"] = []
        for card in cards:
            places = [s[zone] for s in state["seats"] for zone in ("deck", "discard")]
            places += [state["jungle"], *state["grounds"].values()]
            next(place for place in places if card in place).remove(card)
            mine["hand"].append(card)
        game.state = state
        db.session.commit()


def test_workars_second_action_card_is_chosen_on_the_board(games, app, client):
    url = games.dinoblivion(client)
    seat, _page = play_to_the_first_turn(games, client, url)
    give_hand(app, url, seat, ["workar-1", "capturar-1", "stellar-1", "ami_sun-1"])
    page = client.get(url, query_string={"seat": seat}).get_data(as_text=True)
    first = next(action for action, label in buttons(page)
                 if label == "Play Capturar with Workar: gain 2 Dino tokens (Workar: then 1 more Action card from your "
                              "hand, at once)")
    assert press(client, url, seat, first).status_code == 302
    page = client.get(url, query_string={"seat": seat}).get_data(as_text=True)
    labels = {label for _, label in buttons(page)}
    assert "Play Stellar with Workar too, at once: gain 1 Food, gain 1 Dino token, gain 1 Buddy pawn" in labels
    assert "Play no second Action card with Workar" in labels and "End your turn" not in labels
    assert "Workar plays 2 Action cards at once" in page
    assert page.count('<details class="dino-moves" open>') == 2  # the choice to make is open on both cards
    state = games.state(url)
    offered = sorted(json.dumps(action, sort_keys=True) for action, _ in buttons(page))
    assert offered == sorted(json.dumps(action, sort_keys=True) for action in dinoblivion.legal_actions(state))
    assert press(client, url, seat, {"type": "skip"}).status_code == 302
    assert games.state(url)["pending"] == [] and "stellar-1" in games.state(url)["seats"][seat]["hand"]


PHONE_PAGE_BOUND = 3600  # px at 390 x 844 on a first turn; measured 2,760 to 2,930 (6,695 before the phone layout)
PHONE_ESSENTIALS_BOUND = 2100  # the hand, the board and End your turn; measured 1,540 to 1,700


@pytest.mark.browser
def test_a_dinoblivion_turn_fits_a_phone_in_about_two_screens(browser, live_server):
    from playwright.sync_api import expect

    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = phone.new_page()
    page.goto(f"{live_server}/play/dinoblivion/new")
    expect(page.get_by_label("House rule: Workar's second Action card later in the turn")).not_to_be_checked()
    page.locator("#seats-0-name").fill("Mia")
    page.locator("#seats-1-kind").select_option("medium")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").tap()
    for _ in range(12):  # the throw (again if tied) and the Chief draft, to Mia's first turn
        setup = page.locator("fieldset.action-group", has_text="Set-up").get_by_role("button")
        if not setup.count():
            break
        with page.expect_navigation():
            setup.first.tap()
    hand = page.locator(".dino-hand .hand-slot")
    expect(hand).to_have_count(4)
    height = page.locator("html").bounding_box()["height"]
    end = page.locator(".dino-end-turn").bounding_box()
    assert height < PHONE_PAGE_BOUND and end["y"] + end["height"] < PHONE_ESSENTIALS_BOUND, (height, end)
    # Cards sit side by side, whole: no card outside the hand's sideways row runs off the screen, no name is cut off.
    boxes = [hand.nth(index).bounding_box() for index in range(2)]
    assert boxes[0]["y"] == boxes[1]["y"]
    for card in page.locator(".dino-card:visible").all():  # a folded pile's card shows when opened
        box, name = card.bounding_box(), card.locator(".dino-card-name").bounding_box()
        if not card.locator("xpath=ancestor::*[contains(@class, 'dino-hand-row')]").count():
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert name["x"] + name["width"] <= box["x"] + box["width"] + 0.5
    # The less-used panels are folded, each with a summary that says what is inside.
    for panel in (page.locator(".dino-mine details"), page.locator(".dino-player").first, page.locator(".dino-player").last):
        expect(panel).not_to_have_attribute("open", "")
        expect(panel.locator("summary").first).to_contain_text("·")
    # Everything to press is at least 44 x 44 px.
    for target in page.locator("main button:visible, main summary:visible").all():
        box = target.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (target.inner_text(), box)
    # A hand card's choices open by keyboard; its buttons are then next in the tab order.
    moves = page.locator(".dino-moves").first
    moves.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(moves).to_have_attribute("open", "")
    page.keyboard.press("Tab")
    expect(moves.get_by_role("button").first).to_be_focused()
    # And by touch: another card's choices open, and one of them is played.
    other = page.locator(".dino-moves").nth(1)
    other.locator("summary").tap()
    expect(other).to_have_attribute("open", "")
    with page.expect_navigation():
        page.get_by_role("button", name="End your turn").tap()
    expect(page.get_by_role("heading", name="Mia, your turn")).to_be_visible()
    phone.close()


def test_every_dinosaur_shows_its_animal_and_every_person_a_person():
    from pathlib import Path

    from webapp.games.dinoblivion import cards
    from webapp.play.adapters.dinoblivion import DINOSAUR_PICTURES, card_info

    static = Path(__file__).resolve().parent.parent / "webapp" / "static"
    for card, kind in cards.CARDS.items():
        picture = card_info(card)["picture"]
        if kind.card_type == "dinosaur":
            assert picture == DINOSAUR_PICTURES[kind.name], kind.name
        elif kind.card_type in ("clan", "enemy"):
            assert picture == "silhouettes/human.svg", kind.name
        else:
            assert picture is None, kind.name  # an action card: its band says what it is
        assert picture is None or (static / picture).is_file(), picture


def test_the_board_draws_each_face_up_dinosaur_with_its_picture(games, client):
    url = games.dinoblivion(client, mode="solo", kinds=("human", "human"), difficulty="hunter")
    board = client.get(url).get_data(as_text=True)
    dinosaurs = re.findall(r'<span class="dino-card type-dinosaur">.*?</strong>', board, re.DOTALL)
    assert dinosaurs and all('class="dino-card-picture"' in face and 'alt=""' in face for face in dinosaurs)
