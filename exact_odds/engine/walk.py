"""Weighing a range of compositions: exact sums over the compositions of n cards of the weights
and expectations of several bets (what :mod:`exact_odds.studies.depth` needs, range by range).

For the compositions of ranks start .. stop - 1 (:class:`~exact_odds.engine.compositions.Compositions`),
each of weight w (its n-subsets of the shoe) and with numerators a_b (the bets' expectations times
their denominators), :func:`walk` gives exactly: the total weight; per bet the weight where a_b > 0,
the sums of w a_b there and everywhere; the weight where the best bet is positive and, per bet, the
sum of w a_b where it is that best bet; per bet the least and largest a_b; the weight and number of
compositions in each bucket of a grid of thresholds (bucket i holds t[i-1] < a <= t[i]); and each
composition whose a_b lies in a bracket (lo, hi], with its weight. A walk that is not summing
gives only the buckets and brackets (a later pass of a study).

Two paths give the same sums: the compiled walker (``exact_odds.engine._walk``, a C extension
built with the kernel) evaluates each bet's polynomial (:mod:`exact_odds.engine.polynomial`) as
it walks the compositions class by class, at tens of nanoseconds a composition, in 64- and 128-bit
integers and many-word weights within bounds checked here; the reference path weighs each
composition with the batch path (:mod:`exact_odds.engine.batch`) and sums in Python integers. The
reference runs where the compiled walker is not built (or ``EXACT_ODDS_KERNEL=numpy``) and beyond
its bounds; the tests hold the two equal.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from math import comb
from typing import Any

import numpy as np

from ..bets.bets import Bet
from ..core.features import Array
from ..core.policy import Decisions
from .compositions import Compositions
from .kernel import setting
from .polynomial import coefficient_bound, multi_indices, transitions

try:
    from . import _walk  # type: ignore[attr-defined]  # the C extension, built by setup.py when a compiler is present
except ImportError:  # no compiler at install time: the reference path
    _walk = None

REFERENCE_BLOCK = 4096
"""The reference path weighs this many compositions at a time."""
MAX_WORDS = 16
"""The compiled walker keeps weights in at most this many 64-bit words (sums in two more)."""
MAX_BETS = 64
MAX_FREE = 16
MAX_DEGREE = 8


@dataclass(frozen=True, eq=False)
class Walk:
    """What to weigh over a range of the compositions of n cards: the bets (and the polynomials of
    their numerators), and per bet a grid of thresholds and brackets to collect in."""

    compositions: Compositions
    bets: tuple[Bet, ...]
    decisions: Decisions
    coefficients: Array
    """(terms x bets) int64: each bet's numerator in the binomial basis of the free counts."""
    degree: int
    multipliers: tuple[int, ...]
    denominator: int
    """Each bet's numerator times its multiplier, over this common denominator, is its expectation."""
    grids: tuple[Array, ...] = ()
    """Per bet, sorted int64 thresholds (empty: no buckets)."""
    brackets: tuple[Array, ...] = ()
    """Per bet, (k x 2) int64 brackets (lo, hi], sorted and apart: the compositions to collect."""
    summing: bool = True
    """False: the buckets and brackets only (the sums, best and extremes are left at zero)."""
    bounded: bool = False
    """True: numerators at or below a grid's first threshold, or above its last, fall in no bucket."""

    def __post_init__(self) -> None:
        empty = tuple(np.zeros(0, dtype=np.int64) for _ in self.bets)
        if not self.grids:
            object.__setattr__(self, "grids", empty)
        if not self.brackets:
            object.__setattr__(self, "brackets", tuple(np.zeros((0, 2), dtype=np.int64) for _ in self.bets))

    def given(self, grids: tuple[Array, ...], brackets: tuple[Array, ...], summing: bool = True, bounded: bool = False) -> "Walk":
        """This walk with other grids and brackets (what it has worked out kept)."""
        other = replace(self, grids=grids, brackets=brackets, summing=summing, bounded=bounded)
        other.__dict__.update({name: self.__dict__[name] for name in ("words", "compiled") if name in self.__dict__})
        return other

    @cached_property
    def words(self) -> int:
        """64-bit words that hold every weight and binomial of the walk."""
        shoe = self.compositions
        largest = max([shoe.total_weight] + [comb(count, min(shoe.cards, count // 2)) for count in shoe.counts])
        return (largest.bit_length() + 64) // 64

    @cached_property
    def compiled(self) -> bool:
        """Whether the compiled walker takes this walk: it is built and chosen, and every product
        and sum stays within its integers (else the reference path, exact at any size)."""
        shoe = self.compositions
        if _walk is None or setting() == "numpy" or shoe.free < 1 or len(self.bets) > MAX_BETS or shoe.free > MAX_FREE:
            return False
        largest = tuple(min(count, shoe.cards) for count in shoe.counts)
        if (self.degree > MAX_DEGREE or self.words + 2 > MAX_WORDS or self.coefficients.dtype != np.int64
                or comb(max(largest), self.degree) >= 2**62 or not all(grid.dtype == np.int64 for grid in (*self.grids, *self.brackets))):
            return False
        values = coefficient_bound(self.coefficients, largest[:-1])
        line = _largest_binomial(shoe.counts[-2], largest[-2]) * _largest_binomial(shoe.counts[-1], largest[-1])
        factor = _largest_binomial(shoe.counts[-3], largest[-3]) if shoe.free > 1 else 1
        lines = largest[-3] + 1 if shoe.free > 1 else 1
        sums = (largest[-2] + 1) * line * values
        return (values < 2**62 and line < 2**64 and sums < 2**126 and values * max(self.multipliers) < 2**125 and factor < 2**64
                and line * (largest[-2] + 1) * factor * lines < 2**127 and sums * factor * lines < 2**254)


def _largest_binomial(count: int, most: int) -> int:
    """The largest C(count, x) for x <= most."""
    return comb(count, min(most, count // 2))


@dataclass
class RangeSums:
    """The exact sums :func:`walk` gives for a range of compositions (see the module docstring)."""

    compositions: int
    weight: int
    best_positive: int
    positive: list[int]
    positive_sum: list[int]
    value_sum: list[int]
    best_sum: list[int]
    lowest: list[int]
    highest: list[int]
    bucket_weights: list[list[int]]
    bucket_counts: list[list[int]]
    collected: list[list[tuple[int, int]]] = field(default_factory=list)
    """Per bet, (a, weight) of each composition in a bracket, in walk order."""

    @classmethod
    def empty(cls, buckets: Sequence[int]) -> "RangeSums":
        """No composition yet, for ``len(buckets)`` bets with that many buckets each."""
        bets = len(buckets)
        return cls(0, 0, 0, [0] * bets, [0] * bets, [0] * bets, [0] * bets, [0] * bets, [0] * bets,
                   [[0] * size for size in buckets], [[0] * size for size in buckets], [[] for _ in range(bets)])

    def to_record(self) -> dict[str, Any]:
        """As JSON-ready data (integers and lists; the buckets that hold compositions only)."""
        record: dict[str, Any] = {name: getattr(self, name) for name in SUMMED + EXTREMES}
        record["buckets"] = [[[index, count, weight] for index, (count, weight) in enumerate(zip(counts, weights)) if count]
                             for counts, weights in zip(self.bucket_counts, self.bucket_weights)]
        record["collected"] = [[list(entry) for entry in entries] for entries in self.collected]
        return record

    def add(self, record: dict[str, Any]) -> None:
        """Another range's sums (a :meth:`to_record`) into these; its extremes widen these (when
        these hold no composition yet, they are its)."""
        first = not self.compositions
        for name in SUMMED:
            mine, theirs = getattr(self, name), record[name]
            if isinstance(mine, list):
                setattr(self, name, [a + b for a, b in zip(mine, theirs)])
            else:
                setattr(self, name, mine + theirs)
        self.lowest = record["lowest"] if first else [min(a, b) for a, b in zip(self.lowest, record["lowest"])]
        self.highest = record["highest"] if first else [max(a, b) for a, b in zip(self.highest, record["highest"])]
        for bet, entries in enumerate(record["buckets"]):
            for index, count, weight in entries:
                self.bucket_counts[bet][index] += count
                self.bucket_weights[bet][index] += weight
        for bet, entries in enumerate(record["collected"]):
            self.collected[bet].extend((value, weight) for value, weight in entries)


SUMMED = ("compositions", "weight", "best_positive", "positive", "positive_sum", "value_sum", "best_sum")
EXTREMES = ("lowest", "highest")


def walk(plan: Walk, start: int, stop: int) -> RangeSums:
    """The sums over the compositions of ranks start .. stop - 1 (``stop > start``)."""
    if not 0 <= start < stop <= plan.compositions.count:
        raise ValueError(f"ranks {start} .. {stop} are not a range of the {plan.compositions.count} compositions")
    return _compiled(plan, start, stop) if plan.compiled else reference(plan, start, stop)


def _words(values: Sequence[int], width: int) -> Array:
    """Non-negative integers as rows of ``width`` little-endian 64-bit words."""
    return np.frombuffer(b"".join(value.to_bytes(8 * width, "little") for value in values), dtype=np.uint64).reshape(len(values), width)


def _integers(words: Array) -> list[int]:
    """Rows of little-endian 64-bit words as signed (two's complement) integers."""
    return [int.from_bytes(row.tobytes(), "little", signed=True) for row in words]


def _compiled(plan: Walk, start: int, stop: int) -> RangeSums:
    assert _walk is not None
    shoe, bets = plan.compositions, len(plan.bets)
    words, largest = plan.words, min(max(shoe.counts), shoe.cards)
    maps, map_starts = transitions(shoe.free, plan.degree)
    binomials = np.array([[comb(x, d) for d in range(plan.degree + 1)] for x in range(largest + 1)], dtype=np.int64)
    weights = np.stack([_words([comb(count, x) if x <= count else 0 for x in range(largest + 1)], words) for count in shoe.counts])
    grids = np.concatenate(plan.grids).astype(np.int64) if bets else np.zeros(0, dtype=np.int64)
    grid_starts = np.cumsum([0] + [len(grid) for grid in plan.grids]).astype(np.int64)
    brackets = np.concatenate(plan.brackets).astype(np.int64).reshape(-1, 2)
    bracket_starts = np.cumsum([0] + [len(bracket) for bracket in plan.brackets]).astype(np.int64)
    bucket_weights = np.zeros((len(grids) + bets, words + 1), dtype=np.uint64)
    bucket_counts = np.zeros(len(grids) + bets, dtype=np.int64)
    sums = np.zeros((2 + 4 * bets, words + 2), dtype=np.uint64)
    extremes = np.zeros((bets, 2), dtype=np.int64)
    assert len(plan.coefficients) == len(multi_indices(shoe.free, plan.degree))
    collected = _walk.walk(np.array(shoe.counts, dtype=np.int64), np.array(shoe.unrank(start), dtype=np.int64), stop - start, shoe.cards,
                           plan.degree, bets, np.ascontiguousarray(plan.coefficients, dtype=np.int64), maps, map_starts, binomials,
                           np.ascontiguousarray(weights), words, np.array(plan.multipliers, dtype=np.int64), grids, grid_starts,
                           bucket_weights, bucket_counts, np.ascontiguousarray(brackets), bracket_starts, sums, extremes, plan.summing, plan.bounded)
    totals = _integers(sums)
    split = np.split(np.arange(len(grids) + bets), (grid_starts[1:-1] + np.arange(1, bets)).tolist()) if bets else []
    bucket_sums = _integers(bucket_weights)
    records = np.frombuffer(collected, dtype=np.int64).reshape(-1, 2 + words)
    gathered: list[list[tuple[int, int]]] = [[] for _ in range(bets)]
    for record, weight in zip(records[:, :2].tolist(), _integers(records[:, 2:].view(np.uint64)) if len(records) else []):
        gathered[record[0]].append((record[1], weight))
    return RangeSums(
        compositions=stop - start, weight=totals[0], best_positive=totals[1], positive=totals[2 : 2 + bets],
        positive_sum=totals[2 + bets : 2 + 2 * bets], value_sum=totals[2 + 2 * bets : 2 + 3 * bets], best_sum=totals[2 + 3 * bets :],
        lowest=extremes[:, 0].tolist(), highest=extremes[:, 1].tolist(),
        bucket_weights=[[bucket_sums[index] for index in part] for part in split],
        bucket_counts=[bucket_counts[part].tolist() for part in split], collected=gathered)


def reference(plan: Walk, start: int, stop: int) -> RangeSums:
    """The sums by their definition: each composition weighed by the batch path, in Python integers."""
    from .batch import batch_expectations

    shoe = plan.compositions
    sums = RangeSums.empty([len(grid) + 1 for grid in plan.grids])
    sums.compositions = stop - start
    seen = False
    for first in range(start, stop, REFERENCE_BLOCK):
        block = list(shoe.walk(first, min(first + REFERENCE_BLOCK, stop)))
        numerators = batch_expectations([shoe.rank_counts(free) for free in block], list(plan.bets), plan.decisions).numerators
        for free, row in zip(block, numerators.tolist()):
            weight = shoe.weight(free)
            for bet, value in enumerate(row):
                _place(sums, plan, bet, int(value), weight)
            if plan.summing:
                _sum(sums, plan, [int(value) for value in row], weight, seen)
            seen = True
    return sums


def _sum(sums: RangeSums, plan: Walk, values: list[int], weight: int, seen: bool) -> None:
    """One composition's numerators into the sums, the best bet and the extremes."""
    sums.weight += weight
    best, best_bet = 0, -1
    for bet, value in enumerate(values):
        sums.value_sum[bet] += weight * value
        if value > 0:
            sums.positive[bet] += weight
            sums.positive_sum[bet] += weight * value
        sums.lowest[bet] = min(sums.lowest[bet], value) if seen else value
        sums.highest[bet] = max(sums.highest[bet], value) if seen else value
        if value * plan.multipliers[bet] > best:
            best, best_bet = value * plan.multipliers[bet], bet
    if best_bet >= 0:
        sums.best_positive += weight
        sums.best_sum[best_bet] += weight * values[best_bet]


def _place(sums: RangeSums, plan: Walk, bet: int, value: int, weight: int) -> None:
    """One composition's numerator of a bet into its bucket, and among the collected if in a bracket."""
    grid = plan.grids[bet]
    if len(grid) and not (plan.bounded and not grid[0] < value <= grid[-1]):
        bucket = int(np.searchsorted(grid, value, side="left"))
        sums.bucket_weights[bet][bucket] += weight
        sums.bucket_counts[bet][bucket] += 1
    brackets = plan.brackets[bet]
    if len(brackets) and bool(((brackets[:, 0] < value) & (value <= brackets[:, 1])).any()):
        sums.collected[bet].append((value, weight))
