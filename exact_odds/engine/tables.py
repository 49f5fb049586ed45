"""Compiled tables: every coup (or every draw of the first few cards) tabulated once, by row of
features and multiset of card classes, so that any shoe is a weighted sum.

A coup depends only on the ordered point values of the cards it uses, and how often a sequence of
card classes occurs in a shoe depends only on the multiset of those classes. Slots a bet reads finely
(a rank, a colour, a suit) are *refined*: their card is a class at the table's granularity; the other
cards stay point values. For a multiset with t_j refined cards of class j and u_v other cards of
value v (t_v of the refined cards having value v), in a shoe of N cards with c_j of class j and c_v
of value v, the ordered sequences of ``depth`` cards it stands for number

    prod_j falling(c_j, t_j) * prod_v falling(c_v - t_v, u_v) * falling(N - n, depth - n)

(powers instead of falling factorials for the infinite deck). In a multiset's packed key a refined
card of class j has id j, another card of value v has id J + v (J refined classes). Each multiset
lists the indices of its
factors in a per-shoe *factor vector*; :mod:`exact_odds.engine.kernel` multiplies them out and sums the
weighted orderings of every (multiset, target) entry, exactly.

For one shoe, coups by the classes of the card slots bets read are counted without such a table: the
same product, split as the ways to draw the tracked cards (a few counts per pattern of their values)
times the ways to deal the others by value (:func:`slot_distribution`).

>>> from exact_odds.core.policy import resolve
>>> from exact_odds.core.rules import PUNTO_BANCO
>>> from exact_odds.core.shoe import Shoe
>>> build_coup_table(resolve(PUNTO_BANCO)).distribution(Shoe.decks(8)).outcome_counts()["tie"]
475627426473216
"""

import itertools
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from ..core.cards import POINT_VALUES
from .distribution import FLOAT_EXACT, INT64_SAFE, Distribution, draws
from ..errors import InputError
from .kernel import Entries, exact_counts, weigh
from ..core.coup import NOT_DEALT, coup_sequences
from ..core.features import (
    COLORS,
    COUNTED,
    MARKS,
    SIDES,
    SLOTS,
    SUIT_COLOR,
    Array,
    Columns,
    Granularity,
    Levels,
    Partition,
    add_counted,
    card_columns,
    card_labels,
    class_values,
    counted_truth,
    coup_columns,
    label_map,
    relabel,
    representatives,
    shoe_counts,
    split_counted,
)
from ..core.policy import Decisions
from ..core.shoe import Shoe, gather

MAX_CARDS = 6
FACTORS = MAX_CARDS + 1
"""Counts 0..6 of the cards of one class a multiset may hold."""
MAX_ORDERINGS = 720
"""No multiset of six cards has more orderings than 6!."""
MAX_SEQUENCES = 12_000_000
"""A table built from more sequences than this is refused (seconds of work and gigabytes)."""
ABSENT = 63
"""The class id of an empty position in a packed multiset key (6 bits per card)."""

Tracked = tuple[tuple[str, Granularity], ...]
"""Tracked slots and their granularity, in slot order (a hashable form of :data:`~exact_odds.core.features.Levels`)."""


def tracked_key(levels: dict[str, Granularity]) -> Tracked:
    """The tracked slots in slot order, then the counted predicates in order: hashable."""
    return tuple((slot, levels[slot]) for slot in SLOTS if slot in levels) + tuple(sorted((key, level) for key, level in levels.items() if key.startswith(COUNTED)))


