"""A shoe dealt to the cut card, simulated: shoes by ranges of seeds, each coup's exact expectation summed.

Shoe i is shuffled and dealt exactly as ``simulate`` deals it (:func:`~exact_odds.studies.dealer.deal_shoes`,
seeded by (seed, i)). Before each coup, every bet's exact expectation given the cards seen (the
burned cards stay unseen) is weighed by the batch kernel, and the sums over the coups of those
expectations, of their positive parts and of the best bet's are what the shoe contributes: their
means over shoes estimate the exact figures without bias (a Rao-Blackwellised estimator: the
expectation given what was seen, not the result dealt), with less spread than the results.

A range of shoes gives a :class:`ShoePartial`: integer sums only (the expectations' numerators
by the number of cards left, exact; and per-shoe sums rounded to 2^-32 with their squares and
products, for the standard errors), so partials add in any order and grouping to the same bytes.
"""

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..core.features import Array
from ..engine.distribution import INT64_SAFE, falling
from .dealer import Settings, deal_shoes
from .shoe_bets import BetsShape
from .simulate import per_shoe

QUANTUM = 2**32
"""Per-shoe sums are rounded to this many parts of a unit for their moments."""


@dataclass
class ShoePartial:
    """What a range of shoes contributes (see the module docstring). Per shoe the vector u = (coups,
    each bet's sum of expectations, of their positive parts, the best bet's) rounded to 1/QUANTUM
    but the coups; ``linear`` sums u, ``squares`` u_i^2, ``products`` coups x each bet's sum."""

    shoes: int = 0
    coups: int = 0
    numerators: dict[int, list[int]] = field(default_factory=dict)
    """By cards left before a coup: each bet's expectation numerator summed, then each one's positive
    part, then the best bet's over the common denominator (see :class:`~exact_odds.studies.shoe_bets.BetsShape`)."""
    linear: list[int] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    products: list[int] = field(default_factory=list)

    def __add__(self, other: "ShoePartial") -> "ShoePartial":
        numerators = {size: list(sums) for size, sums in self.numerators.items()}
        for size, sums in other.numerators.items():
            numerators[size] = [mine + theirs for mine, theirs in zip(numerators[size], sums)] if size in numerators else list(sums)
        return ShoePartial(self.shoes + other.shoes, self.coups + other.coups, dict(sorted(numerators.items())),
                           *(_added(getattr(self, name), getattr(other, name)) for name in ("linear", "squares", "products")))


    def to_record(self) -> dict[str, object]:
        """The partial as JSON can hold it (integers only), for a runner that writes each range's
        result to a file: :meth:`from_record` reads it back equal.

        >>> partial = ShoePartial(2, 5, {30: [1, -2, 3]}, [5, 7], [13, 29], [17])
        >>> ShoePartial.from_record(partial.to_record()) == partial
        True
        """
        return {"shoes": self.shoes, "coups": self.coups, "numerators": {str(size): sums for size, sums in self.numerators.items()},
                "linear": self.linear, "squares": self.squares, "products": self.products}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "ShoePartial":
        return cls(int(record["shoes"]), int(record["coups"]), {int(size): [int(value) for value in sums] for size, sums in record["numerators"].items()},
                   *([int(value) for value in record[name]] for name in ("linear", "squares", "products")))


def _added(mine: list[int], theirs: list[int]) -> list[int]:
    return [a + b for a, b in zip(mine, theirs)] if mine and theirs else list(mine or theirs)


def merged(partials: Iterable[ShoePartial]) -> ShoePartial:
    total = ShoePartial()
    for partial in partials:
        total = total + partial
    return total


def simulate_range(settings: Settings, first: int, last: int) -> ShoePartial:
    """Shoes first..last-1 dealt as ``simulate`` deals them, every coup weighed on the cards not seen."""
    from ..engine.batch import batch_expectations

    bets = list(settings.bets)
    suited = any(bet.needs_suits for bet in bets)
    left, _, _, coups_per_shoe = deal_shoes(settings, first, last, suited, seen=True)
    shoes = last - first
    if not len(left) or not bets:
        return _partial(shoes, coups_per_shoe, {}, np.zeros((len(left), len(bets))))
    batch = batch_expectations(left, bets, settings.decisions)
    sizes = left.sum(axis=1)
    shape = BetsShape(batch.scales, batch.depths, math.lcm(*batch.scales), max(batch.depths), 0)
    numerators = batch.numerators
    best = shape.over_common(numerators, sizes)
    columns = [numerators[:, bet] for bet in range(len(bets))] + [np.maximum(numerators[:, bet], 0) for bet in range(len(bets))]
    columns.append(np.maximum(best.max(axis=1), 0))
    return _partial(shoes, coups_per_shoe, _sums_by(sizes, columns), batch.floats())


