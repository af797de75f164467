"""Names are names: one rule for students' nicknames, pupils' names and game seats (typed, joined by code or sent to
the API); look-alikes clash; a word list that sees through digits and spacing; no staff; dino names for the shy."""

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, select

from webapp.common import dino_names, nicknames
from webapp.extensions import db
from webapp.models import Game, JoinCode, Student

# Two hundred first names from many places, with the short words that hide in ordinary names (fat in Fatima,
# die in Diego, ass in Cassie and Hassan, tit in Titus, cum in Cumhur, kill in Killian, porn in Pornthip, shit in
# Shital, nazi in Nazia, dick in Dickens, bich in Bích) and the names another word list refuses (Willy, Wang, Yury,
# Len, Arian, Paddy, Guido, Fanny, Dong, Phuc).
COMMON_NAMES = [
    "Ava", "Ben", "Mia", "Dev", "Cassie", "Dickens", "Olivia", "Noah", "Emma", "Liam", "Sophia", "Lucas", "Amelia",
    "Oliver", "Isla", "Jack", "Grace", "Harry", "Chloe", "George",
    "Ella", "Jacob", "Lily", "Oscar", "Freya", "Charlie", "Poppy", "Alfie", "Ruby", "Thomas", "Evie", "Leo",
    "Daisy", "Archie", "Rosie", "Henry", "Millie", "Teddy", "Florence",
    "Fatima", "Fatma", "Hassan", "Assad", "Assia", "Aisha", "Omar", "Yusuf", "Zainab", "Ibrahim", "Maryam", "Ali",
    "Khadija", "Hamza", "Layla", "Mohammed", "Nazia", "Amir",
    "Diego", "Dieter", "Sofia", "Mateo", "Valentina", "Santiago", "Camila", "Alejandro", "Lucia", "Javier",
    "Carmen", "Pablo", "Elena", "Ines", "Nuno", "Joao", "Beatriz",
    "Titus", "Killian", "Kilian", "Cumhur", "Emre", "Ayse", "Mehmet", "Elif", "Burak", "Zeynep", "Deniz", "Can",
    "Selin", "Yusuf", "Arda", "Ebru",
    "Pornthip", "Somchai", "Malee", "Anong", "Niran", "Kanya", "Arthit", "Ploy", "Chai",
    "Shital", "Priya", "Arjun", "Aarav", "Ananya", "Rohan", "Diya", "Vihaan", "Saanvi", "Ishaan", "Kavya", "Aryan",
    "Arian", "Harsh", "Dhruv", "Meera", "Kumar", "Anika", "Pooja",
    "Wang", "Li", "Wei", "Fang", "Jing", "Ming", "Yan", "Hui", "Chen", "Xin", "Jun", "Lan", "Dong", "Mei", "Bao",
    "Phuc", "Bich", "Dung", "Ngoc", "Thao", "Huong", "Tuan", "Minh", "Linh", "Hoa", "Long",
    "Yury", "Ivan", "Olga", "Dmitri", "Natasha", "Sasha", "Anastasia", "Mikhail", "Katya", "Pavel", "Irina",
    "Nikolai",
    "Willy", "Woody", "Len", "Paddy", "Guido", "Fanny", "Maxi", "Nimrod", "Randy", "Benedick",
    "Kwame", "Kofi", "Ama", "Chidi", "Ngozi", "Adaeze", "Oluwaseun", "Tendai", "Wanjiru", "Thandiwe", "Amara",
    "Zuri", "Jabari", "Nia", "Sipho", "Lerato", "Femi", "Ayo",
    "Hana", "Yuki", "Haruto", "Sakura", "Riku", "Aoi", "Sota", "Yui", "Minjun", "Seoyeon", "Jiho", "Haeun",
    "Siobhan", "Sean", "Niamh", "Ciaran", "Aoife", "Eoin", "Saoirse", "Padraig", "Roisin", "Cian",
    "Lars", "Ingrid", "Sven", "Astrid", "Bjorn", "Freja", "Magnus", "Sigrid", "Nils", "Karin",
    "Noa", "Yael", "Eitan", "Tamar", "Ariel", "Maya",
    "Kai", "Leilani", "Keanu", "Moana", "Malia",
    "Tane", "Aroha", "Nikau", "Mere",
] + ["Zoë", "José", "Chloé", "Siobhán", "Seán", "Björn", "Łukasz", "Jürgen", "Anaïs", "François",
               "Çağla", "D'Angelo", "Jean-Luc", "Mary-Kate", "O’Neil", "Ava K.", "Ben N.", "Ana L.", "Di E.",
               "Ngọc", "Phúc", "Bích", "李明", "王芳", "Юлия", "Дмитрий", "Ελένη", "Γιώργος", "محمد", "فاطمة",
               "अर्जुन", "प्रिया", "さくら", "ハルト", "민준", "서연", "สมชาย", "נועה", "ნინო", "Արամ"]


