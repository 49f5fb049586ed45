"""Exact distributions: integer counts over the features of a coup (or of a few cards).

A :class:`Distribution` is a table: one row per distinct combination of the features that were
tracked, a column per feature (numpy integer arrays) and an exact integer count per row. The
counts are ordered card sequences; ``total`` is the number of all sequences of ``cards`` cards.
Probabilities are ``count / total`` as :class:`fractions.Fraction`.
"""

from dataclasses import dataclass

import numpy as np

from .cards import POINT_VALUES

INT64_SAFE = 2**62
"""Counts stay in numpy int64 while the total is below this; beyond, they are Python integers."""

OUTCOMES = ("banker", "player", "tie")
"""Encoding of the ``winner`` feature: its value is the index in this tuple."""


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered ways to draw k cards from n.

    >>> falling(416, 6)
    4998398275503360
    """
    result = 1
    for i in range(k):
        result *= n - i
    return result


def draws(n: int, k: int, with_replacement: bool = False) -> int:
    """Ordered ways to draw k cards from n: falling factorial, or n^k when each card is put back.

    >>> draws(13, 6, with_replacement=True)
    4826809
    """
    return n**k if with_replacement else falling(n, k)


def count_array(values, total: int) -> np.ndarray:
    """Exact counts as an int64 array when ``total`` allows it, else as Python integers."""
    if total < INT64_SAFE:
        return np.asarray(values, dtype=np.int64)
    array = np.empty(len(values), dtype=object)
    array[:] = [int(value) for value in values]
    return array


@dataclass(frozen=True, eq=False)
class Distribution:
    """Counts of ordered card sequences by feature values (see the module docstring)."""

    columns: dict[str, np.ndarray]
    counts: np.ndarray
    total: int
    cards: int
    settled_rows: dict | None = None
    """Where the rows are laid out the same for every shoe (the compiled evaluator), a cache of
    which rows each bet's pay-table lines select."""

    def count_where(self, mask: np.ndarray) -> int:
        """Exact number of sequences in the rows selected by a boolean ``mask``."""
        return int(self.counts[mask].sum()) if mask.any() else 0

    def outcome_counts(self) -> dict[str, int]:
        """Combinations won by banker, player, and tied."""
        winner = self.columns["winner"]
        return {name: self.count_where(winner == index) for index, name in enumerate(OUTCOMES)}


def coup_columns(player_two, banker_two, player_third, banker_third) -> dict[str, np.ndarray]:
    """Every value-level coup feature, from each hand's two-card total and third-card value (-1: none)."""
    player_two, banker_two, player_third, banker_third = (
        np.asarray(column, dtype=np.int64) for column in (player_two, banker_two, player_third, banker_third)
    )
    player_cards = 2 + (player_third >= 0)
    banker_cards = 2 + (banker_third >= 0)
    player_total = (player_two + np.maximum(player_third, 0)) % 10
    banker_total = (banker_two + np.maximum(banker_third, 0)) % 10
    winner = np.where(banker_total > player_total, 0, np.where(player_total > banker_total, 1, 2))
    player_natural = (player_cards == 2) & (player_total >= 8)
    banker_natural = (banker_cards == 2) & (banker_total >= 8)
    return {
        "winner": winner,
        "player_total": player_total,
        "banker_total": banker_total,
        "player_two_card_total": player_two,
        "banker_two_card_total": banker_two,
        "player_third_card": player_third,
        "banker_third_card": banker_third,
        "player_cards": player_cards,
        "banker_cards": banker_cards,
        "total_cards": player_cards + banker_cards,
        "player_natural": player_natural.astype(np.int64),
        "banker_natural": banker_natural.astype(np.int64),
        "natural": (player_natural | banker_natural).astype(np.int64),
        "margin": np.abs(player_total - banker_total),
    }


def card_columns(slot: str, level: int, labels) -> dict[str, np.ndarray]:
    """Features of one card slot from its class labels at ``level`` (0 value, 1 rank, 2 card; -1: not dealt)."""
    labels = np.asarray(labels)
    if level == 0:
        return {f"{slot}_value": labels}
    rank = labels // 4 if level == 2 else labels
    columns = {f"{slot}_rank": rank, f"{slot}_value": np.asarray(POINT_VALUES + (-1,), dtype=labels.dtype)[rank]}
    if level == 2:
        columns[f"{slot}_suit"] = labels % 4
    if (labels < 0).any():
        for name, column in columns.items():
            columns[name] = np.where(labels >= 0, column, -1)
    return columns
