"""Dino nicknames: a kind word and a prehistoric animal ("Swift Raptor", "Tiny Trike"), for students who keep their
real names to themselves; a teacher can make a round take nothing else."""

import secrets

from webapp.common import nicknames

# Each name fits the nickname rule (20 characters at most): adjectives of 9 letters at most, animals of 10.
ADJECTIVES = (
    "Swift", "Tiny", "Brave", "Happy", "Clever", "Mighty", "Sunny", "Gentle", "Jolly", "Bouncy", "Speedy", "Sleepy",
    "Fuzzy", "Sparkly", "Cosmic", "Lucky", "Bold", "Bright", "Calm", "Cheerful", "Curious", "Daring", "Eager",
    "Fancy", "Fearless", "Friendly", "Giant", "Golden", "Grand", "Jumpy", "Kind", "Lively", "Loyal", "Merry", "Noble",
    "Plucky", "Proud", "Quick", "Quiet", "Royal", "Shiny", "Silver", "Smiley", "Snappy", "Spotty", "Stripy", "Super",
    "Sturdy", "Wise", "Witty", "Zippy", "Misty", "Stormy", "Frosty", "Mossy", "Rocky", "Leafy", "Stompy", "Fluffy",
    "Feathery",
)
ANIMALS = (
    "Raptor", "Trike", "Rex", "Stego", "Bronto", "Ptero", "Spino", "Ankylo", "Diplo", "Brachio", "Allosaur",
    "Iguanodon", "Compy", "Mammoth", "Mastodon", "Ammonite", "Trilobite", "Dodo", "Moa", "Megalodon", "Sabretooth",
    "Smilodon", "Mosasaur", "Plesiosaur", "Dimetrodon", "Oviraptor", "Maiasaura", "Troodon", "Gallimimus", "Pachy",
    "Parasaur", "Baryonyx", "Archelon", "Glyptodon", "Coelacanth", "Nautilus", "Titanosaur", "Sauropod", "Hadrosaur",
    "Tiktaalik", "Eryops", "Styraco", "Carnotaur", "Ichthyo", "Kentro",
)
SUGGESTIONS = 6
SETTING_LABEL = "Students choose a dino name (no real names)"  # the teacher's choice, on every form that starts a round
ONLY_DINO_NAMES = "In this round everyone plays under a dino name: pick one of the names offered."
_ADJECTIVES = {word.casefold(): word for word in ADJECTIVES}
_ANIMALS = {word.casefold(): word for word in ANIMALS}


def all_names():
    """Return every name the generator can make."""
    return [f"{adjective} {animal}" for adjective in ADJECTIVES for animal in ANIMALS]


def suggestions(count=SUGGESTIONS, rng=None):
    """Return `count` different dino names drawn at random (from `rng`, a random.Random, if given)."""
    rng = rng or secrets.SystemRandom()
    picks = rng.sample(range(len(ADJECTIVES) * len(ANIMALS)), count)
    return [f"{ADJECTIVES[pick // len(ANIMALS)]} {ANIMALS[pick % len(ANIMALS)]}" for pick in picks]


def as_made(name):
    """Return the dino name `name` is (any case, any spacing) as the generator writes it, or None for any other name."""
    words = nicknames.tidy(name).casefold().split(" ")
    if len(words) != 2 or words[0] not in _ADJECTIVES or words[1] not in _ANIMALS:
        return None
    return f"{_ADJECTIVES[words[0]]} {_ANIMALS[words[1]]}"


def required(settings):
    """Say whether a round's settings let its students play under dino names only."""
    return bool(settings.get("dino_names"))
