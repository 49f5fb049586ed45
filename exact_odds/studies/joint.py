"""The exact joint distribution of several bets on one coup: how many card sequences settle each
combination of their pay-table lines.

Bets on one coup are not independent (Dragon 7 and Panda 8 never both win; a pair and the banker
share cards), so a position's risk needs the counts of every combination, not each bet's return
table alone. They are read off one distribution of the coup that tracks every card slot any of the
bets reads, the same the engine builds for an analysis given a condition: a pair bet is counted
there through the coup (6-card sequences), with the probabilities of its own 2-card table. Bets that
all settle on the first cards alone are counted on those cards' draws, as their analysis is.

>>> from exact_odds.core.shoe import Shoe
>>> both = joint(Shoe.decks(8), "dragon_7, panda_8")
>>> both.probability_of({"dragon_7": 0, "panda_8": 0})
Fraction(0, 1)
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..bets.bets import Bet, as_bets, settlement
from ..core.features import merge_levels
from ..core.policy import Decisions, Policy, decisions_of
from ..core.rules import PUNTO_BANCO, DrawRules, as_rules
from ..core.shoe import Shoe, as_shoe
from ..engine.analysis import Engine, checked_engine
from ..engine.distribution import Distribution
from ..errors import InputError
from ..records import versioned

MAX_BETS = 8
"""A joint distribution holds at most this many bets (their combinations of lines multiply)."""


@dataclass(frozen=True)
class Combination:
    """One combination of settled lines: the line of each bet (an index into its
    :attr:`~exact_odds.bets.bets.Bet.payouts`) and how many sequences settle it."""

    lines: tuple[int, ...]
    combinations: int


@dataclass(frozen=True)
class Joint:
    """The combinations of the bets' lines that occur, with their counts out of ``total``."""

    shoe: Shoe
    decisions: Decisions
    bets: tuple[Bet, ...]
    combinations: tuple[Combination, ...]
    total: int

    def probability(self, combination: Combination) -> Fraction:
        return Fraction(combination.combinations, self.total)

    def nets(self, combination: Combination) -> tuple[Fraction, ...]:
        """What one unit on each bet wins in this combination (-1: lost)."""
        return tuple(bet.payouts[line].net for bet, line in zip(self.bets, combination.lines))

    def index(self, name: str) -> int:
        """The position of the bet named ``name``."""
        for position, bet in enumerate(self.bets):
            if bet.name == name:
                return position
        raise InputError(f"no bet {name!r} in this position (it has {', '.join(bet.name for bet in self.bets)})")

    def probability_of(self, lines: Mapping[str, int]) -> Fraction:
        """The probability that each bet named settles on the line given (by its index)."""
        positions = {self.index(name): line for name, line in lines.items()}
        count = sum(combination.combinations for combination in self.combinations
                    if all(combination.lines[position] == line for position, line in positions.items()))
        return Fraction(count, self.total)

    def marginal(self, name: str) -> list[int]:
        """The sequences that settle each line of one bet (its return table's counts)."""
        position = self.index(name)
        counts = [0] * len(self.bets[position].payouts)
        for combination in self.combinations:
            counts[combination.lines[position]] += combination.combinations
        return counts

    def to_dict(self) -> dict[str, object]:
        """The joint distribution as JSON: each combination's event for every bet, its count and
        its exact probability (a fraction string; its decimal a number)."""
        return versioned("joint", {
            "shoe": self.shoe.description,
            "rules": self.decisions.rules.name,
            "policy": str(self.decisions.policy) or None,
            "bets": [bet.name for bet in self.bets],
            "total_combinations": self.total,
            "combinations": [{
                "events": {bet.name: bet.events[line] for bet, line in zip(self.bets, combination.lines)},
                "nets": {bet.name: str(net) for bet, net in zip(self.bets, self.nets(combination))},
                "combinations": combination.combinations,
                "probability": str(self.probability(combination)),
                "decimal": float(self.probability(combination)),
            } for combination in self.combinations],
        })


def joint(shoe: "Shoe | int | str | Mapping[str, int]", bets: "str | Bet | Iterable[str | Bet]",
          rules: "DrawRules | Decisions | str" = PUNTO_BANCO, policy: Policy | str | None = None,
          engine: Engine | None = None) -> Joint:
    """The joint distribution of ``bets`` on one coup of ``shoe`` (given as :func:`exact_odds.analyze` takes them)."""
    shoe = as_shoe(shoe)
    rules = rules if isinstance(rules, Decisions) else as_rules(rules)
    chosen = tuple(as_bets(bets, rules.rules if isinstance(rules, Decisions) else rules, shoe.knows_suits))
    if len(chosen) > MAX_BETS:
        raise InputError(f"a joint distribution holds at most {MAX_BETS} bets, not {len(chosen)}")
    decisions = decisions_of(rules, policy)
    engine = checked_engine(engine)
    tracked = merge_levels(*(bet.card_slots for bet in chosen))
    if any(bet.needs_coup for bet in chosen):
        coups = engine.coups(shoe, decisions, tracked, chosen)
    else:  # bets on the first cards alone: their draws (the coup would tell apart more than they read)
        coups = engine.cards(shoe, tracked, chosen)
    return Joint(shoe, decisions, chosen, combinations_of(chosen, coups), coups.total)


def combinations_of(bets: Sequence[Bet], coups: Distribution) -> tuple[Combination, ...]:
    """The combinations of lines the bets settle the rows of ``coups`` on, with the exact count of
    each (the rows' counts summed by combination)."""
    import numpy as np

    lines = np.stack([settlement(bet, coups.columns, coups.settlements) for bet in bets], axis=1)
    distinct, label = np.unique(lines, axis=0, return_inverse=True)
    counts = coups.sums_by(label.ravel(), len(distinct))
    found = tuple(Combination(tuple(int(line) for line in row), count) for row, count in zip(distinct.tolist(), counts) if count)
    assert sum(combination.combinations for combination in found) == coups.total
    return found
