"""Card illustrations: each card's drawing (its own, its family's or group's, or its body plan's), and a size
comparison with a person.

Drawings live in static/outlines/ (drawn for this project: one per famous animal, one per family or group
shape) and static/silhouettes/ (one per body plan, for the cards whose body plan already fits them).
"""

import functools
import xml.etree.ElementTree as ET
from pathlib import Path

from markupsafe import Markup, escape

from cards_db.schema import HEIGHT_MEASURES

STATIC = Path(__file__).parents[1] / "static"
FOLDER = STATIC / "silhouettes"

# The thirty best-known animals of the decks: each has a drawing of its own that no other card uses.
FAMOUS = (
    "tyrannosaurus", "triceratops", "stegosaurus", "brachiosaurus", "velociraptor", "spinosaurus", "ankylosaurus",
    "parasaurolophus", "allosaurus", "diplodocus", "pteranodon", "mosasaurus", "elasmosaurus", "ichthyosaurus",
    "dimetrodon", "anomalocaris", "paradoxides", "dunkleosteus", "megalodon", "woolly-mammoth", "smilodon",
    "archaeopteryx", "quetzalcoatlus", "iguanodon", "pachycephalosaurus", "therizinosaurus", "carnotaurus",
    "meganeura", "giant-ground-sloth", "glyptodon",
)
# Prehistoric cards drawn with their group's shape (the rest keep their body plan's silhouette).
GROUP_OUTLINES = {
    "dromaeosaur": ("deinonychus", "utahraptor", "microraptor"),
    "ornithomimid": ("gallimimus", "deinocheirus"),
    "small-theropod": ("coelophysis", "compsognathus", "herrerasaurus", "liliensternus", "mononykus", "eoraptor"),
    "ceratopsian": ("styracosaurus", "pachyrhinosaurus"),
    # Early ceratopsians: no horns and no great frill (Psittacosaurus runs on two legs with bristles on its tail).
    "psittacosaurus": ("psittacosaurus",),
    "protoceratops": ("protoceratops",),
    "hadrosaur": ("edmontosaurus", "maiasaura", "corythosaurus"),
    "sauropod": ("apatosaurus", "brontosaurus", "camarasaurus", "mamenchisaurus", "argentinosaurus",
                 "dreadnoughtus", "giraffatitan", "amargasaurus", "nigersaurus"),
    "pliosaur": ("liopleurodon", "kronosaurus"),
    "sea-scorpion": ("eurypterus", "pterygotus", "jaekelopterus"),
    "opabinia": ("opabinia",),
    "marrella": ("marrella",),
    "hallucigenia": ("hallucigenia",),
    "orthocone": ("cameroceras",),
    "millipede": ("arthropleura",),
    "early-tetrapod": ("ichthyostega", "acanthostega", "tiktaalik"),
    "salamander": ("eryops",),
    "rhino": ("woolly-rhinoceros",),
    "rhino-hornless": ("paraceratherium",),
    "uintathere": ("uintatherium",),
    "marsupial-giant": ("diprotodon",),
    "deer": ("irish-elk",),
    "bear": ("cave-bear",),
    "elephant": ("deinotherium",),
    "early-whale": ("basilosaurus",),
    "walking-whale": ("ambulocetus",),
    "sperm-whale": ("livyatan",),
    "edaphosaurus": ("edaphosaurus",),
    "dicynodont": ("lystrosaurus", "placerias"),
    "gorgonopsid": ("inostrancevia",),
    "long-neck-reptile": ("tanystropheus",),
    "pareiasaur": ("scutosaurus",),
    "sea-turtle": ("archelon",),
    "eagle": ("argentavis",),
    "gastornis": ("gastornis",),
    "terror-bird": ("titanis",),
    "moa": ("giant-moa",),
}
# Living animals drawn by their family's shape; a family not listed keeps its body plan's silhouette.
FAMILY_OUTLINES = {
    "Felidae": "big-cat", "Canidae": "canid", "Equidae": "horse", "Giraffidae": "giraffe", "Hippopotamidae": "hippo",
    "Rhinocerotidae": "rhino", "Ursidae": "bear", "Macropodidae": "kangaroo", "Phascolarctidae": "koala",
    "Hominidae": "great-ape", "Elephantidae": "elephant", "Muridae": "mouse", "Soricidae": "mouse",
    "Sciuridae": "squirrel", "Caviidae": "capybara", "Leporidae": "rabbit", "Erinaceidae": "hedgehog",
    "Herpestidae": "meerkat", "Myrmecophagidae": "anteater", "Craseonycteridae": "bat", "Mustelidae": "otter",
    "Phocidae": "seal", "Otariidae": "seal", "Odobenidae": "walrus", "Ornithorhynchidae": "platypus",
    "Delphinidae": "dolphin", "Physeteridae": "sperm-whale", "Balaenopteridae": "baleen-whale",
    "Trichechidae": "manatee",
    "Spheniscidae": "penguin", "Accipitridae": "eagle", "Sagittariidae": "wader", "Ardeidae": "wader",
    "Gruidae": "wader", "Ciconiidae": "wader", "Balaenicipitidae": "wader", "Phoenicopteridae": "flamingo",
    "Trochilidae": "hummingbird", "Alcidae": "puffin", "Apterygidae": "kiwi",
    "Molidae": "sunfish", "Acipenseridae": "sturgeon", "Pomacentridae": "reef-fish", "Osphronemidae": "reef-fish",
    "Serrasalmidae": "reef-fish",
    "Chamaeleonidae": "chameleon", "Testudinidae": "tortoise", "Dermochelyidae": "sea-turtle",
    "Ranidae": "frog", "Bufonidae": "frog", "Conrauidae": "frog", "Dendrobatidae": "frog", "Phyllomedusidae": "frog",
    "Ambystomatidae": "salamander", "Cryptobranchidae": "salamander",
    "Araneidae": "spider", "Theraphosidae": "spider", "Theridiidae": "spider", "Scorpionidae": "scorpion",
    "Coenobitidae": "crab", "Inachidae": "long-legged-crab", "Nephropidae": "lobster", "Euphausiidae": "shrimp",
    "Odontodactylidae": "shrimp", "Oniscidae": "woodlouse",
    "Achatinidae": "snail", "Helicidae": "snail", "Cardiidae": "clam", "Nautilidae": "nautilus",
    "Architeuthidae": "squid", "Enteroctopodidae": "octopus",
    "Acrididae": "grasshopper", "Anostostomatidae": "grasshopper", "Apidae": "bee", "Cicadidae": "cicada",
    "Coccinellidae": "beetle", "Scarabaeidae": "beetle", "Ephemeridae": "mayfly", "Muscidae": "fly",
    "Nymphalidae": "butterfly", "Saturniidae": "butterfly",
}
# Families whose body plan's silhouette is already their shape.
FAMILIES_DRAWN_BY_BODY_PLAN = {
    "Casuariidae", "Rheidae", "Struthionidae", "Latimeriidae", "Salmonidae", "Scombridae", "Lamnidae",
    "Rhincodontidae", "Somniosidae", "Crocodylidae", "Boidae", "Elapidae", "Eublepharidae", "Iguanidae",
    "Sphenodontidae", "Varanidae", "Pyroglyphidae", "Sepiidae",
}
CARD_OUTLINES = {slug: slug for slug in FAMOUS} | {"paradoxides": "trilobite", "meganeura": "dragonfly"} | {
    slug: outline for outline, slugs in GROUP_OUTLINES.items() for slug in slugs}
