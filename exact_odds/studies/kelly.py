"""Kelly sizing of a whole position on the next coup, over the exact joint distribution of its bets.

The stakes maximise the expected logarithm of the bankroll after the coup, the growth
``G(s) = sum_k p_k ln(1 + sum_i s_i r_ki)`` (``p_k`` the exact probability of combination ``k`` of
settled lines, ``r_ki`` what one unit on bet ``i`` wins there, less a rebate on losses), under the
table's limits: a minimum and a maximum per bet (a bet with a minimum is 0 or at least it), a limit
on the total, whole units, side bets only beside a main bet and at most ``k`` times the main bets.

How the optimum is found, and how exactly:

- one bet that either wins ``b`` or loses ``a`` (pushes aside): the closed form
  ``(p b - q a) / (a b (p + q))`` (``(b p - q) / b`` without pushes), exactly;
- one stake free: the root of ``G'``, a rational function evaluated exactly, bracketed by
  bisection to :data:`PRECISION` of the bankroll (its sign checked exactly at both ends);
- several: an interior-point Newton method in floats, then a feasible rational point whose
  shortfall from the best growth is bounded exactly (the concavity bound ``G(x) <= G(s) + G'(s)(x - s)``,
  the limits beyond the bounds relaxed with Lagrange multipliers): the ``growth_gap``;
- whole units: the best unit stakes next to the continuous optimum (for one stake, the optimum
  among whole units, as ``G`` is concave).

Growth is computed with :data:`DIGITS`-digit decimals; "no bet" is the answer where no stake gives
a growth above zero. A position with positive growth has a positive expectation (``ln(1 + x) <= x``).
Fractional Kelly ``f`` sizes for a bankroll of ``f`` times the bankroll (the classic ``f`` times
the stakes where no limit binds).

>>> from exact_odds.core.shoe import Shoe
>>> size(Shoe.decks(8), "banker", 1000).stakes
()
"""

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Context, Decimal
from fractions import Fraction
from itertools import product
from typing import Any

from ..bets.bets import Bet
from ..core.numbers import square_root
from ..core.policy import Decisions, Policy
from ..core.rules import PUNTO_BANCO, DrawRules
from ..core.shoe import Shoe
from ..engine.analysis import Engine
from ..errors import InputError
from ..records import versioned
from .joint import Joint, joint

MAIN = ("banker", "player", "tie", "banker_4pct", "tie_9to1", "ez_banker", "no_commission_banker")
"""The main bets of a table (the others are side bets), unless the limits name them."""
PRECISION = Fraction(1, 10**12)
"""One free stake is bracketed to this share of the (Kelly) bankroll."""
DIGITS = 50
"""Decimal digits of the growth computations."""
DOUBT = Decimal(10) ** -30
"""A growth this close to zero (or two this close to each other) is not told apart."""
MAX_SIZED = 6
"""A position holds at most this many bets."""
GRID = 10**12
"""The interior-point optimum is rounded to this many parts of the bankroll."""


