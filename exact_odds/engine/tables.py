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
from collections.abc import Callable, Collection
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
    FIRST_CARDS,
    LATE_POSITIONS,
    POSITIONS_OF,
    SIDES,
    SUIT_COLOR,
    TRACKED_CARDS,
    Array,
    Columns,
    Granularity,
    Levels,
    Partition,
    add_counted,
    card_columns,
    card_labels,
    card_positions,
    class_values,
    counted_truth,
    coup_columns,
    label_map,
    relabel,
    representatives,
    shoe_counts,
    shoe_order,
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
"""Tracked slots (and shoe positions 5 and 6) and their granularity, in the order of
:data:`~exact_odds.core.features.TRACKED_CARDS` (a hashable form of :data:`~exact_odds.core.features.Levels`)."""

Support = tuple[bool, ...] | None
"""Which of the 52 cards a shoe holds (None: all may occur). A table built for a support leaves out
the classes no card of it falls in: the same counts for that shoe, a smaller table."""


def tracked_key(levels: dict[str, Granularity]) -> Tracked:
    """The tracked slots and positions in order, then the counted predicates in order: hashable."""
    return tuple((key, levels[key]) for key in TRACKED_CARDS if key in levels) + tuple(sorted((key, level) for key, level in levels.items() if key.startswith(COUNTED)))


def coup_class(values: Array) -> Array:
    """The class of each coup given by slot (rows of :data:`~exact_odds.core.features.SLOTS`, -1:
    not dealt), as one code: its two-card totals and third cards (below 12,100)."""
    code: Array = ((((values[0] + values[2]) % 10) * 10 + (values[1] + values[3]) % 10) * 11 + values[4] + 1) * 11 + values[5] + 1
    return code


