"""The vocabulary of a coup: card slots, granularity, feature names and columns.

Every engine and every reader of a coup speaks this vocabulary. A card slot is drawn at a
*granularity*: its face (point value or rank) and its mark (none, colour or suit). Class labels at a
granularity are ``face * marks + mark``; the card level is rank * 4 + suit, as in
:class:`~exact_odds.core.shoe.Shoe`.

>>> Granularity.RANK.join(Granularity.VALUE_COLOR)
<Granularity.RANK_COLOR: 4>
>>> Granularity.CARD.classes, Granularity.VALUE_COLOR.classes
(52, 20)
>>> from exact_odds.core.shoe import Shoe
>>> shoe_counts(Shoe.decks(1), Granularity.VALUE_COLOR)[:4]
[8, 8, 2, 2]
"""

from collections.abc import Iterable
from enum import IntEnum
from functools import cached_property
from typing import Any

import numpy as np

from .cards import POINT_VALUES, SUITS
from .coup import NOT_DEALT as NOT_DEALT, OUTCOMES as OUTCOMES, two_card_total, winner_index
from .shoe import Shoe, class_counts
from .values import Value

Array = np.ndarray[tuple[Any, ...], np.dtype[Any]]
"""numpy.typing.NDArray[Any], spelled out: importing numpy.typing would cost every command's cold start half a millisecond."""

SLOTS = ("player_card1", "banker_card1", "player_card2", "banker_card2", "player_card3", "banker_card3")
"""Card slots in deal order (the banker's third card follows the player's when both draw)."""
FIRST_CARDS = SLOTS[:4]
THIRD_CARDS = SLOTS[4:]
POSITIONS = tuple(f"shoe_card{number}" for number in range(1, 7))
"""The six cards of a coup's sequence in shoe order, whether or not the coup deals them: the first
four are the first four slots; the fifth is the player's third card, or the banker's when the
player stood, or the card that follows; the sixth the banker's third card after the player's, or
the card that follows."""
FIRST_POSITIONS = dict(zip(POSITIONS[:4], FIRST_CARDS))
LATE_POSITIONS = POSITIONS[4:]
"""The positions tracked apart from the slots (cards 5 and 6): tables hold their class in every
coup, dealt or not."""
TRACKED_CARDS = SLOTS + LATE_POSITIONS
"""What a table may track a card of, in order (beside counted predicates)."""
POSITIONS_OF = {**{slot: (index,) for index, slot in enumerate(FIRST_CARDS)}, "player_card3": (4,), "banker_card3": (4, 5),
         "shoe_card5": (4,), "shoe_card6": (5,)}
"""The shoe positions (0-5) the card of each tracked slot or position may lie at: the banker's third
card is the fifth when the player stood."""
COUNTED = "counted:"
"""The prefix of a tracked pseudo-slot that counts, in each hand, the cards a predicate holds for
(what count(), player_count() and banker_count() read): ``counted:`` and the predicate's truth over
the 52 cards in hexadecimal. A table tracking it has the columns ``{key}:player`` and ``{key}:banker``."""
SIDES = ("player", "banker")


def counted_key(truth: Array) -> str:
    """The pseudo-slot of a predicate given by its truth over the 52 cards."""
    bits = sum(1 << card for card in np.flatnonzero(truth).tolist())
    return f"{COUNTED}{bits:013x}"


def counted_truth(key: str) -> Array:
    """The truth over the 52 cards of a counted pseudo-slot."""
    bits = int(key[len(COUNTED) :], 16)
    truth: Array = (bits >> np.arange(52)) & 1 == 1
    return truth


COLORS = ("red", "black")
SUIT_COLOR = tuple(COLORS.index("red" if suit in "HD" else "black") for suit in SUITS)
"""Colour index of each suit of :data:`~exact_odds.core.cards.SUITS` (hearts and diamonds are red)."""

FACES = (10, 13)
"""Classes of a face: point value (10) or rank (13)."""
MARKS = (1, 2, 4)
"""Classes of a mark: none (1), colour (2) or suit (4)."""


