"""The weighing kernel: for many shoes at once, the count of every target (a row of a table, or an
event of a set of bets): the sum over the target's (multiset, target) entries of the entry's
weighted orderings times the product of the multiset's factors in the shoe's factor vector
(see :mod:`exact_odds.engine.tables`). Exact at every size.

The compiled kernel (``exact_odds.engine._kernel``, a C extension that ``pip install .`` builds when a C
compiler is there) adds in float64 while every product and sum is below 2^53 (so every step is an
exact integer), in 64-bit integers below 2^63 and in 128-bit integers below 2^127; beyond, and
whenever the extension is missing or ``EXACT_ODDS_KERNEL=numpy`` is set, the numpy path below gives
identical results (int64, or Python integers). The caller gives a bound on every product and sum.
"""

import os
import warnings
from dataclasses import dataclass
from functools import cached_property
from operator import index
from typing import Any

import numpy as np

from .distribution import FLOAT_EXACT
from ..core.features import Array

try:
    from . import _kernel  # type: ignore[attr-defined]  # the C extension, built by setup.py when a compiler is present
except ImportError:  # no compiler at install time: the numpy path
    _kernel = None
    if os.path.exists(os.path.join(os.path.dirname(__file__), "_kernel.c")) and os.environ.get("EXACT_ODDS_KERNEL", "") != "numpy":
        warnings.warn(f"exact_odds is imported from {os.path.dirname(os.path.dirname(os.path.dirname(__file__)))} without its compiled kernel, so batches run "
                      "on the slower numpy path (same results); `pip install -e .` there builds it", RuntimeWarning, stacklevel=2)

NUMPY_CELLS = 1 << 22
"""The numpy path weighs as many shoes at once as keep its temporaries near this many cells."""
INT64_BOUND = 2**63
INT128_BOUND = 2**127


def compiled() -> bool:
    """Whether the compiled kernel is in use."""
    return _kernel is not None and os.environ.get("EXACT_ODDS_KERNEL", "") != "numpy"


@dataclass(frozen=True)
class KernelInfo:
    """Which path weighs batches of shoes: the compiled kernel (and the copy of its loops this CPU
    runs) or the numpy path, and why. Both give identical results; the kernel is faster."""

    compiled: bool
    instruction_set: str | None
    reason: str

    def __str__(self) -> str:
        return f"compiled kernel ({self.instruction_set})" if self.compiled else f"numpy path ({self.reason})"


def kernel_info() -> KernelInfo:
    """The path in use, for ``baccarat-odds --version`` and for a user who wonders about speed.

    >>> info = kernel_info()
    >>> info.compiled == compiled() and (info.instruction_set is not None) == info.compiled
    True
    """
    if _kernel is None:
        return KernelInfo(False, None, "the C extension was not built: no C compiler at install time, or the source folder not installed in place")
    if not compiled():
        return KernelInfo(False, None, "EXACT_ODDS_KERNEL=numpy")
    return KernelInfo(True, str(_kernel.instruction_set()), f"{_kernel.__file__}")


@dataclass(frozen=True, eq=False)
class Entries:
    """What to weigh: each multiset's factor indices, and (multiset, target, weight) entries."""

    factors: Array  # (M, F)
    multiset: Array  # (E,)
    target: Array  # (E,)
    weight: Array  # (E,) int64 or Python integers
    targets: int

    @cached_property
    def by_multiset(self) -> tuple[Array, Array, Array, Array]:
        """For the compiled kernel: the multisets sorted by their factor indices (so that neighbours
        share factors), and the entries grouped by them: (factors, starts (M + 1), targets, weights)."""
        rank = np.empty(len(self.factors), dtype=np.int64)
        by_factors = np.lexsort(self.factors.T[::-1])
        rank[by_factors] = np.arange(len(self.factors))
        keys = rank[self.multiset].astype(np.uint16 if len(self.factors) <= 1 << 16 else np.int64)  # 16 bits: a radix sort
        order = np.argsort(keys, kind="stable")
        starts = np.searchsorted(keys[order], np.arange(len(self.factors) + 1))
        factors = np.ascontiguousarray(self.factors[by_factors], dtype=np.int64)
        return factors, starts.astype(np.int64), self.target[order].astype(np.int64), self.weight[order]

    @cached_property
    def factor_width(self) -> int:
        """The factor vector's width the entries need; checked here, once, with the targets (the
        compiled kernel trusts its indices)."""
        if len(self.multiset) and (self.multiset.min() < 0 or self.multiset.max() >= len(self.factors)):
            raise ValueError("an entry's multiset is out of range")
        if len(self.target) and (self.target.min() < 0 or self.target.max() >= self.targets):
            raise ValueError("an entry's target is out of range")
        if self.factors.size and self.factors.min() < 0:
            raise ValueError("a factor index is negative")
        return int(self.factors.max()) + 1 if self.factors.size else 0

    @cached_property
    def by_target(self) -> tuple[Array, Array, Array]:
        """Entries in target order with the first entry of each target: for the numpy path."""
        order = np.argsort(self.target, kind="stable")
        targets = self.target[order]
        starts = np.flatnonzero(np.r_[True, targets[1:] != targets[:-1]]) if len(targets) else np.zeros(0, dtype=np.int64)
        return order, starts, targets[starts]