@dataclass(frozen=True, eq=False)
class Table:
    """Weighted orderings by (row, multiset); see the module docstring."""

    partition: Partition
    """The classes of refined cards (classes 0..J-1 of a multiset); J = ``refined``, 0 when none are refined."""
    refined: int
    depth: int
    scale: int
    """Each sequence counts ``scale`` times (a mixed policy's weights)."""
    columns: Columns
    multisets: Array  # (M, J + 10): refined classes, then the ten point values
    factors: Array  # (M, depth): indices of its linear factors in the factor vector
    entry_multiset: Array  # (E,) sorted by row
    entry_row: Array  # (E,)
    entry_weight: Array  # (E,) weighted orderings
    settlements: dict[Any, tuple[object, Array]] = field(default_factory=dict, repr=False)
    bases: dict[object, object] = field(default_factory=dict, repr=False)
    """Event bases of sets of bets on this table (see :mod:`exact_odds.engine.events`): kept as long as the table."""

    @property
    def rows(self) -> int:
        return len(next(iter(self.columns.values())))


    def factor_vectors(self, counts: Any, with_replacement: bool = False) -> Array:
        """Per shoe (rows of ``counts``: the shoes' counts of the refined classes, or of the ten values
        when nothing is refined), every linear factor a multiset's weight may use, laid out as
        :func:`_factor_indices` indexes them: c_j - i for refined classes, c_v - t - i for values,
        N - n - i for unused cards (no subtraction with replacement), then 1. Each is at most N: int64
        while every N is below 2^63, else Python integers (which the kernel weighs exactly)."""
        counts = exact_counts(counts)
        values = counts @ membership(self.partition).astype(counts.dtype) if self.refined else counts
        ones = np.ones((len(counts), 1), dtype=counts.dtype)
        known = np.concatenate([counts if self.refined else counts[:, :0], values, values.sum(axis=1, keepdims=True), ones], axis=1)
        source, offset = self._factor_layout
        vector: Array = known[:, source] - (0 if with_replacement else offset)
        return vector

    @cached_property
    def _factor_layout(self) -> tuple[Array, Array]:
        """Each factor as known[source] - offset, ``known`` being a shoe's refined class counts, its
        ten value counts, its size and 1 (the offset is dropped with replacement)."""
        refined, steps, taken = self.refined, np.arange(MAX_CARDS), np.arange(FACTORS)
        source = np.concatenate([np.repeat(np.arange(refined), MAX_CARDS), np.repeat(refined + np.arange(10), FACTORS * MAX_CARDS),
                                 np.full(FACTORS * MAX_CARDS, refined + 10), [refined + 11]])
        offset = np.concatenate([np.tile(steps, refined), np.tile((taken[:, None] + steps).ravel(), 10), (taken[:, None] + steps).ravel(), [0]])
        return source, offset

    @cached_property
    def row_entries(self) -> Entries:
        """The table's entries with rows as targets."""
        return Entries(self.factors, self.entry_multiset, self.entry_row, self.entry_weight, self.rows)

    def bound(self, size: int) -> int:
        """A bound on every product of factors and every count of a shoe of ``size`` cards."""
        bound: int = max(size, 1) ** self.depth * self.scale
        return bound

    def distribution(self, shoe: Shoe, entries: Entries | None = None, columns: Columns | None = None,
                     settlements: dict[Any, tuple[object, Array]] | None = None) -> Distribution:
        """The counts of every row for ``shoe``, exactly; or of coarser rows: the targets of
        ``entries``, described by ``columns`` (see :mod:`exact_odds.engine.events`). (The total is that of
        the counts at the table's granularity: the infinite deck holds one card of each rank, or of
        each card.)"""
        classes = shoe_counts(shoe.checked(self.depth), self.partition)
        size = sum(classes)
        counts = weigh(entries or self.row_entries, self.factor_vectors([classes], shoe.with_replacement), self.bound(size))[0]
        total = draws(size, self.depth, shoe.with_replacement) * self.scale
        if entries is None:
            return Distribution(self.columns, counts, total, self.depth, self.scale, self.settlements)
        assert columns is not None
        return Distribution(columns, counts, total, self.depth, self.scale, settlements)


def _pack(ids: Array) -> Array:
    """Sorted class ids of up to six cards per column, packed six bits each."""
    ordered = np.sort(ids, axis=0)
    packed = np.zeros(ids.shape[1], dtype=np.int64)
    for row in ordered:
        packed = (packed << 6) | row
    return packed


def _unpack(packed: Array, classes: int) -> Array:
    """Class counts (M, classes) of packed multiset keys."""
    multisets = np.zeros((len(packed), classes), dtype=np.int64)
    for shift in range(MAX_CARDS):
        ids = (packed >> (6 * shift)) & 63
        present = ids != ABSENT
        np.add.at(multisets, (np.flatnonzero(present), ids[present]), 1)
    return multisets


def membership(partition: Partition) -> Array:
    """Which point value each class of ``partition`` has, as a (classes x 10) 0/1 matrix."""
    matrix: Array = (partition.values[:, None] == np.arange(10)[None, :]).astype(np.int64)
    return matrix


