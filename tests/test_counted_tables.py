"""Counted tables (bets that count cards by colour or suit: Super Tie) and first-card tables by the
classes the bets tell apart (Lucky Nines), exactly: against the plain enumerator, brute force over
every ordering of tiny suited shoes, and hand counts on whole decks, at sizes where the counts
leave int64."""

from collections import Counter
from fractions import Fraction
from itertools import product
from math import prod

import numpy as np
from conftest import assert_exact
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_expectations

from exact_odds.bets.bets import Bet, bet_from_record, catalog
from exact_odds.core.cards import RANKS, SUITS, Card
from exact_odds.core.features import COLORS, SUIT_COLOR, Columns, card_columns, Granularity
from exact_odds.core.policy import resolve
from exact_odds.core.rules import BACCARAT_GOLD, PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.engine.compiled import FastEngine
from exact_odds.engine.distribution import INT64_SAFE, falling
from exact_odds.engine.patterns import card_partition
from exact_odds.engine.store import coup_table
from exact_odds.engine.tables import tracked_key

CATALOG = catalog()
DECISIONS = resolve(PUNTO_BANCO)


def own_bet(name: str, *rows: str) -> Bet:
    return bet_from_record({"name": name, "pays": [{"when": when, "pays": str(3 + index)} for index, when in enumerate(rows)]}, "test")


COUNTING = [
    CATALOG["super_tie"],
    CATALOG["super_tie_pt2"],
    own_bet("faces_and_hearts", "count(card_rank in [J, Q, K]) == 2 and winner == banker", "player_count(card_suit == H) >= 2 and banker_cards == 3"),
]
FIRST_CARDS = [CATALOG["lucky_nines"], CATALOG["lucky_nines_binions"]]


def same(shoe: Shoe, bets, given: str | None = None, **rules):
    fast = analyze(shoe, bets, engine=FastEngine(), given=given, **rules)
    plain = analyze(shoe, bets, engine=PlainEngine(), given=given, **rules)
    assert_exact(fast)
    assert fast.outcomes == plain.outcomes and fast.total == plain.total
    for left, right in zip(fast.bets, plain.bets):
        assert left.rows == right.rows, left.bet.name
        assert type(left.expected_value) is Fraction and left.expected_value == right.expected_value
    return fast


def spec(counts: dict[Card, int]) -> str:
    return ",".join(f"{card.rank}{card.suit}={count}" for card, count in counts.items() if count)


few_cards = st.builds(Card, st.sampled_from("9TK"), st.sampled_from("SHD"))


@settings(max_examples=3)
@given(st.lists(few_cards, min_size=8, max_size=12).map(Counter))
def test_counted_and_suited_bets_equal_the_enumerator_on_drawn_suited_shoes(counts):
    same(Shoe.parse(spec(counts)), COUNTING + FIRST_CARDS)


def test_a_mixed_policy_weighs_counted_tables_exactly():
    """Weights out of a policy's scale: each sequence counts scale^2 times, in the tables too."""
    same(Shoe.parse("9s=2,9h=2,Td=2,Kh=2,5s=1,5d=2,Th=1,2c=2"), COUNTING, rules=BACCARAT_GOLD, policy="player_on_5=1/3")


def test_the_table_by_row_equals_the_enumerator():
    """Given a condition, no bets merge the table's rows: each (coup, counts) is a row."""
    shoe = Shoe.parse("9s=2,9h=1,Td=2,Kh=2,Ks=1,9d=2,Th=1")
    same(shoe, COUNTING[:2], given="winner == tie or player_cards == 3")


tiny_cards = st.builds(Card, st.sampled_from("A2589TQK"), st.sampled_from(SUITS))


@settings(max_examples=2)
@given(st.lists(tiny_cards, min_size=6, max_size=6).map(Counter))
def test_counted_and_suited_bets_equal_brute_force(counts):
    bets = COUNTING + FIRST_CARDS
    expected = brute_force_expectations(bets, counts)
    for result in analyze(Shoe.parse(spec(counts)), bets).bets:
        assert result.expected_value == expected[result.bet.name], result.bet.name


