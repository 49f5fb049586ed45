"""Example coups for a pay table: for each row, real cards of the shoe, in shoe order, that the row settles.

The coups are drawn from the enumeration: every sequence of point values the rules deal
(:func:`~exact_odds.core.coup.coup_sequences`), each given cards of its values from the shoe at
random (a fixed seed), all sequences at once, try after try, until each row has a coup or the tries
run out. Each example found is dealt again by hand (:func:`~exact_odds.core.coup.play_coup`) and
settled on that deal, so a coup shown is one the row really pays.
"""

from dataclasses import dataclass

import numpy as np

from ..bets.bets import Bet
from ..core.cards import POINT_VALUES, RANKS, SUITS, Card
from ..core.coup import Coup, coup_sequences, play_coup
from ..core.features import SLOTS, Columns, Granularity, card_columns, coup_columns
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..errors import InputError
from .dealing import coup_features

TRIES = 48
"""Cards are given to every sequence of values at most this many times."""
CHECKED = 50
"""Per try and row, at most this many coups found are dealt again by hand (all but those past a mixed choice pass)."""
SEED = 1


@dataclass(frozen=True)
class Example:
    """A coup that a pay-table row settles: the cards in shoe order and the coup they deal."""

    cards: tuple[Card, ...]
    coup: Coup


def _cards_by_value(shoe: Shoe) -> tuple[Granularity, list[np.ndarray], list[np.ndarray], np.ndarray]:
    """The granularity of the shoe's cards (card, or rank when suits are unknown); per point value,
    the labels of its cards and their cumulative weights; and each label's count."""
    if shoe.card_counts is not None:
        level, counts = Granularity.CARD, np.asarray(shoe.card_counts, dtype=np.int64)
        values = np.asarray(POINT_VALUES)[np.arange(52) // 4]
    else:
        level, counts = Granularity.RANK, np.asarray(shoe.rank_counts, dtype=np.int64)
        values = np.asarray(POINT_VALUES)
    labels, weights = [], []
    for value in range(10):
        held = np.flatnonzero((values == value) & (counts > 0))
        labels.append(held)
        weights.append(np.cumsum(counts[held]).astype(np.float64))
    return level, labels, weights, counts


def example_coups(bet: Bet, shoe: Shoe, decisions: Decisions, tries: int = TRIES) -> list[Example | None]:
    """For each row of ``bet``'s pay table, a coup of cards from ``shoe`` that the row settles (None
    where none was found: a row the shoe cannot reach, too rare for the tries, or reached only past a
    choice the policy mixes)."""
    sequences, weights = coup_sequences(decisions)
    level, labels, cumulative, counts = _cards_by_value(shoe)
    reachable = np.ones(sequences.shape[1], dtype=bool)
    for slot_values in sequences:
        reachable &= np.array([value < 0 or len(labels[value]) > 0 for value in range(-1, 10)])[slot_values + 1]
    sequences = sequences[:, reachable & (np.asarray(weights) != 0)]
    random = np.random.default_rng(SEED)
    found: list[Example | None] = [None] * len(bet.rows)
    for _ in range(tries):
        if all(example is not None for example in found) or not sequences.shape[1]:
            break
        drawn = np.full(sequences.shape, -1, dtype=np.int64)
        for slot, slot_values in enumerate(sequences):
            for value in range(10):
                where = np.flatnonzero(slot_values == value)
                if len(where) and len(labels[value]):
                    picks = random.uniform(0, cumulative[value][-1], len(where))
                    drawn[slot, where] = labels[value][np.searchsorted(cumulative[value], picks, side="right")]
        feasible = np.ones(sequences.shape[1], dtype=bool)
        if not shoe.with_replacement:
            for slot in range(len(SLOTS)):
                alike = (drawn == drawn[slot]).sum(axis=0)
                feasible &= (drawn[slot] < 0) | (alike <= counts[np.maximum(drawn[slot], 0)])
        columns = _columns(sequences, drawn, level, decisions)
        lines = np.asarray(bet.settle(columns))
        for row in range(len(bet.rows)):
            if found[row] is None:
                for hit in np.flatnonzero((lines == row) & feasible)[:CHECKED]:
                    found[row] = _checked(bet, row, drawn[:, hit], level, decisions)
                    if found[row] is not None:
                        break
    return found


def _columns(sequences: np.ndarray, drawn: np.ndarray, level: Granularity, decisions: Decisions) -> Columns:
    """The feature columns of coups given by their values and cards, slot by slot."""
    player_two, banker_two = (sequences[0] + sequences[2]) % 10, (sequences[1] + sequences[3]) % 10
    columns = coup_columns(player_two, banker_two, sequences[4], sequences[5], decisions.rules.naturals)
    for slot, name in enumerate(SLOTS):
        columns.levels[name] = level
        columns.update(card_columns(name, level, drawn[slot]))
    return columns


def _card(label: int, level: Granularity) -> Card:
    if level == Granularity.CARD:
        return Card(RANKS[label // 4], SUITS[label % 4])
    return Card(RANKS[label])


def _checked(bet: Bet, row: int, labels: np.ndarray, level: Granularity, decisions: Decisions) -> Example | None:
    """The coup dealt by hand from the cards found, in shoe order, and settled again on that deal;
    None where a mixed choice of the policy comes before a card (no deal by hand passes one)."""
    by_slot = {slot: _card(int(label), level) for slot, label in enumerate(labels) if label >= 0}
    order = [0, 1, 2, 3] + [slot for slot in (4, 5) if slot in by_slot]  # the player's third card comes before the banker's
    cards = tuple(by_slot[slot] for slot in order)
    try:
        coup = play_coup(cards, decisions)
    except InputError:
        return None
    line = int(bet.settle(coup_features(coup, decisions))[0])
    assert coup.complete and line == row, (bet.name, row, cards)
    return Example(cards, coup)
