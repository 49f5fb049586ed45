"""Kelly sizing of a whole position on the next coup, over the exact joint distribution of its bets.

The stakes maximise the expected logarithm of the bankroll after the coup, the growth
``G(s) = sum_k p_k ln(1 + sum_i s_i r_ki)`` (``p_k`` the exact probability of combination ``k`` of
settled lines, ``r_ki`` what one unit on bet ``i`` wins there, less a rebate on losses), under the
table's limits (:class:`Limits`): a minimum and a maximum per bet (a bet with a minimum is 0 or at
least it), a limit on the total, whole units, side bets only beside a main bet and at most ``k``
times the main bets. How the optimum is found, and how exactly: :mod:`exact_odds.studies.kelly`.

"No bet" is the answer where no stake gives a growth above zero. A position with positive growth
has a positive expectation (``ln(1 + x) <= x``). Fractional Kelly ``f`` sizes for a bankroll of
``f`` times the bankroll (the classic ``f`` times the stakes where no limit binds).

>>> from exact_odds.core.shoe import Shoe
>>> size(Shoe.decks(8), "banker", 1000).stakes
()
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ..bets.bets import Bet
from ..core.numbers import square_root
from ..core.policy import Decisions, Policy
from ..core.rules import PUNTO_BANCO, DrawRules
from ..core.shoe import Shoe
from ..engine.analysis import Engine
from ..errors import InputError
from ..records import versioned
from .joint import Joint, joint
from .kelly import DOUBT, MAIN, Limits, Problem, exact_amount, optimum, with_rebate

__all__ = ["MAIN", "MAX_SIZED", "Limits", "Sizing", "Stake", "per_bet", "size", "size_joint"]

MAX_SIZED = 6
"""A position holds at most this many bets."""


@dataclass(frozen=True)
class Stake:
    """What to put on one bet: the amount, its share of the bankroll and the bet's exact expected
    value per unit (the rebate's help included)."""

    bet: str
    amount: Fraction
    fraction: Fraction
    expected_value: Fraction


@dataclass(frozen=True)
class Sizing:
    """The position to take on the next coup (no stake: no bet) and what it does to the bankroll."""

    joint: Joint
    bankroll: Fraction
    kelly: Fraction
    rebate: Fraction
    limits: Limits
    stakes: tuple[Stake, ...]
    expected_values: tuple[Fraction, ...]
    """Each bet's exact expected value per unit (rebate included), in the joint's order."""
    growth: str
    """The expected log growth of the bankroll per coup, to :data:`~exact_odds.studies.kelly.DIGITS` digits ("0": no bet)."""
    method: str
    growth_gap: Fraction | None
    """An exact bound on how much growth the stakes may fall short of the best (0: none; None:
    not bounded, whole units next to an optimum of several stakes)."""
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> Fraction:
        return sum((stake.amount for stake in self.stakes), Fraction(0))

    def _results(self) -> list[tuple[Fraction, Fraction]]:
        """(probability, money won by the position) of every combination of lines."""
        amounts = {stake.bet: stake.amount for stake in self.stakes}
        positions = [(position, amounts[bet.name]) for position, bet in enumerate(self.joint.bets) if bet.name in amounts]
        results = []
        for combination in self.joint.combinations:
            nets = with_rebate(self.joint.nets(combination), self.rebate)
            results.append((self.joint.probability(combination), sum((amount * nets[position] for position, amount in positions), Fraction(0))))
        return results

    @property
    def expected_value(self) -> Fraction:
        """The position's expected win, in money."""
        return sum((probability * won for probability, won in self._results()), Fraction(0))

    @property
    def variance(self) -> Fraction:
        mean = self.expected_value
        return sum((probability * (won - mean) ** 2 for probability, won in self._results()), Fraction(0))

    @property
    def lose_all(self) -> Fraction:
        """The probability that every bet staked loses its stake in full (before any rebate; 0 with no stake)."""
        staked = [position for position, bet in enumerate(self.joint.bets) if bet.name in {stake.bet for stake in self.stakes}]
        if not staked:
            return Fraction(0)
        return sum((self.joint.probability(combination) for combination in self.joint.combinations
                    if all(self.joint.nets(combination)[position] == -1 for position in staked)), Fraction(0))

    def to_dict(self) -> dict[str, object]:
        """The sizing as the JSON `size --format json` prints: exact values as fraction strings,
        decimals as numbers (docs/json-format.md)."""
        return versioned("sizing", {
            "shoe": self.joint.shoe.description,
            "rules": self.joint.decisions.rules.name,
            "bankroll": str(self.bankroll),
            "kelly_fraction": str(self.kelly),
            "rebate": str(self.rebate),
            "limits": {
                "minimum": {name: str(value) for name, value in self.limits.minimum.items()},
                "maximum": {name: str(value) for name, value in self.limits.maximum.items()},
                "total": None if self.limits.total is None else str(self.limits.total),
                "unit": None if self.limits.unit is None else str(self.limits.unit),
                "side_needs_main": self.limits.side_needs_main,
                "side_ratio": None if self.limits.side_ratio is None else str(self.limits.side_ratio),
                "main": [bet.name for bet in self.joint.bets if bet.name in self.limits.main],
            },
            "bets": {bet.name: {"expected_value": str(value), "decimal": float(value)}
                     for bet, value in zip(self.joint.bets, self.expected_values)},
            "bet": bool(self.stakes),
            "stakes": {stake.bet: {"amount": str(stake.amount), "fraction": str(stake.fraction),
                                   "decimal": float(stake.fraction)} for stake in self.stakes},
            "total": str(self.total),
            "growth_per_coup": float(self.growth),
            "growth_per_coup_digits": self.growth,
            "growth_gap": None if self.growth_gap is None else str(self.growth_gap),
            "expected_value": str(self.expected_value),
            "standard_deviation": float(square_root(self.variance, 20)),
            "lose_all_probability": str(self.lose_all),
            "method": self.method,
            "notes": list(self.notes),
        })


def size(shoe: "Shoe | int | str | Mapping[str, int]", bets: "str | Bet | Iterable[str | Bet]", bankroll: "Fraction | int | str",
         limits: Limits | None = None, kelly: "Fraction | int | str" = 1, rebate: "Fraction | int | str" = 0,
         rules: "DrawRules | Decisions | str" = PUNTO_BANCO, policy: Policy | str | None = None, engine: Engine | None = None,
         table: Iterable[str] | None = None) -> Sizing:
    """The Kelly position on ``bets`` for the next coup of ``shoe``, for a ``bankroll`` under
    ``limits``, at Kelly fraction ``kelly`` (0 < kelly <= 1), with a ``rebate`` (a share from 0 to
    below 1) of every losing bet's loss returned. The limits may name any bet of the ``table``
    (default: the bets sized), and are checked against all of them (:meth:`Limits.checked`)."""
    return size_joint(joint(shoe, bets, rules, policy, engine), bankroll, limits, kelly, rebate, table)


def size_joint(distribution: Joint, bankroll: "Fraction | int | str", limits: Limits | None = None, kelly: "Fraction | int | str" = 1,
               rebate: "Fraction | int | str" = 0, table: Iterable[str] | None = None) -> Sizing:
    """:func:`size` over a joint distribution already computed."""
    bankroll, kelly, rebate = exact_amount(bankroll, "bankroll"), exact_amount(kelly, "kelly"), exact_amount(rebate, "rebate")
    if bankroll <= 0:
        raise InputError(f"bankroll must be positive, not {bankroll}", parameter="bankroll")
    if not 0 < kelly <= 1:
        raise InputError(f"kelly must be a fraction above 0 and at most 1 (1: full Kelly, 1/2: half Kelly), not {kelly}", parameter="kelly")
    if not 0 <= rebate < 1:
        raise InputError(f"rebate must be a share of losses from 0 to below 1 (e.g. 1/100 for 1%), not {rebate}", parameter="rebate")
    if limits is not None and not isinstance(limits, Limits):
        raise InputError(f"limits must be a Limits, not {limits!r}", parameter="limits")
    limits = (limits or Limits()).checked([bet.name for bet in distribution.bets], table)
    if len(distribution.bets) > MAX_SIZED:
        raise InputError(f"a position holds at most {MAX_SIZED} bets, not {len(distribution.bets)}")
    _check_limits(distribution, limits)
    problem = Problem(distribution, rebate)
    wealth = bankroll * kelly
    best = optimum(problem, limits, wealth)
    notes: list[str] = []
    evs = problem.expected_values()
    if best is None or best[0] <= DOUBT:
        gap = Fraction(0) if best is None else best[3]
        no_bet = "no bet: no stake within the limits grows the bankroll" + (
            "" if any(value > 0 for value in evs) else " (no bet has a positive expectation)")
        return Sizing(distribution, bankroll, kelly, rebate, limits, (), tuple(evs), "0", no_bet, gap, tuple(notes))
    growth, fractions, method, gap = best
    stakes = tuple(Stake(bet.name, fraction * wealth, fraction * kelly, value)
                   for bet, fraction, value in zip(distribution.bets, fractions, evs) if fraction)
    if kelly != 1:  # the growth of the bankroll itself, with these stakes
        growth = problem.growth([fraction * kelly for fraction in fractions])
    losing = [stake.bet for stake in stakes if stake.expected_value < 0]
    sides = any(stake.bet not in limits.main for stake in stakes) and (limits.side_needs_main or limits.side_ratio is not None)
    needed = [name for name in losing if sides and name in limits.main]
    hedges = [name for name in losing if name not in needed]
    if needed:
        notes.append(f"{', '.join(needed)}: a negative expectation, staked as the main bet the limits require beside the side bets")
    if hedges:
        notes.append(f"{', '.join(hedges)}: a negative expectation, staked as a hedge that raises the position's growth")
    sizing = Sizing(distribution, bankroll, kelly, rebate, limits, stakes, tuple(evs), _shown(growth), method, gap, tuple(notes))
    assert sizing.expected_value > 0, "a position with positive growth has a positive expectation"
    return sizing


def per_bet(text: str, what: str, names: Sequence[str], parameter: str | None = None) -> dict[str, Fraction]:
    """Amounts by bet as people write them: one amount for every bet (``"100"``), or ``NAME=X``
    pairs separated by commas (``"banker=100,dragon_7=5"``); a refusal names ``what``, its ``parameter`` ``parameter``.

    >>> per_bet("banker=100, dragon_7=2.5", "--min", ["banker", "dragon_7"])
    {'banker': Fraction(100, 1), 'dragon_7': Fraction(5, 2)}
    """
    from ..core.numbers import parse_exact

    if not text.strip():
        raise InputError(f"{what} is empty: give an amount, or NAME=AMOUNT pairs separated by commas", parameter=parameter)
    if "=" not in text:
        return dict.fromkeys(names, parse_exact(text, what, parameter=parameter))
    amounts: dict[str, Fraction] = {}
    for part in text.split(","):
        name, equals, amount = part.partition("=")
        name = name.strip().lower()
        if not equals or not name:
            raise InputError(f"{what}: {part.strip()!r} is not NAME=AMOUNT (e.g. banker=100)", parameter=parameter)
        if name not in names:
            raise InputError(f"{what}: {name!r} is not a bet of this position ({', '.join(names)})", parameter=parameter)
        if name in amounts:
            raise InputError(f"{what}: {name} is given twice", parameter=parameter)
        amounts[name] = parse_exact(amount, f"{what} {name}", parameter=parameter)
    return amounts


def _check_limits(distribution: Joint, limits: Limits) -> None:
    """Refuse limits that this position cannot meet as the table means them (each amount is checked by :class:`Limits`)."""
    mains = [bet.name for bet in distribution.bets if bet.name in limits.main]
    sides = [bet.name for bet in distribution.bets if bet.name not in limits.main]
    if (limits.side_needs_main or limits.side_ratio is not None) and sides and not mains:
        raise InputError(f"a side bet needs a main bet beside it, and none of these is one ({', '.join(sides)}); main bets: {', '.join(limits.main)}")
    if limits.side_needs_main and limits.unit is None and any(name not in limits.minimum for name in mains):
        raise InputError("a side bet only beside a main bet needs a minimum on each main bet (or a unit): "
                         "else a main bet of next to nothing would do")


def _shown(growth: Decimal) -> str:
    """A growth to 15 significant digits."""
    return f"{growth:.15g}" if growth else "0"
