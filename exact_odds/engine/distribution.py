"""Exact distributions: integer counts over the features of a coup (or of a few cards).

A :class:`Distribution` is a table: one row per distinct combination of the features that were
tracked, a column per feature (numpy integer arrays) and an exact integer count per row. The
counts are ordered card sequences; ``total`` is the number of all sequences of ``cards`` cards.
Probabilities are ``count / total`` as :class:`fractions.Fraction`.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.features import OUTCOMES, Array, Columns
from ..core.values import Frozen

INT64_SAFE = 2**62
"""Counts stay in numpy int64 while the total is below this; beyond, they are Python integers."""
FLOAT_EXACT = 2**53
"""Sums of counts below this are exact in float64."""

def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered ways to draw k cards from n.

    >>> falling(416, 6)
    4998398275503360
    """
    result = 1
    for i in range(k):
        result *= n - i
    return result


def draws(n: int, k: int, with_replacement: bool = False) -> int:
    """Ordered ways to draw k cards from n: falling factorial, or n^k when each card is put back.

    >>> draws(13, 6, with_replacement=True)
    4826809
    """
    return n**k if with_replacement else falling(n, k)


def count_array(values: Sequence[int] | Array, total: int) -> Array:
    """Exact counts as an int64 array when ``total`` allows it, else as Python integers."""
    if total < INT64_SAFE:
        return np.asarray(values, dtype=np.int64)
    array = np.empty(len(values), dtype=object)
    array[:] = [int(value) for value in values]
    return array


DENSE_KEYS = 1 << 24
"""Weights are summed by key with a count over every possible key up to this many keys, else by sorting."""


def _summable(weights: Array) -> bool:
    """Whether the ``weights`` (from 0) add up below 2^53, so that float64 sums them exactly (the
    float sum errs by far less than the margin left)."""
    return weights.dtype != object and float(weights.sum(dtype=np.float64)) < FLOAT_EXACT / 2


def sums_at(index: Array, weights: Array, length: int) -> Array:
    """The sum of the ``weights`` at each index 0 .. length - 1, exactly (float64 while every sum is below 2^53)."""
    if _summable(weights):
        summed: Array = np.bincount(index, weights, minlength=length).astype(weights.dtype)
        return summed
    summed = np.zeros(length, dtype=weights.dtype)
    np.add.at(summed, index, weights)
    return summed


def sums_by_key(keys: Array, weights: Array, possible: int) -> tuple[Array, Array]:
    """The distinct ``keys`` (below ``possible``) in order and the sum of the ``weights`` of each, exactly.

    >>> [array.tolist() for array in sums_by_key(np.array([5, 2, 5]), np.array([1, 7, 3]), 8)]
    [[2, 5], [7, 4]]
    """
    if possible <= DENSE_KEYS and _summable(weights):
        sums = np.bincount(keys, weights, minlength=possible)
        present = np.flatnonzero(sums)
        return present, sums[present].astype(weights.dtype)
    distinct, index = np.unique(keys, return_inverse=True)
    return distinct, sums_at(index.ravel(), weights, len(distinct))


class Distribution(Frozen):
    """Counts of ordered card sequences by feature values (see the module docstring): ``counts`` of
    the rows of ``columns``, ``total`` of them, of ``cards`` cards each. Each sequence counts
    ``scale`` times: the weights of a mixed policy are integers out of it. Where the rows are laid
    out the same for every shoe (the compiled evaluator), ``settlements`` is a cache of each bet's
    settlement of them (by the bet: see :func:`~exact_odds.bets.bets.settlement`)."""

    __slots__ = ("columns", "counts", "total", "cards", "scale", "settlements")
    columns: Columns
    counts: Array
    total: int
    cards: int
    scale: int
    settlements: dict[Any, tuple[object, Array]] | None

    def __init__(self, columns: Columns, counts: Array, total: int, cards: int, scale: int = 1,
                 settlements: dict[Any, tuple[object, Array]] | None = None) -> None:
        self._set(columns, counts, total, cards, scale, settlements)

    @property
    def sequences(self) -> int:
        """The number of ordered card sequences (``total`` without the policy's scale)."""
        return self.total // self.scale

    def count_where(self, mask: Array) -> int:
        """Exact number of sequences in the rows selected by a boolean ``mask``."""
        return int(self.counts[mask].sum()) if mask.any() else 0

    def sums_by(self, labels: Array, length: int) -> list[int]:
        """Exact sums of the counts by label 0 .. length - 1, one per row. (In float64 while the
        total, and so every partial sum, is below 2^53: exact, and one pass.)"""
        if self.counts.dtype != object and self.total < FLOAT_EXACT:
            return [int(count) for count in np.bincount(labels, self.counts, minlength=length)]
        sums = np.zeros(length, dtype=self.counts.dtype)
        np.add.at(sums, labels, self.counts)
        return [int(count) for count in sums]

    def where(self, mask: Array) -> "Distribution":
        """The rows selected by a boolean ``mask``, as a distribution of its own: its total is what
        they count (conditional probabilities follow)."""
        columns = Columns({name: column[mask] for name, column in self.columns.items()}, self.columns.levels)
        return Distribution(columns, self.counts[mask], self.count_where(mask), self.cards, self.scale)

    def outcome_counts(self) -> dict[str, int]:
        """Combinations won by banker, player, and tied."""
        return dict(zip(OUTCOMES, self.sums_by(self.columns["winner"], len(OUTCOMES))))
