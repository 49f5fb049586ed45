"""What to bet now: the Kelly position on a session's next coup (:func:`exact_odds.studies.sizing.size`
on the shoe left), under the table's limits and a rebate, as the ``size`` command's options name them.

Without named bets a session sizes its bets with a positive expectation on the next coup (the
rebate included), ranked by the growth of each one's Kelly stake alone to second order
(``EV^2 / 2 Var``): the best :data:`MAX_SERVED` on request, the best :data:`PER_CARD` in the state
after each card (several free stakes cost the optimiser a quarter of a second), beside the best
:data:`MAINS_ADDED` main bets when a side bet needs one. With none positive it sizes the best bet
alone, which the library answers "no bet": no position of bets whose expectations are all at most
0 grows the bankroll (``ln(1 + x) <= x``).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..bets.bets import Bet
from ..commands.size import SessionStaking, Staking
from ..core.numbers import parse_exact
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..engine.analysis import Analysis, BetAnalysis
from ..errors import InputError
from ..studies.sizing import Sizing, size
from .recent import Recent

MAX_SERVED = 4
"""A position served holds at most this many bets (each minimum doubles the optimiser's work: four
bets with minimums and whole units take up to a second)."""
PER_CARD = 1
"""Positive bets sized in a session's state after each card (the whole position: on request)."""
MAINS_ADDED = 2
"""Main bets added, the best first, to a session's position when a side bet needs one beside it."""


def expected_value(bet: BetAnalysis, rebate: Fraction) -> Fraction:
    """A bet's exact expected value per unit on the next coup, a ``rebate`` of each loss returned."""
    if not rebate:
        return bet.expected_value
    return sum((row.probability * rebated(row.pays.net, rebate) for row in bet.rows), Fraction(0))


def rebated(net: Fraction, rebate: Fraction) -> Fraction:
    return net * (1 - rebate) if net < 0 else net


def kelly_growth(bet: BetAnalysis, rebate: Fraction) -> tuple[bool, Fraction]:
    """How the positive bets are ranked: ``EV^2 / (2 Var)``, the growth per coup of a bet's Kelly
    stake alone to second order (a bet without risk first)."""
    mean = expected_value(bet, rebate)
    square = sum((row.probability * rebated(row.pays.net, rebate) ** 2 for row in bet.rows), Fraction(0))
    variance = square - mean * mean
    return (True, mean) if not variance else (False, mean * mean / (2 * variance))


def chosen(bets: Sequence[Bet], analysis: Analysis, sizing: SessionStaking, most: int = MAX_SERVED) -> tuple[list[Bet], str]:
    """The bets of a session to size (without named bets, at most ``most`` positive ones), and in
    words why those."""
    by_name = {bet.name: bet for bet in bets}
    names = list(by_name)
    staking, wanted = sizing.at_table, sizing.named
    if wanted is not None:
        if len(wanted) > MAX_SERVED:
            raise InputError(f"bets: a position served holds at most {MAX_SERVED} bets, not {len(wanted)}")
        return [by_name[name] for name in wanted], "the bets named"
    rebate = staking.rebate_share
    values = {name: expected_value(analysis[name], rebate) for name in names}
    best = sorted(names, key=lambda name: values[name], reverse=True)
    mains = staking.mains()
    added = [name for name in best if name in mains][:MAINS_ADDED] if staking.sides_need_mains else []
    positive = [name for name in best if values[name] > 0 and name not in added]
    if not positive:
        return [by_name[name] for name in added or best[:1]], \
            f"no bet of the session has a positive expectation: {'its best main bets' if added else 'its best bet alone'}, sized (no bet)"
    positive.sort(key=lambda name: kelly_growth(analysis[name], rebate), reverse=True)
    taken = positive[:max(1, min(most, MAX_SERVED) - len(added))]
    why = (f"the session's {len(taken)} bets with a positive expectation" if len(taken) > 1 else "the session's bet with a positive expectation") + \
        f" (of {len(positive)}) whose Kelly stake alone grows the bankroll most (EV^2 / 2 Var), the rebate included"
    if added:
        why += f", beside its best main bets ({', '.join(added)})"
    return [by_name[name] for name in taken + added], why


def position(shoe: Shoe, bets: Sequence[Bet], decisions: Decisions, staking: Staking, names: Sequence[str]) -> Sizing:
    """The sizing of ``bets`` on the next coup of ``shoe`` (its ``to_dict()``: as ``size --format json``
    prints it); the limits may name any of the table's bets ``names`` (and are checked against all of them)."""
    limits = staking.limits(names)
    kelly = parse_exact(staking.kelly, "kelly")
    bankroll = parse_exact(staking.bankroll, "bankroll")
    return size(shoe, list(bets), bankroll, limits, kelly, staking.rebate_share, decisions, table=names)


@dataclass(frozen=True)
class Position:
    """What to bet now in a session: the sizing (exact, for the banner) and, for the JSON edge, its
    record with the bets ``chosen`` and why (made once)."""

    sizing: Sizing
    record: dict[str, Any]


POSITIONS_KEPT = 64
POSITIONS: "Recent[tuple[object, ...], Position]" = Recent(POSITIONS_KEPT)


def session_position(key: object, left: Shoe, bets: Sequence[Bet], decisions: Decisions,
                     analysis: Analysis, staking: SessionStaking, most: int = MAX_SERVED) -> Position:
    """What to bet now in a session (its shoe left ``left``): the sizing, with the bets ``chosen``
    (at most ``most`` positive ones) and why (kept for a few shoes, by ``key`` the session's settings)."""
    cache = (key, left, staking.at_table, most)
    kept = POSITIONS.get(cache)
    if kept is not None:
        return kept
    sized, why = chosen(bets, analysis, staking, most)
    sizing = position(left.checked(), sized, decisions, staking.at_table, [bet.name for bet in bets])
    return POSITIONS.put(cache, Position(sizing, {**sizing.to_dict(), "chosen": why}))
