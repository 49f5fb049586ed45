"""The pieces under `depth`: compositions and their ranks, expectation polynomials, and the
compiled walker against the reference path (each composition weighed by the batch path)."""

from itertools import product
from math import comb, prod
import random

import numpy as np
import pytest

from exact_odds.core.shoe import Shoe
from exact_odds.engine import walk as walk_module
from exact_odds.engine.compositions import Compositions
from exact_odds.engine.polynomial import evaluate, multi_indices, newton
from exact_odds.engine.walk import RangeSums, reference
from exact_odds.studies.depth import DepthSettings, plan


@pytest.mark.parametrize("counts", [(3, 2, 1), (4, 4, 1, 1), (16, 4, 4, 4), (2,)])
def test_compositions_in_order(counts: tuple[int, ...]) -> None:
    for cards in range(0, sum(counts) + 1):
        shoe = Compositions(counts, tuple(range(len(counts))), cards)
        every = [held for held in product(*(range(count + 1) for count in counts)) if sum(held) == cards]  # lexicographic
        assert shoe.count == len(every)
        assert [shoe.full(shoe.unrank(rank)) for rank in range(shoe.count)] == every
        assert [shoe.full(free) for free in shoe.walk(0, shoe.count)] == every
        assert sum(prod(comb(count, held) for count, held in zip(counts, full)) for full in every) == shoe.total_weight == comb(sum(counts), cards)


def test_polynomials_from_their_values() -> None:
    """Random integer polynomials of degree 4 in 3 variables, given by their monomials: the
    coefficients from the values at the simplex's points give every value back."""
    draw = random.Random(7)
    monomials = [(powers, draw.randint(-50, 50)) for powers in product(range(5), repeat=3) if sum(powers) <= 4]

    def value(point: list[int]) -> int:
        return sum(coefficient * prod(x**power for x, power in zip(point, powers)) for powers, coefficient in monomials)

    points = multi_indices(3, 4)
    coefficients = newton(np.array([[value(point)] for point in points.tolist()]), 3, 4)
    checked = np.array([[draw.randint(0, 40) for _ in range(3)] for _ in range(20)])
    assert evaluate(coefficients, checked) == [[value(point)] for point in checked.tolist()]


def same(one: RangeSums, other: RangeSums) -> None:
    for name in ("compositions", "weight", "best_positive", "positive", "positive_sum", "value_sum", "best_sum", "lowest", "highest",
                 "bucket_weights", "bucket_counts"):
        assert getattr(one, name) == getattr(other, name), name
    assert [sorted(entries) for entries in one.collected] == [sorted(entries) for entries in other.collected]


compiled = pytest.mark.skipif(walk_module._walk is None, reason="the compiled walker is not built")


@compiled
@pytest.mark.parametrize(("shoe", "bets", "cards", "words"), [
    (Shoe.decks(8), ("banker", "player", "tie", "dragon_7", "panda_8"), 14, 2),
    (Shoe.decks(8), ("banker", "tie"), 30, 3),
    (Shoe.decks(1).remove("5 5 K"), ("banker", "player_pair", "tie"), 9, 1),
    (Shoe.parse("A=5,T=7"), ("banker", "tie"), 8, 1),
])
def test_compiled_walker_sums_as_the_reference(shoe: Shoe, bets: tuple[str, ...], cards: int, words: int) -> None:
    """Grids and brackets on every bet, ranges that start and stop mid-line, weights of one to
    three 64-bit words: the same sums."""
    walk_plan = plan(DepthSettings(shoe=shoe, cards_left=(cards,), bets=bets), cards)
    assert walk_plan.words == words
    count = walk_plan.compositions.count
    draw = random.Random(cards)
    sample = [int(value) for value in np.sort(draw.sample(range(-walk_plan.denominator, walk_plan.denominator), 40))]
    grids = tuple(np.array(sorted(set(draw.sample(sample, 6) + [0])), dtype=np.int64) for _ in bets)
    brackets = tuple(np.array([[-walk_plan.denominator, sample[10]], [sample[20], sample[30]]], dtype=np.int64) for _ in bets)
    for summing, bounded in ((True, False), (False, True)):  # a first pass; a later one (buckets within the grid, no sums)
        given = walk_plan.given(grids, brackets, summing, bounded)
        assert given.compiled
        for start in sorted(draw.sample(range(count), 3)):
            stop = min(count, start + draw.randint(1, 1500))
            same(walk_module._compiled(given, start, stop), reference(given, start, stop))
        same(walk_module._compiled(given, max(0, count - 40), count), reference(given, max(0, count - 40), count))


def test_ranges_past_the_compositions_are_refused() -> None:
    walk_plan = plan(DepthSettings(shoe=Shoe.parse("A=5,T=7"), cards_left=(8,), bets=("tie",)), 8)
    with pytest.raises(ValueError, match="ranks 0 .. 99 are not a range of the 5 compositions"):
        walk_module.walk(walk_plan, 0, 99)
