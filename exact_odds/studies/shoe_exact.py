"""A shoe dealt to the cut card, exactly: every multiset of cards seen at a coup, weighed.

The shoe is a uniformly random order of its cards. With the burn, its first card is turned (the
player sees it) and as many more burned face down as its value (ten for a ten-valued card); the
coups begin after them. The burned cards count toward the cut card and the end of the shoe, but the
player does not see them: by symmetry, the expectation of any bet before a coup is that of the shoe
less the cards *seen* (the turned card and the coups dealt), whatever lies face down.

A coup boundary after n coup cards with the point values of multiset D (and the turned card v)
happens with probability W(D) (c)_S / (N)_|S|, S the multiset seen (D and v), where (c)_S is the
product over values of falling factorials of the shoe's counts and W(D) counts the sequences of
point values of multiset D that cut into whole coups (:mod:`exact_odds.studies.shoe_layers`),
reaching the boundary as the cut card allows: W is the same for every shoe while every boundary
lies before the cut card; the coup that passes it (and the ``after_cut`` coups after that one) are
counted by separate streams from the boundaries before it. A coup is dealt from a boundary that
lies within ``after_cut`` coups of the cut card and leaves at least six cards in the shoe.

Each figure is then a sum over the multisets S seen at a coup: R(S) (c)_S times the bet's exact
expectation on the shoe less S (the batch kernel), over (N)_|S| and the expectation's denominator.
R(S) is counted modulo primes below 2^31, enough of them that their product exceeds twice a bound
on every layer's sum, and each layer's sum is rebuilt exactly by the Chinese remainder theorem.
"""

import math
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..bets.bets import Bet
from ..core.features import Array
from ..core.policy import Decisions
from ..core.shoe import CARDS_PER_COUP
from ..engine.distribution import falling
from ..engine.kernel import PRIME_LIMIT
from .coup_lengths import coup_lengths
from .shoe_bets import BetsShape, ranks_of
from .shoe_layers import Layout, Stream, unit

EV_CHUNK = 1 << 16
"""Multisets weighed by the batch kernel at once."""
IN_MEMORY = 1 << 28
"""Residues of at most this many bytes are kept in memory; more go to files in a temporary folder."""


def burned(value: int) -> int:
    """The cards burned face down after a card of ``value`` is turned: its value, ten for a ten-valued card."""
    return value or 10


@dataclass(frozen=True)
class Start:
    """Where the coups of a shoe begin: after the turned card ``shown`` and its burn, or at the top."""

    shown: int | None
    position: int
    cut_layer: int
    """Coup boundaries after at most this many coup cards lie before the cut card (negative: the burn passed it)."""
    last_layer: int
    """A coup is dealt from a boundary after at most this many coup cards (six cards are left), and
    within the coups after the cut card's."""


def starts(counts: tuple[int, ...], cut_card: int, after_cut: int, burn: bool) -> list[Start]:
    """Each way the shoe's coups can begin (per value of the turned card, with the burn)."""
    size = sum(counts)
    positions = {value: 1 + burned(value) for value in range(10) if counts[value]} if burn else {None: 0}
    points = []
    for shown, position in positions.items():
        cut_layer = cut_card - position
        reach = cut_layer + CARDS_PER_COUP * after_cut if cut_layer >= 0 else CARDS_PER_COUP * (after_cut - 1)
        points.append(Start(shown, position, cut_layer, min(size - CARDS_PER_COUP - position, reach)))
    return points


def deals_a_coup(counts: tuple[int, ...], cut_card: int, after_cut: int, burn: bool) -> bool:
    """Whether some order of the shoe deals a coup."""
    return any(start.last_layer >= 0 for start in starts(counts, cut_card, after_cut, burn))


