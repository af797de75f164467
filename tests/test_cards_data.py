"""The shipped card data: schema, coverage, physical sense, and sources for every number."""

import re
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

from cards_db import read_card_files
from cards_db.loader import (
    DATA_DIR,
    denied_entry,
    is_wikipedia_article,
    numbers_by_kind,
    numbers_table,
    read_denied_hosts,
)
from cards_db.schema import BODY_PLANS, CONTINENTS, SOURCED
from webapp.cards import silhouettes
from webapp.cards.silhouettes import FOLDER, shape

FILES = read_card_files()
PERIODS, CARDS = FILES.periods, FILES.cards
DINOSAURS = CARDS[CARDS["deck"] == "dinosaurs"]
ANIMALS = CARDS[CARDS["deck"] == "animals"]


def test_decks_are_big_enough():
    assert len(DINOSAURS) >= 110
    assert len(ANIMALS) >= 110


def test_prehistoric_deck_is_not_only_dinosaurs():
    assert (DINOSAURS["group"] != "dinosaur").sum() >= 25


def test_prehistoric_deck_spans_all_twelve_periods():
    lived = set()
    positions = dict(zip(PERIODS["period"], PERIODS["position"]))
    for _, card in DINOSAURS.iterrows():
        lived |= {name for name, pos in positions.items()
                  if positions[card["first_period"]] <= pos <= positions[card["last_period"]]}
    assert lived == set(PERIODS["period"])
    assert set(DINOSAURS["first_period"]) == set(PERIODS["period"])


@pytest.mark.parametrize("name", ["Anomalocaris", "Dunkleosteus", "Meganeura", "Dimetrodon",
                                  "Tyrannosaurus", "Stegosaurus", "Triceratops", "Homo sapiens"])
def test_classic_animals_are_in_the_deck(name):
    names = set(DINOSAURS["common_name"]) | set(DINOSAURS["scientific_name"].str.split().str[0]) \
        | set(DINOSAURS["scientific_name"])
    assert name in names


def test_animals_deck_covers_every_rulebook_family():
    assert set(ANIMALS["group"]) == {"amphibian", "arachnid", "crustacean", "insect", "mammal",
                                     "sea mammal", "mollusc", "bird", "fish", "reptile"}


def test_each_deck_can_be_played_with_each_characteristic():
    assert DINOSAURS["length_m"].notna().sum() >= 100
    assert DINOSAURS["mass_kg"].notna().sum() >= 80
    assert ANIMALS["length_m"].notna().sum() >= 100
    assert ANIMALS["mass_kg"].notna().sum() >= 80
    # Typical lifespans only (issue 25): records are apart, and a lifespan no allowed source gives is empty.
    assert ANIMALS["lifespan_years"].notna().sum() >= 75


@pytest.mark.parametrize("column", ["length_m", "mass_kg", "lifespan_years"])
def test_sizes_are_physically_sensible(column):
    values = CARDS[column].dropna()
    assert (values > 0).all()
    limits = {"length_m": 40, "mass_kg": 200_000, "lifespan_years": 600}
    assert (values <= limits[column]).all(), CARDS.loc[values[values > limits[column]].index, "slug"]


def test_mass_and_length_agree_roughly():
    """A card with density below a feather or above rock has a typo (units mixed up)."""
    known = CARDS.dropna(subset=["length_m", "mass_kg"])
    # mass / length^3 in kg/m^3 for whole animals sits far inside these bounds.
    density = known["mass_kg"] / known["length_m"] ** 3
    odd = known[(density < 0.05) | (density > 5000)]
    assert odd.empty, list(odd["slug"])


def test_ages_fit_the_periods():
    ages = DINOSAURS[["first_appearance_ma", "last_appearance_ma"]]
    assert (ages["first_appearance_ma"] >= ages["last_appearance_ma"]).all()
    assert (ages["first_appearance_ma"] <= 538.8).all()
    assert (ages["last_appearance_ma"] >= 0).all()


def test_non_avian_dinosaurs_died_out_by_the_end_of_the_cretaceous():
    dinosaurs = DINOSAURS[DINOSAURS["group"] == "dinosaur"]
    assert (dinosaurs["last_appearance_ma"] >= 66.0 - 0.05).all()
    assert (dinosaurs["first_appearance_ma"] <= 252).all()


