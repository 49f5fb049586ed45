"""The table's view: what a bet mix (amounts on the bets of one table) does for the house, exactly.

A casino prices a table, not a bet: from the exact joint distribution of the bets' lines on one coup
(:mod:`exact_odds.studies.joint`; bets on one coup are not independent), the distribution of the
house's result on a coup (its win, negative where it pays), the hold per coup (the expected win over
the amount bet), its standard deviation, the theoretical win per hour at a stated pace (decisions per
hour), and the worst coup: the most the house can pay on one coup (its maximum exposure), how often,
and on which lines.

A table differential (the Australian rule: a cap on the difference between the total bet on the
banker and the total bet on the player) where one is set: the mix as the cap lets it stand, the
heavier side's bets cut back pro rata until the difference is the cap (to whole units where the
table has a unit), beside the mix as offered. The mix is checked against the table's limits
(:class:`~exact_odds.studies.sizing.Limits`): an amount past them is refused in one line.

>>> view = table_view(8, {"banker": 5000, "player": 1000}, pace=70, differential=2000)
>>> view.capped.amounts, view.capped.exposure
((('banker', Fraction(3000, 1)), ('player', Fraction(1000, 1))), Fraction(1850, 1))
>>> view.offered.exposure
Fraction(3750, 1)
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..core.numbers import parse_count, parse_exact, shown, square_root
from ..core.policy import Decisions, Policy
from ..core.rules import PUNTO_BANCO, DrawRules
from ..core.shoe import Shoe
from ..engine.analysis import Engine
from ..errors import InputError
from ..records import versioned
from .joint import Joint, joint
from .sizing import Limits

BANKER_SIDE = ("banker", "banker_4pct", "ez_banker", "no_commission_banker")
"""The bets on the banker hand winning, as a table differential counts them."""
PLAYER_SIDE = ("player",)
"""The bets on the player hand winning, as a table differential counts them."""
MAX_PACE = 10_000
"""At most this many decisions (coups) an hour."""


@dataclass(frozen=True)
class HouseResult:
    """One value of the house's result on a coup, and how many card sequences give it."""

    amount: Fraction
    """The house's win (negative: it pays)."""
    combinations: int


@dataclass(frozen=True)
class MixFigures:
    """A bet mix at the table: the exact distribution of the house's result on a coup and what follows."""

    amounts: tuple[tuple[str, Fraction], ...]
    results: tuple[HouseResult, ...]
    """Every result that occurs, from the worst for the house up."""
    total: int
    pace: int
    worst_events: tuple[tuple[str, str], ...]
    """A combination of lines giving the worst result: each bet's event."""

    def probability(self, result: HouseResult) -> Fraction:
        return Fraction(result.combinations, self.total)

    @property
    def handle(self) -> Fraction:
        """The amount bet on a coup."""
        return sum((amount for _, amount in self.amounts), Fraction(0))

    @property
    def expected_win(self) -> Fraction:
        """The house's expected win per coup."""
        return sum((result.amount * result.combinations for result in self.results), Fraction(0)) / self.total

    @property
    def hold(self) -> Fraction:
        """The expected win over the amount bet (the mix's house edge)."""
        return self.expected_win / self.handle if self.handle else Fraction(0)

    @property
    def variance(self) -> Fraction:
        """The variance of the house's result per coup (money squared)."""
        return sum((result.amount**2 * result.combinations for result in self.results), Fraction(0)) / self.total - self.expected_win**2

    @property
    def win_per_hour(self) -> Fraction:
        """The theoretical win per hour at the pace."""
        return self.expected_win * self.pace

    @property
    def exposure(self) -> Fraction:
        """The most the house pays on one coup (0 where it never pays)."""
        return max(-self.results[0].amount, Fraction(0))

    def to_dict(self) -> dict[str, object]:
        worst = self.results[0]
        return {
            "amounts": {name: str(amount) for name, amount in self.amounts},
            "handle": str(self.handle),
            "expected_win": str(self.expected_win), "expected_win_decimal": float(self.expected_win),
            "hold": str(self.hold), "hold_percent": float(self.hold * 100),
            "variance": str(self.variance), "standard_deviation": float(square_root(self.variance, 12)),
            "pace": self.pace,
            "win_per_hour": str(self.win_per_hour), "win_per_hour_decimal": float(self.win_per_hour),
            "standard_deviation_per_hour": float(square_root(self.variance * self.pace, 12)),
            "worst_coup": {"house_result": str(worst.amount), "exposure": str(self.exposure), "combinations": worst.combinations,
                           "probability": str(self.probability(worst)), "decimal": float(self.probability(worst)),
                           "events": dict(self.worst_events)},
            "results": [{"house_result": str(result.amount), "combinations": result.combinations,
                         "probability": str(self.probability(result)), "decimal": float(self.probability(result))} for result in self.results],
        }