def _partial(shoes: int, coups_per_shoe: Array, numerators: dict[int, list[int]], values: Array) -> ShoePartial:
    """The partial of ``shoes`` shoes whose coups have the expectations ``values`` (coups x bets, floats)."""
    per = [coups_per_shoe.astype(np.float64)]
    for column in (values, np.maximum(values, 0)):
        per.extend(per_shoe(np.ascontiguousarray(column[:, bet]), coups_per_shoe) for bet in range(values.shape[1]))
    per.append(per_shoe(np.maximum(values.max(axis=1, initial=0), 0) if values.shape[1] else np.zeros(len(values)), coups_per_shoe))
    rounded = [coups_per_shoe.astype(object)] + [np.rint(row * QUANTUM).astype(np.int64).astype(object) for row in per[1:]]
    bets = values.shape[1]
    return ShoePartial(shoes, int(coups_per_shoe.sum()), numerators,
                       [int(row.sum()) for row in rounded], [int((row * row).sum()) for row in rounded],
                       [int((rounded[0] * rounded[1 + bet]).sum()) for bet in range(bets)])


def _sums_by(sizes: Array, columns: list[Array]) -> dict[int, list[int]]:
    """Each column summed exactly over the rows of each size (in halves of 31 bits for int64, which
    float64 sums exactly; Python integers otherwise)."""
    keys, groups = np.unique(sizes, return_inverse=True)
    sums = [[0] * len(columns) for _ in keys]
    for place, column in enumerate(columns):
        if column.dtype != object and int(np.abs(column).max(initial=0)) < INT64_SAFE:
            high, low = column >> 31, column & ((1 << 31) - 1)
            totals = np.bincount(groups, weights=high, minlength=len(keys)), np.bincount(groups, weights=low, minlength=len(keys))
            for key in range(len(keys)):
                sums[key][place] = (int(totals[0][key]) << 31) + int(totals[1][key])
        else:
            for key, value in zip(groups.tolist(), column.tolist()):
                sums[key][place] += int(value)
    return {int(size): row for size, row in zip(keys.tolist(), sums)}


@dataclass(frozen=True)
class Estimate:
    """A figure estimated from shoes: its value and standard error (floats: statistics)."""

    value: float
    standard_error: float | None
    """None over a single shoe (undefined)."""


@dataclass(frozen=True)
class SimulatedFigures:
    """The estimates of a run: the expected coups; per bet the expected sum of results over the
    shoe (through the expectations), its ratio to the coups (the hold per coup), the positive parts'
    sum (perfect play); the best bet's; the hold's standard errors as the cut-card effect's."""

    coups: Estimate
    results: tuple[Estimate, ...]
    hold: tuple[Estimate, ...]
    perfect: tuple[Estimate, ...]
    best: Estimate


def estimates(partial: ShoePartial, shape: BetsShape) -> SimulatedFigures:
    """The figures of the shoes summed in ``partial``: exact means of the integer sums, standard
    errors from the per-shoe moments (a ratio's by the delta method on the paired per-shoe sums)."""
    bets = len(shape.scales)
    shoes = partial.shoes
    exact = [Fraction(0)] * (2 * bets + 1)
    for size, sums in partial.numerators.items():
        for place, total in enumerate(sums):
            scale, depth = (shape.common, shape.deepest) if place == 2 * bets else (shape.scales[place % bets], shape.depths[place % bets])
            exact[place] += Fraction(total, scale * falling(size, depth))
    means = [Fraction(partial.coups, shoes)] + [total / shoes for total in exact]

    def spread(index: int) -> Fraction:
        """The sample variance of u_index over shoes (in units of 1/QUANTUM^2 but the coups')."""
        return (Fraction(partial.squares[index]) - Fraction(partial.linear[index]) ** 2 / shoes) / (shoes - 1)

    def error(variance: Fraction, unit: int) -> float | None:
        return float(max(variance, Fraction(0)) / shoes) ** 0.5 / unit if shoes > 1 else None

    def mean(index: int) -> Estimate:
        return Estimate(float(means[index]), error(spread(index), 1 if index == 0 else QUANTUM) if shoes > 1 else None)

    holds = []
    for bet in range(bets):
        ratio = exact[bet] / partial.coups if partial.coups else Fraction(0)
        if shoes > 1 and partial.coups:
            quantum_ratio = ratio * QUANTUM  # the per-shoe sums are in units of 1/QUANTUM, the coups in units
            index = 1 + bet
            variance = (Fraction(partial.squares[index]) - 2 * quantum_ratio * partial.products[bet] + quantum_ratio**2 * partial.squares[0]
                        - (Fraction(partial.linear[index]) - quantum_ratio * partial.linear[0]) ** 2 / shoes) / (shoes - 1)
            holds.append(Estimate(float(ratio), float(max(variance, Fraction(0)) / shoes) ** 0.5 / QUANTUM / float(means[0])))
        else:
            holds.append(Estimate(float(ratio), None))
    return SimulatedFigures(mean(0), tuple(mean(1 + bet) for bet in range(bets)), tuple(holds),
                            tuple(mean(1 + bets + bet) for bet in range(bets)), mean(1 + 2 * bets))


def chunk_ranges(shoes: int, size: int) -> list[tuple[int, int]]:
    """Shoes 0..shoes-1 in ranges of ``size`` (the last one shorter)."""
    return [(first, min(first + size, shoes)) for first in range(0, shoes, size)]
