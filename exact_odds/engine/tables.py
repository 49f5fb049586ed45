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

The tables are built by :mod:`exact_odds.engine.coup_table` (every coup, every draw of the first
cards) and :mod:`exact_odds.engine.counted` (coups by the counts of predicates); for one shoe,
:mod:`exact_odds.engine.slots` counts coups by the classes of the card slots bets read without a table.

>>> from exact_odds.core.policy import resolve
>>> from exact_odds.core.rules import PUNTO_BANCO
>>> from exact_odds.core.shoe import Shoe
>>> from exact_odds.engine.coup_table import build_coup_table
>>> build_coup_table(resolve(PUNTO_BANCO)).distribution(Shoe.decks(8)).outcome_counts()["tie"]
475627426473216
"""

from functools import cached_property
from typing import Any

import numpy as np

from .distribution import FLOAT_EXACT, Distribution, draws
from .kernel import Entries, exact_counts, weigh
from ..core.features import (
    COUNTED,
    TRACKED_CARDS,
    Array,
    Columns,
    Granularity,
    Partition,
    shoe_counts,
)
from ..core.shoe import Shoe
from ..core.values import Frozen

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


class Table(Frozen):
    """Weighted orderings by (row, multiset); see the module docstring. Its fields:

    - ``partition``: the classes of refined cards (classes 0..J-1 of a multiset); J = ``refined``, 0
      when none are refined; ``depth`` cards; each sequence counts ``scale`` times (a mixed policy's weights);
    - ``columns``, the feature columns of its rows;
    - ``multisets`` (M, J + 10): refined classes, then the ten point values; ``factors`` (M, depth):
      the indices of each one's linear factors in the factor vector;
    - ``entry_multiset``, ``entry_row`` and ``entry_weight`` (E,): the weighted orderings, sorted by row;
    - ``settlements``: each bet's settlement of its rows, kept as long as the table; ``bases``: the
      event bases of sets of bets on this table (see :mod:`exact_odds.engine.events`);
    - ``origin``: the name of the file that keeps the table (see :mod:`exact_odds.engine.store`),
      which names its event bases' files too; empty for a table built apart.
    """

    __slots__ = ("partition", "refined", "depth", "scale", "columns", "multisets", "factors", "entry_multiset", "entry_row", "entry_weight",
                 "settlements", "bases", "origin", "__dict__")
    partition: Partition
    refined: int
    depth: int
    scale: int
    columns: Columns
    multisets: Array
    factors: Array
    entry_multiset: Array
    entry_row: Array
    entry_weight: Array
    settlements: dict[Any, tuple[object, Array]]
    bases: dict[object, object]
    origin: str

    def __init__(self, partition: Partition, refined: int, depth: int, scale: int, columns: Columns, multisets: Array, factors: Array,
                 entry_multiset: Array, entry_row: Array, entry_weight: Array, origin: str = "") -> None:
        self._set(partition, refined, depth, scale, columns, multisets, factors, entry_multiset, entry_row, entry_weight, {}, {}, origin)

    def kept_as(self, origin: str) -> "Table":
        """The same table, named by the file that keeps it (and so, its bases' files)."""
        return Table(self.partition, self.refined, self.depth, self.scale, self.columns, self.multisets, self.factors, self.entry_multiset,
                     self.entry_row, self.entry_weight, origin)

    @property
    def rows(self) -> int:
        return len(next(iter(self.columns.values())))

    def factor_vectors(self, counts: Any, with_replacement: bool = False) -> Array:
        """Per shoe (rows of ``counts``: the shoes' counts of the refined classes, or of the ten values
        when nothing is refined), every linear factor a multiset's weight may use, laid out as
        :func:`factor_indices` indexes them: c_j - i for refined classes, c_v - t - i for values,
        N - n - i for unused cards (no subtraction with replacement), then 1. Each is at most N: int64
        while every N is below 2^63, else Python integers (which the kernel weighs exactly)."""
        source, offset = self.factor_layout
        vector: Array = factor_counts(counts, self.partition, bool(self.refined))[:, source] - (0 if with_replacement else offset)
        return vector

    @cached_property
    def factor_layout(self) -> tuple[Array, Array]:
        """Each factor as known[source] - offset, ``known`` being a shoe's :func:`factor_counts` (its
        refined class counts, its ten value counts, its size and 1; the offset is dropped with
        replacement)."""
        refined, steps, taken = self.refined, np.arange(MAX_CARDS), np.arange(FACTORS)
        source = np.concatenate([np.repeat(np.arange(refined), MAX_CARDS), np.repeat(refined + np.arange(10), FACTORS * MAX_CARDS),
                                 np.full(FACTORS * MAX_CARDS, refined + 10), [refined + 11]])
        offset = np.concatenate([np.tile(steps, refined), np.tile((taken[:, None] + steps).ravel(), 10), (taken[:, None] + steps).ravel(), [0]])
        return source, offset

    @cached_property
    def shared_factors(self) -> tuple[int, ...]:
        """The unused cards' factors N - n - i: many multisets hold the same ones (every 4-card coup
        of a 6-card table two), so the batch kernel multiplies by them once per event."""
        source, _ = self.factor_layout
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


def pack(ids: Array) -> Array:
    """Sorted class ids of up to six cards per column, packed six bits each."""
    ordered = np.sort(ids, axis=0)
    packed = np.zeros(ids.shape[1], dtype=np.int64)
    for row in ordered:
        packed = (packed << 6) | row
    return packed


def sorted_ids(counts: Array) -> Array:
    """Multisets of at most six cards given as counts of each class id (rows), as their ids: sorted,
    padded with ABSENT, one row each (``pack`` of the transpose packs them).

    >>> sorted_ids(np.array([[0, 2, 1], [1, 0, 0]])).tolist()
    [[1, 1, 2, 63, 63, 63], [0, 63, 63, 63, 63, 63]]
    """
    ids = np.full((len(counts), MAX_CARDS), ABSENT, dtype=np.int64)
    row, column = np.nonzero(counts)
    repeats = counts[row, column].astype(np.int64)
    rows, columns = np.repeat(row, repeats), np.repeat(column, repeats)
    ids[rows, np.arange(len(rows)) - np.repeat(np.searchsorted(rows, np.arange(len(counts))), np.bincount(rows, minlength=len(counts)))] = columns
    return ids


def unpack(packed: Array, classes: int) -> Array:
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


def factor_counts(counts: Any, partition: Partition, refined: bool) -> Array:
    """Per shoe (rows of ``counts``: its counts of the classes of ``partition`` when ``refined``,
    else of the ten values), the counts its factor vector is read off (:attr:`Table.factor_layout`):
    the refined classes' counts (when refined), the ten value counts, the size and 1.

    >>> factor_counts([[3, 1] + [0] * 8], Partition.of(Granularity.VALUE), False).tolist()
    [[3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1]]
    """
    counts = exact_counts(counts)
    values = counts
    if refined:  # sums of counts by value: in float64 (BLAS) while each is below 2^53, so exact
        floats = counts.dtype != object and (not counts.size or int(counts.max()) * counts.shape[1] < FLOAT_EXACT)
        kind: Any = np.float64 if floats else counts.dtype
        values = (counts.astype(kind) @ membership(partition).astype(kind)).astype(counts.dtype)
    known: Array = np.concatenate([counts if refined else counts[:, :0], values, values.sum(axis=1, keepdims=True),
                                   np.ones((len(counts), 1), dtype=counts.dtype)], axis=1)
    return known


FACTOR_ROWS = 1 << 16
"""Multisets whose factor indices are found at once."""


def factor_indices(multisets: Array, partition: Partition, refined: int, depth: int) -> Array:
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
    present = present_classes(np.asarray(partition.labels), partition.classes, support) if refined else np.ones(10, dtype=bool)
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
    return Table(partition, refined, depth, scale, columns, multisets.astype(np.int8), factor_indices(multisets, partition, refined, depth),
                 entry_multiset, entry_row, weight)


def collect(partition: Partition, refined: int, depth: int, scale: int, columns: Columns, row_index: Array, multiset_keys: Array,
             weights: Array) -> Table:
    """A table from its sequences: each sequence's row, packed multiset key and weight."""
    keys, multiset_index = np.unique(multiset_keys, return_inverse=True)
    entries, entry_index = np.unique(row_index * len(keys) + multiset_index, return_inverse=True)
    summed = np.zeros(len(entries), dtype=weights.dtype)
    np.add.at(summed, entry_index, weights)
    entry_row, entry_multiset = np.divmod(entries, len(keys))
    multisets = unpack(keys, refined + 10)
    return Table(partition, refined, depth, scale, columns, multisets, factor_indices(multisets, partition, refined, depth),
                 entry_multiset, entry_row, summed)


def shoe_support(shoe: Shoe) -> Support:
    """The cards a shoe holds, or None when it may deal any card."""
    held = shoe.card_counts if shoe.card_counts is not None else tuple(count for count in shoe.rank_counts for _ in range(4))
    return None if all(held) else tuple(count > 0 for count in held)


def present_classes(labels: Array, classes: int, support: Support) -> Array:
    """Which classes (of cards labelled ``labels``) hold a card of the support."""
    present = np.zeros(classes, dtype=bool)
    present[np.asarray(labels)[np.asarray(support if support is not None else (True,) * 52)]] = True
    return present