class Granularity(IntEnum):
    """How finely a card slot is drawn: face (value or rank) by mark (none, colour, suit)."""

    VALUE = 0
    VALUE_COLOR = 1
    VALUE_SUIT = 2
    RANK = 3
    RANK_COLOR = 4
    CARD = 5

    @property
    def face(self) -> int:
        """0: point value, 1: rank."""
        return self // 3

    @property
    def mark(self) -> int:
        """0: none, 1: colour, 2: suit."""
        return self % 3

    @property
    def classes(self) -> int:
        return FACES[self.face] * MARKS[self.mark]

    def join(self, other: "Granularity") -> "Granularity":
        """The coarsest granularity at least as fine as both."""
        return Granularity(3 * max(self.face, other.face) + max(self.mark, other.mark))

    def covers(self, other: "Granularity") -> bool:
        """Whether this granularity tells everything ``other`` does."""
        return self.face >= other.face and self.mark >= other.mark


def card_labels(granularity: Granularity) -> Array:
    """The label at ``granularity`` of each of the 52 cards (rank * 4 + suit)."""
    ranks, suits = np.divmod(np.arange(52), 4)
    face = ranks if granularity.face else np.asarray(POINT_VALUES)[ranks]
    mark = (np.zeros(52, dtype=np.int64), np.asarray(SUIT_COLOR)[suits], suits)[granularity.mark]
    labels: Array = face * MARKS[granularity.mark] + mark
    return labels


def representatives(granularity: Granularity) -> Array:
    """For each class label at ``granularity``, one card of that class (the lowest card index)."""
    cards = np.full(granularity.classes, 52, dtype=np.int64)
    np.minimum.at(cards, card_labels(granularity), np.arange(52))
    return cards