@dataclass(frozen=True)
class Limits:
    """The table's limits, in money: per bet (by name) a minimum and a maximum, a total for the
    position, a unit (stakes in whole units), whether a side bet needs a main bet beside it, and at
    most how many times the main bets a side bet may be."""

    minimum: Mapping[str, Fraction] = field(default_factory=dict)
    maximum: Mapping[str, Fraction] = field(default_factory=dict)
    total: Fraction | None = None
    unit: Fraction | None = None
    side_needs_main: bool = False
    side_ratio: Fraction | None = None
    main: tuple[str, ...] = MAIN

    def __post_init__(self) -> None:
        """Every amount exact and above 0 (an int, a Fraction or its text), no minimum above its
        bet's maximum, and main bets named (refused: an :class:`InputError`).

        >>> Limits(minimum={"tie": 10}, maximum={"tie": 5})
        Traceback (most recent call last):
        exact_odds.errors.InputError: the minimum for tie (10) is above its maximum (5)
        """
        for kind in ("minimum", "maximum"):
            given = getattr(self, kind)
            if not isinstance(given, Mapping) or not all(isinstance(name, str) for name in given):
                raise InputError(f"{kind} must map bet names to amounts, not {given!r}", parameter=kind)
            object.__setattr__(self, kind, {name: _positive(value, f"the {kind} for {name}", kind) for name, value in given.items()})
        for name, low in self.minimum.items():
            high = self.maximum.get(name)
            if high is not None and low > high:
                raise InputError(f"the minimum for {name} ({low}) is above its maximum ({high})", parameter="minimum")
        for kind, what in (("total", "total limit"), ("unit", "unit"), ("side_ratio", "side ratio")):
            value = getattr(self, kind)
            if value is not None:
                object.__setattr__(self, kind, _positive(value, f"the {what}", kind))
        if not isinstance(self.side_needs_main, bool):
            raise InputError(f"side_needs_main must be True or False, not {self.side_needs_main!r}", parameter="side_needs_main")
        if isinstance(self.main, str) or not self.main or not all(isinstance(name, str) and name for name in self.main):
            raise InputError(f"main must be a tuple of the main bets' names, not {self.main!r}", parameter="main")
        object.__setattr__(self, "main", tuple(self.main))

    def checked(self, bets: Sequence[str], table: Iterable[str] | None = None) -> "Limits":
        """These limits on the bets sized, ``bets``, after checking that every bet they name (by
        minimum, maximum or as a main bet) is a bet of the ``table`` (default: ``bets``): a session's
        limits may name any of its bets, and are checked against all of them whichever are sized.

        >>> Limits(maximum={"player": 5, "tie": 1}).checked(["player"], ["banker", "player", "tie"]).maximum
        {'player': Fraction(5, 1)}
        >>> Limits(maximum={"dragon_7": 5}).checked(["player"], ["banker", "player", "tie"])
        Traceback (most recent call last):
        exact_odds.errors.InputError: maximum for 'dragon_7': not a bet of this position (banker, player, tie)
        """
        sized = list(bets)
        names = sized if table is None else list(table)
        for kind, values in (("minimum", self.minimum), ("maximum", self.maximum)):
            for name in values:
                if name not in names:
                    raise InputError(f"{kind} for {name!r}: not a bet of this position ({', '.join(names)})", parameter=kind)
        if self.main != MAIN:
            for name in self.main:
                if name not in names:
                    raise InputError(f"main: {name!r} is not a bet of this position ({', '.join(names)})", parameter="main")
        return replace(self, minimum={name: value for name, value in self.minimum.items() if name in sized},
                       maximum={name: value for name, value in self.maximum.items() if name in sized})


def _positive(value: object, what: str, parameter: str) -> Fraction:
    """An amount of the limits: exact, and above 0."""
    amount = _exact(value, what)
    if amount <= 0:
        raise InputError(f"{what} must be positive, not {amount}", parameter=parameter)
    return amount


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
    """The expected log growth of the bankroll per coup, to :data:`DIGITS` digits ("0": no bet)."""
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
            nets = _with_rebate(self.joint.nets(combination), self.rebate)
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
    bankroll, kelly, rebate = _exact(bankroll, "bankroll"), _exact(kelly, "kelly"), _exact(rebate, "rebate")
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
    problem = _Problem(distribution, rebate)
    wealth = bankroll * kelly
    best: tuple[Decimal, tuple[Fraction, ...], str, Fraction | None] | None = None
    notes: list[str] = []
    for pattern in _patterns(distribution, limits, wealth):
        found = _solve(problem, pattern, limits, wealth)
        if found is not None and (best is None or found[0] > best[0] + DOUBT):
            best = found
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


def per_bet(text: str, what: str, names: Sequence[str]) -> dict[str, Fraction]:
    """Amounts by bet as people write them: one amount for every bet (``"100"``), or ``NAME=X``
    pairs separated by commas (``"banker=100,dragon_7=5"``).

    >>> per_bet("banker=100, dragon_7=2.5", "--min", ["banker", "dragon_7"])
    {'banker': Fraction(100, 1), 'dragon_7': Fraction(5, 2)}
    """
    from ..core.numbers import parse_exact

    if not text.strip():
        raise InputError(f"{what} is empty: give an amount, or NAME=AMOUNT pairs separated by commas")
    if "=" not in text:
        return dict.fromkeys(names, parse_exact(text, what))
    amounts: dict[str, Fraction] = {}
    for part in text.split(","):
        name, equals, amount = part.partition("=")
        name = name.strip().lower()
        if not equals or not name:
            raise InputError(f"{what}: {part.strip()!r} is not NAME=AMOUNT (e.g. banker=100)")
        if name not in names:
            raise InputError(f"{what}: {name!r} is not a bet of this position ({', '.join(names)})")
        if name in amounts:
            raise InputError(f"{what}: {name} is given twice")
        amounts[name] = parse_exact(amount, f"{what} {name}")
    return amounts