def class_columns(code: Array, decisions: Decisions) -> Columns:
    """The coup features of coup classes (:func:`coup_class`)."""
    return coup_columns(code // 1210, code // 121 % 10, code // 11 % 11 - 1, code % 11 - 1, decisions.rules.naturals)


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
    origin: str = field(default="", repr=False)
    """The name of the file that keeps the table (see :mod:`exact_odds.engine.store`), which names
    its event bases' files too; empty for a table built apart."""

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
    def shared_factors(self) -> tuple[int, ...]:
        """The unused cards' factors N - n - i: many multisets hold the same ones (every 4-card coup
        of a 6-card table two), so the batch kernel multiplies by them once per event."""
        source, _ = self._factor_layout
        return tuple(np.flatnonzero(source == self.refined + 10).tolist())

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


FACTOR_ROWS = 1 << 16
"""Multisets whose factor indices are found at once."""


def _factor_indices(multisets: Array, partition: Partition, refined: int, depth: int) -> Array:
    """:func:`_factor_runs` of the multisets, a block of rows at a time (its temporaries stay small)."""
    if len(multisets) <= FACTOR_ROWS:
        return _factor_runs(multisets, partition, refined, depth)
    return np.concatenate([_factor_runs(multisets[first : first + FACTOR_ROWS], partition, refined, depth)
                           for first in range(0, len(multisets), FACTOR_ROWS)])


def _factor_runs(multisets: Array, partition: Partition, refined: int, depth: int) -> Array:
    """Each multiset's ``depth`` linear factors, as indices into the factor vector (see
    :meth:`Table.factor_vectors`): for t_j refined cards of class j, c_j, c_j - 1, ...; for u_v
    other cards of value v, c_v - t_v, c_v - t_v - 1, ...; for the unused cards, N - n, N - n - 1, ...
    (laid out by run: each nonzero count of a row, then its unused cards, fill the row's ``depth`` places)."""
    rows = len(multisets)
    row, column = np.nonzero(multisets)
    counts = multisets[row, column].astype(np.int64)
    value_base = refined * MAX_CARDS
    unused_base = value_base + 10 * FACTORS * MAX_CARDS
    bases = column * MAX_CARDS
    valued = column >= refined
    if valued.any():
        held = multisets[row[valued], :refined].astype(np.int64) @ membership(partition) if refined else np.zeros((int(valued.sum()), 10), dtype=np.int64)
        value = column[valued] - refined
        bases[valued] = value_base + (value * FACTORS + held[np.arange(len(value)), value]) * MAX_CARDS
    cards = multisets.sum(axis=1, dtype=np.int64)
    before = np.cumsum(cards) - cards  # the cards of the rows above
    starts = row * depth + np.cumsum(counts) - counts - before[row]
    unused = depth - cards
    runs = np.concatenate([counts, unused])
    steps = np.arange(int(runs.sum())) - np.repeat(np.cumsum(runs) - runs, runs)
    indices = np.empty(rows * depth, dtype=np.int64)
    indices[np.repeat(np.concatenate([starts, np.arange(rows) * depth + cards]), runs) + steps] = np.repeat(np.concatenate([bases, unused_base + cards * MAX_CARDS]), runs) + steps
    return indices.reshape(rows, depth)


COLUMN = "column:"
LEVEL = "level:"
"""The prefixes of a table's feature columns and of the granularity of each slot it tracks, among its arrays."""


def table_arrays(table: Table) -> dict[str, Array]:
    """The arrays that make a table, for keeping on disk: its multisets and entries, each feature
    column as ``column:NAME`` and each tracked slot's granularity as ``level:SLOT`` (the factor
    indices follow from the multisets)."""
    arrays = {"multisets": table.multisets, "entry_multiset": table.entry_multiset, "entry_row": table.entry_row, "entry_weight": table.entry_weight}
    arrays.update({f"{COLUMN}{name}": np.asarray(column) for name, column in table.columns.items()})
    arrays.update({f"{LEVEL}{slot}": np.array([int(level)]) for slot, level in table.columns.levels.items()})
    return arrays


def table_from_arrays(partition: Partition, refined: int, depth: int, scale: int, arrays: dict[str, Array], support: Support = None) -> Table | None:
    """The table of :func:`table_arrays` refined to ``partition`` (``refined`` classes; 0: point
    values), or None where the arrays cannot make one: not integers, shapes that disagree, an entry
    out of range, or weights that do not account for every sequence of classes exactly once. (Each
    of the C^depth sequences of the C classes a table holds (of the ``support``), or of the ten
    values, extends exactly one entry: a multiset of n cards, u_v of them cards of value v not
    refined, stands for prod S_v^u_v C^(depth - n) of them, S_v the classes of value v, so the sum
    of each weight times that is C^depth * scale.)"""
    if any(array.dtype.kind not in "iu" for array in arrays.values()) or not {"multisets", "entry_multiset", "entry_row", "entry_weight"} <= set(arrays):
        return None
    multisets = arrays["multisets"]
    entry_multiset, entry_row, weight = (arrays[name].astype(np.int64) for name in ("entry_multiset", "entry_row", "entry_weight"))
    levels = {name[len(LEVEL) :]: Granularity(int(array[0])) for name, array in arrays.items() if name.startswith(LEVEL)}
    columns = Columns({name[len(COLUMN) :]: array for name, array in arrays.items() if name.startswith(COLUMN)}, levels)
    rows = {len(column) for column in columns.values()}
    if (multisets.ndim != 2 or multisets.shape[1] != refined + 10 or len(rows) != 1 or any(column.ndim != 1 for column in columns.values())
            or not entry_multiset.ndim == entry_row.ndim == weight.ndim == 1 or not len(entry_multiset) == len(entry_row) == len(weight)):
        return None
    if len(weight) and (min(entry_multiset.min(), entry_row.min(), multisets.min(), weight.min()) < 0 or entry_multiset.max() >= len(multisets)
                        or entry_row.max() >= rows.pop() or (multisets.sum(axis=1, dtype=np.int64) > depth).any()):
        return None
    present = _present(np.asarray(partition.labels), partition.classes, support) if refined else np.ones(10, dtype=bool)
    classes = int(present.sum())
    per_value = np.asarray([int((present & (partition.values == value)).sum()) for value in range(10)]) if refined else np.ones(10, dtype=np.int64)
    unrefined = multisets[:, refined:].astype(np.int64)
    stands = np.prod(per_value[None, :] ** unrefined, axis=1) * classes ** (depth - multisets.sum(axis=1, dtype=np.int64))  # below 52^6
    stands_for = stands[entry_multiset]
    low, high = weight & (2**31 - 1), weight >> 31  # summed in halves: no int64 sum of millions of weights overflows
    covered = 0
    for each in set(stands.tolist()):  # a few distinct values (np.unique of a 1-d array imports numpy.ma)
        chosen = stands_for == each
        covered += (int(low[chosen].sum()) + (int(high[chosen].sum()) << 31)) * each
    if covered != classes**depth * scale:
        return None
    return Table(partition, refined, depth, scale, columns, multisets.astype(np.int8), _factor_indices(multisets, partition, refined, depth),
                 entry_multiset, entry_row, weight)


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


def shoe_support(shoe: Shoe) -> Support:
    """The cards a shoe holds, or None when it may deal any card."""
    held = shoe.card_counts if shoe.card_counts is not None else tuple(count for count in shoe.rank_counts for _ in range(4))
    return None if all(held) else tuple(count > 0 for count in held)


def _present(labels: Array, classes: int, support: Support) -> Array:
    """Which classes (of cards labelled ``labels``) hold a card of the support."""
    present = np.zeros(classes, dtype=bool)
    present[np.asarray(labels)[np.asarray(support if support is not None else (True,) * 52)]] = True
    return present


def _refine(cards: Array, weights: Array, read: Array, fine: Granularity, support: Support = None) -> tuple[Array, Array, Array, Array]:
    """Each sequence (cards in shoe order) once per way to give the cards it tracks (``read``:
    positions x sequences) a class at ``fine`` (of the support): the cards, the fine labels of the
    tracked cards (-1 elsewhere), the weights, and the sequence each came from."""
    labels = np.full(cards.shape, NOT_DEALT, dtype=np.int64)
    origin = np.arange(len(weights))
    present = _present(card_labels(fine), fine.classes, support)
    by_value = [np.flatnonzero((np.asarray(class_values(fine)) == value) & present) for value in range(10)]
    widths = np.array([len(classes) for classes in by_value] + [1])
    table = np.full((11, widths.max()), NOT_DEALT)
    for value, classes in enumerate(by_value):
        table[value, : len(classes)] = classes
    for position in range(MAX_CARDS):
        if not read[position].any():
            continue
        repeats = np.where(read[position], widths[cards[position]], 1)
        if repeats.sum() > MAX_SEQUENCES:
            raise InputError(f"the bets read the card slots too finely to tabulate every coup ({int(repeats.sum()):,} sequences): read fewer "
                             "slots, or ranks or colours instead of suits (counting cards with count() is cheap alone, but beside a card "
                             "slot every slot is read)")
        copies = np.repeat(np.arange(len(repeats)), repeats)
        within = np.arange(len(copies)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
        cards, labels, weights, read, origin = cards[:, copies], labels[:, copies], weights[copies], read[:, copies], origin[copies]
        labels[position] = np.where(read[position], table[cards[position], within], NOT_DEALT)
    return cards, labels, weights, origin


def _read(tracked: list[str], values: Array) -> Array:
    """Which shoe positions (rows) of each coup (given by slot, columns) hold a card that one of the
    ``tracked`` slots or positions reads."""
    read = np.zeros((MAX_CARDS, values.shape[1]), dtype=bool)
    for key in tracked:
        position = card_positions(key, values[4], values[5])
        read[position[position >= 0], np.flatnonzero(position >= 0)] = True
    return read


def _label_of(key: str, labels: Array, player_third: Array, banker_third: Array, rows: Array | None = None) -> Array:
    """The label of the card a tracked slot or position reads in each row (-1: none), from the
    labels by shoe position (``rows``: the row of ``labels`` for each position, default itself)."""
    position = card_positions(key, player_third, banker_third)
    index = np.maximum(position, 0) if rows is None else rows[np.maximum(position, 0)]
    label: Array = np.where(position >= 0, labels[index, np.arange(len(position))], NOT_DEALT)
    return label


def counted_partition(counted: Tracked) -> Partition:
    """The classes of cards the counted predicates tell apart: each point value split by which of
    them hold (no finer)."""
    signature = np.stack([np.asarray(POINT_VALUES)[np.arange(52) // 4]] + [counted_truth(key) for key, _ in counted], axis=1)
    _, labels = np.unique(signature, axis=0, return_inverse=True)
    return Partition(tuple(labels.ravel().tolist()))


@lru_cache(maxsize=64)
def _compositions(total: int, parts: int) -> tuple[Array, Array]:
    """Every way to put ``total`` cards into ``parts`` classes (rows of class counts) and the
    orderings of each (total! / prod of its counts!), in one fixed order."""
    if not parts:
        return np.zeros((1 if total == 0 else 0, 0), dtype=np.int64), np.ones(1 if total == 0 else 0, dtype=np.int64)
    ways = np.array([np.bincount(np.asarray(chosen, dtype=np.int64), minlength=parts)
                     for chosen in itertools.combinations_with_replacement(range(parts), total)], dtype=np.int64).reshape(-1, parts)
    factorials = np.cumprod(np.concatenate([[1], np.arange(1, MAX_CARDS + 1)]))
    return ways, factorials[total] // np.prod(factorials[ways], axis=1)


def _code(counts: Array, radix: int) -> Array:
    """Rows of small counts as integers (digits in base ``radix``)."""
    code: Array = counts @ (radix ** np.arange(counts.shape[1], dtype=np.int64))
    return code


@dataclass(frozen=True)
class _Splits:
    """For one point value of :func:`counted_table`: its classes, and for every (player, banker)
    number of its cards, each way to give those cards classes: the index of the joint split among
    the splits of all of them, what it adds to each hand's packed count of the predicates, and in
    how many orders the hands' positions hold it."""

    classes: Array
    starts: Array  # (4, 4) first option of each (player, banker) number of cards; then the end
    sizes: Array  # (4, 4)
    joint: Array  # (options,) index among _compositions(p + b, classes)
    player: Array
    banker: Array
    ways: Array

    @classmethod
    def of(cls, classes: Array, codes: Array) -> "_Splits":
        parts: list[list[Array]] = [[], [], [], []]
        sizes = np.zeros((4, 4), dtype=np.int64)
        for player in range(4):
            for banker in range(4):
                left, left_ways = _compositions(player, len(classes))
                right, right_ways = _compositions(banker, len(classes))
                both = np.repeat(np.arange(len(left)), len(right)), np.tile(np.arange(len(right)), len(left))
                joint, _ = _compositions(player + banker, len(classes))
                order = np.argsort(_code(joint, FACTORS))
                index = order[np.searchsorted(_code(joint, FACTORS)[order], _code(left[both[0]] + right[both[1]], FACTORS))]
                for place, part in enumerate((index, left[both[0]] @ codes, right[both[1]] @ codes, left_ways[both[0]] * right_ways[both[1]])):
                    parts[place].append(part)
                sizes[player, banker] = len(index)
        starts = np.concatenate([[0], np.cumsum(sizes.ravel())])[:-1].reshape(4, 4)
        joint, player_codes, banker_codes, ways = (np.concatenate(part).astype(np.int64) for part in parts)
        return cls(classes, starts, sizes, joint, player_codes, banker_codes, ways)


Labeller = Callable[[Columns], Array]
"""Rows (given as columns) to labels: two rows with equal labels may be merged (the bets settle them alike)."""


def counted_table(decisions: Decisions, counted: Tracked, alike: Labeller | None = None) -> Table:
    """Every coup by coup class and, for each counted predicate, how many cards of each hand it
    holds for (what count(), player_count() and banker_count() read), by multiset of the classes
    the predicates tell apart (:func:`counted_partition`); with ``alike``, rows it labels alike
    merged into one (the rows the bets and the winner tell apart: a few instead of thousands).

    A coup's sequences of classes depend on its point values only through how many cards of each
    value each hand holds, and each value's cards split into classes independently: for p player
    and b banker cards of a value, each split (a_s, b_s) over its classes s occurs in
    p!/prod a_s! * b!/prod b_s! orders and adds sum a_s to the player's counts of the predicates
    holding for s. So the coups are grouped by coup class and the values of each hand (the coup
    classes that settle alike at every count merged first), and each group is split value by value;
    a split's multiset of classes, and so its weight, is indexed by arithmetic, never sorted. A
    group that falls in one event whatever the counts (with Super Tie, every coup but a six-card
    tie) is not split at all: its cards stay point values (by Vandermonde's identity, the sum of
    its splits), so the table holds tens of thousands of entries, not millions."""
    partition = counted_partition(counted)
    truths = np.zeros((len(counted), partition.classes), dtype=np.int64)
    for index, (key, _) in enumerate(counted):
        truths[index, list(partition.labels)] = counted_truth(key)
    codes = (4 ** np.arange(len(counted), dtype=np.int64)) @ truths  # a class's packed truths: counts of up to 3 cards never carry
    splits = [_Splits.of(np.flatnonzero(partition.values == value), codes[partition.values == value]) for value in range(10)]
    narrow, weights = _value_sequences(decisions)
    values = narrow.astype(np.int64)
    if decisions.scale**2 * MAX_ORDERINGS * MAX_ORDERINGS >= INT64_SAFE:  # weights times orderings: Python integers
        weights = weights.astype(object)
    klass = coup_class(values)
    present = np.zeros(12100, dtype=bool)  # coup classes by code (two-card totals, third cards): a dense map, not a sort
    present[klass] = True
    coups = np.flatnonzero(present)
    coup_of = np.cumsum(present)[klass] - 1
    keys = np.stack([coups // 1210, coups // 121 % 10, coups // 11 % 11 - 1, coups % 11 - 1])
    cards = np.stack([2 + (keys[2] >= 0), 2 + (keys[3] >= 0)])  # (sides, coups)
    reach = [np.zeros(1, dtype=np.int64)]  # the packed counts n cards of a hand can hold
    for _ in range(3):
        reach.append(np.unique(reach[-1][:, None] + codes[None, :]))
    widths = np.array([len(part) for part in reach])
    padded = np.zeros((4, int(widths.max())), dtype=np.int64)
    for count, part in enumerate(reach):
        padded[count, : len(part)] = part
    sizes = widths[cards[0]] * widths[cards[1]]  # the candidate rows: each coup class with every pair of counts its hands can hold
    row_coup = np.repeat(np.arange(len(coups)), sizes)
    within = np.arange(len(row_coup)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    banker_width = widths[cards[1]][row_coup]
    side_codes = (padded[cards[0][row_coup], within // banker_width], padded[cards[1][row_coup], within % banker_width])
    columns = coup_columns(keys[0][row_coup], keys[1][row_coup], keys[2][row_coup], keys[3][row_coup], decisions.rules.naturals)
    for index, (key, _) in enumerate(counted):
        for side, code in zip(SIDES, side_codes):
            columns[f"{key}:{side}"] = (code // 4**index % 4).astype(np.int8)
    columns.levels.update(counted)
    if alike is None:
        events, representatives, row_event = len(row_coup), np.arange(len(row_coup)), np.arange(len(row_coup))
    else:
        found, representatives, row_event = np.unique(alike(columns), axis=0, return_index=True, return_inverse=True)
        events, row_event = len(found), row_event.ravel()
    # coup classes whose rows fall in the same events merged (all of them kept apart without ``alike``)
    shape = cards[0] * 4 + cards[1]
    starts = np.cumsum(sizes) - sizes
    merged_of = np.zeros(len(coups), dtype=np.int64)
    merged_start, merged_shape, merged_event, merged = [], [], [], 0
    for kind in np.unique(shape):
        chosen = np.flatnonzero(shape == kind)
        pattern = row_event[starts[chosen][:, None] + np.arange(sizes[chosen[0]])]
        distinct, leading, alike_of = np.unique(pattern, axis=0, return_index=True, return_inverse=True)
        merged_of[chosen] = merged + alike_of.ravel()
        merged_start.extend(starts[chosen[leading]].tolist())
        merged_shape.extend([kind] * len(distinct))
        merged_event.extend(np.where((distinct == distinct[:, :1]).all(axis=1), distinct[:, 0], -1).tolist())  # one event at every count, or -1
        merged += len(distinct)
    group_start, group_shape = np.asarray(merged_start, dtype=np.int64), np.asarray(merged_shape, dtype=np.int64)
    hands = []
    for positions in ((0, 2, 4), (1, 3, 5)):
        code = np.zeros(values.shape[1], dtype=np.int64)
        for row in np.sort(values[list(positions)], axis=0):
            code = code * 11 + row + 1
        hands.append(code)
    groups, group_of = np.unique((merged_of[coup_of] * 11**3 + hands[0]) * 11**3 + hands[1], return_inverse=True)
    group_weight = _sums(group_of.ravel(), weights, len(groups))
    del narrow, values, weights, klass, coup_of, hands, group_of  # a million entries each: freed before the splits
    held = np.zeros((2, len(groups), 10), dtype=np.int64)  # each group's cards of each value, by hand
    for hand, code in enumerate((groups // 11**3 % 11**3, groups % 11**3)):
        for digit in range(3):
            value = code // 11**digit % 11 - 1
            dealt = np.flatnonzero(value >= 0)
            held[hand, dealt, value[dealt]] += 1
    group_merged = groups // 11**6
    # a group whose coup class falls in one event at every count needs no split: its cards stay point values
    whole = np.asarray(merged_event, dtype=np.int64)[group_merged]
    whole_groups = np.flatnonzero(whole >= 0)
    _, whole_of = np.unique(_code((held[0] + held[1])[whole_groups], FACTORS), return_inverse=True)
    whole_counts = (held[0] + held[1])[whole_groups][np.unique(whole_of.ravel(), return_index=True)[1]]
    split_groups = np.flatnonzero(whole < 0)
    held = held[:, split_groups]
    values_held = held[0] + held[1]
    _, set_of = np.unique(_code(values_held, FACTORS), return_inverse=True)
    set_of = set_of.ravel()
    set_counts = values_held[np.unique(set_of, return_index=True)[1]]
    choices = np.stack([np.asarray([len(_compositions(count, len(splits[value].classes))[0]) for count in range(MAX_CARDS + 1)])
                        for value in range(10)])  # (values, cards): splits of that many cards of the value
    set_sizes = np.prod(choices[np.arange(10), set_counts], axis=1)
    set_start = np.cumsum(set_sizes) - set_sizes
    split_multisets = _class_multisets(splits, set_counts, choices, partition.classes)
    by_value = np.zeros((len(whole_counts), partition.classes + 10), dtype=np.int8)
    by_value[:, partition.classes :] = whole_counts
    multisets = np.concatenate([split_multisets, by_value])
    # each group's values split one after the other: the options of each value (all values' options
    # in one list, then one that adds nothing), where its split of the joint cards counts in the
    # multiset's index, and which values branch (those with one option are added up front)
    firsts = np.cumsum([0] + [len(split.joint) for split in splits])
    option_joint, option_player, option_banker, option_ways = (np.concatenate([getattr(split, name) for split in splits] + [np.array([fill])])
                                                               for name, fill in (("joint", 0), ("player", 0), ("banker", 0), ("ways", 1)))
    start = np.stack([firsts[value] + split.starts[held[0][:, value], held[1][:, value]] for value, split in enumerate(splits)], axis=1)
    size = np.stack([split.sizes[held[0][:, value], held[1][:, value]] for value, split in enumerate(splits)], axis=1)
    width = choices[np.arange(10), values_held]
    radix = np.cumprod(np.concatenate([np.ones((len(split_groups), 1), dtype=np.int64), width[:, :-1]], axis=1), axis=1)
    single = size == 1
    player_fixed = np.where(single, option_player[start], 0).sum(axis=1)
    banker_fixed = np.where(single, option_banker[start], 0).sum(axis=1)
    ways_fixed = np.prod(np.where(single, option_ways[start], 1), axis=1)
    order = np.argsort(single, axis=1, kind="stable")  # the branching values first
    slots = int((~single).sum(axis=1).max(initial=0))
    branching = ~np.take_along_axis(single, order, axis=1)[:, :slots]
    slot_start = np.where(branching, np.take_along_axis(start, order, axis=1)[:, :slots], len(option_joint) - 1)
    slot_size = np.where(branching, np.take_along_axis(size, order, axis=1)[:, :slots], 1)
    slot_radix = np.take_along_axis(radix, order, axis=1)[:, :slots]
    expanded = np.prod(size, axis=1)
    if int(expanded.sum()) > MAX_SEQUENCES:
        raise InputError(f"the counts tell {partition.classes} classes of cards apart, too many to tabulate ({int(expanded.sum()):,} splits)")
    possible = events * len(multisets)
    whole_keys = whole[whole_groups] * len(multisets) + len(split_multisets) + whole_of.ravel()
    largest = max(len(split.classes) for split in splits) ** MAX_CARDS  # no split of a coup has more orders than this
    dense = possible <= DENSE_KEYS and group_weight.dtype != object and float(group_weight.sum(dtype=np.float64)) * largest < FLOAT_EXACT / 2
    whole_weight = group_weight[whole_groups]
    group_weight, group_merged = group_weight[split_groups], group_merged[split_groups]
    summed = np.zeros(possible if dense else 0)  # float64, exact: every partial sum is below 2^53
    if dense and len(whole_keys):
        summed += np.bincount(whole_keys, whole_weight, minlength=possible)
    found_keys, found_weights = [whole_keys], [whole_weight]
    bounds = np.searchsorted(np.cumsum(expanded), np.arange(CHUNK, int(expanded.sum()) + CHUNK, CHUNK), side="right")
    for first, last in zip(np.concatenate([[0], bounds[:-1]]), bounds):
        if first == last:
            continue
        origin = np.arange(first, last)
        local, player, banker = np.zeros(len(origin), dtype=np.int64), player_fixed[origin], banker_fixed[origin]
        ways = group_weight[origin] * ways_fixed[origin]
        for slot in range(slots):
            repeats = slot_size[origin, slot]
            copies = np.repeat(np.arange(len(origin)), repeats)
            option = slot_start[origin, slot][copies] + np.arange(len(copies)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
            origin, local, player, banker, ways = origin[copies], local[copies], player[copies], banker[copies], ways[copies]
            local += option_joint[option] * slot_radix[origin, slot]
            player += option_player[option]
            banker += option_banker[option]
            ways *= option_ways[option]
        kind = group_shape[group_merged[origin]]
        row = group_start[group_merged[origin]] + _position(reach, kind // 4, player) * widths[kind % 4] + _position(reach, kind % 4, banker)
        keys = row_event[row] * len(multisets) + set_start[set_of[origin]] + local
        if dense:
            summed += np.bincount(keys, ways, minlength=possible)
            continue
        keys, ways = _merged(keys, ways, possible)
        found_keys.append(keys)
        found_weights.append(ways)
    if dense:
        entry_keys = np.flatnonzero(summed)
        entry_weight = summed[entry_keys].astype(np.int64)
    else:
        entry_keys, entry_weight = _merged(np.concatenate(found_keys), np.concatenate(found_weights), possible)
    entry_event, entry_multiset = np.divmod(entry_keys, len(multisets))
    held_events, entry_row = np.unique(entry_event, return_inverse=True)  # rows no coup reaches left out
    representatives = representatives[held_events]
    event_columns = Columns({name: column[representatives] for name, column in columns.items()}, columns.levels)
    return Table(partition, partition.classes, MAX_CARDS, decisions.scale**2, event_columns, multisets,
                 _factor_indices(multisets, partition, partition.classes, MAX_CARDS), entry_multiset, entry_row.ravel(), entry_weight)


def _position(reach: list[Array], cards: Array, code: Array) -> Array:
    """Where each packed count ``code`` of a hand of ``cards`` cards lies among those it can hold."""
    position = np.zeros(len(code), dtype=np.int64)
    for count in (2, 3):  # a hand holds two or three cards
        chosen = cards == count
        position[chosen] = np.searchsorted(reach[count], code[chosen])
    return position


CHUNK = 1 << 19
"""Splits of coups expanded at once (their arrays take a few tens of megabytes)."""
DENSE_KEYS = 1 << 24
"""Entries are merged by a count over every possible key up to this many keys, else by sorting."""


def _small(weights: Array) -> bool:
    """Whether the ``weights`` (from 0) add up below 2^53, so that float64 sums them exactly (the
    float sum errs by far less than the margin left)."""
    return weights.dtype != object and float(weights.sum(dtype=np.float64)) < FLOAT_EXACT / 2


def _sums(index: Array, weights: Array, length: int) -> Array:
    """The sum of the ``weights`` at each index 0 .. length - 1, exactly (float64 while every sum is below 2^53)."""
    if _small(weights):
        summed: Array = np.bincount(index, weights, minlength=length).astype(weights.dtype)
        return summed
    summed = np.zeros(length, dtype=weights.dtype)
    np.add.at(summed, index, weights)
    return summed


def _merged(keys: Array, weights: Array, possible: int) -> tuple[Array, Array]:
    """The distinct ``keys`` (below ``possible``) in order and the sum of the ``weights`` of each, exactly.

    >>> [array.tolist() for array in _merged(np.array([5, 2, 5]), np.array([1, 7, 3]), 8)]
    [[2, 5], [7, 4]]
    """
    if possible <= DENSE_KEYS and _small(weights):
        sums = np.bincount(keys, weights, minlength=possible)
        present = np.flatnonzero(sums)
        return present, sums[present].astype(weights.dtype)
    distinct, index = np.unique(keys, return_inverse=True)
    return distinct, _sums(index.ravel(), weights, len(distinct))


def _class_multisets(splits: list[_Splits], value_sets: Array, choices: Array, classes: int) -> Array:
    """Every multiset of classes of each set of values (rows of ``value_sets``: cards of each value),
    in the order :func:`counted_table` indexes them: the split of each value's cards a digit, the
    first value's the fastest (then the ten value counts of the table's layout, all 0)."""
    sizes = np.prod(choices[np.arange(10), value_sets], axis=1)
    origin = np.repeat(np.arange(len(value_sets)), sizes)
    local = np.arange(len(origin)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    multisets = np.zeros((len(origin), classes + 10), dtype=np.int8)
    for value, split in enumerate(splits):
        if not len(split.classes):
            continue
        counts = value_sets[origin, value]
        width = choices[value][counts]
        table = np.zeros((MAX_CARDS + 1, int(choices[value].max()), len(split.classes)), dtype=np.int8)  # each count's splits
        for count in range(MAX_CARDS + 1):
            ways, _ = _compositions(count, len(split.classes))
            table[count, : len(ways)] = ways
        multisets[:, split.classes] = table[counts, local % width]
        local //= width
    return multisets


@lru_cache(maxsize=8)
def build_coup_table(decisions: Decisions, tracked: Tracked = (), support: Support = None) -> Table:
    """Every coup of the rules, by coup class (two-card totals and third cards) and the tracked
    slots' classes, and by multiset of cards used (refined for tracked slots); with a support, only
    the coups it can deal. Counts of the cards (:data:`~exact_odds.core.features.COUNTED`) alone are
    tabulated by :func:`counted_table` (for every shoe: a class no card of a shoe falls in weighs
    nothing); with other slots, every slot is tracked at its granularity and the counts follow from
    them. Built once per process; :func:`exact_odds.engine.store.coup_table` keeps tables on disk."""
    counted = tuple((key, level) for key, level in tracked if key.startswith(COUNTED))
    if counted and len(counted) == len(tracked):
        return counted_table(decisions, counted)
    if counted:
        tracked = tracked_key(split_counted(dict(tracked))[0])
    keys = [key for key, _ in tracked]
    narrow, shoe_cards, weights = _shoe_sequences(decisions, tuple(POSITIONS_OF[key][0] for key in keys if key in LATE_POSITIONS))
    values, cards = narrow.astype(np.int64), shoe_cards.astype(np.int64)
    if decisions.scale**2 * MAX_ORDERINGS >= INT64_SAFE:  # the sums of a multiset's orderings: Python integers
        weights = weights.astype(object)
    if support is not None:
        held = _present(np.asarray(POINT_VALUES)[np.arange(52) // 4], 10, support)
        keep = np.all(held[cards] | (cards < 0), axis=0)
        values, cards, weights = values[:, keep], cards[:, keep], weights[keep]
    fine = Granularity.VALUE
    for _, level in tracked:
        fine = fine.join(level)
    refined = fine.classes if tracked else 0
    cards, labels, weights, origin = _refine(cards, weights, _read(keys, values), fine, support)
    values = values[:, origin]
    row_code = coup_class(values)
    for key, level in tracked:
        row_code = row_code * 64 + relabel(_label_of(key, labels, values[4], values[5]), fine, level) + 1
    ids = np.where(labels >= 0, labels, np.where(cards >= 0, cards + refined, ABSENT))  # class ids (module docstring)
    rows, row_index = np.unique(row_code, return_inverse=True)
    codes = rows.copy()
    key_labels = []
    for key, level in reversed(tracked):
        key_labels.append((key, level, codes % 64 - 1))
        codes //= 64
    columns = class_columns(codes, decisions)
    for key, level, key_label in reversed(key_labels):
        columns.levels[key] = level
        columns.update(card_columns(key, level, key_label))
    if counted:
        add_counted(columns, counted)
    return _collect(Partition.of(fine), refined, MAX_CARDS, decisions.scale**2, columns, row_index, _pack(ids), weights)


def card_partition_of(tracked: Tracked) -> Partition:
    """The classes of the tracked slots' granularity (the finest of them): what a table of first-card
    draws tells apart when nothing narrower is known."""
    fine = Granularity.VALUE
    for _, level in tracked:
        fine = fine.join(level)
    return Partition.of(fine)


@lru_cache(maxsize=8)
def card_table(tracked: Tracked, partition: Partition | None = None) -> Table:
    """Every ordered draw of the cards in the tracked slots (the first cards of a coup), one row per
    sequence of classes of ``partition`` (else of the slots' granularity: :func:`card_partition_of`).
    A partition coarser than the granularity must decide everything read of the slots (as
    :func:`~exact_odds.engine.patterns.card_partition` does for a set of bets); each row's cards are
    one card of each class (the lowest), read at the slots' own levels."""
    if any(slot not in FIRST_CARDS for slot, _ in tracked):
        raise ValueError("a third card is dealt only when the coup draws it: count it (and cards 5 and 6) through the coup")
    partition = partition or card_partition_of(tracked)
    classes = partition.classes
    sequences = classes ** len(tracked)
    if sequences > MAX_SEQUENCES:
        raise InputError(f"the bets read {', '.join(slot for slot, _ in tracked)} too finely to tabulate ({sequences:,} sequences)")
    labels = np.indices((classes,) * len(tracked), dtype=np.int16).reshape(len(tracked), -1)
    ids = np.vstack([labels, np.full((MAX_CARDS - len(tracked), labels.shape[1]), ABSENT, dtype=np.int16)]).astype(np.int64)  # every card refined
    cards = np.full(classes, 52, dtype=np.int64)
    np.minimum.at(cards, np.asarray(partition.labels), np.arange(52))
    columns = Columns(levels=dict(tracked))
    for (slot, _), label in zip(tracked, labels):
        columns.update(card_columns(slot, Granularity.CARD, cards[label]))
    if not tracked:
        columns["rows"] = np.zeros(1, dtype=np.int64)
    return _collect(partition, classes, len(tracked), 1, columns, np.arange(labels.shape[1]), _pack(ids), np.ones(labels.shape[1], dtype=np.int64))


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


@lru_cache(maxsize=8)
def _shoe_sequences(decisions: Decisions, filled: tuple[int, ...] = ()) -> tuple[Array, Array, Array]:
    """:func:`_value_sequences` with each coup's cards in shoe order too
    (:func:`~exact_odds.core.features.shoe_order`), and each shoe position of ``filled`` (4, 5) that
    a coup does not deal given every point value in turn: the 6-card sequence holds a card there
    whatever the coup deals. (The values by slot, the cards by position, the weights.)

    >>> from exact_odds.core.policy import resolve
    >>> from exact_odds.core.rules import PUNTO_BANCO
    >>> values, cards, weights = _shoe_sequences(resolve(PUNTO_BANCO), (4, 5))
    >>> len(weights)  # every sequence of six point values, once
    1000000
    """
    values, weights = _value_sequences(decisions)
    cards = shoe_order(values)
    for position in filled:
        copies = np.where(cards[position] < 0, 10, 1)
        origin = np.repeat(np.arange(len(weights)), copies)
        within = np.arange(len(origin)) - np.repeat(np.cumsum(copies) - copies, copies)
        values, cards, weights = values[:, origin], cards[:, origin], weights[origin]
        cards[position] = np.where(cards[position] < 0, within, cards[position])
    return values, cards, weights


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
    for slot in range(patterns.shape[1]):
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


def _position_levels(keys: list[str], tracked: Levels, faces: Collection[str] | None) -> tuple[dict[int, Granularity], dict[int, bool]]:
    """The granularity each shoe position a tracked slot or position may read is drawn at (the
    finest of theirs), and whether it is read by its mark alone (by no slot of ``faces``; None:
    all). The banker's third card lies at the fifth or the sixth position: both alike."""
    levels: dict[int, Granularity] = {}
    marked: dict[int, bool] = {}
    for key in keys:
        for position in POSITIONS_OF[key]:
            levels[position] = levels.get(position, Granularity.VALUE).join(tracked[key])
            marked[position] = marked.get(position, True) and faces is not None and key not in faces
    if "banker_card3" in tracked:
        levels[4] = levels[5] = levels[4].join(levels[5])
        marked[4] = marked[5] = marked[4] and marked[5]
    return levels, marked


def slot_distribution(shoe: Shoe, decisions: Decisions, tracked: Levels, faces: Collection[str] | None = None) -> Distribution:
    """Every coup of ``shoe`` by coup class and the classes of the ``tracked`` card slots (and shoe
    positions 5 and 6), each at its own granularity (no counted predicates), as ordered 6-card
    sequences. A slot not in ``faces`` (None: all) is read by its suit or colour alone: its rows say
    only that.

    The cards of a shoe are exchangeable: the sequences of a coup whose tracked cards fall in given
    classes number the ordered draws of those cards into those classes times the ways to deal the
    coup's other cards, by point value, from the cards left, which depend on the tracked cards'
    values only. So each coup over point values (with the fifth and sixth cards given every value
    where tracked and not dealt) is weighed once for the pattern of the values at the shoe positions
    read, and each pattern is split into classes by a product of a few counts
    (:func:`_slot_classes`), never a table of every class of every card; a position read by its
    mark alone is then summed over its values (:func:`_summed_over_marks`)."""
    shoe = shoe.checked()
    keys = [key for key in TRACKED_CARDS if key in tracked]
    levels, marked = _position_levels(keys, tracked, faces)
    positions = sorted(levels)
    fine = Granularity.VALUE
    for level in levels.values():
        fine = fine.join(level)
    value_counts = gather(shoe_counts(shoe, fine), class_values(fine))
    size, replace, scale = sum(value_counts), shoe.with_replacement, decisions.scale**2
    total = draws(size, MAX_CARDS, replace) * scale
    kind: Any = np.int64 if size**MAX_CARDS * scale < INT64_SAFE else object  # bounds every count and every partial product below
    narrow, cards, weights = _shoe_sequences(decisions, tuple(POSITIONS_OF[key][0] for key in keys if key in LATE_POSITIONS))
    holds = np.append(np.asarray(value_counts) > 0, True)  # (the last for no card)
    if not holds.all():  # only the coups the shoe's values can make
        possible = holds[cards].all(axis=0)
        narrow, cards, weights = narrow[:, possible], cards[:, possible], weights[possible]
    values = narrow.astype(np.int64)
    read = _read(keys, values)
    held = np.where(read, cards, np.int8(NOT_DEALT))[positions]  # the cards read, by position (in bytes: a million coups)
    rest = np.where(read, np.int8(NOT_DEALT), cards)
    available = np.asarray(value_counts, dtype=kind)
    completions = weights.astype(kind)
    for position in range(MAX_CARDS):  # each other card drawn by value from what is left
        value = rest[position]
        if not replace:
            before = (held == value).sum(axis=0, dtype=np.int64) + (rest[:position] == value).sum(axis=0, dtype=np.int64)
        left = available[np.maximum(value, 0)] - (0 if replace else before)
        completions = completions * np.where(value >= 0, np.maximum(left, 0), 1)
    dealt = (cards >= 0).sum(axis=0)
    unused = np.asarray([draws(size - (0 if replace else count), MAX_CARDS - count, replace) for count in range(FACTORS)], dtype=kind)
    completions = completions * unused[dealt]
    possible = completions != 0
    values, held, completions = values[:, possible], held[:, possible], completions[possible]
    radix = 11 ** len(positions)
    pattern = np.zeros(len(completions), dtype=np.int64)
    for row in reversed(held):
        pattern = pattern * 11 + row + 1
    rows, row_index = np.unique(coup_class(values) * radix + pattern, return_inverse=True)
    row_counts = np.zeros(len(rows), dtype=kind)
    np.add.at(row_counts, row_index.ravel(), completions)
    rows, row_counts = rows[row_counts != 0], row_counts[row_counts != 0]
    pattern_codes, row_pattern = np.unique(rows % radix, return_inverse=True)
    patterns = np.stack([pattern_codes // 11**index % 11 - 1 for index in range(len(positions))], axis=1)
    marks = [marked[position] for position in positions]
    summed = None
    if any(marks):
        maps = [_mark_labels(fine, levels[position]) if mark else label_map(fine, levels[position]) for position, mark in zip(positions, marks)]
        exact: Any = np.float64 if total < FLOAT_EXACT and kind is np.int64 else kind  # float64: every sum is a count below 2^53, exact
        pattern_of, labels, ways = _slot_classes(shoe, patterns, keys, maps, fine)
        summed = _summed_over_marks(rows // radix, row_pattern.ravel(), row_counts.astype(exact), patterns, marks, pattern_of, labels, ways.astype(exact), exact)
    if summed is None:
        marks = [False] * len(positions)
        pattern_of, labels, ways = _slot_classes(shoe, patterns, keys, [label_map(fine, levels[position]) for position in positions], fine)
        summed = _expanded(rows // radix, row_pattern.ravel(), row_counts, pattern_of, labels, ways.astype(kind), keys, len(patterns))
    klass, labels, counts = summed
    columns = class_columns(klass, decisions)
    columns.levels.update(tracked)
    row_of = np.zeros(MAX_CARDS, dtype=np.int64)
    row_of[positions] = np.arange(len(positions))
    for key in keys:
        label = _label_of(key, labels, klass // 11 % 11 - 1, klass % 11 - 1, row_of)
        position = POSITIONS_OF[key][0]
        level, mark = levels[position], marks[positions.index(position)]
        columns.update(_mark_columns(key, level, label) if mark else card_columns(key, level, label))
    return Distribution(columns, counts.astype(np.int64 if total < INT64_SAFE else object), total, MAX_CARDS, scale)
