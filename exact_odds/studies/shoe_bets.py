"""The bets of a shoe study as the batch kernel weighs them: each one's exact expectation on many
shoes as a numerator over a known denominator, and the best of them over a common one.

Bet b's expectation on a shoe of n cards is ``numerator / (scales[b] * falling(n, depths[b]))``
(:class:`~exact_odds.engine.batch.BatchExpectations`). To take the best of several bets exactly,
each numerator is brought over ``common * falling(n, deepest)``: the scales' least common multiple
and the deepest draw.
"""

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bets.bets import Bet
from ..core.features import Array
from ..core.policy import Decisions
from ..engine.distribution import INT64_SAFE, falling


@dataclass(frozen=True)
class BetsShape:
    """Each bet's denominator scale and cards drawn, their common scale and deepest draw, and a
    whole number at least every net pay."""

    scales: tuple[int, ...]
    depths: tuple[int, ...]
    common: int
    deepest: int
    largest: int

    @classmethod
    def of(cls, bets: tuple[Bet, ...], decisions: Decisions, counts: Any) -> "BetsShape":
        """The shape of ``bets`` as the batch kernel weighs them on a shoe of ``counts`` (13 per rank or 52 per card)."""
        from ..engine.batch import batch_expectations

        if not bets:
            return cls((), (), 1, 0, 0)
        batch = batch_expectations([list(counts)], list(bets), decisions)
        largest = max(abs(payout.net) for bet in bets for payout in bet.payouts)
        return cls(batch.scales, batch.depths, math.lcm(*batch.scales), max(batch.depths), math.ceil(largest))

    def over_common(self, numerators: Array, sizes: Array) -> Array:
        """Each shoe's numerators (shoes x bets) over the common denominator of a shoe of ``sizes``
        cards: int64 where every product fits, else Python integers.

        >>> shape = BetsShape((20, 1), (6, 6), 20, 6, 1)
        >>> shape.over_common(np.array([[-3, 2]]), np.array([10])).tolist()
        [[-3, 40]]
        """
        distinct, place = np.unique(np.asarray(sizes), return_inverse=True)
        factors = [[self.common // scale * falling(int(size) - depth, self.deepest - depth) for scale, depth in zip(self.scales, self.depths)]
                   for size in distinct.tolist()]
        largest = max((max(row) for row in factors), default=1)
        wide = numerators.dtype == object or int(np.abs(numerators).max(initial=0)) * largest >= INT64_SAFE
        kind: Any = object if wide else np.int64
        table = np.array(factors, dtype=kind).reshape(len(distinct), len(self.scales))
        common: Array = numerators.astype(kind) * table[place.reshape(-1)]
        return common


def ranks_of(values: Array) -> Array:
    """Counts per point value (shoes x 10) as counts per rank (shoes x 13): a ten-valued card as a ten.

    >>> ranks_of(np.array([[4, 1, 0, 0, 0, 0, 0, 0, 0, 2]])).tolist()
    [[1, 0, 0, 0, 0, 0, 0, 0, 2, 4, 0, 0, 0]]
    """
    ranks = np.zeros((len(values), 13), dtype=np.int64)
    ranks[:, :9] = values[:, 1:]
    ranks[:, 9] = values[:, 0]
    return ranks