def _exact(value: object, what: str) -> Fraction:
    """An exact number as people give one: an int, a Fraction, or its text (``"2.5"``, ``"1/2"``)."""
    from ..core.numbers import parse_exact

    if isinstance(value, bool) or not isinstance(value, (int, Fraction, str)):
        raise InputError(f"{what} must be an exact number (an int, a Fraction or text such as '1/2'), not {value!r}")
    return Fraction(value) if isinstance(value, (int, Fraction)) else parse_exact(value, what)


def _check_limits(distribution: Joint, limits: Limits) -> None:
    """Refuse limits that this position cannot meet as the table means them (each amount is checked by :class:`Limits`)."""
    mains = [bet.name for bet in distribution.bets if bet.name in limits.main]
    sides = [bet.name for bet in distribution.bets if bet.name not in limits.main]
    if (limits.side_needs_main or limits.side_ratio is not None) and sides and not mains:
        raise InputError(f"a side bet needs a main bet beside it, and none of these is one ({', '.join(sides)}); main bets: {', '.join(limits.main)}")
    if limits.side_needs_main and limits.unit is None and any(name not in limits.minimum for name in mains):
        raise InputError("a side bet only beside a main bet needs a minimum on each main bet (or a unit): "
                         "else a main bet of next to nothing would do")


def _with_rebate(nets: Sequence[Fraction], rebate: Fraction) -> tuple[Fraction, ...]:
    return tuple(net * (1 - rebate) if net < 0 else net for net in nets)


class _Problem:
    """The growth of stakes (shares of the bankroll), exactly and in floats."""

    def __init__(self, distribution: Joint, rebate: Fraction):
        import numpy as np

        self.bets = distribution.bets
        self.probabilities = [distribution.probability(combination) for combination in distribution.combinations]
        self.nets = [_with_rebate(distribution.nets(combination), rebate) for combination in distribution.combinations]
        self.float_probabilities = np.array([float(p) for p in self.probabilities])
        self.float_nets = np.array([[float(net) for net in nets] for nets in self.nets])
        self.context = Context(prec=DIGITS)

    def expected_values(self) -> list[Fraction]:
        return [sum((p * nets[i] for p, nets in zip(self.probabilities, self.nets)), Fraction(0)) for i in range(len(self.nets[0]))]

    def wealth(self, stakes: Sequence[Fraction]) -> list[Fraction]:
        return [1 + sum((stake * net for stake, net in zip(stakes, nets) if stake), Fraction(0)) for nets in self.nets]

    def growth(self, stakes: Sequence[Fraction]) -> Decimal:
        """The expected log growth to :data:`DIGITS` digits (-inf where a combination ruins)."""
        total = Decimal(0)
        for p, wealth in zip(self.probabilities, self.wealth(stakes)):
            if wealth <= 0:
                return Decimal("-Infinity")
            ratio = self.context.divide(Decimal(wealth.numerator), Decimal(wealth.denominator))
            total = self.context.add(total, self.context.multiply(self.context.divide(Decimal(p.numerator), Decimal(p.denominator)),
                                                                  self.context.ln(ratio)))
        return total

    def gradient(self, stakes: Sequence[Fraction]) -> list[Fraction]:
        """G'(stakes), exactly."""
        wealth = self.wealth(stakes)
        return [sum((p * nets[i] / w for p, nets, w in zip(self.probabilities, self.nets, wealth) if nets[i]), Fraction(0))
                for i in range(len(stakes))]


@dataclass(frozen=True)
class _Pattern:
    """Bounds on each stake (shares of the Kelly bankroll): (low, high), or None for no stake."""

    bounds: tuple[tuple[Fraction, Fraction] | None, ...]


