"""Counting the sequences of point values that cut into whole coups, multiset by multiset, modulo a prime.

A *layer* holds a number for every multiset of n point values a shoe can hold: an array with an axis
per point value but one, the *free* value (the one the shoe holds most of), whose count is whatever
makes n. A multiset plus a card is then an array sliced one step along one axis (or, for the free
value, the same array one layer up): every sum below is numpy adding slices, never an index lookup.
Cells whose free count is past the shoe's are never read into a cell within it, so they are left as
they fall.

A :class:`Stream` extends boundary counts by one coup: given at each layer n the number of value
sequences of each multiset that end at a coup boundary (its *sources*), it gives at each layer the
number that end one coup later, in three *parts* by the layer they started from (n - 4, n - 5 or
n - 6). A coup is counted by the classes of :mod:`exact_odds.studies.coup_lengths`: the player's
pair added to the sources (Y, two layers up), the banker's pair by class (U, two more), then the
fifth card (five-card coups, and the V of coups waiting for a sixth) and the sixth. Every number is
a residue modulo a prime below 2^31, held in 32 bits, and every sum is taken modulo it
(:func:`~exact_odds.engine.kernel.shifted_add`).
"""

from collections.abc import Iterator

import numpy as np

from ..core.features import Array
from ..engine.kernel import shifted_add
from .coup_lengths import CoupLengths, Pair, orders


class Layout:
    """The layers of the multisets of point values a shoe of ``counts`` (per value 0-9) can hold.

    >>> layout = Layout((2, 1, 0, 0, 0, 0, 0, 0, 0, 3))  # two tens, an ace, three nines
    >>> layout.free, layout.shape[:2], [len(layout.cells(size)) for size in range(7)]
    (9, (3, 2), [1, 3, 5, 6, 5, 3, 1])
    """

    def __init__(self, counts: tuple[int, ...]):
        self.counts = counts
        self.free = max(range(10), key=lambda value: (counts[value], -value))
        self.axes = tuple(value for value in range(10) if value != self.free)
        self.shape = tuple(counts[value] + 1 for value in self.axes)
        grids = np.indices(self.shape, dtype=np.int16) if self.shape else np.zeros((0,), dtype=np.int16)
        self.digit_sum: Array = grids.sum(axis=0)

    def zeros(self) -> Array:
        return np.zeros(self.shape, dtype=np.uint32)

    def origin(self) -> Array:
        """The layer of sizes 0: one way (the empty multiset)."""
        layer = self.zeros()
        layer[(0,) * len(self.shape)] = 1
        return layer

    def add_shifted(self, target: Array, source: Array, cards: tuple[int, ...], prime: int) -> None:
        """``target[D] += source[D - cards]`` modulo ``prime`` for every multiset D that holds ``cards``
        (counts by value; the free value's count is implied by the layers)."""
        shifted_add(target, source, tuple(cards[value] for value in self.axes), prime)

    def total(self, arrays: list[Array], prime: int) -> Array:
        """The sum of ``arrays`` (one at least) modulo ``prime``, in a new array."""
        total = arrays[0].copy()
        for array in arrays[1:]:
            shifted_add(total, array, (0,) * len(self.shape), prime)
        return total

    def cells(self, size: int) -> Array:
        """The flat positions of the multisets of ``size`` cards within the shoe."""
        cells: Array = np.flatnonzero((self.digit_sum <= size) & (self.digit_sum >= size - self.counts[self.free]))
        return cells

    def value_counts(self, size: int, cells: Array) -> Array:
        """(cells x 10) the count of each point value in the multisets at ``cells`` of layer ``size``."""
        counts = np.zeros((len(cells), 10), dtype=np.int64)
        for axis, digits in zip(self.axes, np.unravel_index(cells, self.shape)):
            counts[:, axis] = digits
        counts[:, self.free] = size - self.digit_sum.ravel()[cells]
        return counts


def unit(value: int) -> tuple[int, ...]:
    return tuple(int(value == other) for other in range(10))


def pair_cards(pair: Pair) -> tuple[int, ...]:
    return tuple(pair.count(value) for value in range(10))


