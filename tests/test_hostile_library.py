"""The library refuses what no engine can do exactly, in one line, and is exact wherever it answers
(issue 18, classes 3 and 5): shoes past 2^63, shoes that are not shoes, arguments of the public
functions, and counts by hands or sets of cards on the infinite deck."""

import re
from fractions import Fraction
from math import prod

import numpy as np
import pytest
from conftest import assert_exact

from exact_odds import analyze
from exact_odds.engine.analysis import UNORDERED_WITH_REPLACEMENT, PlainEngine
from exact_odds.engine.batch import batch_expectations
from exact_odds.bets.bets import catalog, load_bets
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.cards import Card, parse_cards
from exact_odds.engine.enumerator import enumerate_cards
from exact_odds.errors import InputError
from exact_odds.engine.compiled import FastEngine
from exact_odds.core.features import Granularity
from exact_odds.core.shoe import Shoe
from exact_odds.studies.figures import Figure, load_figures
from exact_odds.studies.verify import Calculator

CATALOG = catalog()
RANK_BETS = [CATALOG[name] for name in ("banker", "player", "tie", "player_pair", "either_pair", "dragon_7")]


def falling(n: int, k: int) -> int:
    return prod(n - i for i in range(k))


def same_analysis(shoe: Shoe, bets: list) -> None:
    """The compiled evaluator and the plain recursive enumerator agree on every figure; the coups
    sum to every ordered 6-card sequence."""
    fast, plain = analyze(shoe, bets), analyze(shoe, bets, engine=PlainEngine())
    assert_exact(fast)
    assert_exact(plain)
    assert fast.outcomes == plain.outcomes
    assert fast.total == plain.total == sum(fast.outcomes.values()) == falling(shoe.size, 6)
    for left, right in zip(fast.bets, plain.bets):
        assert left.rows == right.rows, left.bet.name
        assert type(left.expected_value) is Fraction and left.expected_value == right.expected_value


# ---------------------------------------------------------------------------------------------
# Shoes past 2^63: exact in every engine (they gave wrong figures, or OverflowError)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shoe", [
    Shoe.decks(2**62),  # raised OverflowError
    Shoe((2**62,) * 2 + (1,) * 11, None, "two ranks of 2^62"),  # P(banker) 0.2031, 0.2656 right
    Shoe((2**63,) + (5,) * 12, None, "2^63 aces"),  # every figure wrong, the pair bets too
    Shoe((2**62,) * 3 + (0,) * 10, None, "three ranks of 2^62"),  # P(banker) 0.0672, 0.2209 right
], ids=["2^62-decks", "two-ranks", "2^63-aces", "three-ranks"])
def test_a_shoe_past_2_63_is_exact(shoe):
    assert shoe.size >= 2**63
    same_analysis(shoe, RANK_BETS)


def test_a_pair_on_a_huge_shoe_by_formula():
    """The player's two first cards are of one rank in sum c(c-1) of N(N-1) ordered draws."""
    counts = (2**64 + 7,) + (3,) * 11 + (2**63,)
    size = sum(counts)
    pairs = sum(count * (count - 1) for count in counts)
    result = analyze(Shoe(counts, None, "lopsided"), [CATALOG["player_pair"]]).bets[0]
    assert_exact(result)
    assert [(row.combinations, row.total) for row in result.rows] == [(pairs, size * (size - 1)), (size * (size - 1) - pairs, size * (size - 1))]
    assert result.expected_value == Fraction(12 * pairs, size * (size - 1)) - 1  # pays 11 to 1


def test_suited_bets_on_a_huge_shoe():
    cards = [0] * 52
    cards[0], cards[1], cards[34], cards[51], cards[4] = 2**64, 2**63, 3, 5, 4  # AS AH 9D KC 2S
    ranks = tuple(sum(cards[rank * 4 : rank * 4 + 4]) for rank in range(13))
    same_analysis(Shoe(ranks, tuple(cards), "suited, lopsided"), [CATALOG[name] for name in ("perfect_pair", "lucky_nines", "banker")])


