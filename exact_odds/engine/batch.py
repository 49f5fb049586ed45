"""Many shoes at once: exact expectations of many bets on many shoes (counting studies).

The bets that read the coup are reduced to *events* (:mod:`exact_odds.engine.events`): the distinct
combinations of the pay-table line each bet settles on, over the rows of the compiled coup table
(the 42 coup bets of the catalog need 84). The kernel (:mod:`exact_odds.engine.kernel`) counts each event for each shoe and
folds in the bets' pays: every bet's expectation follows exactly, in integers. Bets on the first
cards alone are counted the same way over their own table of card draws, or in closed form
(:mod:`exact_odds.engine.patterns`) where that table would be large (perfect pairs).

>>> from exact_odds.bets.bets import catalog
>>> many = batch_expectations([[32] * 13, [31] * 13], [catalog()["banker"], catalog()["player_pair"]])
>>> many.expected_value(0, "player_pair")
Fraction(-43, 415)
"""

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, cast

import numpy as np

from ..bets.bets import Bet, chosen_bets
from ..core.cards import RANKS
from .distribution import FLOAT_EXACT, INT64_SAFE, falling
from ..errors import InputError
from ..core.features import OUTCOMES, Array, Granularity, Partition
from .events import cached_basis
from .kernel import Entries, Pays, weigh_counts
from ..core.policy import Decisions, Policy, decisions_of
from ..core.numbers import index_in, shown
from ..core.rules import PUNTO_BANCO, DrawRules, as_rules
from ..core.shoe import CARD_NAMES, CARDS_PER_COUP
from .patterns import card_partition, pattern_form
from .store import card_table, coup_table
from .tables import Table, Tracked, factor_counts, tracked_key

CHUNK = 32768
"""Shoes weighed in one call of the kernel."""
FORM_CHUNK = 4096
"""Shoes counted at once in closed form (:mod:`exact_odds.engine.patterns`): its arrays stay small."""
SHOWN_SHOES = 20
"""A notebook shows the expectations of this many shoes at most."""


