"""The encyclopedia pages: grid, filters, card faces, units, mistake reports, errors."""

import re

import pytest
from sqlalchemy import select

from webapp import create_app
from webapp.extensions import db
from webapp.models import MistakeReport


def page(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def test_home_links_every_section(client):
    html = page(client, "/")
    for href in ("/cards/", "/periods"):
        assert f'href="{href}' in html
    assert "Stegosaurus" in html and "further in time" in html
    for game in ("Cardline", "Stack-O-Saurus", "Dinoblivion"):
        assert game in html


def test_grid_shows_a_page_of_cards_with_links(client):
    html = page(client, "/cards/")
    assert len(re.findall(r'class="card-tile"', html)) == 24
    assert "Page 1 of" in html
    assert 'href="/cards/?page=2"' in html or "page=2" in html


def test_search_by_scientific_name(client):
    html = page(client, "/cards/?q=Tyrannosaurus")
    assert 'href="/cards/tyrannosaurus"' in html


def test_filter_error_is_shown_beside_the_field(client):
    html = page(client, "/cards/?min_mass=lots", 400)
    assert 'id="min_mass-error"' in html
    assert 'aria-invalid="true"' in html


def test_page_past_the_end_is_a_friendly_404(client):
    html = page(client, "/cards/?page=500", 404)
    assert "no page 500" in html
    assert "Back to the start" in html


def test_unknown_card_is_a_friendly_404(client):
    html = page(client, "/cards/no-such-beast", 404)
    assert "no-such-beast" in html and "<h1>" in html


def test_card_page_shows_both_faces_and_sources(client):
    html = page(client, "/cards/stegosaurus")
    assert "Front" in html and "Back: characteristics" in html
    assert "<svg" in html and 'aria-label="Silhouette of Stegosaurus"' in html
    assert "Jurassic" in html
    assert "Size next to a person" in html
    assert 'class="sources"' in html and "<a href=\"http" in html
    assert "Report a mistake" in html


def test_living_animal_shows_lifespan_and_risk(client):
    slug = client.get("/api/cards?deck=animals&per_page=1").get_json()["items"][0]["slug"]
    html = page(client, f"/cards/{slug}")
    assert "Lifespan" in html and "Extinction risk" in html
    assert "Living today" in html


def test_units_toggle_switches_to_imperial_and_is_remembered(client):
    metric = page(client, "/cards/tyrannosaurus")
    assert re.search(r"\d m long <span class=\"measure\">", metric)
    imperial = page(client, "/cards/tyrannosaurus?units=imperial")
    assert re.search(r"\d ft long <span class=\"measure\">", imperial)
    assert "tons" in imperial
    remembered = page(client, "/cards/stegosaurus")
    assert " ft " in remembered


def test_mistake_report_is_stored(app, client):
    response = client.post("/cards/stegosaurus", data={
        "field": "mass", "message": "The weight differs from the museum's figure.",
        "suggested_source": "NHM Dino Directory"})
    assert response.status_code == 302
    follow = client.get(response.headers["Location"])
    assert "Thank you" in follow.get_data(as_text=True)
    with app.app_context():
        report = db.session.scalar(select(MistakeReport))
    assert report.card_slug == "stegosaurus" and report.field == "mass"
    assert report.status == "open"


@pytest.mark.parametrize(("data", "message"), [
    ({"field": "mass", "message": "short"}, "between 10 and 2000"),
    ({"field": "mass", "message": ""}, "Please say what is wrong."),
    ({"field": "colour", "message": "Something is wrong here."}, "Not a valid choice"),
])
def test_bad_report_shows_error_beside_field_and_stores_nothing(app, client, data, message):
    response = client.post("/cards/stegosaurus", data=data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert 'class="field-error"' in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(MistakeReport)) is None


def test_report_form_needs_csrf_token(loaded_database_url):
    app = create_app({"TESTING": True, "SECRET_KEY": "k", "SQLALCHEMY_DATABASE_URI": loaded_database_url})
    client = app.test_client()
    response = client.post("/cards/stegosaurus", data={"field": "mass", "message": "No token was sent."})
    assert response.status_code == 400
    assert "CSRF" in response.get_data(as_text=True)
    html = client.get("/cards/stegosaurus").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    ok = client.post("/cards/stegosaurus", data={"csrf_token": token, "field": "mass",
                                                   "message": "Token sent this time."})
    assert ok.status_code == 302
    with app.app_context():
        db.engine.dispose()


def test_periods_page_lists_the_periods_to_scale(client):
    html = page(client, "/periods")
    assert html.count('class="period-row"') == 12
    assert "538.8" in html and "542" in html
    css = client.get("/periods.css")
    assert css.headers["Content-Type"].startswith("text/css")
    assert ".period-jurassic { background-color: #34B2C9" in css.get_data(as_text=True)
    again = client.get("/periods.css", headers={"If-None-Match": css.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("url", ["/", "/cards/", "/cards/tyrannosaurus", "/periods"])
def test_pages_fetch_nothing_from_elsewhere(client, url):
    html = page(client, url)
    # Links to the works a card cites go elsewhere; nothing the page loads (scripts, pictures, styles) does.
    assert not re.search(r'src="(https?:)?//', html)
    assert not re.search(r'<link[^>]+href="(https?:)?//', html)


def test_unexpected_error_is_a_friendly_500(app):
    @app.get("/boom")
    def boom():
        raise RuntimeError("secret detail")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = app.test_client().get("/boom")
    assert response.status_code == 500
    body = response.get_data(as_text=True)
    assert "Something went wrong" in body and "secret detail" not in body and "Traceback" not in body


@pytest.mark.parametrize("query", [
    "page=1000000000", "page=-1", "per_page=0", "min_length=abc", "min_mass=1e400",
    "deck=<script>", "period=' OR 1=1 --", "sort=__class__", "order=1", "max_length=nan",
])
def test_nonsense_filters_get_a_400_page_with_the_error_beside_the_field(client, query):
    html = page(client, f"/cards/?{query}", 400)
    assert 'class="field-error"' in html
    assert "<script>" not in html


@pytest.mark.parametrize("slug", ["<script>alert(1)</script>", "' OR '1'='1", "a" * 300])
def test_odd_card_slugs_are_a_404(client, slug):
    response = client.get(f"/cards/{slug}")
    assert response.status_code == 404
    assert "<script>alert" not in response.get_data(as_text=True)


def test_oversized_report_is_refused_with_413(client):
    response = client.post("/cards/stegosaurus", data={"field": "other", "message": "x" * 400_000})
    assert response.status_code == 413
    assert "too much" in response.get_data(as_text=True)


def test_grid_offers_the_unit_toggle(client):
    html = page(client, "/cards/?deck=animals")
    assert "units=imperial" in html
    assert " lb" in page(client, "/cards/?deck=animals&units=imperial")


def test_card_page_gives_the_range_of_estimates_and_the_value_used(client):
    html = page(client, "/cards/triceratops")
    # Each end of the range names the work behind it, in a span beside it.
    text = re.sub(r' <span class="cited">\(.*?\)</span>', "", html, flags=re.DOTALL)
    assert re.search(r"Published estimates: [\d.,]+ t to [\d.,]+ t; this card uses [\d.,]+ t\.", text)
    assert re.search(r"Published estimates: [\d.,]+ m to [\d.,]+ m; this card uses [\d.,]+ m\.", text)
    assert "m long" in html and "(total length)" in html


def test_prehistoric_card_page_gives_its_name_place_and_habitat(client):
    html = page(client, "/cards/stegosaurus")
    assert re.search(r"Say it <strong class=\"pronunciation\">[A-Za-z-]+</strong>", html)
    assert "The name means “" in html
    assert re.search(r"Named by [^<]+ in 18\d\d\.", html)
    assert "<dt>Where</dt><dd>Fossils found in North America" in html and "United States" in html
    assert "On land" in html or "on land" in html


def test_living_card_page_says_where_it_lives(client):
    html = page(client, "/cards/blue-whale")
    assert "<dt>Where</dt><dd>Lives in" in html and "Ocean" in html and "in the sea" in html


@pytest.mark.parametrize(("query", "present", "absent"), [
    ("continent=Antarctica", "Cryolophosaurus", "Tyrannosaurus"),
    ("continent=Oceania&deck=dinosaurs", "Diprotodon", "Tyrannosaurus"),
    ("habitat=air&deck=dinosaurs", "Pteranodon", "Tyrannosaurus"),
    ("habitat=sea&deck=dinosaurs&per_page=100", "Mosasaurus", "Triceratops"),
])
def test_encyclopedia_filters_by_continent_and_habitat(client, query, present, absent):
    html = page(client, f"/cards/?{query}")
    assert present in html and f">{absent}<" not in html


@pytest.mark.parametrize("query", ["continent=Atlantis", "habitat=space"])
def test_unknown_place_or_habitat_is_an_error_beside_the_field(client, query):
    html = page(client, f"/cards/?{query}", status=400)
    assert "Not a valid choice" in html or "not one of" in html


def test_api_card_lists_places_and_ranges(client):
    data = client.get("/api/cards/tyrannosaurus").get_json()
    assert "North America" in data["continents"] and "land" in data["habitat"]
    assert data["mass_low_kg"] <= data["mass_kg"] <= data["mass_high_kg"]
    assert data["named_year"] == 1905


@pytest.mark.parametrize("query", ["T. rex", "T-rex", "trex", "t rex", "Tyranosaurus", "TYRANNOSAURUS"])
def test_search_finds_tyrannosaurus_by_nickname_case_or_small_typo(client, query):
    html = page(client, f"/cards/?q={query}")
    tiles = re.findall(r'class="card-tile".*?href="/cards/([\w-]+)"', html, flags=re.DOTALL)
    assert tiles and tiles[0] == "tyrannosaurus", tiles[:5]


def test_search_ranks_whole_words_and_the_group_before_parts_of_words(client):
    html = page(client, "/cards/?q=bird&per_page=100")
    names = re.findall(r'href="/cards/([\w-]+)"', html)
    tiles = [n for n in dict.fromkeys(names) if n not in ("",)]
    groups = {"seven-spot-ladybird": "insect", "goliath-birdeater": "arachnid"}
    first_part_only = min(tiles.index(slug) for slug in groups)
    assert tiles.index("bald-eagle") < first_part_only and tiles.index("ostrich") < first_part_only


def test_home_leads_a_student_to_practice_the_daily_challenge_the_endless_line_and_the_quiz_in_one_tap(client):
    html = page(client, "/")
    start = html.index('id="on-your-own"')
    own = html[start:html.index("</section>", start)]
    for href in ('href="/play/practice/new"', 'href="/play/practice/daily"', 'href="/play/practice/endless"',
                 'href="/quiz/new"'):
        assert href in own


@pytest.mark.parametrize(("query", "opened"), [("", False), ("?q=rex", False), ("?deck=animals", True),
                                               ("?min_mass=abc", True), ("?sort=mass", True)])
def test_more_filters_stay_folded_until_one_is_in_use(client, query, opened):
    html = client.get(f"/cards/{query}").get_data(as_text=True)
    assert ('<details class="more-filters wide" open>' in html) == opened


@pytest.mark.parametrize(("slug", "words"), [
    ("stegosaurus", "a herbivore, an animal that eats plants"),
    ("baryonyx", "a carnivore, an animal that eats other animals (more exactly a piscivore, an animal that eats mostly fish)"),
])
def test_card_page_explains_diet_words(client, slug, words):
    html = client.get(f"/cards/{slug}").get_data(as_text=True)
    assert words in html


def test_the_period_strip_names_each_period_by_its_own_ics_symbol(client):
    html = client.get("/cards/stegosaurus").get_data(as_text=True)
    codes = re.findall(r'<span class="timescale-code">(\w+)</span>', html)
    assert len(codes) == 12 == len(set(codes)) and codes[0] == "Cm" and codes[4] == "C"


def test_the_quiz_is_part_of_play_in_the_menu(client):
    html = client.get("/quiz/new").get_data(as_text=True)
    assert re.search(r'href="/play/"\s+aria-current="page"', html) and not re.search(r'href="/lessons/"\s+aria-current', html)


@pytest.mark.parametrize(("typed", "finds"), [("shark", "megalodon"), ("sharks", "whale-shark"),
                                              ("sea scorpion", "pterygotus"), ("terror bird", "titanis"),
                                              ("dino", "stegosaurus")])
def test_words_for_a_kind_of_animal_find_the_animals_they_name(client, typed, finds):
    found = client.get("/api/cards", query_string={"q": typed, "per_page": 100}).get_json()["items"]
    assert finds in [card["slug"] for card in found]


def test_a_name_typed_a_little_wrong_is_answered_with_the_card_meant(client):
    html = client.get("/cards/", query_string={"q": "megladon"}).get_data(as_text=True)
    assert 'Did you mean <a href="/cards/?q=Megalodon">Megalodon</a>?' in html