def _factor_indices(multisets: Array, partition: Partition, refined: int, depth: int) -> Array:
    """Each multiset's ``depth`` linear factors, as indices into the factor vector (see
    :meth:`Table.factor_vectors`): for t_j refined cards of class j, c_j, c_j - 1, ...; for u_v
    other cards of value v, c_v - t_v, c_v - t_v - 1, ...; for the unused cards, N - n, N - n - 1, ..."""
    rows = len(multisets)
    fine_counts, value_counts = multisets[:, :refined], multisets[:, refined:]
    values_of_fine = fine_counts @ membership(partition) if refined else np.zeros((rows, 10), dtype=np.int64)
    value_base = refined * MAX_CARDS
    unused_base = value_base + 10 * FACTORS * MAX_CARDS
    one = unused_base + FACTORS * MAX_CARDS
    indices = np.full((rows, depth), one, dtype=np.int64)
    filled = np.zeros(rows, dtype=np.int64)
    steps = np.arange(MAX_CARDS)

    def place(base: Array, count: Array) -> None:
        for step in range(int(count.max(initial=0))):
            chosen = count > step
            indices[chosen, filled[chosen]] = base[chosen] + step
            filled[chosen] += 1

    for klass in range(refined):
        place(np.full(rows, klass * MAX_CARDS), fine_counts[:, klass])
    for value in range(10):
        place(value_base + (value * FACTORS + values_of_fine[:, value]) * MAX_CARDS, value_counts[:, value])
    cards = multisets.sum(axis=1)
    place(unused_base + cards * MAX_CARDS, depth - cards)
    del steps
    return indices


def table_arrays(table: Table) -> dict[str, Array]:
    """The arrays that make a plain table (no refined cards), for keeping on disk."""
    columns = table.columns
    keys = np.stack([columns[name] for name in ("player_two_card_total", "banker_two_card_total", "player_third_card", "banker_third_card")])
    return {"multisets": table.multisets, "entry_multiset": table.entry_multiset, "entry_row": table.entry_row,
            "entry_weight": table.entry_weight, "keys": keys.astype(np.int64)}


def table_from_arrays(columns: Columns, scale: int, arrays: dict[str, Array]) -> Table:
    """A plain table from :func:`table_arrays` (its factor indices recomputed from the multisets)."""
    multisets = arrays["multisets"]
    return Table(Partition.of(Granularity.VALUE), 0, MAX_CARDS, scale, columns, multisets, _factor_indices(multisets, Partition.of(Granularity.VALUE), 0, MAX_CARDS),
                 arrays["entry_multiset"], arrays["entry_row"], arrays["entry_weight"])


def _collect(partition: Partition, refined: int, depth: int, scale: int, columns: Columns, row_index: Array, multiset_keys: Array,
             weights: Array) -> Table:
    """A table from its sequences: each sequence's row, packed multiset key and weight."""
    keys, multiset_index = np.unique(multiset_keys, return_inverse=True)
    entries, entry_index = np.unique(row_index * len(keys) + multiset_index, return_inverse=True)
    summed = np.zeros(len(entries), dtype=weights.dtype)
    np.add.at(summed, entry_index, weights)
    entry_row, entry_multiset = np.divmod(entries, len(keys))
    multisets = _unpack(keys, refined + 10)
    return Table(partition, refined, depth, scale, columns, multisets, _factor_indices(multisets, partition, refined, depth),
                 entry_multiset, entry_row, summed)


Support = tuple[bool, ...] | None
"""Which of the 52 cards a shoe holds (None: all may occur). A table built for a support leaves out
the classes no card of it falls in: the same counts for that shoe, a smaller table."""


def shoe_support(shoe: Shoe) -> Support:
    """The cards a shoe holds, or None when it may deal any card."""
    held = shoe.card_counts if shoe.card_counts is not None else tuple(count for count in shoe.rank_counts for _ in range(4))
    return None if all(held) else tuple(count > 0 for count in held)


def _present(labels: Array, classes: int, support: Support) -> Array:
    """Which classes (of cards labelled ``labels``) hold a card of the support."""
    present = np.zeros(classes, dtype=bool)
    present[np.asarray(labels)[np.asarray(support if support is not None else (True,) * 52)]] = True
    return present