def _patterns(distribution: Joint, limits: Limits, wealth: Fraction) -> list[_Pattern]:
    """The choices a minimum makes discrete (each such bet 0, or from its minimum up), and with them
    whether a side bet may be made (only beside a main bet, when the limits say so)."""
    names = [bet.name for bet in distribution.bets]
    unit = limits.unit or Fraction(0)
    choose = [name in limits.minimum or (limits.side_needs_main and name in limits.main) for name in names]
    patterns = []
    for chosen in product((False, True), repeat=sum(choose)):
        on = iter(chosen)
        made = [next(on) if pick else True for pick in choose]
        mains_on = any(made[i] and choose[i] for i, name in enumerate(names) if name in limits.main)
        bounds: list[tuple[Fraction, Fraction] | None] = []
        for i, name in enumerate(names):
            side = name not in limits.main
            if not made[i] or (side and limits.side_needs_main and not mains_on):
                bounds.append(None)
                continue
            low = max(limits.minimum.get(name, Fraction(0)), unit) if choose[i] else Fraction(0)
            high = min(limits.maximum.get(name, wealth), wealth)
            if low > high:
                break
            bounds.append((low / wealth, high / wealth))
        else:
            if any(bound is not None for bound in bounds):
                patterns.append(_Pattern(tuple(bounds)))
    return patterns


def _constraints(pattern: _Pattern, names: Sequence[str], limits: Limits, wealth: Fraction) -> tuple[list[list[Fraction]], list[Fraction]]:
    """The rows ``a . x <= b`` over every stake beyond its bounds: the total and the side ratios."""
    rows: list[list[Fraction]] = []
    right: list[Fraction] = []
    count = len(names)
    total = min(Fraction(1), limits.total / wealth) if limits.total is not None else Fraction(1)
    rows.append([Fraction(1 if pattern.bounds[i] is not None else 0) for i in range(count)])
    right.append(total)
    if limits.side_ratio is not None:
        for i, name in enumerate(names):
            if name not in limits.main and pattern.bounds[i] is not None:
                rows.append([Fraction(1) if j == i else -limits.side_ratio if names[j] in limits.main and pattern.bounds[j] is not None
                             else Fraction(0) for j in range(count)])
                right.append(Fraction(0))
    return rows, right


def _tightened(pattern: _Pattern, rows: list[list[Fraction]], right: list[Fraction]) -> _Pattern | None:
    """The bounds narrowed by what the other limits leave each stake (given the others' bounds),
    exactly, so that a stake the limits pin down is fixed; None when nothing meets them all."""
    bounds = list(pattern.bounds)
    for _ in range(2 * len(bounds) + 2):
        changed = False
        for row, b in zip(rows, right):
            for i, a in enumerate(row):
                bound = bounds[i]
                if not a or bound is None:
                    continue
                rest = b - sum((c * (low if c > 0 else high) for j, c in enumerate(row) if j != i and c
                                for low, high in [bounds[j] or (Fraction(0), Fraction(0))]), Fraction(0))
                low, high = bound
                low, high = (low, min(high, rest / a)) if a > 0 else (max(low, rest / a), high)
                if low > high:
                    return None
                if (low, high) != bound:
                    bounds[i], changed = (low, high), True
        if not changed:
            break
    return _Pattern(tuple(bounds))


def _feasible(stakes: Sequence[Fraction], pattern: _Pattern, rows: list[list[Fraction]], right: list[Fraction]) -> bool:
    for stake, bound in zip(stakes, pattern.bounds):
        if (bound is None and stake) or (bound is not None and not bound[0] <= stake <= bound[1]):
            return False
    return all(sum((a * x for a, x in zip(row, stakes) if a), Fraction(0)) <= b for row, b in zip(rows, right))


def _solve(problem: _Problem, pattern: _Pattern, limits: Limits, wealth: Fraction) -> tuple[Decimal, tuple[Fraction, ...], str, Fraction | None] | None:
    """The best stakes of one pattern: (growth, stakes as shares of the Kelly bankroll, method,
    growth gap); None when no stakes meet its limits."""
    names = [bet.name for bet in problem.bets]
    rows, right = _constraints(pattern, names, limits, wealth)
    tightened = _tightened(pattern, rows, right)
    if tightened is None:
        return None
    pattern = tightened
    free = [i for i, bound in enumerate(pattern.bounds) if bound is not None and bound[0] < bound[1]]
    fixed_stakes = [bound[0] if bound is not None and i not in free else Fraction(0) for i, bound in enumerate(pattern.bounds)]
    evs = problem.expected_values()
    if all(bound is None or bound[0] == 0 for bound in pattern.bounds) and all(evs[i] <= 0 for i in free):
        return Decimal(0), tuple(Fraction(0) for _ in names), "no stake grows the bankroll (every expectation is at most 0)", Fraction(0)
    if len(free) <= 1:
        found = _one_free(problem, pattern, rows, right, fixed_stakes, free[0] if free else None)
    else:
        found = _several_free(problem, pattern, rows, right, fixed_stakes, free)
    if found is None:
        return None
    stakes, method, gap = found
    bounded: Fraction | None = gap
    if limits.unit is not None:
        units, method = _whole_units(problem, pattern, rows, right, stakes, limits.unit / wealth, method)
        if units is None:
            return None
        stakes = units
        bounded = Fraction(0) if len(free) <= 1 else None
    return problem.growth(stakes), tuple(stakes), method, bounded


