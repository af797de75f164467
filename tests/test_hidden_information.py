"""Hidden information never leaves the server: every game walked move by move, every viewer's pages and JSON.

At every step each seat (and a spectator) fetches everything the app would send it, and nothing it
may not know — another seat's hand, the deck or draw pile, a face-down value — appears in any of it.
"""

import json
import random
import re

import pytest

from webapp.extensions import db
from webapp.games import GAMES
from webapp.models import Game
from webapp.play import store
from webapp.play.adapters.cardline import start_cardline
from webapp.timeline.figures import value_text


def numbers_in(value):
    """Every measured value (a float: counts and seats are integers) anywhere in a JSON value."""
    if isinstance(value, dict):
        return [n for item in value.values() for n in numbers_in(item)]
    if isinstance(value, list):
        return [n for item in value for n in numbers_in(item)]
    return [value] if isinstance(value, float) else []


def browser_of(app, game_id, seat, token):
    """A test client holding one seat's token in its session, as the browser that sat down there."""
    client = app.test_client()
    if seat is not None:
        with client.session_transaction() as session:
            session["seats"] = {game_id: {str(seat): token}}
    return client


def start(app, kind, config, seats):
    with app.app_context():
        game, tokens = store.create_game(kind, config, seats, mode="table", settings={"characteristic": "mass"})
        return game.id, tokens


def stored_state(app, game_id):
    with app.app_context():
        return db.session.get(Game, game_id).state


def random_move(app, game_id, rng):
    """Play one random legal move for whoever is to act; return False once the game is over."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        engine = GAMES[game.kind]
        if engine.is_over(game.state):
            return False
        seat = engine.current_player(game.state)
        store.act(game, seat, rng.choice(engine.legal_actions(game.state)))
        return True


def cardline_secrets(state, viewer):
    """Slugs and values a Cardline viewer must not see: other hands, the deck, every value never revealed.

    A misplaced card is shown to everyone with its value before it goes back to a hand when the deck is empty.
    """
    revealed = {move["card"] for move in state["history"]}
    hidden = [card for seat, hand in enumerate(state["hands"]) if seat != viewer for card in hand
              if card not in revealed] + state["deck"]
    face_up = state["line"] + state["box"] + sorted(revealed)
    shown = {state["values"][card] for card in face_up}
    values = {state["values"][card] for card in state["values"] if card not in face_up} - shown
    return hidden, values


def cardline_bodies(client, game_id, token):
    """Everything a Cardline seat's browser and API client get: the page and the JSON observation."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    page = client.get(f"/play/cardline/{game_id}", query_string={"seat": 0})
    api = client.get(f"/api/games/{game_id}", headers=headers)
    actions = client.get(f"/api/games/{game_id}/actions", headers=headers)
    return [page.get_data(as_text=True)], [api.get_json(), actions.get_json()]


@pytest.mark.parametrize("seed", range(3))
def test_cardline_never_shows_other_hands_the_deck_or_face_down_values(app, seed):
    rng = random.Random(seed)
    with app.app_context():
        game, tokens = start_cardline("dinosaurs", "mass", 4,
                                                [{"name": n, "kind": "human"} for n in ("Ada", "Ben", "Cy")],
                                                mode="table", seed=seed)
        game_id = game.id
    clients = {seat: browser_of(app, game_id, seat, tokens.get(seat)) for seat in (0, 1, 2, None)}
    steps = 0
    while True:
        state = stored_state(app, game_id)
        for viewer, client in clients.items():
            hidden, values = cardline_secrets(state, viewer)
            pages, documents = cardline_bodies(client, game_id, tokens.get(viewer))
            for text in pages + [json.dumps(d) for d in documents]:
                leaked = [card for card in hidden if f'"{card}"' in text or f"/cards/{card}" in text]
                assert not leaked, f"seat {viewer} was sent {leaked}"
            for document in documents:
                assert not set(numbers_in(document)) & values, f"seat {viewer} was sent a face-down value"
            for page in pages:
                for value in values:
                    assert f">{value_text('mass', value, 'metric', [])}<" not in page
        if not random_move(app, game_id, rng):
            break
        steps += 1
    assert steps > 5


