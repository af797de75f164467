"""Timelines and charts: the figure data, the endpoints, bad input, and plotly.js served locally."""

import gzip
import json
import math
import re

import plotly
import pytest
from playwright.sync_api import expect

from cards_db.loader import denied_entry, read_denied_hosts, read_extinctions, read_periods
from webapp.extensions import db
from webapp.models import Card, CardSet, Period
from webapp.timeline import vendor


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
    ("/api/figures/timeline?set=99999", 404, "private or has been deleted"),
    ("/api/figures/timeline?set=abc", 404, "private or has been deleted"),
    ("/api/figures/timeline?shared=nope", 404, "No card set is shared"),
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
                                              "seats": [{"name": "Ada"}, {"name": "Ben"}]}).get_json()
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
                                              "seats": [{"name": "Ada"}, {"name": "Robot", "kind": "hard"}]}).get_json()
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
    assert f"/vendor/plotly-basic-{vendor.bundle_version()}.min.js" in html
    assert 'data-figure="/api/figures/' in html


def test_period_page_has_dates_climate_extinction_and_animals(client):
    html = client.get("/periods/cretaceous").get_data(as_text=True)
    assert "143.1 to 66 million years ago" in html
    assert "Climate:" in html and "End-Cretaceous" in html and "/cards/tyrannosaurus" in html
    assert client.get("/periods/atlantis").status_code == 404


# A work as the period files cite it: an author ("Judd, E. J."), the year in brackets, then the title in quotes.
CITED_WORK = re.compile(r'[A-Z][\w-]+, [A-Z]\.[^()]*\((1[6-9]|20)\d\d\) "[^"]+"')


def problems_of_citation(source, denied):
    """Return what is wrong with a source as a period file gives it: a wiki, a denied host, no dated work."""
    links = re.findall(r"https?://[^\s);,]+", source)
    return ([] if "wiki" not in source.lower() else ["cites a wiki"]) \
        + [f"denied host: {link}" for link in links if denied_entry(link, denied)] \
        + ([] if CITED_WORK.search(source) else ["names no work with its year"])


def test_each_period_climate_cites_a_dated_work_never_a_wiki():
    """Each period's climate names a published work with its year; no Wikipedia, wiki or denied host."""
    denied = read_denied_hosts()
    for _, period in read_periods().iterrows():
        assert problems_of_citation(period["climate_source"], denied) == [], period["period"]


def test_each_extinction_cites_dated_works_and_every_share_it_gives():
    """Each mass extinction names a published work with its year, no wiki or denied host, and its source holds each share."""
    denied = read_denied_hosts()
    for _, event in read_extinctions().iterrows():
        assert problems_of_citation(event["source"], denied) == [], event["name"]
        shares = re.findall(r"\d+(?:–\d+)?%", event["explanation"])
        assert [share for share in shares if share not in event["source"]] == [], event["name"]


def test_timeline_and_period_pages_give_each_extinctions_works(client):
    timeline = client.get("/timeline").get_data(as_text=True)
    assert "Extinction event" not in timeline and timeline.count("Sepkoski, J. J., Jr. (2002)") == 5
    assert timeline.count("<summary>Sources: ") == 5  # folded, so the list stays short on a phone
    period = client.get("/periods/cretaceous").get_data(as_text=True)
    assert "Schulte, P." in period
    # The climate's and the extinction's works fold under "Sources", so the page reads as a page on a phone.
    assert re.findall(r"<summary>Sources: ([^<]*)</summary>", period) == [
        "the Cretaceous's climate", "the End-Cretaceous"]


def test_timeline_page_explains_a_bad_choice(client):
    response = client.get("/timeline?deck=dinosaurs")
    assert response.status_code == 400 and "narrow the filter" in response.get_data(as_text=True)


def shown_names(client, url):
    """Return the animals a timeline figure shows as bars."""
    fig = figure(client, "/api/figures/timeline?" + url.split("?", 1)[1])
    return {y for t in fig["data"] if t["type"] == "bar" for y in t["y"]} - {"Eras", "Periods"}