def red_cards(shoe: Shoe) -> tuple[list[int], list[int]]:
    """Each point value's red and black cards in the shoe."""
    red, black = [0] * 10, [0] * 10
    for card, count in enumerate(shoe.card_counts):
        value = min(card // 4 + 1, 10) % 10
        (red if SUIT_COLOR[card % 4] == COLORS.index("red") else black)[value] += count
    return red, black


def super_tie_by_hand(shoe: Shoe) -> tuple[int, int, int]:
    """Six-card ties of 6 to 9 (three cards each) of one colour, of mixed colours, and other ties,
    as ordered 6-card sequences: from the plain table of point values (each entry a multiset of
    values and its orderings), each multiset's draws of one colour a product of falling factorials."""
    table = coup_table(DECISIONS)
    red, black = red_cards(shoe)
    every = [r + b for r, b in zip(red, black)]
    size = sum(every)
    columns = table.columns
    six_card = (columns["winner"] == 2) & np.isin(columns["player_total"], [6, 7, 8, 9]) & (columns["player_cards"] == 3) & (columns["banker_cards"] == 3)
    one_colour = mixed = other = 0
    for multiset, row, weight in zip(table.entry_multiset.tolist(), table.entry_row.tolist(), table.entry_weight.tolist()):
        if columns["winner"][row] != 2:
            continue
        held = table.multisets[multiset].tolist()
        cards = sum(held)
        ways = weight * prod(falling(count, k) for count, k in zip(every, held)) * falling(size - cards, 6 - cards)
        if six_card[row]:
            same_colour = weight * (prod(falling(count, k) for count, k in zip(red, held)) + prod(falling(count, k) for count, k in zip(black, held)))
            one_colour += same_colour
            mixed += ways - same_colour
        else:
            other += ways
    return one_colour, mixed, other


def test_super_tie_on_whole_and_depleted_decks_equals_a_count_by_hand():
    for shoe in (Shoe.decks(1), Shoe.decks(2), Shoe.decks(2).remove("Kh Kd 9h 9s 5c 5d 5h 2s Ac"), Shoe.decks(8)):
        result = analyze(shoe, [CATALOG["super_tie"]])
        assert [row.combinations for row in result.bets[0].rows[:3]] == list(super_tie_by_hand(shoe)), str(shoe)


def test_counts_beyond_int64_stay_exact():
    """Shoes whose 6-card sequences number more than int64 holds: the compiled tables weigh them in
    wider integers; the counts still equal the hand count and the plain enumerator."""
    huge = Shoe.decks(2000)
    assert huge.size**6 > 2**63
    result = analyze(huge, [CATALOG["super_tie"], *FIRST_CARDS])
    assert [row.combinations for row in result.bets[0].rows[:3]] == list(super_tie_by_hand(huge))
    for bet, lines in zip(FIRST_CARDS, (lucky_nines_by_hand(huge, bet) for bet in FIRST_CARDS)):
        assert [row.combinations for row in result[bet.name].rows] == lines[: len(result[bet.name].rows)]
    for counts in ({"Kh": 322, "9s": 322, "Td": 322, "9d": 322}, {"Kh": 324, "9s": 324, "Td": 324, "9d": 324}):
        shoe = Shoe.parse(",".join(f"{card}={count}" for card, count in counts.items()))
        assert (shoe.size**6 < INT64_SAFE) == (counts["Kh"] == 322)  # one shoe either side of the bound of int64 counts
        same(shoe, [CATALOG["super_tie"], *FIRST_CARDS])


def lucky_nines_by_hand(shoe: Shoe, bet: Bet) -> list[int]:
    """Ordered draws of the four first cards settled on each line: every sequence of four cards of
    the 52, each counted by the falling factorials of its cards' counts, settled by the bet."""
    counts = shoe.card_counts
    cards = [card for card in range(52) if counts[card]]
    nines = [card for card in cards if card // 4 == RANKS.index("9")]
    others = [card for card in cards if card not in nines]
    lines = [0] * len(bet.payouts)
    slots = ("player_card1", "banker_card1", "player_card2", "banker_card2")
    other = others[0] if others else None
    kinds = nines + ([other] if other is not None else [])
    for draw in product(kinds, repeat=4):  # any card but a nine stands for every such card
        ways, left = 1, dict.fromkeys(kinds, 0)
        for card in draw:
            available = sum(counts[card] for card in others) if card == other else counts[card]
            ways *= available - left[card]
            left[card] += 1
        if not ways:
            continue
        columns = Columns(levels=dict.fromkeys(slots, Granularity.CARD))
        for slot, card in zip(slots, draw):
            columns.update(card_columns(slot, Granularity.CARD, [card]))
        lines[int(bet.settle(columns)[0])] += ways
    return lines


def test_lucky_nines_on_whole_and_depleted_decks_equals_a_count_by_hand():
    for shoe in (Shoe.decks(1), Shoe.decks(2), Shoe.decks(2).remove("9h 9h 9s 9d Kc"), Shoe.decks(8)):
        for bet in FIRST_CARDS:
            rows = analyze(shoe, [bet])[bet.name].rows
            assert [row.combinations for row in rows] == lucky_nines_by_hand(shoe, bet)[: len(rows)], (str(shoe), bet.name)


def test_lucky_nines_reads_eight_classes_of_cards():
    """Nines of each suit and the other cards of each suit: what its conditions compare."""
    key = tracked_key(FIRST_CARDS[0].card_slots)
    partition = card_partition(key, tuple(FIRST_CARDS))
    assert partition.classes == 8
    labels = np.asarray(partition.labels)
    assert len(set(labels[RANKS.index("9") * 4 : RANKS.index("9") * 4 + 4])) == 4
    assert len(set(labels.tolist())) == 8


def test_a_table_of_the_bets_events_is_small():
    """Super Tie and the winner tell a handful of events apart: its table has as many rows."""
    key = tracked_key(CATALOG["super_tie"].card_slots)
    events = coup_table(DECISIONS, key, None, (CATALOG["super_tie"],))
    assert events.rows <= 8 and len(events.entry_row) < 600_000
