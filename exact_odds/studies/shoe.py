"""A whole shoe dealt to the cut card: the hold per coup beside the edge off the top (the cut-card
effect), and what a player who sees every card would win, exactly or simulated (issue 31).

The shoe is dealt as Punto Banco deals it and as ``simulate`` does: with the burn, the first card
is turned and as many burned face down as its value (ten for a ten-valued card); coups are dealt
until the cut card (``cut_card`` cards lie in front of it) appears, the coup in which it appears is
finished and ``after_cut`` more are dealt; a coup is dealt only while six cards are left. For each
bet: ``hold_per_coup`` is E[sum of the bet's results over the shoe] / E[coups], ``off_the_top``
its expectation on the full shoe, ``cut_card_effect`` their difference, ``perfect_play`` E[sum
over the coups of max(0, the bet's exact expectation given every card seen before the coup)];
``best`` the same of the best bet at each coup. docs/shoe.md says it in words, with an example.

>>> study = ShoeStudy(shoe=Shoe.parse("A=3,2=3,K=6"), cut_card=5, burn=False)
>>> odds = shoe_odds(study)
>>> odds.expected_coups.exact, odds["banker"].hold_per_coup.exact
(Fraction(2, 1), Fraction(-3797, 184800))
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..bets.bets import Bet, as_bets
from ..core.features import Granularity
from ..core.numbers import shown
from ..core.policy import Decisions, resolve
from ..core.rules import PUNTO_BANCO
from ..core.shoe import Shoe
from ..errors import InputError
from ..records import versioned
from .dealer import Settings
from .shoe_bets import BetsShape
from .shoe_exact import deals_a_coup, exact_sums, starts
from .shoe_simulated import ShoePartial, estimates, merged, simulate_range

METHODS = ("exact", "simulated")
MAX_EXACT_STATES = 40_000_000
"""The exact method weighs at most this many multisets of cards seen (a single deck has 33,203,125 in all)."""
CHUNK_SHOES = 100
"""Shoes per range of the simulated method run here."""


def _whole(value: object, name: str, minimum: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(f"{name} must be a whole number from {minimum} ({what}), not {shown(value)}", parameter=name)
    return value


@dataclass(frozen=True, kw_only=True)
class ShoeStudy:
    """A shoe dealt to the cut card, checked before any work: everything that defines the figures."""

    shoe: Shoe
    cut_card: int
    """Cards in front of the cut card."""
    bets: Any = None
    """Bets or catalog names (as :func:`~exact_odds.bets.bets.as_bets` takes them; the main bets by default): a tuple of bets once checked."""
    decisions: Decisions = field(default_factory=lambda: resolve(PUNTO_BANCO))
    after_cut: int = 1
    """Coups dealt after the one in which the cut card appears."""
    burn: bool = True
    method: str = "exact"
    shoes: int = 100_000
    """Shoes the simulated method deals."""
    seed: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.shoe, Shoe):
            raise InputError(f"shoe must be a Shoe, not {shown(self.shoe)}", parameter="shoe")
        if self.shoe.with_replacement:
            raise InputError("shoe: the infinite deck has no cut card (give a shoe of real cards)", parameter="shoe")
        cut = _whole(self.cut_card, "cut_card", 0, "cards in front of the cut card")
        if cut > self.shoe.size:
            raise InputError(f"cut_card {cut} is past the shoe ({self.shoe.size} cards)", parameter="cut_card")
        _whole(self.after_cut, "after_cut", 0, "coups dealt after the one in which the cut card appears")
        if not isinstance(self.burn, bool):
            raise InputError(f"burn must be True or False, not {shown(self.burn)}", parameter="burn")
        if self.method not in METHODS:
            raise InputError(f"method must be exact or simulated, not {shown(self.method)}", parameter="method")
        if not isinstance(self.decisions, Decisions):
            raise InputError(f"decisions must be the rules with every choice fixed (core.policy.resolve), not {shown(self.decisions)}",
                             parameter="decisions")
        object.__setattr__(self, "bets", tuple(as_bets(self.bets, self.decisions.rules, self.shoe.knows_suits)))
        self._check_coups()
        if self.method == "exact":
            self._check_exact()
        else:
            _whole(self.shoes, "shoes", 1, "shoes to deal")
            _whole(self.seed, "seed", 0, "the seed of the shuffles")
            for bet in self.bets:
                if bet.needs_suits and not self.shoe.knows_suits:
                    raise InputError(f"bet {bet.name!r} reads suits, but the shoe is given by rank only (give per-card counts)", parameter="bets")

    @property
    def counts(self) -> tuple[int, ...]:
        """The shoe's count of each point value 0-9."""
        return self.shoe.value_counts

    def _check_coups(self) -> None:
        if deals_a_coup(self.counts, self.cut_card, self.after_cut, self.burn):
            return
        if not deals_a_coup(self.counts, self.shoe.size, 1, self.burn):
            burn = " after the burn" if self.burn else ""
            raise InputError(f"shoe: {self.shoe.size} cards are too few for a coup{burn} (a coup needs six cards left)", parameter="shoe")
        raise InputError(f"cut_card {self.cut_card}: the burn always passes the cut card, and after_cut 0 deals no coup after it", parameter="cut_card")

    def _check_exact(self) -> None:
        for bet in self.bets:
            if any(level != Granularity.VALUE for level in bet.card_slots.values()):
                raise InputError(f"bet {bet.name!r} reads card ranks or suits; the exact shoe tells cards apart by point value only "
                                 "(method simulated weighs it)", parameter="bets")
        if not self.decisions.pure:
            raise InputError("policy: the exact shoe needs every choice fixed (a mixed choice is drawn at random: method simulated deals it)",
                             parameter="policy")
        weighed = exact_states(self.counts, self.cut_card, self.after_cut, self.burn)
        if weighed > MAX_EXACT_STATES:
            raise InputError(f"method exact would weigh {weighed:,} multisets of cards seen (at most {MAX_EXACT_STATES:,}): "
                             "a smaller shoe or an earlier cut card, or method simulated", parameter="method")

    def settings(self) -> Settings:
        """The run as the dealer of ``simulate`` takes it."""
        return Settings(self.shoe, self.shoes, self.seed, Fraction(self.cut_card, self.shoe.size), self.burn, None, self.bets,
                        self.decisions, coups_after_cut=self.after_cut)

    def full_counts(self) -> tuple[int, ...]:
        """The full shoe as the batch kernel weighs it: per card when a bet reads suits, else per rank."""
        suited = any(bet.needs_suits for bet in self.bets)
        counts = self.shoe.card_counts if suited else self.shoe.rank_counts
        assert counts is not None
        return counts


