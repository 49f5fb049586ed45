"""The weighing kernel: for many shoes at once, the count of every target (a row of a table, or an
event of a set of bets): the sum over the target's (multiset, target) entries of the entry's
weighted orderings times the product of the multiset's factors in the shoe's factor vector
(see :mod:`exact_odds.engine.tables`). Exact at every size.

The compiled kernel (``exact_odds.engine._kernel``, a C extension that ``pip install .`` builds when a C
compiler is there) adds in float64 while every product and sum is below 2^53 (so every step is an
exact integer), in 64-bit integers below 2^63 and in 128-bit integers below 2^127. Many shoes are
weighed in blocks of 32, one shoe per SIMD lane, by the copy of its loops the CPU runs best (AVX-512,
AVX2 or generic, chosen at run time; ``EXACT_ODDS_KERNEL=avx2`` or ``generic`` forces a lesser one).
Beyond those bounds, and whenever the extension is missing or ``EXACT_ODDS_KERNEL=numpy`` is set,
the numpy path below gives identical results (int64, or Python integers). The caller gives a bound
on every product and sum.
"""

import os
import warnings
from functools import cached_property
from operator import index
from typing import Any

import numpy as np

from .distribution import FLOAT_EXACT
from ..core.features import Array
from ..core.values import Frozen, Value
from ..errors import InputError

try:
    from . import _kernel  # type: ignore[attr-defined]  # the C extension, built by setup.py when a compiler is present
except ImportError:  # no compiler at install time: the numpy path
    _kernel = None
    if os.path.exists(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "pyproject.toml")) and os.environ.get("EXACT_ODDS_KERNEL", "") != "numpy":  # a source checkout, not an install without a compiler
        warnings.warn(f"exact_odds is imported from {os.path.dirname(os.path.dirname(os.path.dirname(__file__)))} without its compiled kernel, so batches run "
                      "on the slower numpy path (same results); `pip install -e .` there builds it", RuntimeWarning, stacklevel=2)

NUMPY_CELLS = 1 << 22
"""The numpy path weighs as many shoes at once as keep its temporaries near this many cells."""
INT64_BOUND = 2**63
INT128_BOUND = 2**127
VARIANTS = ("generic", "avx2", "avx512")
"""The copies of the compiled kernel's blocked loops, in the order of the instructions they need."""
BLOCKED_FROM = 8
"""From this many shoes, the compiled kernel weighs blocks of shoes in SIMD lanes; below, one shoe at a time."""
CHUNK_MULTISETS = 128
"""Multisets whose weights the blocked loops compute together (their products stay in the L1 cache);
four times as many for entries of more than :data:`MANY_TARGETS` targets, so that each target's
run of entries in a chunk is longer than one or two."""
MANY_TARGETS = 256


def compiled() -> bool:
    """Whether the compiled kernel is in use."""
    return _kernel is not None and setting() != "numpy"


def setting() -> str:
    """``EXACT_ODDS_KERNEL``: empty (the best copy of the loops), ``numpy``, or the copy to run
    (``avx512``, ``avx2``, ``generic``); one that cannot take effect is refused."""
    chosen = os.environ.get("EXACT_ODDS_KERNEL", "")
    if chosen in ("", "numpy"):
        return chosen
    if chosen not in VARIANTS:
        raise InputError(f"EXACT_ODDS_KERNEL={chosen!r}: expected numpy, {', '.join(reversed(VARIANTS))} or nothing")
    runs = tuple(_kernel.variants()) if _kernel is not None else ()
    if chosen not in runs:
        raise InputError(f"EXACT_ODDS_KERNEL={chosen}: " + (f"this CPU runs only the {', '.join(runs)} loops" if runs else "the compiled kernel is not built"))
    return chosen


def variant() -> str:
    """The copy of the blocked loops in use: the one ``EXACT_ODDS_KERNEL`` names, else the best this CPU runs."""
    assert _kernel is not None
    return setting() or str(_kernel.instruction_set())


class KernelInfo(Value):
    """Which path weighs batches of shoes: the compiled kernel (and the copy of its loops this CPU
    runs) or the numpy path, and why. Both give identical results; the kernel is faster."""

    __slots__ = ("compiled", "instruction_set", "reason")
    compiled: bool
    instruction_set: str | None
    """The copy of the blocked loops that runs: avx512, avx2 or generic."""
    reason: str

    def __init__(self, compiled: bool, instruction_set: str | None, reason: str) -> None:
        self._set(compiled, instruction_set, reason)

    def __str__(self) -> str:
        return f"compiled kernel ({self.instruction_set})" if self.compiled else f"numpy path ({self.reason})"