@dataclass(frozen=True)
class TableView:
    """A bet mix at a table, and where a table differential is set, the mix as it lets it stand."""

    joint: Joint
    offered: MixFigures
    differential: Fraction | None
    capped: MixFigures | None
    """The mix the differential lets stand (the offered one where it is within the cap); None: no cap set."""

    def to_dict(self) -> dict[str, object]:
        return versioned("table", {
            "shoe": self.joint.shoe.description,
            "rules": self.joint.decisions.rules.name,
            "policy": str(self.joint.decisions.policy) or None,
            "total_combinations": self.joint.total,
            "offered": self.offered.to_dict(),
            "differential": None if self.differential is None else {
                "cap": str(self.differential),
                "offered": str(side_difference(self.offered.amounts)),
                "capped": self.capped.to_dict() if self.capped is not None else None,
            },
        })


def side_difference(amounts: Sequence[tuple[str, Fraction]], banker_side: Sequence[str] = BANKER_SIDE,
                    player_side: Sequence[str] = PLAYER_SIDE) -> Fraction:
    """The total bet on the banker less the total bet on the player."""
    return (sum((amount for name, amount in amounts if name in banker_side), Fraction(0))
            - sum((amount for name, amount in amounts if name in player_side), Fraction(0)))


def mix_figures(distribution: Joint, amounts: Sequence[Fraction], pace: int) -> MixFigures:
    """The house's result on every combination of the bets' lines, summed by value."""
    counts: dict[Fraction, int] = {}
    worst: tuple[Fraction, tuple[int, ...]] | None = None
    for combination in distribution.combinations:
        house = -sum((amount * net for amount, net in zip(amounts, distribution.nets(combination))), Fraction(0))
        counts[house] = counts.get(house, 0) + combination.combinations
        if worst is None or house < worst[0]:
            worst = (house, combination.lines)
    assert worst is not None
    events = tuple((bet.name, bet.events[line]) for bet, line in zip(distribution.bets, worst[1]))
    results = tuple(HouseResult(amount, counts[amount]) for amount in sorted(counts))
    named = tuple((bet.name, amount) for bet, amount in zip(distribution.bets, amounts))
    return MixFigures(named, results, distribution.total, pace, events)


def exact_amount(value: object, what: str, parameter: str) -> Fraction:
    """An amount as people give it: an int, a Fraction, or text such as ``"2.5"`` (never a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, str)):
        raise InputError(f"{what} must be an exact number (an int, a Fraction or text such as 2.5), not {shown(value)}", parameter=parameter)
    amount = parse_exact(value, what, parameter=parameter) if isinstance(value, str) else Fraction(value)
    if amount <= 0:
        raise InputError(f"{what} must be positive, not {amount}", parameter=parameter)
    return amount


def check_mix(amounts: Mapping[str, Fraction], limits: Limits) -> None:
    """Refuse, in one line, a mix past the table's limits."""
    for kind, named in (("minimum", limits.minimum), ("maximum", limits.maximum)):
        for name in named:
            if name not in amounts:
                raise InputError(f"limits: a {kind} for {name!r}, which is not a bet of this mix ({', '.join(amounts)})", parameter="limits")
    for name, amount in amounts.items():
        if name in limits.maximum and amount > limits.maximum[name]:
            raise InputError(f"amounts: {amount} on {name} is above the table's maximum of {limits.maximum[name]} for it", parameter="amounts")
        if name in limits.minimum and amount < limits.minimum[name]:
            raise InputError(f"amounts: {amount} on {name} is below the table's minimum of {limits.minimum[name]} for it", parameter="amounts")
        if limits.unit is not None and (amount / limits.unit).denominator != 1:
            raise InputError(f"amounts: {amount} on {name} is not a whole number of the table's unit {limits.unit}", parameter="amounts")
    handle = sum(amounts.values(), Fraction(0))
    if limits.total is not None and handle > limits.total:
        raise InputError(f"amounts: {handle} in all is above the table's limit of {limits.total} a coup", parameter="amounts")
    main = sum((amount for name, amount in amounts.items() if name in limits.main), Fraction(0))
    side = handle - main
    if side and limits.side_needs_main and not main:
        raise InputError("amounts: a side bet needs a bet on a main bet beside it at this table", parameter="amounts")
    if side and limits.side_ratio is not None and side > limits.side_ratio * main:
        raise InputError(f"amounts: {side} on side bets is above {limits.side_ratio} times the {main} on the main bets", parameter="amounts")