def is_prime(number: int) -> bool:
    """Miller-Rabin with the bases that decide every number below 3.4 x 10^14.

    >>> [prime for prime in range(2**31 - 100, 2**31) if is_prime(prime)]
    [2147483549, 2147483563, 2147483579, 2147483587, 2147483629, 2147483647]
    """
    if number < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17)
    if number in bases:
        return True
    if any(number % base == 0 for base in bases):
        return False
    odd, twos = number - 1, 0
    while odd % 2 == 0:
        odd, twos = odd // 2, twos + 1
    for base in bases:
        power = pow(base, odd, number)
        if power in (1, number - 1):
            continue
        for _ in range(twos - 1):
            power = power * power % number
            if power == number - 1:
                break
        else:
            return False
    return True


def primes_for(bound: int) -> list[int]:
    """The largest primes below 2^31, as few as make a product above ``2 * bound``."""
    primes: list[int] = []
    candidate, product = PRIME_LIMIT - 1, 1
    while product <= 2 * bound:
        if is_prime(candidate):
            primes.append(candidate)
            product *= candidate
        candidate -= 2
    return primes


def rebuilt(residues: list[int], primes: list[int]) -> int:
    """The integer of least absolute value with these residues (Chinese remainder theorem)."""
    modulus = math.prod(primes)
    value = sum(residue * (modulus // prime) * pow(modulus // prime, -1, prime) for residue, prime in zip(residues, primes)) % modulus
    return value - modulus if 2 * value > modulus else value


class Residues:
    """R(S) modulo each prime, layer by layer, each layer's cells in :meth:`Layout.cells` order:
    in memory, or in files of a temporary folder when large (read back a layer at a time)."""

    def __init__(self, layout: Layout, layers: list[int], primes: int):
        self.primes = primes
        self.sizes = {layer: len(layout.cells(layer)) for layer in layers}
        large = 4 * primes * sum(self.sizes.values()) > IN_MEMORY
        self.folder = tempfile.TemporaryDirectory(prefix="exact_odds_shoe_") if large else None
        self.kept: dict[tuple[int, int], Array] = {}

    def put(self, prime: int, layer: int, values: Array) -> None:
        values = np.ascontiguousarray(values, dtype=np.uint32)
        if self.folder is None:
            self.kept[prime, layer] = values
        else:
            values.tofile(f"{self.folder.name}/{prime}-{layer}")

    def layer(self, layer: int) -> Array:
        """(primes x cells) the residues of ``layer`` (zeros where none were put)."""
        rows = []
        for prime in range(self.primes):
            if self.folder is None:
                rows.append(self.kept.get((prime, layer), np.zeros(self.sizes[layer], dtype=np.uint32)))
            else:
                path = f"{self.folder.name}/{prime}-{layer}"
                rows.append(np.fromfile(path, dtype=np.uint32) if os.path.exists(path) else np.zeros(self.sizes[layer], dtype=np.uint32))
        return np.stack(rows) if rows else np.zeros((0, self.sizes[layer]), dtype=np.uint32)

    def close(self) -> None:
        self.kept.clear()
        if self.folder is not None:
            self.folder.cleanup()


def _total(layout: Layout, parts: tuple[Array | None, ...], prime: int) -> Array | None:
    present = [part for part in parts if part is not None]
    return layout.total(present, prime) if present else None


def count_boundaries(layout: Layout, decisions: Decisions, prime: int, points: list[Start], after_cut: int,
                     sink: Callable[[Start, int, Array], None]) -> None:
    """Hand ``sink(start, n, counts)`` the counts (modulo ``prime``) of the boundaries after n coup
    cards from which a coup is dealt, once per start, layer and phase (coups since the cut card's)."""
    lengths = coup_lengths(decisions)
    universal = Stream(layout, lengths, prime)
    universal_top = max((min(start.cut_layer + CARDS_PER_COUP, start.last_layer) for start in points if start.cut_layer >= 0), default=-1)
    bands: dict[tuple[int, int], Stream] = {}  # (start, phase): the boundaries one coup after those of the phase

    for size in range(max(start.last_layer for start in points) + 1):
        parts = universal.advance(size) if size <= universal_top else (None, None, None)
        whole = layout.origin() if size == 0 else _total(layout, parts, prime)
        if size <= universal_top:
            universal.feed(size, whole)
        for index, start in enumerate(points):
            if size > start.last_layer:
                continue
            phases: dict[int, Array | None] = {}  # coups since the one in which the cut card appeared
            if start.cut_layer < 0:  # the burn passed the cut card: the coups after it, from the top
                phases[1] = layout.origin() if size == 0 else None
            elif size <= start.cut_layer:
                phases[0] = whole
            else:  # the coup in which the cut card appears: from a boundary before it
                phases[1] = _total(layout, tuple(part if size - drop <= start.cut_layer else None for drop, part in zip((4, 5, 6), parts)), prime)
            for phase in [phase for at, phase in bands if at == index]:  # those reached: at most a phase a coup, whatever after_cut
                phases[phase + 1] = _total(layout, bands[index, phase].advance(size), prime)
            for phase, counts in phases.items():
                if counts is not None and phase <= after_cut:
                    sink(start, size, counts)
                    if 1 <= phase < after_cut:
                        bands.setdefault((index, phase), Stream(layout, lengths, prime)).feed(size, counts)


@dataclass(frozen=True)
class ExactSums:
    """A shoe's sums over its coups, exactly: the expected number of coups, and per bet the expected
    sum of its expectations (of its results) and of their positive parts; the same of the best bet."""

    coups: Fraction
    results: tuple[Fraction, ...]
    positive: tuple[Fraction, ...]
    best: Fraction
    states: int
    """Multisets seen at a coup that were weighed."""
    primes: int


def exact_sums(counts: tuple[int, ...], cut_card: int, after_cut: int, burn: bool, bets: tuple[Bet, ...], decisions: Decisions,
               progress: Callable[[int], None] | None = None) -> ExactSums:
    """The sums of :class:`ExactSums` for a shoe of ``counts`` (per point value 0-9) dealt to the cut
    card (``cut_card`` cards in front of it) and ``after_cut`` coups more, with or without the burn,
    for bets that read point values only (the caller checks). ``progress`` is told of each prime
    counted and each layer weighed (:func:`steps` of them)."""
    layout = Layout(counts)
    points = starts(counts, cut_card, after_cut, burn)
    size = sum(counts)
    shape = BetsShape.of(bets, decisions, ranks_of(np.asarray([counts]))[0])
    primes = _primes(counts, shape)
    shift = 1 if burn else 0
    layers = seen_layers(points, shift)
    residues = Residues(layout, layers, len(primes))
    try:
        for index, prime in enumerate(primes):
            _count_residues(layout, decisions, prime, index, points, after_cut, shift, residues)
            if progress:
                progress(1)
        sums, states = _weigh(layout, residues, layers, primes, bets, shape, decisions, progress)
    finally:
        residues.close()

    def figure(sums: list[list[int]], scale: int, depth: int) -> Fraction:
        return sum((Fraction(rebuilt(residues, primes), scale * falling(size, layer + depth)) for layer, residues in zip(layers, sums)), Fraction(0))

    count = len(bets)
    return ExactSums(figure(sums[0], 1, 0),
                     tuple(figure(sums[1 + bet], shape.scales[bet], shape.depths[bet]) for bet in range(count)),
                     tuple(figure(sums[1 + count + bet], shape.scales[bet], shape.depths[bet]) for bet in range(count)),
                     figure(sums[-1], shape.common, shape.deepest), states, len(primes))


def seen_layers(points: list[Start], shift: int) -> list[int]:
    """The numbers of cards seen at a coup dealt from some start."""
    return sorted({layer + shift for point in points for layer in range(point.last_layer + 1)})


def steps(counts: tuple[int, ...], cut_card: int, after_cut: int, burn: bool, bets: tuple[Bet, ...], decisions: Decisions) -> int:
    """How many times :func:`exact_sums` tells its progress."""
    return len(_primes(counts, BetsShape.of(bets, decisions, ranks_of(np.asarray([counts]))[0]))) + len(
        seen_layers(starts(counts, cut_card, after_cut, burn), int(burn)))


def _primes(counts: tuple[int, ...], shape: BetsShape) -> list[int]:
    """Enough primes for every layer's sum: each is at most (N)_(n + depth) times the largest
    net pay and the scale of a numerator (see the module docstring)."""
    return primes_for(math.factorial(sum(counts)) * max(1, shape.common * shape.largest))


NO_CARD = (0,) * 10


def _count_residues(layout: Layout, decisions: Decisions, prime: int, index: int, points: list[Start], after_cut: int, shift: int,
                    residues: Residues) -> None:
    """R(S) modulo ``prime`` into ``residues``: the boundaries of every start and phase, each moved
    by the card its start turned; a layer put away once no more counts can reach it."""
    seen: dict[int, Array] = {}

    def put(upto: int) -> None:
        for layer in [layer for layer in seen if layer <= upto]:
            residues.put(index, layer, seen.pop(layer).ravel()[layout.cells(layer)])

    def sink(start: Start, size: int, counts: Array) -> None:
        put(size + shift - 1)
        layout.add_shifted(seen.setdefault(size + shift, layout.zeros()), counts, NO_CARD if start.shown is None else unit(start.shown), prime)

    count_boundaries(layout, decisions, prime, points, after_cut, sink)
    put(max(residues.sizes, default=0))


def _weigh(layout: Layout, residues: Residues, layers: list[int], primes: list[int], bets: tuple[Bet, ...], shape: BetsShape,
           decisions: Decisions, progress: Callable[[int], None] | None) -> tuple[list[list[list[int]]], int]:
    """Per figure, layer and prime, the residue of the sum over the multisets S seen of R(S) (c)_S
    times: 1 (the coups); each bet's expectation numerator; each one's positive part; the best
    bet's positive part over their common denominator. And how many multisets were weighed."""
    from ..engine.batch import batch_expectations

    counts = np.asarray(layout.counts)
    size = int(counts.sum())
    tables = [[np.array([falling(count, drawn) % prime for drawn in range(count + 1)], dtype=np.uint64) for count in layout.counts]
              for prime in primes]
    sums = [[[0] * len(primes) for _ in layers] for _ in range(2 * len(bets) + 2)]
    states = 0
    for place, layer in enumerate(layers):
        weights = residues.layer(layer)
        kept = weights.any(axis=0)
        cells, weights = layout.cells(layer)[kept], weights[:, kept]
        states += len(cells)
        for first in range(0, len(cells), EV_CHUNK):
            seen = layout.value_counts(layer, cells[first : first + EV_CHUNK])
            numerators = batch_expectations(ranks_of(counts - seen), list(bets), decisions).numerators if bets else np.zeros((len(seen), 0), dtype=np.int64)
            common = shape.over_common(numerators, np.full(len(seen), size - layer))
            columns = [None] + [numerators[:, bet] for bet in range(len(bets))] + [np.maximum(numerators[:, bet], 0) for bet in range(len(bets))]
            columns += [np.maximum(common.max(axis=1), 0)] if bets else [None]
            for index, prime in enumerate(primes):
                weight = weights[index, first : first + EV_CHUNK].astype(np.uint64)
                for value in range(10):
                    weight = weight * tables[index][value][seen[:, value]] % prime
                for figure, column in enumerate(columns):
                    if figure == 0 or column is not None:
                        total = int(weight.sum()) if column is None else int((weight * (column % prime).astype(np.uint64) % prime).sum())
                        sums[figure][place][index] = (sums[figure][place][index] + total) % prime
        if progress:
            progress(1)
    return sums, states