SVG_NS = "http://www.w3.org/2000/svg"
HUMAN_HEIGHT_M = 1.8
ET.register_namespace("", SVG_NS)


def drawing(card):
    """Return the card's drawing as a path under static/: its own, its group's or family's, or its body plan's."""
    outline = CARD_OUTLINES.get(card.slug) or FAMILY_OUTLINES.get(getattr(card, "family", None) or "")
    return f"outlines/{outline}.svg" if outline else f"silhouettes/{card.body_plan}.svg"


@functools.cache
def shape(path):
    """Return (viewBox numbers, inner SVG markup) of the drawing at `path` under static/."""
    root = ET.parse(STATIC / path).getroot()
    box = tuple(float(n) for n in root.get("viewBox").replace(",", " ").split())
    inner = "".join(
        ET.tostring(child, encoding="unicode") for child in root if not child.tag.endswith("title")
    )
    return box, inner.replace(f' xmlns="{SVG_NS}"', "").replace("ns0:", "")


def silhouette(card, color, label):
    """Return an inline SVG of the card's drawing in `color`, labelled for screen readers."""
    (x, y, w, h), inner = shape(drawing(card))
    return Markup(
        '<svg class="silhouette" xmlns="http://www.w3.org/2000/svg" viewBox="{} {} {} {}" '
        'role="img" aria-label="{}" color="{}"><title>{}</title>{}</svg>'
    ).format(x, y, w, h, label, color, label, Markup(inner))