def test_the_common_names_are_two_hundred_from_many_places():
    assert len(COMMON_NAMES) >= 200 and len(set(COMMON_NAMES)) >= 200


@pytest.mark.parametrize("name", COMMON_NAMES)
def test_common_first_names_pass(name):
    assert nicknames.problem(name) is None


@pytest.mark.parametrize(("name", "message"), [
    # the class's own examples
    ("sexy", nicknames.FRIENDLIER), ("b00bs", nicknames.FRIENDLIER), ("Ben is dumb", nicknames.FRIENDLIER),
    ("kill you", nicknames.FRIENDLIER), ("s e x", nicknames.FRIENDLIER), ("...", nicknames.LETTERS),
    ("- -", nicknames.LETTERS), ("Ms Rivera", nicknames.STAFF), ("Mr T", nicknames.STAFF), ("Mrs Li", nicknames.STAFF),
    ("Miss Amy", nicknames.STAFF), ("Sir", nicknames.STAFF), ("Dr Who", nicknames.STAFF), ("Teacher", nicknames.STAFF),
    ("Head teacher", nicknames.STAFF), ("Admin", nicknames.STAFF), ("Principal", nicknames.STAFF),
    ("Headteacher", nicknames.STAFF), ("T3acher", nicknames.STAFF), ("Mrs. Li", nicknames.STAFF),
    # letters, lengths and characters
    ("A", nicknames.LENGTH), ("x" * 21, nicknames.LENGTH), ("", nicknames.LENGTH), ("   ", nicknames.LENGTH),
    ("A1", nicknames.LETTERS), ("007", nicknames.LETTERS), ("<b>bold</b>", nicknames.CHARACTERS),
    ("Ada!", nicknames.CHARACTERS), ("Ada_Ben", nicknames.CHARACTERS), ("Rex 🦖", nicknames.CHARACTERS),
    # invisible, format, control, private-use, unassigned and half characters
    ("\u3164\u3164", nicknames.CHARACTERS), ("Ab\u3164", nicknames.CHARACTERS), ("\uffa0Ada", nicknames.CHARACTERS),
    ("\u115f\u1160Ab", nicknames.CHARACTERS), ("\u2800\u2800", nicknames.CHARACTERS),
    ("Ada\u200b", nicknames.CHARACTERS), ("Ada\u200d", nicknames.CHARACTERS), ("Ada\u202e", nicknames.CHARACTERS),
    ("Ada\u00ad", nicknames.CHARACTERS), ("Ada\ufeff", nicknames.CHARACTERS), ("Ada\U000e0041", nicknames.CHARACTERS),
    ("Ada\x07", nicknames.CHARACTERS), ("Ada\ue000", nicknames.CHARACTERS), ("Ada\u0378", nicknames.CHARACTERS),
    ("Ada\ufe0f", nicknames.CHARACTERS), ("Ada\u034f", nicknames.CHARACTERS), ("\u0301Ada", nicknames.CHARACTERS),
    ("Ada\ud800", nicknames.CHARACTERS), ("\ud800\udfff", nicknames.CHARACTERS), ("A\u0301\u0301\u0301\u0301\u0301da",
                                                                              nicknames.CHARACTERS),
    # look-alike alphabets in one word
    ("Аdа", nicknames.ALPHABETS), ("Pаblo", nicknames.ALPHABETS), ("Αlex", nicknames.ALPHABETS),
    # the old list, and what digits, doubled letters, spacing and look-alike letters hide
    ("Sh1thead", nicknames.FRIENDLIER), ("fuuuck", nicknames.FRIENDLIER), ("F u c k", nicknames.FRIENDLIER),
    ("Bitch", nicknames.FRIENDLIER), ("pussycat", nicknames.FRIENDLIER), ("Slut", nicknames.FRIENDLIER),
    ("Wh0re", nicknames.FRIENDLIER), ("Nigger", nicknames.FRIENDLIER), ("Nazi", nicknames.FRIENDLIER),
    ("Hitler", nicknames.FRIENDLIER), ("p0rn", nicknames.FRIENDLIER), ("Bastard", nicknames.FRIENDLIER),
    ("Wanker", nicknames.FRIENDLIER), ("Twat", nicknames.FRIENDLIER), ("Penis", nicknames.FRIENDLIER),
    ("Vagina", nicknames.FRIENDLIER), ("Asshole", nicknames.FRIENDLIER), ("Retard", nicknames.FRIENDLIER),
    ("Cunt", nicknames.FRIENDLIER), ("sexxxy", nicknames.FRIENDLIER), ("S3XY", nicknames.FRIENDLIER),
    ("sеxy", nicknames.ALPHABETS), ("Ki ll", nicknames.FRIENDLIER), ("ki11er", nicknames.FRIENDLIER),
    # aimed at a classmate
    ("Ben is stupid", nicknames.FRIENDLIER), ("Mia idiot", nicknames.FRIENDLIER), ("Loser", nicknames.FRIENDLIER),
    ("Ugly Ben", nicknames.FRIENDLIER), ("Fat Mia", nicknames.FRIENDLIER), ("Die Ben", nicknames.FRIENDLIER),
    ("I hate Ava", nicknames.FRIENDLIER), ("Dumbo", nicknames.FRIENDLIER), ("Moron", nicknames.FRIENDLIER),
    ("Boobies", nicknames.FRIENDLIER), ("Big Tits", nicknames.FRIENDLIER), ("Horny", nicknames.FRIENDLIER),
    # "Dick" is a real name, but in a class of children it is the joke; a Dick plays as Richard or Rick.
    ("Dick", nicknames.FRIENDLIER),
])
def test_names_that_are_not_names_are_refused_with_the_reason(name, message):
    assert nicknames.problem(name) == message