def exact_states(counts: tuple[int, ...], cut_card: int, after_cut: int, burn: bool) -> int:
    """How many multisets of cards seen the exact method may weigh: all those of the sizes it reaches
    (counted by multiplying the polynomials 1 + x + ... + x^c of the values' counts c, not listed).

    >>> exact_states(Shoe.decks(1).value_counts, 52, 1, False)  # every multiset of up to 46 cards
    33200131
    """
    top = max((start.last_layer for start in starts(counts, cut_card, after_cut, burn)), default=-1) + int(burn)
    sizes = [1]
    for count in counts:
        grown = [0] * min(len(sizes) + count, top + 1)
        for size, ways in enumerate(sizes):
            for more in range(min(count, top - size) + 1):
                grown[size + more] += ways
        sizes = grown
    return sum(sizes)


@dataclass(frozen=True)
class Figure:
    """A figure of the shoe: exact (a fraction), or estimated with its standard error."""

    exact: Fraction | None
    value: float
    standard_error: float | None

    @classmethod
    def of(cls, value: Fraction) -> "Figure":
        return cls(value, float(value), None)

    def record(self, name: str) -> dict[str, object]:
        return {name: None if self.exact is None else str(self.exact), f"{name}_decimal": self.value, f"{name}_standard_error": self.standard_error}


@dataclass(frozen=True)
class BetOnShoe:
    """One bet's figures over the shoe."""

    bet: Bet
    off_the_top: Figure
    hold_per_coup: Figure
    cut_card_effect: Figure
    perfect_play: Figure

    def to_dict(self) -> dict[str, object]:
        return {**self.off_the_top.record("off_the_top"), **self.hold_per_coup.record("hold_per_coup"),
                **self.cut_card_effect.record("cut_card_effect"), **self.perfect_play.record("perfect_play")}


@dataclass(frozen=True)
class ShoeOdds:
    """The figures of a :class:`ShoeStudy` (see the module docstring)."""

    study: ShoeStudy
    method: str
    expected_coups: Figure
    bets: tuple[BetOnShoe, ...]
    best_perfect_play: Figure
    states: int | None = None
    """Multisets of cards seen that the exact method weighed."""
    shoes: int | None = None
    """Shoes the simulated method dealt."""
    interrupted: bool = False

    def __getitem__(self, name: str) -> BetOnShoe:
        for entry in self.bets:
            if entry.bet.name == name:
                return entry
        raise KeyError(name)

    def to_dict(self) -> dict[str, object]:
        """The JSON record ``exact_odds.shoe``: exact values as fraction strings (null when simulated)
        with their decimals and standard errors (null when exact) beside them."""
        study = self.study
        return versioned("shoe", {
            "method": self.method,
            "shoe": {"description": study.shoe.description, "cards": study.shoe.size},
            "rules": study.decisions.rules.name,
            "policy": str(study.decisions.policy) or None,
            "cut_card": study.cut_card,
            "after_cut": study.after_cut,
            "burn": study.burn,
            "states": self.states,
            "shoes": self.shoes,
            "seed": study.seed if self.method == "simulated" else None,
            "interrupted": self.interrupted,
            **self.expected_coups.record("expected_coups"),
            "bets": {entry.bet.name: entry.to_dict() for entry in self.bets},
            "best": self.best_perfect_play.record("perfect_play"),
        })