STACK_PAGES = ("", "?seat=0", "?seat=1", "?seat=2")


def api_texts(client, game_id, token):
    """The games API's observation and action list for a seat (a spectator's observation without a token), as text."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    texts = [client.get(f"/api/games/{game_id}", headers=headers).get_data(as_text=True)]
    if token:
        texts.append(client.get(f"/api/games/{game_id}/actions", headers=headers).get_data(as_text=True))
    return texts


@pytest.mark.parametrize("seed", range(3))
def test_stack_never_shows_other_hands_or_the_draw_pile(app, seed):
    rng = random.Random(seed)
    game_id, tokens = start(app, "stack", {"players": ["Ada", "Ben", "Cy"]},
                            [{"name": n, "kind": "human"} for n in ("Ada", "Ben", "Cy")])
    clients = {seat: browser_of(app, game_id, seat, tokens.get(seat)) for seat in (0, 1, 2, None)}
    for _ in range(150):
        state = stored_state(app, game_id)
        for viewer, client in clients.items():
            hidden = [card for seat, hand in enumerate(state["hands"]) if seat != viewer for card in hand]
            hidden += state["draw"]
            for suffix in STACK_PAGES:
                html = client.get(f"/play/stack/{game_id}{suffix}").get_data(as_text=True)
                leaked = [card for card in hidden if re.search(rf'"{re.escape(card)}"', html)]
                assert not leaked, f"seat {viewer} was sent {leaked}"
            # The JSON log names the cards everyone saw face up (discarded, played, taken from the discard
            # pile, scared off), some now in a hand or reshuffled into the draw pile; a card never shown is never named.
            seen = {event.get(key) for event in state["log"] for key in ("card", "fallen")}
            for text in api_texts(client, game_id, tokens.get(viewer)):
                leaked = [card for card in hidden if card not in seen and f'"{card}"' in text]
                assert not leaked, f"seat {viewer} was sent {leaked}"
        if not random_move(app, game_id, rng):
            break


def test_a_class_line_never_shows_the_card_being_placed_before_the_reveal(classroom, app, client):
    classroom.register(client)
    url, code, students = classroom.play_started(client, count="4")
    teacher = client
    state = classroom.round(url).state
    values, to_place = state["values"], state["cards"]
    for turn, card in enumerate(to_place):
        later = to_place[turn:]
        texts = []
        for student in students:
            texts += [student.get(f"/r/{code}").get_data(as_text=True),
                      student.get(f"/r/{code}/panel").get_data(as_text=True),
                      student.get(f"/r/{code}/version").get_data(as_text=True)]
        texts.append(teacher.get(url + "/panel").get_data(as_text=True))
        for text in texts:
            for hidden in later:
                assert f">{value_text('mass', values[hidden], 'metric', [])}<" not in text
            assert not [c for c in later[1:] if f"/cards/{c}" in text or f'"{c}"' in text]  # cards to come
        teacher.post(url + "/control", data={"action": "reveal"})
        teacher.post(url + "/control", data={"action": "next"})


def dinoblivion_secrets(state, viewer):
    """Card ids a Dinoblivion viewer must not see: other hands and Caves, every deck, the Jungle, face-down dinosaurs."""
    hidden = list(state["jungle"]) + list(state["setaside"])
    for index, seat in enumerate(state["seats"]):
        hidden += seat["deck"]
        if index != viewer:
            hidden += seat["hand"] + ([seat["cave"]] if seat["cave"] else [])
    hidden += [dino for pile in state["dinos"].values() for dino in pile[:-1]] + state["dinos_out"]
    return hidden


@pytest.mark.parametrize(("mode", "seed"), [("duel", 0), ("solo", 2)])
def test_dinoblivion_never_shows_hands_decks_the_jungle_or_egg_values(app, mode, seed):
    rng = random.Random(seed)
    names = ["Ada", "Ben"] if mode == "duel" else ["Ada"]
    config = {"mode": mode, "players": names, "end_trigger": "dinosaur_decks"}
    game_id, tokens = start(app, "dinoblivion", config, [{"name": n, "kind": "human"} for n in names])
    clients = {seat: browser_of(app, game_id, seat, tokens.get(seat)) for seat in [*range(len(names)), None]}
    for _ in range(80):
        state = stored_state(app, game_id)
        over = GAMES["dinoblivion"].is_over(state)
        for viewer, client in clients.items():
            html = client.get(f"/play/dinoblivion/{game_id}", query_string={"seat": state["turn"]}).get_data(as_text=True)
            secrets = dinoblivion_secrets(state, viewer)
            leaked = [card for card in secrets if re.search(rf"\b{re.escape(card)}\b", html)]
            assert not leaked, f"seat {viewer} was sent {leaked}"
            # The JSON names each player's Chief (everyone saw the draft); where a Chief lies is not told.
            chiefs = {seat["chief"] for seat in state["seats"]}
            for text in api_texts(client, game_id, tokens.get(viewer)):
                leaked = [card for card in secrets if card not in chiefs and re.search(rf"\b{re.escape(card)}\b", text)]
                assert not leaked, f"seat {viewer} was sent {leaked}"
            if mode == "duel" and not over:
                assert "worth" not in html  # no face-down egg value
        if not random_move(app, game_id, rng):
            break


# ---------------------------------------------------------------------------------------------------
# Indistinguishable: give a face-down card another value (its stored value and its card's period both move),
# and every page, fragment and JSON answer a viewer gets stays the same, byte for byte: no colour, class, title
# or size derived from the value. Sorted by period, the strongest case: a period's colour is on every card.

TOKENS = re.compile(r'(name="csrf_token"[^>]*value="|<meta name="csrf-token" content=")[^"]*')


def scrub(text):
    """Return a page without its CSRF tokens, which are signed anew at every request."""
    return TOKENS.sub(r"\1", text)


def moved_to_another_period(app, model, row_id, card):
    """Give `card` another period in the stored game or round and in the card database."""
    from webapp.models import Card, Period

    with app.app_context():
        row = db.session.get(model, row_id)
        state = json.loads(json.dumps(row.state))
        values = state["values"]
        other = next(p for p in db.session.scalars(db.select(Period).order_by(Period.position))
                     if p.position != values[card])
        values[card] = other.position
        # As if it had been dealt so: the same game at the same version (which every move, not a deal, changes).
        db.session.execute(db.update(model).where(model.id == row_id).values(state=state))
        db.session.scalar(db.select(Card).where(Card.slug == card)).first_period = other.name
        db.session.commit()


def fetched(requests):
    """Return what each (client, url, headers) answers, its CSRF tokens left out."""
    return [scrub(client.get(url, headers=headers or {}).get_data(as_text=True)) for client, url, headers in requests]


def assert_indistinguishable(app, requests, model, row_id, card):
    before = fetched(requests)
    moved_to_another_period(app, model, row_id, card)
    for url_and_body in zip([url for _, url, _ in requests], before, fetched(requests), strict=True):
        url, was, now = url_and_body
        assert was == now, f"{url} changed with a face-down card's period"


@pytest.mark.parametrize("whose", ["own hand", "other hand", "deck"])
def test_a_cardline_seat_cannot_tell_a_face_down_cards_period(app, whose):
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    with app.app_context():
        game, tokens = start_cardline("dinosaurs", "period", 3, seats, "table")
        game_id, state = game.id, game.state
    card = {"own hand": state["hands"][0][0], "other hand": state["hands"][1][0], "deck": state["deck"][0]}[whose]
    ada = browser_of(app, game_id, 0, tokens[0])
    requests = [(ada, f"/play/cardline/{game_id}?seat=0", None),
                (ada, f"/api/games/{game_id}", {"Authorization": f"Bearer {tokens[0]}"}),
                (ada, f"/api/games/{game_id}/actions", {"Authorization": f"Bearer {tokens[0]}"})]
    assert_indistinguishable(app, requests, Game, game_id, card)


def test_a_practice_card_waiting_to_be_placed_shows_nothing_of_its_period(app, client):
    from webapp.play.adapters.practice import start_practice

    with app.app_context():
        game, tokens = start_practice("dinosaurs", "period", 5, "line")
        game_id, card = game.id, store.observe(game, 0)["current"]
    player = browser_of(app, game_id, 0, tokens[0])
    assert_indistinguishable(app, [(player, f"/play/practice/{game_id}", None)], Game, game_id, card)


@pytest.mark.parametrize("round_format", ["class_line", "team"])
def test_a_class_cannot_tell_a_face_down_cards_period_on_any_screen(classroom, app, teacher, round_format):
    from webapp.models import Round

    url, code, (ada, ben) = classroom.play_started(teacher, ("Ada", "Ben"), format=round_format, characteristic="period",
                                                   turn_seconds="0", count="4", hand_size="3", teams="2")
    rnd = classroom.round(url)
    obs = classroom_observation(app, rnd, team=0)
    card = obs["hand"][0] if round_format == "team" else obs["current"]
    requests = [(student, f"/r/{code}{page}", None) for student in (ada, ben) for page in ("", "/panel")]
    requests += [(teacher, url, None), (teacher, url + "/panel", None), (teacher, url + "/stage", None),
                 (teacher, url + "/stage/panel", None)]
    assert_indistinguishable(app, requests, Round, rnd.id, card)


def classroom_observation(app, rnd, team=None):
    """Return what a team (or the class) sees of a round, as its format gives it."""
    from webapp.classroom.formats import format_of

    with app.app_context():
        return format_of(rnd).observe(rnd, team)


def swapped(app, game_id, first, second):
    """Swap two cards in a stored game's state, wherever they lie (a hand, a pile, the Jungle)."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        text = json.dumps(game.state)
        marker = "\u0000swap\u0000"
        state = json.loads(text.replace(f'"{first}"', marker).replace(f'"{second}"', f'"{first}"')
                           .replace(marker, f'"{second}"'))
        db.session.execute(db.update(Game).where(Game.id == game_id).values(state=state))  # dealt so: same version
        db.session.commit()