@pytest.mark.parametrize("name", ["Ava", "Rex", "Tiny Trike", "Swift Raptor", "Ada Lovelace", "R2D2", "Ava2",
                                  "Grape", "Peacock", "Essex", "Hancock", "Scunthorpe", "Therapist", "Skill",
                                  "Sussex", "Dino Fan", "Ivy", "Zoe", "Mrinal", "Sirius", "Adminah"])
def test_ordinary_names_and_words_that_hold_short_words_pass(name):
    assert nicknames.problem(name) is None


@pytest.mark.parametrize(("name", "teacher", "message"), [
    ("Rivera", "Ms Rivera", nicknames.TEACHERS_NAME), ("rivera", "Ms Rivera", nicknames.TEACHERS_NAME),
    ("R1vera", "Ms Rivera", nicknames.TEACHERS_NAME), ("Ri vera", "Ms Rivera", nicknames.TEACHERS_NAME),
    ("Rivera Rex", "Ms Rivera", nicknames.TEACHERS_NAME), ("Ms Rivera", "Ms Rivera", nicknames.STAFF),
    ("Ana Rivera", "Ana Rivera", nicknames.TEACHERS_NAME), ("Ivanova", "Мs Ivanova", nicknames.TEACHERS_NAME),
    ("Иванова", "Иванова", nicknames.TEACHERS_NAME),
    ("Ana", "Ana Rivera", None),  # a child who shares the teacher's first name keeps it
    ("Ava", "Ms Rivera", None), ("Rex", "T", None),
])
def test_the_teachers_own_name_is_refused_in_their_round(name, teacher, message):
    assert nicknames.problem(name, staff_names=[teacher]) == message
    assert nicknames.problem(name) in (None, nicknames.STAFF)


@pytest.mark.parametrize(("one", "other"), [
    ("Ada", "Аdа"), ("Ava", "Ava."), ("Ava", " ava "), ("Mia Z", "mia   z"), ("Coco", "Сосо"), ("Bob", "B0b"),
    ("Zoe", "ZOE"), ("Ana", "Ａｎａ"), ("Ava K.", "Ava K"), ("O'Neil", "O’Neil"), ("Arnav", "Amav"),
])
def test_look_alikes_share_a_key(one, other):
    assert nicknames.key(one) == nicknames.key(other)


