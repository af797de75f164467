"""My tricky cards: from a student's placements, the memory of each card and confusable pair, and what to deal next.

Pure code (no Flask, no database, randomness only from the `random.Random` passed in). Each card, and each pair of
cards a student has put on the wrong side of each other, is an item scheduled by FSRS (the `fsrs` package, the
scheduler Anki uses): a placement is a review of its card (wrong: Again; right but too close to call: Hard; right:
Good), a confusion a review of the pair (Again), and a right placement next to a card it was once confused with a
review of that pair (Good). What is due first is dealt with the card it was confused with, then cards not yet seen.

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
SCHEDULER = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
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

    def partner(self, card, among):
        """Return the card `card` was most often confused with among `among`, or None."""
        counts = self.confused.get(card, Counter())
        candidates = [(-n, other) for other, n in counts.items() if other in among]
        return min(candidates)[1] if candidates else None

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


def remember(history, characteristic):
    """Return the memory a history builds of one characteristic's cards and pairs, reviewing in time order.

    A confusion is a lapse of its pair; a card placed right in a line that held the card it was once confused with
    (placed earlier in the same game, or beside it) is a success of that pair.
    """
    memory, lines = Memory(), {}
    for placement in sorted((p for p in history if p.by == characteristic), key=lambda p: p.at):
        rating = Rating.Again if not placement.right else Rating.Hard if placement.close else Rating.Good
        memory.cards[placement.card] = _review(memory.cards.get(placement.card), rating, placement.at)
        line = lines.setdefault(placement.game, set()) if placement.game else set()
        for other in set(placement.passed) - {placement.card}:
            pair = frozenset((placement.card, other))
            memory.pairs[pair] = _review(memory.pairs.get(pair), Rating.Again, placement.at)
            for one, two in ((placement.card, other), (other, placement.card)):
                memory.confused.setdefault(one, Counter())[two] += 1
        if placement.right:
            for other in (line | set(placement.beside)) - {placement.card}:
                pair = frozenset((placement.card, other))
                if pair in memory.pairs:
                    memory.pairs[pair] = _review(memory.pairs[pair], Rating.Good, placement.at)
        line.update({placement.card, *placement.passed, *placement.beside})
    return memory


def _review(card, rating, when):
    card = card or Card(card_id=1, due=when)  # an id of our own: fsrs would sleep a millisecond to make one
    return SCHEDULER.review_card(card, rating, when)[0]


@dataclass(frozen=True)
class Dealt:
    """A card in a deal, why it is there (due, partner, neighbour, new or review), and the card it goes with."""

    card: str
    why: str
    goes_with: str | None = None


def deal(memory, values, size, now, rng, new_share=0.0, together=2):
    """Return `size` of the cards `values` names to practise: what is due first, then new cards, then the least sure.

    A due item comes with the card it was confused with (or, never confused, the card next to it in value), before
    it, so that the line holds it when the due card is placed; new cards come in runs of `together` neighbours in
    value, so that each placement tells close cards apart and a right one means the card is known. `new_share`
    keeps that share of the deal for cards not yet seen (when there are some).
    """
    if size > len(values):
        raise ValueError(f"Cannot deal {size} of {len(values)} cards.")
    distinct = sorted(set(values.values()))
    rank = {card: distinct.index(value) for card, value in values.items()}
    unseen = sorted(card for card in values if card not in memory.cards)
    rng.shuffle(unseen)
    kept_for_new = min(len(unseen), round(size * new_share))
    groups, free = [], set(values)

    def add(group, room):
        if group and len(group) <= room:
            groups.append(group)
            free.difference_update(entry.card for entry in group)

    for item in memory.due(now):
        add(_group(memory, item, free, rank), size - kept_for_new - (len(values) - len(free)))
    for card in unseen:
        if card in free:
            room = size - (len(values) - len(free))
            run = _run(card, free, rank, min(together, room))
            add([Dealt(run[0], "new")] + [Dealt(other, "neighbour", run[0]) for other in run[1:]], room)
    least_sure = sorted(free, key=lambda card: (memory.retrievability(card, now), card))
    for card in least_sure[:size - (len(values) - len(free))]:
        add([Dealt(card, "review")], 1)
    rng.shuffle(groups)
    # The first card starts the line face up and is never placed: a partner, or a card not due, should be it.
    groups.sort(key=lambda group: group[0].why == "due")
    return [dealt for group in groups for dealt in group]


def _nearest(card, free, rank):
    """Return the free card nearest to `card` in value but not equal to it (equal values are never confused), or None.

    `rank` numbers the deck's distinct values in order; a tie goes to the lower card, by name.
    """
    candidates = [(abs(rank[other] - rank[card]) or len(rank) + 1, other) for other in free if other != card]
    return min(candidates)[1] if candidates else None


def _run(card, free, rank, length):
    """Return `card` and up to `length` - 1 free cards, each the nearest in value to one already in the run."""
    run = [card]
    while len(run) < length:
        nearest = [(abs(rank[other] - rank[member]) or len(rank) + 1, other) for member in run
                   for other in [_nearest(member, free - set(run), rank)] if other]
        if not nearest:
            break
        run.append(min(nearest)[1])
    return run


def _group(memory, item, free, rank):
    """Return the cards an item brings to a deal: the due card last, after the card it was confused with."""
    if isinstance(item, frozenset):
        first, second = sorted(item)
        if not {first, second} <= free:
            return []
        return [Dealt(first, "partner", second), Dealt(second, "due", first)]
    if item not in free:
        return []
    partner = memory.partner(item, free - {item})
    if partner is not None:
        return [Dealt(partner, "partner", item), Dealt(item, "due", partner)]
    neighbour = _nearest(item, free, rank)
    return [Dealt(neighbour, "neighbour", item), Dealt(item, "due")] if neighbour else [Dealt(item, "due")]
