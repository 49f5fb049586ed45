"""Events: the classes of rows of a compiled table that a set of bets settles alike.

An event is a distinct combination of the pay-table line each bet settles on (and, when asked, of
the winner). The 42 coup bets of the catalog separate 84 events among the 3,394 rows of the coup
table, so a shoe's counts of the events (the table's entries regrouped by event, weighed by
:mod:`exact_odds.engine.kernel`) are all those bets need: the batch path weighs them for many shoes, and
the single-shoe evaluator (:mod:`exact_odds.engine.compiled`) returns them as a distribution whose rows are the
events.
"""

from math import comb
from typing import Any

import numpy as np

from ..bets.bets import Bet, settlement
from ..core.features import Array, Columns
from ..core.values import Frozen
from .distribution import sums_at, sums_by_key
from .kernel import INT64_BOUND, Entries, weigh
from .tables import ABSENT, MAX_CARDS, Table, factor_indices, pack, sorted_ids, unpack


class EventBasis(Frozen):
    """The events a set of bets separates on one table: each event's pay-table line for every bet
    (then the winner, when asked) in ``lines`` (events, bets [+ 1]), the table's ``columns`` at a row
    that stands for each event (``representatives``, (events,)), each table row's event
    (``row_event``), and the table's ``entries`` regrouped by event; each bet's ``settlements`` of the
    events, and what the batch path derives from the basis once (``kept``: its pays). (It refers to
    no table: kept with one, it leaves no cycle that would outlive it.)"""

    __slots__ = ("bets", "lines", "columns", "entries", "row_event", "representatives", "settlements", "kept")
    bets: tuple[Bet, ...]
    lines: Array
    columns: Columns
    entries: Entries
    row_event: Array
    representatives: Array
    settlements: dict[Any, tuple[object, Array]]
    kept: dict[str, object]

    def __init__(self, bets: tuple[Bet, ...], lines: Array, columns: Columns, entries: Entries, row_event: Array, representatives: Array) -> None:
        self._set(bets, lines, columns, entries, row_event, representatives, {}, {})


def event_basis(table: Table, bets: tuple[Bet, ...], winner: bool = False) -> EventBasis:
    """Group the table's rows by the line every bet settles them on (and by the winner), and merge
    the classes of each point value where the events do not tell them apart (:func:`coarsened`)."""
    lines = [settlement(bet, table.columns, table.settlements) for bet in bets] + ([table.columns["winner"]] if winner else [])
    events, representatives, row_event = _distinct_rows(np.stack(lines, axis=1))
    keys, weight = sums_by_key(row_event.ravel()[table.entry_row] * len(table.multisets) + table.entry_multiset, table.entry_weight,
                           len(events) * len(table.multisets))
    event, multiset = np.divmod(keys, len(table.multisets))
    return _basis(table, bets, events, coarsened(table, Entries(table.factors, multiset, event, weight, len(events))), row_event.ravel(), representatives)


def _basis(table: Table, bets: tuple[Bet, ...], lines: Array, entries: Entries, row_event: Array, representatives: Array) -> EventBasis:
    columns = Columns({name: column[representatives] for name, column in table.columns.items()}, table.columns.levels)
    basis = EventBasis(bets, lines, columns, entries, row_event, representatives)
    basis.settlements.update({bet: (bet, np.ascontiguousarray(lines[:, position])) for position, bet in enumerate(bets)})
    return basis


def _distinct_rows(rows: Array) -> tuple[Array, Array, Array]:
    """``np.unique(rows, axis=0, return_index=True, return_inverse=True)``, by one sort of integers
    where the rows are small counts from 0 that fit one (in the same order: the first column first).

    >>> [part.tolist() for part in _distinct_rows(np.array([[1, 0], [0, 2], [1, 0]]))]
    [[[0, 2], [1, 0]], [1, 0], [1, 0, 1]]
    """
    radices = rows.max(axis=0, initial=0) + 1 if rows.size else np.ones(rows.shape[1], dtype=np.int64)
    if rows.dtype.kind not in "iu" or (rows.size and rows.min() < 0) or float(np.prod(radices.astype(np.float64))) >= 2**62:
        found: tuple[Array, Array, Array] = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        return found[0], found[1], found[2].ravel()
    code = np.zeros(len(rows), dtype=np.int64)
    for column, radix in zip(rows.T, radices.tolist()):
        code = code * radix + column
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    return rows[first], first, inverse.ravel()


