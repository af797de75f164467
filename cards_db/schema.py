"""The card schema: columns of each deck file and the values each column may take."""

DECKS = {
    "dinosaurs": "Cardline: Dinosaurs (prehistoric animals)",
    "animals": "Cardline: Animals (living animals)",
}

DECK_FILES = {"dinosaurs": "dinosaurs.csv", "animals": "animals.csv"}
PERIODS_FILE = "periods.csv"
EXTINCTIONS_FILE = "extinctions.csv"
# The bibliography: every work cited, once, and which card fields each work supports.
SOURCES_FILE = "sources.csv"
CITATIONS_FILE = "citations.csv"
DENIED_HOSTS_FILE = "denied_hosts.txt"
SOURCE_COLUMNS = ["id", "kind", "authors", "title", "container", "year", "doi", "url"]
CITATION_COLUMNS = ["slug", "fields", "source", "detail"]
# The kinds of work a card may cite, in the order the sources page shows them, under its headings.
SOURCE_KINDS = {
    "paper": "paper", "dataset": "data set", "museum": "museum", "university": "university",
    "government": "government body", "iucn": "IUCN", "reference": "reference work",
    "zoo": "zoo or aquarium", "wikipedia": "Wikipedia",
}
SOURCE_GROUPS = [
    ("papers", "Papers", ["paper"]),
    ("data-sets", "Data sets", ["dataset"]),
    ("museums", "Museums and universities", ["museum", "university"]),
    ("government", "Government and IUCN", ["government", "iucn"]),
    ("reference", "Reference works", ["reference"]),
    ("zoos", "Zoos and aquariums", ["zoo"]),
    ("wikipedia", "Wikipedia", ["wikipedia"]),
]
# Wikipedia itself (never a copy of it) is the only wiki a card may cite.

DECK_COLUMNS = {
    "dinosaurs": [
        "slug", "common_name", "scientific_name", "group", "body_plan", "diet", "diet_detail",
        "first_period", "last_period", "first_appearance_ma", "last_appearance_ma",
        "size_measure", "length_m", "length_low_m", "length_high_m", "mass_kg", "mass_low_kg",
        "mass_high_kg", "continents", "countries", "habitat", "name_meaning", "pronunciation",
        "named_by", "named_year", "fact", "notes",
    ],
    "animals": [
        "slug", "common_name", "scientific_name", "group", "body_plan", "family", "diet",
        "diet_detail", "size_measure", "length_m", "length_low_m", "length_high_m", "mass_kg",
        "mass_low_kg", "mass_high_kg", "lifespan_years", "lifespan_record_years", "continents", "habitat",
        "iucn_status", "fact", "notes",
    ],
}

REQUIRED = {
    "dinosaurs": [
        "slug", "common_name", "scientific_name", "group", "body_plan", "first_period",
        "last_period", "first_appearance_ma", "last_appearance_ma", "fact",
    ],
    "animals": [
        "slug", "common_name", "scientific_name", "group", "body_plan", "family", "fact",
    ],
}

# Numbers and the smallest value each may take (exclusive for sizes, inclusive for ages).
POSITIVE_NUMBERS = ["length_m", "length_low_m", "length_high_m", "mass_kg", "mass_low_kg",
                    "mass_high_kg", "lifespan_years", "lifespan_record_years"]