def saved_set(teacher, name="Giants", slugs="argentinosaurus,blue-whale,megalodon"):
    """Save cards as a set from the timeline; return the set's timeline address."""
    response = teacher.post("/timeline/sets", data={"name": name, "slugs": slugs})
    assert response.status_code == 302, response.get_data(as_text=True)[:300]
    return response.headers["Location"]


def share_link(teacher, set_url):
    """Share the set open at `set_url`; return its share link as the page shows it (a path on this site)."""
    set_id = set_url.split("set=")[1]
    assert teacher.post(f"/timeline/sets/{set_id}", data={"action": "share"}).status_code == 302
    html = teacher.get(set_url).get_data(as_text=True)
    return re.search(r'id="share-link"[^>]*value="([^"]*)"', html).group(1).replace("http://localhost", "")


def card_set_count(app):
    with app.app_context():
        return db.session.query(CardSet).count()


def test_a_teacher_saves_a_set_from_the_timeline_and_uses_it(teacher):
    set_url = saved_set(teacher)
    assert {"Argentinosaurus", "Megalodon"} <= shown_names(teacher, set_url)
    html = teacher.get(set_url).get_data(as_text=True)
    assert "Your card set: Giants" in html and "Private: only you see it." in html
    assert "Blue whale" in html  # kept in the set, left off the bars: a living animal
    assert '<option value="1" selected>Giants (3 cards)</option>' in html  # the teacher's own sets to choose from
    bad = teacher.post("/timeline/sets", data={"name": "   ", "slugs": "stegosaurus"})
    assert bad.status_code == 400 and "Give the set a name." in bad.get_data(as_text=True)
    assert teacher.post("/timeline/sets", data={"name": "Beasts", "slugs": "unicorn"}).status_code == 404
    assert teacher.post("/timeline/sets", data={"name": "Nothing", "slugs": ",,"}).status_code == 400
    assert "Beasts" not in teacher.get("/teach/").get_data(as_text=True)
    assert "Nothing" not in teacher.get("/teach/").get_data(as_text=True)


def test_a_visitor_cannot_save_a_set_and_gets_a_link_with_the_cards_instead(app, client):
    response = client.post("/timeline/sets", data={"name": "Mine", "slugs": "stegosaurus,tyrannosaurus"})
    assert response.status_code == 302 and "/teach/login" in response.headers["Location"]
    assert card_set_count(app) == 0
    html = client.get("/timeline?cards=Stegosaurus,T. rex,blue whale&scale=log").get_data(as_text=True)
    link = re.search(r'id="selection-link"[^>]*value="([^"]*)"', html).group(1).replace("&amp;", "&")
    assert link == "http://localhost/timeline?cards=stegosaurus,tyrannosaurus,blue-whale&scale=log"
    assert 'data-remember="selection-link"' in html and 'data-copy="selection-link"' in html
    assert 'action="/timeline/sets"' not in html  # no form that would store anything
    followed = client.get(link.replace("http://localhost", ""))
    assert followed.status_code == 200 and "Blue whale" in followed.get_data(as_text=True)
    assert shown_names(client, link) == {"Stegosaurus", "Tyrannosaurus"}


def test_the_public_timeline_lists_no_sets(app, client, classroom):
    teacher = app.test_client()
    classroom.register(teacher)
    saved_set(teacher, name="Ms Teacher's secret list")
    with app.app_context():  # a set saved anonymously before sets had owners
        db.session.add(CardSet(name="Posted by a stranger", slugs=["stegosaurus"]))
        db.session.commit()
    for url in ("/timeline", "/timeline?set=1", "/timeline?set=2", "/charts/sizes", "/timeline/gap"):
        html = client.get(url).get_data(as_text=True)
        assert "secret list" not in html and "Posted by a stranger" not in html
        assert 'name="set"' not in html


