"""Bets on the first cards in closed form: by which slots hold the same card class.

Many bets on the first cards (pairs, perfect pairs) settle the same way on every draw with the same
*pattern*: which of the slots they read hold equal classes (at the granularity they read).
When every bet of a group does (checked once, exactly, over every draw of classes), the ordered
draws of each pattern are a closed form in the shoe's class counts c_x: for a pattern whose blocks
of equal classes have sizes s_1 .. s_m,

    S = sum over distinct classes x_1 .. x_m of prod_i falling(c_{x_i}, s_i)
      = sum over set partitions P of the blocks of  mu(P) prod_{G in P} sum_x prod_{i in G} falling(c_x, s_i)

with mu(P) = prod_G (-1)^(|G| - 1) (|G| - 1)! (the sum over distinct indices by inclusion and
exclusion; powers instead of falling factorials with replacement). So a perfect pair on an 8-deck
shoe needs 15 patterns and sums over 52 counts, not 52^4 draws.

>>> pattern_of((5, 5, 2, 7)), pattern_of((1, 2, 1, 2))
((0, 0, 1, 2), (0, 1, 0, 1))
"""

from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import factorial, prod
from typing import Any

import numpy as np

from ..bets.bets import Bet
from ..bets.conditions import card_readings
from .distribution import INT64_SAFE, Distribution, draws
from ..core.cards import RANKS
from ..core.features import Array, Columns, Granularity, Partition, card_columns, card_labels, relabel
from .kernel import exact_counts
from ..core.shoe import Shoe
from .store import bets_key, kept
from .coup_table import card_partition_of
from .tables import Tracked

CHUNK = 1 << 19
"""Draws of classes checked at once."""


def pattern_of(labels: tuple[int, ...]) -> tuple[int, ...]:
    """The pattern of a draw: each slot's block, numbered by first appearance."""
    seen: dict[int, int] = {}
    return tuple(seen.setdefault(label, len(seen)) for label in labels)


def _patterns(slots: int) -> list[tuple[int, ...]]:
    """Every pattern of ``slots`` slots (restricted growth strings)."""
    found: list[tuple[int, ...]] = [()]
    for _ in range(slots):
        found = [pattern + (block,) for pattern in found for block in range(max(pattern, default=-1) + 2)]
    return found


