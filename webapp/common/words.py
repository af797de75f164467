"""Where a long name may break on a narrow card (the pure pieces of English are in webapp.games.words)."""

from markupsafe import Markup, escape

# Where a long scientific name may break on a narrow card: before a root it is built from.
NAME_ROOTS = ("saurus", "rhynchus", "spondylus", "ceratops", "therium", "cephalus", "dactylus", "pteryx", "raptor",
              "mimus", "nychus", "odon", "suchus", "pelta", "caris", "pterus", "ichthys", "lophus", "stega",
              "gnathus", "coatlus", "titan", "ostega", "ocaulus", "pterygotus", "onykus", "dinus", "tyrannus",
              "venator", "saura", "acanthus", "aspis", "stropheus", "sternus", "bird", "noughtus", "cevia",
              "pleurodon", "genia", "sauria", "phorus", "cetus", "cephal", "osteus", "cheirus", "potamus", "selache",
              "pleura", "iferous", "vician", "ceous", "nary", "gene")
LONG_WORD = 10
DRAWN_CARD_LINE = 11  # the longest line of a name that a card with its drawing shows at full size


def name_parts(name):
    """Return the pieces of `name` between which a line may break: words, and long words split before a root.

    >>> name_parts("Rhamphorhynchus")
    ['Rhampho', 'rhynchus']
    >>> name_parts("Irish elk")
    ['Irish', 'elk']
    """
    return [part for word in name.split() for part in _word_parts(word)]


def name_line(name):
    """Return how many characters the longest line of `name` has on a card: its longest piece, or with three pieces or
    more its best split on two lines (the card's font is sized so that this line fits).

    >>> name_line("Tyrannosaurus"), name_line("West Indian Ocean coelacanth")
    (7, 16)
    """
    pieces = name_parts(name)
    if len(pieces) <= 2:
        return max(map(len, pieces))
    return min(max(len(" ".join(pieces[:k])), len(" ".join(pieces[k:]))) for k in range(1, len(pieces)))


def breakable(name, longer_than=LONG_WORD):
    """Return `name` as HTML with a soft hyphen where its words longer than `longer_than` may break (see name_parts).

    A soft hyphen, not a <wbr>: broken there, the line ends with a hyphen, so "Dunkle-" over "osteus" reads as one
    name on a projector, not as two words.

    >>> breakable("Dunkleosteus terrelli")
    Markup('Dunkle&shy;osteus terrelli')
    """
    return Markup(" ").join(Markup("&shy;").join(escape(part) for part in _word_parts(word, longer_than))
                            for word in name.split())


def _word_parts(word, longer_than=LONG_WORD):
    cut = max((word.lower().rfind(root) for root in NAME_ROOTS), default=-1) if len(word) > longer_than else -1
    return _word_parts(word[:cut], longer_than) + [word[cut:]] if cut >= 4 else [word]
