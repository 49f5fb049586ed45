"""Exact quantiles of a bet's EV over compositions too many to hold: located pass by pass.

The q-quantile is the EV of the composition at which the weight of the compositions at or below
it first reaches q of the total: the least numerator a with W(a' <= a) >= q W. A pass over every
composition sums the exact weight in each bucket (t[i-1], t[i]] of a grid of thresholds, so the
bucket that holds each level is known exactly, with the weight below it. The first grid is drawn
from a sample of compositions (:func:`pilot_grids`: thresholds at the sample's values near each
level); then, pass after pass, a bucket that still holds many compositions gets a finer grid of
its own (:data:`SUBGRID` thresholds evenly apart), and one that holds few (at most
:data:`COLLECT`) has its compositions collected, sorted and counted up to the level. A bucket that
holds one numerator is its answer. Each pass walks only the ranges whose numerators reach a bucket
still open.

>>> level = Level(0, Fraction(1, 2), low=-5, high=7, below=3, weight=4, count=2)
>>> settle(level, [(7, 1), (2, 3)], total=10)  # weight 3 below, then 3 at a = 2: 6 >= 5
>>> level.value
2
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, sqrt

import numpy as np

from ..core.features import Array
from ..engine.batch import integers

PILOT = 4096
"""Compositions drawn (by their weights) to place the first grid's thresholds."""
PILOT_SEED = 31
SPREAD = 6
"""The first grid covers each level's sample quantile this many standard errors either side."""
COLLECT = 1 << 14
"""A bucket of at most this many compositions has them collected; a larger one is refined."""
SUBGRID = 1024
"""Thresholds of a refined bucket's grid."""


@dataclass
class Level:
    """One quantile of one bet, being located: its numerator lies in (low, high], where the weight
    is ``weight`` (``count`` compositions) and below which the weight is ``below``."""

    bet: int
    level: Fraction
    low: int = 0
    high: int = 0
    below: int = 0
    weight: int = 0
    count: int = 0
    value: int | None = None
    """The quantile's numerator, once found."""

    @property
    def bracket(self) -> tuple[int, int]:
        return self.low, self.high


def pilot_grids(values: Array, levels: Sequence[Fraction]) -> tuple[Array, ...]:
    """Per bet (a column of ``values``, the numerators of :data:`PILOT` compositions drawn by
    weight), the sorted distinct sample values within :data:`SPREAD` standard errors of each level."""
    grids = []
    size = len(values)
    for column in np.sort(values, axis=0).T:
        chosen = []
        for level in levels:
            spread = SPREAD * sqrt(size * float(level) * (1 - float(level))) + 2
            first, last = max(0, int(size * float(level) - spread)), min(size, int(ceil(size * float(level) + spread)) + 1)
            chosen.append(column[first:last])
        grids.append(integers(np.unique(np.concatenate(chosen)).tolist()) if chosen else np.zeros(0, dtype=np.int64))
    return tuple(grids)


def locate(levels: Sequence[Level], thresholds: Array, weights: Sequence[int], counts: Sequence[int], start: int, total: int,
           low: int, high: int) -> None:
    """Each level's bucket among ``thresholds`` (bucket i: (t[i-1], t[i]]; bucket 0 from ``low``,
    the last to ``high``), from its exact ``weights`` and ``counts``, the weight below the first
    bucket being ``start``: the level's new bracket (or its value, when the bucket holds one numerator)."""
    cumulative = start
    bounds = [low] + [int(t) for t in thresholds] + [high]
    pending = sorted(levels, key=lambda level: level.level)
    place = 0
    for index, weight in enumerate(weights):
        before = cumulative
        cumulative += weight
        while place < len(pending) and _reached(cumulative, pending[place].level, total):
            level = pending[place]
            level.low, level.high = max(bounds[index], low), min(bounds[index + 1], high)
            level.below, level.weight, level.count = before, weight, counts[index]
            if level.high - level.low == 1:
                level.value = level.high
            place += 1
    if place < len(pending):
        raise RuntimeError(f"depth: the weights of the buckets add up to {cumulative - start}, short of level {pending[place].level}")


def _reached(weight: int, level: Fraction, total: int) -> bool:
    """Whether ``weight`` is at least ``level`` of ``total``."""
    return weight * level.denominator >= level.numerator * total


def refinement(level: Level) -> Array:
    """The thresholds of a bucket's finer grid: its bounds and :data:`SUBGRID` - 1 evenly apart."""
    width = level.high - level.low
    inner = sorted({level.low + -(-step * width // SUBGRID) for step in range(1, SUBGRID)} - {level.high})
    return integers([level.low, *inner, level.high])


def settle(level: Level, collected: Sequence[tuple[int, int]], total: int) -> None:
    """The level's value from the compositions collected in its bracket, (numerator, weight) each:
    they must hold the bracket's weight, and the level is reached within them."""
    inside = sorted((value, weight) for value, weight in collected if level.low < value <= level.high)
    if len(inside) != level.count or sum(weight for _, weight in inside) != level.weight:
        raise RuntimeError(f"depth: {len(inside)} compositions collected in ({level.low}, {level.high}], not {level.count}")
    cumulative = level.below
    for value, weight in inside:
        cumulative += weight
        if _reached(cumulative, level.level, total):
            level.value = value
            return
    raise RuntimeError(f"depth: level {level.level} is not reached in its bracket")


def open_work(levels: Sequence[Level], bets: int) -> tuple[tuple[Array, ...], tuple[Array, ...]] | None:
    """The next pass's grids and brackets per bet for the levels not yet found (None: all found)."""
    grids: list[set[int]] = [set() for _ in range(bets)]
    brackets: list[set[tuple[int, int]]] = [set() for _ in range(bets)]
    for level in levels:
        if level.value is not None:
            continue
        if level.count <= COLLECT:
            brackets[level.bet].add(level.bracket)
        else:
            grids[level.bet].update(refinement(level).tolist())
    if not any(grids) and not any(brackets):
        return None
    return (tuple(integers(sorted(grid)) for grid in grids),
            tuple(integers([bound for pair in sorted(bracket) for bound in pair]).reshape(-1, 2) for bracket in brackets))


def refine(levels: Sequence[Level], grids: Sequence[Array], bucket_weights: Sequence[Sequence[int]], bucket_counts: Sequence[Sequence[int]],
           collected: Sequence[Sequence[tuple[int, int]]], total: int) -> None:
    """Each open level after a pass with ``grids`` (its bucket sums) and brackets (``collected``)."""
    for level in levels:
        if level.value is not None:
            continue
        if level.count <= COLLECT:
            settle(level, collected[level.bet], total)
            continue
        grid = grids[level.bet].tolist()
        first, last = grid.index(level.low), grid.index(level.high)
        weights = bucket_weights[level.bet][first + 1 : last + 1]
        if sum(weights) != level.weight:
            raise RuntimeError(f"depth: the finer buckets of ({level.low}, {level.high}] weigh {sum(weights)}, not {level.weight}")
        locate([level], integers(grid[first + 1 : last]), weights, bucket_counts[level.bet][first + 1 : last + 1], level.below,
               total, level.low, level.high)


def reaches(levels: Sequence[Level], lowest: Sequence[int], highest: Sequence[int]) -> bool:
    """Whether a range whose numerators lie within [lowest[b], highest[b]] reaches an open level's bracket."""
    return any(level.value is None and lowest[level.bet] <= level.high and highest[level.bet] > level.low for level in levels)
