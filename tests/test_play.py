"""Cardline in the browser: setting up, the pass-the-device screen, placing cards, privacy."""

import re

import pytest


def test_play_page_lists_cardline_and_its_rules(client):
    html = client.get("/play/").get_data(as_text=True)
    assert "Cardline" in html and "deck is empty" in html


@pytest.mark.parametrize(("data", "message"), [
    ({"players": "9"}, "2 to 8 players"),
    ({"players": "1"}, "2 to 8 players"),
    ({"hand_size": "0"}, "between 1 and 12"),
    ({"deck": "animals", "characteristic": "period"}, "Only prehistoric animals have a period"),
    ({"deck": "dinosaurs", "characteristic": "lifespan"}, "living animals deck"),
    ({"seats-0-name": "x" * 60}, "40"),
])
def test_bad_setup_shows_the_error_beside_the_field(client, data, message):
    form = {"deck": "dinosaurs", "characteristic": "mass", "hand_size": "4", "players": "2", **data}
    response = client.post("/play/cardline/new", data=form)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert message in html and 'class="field-error"' in html


def test_hot_seat_shows_a_pass_screen_without_any_hand(games, app, client):
    url = games.cardline(client)
    state = games.state(url)
    html = client.get(url).get_data(as_text=True)
    assert "Pass the device to Pa" in html
    for hand in state["hands"]:
        for card in hand:
            assert f'value="{card}"' not in html and f"/cards/{card}" not in html
    board = client.get(url + "?seat=0").get_data(as_text=True)
    assert all(f'value="{card}"' in board for card in state["hands"][0])
    assert not any(f'value="{card}"' in board for card in state["hands"][1])


def test_page_never_carries_face_down_values(games, app, client, shows_card):
    url = games.cardline(client, kinds=("human", "medium"))
    state = games.state(url)
    html = client.get(url).get_data(as_text=True)
    assert not any(shows_card(html, card) for card in state["deck"])
    assert all(shows_card(html, card) for card in state["line"])
    assert "line-value" in html
    # One value shown per revealed card, and the hand's cards carry none.
    assert html.count('class="line-value"') == len(state["line"])


def test_placing_a_card_by_form(games, app, client):
    url = games.cardline(client)
    card = games.state(url)["hands"][0][0]
    game_id = url.rsplit("/", 1)[1]
    response = client.post(f"/play/cardline/{game_id}/place", data={"seat": "0", "card": card, "gap": "0"})
    assert response.status_code == 302
    state = games.state(url)
    assert state["history"][-1]["card"] == card
    html = client.get(url).get_data(as_text=True)
    assert "Last move" in html and re.search(r"(correct!.*It goes|wrong.*It belongs) (?:after|before) ", html, re.DOTALL)
    assert "Pass the device to Pb" in html


def test_a_move_from_a_board_the_game_has_left_is_refused_with_the_fresh_board(games, app, client):
    url = games.cardline(client)
    game_id = url.rsplit("/", 1)[1]
    shown = re.search(r'name="seen" value="(\w+)"', client.get(url, query_string={"seat": 0}).get_data(as_text=True))[1]
    first = games.state(url)["hands"][0][0]
    assert client.post(f"/play/cardline/{game_id}/place", data={"seat": "0", "card": first, "gap": "0",
                                                                "seen": shown}).status_code == 302
    before = games.state(url)
    card = before["hands"][1][0]  # a second tab still showing the first board sends a move for the next turn
    stale = client.post(f"/play/cardline/{game_id}/place", data={"seat": "1", "card": card, "gap": "0", "seen": shown})
    page = stale.get_data(as_text=True)
    assert stale.status_code == 409 and "nothing was played" in page and "The line" in page
    assert games.state(url) == before


def test_wrong_placement_says_where_the_card_belonged(games, app, client):
    url = games.cardline(client)
    state = games.state(url)
    line_value = state["values"][state["line"][0]]
    card = next(c for c in state["hands"][0] if state["values"][c] != line_value)
    wrong_gap = 0 if state["values"][card] > line_value else 1
    client.post(url + "/place", data={"seat": "0", "card": card, "gap": str(wrong_gap)})
    html = client.get(url).get_data(as_text=True)
    last_move = html[html.index('id="last-move"'):html.index("</p>", html.index('id="last-move"'))]
    neighbour = state["line"][0]
    name = client.get(f"/api/cards/{neighbour}").get_json()["common_name"]
    # Why, in one sentence: its value, where it belongs, the neighbour's value.
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", last_move))
    assert "✘ wrong" in said and re.search(rf"(?:It|Its) .+\. It belongs (?:after|before) {re.escape(name)} \([^)]+\)\.", said), said


