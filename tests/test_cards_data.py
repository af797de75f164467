"""The shipped card data: schema, coverage, physical sense, and sources for every number."""

import pandas as pd
import pytest

from cards_db import read_cards
from cards_db.schema import BODY_PLANS, SOURCED
from webapp.cards.silhouettes import FOLDER, shape

PERIODS, CARDS = read_cards()
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
    assert ANIMALS["lifespan_years"].notna().sum() >= 80


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


def test_every_filled_number_names_its_source():
    from cards_db import parse_sources

    for _, card in CARDS.iterrows():
        named = {field for entry in parse_sources(card["sources"]) for field in entry["fields"]}
        for column in SOURCED:
            if column in card and not pd.isna(card[column]) and card[column] != "":
                assert column in named, (card["slug"], column)


def test_five_or_more_prehistoric_cards_have_no_weight_as_science_allows():
    assert DINOSAURS["mass_kg"].isna().sum() >= 1


@pytest.mark.parametrize("body_plan", sorted(set(CARDS["body_plan"])))
def test_every_body_plan_in_use_has_a_silhouette(body_plan):
    (_x, _y, width, height), inner = shape(body_plan)
    assert width > 0 and height > 0 and "<path" in inner


def test_every_listed_body_plan_is_drawn():
    assert {p.stem for p in FOLDER.glob("*.svg")} >= set(BODY_PLANS)


def test_slugs_are_unique():
    assert CARDS["slug"].is_unique