@dataclass(frozen=True)
class BatchExpectations:
    """Exact expectations of several bets on many shoes.

    ``numerators[s, b] / (scales[b] * falling(sizes[s], depths[b]))`` is the expected net win per
    unit of bet ``b`` on shoe ``s``: a coup bet counts ordered 6-card sequences (times a mixed
    policy's scale), a bet on the first cards ordered draws of the cards it reads. Asked for the
    outcomes, ``outcomes[s, o] / (outcome_scale * falling(sizes[s], outcome_depth))`` is the
    probability of outcome ``o`` (banker, player, tie) on shoe ``s``.
    """

    bets: tuple[Bet, ...]
    numerators: Array
    scales: tuple[int, ...]
    depths: tuple[int, ...]
    sizes: tuple[int, ...]
    outcomes: Array | None = None
    """(shoes x 3) the coups banker, player and tie win, when asked for (see :func:`batch_expectations`)."""
    outcome_scale: int = 1
    outcome_depth: int = CARDS_PER_COUP

    def expected_value(self, shoe: int, bet: str) -> Fraction:
        """The exact expected net win per unit of the bet named ``bet`` on shoe number ``shoe``."""
        names = [candidate.name for candidate in self.bets]
        if not isinstance(bet, str) or bet not in names:
            raise InputError(f"bet {shown(bet)} is not a bet of this batch ({', '.join(names)})", parameter="bet")
        shoe, column = self._shoe(shoe), names.index(bet)
        return Fraction(int(self.numerators[shoe, column]), self.scales[column] * falling(self.sizes[shoe], self.depths[column]))

    def outcome_probability(self, shoe: int, outcome: str) -> Fraction:
        """The exact probability that ``outcome`` (banker, player or tie) wins a coup of shoe number ``shoe``."""
        if self.outcomes is None:
            raise InputError("the outcomes were not counted: call batch_expectations with outcomes=True")
        if not isinstance(outcome, str) or outcome not in OUTCOMES:
            raise InputError(f"outcome must be one of {', '.join(OUTCOMES)}, not {shown(outcome)}", parameter="outcome")
        shoe = self._shoe(shoe)
        count = self.outcomes[shoe, OUTCOMES.index(outcome)]
        return Fraction(int(count), self.outcome_scale * falling(self.sizes[shoe], self.outcome_depth))

    def _shoe(self, shoe: object) -> int:
        """``shoe`` as the number of a shoe of the batch (0 to the last), else refused."""
        return index_in(shoe, len(self.sizes), "shoe", parameter="shoe")

    def positive(self) -> Array:
        """Exactly where the expectation is above zero."""
        positive: Array = self.numerators > 0
        return positive

    def floats(self) -> Array:
        """The expectations as floats, fast (to about 1e-15 relative): for statistics only."""
        return _quotients(self.numerators, self.scales, self.depths, self.sizes, self._size_floats)

    def outcome_floats(self) -> Array:
        """(shoes x 3) the outcomes' probabilities as floats, as :meth:`floats`."""
        if self.outcomes is None:
            raise InputError("the outcomes were not counted: call batch_expectations with outcomes=True")
        return _quotients(self.outcomes, (self.outcome_scale,) * len(OUTCOMES), (self.outcome_depth,) * len(OUTCOMES), self.sizes, self._size_floats)

    @cached_property
    def _size_floats(self) -> Array:
        return np.asarray(self.sizes, dtype=np.float64)

    def __repr__(self) -> str:
        return f"<BatchExpectations of {len(self.sizes):,} shoes: {', '.join(bet.name for bet in self.bets)}>"

    def _repr_html_(self) -> str:
        """The exact expectations of the first :data:`SHOWN_SHOES` shoes, a row each (for notebooks)."""
        from ..records import record_html

        rows = {f"shoe {shoe}": {bet.name: str(self.expected_value(shoe, bet.name)) for bet in self.bets}
                for shoe in range(min(len(self.sizes), SHOWN_SHOES))}
        more = len(self.sizes) - SHOWN_SHOES
        return record_html(rows) + (f"<p>and {more:,} more shoes</p>" if more > 0 else "")


def _quotients(numerators: Array, scales: tuple[int, ...], depths: tuple[int, ...], sizes: tuple[int, ...], shoe_sizes: Array) -> Array:
    """``numerators[s, c] / (scales[c] * falling(sizes[s], depths[c]))`` as floats (``shoe_sizes``: the sizes as floats)."""
    if numerators.dtype == object:  # Python integers, perhaps beyond floats: each quotient rounded once
        drawn = {(size, depth): falling(size, depth) for size in set(sizes) for depth in set(depths)}
        exact = np.array([[scale * drawn[size, depth] for scale, depth in zip(scales, depths)] for size in sizes],
                         dtype=object).reshape(numerators.shape)
        quotients: Array = (numerators / exact).astype(np.float64)
        return quotients
    distinct = sorted(set(depths))
    sequences = np.stack([np.prod([shoe_sizes - drawn for drawn in range(depth)], axis=0) if depth else np.ones(len(sizes)) for depth in distinct], axis=1)
    denominators = np.multiply(sequences[:, [distinct.index(depth) for depth in depths]], np.asarray(scales, dtype=np.float64))
    floats: Array = np.divide(numerators, denominators, out=denominators, dtype=np.float64)
    return floats


def exact_product(counts: Array, pays: Array) -> Array:
    """counts @ pays exactly in int64, for non-negative counts and a product that fits (the caller
    checks): by float64 matrix products on limbs of the counts narrow enough that every sum is
    an exact float (below 2^53), then shifted back. Far faster than numpy's integer product.

    >>> exact_product(np.array([[2**52 + 1, 3]]), np.array([[7, -1], [0, 2]])).tolist()
    [[31525197391593479, -4503599627370491]]
    """
    spread = int(np.abs(pays).sum(axis=0).max(initial=0))
    bits = FLOAT_EXACT.bit_length() - 1 - spread.bit_length()
    if bits < 8:  # pays too large to leave useful limbs: the integer product
        product: Array = counts @ pays
        return product
    floats, result, shift = pays.astype(np.float64), np.zeros((len(counts), pays.shape[1]), dtype=np.int64), 0
    remaining = counts.astype(np.int64)
    while remaining.any():
        limb = (remaining & ((1 << bits) - 1)).astype(np.float64)
        result += (limb @ floats).astype(np.int64) << shift
        remaining, shift = remaining >> bits, shift + bits
    return result