@pytest.mark.parametrize(("one", "other"), [("Ada", "Ida"), ("Zoe", "Zoë"), ("Ben", "Bea"), ("李明", "王芳")])
def test_different_names_have_different_keys(one, other):
    assert nicknames.key(one) != nicknames.key(other)


def test_keys_fit_their_columns_and_stay_apart():
    long_names = ["ß" * 20, "ß" * 19 + "a", "ﬀ" * 20, "Ǆ" * 20]
    keys = [nicknames.key(name) for name in long_names]
    assert all(len(key) <= nicknames.KEY_LENGTH for key in keys) and len(set(keys)) == len(keys)
    assert nicknames.key("Mia") == "mia" and nicknames.key("Ava.") == "ava"  # readable, and sorted as the names are


@given(st.text(st.characters(exclude_categories=()), max_size=60))  # lone surrogates included
def test_problem_and_key_never_raise_on_any_text(text):
    reason = nicknames.problem(text)
    assert reason is None or isinstance(reason, str)
    if reason is None:  # a good name is still refused as the teacher's own
        assert nicknames.problem(text, staff_names=[text]) in (nicknames.TEACHERS_NAME, nicknames.STAFF)
    assert len(nicknames.key(text)) <= nicknames.KEY_LENGTH


# Latin letters that have a Cyrillic twin, lower case: a c e o p x y.
CYRILLIC_TWINS = str.maketrans("aceopxy", "асеорху")
latin_words = st.lists(st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6), min_size=1, max_size=3)


@given(latin_words, st.data())
def test_names_that_differ_only_in_case_spaces_dots_or_cyrillic_twins_share_a_key(words, data):
    name = " ".join(words)
    cased = "".join(data.draw(st.sampled_from([char.lower(), char.upper()])) for char in name)
    spaced = "  ".join(f" {word} " for word in name.split(" "))
    dotted = name + data.draw(st.sampled_from([".", "..", " .", ""]))
    twinned = "".join(data.draw(st.sampled_from([char, char.translate(CYRILLIC_TWINS)])) for char in name)
    for variant in (cased, spaced, dotted, twinned, twinned.upper()):
        assert nicknames.key(variant) == nicknames.key(name), variant


# --- dino names ---------------------------------------------------------------------------------

def test_the_generator_makes_many_names_and_every_one_is_a_good_name():
    names = dino_names.all_names()
    assert len(dino_names.ADJECTIVES) >= 40 and len(dino_names.ANIMALS) >= 40
    assert len(names) == len(set(names)) == len({nicknames.key(name) for name in names})
    assert [name for name in names if nicknames.problem(name) is not None] == []
    assert "Swift Raptor" in names and "Tiny Trike" in names


def test_suggestions_differ_and_are_names_the_generator_makes():
    offered = dino_names.suggestions(6, random.Random(3))
    assert len(set(offered)) == 6 and all(dino_names.as_made(name) == name for name in offered)
    assert offered == dino_names.suggestions(6, random.Random(3))


@pytest.mark.parametrize(("typed", "made"), [("Swift Raptor", "Swift Raptor"), (" swift   raptor ", "Swift Raptor"),
                                             ("Ada", None), ("Swift", None), ("Swift Raptor Rex", None),
                                             ("Raptor Swift", None), ("Swift Аda", None)])
def test_only_a_name_the_generator_can_make_is_a_dino_name(typed, made):
    assert dino_names.as_made(typed) == made


# --- in rounds ----------------------------------------------------------------------------------

def join(app, code, **data):
    """Post the join form from a new browser; return the response."""
    return app.test_client().post("/join", data={"code": code, **data})


def students(app, url):
    with app.app_context():
        return db.session.scalars(select(Student.nickname).where(Student.round_id == int(url.rsplit("/", 1)[1]))).all()