@pytest.mark.parametrize(("data", "status", "message"), [
    ({"seat": "0", "card": "not-a-card", "gap": "0"}, 409, "not in your hand"),
    ({"seat": "0", "gap": "0"}, 400, "Choose a card"),
    ({"seat": "0", "card": "x", "gap": "99"}, 409, ""),
    ({"seat": "1", "card": "x", "gap": "0"}, 409, "not your turn"),
])
def test_bad_placements_explain_and_change_nothing(games, app, client, data, status, message):
    url = games.cardline(client)
    before = games.state(url)
    if data.get("card") == "x":
        data = {**data, "card": before["hands"][int(data["seat"])][0]}
    response = client.post(url + "/place", data=data)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)
    assert games.state(url) == before


def test_another_browser_cannot_play_your_seat(games, app, client):
    url = games.cardline(client)
    card = games.state(url)["hands"][0][0]
    stranger = app.test_client()
    response = stranger.post(url + "/place", data={"seat": "0", "card": card, "gap": "0"})
    assert response.status_code == 403
    html = stranger.get(url).get_data(as_text=True)
    assert "Pass the device" not in html and f'value="{card}"' not in html


def test_against_the_computer_shows_the_board_at_once(games, client):
    url = games.cardline(client, kinds=("human", "easy", "hard"))
    html = client.get(url).get_data(as_text=True)
    assert "your turn" in html and "computer, hard" in html


def test_game_over_page_names_the_winner(games, app, client):
    url = games.cardline(client, kinds=("human", "hard"))
    game_id = url.rsplit("/", 1)[1]
    for _ in range(200):
        state = games.state(url)
        if state["turn"] is None:
            break
        card = state["hands"][0][0]
        value = state["values"][card]
        gap = sum(state["values"][c] < value for c in state["line"])
        client.post(f"/play/cardline/{game_id}/place", data={"seat": "0", "card": card, "gap": str(gap)})
    html = client.get(url).get_data(as_text=True)
    assert "Game over" in html
    assert re.search(r"<strong>P[ab]( and P[ab])?</strong> (wins|share)", html)


@pytest.mark.parametrize("url", ["/", "/cards/", "/play/", "/timeline", "/play/stack/new", "/join", "/teach/login"])
def test_page_titles_are_plain_text(client, url):
    title = re.search(r"<title>(.*?)</title>", client.get(url).get_data(as_text=True), re.DOTALL).group(1)
    assert "<" not in title and len(title) < 80


def test_play_again_keeps_the_seats_names_and_settings(games, client):
    url = games.cardline(client, kinds=("human", "hard", "easy"), characteristic="length", deck="animals")
    html = client.get(url).get_data(as_text=True)
    game_id = url.rsplit("/", 1)[1]
    again = client.get(f"/play/cardline/new?again={game_id}").get_data(as_text=True)
    assert f'href="/play/cardline/new?again={game_id}"' in html or "Play again" not in html
    assert re.search(r'id="players"[^>]*value="3"', again)
    assert 'value="Pb"' in again and 'value="Pc"' in again
    assert re.search(r'<option selected value="hard">|<option value="hard" selected>', again)
    assert re.search(r'<option selected value="animals">|<option value="animals" selected>', again)


def test_practise_again_and_another_quiz_keep_their_settings(games, client):
    url = games.practice(client, characteristic="length", count="7", mode="all")
    again = client.get(f"/play/practice/new?again={url.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert re.search(r'id="count"[^>]*value="7"', again)
    assert re.search(r'<option selected value="all">|<option value="all" selected>', again)
    url = games.quiz(client, kinds=("diet",), count="5")
    again = client.get(f"/quiz/new?again={url.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert re.search(r'checked[^>]*value="diet"|value="diet"[^>]*checked', again)
    assert re.search(r'id="count"[^>]*value="5"', again)
    assert client.get("/quiz/new?again=nonsense").status_code == 200