def test_every_filled_value_is_cited():
    named = {(row.slug, field) for row in FILES.citations.itertuples() for field in row.field_list}
    for _, card in CARDS.iterrows():
        for column in [*SOURCED, "lifespan_record_years"]:
            if column in card and not pd.isna(card[column]) and card[column] != "":
                assert (card["slug"], column) in named, (card["slug"], column)


# The denylist (issue 25): hosts that are copies of Wikipedia, scrapers, wiki farms, forums, blogs, content farms,
# link-sharing, news and magazine sites. Each of these once backed a card.
DENIED = read_denied_hosts()


@pytest.mark.parametrize("url", [
    "https://piglix.com/wiki/Stegosaurus", "https://wikimili.com/en/Titanoboa", "https://review.clateway.com/wiki/X",
    "https://handwiki.org/wiki/Biology:Pterygotus", "https://www.wikiwand.com/en/Lion",
    "https://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq.ipfs.dweb.link/wiki/Diracodon.html",
    "https://kiwix.lema.org/x", "https://www.questionai.com/knowledge/x", "https://kingkong.wikia.com/wiki/Titanoboa",
    "https://dinopedia.fandom.com/wiki/X", "https://archosauria.userboard.net/t1", "https://choualbox.com/x",
    "https://palaeocritti.blogspot.com/x", "https://www.theguardian.com/science/x", "https://www.thoughtco.com/x",
    "https://radiopanoramafm.com/x", "https://www.liquisearch.com/x", "https://images.google.si/x",
])
def test_the_denylist_holds_the_copies_and_farms_cards_once_cited(url):
    assert denied_entry(url, DENIED), url


@pytest.mark.parametrize("url", [
    "https://en.wikipedia.org/wiki/Stegosaurus", "https://www.nhm.ac.uk/discover/dino-directory.html",
    "https://doi.org/10.1038/nature07671", "https://paleobiodb.org/classic", "https://animaldiversity.org/x",
    "https://www.iucnredlist.org/species/15951/x", "https://www.fishbase.se/summary/2", "https://www.britannica.com/x",
    "https://naturalhistory.si.edu/x", "https://www.sandiegozoo.org/x",
])
def test_the_denylist_leaves_the_works_themselves_allowed(url):
    assert denied_entry(url, DENIED) is None, url


def test_the_denylist_is_one_host_a_line_without_repeats():
    lines = [line for line in (DATA_DIR / "denied_hosts.txt").read_text().splitlines() if line and not line.startswith("#")]
    assert len(lines) == len(set(lines)) == len(DENIED) >= 250
    assert all(" " not in line and not line.startswith("www.") and line == line.lower() for line in lines)


def test_no_work_links_to_a_denied_host_or_a_copy_of_wikipedia():
    for work in FILES.sources.itertuples():
        if work.url:
            assert denied_entry(work.url, DENIED) is None, (work.id, work.url)
        if work.kind == "wikipedia":
            assert is_wikipedia_article(work.url), (work.id, work.url)


def test_every_work_is_cited_by_some_card():
    assert set(FILES.sources["id"]) == set(FILES.citations["source"])


COUNTS = numbers_by_kind(FILES)


def test_the_readme_prints_the_counts_by_kind_of_work():
    readme = (DATA_DIR.parent.parent / "README.md").read_text(encoding="utf-8")
    assert numbers_table(COUNTS) in readme, numbers_table(COUNTS)


# Issue 25's targets are at most 10% of each deck's numbers on Wikipedia and at least half of the prehistoric
# deck's on a paper or data set. They are not met yet (the README says where the data stands); these shares are
# held where the re-sourcing left them, so they can only move towards the targets.
WIKIPEDIA_AT_MOST = {"dinosaurs": 0.23, "animals": 0.10}
PAPER_OR_DATA_SET_AT_LEAST = {"dinosaurs": 0.54}


@pytest.mark.parametrize("deck", ["dinosaurs", "animals"])
def test_wikipedia_backs_no_more_of_each_decks_numbers_than_now(deck):
    assert COUNTS.loc["wikipedia", deck] <= WIKIPEDIA_AT_MOST[deck] * COUNTS.loc["numbers", deck], numbers_table(COUNTS)


def test_a_paper_or_data_set_backs_no_fewer_of_the_prehistoric_decks_numbers_than_now():
    share = PAPER_OR_DATA_SET_AT_LEAST["dinosaurs"]
    assert COUNTS.loc["paper or data set", "dinosaurs"] >= share * COUNTS.loc["numbers", "dinosaurs"], numbers_table(COUNTS)


