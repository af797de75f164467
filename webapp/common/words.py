"""Small pieces of English for sentences the app writes: "a" or "an", and lists joined with "and"."""


def article(word):
    """Put "a" or "an" before `word`: 'an omnivore', 'a carnivore'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def joined(items):
    """Join names as people write them: 'Asia', 'Asia and Europe', 'Asia, Europe and Africa'."""
    items = list(items)
    return " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else "".join(items)
