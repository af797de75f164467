"""The games JSON API: create, observe per seat, act, refuse bad input without changing anything."""

import json

import pytest

from webapp import create_app
from webapp.extensions import db
from webapp.models import Game
from webapp.play import store


def create(client, seats=None, **extra):
    body = {"deck": "dinosaurs", "characteristic": "mass", "hand_size": 4,
            "seats": seats or [{"name": "Ada", "kind": "human"}, {"name": "Ben", "kind": "human"}], **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def stored_state(app, game_id):
    with app.app_context():
        return json.dumps(db.session.get(Game, game_id).state, sort_keys=True)


def test_create_gives_tokens_only_to_human_seats(client):
    data = create(client, seats=[{"name": "Ada"}, {"name": "Bot", "kind": "hard"}])
    assert "token" in data["seats"][0] and "token" not in data["seats"][1]
    assert data["observation"]["hand"] is None


def test_each_seat_sees_only_its_own_hand_and_no_face_down_values(app, client):
    data = create(client)
    with app.app_context():
        state = db.session.get(Game, data["id"]).state
    for seat in (0, 1):
        obs = client.get(f"/api/games/{data['id']}", headers=auth(data["seats"][seat]["token"])).get_json()
        assert obs["hand"] == state["hands"][seat]
        text = json.dumps(obs)
        for card in state["hands"][1 - seat] + state["deck"]:
            assert f'"{card}"' not in text
        assert "values" not in obs
        assert all(set(entry) == {"card", "value"} for entry in obs["line"])
    spectator = client.get(f"/api/games/{data['id']}").get_json()
    assert spectator["hand"] is None and spectator["viewer"] is None


def test_actions_then_act(client):
    data = create(client)
    token = data["seats"][0]["token"]
    listed = client.get(f"/api/games/{data['id']}/actions", headers=auth(token)).get_json()
    assert listed["seat"] == 0 and len(listed["actions"]) == 4 * 2
    action = listed["actions"][0]
    response = client.post(f"/api/games/{data['id']}/actions", headers=auth(token),
                           json={"card": action["card"], "gap": action["gap"], "version": listed["version"]})
    assert response.status_code == 200
    obs = response.get_json()
    assert obs["turn"] == 1
    assert obs["recent"][-1]["card"] == action["card"]
    other = client.get(f"/api/games/{data['id']}/actions", headers=auth(token)).get_json()
    assert other["actions"] == []


def test_version_says_when_a_game_changed_and_nothing_else(client):
    data = create(client)
    url = f"/api/games/{data['id']}/version"
    first = client.get(url)
    assert first.status_code == 200 and set(first.get_json()) == {"version"}
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    token = data["seats"][0]["token"]
    listed = client.get(f"/api/games/{data['id']}/actions", headers=auth(token)).get_json()
    client.post(f"/api/games/{data['id']}/actions", headers=auth(token), json={**listed["actions"][0], "version": listed["version"]})
    moved = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200 and moved.get_json()["version"] > first.get_json()["version"]
    assert client.get("/api/games/nope/version").status_code == 404
    assert client.get(f"/api/games/{'x' * 300}/version").status_code == 404


def test_computer_players_reply_at_once(client):
    data = create(client, seats=[{"name": "Ada"}, {"name": "Bot", "kind": "easy"}, {"name": "Cy", "kind": "hard"}])
    token = data["seats"][0]["token"]
    listed = client.get(f"/api/games/{data['id']}/actions", headers=auth(token)).get_json()
    obs = client.post(f"/api/games/{data['id']}/actions", headers=auth(token),
                      json={**listed["actions"][0], "version": listed["version"]}).get_json()
    assert obs["turn"] in (0, None)
    assert len([m for m in obs["recent"]]) >= 3 or obs["over"]


def test_game_survives_a_restart(app, client):
    data = create(client)
    again = create_app({**app.config})
    response = again.test_client().get(f"/api/games/{data['id']}", headers=auth(data["seats"][0]["token"]))
    assert response.status_code == 200
    assert response.get_json()["hand"]
    with again.app_context():
        db.engine.dispose()


def test_racing_moves_leave_one_true_state(app, client):
    data = create(client)
    token = data["seats"][0]["token"]
    listed = client.get(f"/api/games/{data['id']}/actions", headers=auth(token)).get_json()
    action = {**listed["actions"][0], "version": listed["version"]}
    with app.app_context():
        stale = db.session.get(Game, data["id"])
        assert stale.state  # loaded now, at the version before the other move
        # Another process moves first.
        other = create_app({**app.config}).test_client()
        assert other.post(f"/api/games/{data['id']}/actions", headers=auth(token), json=action).status_code == 200
        with pytest.raises(store.AppError) as caught:
            store.act(stale, 0, {"type": "place", **{k: action[k] for k in ("card", "gap")}})
        assert caught.value.status == 409
    final = client.get(f"/api/games/{data['id']}").get_json()
    assert len([m for m in final["recent"] if m["player"] == 0]) == 1


@pytest.mark.parametrize(("body", "message"), [
    ({"seats": []}, "seats"),
    ({"seats": [{"name": "Ada"}]}, "2 to 8 players"),
    ({"seats": [{"name": f"Player {i}"} for i in range(9)]}, "2 to 8 players"),
    ({"seats": [{"name": ""}, {"name": "Ben"}]}, "Seat 1's name: Use 2 to 20 characters"),
    ({"seats": [{"name": "Ada"}, {"name": 7}]}, "Seat 2's name: Give it a name"),
    ({"seats": [{"name": "Ada", "kind": "wizard"}, {"name": "Ben"}]}, "kind must be one of"),
    ({"deck": "pokemon"}, "no deck called"),
    ({"deck": "animals", "characteristic": "period"}, "can be played by"),
    ({"hand_size": 0}, "between 1 and 12"),
    ({"hand_size": "4"}, "whole number"),
    ({"seed": -1}, "seed"),
    ({"game": "chess"}, "'game' must be one of: cardline, stack, dinoblivion"),
    ({"game": "stack", "config": [1]}, "'config' must be an object"),
    ({"game": "stack", "seats": [{"name": "Ada", "kind": "easy"}, {"name": "Ben", "kind": "hard"}]}, "must be a person"),
    ({"game": "stack", "seats": [{"name": f"Player {i}"} for i in range(7)]}, "2 to 6 players"),
    ({"game": "stack", "config": {"order": ["blue", 1, None, "green"]}}, "each colour once"),
    ({"game": "dinoblivion", "config": {"mode": "chess"}}, "Duel (2 players) or Solo"),
    ({"game": "dinoblivion", "config": {"mode": "solo"}}, "Solo is for exactly 1 player"),
    ({"game": "dinoblivion", "seats": [{"name": "Ada"}], "config": {"difficulty": "god"}}, "Choose a difficulty"),
])
def test_bad_new_games_are_refused(client, body, message):
    base = {"seats": [{"name": "Ada"}, {"name": "Ben"}], **body}
    response = client.post("/api/games", json=base)
    assert response.status_code == 400
    assert message in response.get_json()["error"]


def test_malformed_and_oversized_bodies(client):
    response = client.post("/api/games", data="{not json", content_type="application/json")
    assert response.status_code == 400 and "JSON object" in response.get_json()["error"]
    response = client.post("/api/games", data="x" * 300_000, content_type="application/json")
    assert response.status_code == 413


@pytest.mark.parametrize(("case", "status", "message"), [
    ("unknown game", 404, "no game with that id"),
    ("no token", 401, "seat token"),
    ("wrong token", 403, "does not belong"),
    ("other game's token", 403, "does not belong"),
    ("other seat's turn", 409, "not your turn"),
    ("gap out of range", 409, "choose a gap from 0 to 1"),
    ("card not in hand", 409, "not in your hand"),
    ("malformed json", 400, "JSON object"),
    ("missing fields", 400, "card"),
    ("gap as text", 409, "choose a gap"),
])
def test_bad_moves_are_refused_and_change_nothing(app, client, case, status, message):
    data = create(client)
    other = create(client)
    game_id = data["id"]
    tokens = [seat["token"] for seat in data["seats"]]
    hand = client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).get_json()["hand"]
    before = stored_state(app, game_id)
    url = f"/api/games/{game_id}/actions"
    version = client.get(f"/api/games/{game_id}", headers=auth(tokens[0])).get_json()["version"]
    good = {"card": hand[0], "gap": 0, "version": version}
    requests = {
        "unknown game": lambda: client.post("/api/games/nope/actions", headers=auth(tokens[0]), json=good),
        "no token": lambda: client.post(url, json=good),
        "wrong token": lambda: client.post(url, headers=auth("x" * 32), json=good),
        "other game's token": lambda: client.post(url, headers=auth(other["seats"][0]["token"]), json=good),
        "other seat's turn": lambda: client.post(url, headers=auth(tokens[1]), json=good),
        "gap out of range": lambda: client.post(url, headers=auth(tokens[0]), json={**good, "gap": 5}),
        "card not in hand": lambda: client.post(url, headers=auth(tokens[0]), json={**good, "card": "not-a-card"}),
        "malformed json": lambda: client.post(url, headers=auth(tokens[0]), data="[1,",
                                              content_type="application/json"),
        "missing fields": lambda: client.post(url, headers=auth(tokens[0]), json={"card": hand[0], "version": version}),
        "gap as text": lambda: client.post(url, headers=auth(tokens[0]), json={**good, "gap": "0"}),
    }
    response = requests[case]()
    assert response.status_code == status
    assert message in response.get_json()["error"]
    assert stored_state(app, game_id) == before


