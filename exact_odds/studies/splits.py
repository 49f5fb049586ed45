"""Every sequence of a coup's six cards by value or by rank, weighed for one shoe and settled by each
bet: what the protection study (:mod:`exact_odds.studies.protect`) reads information off, exactly.

For an alphabet of A symbols (the ten point values or the thirteen ranks, those the shoe holds) a
bet's *table* T holds, for each of the A^6 sequences of symbols in shoe order, the ordered 6-card sequences of the shoe
that show it (prod over symbols of falling(c_a, t_a)) times the bet's net pay on them (scaled to
integers, and summed over a mixed policy's choices): the cards the coup does not deal are cards of
the sequence all the same. What a player knows is a function of the first cards' symbols, so the
bet's sum over each piece of information is a sum of T over the sequences that show it: by one
position (a known card), or by the groups of the first K cards (a sort).

Every two-way split H of the symbols at once: for each set Q of positions, the sum M_Q(H) of T over
the sequences whose cards at Q are all in H is a sum over subsets of H (a zeta transform over the
2^A sets, from the sums of the marginal table of Q by the set of symbols a sequence holds); the sum
over the sequences whose first K cards fall in H exactly at the positions P is then
sum over Q with P <= Q <= {1..K} of (-1)^|Q - P| M_Q(H) (a Moebius transform over K bits). So all
8,192 splits of the ranks cost about 14^6 additions a bet, not 8,192 passes over 13^6 sequences.

>>> from exact_odds.core.policy import resolve
>>> from exact_odds.core.rules import PUNTO_BANCO
>>> from exact_odds.core.shoe import Shoe
>>> from exact_odds.bets.bets import catalog
>>> sequences = Sequences.of(Shoe.decks(8), resolve(PUNTO_BANCO), Granularity.VALUE)
>>> player = sequences.table(catalog()["player"])
>>> from fractions import Fraction
>>> Fraction(int(player.sum()), sequences.denominator(catalog()["player"]))  # the player bet's expectation
Fraction(-241149546272, 19524993263685)
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations
from math import lcm
from typing import Any

import numpy as np

from ..bets.bets import Bet
from ..core.features import (
    FIRST_CARDS,
    LATE_POSITIONS,
    SLOTS,
    Array,
    Columns,
    Granularity,
    add_counted,
    card_columns,
    class_columns,
    class_values,
    coup_class,
    sequence_index,
    shoe_counts,
)
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..engine.distribution import INT64_SAFE, draws
from ..engine.sequences import shoe_sequences

CARDS = 6
"""The cards of a coup's sequence."""
ALPHABETS = (Granularity.VALUE, Granularity.RANK)


def direct_level(bet: Bet) -> Granularity | None:
    """The alphabet a bet's table is built at (values or ranks), or None where it cannot be: a bet
    that reads suits or colours, or the ranks of a card only the coup deals (those go through the
    engine)."""
    level = Granularity.VALUE
    for read in bet.card_slots.values():
        level = level.join(read)
    if level == Granularity.VALUE:
        return level
    if level == Granularity.RANK and not bet.needs_coup:
        return level
    return None


@lru_cache(maxsize=2)
def _value_rows(decisions: Decisions) -> tuple[Columns, Array, Array]:
    """Every coup over point values with its fifth and sixth cards filled in (each full sequence of
    six values, once per pure choice of a mixed policy): its features at the value level (every
    slot and shoe position tracked), its index among the 10^6 sequences, and its weight."""
    values, cards, weights = shoe_sequences(decisions, (4, 5))
    wide = values.astype(np.int64)
    columns = class_columns(coup_class(wide), decisions.rules.naturals)
    for slot, row in zip(SLOTS, wide):
        columns.update(card_columns(slot, Granularity.VALUE, row))
        columns.levels[slot] = Granularity.VALUE
    for position, row in zip(LATE_POSITIONS, cards[4:].astype(np.int64)):
        columns.update(card_columns(position, Granularity.VALUE, row))
        columns.levels[position] = Granularity.VALUE
    return columns, sequence_index(cards.astype(np.int64)), weights


