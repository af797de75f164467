"""Every route that takes a game id, asked about every kind of game by someone who may not see its secrets.

A spectator and a player of another game ask each route (the id in the path, or as ?game=) about a game of
each registered kind. None may answer a 500, none may change the game, and no answer may name anything the
game's engine says a spectator must not know (its `hidden` names: a hand, the deck, a face-down card).
"""

import re

import pytest
from markupsafe import escape

from webapp.extensions import db
from webapp.games import GAMES
from webapp.games.protocol import leaks
from webapp.models import Card, Game
from webapp.play import store
from webapp.play.adapters import ADAPTERS
from webapp.play.adapters.cardline import start_cardline
from webapp.play.adapters.practice import start_practice
from webapp.play.adapters.quiz import start_quiz

PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Ben", "kind": "human"}]
# The routes that read a game from the query string: the timeline, the time gap and the charts, as pages and JSON.
GAME_QUERY_ROUTES = ["/timeline", "/timeline/gap", "/charts/sizes", "/charts/weights",
                     "/api/figures/timeline", "/api/figures/sizes", "/api/figures/weights"]
# Whatever each move form or the API may carry: a seat, a card, a gap, a chosen action.
POSTED = {"seat": "0", "card": "tyrannosaurus", "gap": "0", "type": "draw", "source": "deck",
          "action": '{"type": "end"}', "diet": "carnivore", "question": "q0", "choice": "o0"}


def start_every_kind():
    """Start one game of each registered kind; return {kind: (game id, {seat: token})}."""
    started = {
        "cardline": start_cardline("dinosaurs", "mass", 4, PEOPLE, "hotseat"),
        "stack": store.create_game("stack", {"players": ["Ada", "Ben"]}, PEOPLE, "table", {}),
        "dinoblivion": store.create_game("dinoblivion", {"mode": "duel", "players": ["Ada", "Ben"]}, PEOPLE,
                                         "table", {}),
        "practice": start_practice("dinosaurs", "mass", 6, "line"),
        "quiz": start_quiz({"title": "Quiz", "kinds": ["heavier", "diet"], "count": 4, "deck": "dinosaurs"}),
    }
    assert set(started) == set(ADAPTERS), "a registered game is missing here: start one of it too"
    return {kind: (game.id, tokens) for kind, (game, tokens) in started.items()}


@pytest.fixture
def started(app):
    with app.app_context():
        return start_every_kind()


def routes_with_a_game_id(app):
    """Return (method, path with {id}) for every route whose path holds a game id."""
    found = []
    for rule in app.url_map.iter_rules():
        if "game_id" in rule.arguments:
            path = rule.rule.replace("<game_id>", "{id}")
            found += [(method, path) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    return found


def requesters(app, started, kind):
    """Return who asks about the game of `kind`: a spectator, and a player holding a seat of another game."""
    other_kind = next(k for k in started if k != kind and started[k][1])
    other_id, tokens = started[other_kind]
    player = app.test_client()
    with player.session_transaction() as session:
        session["seats"] = {other_id: {str(seat): token for seat, token in tokens.items()}}
    return {"spectator": (app.test_client(), {}),
            f"a {other_kind} player": (player, {"Authorization": f"Bearer {next(iter(tokens.values()))}"})}


def secrets_of(app, game_id):
    """Return the stored state, the spectator's secrets, and per hidden name the ways a page could write it."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        secrets = GAMES[game.kind].hidden(game.state, None)
        names = {secret for secret in secrets if isinstance(secret, str)}
        cards = {c.slug: c.common_name for c in db.session.scalars(db.select(Card).where(Card.slug.in_(names)))}
        return game.state, secrets, {name: written_forms(name, cards.get(name)) for name in names}


def written_forms(name, common_name):
    """Return patterns that find a hidden name as an answer would write it."""
    if common_name is None:  # a card instance or question id: found as a token anywhere
        return [re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")]
    # A card of the database: its slug as a link, a value or a JSON string, or its name as a page shows it
    # (a bare slug may also be a silhouette's file name, human.svg, so it is not looked for alone).
    return [re.compile(re.escape(text)) for text in
            (f"/cards/{name}", f'value="{name}"', f'"{name}"', f"'{name}'", f">{escape(common_name)}<")]


def leaked(body, forms):
    """Return the first hidden name written in a body, or None."""
    text = body.replace("&shy;", "")
    return next((name for name, patterns in forms.items() if any(p.search(text) for p in patterns)), None)


def given_away(response, secrets, forms):
    """Return what an answer gives away: for JSON every kind of secret (values beside their cards too), else names."""
    if response.is_json:
        return leaks(response.get_json(), secrets)
    return leaked(response.get_data(as_text=True), forms)


@pytest.mark.parametrize("kind", sorted(ADAPTERS))
def test_every_game_route_refuses_cleanly_and_keeps_every_secret(app, started, kind):
    game_id, _ = started[kind]
    state_before, secrets, forms = secrets_of(app, game_id)
    assert secrets, f"a {kind} game has nothing hidden from a spectator: the test would prove nothing"
    asked = [(method, path.format(id=game_id)) for method, path in routes_with_a_game_id(app)]
    asked += [("GET", f"{path}?game={game_id}") for path in GAME_QUERY_ROUTES]
    for who, (client, headers) in requesters(app, started, kind).items():
        for method, path in asked:
            if method == "GET":
                response = client.get(path, headers=headers)
            elif path.startswith("/api/"):
                response = client.post(path, json={"action": {"type": "end"}, "card": "tyrannosaurus", "gap": 0},
                                       headers=headers)
            else:
                response = client.post(path, data=POSTED)
            assert response.status_code < 500, (who, method, path, response.get_data(as_text=True)[:300])
            assert not given_away(response, secrets, forms), (who, method, path, given_away(response, secrets, forms))
    state_after, _, _ = secrets_of(app, game_id)
    assert state_after == state_before


def test_a_route_given_a_game_of_another_kind_is_a_404(app, client, started):
    for kind, adapter in ADAPTERS.items():
        for other_kind, (other_id, _) in started.items():
            if other_kind != kind:
                response = client.get(f"{adapter.path}/{other_id}")
                assert response.status_code == 404, (kind, other_kind)
                assert "There is no" in response.get_data(as_text=True)


def test_the_leak_check_finds_a_hidden_card_where_a_page_would_write_it(app, started):
    game_id, _ = started["cardline"]
    _, _, forms = secrets_of(app, game_id)
    slug = next(name for name, patterns in forms.items() if len(patterns) > 1)
    assert leaked(f'<a href="/cards/{slug}">', forms) == slug
    assert leaked(f'{{"hand": ["{slug}"]}}', forms) == slug
    assert leaked("<p>Nothing to see</p>", forms) is None