def _interval(pattern: _Pattern, rows: list[list[Fraction]], right: list[Fraction], base: list[Fraction], free: int) -> tuple[Fraction, Fraction] | None:
    """The stakes of bet ``free`` that meet every limit, the others at ``base``."""
    bound = pattern.bounds[free]
    assert bound is not None
    low, high = bound
    for row, b in zip(rows, right):
        rest = b - sum((a * x for j, (a, x) in enumerate(zip(row, base)) if j != free and a), Fraction(0))
        if row[free] > 0:
            high = min(high, rest / row[free])
        elif row[free] < 0:
            low = max(low, rest / row[free])
        elif rest < 0:
            return None
    return (low, high) if low <= high else None


def _one_free(problem: _Problem, pattern: _Pattern, rows: list[list[Fraction]], right: list[Fraction], base: list[Fraction],
              free: int | None) -> tuple[list[Fraction], str, Fraction] | None:
    """One stake free (or none): the closed form, or the root of G' bracketed exactly."""
    if free is None:
        return (base, "the limits fix the stakes", Fraction(0)) if _feasible(base, pattern, rows, right) else None
    interval = _interval(pattern, rows, right, base, free)
    if interval is None:
        return None
    low, high = interval

    def at(stake: Fraction) -> list[Fraction]:
        return [stake if j == free else x for j, x in enumerate(base)]

    def slope(stake: Fraction) -> Fraction | None:
        """G' along the free stake, exactly (None: -inf, a combination ruins)."""
        if any(w <= 0 for w in problem.wealth(at(stake))):
            return None
        return problem.gradient(at(stake))[free]

    start, end = slope(low), slope(high)
    if start is not None and start <= 0:
        return at(low), "the smallest stake the limits allow (G' <= 0 there, exactly)", Fraction(0)
    if end is not None and end >= 0:
        return at(high), "the largest stake the limits allow (G' >= 0 there, exactly)", Fraction(0)
    closed = _binary(problem, base, free)
    if closed is not None and low < closed < high:
        return at(closed), "closed form (b p - q a) / (a b (p + q)), exact", Fraction(0)
    while high - low > PRECISION:
        middle = (low + high) / 2
        value = slope(middle)
        if value is not None and value > 0:
            low = middle
        else:
            high = middle
    return at(low), f"root of G' bracketed to {PRECISION} of the bankroll (signs exact)", Fraction(0)


def _binary(problem: _Problem, base: list[Fraction], free: int) -> Fraction | None:
    """The Kelly stake of a lone bet that wins b or loses a (pushes aside), exactly; else None."""
    if any(x for j, x in enumerate(base) if j != free):
        return None
    outcomes: dict[Fraction, Fraction] = {}
    for p, nets in zip(problem.probabilities, problem.nets):
        if nets[free]:
            outcomes[nets[free]] = outcomes.get(nets[free], Fraction(0)) + p
    wins, losses = [net for net in outcomes if net > 0], [net for net in outcomes if net < 0]
    if len(wins) != 1 or len(losses) != 1:
        return None
    b, a = wins[0], -losses[0]
    p, q = outcomes[b], outcomes[-a]
    return (p * b - q * a) / (a * b * (p + q))


