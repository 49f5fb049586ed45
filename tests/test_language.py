"""The bet language: colours, counts, arithmetic, losing half, conditional odds, counting by hands."""

import json
from collections import Counter
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_expectations, coup_features, deal_physically, physical_cards, total

from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine, by_feature
from exact_odds.engine.batch import batch_expectations
from exact_odds.bets.bets import catalog, load_bets
from exact_odds.bets.conditions import parse_condition
from exact_odds.core.features import Columns
from exact_odds.core.cards import RANKS, SUITS, Card, parse_card
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe

NEW_BETS = load_bets("""
[[bet]]
name = "red_player"
pays = [ { when = "player_card1_color == red and player_card2_color == red", pays = "3" } ]

[[bet]]
name = "nines"
pays = [ { when = "count(card_rank == 9) >= 2", pays = "10" }, { when = "count(card_rank == 9) == 1", pays = "lose 1/2" } ]

[[bet]]
name = "hearts_for_banker"
pays = [ { when = "banker_count(card_suit == H) >= 2 and winner == banker", pays = "8" } ]

[[bet]]
name = "player_faces"
pays = [ { when = "player_count(card_rank in [J, Q, K]) >= 1", pays = "1 for 2" } ]

[[bet]]
name = "sum_nine"
pays = [ { when = "(player_card1_value + player_card2_value) % 10 == 9", pays = "4" } ]

[[bet]]
name = "mixed_third"
pays = [ { when = "winner == tie and banker_card3_color == black", pays = "30" }, { when = "count(card_color == red) == 6", pays = "50" } ]
""", "test")

cards = st.builds(Card, st.sampled_from(RANKS[:2] + RANKS[8:]), st.sampled_from(SUITS))
small_shoes = st.lists(cards, min_size=6, max_size=7).map(Counter)


def suited_shoe(counts: Counter) -> Shoe:
    return Shoe.parse(",".join(f"{card.rank}{card.suit}={count}" for card, count in counts.items()))


@settings(max_examples=10)
@given(small_shoes)
def test_every_new_feature_equals_brute_force(counts):
    bets = list(NEW_BETS.values())
    expected = brute_force_expectations(bets, counts)
    for engine in (None, PlainEngine()):
        result = analyze(suited_shoe(counts), bets, engine=engine)
        assert {bet.bet.name: bet.expected_value for bet in result.bets} == expected


SPELLED_OUT = [
    ("(player_card1_value + player_card2_value) % 10 == 9", "player_two_card_total == 9"),
    ("player_count(card_value == 0) == 2 and player_cards == 2", "player_card1_value == 0 and player_card2_value == 0 and player_cards == 2"),
    ("count(card_color == red) == 6", " and ".join(f"{side}_card{slot}_color == red" for side in ("player", "banker") for slot in (1, 2, 3))),
    ("banker_count(card_rank == 9) >= 2", "(banker_card1_rank == 9 and banker_card2_rank == 9) or (banker_card1_rank == 9 and banker_card3_rank == 9)"
                                          " or (banker_card2_rank == 9 and banker_card3_rank == 9)"),
    ("player_card1_value * 2 - 1 == 5", "player_card1_value == 3"),
]


@pytest.mark.parametrize("short,long", SPELLED_OUT, ids=[short for short, _ in SPELLED_OUT])
def test_counts_and_arithmetic_equal_their_spelled_out_forms(short, long):
    bets = list(load_bets(f'[[bet]]\nname = "short"\npays = [{{ when = "{short}", pays = "2" }}]\n'
                          f'[[bet]]\nname = "long"\npays = [{{ when = "{long}", pays = "2" }}]\n', "test").values())
    shoe = Shoe.parse("As=2,5h=3,9d=2,9s=1,Kc=3,Th=2,4h=1")  # a shoe whose every coup the slots' colours can be told in
    results = analyze(shoe, bets).bets
    assert results[0].expected_value == results[1].expected_value
    assert [row.probability for row in results[0].rows] == [row.probability for row in results[1].rows]


