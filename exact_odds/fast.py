"""The compiled evaluator: enumerate once over abstract point values, then weigh any shoe.

A coup depends only on the ordered point values of the (at most six) cards it uses, and how often
a value sequence occurs in a shoe depends only on the multiset of those values: the product over
values of the falling factorial of its count. So :func:`coup_table` runs every coup over values once
(339,400 of them, vectorised card by card as the rules draw) and tabulates, for each coup class
(two-card totals and third cards) and each multiset of used values, how many orderings produce it. A shoe is then a weighted sum over the 7,722 multisets of 4, 5 or 6 values:

    count(class) = sum over multisets m of orderings(class, m) * prod_v falling(c_v, m_v) * falling(N - |m|, 6 - |m|)

The table is built lazily, once per process and per rules (about 0.1 s), and kept in memory.
Counts are numpy int64 while the shoe's total of ordered 6-card sequences is below 2^62, which
bounds every partial sum; beyond that they are Python integers. The batch path multiplies in float64
on integers split into limbs small enough that every dot product is exact (below 2^53).
"""

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from math import lcm
from typing import Any

import numpy as np

from .bets import Bet
from .cards import POINT_VALUES
from .distribution import INT64_SAFE, Distribution, draws, falling
from .enumerator import enumerate_cards, enumerate_coups
from .errors import InputError
from .features import SLOTS, Array, Columns, Granularity, Levels, card_columns, coup_columns, relabel
from .policy import Decisions, Policy, decisions_of, resolve
from .rules import PUNTO_BANCO, DrawRules
from .shoe import Shoe

MAX_VALUE_COUNT = 7
"""Multisets are encoded in base 7: a value occurs at most six times in a coup."""


@dataclass(frozen=True, eq=False)
class CoupTable:
    """Orderings of every multiset of point values, by coup class (see the module docstring).

    Under a mixed policy an ordering counts its decisions' integer weights (out of ``scale`` per
    decision; a coup that stops on a natural counts ``scale ** 2``)."""

    multisets: Array  # (K, 10): how many cards of each value
    sizes: Array  # (K,): cards used, 4 to 6
    class_keys: Array  # (C, 4): player two-card total, banker two-card total, third cards (-1: none)
    entry_multiset: Array  # (E,) entries sorted by class
    entry_orderings: Array  # (E,) weighted orderings
    class_starts: Array  # (C,) first entry of each class
    scale: int  # the decisions' scale squared
    columns: Columns = field(repr=False)
    gather: Array = field(repr=False)  # (6, K): (value, count used) in a 10 x 7 table, per value used
    settlements: dict[int, tuple[object, Array]] = field(default_factory=dict, repr=False)

    def weights(self, value_counts: tuple[int, ...], with_replacement: bool = False) -> Array:
        """Ordered 6-card sequences of each multiset in a shoe with these counts of values 0-9."""
        size = sum(value_counts)
        total = draws(size, 6, with_replacement) * self.scale
        dtype: Any = np.int64 if total < INT64_SAFE else object
        table = np.array([[draws(count, used, with_replacement) for used in range(MAX_VALUE_COUNT)] for count in value_counts], dtype=dtype)
        flat = table.ravel()
        weight = flat[self.gather[0]]
        for column in self.gather[1:]:
            weight = weight * flat[column]
        unused = np.array([draws(size if with_replacement else size - used, 6 - used, with_replacement) for used in range(7)], dtype=dtype)
        result: Array = weight * unused[self.sizes]
        return result

    def distribution(self, value_counts: tuple[int, ...], with_replacement: bool = False) -> Distribution:
        """The coup distribution of a shoe, equal to the plain enumerator's (value level)."""
        weight = self.weights(value_counts, with_replacement)
        contributions = self.entry_orderings * weight[self.entry_multiset]
        counts = np.add.reduceat(contributions, self.class_starts)
        total = draws(sum(value_counts), 6, with_replacement) * self.scale
        return Distribution(self.columns, counts, total, 6, self.scale, self.settlements)


def _extend(values: Array, rows: Array) -> Array:
    """The given rows of ``values`` (cards x sequences), each followed by every value of one more card."""
    chosen = np.repeat(values[:, rows], 10, axis=1)
    extended: Array = np.vstack([chosen, np.tile(np.arange(10), len(rows))])
    return extended


