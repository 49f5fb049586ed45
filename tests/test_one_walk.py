"""Issue 19: one walk (next_card and its vectorised form), one winner rule, one 'stood' sentinel,
one projection of a shoe onto classes of cards; each checked against code that reads the rules'
marks and the cards directly."""

import subprocess
import sys
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from oracles import draw_probability

from exact_odds.core.cards import POINT_VALUES, RANKS, SUITS, Card
from exact_odds.core.coup import EMPTY_HAND, NOT_DEALT, OUTCOMES, STOOD, coup_sequences, draw_weight, next_card, player_third, totals, winner_index, winner_of
from exact_odds.core.features import Granularity, Partition, coup_columns, shoe_counts
from exact_odds.core.policy import Policy, choices, resolve
from exact_odds.core.rules import BACCARAT_GOLD, CHEMIN_DE_FER_B3
from exact_odds.core.shoe import Shoe
from exact_odds.errors import InputError

CARD_OF_VALUE = [Card("T")] + [Card(RANKS[value - 1]) for value in range(1, 10)]
WALKED = [
    (BACCARAT_GOLD, "player_on_5=9/11"),
    (CHEMIN_DE_FER_B3, "punto_banco,player_on_1+4=1/3,banker_on_1+5_vs_stood=2/7,banker_on_0+3_vs_8=3/5,banker_on_2+4_vs_6=stand"),
]


def from_the_marks(rules, policy, scale) -> dict[tuple[int, ...], int]:
    """Every coup over point values and its probability times ``scale ** 2``, dealt from the rules'
    marks and the policy's probabilities by the oracle's own reading (no Decisions, no walk)."""
    chosen = choices(rules, Policy.parse(policy))
    found = {}
    for first in product(range(10), repeat=4):
        player, banker = [CARD_OF_VALUE[first[0]], CARD_OF_VALUE[first[2]]], [CARD_OF_VALUE[first[1]], CARD_OF_VALUE[first[3]]]
        if (first[0] + first[2]) % 10 in rules.naturals or (first[1] + first[3]) % 10 in rules.naturals:
            found[first + (NOT_DEALT, NOT_DEALT)] = scale * scale
            continue
        player_draws = draw_probability(rules, chosen, "player", player, None) * scale
        for third in [NOT_DEALT] * (player_draws < scale) + list(range(10)) * (player_draws > 0):
            chance = int(player_draws if third >= 0 else scale - player_draws)
            banker_draws = draw_probability(rules, chosen, "banker", banker, third if third >= 0 else None) * scale
            for banker_third in [NOT_DEALT] * (banker_draws < scale) + list(range(10)) * (banker_draws > 0):
                found[first + (third, banker_third)] = chance * int(banker_draws if banker_third >= 0 else scale - banker_draws)
    return found


def from_next_card(decisions) -> dict[tuple[int, ...], int]:
    """The scalar walk taken on every hand: each settled coup and its weight out of ``scale ** 2``."""
    found = {}

    def visit(hand, weight, decided):
        move = next_card(decisions, hand)
        if move is None:
            found[tuple(NOT_DEALT if value == STOOD else value for value in hand)] = weight * decisions.scale ** (2 - decided)
            return
        slot, draw, stand = move
        if stand:
            visit(hand[:slot] + (STOOD,) + hand[slot + 1 :], weight * stand, decided + 1)
        if draw:
            for value in range(10):
                visit(hand[:slot] + (value,) + hand[slot + 1 :], weight * draw, decided + (slot >= 4))

    visit(EMPTY_HAND, 1, 0)
    return found


@pytest.mark.parametrize("rules,policy", WALKED)
def test_both_forms_of_the_walk_deal_every_coup_the_rules_deal(rules, policy):
    decisions = resolve(rules, Policy.parse(policy))
    values, weights = coup_sequences(decisions)
    vectorised = dict(zip(map(tuple, values.T.tolist()), weights.tolist()))
    expected = from_the_marks(rules, policy, decisions.scale)
    assert len(vectorised) == values.shape[1]
    assert vectorised == expected
    assert from_next_card(decisions) == expected


