"""The `formula` command: the closed forms in the number of decks d, their limits, and answers
for a game designer (where a house edge passes a value, where it is extreme), in words, LaTeX and
a record. Imports sympy, as the closed forms do."""

from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from ..core.numbers import fixed, percent
from ..output.blocks import Comment, Data, Document, Equation, Equations, Group, Paragraph
from ..records import versioned
from ..studies.formulas import Formula, describe_ranges, extremes, house_edge, integer_ranges
from .setup import Setup
from .size import positive_amount


@dataclass(frozen=True, kw_only=True)
class FormulaRequest:
    """The closed forms of the setup's bets (its rules and pays; the number of decks is the
    variable), and with ``solve`` the answers for a game designer: where each house edge is
    largest and smallest, and where it is ``above`` or ``below`` a percentage (positive, exact, as
    text; either asks for the answers too). Derived: ``shares``, the two as shares (None where not given).

    >>> FormulaRequest(setup=Setup(), below="7.6").shares
    (None, Fraction(19, 250))
    >>> FormulaRequest(setup=Setup(), above="0")
    Traceback (most recent call last):
    exact_odds.errors.InputError: above must be positive, not '0'
    """

    setup: Setup
    solve: bool = False
    above: str | None = None
    below: str | None = None
    shares: tuple[Fraction | None, Fraction | None] = field(init=False)

    def __post_init__(self) -> None:
        above, below = (None if text is None else positive_amount(text, name) / 100 for name, text in (("above", self.above), ("below", self.below)))
        object.__setattr__(self, "shares", (above, below))

    @property
    def answers(self) -> bool:
        """Whether the answers are asked for."""
        return self.solve or self.above is not None or self.below is not None


def solve_lines(edge: Formula, above: Fraction | None, below: Fraction | None) -> list[str]:
    """Answers for a game designer: where the house edge passes a value, and where it is extreme."""
    lines = []
    for word, threshold, sign in (("above", above, 1), ("below", below, -1)):
        if threshold is not None:
            value = sympy.Rational(threshold.numerator, threshold.denominator)
            ranges = integer_ranges(sympy.expand(sign * (edge.numerator - value * edge.denominator)))
            lines.append(f"house edge of {edge.name} {word} {percent(threshold)}: {describe_ranges(ranges)}")
    for word, (decks, value) in zip(("largest", "smallest"), extremes(edge).values()):
        where = f"at d = {decks}" if decks is not None else "approached as d -> oo, never reached"
        lines.append(f"house edge of {edge.name} is {word} {where}: {percent(value)}")
    return lines


def record_of(outcomes: list[Formula], expectations: list[Formula]) -> dict[str, object]:
    """Every formula as exact text (sympy), LaTeX and limit, for JSON."""
    return {
        "variable": "d (number of 52-card decks)",
        "outcomes": {
            formula.name: {"probability": sympy.sstr(formula.expression), "latex": sympy.latex(formula.expression), "limit": str(formula.limit)}
            for formula in outcomes
        },
        "bets": {
            formula.name: {
                "house_edge": sympy.sstr(house_edge(formula).expression),
                "latex": sympy.latex(house_edge(formula).expression),
                "limit": str(-formula.limit),
                "settles_on_cards": formula.cards,
            }
            for formula in expectations
        },
    }


def document(outcomes: list[Formula], expectations: list[Formula], answers: dict[str, list[str]] | None = None) -> Document:
    """The closed forms (with their limits as d -> oo) and ``answers`` (:func:`solve_lines`, by bet):
    in words and in LaTeX, where the title says what wrote them and the answers are comments; and the record."""
    equations = [Equation(f"P({formula.name})", "P", formula.name, "d", sympy.sstr(formula.expression), sympy.latex(formula.expression),
                          f"d -> oo: {formula.limit} ({fixed(formula.limit, 10)})") for formula in outcomes]
    for formula in expectations:
        edge = house_edge(formula)
        equations.append(Equation(f"house edge of {formula.name}", "HE", formula.name, "d", sympy.sstr(edge.expression), sympy.latex(edge.expression),
                                  f"d -> oo: {edge.limit} ({percent(edge.limit)})"))
    said = [line for lines in (answers or {}).values() for line in lines]
    shown = Equations(tuple(equations))
    record = record_of(outcomes, expectations)
    return Document((Paragraph("Closed forms in the number of decks d (exact; d -> oo is the infinite deck)"),
                     Group((shown, Paragraph("\n".join(said)))) if said else shown),
                    Data(versioned("formula", {**record, "solve": answers} if answers else record)),
                    (Comment(("Closed forms in the number of decks d, generated by `baccarat-odds export`.",)), shown, Comment(tuple(said))))