class Stream:
    """Boundary counts extended by one coup, layer after layer, modulo ``prime`` (see the module docstring).

    Call :meth:`advance` for n = 0, 1, 2, ... in turn (it gives the parts ending at layer n), then
    :meth:`feed` the sources of layer n, if any."""

    def __init__(self, layout: Layout, lengths: CoupLengths, prime: int):
        self.layout, self.lengths, self.prime = layout, lengths, prime
        self.sources: dict[int, Array] = {}
        self.player: dict[int, list[Array]] = {}  # Y: sources plus the player's pair, by player class
        self.banker: dict[int, list[Array | None]] = {}  # U: plus the banker's pair, by behaviour (ENDS left out)
        self.sixth: dict[int, Array] = {}  # V: plus a fifth card after which a sixth is due
        self.fifth: dict[tuple[frozenset[int], frozenset[int]], list[int]] = {}
        """The values of the fifth card by what follows it: the behaviours that end with it, and those that wait for a sixth."""
        for value in range(10):
            ending, waiting = (frozenset(index for index, behaviour in enumerate(lengths.behaviours) if index and behaviour[value] == cards)
                               for cards in (5, 6))
            self.fifth.setdefault((ending, waiting), []).append(value)

    def feed(self, size: int, sources: Array | None) -> None:
        if sources is not None:
            self.sources[size] = sources

    def active(self) -> bool:
        """Whether anything fed so far can still end a coup."""
        return bool(self.sources or self.player or self.banker or self.sixth)

    def advance(self, size: int) -> tuple[Array | None, Array | None, Array | None]:
        """The counts ending a coup at layer ``size``, by the layer the coup started from: ``size`` - 4, - 5, - 6."""
        players = self._players(self.sources.pop(size - 2, None))
        if players is not None:
            self.player[size] = players
        four, bankers = self._bankers(self.player.pop(size - 2, None))
        if bankers is not None:
            self.banker[size] = bankers
        five, waiting = self._fifths(self.banker.pop(size - 1, None))
        if waiting is not None:
            self.sixth[size] = waiting
        return four, five, self._sixths(self.sixth.pop(size - 1, None))

    def _add_pair(self, target: Array, once: Array, twice: Array, pair: Pair) -> None:
        self.layout.add_shifted(target, twice if orders(pair) == 2 else once, pair_cards(pair), self.prime)

    def _players(self, sources: Array | None) -> list[Array] | None:
        if sources is None:
            return None
        doubled = self.layout.total([sources, sources], self.prime)
        arrays = []
        for members in self.lengths.player_classes:
            sums = self.layout.zeros()
            for pair in members:
                self._add_pair(sums, sources, doubled, pair)
            arrays.append(sums)
        return arrays

    def _bankers(self, players: list[Array] | None) -> tuple[Array | None, list[Array | None] | None]:
        if players is None:
            return None, None
        sums: list[Array | None] = [None] * len(self.lengths.behaviours)
        for banker_class, members in enumerate(self.lengths.banker_classes):
            for behaviour, classes in self._by_behaviour(banker_class):
                joined = self.layout.total([players[index] for index in classes], self.prime)
                doubled = self.layout.total([joined, joined], self.prime)
                target = sums[behaviour]
                if target is None:
                    target = sums[behaviour] = self.layout.zeros()
                for pair in members:
                    self._add_pair(target, joined, doubled, pair)
        return sums[0], [None] + sums[1:]

    def _by_behaviour(self, banker_class: int) -> Iterator[tuple[int, list[int]]]:
        """Each behaviour met against ``banker_class``, with the player classes that meet it."""
        found: dict[int, list[int]] = {}
        for player_class, row in enumerate(self.lengths.behaviour):
            found.setdefault(row[banker_class], []).append(player_class)
        yield from found.items()

    def _fifths(self, bankers: list[Array | None] | None) -> tuple[Array | None, Array | None]:
        if bankers is None:
            return None, None
        five, six = self.layout.zeros(), self.layout.zeros()
        for (ending, waiting), values in self.fifth.items():
            for target, behaviours in ((five, ending), (six, waiting)):
                present = [array for index in behaviours if (array := bankers[index]) is not None]
                if present:
                    joined = self.layout.total(present, self.prime)
                    for value in values:
                        self.layout.add_shifted(target, joined, unit(value), self.prime)
        return five, six

    def _sixths(self, waiting: Array | None) -> Array | None:
        if waiting is None:
            return None
        six = self.layout.zeros()
        for value in range(10):
            self.layout.add_shifted(six, waiting, unit(value), self.prime)
        return six
