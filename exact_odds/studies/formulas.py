"""Closed forms in the number of decks d, exact, with sympy (imported only by this feature).

In a shoe of d standard decks every rank count is 4d, so the number of ordered k-card sequences
that produce any event is a polynomial in d of degree at most k (each factor of a falling
factorial is linear in d), and every probability or expectation is such a polynomial over
52d (52d - 1) ... (52d - k + 1). The polynomial is found by interpolating exact counts at k + 1 deck
counts; the degree bound makes that a proof, and three further deck counts are checked anyway.
The limit d -> infinity is the infinite deck (cards drawn with replacement).
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy

from ..engine.analysis import Analysis, BetAnalysis, analyze_checked
from ..bets.bets import Bet, main_bets
from ..core.features import OUTCOMES
from ..core.policy import Decisions
from ..core.shoe import Shoe

d = sympy.Symbol("d", positive=True, integer=True)
EXTRA_CHECKS = 3


@dataclass(frozen=True)
class Formula:
    """An exact function of the deck count: ``numerator / denominator`` (polynomials in d)."""

    name: str
    numerator: sympy.Expr
    denominator: sympy.Expr
    cards: int = 6
    """The counts are ordered sequences of this many cards."""

    @property
    def expression(self) -> sympy.Expr:
        return sympy.factor(self.numerator / self.denominator)

    def at(self, decks: int) -> Fraction:
        value = sympy.Rational(self.numerator.subs(d, decks)) / sympy.Rational(self.denominator.subs(d, decks))
        return Fraction(int(value.p), int(value.q))

    @property
    def limit(self) -> Fraction:
        value = sympy.limit(self.numerator / self.denominator, d, sympy.oo)
        return Fraction(int(value.p), int(value.q))


def sequences(cards: int) -> sympy.Expr:
    """52d (52d - 1) ... : the ordered draws of ``cards`` cards from d decks."""
    return sympy.Mul(*[52 * d - drawn for drawn in range(cards)])


def interpolate(values: dict[int, int], degree: int) -> sympy.Expr:
    """The polynomial of degree at most ``degree`` through the first ``degree + 1`` points, checked at the rest."""
    points = sorted(values.items())
    polynomial = sympy.expand(sympy.interpolate(points[: degree + 1], d))
    for decks, value in points[degree + 1 :]:
        if polynomial.subs(d, decks) != value:
            raise ArithmeticError(f"the interpolated polynomial misses the exact count at d = {decks}")
    return polynomial


@lru_cache(maxsize=16)
def _analysis(decks: int, bets: tuple[Bet, ...], decisions: Decisions) -> Analysis:
    """The analysis of ``bets`` on ``decks`` decks (no bets: the main bets, for the outcomes alone)."""
    return analyze_checked(Shoe.decks(decks), list(bets) or list(main_bets(decisions.rules).values()), decisions)


def outcome_formulas(decisions: Decisions) -> list[Formula]:
    """P(banker), P(player), P(tie) as functions of d."""
    analyses = {decks: _analysis(decks, (), decisions) for decks in range(1, 7 + 1 + EXTRA_CHECKS)}
    scale = analyses[1].scale
    return [Formula(name, interpolate({decks: analysis.outcomes[name] for decks, analysis in analyses.items()}, 6), scale * sequences(6))
            for name in OUTCOMES]


def expectation_formulas(bets: list[Bet], decisions: Decisions, known: dict[int | str, Analysis] | None = None) -> list[Formula]:
    """Each bet's expected net win per unit as a function of d (the house edge is its negative).

    A bet settled on k cards has a numerator of degree k: it is interpolated at d = 1 .. k + 1 and
    checked at the next three deck counts. All bets are analysed together at each deck count;
    ``known`` holds analyses of all of them already made, by deck count."""
    known = known or {}

    def results(decks: int, needed: list[int]) -> dict[int, BetAnalysis]:
        """The results of the bets at positions ``needed`` of ``bets``, by position (a cached
        analysis may hold equal bets, so they are matched by place, not by identity)."""
        if decks in known:
            held = known[decks].bets
            return {index: held[index] for index in needed}
        return dict(zip(needed, _analysis(decks, tuple(bets[index] for index in needed), decisions).bets))

    first = results(1, list(range(len(bets))))
    cards = [first[index].cards for index in range(len(bets))]
    scales = [first[index].scale for index in range(len(bets))]
    numerators: list[dict[int, int]] = [{} for _ in bets]
    for decks in range(1, max(cards) + 2 + EXTRA_CHECKS):
        needed = [index for index, count in enumerate(cards) if decks <= count + 1 + EXTRA_CHECKS]
        for index, result in results(decks, needed).items():
            numerators[index][decks] = int(result.expected_value * bets[index].scaled_pays[0] * result.total)
    return [
        Formula(bet.name, interpolate(values, count), bet.scaled_pays[0] * scale * sequences(count), count)
        for bet, values, count, scale in zip(bets, numerators, cards, scales)
    ]


def integer_ranges(polynomial: sympy.Expr) -> list[tuple[int, int | None]]:
    """The deck counts d >= 1 where ``polynomial`` > 0, as ranges (first, last); last None: onwards."""
    poly = sympy.Poly(polynomial, d)
    roots = [float(root) for root in sympy.real_roots(poly)] if poly.degree() > 0 else []
    marks = sorted({1} | {int(root) + step for root in roots if root >= 1 for step in (0, 1)})

    def positive(decks: int) -> bool:
        return bool(poly.eval(decks) > 0)

    ranges: list[tuple[int, int | None]] = []

    def include(first: int, last: int | None) -> None:
        if ranges and ranges[-1][1] is not None and ranges[-1][1] + 1 == first:
            ranges[-1] = (ranges[-1][0], last)
        else:
            ranges.append((first, last))

    for index, mark in enumerate(marks):
        if positive(mark):
            include(mark, mark)
        following = marks[index + 1] if index + 1 < len(marks) else None
        if following is None:
            if positive(mark + 1):
                include(mark + 1, None)
        elif following > mark + 1 and positive(mark + 1):
            include(mark + 1, following - 1)
    return ranges


def extremes(formula: Formula) -> dict[str, tuple[int | None, Fraction]]:
    """The deck counts d >= 1 where ``formula`` is largest and smallest (None: approached as d -> oo)."""
    ratio = formula.numerator / formula.denominator
    critical = sympy.Poly(sympy.numer(sympy.together(sympy.diff(ratio, d))), d)
    roots = [float(root) for root in sympy.real_roots(critical)] if critical.degree() > 0 else []
    candidates = sorted({1} | {max(1, int(root) + step) for root in roots if root >= 1 for step in (0, 1)})
    values = {decks: formula.at(decks) for decks in candidates}
    limit = formula.limit
    top = max(values, key=values.__getitem__)
    bottom = min(values, key=values.__getitem__)
    return {
        "max": (None, limit) if limit > values[top] else (top, values[top]),
        "min": (None, limit) if limit < values[bottom] else (bottom, values[bottom]),
    }


def house_edge(formula: Formula) -> Formula:
    return Formula(formula.name, -formula.numerator, formula.denominator, formula.cards)


def describe_ranges(ranges: list[tuple[int, int | None]]) -> str:
    if not ranges:
        return "no deck count"
    parts = []
    for first, last in ranges:
        parts.append(f"d >= {first}" if last is None else (f"d = {first}" if first == last else f"d = {first}..{last}"))
    return ", ".join(parts)