def kernel_info() -> KernelInfo:
    """The path in use, for ``baccarat-odds --version`` and for a user who wonders about speed.

    >>> info = kernel_info()
    >>> info.compiled == compiled() and (info.instruction_set is not None) == info.compiled
    True
    """
    if _kernel is None:
        setting()
        return KernelInfo(False, None, "the C extension was not built: no C compiler at install time, or the source folder not installed in place")
    if not compiled():
        return KernelInfo(False, None, "EXACT_ODDS_KERNEL=numpy")
    forced = " (set by EXACT_ODDS_KERNEL)" if os.environ.get("EXACT_ODDS_KERNEL") else ""
    return KernelInfo(True, variant(), f"{_kernel.__file__}{forced}")


class Entries(Frozen):
    """What to weigh: each multiset's factor indices ``factors`` (M, F), and (``multiset``,
    ``target``, ``weight``) entries (E,) each, the weights int64 or Python integers, into ``targets``
    sums; ``plans``: the kernel's plans of them (see :meth:`plan`)."""

    __slots__ = ("factors", "multiset", "target", "weight", "targets", "plans", "__dict__")
    factors: Array
    multiset: Array
    target: Array
    weight: Array
    targets: int
    plans: dict[tuple[int, ...], "Plan"]

    def __init__(self, factors: Array, multiset: Array, target: Array, weight: Array, targets: int) -> None:
        self._set(factors, multiset, target, weight, targets, {})

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

    def plan(self, pulled: tuple[int, ...] = ()) -> "Plan":
        """For the blocked loops of the compiled kernel (kept per ``pulled``): the multisets that
        have entries, sorted by their factors but the ``pulled`` ones (factor indices that many
        multisets share, such as the unused cards' N - n - i), taken in chunks (see
        :data:`CHUNK_MULTISETS`). Within a chunk each distinct prefix of a multiset's factors is a
        node (slot 0 holds 1), the product of its parent's and one more factor; a multiset's pulled
        factors make its *layer*, whose sums the kernel multiplies by them once per target.

        >>> entries = Entries(np.array([[0, 1, 5], [0, 1, 2], [0, 5, 5]]), np.arange(3), np.zeros(3, dtype=np.int64), np.ones(3, dtype=np.int64), 1)
        >>> plan = entries.plan((5,))
        >>> len(plan.arrays[0]), len(plan.layer_start) - 1  # nodes: 0, 0*1, 0*1*2; layers: no 5, one 5, two 5s
        (3, 3)
        """
        if pulled not in self.plans:
            self.plans[pulled] = _plan(self, pulled)
        return self.plans[pulled]

    @cached_property
    def by_target(self) -> tuple[Array, Array, Array]:
        """Entries in target order with the first entry of each target: for the numpy path."""
        order = np.argsort(self.target, kind="stable")
        targets = self.target[order]
        starts = np.flatnonzero(np.r_[True, targets[1:] != targets[:-1]]) if len(targets) else np.zeros(0, dtype=np.int64)
        return order, starts, targets[starts]


class Plan(Frozen):
    """What the blocked loops of the compiled kernel read (see :meth:`Entries.plan`): the factor
    indices used (the block's factor table, a position in it for each factor below), each node's
    parent slot and factor, the first node and first run of each chunk, each run's slot and end (a
    run: a chunk's entries of one slot), each entry's node and weight (float64 and int64, for the
    kernel's two blocked modes), each layer's factors, and the slots of sums the runs add into:
    slot t < targets holds target t's entries of layer 0, each further slot one (layer, target)
    that has entries; each slot's layer, and the target of each further slot."""

    __slots__ = ("used", "arrays", "floating", "integral", "layer_start", "layer_factor", "slot_layer", "slot_target")
    used: Array
    arrays: tuple[Array, ...]
    floating: Array
    integral: Array
    layer_start: Array
    layer_factor: Array
    slot_layer: Array
    slot_target: Array

    def __init__(self, used: Array, arrays: tuple[Array, ...], floating: Array, integral: Array, layer_start: Array, layer_factor: Array,
                 slot_layer: Array, slot_target: Array) -> None:
        self._set(used, arrays, floating, integral, layer_start, layer_factor, slot_layer, slot_target)


