"""The closed form of bets on the first cards by pattern (perfect pairs) against every ordered draw
of the classes a shoe holds: small counts (counted by their histogram) and large ones (counted by
their distinct values), with and without replacement."""

from itertools import product
from math import perm

import numpy as np
import pytest

from exact_odds.bets.bets import catalog
from exact_odds.engine.patterns import pattern_form, pattern_of
from exact_odds.engine.tables import tracked_key

PERFECT_PAIR = catalog()["perfect_pair"]
FORM = pattern_form(tracked_key(PERFECT_PAIR.card_slots), (PERFECT_PAIR,))


def every_draw(counts: list[int], with_replacement: bool) -> list[int]:
    """Ordered draws of each pattern, summed over every sequence of classes the shoe holds."""
    held = [card for card, count in enumerate(counts) if count]
    found = [0] * len(FORM.patterns)
    for draw in product(held, repeat=len(FORM.tracked)):
        ways = 1
        for card in set(draw):
            times = draw.count(card)
            ways *= counts[card] ** times if with_replacement else perm(counts[card], times)
        found[FORM.patterns.index(pattern_of(draw))] += ways
    return found


@pytest.mark.parametrize("largest", [3, 60, 10**12])
@pytest.mark.parametrize("with_replacement", [False, True])
def test_patterns_count_every_draw(largest, with_replacement):
    rng = np.random.default_rng(largest)
    shoes = np.zeros((5, 52), dtype=np.int64)
    for row in shoes:
        row[rng.choice(52, 7, replace=False)] = rng.integers(1, largest + 1, 7)
    shoes[0, 5] = largest  # the largest count in play (the histogram takes counts below 52)
    counted = FORM.counts(shoes, with_replacement)
    assert [[int(count) for count in row] for row in counted.tolist()] == [every_draw(row, with_replacement) for row in shoes.tolist()]
    assert FORM.counts(shoes[:0], with_replacement).shape == (0, len(FORM.patterns))