def test_lifespan_records_are_apart_from_typical_lifespans():
    both = ANIMALS.dropna(subset=["lifespan_years", "lifespan_record_years"])
    assert (both["lifespan_record_years"] >= both["lifespan_years"]).all()


# Records once given as typical lifespans (issue 25): each card's typical life is now shorter than that record.
@pytest.mark.parametrize(("slug", "record"), [
    ("beluga-sturgeon", 118), ("great-white-shark", 70), ("sperm-whale", 70), ("european-rabbit", 9),
    ("giant-african-land-snail", 9), ("secretarybird", 18.6), ("tiger", 17.5),
])
def test_a_record_is_not_a_typical_lifespan(slug, record):
    """Each is now shorter than that record, or empty where no allowed source gives a typical life (and says so)."""
    card = ANIMALS.set_index("slug").loc[slug]
    if pd.isna(card["lifespan_years"]):
        assert "lifespan_years empty:" in card["notes"], slug
    else:
        assert card["lifespan_years"] < record, (slug, card["lifespan_years"])


@pytest.mark.parametrize(("column", "low", "high"), [("length_m", "length_low_m", "length_high_m"),
                                                      ("mass_kg", "mass_low_kg", "mass_high_kg")])
def test_a_typical_value_on_a_range_end_says_why(column, low, high):
    from cards_db.schema import RANGE_NOTES

    known = CARDS.dropna(subset=[column, low, high])
    on_end = known[(known[column] == known[low]) | (known[column] == known[high]) | (known[low] == known[high])]
    unexplained = on_end[~on_end["notes"].str.contains(RANGE_NOTES[column], regex=False)]
    assert unexplained.empty, list(unexplained["slug"])


# The printed game leaves at most five values empty. Issue 25 drops that aim for the prehistoric deck (Cambrian
# soft-bodied animals, trilobites and early fishes have no published mass) and keeps it as an aim for the living
# deck, not met: a lifespan is a typical whole life from an allowed source, or empty (records are shown apart).
# The README lists every empty value. The limits only ever go down.
MOST_EMPTY = {("dinosaurs", "mass_kg"): 28, ("dinosaurs", "length_m"): 3, ("animals", "mass_kg"): 13,
              ("animals", "length_m"): 7, ("animals", "lifespan_years"): 35}


@pytest.mark.parametrize(("deck", "column"), [("dinosaurs", "mass_kg"), ("animals", "mass_kg"),
                                              ("animals", "lifespan_years"), ("dinosaurs", "length_m"),
                                              ("animals", "length_m")])
def test_at_most_five_values_are_empty_per_deck_each_explained(deck, column):
    cards = CARDS[CARDS["deck"] == deck]
    empty = cards[cards[column].isna()]
    assert len(empty) <= MOST_EMPTY.get((deck, column), 5), list(empty["slug"])
    for _, card in empty.iterrows():
        assert f"{column} empty:" in card["notes"], card["slug"]


@pytest.mark.parametrize(("column", "low", "high"), [("length_m", "length_low_m", "length_high_m"),
                                                      ("mass_kg", "mass_low_kg", "mass_high_kg")])
def test_every_typical_value_sits_inside_its_published_range(column, low, high):
    known = CARDS.dropna(subset=[column])
    assert known[low].notna().all() and known[high].notna().all()
    outside = known[(known[column] < known[low]) | (known[column] > known[high])]
    assert outside.empty, list(outside["slug"])


def test_every_card_says_where_and_how_it_lived():
    assert (CARDS["continents"] != "").all(), list(CARDS[CARDS["continents"] == ""]["slug"])
    assert (CARDS["habitat"] != "").all(), list(CARDS[CARDS["habitat"] == ""]["slug"])
    for column in ("name_meaning", "named_by"):
        assert (DINOSAURS[column] != "").all(), (column, list(DINOSAURS[DINOSAURS[column] == ""]["slug"]))
    # Antarctica belongs to no country: only fossils found there alone name none.
    no_country = DINOSAURS[DINOSAURS["countries"] == ""]
    assert (no_country["continents"] == "Antarctica").all(), list(no_country["slug"])
    assert DINOSAURS["named_year"].notna().all()
    assert not set(DINOSAURS["continents"].str.split("; ").explode()) - set(CONTINENTS), "fossils are found on land"


def test_one_measure_of_size_per_kind_of_animal_in_each_deck():
    measures = CARDS.dropna(subset=["length_m"]).groupby(["deck", "body_plan"])["size_measure"].nunique()
    assert (measures == 1).all(), measures[measures > 1]


