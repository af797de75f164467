"""Stack-O-Saurus in the browser: set-up, hot-seat privacy, actions with reasons, join codes."""

import re
from html import unescape

import pytest
from conftest import posted, seat_fields

from webapp.common.codes import ALPHABET as JOIN_ALPHABET
from webapp.extensions import db
from webapp.games import stack
from webapp.models import Game
from webapp.play import store


def test_chosen_tower_order_is_used(games, app, client):
    url = games.stack(client, order_mode="chosen", order=("green", "blue", "orange", "purple"))
    assert games.state(url)["order"] == ["green", "blue", "orange", "purple"]


HOUSE_RULE_LABELS = {"discard_any_time": "House rule: you may discard instead of playing",
                     "sturdy_base": "House rule: the Apatosaurus cannot be scared"}


def test_the_set_up_form_offers_both_house_rules_unticked(client):
    page = client.get("/play/stack/new").get_data(as_text=True)
    for rule, label in HOUSE_RULE_LABELS.items():
        box = re.search(rf'<input[^>]*name="{rule}"[^>]*>', page).group(0)
        assert 'type="checkbox"' in box and "checked" not in box
        assert re.search(rf'<label for="{rule}">{label}', page)


def start_with(client, kinds=("human", "human"), **ticked):
    """Start a Stack-O-Saurus game at one screen with the house rules ticked; return its page's address."""
    form = {"players": str(len(kinds)), "order_mode": "chosen", "first": "blue", "second": "orange",
            "third": "purple", "fourth": "green", **seat_fields(kinds)}
    return posted(client, "/play/stack/new", {**form, **{rule: "y" for rule, on in ticked.items() if on}})


@pytest.mark.parametrize("ticked", [{}, {"discard_any_time": True}, {"sturdy_base": True},
                                    {"discard_any_time": True, "sturdy_base": True}])
def test_the_house_rules_chosen_at_set_up_reach_the_engine_and_the_board(games, client, ticked):
    url = start_with(client, **ticked)
    state = games.state(url)
    assert {rule: state[rule] for rule in stack.HOUSE_RULES} == {rule: rule in ticked for rule in stack.HOUSE_RULES}
    html = client.get(url, query_string={"seat": "0"}).get_data(as_text=True)
    rules = re.search(r'<p class="house-rules">(.*?)</p>', html, re.DOTALL).group(1)
    for rule, name in stack.HOUSE_RULE_NAMES.items():
        assert (name in rules) == (rule in ticked)
    assert ("no house rules" in rules) == (not ticked)


def set_table(app, url, **changes):
    """Change the stored game's state: hands, towers, whose turn."""
    with app.app_context():
        game = db.session.get(Game, url.rsplit("/", 1)[1])
        game.state = dict(game.state, **changes)
        db.session.commit()


def discard_buttons(page):
    """Return the cards the page offers to discard."""
    return set(re.findall(r'name="card" value="([^"]+)">(?:(?!</form>).)*name="type" value="discard"', page, re.DOTALL))


@pytest.mark.parametrize("discard_any_time", [False, True])
def test_discard_is_offered_only_when_the_rules_allow_it(games, app, client, discard_any_time):
    url = start_with(client, discard_any_time=discard_any_time)
    set_table(app, url, phase="play", turn=0, towers=[[], []], hands=[["apato-1", "blue-1"], ["green-1"]])
    page = client.get(url, query_string={"seat": "0"}).get_data(as_text=True)
    assert discard_buttons(page) == ({"apato-1", "blue-1"} if discard_any_time else set())
    assert "Pa, your turn: play or discard a card" in page if discard_any_time else "Pa, your turn: play a card" in page
    response = client.post(url + "/act", data={"seat": "0", "type": "discard", "card": "blue-1"})
    if discard_any_time:
        assert response.status_code == 302 and games.state(url)["discard"][-1] == "blue-1"
    else:
        assert response.status_code == 409 and "You can play a card, so you may not discard" in response.get_data(as_text=True)
        assert games.state(url)["hands"][0] == ["apato-1", "blue-1"]
    # With nothing to play, a discard is offered under either rule set.
    set_table(app, url, phase="play", turn=0, towers=[[], []], hands=[["orange-1", "blue-1"], ["green-1"]])
    page = client.get(url, query_string={"seat": "0"}).get_data(as_text=True)
    assert discard_buttons(page) == {"orange-1", "blue-1"}
    assert "Pa, your turn: you cannot play, so discard a card" in page