def integers(values: list[int] | tuple[int, ...]) -> Array:
    """int64 where every value is within :data:`INT64_SAFE`, else Python integers (a bets file's
    pay may have hundreds of digits)."""
    return np.array(values, dtype=np.int64 if all(abs(value) < INT64_SAFE for value in values) else object)


def _pays(group: tuple[Bet, ...], lines: Array) -> Array:
    """(events x bets): each bet's scaled net pay on each event's line."""
    stacked: Array = np.stack([integers(bet.scaled_pays[1])[lines[:, position]] for position, bet in enumerate(group)], axis=1)
    return stacked


MAX_COUNT = 2**40
"""The batch path weighs counts below this (a shoe of 2^40 cards of one rank) in 64-bit integers."""


def shoe_rows(counts: Any) -> Array:
    """``counts`` as (shoes x 13 or 52) int64 counts; anything else (rows of other lengths, counts
    that are not whole numbers from 0 below :data:`MAX_COUNT`) refused, naming the first such count."""
    try:
        shoes = np.asarray(counts)
    except ValueError:  # rows of different lengths
        shoes = np.asarray(counts, dtype=object)
    if shoes.ndim != 2 or shoes.shape[1] not in (13, 52):
        raise InputError(f"counts must be one row per shoe of 13 per-rank or 52 per-card counts, not shape {shoes.shape}")
    if shoes.dtype.kind in "iu":
        if not shoes.size or (shoes.min() >= 0 and shoes.max() < MAX_COUNT):
            return shoes.astype(np.int64, copy=False)
        flat = shoes.ravel()
        position = int(np.flatnonzero((flat < 0) | (flat >= MAX_COUNT))[0])
    else:  # floats, bools, text, or integers past int64 that numpy read as floats: judged as given
        flat = (shoes if isinstance(counts, np.ndarray) else np.asarray(counts, dtype=object)).ravel()
        whole = [isinstance(count, (int, np.integer)) and not isinstance(count, bool) for count in flat.tolist()]
        bad = [index for index, count in enumerate(flat.tolist()) if not whole[index] or not 0 <= count < MAX_COUNT]
        if not bad:
            return np.asarray(flat.tolist(), dtype=np.int64).reshape(shoes.shape)
        position = bad[0]
    shoe, column = divmod(position, shoes.shape[1])
    name = RANKS[column] if shoes.shape[1] == 13 else CARD_NAMES[column]
    count = flat[position].item() if isinstance(flat[position], np.generic) else flat[position]
    if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
        raise InputError(f"shoe {shoe}: count of {name} {int(count):,} is beyond the batch path, which weighs counts below 2^40")
    raise InputError(f"shoe {shoe}: count of {name} must be a whole number from 0, not {shown(count)}")


SMALL_CARD_TABLE = 100_000
"""Bets on the first cards whose table has at most this many draws of classes are weighed by the
kernel (a few thousand multisets), the others in closed form where they allow it."""


def draws_of_classes(tracked: Tracked) -> int:
    """The rows of the table of first cards :func:`~exact_odds.engine.coup_table.card_table` builds."""
    fine = Granularity.VALUE
    for _, level in tracked:
        fine = fine.join(level)
    rows: int = fine.classes ** len(tracked)
    return rows