def exact_counts(counts: Any) -> Array:
    """Whole counts from 0 (rows of shoes) as int64 when every row's sum is below 2^63 (so is every
    sum of its counts), else as Python integers: never a float, never a sum that wraps.

    >>> exact_counts([[2**62, 2**62], [1, 2]]).dtype, exact_counts([[2**62, 2**62 - 1]]).dtype
    (dtype('O'), dtype('int64'))
    """
    if isinstance(counts, np.ndarray) and counts.dtype.kind in "iu":
        if not counts.size or int(counts.max()) * counts.shape[-1] < INT64_BOUND:
            small: Array = counts.astype(np.int64)
            return small
        counts = counts.tolist()
    rows = np.empty((len(counts), len(counts[0]) if len(counts) else 0), dtype=object)
    rows[:] = [[index(count) for count in row] for row in counts]
    if max((sum(row) for row in rows.tolist()), default=0) < INT64_BOUND:
        return rows.astype(np.int64)
    return rows


def weigh(entries: Entries, vectors: Array, bound: int, floats: bool = False) -> Array:
    """(shoes x targets) exact counts; ``vectors`` holds each shoe's factor vector, ``bound`` bounds
    every product of a multiset's factors and every count. With ``floats``, counts that are all
    below 2^53 come as float64 (each exact)."""
    small = vectors.dtype != object and entries.weight.dtype != object
    if compiled() and small and bound < INT128_BOUND:
        return _compiled(entries, vectors, bound, floats)
    if floats and small and bound < FLOAT_EXACT:
        exact: Array = weigh(entries, vectors, bound).astype(np.float64)
        return exact
    kind: Any = np.int64 if small and bound < INT64_BOUND else object
    order, starts, targets = entries.by_target
    multisets, weights = entries.multiset[order], entries.weight[order].astype(kind)
    result = np.zeros((len(vectors), entries.targets), dtype=kind)
    step = max(1, NUMPY_CELLS // max(1, entries.factors.size, len(order)))
    for first in range(0, len(vectors), step):
        gathered = vectors[first : first + step].astype(kind)[:, entries.factors]
        products = gathered[:, :, 0]
        for column in range(1, gathered.shape[2]):
            products = products * gathered[:, :, column]
        if len(order):
            result[first : first + step, targets] = np.add.reduceat(products[:, multisets] * weights, starts, axis=1)
    return result


def _compiled(entries: Entries, vectors: Array, bound: int, floats: bool) -> Array:
    assert _kernel is not None
    if vectors.shape[1] < entries.factor_width:
        raise ValueError(f"factor vectors of width {vectors.shape[1]} for entries that index {entries.factor_width}")
    factors, starts, targets, weights = entries.by_multiset
    vectors = np.ascontiguousarray(vectors, dtype=np.int64)
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    shape = (len(vectors), entries.targets)
    if bound < FLOAT_EXACT:
        sums = np.zeros(shape, dtype=np.float64)
        _kernel.weigh(factors, starts, targets, weights, vectors, sums, 0)
        exact: Array = sums if floats else sums.astype(np.int64)
        return exact
    if bound < INT64_BOUND:
        out = np.zeros(shape, dtype=np.int64)
        _kernel.weigh(factors, starts, targets, weights, vectors, out, 1)
        return out
    high = np.zeros(shape, dtype=np.int64)
    low = np.zeros(shape, dtype=np.uint64)
    _kernel.weigh(factors, starts, targets, weights, vectors, high, 2, low)
    joined: Array = high.astype(object) * (1 << 64) + low.astype(object)
    return joined
