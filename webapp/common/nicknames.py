"""Checking students' nicknames: length, characters, and a basic word filter."""

import re
import unicodedata

MIN_LENGTH, MAX_LENGTH = 2, 20
# A short list of words a class nickname must not contain (checked without spaces, digits for
# letters undone). It is deliberately basic; teachers can also rename or remove a player.
# Short words that hide inside ordinary names (peacock, grape, Essex) are left out on purpose.
BLOCKED = ("fuck", "shit", "cunt", "bitch", "pussy", "slut", "whore", "nigg", "nazi", "hitler", "porn",
           "bastard", "wank", "twat", "penis", "vagina", "asshole", "retard")
LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"})


def tidy(nickname):
    """Return a nickname as it is shown: spaces at the ends dropped, runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFKC", nickname).split())


def key(nickname):
    """Return the form two nicknames are compared in (so 'Rex', ' rex ' and 'Mia  Z' / 'mia z' count as the same)."""
    return tidy(nickname).casefold()


def problem(nickname):
    """Return why a nickname cannot be used, or None."""
    name = unicodedata.normalize("NFKC", nickname or "").strip()
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        return f"Use {MIN_LENGTH} to {MAX_LENGTH} characters."
    if not re.fullmatch(r"[\w .'-]+", name):
        return "Use letters, digits, spaces, dots, dashes and apostrophes only."
    squashed = re.sub(r"[^a-z]", "", name.casefold().translate(LEET))
    if any(word in squashed for word in BLOCKED):
        return "Please choose a friendlier nickname."
    return None