def coarsened(table: Table, entries: Entries) -> Entries:
    """The same counts with fewer entries: for each point value, the entries of an event whose
    multisets differ only in how t cards of that value fall in its classes (every way present), with
    weights that are one weight times the ways to arrange those classes (t! / prod t_j!), become one
    entry on t unrefined cards of that value, of that one weight. Exact by Vandermonde's identity:
    the sum over the ways of the arrangements times prod falling(c_j, t_j) is falling(c_v, t). So a
    bet that reads only the colours of the tie's six cards (Super Tie) weighs its other events by
    point value alone, and Lucky Nines tells suits apart for its nines only. Entries whose weights
    are Python integers are left alone."""
    refined = table.refined
    if not refined or entries.weight.dtype == object or not len(entries.multiset) or refined + 10 >= ABSENT or entries.targets >= 1 << 26:
        return entries
    ids = sorted_ids(table.multisets)[entries.multiset]  # (entries, 6): each multiset's class ids, sorted (a card of value v not refined: refined + v)
    event, weight = entries.target.astype(np.int64), entries.weight.astype(np.int64)
    value_of = table.partition.values
    factorial = np.cumprod(np.r_[1, np.arange(1, MAX_CARDS + 1)])
    for value in range(10):
        classes = np.flatnonzero(value_of == value)
        if len(classes) < 2:
            continue
        inside = np.isin(ids, classes)
        cards = inside.sum(axis=1)
        repeated = np.ones(len(ids), dtype=np.int64)  # prod of t_j! over the value's classes
        for position in range(1, MAX_CARDS):
            repeated *= 1 + ((ids[:, :position] == ids[:, position : position + 1]).sum(axis=1) * inside[:, position])
        ways = factorial[cards] // repeated
        chosen = np.flatnonzero((cards > 0) & ~(ids == refined + value).any(axis=1) & (weight % ways == 0))
        coarse = np.sort(np.where(inside[chosen], refined + value, ids[chosen]), axis=1)
        groups, first, inverse, size = np.unique(pack(coarse.T) * entries.targets + event[chosen], return_index=True, return_inverse=True,
                                                 return_counts=True)  # (the multiset, then the event)
        quotient = weight[chosen] // ways[chosen]
        low, high = np.full(len(groups), np.iinfo(np.int64).max), np.full(len(groups), np.iinfo(np.int64).min)
        np.minimum.at(low, inverse.ravel(), quotient)
        np.maximum.at(high, inverse.ravel(), quotient)
        compositions = np.array([comb(total + len(classes) - 1, len(classes) - 1) for total in range(MAX_CARDS + 1)])  # ways to split t cards
        merged = (low == high) & (size == compositions[cards[chosen][first]])
        if not merged.any():
            continue
        keep = np.ones(len(weight), dtype=bool)
        keep[chosen[merged[inverse.ravel()]]] = False
        ids = np.concatenate([ids[keep], coarse[first[merged]]])
        event = np.concatenate([event[keep], event[chosen[first[merged]]]])
        weight = np.concatenate([weight[keep], low[merged]])
    if len(weight) == len(entries.multiset):
        return entries
    keys, multiset = np.unique(pack(ids.T), return_inverse=True)
    return Entries(factor_indices(unpack(keys, refined + 10), table.partition, refined, table.depth), multiset.ravel(), event, weight, entries.targets)


def cached_basis(table: Table, bets: tuple[Bet, ...], winner: bool = False) -> EventBasis:
    """:func:`event_basis`, kept with the table for equal bets (bets are values: the same bets
    unpickled again by a worker find it), and on disk beside a table the store keeps: read back,
    a basis must settle its events as the bets do and count, on drawn shoes, what its table counts."""
    key = (bets, winner)
    if key not in table.bases:
        table.bases[key] = _kept_basis(table, bets, winner) if table.origin else event_basis(table, bets, winner)
    basis = table.bases[key]
    assert isinstance(basis, EventBasis)
    return basis


CHECKED_SHOES = 2
"""Shoes on which a basis read from disk must count what its table counts, event by event."""