def test_the_walk_reads_each_decision_where_the_rules_layer_does():
    """The walk's STOOD in a hand is the rules' None (the player stood), at one boundary."""
    decisions = resolve(*WALKED[1][:1], Policy.parse(WALKED[1][1]))
    for first, second in product(range(10), repeat=2):
        hand = (first, NOT_DEALT, second, NOT_DEALT, NOT_DEALT, NOT_DEALT)
        assert draw_weight(decisions.player, decisions.banker, 4, hand) == decisions.player_weight(first, second)
        for third in (STOOD, *range(10)):
            hand = (0, first, 0, second, third, NOT_DEALT)
            assert player_third(hand) == (None if third == STOOD else third)
            assert draw_weight(decisions.player, decisions.banker, 5, hand) == decisions.banker_weight(first, second, player_third(hand))


def test_one_winner_rule_for_one_coup_and_for_many():
    pairs = list(product(range(10), repeat=2))
    by_hand = ["banker" if banker > player else "player" if player > banker else "tie" for player, banker in pairs]
    assert [winner_of(player, banker) for player, banker in pairs] == by_hand
    player, banker = np.array(pairs).T
    assert [OUTCOMES[index] for index in winner_index(player, banker).tolist()] == by_hand
    columns = coup_columns(player, banker, [NOT_DEALT] * 100, [NOT_DEALT] * 100, naturals=())
    assert [OUTCOMES[index] for index in columns["winner"].tolist()] == by_hand
    hands = np.array([(player, 0, 0, 0, NOT_DEALT, NOT_DEALT) for player in range(10)] + [(3, 4, 0, 2, 9, STOOD)]).T
    assert [total.tolist() for total in totals(hands)] == [list(range(10)) + [2], [0] * 10 + [6]]
    assert totals((3, 4, 0, 2, 9, STOOD)) == (2, 6)


def label_by_hand(level: Granularity, rank: int, suit: int) -> int:
    """A card's class at ``level``, from the definition: face (value or rank) * marks + mark
    (none, colour with hearts and diamonds red, or suit)."""
    face = rank if level.face else POINT_VALUES[rank]
    marks, mark = [(1, 0), (2, 0 if SUITS[suit] in "HD" else 1), (4, suit)][level.mark]
    return face * marks + mark


@pytest.mark.parametrize("level", list(Granularity))
def test_a_shoe_gives_its_counts_per_class_in_one_place(level):
    cards = [(card * 7 + 3) % 11 for card in range(52)]
    shoe = Shoe(tuple(sum(cards[rank * 4 : rank * 4 + 4]) for rank in range(13)), tuple(cards), "test shoe")
    counted = [0] * level.classes
    for card, count in enumerate(cards):
        counted[label_by_hand(level, card // 4, card % 4)] += count
    assert shoe_counts(shoe, level) == counted
    rows = np.array([cards, [count + 1 for count in cards]])
    assert Partition.of(level).class_counts(rows).tolist() == [counted, [count + sum(1 for card in range(52) if label_by_hand(level, card // 4, card % 4) == label) for label, count in enumerate(counted)]]
    if level.mark:
        with pytest.raises(InputError, match="test shoe is given by rank only; bets on suits or colours need per-card counts"):
            shoe_counts(Shoe(shoe.rank_counts, None, "test shoe"), level)
        with pytest.raises(InputError, match="the shoes are given by rank only; bets on suits or colours need per-card counts"):
            Partition.of(level).class_counts(np.array([shoe.rank_counts]))
    else:
        assert shoe_counts(Shoe(shoe.rank_counts, None, "test shoe"), level) == counted
        assert Partition.of(level).class_counts(np.array([shoe.rank_counts])).tolist() == [counted]


def test_the_infinite_deck_gives_its_counts_as_proportions():
    """One card of each rank (and of each card): ten-valued ranks are four of the thirteen."""
    assert Shoe.infinite().value_counts == (4,) + (1,) * 9
    assert shoe_counts(Shoe.infinite(), Granularity.CARD) == [1] * 52


def test_the_walk_loads_no_numpy():
    done = subprocess.run([sys.executable, "-c", "import sys, exact_odds.core.coup; print('numpy' in sys.modules)"],
                          capture_output=True, text=True, cwd=Path(__file__).parent.parent)
    assert done.stdout.strip() == "False", done.stderr[-2000:]
