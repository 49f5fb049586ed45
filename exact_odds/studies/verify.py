"""The checker: each published figure (:mod:`exact_odds.studies.figures`) computed exactly and
compared at the precision it was printed, a simulated one within its standard errors; the report
of `verify`.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..bets.bets import Bet, available_bets
from ..bets.conditions import parse_condition
from ..core.cards import RANKS, Card, rank_index
from ..core.features import FIRST_CARDS, Granularity, merge_levels
from ..core.policy import Decisions, Policy, resolve
from ..core.rules import PRESETS
from ..core.shoe import Shoe, shoe_of_decks
from ..engine.analysis import BetAnalysis, analyze_checked, unordered_divisor
from ..engine.compiled import FastEngine
from ..engine.distribution import Distribution
from ..errors import InputError
from .dealer import THRESHOLDS, Settings, parse_penetration, parse_tags
from .figures import (DEAD_CHIP_WAGERS, INFORMATION_GAIN, MATRIX_SIZE, SIMULATED, Figure, Printed, load_figures, matches,
                      matrix_size_text, parse_matrix_size, parse_printed, protect_request, published_figures)
from .groups import parse_groups
from .simulate import Estimate, Simulation

if TYPE_CHECKING:
    from .protect import Protection, ProtectRequest, SortSearch

__all__ = ["Calculator", "Check", "check", "load_figures", "published_figures", "within"]
# the checker's names, and the loaders of the figures it checks (from figures)

STANDARD_ERRORS = 3
"""A simulated figure matches when the printed value lies within this many standard errors of ours."""


@dataclass(frozen=True)
class Check:
    """A figure, what we computed (exact, or a simulation's estimate with its standard error) and the verdict."""

    figure: Figure
    exact: Fraction | None
    verdict: str
    estimate: Estimate | None = None
    size: str = ""
    """For a matrix size: ours, written as the record writes it."""
    reason: str = ""
    """Why a figure whose value matches fails all the same (a best split other than the record's)."""

    @property
    def failed(self) -> bool:
        return self.verdict == "mismatch"


class Calculator:
    """Exact values of figures, sharing one enumeration per shoe, rules and feature set."""

    def __init__(self, user_bets: dict[str, Bet] | None = None, workers: int = 1):
        self.user_bets = user_bets or {}
        self.workers = workers
        self.engine = FastEngine()
        self.distributions: dict[object, object] = {}
        self.analyses: dict[object, BetAnalysis] = {}
        self.simulations: dict[object, Simulation] = {}
        self.informations: dict["ProtectRequest", "Protection | SortSearch"] = {}

    @staticmethod
    def decisions(figure: Figure) -> Decisions:
        return resolve(PRESETS[figure.rules], Policy.parse(figure.policy))

    def bet(self, figure: Figure) -> Bet:
        bets = available_bets(PRESETS[figure.rules], self.user_bets)
        if figure.bet is None or figure.bet not in bets:
            raise InputError(f"figure {figure.id!r}: unknown bet {figure.bet!r} (not in the catalog or the bets file)")
        return bets[figure.bet]

    def bet_analysis(self, figure: Figure, shoe: Shoe | None = None) -> BetAnalysis:
        shoe = shoe or shoe_of_decks(figure.decks)
        key = (shoe, figure.rules, figure.policy, figure.bet)
        if key not in self.analyses:
            self.analyses[key] = analyze_checked(shoe, [self.bet(figure)], self.decisions(figure), engine=self.engine).bets[0]
        return self.analyses[key]

    def event(self, figure: Figure, shoe: Shoe | None = None) -> tuple[int, int]:
        """Sequences where ``when`` holds, and all sequences (or all where ``given`` holds), counted
        as the figure counts them."""
        assert figure.when is not None
        shoe = shoe or shoe_of_decks(figure.decks)
        condition = parse_condition(figure.when)
        given = parse_condition(figure.given) if figure.given else None
        needs_coup, slots = condition.requirements()
        if given is not None:
            needs_coup = needs_coup or given.requirements()[0]
            slots = merge_levels(slots, given.slots)
        first_cards = figure.hand_pairs or bool(figure.unordered)
        if first_cards:
            slots = merge_levels(dict.fromkeys(FIRST_CARDS, Granularity.VALUE), slots)
        coup = needs_coup and not first_cards
        key = (shoe, figure.rules, figure.policy, coup, tuple(sorted(slots.items())))
        if key not in self.distributions:
            if coup or not slots:
                self.distributions[key] = self.engine.coups(shoe, self.decisions(figure), slots)
            else:
                self.distributions[key] = self.engine.cards(shoe, slots)
        distribution = self.distributions[key]
        assert isinstance(distribution, Distribution)
        holds = condition(distribution.columns)
        if given is not None:
            within = given(distribution.columns)
            return distribution.count_where(holds & within), distribution.count_where(within)
        count = distribution.count_where(holds)
        unordered = "hands" if figure.hand_pairs else figure.unordered  # hand_pairs: both hands' first cards, each in either order
        if unordered:
            divisor = unordered_divisor(distribution.columns, unordered, condition, f"figure {figure.id!r}", shoe.with_replacement)
            return count // divisor, distribution.total // divisor
        return count, distribution.total

    def effect_of_removal(self, figure: Figure) -> Fraction:
        """The change when ``removed`` cards of ``rank`` leave the shoe: in the bet's expectation, or
        in the probability of ``when``; times ``scale``, as printed."""
        full = shoe_of_decks(figure.decks)
        full = Shoe(full.rank_counts, None, full.description)
        depleted = full.remove((Card(RANKS[rank_index(figure.rank or "")]),) * figure.removed)
        if figure.when:
            (after, after_total), (before, before_total) = self.event(figure, depleted), self.event(figure, full)
            change = Fraction(after, after_total) - Fraction(before, before_total)
        else:
            change = self.bet_analysis(figure, depleted).expected_value - self.bet_analysis(figure, full).expected_value
        return change * Fraction(figure.scale)

    def simulation_settings(self, figure: Figure) -> Settings:
        """The run a simulation record describes (one bet; a count and its threshold when it has them)."""
        bet = self.bet(figure)
        assert isinstance(figure.decks, int)
        return Settings(Shoe.decks(figure.decks), figure.shoes, figure.seed, parse_penetration(figure.penetration), figure.burn,
                        parse_tags(figure.tags) if figure.tags else None, (bet,), self.decisions(figure),
                        (figure.threshold,) if figure.threshold is not None else THRESHOLDS, figure.count == "running", figure.coups_after_cut)

    def simulated(self, figure: Figure) -> Estimate:
        """Our estimate of a simulation figure, times ``scale``, with its standard error (one run per set of conditions)."""
        from .simulate import estimates, run

        settings = self.simulation_settings(figure)
        if settings not in self.simulations:
            self.simulations[settings] = run(settings, self.workers)
        threshold = figure.threshold if figure.measure.startswith("count_") else None
        estimate = estimates(self.simulations[settings], settings.bet_names[0], threshold)[SIMULATED[figure.measure]]
        scale = float(Fraction(figure.scale))
        return Estimate(estimate.value * scale, estimate.standard_error * abs(scale))

    @staticmethod
    def matrix_size(figure: Figure) -> tuple[int, int]:
        """The exponents of the game's size: the option points of each side of the rule set."""
        points = PRESETS[figure.rules].option_points()
        player = sum(point.side == "player" for point in points)
        return player, len(points) - player

    def dead_chip_wagers(self, figure: Figure) -> Fraction:
        """The expected wagers of a dead chip on the bet, or the mean over the bets named."""
        from dataclasses import replace

        from .rebates import dead_chip, mean_wagers

        names = [name.strip() for name in (figure.bet or "").split(",")]
        return mean_wagers([dead_chip(self.bet_analysis(replace(figure, bet=name))) for name in names])

    def information_gain(self, figure: Figure) -> tuple[Fraction, str]:
        """What the information is worth, and, for a best sort, why the record fails where the best
        split is not its ``groups`` ("" where it is)."""
        from .protect import Protection, run

        request = protect_request(figure, self.decisions(figure), self.user_bets)
        if request not in self.informations:
            self.informations[request] = run(request)
        result = self.informations[request]
        if isinstance(result, Protection):
            return result.gain, ""
        best = result.splits["values", figure.sorted or 0][0]
        wanted = best.groups if figure.groups is None else parse_groups(figure.groups)
        same = {frozenset(group) for group in best.groups.members} == {frozenset(group) for group in wanted.members}
        return best.gain, "" if same else f"the best split is {best.groups}, not {wanted}"

    def exact(self, figure: Figure) -> Fraction:
        if figure.measure == INFORMATION_GAIN:
            return self.information_gain(figure)[0]
        if figure.measure == DEAD_CHIP_WAGERS:
            return self.dead_chip_wagers(figure)
        if figure.measure == "effect_of_removal":
            return self.effect_of_removal(figure)
        if figure.measure in ("combinations", "probability"):
            count, total = self.event(figure)
            return Fraction(count) if figure.measure == "combinations" else Fraction(count, total)
        value = getattr(self.bet_analysis(figure), figure.measure)
        if value is None:
            raise InputError(f"figure {figure.id!r}: {figure.bet} never resolves, so it has no {figure.measure}")
        assert isinstance(value, Fraction)
        return value


def within(printed: Printed, estimate: Estimate, errors: int = STANDARD_ERRORS) -> bool:
    """Whether the printed figure (a half unit of its last place either way) lies within ``errors``
    standard errors of a simulation's estimate."""
    factor = 100 if printed.percent else 1
    half = 0.5 * 10.0 ** -(printed.places or 0)
    distance = max(0.0, abs(estimate.value * factor - float(printed.value)) - half)
    return distance <= errors * estimate.standard_error * factor


def check(figure: Figure, calculator: Calculator) -> Check:
    exact: Fraction | None = None
    reason = ""
    estimate: Estimate | None = None
    size = ""
    if figure.measure == MATRIX_SIZE:
        exponents = calculator.matrix_size(figure)
        size = matrix_size_text(exponents)
        ok = parse_matrix_size(figure.value) == exponents
    elif figure.simulated:
        estimate = calculator.simulated(figure)
        ok = within(parse_printed(figure.value), estimate)
    else:
        exact = calculator.exact(figure)
        ok = matches(parse_printed(figure.value), exact, count=figure.measure == "combinations")
        reason = calculator.information_gain(figure)[1] if figure.measure == INFORMATION_GAIN else ""
        ok = ok and not reason
    if figure.known_wrong:
        verdict = "stale mark: matches" if ok else "known-wrong"
    else:
        verdict = "ok" if ok else "mismatch"
    return Check(figure, exact, verdict, estimate, size, reason)
