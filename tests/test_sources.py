"""The sources page and the works a card page names beside each value (issue 25)."""

import re

import pytest
from sqlalchemy import select

from cards_db.schema import SOURCE_GROUPS
from webapp.extensions import db
from webapp.models import Card, Citation, Source


def page(client, url):
    """Return a page's HTML, checking it answered 200."""
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def test_the_sources_page_lists_every_work_once_with_an_anchor(app, client):
    html = page(client, "/sources")
    with app.app_context():
        ids = list(db.session.scalars(select(Source.id)))
    anchors = re.findall(r'id="work-([a-z0-9-]+)"', html)
    assert sorted(anchors) == sorted(ids)


def test_the_sources_page_groups_works_by_kind_in_order(app, client):
    html = page(client, "/sources")
    with app.app_context():
        kinds = set(db.session.scalars(select(Source.kind)))
    headings = [heading for anchor, heading, group in SOURCE_GROUPS if kinds & set(group)]
    positions = [html.index(f">{heading}</h2>") for heading in headings]
    assert positions == sorted(positions) and headings
    with app.app_context():
        for work in db.session.scalars(select(Source)):
            group = next(anchor for anchor, _, group in SOURCE_GROUPS if work.kind in group)
            section = html[html.index(f'<h2 id="{group}">'):]
            assert f'id="work-{work.id}"' in section.split("</section>")[0], work.id


def test_each_work_gives_its_full_citation_its_links_and_the_cards_that_use_it(app, client):
    html = page(client, "/sources")
    with app.app_context():
        work = db.session.scalars(select(Source).where(Source.citations.any())).first()
        entry = html.split(f'id="work-{work.id}"')[1].split("</li>")[0]
        assert work.title.split(".")[0][:40].replace("&", "&amp;").replace("'", "&#39;").replace('"', "&#34;") in entry
        if work.doi:
            assert f'href="https://doi.org/{work.doi}"' in entry
        if work.url:
            assert f'href="{work.url}"'.replace("&", "&amp;") in entry
        card = work.citations[0].card
        assert f'href="/cards/{card.slug}"' in entry


def test_the_footer_and_every_card_page_link_to_the_sources(client):
    assert 'href="/sources"' in page(client, "/")
    html = page(client, "/cards/stegosaurus")
    assert 'href="/sources"' in html.split('class="site-footer"')[0]


@pytest.mark.parametrize("slug", ["stegosaurus", "tyrannosaurus", "lion"])
def test_a_card_page_names_the_work_beside_each_value(app, client, slug):
    html = page(client, f"/cards/{slug}")
    characteristics = html.split('class="characteristics"')[1].split("</dl>")[0]
    with app.app_context():
        card = db.session.scalar(select(Card).where(Card.slug == slug))
        for field, works in card.works_by_field().items():
            for work in works:
                assert f'href="/sources#work-{work.id}"' in html, (field, work.id)
                if field in ("length_m", "mass_kg", "lifespan_years", "first_appearance_ma", "diet", "habitat"):
                    assert f'href="/sources#work-{work.id}"' in characteristics, (field, work.id)
                    if work.link:
                        assert f'href="{work.link}"'.replace("&", "&amp;") in characteristics, (field, work.id)


def test_an_empty_value_reads_no_published_estimate_with_the_reason(app, client):
    with app.app_context():
        card = db.session.scalar(select(Card).where(Card.mass_kg.is_(None)).order_by(Card.id))
        slug, reason = card.slug, card.empty_reason("mass_kg")
    html = page(client, f"/cards/{slug}")
    weight = html.split("<dt>Weight</dt>")[1].split("</dd>")[0]
    assert "No published estimate" in weight
    assert reason and reason[:30].replace("'", "&#39;") in weight


def test_the_empty_reason_is_read_from_the_notes(app):
    card = Card(notes="Length from the NHM. mass_kg empty: no body-mass estimate has been published. Sepkoski says so.")
    assert card.empty_reason("mass_kg") == "no body-mass estimate has been published"
    assert card.empty_reason("length_m") == ""


def test_a_lifespan_record_is_shown_apart(app, client):
    with app.app_context():
        card = db.session.scalar(select(Card).where(Card.lifespan_record_years.is_not(None)).order_by(Card.id))
        if card is None:
            pytest.fail("no card has a lifespan record: the re-sourced data adds them (issue 25)")
        slug = card.slug
        record = card.lifespan_record_years
        works = card.works_by_field()["lifespan_record_years"]
    lifespan = page(client, f"/cards/{slug}").split("<dt>Lifespan</dt>")[1].split("</dd>")[0]
    assert re.search(rf"up to {record:g} years \(record\)", lifespan), lifespan
    assert f'href="/sources#work-{works[0].id}"' in lifespan


def test_a_card_page_lists_each_citation_with_its_detail(app, client):
    with app.app_context():
        citation = db.session.scalar(select(Citation).where(Citation.detail.is_not(None)).order_by(Citation.id))
        slug, detail = citation.card.slug, citation.detail
    html = page(client, f"/cards/{slug}")
    section = html.split('class="sources"')[1]
    assert "All the works the cards cite" in section
    assert detail[:20].replace("&", "&amp;").replace("'", "&#39;").replace('"', "&#34;") in section