def test_super_tie_matches_the_wizard_of_odds_table():
    # Wizard of Odds, "Super Tie", pay table 1 (8 decks): six-card ties of 6-9 in one colour and mixed.
    super_tie = analyze(Shoe.decks(8), [catalog()["super_tie"]]).bets[0]
    assert [row.combinations for row in super_tie.rows[:3]] == [1_326_729_820_672, 42_861_591_369_728, 431_439_105_282_816]
    assert round(super_tie.house_edge * 100, 2) == Fraction("5.97")


def test_losing_half_the_stake():
    bet = load_bets('[[bet]]\nname = "half"\npays = [{ when = "winner == tie", pays = "lose 1/2" }, { when = "true", pays = "1" }]\n', "t")["half"]
    result = analyze(Shoe.decks(8), [bet]).bets[0]
    tie = analyze(Shoe.decks(8), "tie").probability("tie")
    assert result.expected_value == (1 - tie) - tie / 2
    assert result.rows[0].pays.net == Fraction(-1, 2)


def test_conditional_odds_are_ratios_of_counts():
    bets = [catalog()["banker"], catalog()["player_pair"]]
    conditional = analyze(Shoe.decks(2), bets, given="player_two_card_total == 5 and banker_card1_rank == K")
    whole = analyze(Shoe.decks(2), "tie", engine=PlainEngine())
    assert conditional.given is not None and conditional.total == conditional.given.combinations
    assert conditional.given.total == whole.total
    plain = analyze(Shoe.decks(2), bets, engine=PlainEngine(), given="player_two_card_total == 5 and banker_card1_rank == K")
    assert conditional.outcomes == plain.outcomes and [b.expected_value for b in conditional.bets] == [b.expected_value for b in plain.bets]


def test_by_feature_partitions_the_shoe():
    rows = by_feature(Shoe.decks(1), [catalog()["player"]], resolve(PUNTO_BANCO), "player_two_card_total")
    assert [value for value, _ in rows] == list(range(10))
    assert sum(analysis.total for _, analysis in rows) == rows[0][1].given.total
    # Wizard of Odds appendix 3 (8 decks) prints P(player | two-card total 9) = 0.905475.
    nine = by_feature(Shoe.decks(8), [], resolve(PUNTO_BANCO), "player_two_card_total")[9][1]
    assert round(nine.probability("player"), 6) == Fraction("0.905475")