def test_a_stack_seat_cannot_tell_two_hidden_cards_apart(app):
    game_id, tokens = start(app, "stack", {"players": ["Ada", "Ben"]}, [{"name": n, "kind": "human"} for n in ("Ada", "Ben")])
    state = stored_state(app, game_id)
    other = next(card for card in state["hands"][1] if card not in state["draw"])
    deck = next(card for card in state["draw"] if stack_kind(card) != stack_kind(other))
    ada = browser_of(app, game_id, 0, tokens[0])
    requests = [(ada, f"/play/stack/{game_id}?seat=0", None),
                (ada, f"/api/games/{game_id}", {"Authorization": f"Bearer {tokens[0]}"})]
    before = fetched(requests)
    swapped(app, game_id, other, deck)  # Ben's card and one of the draw pile trade places
    assert fetched(requests) == before


def test_a_dinoblivion_seat_cannot_tell_two_hidden_cards_apart(app):
    config = {"mode": "duel", "players": ["Ada", "Ben"], "end_trigger": "dinosaur_decks"}
    game_id, tokens = start(app, "dinoblivion", config, [{"name": n, "kind": "human"} for n in ("Ada", "Ben")])
    state = stored_state(app, game_id)
    hidden = GAMES["dinoblivion"].hidden(state, 0)
    # The order of the face-down Jungle is the secret (what is in it, and in each deck, is public knowledge).
    other = next(card for card in state["jungle"] if card in hidden)
    jungle = next(card for card in state["jungle"] if card in hidden and card.rsplit("-", 1)[0] != other.rsplit("-", 1)[0])
    ada = browser_of(app, game_id, 0, tokens[0])
    requests = [(ada, f"/play/dinoblivion/{game_id}?seat=0", None),
                (ada, f"/api/games/{game_id}", {"Authorization": f"Bearer {tokens[0]}"})]
    before = fetched(requests)
    swapped(app, game_id, other, jungle)  # two cards of the Jungle trade places
    assert fetched(requests) == before


