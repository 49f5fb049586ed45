"""The Kelly optimiser: the stakes that maximise a position's growth under the table's limits.

The growth of stakes ``s`` (shares of the bankroll) is ``G(s) = sum_k p_k ln(1 + sum_i s_i r_ki)``
(:mod:`exact_odds.studies.sizing`, which sizes a position with it). How the optimum is found, and
how exactly:

- one bet that either wins ``b`` or loses ``a`` (pushes aside): the closed form
  ``(p b - q a) / (a b (p + q))`` (``(b p - q) / b`` without pushes), exactly;
- one stake free: the root of ``G'``, a rational function evaluated exactly, bracketed by
  bisection to :data:`PRECISION` of the bankroll (its sign checked exactly at both ends);
- several: an interior-point Newton method in floats, then a feasible rational point whose
  shortfall from the best growth is bounded exactly (the concavity bound ``G(x) <= G(s) + G'(s)(x - s)``,
  the limits beyond the bounds relaxed with Lagrange multipliers): the ``growth_gap``;
- whole units: the best unit stakes next to the continuous optimum (for one stake, the optimum
  among whole units, as ``G`` is concave).

Growth is computed with :data:`DIGITS`-digit decimals.
"""

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Context, Decimal
from fractions import Fraction
from itertools import product
from typing import Any

from ..bets.bets import Bet
from ..errors import InputError
from .joint import Joint

MAIN = ("banker", "player", "tie", "banker_4pct", "tie_9to1", "ez_banker", "no_commission_banker")
"""The main bets of a table (the others are side bets), unless the limits name them."""
PRECISION = Fraction(1, 10**12)
"""One free stake is bracketed to this share of the (Kelly) bankroll."""
DIGITS = 50
"""Decimal digits of the growth computations."""
DOUBT = Decimal(10) ** -30
"""A growth this close to zero (or two this close to each other) is not told apart."""
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
    amount = exact_amount(value, what)
    if amount <= 0:
        raise InputError(f"{what} must be positive, not {amount}", parameter=parameter)
    return amount


def exact_amount(value: object, what: str) -> Fraction:
    """An exact number as people give one: an int, a Fraction, or its text (``"2.5"``, ``"1/2"``)."""
    from ..core.numbers import parse_exact

    if isinstance(value, bool) or not isinstance(value, (int, Fraction, str)):
        raise InputError(f"{what} must be an exact number (an int, a Fraction or text such as '1/2'), not {value!r}")
    return Fraction(value) if isinstance(value, (int, Fraction)) else parse_exact(value, what)


def with_rebate(nets: Sequence[Fraction], rebate: Fraction) -> tuple[Fraction, ...]:
    return tuple(net * (1 - rebate) if net < 0 else net for net in nets)


class Problem:
    """The growth of stakes (shares of the bankroll), exactly and in floats."""

    def __init__(self, distribution: Joint, rebate: Fraction):
        import numpy as np

        self.bets = distribution.bets
        self.probabilities = [distribution.probability(combination) for combination in distribution.combinations]
        self.nets = [with_rebate(distribution.nets(combination), rebate) for combination in distribution.combinations]
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


def optimum(problem: Problem, limits: Limits, wealth: Fraction) -> tuple[Decimal, tuple[Fraction, ...], str, Fraction | None] | None:
    """The best stakes of every choice the limits leave (:func:`_solve`'s answer for the best of
    them, growths within :data:`DOUBT` not told apart); None when no stakes meet the limits."""
    best: tuple[Decimal, tuple[Fraction, ...], str, Fraction | None] | None = None
    for pattern in _patterns(problem.bets, limits, wealth):
        found = _solve(problem, pattern, limits, wealth)
        if found is not None and (best is None or found[0] > best[0] + DOUBT):
            best = found
    return best


@dataclass(frozen=True)
class _Pattern:
    """Bounds on each stake (shares of the Kelly bankroll): (low, high), or None for no stake."""

    bounds: tuple[tuple[Fraction, Fraction] | None, ...]


def _patterns(bets: Sequence[Bet], limits: Limits, wealth: Fraction) -> list[_Pattern]:
    """The choices a minimum makes discrete (each such bet 0, or from its minimum up), and with them
    whether a side bet may be made (only beside a main bet, when the limits say so)."""
    names = [bet.name for bet in bets]
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


def _solve(problem: Problem, pattern: _Pattern, limits: Limits, wealth: Fraction) -> tuple[Decimal, tuple[Fraction, ...], str, Fraction | None] | None:
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


def _one_free(problem: Problem, pattern: _Pattern, rows: list[list[Fraction]], right: list[Fraction], base: list[Fraction],
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


def _binary(problem: Problem, base: list[Fraction], free: int) -> Fraction | None:
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


def _several_free(problem: Problem, pattern: _Pattern, rows: list[list[Fraction]], right: list[Fraction], base: list[Fraction],
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


def _whole_units(problem: Problem, pattern: _Pattern, rows: list[list[Fraction]], right: list[Fraction], stakes: list[Fraction],
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
