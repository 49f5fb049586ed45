"""The pay of one pay-table row that gives a stated house edge, exactly.

A bet's expectation is linear in the pay of any one row: EV(p) = EV + (p - p_now) P(row), where P(row)
is the probability that this row settles the bet (the first row that holds; the others keep their
pays). So the pay for a house edge h is p = p_now + (-h - EV) / P(row), an exact fraction, and the
edge falls as the pay rises.

>>> from exact_odds.bets.bets import catalog
>>> from exact_odds.core.policy import resolve
>>> from exact_odds.core.rules import PUNTO_BANCO
>>> from exact_odds.core.shoe import Shoe
>>> solution = solve(Shoe.decks(8), catalog()["player_pair"], resolve(PUNTO_BANCO), edge=Fraction(5, 100))
>>> solution.pay, solution.edge_at(Fraction(12))
(Fraction(1453, 124), Fraction(12, 415))
"""

import math
from dataclasses import dataclass
from fractions import Fraction

from ..engine.analysis import BetAnalysis, analyze_checked
from ..bets.bets import Bet, bounded_pay
from ..errors import InputError
from ..core.numbers import shown
from ..core.policy import Decisions
from ..core.shoe import Shoe


@dataclass(frozen=True)
class PaySolution:
    """One row of a bet on one shoe, and what its pay does to the house edge."""

    analysis: BetAnalysis
    row: int
    """The row's index in the bet's pay table."""
    edge: Fraction | None
    """The house edge asked for (per bet made), or None."""
    pay: Fraction | None
    """The exact pay (to one) that gives ``edge``."""
    max_edge: Fraction | None
    """The largest house edge allowed, or None."""
    smallest_whole_pay: int | None
    """The smallest whole pay whose house edge is at most ``max_edge``."""

    @property
    def probability(self) -> Fraction:
        """The probability that this row settles the bet."""
        return self.analysis.rows[self.row].probability

    @property
    def current_pay(self) -> Fraction:
        return self.analysis.bet.rows[self.row].pays.net

    def edge_at(self, pay: Fraction) -> Fraction:
        """The exact house edge when the row pays ``pay`` to one (the other rows unchanged)."""
        return -(self.analysis.expected_value + (pay - self.current_pay) * self.probability)

    def nearest(self, step: Fraction) -> list[Fraction]:
        """The positive multiples of ``step`` just below and just above the exact pay."""
        if self.pay is None:
            return []
        below, above = math.floor(self.pay / step) * step, math.ceil(self.pay / step) * step
        return [pay for pay in dict.fromkeys((below, above)) if pay > 0]


def choose_row(bet: Bet, row: str | None) -> int:
    """A pay-table row by its 1-based number or its event text (case-insensitive, naming one row);
    by default the row with the largest pay (the first of equals)."""
    if row is None:
        return max(range(len(bet.rows)), key=lambda index: (bet.rows[index].pays.net, -index))
    text = row.strip()
    if text.isdigit() and text.isascii():
        number = int(text)
        if not 1 <= number <= len(bet.rows):
            raise InputError(f"row {shown(row)}: {bet.name} has rows 1 to {len(bet.rows)}", parameter="row")
        return number - 1
    matching = [index for index, line in enumerate(bet.rows) if line.event.lower() == text.lower()]
    if not matching:
        events = "; ".join(f"{index + 1}: {line.event}" for index, line in enumerate(bet.rows))
        raise InputError(f"row {shown(row)} is not an event of {bet.name} (rows {events})"[:300], parameter="row")
    if len(matching) > 1:
        raise InputError(f"row {shown(row)} is the event of rows {', '.join(str(index + 1) for index in matching)} of {bet.name}: give the row's number",
                         parameter="row")
    return matching[0]


def solve(shoe: Shoe, bet: Bet, decisions: Decisions, row: str | None = None, edge: Fraction | None = None,
          max_edge: Fraction | None = None) -> PaySolution:
    """The pay of ``row`` that gives house ``edge``, and the smallest whole pay whose edge is at most
    ``max_edge`` (edges as fractions of a unit: 5% is 1/20). A pay a bets file could not hold is
    refused: every pay found can be written back into one."""
    analysis = analyze_checked(shoe, [bet], decisions).bets[0]
    index = choose_row(bet, row)
    probability = analysis.rows[index].probability
    event = bet.rows[index].event
    if probability == 0:
        raise InputError(f"the row {shown(event)} of {bet.name} never settles the bet on {shoe}: no pay changes the edge")
    current = bet.rows[index].pays.net

    def pay_for(target: Fraction) -> Fraction:
        return current + (-target - analysis.expected_value) / probability

    from ..core.numbers import percent

    pay = None
    if edge is not None:
        pay = pay_for(edge)
        if pay <= 0:
            even = -(analysis.expected_value - current * probability)
            raise InputError(f"no winning pay of {shown(event)} gives a house edge of {percent(edge)}: were the row a push, "
                             f"the edge would be {percent(even)}, and a winning pay only lowers it")
        bounded_pay(pay, f"the pay of {shown(event)} for a house edge of {percent(edge)}")
    smallest = None
    if max_edge is not None:
        smallest = max(1, math.ceil(pay_for(max_edge)))
        bounded_pay(Fraction(smallest), f"the smallest whole pay of {shown(event)} for a house edge of at most {percent(max_edge)}")
    return PaySolution(analysis, index, edge, pay, max_edge, smallest)