def _set_partitions(items: list[int]) -> list[list[list[int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    partitions = []
    for partition in _set_partitions(rest):
        partitions.append([[first], *partition])
        for index in range(len(partition)):
            partitions.append(partition[:index] + [[first, *partition[index]]] + partition[index + 1 :])
    return partitions


@dataclass(frozen=True, eq=False)
class PatternForm:
    """The patterns of a group of tracked first-card slots, with a representative draw of each."""

    tracked: Tracked
    fine: Granularity
    patterns: tuple[tuple[int, ...], ...]

    def sizes(self, pattern: tuple[int, ...]) -> list[int]:
        return [pattern.count(block) for block in range(max(pattern) + 1)]

    @cached_property
    def plan(self) -> tuple[Array, Array, Array, Array, int]:
        """The inclusion-exclusion sums as index arrays (rows padded with an index of 1): the
        distinct groups of block sizes (keys) as the falling-factorial lengths they multiply (keys x
        slots, 0 for 1); each term's keys (terms x slots, ``keys`` for 1), terms in pattern order;
        each term's mu; where each pattern's terms start; and the largest sum of |mu| over a
        pattern's terms (for the bound)."""
        slots = len(self.tracked)
        keys: dict[tuple[int, ...], int] = {}
        terms: list[list[int]] = []
        mus: list[int] = []
        starts: list[int] = []
        spread = 0
        for pattern in self.patterns:
            sizes = self.sizes(pattern)
            starts.append(len(terms))
            for partition in _set_partitions(list(range(len(sizes)))):
                mus.append(prod((-1) ** (len(group) - 1) * factorial(len(group) - 1) for group in partition))
                terms.append([keys.setdefault(tuple(sorted(sizes[block] for block in group)), len(keys)) for group in partition])
            spread = max(spread, sum(abs(mu) for mu in mus[starts[-1] :]))
        key_lengths = np.zeros((len(keys), slots), dtype=np.int64)
        for key, index in keys.items():
            key_lengths[index, : len(key)] = key
        term_keys = np.full((len(terms), slots), len(keys), dtype=np.int64)
        for index, term in enumerate(terms):
            term_keys[index, : len(term)] = term
        return key_lengths, term_keys, np.array(mus, dtype=np.int64), np.array(starts, dtype=np.int64), spread

    def counts(self, classes: Any, with_replacement: bool = False) -> Array:
        """(shoes x patterns) ordered draws of each pattern, exactly; ``classes`` holds each shoe's
        counts at ``fine``. Each sum over the classes of a group's falling factorials is at most
        N^t (t the cards it covers, N the shoe's size), so every term is at most N^slots and every
        partial sum at most that times the sum of |mu|: int64 below that bound, else Python
        integers. A sum over the classes depends only on how many classes hold each count, and
        shoes hold few distinct counts (0 to 8 of each card in 8 decks): each product is taken
        once per distinct count, then summed by the classes' histogram of counts."""
        counts = exact_counts(classes)
        key_lengths, term_keys, mus, starts, spread = self.plan
        slots = len(self.tracked)
        size = int(counts.sum(axis=1).max()) if counts.size else 0
        kind: Any = np.int64 if size**slots * spread < INT64_SAFE else object
        top = int(counts.max()) if counts.size else 0
        if top < counts.shape[1]:  # small counts are their own index
            values, inverse = np.arange(top + 1), counts
        else:
            values, inverse = np.unique(counts, return_inverse=True)
            inverse = inverse.reshape(counts.shape)
        by_value = values.astype(kind)
        steps = [0] * slots if with_replacement else range(slots)
        falling = [np.ones(len(values), dtype=kind)]  # falling[t]: falling(value, t), or value^t
        for step in steps:
            falling.append(falling[-1] * np.maximum(by_value - step, 0))
        products = np.stack([np.prod([falling[length] for length in lengths], axis=0) for lengths in key_lengths.tolist()], axis=1)  # (values, keys)
        if len(values) <= counts.shape[1]:  # by the histogram of counts: (shoes x values) @ (values x keys)
            rows = np.arange(len(counts))[:, None] * len(values)
            histogram = np.bincount((rows + inverse).ravel(), minlength=len(counts) * len(values)).reshape(len(counts), len(values))
            sums = histogram.astype(kind) @ products
        else:
            sums = products[inverse].sum(axis=1)
        sums = np.concatenate([sums, np.ones((len(counts), 1), dtype=kind)], axis=1)  # (shoes, keys + 1); the last: 1
        terms = sums[:, term_keys[:, 0]] * mus.astype(kind)
        for column in range(1, slots):
            terms = terms * sums[:, term_keys[:, column]]
        result: Array = np.add.reduceat(terms, starts, axis=1) if len(counts) else np.zeros((0, len(starts)), dtype=kind)
        return result

    @cached_property
    def columns(self) -> Columns:
        """The features of one representative draw per pattern (distinct classes 0, 1, ...)."""
        columns = Columns(levels=dict(self.tracked))
        labels = np.asarray(self.patterns, dtype=np.int64).T
        for (slot, level), label in zip(self.tracked, labels):
            columns.update(card_columns(slot, level, relabel(label, self.fine, level)))
        return columns

    def distribution(self, shoe: Shoe, counts: list[int]) -> Distribution:
        """The ordered draws of the slots from ``shoe``, whose counts at :attr:`fine` are ``counts``."""
        shoe.checked(len(self.tracked))
        total = draws(sum(counts), len(self.tracked), shoe.with_replacement)
        return Distribution(self.columns, self.counts([counts], shoe.with_replacement)[0], total, len(self.tracked),
                            settlements=self.settlements)

    @cached_property
    def settlements(self) -> dict[Any, tuple[object, Array]]:
        """Each bet's settlement of :attr:`columns`, kept (see :attr:`Distribution.settlements`)."""
        return {}


UNIVERSE = tuple(RANKS.index(rank) * 4 + suit for rank in "A23TJQK" for suit in range(4))
"""28 cards in which every way four cards can be alike or not in rank, value, suit and colour occurs
(four ranks of value 0, three more of distinct values, all four suits)."""
LEADING = (RANKS.index("A") * 4, RANKS.index("T") * 4)
"""The first card need only be one of these: the universe's symmetries (ranks of value 0 among
themselves, the others among themselves, suits keeping or swapping colours) take any first card
to one of them and change nothing a symmetric condition sees."""


@lru_cache(maxsize=32)
def pattern_form(tracked: Tracked, bets: tuple[Bet, ...]) -> PatternForm | None:
    """The pattern form of the bets on these first-card slots, or None when it does not apply.

    It applies when every condition is symmetric (it compares the same attribute of two slots with
    == or !=, and nothing else: it sees the cards only through which are alike) and every bet
    settles all draws of one pattern alike. A symmetric condition's outcome is decided by how the
    cards are alike in rank, value, suit and colour, and every such likeness occurs among the
    draws of :data:`UNIVERSE`, so checking those draws is exact. The patterns found are kept on
    disk (:mod:`exact_odds.engine.store`)."""
    if not all(row.condition.symmetric for bet in bets for row in bet.rows):
        return None
    fine = Granularity.VALUE
    for _, level in tracked:
        fine = fine.join(level)
    applies, patterns = kept("patterns", (tracked, bets_key(bets)), lambda: _settled_patterns(tracked, bets),
                             lambda found: _pattern_arrays(found, len(tracked)), lambda arrays: _restored_patterns(arrays, len(tracked)))
    return PatternForm(tracked, fine, patterns) if applies else None


Patterns = tuple[bool, tuple[tuple[int, ...], ...]]
"""Whether the pattern form applies, and its patterns."""


def _pattern_arrays(found: Patterns, slots: int) -> dict[str, Array]:
    """The arrays kept: whether the form applies, and its patterns (patterns x ``slots``; none
    where it does not apply).

    >>> {name: array.shape for name, array in _pattern_arrays((False, ()), 3).items()}
    {'applies': (1,), 'patterns': (0, 3)}
    """
    applies, patterns = found
    return {"applies": np.array([int(applies)]), "patterns": np.array(patterns, dtype=np.int64).reshape(len(patterns), slots)}


def _restored_patterns(arrays: dict[str, Array], slots: int) -> Patterns | None:
    """The patterns kept, or None unless they are distinct patterns of ``slots`` slots, some where
    the form applies and none where it does not."""
    applies, kept_patterns = arrays["applies"], arrays["patterns"]
    if applies.shape != (1,) or int(applies[0]) not in (0, 1) or kept_patterns.ndim != 2 or kept_patterns.shape[1] != slots:
        return None
    patterns = [tuple(int(block) for block in row) for row in kept_patterns.tolist()]
    every = _patterns(slots)
    if bool(applies[0]) != bool(patterns) or len(set(patterns)) != len(patterns) or not set(patterns) <= set(every):
        return None
    return bool(applies[0]), tuple(pattern for pattern in every if pattern in set(patterns))


def _settled_patterns(tracked: Tracked, bets: tuple[Bet, ...]) -> Patterns:
    """Whether every bet settles the draws of each pattern alike, checked over :data:`UNIVERSE`, and the patterns that occur."""
    fine = Granularity.VALUE
    for _, level in tracked:
        fine = fine.join(level)
    slots = len(tracked)
    patterns = _patterns(slots)
    lines: dict[tuple[int, ...], tuple[int, ...]] = {}
    universe = np.unique(card_labels(fine)[list(UNIVERSE)])
    leading = np.unique(card_labels(fine)[list(LEADING)])
    total = len(leading) * len(universe) ** (slots - 1)
    for first in range(0, total, CHUNK):
        index = np.arange(first, min(total, first + CHUNK))
        digits = [(index // len(universe) ** power) % len(universe) for power in range(slots - 2, -1, -1)]
        labels = [leading[index // len(universe) ** (slots - 1)]] + [universe[digit] for digit in digits]
        columns = Columns(levels=dict(tracked))
        for (slot, level), label in zip(tracked, labels):
            columns.update(card_columns(slot, level, relabel(label, fine, level)))
        settled = np.stack([bet.settle(columns) for bet in bets], axis=1)
        codes = np.zeros(len(index), dtype=np.int64)
        seen_blocks = np.zeros((len(index), slots), dtype=np.int64)
        for position in range(slots):
            block = np.full(len(index), -1)
            for earlier in range(position):
                block = np.where((block < 0) & (labels[position] == labels[earlier]), seen_blocks[:, earlier], block)
            fresh = block < 0
            block[fresh] = (seen_blocks[:, :position].max(axis=1) + 1)[fresh] if position else 0
            seen_blocks[:, position] = block
            codes = codes * slots + block
        keys = np.unique(np.concatenate([codes[:, None], settled], axis=1), axis=0)
        for key in keys.tolist():
            code, line = key[0], tuple(key[1:])
            pattern = tuple((code // slots**power) % slots for power in range(slots - 1, -1, -1))
            if lines.setdefault(pattern, line) != line:
                return False, ()
    return True, tuple(pattern for pattern in patterns if pattern in lines)


@lru_cache(maxsize=32)
def card_partition(tracked: Tracked, bets: tuple[Bet, ...]) -> Partition:
    """The classes of cards the bets on these first-card slots tell apart: cards that every
    comparison and attribute the bets read (:func:`~exact_odds.bets.conditions.card_readings`)
    labels alike are one class (no bets: the slots' granularity). Lucky Nines reads a card's rank
    against 9 and its suit: eight classes, not the forty of value and suit."""
    if not bets:
        return card_partition_of(tracked)
    readings = [reading.astype(np.int64) for bet in bets for row in bet.rows for reading in card_readings(row.condition.tree)]
    _, labels = np.unique(np.stack([np.zeros(52, dtype=np.int64), *readings], axis=1), axis=0, return_inverse=True)
    return Partition(tuple(labels.ravel().tolist()))