AGE_NUMBERS = ["first_appearance_ma", "last_appearance_ma"]
YEAR_NUMBERS = ["named_year"]
# A typical value and the (low, high) ends of the range published estimates span.
RANGES = {"length_m": ("length_low_m", "length_high_m"), "mass_kg": ("mass_low_kg", "mass_high_kg")}
# A value left empty must say why in `notes`, as "<column> empty: <reason>".
EXPLAINED_WHEN_EMPTY = ["length_m", "mass_kg", "lifespan_years"]
# Columns holding a list, and the values each may take (None: any text).
LISTS = {
    "continents": ["Africa", "Antarctica", "Asia", "Europe", "North America", "South America",
                   "Oceania", "Atlantic Ocean", "Pacific Ocean", "Indian Ocean", "Arctic Ocean",
                   "Southern Ocean"],
    "countries": None,
    "habitat": ["land", "sea", "fresh water", "air"],
}
CONTINENTS = LISTS["continents"][:7]
HABITAT_WORDS = {"land": "on land", "sea": "in the sea", "fresh water": "in fresh water", "air": "in the air"}
# Every filled value of these columns must be named by a citation (citations.csv).
SOURCED = POSITIVE_NUMBERS + AGE_NUMBERS + YEAR_NUMBERS + [
    "iucn_status", "continents", "countries", "habitat", "name_meaning", "pronunciation", "named_by",
]
# Fields a citation may name: the sourced ones and the diet.
CITABLE = [*SOURCED, "diet"]
# The numbers of a deck, counted by the kind of work that backs them (the README's table).
COUNTED_NUMBERS = POSITIVE_NUMBERS + AGE_NUMBERS
# A typical value on a range end, or a range of one value, says why in `notes` under this marker.
RANGE_NOTES = {"length_m": "length range:", "mass_kg": "mass range:"}

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
    "pachycephalosaur", "pterosaur", "bird", "flightless-bird", "ichthyosaur", "plesiosaur", "mosasaur",
    "crocodilian", "lizard", "snake", "turtle", "amphibian", "fish", "shark", "arthropod",
    "trilobite", "insect", "arachnid", "crustacean", "cephalopod", "mollusc", "worm", "synapsid",
    "mammal", "proboscidean", "whale", "primate", "human",
]

# Silhouettes of animals measured by a height are scaled by height, all others by length.
HEIGHT_MEASURES = {"standing height", "shoulder height"}

# The rulebook's diets and the sub-diets that belong to each.
DIETS = {
    "carnivore": ["piscivore", "insectivore", "scavenger"],
    "herbivore": ["frugivore", "folivore", "granivore", "nectarivore", "lignivore"],
    "omnivore": [],
}

# What each diet word means, in words a child reads.
# What each era's name means (Greek: palaios old, mesos middle, kainos new; zoe life) and what lived then.
ERA_WORDS = {
    "Paleozoic": ("old life", "life in the sea, the first fishes, and the first plants and animals on land"),
    "Mesozoic": ("middle life", "the age of the dinosaurs"),
    "Cenozoic": ("new life", "the age of mammals"),
}
# The ICS chart's period symbols, short enough for a narrow bar or strip (one each: Cm is not C).
PERIOD_SYMBOLS = {"Cambrian": "Cm", "Ordovician": "O", "Silurian": "S", "Devonian": "D",
                  "Carboniferous": "C", "Permian": "P", "Triassic": "Tr", "Jurassic": "J",
                  "Cretaceous": "K", "Paleogene": "Pg", "Neogene": "N", "Quaternary": "Q"}

DIET_WORDS = {
    "carnivore": "eats other animals", "herbivore": "eats plants", "omnivore": "eats plants and animals",
    "piscivore": "eats mostly fish", "insectivore": "eats mostly insects",
    "scavenger": "eats animals that are already dead", "frugivore": "eats fruit", "folivore": "eats leaves",
    "granivore": "eats seeds", "nectarivore": "drinks nectar from flowers", "lignivore": "eats wood",
}

SIZE_MEASURES = [
    "total length", "head-body length", "standing height", "shoulder height", "wingspan",
    "shell length", "carapace length", "mantle length",
]

# Like with like: within a deck every card of one body plan is measured the same way.
SIZE_MEASURE_BY_PLAN = {
    "dinosaurs": {
        "bird": "wingspan", "flightless-bird": "standing height", "pterosaur": "wingspan",
        "insect": "wingspan", "mammal": "head-body length", "proboscidean": "shoulder height",
        "human": "standing height", "primate": "standing height", "mollusc": "shell length",
        "cephalopod": "shell length",
    },
    "animals": {
        "bird": "standing height", "flightless-bird": "standing height",
        "mammal": "head-body length", "primate": "head-body length", "human": "standing height",
        "proboscidean": "head-body length", "mollusc": "shell length",
        "cephalopod": "mantle length", "turtle": "carapace length",
    },
}
DEFAULT_SIZE_MEASURE = "total length"


def size_measure_for(deck, body_plan):
    """Return the one measure a deck uses for cards of `body_plan`."""
    return SIZE_MEASURE_BY_PLAN[deck].get(body_plan, DEFAULT_SIZE_MEASURE)

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

MAX_FACT_LENGTH = 240
