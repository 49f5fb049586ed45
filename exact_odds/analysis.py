"""Expectations, house edges and return tables of bets, exactly.

>>> from exact_odds.shoe import Shoe
>>> from exact_odds.bets import catalog
>>> result = analyze(Shoe.decks(8), [catalog()["player_pair"]])
>>> result.bets[0].expected_value
Fraction(-43, 415)
"""

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from .bets import LOSE, Bet, Payout
from .distribution import Distribution
from .enumerator import enumerate_cards, enumerate_coups, merge_levels
from .rules import PUNTO_BANCO, DrawRules
from .shoe import Shoe


@dataclass(frozen=True)
class ReturnRow:
    """One line of a return table: the event, what it pays, and how many of ``total`` sequences."""

    event: str
    pays: Payout
    combinations: int
    total: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.total)

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
    expected_value: Fraction
    """Expected net win per unit staked."""

    def _second_moment(self) -> Fraction:
        scale = lcm(*(row.pays.net.denominator for row in self.rows))
        return Fraction(sum(int((row.pays.net * scale) ** 2) * row.combinations for row in self.rows), scale**2 * self.total)

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per unit staked (per bet made)."""
        return -self.expected_value

    @property
    def push_probability(self) -> Fraction:
        return Fraction(sum(row.combinations for row in self.rows if row.pays.net == 0), self.total)

    @property
    def house_edge_excluding_pushes(self) -> Fraction | None:
        """House edge per bet resolved (ties excluded for banker and player); None if it never resolves."""
        resolved = 1 - self.push_probability
        return self.house_edge / resolved if resolved else None

    @property
    def variance(self) -> Fraction:
        return self._second_moment() - self.expected_value**2


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

    def coups(self, shoe: Shoe, rules: DrawRules, tracked: dict[str, int]) -> Distribution:
        return enumerate_coups(shoe, rules, tracked)

    def cards(self, shoe: Shoe, tracked: dict[str, int]) -> Distribution:
        return enumerate_cards(shoe, tracked)


def settled_rows(bet: Bet, distribution: Distribution) -> list[np.ndarray]:
    """For each pay-table line of ``bet`` (then the rest, which loses), the rows it settles:
    the first line whose condition holds."""
    cache = distribution.settled_rows
    if cache is not None and id(bet) in cache:
        return cache[id(bet)][1]
    unsettled = np.ones(len(distribution.counts), dtype=bool)
    selected = []
    for row in bet.rows:
        settled = unsettled & row.condition(distribution.columns)
        unsettled &= ~settled
        selected.append(np.flatnonzero(settled))
    selected.append(np.flatnonzero(unsettled))
    if cache is not None:
        cache[id(bet)] = (bet, selected)  # the bet is kept alive, so its id stays its own
    return selected


def default_engine():
    """The compiled evaluator (``--engine fast``)."""
    from .fast import FastEngine

    return FastEngine()


ENGINES = {"fast": default_engine, "enumerate": PlainEngine}


def line_counts(bets: list[Bet], distribution: Distribution) -> list[list[int]]:
    """For each bet, the sequences each pay-table line settles (then the rest), in one pass."""
    if not bets:
        return []
    selections = [settled_rows(bet, distribution) for bet in bets]
    flat = np.concatenate([rows for selection in selections for rows in selection])
    lengths = np.array([len(rows) for selection in selections for rows in selection])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    filled = lengths > 0
    totals = iter(np.add.reduceat(distribution.counts[flat], starts[filled]).tolist() if filled.any() else [])
    sums = [int(next(totals)) if length else 0 for length in lengths]
    result, position = [], 0
    for selection in selections:
        result.append(sums[position : position + len(selection)])
        position += len(selection)
    return result


def return_table(bet: Bet, distribution: Distribution, combinations: list[int] | None = None) -> BetAnalysis:
    """Settle ``bet`` on every row of ``distribution`` (``combinations``: its line counts, if known)."""
    if combinations is None:
        combinations = line_counts([bet], distribution)[0]
    scale, nets = bet.scaled_pays
    expected_value = Fraction(sum(net * count for net, count in zip(nets, combinations)), scale * distribution.total)
    rows = [ReturnRow(row.event, row.pays, count, distribution.total) for row, count in zip(bet.rows, combinations)]
    if combinations[-1]:
        rows.append(ReturnRow("any other result", LOSE, combinations[-1], distribution.total))
    return BetAnalysis(bet, tuple(rows), distribution.total, distribution.cards, expected_value)


def analyze(shoe: Shoe, bets: list[Bet], rules: DrawRules = PUNTO_BANCO, engine=None) -> Analysis:
    """The outcome table of ``shoe`` and the return table of each bet.

    Bets that read the settled coup share one enumeration of the coup; a bet that reads only some
    cards (the pair bets) settles on those cards alone, counted as ordered draws of those cards.
    """
    engine = engine or default_engine()
    coup_bets = [bet for bet in bets if bet.needs_coup]
    card_groups: dict[frozenset[str], dict[str, int]] = {}
    for bet in bets:
        if not bet.needs_coup:
            group = frozenset(bet.card_slots)
            card_groups[group] = merge_levels(card_groups.get(group, {}), bet.card_slots)
    coups = engine.coups(shoe, rules, merge_levels(*(bet.card_slots for bet in coup_bets)))
    coup_results = dict(zip(map(id, coup_bets), (return_table(bet, coups, counts) for bet, counts in zip(coup_bets, line_counts(coup_bets, coups)))))
    card_tables = {group: engine.cards(shoe, slots) for group, slots in card_groups.items()}
    results = tuple(coup_results[id(bet)] if bet.needs_coup else return_table(bet, card_tables[frozenset(bet.card_slots)]) for bet in bets)
    return Analysis(shoe, coups.outcome_counts(), coups.total, results)

