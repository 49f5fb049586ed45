"""Rebates on losses and dead chips, exactly.

- A rebate on each bet's losses returns a share ``r`` of every amount lost: a line that loses ``a``
  per unit loses ``a (1 - r)``, so the expectation rises by ``r`` times the expected amount lost
  (not by ``r`` times the stake: a side bet loses most of the time, a main bet half of it).
- A rebate on a session's net loss returns ``r`` of the loss of the whole session, if it ends
  behind: ``n EV + r E[max(0, -S)]`` over ``n`` coups of one unit each, ``S`` their sum. The coups
  are taken as independent draws from the same shoe (a shuffle between coups).
- A dead chip (a non-negotiable or rolling chip) is bet until it loses: a win is paid in cash chips
  and the chip stays, a push leaves it, a loss takes it. Its number of wagers is geometric, with
  mean ``1 / q`` (``q`` the bet's probability of losing), and by Wald's identity the cash it wins is
  ``1 / q`` times the expected win per wager. A rolling-chip rebate ``r`` on chips lost adds ``r`` to
  what each chip is worth.

>>> from exact_odds.core.shoe import Shoe
>>> from exact_odds import analyze
>>> chip = dead_chip(analyze(Shoe.decks(8), "banker")["banker"])
>>> chip.wagers
Fraction(19524993263685, 8712962041376)
"""

from dataclasses import dataclass
from fractions import Fraction

from ..engine.analysis import BetAnalysis
from ..errors import InputError

MAX_SESSION = 500
"""A session rebate is worked out exactly for at most this many coups."""


def check_rate(rate: Fraction, what: str = "rebate") -> Fraction:
    """A rebate as a share of losses, from 0 to below 1."""
    if not 0 <= rate < 1:
        raise InputError(f"the {what} must be a share of losses from 0 to below 1 (e.g. 1/100 for 1%), not {rate}")
    return rate


def expected_loss(result: BetAnalysis) -> Fraction:
    """The expected amount lost per unit staked (the losing lines only)."""
    return sum((-row.pays.net * row.probability for row in result.rows if row.pays.net < 0), Fraction(0))


def with_loss_rebate(result: BetAnalysis, rate: Fraction) -> Fraction:
    """The bet's expected value per unit with a share ``rate`` of each loss returned."""
    return result.expected_value + check_rate(rate) * expected_loss(result)


@dataclass(frozen=True)
class DeadChip:
    """A dead chip played on one bet until it loses: its exact expected wagers, the cash it wins,
    and what it is worth with a rebate on chips lost (each per unit of the chip's face value)."""

    bet: str
    lose: Fraction
    """The bet's probability of losing (the chip is taken)."""
    wagers: Fraction
    """The expected number of wagers a chip makes, 1 / lose."""
    cash: Fraction
    """The expected cash the chip wins before it is lost."""
    rebate: Fraction

    @property
    def value(self) -> Fraction:
        """What a chip is worth to the player: its cash and the rebate on it when it is lost."""
        return self.cash + self.rebate

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per chip (bought at face value), 1 - value."""
        return 1 - self.value

    @property
    def edge_per_wager(self) -> Fraction:
        """The house's expected win per wager made with dead chips (rebate included)."""
        return self.house_edge / self.wagers

    def to_dict(self) -> dict[str, object]:
        return {
            "bet": self.bet,
            "lose_probability": str(self.lose),
            "wagers_per_chip": str(self.wagers),
            "wagers_per_chip_decimal": float(self.wagers),
            "cash_per_chip": str(self.cash),
            "rebate": str(self.rebate),
            "value_per_chip": str(self.value),
            "value_per_chip_decimal": float(self.value),
            "house_edge_per_chip": str(self.house_edge),
            "house_edge_per_wager": str(self.edge_per_wager),
        }


def dead_chip(result: BetAnalysis, rebate: Fraction = Fraction(0)) -> DeadChip:
    """The dead-chip play of one bet (see the module docstring), with a rolling-chip ``rebate``
    on each chip lost. A bet that loses part of its stake, or never loses, is refused."""
    check_rate(rebate)
    name = result.bet.name
    partial = [row.event for row in result.rows if -1 < row.pays.net < 0]
    if partial:
        raise InputError(f"{name} loses part of its stake on {partial[0]!r}: a dead chip is kept or lost whole")
    lose = sum((row.probability for row in result.rows if row.pays.net == -1), Fraction(0))
    if not lose:
        raise InputError(f"{name} never loses on this shoe: a dead chip on it is never spent")
    cash = sum((row.pays.net * row.probability for row in result.rows if row.pays.net > 0), Fraction(0)) / lose
    return DeadChip(name, lose, 1 / lose, cash, rebate)


def mean_wagers(chips: list[DeadChip]) -> Fraction:
    """The expected wagers of a chip when the chips are shared equally among the bets."""
    if not chips:
        raise InputError("give at least one bet for the dead-chip figures")
    return sum((chip.wagers for chip in chips), Fraction(0)) / len(chips)


@dataclass(frozen=True)
class SessionRebate:
    """A rebate on a session's net loss: ``coups`` coups of one unit on one bet."""

    bet: str
    coups: int
    rate: Fraction
    expected_value: Fraction
    """The session's expected result without the rebate (coups times the bet's expectation)."""
    expected_net_loss: Fraction
    """E[max(0, -S)]: the session's expected net loss, where it ends behind."""
    behind: Fraction
    """The probability that the session ends behind."""

    @property
    def value(self) -> Fraction:
        """The session's expected result with the rebate."""
        return self.expected_value + self.rate * self.expected_net_loss

    @property
    def per_coup(self) -> Fraction:
        return self.value / self.coups

    def to_dict(self) -> dict[str, object]:
        return {"bet": self.bet, "coups": self.coups, "rate": str(self.rate), "expected_value": str(self.expected_value),
                "expected_net_loss": str(self.expected_net_loss), "behind_probability": str(self.behind),
                "value": str(self.value), "value_per_coup": str(self.per_coup), "value_per_coup_decimal": float(self.per_coup)}


def session_rebate(result: BetAnalysis, coups: int, rate: Fraction) -> SessionRebate:
    """The exact value of a rebate of ``rate`` on the net loss of ``coups`` independent coups of
    one unit on the bet: the distribution of the session's sum, convolved exactly."""
    check_rate(rate)
    if isinstance(coups, bool) or not isinstance(coups, int) or not 1 <= coups <= MAX_SESSION:
        raise InputError(f"a session has from 1 to {MAX_SESSION} coups, not {coups!r}")
    scale = result.bet.scaled_pays[0]
    weights: dict[int, int] = {}
    for row, net in zip(result.rows, (int(row.pays.net * scale) for row in result.rows)):
        weights[net] = weights.get(net, 0) + row.combinations
    sums = {0: 1}
    for _ in range(coups):
        following: dict[int, int] = {}
        for total, count in sums.items():
            for net, weight in weights.items():
                following[total + net] = following.get(total + net, 0) + count * weight
        sums = following
    everything = result.total**coups
    loss = Fraction(sum(-total * count for total, count in sums.items() if total < 0), everything * scale)
    behind = Fraction(sum(count for total, count in sums.items() if total < 0), everything)
    return SessionRebate(result.bet.name, coups, rate, coups * result.expected_value, loss, behind)