def stack_kind(card):
    """Return what a Stack-O-Saurus card is (its kind and colour), so a swap changes something real."""
    from webapp.games import stack

    return stack.KIND[card]


def changed(app, model, row_id, change):
    """Apply `change(state)` to a stored game's or round's state (a copy of it, stored back)."""
    with app.app_context():
        row = db.session.get(model, row_id)
        state = json.loads(json.dumps(row.state))
        change(state)
        db.session.execute(db.update(model).where(model.id == row_id).values(state=state))  # dealt so: same version
        db.session.commit()


def class_screens(teacher, url, code, students):
    """Every page and fragment a round's students and teacher fetch while a card or question is asked."""
    requests = [(student, f"/r/{code}{page}", None) for student in students for page in ("", "/panel")]
    return requests + [(teacher, url + page, None) for page in ("", "/panel", "/stage", "/stage/panel")]


def test_a_class_cannot_tell_the_diet_of_the_card_to_sort(classroom, app, teacher):
    from webapp.models import Card, Round

    url, code, students = classroom.play_started(teacher, ("Ada", "Ben"), format="class_diet", turn_seconds="0",
                                                 count="4")
    rnd = classroom.round(url)
    card = rnd.state["cards"][rnd.state["turn"]]
    requests = class_screens(teacher, url, code, students)
    before = fetched(requests)
    other = next(diet for diet in ("carnivore", "herbivore", "omnivore") if diet != rnd.state["values"][card])
    changed(app, Round, rnd.id, lambda state: state["values"].__setitem__(card, other))
    with app.app_context():
        db.session.scalar(db.select(Card).where(Card.slug == card)).diet = other
        db.session.commit()
    assert fetched(requests) == before