def _plan(entries: Entries, pulled: tuple[int, ...]) -> Plan:
    factors, starts, targets, weights = entries.by_multiset
    sizes = np.diff(starts)
    present = np.flatnonzero(sizes)  # a multiset without entries needs no product
    factors = factors[present]
    count, width = factors.shape
    entry_source = np.repeat(np.arange(count), sizes[present])
    aside = np.isin(factors, np.asarray(pulled, dtype=np.int64))
    moved = np.argsort(aside, axis=1, kind="stable")  # each multiset's pulled factors last
    factors, aside = np.take_along_axis(factors, moved, axis=1), np.take_along_axis(aside, moved, axis=1)
    layers, layer = np.unique(np.where(aside, factors, -1), axis=0, return_inverse=True)
    layer = layer.ravel()
    used, compact = np.unique(np.where(aside, -1, factors), return_inverse=True)
    compact = compact.reshape(factors.shape) - (1 if len(used) and used[0] == -1 else 0)
    used = used[used >= 0]
    compact[aside] = len(used)  # after every factor: a pulled one sorts last and makes no node
    order = np.lexsort(compact.T[::-1]) if width else np.arange(count)
    rank = np.empty(count, dtype=np.int64)
    rank[order] = np.arange(count)
    compact, layer = compact[order], layer[order]
    entry_multiset = rank[entry_source]
    length = width - aside[order].sum(axis=1)
    size = CHUNK_MULTISETS * (4 if entries.targets > MANY_TARGETS else 1)
    chunk = np.arange(count) // size
    shared = np.zeros(count, dtype=np.int64)
    if count > 1:
        equal = np.cumprod(compact[1:] == compact[:-1], axis=1).sum(axis=1)
        shared[1:] = np.minimum(equal, np.minimum(length[1:], length[:-1]))
    shared[::size] = 0  # a chunk starts from nothing
    created = length - shared
    base = np.cumsum(created) - created  # each multiset's first new node, over all chunks
    level_node = np.full((width + 1, count), -1, dtype=np.int64)  # the node of each multiset's prefix of each length
    for prefix in range(1, width + 1):
        maker = np.maximum.accumulate(np.where(shared < prefix, np.arange(count), 0))
        level_node[prefix] = base[maker] + prefix - shared[maker] - 1
    levels = np.arange(1, width + 1)[None, :]
    multiset, level = np.nonzero((levels > shared[:, None]) & (levels <= length[:, None]))
    first_node = np.r_[base[::size], created.sum()].astype(np.int64)
    origin = first_node[chunk] - 1  # a node's slot is its number less this, within its chunk
    # within a chunk, the nodes by length: a node's parent comes a length before; siblings follow one another
    by_length = np.lexsort((level, chunk[multiset]))
    renumbered = np.empty(len(by_length) + 1, dtype=np.int64)
    renumbered[by_length] = np.arange(len(by_length))
    renumbered[-1] = -1  # the root, slot 0
    multiset, level = multiset[by_length], level[by_length]
    parent = renumbered[level_node[level, multiset]] - np.where(level > 0, origin[multiset], -1)
    node = np.where(length > 0, renumbered[level_node[length, np.arange(count)]] - origin, 0)
    entry_layer = layer[entry_multiset]
    extra = np.unique((entry_layer * entries.targets + targets)[entry_layer > 0])  # (layer, target) pairs beyond layer 0
    entry_target = np.where(entry_layer > 0, entries.targets + np.searchsorted(extra, entry_layer * entries.targets + targets), targets)
    slots = entries.targets + len(extra)
    entry_chunk = chunk[entry_multiset]
    order = np.lexsort((entry_multiset, entry_target, entry_chunk))
    key = (entry_chunk * slots + entry_target)[order]
    ends = np.flatnonzero(np.r_[key[1:] != key[:-1], True]) + 1 if len(key) else np.zeros(0, dtype=np.int64)
    chunks = len(first_node) - 1
    layer_factors = [row[row >= 0] for row in layers] if len(layers) else [np.zeros(0, dtype=np.int64)]
    table = np.union1d(used, np.concatenate(layer_factors)).astype(np.int64)  # every factor a block reads
    position = np.searchsorted(table, used)
    arrays = (parent.astype(np.int32), position[compact[multiset, level]].astype(np.int32), first_node,
              np.searchsorted(entry_chunk[order][ends - 1], np.arange(chunks + 1)).astype(np.int64),
              entry_target[order][ends - 1].astype(np.int32), ends.astype(np.int64), node[entry_multiset[order]].astype(np.int32))
    ordered = weights[order]
    return Plan(table, arrays, np.ascontiguousarray(ordered, dtype=np.float64), np.ascontiguousarray(ordered, dtype=np.int64),
                np.r_[0, np.cumsum([len(row) for row in layer_factors])].astype(np.int64),
                np.searchsorted(table, np.concatenate(layer_factors)).astype(np.int32),
                np.r_[np.zeros(entries.targets, dtype=np.int64), extra // max(entries.targets, 1)].astype(np.int32),
                (extra % max(entries.targets, 1)).astype(np.int32))


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


Layout = tuple[Array, Array]
"""How a shoe's factor vector is read off a row of counts ``known``: factor p is
``known[source[p]] - offset[p]`` (see :meth:`~exact_odds.engine.tables.Table.factor_vectors`)."""


def weigh(entries: Entries, vectors: Array, bound: int, floats: bool = False) -> Array:
    """(shoes x targets) exact counts; ``vectors`` holds each shoe's factor vector, ``bound`` bounds
    every product of a multiset's factors and every count. With ``floats``, counts that are all
    below 2^53 come as float64 (each exact)."""
    width = vectors.shape[1]
    return weigh_counts(entries, vectors, (np.arange(width), np.zeros(width, dtype=np.int64)), bound, floats)


class Pays(Frozen):
    """What each target pays in each column (``dense``: (targets x columns) int64), to fold into the counts."""

    __slots__ = ("dense", "__dict__")
    dense: Array

    def __init__(self, dense: Array) -> None:
        self._set(dense)

    @cached_property
    def by_column(self) -> tuple[Array, Array, Array]:
        """As the compiled kernel takes them (see :func:`_by_column`)."""
        return _by_column(self.dense)


def weigh_counts(entries: Entries, known: Array, layout: Layout, bound: int, floats: bool = False, pays: Pays | None = None,
                 shared: tuple[int, ...] = ()) -> Array:
    """:func:`weigh` for the factor vectors ``known`` and ``layout`` make: the compiled kernel reads
    each block's factors off the counts itself, never a vector per shoe. With ``pays``, the counts
    times the pays instead, (shoes x columns) int64: the caller ensures that ``bound`` times the
    largest pay is below 2^62, which bounds every partial sum of a column. ``shared`` names factors
    that many multisets hold (the unused cards' N - n - i): the blocked loops multiply each
    target's sums by them once (see :meth:`Entries.plan`) where every shoe has each of them at
    least 1 (so that no step of that product exceeds the count), the same counts with fewer products."""
    small = known.dtype != object and entries.weight.dtype != object
    if compiled() and small and bound < INT128_BOUND:
        return _compiled(entries, known, layout, bound, floats, pays, shared)
    source, offset = layout
    vectors = known[:, source] - offset.astype(known.dtype)
    if pays is not None:
        paid: Array = _numpy(entries, vectors, bound) @ pays.dense
        return paid
    if floats and small and bound < FLOAT_EXACT:
        exact: Array = _numpy(entries, vectors, bound).astype(np.float64)
        return exact
    return _numpy(entries, vectors, bound)


def _numpy(entries: Entries, vectors: Array, bound: int) -> Array:
    small = vectors.dtype != object and entries.weight.dtype != object
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


def _by_column(pays: Array) -> tuple[Array, Array, Array]:
    """Dense (targets x columns) pays as the kernel takes them, column by column: each column's most
    common pay times the total of the counts (target number ``targets``), plus the difference on
    each target that pays otherwise (first index of each column's terms, their targets and pays).
    The kernel adds them modulo 2^64, so that only the result need fit in int64.

    >>> [part.tolist() for part in _by_column(np.array([[-1, 0], [-1, 0], [5, 1]]))]
    [[0, 2, 3], [2, 3, 2], [6, -1, 1]]
    """
    targets = len(pays)
    base = np.zeros(pays.shape[1], dtype=np.int64)
    for index, column in enumerate(pays.T if targets else ()):
        values, counts = np.unique(column, return_counts=True)
        base[index] = values[counts.argmax()]
    column, target = np.nonzero(pays.T != base[:, None])
    based = np.flatnonzero(base)
    columns = np.concatenate([column, based])
    order = np.argsort(columns, kind="stable")
    terms = np.concatenate([target, np.full(len(based), targets)])[order], np.concatenate([pays.T[column, target] - base[column], base[based]])[order]
    starts = np.searchsorted(columns[order], np.arange(pays.shape[1] + 1))
    return starts.astype(np.int64), terms[0].astype(np.int32), terms[1].astype(np.int64)


def _smallest_factors(known: Array, layout: Layout, factors: tuple[int, ...]) -> int:
    """The least value any of ``factors`` takes on any shoe of ``known`` (1 when there is none)."""
    source, offset = layout
    chosen = np.asarray(factors, dtype=np.int64)
    if not len(chosen) or not len(known):
        return 1
    columns, place = np.unique(source[chosen], return_inverse=True)
    least = known[:, columns].min(axis=0)
    return int((least[place.ravel()] - offset[chosen]).min())


def _compiled(entries: Entries, known: Array, layout: Layout, bound: int, floats: bool, pays: Pays | None, shared: tuple[int, ...] = ()) -> Array:
    assert _kernel is not None
    source, offset = layout
    if len(source) < entries.factor_width:
        raise ValueError(f"factor vectors of width {len(source)} for entries that index {entries.factor_width}")
    known = np.ascontiguousarray(known, dtype=np.int64)
    shape = (len(known), entries.targets)
    if len(known) >= BLOCKED_FROM and bound < INT64_BOUND:
        plan = entries.plan(shared if _smallest_factors(known, layout, shared) >= 1 else ())
        used, floating, integral = plan.used, plan.floating, plan.integral
        mode = 0 if bound < FLOAT_EXACT else 1
        if pays is not None and pays.dense.shape[0] != entries.targets:
            raise ValueError(f"pays for {pays.dense.shape[0]} targets, not {entries.targets}")
        paying = pays.by_column if pays is not None else (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64))
        sums = np.empty((len(known), pays.dense.shape[1]) if pays is not None else shape, dtype=np.float64 if mode == 0 and pays is None else np.int64)
        _kernel.weigh_blocks(*plan.arrays, floating if mode == 0 else integral, known, np.ascontiguousarray(source[used], dtype=np.int64),
                             np.ascontiguousarray(offset[used], dtype=np.int64), *paying, sums, entries.targets, mode, VARIANTS.index(variant()),
                             plan.layer_start, plan.layer_factor, plan.slot_layer, plan.slot_target)
        blocked: Array = sums.astype(np.int64) if sums.dtype == np.float64 and not floats else sums
        return blocked
    if pays is not None:
        paid: Array = _compiled(entries, known, layout, bound, False, None) @ pays.dense
        return paid
    factors, starts, targets, weights = entries.by_multiset
    vectors = np.ascontiguousarray(known[:, source] - offset, dtype=np.int64)
    weights = np.ascontiguousarray(weights, dtype=np.int64)
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


