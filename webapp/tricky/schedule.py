"""My tricky cards: from a student's placements, the memory of each card and confusable pair, and what to deal next.

Pure code (no Flask, no database, randomness only from the `random.Random` passed in). Each card, and each pair of
cards a student has put on the wrong side of each other, is an item scheduled by FSRS (the `fsrs` package, the
scheduler Anki uses): a placement is a review of its card (wrong: Again; right but too close to call: Hard; right:
Good when the line held a card it could be mistaken for, see `rating`), a confusion a review of the pair (Again), and
a right placement next to a card it was once confused with a review of that pair (Good). A deal is what is due, then
cards not yet seen, then the least sure, each placed into a line that already holds a card it could be mistaken for.

A history is a list of placements, as the browser keeps them (JSON):
``{"card": slug, "by": characteristic, "right": bool, "close": bool, "passed": [slugs], "beside": [slugs],
"at": epoch milliseconds, "game": id}``; ``passed`` are the cards it was put on the wrong side of, ``beside`` the cards either
side of it once placed where it belongs.
"""

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime

from fsrs import Card, Rating, Scheduler, State

HISTORY_LIMIT = 1000  # placements kept and posted: the newest win
SLUG_LIMIT = 80
FIRST_DAY = datetime(2024, 1, 1, tzinfo=UTC)
# No minute-long learning steps: a student practises once a day at most, so every interval is in days. No fuzzing:
# its random intervals would come from the module-level generator, and the same history must give the same deal.
# FSRS's default first stabilities (w0-w3: 0.2 to 8.3 days after a first Again, Hard, Good or Easy) describe a card
# learned through Anki's same-day learning steps; here a first rating follows one sight of a card's value, so they are
# a tenth of those (scripts/bench_learning.py measured this; the other parameters are FSRS 6's defaults).
FIRST_STABILITY_SHARE = 0.1
PARAMETERS = tuple(w * FIRST_STABILITY_SHARE if index < 4 else w for index, w in enumerate(Scheduler().parameters))
SCHEDULER = Scheduler(parameters=PARAMETERS, learning_steps=(), relearning_steps=(), enable_fuzzing=False)
MASTERED_STABILITY_DAYS = 7  # remembered well for a week at least, and likely remembered now


class BadHistory(ValueError):
    """A posted history that is not a list of placements; the message says why."""


@dataclass(frozen=True)
class Placement:
    """One card placed by a student: right or not, the cards it was put on the wrong side of, and when."""

    card: str
    by: str
    right: bool
    at: datetime
    close: bool = False
    passed: tuple = ()
    beside: tuple = ()
    game: str = ""  # the game it was placed in: the cards of one game share a line


@dataclass
class Memory:
    """What a history says a student remembers of one characteristic's cards and confusable pairs."""

    cards: dict = field(default_factory=dict)  # slug -> fsrs Card
    pairs: dict = field(default_factory=dict)  # frozenset of two slugs -> fsrs Card
    confused: dict = field(default_factory=dict)  # slug -> Counter of the slugs it was confused with

    def retrievability(self, item, now):
        """Return the chance FSRS gives that item (a slug or a pair) is remembered `now`."""
        memory = self.cards.get(item) if isinstance(item, str) else self.pairs.get(item)
        return SCHEDULER.get_card_retrievability(memory, now) if memory else 0.0

    def due(self, now):
        """Return the items (slugs and pairs) due by `now`, the least likely remembered first."""
        items = [(item, card) for item, card in [*self.cards.items(), *self.pairs.items()] if card.due <= now]
        return [item for item, _ in sorted(items, key=lambda entry: (self.retrievability(entry[0], now),
                                                                     entry[1].due, sorted(_names(entry[0]))))]

    def status(self, card, now):
        """Say how well a card is known: 'mastered', 'tricky' (confused and not mastered), 'learning' or 'new'."""
        memory = self.cards.get(card)
        if memory is None:
            return "tricky" if self.confused.get(card) else "new"
        if memory.state == State.Review and memory.stability >= MASTERED_STABILITY_DAYS \
                and self.retrievability(card, now) >= SCHEDULER.desired_retention:
            return "mastered"
        return "tricky" if self.confused.get(card) else "learning"