def test_numpy_integers_are_taken_as_integers():
    """numpy int64 counts were kept as such, and the plain enumerator's products overflowed in
    silence (a total of 0: ZeroDivisionError)."""
    shoe = Shoe(tuple(np.full(13, 2**59, dtype=np.int64)), None, "numpy counts")
    assert all(type(count) is int for count in shoe.rank_counts)
    assert shoe == Shoe((2**59,) * 13, None, "numpy counts")
    result = analyze(shoe, [CATALOG["banker"]], engine=PlainEngine())
    assert_exact(result)
    assert result.total == falling(13 * 2**59, 6)
    assert result.outcomes == analyze(Shoe.decks(2**57), [CATALOG["banker"]]).outcomes


# ---------------------------------------------------------------------------------------------
# Shoe(...) refuses what no shoe can be; the CLI shares the check
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("arguments,words", [
    (((-1,) + (32,) * 12, None, "x"), "shoe count of A must be a whole number from 0, not -1"),
    (((32.0,) * 13, None, "x"), "shoe count of A must be a whole number from 0, not 32.0"),
    (((32,) * 12 + (True,), None, "x"), "shoe count of K must be a whole number from 0, not True"),
    (((32,) * 12 + ("4",), None, "x"), "shoe count of K must be a whole number from 0, not '4'"),
    (((32,) * 12 + (None,), None, "x"), "shoe count of K must be a whole number from 0, not None"),
    (((32,) * 12, None, "x"), "rank_counts must be 13 counts (A to K), not 12"),
    (((32,) * 14, None, "x"), "rank_counts must be 13 counts (A to K), not 14"),
    ((32, None, "x"), "rank_counts must be 13 counts, not 32"),
    (("A" * 13, None, "x"), "rank_counts must be 13 counts, not"),
    (((4,) * 13, (1,) * 51, "x"), "card_counts must be 52 counts (AS to KC), not 51"),
    (((4,) * 13, (2,) * 52, "x"), "those of A add up to 8, and its rank count is 4"),
    (((4,) * 13, (1,) * 51 + (-1,), "x"), "shoe count of KC must be a whole number from 0, not -1"),
    (((4,) * 13, None, 8), "description must be text"),
    (((4,) * 13, None, "x", 1), "with_replacement must be True or False"),
    (((0,) * 13, None, "empty", True), "empty holds no card to draw"),
    (((2,) + (1,) * 12, (1,) * 52, "x", True), "must be in proportion to its rank count: those of A add up to 4, and its rank count is 2"),
    (((1,) * 13, (0,) * 52, "x", True), "must be in proportion to its rank count: those of A add up to 0, and its rank count is 1"),
])
def test_a_shoe_that_is_not_one_is_refused(arguments, words):
    with pytest.raises(InputError) as refusal:
        Shoe(*arguments)
    assert words in str(refusal.value) and "\n" not in str(refusal.value)


def test_the_infinite_deck_is_a_shoe():
    """With replacement only proportions count: one of each rank, one of each card."""
    assert Shoe.infinite().rank_counts == (1,) * 13 and Shoe.infinite().card_counts == (1,) * 52


def test_a_shoe_too_small_for_a_coup_is_refused_by_every_engine():
    tiny = Shoe((1, 1, 1) + (0,) * 10, None, "three cards")
    for engine in (FastEngine(), PlainEngine()):
        with pytest.raises(InputError, match="three cards holds 3 cards; a coup needs a shoe of at least 6"):
            analyze(tiny, [CATALOG["banker"]], engine=engine)  # was ZeroDivisionError
        with pytest.raises(InputError, match="holds 3 cards; 4 cards to draw are needed"):
            engine.cards(tiny, dict.fromkeys(("player_card1", "banker_card1", "player_card2", "banker_card2"), Granularity.VALUE))
    assert enumerate_cards(tiny, {"player_card1": Granularity.RANK}).total == 3  # one card: three to draw from


def test_what_a_coup_in_progress_leaves_is_still_a_shoe(run):
    """A 6-card shoe less four cards seen: A K left. Player A A = 2 draws, banker K K = 0 draws:
    an ace gives player 3, banker 0; a king player 2, banker 1. The player wins both orders."""
    assert Shoe.parse("A=3,K=3").remove(parse_cards("A K A K")).rank_counts == (1,) + (0,) * 11 + (1,)
    code, out, _ = run("deal", "--shoe", "A=3,K=3", "A", "K", "A", "K")
    assert code == 0
    assert re.findall(r"^(banker|player|tie) +(\d+) +(\d+) ", out, flags=re.MULTILINE) == [("banker", "0", "0"), ("player", "2", "1"), ("tie", "0", "0")]