def test_a_look_alike_of_a_student_in_the_round_is_refused(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    classroom.join(code, "Ada")
    classroom.join(code, "Coco")
    classroom.join(code, "Ava")
    mixed = join(app, code, name="Аdа")  # Cyrillic А and а
    assert mixed.status_code == 400 and "one alphabet" in mixed.get_data(as_text=True)
    for look_alike in ("Сосо", "Ava.", "ADA"):  # all Cyrillic, a dot, capitals
        response = join(app, code, name=look_alike)
        assert response.status_code == 409, look_alike
        assert "already has that nickname, or one that looks the same" in response.get_data(as_text=True)
    assert sorted(students(app, url)) == ["Ada", "Ava", "Coco"]


@pytest.mark.parametrize(("name", "message"), [("sexy", "friendlier"), ("Teacher", "not a title"),
                                               ("\u3164\u3164", "letters, digits"), ("...", "at least 2 letters")])
def test_joining_a_round_under_a_name_that_is_not_a_name_is_refused_beside_the_field(classroom, app, teacher, name,
                                                                                      message):
    url, code = classroom.new_round(teacher)
    response = join(app, code, name=name)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert students(app, url) == []


def test_the_teachers_own_name_is_refused_in_their_round_and_when_they_rename(classroom, app):
    rivera = app.test_client()
    classroom.register(rivera, email="rivera@school.org", name="Ms Rivera")
    url, code = classroom.new_round(rivera)
    for name, message in (("Rivera", "That is your teacher"), ("Ms Rivera", "not a title"), ("R1vera", "That is your")):
        response = join(app, code, name=name)
        assert response.status_code == 400 and message in response.get_data(as_text=True), name
    classroom.join(code, "Ben")
    with app.app_context():
        ben = db.session.scalar(select(Student.id).where(Student.nickname == "Ben"))
    for name in ("Rivera", "b00bs"):
        assert rivera.post(f"{url}/students/{ben}", data={"action": "rename", "value": name}).status_code == 400
    assert students(app, url) == ["Ben"]


def test_the_join_page_offers_dino_names_that_work_without_javascript(classroom, app, teacher):
    url, code = classroom.new_round(teacher)
    page = app.test_client().get("/join").get_data(as_text=True)
    offered = re.findall(r'name="dino_name" type="radio" value="([^"]+)"', page)
    assert len(offered) == dino_names.SUGGESTIONS and all(dino_names.as_made(name) == name for name in offered)
    assert 'name="name"' in page and "Show other dino names" in page
    # The folded picker's summary names it on screen; its legend names the group only for a screen reader.
    assert "<summary>Or pick a dino name for me</summary>" in page
    assert '<legend class="visually-hidden">Or pick a dino name for me</legend>' in page
    picked = join(app, code, name="", dino_name=offered[2])
    assert picked.status_code == 302 and students(app, url) == [offered[2]]
    forged = join(app, code, name="Ada", dino_name="Ada")
    assert forged.status_code == 400 and "Pick one of the dino names offered" in forged.get_data(as_text=True)
    nothing = join(app, code, name="")
    assert nothing.status_code == 400 and "Type your name, or pick a dino name" in nothing.get_data(as_text=True)


def test_a_round_of_dino_names_refuses_a_typed_name_and_takes_a_generated_one(classroom, app, teacher):
    url, code = classroom.new_round(teacher, dino_names="y")
    assert classroom.round(url).settings["dino_names"] is True
    # The set-up form shows the setting when the round is changed; a plain round does not have it.
    assert re.search(r'checked[^>]*id="dino_names"|id="dino_names"[^>]*checked', teacher.get(f"{url}/edit").get_data(
        as_text=True))
    plain_url, _ = classroom.new_round(teacher)
    assert classroom.round(plain_url).settings["dino_names"] is False
    page = app.test_client().get(f"/join?code={code}").get_data(as_text=True)
    assert 'name="dino_name"' in page and "No, the name I typed" not in page
    assert "<legend>Pick your dino name</legend>" in page  # no folded picker: the legend is what is shown
    typed = join(app, code, name="Ada")
    assert typed.status_code == 400
    assert "everyone plays under a dino name" in typed.get_data(as_text=True)
    assert 'name="dino_name"' in typed.get_data(as_text=True)  # the names to pick from are on the answer
    assert join(app, code, name="Swift Raptor").status_code == 302  # typed exactly as the generator makes it
    picked = join(app, code, dino_name="Tiny Trike")
    assert picked.status_code == 302
    assert sorted(students(app, url)) == ["Swift Raptor", "Tiny Trike"]


def test_a_class_round_ignores_dino_names(classroom, app, teacher):
    class_url, pupils = classroom.new_class(teacher)
    url, code = classroom.class_round(teacher, class_url, dino_names="y")
    assert classroom.round(url).settings["dino_names"] is False
    classroom.join_as_pupil(code, pupils["Ava K."])
    assert students(app, url) == ["Ava K."]


@pytest.mark.parametrize(("roster", "message"), [("Ms Rivera", "not a title"), ("Аva Kowalski", "one alphabet"),
                                                 ("Ben Ng\nBea Ng\nZoë Smith", None), ("Sexy Smith", "friendlier")])
def test_pupils_names_follow_the_same_rule(classroom, app, teacher, roster, message):
    response = teacher.post("/teach/classes/", data={"name": "7B", "roster": roster})
    if message:
        assert response.status_code == 400 and message in response.get_data(as_text=True)
    else:
        assert response.status_code == 302


# --- game seats ---------------------------------------------------------------------------------

def game_count(app):
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game))