def _names(item):
    return {item} if isinstance(item, str) else set(item)


def parse_history(raw, now):
    """Return the placements of a posted history, oldest first, or raise BadHistory saying what is wrong."""
    if not isinstance(raw, list):
        raise BadHistory("The history must be a list of placements.")
    if len(raw) > HISTORY_LIMIT:
        raise BadHistory(f"Send at most {HISTORY_LIMIT} placements (the newest).")
    return sorted((_placement(entry, now) for entry in raw), key=lambda p: p.at)


def _placement(entry, now):
    if not isinstance(entry, dict):
        raise BadHistory("Each placement must be an object.")
    card, by, right, at = (entry.get(key) for key in ("card", "by", "right", "at"))
    lists = [entry.get(key, []) for key in ("passed", "beside")]
    if not _is_slug(card) or not _is_slug(by):
        raise BadHistory("Each placement names its card and what it was sorted by.")
    if not isinstance(right, bool) or not isinstance(entry.get("close", False), bool):
        raise BadHistory("Each placement says whether it was right (true or false).")
    if not all(isinstance(cards, list) and len(cards) <= 20 and all(map(_is_slug, cards)) for cards in lists):
        raise BadHistory("A placement's passed and beside cards must be short lists of card names.")
    if not isinstance(entry.get("game", ""), str) or len(entry.get("game", "")) > SLUG_LIMIT:
        raise BadHistory("A placement's game must be a short id.")
    if not isinstance(at, int) or isinstance(at, bool):
        raise BadHistory("Each placement says when it was made (milliseconds since 1970).")
    when = datetime.fromtimestamp(at / 1000, UTC) if 0 <= at < 10 ** 14 else None
    if when is None or not FIRST_DAY <= when <= now.replace(year=now.year + 1):
        raise BadHistory("A placement's time is out of range.")
    return Placement(card, by, right, min(when, now), entry.get("close", False), tuple(lists[0]), tuple(lists[1]),
                     entry.get("game", ""))


def _is_slug(value):
    return isinstance(value, str) and 0 < len(value) <= SLUG_LIMIT


def remember(history, characteristic, values=None):
    """Return the memory a history builds of one characteristic's cards and pairs, reviewing in time order.

    A confusion is a lapse of its pair; a card placed right in a line that held the card it was once confused with
    (placed earlier in the same game, or beside it) is a success of that pair. With the deck's `values`, a right
    placement is graded by what the line held (see `rating`); without them, every right placement is Good.
    """
    memory, lines = Memory(), {}
    ranks = value_ranks(values) if values else None
    for placement in sorted((p for p in history if p.by == characteristic), key=lambda p: p.at):
        line = lines.setdefault(placement.game, set()) if placement.game else set()
        held = (line | set(placement.beside)) - {placement.card}
        grade = rating(memory, placement, held, ranks)
        if grade is not None:
            memory.cards[placement.card] = _review(memory.cards.get(placement.card), grade, placement.at)
        for other in set(placement.passed) - {placement.card}:
            pair = frozenset((placement.card, other))
            memory.pairs[pair] = _review(memory.pairs.get(pair), Rating.Again, placement.at)
            for one, two in ((placement.card, other), (other, placement.card)):
                memory.confused.setdefault(one, Counter())[two] += 1
        if placement.right:
            for other in held:
                pair = frozenset((placement.card, other))
                if pair in memory.pairs:
                    memory.pairs[pair] = _review(memory.pairs[pair], Rating.Good, placement.at)
        line.update({placement.card, *placement.passed, *placement.beside})
    return memory