@pytest.mark.parametrize("sturdy_base", [False, True])
def test_a_lone_apatosaurus_is_offered_as_a_tyrannosaurus_target_unless_it_is_a_sturdy_base(games, app, client,
                                                                                            sturdy_base):
    url = start_with(client, kinds=("human", "human", "human"), sturdy_base=sturdy_base)
    set_table(app, url, phase="play", turn=0, towers=[["apato-1"], ["apato-2"], ["apato-3", "blue-1"]],
              hands=[["trex-1", "green-3"], ["green-1"], ["green-2"]])
    page = client.get(url, query_string={"seat": "0"}).get_data(as_text=True)
    form = page[page.index('value="trex-1"'):]
    options = re.findall(r'<option value="(\d)">', form[form.index("<select"):form.index("</select>")])
    assert options == (["2"] if sturdy_base else ["1", "2"])
    response = client.post(url + "/act", data={"seat": "0", "type": "scare", "card": "trex-1", "target": "1"})
    if sturdy_base:
        assert response.status_code == 409 and "Apatosaurus cannot fall" in response.get_data(as_text=True)
    else:
        assert response.status_code == 302 and games.state(url)["towers"][1] == []
        page = unescape(client.get(url, query_string={"seat": "1"}).get_data(as_text=True))
        assert "Pa's Tyrannosaurus scared off Pb's Apatosaurus (black)." in page


@pytest.mark.parametrize(("data", "message"), [
    ({"players": "7"}, "2 to 6 players"),
    ({"order_mode": "chosen", "first": "blue", "second": "blue"}, "each colour once"),
])
def test_bad_setup(client, data, message):
    form = {"players": "2", "order_mode": "random", "first": "blue", "second": "orange",
            "third": "purple", "fourth": "green", **data}
    response = client.post("/play/stack/new", data=form)
    assert response.status_code == 400 and message in response.get_data(as_text=True)


def test_hot_seat_pass_screen_hides_hands(games, app, client):
    url = games.stack(client)
    state = games.state(url)
    html = client.get(url).get_data(as_text=True)
    assert "Pass the device to Pa" in html
    for hand in state["hands"]:
        for card in hand:
            assert f'value="{card}"' not in html
    assert "Dino Tower order" in html


def test_colours_carry_a_symbol_and_a_name(games, client):
    html = client.get(games.stack(client) + "?seat=0").get_data(as_text=True)
    for name, symbol in (("Blue", "●"), ("Orange", "▲"), ("Purple", "◆"), ("Green", "■")):
        assert f"{name} {symbol}" in html


def test_every_face_up_card_shows_its_animal_and_each_colour_a_shape_of_its_own(games, client):
    html = client.get(games.stack(client) + "?seat=0").get_data(as_text=True)
    faces = re.findall(r'<span class="stack-card kind-(\w+)(?: colour-(\w+))?"><img src="/static/([\w/.-]+)" alt="">', html)
    assert faces, "no card face drawn"
    drawn = {(kind, colour): picture for kind, colour, picture in faces}
    tower_order = [colour for kind, colour in drawn if kind == "dino"]
    assert len(tower_order) == 4 and len({drawn["dino", colour] for colour in tower_order}) == 4
    assert '<span class="stack-card face-down" aria-hidden="true">Stack-O-Saurus</span>' in html  # nothing shown


def test_a_move_from_a_board_the_game_has_left_is_refused_with_the_fresh_board(games, app, client):
    url = games.stack(client, order_mode="chosen")
    shown = re.search(r'name="seen" value="(\w+)"', client.get(url, query_string={"seat": 0}).get_data(as_text=True))[1]
    assert client.post(url + "/act", data={"seat": "0", "type": "draw", "source": "deck", "seen": shown}).status_code == 302
    before = games.state(url)
    stale = client.post(url + "/act", data={"seat": "0", "type": "draw", "source": "deck", "seen": shown})
    assert stale.status_code == 409 and "nothing was played" in stale.get_data(as_text=True)
    assert games.state(url) == before


def test_draw_then_an_illegal_play_is_explained_and_changes_nothing(games, app, client):
    url = games.stack(client, order_mode="chosen")
    client.post(url + "/act", data={"seat": "0", "type": "draw", "source": "deck"})
    state = games.state(url)
    # With no tower yet, only an Apatosaurus can be added; anything else is explained.
    card = next(c for c in state["hands"][0] + ["apato-1"] if stack.KIND[c][0] != "apatosaurus"
                or c not in state["hands"][0])
    response = client.post(url + "/act", data={"seat": "0", "type": "play", "card": card})
    assert response.status_code == 409
    body = response.get_data(as_text=True)
    assert any(reason in body for reason in ("Start your tower with an Apatosaurus",
                                             "Play this card on another", "not in your hand"))
    assert games.state(url) == state


@pytest.mark.parametrize(("data", "status", "message"), [
    ({"seat": "0", "type": "fly"}, 400, "Choose what to do"),
    ({"seat": "0", "type": "play", "card": "apato-1"}, 409, "First draw"),
    ({"seat": "1", "type": "draw", "source": "deck"}, 409, "not your turn"),
    ({"seat": "0", "type": "draw", "source": "sky"}, 409, "Draw from"),
    ({"seat": "0", "type": "scare", "card": "trex-1"}, 400, "whose tower"),
])
def test_bad_actions_are_refused_with_a_reason(games, app, client, data, status, message):
    url = games.stack(client)
    before = games.state(url)
    response = client.post(url + "/act", data=data)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)
    assert games.state(url) == before