@pytest.mark.parametrize(("name", "message"), [("\\ud800", None), ("Ada\\u200b", "letters, digits"),
                                               ("Teacher", "not a title"), ("b00bs", "friendlier"), ("A", "2 to 20")])
def test_an_api_seat_name_that_is_not_a_name_is_a_400_and_nothing_is_stored(app, client, name, message):
    games = game_count(app)
    body = '{"deck": "dinosaurs", "characteristic": "mass", "seats": [{"name": "NAME"}, {"name": "Ben"}]}'.replace(
        "NAME", name)
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code == 400 and (message is None or message in response.get_json()["error"])
    assert game_count(app) == games
    assert client.get("/play/").status_code == 200


def test_api_seats_may_not_share_a_name_or_a_look_alike(app, client):
    response = client.post("/api/games", json={"seats": [{"name": "Ada"}, {"name": "Аda", "kind": "hard"}]})
    assert response.status_code == 400  # Cyrillic А: one alphabet per word
    response = client.post("/api/games", json={"seats": [{"name": "Ava"}, {"name": "ava.", "kind": "hard"}]})
    assert response.status_code == 400 and "give each seat its own name" in response.get_json()["error"]
    created = client.post("/api/games", json={"seats": [{"name": " Ava  K. "}, {"name": "Rex", "kind": "hard"}]})
    assert created.status_code == 201 and created.get_json()["seats"][0]["name"] == "Ava K."


def remote_game(app, client):
    """Create an API game with a seat for someone joining by code; return (game id, join code)."""
    game = client.post("/api/games", json={"seats": [{"name": "Ada"}, {"name": "Ben", "kind": "remote"}]}).get_json()
    with app.app_context():
        return game["id"], db.session.scalar(select(JoinCode.code).where(JoinCode.game_id == game["id"]))


def test_a_seat_joined_by_code_follows_the_nickname_rule(app, client):
    game_id, code = remote_game(app, client)
    for name, status, message in (("sexy", 400, "friendlier"), ("Ms Rivera", 400, "not a title"),
                                  ("Аdа", 400, "one alphabet"), ("ada.", 409, "looks the same")):
        response = join(app, code, name=name)
        assert response.status_code == status and message in response.get_data(as_text=True), name
    assert join(app, code, dino_name="Happy Dodo").status_code == 302
    with app.app_context():
        assert [seat["name"] for seat in db.session.get(Game, game_id).seats] == ["Ada", "Happy Dodo"]


@pytest.mark.parametrize(("names", "message"), [(("Teacher", "Ben"), "not a title"), (("Ada", "Аda"), "one alphabet"),
                                                (("Ava", "AVA"), "Another seat has this name"),
                                                (("\u3164\u3164", "Ben"), "letters, digits")])
def test_seat_names_typed_on_a_new_game_form_follow_the_rule(client, names, message):
    data = {"deck": "dinosaurs", "characteristic": "mass", "hand_size": "4", "players": "2",
            "seats-0-name": names[0], "seats-0-kind": "human", "seats-1-name": names[1], "seats-1-kind": "human",
            "seats-2-name": "b00bs"}  # a seat not in play is not checked
    response = client.post("/play/cardline/new", data=data)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    del data["seats-2-name"]
    data["seats-0-name"], data["seats-1-name"] = "Ada", "Ben"
    assert client.post("/play/cardline/new", data=data).status_code == 302



def test_in_an_open_round_the_dino_names_are_folded_away_until_asked_for(app, classroom, teacher):
    _url, code = classroom.new_round(teacher)
    page = app.test_client().get(f"/join?code={code}").get_data(as_text=True)
    assert '<details class="dino-picker">' in page  # closed: the name field and Join come first
    more = app.test_client().get(f"/join?code={code}&more=1").get_data(as_text=True)
    assert '<details class="dino-picker" open>' in more