@pytest.mark.parametrize(("slug", "low", "high"), [
    ("carcharodontosaurus", 5000, 15000), ("triceratops", 5000, 10000), ("iguanodon", 2500, 5000),
])
def test_masses_once_at_an_edge_now_sit_where_reviews_put_them(slug, low, high):
    card = CARDS.set_index("slug").loc[slug]
    assert low <= card["mass_kg"] <= high


def test_maiasaura_is_dated_to_its_formation_not_a_bracket():
    card = DINOSAURS.set_index("slug").loc["maiasaura"]
    assert card["first_appearance_ma"] - card["last_appearance_ma"] < 5
    assert card["last_appearance_ma"] <= 76.7 <= card["first_appearance_ma"] + 0.5


def test_lifespans_are_whole_lives():
    animals = ANIMALS.set_index("slug")
    assert animals.loc["mayfly", "lifespan_years"] >= 1, "a mayfly's years as a nymph count"
    assert animals.loc["periodical-cicada", "lifespan_years"] >= 13
    shark = animals.loc["greenland-shark", "lifespan_years"]
    assert pd.isna(shark) or shark >= 100, "a Greenland shark lives for centuries"


@pytest.mark.parametrize(("slug", "fact_figure"), [("paradoxides", "37 cm"), ("wetapunga", "71 g")])
def test_facts_once_against_their_card_now_agree(slug, fact_figure):
    """Both once escaped the fact check ("record", "ever", "eggs"); the loader's check reads them now."""
    from cards_db.figures import quoted_figures

    card = CARDS.set_index("slug").loc[slug]
    for column, value, tolerance, _ in quoted_figures(card["fact"]):
        low, high = {"length_m": ("length_low_m", "length_high_m"), "mass_kg": ("mass_low_kg", "mass_high_kg")}[column]
        assert card[low] - tolerance <= value <= card[high] + tolerance, (slug, card["fact"])


def test_the_fact_check_reads_the_figures_it_once_missed():
    from cards_db.figures import quoted_figures

    found = [(c, round(v, 3)) for c, v, _, _ in quoted_figures(
        "one record-breaking fossil of P. davidis is 37 cm long, far bigger than usual.")]
    assert found == [("length_m", 0.37)]
    found = [(c, round(v, 3)) for c, v, _, _ in quoted_figures(
        "One of the heaviest insects ever weighed: a female full of eggs, found in 2011, weighed 71 g.")]
    assert found == [("mass_kg", 0.071)]
    assert [round(v, 2) for _, v, _, _ in quoted_figures("Anomalocaris grew up to three feet long.")] == [0.91]


def test_every_card_is_dated_by_the_ics_chart():
    from cards_db.loader import period_of

    for _, card in DINOSAURS.iterrows():
        assert period_of(PERIODS, card["first_appearance_ma"], "first") == card["first_period"], card["slug"]
        assert period_of(PERIODS, card["last_appearance_ma"], "last") == card["last_period"], card["slug"]
    assert dict(zip(PERIODS["period"], PERIODS["start_ma"]))["Jurassic"] == 201.4
    assert dict(zip(PERIODS["period"], PERIODS["end_ma"]))["Jurassic"] == 143.1


@pytest.mark.parametrize("body_plan", sorted(set(CARDS["body_plan"])))
def test_every_body_plan_in_use_has_a_silhouette(body_plan):
    (_x, _y, width, height), inner = shape(f"silhouettes/{body_plan}.svg")
    assert width > 0 and height > 0 and "<path" in inner


def test_every_listed_body_plan_is_drawn():
    assert {p.stem for p in FOLDER.glob("*.svg")} >= set(BODY_PLANS)


def test_slugs_are_unique():
    assert CARDS["slug"].is_unique


# Drawings: the famous animals have their own, and no card is drawn as another kind of animal.
DRAWINGS = {row.slug: silhouettes.drawing(row) for row in CARDS.itertuples()}


def test_every_drawing_exists_parses_and_is_one_colour():
    for path in sorted(set(DRAWINGS.values())):
        (_x, _y, width, height), inner = silhouettes.shape(path)
        assert width > 0 and height > 0 and "currentColor" in inner, path
        text = (silhouettes.STATIC / path).read_text()
        assert "<image" not in text and "href" not in text and "stroke=" not in text and len(text) < 6000, path