def _refine(values: Array, weights: Array, tracked: Tracked, fine: Granularity, support: Support = None) -> tuple[Array, Array, Array]:
    """Each sequence once per way to give its tracked cards a class at ``fine`` (of the support): the
    values, the fine labels of tracked slots (-1 elsewhere) and the weights, repeated."""
    labels = np.full(values.shape, NOT_DEALT, dtype=np.int64)
    present = _present(card_labels(fine), fine.classes, support)
    by_value = [np.flatnonzero((np.asarray(class_values(fine)) == value) & present) for value in range(10)]
    widths = np.array([len(classes) for classes in by_value] + [1])
    table = np.full((11, widths.max()), NOT_DEALT)
    for value, classes in enumerate(by_value):
        table[value, : len(classes)] = classes
    for slot, _ in tracked:
        position = SLOTS.index(slot)
        repeats = widths[values[position]]  # value -1 (not dealt) reads the last row: one copy
        if repeats.sum() > MAX_SEQUENCES:
            raise InputError(f"the bets read {', '.join(slot for slot, _ in tracked)} too finely to tabulate every coup "
                             f"({int(repeats.sum()):,} sequences): read fewer slots, or ranks or colours instead of suits "
                             "(counting cards with count() is cheap alone, but beside a card slot every slot is read)")
        origin = np.repeat(np.arange(len(repeats)), repeats)
        within = np.arange(len(origin)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
        values, labels, weights = values[:, origin], labels[:, origin], weights[origin]
        labels[position] = table[values[position], within]
    return values, labels, weights


def _side_classes(partition: Partition, present: Array) -> dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]]:
    """For every hand of up to three point values (sorted): its hands of the ``present`` classes of
    ``partition`` (class ids, sorted, padded with :data:`ABSENT`) and how many ways the hand's
    positions can hold each."""
    values = partition.values
    by_value = [tuple(np.flatnonzero((values == value) & present).tolist()) for value in range(10)]
    expansions: dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]] = {}
    for size in range(4):
        for hand in itertools.combinations_with_replacement(range(10), size):
            ways: dict[tuple[int, ...], int] = {}
            for classes in itertools.product(*(by_value[value] for value in hand)):
                key = tuple(sorted(classes)) + (ABSENT,) * (3 - size)
                ways[key] = ways.get(key, 0) + 1
            expansions[hand] = list(ways.items())
    return expansions