def _several_free(problem: _Problem, pattern: _Pattern, rows: list[list[Fraction]], right: list[Fraction], base: list[Fraction],
                  free: list[int]) -> tuple[list[Fraction], str, Fraction] | None:
    """Several free stakes: the interior-point optimum, made a feasible rational point, with an
    exact bound on its growth gap."""
    import numpy as np

    # every limit on the free stakes as rows a . x <= b (the bounds too), the fixed stakes moved right
    matrix: list[list[Fraction]] = []
    limit: list[Fraction] = []
    for position, i in enumerate(free):
        bound = pattern.bounds[i]
        assert bound is not None
        matrix += [[Fraction(1 if k == position else 0) for k in range(len(free))], [Fraction(-1 if k == position else 0) for k in range(len(free))]]
        limit += [bound[1], -bound[0]]
    for row, b in zip(rows, right):
        rest = b - sum((a * x for j, (a, x) in enumerate(zip(row, base)) if j not in free and a), Fraction(0))
        coefficients = [row[i] for i in free]
        if not any(coefficients):
            if rest < 0:
                return None
            continue
        matrix.append(coefficients)
        limit.append(rest)
    a_float = np.array([[float(a) for a in row] for row in matrix])
    b_float = np.array([float(b) for b in limit])
    start, room = _phase_one(a_float, b_float)
    if room < -ROOM:
        return None
    if room <= ROOM:
        raise InputError("the limits leave these stakes no room to vary, though more than one stake is free (a total just at the "
                         "minimums, or a side ratio just met): loosen one limit a little")
    base_wealth = 1 + problem.float_nets @ np.array([float(x) for x in base])
    nets = problem.float_nets[:, free]
    optimum = _interior(problem.float_probabilities, nets, base_wealth, a_float, b_float, start)
    center = [Fraction(round(x * GRID), GRID) for x in start]
    point = [Fraction(round(x * GRID), GRID) for x in optimum]

    def full(values: Sequence[Fraction]) -> list[Fraction]:
        stakes = list(base)
        for i, value in zip(free, values):
            stakes[i] = value
        return stakes

    def inside(values: Sequence[Fraction]) -> bool:
        return all(sum((a * x for a, x in zip(row, values)), Fraction(0)) <= b for row, b in zip(matrix, limit)) and \
            all(w > 0 for w in problem.wealth(full(values)))

    if not inside(center):
        return None
    target = point
    for shrink in range(40, 0, -1):  # toward the center until every limit holds exactly
        if inside(point):
            break
        point = [c + (x - c) * (1 - Fraction(1, 2**shrink)) for c, x in zip(center, target)]
    if not inside(point):
        point = center
    # the Lagrangian bound: the limits beyond the bounds relaxed with multipliers, the bounds kept
    gradient = problem.gradient(full(point))
    boxes = 2 * len(free)
    lambdas = _multipliers(gradient, free, point, pattern, matrix[boxes:], limit[boxes:])
    coupled = list(zip(matrix[boxes:], limit[boxes:]))
    gap = sum((lam * (b - sum((a * x for a, x in zip(row, point)), Fraction(0))) for lam, (row, b) in zip(lambdas, coupled)), Fraction(0))
    for position, i in enumerate(free):
        bound = pattern.bounds[i]
        assert bound is not None
        reduced = gradient[i] - sum((lam * row[position] for lam, (row, _) in zip(lambdas, coupled)), Fraction(0))
        gap += max(reduced * (bound[1] - point[position]), reduced * (bound[0] - point[position]))
    return full(point), "interior-point optimum (growth within growth_gap of the best, bound exact)", gap


def _multipliers(gradient: list[Fraction], free: list[int], point: list[Fraction], pattern: _Pattern, rows: list[list[Fraction]],
                 limits: list[Fraction]) -> list[Fraction]:
    """Multipliers (at least 0, rational) of the limits beyond the bounds that hold with no room at
    ``point``: those that best balance the gradient of the stakes inside their bounds (least squares)."""
    import numpy as np

    near = Fraction(1, 10**9)
    tight = [j for j, (row, b) in enumerate(zip(rows, limits)) if b - sum((a * x for a, x in zip(row, point)), Fraction(0)) <= near]
    inner = [position for position, i in enumerate(free) for bound in [pattern.bounds[i]]
             if bound is not None and bound[0] + near < point[position] < bound[1] - near]
    lambdas = [Fraction(0)] * len(rows)
    if tight and inner:
        system = np.array([[float(rows[j][position]) for j in tight] for position in inner])
        target = np.array([float(gradient[free[position]]) for position in inner])
        solution = np.linalg.lstsq(system, target, rcond=None)[0]
        for j, value in zip(tight, solution.tolist()):
            lambdas[j] = Fraction(round(max(value, 0.0) * 10**15), 10**15)
    return lambdas