def _value_pays(decisions: Decisions, bet: Bet) -> Array:
    """A bet that reads point values only: its scaled net pay on each of the 10^6 sequences of six
    values, times the weight of each choice of the policy that deals it (in all, ``scale**2``)."""
    columns, index, weights = _value_rows(decisions)
    counted = [(key, level) for key, level in bet.card_slots.items() if key.startswith("counted:")]
    if counted:
        columns = Columns(dict(columns), columns.levels)
        add_counted(columns, counted)
    _, nets = bet.scaled_pays
    paid = np.asarray(nets, dtype=np.int64)[bet.settle(columns)] * weights
    pays = np.zeros(10**CARDS, dtype=paid.dtype)
    np.add.at(pays, index, paid)
    return pays


def _first_card_pays(bet: Bet) -> Array:
    """A bet on the first cards that reads ranks: its scaled net pay on each of the 13^4 sequences
    of the first four ranks."""
    ranks = np.indices((13,) * 4).reshape(4, -1)
    columns = Columns()
    for slot, row in zip(FIRST_CARDS, ranks):
        columns.update(card_columns(slot, Granularity.RANK, row))
        columns.levels[slot] = Granularity.RANK
    _, nets = bet.scaled_pays
    pays: Array = np.asarray(nets, dtype=np.int64)[bet.settle(columns)].reshape((13,) * 4)
    return pays


@dataclass(frozen=True)
class Sequences:
    """The sequences of six symbols of a shoe and how many ordered 6-card sequences each stands for
    (see the module docstring)."""

    shoe: Shoe
    decisions: Decisions
    alphabet: Granularity

    @classmethod
    @lru_cache(maxsize=2)
    def of(cls, shoe: Shoe, decisions: Decisions, alphabet: Granularity) -> "Sequences":
        """The sequences of a shoe (kept for the last two asked for: a study asks several times)."""
        if alphabet not in ALPHABETS:
            raise ValueError(f"an alphabet is the values or the ranks, not {alphabet.name}")
        return cls(shoe.checked(CARDS), decisions, alphabet)

    @cached_property
    def class_counts(self) -> list[int]:
        return shoe_counts(self.shoe, self.alphabet)

    @cached_property
    def present(self) -> Array:
        """The symbols the shoe holds (at the alphabet's labels): the tables are over these alone."""
        present: Array = np.flatnonzero(np.asarray(self.class_counts) > 0)
        return present

    @property
    def symbols(self) -> int:
        return len(self.present)

    @cached_property
    def total(self) -> int:
        """All ordered 6-card sequences (at the alphabet: the infinite deck holds one card of each symbol)."""
        return draws(sum(self.class_counts), CARDS, self.shoe.with_replacement)

    @cached_property
    def counts(self) -> Array:
        """(A,)*6: the ordered 6-card sequences that show each sequence of the symbols held."""
        symbols = np.indices((self.symbols,) * CARDS, dtype=np.int8).reshape(CARDS, -1)
        wide = self.total >= INT64_SAFE  # no count of a sequence (nor of its first cards) exceeds the total
        available = np.asarray(self.class_counts, dtype=object if wide else np.int64)[self.present]
        counts = np.ones(symbols.shape[1], dtype=available.dtype)
        for position in range(CARDS):
            left = available[symbols[position]]
            if not self.shoe.with_replacement:
                left = left - sum((symbols[earlier] == symbols[position]).astype(np.int64) for earlier in range(position))
            counts = counts * np.maximum(left, 0)
        shaped: Array = counts.reshape((self.symbols,) * CARDS)
        return shaped

    @cached_property
    def value_index(self) -> Array:
        """(A,)*6: the index of each sequence's values among the 10^6 sequences of six values."""
        values = np.asarray(class_values(self.alphabet), dtype=np.int64)[self.present]
        index = sequence_index(values.reshape([self.symbols if axis == position else 1 for axis in range(CARDS)]) for position in range(CARDS))
        shaped: Array = np.broadcast_to(index, (self.symbols,) * CARDS)
        return shaped

    def denominator(self, bet: Bet) -> int:
        """What a sum of the bet's table is divided by to give an expectation per coup."""
        return self.total * self.decisions.scale**2 * bet.scaled_pays[0]

    def table(self, bet: Bet) -> Array:
        """The bet's table T (see the module docstring): int64 where every sum of it is bounded
        below 2^62, else Python integers."""
        level = direct_level(bet)
        if level is None or level.covers(Granularity.RANK) and self.alphabet != Granularity.RANK:
            raise ValueError(f"bet {bet.name!r} cannot be tabulated by {self.alphabet.name}")
        if level == Granularity.VALUE:
            pays = _value_pays(self.decisions, bet)[self.value_index]
        else:
            pays = _first_card_pays(bet)[np.ix_(*(self.present,) * 4)][(...,) + (None,) * (CARDS - 4)] * self.decisions.scale**2
        largest = max(abs(net) for net in bet.scaled_pays[1]) * self.decisions.scale**2
        exact: Any = object if self.total * largest >= INT64_SAFE or self.counts.dtype == object else np.int64
        table: Array = self.counts.astype(exact) * pays.astype(exact)
        return table