@lru_cache(maxsize=8)
def coup_table(decisions: Decisions = resolve(PUNTO_BANCO)) -> CoupTable:
    """Every coup over point values, vectorised card by card as the walk of :mod:`exact_odds.coup`
    goes (naturals, the player's decision, the banker's), from the same decision weights; its
    weighted orderings tabulated by coup class and multiset of values used. A test runs every
    sequence of point values through both and compares."""
    scale = decisions.scale
    player_weights = np.array(decisions.player, dtype=np.int64)
    banker_weights = np.array(decisions.banker, dtype=np.int64)
    naturals = sorted(decisions.rules.naturals)
    prefix = np.indices((10,) * 4).reshape(4, -1)

    def totals(values: Array) -> tuple[Array, Array]:
        return (values[0] + values[2]) % 10, (values[1] + values[3]) % 10

    def banker_draw(values: Array, third: Array) -> Array:
        weights: Array = banker_weights[(values[1] * 10 + values[3]) * 11 + third + 1]
        return weights

    player_two, banker_two = totals(prefix)
    settled = np.isin(player_two, naturals) | np.isin(banker_two, naturals)
    player_draw = np.where(settled, 0, player_weights[prefix[0] * 10 + prefix[2]])
    stood = np.flatnonzero(~settled & (player_draw < scale))
    stood_values = prefix[:, stood]
    banker_after_stand = banker_draw(stood_values, np.full(len(stood), -1))
    stand_weight = scale - player_draw[stood]
    drew_rows = np.flatnonzero(player_draw > 0)
    drew = _extend(prefix, drew_rows)  # P1 B1 P2 B2 P3
    drew_weight = np.repeat(player_draw[drew_rows], 10)
    banker_after_draw = banker_draw(drew, drew[4])
    nothing = np.full(0, 0)
    groups = [  # (values in deal order, weights, player's third card row, banker's third card row)
        (prefix[:, settled], np.full(int(settled.sum()), scale * scale), None, None),
        (stood_values, stand_weight * (scale - banker_after_stand), None, None),
        (_extend(stood_values, np.arange(len(stood))), np.repeat(stand_weight * banker_after_stand, 10), None, 4),
        (drew, drew_weight * (scale - banker_after_draw), 4, None),
        (_extend(drew, np.arange(drew.shape[1])), np.repeat(drew_weight * banker_after_draw, 10), 4, 5),
    ]
    powers = MAX_VALUE_COUNT ** np.arange(10)
    multiset_code, class_code, weight_code = [], [], []
    for values, weights, player_row, banker_row in groups:
        keep = weights > 0
        values, weights = values[:, keep], weights[keep]
        player_third = values[player_row] if player_row is not None else np.full(values.shape[1], -1)
        banker_third = values[banker_row] if banker_row is not None else np.full(values.shape[1], -1)
        player_two, banker_two = totals(values)
        multiset_code.append(powers[values].sum(axis=0) if values.size else nothing)
        class_code.append((((player_two * 10 + banker_two) * 11 + player_third + 1) * 11) + banker_third + 1)
        weight_code.append(weights)
    codes, multiset_index = np.unique(np.concatenate(multiset_code), return_inverse=True)
    class_codes, class_index = np.unique(np.concatenate(class_code), return_inverse=True)
    entries, entry_index = np.unique(class_index * len(codes) + multiset_index, return_inverse=True)
    orderings = np.zeros(len(entries), dtype=np.int64)
    np.add.at(orderings, entry_index, np.concatenate(weight_code))
    entry_class, entry_multiset = np.divmod(entries, len(codes))
    multisets = (codes[:, None] // powers) % MAX_VALUE_COUNT
    keys = np.stack([class_codes // 1210, class_codes // 121 % 10, class_codes // 11 % 11 - 1, class_codes % 11 - 1], axis=1)
    starts = np.searchsorted(entry_class, np.arange(len(class_codes)))
    return CoupTable(
        multisets, multisets.sum(axis=1), keys, entry_multiset, orderings, starts, scale * scale,
        coup_columns(keys[:, 0], keys[:, 1], keys[:, 2], keys[:, 3], naturals),
        _gather_index(multisets),
    )


def _gather_index(multisets: np.ndarray) -> np.ndarray:
    """For each multiset, the cells (value * 7 + count) of its values in a 10 x 7 table of falling
    factorials, padded with cell 0 (a count of 0 cards: 1)."""
    index = np.zeros((6, len(multisets)), dtype=np.int64)
    for position, row in enumerate(multisets.tolist()):
        cells = [value * MAX_VALUE_COUNT + count for value, count in enumerate(row) if count]
        index[: len(cells), position] = cells
    return index


class FastEngine:
    """Coup distributions from the compiled table; the plain enumerator where a bet reads card slots
    inside a coup (rank or suit of a card together with the outcome)."""

    def coups(self, shoe: Shoe, decisions: Decisions, tracked: Levels) -> Distribution:
        if tracked:
            return enumerate_coups(shoe, decisions, tracked)
        return coup_table(decisions).distribution(shoe.value_counts, shoe.with_replacement)

    def cards(self, shoe: Shoe, tracked: Levels) -> Distribution:
        return enumerate_cards(shoe, tracked)


@dataclass(frozen=True, eq=False)
class MultisetTable:
    """Orderings of multisets of card classes, for weighing many shoes at once.

    ``rows`` x ``multisets`` entries say how many orderings of each multiset fall in each row of a
    distribution layout (coup classes, or sequences of a few cards); ``depth`` is the number of
    cards the counts are ordered sequences of (6 for coups).
    """

    multisets: np.ndarray  # (K, classes)
    depth: int
    columns: dict
    entry_row: np.ndarray
    entry_multiset: np.ndarray
    entry_orderings: np.ndarray
    parent: np.ndarray = field(init=False)
    added_class: np.ndarray = field(init=False)

    def __post_init__(self):
        sizes = self.multisets.sum(axis=1)
        index = {tuple(row): position for position, row in enumerate(self.multisets.tolist())}
        parent = np.zeros(len(sizes), dtype=np.int64)
        added = np.zeros(len(sizes), dtype=np.int64)
        for position, row in enumerate(self.multisets.tolist()):
            if sizes[position]:
                added[position] = max(value for value, count in enumerate(row) if count)
                row[added[position]] -= 1
                parent[position] = index[tuple(row)]
        object.__setattr__(self, "parent", parent)
        object.__setattr__(self, "added_class", added)

    @cached_property
    def levels(self) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
        """Per size 1..depth: the slice of multisets of that size (they are sorted by size), their
        parents, and which factor c_v - j each adds (as the row v * 7 + j of a factor table)."""
        sizes = self.multisets.sum(axis=1)
        levels = []
        for size in range(1, self.depth + 1):
            level = np.flatnonzero(sizes == size)
            added = self.added_class[level]
            factor = added * MAX_VALUE_COUNT + self.multisets[level, added] - 1
            levels.append((int(level[0]), int(level[-1]) + 1, self.parent[level], factor))
        return levels

    def batch_weights(self, counts: np.ndarray) -> np.ndarray:
        """(K x shoes) ordered ``depth``-card sequences per multiset; ``counts`` is (shoes x classes), int64."""
        sizes = self.multisets.sum(axis=1)
        factors = (counts.T[:, None, :] - np.arange(MAX_VALUE_COUNT)[None, :, None]).reshape(-1, len(counts))
        weights = np.empty((len(sizes), len(counts)), dtype=np.int64)
        weights[0] = 1
        for start, end, parent, factor in self.levels:
            np.multiply(weights[parent], factors[factor], out=weights[start:end])
        shoe_sizes = counts.sum(axis=1)
        for size in range(self.depth):
            level = np.flatnonzero(sizes == size)
            if len(level):
                weights[level[0] : level[-1] + 1] *= np.prod([shoe_sizes - size - drawn for drawn in range(self.depth - size)], axis=0)
        return weights


def closed_multisets(multisets: np.ndarray) -> np.ndarray:
    """The given multisets and every sub-multiset of them (so each has a parent one card smaller)."""
    seen = {tuple(row) for row in multisets.tolist()}
    frontier = list(seen)
    while frontier:
        row = frontier.pop()
        for value, count in enumerate(row):
            if count:
                smaller = row[:value] + (count - 1,) + row[value + 1 :]
                if smaller not in seen:
                    seen.add(smaller)
                    frontier.append(smaller)
    return np.array(sorted(seen, key=lambda row: (sum(row), row)), dtype=np.int64)


def closed_table(multisets, depth, columns, entry_row, entry_multiset, entry_orderings) -> MultisetTable:
    """A :class:`MultisetTable` over ``multisets`` and all their sub-multisets, entries re-indexed."""
    full = closed_multisets(multisets)
    position = {tuple(row): index for index, row in enumerate(full.tolist())}
    remap = np.array([position[tuple(row)] for row in multisets.tolist()])
    return MultisetTable(full, depth, columns, entry_row, remap[entry_multiset], entry_orderings)


@lru_cache(maxsize=4)
def coup_multiset_table(decisions: Decisions) -> MultisetTable:
    """The coup table in the form the batch path weighs."""
    table = coup_table(decisions)
    entry_row = np.repeat(np.arange(len(table.class_starts)), np.diff(np.append(table.class_starts, len(table.entry_multiset))))
    return closed_table(table.multisets, 6, table.columns, entry_row, table.entry_multiset, table.entry_orderings)


@lru_cache(maxsize=16)
def card_multiset_table(slots: tuple[tuple[str, Granularity], ...]) -> MultisetTable:
    """Every sequence of classes for the given card slots (rank or value level), one row each."""
    level = Granularity.VALUE
    for _, slot_level in slots:
        level = level.join(slot_level)
    if level.mark:
        raise ValueError("the batch path does not weigh bets on suits")
    classes = level.classes
    labels = np.indices((classes,) * len(slots)).reshape(len(slots), -1)
    columns = Columns(levels=dict(slots))
    for (slot, slot_level), label in zip(slots, labels):
        columns.update(card_columns(slot, slot_level, relabel(label, level, slot_level)))
    histogram = np.zeros((labels.shape[1], classes), dtype=np.int64)
    for label in labels:
        histogram[np.arange(labels.shape[1]), label] += 1
    multisets, inverse = np.unique(histogram, axis=0, return_inverse=True)
    rows = np.arange(labels.shape[1])
    return closed_table(multisets, len(slots), columns, rows, inverse.ravel(), np.ones(len(rows), dtype=np.int64))


BATCH_CHUNK = 128
"""Shoes weighed at once in the batch path: small enough that a chunk of weights stays in cache."""


@dataclass(frozen=True)
class BatchExpectations:
    """Exact expectations of several bets on many shoes.

    ``numerators[s, b] / (scales[b] * falling(sizes[s], depths[b]))`` is the expected net win per
    unit of bet ``b`` on shoe ``s``: a coup bet counts ordered 6-card sequences, a bet on the first
    cards ordered draws of the cards it reads.
    """

    bets: tuple
    numerators: np.ndarray
    scales: tuple[int, ...]
    depths: tuple[int, ...]
    sizes: tuple[int, ...]

    def expected_value(self, shoe: int, bet: str) -> Fraction:
        column = [candidate.name for candidate in self.bets].index(bet)
        return Fraction(int(self.numerators[shoe, column]), self.scales[column] * falling(self.sizes[shoe], self.depths[column]))

    def positive(self) -> np.ndarray:
        """Exactly where the expectation is above zero."""
        return self.numerators > 0

    def floats(self) -> np.ndarray:
        """The expectations as floats, fast (to about 1e-15 relative): for statistics only."""
        sizes = np.asarray(self.sizes, dtype=np.float64)
        sequences = {depth: np.prod([sizes - drawn for drawn in range(depth)], axis=0) for depth in set(self.depths)}
        denominators = np.stack([scale * sequences[depth] for scale, depth in zip(self.scales, self.depths)], axis=1)
        return self.numerators.astype(np.float64) / denominators


def _pay_matrix(table: MultisetTable, bets) -> np.ndarray:
    """(multisets x bets): each bet's scaled net pay summed over the orderings of each multiset."""
    matrix = np.zeros((len(table.multisets), len(bets)), dtype=np.int64)
    for column, bet in enumerate(bets):
        row_pay = np.asarray(bet.scaled_pays[1], dtype=np.int64)[bet.settle(table.columns)]
        np.add.at(matrix[:, column], table.entry_multiset, row_pay[table.entry_row] * table.entry_orderings)
    return matrix


@dataclass(frozen=True)
class PayColumns:
    """A pay matrix split into independent columns and exact integer relations for the rest:
    ``divisor * column[b] == sum_j coefficient_j * column[basis_j]`` on every multiset, so the same
    holds for the weighted sums and dependent bets need no product of their own."""

    matrix: np.ndarray  # (multisets x basis columns)
    basis: tuple[int, ...]
    relations: dict  # bet column -> (divisor, coefficients over the basis columns)

    @cached_property
    def first_row(self) -> int:
        used = np.flatnonzero(np.abs(self.matrix).sum(axis=1))
        return int(used[0]) if len(used) else 0

    @cached_property
    def floats(self) -> np.ndarray:
        return np.ascontiguousarray(self.matrix[self.first_row :], dtype=np.float64)

    @cached_property
    def limb_bits(self) -> int:
        """Bits per limb of the weights: a limb times any column's absolute sum stays below 2^52."""
        return 52 - (int(np.abs(self.matrix).sum(axis=0).max()) or 1).bit_length()

    def expand(self, products: np.ndarray, bets: int) -> np.ndarray:
        """Every bet's column from the products of the basis columns, exactly.

        In int64 (every bet's numerator fits, see :func:`batch_expectations`) the products are split
        as high * 2^31 + low, so that no intermediate sum overflows: each relation has small
        coefficients (checked when it was found)."""
        result = np.zeros((products.shape[0], bets), dtype=products.dtype)
        result[:, list(self.basis)] = products
        if products.dtype != np.int64:
            for column, (divisor, coefficients) in self.relations.items():
                result[:, column] = (products @ np.array(coefficients, dtype=object)) // divisor
            return result
        high, low = np.divmod(products, SPLIT)
        for column, (divisor, coefficients) in self.relations.items():
            weights = np.array(coefficients, dtype=np.int64)
            quotient, remainder = np.divmod(high @ weights, divisor)
            result[:, column] = quotient * SPLIT + (remainder * SPLIT + low @ weights) // divisor
        return result


SPLIT = 1 << 31
RELATION_LIMIT = 1 << 20
"""Relations are kept only with a divisor and a sum of coefficients below this, which bounds every
intermediate sum of :meth:`PayColumns.expand` below 2^63."""


def independent_columns(matrix: np.ndarray) -> PayColumns:
    """Split ``matrix`` into a basis of its columns and exact relations for the others (each found
    by least squares, rounded to small rationals, then checked exactly in integers)."""
    basis: list[int] = []
    relations = {}
    largest = int(np.abs(matrix).max()) if matrix.size else 0
    for column in range(matrix.shape[1]):
        if basis:
            solution = np.linalg.lstsq(matrix[:, basis].astype(np.float64), matrix[:, column].astype(np.float64), rcond=None)[0]
            fractions = [Fraction(float(value)).limit_denominator(10_000) for value in solution]
            divisor = lcm(*(fraction.denominator for fraction in fractions))
            coefficients = [int(fraction * divisor) for fraction in fractions]
            small = divisor < RELATION_LIMIT and sum(map(abs, coefficients)) < RELATION_LIMIT
            if small and largest * (sum(map(abs, coefficients)) + divisor) < INT64_SAFE and (
                matrix[:, basis] @ np.array(coefficients, dtype=np.int64) == divisor * matrix[:, column]
            ).all():
                relations[column] = (divisor, coefficients)
                continue
        basis.append(column)
    padded = {column: (divisor, coefficients + [0] * (len(basis) - len(coefficients))) for column, (divisor, coefficients) in relations.items()}
    return PayColumns(np.ascontiguousarray(matrix[:, basis]), tuple(basis), padded)


_PAY_COLUMNS: dict = {}


def _pay_columns(table: MultisetTable, bets: tuple) -> tuple[np.ndarray, PayColumns]:
    """The pay matrix of ``bets`` and its independent columns, kept for bets with the same pay tables."""
    signature = (id(table), tuple((bet.name, tuple((row.condition.text, row.pays.text) for row in bet.rows)) for bet in bets))
    if signature not in _PAY_COLUMNS:
        matrix = _pay_matrix(table, list(bets))
        _PAY_COLUMNS[signature] = (matrix, independent_columns(matrix))
    return _PAY_COLUMNS[signature]


def _exact_product(weights: np.ndarray, columns: PayColumns, largest: int) -> np.ndarray:
    """weights.T @ columns.matrix, exactly, as int64: float64 products on limbs small enough that no
    dot product passes 2^53, so every partial result is an exact integer. ``largest`` bounds the
    weights. Multisets too small to be a coup (all-zero rows at the start) are skipped."""
    weights = weights[columns.first_row :]
    limbs = max(1, -(-largest.bit_length() // columns.limb_bits))
    mask = (1 << columns.limb_bits) - 1
    result = np.zeros((weights.shape[1], columns.floats.shape[1]), dtype=np.int64)
    for limb in range(limbs):
        low = (weights & mask).astype(np.float64)
        result += (low.T @ columns.floats).astype(np.int64) << (limb * columns.limb_bits)
        weights = weights >> columns.limb_bits
    return result


@lru_cache(maxsize=1)
def keep_freed_memory() -> bool:
    """Ask glibc to keep freed blocks of up to 64 MiB instead of returning them to the system.

    The batch path makes numpy temporaries of a few MiB per chunk; glibc serves each by a fresh
    mmap and unmaps it when freed, and the page faults that follow cost about 40% of the batch
    time (measured: 8,000 against 5,000 shoes per second). Elsewhere than glibc this does nothing."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3
    return bool(mallopt(m_mmap_threshold, 64 << 20) and mallopt(m_trim_threshold, 256 << 20))


def batch_expectations(rank_counts: Any, bets: list[Bet], rules: DrawRules | Decisions = PUNTO_BANCO, policy: Policy | str | None = None) -> BatchExpectations:
    """Exact expectations of ``bets`` for many shoes given as per-rank counts (shoes x 13), under
    ``rules`` with their choices fixed by ``policy``.

    Coup bets that read only value-level features, and bets on the first cards by rank or value
    (the pair bets), are weighed in batch; a bet on suits, or on card ranks inside a coup, is refused.
    """
    decisions = decisions_of(rules, policy)
    weight = decisions.scale**2
    keep_freed_memory()
    counts = np.asarray(rank_counts, dtype=np.int64).reshape(-1, 13)
    if (counts < 0).any() or (counts.sum(axis=1) < 6).any():
        raise InputError("every shoe needs non-negative counts and at least 6 cards")
    sizes = tuple(int(size) for size in counts.sum(axis=1))
    totals = [falling(size, 6) for size in sizes]
    scales = tuple(bet.scaled_pays[0] * (weight if bet.needs_coup else 1) for bet in bets)
    largest_pay = max(max(abs(net) for net in bet.scaled_pays[1]) for bet in bets)
    fits = max(sizes) ** 6 * largest_pay * weight < INT64_SAFE
    numerators = np.zeros((len(counts), len(bets)), dtype=np.int64 if fits else object)
    groups: dict = {}
    for index, bet in enumerate(bets):
        if bet.needs_coup and bet.card_slots:
            raise InputError(f"bet {bet.name!r} reads card ranks inside the coup; the batch path cannot weigh it")
        if bet.needs_suits:
            raise InputError(f"bet {bet.name!r} reads suits; the batch path weighs shoes by rank")
        key = "coup" if bet.needs_coup else tuple(sorted(bet.card_slots.items(), key=lambda item: SLOTS.index(item[0])))
        groups.setdefault(key, []).append(index)
    depths = [0] * len(bets)
    value_matrix = np.zeros((13, 10), dtype=np.int64)
    value_matrix[np.arange(13), POINT_VALUES] = 1
    for key, members in groups.items():
        table = coup_multiset_table(decisions) if key == "coup" else card_multiset_table(key)
        classes = counts if table.multisets.shape[1] == 13 else counts @ value_matrix
        matrix, columns = _pay_columns(table, tuple(bets[index] for index in members))
        for index in members:
            depths[index] = table.depth
        for start in range(0, len(counts), BATCH_CHUNK):
            chunk = slice(start, start + BATCH_CHUNK)
            if fits:
                products = _exact_product(table.batch_weights(classes[chunk]), columns, max(totals[chunk]) * weight)
                numerators[chunk, members] = columns.expand(products, len(members))
            else:
                numerators[chunk, members] = np.array([_exact_weights_product(table, row, matrix) for row in classes[chunk]], dtype=object)
    return BatchExpectations(tuple(bets), numerators, scales, tuple(depths), sizes)


def _exact_weights_product(table: MultisetTable, classes: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """One shoe too large for int64: the same weights in Python integers."""
    size = int(classes.sum())
    weights = np.array(
        [
            np.prod([falling(int(classes[value]), int(used)) for value, used in enumerate(row) if used], dtype=object)
            * falling(size - int(row.sum()), table.depth - int(row.sum()))
            for row in table.multisets
        ],
        dtype=object,
    )
    return weights @ matrix.astype(object)
