"""Timelines and charts: the figure data, the endpoints, bad input, and plotly.js served locally."""

import gzip
import json
import math
import re

import plotly
import pytest

from webapp.extensions import db
from webapp.models import Card, Period


def figure(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    return response.get_json()


def trace_named(fig, row):
    return next(t for t in fig["data"] if t.get("y") and t["y"][0] == row and t["type"] == "bar")


def test_periods_and_eras_match_the_ics_chart(app, client):
    fig = figure(client, "/api/figures/timeline?width=1600")
    periods = trace_named(fig, "Periods")
    with app.app_context():
        rows = db.session.query(Period).order_by(Period.position).all()
        expected = [(p.start_ma, p.end_ma, p.color_hex) for p in rows]
    got = [(round(b + x, 6), b, c) for b, x, c in zip(periods["base"], periods["x"], periods["marker"]["color"])]
    assert got == [(round(s, 6), e, c) for s, e, c in expected]
    assert periods["text"][:2] == ["Cambrian", "Ordovician"] and [d[0] for d in periods["customdata"]][-1] == "Quaternary"
    eras = trace_named(fig, "Eras")
    assert eras["text"] == ["Paleozoic", "Mesozoic", "Cenozoic"]
    assert [round(b + x, 3) for b, x in zip(eras["base"], eras["x"])] == [538.8, 251.902, 66.0]


def test_card_bars_match_the_cards_dates(app, client):
    fig = figure(client, "/api/figures/timeline?cards=stegosaurus,tyrannosaurus,dimetrodon")
    bars = next(t for t in fig["data"] if t["type"] == "bar" and t["y"][0] not in ("Eras", "Periods"))
    with app.app_context():
        cards = {c.common_name: c for c in db.session.query(Card).filter(
            Card.slug.in_(["stegosaurus", "tyrannosaurus", "dimetrodon"]))}
    assert bars["y"] == ["Dimetrodon", "Stegosaurus", "Tyrannosaurus"]  # oldest first
    for name, base, width, data in zip(bars["y"], bars["base"], bars["x"], bars["customdata"]):
        card = cards[name]
        assert base == card.last_appearance_ma
        assert math.isclose(base + width, card.first_appearance_ma)
        assert data[0] == f"/cards/{card.slug}"


def test_five_extinctions_are_marked_under_the_bands_and_numbered_above_them(client):
    fig = figure(client, "/api/figures/timeline?width=1280")
    lines = fig["layout"]["shapes"]
    assert [line["x0"] for line in lines] == [443.1, 372.15, 251.902, 201.4, 66.0]
    assert all(line["y0"] == 1.5 for line in lines)  # below the era and period bands: never over their names
    marks = fig["layout"]["annotations"]
    assert [m["text"] for m in marks] == [f"✝{n}" for n in range(1, 6)]
    assert all("mass extinction" in m["hovertext"] and m["yref"] == "paper" for m in marks)


def test_log_axis_spans_the_whole_range(client):
    fig = figure(client, "/api/figures/timeline?scale=log")
    axis = fig["layout"]["xaxis"]
    assert axis["type"] == "log"
    assert axis["range"] == pytest.approx([math.log10(538.8), math.log10(0.01)])
    bars = [t for t in fig["data"] if t["type"] == "bar"]
    assert min(min(t["base"]) for t in bars) >= 0.01  # today is drawn at the floor, not at 0


def test_linear_axis_runs_from_the_cambrian_to_today(client):
    axis = figure(client, "/api/figures/timeline")["layout"]["xaxis"]
    assert axis["range"] == [538.8, 0]


def test_figure_json_is_cached_with_an_etag(client):
    first = client.get("/api/figures/timeline")
    again = client.get("/api/figures/timeline", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize(("url", "status", "message"), [
    ("/api/figures/timeline?cards=no-such-beast", 404, "no card called"),
    ("/api/figures/timeline?cards=" + ",".join(f"c{i}" for i in range(500)), 400, "at most 60"),
    ("/api/figures/timeline?scale=sideways", 400, "'linear' or 'log'"),
    ("/api/figures/timeline?set=99999", 404, "no saved card set"),
    ("/api/figures/timeline?set=abc", 404, "no saved card set"),
    ("/api/figures/timeline?game=nope", 404, "no game"),
    ("/api/figures/timeline?deck=dinosaurs", 400, "More than 60"),
    ("/api/figures/timeline?min_mass=heavy", 400, "min_mass"),
    ("/api/figures/weights?cards=anomalocaris", 400, "known weight"),
])
def test_bad_figure_requests(client, url, status, message):
    data = figure(client, url, status)
    assert message in data["error"]


def test_gap_sentences_come_from_the_data(client):
    html = client.get("/timeline/gap?cards=stegosaurus,tyrannosaurus").get_data(as_text=True)
    steg = client.get("/api/cards/stegosaurus").get_json()
    rex = client.get("/api/cards/tyrannosaurus").get_json()
    gap = steg["last_appearance_ma"] - rex["first_appearance_ma"]
    assert f"Stegosaurus died out about {round(gap)} million years before Tyrannosaurus appeared." in html
    assert f"Tyrannosaurus died out {round(rex['last_appearance_ma'])} million years before you were born." in html
    assert "further in time" in html


def test_gap_needs_two_or_three_animals(client):
    assert client.get("/timeline/gap?cards=stegosaurus").status_code == 400
    assert client.get("/timeline/gap?cards=stegosaurus,tyrannosaurus,dimetrodon,human").status_code == 400


def test_cards_of_a_round_are_only_its_face_up_cards(client):
    created = client.post("/api/games", json={"deck": "dinosaurs", "characteristic": "length",
                                              "seats": [{"name": "A"}, {"name": "B"}]}).get_json()
    token = created["seats"][0]["token"]
    observation = client.get(f"/api/games/{created['id']}", headers={"Authorization": f"Bearer {token}"}).get_json()
    fig = figure(client, f"/api/figures/timeline?game={created['id']}")
    names = {y for t in fig["data"] if t["type"] == "bar" for y in t["y"]} - {"Eras", "Periods"}
    line = {client.get(f"/api/cards/{e['card']}").get_json()["common_name"] for e in observation["line"]}
    assert names == line
    for slug in observation["hand"]:
        assert client.get(f"/api/cards/{slug}").get_json()["common_name"] not in names


def test_finished_line_chart_marks_misplaced_cards(client):
    created = client.post("/api/games", json={"deck": "animals", "characteristic": "mass", "seed": 5,
                                              "seats": [{"name": "A"}, {"name": "Bot", "kind": "hard"}]}).get_json()
    game_id, token = created["id"], created["seats"][0]["token"]
    assert figure(client, f"/api/figures/cardline/{game_id}", 409)["error"].startswith("The chart")
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(100):
        listed = client.get(f"/api/games/{game_id}/actions", headers=headers).get_json()
        if not listed["actions"]:
            break
        client.post(f"/api/games/{game_id}/actions", headers=headers, json={**listed["actions"][0],
                                                                             "version": listed["version"]})
    fig = figure(client, f"/api/figures/cardline/{game_id}")
    placed = fig["data"][0]["x"]
    assert placed == sorted(placed)
    axis = fig["layout"]["xaxis"]
    assert axis["type"] == "log" and axis["title"]["text"].startswith("Weight (log scale")
    assert axis["ticktext"] and all(re.fullmatch(r"[\d,.]+ (?:mg|g|kg|t)", text) for text in axis["ticktext"])
    rows = fig["layout"]["yaxis"]["ticktext"]  # each row names its card and value
    assert all(re.search(r"<br>[\d.,]+ (?:g|kg|t)$", row) for row in rows)
    if len(fig["data"]) > 1:
        assert all(name.startswith("✘") for name in fig["data"][1]["y"])


@pytest.mark.parametrize(("url", "low", "high"), [
    ("/api/figures/timeline?cards=stegosaurus,tyrannosaurus", 60, 165),
    ("/api/figures/timeline?cards=stegosaurus,tyrannosaurus&zoom=today", 0, 165),
    ("/api/figures/timeline?cards=stegosaurus,tyrannosaurus&zoom=all", 0, 538.8),
    ("/api/figures/timeline?cards=stegosaurus&zoom=jurassic", 140, 205),
    ("/api/figures/timeline?period=Jurassic&deck=dinosaurs", 90, 215),  # Plesiosaurus, 205.7 Ma, lived into it
])
def test_the_timeline_zooms_to_the_cards_or_period_shown(client, url, low, high):
    youngest_edge, oldest_edge = sorted(figure(client, url)["layout"]["xaxis"]["range"])
    assert low <= youngest_edge and oldest_edge <= high and oldest_edge - youngest_edge < 540


@pytest.mark.parametrize("url", ["/periods/jurassic", "/timeline/gap?cards=stegosaurus&cards=tyrannosaurus", "/timeline"])
def test_a_zoomed_timeline_offers_the_way_back_to_the_whole_scale(client, url):
    html = client.get(url).get_data(as_text=True)
    assert re.search(r'href="[^"]*zoom=all"[^>]*>The whole time scale</a>', html)
    whole = re.search(r'href="([^"]*zoom=all)"', html).group(1).replace("&amp;", "&")
    assert "zoom=all" in client.get(whole).get_data(as_text=True).split('data-figure="')[1].split('"')[0]


def test_an_unknown_zoom_is_refused_with_the_choices(client):
    assert "'all', 'today', 'cards' or a period" in figure(client, "/api/figures/timeline?zoom=mars", 400)["error"]


def test_size_chart_includes_a_person_to_scale(client):
    fig = figure(client, "/api/figures/sizes?cards=tyrannosaurus,human")
    bar = fig["data"][0]
    assert "A person" in bar["y"] and 1.8 in bar["x"]


def test_weight_chart_uses_a_log_axis(client):
    fig = figure(client, "/api/figures/weights")
    assert fig["layout"]["xaxis"]["type"] == "log"
    assert client.get("/charts/weights").get_data(as_text=True).count("ten times heavier") == 1


@pytest.mark.parametrize("url", ["/timeline", "/timeline?scale=log", "/timeline?period=Jurassic&deck=dinosaurs",
                                 "/periods/cretaceous", "/charts/sizes", "/charts/weights", "/timeline/gap"])
def test_pages_render_with_local_plotly(client, url):
    html = client.get(url).get_data(as_text=True)
    assert f"/vendor/plotly-{plotly.__version__}.min.js" in html
    assert 'data-figure="/api/figures/' in html


def test_period_page_has_dates_climate_extinction_and_animals(client):
    html = client.get("/periods/cretaceous").get_data(as_text=True)
    assert "143.1 to 66 million years ago" in html
    assert "Climate:" in html and "End-Cretaceous" in html and "/cards/tyrannosaurus" in html
    assert client.get("/periods/atlantis").status_code == 404


def test_timeline_page_explains_a_bad_choice(client):
    response = client.get("/timeline?deck=dinosaurs")
    assert response.status_code == 400 and "narrow the filter" in response.get_data(as_text=True)


def test_saving_a_card_set_and_using_it(client):
    response = client.post("/timeline/sets", data={"name": "Giants", "slugs": "argentinosaurus,blue-whale,megalodon"})
    assert response.status_code == 302
    set_url = response.headers["Location"]
    assert "set=" in set_url
    fig = figure(client, "/api/figures/" + set_url.split("/")[-1].replace("timeline?", "timeline?"))
    names = {y for t in fig["data"] if t["type"] == "bar" for y in t["y"]}
    assert {"Argentinosaurus", "Megalodon"} <= names
    assert "Blue whale" in client.get(set_url).get_data(as_text=True)  # left out: a living animal
    bad = client.post("/timeline/sets", data={"name": "", "slugs": "stegosaurus"})
    assert bad.status_code == 400


def test_plotly_js_is_served_locally_gzipped_and_cached_for_a_year(client):
    url = f"/vendor/plotly-{plotly.__version__}.min.js"
    response = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "immutable" in response.headers["Cache-Control"] and "max-age=31536000" in response.headers["Cache-Control"]
    assert gzip.decompress(response.data).startswith(b"/**") or b"plotly" in gzip.decompress(response.data)[:2000]
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers and len(plain.data) > len(response.data)
    assert client.get("/vendor/plotly-0.0.1.min.js").status_code == 404


def test_figures_json_parses(client):
    json.loads(client.get("/api/figures/timeline").get_data(as_text=True))


@pytest.mark.parametrize("cards", ["Tyrannosaurus, Triceratops", "t. rex,TRICERATOPS", "Tyrannosaurus rex, Stegosaurus",
                                   "Tyranosaurus,stegosaurus"])
def test_compare_boxes_take_names_in_any_case_and_nicknames(client, cards):
    response = client.get("/timeline/gap", query_string={"cards": cards})
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert "Tyrannosaurus" in response.get_data(as_text=True)


def test_gap_page_has_one_box_per_animal_with_a_suggestion_list(client):
    html = client.get("/timeline/gap?cards=stegosaurus&cards=Tyrannosaurus").get_data(as_text=True)
    assert html.count('list="card-names"') == 3 and '<datalist id="card-names">' in html
    assert '<option value="Blue whale">' in html and 'value="Stegosaurus"' in html


@pytest.mark.parametrize("kind", ["sizes", "weights"])
def test_charts_take_names_and_an_added_animal(client, kind):
    response = client.get(f"/charts/{kind}", query_string=[("cards", "Blue whale, african bush elephant"), ("cards", "Human")])
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and 'value="Blue whale, African bush elephant, Human"' in html
    assert '<datalist id="card-names">' in html


def test_an_unknown_name_keeps_the_form_and_suggests_the_animal_as_a_link(client):
    response = client.get("/timeline/gap", query_string={"cards": ["Stegosaurus", "Tricerotopsis"]})
    html = response.get_data(as_text=True)
    assert response.status_code == 404 and "There is no card called &#39;Tricerotopsis&#39;." in html
    assert 'Did you mean <a href="/timeline/gap?cards=Stegosaurus,triceratops">Triceratops</a>?' in html
    assert 'value="Tricerotopsis"' in html and 'value="Stegosaurus"' in html  # the form as it was typed
    followed = client.get("/timeline/gap?cards=Stegosaurus,triceratops")
    assert followed.status_code == 200 and "Triceratops" in followed.get_data(as_text=True)


def test_one_animal_twice_asks_for_different_animals_on_the_same_page(client):
    response = client.get("/timeline/gap", query_string={"cards": ["megalodon", "Megalodon"]})
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "One animal is named twice" in html and 'id="cards-2"' in html


@pytest.mark.parametrize("url", ["/periods", "/timeline", "/periods/jurassic"])
def test_era_names_are_explained_where_they_appear(client, url):
    html = client.get(url).get_data(as_text=True)
    assert "<strong>Mesozoic</strong> era (“middle life”, 251.9 to 66 million years ago: the age of the dinosaurs)" in html
    if url != "/periods/jurassic":
        assert "“old life”" in html and "“new life”, 66 million years ago to today" in html


@pytest.mark.parametrize("kind", ["sizes", "weights"])
def test_a_chart_keeps_a_mistyped_name_and_links_the_animal_meant(client, kind):
    response = client.get(f"/charts/{kind}", query_string={"cards": "blue whale, megladonn"})
    html = response.get_data(as_text=True)
    assert response.status_code == 404 and 'value="blue whale, megladonn"' in html
    assert f'Did you mean <a href="/charts/{kind}?cards=blue+whale,megalodon">Megalodon</a>?' in html