@pytest.mark.parametrize("cards", [5, None, [5], ["K", 2.0], b"K"])
def test_remove_takes_cards(cards):
    with pytest.raises(InputError, match=r"Shoe.remove takes card text \("):
        Shoe.decks(1).remove(cards)


@pytest.mark.parametrize("cards", ["5h K 9d", ["5h", "K 9d"], [Card("5", "H"), "K", Card("9", "D")], ("5H", "k", "9D")])
def test_remove_takes_card_text_as_people_write_it(cards):
    assert Shoe.decks(1).remove(cards) == Shoe.decks(1).remove(parse_cards("5H K 9D"))


def test_remove_refuses_card_text_it_cannot_read():
    with pytest.raises(InputError, match="unknown card 'Z9'"):
        Shoe.decks(1).remove("5h Z9")


def test_remove_takes_a_list_of_cards():
    assert Shoe.decks(1).remove([Card("K", "S"), Card("5")]) == Shoe.decks(1).remove(parse_cards("KS 5"))


# ---------------------------------------------------------------------------------------------
# analyze(...) and batch_expectations(...) arguments
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("arguments,keywords,words", [
    ((Shoe.decks(8), [CATALOG["player_pair"]]), {"unordered": "x"}, "unordered must be one of hands, cards"),
    ((Shoe.decks(8), [CATALOG["player_pair"]]), {"unordered": "Hands"}, "unordered must be one of hands, cards"),
    ((Shoe.decks(8), [CATALOG["player_pair"]]), {"unordered": 5}, "unordered must be one of hands, cards"),
    ((Shoe.decks(8), [CATALOG["player_pair"]]), {"unordered": "hands", "given": "winner == tie"}, "with given or by every bet is counted through the coup"),
    ((Shoe.decks(8), [CATALOG["banker"]]), {"unordered": "hands"}, "none of these bets is"),
    ((Shoe.decks(8), 5), {}, "bets are a name, names separated by commas, all, a Bet, or a list of names and Bets; not 5"),
    ((Shoe.decks(8), ["banker", None]), {}, "bets are a name, names separated by commas, all, a Bet, or a list of names and Bets; not None"),
    (("8 decks", [CATALOG["banker"]]), {}, "a shoe is a Shoe, a number of decks, inf, a composition"),
])
def test_analyze_refuses_arguments_without_meaning(arguments, keywords, words):
    with pytest.raises(InputError, match=words):
        analyze(*arguments, **keywords)


@pytest.mark.parametrize("counts,words", [
    ([[-1] + [32] * 12], "shoe 0: count of A must be a whole number from 0, not -1"),
    ([[32] * 13, [32] * 12 + [2.5]], "shoe 1: count of K must be a whole number from 0, not 2.5"),
    ([[True] * 13], "count of A must be a whole number from 0, not True"),
    ([[2**63] + [32] * 12], "count of A 9,223,372,036,854,775,808 is beyond the batch path, which weighs counts below 2^40"),
    (np.full((1, 13), 2**40), "beyond the batch path, which weighs counts below 2^40"),
    ([[32] * 12], "13 per-rank or 52 per-card counts, not shape (1, 12)"),
    ([[32] * 13, [32] * 12], "13 per-rank or 52 per-card counts"),
    ([[1] * 5 + [0] * 8], "shoe 0 holds 5 cards; a coup needs a shoe of at least 6"),
])
def test_batch_refuses_counts_it_cannot_weigh(counts, words):
    with pytest.raises(InputError) as refusal:
        batch_expectations(counts, [CATALOG["banker"]])
    assert words in str(refusal.value)


def test_batch_of_no_shoes_is_empty():
    assert batch_expectations(np.zeros((0, 13), dtype=np.int64), [CATALOG["banker"], CATALOG["player_pair"]]).numerators.shape == (0, 2)


def test_batch_takes_python_integers_as_given():
    many = batch_expectations([[2**39] + [1] * 12], [CATALOG["player_pair"]])
    assert many.expected_value(0, "player_pair") == analyze(Shoe((2**39,) + (1,) * 12, None, "x"), [CATALOG["player_pair"]]).bets[0].expected_value


# ---------------------------------------------------------------------------------------------
# The infinite deck: ordered draws only, in every engine and measure
# ---------------------------------------------------------------------------------------------