@pytest.mark.parametrize("who", ["visitor", "another teacher"])
def test_a_set_opens_only_for_its_teacher(app, client, classroom, who):
    owner = app.test_client()
    classroom.register(owner)
    set_url = saved_set(owner)
    if who == "another teacher":
        classroom.register(client, email="colleague@school.org")
    for url in (set_url, "/api/figures/" + set_url.lstrip("/"), set_url.replace("timeline", "charts/sizes")):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "private or has been deleted" in response.get_data(as_text=True)
        assert "Giants" not in response.get_data(as_text=True)
    assert owner.get(set_url).status_code == 200
    assert client.post(f"/timeline/sets/{set_url.split('=')[1]}", data={"action": "delete"}).status_code in (302, 404)
    assert card_set_count(app) == 1


def test_a_set_saved_before_sets_had_owners_is_shown_to_nobody(app, client, teacher):
    with app.app_context():
        old = CardSet(name="Anonymous", slugs=["stegosaurus"])
        db.session.add(old)
        db.session.commit()
        old_id = old.id
    for viewer in (client, teacher):
        assert viewer.get(f"/timeline?set={old_id}").status_code == 404
    assert teacher.post(f"/timeline/sets/{old_id}", data={"action": "share"}).status_code == 404
    assert card_set_count(app) == 1  # kept: the retention job decides when it goes


def test_a_shared_set_opens_for_anyone_and_a_colleague_copies_it(app, client, classroom, teacher):
    set_url = saved_set(teacher)
    link = share_link(teacher, set_url)
    assert link.startswith("/timeline?shared=") and len(link.split("=")[1]) == 10
    assert "Stop sharing" in teacher.get(set_url).get_data(as_text=True)
    visitor = app.test_client()
    page = visitor.get(link)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "A card set shared with you: Giants" in html and "log in</a> to copy" in html
    assert {"Argentinosaurus", "Megalodon"} <= shown_names(visitor, link)
    assert visitor.post("/timeline/shared/" + link.split("=")[1]).status_code == 302  # to the log-in page
    assert card_set_count(app) == 1
    colleague = app.test_client()
    classroom.register(colleague, email="colleague@school.org")
    assert "Copy it into my card sets" in colleague.get(link).get_data(as_text=True)
    copied = colleague.post("/timeline/shared/" + link.split("=")[1])
    copy_url = copied.headers["Location"]
    assert copy_url != set_url and "Your card set: Giants" in colleague.get(copy_url).get_data(as_text=True)
    assert "Giants" in colleague.get("/teach/").get_data(as_text=True)
    assert colleague.get(set_url).status_code == 404  # the copy is theirs; the original stays the owner's
    teacher.post(f"/timeline/sets/{set_url.split('=')[1]}", data={"action": "unshare"})
    assert visitor.get(link).status_code == 404 and "No card set is shared" in visitor.get(link).get_data(as_text=True)
    assert colleague.get(copy_url).status_code == 200  # their copy stays
    again = share_link(teacher, set_url)
    assert again != link and visitor.get(again).status_code == 200


def test_a_teacher_renames_and_deletes_their_set(app, teacher):
    set_url = saved_set(teacher)
    set_id = set_url.split("=")[1]
    renamed = teacher.post(f"/timeline/sets/{set_id}", data={"action": "rename", "rename-name": "  Big beasts "})
    assert renamed.status_code == 302
    assert "Your card set: Big beasts" in teacher.get(set_url).get_data(as_text=True)
    for name, message in (("", "Give the set a name."), ("x" * 81, "at most 80 characters")):
        refused = teacher.post(f"/timeline/sets/{set_id}", data={"action": "rename", "rename-name": name})
        html = refused.get_data(as_text=True)
        assert refused.status_code == 400 and message in html and 'id="rename-name"' in html
        assert 'href="/timeline?set=' in html and "/timeline/sets/" + set_id + "?" not in html  # links to the page
    assert teacher.post(f"/timeline/sets/{set_id}", data={"action": "burn"}).status_code == 400
    deleted = teacher.post(f"/timeline/sets/{set_id}", data={"action": "delete"})
    assert deleted.status_code == 302 and "Big beasts is deleted" in teacher.get(deleted.headers["Location"]).get_data(as_text=True)
    assert card_set_count(app) == 0
    assert teacher.get(set_url).status_code == 404


