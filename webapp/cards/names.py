"""Finding a card by what people type: common or scientific name in any case, a nickname, a small typo."""

import difflib
import re

from sqlalchemy import select

from webapp.extensions import db
from webapp.models import Card

# Names people use that are not on the card (normalised: lower case, letters and digits, single spaces).
NICKNAMES = {
    "t rex": "tyrannosaurus", "trex": "tyrannosaurus", "tyrannosaurus rex": "tyrannosaurus", "rex": "tyrannosaurus",
    "raptor": "velociraptor", "trike": "triceratops", "stego": "stegosaurus", "spino": "spinosaurus",
    "bronto": "brontosaurus", "brachio": "brachiosaurus", "ptero": "pteranodon", "megatherium": "giant-ground-sloth",
    "mammoth": "woolly-mammoth", "sabre tooth cat": "smilodon", "saber tooth cat": "smilodon",
    "sabre toothed cat": "smilodon", "saber toothed tiger": "smilodon", "sabre toothed tiger": "smilodon",
    "people": "human", "person": "human", "homo sapiens": "human",
}
# Words for a kind of animal that is no group of the cards (normalised): the cards they name.
KIND_WORDS = {
    "shark": ("megalodon", "cladoselache", "stethacanthus", "great-white-shark", "greenland-shark", "whale-shark"),
    "sea scorpion": ("eurypterus", "pterygotus", "jaekelopterus"),
    "terror bird": ("titanis",),
}
# Short words for a group of the cards.
GROUP_NICKNAMES = {"dino": "dinosaur", "dinos": "dinosaur"}
TYPO_CUTOFF = 0.84


def normalise(text):
    """Lower-case `text` and keep letters and digits, words split by single spaces ('T. rex' -> 't rex')."""
    return " ".join(re.findall(r"[^\W_]+", text.casefold()))


def name_index():
    """Return {normalised name: slug} for every card's slug, common and scientific name, genus and nickname."""
    index = dict(NICKNAMES)
    for slug, common, scientific in db.session.execute(select(Card.slug, Card.common_name, Card.scientific_name)):
        for name in (slug, common, scientific, scientific.split()[0]):
            index.setdefault(normalise(name), slug)
        index[normalise(slug)] = slug
    return index


def find_slug(text, index=None):
    """Return the slug of the card `text` names, forgiving case, punctuation and a small typo; else None."""
    index = name_index() if index is None else index
    key = normalise(text)
    if key in index:
        return index[key]
    close = difflib.get_close_matches(key, index, n=1, cutoff=TYPO_CUTOFF) if len(key) >= 4 else []
    return index[close[0]] if close else None


def suggestion(text, index=None):
    """Return a card name close to `text` to suggest ('Did you mean …?'), or None."""
    index = name_index() if index is None else index
    close = difflib.get_close_matches(normalise(text), index, n=1, cutoff=0.6)
    return close[0] if close else None


def kind_named(words):
    """Return the slugs a kind word names ('sharks', 'sea scorpion'), or ()."""
    return KIND_WORDS.get(words, KIND_WORDS.get(words[:-1], ()) if words.endswith("s") else ())


def common_names():
    """Return every card's common name, sorted, for a suggestion list."""
    return sorted(db.session.scalars(select(Card.common_name)))