def known_sums(table: Array, position: int) -> Array:
    """The table summed by the symbol at one position (0-5)."""
    summed: Array = table.sum(axis=tuple(axis for axis in range(CARDS) if axis != position))
    return summed


def group_sums(table: Array, cards: int, group_of: Array, groups: int) -> Array:
    """The table summed by the groups of the first ``cards`` symbols (``group_of``: each symbol's
    group, of ``groups``): (groups,) * cards, the first card's group first."""
    one_hot = (group_of[:, None] == np.arange(groups)[None, :]).astype(table.dtype)
    summed: Array = table.sum(axis=tuple(range(cards, CARDS))) if cards < CARDS else table
    for _ in range(cards):  # each leading axis to its groups, moved last: after all, back in order
        summed = np.tensordot(summed, one_hot, axes=([0], [0]))
    return summed


@lru_cache(maxsize=8)
def _tuple_sets(symbols: int, length: int) -> tuple[Array, Array]:
    """For the sequences of ``length`` symbols (C order): an order that sorts them by the set of
    symbols each holds, and where each set's run starts with that set's bits."""
    sets = np.zeros(symbols**length, dtype=np.int64)
    for row in np.indices((symbols,) * length).reshape(length, -1):
        sets |= np.int64(1) << row
    order = np.argsort(sets, kind="stable")
    held, starts = np.unique(sets[order], return_index=True)
    return order, np.stack([starts, held])


def split_moments(table: Array, cards: int = CARDS) -> Array:
    """(2^cards, 2^A): for each set Q of the first ``cards`` positions (bit i: position i) and each
    set H of symbols (bit a: symbol a), the sum of the table over the sequences whose cards at Q
    are all in H."""
    symbols = table.shape[0]
    first = tuple(range(cards))
    marginals = {first: table.sum(axis=tuple(range(cards, CARDS))) if cards < CARDS else table}
    for size in range(cards - 1, -1, -1):
        for kept in combinations(first, size):
            missing = next(axis for axis in first if axis not in kept)
            larger = tuple(sorted(kept + (missing,)))
            marginals[kept] = marginals[larger].sum(axis=larger.index(missing))
    moments = np.zeros((1 << cards, 1 << symbols), dtype=table.dtype)
    moments[0, 0] = marginals[()]
    for kept, marginal in marginals.items():
        if kept:
            order, (starts, held) = _tuple_sets(symbols, len(kept))
            moments[sum(1 << position for position in kept), held] = np.add.reduceat(np.ravel(marginal)[order], starts)
    shaped = moments.reshape((1 << cards,) + (2,) * symbols)
    for bit in range(symbols):  # each set's sum over its subsets
        axis = symbols - bit  # (the last axis is bit 0)
        upper: list[slice | int] = [slice(None)] * shaped.ndim
        lower = list(upper)
        upper[axis], lower[axis] = 1, 0
        shaped[tuple(upper)] += shaped[tuple(lower)]
    return moments


