"""Events: the classes of rows of a compiled table that a set of bets settles alike.

An event is a distinct combination of the pay-table line each bet settles on (and, when asked, of
the winner). The 42 coup bets of the catalog separate 84 events among the 3,394 rows of the coup
table, so a shoe's counts of the events (the table's entries regrouped by event, weighed by
:mod:`exact_odds.engine.kernel`) are all those bets need: the batch path weighs them for many shoes, and
the single-shoe evaluator (:mod:`exact_odds.engine.compiled`) returns them as a distribution whose rows are the
events.
"""

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..bets.bets import Bet, settlement
from .distribution import FLOAT_EXACT
from ..core.features import Array, Columns
from .kernel import Entries
from .tables import Table


@dataclass(frozen=True, eq=False)
class EventBasis:
    """The events a set of bets separates on one table: each event's pay-table line for every bet
    (then the winner, when asked), the table's columns at a row that stands for each event, and
    the table's entries regrouped by event. (It refers to no table: kept with one, it leaves no
    cycle that would outlive it.)"""

    bets: tuple[Bet, ...]
    lines: Array  # (events, bets [+ 1])
    columns: Columns
    entries: Entries
    settlements: dict[Any, tuple[object, Array]] = field(default_factory=dict, repr=False)


def event_basis(table: Table, bets: tuple[Bet, ...], winner: bool = False) -> EventBasis:
    """Group the table's rows by the line every bet settles them on (and by the winner)."""
    lines = [settlement(bet, table.columns, table.settlements) for bet in bets] + ([table.columns["winner"]] if winner else [])
    events, representatives, row_event = np.unique(np.stack(lines, axis=1), axis=0, return_index=True, return_inverse=True)
    keys, weight = _merged(row_event.ravel()[table.entry_row] * len(table.multisets) + table.entry_multiset, table.entry_weight,
                           len(events) * len(table.multisets))
    event, multiset = np.divmod(keys, len(table.multisets))
    columns = Columns({name: column[representatives] for name, column in table.columns.items()}, table.columns.levels)
    basis = EventBasis(bets, events, columns, Entries(table.factors, multiset, event, weight, len(events)))
    basis.settlements.update({bet: (bet, np.ascontiguousarray(events[:, position])) for position, bet in enumerate(bets)})
    return basis


DENSE_KEYS = 1 << 24
"""Entries are merged by a count over every possible key up to this many keys, else by sorting."""


def _merged(keys: Array, weights: Array, possible: int) -> tuple[Array, Array]:
    """The distinct ``keys`` in order and the sum of the ``weights`` of each, exactly.

    >>> [array.tolist() for array in _merged(np.array([5, 2, 5]), np.array([1, 7, 3]), 8)]
    [[2, 5], [7, 4]]
    """
    if possible <= DENSE_KEYS and weights.dtype != object and int(weights.sum()) < FLOAT_EXACT:
        sums = np.bincount(keys, weights, minlength=possible)  # float64, exact: every sum is below 2^53
        present = np.flatnonzero(sums)
        return present, sums[present].astype(weights.dtype)
    distinct, index = np.unique(keys, return_inverse=True)
    merged = np.zeros(len(distinct), dtype=weights.dtype)
    np.add.at(merged, index, weights)
    return distinct, merged


def cached_basis(table: Table, bets: tuple[Bet, ...], winner: bool = False) -> EventBasis:
    """:func:`event_basis`, kept with the table for equal bets (bets are values: the same bets
    unpickled again by a worker find it)."""
    key = (bets, winner)
    if key not in table.bases:
        table.bases[key] = event_basis(table, bets, winner)
    basis = table.bases[key]
    assert isinstance(basis, EventBasis)
    return basis