def test_a_round_made_from_a_set_keeps_its_cards_when_the_set_is_deleted(app, classroom, teacher):
    set_url = saved_set(teacher, name="Big ones", slugs="stegosaurus,tyrannosaurus,brachiosaurus,triceratops")
    set_id = set_url.split("=")[1]
    assert f'<option value="{set_id}">Big ones</option>' in teacher.get("/teach/rounds/new").get_data(as_text=True)
    url, _code = classroom.new_round(teacher, choice="set", card_set=set_id, count="3")
    cards = set(classroom.round(url).state["values"])
    assert cards <= {"stegosaurus", "tyrannosaurus", "brachiosaurus", "triceratops"}
    teacher.post(f"/timeline/sets/{set_id}", data={"action": "delete"})
    assert set(classroom.round(url).state["values"]) == cards and teacher.get(url).status_code == 200
    again = teacher.post(url + "/reuse", data={"action": "duplicate"})  # its cards came from the set: a clear 400
    assert again.status_code == 400 and "card set this round was made from has been deleted" in again.get_data(
        as_text=True)


def test_plotly_js_is_served_locally_gzipped_and_cached_for_a_year(client):
    url = f"/vendor/plotly-basic-{vendor.bundle_version()}.min.js"
    response = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "immutable" in response.headers["Cache-Control"] and "max-age=31536000" in response.headers["Cache-Control"]
    assert gzip.decompress(response.data).startswith(b"/**\n* plotly.js (basic - minified)")
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers and len(plain.data) > len(response.data)
    assert client.get("/vendor/plotly-basic-0.0.1.min.js").status_code == 404
    assert client.get(f"/vendor/plotly-{plotly.__version__}.min.js").status_code == 404  # the full bundle: gone


def test_the_vendored_plotly_is_the_published_file_unchanged():
    import hashlib

    digest = hashlib.sha256(vendor.PLOTLY_JS.read_bytes()).hexdigest()
    assert digest == "99784e3abfb07b142a15e521a439e6d9addceadb3f79553fd24c72774f0649ba"  # see vendor/README.md
    assert digest in (vendor.PLOTLY_JS.parent / "README.md").read_text()


PLOTLY_GZIPPED_AT_MOST = 420_000  # bytes; the README's "Light on a school's network" states it


def test_the_plotly_bundle_is_the_small_one_for_the_plotly_the_figures_are_written_for(client):
    from pathlib import Path

    full = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text(encoding="utf-8")[:200]
    assert re.search(r"plotly\.js v(\d+\.\d+\.\d+)", full).group(1) == vendor.bundle_version()
    body = client.get(f"/vendor/plotly-basic-{vendor.bundle_version()}.min.js",
                      headers={"Accept-Encoding": "gzip"}).data
    assert len(body) <= PLOTLY_GZIPPED_AT_MOST


def test_every_chart_draws_only_traces_the_small_bundle_holds(app, client, classroom, teacher):
    class_url, _pupils = classroom.new_class(teacher)
    pages = [(client, url) for url in ("/timeline", "/timeline?scale=log", "/periods/jurassic", "/charts/sizes",
                                       "/charts/weights", "/timeline/gap")]
    pages.append((teacher, class_url + "/progress"))
    found = set()
    created = client.post("/api/games", json={"deck": "animals", "characteristic": "mass", "seed": 5,
                                              "seats": [{"name": "Ada"}, {"name": "Bot", "kind": "hard"}]}).get_json()
    headers = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    for _ in range(100):  # a finished Cardline line is drawn as dots
        listed = client.get(f"/api/games/{created['id']}/actions", headers=headers).get_json()
        if not listed["actions"]:
            break
        client.post(f"/api/games/{created['id']}/actions", headers=headers,
                    json={**listed["actions"][0], "version": listed["version"]})
    pages.append((client, f"/play/cardline/{created['id']}"))
    for browser, page in pages:
        for figure in re.findall(r'data-figure="([^"]+)"', browser.get(page).get_data(as_text=True)):
            response = browser.get(figure.replace("&amp;", "&"))
            assert response.status_code == 200, figure
            found |= {trace.get("type", "scatter") for trace in response.get_json()["data"]}
    assert {"bar", "scatter"} <= found <= set(vendor.TRACE_TYPES), found