def _kept_basis(table: Table, bets: tuple[Bet, ...], winner: bool) -> EventBasis:
    """:func:`event_basis`, kept on disk beside its table (see :mod:`exact_odds.engine.store`)."""
    from .store import bets_key, kept

    return kept("basis", (table.origin, bets_key(bets), winner), lambda: event_basis(table, bets, winner), _basis_arrays,
                lambda arrays: _basis_from_arrays(table, bets, winner, arrays))


def _basis_arrays(basis: EventBasis) -> dict[str, Array] | None:
    entries = basis.entries
    if entries.weight.dtype == object:  # Python integers: no file holds them
        return None
    return {"lines": basis.lines, "row_event": basis.row_event, "representatives": basis.representatives, "factors": entries.factors,
            "multiset": entries.multiset, "target": entries.target, "weight": entries.weight}


def _drawn_shoes(seed: int, classes: int) -> Array:
    """:data:`CHECKED_SHOES` shoes of ``MAX_CARDS`` to ``2 * MAX_CARDS`` cards of each class (at
    least MAX_CARDS: every factor is at least 1, so an entry moved or reweighed changes a count),
    drawn by a linear congruential generator (Knuth's MMIX constants) seeded by ``seed``: the
    standard library's random would cost a cold start a millisecond, numpy.random tens.

    >>> shoes = _drawn_shoes(97031, 10)
    >>> shoes.shape, MAX_CARDS <= int(shoes.min()) and int(shoes.max()) <= 2 * MAX_CARDS
    ((2, 10), True)
    """
    counts, state = [], seed
    for _ in range(CHECKED_SHOES * classes):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        counts.append(MAX_CARDS + (state >> 33) % (MAX_CARDS + 1))
    return np.array(counts, dtype=np.int64).reshape(CHECKED_SHOES, classes)


def _basis_from_arrays(table: Table, bets: tuple[Bet, ...], winner: bool, arrays: dict[str, Array]) -> EventBasis | None:
    """The basis the arrays hold, or None unless it is the table's for these bets: each event's
    lines are what the bets (and the winner) settle on its representative row, every row lies in
    one event, and on a few drawn shoes (on which every product of factors is positive) the entries
    count exactly what the table's rows count, summed by event."""
    lines, row_event, representatives = (arrays[name].astype(np.int64) for name in ("lines", "row_event", "representatives"))
    factors, multiset, target, weight = (arrays[name].astype(np.int64) for name in ("factors", "multiset", "target", "weight"))
    events = len(lines)
    if (lines.ndim != 2 or lines.shape[1] != len(bets) + winner or row_event.shape != (table.rows,) or representatives.shape != (events,)
            or factors.ndim != 2 or factors.shape[1] != table.depth or not multiset.ndim == target.ndim == weight.ndim == 1
            or not len(multiset) == len(target) == len(weight)):
        return None
    if events and (row_event.min() < 0 or row_event.max() >= events or representatives.min() < 0 or representatives.max() >= table.rows
                   or (row_event[representatives] != np.arange(events)).any()):
        return None
    if len(weight) and (multiset.min() < 0 or multiset.max() >= len(factors) or target.min() < 0 or target.max() >= events
                        or weight.min() <= 0 or factors.min() < 0 or factors.max() >= len(table.factor_layout[0])):
        return None
    at = Columns({name: column[representatives] for name, column in table.columns.items()}, table.columns.levels)
    settled = [bet.settle(at) for bet in bets] + ([at["winner"]] if winner else [])
    if any((lines[:, position] != column).any() for position, column in enumerate(settled)):
        return None
    entries = Entries(factors, multiset, target, weight, events)
    shoes = _drawn_shoes(len(weight), table.partition.classes if table.refined else 10)
    vectors = table.factor_vectors(shoes)
    bound = table.bound(int(shoes.sum(axis=1).max()))
    # the table's counts by event, in numpy alone (every product and count is at most the bound: int64 below 2^63)
    kind: Any = np.int64 if bound < INT64_BOUND and vectors.dtype != object and table.entry_weight.dtype != object else object
    products = np.prod(vectors[:, table.factors].astype(kind), axis=2)
    entry_event, weights = row_event[table.entry_row], table.entry_weight.astype(kind)
    by_event = np.stack([sums_at(entry_event, products[shoe, table.entry_multiset] * weights, events) for shoe in range(len(shoes))])
    if events and (weigh(entries, vectors, bound) != by_event).any():
        return None
    return _basis(table, bets, lines, entries, row_event, representatives)