class Partition(Value):
    """A partition of the 52 cards into classes, each within one point value: what a compiled table
    refines cards to (a granularity, or the classes a set of counted predicates tells apart)."""

    __slots__ = ("labels", "__dict__")
    labels: tuple[int, ...]
    """The class of each card (rank * 4 + suit)."""

    def __init__(self, labels: tuple[int, ...]) -> None:
        self._set(labels)

    @classmethod
    def of(cls, granularity: Granularity) -> "Partition":
        return cls(tuple(card_labels(granularity).tolist()))

    @cached_property
    def classes(self) -> int:
        return max(self.labels) + 1

    @cached_property
    def values(self) -> Array:
        """The point value of each class."""
        values = np.zeros(self.classes, dtype=np.int64)
        values[list(self.labels)] = np.asarray(POINT_VALUES)[np.arange(52) // 4]
        return values

    def class_counts(self, counts: Array) -> Array:
        """(shoes x classes) from (shoes x 52) per-card counts, or (shoes x 13) per-rank counts
        when the partition keeps ranks whole, by :func:`~exact_odds.core.shoe.class_counts`."""
        counts = np.asarray(counts)
        columns = class_counts(list(counts.T), self.labels, np.zeros(len(counts), dtype=counts.dtype),
                               "the shoes are given", "52 per shoe, rank-major: A of S H D C, 2 ...")
        grouped: Array = np.stack(columns, axis=1)
        return grouped


BY_CLASSES = sorted(Granularity, key=lambda granularity: (granularity.classes, granularity))


def coarsest_granularity(truth: Array) -> Granularity:
    """The granularity with the fewest classes that decides ``truth`` (one entry per card).

    >>> import numpy as np
    >>> ranks = np.arange(52) // 4
    >>> coarsest_granularity(ranks == 8).name, coarsest_granularity(ranks == 12).name  # a 9, a king
    ('VALUE', 'RANK')
    """
    for granularity in BY_CLASSES:
        labels = card_labels(granularity)
        if (truth == truth[representatives(granularity)][labels]).all():
            return granularity
    return Granularity.CARD


def label_map(source: Granularity, target: Granularity) -> Array:
    """For each label at ``source``, its label at the coarser ``target``."""
    if not source.covers(target):
        raise ValueError(f"{source.name} does not determine {target.name}")
    mapping = np.zeros(source.classes, dtype=np.int64)
    mapping[card_labels(source)] = card_labels(target)
    return mapping


def shoe_counts(shoe: Shoe, level: Granularity | Partition) -> list[int]:
    """The shoe's counts of the classes of ``level`` (see :meth:`~exact_odds.core.shoe.Shoe.class_counts`)."""
    return shoe.class_counts((level if isinstance(level, Partition) else Partition.of(level)).labels)


def relabel(labels: Array, source: Granularity, target: Granularity) -> Array:
    """Class labels at a coarser granularity, keeping :data:`NOT_DEALT`."""
    if source == target:
        return labels
    mapped: Array = np.where(labels >= 0, label_map(source, target)[np.maximum(labels, 0)], NOT_DEALT)
    return mapped


def class_values(granularity: Granularity) -> tuple[int, ...]:
    """The point value of each class label at ``granularity``."""
    faces = np.arange(granularity.classes) // MARKS[granularity.mark]
    values = faces if granularity.face == 0 else np.asarray(POINT_VALUES)[faces]
    return tuple(int(value) for value in values)


Levels = dict[str, Granularity]
"""Tracked card slots and the granularity each is read at."""


class Columns(dict[str, Array]):
    """Feature columns of a table of coups (or of a few cards), with the granularity each tracked
    card slot was read at: a condition refuses to read more of a card than its slot's granularity
    tells."""

    def __init__(self, columns: dict[str, Array] | None = None, levels: Levels | None = None):
        super().__init__(columns or {})
        self.levels: Levels = dict(levels or {})


def merge_levels(*trackings: Levels) -> Levels:
    """Slots tracked by several readers together, each at the finest granularity any needs.

    >>> merge_levels({"player_card1": Granularity.RANK}, {"player_card1": Granularity.VALUE_SUIT})
    {'player_card1': <Granularity.CARD: 5>}
    """
    merged: Levels = {}
    for tracking in trackings:
        for slot, level in tracking.items():
            merged[slot] = merged.get(slot, Granularity.VALUE).join(level)
    return merged


COUP_FEATURES = {
    "winner": "winner",
    "player_total": "int",
    "banker_total": "int",
    "player_two_card_total": "int",
    "banker_two_card_total": "int",
    "player_third_card": "int",
    "banker_third_card": "int",
    "player_cards": "int",
    "banker_cards": "int",
    "total_cards": "int",
    "player_natural": "bool",
    "banker_natural": "bool",
    "natural": "bool",
    "margin": "int",
}
"""Value-level features of a settled coup (``*_third_card`` is -1 when the hand did not draw)."""

CARD_ATTRIBUTES = {
    "value": ("int", Granularity.VALUE),
    "rank": ("rank", Granularity.RANK),
    "color": ("color", Granularity.VALUE_COLOR),
    "suit": ("suit", Granularity.VALUE_SUIT),
}
CARD_FEATURES = {f"{name}_{attribute}": (FIRST_POSITIONS.get(name, name), kind, level) for name in SLOTS + POSITIONS
                 for attribute, (kind, level) in CARD_ATTRIBUTES.items()}
"""Features of one card: (what the table tracks, kind, granularity). A slot's point value, rank,
colour or suit, -1 when no card was dealt; or a shoe position's, which always holds a card (the
first four positions are the first four slots, read as those)."""


def card_attribute(name: str) -> str:
    """The attribute a card feature reads: ``value``, ``rank``, ``color`` or ``suit``."""
    return name.rsplit("_", 1)[1]


def feature_column(name: str) -> str:
    """The column a feature is read from (``shoe_card1_rank``: ``player_card1_rank``).

    >>> feature_column("shoe_card3_suit"), feature_column("shoe_card5_value"), feature_column("margin")
    ('player_card2_suit', 'shoe_card5_value', 'margin')
    """
    return f"{CARD_FEATURES[name][0]}_{card_attribute(name)}" if name in CARD_FEATURES else name


def shoe_order(values: Array) -> Array:
    """Coups given by slot (rows of :data:`SLOTS`, -1: not dealt) in shoe order: the fifth card is
    the player's third or, when he stood, the banker's; the sixth the banker's after the player's."""
    values = np.asarray(values)
    player_drew = values[4] >= 0
    fifth = np.where(player_drew, values[4], values[5])
    sixth = np.where(player_drew, values[5], NOT_DEALT)
    ordered: Array = np.concatenate([values[:4], fifth[None], sixth[None]]).astype(values.dtype)
    return ordered


def value_code(rows: Iterable[Array]) -> Array:
    """The point values of a few cards (rows, one per card; -1: none) as one code per column: base
    11, the first row the least significant digit. :func:`code_values` reads them back.

    >>> value_code(np.array([[3, -1], [9, 0]])).tolist(), code_values(np.array([114, 11]), 2).tolist()
    ([114, 11], [[3, -1], [9, 0]])
    """
    code: Array | None = None
    for digit, row in enumerate(rows):
        term = (np.asarray(row).astype(np.int64) + 1) * 11**digit
        code = term if code is None else code + term
    assert code is not None, "at least one row"
    return code


def code_values(code: Array, cards: int) -> Array:
    """The point values (-1: none) of :func:`value_code`'s codes, one row per card."""
    return np.stack([code // 11**digit % 11 - 1 for digit in range(cards)])


def sequence_index(cards: Iterable[Any]) -> Any:
    """The index of six point values in shoe order among the 10^6 sequences of six: their digits,
    the first card's the most significant. Of one sequence, or of rows of them (arrays, which
    broadcast: one row per shoe position).

    >>> sequence_index((3, 9, 4, 0, 5, 0)), sequence_index(np.array([[1, 2]] * 6)).tolist()
    (394050, [111111, 222222])
    """
    index: Any = 0
    for card in cards:
        index = index * 10 + card
    return index


def card_positions(key: str, player_third: Array, banker_third: Array) -> Array:
    """The shoe position (0-5) of the card a tracked slot or position reads in each coup (given by
    its third cards, -1: none), or -1 where it reads none.

    >>> card_positions("banker_card3", np.array([-1, 4, 5]), np.array([2, 0, -1])).tolist()
    [4, 5, -1]
    """
    player_drew = np.asarray(player_third) >= 0
    if key == "player_card3":
        found: Array = np.where(player_drew, 4, NOT_DEALT)
    elif key == "banker_card3":
        found = np.where(np.asarray(banker_third) >= 0, np.where(player_drew, 5, 4), NOT_DEALT)
    else:
        found = np.full(len(player_drew), POSITIONS_OF[key][0])
    return found


def feature_kind(name: str) -> str | None:
    """The kind of a feature (``int``, ``bool``, ``winner``, ``rank``, ``suit``, ``color``), or None."""
    if name in COUP_FEATURES:
        return COUP_FEATURES[name]
    if name in CARD_FEATURES:
        return CARD_FEATURES[name][1]
    return None


def coup_columns(player_two: Iterable[int] | Array, banker_two: Iterable[int] | Array, player_third: Iterable[int] | Array,
                 banker_third: Iterable[int] | Array, naturals: Iterable[int]) -> Columns:
    """Every value-level coup feature, from each hand's two-card total and third-card value (-1: none).

    A hand's natural is a two-card total that stops the coup under the rules (``naturals``)."""
    p2, b2, p3, b3 = (np.asarray(column, dtype=np.int64) for column in (player_two, banker_two, player_third, banker_third))
    player_cards = 2 + (p3 >= 0)
    banker_cards = 2 + (b3 >= 0)
    player_total = (p2 + np.maximum(p3, 0)) % 10
    banker_total = (b2 + np.maximum(b3, 0)) % 10
    winner = winner_index(player_total, banker_total)
    natural_totals = list(naturals)
    player_natural = np.isin(p2, natural_totals)
    banker_natural = np.isin(b2, natural_totals)
    columns = {
        "winner": winner,
        "player_total": player_total,
        "banker_total": banker_total,
        "player_two_card_total": p2,
        "banker_two_card_total": b2,
        "player_third_card": p3,
        "banker_third_card": b3,
        "player_cards": player_cards,
        "banker_cards": banker_cards,
        "total_cards": player_cards + banker_cards,
        "player_natural": player_natural,
        "banker_natural": banker_natural,
        "natural": player_natural | banker_natural,
        "margin": np.abs(player_total - banker_total),
    }
    # Every value lies in -1 .. 9: one byte each (a table of a million coups keeps 14 MB, not 112;
    # conditions widen before arithmetic)
    return Columns({name: column.astype(np.int8) for name, column in columns.items()})


COUP_CLASSES = 12_100
"""Every coup class has a code below this (:func:`coup_class`): 10 x 10 two-card totals, 11 x 11
third cards (a value, or none)."""


def coup_class(values: Array) -> Array:
    """The class of each coup given by slot (rows of :data:`SLOTS`, -1: not dealt) as one code below
    :data:`COUP_CLASSES`: its two-card totals and third cards, which :func:`class_parts` reads back.

    >>> code = coup_class(np.array([[3, 8], [9, 0], [4, 0], [0, 8], [5, -1], [-1, -1]]))
    >>> [part.tolist() for part in class_parts(code)]
    [[7, 8], [9, 8], [5, -1], [-1, -1]]
    """
    code: Array = ((two_card_total(values, 0) * 10 + two_card_total(values, 1)) * 11 + values[4] + 1) * 11 + values[5] + 1
    return code


def class_parts(code: Array) -> tuple[Array, Array, Array, Array]:
    """The player's and the banker's two-card totals and third cards (-1: none) of coup classes
    (codes of :func:`coup_class`)."""
    return code // 1210, code // 121 % 10, code // 11 % 11 - 1, code % 11 - 1


def class_columns(code: Array, naturals: Iterable[int]) -> Columns:
    """The coup features of coup classes (codes of :func:`coup_class`)."""
    return coup_columns(*class_parts(code), naturals)


def card_columns(slot: str, level: Granularity, labels: Iterable[int] | Array) -> dict[str, Array]:
    """Features of one card slot from its class labels at ``level`` (-1: not dealt): a
    representative card of the class (``{slot}_card``, 0-51) and its value, rank, suit and colour.
    Only what ``level`` decides is meaningful; :class:`Columns` records the level."""
    labels = np.asarray(labels, dtype=np.int64)
    dealt = labels >= 0
    card = np.where(dealt, representatives(level)[np.maximum(labels, 0)], NOT_DEALT)
    rank, suit = np.divmod(np.maximum(card, 0), 4)
    attributes = {"card": card, "value": np.asarray(POINT_VALUES)[rank], "rank": rank, "suit": suit, "color": np.asarray(SUIT_COLOR)[suit]}
    return {f"{slot}_{name}": np.where(dealt, column, NOT_DEALT).astype(np.int8) for name, column in attributes.items()}


def add_counted(columns: Columns, counted: Iterable[tuple[str, Granularity]]) -> None:
    """The counted columns (see :data:`COUNTED`) of a table whose every slot is tracked finely
    enough, read off its slots' cards."""
    for key, level in counted:
        truth = np.append(counted_truth(key), False)
        for side in SIDES:
            cards = np.stack([columns[f"{slot}_card"] for slot in SLOTS if slot.startswith(side)])
            columns[f"{key}:{side}"] = truth[cards].sum(axis=0, dtype=np.int64)
        columns.levels[key] = level


def split_counted(levels: Levels) -> tuple[Levels, Levels]:
    """Tracked card slots (and positions) and counted predicates, apart; with counts, every slot is
    tracked at least as finely as the counts need (so the counts can be read off the cards)."""
    counted = {key: level for key, level in levels.items() if key.startswith(COUNTED)}
    slots = {slot: level for slot, level in levels.items() if not slot.startswith(COUNTED)}
    if counted:
        finest = Granularity.VALUE
        for level in counted.values():
            finest = finest.join(level)
        slots = {slot: slots.get(slot, Granularity.VALUE).join(finest) for slot in SLOTS} | {
            position: level for position, level in slots.items() if position in LATE_POSITIONS}
    return slots, counted