def pattern_sums(moments: Array, cards: int) -> Array:
    """(2^cards, splits): for each pattern of the first ``cards`` cards (bit i set: card i in H) the
    table's sum over the sequences that show it, by inclusion and exclusion over the moments."""
    found = moments[: 1 << cards].copy()
    for bit in range(cards):
        with_bit = np.flatnonzero(np.arange(1 << cards) & (1 << bit))
        found[with_bit ^ (1 << bit)] -= found[with_bit]
    return found



@dataclass
class _Best:
    """For every pattern of K sorted cards under every split (an array of each), the best bet so
    far: its index (-1: none), its sum exactly, its pay scale, and the quotient as a float."""

    index: Array
    exact: Array
    scale: Array
    approx: Array

    @classmethod
    def none(cls, shape: tuple[int, ...], exact: Any) -> "_Best":
        return cls(np.full(shape, -1, dtype=np.int16), np.zeros(shape, dtype=exact), np.ones(shape, dtype=np.int64), np.zeros(shape))

    def offer(self, sums: Array, index: int, scale: int) -> None:
        """Take bet ``index`` where its sums over ``scale`` beat the best so far (where they tie, the
        earlier bet stays; nothing is taken at or below zero). Floats decide where they are far
        apart; Python integers where they are within a billionth of each other."""
        approx = sums.astype(np.float64) / scale
        difference = approx - self.approx
        tolerance = 1e-9 * (np.abs(approx) + np.abs(self.approx))
        better = difference > tolerance
        near = np.abs(difference) <= tolerance
        if near.any():
            better[near] = sums[near].astype(object) * self.scale[near].astype(object) > self.exact[near].astype(object) * scale
        self.index[better], self.exact[better], self.scale[better], self.approx[better] = index, sums[better], scale, approx[better]


@dataclass(frozen=True)
class SplitValues:
    """What sorting ``cards`` cards by each split is worth: ``gains[mask] / denominator`` per coup,
    and ``changed[mask] / total`` the share of coups in which it changes the decision (the mask's
    bit a set: symbol a in the first group)."""

    cards: int
    gains: list[int]
    denominator: int
    changed: list[int]
    total: int


def search_splits(sequences: Sequences, bets: Sequence[Bet], cards: Sequence[int], uninformed: int | None) -> list[SplitValues]:
    """Every two-way split of the alphabet, for each number of sorted cards (see the module
    docstring), against a player whose decision without the information is ``uninformed``."""
    best = {count: _Best.none((1 << count, 1 << sequences.symbols), object) for count in cards}
    for index, bet in enumerate(bets):
        moments = split_moments(sequences.table(bet), max(cards))
        for count in cards:
            best[count].offer(pattern_sums(moments, count), index, bet.scaled_pays[0])
    common = lcm(*(bet.scaled_pays[0] for bet in bets))
    counted = split_moments(sequences.counts, max(cards))
    found = []
    for count in cards:
        state = best[count]
        gains = np.zeros(1 << sequences.symbols, dtype=object)
        for index in sorted(set(state.index.ravel().tolist()) - {-1}):
            chosen = np.where(state.index == index, state.exact, 0).sum(axis=0)
            gains = gains + chosen.astype(object) * (common // bets[index].scaled_pays[0])
        changed = np.where(state.index != (-1 if uninformed is None else uninformed), pattern_sums(counted, count), 0).sum(axis=0)
        found.append(SplitValues(count, [int(gain) for gain in gains], sequences.total * sequences.decisions.scale**2 * common,
                                 [int(share) for share in changed], sequences.total))
    return found