def drawn_size(path, size_m, measure):
    """Return the (width, height) in metres of the drawing at `path` of an animal of measured size."""
    (_, _, w, h), _ = shape(path)
    if measure in HEIGHT_MEASURES:
        return size_m * w / h, size_m
    return size_m, size_m * h / w


PERSON_LABEL = "person, 1.8 m"
PERSON_LABEL_WIDTH = 0.62 * 14 * len(PERSON_LABEL)  # at the label's 14 px: a generous average letter width


def comparison(card, width=640, height=240, gap_m=0.3):
    """Return an SVG of the card's animal beside a 1.8 m person, both to scale; None if no size."""
    if not card.length_m:
        return None
    person, picture = "silhouettes/human.svg", drawing(card)
    human = drawn_size(person, HUMAN_HEIGHT_M, "standing height")
    animal = drawn_size(picture, card.length_m, card.size_measure)
    gap = max(gap_m, 0.1 * max(human[0], animal[0]))
    scale = min((width - 20) / (human[0] + gap + animal[0]), (height - 30) / max(human[1], animal[1]))
    # The person's label is written above the head and runs to the right: the animal starts after it.
    if (human[0] + gap) * scale < PERSON_LABEL_WIDTH + 8:
        scale = min((width - 28 - PERSON_LABEL_WIDTH) / animal[0], (height - 30) / max(human[1], animal[1]))
    ground = height - 24
    parts = []
    left = 10
    for path, (w, h), colour, label in (
        (person, human, "#33415c", PERSON_LABEL),
        (picture, animal, "#6b3e00", card.common_name),
    ):
        (vx, vy, vw, vh), inner = shape(path)
        pw, ph = max(w * scale, 1.5), max(h * scale, 1.5)
        parts.append(
            f'<svg x="{left:.1f}" y="{ground - ph:.1f}" width="{pw:.1f}" height="{ph:.1f}" '
            f'viewBox="{vx} {vy} {vw} {vh}" color="{colour}" preserveAspectRatio="none">{inner}</svg>'
        )
        parts.append(label_position(path == person, left, pw, ground, ph, height, escape(label)))
        if max(pw, ph) < 8:
            # Too small to see at this scale: ring it so the eye finds it.
            parts.append(f'<circle cx="{left + pw / 2:.1f}" cy="{ground - ph / 2:.1f}" r="12" '
                         f'class="tiny-marker"/>')
        left = max(left + pw + gap * scale, 10 + PERSON_LABEL_WIDTH + 8)
    return Markup(
        f'<svg class="size-comparison" xmlns="{SVG_NS}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="comparison-caption">'
        f'<line x1="0" y1="{ground}" x2="{width}" y2="{ground}" class="ground"/>{"".join(parts)}</svg>'
    )


def label_position(is_person, left, width, ground, drawn_height, height, label):
    """Return the SVG text naming one figure: the person's above the head, the animal's below it."""
    if is_person:
        return (f'<text x="{left:.1f}" y="{max(ground - drawn_height - 6, 14):.1f}" '
                f'class="comparison-label">{label}</text>')
    return (f'<text x="{left + width / 2:.1f}" y="{height - 6}" text-anchor="middle" '
            f'class="comparison-label">{label}</text>')


def comparison_sentence(card):
    """Say in words how the animal's size compares with a 1.8 m person."""
    if not card.length_m:
        return None
    ratio = card.length_m / HUMAN_HEIGHT_M
    measure = card.size_measure or "size"
    if ratio >= 1.15:
        return f"Its {measure} is about {ratio:.1f} times a person's height (1.8 m)."
    if ratio <= 1 / 1.15:
        times = f"{1 / ratio:,.0f}" if ratio < 0.1 else f"{1 / ratio:.1f}"
        return f"A person (1.8 m) is about {times} times its {measure}."
    return f"Its {measure} is about the same as a person's height (1.8 m)."