def test_unknown_game_observation_is_404(client):
    response = client.get("/api/games/" + "z" * 200)
    assert response.status_code == 404


TABLE_GAMES = [
    ("stack", {"order": ["green", "blue", "purple", "orange"]}, [{"name": "Ada"}, {"name": "Rex", "kind": "medium"}]),
    ("dinoblivion", {"mode": "duel", "end_trigger": "dinosaur_decks"}, [{"name": "Ada"}, {"name": "Rex", "kind": "easy"}]),
    ("dinoblivion", {"difficulty": "hunter"}, [{"name": "Ada"}]),
]


@pytest.mark.parametrize(("game", "config", "seats"), TABLE_GAMES)
def test_stack_and_dinoblivion_are_played_through_the_same_api(app, client, game, config, seats):
    response = client.post("/api/games", json={"game": game, "config": config, "seats": seats, "seed": 5})
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    assert data["game"] == game and data["observation"]["hand"] is None
    game_id, token = data["id"], data["seats"][0]["token"]
    with app.app_context():
        stored = db.session.get(Game, game_id)
        assert stored.kind == game and stored.mode == "api"
        assert all(stored.state.get(key) == value for key, value in config.items() if key in stored.state)
        hidden = [card for hand in stored.state["hands"][1:] for card in hand] if game == "stack" else \
            [card for seat in stored.state["seats"][1:] for card in seat["hand"] + seat["deck"]]
    seen = json.dumps(client.get(f"/api/games/{game_id}", headers=auth(token)).get_json())
    assert not [card for card in hidden if f'"{card}"' in seen]
    for _ in range(12):  # the listed actions are the ones the seat may take, and taking one moves the game
        answer = client.get(f"/api/games/{game_id}/actions", headers=auth(token)).get_json()
        listed, version = answer["actions"], answer["version"]
        if not listed:
            break
        before = stored_state(app, game_id)
        response = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                               json={"action": listed[-1], "version": version})
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["viewer"] == 0 and stored_state(app, game_id) != before
    version = client.get(f"/api/games/{game_id}", headers=auth(token)).get_json()["version"]
    refused = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                          json={"action": {"type": "fly"}, "version": version})
    assert refused.status_code == 409 and refused.get_json()["error"]
    for body in ({"action": "draw", "version": version}, {"action": {"card": "x"}, "version": version}, [1]):
        before = stored_state(app, game_id)
        response = client.post(f"/api/games/{game_id}/actions", headers=auth(token), json=body)
        assert response.status_code == 400 and response.get_json()["error"]
        assert stored_state(app, game_id) == before