def test_a_stranger_cannot_act(games, app, client):
    url = games.stack(client)
    response = app.test_client().post(url + "/act", data={"seat": "0", "type": "draw", "source": "deck"})
    assert response.status_code == 403


def test_join_code_lets_a_player_take_an_open_seat(games, app, client):
    url = games.stack(client, kinds=("human", "remote"))
    html = client.get(url).get_data(as_text=True)
    code = re.search(r'class="join-code">(\w+)<', html).group(1)
    assert len(code) == 5 and set(code) <= set(JOIN_ALPHABET)
    phone = app.test_client()
    bad = phone.post("/join", data={"code": "QQQQQ", "name": "Leo"})
    assert bad.status_code == 404 and "No round or game has that code" in bad.get_data(as_text=True)
    joined = phone.post("/join", data={"code": code.lower(), "name": "Leo"})
    assert joined.status_code == 302 and joined.headers["Location"].endswith(url.rsplit("/", 1)[1])
    assert games.state(url)["players"] == ["Pa", "Leo"]
    full = app.test_client().post("/join", data={"code": code, "name": "Zoe"})
    assert full.status_code == 409 and "taken" in full.get_data(as_text=True)
    # Leo's device sees Leo's hand, never Pa's.
    state = games.state(url)
    leo_view = phone.get(url).get_data(as_text=True)
    assert all(f">{c}<" not in leo_view for c in state["hands"][0])


def test_play_to_the_end_against_the_computer(games, app, client):
    url = games.stack(client, kinds=("human", "hard"))
    for _ in range(3000):
        state = games.state(url)
        if state["turn"] is None:
            break
        action = stack.legal_actions(state)[0]
        client.post(url + "/act", data={"seat": "0", **{k: str(v) for k, v in action.items()}})
    html = client.get(url).get_data(as_text=True)
    assert "Game over" in html


def test_only_the_moves_the_rules_allow_are_offered(games, app, client):
    url = games.stack(client, kinds=("human", "human", "human"))
    game_id = url.rsplit("/", 1)[1]
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = dict(game.state, order=["green", "blue", "purple", "orange"], phase="play", turn=0,
                     towers=[[], ["apato-1", "green-1"], ["apato-4"]])
        state["hands"] = [["scare-green-2", *state["hands"][0]], *state["hands"][1:]]
        game.state = state
        db.session.commit()
    page = client.get(url, query_string={"seat": "0"}).get_data(as_text=True)
    form = page[page.index('value="scare-green-2"'):]
    select = form[form.index("<select"):form.index("</select>")]
    options = re.findall(r'<option value="(\d)">([^<]+)</option>', select)
    assert options == [("1", "Pb")]  # a tower with nothing it can scare is not offered
    with app.app_context():
        legal = store.legal_actions(db.session.get(Game, game_id), 0)
    playable = {a["card"] for a in legal if a["type"] == "play"}
    offered = set(re.findall(r'name="card" value="([^"]+)">\s*<button class="button" name="type" value="play">', page))
    assert offered == playable and "apato" not in str(state["towers"][0])  # no Apatosaurus down: only one fits
    # The scare is a play, so by the rulebook no card may be discarded, and none is offered.
    assert discard_buttons(page) == {a["card"] for a in legal if a["type"] == "discard"} == set()


def test_towers_rise_beside_the_dino_tower_to_build_and_a_scared_dinosaur_falls_off(games, app, client):
    url = games.stack(client, kinds=("human", "human"))
    game_id = url.rsplit("/", 1)[1]
    with app.app_context():
        game = db.session.get(Game, game_id)
        # The discard pile is empty: the scare's two cards will be all of it.
        state = dict(game.state, phase="play", turn=0, towers=[[], ["apato-1", f"{game.state['order'][0]}-1"]],
                     discard=[], draw=game.state["draw"] + game.state["discard"])
        state["hands"] = [[f"scare-{state['order'][0]}-2", *state["hands"][0]], *state["hands"][1:]]
        game.state = state
        db.session.commit()
    assert client.post(url + "/act", data={"seat": "0", "type": "scare", "card": f"scare-{state['order'][0]}-2",
                                           "target": "1"}).status_code == 302
    page = client.get(url, query_string={"seat": "1"}).get_data(as_text=True)
    reference = page[page.index('id="reference-title"'):page.index("</section>", page.index('id="reference-title"'))]
    assert reference.count('class="stack-card') == 5 and "Apatosaurus (black)" in reference
    towers = page[page.index('class="towers"'):]
    p1 = towers[towers.index("<h3>Pb"):]
    assert "was scared off the top!" in p1
    assert re.search(r'<li class="falling" aria-hidden="true">\s*<span class="stack-card kind-dino colour-\w+">', p1)
    assert p1[:p1.index("</ol>")].count('class="to-build"') == 4  # the Apatosaurus stands; four levels to build
    assert "a scare's cards, under the pile: nobody may take them" in page
