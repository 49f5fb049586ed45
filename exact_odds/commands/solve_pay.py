"""The `solve-pay` command: the exact pay of one row of a bet that gives a stated house edge, with
the nearest whole and half-unit pays and their exact edges; or the smallest whole pay that keeps the
edge at or below a value."""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..bets.bets import Bet
from ..core.numbers import exact_value, fixed, parse_percent, percent, shown, text_of
from ..core.shoe import Shoe
from ..errors import InputError
from ..output.blocks import Data, Document, Items
from ..records import versioned
from ..studies.paysolve import PaySolution, solve
from .setup import Setup

if TYPE_CHECKING:
    from ..core.policy import Decisions, Policy
    from ..core.rules import DrawRules


@dataclass(frozen=True, kw_only=True)
class SolvePayRequest:
    """One ``bet`` of ``setup`` (the catalog's or its bets file's), the ``row`` to price (its event
    or number; None: the largest pay), and the house edge wanted (``edge``, a percent) or the most
    allowed (``max_edge``)."""

    setup: Setup
    bet: "str | Bet"
    row: str | None = None
    edge: str | Fraction | int | None = None
    max_edge: str | Fraction | int | None = None
    edge_share: Fraction | None = field(init=False, repr=False, compare=False)
    max_edge_share: Fraction | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.edge is None and self.max_edge is None:
            raise InputError("give edge PCT (the pay for that house edge) or max_edge PCT (the smallest whole pay at or below it)",
                             mentions=("edge", "max_edge"))
        if isinstance(self.bet, Bet):  # from a program: the bet itself
            pass
        elif not isinstance(self.bet, str) or not self.bet.strip() or "," in self.bet or self.bet.strip().lower() == "all":
            raise InputError(f"bet takes one bet, not {shown(self.bet)}: solve-pay prices one bet (see `baccarat-odds bets` for the names)",
                             parameter="bet")
        if self.row is not None:
            text_of(self.row, "row", parameter="row")
        for name in ("edge", "max_edge"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):  # from a program: an exact number, never a float
                exact_value(value, name, parameter=name)
            object.__setattr__(self, f"{name}_share", None if value is None else parse_percent(value, name, parameter=name) / 100)


def run(request: SolvePayRequest) -> tuple[PaySolution, Shoe]:
    """The pay the request asks for, and the shoe it was solved on."""
    setup = replace(request.setup, bets=request.bet)
    shoe = setup.starting_shoe()
    (bet,), _ = setup.chosen_bets(shoe.knows_suits, "bet")
    return solve(shoe, bet, setup.decisions(shoe), request.row, request.edge_share, request.max_edge_share), shoe


def solution_record(solution: PaySolution, shoe: Shoe) -> dict[str, Any]:
    """The solution as exact fraction strings (and decimals as numbers, beside them)."""

    def priced(pay: Fraction) -> dict[str, object]:
        return {"pay": str(pay), "house_edge": str(solution.edge_at(pay)), "house_edge_percent": float(solution.edge_at(pay) * 100)}

    line = solution.analysis.bet.rows[solution.row]
    record: dict[str, Any] = {
        "bet": solution.analysis.bet.name,
        "shoe": str(shoe),
        "row": {"number": solution.row + 1, "event": line.event, "pays": str(solution.current_pay), "probability": str(solution.probability)},
        "house_edge_now": str(solution.analysis.house_edge),
        "house_edge_now_percent": float(solution.analysis.house_edge * 100),
    }
    if solution.edge is not None and solution.pay is not None:
        record.update({"edge": str(solution.edge), "pay": str(solution.pay), "pay_decimal": float(solution.pay),
                       "nearest_whole": [priced(pay) for pay in solution.nearest(Fraction(1))],
                       "nearest_half": [priced(pay) for pay in solution.nearest(Fraction(1, 2))]})
    if solution.max_edge is not None and solution.smallest_whole_pay is not None:
        record["max_edge"] = str(solution.max_edge)
        record["smallest_whole_pay"] = priced(Fraction(solution.smallest_whole_pay))
    return record


def solution_lines(solution: PaySolution, shoe: Shoe) -> list[str]:
    """The solution in words, with exact fractions and percentages, a line each."""
    def priced(pay: Fraction) -> str:
        return f"{pay} to 1 (house edge {percent(solution.edge_at(pay))})"

    line = solution.analysis.bet.rows[solution.row]
    lines = [
        f"{solution.analysis.bet.name} on {shoe}: row {solution.row + 1}, {line.event!r}, pays {solution.current_pay} to 1 "
        f"and settles the bet with probability {solution.probability} ({fixed(solution.probability, 8)})",
        f"house edge now: {percent(solution.analysis.house_edge)}",
    ]
    if solution.edge is not None and solution.pay is not None:
        lines += [
            f"pay for a house edge of {percent(solution.edge)}: {solution.pay} to 1 ({fixed(solution.pay, 6)})",
            "nearest whole pays: " + ", ".join(priced(pay) for pay in solution.nearest(Fraction(1))),
            "nearest half-unit pays: " + ", ".join(priced(pay) for pay in solution.nearest(Fraction(1, 2))),
        ]
    if solution.max_edge is not None and solution.smallest_whole_pay is not None:
        lines.append(f"smallest whole pay with a house edge of at most {percent(solution.max_edge)}: {priced(Fraction(solution.smallest_whole_pay))}")
    return lines


def document(solution: PaySolution, shoe: Shoe) -> Document:
    """The solution in words, and its record."""
    lines = solution_lines(solution, shoe)
    return Document((Items(tuple(lines[1:]), lead=lines[0]),), Data(versioned("solve_pay", solution_record(solution, shoe))))


def solve_pay(*, bet: "str | Bet", edge: "Fraction | int | str | None" = None, max_edge: "Fraction | int | str | None" = None,
              row: str | None = None, shoe: "Shoe | int | str | Mapping[str, int] | None" = None, rules: "DrawRules | Decisions | str | None" = None,
              policy: "Policy | str | None" = None, commission: "Fraction | int | str | None" = None,
              tie_pays: "Fraction | int | str | None" = None, bets_toml: str | None = None) -> PaySolution:
    """The exact pay of one ``row`` of ``bet`` (its event or number; None: the largest pay) that
    gives the house edge ``edge``, or the smallest whole pay whose edge is at most ``max_edge``
    (both in percent, as ``solve-pay --edge`` takes them), on ``shoe`` (default 8 decks): the
    command's request (:class:`SolvePayRequest`) built from these arguments. ``bet`` is a name (of
    the catalog, or of ``bets_toml``, a bets file's text) or a :class:`~exact_odds.bets.bets.Bet`.

    >>> solve_pay(bet="tie", edge=5).pay  # 8 decks: the tie's pay for a house edge of 5% (8.983609 to 1)
    Fraction(22254431954453, 2477226179548)
    >>> solve_pay(bet="tie", max_edge=5).smallest_whole_pay  # 9 to 1: a house edge of 4.8440%
    9
    >>> solve_pay(bet="tie", edge=0.5)
    Traceback (most recent call last):
    ...
    exact_odds.errors.InputError: edge must be an exact number (an int or a Fraction), not 0.5
    """
    setup = Setup.of_arguments(shoe=shoe, rules=rules, policy=policy, commission=commission, tie_pays=tie_pays, bets_toml=bets_toml)
    solution, _ = run(SolvePayRequest(setup=setup, bet=bet, row=row, edge=edge, max_edge=max_edge))
    return solution
