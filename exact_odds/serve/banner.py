"""What a session shows at a glance: the banner (what to bet on the next coup, or wait, or the
shoe has ended), the roads of the shoe's coups, and whether the shoe has ended.

The banner's stakes are the state's own figures: with a bankroll kept, the Kelly position of
``what_to_bet`` (at a table: within its limits, in whole chips, the rebate counted); without one,
the positive bet whose Kelly stake alone grows a bankroll most (``EV^2 / 2 Var``), at the table's
minimum for it (a stake in units of the minimum). A shoe has ended once a coup has started after
the cut card came out (the cut card's coup is finished, and one more is dealt: the common rule), or
when too few cards are left for a coup: then there is no advice.
"""

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..bets.profiles import TableProfile
from ..commands.session import Table
from ..engine.analysis import BetAnalysis
from ..studies.roads import roads
from ..studies.sizing import Sizing
from .compute import NextCoup
from .sessions import Replay
from .staking import expected_value, kelly_growth


def shoe_roads(table: Table, state: Replay, shoe: int | None = None) -> dict[str, Any]:
    """The roads (bead plate, big road, derived roads) of shoe ``shoe``'s coups (default: the current
    shoe's, drawn once for each coup closed)."""
    if shoe is None and state.roads is not None:
        return state.roads
    number = state.shoe_number if shoe is None else shoe
    drawn = roads([closed.coup for closed in state.coups if closed.shoe == number], rules=table.decisions.rules).to_dict()
    if shoe is None:
        state.roads = drawn
    return drawn


def shoe_end(record: dict[str, Any], starts: Sequence[int]) -> tuple[bool, bool]:
    """(ended, last): whether the shoe has ended, and whether the next coup is its last (``starts``:
    the cards out when each coup of the shoe started, :attr:`Replay.starts`)."""
    if record["analysis"] is None:
        return True, False
    cut = record["cut_card"]
    if cut is None:
        return False, False
    ended = any(start >= cut["at"] for start in starts)
    return ended, cut["reached"] and not ended


def stake_record(name: str, amount: Fraction | None, bet: BetAnalysis, rebate: Fraction, chip: Fraction | None) -> dict[str, Any]:
    chips = None if amount is None or chip is None or (amount / chip).denominator != 1 else int(amount / chip)
    return {"bet": name, "amount": None if amount is None else str(amount), "chips": chips,
            "expected_value": str(expected_value(bet, rebate)), "house_edge": str(bet.house_edge)}


def banner(record: dict[str, Any], next_coup: NextCoup | None, sizing: Sizing | None, starts: Sequence[int],
           profile: TableProfile | None) -> dict[str, Any]:
    """The banner of a session's state ``record``, the analysis of its next coup, its position (the
    sizing of ``what_to_bet``, None: none), its coups' starts (:attr:`Replay.starts`) and its table
    (the Fractions of the bets staked or ranked read, of every bet only where a rebate is counted)."""
    chip = None if profile is None else profile.chip
    rebate = Fraction(0) if profile is None else profile.rebate_share
    ended, last = shoe_end(record, starts)
    basis = "bankroll" if record["sizing"] else "none" if profile is None else "minimum"
    shown: dict[str, Any] = {"action": "wait", "stakes": [], "basis": basis,
                             "chip": None if chip is None else str(chip), "last_coup": last, "why": ""}
    if ended or next_coup is None:
        reason = record["analysis_refused"] or "the cut card is out and the shoe's last coup has been dealt"
        return {**shown, "action": "ended", "why": f"the shoe has ended ({reason}): no advice; start a new shoe"}
    if record["sizing"]:
        if sizing is None:
            return {**shown, "why": f"no stake: {record['what_to_bet_refused']}"}
        stakes = [(stake.bet, stake.amount) for stake in sizing.stakes if stake.amount > 0]
        if not stakes:
            return {**shown, "why": "no stake grows the bankroll on the next coup"}
        return {**shown, "action": "bet", "stakes": [stake_record(name, amount, next_coup.bet(name), rebate, chip) for name, amount in stakes],
                "why": f"{'full' if sizing.kelly == 1 else sizing.kelly} Kelly on a bankroll of {sizing.bankroll}"
                       + (f", in whole chips of {chip} within the table's limits" if chip else "")}
    positive = [result.bet.name for result in next_coup.analysis.bets if expected_value(result, rebate) > 0] if rebate else next_coup.positive
    if not positive:
        return {**shown, "why": "no bet of the table has a positive expectation on the next coup"}
    best = max(positive, key=lambda name: kelly_growth(next_coup.bet(name), rebate))
    minimum = None if profile is None else profile.minimum.get(best, profile.chip)
    return {**shown, "action": "bet", "stakes": [stake_record(best, minimum, next_coup.bet(best), rebate, chip)],
            "why": "the positive bet whose Kelly stake grows a bankroll most, at the table's minimum: give a bankroll for the Kelly stake"
            if minimum is not None else "the positive bet whose Kelly stake grows a bankroll most: give a bankroll for the stake"}