def test_a_class_cannot_tell_which_option_of_a_live_quiz_question_is_right(classroom, app, teacher):
    from webapp.models import Round

    url, code = classroom.live_quiz(teacher)
    students = [classroom.join(code, name) for name in ("Ada", "Ben")]
    teacher.post(url + "/control", data={"action": "start"})
    rnd = classroom.round(url)
    question = rnd.state["questions"][rnd.state["turn"]]
    other = next(option["id"] for option in question["options"] if option["id"] != question["answer"])
    requests = class_screens(teacher, url, code, students)
    before = fetched(requests)
    changed(app, Round, rnd.id, lambda state: state["questions"][state["turn"]].__setitem__("answer", other))
    # Only the teacher's own panel may know the answer (the class's screens and the stage must not).
    teacher_only = {url, url + "/panel"}
    now = fetched(requests)
    assert [b for (_, where, _), b in zip(requests, before, strict=True) if where not in teacher_only] == \
        [n for (_, where, _), n in zip(requests, now, strict=True) if where not in teacher_only]


def test_a_homework_child_cannot_tell_the_period_of_the_card_to_place(classroom, app, teacher):
    from webapp.models import Student

    url, code = classroom.new_round(teacher, format="self_paced", characteristic="period", count="4")
    eve = classroom.join(code, "Eve")
    game_url = eve.get(f"/r/{code}").headers["Location"]
    teacher.post(url + "/control", data={"action": "start"})
    with app.app_context():
        game_id = db.session.scalar(db.select(Student.game_id).where(Student.nickname == "Eve"))
        card = store.observe(db.session.get(Game, game_id), 0)["current"]
    requests = [(eve, game_url, None), (teacher, url, None), (teacher, url + "/panel", None),
                (teacher, url + "/stage", None), (teacher, url + "/stage/panel", None)]
    assert_indistinguishable(app, requests, Game, game_id, card)
