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
from typing import Protocol

import numpy as np

from .bets import LOSE, Bet, Payout, settlement
from .distribution import Distribution
from .enumerator import enumerate_cards, enumerate_coups
from .features import Array, Granularity, Levels, merge_levels
from .tables import tracked_key
from .policy import Decisions, Policy, decisions_of
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
    scale: int = 1
    """Each sequence counts ``scale`` times in ``total`` and the combinations (a mixed policy)."""

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
    decisions: Decisions
    outcomes: dict[str, int]
    total: int
    bets: tuple[BetAnalysis, ...]

    @property
    def scale(self) -> int:
        """Each sequence counts ``scale`` times (a mixed policy's weights, see :mod:`exact_odds.policy`)."""
        return self.decisions.scale**2

    def probability(self, outcome: str) -> Fraction:
        return Fraction(self.outcomes[outcome], self.total)


class Engine(Protocol):
    """Where distributions come from: the plain enumerator, or the compiled evaluator."""

    def coups(self, shoe: Shoe, decisions: Decisions, tracked: Levels) -> Distribution: ...

    def cards(self, shoe: Shoe, tracked: Levels, bets: tuple[Bet, ...] = ()) -> Distribution: ...


class PlainEngine:
    """Distributions from the plain recursive enumerator (the oracle every fast path is checked against)."""

    def coups(self, shoe: Shoe, decisions: Decisions, tracked: Levels) -> Distribution:
        return enumerate_coups(shoe, decisions, tracked)

    def cards(self, shoe: Shoe, tracked: Levels, bets: tuple[Bet, ...] = ()) -> Distribution:
        return enumerate_cards(shoe, tracked)


def default_engine() -> Engine:
    """The compiled evaluator (``--engine fast``)."""
    from .fast import FastEngine

    return FastEngine()


ENGINES = {"fast": default_engine, "enumerate": PlainEngine}


def line_counts(bet: Bet, distribution: Distribution) -> list[int]:
    """The sequences each pay-table line of ``bet`` settles (then the rest, which loses)."""
    counts = np.zeros(len(bet.rows) + 1, dtype=distribution.counts.dtype)
    np.add.at(counts, settlement(bet, distribution.columns, distribution.settlements), distribution.counts)
    return [int(count) for count in counts]


def return_table(bet: Bet, distribution: Distribution) -> "BetAnalysis":
    """Settle ``bet`` on every row of ``distribution``."""
    combinations = line_counts(bet, distribution)
    scale, nets = bet.scaled_pays
    expected_value = Fraction(sum(net * count for net, count in zip(nets, combinations)), scale * distribution.total)
    rows = [ReturnRow(row.event, row.pays, count, distribution.total) for row, count in zip(bet.rows, combinations)]
    if combinations[-1]:
        rows.append(ReturnRow("any other result", LOSE, combinations[-1], distribution.total))
    return BetAnalysis(bet, tuple(rows), distribution.total, distribution.cards, expected_value, distribution.scale)


def analyze(shoe: Shoe, bets: list[Bet], rules: DrawRules | Decisions = PUNTO_BANCO, policy: Policy | str | None = None,
            engine: Engine | None = None) -> Analysis:
    """The outcome table of ``shoe`` and the return table of each bet, under ``rules`` with their
    choices fixed by ``policy``.

    Bets that read the coup share one enumeration of it; a bet that reads only the first cards (the
    pair bets) settles on those cards alone, counted as ordered draws of those cards.
    """
    decisions = decisions_of(rules, policy)
    engine = engine or default_engine()
    coup_bets = [bet for bet in bets if bet.needs_coup]
    card_members: dict[tuple[tuple[str, Granularity], ...], list[Bet]] = {}
    for bet in bets:
        if not bet.needs_coup:
            card_members.setdefault(tracked_key(bet.card_slots), []).append(bet)
    coups = engine.coups(shoe, decisions, merge_levels(*(bet.card_slots for bet in coup_bets)))
    card_tables = {key: engine.cards(shoe, dict(key), tuple(members)) for key, members in card_members.items()}
    results = tuple(return_table(bet, coups if bet.needs_coup else card_tables[tracked_key(bet.card_slots)]) for bet in bets)
    return Analysis(shoe, decisions, coups.outcome_counts(), coups.total, results)