def shoe_odds(study: ShoeStudy, workers: int = 1, scheduler: str | None = None, progress: Callable[[int], None] | None = None) -> ShoeOdds:
    """The figures of ``study`` by its method; a simulation runs on ``workers`` local processes or a
    dask scheduler (``progress`` is told of each range of shoes done, or each step of the exact count)."""
    if study.method == "exact":
        return exact_shoe(study, progress)
    return simulated_shoe(study, workers, scheduler, progress)


def off_the_top(study: ShoeStudy) -> tuple[Fraction, ...]:
    """Each bet's exact expectation on the full shoe."""
    from ..engine.batch import batch_expectations

    if not study.bets:
        return ()
    batch = batch_expectations([list(study.full_counts())], list(study.bets), study.decisions)
    return tuple(batch.expected_value(0, bet.name) for bet in study.bets)


def exact_shoe(study: ShoeStudy, progress: Callable[[int], None] | None = None) -> ShoeOdds:
    """The figures of ``study``, exactly."""
    sums = exact_sums(study.counts, study.cut_card, study.after_cut, study.burn, study.bets, study.decisions, progress)
    entries = []
    for bet, top, results, positive in zip(study.bets, off_the_top(study), sums.results, sums.positive):
        hold = results / sums.coups
        entries.append(BetOnShoe(bet, Figure.of(top), Figure.of(hold), Figure.of(hold - top), Figure.of(positive)))
    return ShoeOdds(study, "exact", Figure.of(sums.coups), tuple(entries), Figure.of(sums.best), states=sums.states)


def simulated_range(study: ShoeStudy, first: int, last: int) -> ShoePartial:
    """Shoes first..last-1 of ``study``: a partial result that adds to any other (see
    :mod:`~exact_odds.studies.shoe_simulated`)."""
    return simulate_range(study.settings(), first, last)


def simulated_odds(study: ShoeStudy, partial: ShoePartial, interrupted: bool = False) -> ShoeOdds:
    """The figures of ``study`` estimated from the shoes summed in ``partial``."""
    shape = BetsShape.of(study.bets, study.decisions, study.full_counts())
    figures = estimates(partial, shape)
    entries = []
    for bet, top, hold, perfect in zip(study.bets, off_the_top(study), figures.hold, figures.perfect):
        entries.append(BetOnShoe(bet, Figure.of(top), Figure(None, hold.value, hold.standard_error),
                                 Figure(None, hold.value - float(top), hold.standard_error), Figure(None, perfect.value, perfect.standard_error)))
    return ShoeOdds(study, "simulated", Figure(None, figures.coups.value, figures.coups.standard_error), tuple(entries),
                    Figure(None, figures.best.value, figures.best.standard_error), shoes=partial.shoes, interrupted=interrupted)


def simulated_shoe(study: ShoeStudy, workers: int = 1, scheduler: str | None = None, progress: Callable[[int], None] | None = None) -> ShoeOdds:
    """Deal ``study.shoes`` shoes in ranges of :data:`CHUNK_SHOES` (here, on local worker processes or
    on a dask cluster); interrupted (Ctrl-C), the figures of the ranges completed in order from the first."""
    from contextlib import nullcontext

    from .parallel import cluster_executor, local_executor, run_ranges

    ranges = [(first, min(first + CHUNK_SHOES, study.shoes)) for first in range(0, study.shoes, CHUNK_SHOES)]
    done: dict[int, ShoePartial] = {}
    interrupted = False
    executor: Any = cluster_executor(scheduler) if scheduler else local_executor(workers) if workers > 1 else nullcontext()
    try:
        with executor as pool:
            for index, partial in run_ranges(simulated_range, study, ranges, pool):
                done[index] = partial
                if progress:
                    progress(partial.shoes)
    except KeyboardInterrupt:
        interrupted = True
    completed = _in_order(done)
    if not completed.shoes:
        raise InputError("no shoe was completed", parameter="shoes")
    return simulated_odds(study, completed, interrupted)


def _in_order(done: dict[int, ShoePartial]) -> ShoePartial:
    ranges: Iterable[ShoePartial] = (done[index] for index in range(len(done)) if all(earlier in done for earlier in range(index + 1)))
    return merged(ranges)