def capped_amounts(amounts: Mapping[str, Fraction], cap: Fraction, limits: Limits, banker_side: Sequence[str],
                   player_side: Sequence[str]) -> dict[str, Fraction]:
    """The mix the differential lets stand: the heavier side's bets cut pro rata until the difference
    is the cap, then down to whole units where the table has one."""
    difference = side_difference(tuple(amounts.items()), banker_side, player_side)
    if abs(difference) <= cap:
        return dict(amounts)
    heavy = banker_side if difference > 0 else player_side
    heavy_total = sum((amount for name, amount in amounts.items() if name in heavy), Fraction(0))
    share = (heavy_total - abs(difference) + cap) / heavy_total
    capped = {}
    for name, amount in amounts.items():
        cut = amount * share if name in heavy else amount
        if limits.unit is not None and name in heavy:
            cut = (cut // limits.unit) * limits.unit
        if name in limits.minimum and 0 < cut < limits.minimum[name]:
            raise InputError(f"differential: the cap cuts {name} to {cut}, below the table's minimum of {limits.minimum[name]} for it",
                             parameter="differential")
        capped[name] = Fraction(cut)
    return capped


def table_view(shoe: "Shoe | int | str | Mapping[str, int]", amounts: Mapping[str, "Fraction | int | str"], pace: "int | str",
               rules: "DrawRules | Decisions | str" = PUNTO_BANCO, policy: Policy | str | None = None, limits: Limits | None = None,
               differential: "Fraction | int | str | None" = None, banker_side: Sequence[str] = BANKER_SIDE,
               player_side: Sequence[str] = PLAYER_SIDE, engine: Engine | None = None) -> TableView:
    """The table's view of the mix ``amounts`` (bet name: amount) on ``shoe`` at ``pace`` decisions an
    hour, within ``limits``, with a table ``differential`` where one is set (see the module docstring)."""
    if not isinstance(amounts, Mapping) or not amounts:
        raise InputError("amounts must name at least one bet with its amount, e.g. {'banker': 100}", parameter="amounts")
    given = {str(name).strip().lower(): exact_amount(amount, f"amounts: the amount on {name}", "amounts") for name, amount in amounts.items()}
    if len(given) != len(amounts):
        raise InputError("amounts: a bet is named twice", parameter="amounts")
    if isinstance(pace, bool) or not isinstance(pace, (int, str)):
        raise InputError(f"pace must be a whole number of decisions an hour, not {shown(pace)}", parameter="pace")
    hourly = parse_count(pace, "pace (decisions an hour)", 1, MAX_PACE, parameter="pace")
    cap = None if differential is None else exact_amount(differential, "differential (the cap on banker less player)", "differential")
    if set(banker_side) & set(player_side):
        raise InputError(f"a bet cannot be on both sides of the differential: {', '.join(sorted(set(banker_side) & set(player_side)))}",
                         parameter="differential")
    if cap is not None and not any(name in banker_side or name in player_side for name in given):
        raise InputError("differential: the cap is on the banker and player bets, and this mix has neither", parameter="differential")
    limits = limits or Limits()
    distribution = joint(shoe, list(given), rules, policy, engine)
    names = [bet.name for bet in distribution.bets]
    if len(names) != len(given):
        raise InputError("amounts: name each bet once, by its name (not all, nor several in one)", parameter="amounts")
    given = dict(zip(names, given.values()))
    check_mix(given, limits)
    offered = mix_figures(distribution, list(given.values()), hourly)
    capped = None
    if cap is not None:
        kept = capped_amounts(given, cap, limits, banker_side, player_side)
        capped = offered if kept == given else mix_figures(distribution, [kept[name] for name in names], hourly)
    return TableView(distribution, offered, cap, capped)