@pytest.mark.parametrize("second", [{"name": "Ben", "kind": "human"}, {"name": "Ben", "kind": "remote"}])
def test_a_game_for_two_people_never_takes_its_deal_from_its_creator(client, second):
    seats = [{"name": "Ada", "kind": "human"}, second]
    refused = client.post("/api/games", json={"deck": "dinosaurs", "characteristic": "mass", "seed": 12345,
                                              "seats": seats})
    assert refused.status_code == 400 and "secret" in refused.get_json()["error"]
    assert client.post("/api/games", json={"deck": "dinosaurs", "characteristic": "mass", "seed": 12345,
                                           "seats": [{"name": "Ada"}, {"name": "Rex", "kind": "hard"}]}).status_code == 201


def test_a_player_cannot_reproduce_another_seats_hand(app, client, monkeypatch):
    """The server draws the seed from the operating system's secrets: the same request twice deals differently."""
    monkeypatch.undo()  # the tests' seeded deal is lifted: this is the app's own randomness
    hands = set()
    for _ in range(3):
        data = create(client)
        with app.app_context():
            hands.add(tuple(db.session.get(Game, data["id"]).state["hands"][1]))
    assert len(hands) == 3


def test_a_move_sent_twice_is_played_once_and_the_retry_gets_the_game_as_it_is(app, client):
    data = create(client, seats=[{"name": "Ada"}, {"name": "Ben"}])
    token = data["seats"][0]["token"]
    listed = client.get(f"/api/games/{data['id']}/actions", headers=auth(token)).get_json()
    move = {**listed["actions"][0], "version": listed["version"]}
    first = client.post(f"/api/games/{data['id']}/actions", headers=auth(token), json=move)
    assert first.status_code == 200 and first.get_json()["version"] == listed["version"] + 1
    after_first = stored_state(app, data["id"])
    retry = client.post(f"/api/games/{data['id']}/actions", headers=auth(token), json=move)
    assert retry.status_code == 409 and "nothing was played" in retry.get_json()["error"]
    assert retry.get_json()["observation"]["version"] == listed["version"] + 1
    assert stored_state(app, data["id"]) == after_first
    unversioned = client.post(f"/api/games/{data['id']}/actions", headers=auth(token), json=listed["actions"][0])
    assert unversioned.status_code == 400 and "'version'" in unversioned.get_json()["error"]


def test_a_dinoblivion_buy_sent_twice_buys_once(app, client):
    created = client.post("/api/games", json={"game": "dinoblivion", "config": {"difficulty": "hunter"},
                                              "seats": [{"name": "Ada"}], "seed": 5}).get_json()
    game_id, token = created["id"], created["seats"][0]["token"]
    for _ in range(40):  # play the first listed action until a buy is offered
        listed = client.get(f"/api/games/{game_id}/actions", headers=auth(token)).get_json()
        buys = [action for action in listed["actions"] if action["type"] == "buy"]
        chosen = buys[0] if buys else listed["actions"][0]
        body = {"action": chosen, "version": listed["version"]}
        assert client.post(f"/api/games/{game_id}/actions", headers=auth(token), json=body).status_code == 200
        if buys:
            break
    assert buys, "no buy was ever offered"
    bought = stored_state(app, game_id)
    again = client.post(f"/api/games/{game_id}/actions", headers=auth(token), json=body)
    assert again.status_code == 409 and stored_state(app, game_id) == bought