def test_the_infinite_deck_through_both_engines():
    """Each rank 1/13: a player pair is 13 of 169 ordered draws (-1/13 at 11 to 1); a perfect
    pair (a hand of one rank and suit, 1/52 each) wins 103 of 2704 times at 25 to 1: -1/104."""
    bets = [CATALOG[name] for name in ("banker", "player_pair", "dragon_7", "perfect_pair")]
    fast, plain = analyze(Shoe.infinite(), bets), analyze(Shoe.infinite(), bets, engine=PlainEngine())
    assert_exact(fast)
    assert_exact(plain)
    assert fast.outcomes == plain.outcomes and [result.rows for result in fast.bets] == [result.rows for result in plain.bets]
    pair, perfect = fast.bets[1], fast.bets[3]
    assert [(row.combinations, row.total) for row in pair.rows] == [(13, 169), (156, 169)]
    assert pair.expected_value == Fraction(-1, 13) == sum(row.expected_return for row in pair.rows)
    assert perfect.expected_value == Fraction(-1, 104) == sum(row.expected_return for row in perfect.rows)


@pytest.mark.parametrize("engine", [FastEngine(), PlainEngine()], ids=["fast", "enumerate"])
@pytest.mark.parametrize("unordered", ["hands", "cards"])
def test_no_count_by_hands_or_sets_with_replacement(engine, unordered):
    """Was 6 of 84 for a player pair (1/14) beside an expectation of -1/13."""
    with pytest.raises(InputError) as refusal:
        analyze(Shoe.infinite(), [CATALOG["player_pair"]], engine=engine, unordered=unordered)
    assert str(refusal.value) == UNORDERED_WITH_REPLACEMENT


def test_the_cli_refuses_the_same(run):
    code, out, err = run("--decks", "inf", "--unordered", "hands", "--bets", "player_pair")
    assert (code, out, err) == (2, "", f"baccarat-odds: error: {UNORDERED_WITH_REPLACEMENT}\n")


RECORD = 'id = "x"\nmeasure = "combinations"\nwhen = "player_card1_rank == player_card2_rank"\nvalue = "13"\nsource = "s"\nurl = "u"\n'


@pytest.mark.parametrize("line", ["hand_pairs = true\n", 'unordered = "hands"\n', 'unordered = "cards"\n'])
def test_verify_refuses_the_same(run, tmp_path, line):
    """Was 549 (13 * 169 / 4 rounded down) for hand_pairs."""
    text = "[[figure]]\n" + RECORD + 'decks = "inf"\n' + line
    with pytest.raises(InputError) as refusal:
        load_figures(text, "figures.toml")
    assert str(refusal.value) == f"figures.toml: figure 'x': {UNORDERED_WITH_REPLACEMENT}"
    (tmp_path / "figures.toml").write_text(text)
    code, out, err = run("verify", "--data", str(tmp_path / "figures.toml"))
    assert code == 2 and out == "" and err.endswith(f"figure 'x': {UNORDERED_WITH_REPLACEMENT}\n") and err.count("\n") == 1
    figure = Figure("x", "combinations", "inf", "13", "s", "u", when="player_card1_rank == player_card2_rank",
                    hand_pairs="hand_pairs" in line, unordered=line.split('"')[1] if "unordered" in line else "")
    with pytest.raises(InputError, match="no meaning when cards are drawn with replacement"):
        Calculator().exact(figure)


def test_verify_on_the_infinite_deck_counts_ordered_draws():
    figure = load_figures("[[figure]]\n" + RECORD + 'decks = "inf"\n', "f")[0]
    assert Calculator().event(figure) == (13, 169)


def test_hand_pairs_must_read_each_hand_in_either_order():
    """hand_pairs divided any count by 4: "the player's first card is an ace" gave 124,950 hand
    pairs of one deck, a count with no meaning. Now checked as unordered = "hands" is."""
    text = "[[figure]]\n" + RECORD.replace("player_card1_rank == player_card2_rank", "player_card1_rank == A") + "decks = 1\nhand_pairs = true\n"
    with pytest.raises(InputError, match="settles the two orders of a hand's cards differently"):
        Calculator().exact(load_figures(text, "f")[0])


