"""House edges of the catalog against published figures, and against brute force on small shoes."""

from collections import Counter
from fractions import Fraction

import pytest
from conftest import assert_exact
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_expectations

from exact_odds import analyze
from exact_odds.bets.bets import catalog
from exact_odds.core.cards import RANKS, SUITS, Card
from exact_odds.core.shoe import Shoe

CATALOG = catalog()

# (bet, decks, published house edge in percent, source). Each is compared at its printed precision.
PUBLISHED_EDGES = [
    ("banker", 8, "1.0579", "multiplayerbaccarat.com; Jacobson, 888casino Super Six article"),
    ("player", 8, "1.2351", "uscasinosonline.com, Baccarat Odds"),
    ("tie", 8, "14.3596", "multiplayerbaccarat.com"),
    ("tie_9to1", 8, "4.8440", "multiplayerbaccarat.com"),
    ("ez_banker", 8, "1.0183", "Jacobson, 888casino Super Six article"),
    ("no_commission_banker", 8, "1.4581", "Jacobson, 888casino Super Six article"),
    ("dragon_7", 8, "7.6113", "Wizard of Odds, EZ Baccarat (return -0.076113)"),
    ("panda_8", 8, "10.1876", "Jacobson, advancedadvantageplay.com"),
    ("player_pair", 8, "10.36", "Wizard of Odds, Baccarat side bets"),
    ("banker_pair", 8, "10.36", "Wizard of Odds, Baccarat side bets"),
    ("player_pair", 6, "11.25", "Wizard of Odds, pair bet by decks"),
    ("player_pair", 1, "29.41", "Wizard of Odds, pair bet by decks"),
    ("perfect_pair", 8, "13.0294", "Wizard of Odds, Perfect Pairs (return -0.130294)"),
    ("dragon_bonus_player", 8, "2.65", "Wizard of Odds, Baccarat appendix 5"),
    ("dragon_bonus_banker", 8, "9.37", "Wizard of Odds, Baccarat appendix 5"),
    ("natural_9", 8, "5.0973", "Wizard of Odds, Natural 8 / Natural 9 (return -0.050973)"),
    ("big_tiger", 8, "15.2533", "Jacobson, advancedadvantageplay.com, Big Tiger"),
    ("ox_6", 8, "10.34", "Wizard of Odds, Dai Bacc"),
    ("three_giving_8", 8, "8.682", "Jacobson, advancedadvantageplay.com, Baccarat Side Bets"),
    ("lucky_99", 8, "17.42", "Wizard of Odds, Lucky 99"),
]


@pytest.fixture(scope="module")
def analyses():
    cache = {}

    def get(decks, bet):
        if (decks, bet) not in cache:
            analysis = analyze(Shoe.decks(decks), [CATALOG[bet]])
            assert_exact(analysis)
            cache[(decks, bet)] = analysis.bets[0]
        return cache[(decks, bet)]

    return get


@pytest.mark.parametrize("bet,decks,published,source", PUBLISHED_EDGES, ids=[f"{bet}-{decks}d" for bet, decks, *_ in PUBLISHED_EDGES])
def test_published_house_edge(analyses, bet, decks, published, source):
    places = len(published.split(".")[1])
    exact = analyses(decks, bet).house_edge * 100
    assert isinstance(exact, Fraction)
    assert round(exact, places) == Fraction(published)


def test_pair_edge_is_exactly_43_over_415():
    result = analyze(Shoe.decks(8), [CATALOG["player_pair"]]).bets[0]
    assert_exact(result)
    assert result.expected_value == Fraction(-43, 415)
    assert result.cards == 2 and result.total == 416 * 415


def test_published_side_bet_win_counts():
    # Wizard of Odds, EZ Baccarat: Dragon 7 and Panda 8 winning combinations (8 decks).
    results = analyze(Shoe.decks(8), [CATALOG["dragon_7"], CATALOG["panda_8"]]).bets
    assert results[0].rows[0].combinations == 112_633_011_329_024
    assert results[1].rows[0].combinations == 172_660_763_262_976


def test_dragon_bonus_rows_match_wizard_of_odds():
    # Wizard of Odds, Baccarat appendix 5, player side: win by 9 .. 4, natural win, natural tie.
    published = [18_409_431_764_992, 34_097_645_543_424, 89_590_261_473_280, 141_238_897_317_888,
                 166_169_165_987_840, 186_780_352_174_080]
    rows = {row.event: row.combinations for row in analyze(Shoe.decks(8), [CATALOG["dragon_bonus_player"]]).bets[0].rows}
    assert [rows[f"player wins by {margin} without a natural"] for margin in range(9, 3, -1)] == published
    assert rows["player wins with a natural"] == 812_685_054_124_032
    assert rows["natural tie"] == 89_325_908_267_520


def test_main_bets_expectations_are_fractions_of_the_counts():
    result = analyze(Shoe.decks(8), [CATALOG["banker"], CATALOG["player"], CATALOG["tie"]])
    assert_exact(result)
    banker, player, tie = (result.outcomes[name] for name in ("banker", "player", "tie"))
    total = result.total
    assert result.bets[0].expected_value == Fraction(banker * 19 - player * 20, 20 * total)
    assert result.bets[1].expected_value == Fraction(player - banker, total)
    assert result.bets[2].expected_value == Fraction(8 * tie - banker - player, total)
    assert result.bets[0].house_edge_excluding_pushes == Fraction(player * 20 - banker * 19, 20 * (banker + player))


cards = st.builds(Card, st.sampled_from(RANKS[:3] + RANKS[5:10] + RANKS[12:]), st.sampled_from(SUITS[:2]))


@settings(max_examples=6)
@given(st.lists(cards, min_size=6, max_size=7).map(Counter))
def test_every_catalog_bet_equals_brute_force(counts):
    shoe = Shoe.parse(",".join(f"{card.rank}{card.suit}={count}" for card, count in counts.items()))
    bets = list(CATALOG.values())
    expected = brute_force_expectations(bets, counts)
    analysis = analyze(shoe, bets)
    assert_exact(analysis)
    for result in analysis.bets:
        assert result.expected_value == expected[result.bet.name], result.bet.name


def test_a_bet_that_always_wins_on_a_lopsided_shoe():
    """Ten-valued cards and one king: a pair shows in one hand or the other every time."""
    counts = Counter({Card("T", "S"): 6, Card("K", "H"): 1})
    shoe = Shoe.parse("Ts=6,Kh=1")
    bets = [CATALOG[name] for name in ("either_pair", "player_pair", "egalite_0", "perfect_pair")]
    expected = brute_force_expectations(bets, counts)
    assert expected["either_pair"] == 5
    for result in analyze(shoe, bets).bets:
        assert result.expected_value == expected[result.bet.name], result.bet.name