@lru_cache(maxsize=64)
def _projection(partition: Partition, columns: int, refined: bool) -> Array:
    """The float64 matrix that takes a row of ``columns`` shoe counts and a final 1 to the counts
    :func:`~exact_odds.engine.tables.factor_counts` makes of its class counts at ``partition``. Its
    rows are those counts of each column alone (projected onto classes by
    :meth:`Partition.class_counts`, less the final 1), and the final 1."""
    layout = factor_counts(partition.class_counts(np.eye(columns, dtype=np.int64)), partition, refined)[:, :-1]
    matrix: Array = np.block([[layout, np.zeros((columns, 1), dtype=np.int64)],
                              [np.zeros((1, layout.shape[1]), dtype=np.int64), np.ones((1, 1), dtype=np.int64)]]).astype(np.float64)
    matrix.setflags(write=False)
    return matrix


PROJECTED_STEPS = 1 << 18
""":func:`projected` multiplies a block of rows at a time, of at most this many multiply-adds: BLAS
then runs each on the calling thread alone (the batch runs on one core), and its temporary is small."""


def projected(rows: Array, matrix: Array) -> Array:
    """``rows`` (shoes x columns and a final 1, float64) times ``matrix`` (0s and 1s, as a
    :func:`_projection`), exactly as int64: every count is below :data:`MAX_COUNT`, so every sum of
    at most 52 of them is an exact float."""
    product = np.empty((len(rows), matrix.shape[1]), dtype=np.int64)
    step = max(1, PROJECTED_STEPS // matrix.size)
    for start in range(0, len(rows), step):
        product[start : start + step] = rows[start : start + step] @ matrix
    return product


CHECKED_SHOES = 3
"""Shoes on which :func:`folded` checks that a table's counts add up to every sequence of its cards."""


def folded(table: Table, entries: Entries, pays: Pays) -> tuple[Entries, Pays]:
    """The same sums of counts times pays with fewer entries. The counts of a table's targets add up
    to ``scale * falling(N, depth)`` (each sequence of ``depth`` of a shoe's N cards extends exactly
    one entry; checked on a few shoes), so the target with the most entries is weighed as that
    total, one entry on the factors N, N - 1, ..., and every other target pays its difference with
    it. (The kernel adds modulo 2^64: only the sums, which are unchanged, need fit in int64.) The
    entries and pays as they are where that cannot be done."""
    source, offset = table.factor_layout
    size = table.refined + 10  # where factor_counts puts the size
    places = [np.flatnonzero((source == size) & (offset == drawn)) for drawn in range(table.depth)]
    if (not len(entries.target) or entries.weight.dtype == object or entries.factors.shape[1] != table.depth or table.scale >= INT64_SAFE
            or any(not len(place) for place in places)):
        return entries, pays
    total_factors = np.array([[place[0] for place in places]], dtype=entries.factors.dtype)
    largest = int(np.bincount(entries.target, minlength=entries.targets).argmax())
    keep = entries.target != largest
    reduced = Entries(np.concatenate([entries.factors, total_factors]),
                      np.concatenate([entries.multiset[keep], np.array([len(entries.factors)], dtype=entries.multiset.dtype)]),
                      np.concatenate([entries.target[keep], np.array([largest], dtype=entries.target.dtype)]),
                      np.concatenate([entries.weight[keep], np.array([table.scale], dtype=entries.weight.dtype)]), entries.targets)
    shoes = np.random.default_rng(0).integers(1, 8, size=(CHECKED_SHOES, table.partition.classes))  # small counts: int64 sums
    known = factor_counts(shoes, table.partition, bool(table.refined))
    counts = weigh_counts(entries, known, table.factor_layout, table.bound(int(known[:, size].max())))
    if counts.sum(axis=1).tolist() != [table.scale * falling(int(shoe), table.depth) for shoe in known[:, size]]:
        return entries, pays
    shifted = pays.dense - pays.dense[largest]
    shifted[largest] = pays.dense[largest]
    return reduced, Pays(shifted)


def _place(numerators: Array, rows: slice, members: list[int], values: Array) -> None:
    """``numerators[rows, members] = values[:, :len(members)]``, a run of consecutive members at a
    time (numpy copies into a slice of columns far faster than into a list of them).

    >>> grid = np.zeros((1, 5), dtype=np.int64)
    >>> _place(grid, slice(0, 1), [0, 1, 3], np.array([[7, 8, 9, 6]]))
    >>> grid.tolist()
    [[7, 8, 0, 9, 0]]
    """
    first = 0
    for end in [place + 1 for place in range(len(members) - 1) if members[place + 1] != members[place] + 1] + ([len(members)] if members else []):
        numerators[rows, members[first] : members[end - 1] + 1] = values[:, first:end]
        first = end


OUTCOME_GROUP: tuple[bool, Tracked] = (True, ())
"""The table whose events are told apart by the winner too, when the outcomes are asked for: the
coup's, no card slot tracked (the main bets' own)."""


def _group(bets: list[Bet], members: list[int]) -> tuple[Bet, ...]:
    return tuple(bets[index] for index in members)


def batch_expectations(counts: Any, bets: "str | Bet | Iterable[str | Bet]", rules: "DrawRules | Decisions | str" = PUNTO_BANCO,
                       policy: Policy | str | None = None, outcomes: bool = False) -> BatchExpectations:
    """Exact expectations of ``bets`` (given as :func:`exact_odds.analyze` takes
    them) for many shoes under ``rules`` with their choices fixed by ``policy``. ``counts`` is
    (shoes x 13) per-rank counts A..K, or (shoes x 52) per-card counts (rank-major, suits S H D C)
    when a bet reads suits or colours. Any bet the compiled tables can
    hold is weighed: on the coup (with the card slots it reads) or on the first cards alone. With
    ``outcomes``, the coups each outcome wins too, from the same weighing of events (and then
    ``bets`` may be an empty list: the outcomes alone).

    >>> from exact_odds.bets.bets import catalog
    >>> many = batch_expectations([[32] * 13, [32] * 9 + [0] * 4], [catalog()["dragon_7"]])
    >>> many.positive()[:, 0].tolist()  # without ten-valued cards the Dragon 7 favours the bettor
    [False, True]
    """
    if not isinstance(outcomes, bool):
        raise InputError(f"outcomes must be True or False, not {shown(outcomes)}", parameter="outcomes")
    rules = rules if isinstance(rules, Decisions) else as_rules(rules)
    decisions = decisions_of(rules, policy)
    shoes = shoe_rows(counts)
    chosen: list[Bet] = []  # with outcomes, no bet is the outcomes alone
    if not (outcomes and isinstance(bets, (list, tuple)) and not bets):
        chosen, _ = chosen_bets(bets, decisions.rules, shoes.shape[1] == len(CARD_NAMES))
    rows = np.empty((len(shoes), shoes.shape[1] + 1))  # the shoes' counts and a 1, as floats (exact: below MAX_COUNT)
    rows[:, :-1], rows[:, -1] = shoes, 1
    totals = projected(rows, np.append(np.ones(shoes.shape[1]), 0)[:, None])[:, 0]
    sizes = tuple(totals.tolist())
    most = int(totals.max(initial=0))
    small = np.flatnonzero(totals < CARDS_PER_COUP)
    if len(small):
        raise InputError(f"shoe {small[0]} holds {sizes[small[0]]} cards; a coup needs a shoe of at least {CARDS_PER_COUP}")
    groups: dict[tuple[bool, Tracked], list[int]] = {}  # (reads the coup, slots read): bets that share a table
    for index, bet in enumerate(chosen):
        groups.setdefault((bet.needs_coup, tracked_key(bet.card_slots)), []).append(index)
    if outcomes:
        groups.setdefault(OUTCOME_GROUP, [])
    forms = {key: pattern_form(key[1], tuple(chosen[index] for index in members)) for key, members in groups.items()
             if not key[0] and draws_of_classes(key[1]) > SMALL_CARD_TABLE}
    tables = {key: coup_table(decisions, key[1], None, _group(chosen, members)) if key[0] else card_table(key[1], card_partition(key[1], _group(chosen, members)))
              for key, members in groups.items() if forms.get(key) is None}  # tables for the classes the bets tell apart, as for one shoe
    largest_pay = max((abs(net) for bet in chosen for net in bet.scaled_pays[1]), default=0)
    largest = max((table.bound(most) for table in tables.values()), default=most**4)
    wide = largest_pay * largest >= INT64_SAFE
    whole = len(groups) == 1 and not forms and not outcomes and len(shoes) <= CHUNK  # one weighing gives every numerator
    numerators = np.zeros((0 if whole else len(shoes), len(chosen)), dtype=object if wide else np.int64)
    scales = [0] * len(chosen)
    depths = [0] * len(chosen)
    won: list[Array] = []  # per chunk of shoes, the coups each outcome wins
    outcome_table: Table | None = None
    known_of: dict[tuple[Partition, bool, int], Array] = {}  # per chunk, the counts the kernel reads, once per partition
    for key, members in groups.items():
        group = _group(chosen, members)
        form = forms.get(key)
        if form is not None:
            pays = _pays(group, np.stack([bet.settle(form.columns) for bet in group], axis=1))
            classes = Partition.of(form.fine).class_counts(shoes)
            for start in range(0, len(shoes), FORM_CHUNK):
                counts = form.counts(classes[start : start + FORM_CHUNK])
                _place(numerators, slice(start, start + FORM_CHUNK), members,
                       (counts.astype(object) @ pays.astype(object)) if wide or counts.dtype == object else exact_product(counts, pays))
            for position, index in enumerate(members):
                scales[index], depths[index] = group[position].scaled_pays[0], len(form.tracked)
            continue
        table = tables[key]
        counts_outcomes = outcomes and key == OUTCOME_GROUP
        basis = cached_basis(table, group, winner=counts_outcomes)
        if counts_outcomes:
            outcome_table = table
        if "pays" not in basis.kept:
            columns = [_pays(group, basis.lines)] if group else []
            if counts_outcomes:  # the coups each outcome wins: a pay of 1 on its events
                columns.append((basis.lines[:, -1:] == np.arange(len(OUTCOMES))).astype(np.int64))
            basis.kept["pays"] = Pays(np.concatenate(columns, axis=1))
        paying = basis.kept["pays"]
        assert isinstance(paying, Pays)
        for position, index in enumerate(members):
            scales[index], depths[index] = group[position].scaled_pays[0] * table.scale, table.depth
        for start in range(0, len(shoes), CHUNK):
            chunk = slice(start, start + CHUNK)
            bound = table.bound(int(totals[chunk].max()))
            place = (table.partition, bool(table.refined), start)
            if place not in known_of:
                known_of[place] = projected(rows[chunk], _projection(table.partition, shoes.shape[1], bool(table.refined)))
            known = known_of[place]
            if wide or bound >= INT64_SAFE:  # Python integers
                paid = weigh_counts(basis.entries, known, table.factor_layout, bound).astype(object) @ paying.dense.astype(object)
            elif 4 * max(largest_pay, 1) * bound >= INT64_SAFE:  # every partial sum is at most the largest pay (or 1) times the total: int64
                paid = weigh_counts(basis.entries, known, table.factor_layout, bound, pays=paying, shared=table.shared_factors)
            else:  # folded, every partial sum is at most twice the largest pay times twice the total
                if "folded" not in basis.kept:
                    basis.kept["folded"] = folded(table, basis.entries, paying)
                entries, shifted = cast(tuple[Entries, Pays], basis.kept["folded"])
                paid = weigh_counts(entries, known, table.factor_layout, bound, pays=shifted, shared=table.shared_factors)
            if whole:
                numerators = paid.astype(numerators.dtype, copy=False)
            else:
                _place(numerators, chunk, members, paid)
            if counts_outcomes:
                won.append(paid[:, len(members) :].astype(np.int64) if bound < INT64_SAFE else paid[:, len(members) :])
    if not outcomes:
        return BatchExpectations(tuple(chosen), numerators, tuple(scales), tuple(depths), sizes)
    assert outcome_table is not None
    return BatchExpectations(tuple(chosen), numerators, tuple(scales), tuple(depths), sizes, np.concatenate(won), outcome_table.scale, outcome_table.depth)