def test_given_and_by_on_the_command_line(run):
    code, out, _ = run("--decks", "8", "--given", "player_two_card_total == 0", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["given"]["condition"] == "player_two_card_total == 0" and data["given"]["probability"] == "159/1079"
    code, out, _ = run("--decks", "8", "--by", "winner", "--format", "json")
    assert code == 0 and [row["value"] for row in json.loads(out)["rows"]] == ["banker", "player", "tie"]
    code, _, err = run("--given", "winner == tie and winner == banker")
    assert code == 2 and "never holds" in err


@pytest.mark.parametrize("condition", ["banker_total >= 6", "natural or margin == 0", "total_cards == 5 and winner != tie"])
def test_deal_given_a_condition_equals_brute_force(run, condition):
    """Mid-coup odds given a condition, against every ordering of the physical cards left in a
    small suited shoe after the cards seen."""
    seen = [Card("9", "S"), Card("5", "D")]
    cards = {Card(rank, "S"): 1 for rank in RANKS} | {Card("5", "D"): 1, Card("2", "H"): 2}
    left = dict(cards)
    for card in seen:
        left[card] -= 1
    tally: Counter = Counter()
    holds = parse_condition(condition)
    remaining = physical_cards({card: count for card, count in left.items() if count})
    for sequence in permutations(remaining, 4):
        dealt = seen + [card for _, card in sequence]
        ((_, player, banker),) = deal_physically(dealt)
        features = coup_features(player, banker)
        if holds(Columns({name: np.array([value]) for name, value in features.items()})).item():
            tally[features["winner"]] += 1
    shoe = ",".join(f"{card.rank}{card.suit.lower()}={count}" for card, count in cards.items())
    code, out, _ = run("deal", "9S", "5D", "--shoe", shoe, "--given", condition)
    assert code == 0
    given_line = next(line for line in out.splitlines() if line.startswith("given "))
    assert given_line.startswith(f"given {condition}: {sum(tally.values()):,} of {len(list(permutations(remaining, 4))):,} completions")
    for index, name in enumerate(("banker", "player", "tie")):
        row = next(line.split() for line in out.splitlines() if line.startswith(name + " "))
        assert int(row[1].replace(",", "")) == tally[index]


def test_counting_by_hands_and_by_sets(run):
    # Wizard of Odds, Perfect Pairs: 246,848,784 winning hand pairs in 8 decks.
    code, out, _ = run("--decks", "8", "--bets", "perfect_pair", "--unordered", "hands", "--format", "json")
    assert code == 0 and json.loads(out)["bets"]["perfect_pair"]["returns"][0]["combinations"] == 246_848_784
    code, out, _ = run("--decks", "8", "--bets", "lucky_nines", "--unordered", "cards", "--format", "json")
    assert code == 0 and json.loads(out)["bets"]["lucky_nines"]["total_combinations"] == 1_229_930_520  # C(416, 4)
    code, _, err = run("--decks", "8", "--bets-file", "/dev/null", "--bets", "player_pair", "--unordered", "cards")
    assert code == 2


@pytest.mark.parametrize("args", [("--unordered", "hands"), ("--bets", "player_pair", "--unordered", "hands", "--by", "winner")])
def test_unordered_without_effect_is_refused(run, args):
    """--unordered on no bet of the first cards, or with --by, would change nothing: refused."""
    code, out, err = run(*args)
    assert code == 2 and out == "" and "--unordered" in err


def test_unordered_reaches_every_pure_choice(run):
    """Regression: under rules with a choice and no --policy, --unordered was silently dropped."""
    code, out, _ = run("--rules", "baccarat_gold", "--bets", "player_pair", "--unordered", "hands", "--format", "json")
    choices = json.loads(out)["choices"]
    assert code == 0 and len(choices) == 2
    assert all(choice["bets"]["player_pair"]["total_combinations"] == 416 * 415 // 2 for choice in choices)


def test_a_bet_that_depends_on_the_order_cannot_be_counted_by_hands(tmp_path, run):
    path = tmp_path / "bets.toml"
    path.write_text('[[bet]]\nname = "first_king"\npays = [{ when = "player_card1_rank == K", pays = "12" }, '
                    '{ when = "player_card2_rank == 2", pays = "1" }]\n')
    code, _, err = run("--bets-file", str(path), "--bets", "first_king", "--unordered", "hands")
    assert code == 2 and "cannot be counted by hands" in err


MALFORMED = [
    "count(card_rank == 9",
    "count(winner == banker) > 0",
    "player_count() > 1",
    "(player_card1_value + ) == 3",
    "player_card1_value % banker_card1_value == 1",
    "player_card1_color == green",
    "winner + 1 == 2",
    "player_card1_rank < K",
    "count(card_rank == 9) == banker",
    "player_total * 1000000000 * 1000000000 * 1000000000 > 0",  # once wrapped in int64: a wrong answer
]


def test_large_arithmetic_within_int64_is_exact(run):
    """Arithmetic up to 2^62 is exact: these conditions are player_total > 0 and player_total % 7 == 3."""
    plain = run("--decks", "1", "--given", "player_total > 0", "--format", "json")
    scaled = run("--decks", "1", "--given", "player_total * 1000000000 * 1000000 > 0", "--format", "json")
    assert plain[0] == scaled[0] == 0
    assert json.loads(plain[1])["outcomes"] == json.loads(scaled[1])["outcomes"]
    # 10^17 = 5 (mod 7): 5 * player_total = 3 (mod 7) exactly when player_total = 2 (mod 7), i.e. 2 or 9
    left = json.loads(run("--decks", "1", "--given", "(player_total * 100000000000000000) % 7 == 3", "--format", "json")[1])
    right = json.loads(run("--decks", "1", "--given", "player_total in [2, 9]", "--format", "json")[1])
    assert left["outcomes"] == right["outcomes"]


@pytest.mark.parametrize("condition", MALFORMED)
def test_malformed_expressions_are_one_line(tmp_path, run, condition):
    path = tmp_path / "bets.toml"
    path.write_text(f'[[bet]]\nname = "bad"\npays = [{{ when = "{condition}", pays = "2" }}]\n')
    code, _, err = run("--bets-file", str(path), "--bets", "bad")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "bet 'bad', row 1" in err, err


def _card(hand, position):
    """The card at a position of a hand, or None where the coup dealt none."""
    return hand[position] if position < len(hand) else None


def _both(first, second, test):
    """A comparison of two cards' attributes: false where either slot holds no card."""
    return first is not None and second is not None and test(first, second)


THIRD_SLOT_CONDITIONS = [  # the condition, and the same rule written here over the dealt hands
    ("player_card3_rank == banker_card3_rank", lambda p, b: _both(_card(p, 2), _card(b, 2), lambda x, y: x.rank == y.rank)),
    ("player_card3_rank != banker_card3_rank", lambda p, b: not _both(_card(p, 2), _card(b, 2), lambda x, y: x.rank == y.rank)),
    ("player_card3_value % 10 == 9", lambda p, b: _card(p, 2) is not None and p[2].value % 10 == 9),
    ("player_card3_value + 1 == 0", lambda p, b: False),
    ("player_card3_rank != K", lambda p, b: _card(p, 2) is None or p[2].rank != "K"),
    ("not player_card3_rank == K", lambda p, b: _card(p, 2) is None or p[2].rank != "K"),
    ("player_card3_value < banker_card1_value", lambda p, b: _card(p, 2) is not None and p[2].value < b[0].value),
    ("player_card3_color == banker_card3_color", lambda p, b: _both(_card(p, 2), _card(b, 2), lambda x, y: (x.suit in "HD") == (y.suit in "HD"))),
    ("banker_card3_value - 1 <= 0", lambda p, b: _card(b, 2) is not None and b[2].value <= 1),
    ("player_card3_value in [0, 9]", lambda p, b: _card(p, 2) is not None and p[2].value in (0, 9)),
]


@pytest.mark.parametrize("shoe_text", ["9h=2,KS=2,5d=2,AC=1", "2s=1,3h=1,4d=1,6c=1,7s=1,Th=1,Qd=1,As=1"])
def test_a_third_card_not_dealt_has_no_value(shoe_text):
    """Regression: a third-card slot the coup did not deal was read as the number -1 in arithmetic
    and between slots, and != was false there. Each rule is written here over the dealt hands."""
    shoe = Shoe.parse(shoe_text)
    cards = physical_cards({parse_card(card): int(count) for card, count in (part.split("=") for part in shoe_text.split(","))})
    bets = list(load_bets("\n".join(f'[[bet]]\nname = "c{index}"\npays = [{{ when = "{condition}", pays = "1" }}]\n'
                                     for index, (condition, _) in enumerate(THIRD_SLOT_CONDITIONS)), "test").values())
    hits, total = Counter(), 0
    for sequence in permutations(cards, 6):
        for chance, player, banker in deal_physically([card for _, card in sequence]):
            total += chance
            for index, (_, rule) in enumerate(THIRD_SLOT_CONDITIONS):
                hits[index] += chance * rule(player, banker)
    expected = [2 * Fraction(hits[index]) / total - 1 for index in range(len(THIRD_SLOT_CONDITIONS))]
    for engine in (None, PlainEngine()):
        assert [bet.expected_value for bet in analyze(shoe, bets, engine=engine).bets] == expected


def test_a_list_may_hold_negative_numbers(run):
    """`player_third_card in [-1]` was refused while `== -1` worked."""
    listed = run("--decks", "1", "--given", "player_third_card in [-1, 9]", "--format", "json")
    spelled = run("--decks", "1", "--given", "player_third_card == -1 or player_third_card == 9", "--format", "json")
    assert listed[0] == spelled[0] == 0 and json.loads(listed[1])["outcomes"] == json.loads(spelled[1])["outcomes"]


SHOE_POSITION_CONDITIONS = [  # the condition, whether it reads suits, and the rule over the cards in shoe order and the hands dealt
    ("shoe_card5_value >= 5 and winner == player", False, lambda cards, p, b: cards[4].value >= 5 and total(p) > total(b)),
    ("shoe_card6_rank == K or shoe_card6_value == banker_card3_value", False,
     lambda cards, p, b: cards[5].rank == "K" or (len(b) == 3 and cards[5].value == b[2].value)),
    ("shoe_card1_rank == shoe_card6_rank", False, lambda cards, p, b: cards[0].rank == cards[5].rank),
    ("shoe_card2_value == shoe_card3_value", False, lambda cards, p, b: cards[1].value == cards[2].value),  # the first cards alone
    ("shoe_card5_value + shoe_card6_value == 9 and total_cards == 4", False,
     lambda cards, p, b: cards[4].value + cards[5].value == 9 and len(p) + len(b) == 4),
    ("shoe_card5_suit == H and player_card3_color == red", True, lambda cards, p, b: cards[4].suit == "H" and len(p) == 3 and p[2].suit in "HD"),
    ("shoe_card6_color != shoe_card4_color", True, lambda cards, p, b: (cards[5].suit in "HD") != (cards[3].suit in "HD")),
]
GIVEN_POSITIONS = ("shoe_card5_value < 6 and shoe_card6_rank != 9", lambda cards: cards[4].value < 6 and cards[5].rank != "9")


@pytest.mark.parametrize("shoe_text", ["9h=2,KS=2,5d=2,AC=1,4h=1", "A=2,5=2,9=1,K=2,6=1"])
def test_shoe_positions_equal_brute_force(shoe_text):
    """shoe_card1 ... shoe_card6 read the k-th card of the sequence, dealt or not: bets, --given and
    --by through the enumerator, the compiled evaluator and the batch path, against every ordering
    of the physical cards, each rule written here over the cards in shoe order."""
    suited = "h=" in shoe_text.lower()
    shoe = Shoe.parse(shoe_text)
    chosen = [(condition, rule) for condition, suits, rule in SHOE_POSITION_CONDITIONS if suited or not suits]
    bets = list(load_bets("\n".join(f'[[bet]]\nname = "c{index}"\npays = [{{ when = "{condition}", pays = "1" }}]\n'
                                     for index, (condition, _) in enumerate(chosen)), "test").values())
    counts = {parse_card(card) if suited else Card(card, None): int(count) for card, count in (part.split("=") for part in shoe_text.split(","))}
    hits: Counter = Counter()  # (index of the rule, whether the given holds, the sixth card's value) -> sequences
    for sequence in permutations(physical_cards(counts), 6):
        cards = [card for _, card in sequence]
        ((_, player, banker),) = deal_physically(cards)
        key = (GIVEN_POSITIONS[1](cards), cards[5].value)
        hits[("all",) + key] += 1
        for index, (_, rule) in enumerate(chosen):
            hits[(index,) + key] += rule(cards, player, banker)

    def expected(where) -> list[Fraction]:
        total_ = sum(count for key, count in hits.items() if key[0] == "all" and where(key))
        return [2 * Fraction(sum(count for key, count in hits.items() if key[0] == index and where(key)), total_) - 1
                for index in range(len(chosen))]

    if suited:  # the compiled tables of the batch path, on the bets that read a slot and a position that may hold one card
        batch = batch_expectations([shoe.card_counts], [bets[1], bets[5]])
        assert [batch.expected_value(0, bet.name) for bet in (bets[1], bets[5])] == [expected(lambda key: True)[index] for index in (1, 5)]
    for engine in (None, PlainEngine()):
        assert [bet.expected_value for bet in analyze(shoe, bets, engine=engine).bets] == expected(lambda key: True)
        given = analyze(shoe, bets, engine=engine, given=GIVEN_POSITIONS[0])
        assert [bet.expected_value for bet in given.bets] == expected(lambda key: key[1])
        rows = by_feature(shoe, bets, resolve(PUNTO_BANCO), "shoe_card6_value", engine)
        assert {value: [bet.expected_value for bet in analysis.bets] for value, analysis in rows} == {
            value: expected(lambda key: key[2] == value) for value in sorted({key[2] for key in hits})}