def _counted_table(decisions: Decisions, counted: Tracked, values: Array, weights: Array, support: Support) -> Table:
    """Every coup by coup class and, for each counted predicate, how many cards of each hand it
    holds for (what count(), player_count() and banker_count() read). Cards are refined hand by hand
    to the predicates' granularity, not slot by slot: a hand of values splits into hands of classes,
    each as often as the hand's positions allow. The classes are the cards' point values split by
    what the predicates tell apart (no finer)."""
    signature = np.stack([np.asarray(POINT_VALUES)[np.arange(52) // 4]] + [counted_truth(key) for key, _ in counted], axis=1)
    _, labels = np.unique(signature, axis=0, return_inverse=True)
    partition = Partition(tuple(labels.ravel().tolist()))
    truths = np.zeros((len(counted), partition.classes), dtype=np.int64)  # (predicates, classes)
    for index, (key, _) in enumerate(counted):
        truths[index, list(partition.labels)] = counted_truth(key)
    klass = ((((values[0] + values[2]) % 10) * 10 + (values[1] + values[3]) % 10) * 11 + values[4] + 1) * 11 + values[5] + 1
    sides = []
    for positions in ((0, 2, 4), (1, 3, 5)):
        code = np.zeros(values.shape[1], dtype=np.int64)
        for row in np.sort(values[list(positions)], axis=0):
            code = code * 11 + row + 1
        sides.append(code)
    groups, group_index = np.unique((klass * 11**3 + sides[0]) * 11**3 + sides[1], return_inverse=True)
    group_weight = np.zeros(len(groups), dtype=weights.dtype)
    np.add.at(group_weight, group_index, weights)
    expansions = _side_classes(partition, _present(np.asarray(partition.labels), partition.classes, support))
    hands = list(expansions)
    code_of_hand = {sum((value + 1) * 11 ** (2 - position) for position, value in enumerate(sorted(list(hand) + [NOT_DEALT] * (3 - len(hand))))): index
                    for index, hand in enumerate(hands)}  # as np.sort lays a hand out: the empty places first
    starts = np.cumsum([0] + [len(expansions[hand]) for hand in hands])
    ids = np.asarray([ids for hand in hands for ids, _ in expansions[hand]], dtype=np.int8)  # class ids below 64: a byte each
    ways = np.asarray([ways for hand in hands for _, ways in expansions[hand]], dtype=np.int64)
    side_hands = [np.array([code_of_hand[int(code)] for code in part.tolist()]) for part in ((groups // 11**3) % 11**3, groups % 11**3)]
    player_count, banker_count = (starts[hand + 1] - starts[hand] for hand in side_hands)
    repeats = player_count * banker_count
    if repeats.sum() > MAX_SEQUENCES:
        raise InputError(f"the counts tell {partition.classes} classes of cards apart, too many to tabulate ({int(repeats.sum()):,} hands)")
    origin = np.repeat(np.arange(len(groups)), repeats)
    within = np.arange(len(origin)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
    player_choice = starts[side_hands[0][origin]] + within // banker_count[origin]
    banker_choice = starts[side_hands[1][origin]] + within % banker_count[origin]
    weight = group_weight[origin] * ways[player_choice] * ways[banker_choice]
    held = np.vstack([ids[player_choice].T, ids[banker_choice].T])  # (6, entries) class ids
    row_code = groups[origin] // 11**6
    del within, player_choice, banker_choice, origin  # millions of entries each: freed before the next arrays
    padded = np.zeros((len(counted), ABSENT + 1), dtype=np.int64)  # absent cards hold for nothing
    padded[:, : truths.shape[1]] = truths
    for side_rows in (held[:3], held[3:]):
        for predicate in padded:
            row_code = row_code * 4 + predicate[side_rows].sum(axis=0)
    rows, row_index = np.unique(row_code, return_inverse=True)
    del row_code
    codes, found = rows.copy(), []
    for side in reversed(SIDES):
        for key, _ in reversed(counted):
            found.append((f"{key}:{side}", codes % 4))
            codes //= 4
    keys = np.stack([codes // 1210, codes // 121 % 10, codes // 11 % 11 - 1, codes % 11 - 1])
    columns = coup_columns(keys[0], keys[1], keys[2], keys[3], decisions.rules.naturals)
    columns.update(dict(found))
    columns.levels.update(counted)
    return _collect(partition, partition.classes, MAX_CARDS, decisions.scale**2, columns, row_index, _pack(held), weight)


@lru_cache(maxsize=8)
def build_coup_table(decisions: Decisions, tracked: Tracked = (), support: Support = None) -> Table:
    """Every coup of the rules, by coup class (two-card totals and third cards) and the tracked
    slots' classes, and by multiset of cards used (refined for tracked slots); with a support, only
    the coups it can deal. A count of the cards (:data:`~exact_odds.core.features.COUNTED`) alone is
    tabulated hand by hand; with other slots, every slot is tracked at its granularity and the counts
    follow from them. Built once per process; :func:`exact_odds.engine.store.coup_table` also keeps
    the plain table of point values on disk."""
    counted = tuple((key, level) for key, level in tracked if key.startswith(COUNTED))
    values, weights = coup_sequences(decisions)
    if decisions.scale**2 * MAX_ORDERINGS >= INT64_SAFE:  # the sums of a multiset's orderings: Python integers
        weights = weights.astype(object)
    if support is not None:
        held = _present(np.asarray(POINT_VALUES)[np.arange(52) // 4], 10, support)
        keep = np.all(held[values] | (values < 0), axis=0)
        values, weights = values[:, keep], weights[keep]
    if counted and len(counted) == len(tracked):
        return _counted_table(decisions, counted, values, weights, support)
    if counted:
        tracked = tracked_key(split_counted(dict(tracked))[0])
    fine = Granularity.VALUE
    for _, level in tracked:
        fine = fine.join(level)
    refined = fine.classes if tracked else 0
    values, labels, weights = _refine(values, weights, tracked, fine, support)
    player_two, banker_two = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
    row_code = ((player_two * 10 + banker_two) * 11 + values[4] + 1) * 11 + values[5] + 1
    for slot, level in tracked:
        row_code = row_code * 64 + relabel(labels[SLOTS.index(slot)], fine, level) + 1
    ids = np.where(labels >= 0, labels, np.where(values >= 0, values + refined, ABSENT))  # class ids (module docstring)
    rows, row_index = np.unique(row_code, return_inverse=True)
    codes = rows.copy()
    slot_labels = []
    for slot, level in reversed(tracked):
        slot_labels.append((slot, level, codes % 64 - 1))
        codes //= 64
    keys = np.stack([codes // 1210, codes // 121 % 10, codes // 11 % 11 - 1, codes % 11 - 1])
    columns = coup_columns(keys[0], keys[1], keys[2], keys[3], decisions.rules.naturals)
    for slot, level, slot_label in reversed(slot_labels):
        columns.levels[slot] = level
        columns.update(card_columns(slot, level, slot_label))
    if counted:
        add_counted(columns, counted)
    return _collect(Partition.of(fine), refined, MAX_CARDS, decisions.scale**2, columns, row_index, _pack(ids), weights)


@lru_cache(maxsize=4)
def card_table(tracked: Tracked) -> Table:
    """Every ordered draw of the cards in the tracked slots (the first cards of a coup), one row per
    sequence of classes at the slots' granularity."""
    fine = Granularity.VALUE
    for _, level in tracked:
        fine = fine.join(level)
    if any(SLOTS.index(slot) >= 4 for slot, _ in tracked):
        raise ValueError("a third card is dealt only when the coup draws it: count it through the coup")
    sequences = fine.classes ** len(tracked)
    if sequences > MAX_SEQUENCES:
        raise InputError(f"the bets read {', '.join(slot for slot, _ in tracked)} too finely to tabulate ({sequences:,} sequences)")
    labels = np.indices((fine.classes,) * len(tracked), dtype=np.int16).reshape(len(tracked), -1)
    ids = np.vstack([labels, np.full((MAX_CARDS - len(tracked), labels.shape[1]), ABSENT, dtype=np.int16)]).astype(np.int64)  # every card refined
    columns = Columns(levels=dict(tracked))
    for (slot, level), label in zip(tracked, labels):
        columns.update(card_columns(slot, level, relabel(label, fine, level)))
    if not tracked:
        columns["rows"] = np.zeros(1, dtype=np.int64)
    return _collect(Partition.of(fine), fine.classes, len(tracked), 1, columns, np.arange(labels.shape[1]), _pack(ids), np.ones(labels.shape[1], dtype=np.int64))


MAX_SLOT_ROWS = 8_000_000
"""A distribution by the classes of tracked card slots with more rows than this is refused (it
would take a gigabyte)."""
MAX_CELLS = 4_000_000
MAX_GROUPS = 2_000
"""Coups are summed over the values of the slots read by their mark alone in dense products, one
per pattern of the other slots' values: at most this many, of at most ``MAX_CELLS`` cells each;
beyond, those slots are split by value too."""


@lru_cache(maxsize=8)
def _value_sequences(decisions: Decisions) -> tuple[Array, Array]:
    """:func:`~exact_odds.core.coup.coup_sequences` with the values in bytes, kept per rule set and policy."""
    values, weights = coup_sequences(decisions)
    return values.astype(np.int8), weights


def _too_fine(slots: list[str], rows: int) -> InputError:
    return InputError(f"the bets read the card slots {', '.join(slots)} too finely to count apart ({rows:,} rows): read fewer slots, "
                      "or colours instead of suits, or count the cards a predicate holds for (count(card_suit == H) == 6)")


def _mark_labels(fine: Granularity, level: Granularity) -> Array:
    """For each class at ``fine``, its class by the mark of ``level`` alone: suit, colour, or one class."""
    suits = representatives(fine) % 4
    labels: Array = (np.zeros_like(suits), np.asarray(SUIT_COLOR)[suits], suits)[level.mark]
    return labels


def _mark_columns(slot: str, level: Granularity, labels: Array) -> dict[str, Array]:
    """The features of a slot read by its mark alone, from its labels by :func:`_mark_labels`: a
    card of the mark (an ace), its suit and colour; no value or rank, which nothing reads."""
    suit_of = (np.zeros(1, dtype=np.int64), np.asarray([SUIT_COLOR.index(color) for color in range(len(COLORS))]), np.arange(4))[level.mark]
    cards = np.where(labels >= 0, suit_of[np.maximum(labels, 0)], NOT_DEALT)
    columns = card_columns(slot, Granularity.CARD, cards)
    del columns[f"{slot}_value"], columns[f"{slot}_rank"]
    return columns


def _slot_classes(shoe: Shoe, patterns: Array, slots: list[str], maps: list[Array], fine: Granularity) -> tuple[Array, Array, Array]:
    """For each pattern of point values of the tracked slots (rows of ``patterns``, -1: no card),
    every way to give those cards a class and how many ordered draws of distinct cards of ``shoe``
    fall in it: (pattern index, class labels (slots x ways), draws), sorted by pattern. The cards are
    drawn as classes at ``fine``; ``maps`` gives each slot's class of each of them."""
    counts = np.asarray(shoe_counts(shoe, fine), dtype=object)
    present = [np.flatnonzero((np.asarray(class_values(fine)) == value) & (counts > 0)) for value in range(10)]
    widths = np.array([len(classes) for classes in present] + [1])
    table = np.full((11, int(widths.max())), NOT_DEALT)
    for value, classes in enumerate(present):
        table[value, : len(classes)] = classes
    origin = np.arange(len(patterns))
    labels = np.zeros((0, len(patterns)), dtype=np.int64)
    for slot in range(len(slots)):
        repeats = widths[patterns[origin, slot]]  # a slot with no card (-1) reads the last row: one way
        if repeats.sum() > MAX_SLOT_ROWS:
            raise _too_fine(slots, int(repeats.sum()))
        copies = np.repeat(np.arange(len(origin)), repeats)
        within = np.arange(len(copies)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
        origin = origin[copies]
        labels = np.vstack([labels[:, copies], table[patterns[origin, slot], within]])
    ways = np.ones(len(origin), dtype=object)
    for slot, label in enumerate(labels):
        left = counts[np.maximum(label, 0)]
        if not shoe.with_replacement:
            left = left - (labels[:slot] == label).sum(axis=0)  # the cards of its class drawn before (no card equals none)
        ways = np.where(label >= 0, ways * left, ways)
    keep = ways != 0
    gathered = np.stack([np.where(label[keep] >= 0, mapping[np.maximum(label[keep], 0)], NOT_DEALT) for label, mapping in zip(labels, maps)])
    code = origin[keep]
    for label in gathered:
        code = code * (fine.classes + 1) + label + 1
    _, first, index = np.unique(code, return_index=True, return_inverse=True)
    summed = np.zeros(len(first), dtype=object)
    np.add.at(summed, index.ravel(), ways[keep])
    return origin[keep][first], gathered[:, first], summed


def _expanded(klass: Array, row_pattern: Array, row_counts: Array, pattern_of: Array, labels: Array, ways: Array,
              slots: list[str], pattern_count: int) -> tuple[Array, Array, Array]:
    """Each row of coups once per class of its pattern of tracked values: (coup class, labels, counts)."""
    starts = np.searchsorted(pattern_of, np.arange(pattern_count + 1))
    repeats = (starts[1:] - starts[:-1])[row_pattern]
    if repeats.sum() > MAX_SLOT_ROWS:
        raise _too_fine(slots, int(repeats.sum()))
    origin = np.repeat(np.arange(len(klass)), repeats)
    way = starts[row_pattern[origin]] + np.arange(len(origin)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
    return klass[origin], labels[:, way], row_counts[origin] * ways[way]


def _summed_over_marks(klass: Array, row_pattern: Array, row_counts: Array, patterns: Array, marked: list[bool], pattern_of: Array,
                       labels: Array, ways: Array, exact: Any) -> tuple[Array, Array, Array] | None:
    """The rows of coups by coup class and the classes of the tracked slots, summed over the values
    of the slots read by their mark alone (``marked``): for each pattern of the other slots' values,
    the counts by coup class and pattern (a dense matrix) times the draws by pattern and classes,
    in ``exact`` arithmetic. None where that takes too many or too large products."""
    radix = 11 ** np.arange(patterns.shape[1])
    faces = (patterns + 1) @ np.where(marked, 0, radix)
    groups, group_of = np.unique(faces, return_inverse=True)
    if len(groups) > MAX_GROUPS:
        return None
    group_of = group_of.ravel()
    by_rows, by_ways = np.argsort(group_of[row_pattern], kind="stable"), np.argsort(group_of[pattern_of], kind="stable")
    row_starts = np.searchsorted(group_of[row_pattern][by_rows], np.arange(len(groups) + 1))
    way_starts = np.searchsorted(group_of[pattern_of][by_ways], np.arange(len(groups) + 1))
    out_klass, out_labels, out_counts = [np.zeros(0, dtype=np.int64)], [labels[:, :0]], [np.zeros(0, dtype=exact)]
    for group in range(len(groups)):
        rows, chosen = by_rows[row_starts[group] : row_starts[group + 1]], by_ways[way_starts[group] : way_starts[group + 1]]
        if not len(chosen):
            continue
        coups, coup_index = np.unique(klass[rows], return_inverse=True)
        held, pattern_index = np.unique(np.concatenate([row_pattern[rows], pattern_of[chosen]]), return_inverse=True)
        classes, first, class_index = np.unique(labels[:, chosen], axis=1, return_index=True, return_inverse=True)
        if max(len(coups), classes.shape[1]) * len(held) > MAX_CELLS or len(coups) * classes.shape[1] > MAX_CELLS:
            return None
        by_pattern = np.zeros((len(coups), len(held)), dtype=exact)
        by_pattern[coup_index.ravel(), pattern_index[: len(rows)]] = row_counts[rows]
        draws_of = np.zeros((len(held), classes.shape[1]), dtype=exact)
        draws_of[pattern_index[len(rows) :], class_index.ravel()] = ways[chosen]
        counts = by_pattern @ draws_of
        coup_at, class_at = np.nonzero(counts)
        out_klass.append(coups[coup_at])
        out_labels.append(labels[:, chosen[first[class_at]]])
        out_counts.append(counts[coup_at, class_at])
    return np.concatenate(out_klass), np.concatenate(out_labels, axis=1), np.concatenate(out_counts)


def slot_distribution(shoe: Shoe, decisions: Decisions, tracked: Levels, faces: Collection[str] | None = None) -> Distribution:
    """Every coup of ``shoe`` by coup class and the classes of the ``tracked`` card slots, each at
    its own granularity (card slots only, no counted predicates), as ordered 6-card sequences. A slot
    not in ``faces`` (None: all) is read by its suit or colour alone: its rows say only that.

    The cards of a shoe are exchangeable: the sequences of a coup whose tracked cards fall in given
    classes number the ordered draws of those cards into those classes times the ways to deal the
    coup's other cards, by point value, from the cards left, which depend on the tracked cards'
    values only. So each coup over point values is weighed once for the pattern of its tracked
    slots' values, and each pattern is split into classes by a product of a few counts
    (:func:`_slot_classes`), never a table of every class of every card; a slot read by its mark
    alone is then summed over its values (:func:`_summed_over_marks`)."""
    shoe = shoe.checked()
    slots = [slot for slot in SLOTS if slot in tracked]
    levels = [tracked[slot] for slot in slots]
    fine = Granularity.VALUE
    for level in levels:
        fine = fine.join(level)
    value_counts = gather(shoe_counts(shoe, fine), class_values(fine))
    size, replace, scale = sum(value_counts), shoe.with_replacement, decisions.scale**2
    total = draws(size, MAX_CARDS, replace) * scale
    kind: Any = np.int64 if size**MAX_CARDS * scale < INT64_SAFE else object  # bounds every count and every partial product below
    values, weights = _value_sequences(decisions)
    wide = values.astype(np.int64)
    positions = [SLOTS.index(slot) for slot in slots]
    rest = [position for position in range(MAX_CARDS) if position not in positions]
    available = np.asarray(value_counts, dtype=kind)
    completions = weights.astype(kind)
    for place, position in enumerate(rest):  # each other card of the coup drawn by value from what is left
        value = wide[position]
        before = sum((wide[other] == value).astype(np.int64) for other in positions + rest[:place])
        left = available[np.maximum(value, 0)] - (0 if replace else before)
        completions = completions * np.where(value >= 0, np.maximum(left, 0), 1)
    dealt = (values >= 0).sum(axis=0)
    unused = np.asarray([draws(size - (0 if replace else cards), MAX_CARDS - cards, replace) for cards in range(FACTORS)], dtype=kind)
    completions = completions * unused[dealt]
    possible = completions != 0
    wide, completions = wide[:, possible], completions[possible]
    radix = 11 ** len(slots)
    pattern = np.zeros(len(completions), dtype=np.int64)
    for position in reversed(positions):
        pattern = pattern * 11 + wide[position] + 1
    klass = ((((wide[0] + wide[2]) % 10) * 10 + (wide[1] + wide[3]) % 10) * 11 + wide[4] + 1) * 11 + wide[5] + 1
    rows, row_index = np.unique(klass * radix + pattern, return_inverse=True)
    row_counts = np.zeros(len(rows), dtype=kind)
    np.add.at(row_counts, row_index.ravel(), completions)
    rows, row_counts = rows[row_counts != 0], row_counts[row_counts != 0]
    pattern_codes, row_pattern = np.unique(rows % radix, return_inverse=True)
    patterns = np.stack([pattern_codes // 11**slot % 11 - 1 for slot in range(len(slots))], axis=1)
    marked = [faces is not None and slot not in faces for slot in slots]
    summed = None
    if any(marked):
        maps = [_mark_labels(fine, level) if mark else label_map(fine, level) for level, mark in zip(levels, marked)]
        exact: Any = np.float64 if total < FLOAT_EXACT and kind is np.int64 else kind  # float64: every sum is a count below 2^53, exact
        pattern_of, labels, ways = _slot_classes(shoe, patterns, slots, maps, fine)
        summed = _summed_over_marks(rows // radix, row_pattern.ravel(), row_counts.astype(exact), patterns, marked, pattern_of, labels, ways.astype(exact), exact)
    if summed is None:
        marked = [False] * len(slots)
        pattern_of, labels, ways = _slot_classes(shoe, patterns, slots, [label_map(fine, level) for level in levels], fine)
        summed = _expanded(rows // radix, row_pattern.ravel(), row_counts, pattern_of, labels, ways.astype(kind), slots, len(patterns))
    klass, labels, counts = summed
    columns = coup_columns(klass // 1210, klass // 121 % 10, klass // 11 % 11 - 1, klass % 11 - 1, decisions.rules.naturals)
    columns.levels.update(tracked)
    for slot, level, label, mark in zip(slots, levels, labels, marked):
        columns.update(_mark_columns(slot, level, label) if mark else card_columns(slot, level, label))
    return Distribution(columns, counts.astype(np.int64 if total < INT64_SAFE else object), total, MAX_CARDS, scale)