def value_ranks(values):
    """Return {card: the rank of its value among the deck's distinct values}: neighbours in value differ by one."""
    distinct = {value: rank for rank, value in enumerate(sorted(set(values.values())))}
    return {card: distinct[value] for card, value in values.items()}


def rating(memory, placement, held, ranks):
    """Return the FSRS rating a placement gives its card, or None when it says nothing of what the student knows.

    Wrong is Again and too close to call Hard. A right placement is Good when the line held a card it could be
    mistaken for (the next value up or down in the deck, or a card it was once confused with): otherwise it could
    not have gone wrong, so it is Hard on the card's first sight and no review after that.
    """
    if not placement.right:
        return Rating.Again
    if placement.close:
        return Rating.Hard
    if ranks is None or placement.card not in ranks:
        return Rating.Good
    if held & _mistakable(memory, placement.card, ranks):
        return Rating.Good
    return Rating.Hard if placement.card not in memory.cards else None


def _mistakable(memory, card, ranks):
    """Return the cards `card` could be mistaken for: the deck's next values up and down, and those it was confused with."""
    near = {other for other, rank in ranks.items() if abs(rank - ranks[card]) == 1}
    return near | set(memory.confused.get(card, ()))


def _review(card, rating, when):
    card = card or Card(card_id=1, due=when)  # an id of our own: fsrs would sleep a millisecond to make one
    return SCHEDULER.review_card(card, rating, when)[0]


@dataclass(frozen=True)
class Dealt:
    """A card in a deal, why it is there (due, partner, neighbour, new or review), and the card it goes with."""

    card: str
    why: str
    goes_with: str | None = None


def deal(memory, values, size, now, rng):
    """Return `size` of the cards `values` names to practise: what is due first, then new cards, then the least sure.

    Each card comes after a card it could be mistaken for (the one it was confused with most, or the next value up
    or down), so that placing it right means it is known: a card already dealt serves, else the least sure such card
    joins the deal before it. A due pair deals both its cards. The line starts with the best-known card not due, which
    is never placed.
    """
    if size > len(values):
        raise ValueError(f"Cannot deal {size} of {len(values)} cards.")
    ranks = value_ranks(values)
    unseen = sorted(card for card in values if card not in memory.cards)
    rng.shuffle(unseen)
    shuffled = {card: index for index, card in enumerate(unseen)}
    chosen = {}  # card -> Dealt, in the order dealt

    def sureness(card):
        return memory.retrievability(card, now) if card in memory.cards else 2.0  # unseen cards serve last

    def add(card, why, company=None):
        if card in chosen or len(chosen) >= size:
            return
        mistakable = _mistakable(memory, card, ranks)
        present = [other for other in chosen if other in mistakable]
        if company is None and not present:
            company = min(mistakable - {card}, default=None, key=lambda other: (
                -memory.confused.get(card, Counter())[other], sureness(other), shuffled.get(other, 0), other))
        if company is not None and company not in chosen:
            if len(chosen) + 2 > size:
                return
            why_company = "partner" if memory.confused.get(card, Counter())[company] else "neighbour"
            chosen[company] = Dealt(company, why_company, card)
        goes_with = company or (present[0] if present else None)
        chosen[card] = Dealt(card, why, goes_with)

    for item in memory.due(now):
        if isinstance(item, frozenset):
            first, second = sorted(item, key=lambda card: (-sureness(card), card))
            add(second, "due", company=None if first in chosen else first)
            add(first, "due")
        else:
            add(item, "due")
    for card in unseen:
        add(card, "new")
    for card in sorted(values, key=lambda card: (memory.retrievability(card, now), card)):
        add(card, "review")
    not_due = [card for card, dealt in chosen.items() if dealt.why != "due"] or list(chosen)
    first = max(not_due, key=lambda card: (memory.retrievability(card, now), card))
    return [chosen[first]] + [dealt for card, dealt in chosen.items() if card != first]