def test_hand_pairs_counts_unordered_hand_pairs():
    """One deck: player pairs among C(52,2) * C(50,2) pairs of two-card hands, counted by hand:
    13 ranks * C(4,2) player pairs, times any banker hand of the 50 left."""
    text = "[[figure]]\n" + RECORD + "decks = 1\nhand_pairs = true\n"
    assert Calculator().event(load_figures(text, "f")[0]) == (13 * 6 * (50 * 49 // 2), (52 * 51 // 2) * (50 * 49 // 2))


@pytest.mark.parametrize("arguments", [("Z",), ("a",), ("A", "X"), ("10", "S")])
def test_a_card_is_checked_when_made(arguments):
    from exact_odds.core.cards import Card

    with pytest.raises(InputError, match="unknown (rank|suit)"):
        Card(*arguments)


def test_chemin_de_fer_refuses_a_shoe_too_small_for_a_coup():
    from exact_odds.games.chemin import solve

    with pytest.raises(InputError, match="holds 3 cards; a coup needs a shoe of at least 6"):
        solve("A", Shoe((1, 1, 1) + (0,) * 10, None, "tiny"))


def test_a_policy_inside_decisions_and_beside_them_is_refused():
    from exact_odds.core.policy import Policy, decisions_of, resolve
    from exact_odds.core.rules import BACCARAT_GOLD

    with pytest.raises(InputError, match="either inside the decisions or as policy="):
        decisions_of(resolve(BACCARAT_GOLD, Policy.parse("player_on_5=draw")), "player_on_5=stand")


# ---------------------------------------------------------------------------------------------
# Issue 29, class 5: Analysis.to_dict() is the record --format json prints, byte for byte
# ---------------------------------------------------------------------------------------------

OWN_BETS = '[[bet]]\nname = "seven"\npays = [{ when = "winner == banker and banker_total == 7", pays = "5" }]\n'
SAME_RECORD = {
    # "all" on a shoe by rank: the bets on suits it leaves out are the record's notes (were [] in the library)
    "all, by rank": (lambda: analyze("A=2,5=2,9=1,K=3", "all"), ["--shoe", "A=2,5=2,9=1,K=3", "--bets", "all"]),
    "all, by rank, given": (lambda: analyze("A=3,5=2,9=2,K=3", "all", given="winner == banker"),
                            ["--shoe", "A=3,5=2,9=2,K=3", "--bets", "all", "--given", "winner == banker"]),
    "cards removed": (lambda: analyze(Shoe.decks(6).remove("5 5 K"), "banker, dragon_7, player_pair"),
                      ["--decks", "6", "--remove", "5 5 K", "--bets", "banker,dragon_7,player_pair"]),
    "by hands": (lambda: analyze(2, "player_pair, perfect_pair", unordered="hands"),
                 ["--decks", "2", "--bets", "player_pair,perfect_pair", "--unordered", "hands"]),
    "infinite deck": (lambda: analyze("inf", "tie, either_pair"), ["--decks", "inf", "--bets", "tie,either_pair"]),
    "gold, a policy": (lambda: analyze(8, "banker, tie", rules="baccarat_gold", policy="player_on_5=1/3"),
                       ["--rules", "baccarat_gold", "--policy", "player_on_5=1/3", "--bets", "banker,tie"]),
    "commission": (lambda: analyze(1, "banker", rules=PUNTO_BANCO.with_pays(Fraction(4), None)), ["--decks", "1", "--commission", "4", "--bets", "banker"]),
    "a bets file": (lambda: analyze(1, ["banker", "player", "tie", *load_bets(OWN_BETS, "own").values()]), ["--decks", "1", "--bets-file", "{own}"]),
}


@pytest.mark.parametrize("case", SAME_RECORD)
def test_to_dict_is_the_json_the_cli_prints_byte_for_byte(run, tmp_path, case):
    import json
    import warnings

    (tmp_path / "own.toml").write_text(OWN_BETS, encoding="utf-8")
    call, argv = SAME_RECORD[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # what "all" leaves out, said as a warning too
        record = call().to_dict()
    code, out, err = run(*[argument.format(own=tmp_path / "own.toml") for argument in argv], "--format", "json")
    assert (code, err) == (0, "")
    assert json.dumps(record, indent=2) + "\n" == out
    if case.startswith("all"):
        suited = [name for name, bet in CATALOG.items() if bet.needs_suits]
        assert record["notes"] == [f"left out (bets on suits need a shoe with per-card counts, and this one is by rank): {', '.join(suited)}"]


# ---------------------------------------------------------------------------------------------
# Issue 29, class 7: every public entry point refuses a bad input as one InputError, never another
# exception (batch_expectations(...).expected_value(0, "dragon_7") raised ValueError)
# ---------------------------------------------------------------------------------------------

def _entry_points():
    from exact_odds import (BACCARAT_GOLD, PRESETS, DrawRules, Policy, batch_expectations, chemin_de_fer, depth, load_rules, protect, resolve, size, solve_pay)

    rules = dict(name="x", naturals=frozenset({8, 9}), player=PUNTO_BANCO.player, banker_when_player_stood=PUNTO_BANCO.player,
                 banker_tableau=PUNTO_BANCO.banker_tableau)
    result = analyze(1, "banker")
    batch = batch_expectations([[4] * 13], "banker")
    counted = batch_expectations([[4] * 13], "banker", outcomes=True)
    presets = ", ".join(PRESETS)
    # (public name, what is called, the refusal, the parameter the message begins with or None)
    return [
        ("Shoe", lambda: Shoe((4,) * 13, None, 5), "a shoe's description must be text, not 5", None),
        ("Shoe", lambda: Shoe.decks(True), "the number of decks must be a positive integer, not True", None),
        ("Shoe", lambda: Shoe.parse(5), "spec must be text (a str), not 5", "spec"),
        ("Shoe", lambda: Shoe.decks(1).remove({"A": 2}),  # a mapping would have removed one ace, not two
         "Shoe.remove takes card text or cards, each as many times as it is removed, not a mapping of cards to counts", None),
        ("Shoe", lambda: Shoe.decks(1).checked(0), "cards must be a whole number of cards to draw from 1, not 0", "cards"),
        ("Shoe", lambda: Shoe.decks(1).class_counts([0] * 51),
         "labels must be 52 class labels, one per card (rank-major), each a whole number from 0 to 51, not (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,...'",
         "labels"),
        ("DrawRules", lambda: DrawRules(**rules, commission=2.5), "rules 'x': commission: must be an exact number (an int or a Fraction), not 2.5", None),
        ("DrawRules", lambda: DrawRules(**{**rules, "name": None}), "rules None: name: must be a name (text), not None", None),
        ("DrawRules", lambda: DrawRules(**{**rules, "naturals": 8}), "rules 'x': naturals: must be a sequence of totals, not 8", None),
        ("PUNTO_BANCO", lambda: PUNTO_BANCO.mark("dealer", 5), "side must be player or banker, not 'dealer'", "side"),
        ("PUNTO_BANCO", lambda: PUNTO_BANCO.mark("player", 10), "total must be a two-card total 0-9, not 10", "total"),
        ("PUNTO_BANCO", lambda: PUNTO_BANCO.with_pays(None, 8.0),
         "rules 'Punto Banco': tie_pays: must be an exact number (an int or a Fraction), not 8.0", None),
        ("BACCARAT_GOLD", lambda: BACCARAT_GOLD.mark("banker", 3, "8"),
         "player_third must be a third card's value 0-9, or None where the player stood, not '8'", "player_third"),
        ("PRESETS", lambda: PRESETS["punto"], f"no preset 'punto' (the presets: {presets})", "name"),
        ("load_rules", lambda: load_rules(b"name = 'x'", "x.toml"), "text must be text (a str), not b\"name = 'x'\"", "text"),
        ("load_rules", lambda: load_rules("", None), "origin must be text (a str), not None", "origin"),
        ("Policy", lambda: Policy((("player_on_5", 2),)), "policy player_on_5 must be a probability from 0 to 1, not 2", "policy"),
        ("Policy", lambda: Policy((("player_on_5", 0.5),)), "policy player_on_5 must be an exact number (an int or a Fraction), not 0.5", "policy"),
        ("Policy", lambda: Policy(base="best"), "policy base must be one of punto_banco, optimal or None, not 'best'", "policy"),
        ("Policy", lambda: Policy.parse(5), "policy must be text (a str), not 5", "policy"),
        ("resolve", lambda: resolve(5), f"rules are a DrawRules, a preset name ({presets}) or a rules file's path, not 5", "rules"),
        ("resolve", lambda: resolve(BACCARAT_GOLD, 5), 'policy must be a Policy or its text ("player_on_5=draw"), not 5', "policy"),
        ("resolve", lambda: resolve(PUNTO_BANCO).player_weight(-1, 5), "first must be a card's point value 0-9, not -1", "first"),
        ("resolve", lambda: resolve(PUNTO_BANCO).banker_weight(3, 4, 10), "player_third must be a card's point value 0-9, not 10", "player_third"),
        ("Policy", lambda: Policy.parse("player_on_5=draw").summary("short"), "limit must be a whole number of characters from 80, not 'short'",
         "limit"),
        ("catalog", lambda: catalog()["dragon7"], "unknown bet 'dragon7'; did you mean dragon_7?", "name"),
        ("catalog", lambda: catalog().__setitem__("x", 5), "a catalog holds each Bet under its own name, not 5 under 'x'", "name"),
        ("load_bets", lambda: load_bets(None, "mine.toml"), "text must be text (a str), not None", "text"),
        ("analyze", lambda: analyze(1, "banker", engine="quick"),
         "engine must be fast, enumerate or an engine such as PlainEngine() (None: fast), not 'quick'", "engine"),
        ("analyze", lambda: analyze(1, "banker", engine=5), "engine must be fast, enumerate or an engine such as PlainEngine() (None: fast), not 5", "engine"),
        ("analyze", lambda: analyze(1, "banker", given=5), 'given must be a condition (its text, e.g. "winner == tie"), not 5', "given"),
        ("analyze", lambda: analyze(1, "banker", policy=5), 'policy must be a Policy or its text ("player_on_5=draw"), not 5', "policy"),
        ("analyze", lambda: analyze(1, []), "bets is empty (give names separated by commas, or all)", "bets"),
        ("analyze", lambda: result.probability("bank"), "outcome must be one of banker, player, tie, not 'bank'", "outcome"),
        ("analyze", lambda: result["dragon_7"], "no bet 'dragon_7' in this analysis (it has banker)", "name"),
        ("analyze", lambda: result.to_dict("a note"), "notes must be a list of sentences (text), not 'a note'", "notes"),
        ("size", lambda: size(bankroll=100.5), "bankroll must be an exact number (an int or a Fraction), not 100.5", "bankroll"),
        ("size", lambda: size(bankroll=100, kelly=2), "kelly must be a fraction above 0 and at most 1 (1: full Kelly, 1/2: half Kelly), not 2", "kelly"),
        ("solve_pay", lambda: solve_pay(bet="tie", edge=0.5), "edge must be an exact number (an int or a Fraction), not 0.5", "edge"),
        ("solve_pay", lambda: solve_pay(bet=5, edge=5), "bet takes one bet, not 5: solve-pay prices one bet (see `baccarat-odds bets` for the names)", "bet"),
        ("solve_pay", lambda: solve_pay(bet="dragon_7", edge=5, row=1), "row must be text (a str), not 1", "row"),  # AttributeError
        ("solve_pay", lambda: solve_pay(bet="tie", edge=5, bets_toml=5), "bets_toml must be text (a str), not 5", "bets_toml"),  # AttributeError
        ("chemin_de_fer", lambda: chemin_de_fer(model=5), "model must be A, B2 or B3 (text), not 5", "model"),
        ("chemin_de_fer", lambda: chemin_de_fer(model="A", commission=2.5), "commission must be an exact number (an int or a Fraction), not 2.5", "commission"),
        # shoe=0 was taken for no shoe: "give either a number of decks or a composition of the shoe, not both"
        ("chemin_de_fer", lambda: chemin_de_fer(model="A", shoe=0), "the number of decks must be a positive integer, not 0", None),
        ("depth", lambda: depth(cards_left="6..9", shoe=1),
         "cards_left '6..9': expected numbers, ranges or ranges with a step, such as 6-26, 18,26,34 or 18-50/8", "cards_left"),
        ("depth", lambda: depth(cards_left=6, shoe=1, workers=0), "workers must be a whole number from 1, not 0", "workers"),
        ("depth", lambda: depth(cards_left=6, shoe=1, scheduler=5), "scheduler 5: expected a dask scheduler address such as tcp://host:8786",
         "scheduler"),  # TypeError
        ("depth", lambda: depth(cards_left=6, shoe=1, resume=5), "resume must be a folder's path (text or a pathlib.Path), not 5", "resume"),
        ("depth", lambda: depth(cards_left=6, shoe=1, resume=b"kept"), "resume must be a folder's path (text or a pathlib.Path), not b'kept'",
         "resume"),  # TypeError
        ("protect", lambda: protect(known=7), "known must be a shoe position from 1 to 6 (of the coup's six-card sequence), not 7", "known"),
        ("batch_expectations", lambda: batch_expectations([[4] * 13], "banker", outcomes=1), "outcomes must be True or False, not 1", "outcomes"),
        ("batch_expectations", lambda: batch_expectations([[4] * 13], 5),
         "bets are a name, names separated by commas, all, a Bet, or a list of names and Bets; not 5", "bets"),
        ("batch_expectations", lambda: batch_expectations([[4] * 13], "banker", rules=5),
         f"rules are a DrawRules, a preset name ({presets}) or a rules file's path, not 5", "rules"),
        ("batch_expectations", lambda: batch.expected_value(0, "dragon_7"), "bet 'dragon_7' is not a bet of this batch (banker)", "bet"),
        ("batch_expectations", lambda: batch.expected_value(1, "banker"), "shoe must be a whole number from 0 to 0, not 1", "shoe"),
        ("batch_expectations", lambda: batch.expected_value(-1, "banker"), "shoe must be a whole number from 0 to 0, not -1", "shoe"),
        ("batch_expectations", lambda: counted.outcome_probability(0, "bank"), "outcome must be one of banker, player, tie, not 'bank'", "outcome"),
    ]


ENTRY_POINTS = _entry_points()


@pytest.mark.parametrize("name,call,message,parameter", ENTRY_POINTS, ids=[f"{case[0]}-{index}" for index, case in enumerate(ENTRY_POINTS)])
def test_every_entry_point_refuses_a_bad_input_as_one_input_error(name, call, message, parameter):
    with pytest.raises(InputError, match=f"^{re.escape(message)}$") as refused:
        call()
    assert refused.value.parameter == parameter


def test_the_list_holds_every_public_name_that_takes_input():
    """kernel_info takes nothing; InputError is the refusal itself."""
    import exact_odds

    assert {case[0] for case in ENTRY_POINTS} == set(exact_odds.PUBLIC) - {"kernel_info", "InputError"}


def test_a_name_not_there_is_also_a_key_error():
    """Lookups by name stay those of a mapping: ``in`` and ``.get`` answer, a KeyError is caught."""
    from exact_odds import PRESETS

    result = analyze(1, "banker")
    assert "dragon7" not in catalog() and catalog().get("dragon7") is None and PRESETS.get("punto") is None
    for lookup in (lambda: catalog()["dragon7"], lambda: PRESETS["punto"], lambda: result["tie"]):
        with pytest.raises(KeyError, match="^(unknown bet|no preset|no bet)"):
            lookup()


# ---------------------------------------------------------------------------------------------
# The hostile sweep of the library: what a careless programmer gives it
# ---------------------------------------------------------------------------------------------

def test_more_workers_than_the_machine_runs_are_refused_before_any_starts(monkeypatch):
    """workers=10**30 started processes without end (and 1000 on two cores took minutes on a
    study of seconds): at most 8 local processes per core."""
    from exact_odds import depth
    from exact_odds.studies import parallel

    monkeypatch.setattr(parallel, "cores", lambda: 2)
    for workers in (17, 10**30):
        with pytest.raises(InputError, match=f"^workers {workers} is more processes than this machine runs at once: at most 16 \\(8 per core\\)$") as refused:
            depth(cards_left=7, shoe="A=2,5=2,9=2,K=3", bets="banker", workers=workers)
        assert refused.value.parameter == "workers"


def test_an_analysis_answers_in_and_iterates_its_bet_names():
    """``in`` raised the InputError of ``result[0]`` (Python's fallback to the sequence protocol),
    and ``list(result)`` too: an analysis is looked up by bet name, as a mapping is."""
    result = analyze(1, "banker, dragon_7")
    assert "banker" in result and "dragon_7" in result
    assert "tie" not in result and 0 not in result and None not in result and ["banker"] not in result
    assert list(result) == ["banker", "dragon_7"]
    assert {name: result[name].bet.name for name in result} == {"banker": "banker", "dragon_7": "dragon_7"}
