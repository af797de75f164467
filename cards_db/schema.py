"""The card schema: columns of each deck file and the values each column may take."""

DECKS = {
    "dinosaurs": "Cardline: Dinosaurs (prehistoric animals)",
    "animals": "Cardline: Animals (living animals)",
}

DECK_FILES = {"dinosaurs": "dinosaurs.csv", "animals": "animals.csv"}
PERIODS_FILE = "periods.csv"
EXTINCTIONS_FILE = "extinctions.csv"

DECK_COLUMNS = {
    "dinosaurs": [
        "slug", "common_name", "scientific_name", "group", "body_plan", "diet", "diet_detail",
        "first_period", "last_period", "first_appearance_ma", "last_appearance_ma",
        "size_measure", "length_m", "mass_kg", "fact", "sources", "notes",
    ],
    "animals": [
        "slug", "common_name", "scientific_name", "group", "body_plan", "family", "diet",
        "diet_detail", "size_measure", "length_m", "mass_kg", "lifespan_years", "iucn_status",
        "fact", "sources", "notes",
    ],
}

REQUIRED = {
    "dinosaurs": [
        "slug", "common_name", "scientific_name", "group", "body_plan", "first_period",
        "last_period", "first_appearance_ma", "last_appearance_ma", "fact", "sources",
    ],
    "animals": [
        "slug", "common_name", "scientific_name", "group", "body_plan", "family", "fact", "sources",
    ],
}

# Numbers and the smallest value each may take (exclusive for sizes, inclusive for ages).
POSITIVE_NUMBERS = ["length_m", "mass_kg", "lifespan_years"]
AGE_NUMBERS = ["first_appearance_ma", "last_appearance_ma"]
# Every filled value of these columns must name its source in the `sources` column.
SOURCED = POSITIVE_NUMBERS + AGE_NUMBERS + ["iucn_status"]

GROUPS = {
    "dinosaurs": [
        "dinosaur", "bird", "pterosaur", "marine reptile", "reptile", "amphibian", "fish",
        "arthropod", "mollusc", "other invertebrate", "synapsid", "mammal",
    ],
    "animals": [
        "amphibian", "arachnid", "crustacean", "insect", "mammal", "sea mammal", "mollusc",
        "bird", "fish", "reptile",
    ],
}

BODY_PLANS = [
    "theropod", "sauropod", "ceratopsian", "ankylosaur", "stegosaur", "ornithopod",
    "pachycephalosaur", "pterosaur", "bird", "ichthyosaur", "plesiosaur", "mosasaur",
    "crocodilian", "lizard", "snake", "turtle", "amphibian", "fish", "shark", "arthropod",
    "trilobite", "insect", "arachnid", "crustacean", "cephalopod", "mollusc", "worm", "synapsid",
    "mammal", "proboscidean", "whale", "primate", "human",
]

# Silhouettes of animals drawn upright are scaled by height, all others by length.
UPRIGHT_BODY_PLANS = {"human", "primate", "bird"}

# The rulebook's diets and the sub-diets that belong to each.
DIETS = {
    "carnivore": ["piscivore", "insectivore", "scavenger"],
    "herbivore": ["frugivore", "folivore", "granivore", "nectarivore", "lignivore"],
    "omnivore": [],
}

SIZE_MEASURES = [
    "total length", "head-body length", "standing height", "shoulder height", "wingspan",
    "shell diameter", "carapace length", "leg span", "mantle length",
]

IUCN_STATUSES = {
    "LC": "Least Concern",
    "NT": "Near Threatened",
    "VU": "Vulnerable",
    "EN": "Endangered",
    "CR": "Critically Endangered",
    "EW": "Extinct in the Wild",
    "DD": "Data Deficient",
    "NE": "Not Evaluated",
}

SOURCE_SEPARATOR = " | "
MAX_FACT_LENGTH = 240
