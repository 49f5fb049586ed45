"""The compiled evaluator and the batch path against the plain enumerator, exactly."""

from fractions import Fraction
from itertools import product

import numpy as np
from conftest import assert_exact
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.bets.bets import catalog
from exact_odds.engine.distribution import INT64_SAFE
from exact_odds.engine.batch import batch_expectations
from exact_odds.engine.compiled import FastEngine
from exact_odds.engine.store import coup_table
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe

CATALOG = catalog()
RANK_BETS = [bet for bet in CATALOG.values() if not bet.needs_suits]


def same_analysis(shoe, bets):
    fast = analyze(shoe, bets, engine=FastEngine())
    plain = analyze(shoe, bets, engine=PlainEngine())
    assert_exact(fast)
    assert_exact(plain)
    assert fast.outcomes == plain.outcomes and fast.total == plain.total
    for left, right in zip(fast.bets, plain.bets):
        assert left.rows == right.rows, left.bet.name
        assert left.expected_value == right.expected_value
    return fast


compositions = st.one_of(
    st.lists(st.integers(0, 3), min_size=13, max_size=13),  # tiny
    st.lists(st.sampled_from([0, 0, 1, 40]), min_size=13, max_size=13),  # lopsided, ranks missing
    st.integers(1, 50).map(lambda decks: [4 * decks] * 13),  # 1 to 50 decks
    st.tuples(st.integers(1, 50), st.lists(st.integers(0, 30), min_size=13, max_size=13)).map(
        lambda pair: [max(0, 4 * pair[0] - removed) for removed in pair[1]]
    ),
).filter(lambda counts: sum(counts) >= 6)


@settings(max_examples=20)
@given(compositions)
def test_compiled_evaluator_equals_the_enumerator_for_every_bet(counts):
    same_analysis(Shoe(tuple(counts), None, "drawn"), RANK_BETS)


def test_suited_bets_through_both_engines():
    same_analysis(Shoe.decks(1).remove(()), [CATALOG["perfect_pair"], CATALOG["perfect_pair_v2"], CATALOG["banker"]])


def test_a_shoe_that_overflows_int64_is_still_exact():
    shoe = Shoe.decks(100)
    assert shoe.size ** 6 > INT64_SAFE
    result = same_analysis(shoe, [CATALOG["banker"], CATALOG["dragon_7"], CATALOG["player_pair"]])
    assert sum(result.outcomes.values()) == result.total


def test_table_counts_each_natural_coup_once():
    """Coups that stop on a natural use four cards: their orderings in the table are exactly the
    four-value sequences with an 8 or 9 in either hand, counted here by plain loops."""
    table = coup_table(resolve(PUNTO_BANCO))
    naturals = sum(1 for p1, b1, p2, b2 in product(range(10), repeat=4) if (p1 + p2) % 10 >= 8 or (b1 + b2) % 10 >= 8)
    columns = table.columns
    natural_row = (columns["natural"] == 1) & (columns["total_cards"] == 4)
    assert table.entry_weight[natural_row[table.entry_row]].sum() == naturals
    keys = list(zip(*(columns[name].tolist() for name in ("player_two_card_total", "banker_two_card_total", "player_third_card", "banker_third_card"))))
    assert len(set(keys)) == len(keys)


def test_batch_equals_one_at_a_time():
    rng = np.random.default_rng(7)
    shoes = np.full((40, 13), 32) - rng.integers(0, 25, (40, 13))
    shoes[0] = [4] * 13
    shoes[1] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 1]
    batch = batch_expectations(shoes, RANK_BETS)
    for index in (0, 1, 2, 17, 39):
        one = analyze(Shoe(tuple(int(count) for count in shoes[index]), None, "shoe"), RANK_BETS)
        for result in one.bets:
            assert batch.expected_value(index, result.bet.name) == result.expected_value
    assert (batch.positive() == (batch.floats() > 0)).all()


def test_batch_on_shoes_beyond_int64():
    shoes = np.array([[400] * 13, [399] * 13])
    batch = batch_expectations(shoes, [CATALOG["banker"], CATALOG["either_pair"]])
    one = analyze(Shoe((399,) * 13, None, "shoe"), [CATALOG["banker"], CATALOG["either_pair"]])
    assert_exact(one)
    assert [batch.expected_value(1, result.bet.name) for result in one.bets] == [result.expected_value for result in one.bets]



def test_first_card_bets_on_a_huge_shoe_are_exact():
    """Ordered 4-card draws of 4,096 decks pass 2^62: the closed form must leave int64 (it once
    overflowed silently there). Perfect pairs counted by hand: a suited pair in the player's two
    cards, or in the banker's, or in both."""
    shoe = Shoe.decks(4096)
    size, copies = shoe.size, 4096
    draws = size * (size - 1) * (size - 2) * (size - 3)
    assert draws > 2**62
    one_hand = 52 * copies * (copies - 1) * (size - 2) * (size - 3)
    both = 52 * 51 * (copies * (copies - 1)) ** 2 + 52 * copies * (copies - 1) * (copies - 2) * (copies - 3)
    wins = 2 * one_hand - both
    result = analyze(shoe, [CATALOG["perfect_pair"]]).bets[0]
    assert_exact(result)
    assert result.total == draws
    assert result.expected_value == Fraction(25 * wins - (draws - wins), draws)