def _newton_ascent(value_terms: Any, a: Any, b: Any, start: Any, mu_steps: Sequence[float]) -> Any:
    """Maximise f(x) + mu sum ln(b - a x) for each mu in turn by damped Newton steps from a strictly
    feasible ``start``; ``value_terms(x)`` gives (f, gradient, Hessian), or None outside f's domain."""
    import numpy as np

    x = np.array(start, dtype=float)
    for mu in mu_steps:
        for _ in range(NEWTON_STEPS):
            terms = value_terms(x)
            assert terms is not None
            value, gradient, hessian = terms
            slack = b - a @ x
            grad = gradient - mu * (a.T @ (1 / slack))
            hess = hessian - mu * (a.T * (1 / slack**2)) @ a
            try:
                step = np.linalg.solve(hess, -grad)
            except np.linalg.LinAlgError:
                step = np.linalg.lstsq(hess, -grad, rcond=None)[0]
            decrement = float(grad @ step)
            if decrement < 1e-18:
                break
            objective = value + mu * np.log(slack).sum()
            t = 1.0
            while t > 1e-12:
                trial = x + t * step
                trial_slack = b - a @ trial
                trial_terms = value_terms(trial) if (trial_slack > 0).all() else None
                if trial_terms is not None and trial_terms[0] + mu * np.log(trial_slack).sum() >= objective + 0.25 * t * float(grad @ step):
                    break
                t /= 2
            else:
                break
            x = x + t * step
    return x


NEWTON_STEPS = 60
"""Newton steps at most for each barrier weight."""
MU_STEPS = tuple(10.0 ** -power for power in range(2, 16))


ROOM = 1e-9
"""The least slack (a share of the bankroll) that counts as room inside the limits."""


def _phase_one(a: Any, b: Any) -> tuple[Any, float]:
    """A point well inside {x : a x <= b} and its least slack (by Newton, on the largest least
    slack): negative where nothing meets the limits."""
    import numpy as np

    count = a.shape[1]
    x0 = np.zeros(count)
    t0 = float((b - a @ x0).min()) - 1
    augmented = np.hstack([a, np.ones((a.shape[0], 1))])
    augmented = np.vstack([augmented, np.eye(count + 1)[-1]])
    limits = np.append(b, 1.0)

    def terms(z: Any) -> tuple[float, Any, Any]:
        gradient = np.zeros(count + 1)
        gradient[-1] = 1.0
        return float(z[-1]), gradient, np.zeros((count + 1, count + 1))

    z = _newton_ascent(terms, augmented, limits, np.append(x0, t0), (1e-3, 1e-6, 1e-9))
    return z[:-1], float(z[-1])


def _interior(probabilities: Any, nets: Any, base: Any, a: Any, b: Any, start: Any) -> Any:
    import numpy as np

    def terms(x: Any) -> tuple[float, Any, Any] | None:
        wealth = base + nets @ x
        if (wealth <= 0).any():
            return None
        weights = probabilities / wealth
        return float(probabilities @ np.log(wealth)), nets.T @ weights, -(nets.T * (weights / wealth)) @ nets

    return _newton_ascent(terms, a, b, start, MU_STEPS)


def _whole_units(problem: _Problem, pattern: _Pattern, rows: list[list[Fraction]], right: list[Fraction], stakes: list[Fraction],
                 unit: Fraction, method: str) -> tuple[list[Fraction] | None, str]:
    """The best whole-unit stakes next to the continuous ones (each stake rounded down or up)."""
    free = sum(bound is not None and bound[0] < bound[1] for bound in pattern.bounds)
    reach = 1 if free <= 1 else 0  # one stake: the optimum lies within PRECISION above the one found
    choices = []
    for stake, bound in zip(stakes, pattern.bounds):
        if bound is None:
            choices.append([Fraction(0)])
            continue
        units = stake / unit
        low, high = math.ceil(bound[0] / unit), math.floor(bound[1] / unit)
        near = {min(max(value, low), high) for value in range(math.floor(units) - reach, math.ceil(units) + reach + 1)}
        choices.append(sorted(Fraction(value) * unit for value in near if low <= value <= high))
    best: tuple[Decimal, list[Fraction]] | None = None
    for candidate in product(*choices):
        if _feasible(candidate, pattern, rows, right):
            growth = problem.growth(candidate)
            if best is None or growth > best[0]:
                best = (growth, list(candidate))
    if best is None:
        return None, method
    how = "the best whole units (G is concave: the optimum in units)" if free <= 1 else \
        "the best whole units next to the continuous optimum (each stake rounded down or up)"
    return best[1], f"{how}; continuous: {method}"


def _shown(growth: Decimal) -> str:
    """A growth to 15 significant digits."""
    return f"{growth:.15g}" if growth else "0"