@pytest.mark.parametrize("url", ["/", "/cards/", "/cards/tyrannosaurus", "/join", "/play/", "/lessons/"])
def test_pages_without_a_chart_load_no_plotly(client, url):
    assert "/vendor/plotly" not in client.get(url).get_data(as_text=True)


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


def axe_problems(page):
    """Return axe-core's findings on the page, and whether it scrolls sideways (WCAG's reflow)."""
    from axe_playwright_python.sync_playwright import Axe

    found = [f"{page.url}: {v['id']}: {v['help']}" for v in Axe().run(page).response["violations"]]
    if page.evaluate("() => document.documentElement.scrollWidth > document.documentElement.clientWidth"):
        found.append(f"{page.url} scrolls sideways")
    return found


@pytest.mark.browser
def test_a_visitors_copied_selection_is_remembered_in_the_browser(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}/timeline?cards=stegosaurus,tyrannosaurus&scale=log")
    assert page.locator(".remembered-selections").is_hidden()  # nothing remembered yet
    page.get_by_role("button", name="Copy the link").click()
    assert "Copied" in page.locator(".copy-note").inner_text() or "selected" in page.locator(".copy-note").inner_text()
    page.goto(f"{live_server}/timeline")
    remembered = page.locator(".remembered-selections a")
    remembered.first.wait_for()
    assert remembered.count() == 1 and remembered.first.inner_text() == "Stegosaurus, Tyrannosaurus"
    page.locator(".figure .main-svg").first.wait_for(timeout=10_000)
    assert axe_problems(page) == []
    remembered.first.click()
    page.wait_for_url("**/timeline?cards=stegosaurus,tyrannosaurus&scale=log")
    page.get_by_role("button", name="Copy the link").click()  # the same link again: listed once
    page.goto(f"{live_server}/timeline?cards=dimetrodon")
    page.get_by_role("button", name="Copy the link").click()
    expect(page.locator(".remembered-selections a")).to_have_text(["Dimetrodon", "Stegosaurus, Tyrannosaurus"])
    assert errors == []
    context.close()


@pytest.mark.browser
def test_a_teacher_keeps_shares_and_a_visitor_opens_a_set_in_the_browser(browser, live_server, teacher_page):
    teacher = teacher_page
    teacher.goto(f"{live_server}/timeline?cards=stegosaurus,tyrannosaurus,triceratops")
    teacher.get_by_label("Name of the set").fill("Jurassic and after")
    teacher.get_by_role("button", name="Save as one of my card sets").click()
    teacher.get_by_role("heading", name="Your card set: Jurassic and after").wait_for()
    teacher.get_by_role("button", name="Share it").click()
    link = teacher.get_by_label("Share link").input_value()
    assert "/timeline?shared=" in link
    teacher.locator(".figure .main-svg").first.wait_for(timeout=10_000)
    assert axe_problems(teacher) == []
    visitor = browser.new_page()
    visitor.goto(link)
    visitor.get_by_role("heading", name="A card set shared with you: Jurassic and after").wait_for()
    visitor.locator(".figure .main-svg").first.wait_for(timeout=10_000)
    assert "Triceratops" in visitor.locator(".figure text").all_text_contents()
    assert axe_problems(visitor) == []
    teacher.on("dialog", lambda dialog: dialog.accept())
    teacher.get_by_role("button", name="Delete").click()
    teacher.get_by_text("Jurassic and after is deleted").wait_for()
    assert visitor.goto(link).status == 404
