"""The coups every table is built from: each coup over point values once, by slot and in shoe
order, and the shoe positions the card slots a table tracks read.
"""

from functools import lru_cache

import numpy as np

from ..core.coup import NOT_DEALT, coup_sequences
from ..core.features import Array, card_positions, shoe_order
from ..core.policy import Decisions
from .tables import MAX_CARDS


@lru_cache(maxsize=8)
def value_sequences(decisions: Decisions) -> tuple[Array, Array]:
    """:func:`~exact_odds.core.coup.coup_sequences` with the values in bytes, kept per rule set and policy."""
    values, weights = coup_sequences(decisions)
    return values.astype(np.int8), weights


@lru_cache(maxsize=8)
def shoe_sequences(decisions: Decisions, filled: tuple[int, ...] = ()) -> tuple[Array, Array, Array]:
    """:func:`value_sequences` with each coup's cards in shoe order too
    (:func:`~exact_odds.core.features.shoe_order`), and each shoe position of ``filled`` (4, 5) that
    a coup does not deal given every point value in turn: the 6-card sequence holds a card there
    whatever the coup deals. (The values by slot, the cards by position, the weights.)

    >>> from exact_odds.core.policy import resolve
    >>> from exact_odds.core.rules import PUNTO_BANCO
    >>> values, cards, weights = shoe_sequences(resolve(PUNTO_BANCO), (4, 5))
    >>> len(weights)  # every sequence of six point values, once
    1000000
    """
    values, weights = value_sequences(decisions)
    cards = shoe_order(values)
    for position in filled:
        copies = np.where(cards[position] < 0, 10, 1)
        origin = np.repeat(np.arange(len(weights)), copies)
        within = np.arange(len(origin)) - np.repeat(np.cumsum(copies) - copies, copies)
        values, cards, weights = values[:, origin], cards[:, origin], weights[origin]
        cards[position] = np.where(cards[position] < 0, within, cards[position])
    return values, cards, weights


def read_positions(tracked: list[str], values: Array) -> Array:
    """Which shoe positions (rows) of each coup (given by slot, columns) hold a card that one of the
    ``tracked`` slots or positions reads."""
    read = np.zeros((MAX_CARDS, values.shape[1]), dtype=bool)
    for key in tracked:
        position = card_positions(key, values[4], values[5])
        read[position[position >= 0], np.flatnonzero(position >= 0)] = True
    return read


def label_of(key: str, labels: Array, player_third: Array, banker_third: Array, rows: Array | None = None) -> Array:
    """The label of the card a tracked slot or position reads in each row (-1: none), from the
    labels by shoe position (``rows``: the row of ``labels`` for each position, default itself)."""
    position = card_positions(key, player_third, banker_third)
    index = np.maximum(position, 0) if rows is None else rows[np.maximum(position, 0)]
    label: Array = np.where(position >= 0, labels[index, np.arange(len(position))], NOT_DEALT)
    return label
