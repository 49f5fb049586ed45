"""Expectations, house edges and return tables of bets, exactly.

>>> from exact_odds.shoe import Shoe
>>> from exact_odds.bets import catalog
>>> result = analyze(Shoe.decks(8), [catalog()["player_pair"]])
>>> result.bets[0].expected_value
Fraction(-43, 415)
"""

from dataclasses import dataclass
from fractions import Fraction

from .bets import LOSE, Bet, Payout
from .distribution import OUTCOMES, Distribution
from .enumerator import enumerate_cards, enumerate_coups
from .rules import PUNTO_BANCO, DrawRules
from .shoe import Shoe


@dataclass(frozen=True)
class ReturnRow:
    """One line of a return table: the event, what it pays, how often, and its share of the return."""

    event: str
    pays: Payout
    combinations: int
    probability: Fraction

    @property
    def expected_return(self) -> Fraction:
        return self.pays.net * self.probability


@dataclass(frozen=True)
class BetAnalysis:
    """A bet's return table on one shoe, with its exact moments."""

    bet: Bet
    rows: tuple[ReturnRow, ...]
    total: int
    cards: int

    @property
    def expected_value(self) -> Fraction:
        """Expected net win per unit staked."""
        return sum((row.expected_return for row in self.rows), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per unit staked (per bet made)."""
        return -self.expected_value

    @property
    def push_probability(self) -> Fraction:
        return sum((row.probability for row in self.rows if row.pays.net == 0), Fraction(0))

    @property
    def house_edge_excluding_pushes(self) -> Fraction:
        """House edge per bet resolved (ties excluded for banker and player)."""
        return self.house_edge / (1 - self.push_probability)

    @property
    def variance(self) -> Fraction:
        second_moment = sum((row.pays.net**2 * row.probability for row in self.rows), Fraction(0))
        return second_moment - self.expected_value**2


@dataclass(frozen=True)
class Analysis:
    """The outcome table of a shoe and the analysis of each chosen bet."""

    shoe: Shoe
    outcomes: dict[str, int]
    total: int
    bets: tuple[BetAnalysis, ...]

    def probability(self, outcome: str) -> Fraction:
        return Fraction(self.outcomes[outcome], self.total)


class PlainEngine:
    """Distributions from the plain recursive enumerator (the oracle every fast path is checked against)."""

    name = "enumerate"

    def coups(self, shoe: Shoe, rules: DrawRules, tracked: dict[str, int]) -> Distribution:
        return enumerate_coups(shoe, rules, tracked)

    def cards(self, shoe: Shoe, tracked: dict[str, int]) -> Distribution:
        return enumerate_cards(shoe, tracked)


def return_table(bet: Bet, distribution: Distribution) -> BetAnalysis:
    """Settle ``bet`` on every row of ``distribution``: the first pay-table row that holds."""
    unsettled = distribution.counts == distribution.counts
    rows = []
    for row in bet.rows:
        settled = unsettled & row.condition(distribution.columns)
        unsettled &= ~settled
        count = distribution.count_where(settled)
        rows.append(ReturnRow(row.event, row.pays, count, Fraction(count, distribution.total)))
    rest = distribution.count_where(unsettled)
    if rest:
        rows.append(ReturnRow("any other result", LOSE, rest, Fraction(rest, distribution.total)))
    return BetAnalysis(bet, tuple(rows), distribution.total, distribution.cards)


def _merge(slots: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    merged = dict(slots)
    for slot, level in more.items():
        merged[slot] = max(merged.get(slot, 0), level)
    return merged


def analyze(shoe: Shoe, bets: list[Bet], rules: DrawRules = PUNTO_BANCO, engine=None) -> Analysis:
    """The outcome table of ``shoe`` and the return table of each bet.

    Bets that read the settled coup share one enumeration of the coup; a bet that reads only some
    cards (the pair bets) settles on those cards alone, counted as ordered draws of those cards.
    """
    engine = engine or PlainEngine()
    coup_slots: dict[str, int] = {}
    card_groups: dict[frozenset[str], dict[str, int]] = {}
    for bet in bets:
        if bet.needs_coup:
            coup_slots = _merge(coup_slots, bet.card_slots)
        else:
            group = frozenset(bet.card_slots)
            card_groups[group] = _merge(card_groups.get(group, {}), bet.card_slots)
    coups = engine.coups(shoe, rules, coup_slots)
    card_tables = {group: engine.cards(shoe, slots) for group, slots in card_groups.items()}
    results = tuple(return_table(bet, coups if bet.needs_coup else card_tables[frozenset(bet.card_slots)]) for bet in bets)
    return Analysis(shoe, coups.outcome_counts(), coups.total, results)


__all__ = ["OUTCOMES", "Analysis", "BetAnalysis", "PlainEngine", "ReturnRow", "analyze", "return_table"]