PRIME_LIMIT = 2**31
"""The shoe studies' residues: modulo primes below this, so that a sum of two fits in 32 bits."""


def shifted_add(target: Array, source: Array, steps: tuple[int, ...], prime: int) -> None:
    """``target[i + steps] = (target[i + steps] + source[i]) % prime`` for every index i whose shifted
    index lies within the shape (a multiset of cards plus more, in the layers of
    :mod:`exact_odds.studies.shoe_layers`): uint32 residues below ``prime`` < 2^31, one C-contiguous
    shape. The compiled kernel walks the rows itself; the numpy path slices (identical results).

    >>> target, source = np.array([[1, 2], [3, 4]], dtype=np.uint32), np.array([[5, 6], [7, 1]], dtype=np.uint32)
    >>> shifted_add(target, source, (1, 0), 7)
    >>> target.tolist()
    [[1, 2], [1, 3]]
    """
    if any(step >= size for step, size in zip(steps, target.shape)):
        return
    if compiled():
        _kernel.shifted_add(target, source, steps, prime)
        return
    into = target[tuple(slice(step, None) for step in steps)]
    np.add(into, source[tuple(slice(0, size - step) for step, size in zip(steps, target.shape))], out=into)
    np.minimum(into, into - np.uint32(prime), out=into)  # below the prime unchanged (the difference wraps past 2^32)