@pytest.mark.parametrize("slug", silhouettes.FAMOUS)
def test_each_famous_animal_has_a_drawing_of_its_own(slug):
    assert slug in DRAWINGS, f"{slug} is not a card"
    path = DRAWINGS[slug]
    assert path.startswith("outlines/") and [s for s, p in DRAWINGS.items() if p == path] == [slug]


def test_every_living_family_is_drawn_by_its_own_shape_or_a_body_plan_that_fits_it():
    families = set(CARDS["family"].dropna())
    assert families <= set(silhouettes.FAMILY_OUTLINES) | silhouettes.FAMILIES_DRAWN_BY_BODY_PLAN
    assert not set(silhouettes.FAMILY_OUTLINES) & silhouettes.FAMILIES_DRAWN_BY_BODY_PLAN


@pytest.mark.parametrize(("slugs", "drawn_as"), [
    (("giraffe",), "outlines/giraffe.svg"),
    (("emperor-penguin", "king-penguin", "african-penguin"), "outlines/penguin.svg"),
    (("lion", "tiger", "cheetah"), "outlines/big-cat.svg"),
    (("blue-whale", "humpback-whale"), "outlines/baleen-whale.svg"),
    (("deinonychus", "utahraptor"), "outlines/dromaeosaur.svg"),
    (("liopleurodon", "kronosaurus"), "outlines/pliosaur.svg"),
])
def test_animals_are_drawn_as_their_own_kind(slugs, drawn_as):
    assert {DRAWINGS[slug] for slug in slugs} == {drawn_as}


def test_no_two_unlike_kinds_share_a_generic_outline():
    """The generic mammal and bird outlines draw nobody any more, and no living family shares its drawing
    with a family of another order of shape (each family outline lists the families it fits)."""
    assert not [slug for slug, path in DRAWINGS.items() if path in ("silhouettes/mammal.svg", "silhouettes/bird.svg")
                and CARDS.set_index("slug").loc[slug, "deck"] == "animals"]
    mammals = CARDS[(CARDS["deck"] == "animals") & CARDS["group"].isin(["mammal", "sea mammal"])]
    assert mammals["slug"].map(DRAWINGS).nunique() >= 25  # one outline served all the mammals before


def test_tyrannosaurus_allosaurus_and_albertosaurus_are_drawn_differently():
    assert len({DRAWINGS[s] for s in ("tyrannosaurus", "allosaurus", "albertosaurus")}) == 3


# Cards once drawn as another animal (a legless Ambulocetus, horned early ceratopsians, Cambrian animals as sea
# scorpions or a worm, three unlike giant birds as one ostrich, an orthocone as a squid): each drawing and the
# only cards it may draw, its own group.
REDRAWN = {
    "outlines/walking-whale.svg": ("ambulocetus",),
    "outlines/psittacosaurus.svg": ("psittacosaurus",),
    "outlines/protoceratops.svg": ("protoceratops",),
    "outlines/opabinia.svg": ("opabinia",),
    "outlines/marrella.svg": ("marrella",),
    "outlines/hallucigenia.svg": ("hallucigenia",),
    "outlines/gastornis.svg": ("gastornis",),
    "outlines/terror-bird.svg": ("titanis",),
    "outlines/moa.svg": ("giant-moa",),
    "outlines/orthocone.svg": ("cameroceras",),
}


REDRAWN_CARDS = [(slug, drawn_as, group) for drawn_as, group in REDRAWN.items() for slug in group]


@pytest.mark.parametrize(("slug", "drawn_as", "group"), REDRAWN_CARDS, ids=[slug for slug, _, _ in REDRAWN_CARDS])
def test_redrawn_card_shares_its_drawing_with_no_card_of_another_group(slug, drawn_as, group):
    assert DRAWINGS[slug] == drawn_as
    assert {s for s, p in DRAWINGS.items() if p == drawn_as} <= set(group)


@pytest.mark.parametrize("drawn_as", REDRAWN)
def test_each_new_drawing_parses_and_has_a_title(drawn_as):
    text = (silhouettes.STATIC / drawn_as).read_text()
    title = ET.fromstring(text).find(f"{{{silhouettes.SVG_NS}}}title")
    assert title is not None and title.text.strip()
    (_x, _y, width, height), inner = silhouettes.shape(drawn_as)
    assert width > 0 and height > 0 and "<path" in inner and "currentColor" in inner
    assert not re.search(r"<script|style=|href|url\(", text)
