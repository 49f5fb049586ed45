"""Every option takes effect where it means something and is an error where it means nothing."""

import json
from collections import Counter
from fractions import Fraction

import pytest
from oracles import brute_force_expectations, completion_totals, values_left

from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.bets.bets import load_bets
from exact_odds.core.cards import Card, parse_cards
from exact_odds.engine.distribution import falling
from exact_odds.core.shoe import Shoe

THIRD_CARD_KING = """
[[bet]]
name = "player_third_king"
description = "The player draws a king"
pays = [ { when = "player_card3_rank == K", pays = "20", event = "player draws a king" } ]
"""


def test_shoe_options_before_deal_take_effect(run):
    """Regression: `--decks 1 deal 9S 5D` once dealt from 8 decks."""
    code, out, _ = run("--decks", "1", "deal", "9S", "5D")
    assert code == 0 and out.splitlines()[0] == "cards seen: 9S 5D; drawing from 1 deck (52 cards) less those cards (50 left)"
    assert run("--decks", "1", "deal", "9S", "5D") == run("deal", "9S", "5D", "--decks", "1")


def test_commission_reaches_deal(run):
    """Regression: `--commission 4 deal ...` once paid the banker 95."""
    code, out, _ = run("--commission", "4", "deal", "4C", "AD", "KS", "2H", "8C", "--stake", "100")
    assert code == 0 and "banker  100      wins 96" in out.splitlines()  # 100 at 1:1 less 4%


def test_tie_pays_reaches_deal(run):
    code, out, _ = run("deal", "7S", "3D", "KH", "4C", "--tie-pays", "9")
    assert code == 0 and "tie     100      wins 900" in out.splitlines()  # 7-7, 100 at 9 to 1


def test_shoe_options_before_eor_take_effect(run):
    """Regression: `--decks 1 eor` once analysed 8 decks."""
    code, out, _ = run("--decks", "1", "eor", "--format", "json")
    assert code == 0 and json.loads(out)["shoe"] == "1 deck (52 cards)"


@pytest.mark.parametrize("args,message", [
    (["--decks", "1", "formula"], "--decks means nothing to `formula`"),
    (["--remove", "5", "export"], "--remove means nothing to `export`"),
    (["--rules", "baccarat_gold", "verify"], "--rules means nothing to `verify`"),
    (["--commission", "4", "rules"], "--commission means nothing to `rules`"),
    (["--commission", "0", "rules"], "--commission means nothing to `rules`"),  # a zero commission was read as none given
    (["--commission", "0", "size", "--bankroll", "9", "--commission", "5"], "--commission is given both before and after `size`"),
    (["--format", "json", "deal", "9S"], "--format before a command belongs to the analysis"),
    (["--decks", "1", "deal", "9S", "--decks", "2"], "--decks is given both before and after `deal`"),
    (["--bets", "banker", "verify"], "--bets means nothing to `verify`"),
])
def test_an_option_where_it_means_nothing_is_an_error(run, args, message):
    code, _, err = run(*args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_deal_checks_the_cards_against_the_shoe(run):
    code, _, err = run("deal", "--decks", "1", "KS", "KS", "KS", "KS", "KS", "KS")
    assert code == 2 and "no more KS" in err


def test_a_bets_file_may_not_redefine_a_catalog_bet(tmp_path, run):
    path = tmp_path / "bets.toml"
    path.write_text('[[bet]]\nname = "banker"\npays = [ { when = "winner == banker", pays = "1" } ]\n')
    code, _, err = run("--bets-file", str(path), "--bets", "banker")
    assert code == 2 and "'banker' is already in the catalog" in err


def test_a_third_card_slot_is_counted_through_the_coup():
    """A third card exists only when the coup draws it: 1 deck, P(player draws a king) is not 1/13."""
    bet = load_bets(THIRD_CARD_KING, "test")["player_third_king"]
    assert bet.needs_coup
    result = analyze(Shoe.decks(1), [bet])
    wins = result.bets[0].rows[0]
    assert result.bets[0].total == falling(52, 6)
    assert round(wins.probability, 4) == Fraction("0.0384")
    assert analyze(Shoe.decks(1), [bet], engine=PlainEngine()).bets[0].rows == result.bets[0].rows


def test_third_card_slot_bets_equal_brute_force():
    bets = load_bets(THIRD_CARD_KING + """
[[bet]]
name = "banker_third_red"
pays = [ { when = "banker_card3_suit == H and banker_card3_value == 4", pays = "30" } ]
""", "test")
    counts = Counter({Card("K", "H"): 2, Card("2", "S"): 1, Card("4", "H"): 2, Card("A", "S"): 1, Card("T", "S"): 1})
    shoe = Shoe.parse("Kh=2,2s=1,4h=2,As=1,Ts=1")
    expected = brute_force_expectations(list(bets.values()), counts)
    assert {result.bet.name: result.expected_value for result in analyze(shoe, list(bets.values())).bets} == expected


BANKER_SEVEN = """
[[bet]]
name = "banker_seven"
description = "Banker wins with a total of 7"
pays = [ { when = "winner == banker and banker_total == 7", pays = "5" } ]
"""


@pytest.fixture
def user_bets(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(BANKER_SEVEN)
    return str(path)


def test_user_bets_reach_eor_formula_export_and_verify(tmp_path, run, user_bets):
    """Each command's figure of the user's bet is the plain enumerator's (one deck; the formula at
    d = 1 and its limit, the infinite deck)."""
    import sympy

    bet = list(load_bets(BANKER_SEVEN, "t").values())
    exact = analyze(Shoe.decks(1), bet, engine=PlainEngine()).bets[0].house_edge
    code, out, _ = run("eor", "--decks", "1", "--bets-file", user_bets, "--bets", "banker_seven", "--format", "json")
    bets = json.loads(out)["bets"]
    assert code == 0 and list(bets) == ["banker_seven"] and Fraction(bets["banker_seven"]["expected_value"]) == -exact
    code, out, _ = run("formula", "--bets-file", user_bets, "--bets", "banker_seven", "--format", "json")
    bets = json.loads(out)["bets"]
    assert code == 0 and list(bets) == ["banker_seven"]
    assert Fraction(str(sympy.sympify(bets["banker_seven"]["house_edge"]).subs("d", 1))) == exact
    assert Fraction(bets["banker_seven"]["limit"]) == analyze(Shoe.infinite(), bet, engine=PlainEngine()).bets[0].house_edge
    code, out, _ = run("export", "--bets-file", user_bets, "--bets", "banker,banker_seven", "--decks", "1", "--out", str(tmp_path / "out"), "--no-formulas", "--no-chemin")
    bets = json.loads((tmp_path / "out" / "decks-1.json").read_text(encoding="utf-8"))["bets"]
    assert code == 0 and list(bets) == ["banker", "banker_seven"] and Fraction(bets["banker_seven"]["house_edge"]) == exact
    figures = tmp_path / "figures.toml"
    figures.write_text(f'[[figure]]\nid = "mine"\nmeasure = "house_edge"\nbet = "banker_seven"\ndecks = 1\n'
                       f'value = "{float(exact * 100):.3f}%"\nsource = "me"\nurl = "here"\n')
    code, out, _ = run("verify", "--data", str(figures), "--bets-file", user_bets)
    assert code == 0 and "1 figures: 1 as expected, 0 mismatch, 0 stale known-wrong marks" in out.splitlines()
    assert [line.split()[-1] for line in out.splitlines() if line.split()[:1] == ["mine"]] == ["ok"]


def test_bets_file_alone_adds_its_bets_to_the_main_ones(run, user_bets):
    """Regression: --bets-file without --bets once showed banker, player and tie only."""
    exact = analyze(Shoe.decks(1), list(load_bets(BANKER_SEVEN, "t").values()), engine=PlainEngine()).bets[0].expected_value
    code, out, _ = run("--decks", "1", "--bets-file", user_bets, "--format", "json")
    assert code == 0
    shown = json.loads(out)["bets"]
    assert list(shown) == ["banker", "player", "tie", "banker_seven"]
    assert Fraction(shown["banker_seven"]["expected_value"]) == exact
    code, out, _ = run("eor", "--decks", "1", "--bets-file", user_bets, "--format", "json")
    assert code == 0 and list(json.loads(out)["bets"]) == ["banker", "player", "tie", "banker_seven"]
    code, out, _ = run("deal", "9S", "5D", "--decks", "1", "--bets-file", user_bets)
    seen = list(parse_cards("9S 5D"))
    totals = completion_totals(seen, 4, values_left(seen))
    wins = Fraction(sum(ways for (player, banker), ways in totals.items() if banker == 7 > player), sum(totals.values()))
    rows = [line.split() for line in out.splitlines()]
    assert code == 0 and [row[:2] for row in rows if row[:1] == ["banker_seven"]] == [["banker_seven", str(6 * wins - 1)]]  # 5 to 1


def test_verify_records_may_name_rules_and_policy(tmp_path, run):
    figures = tmp_path / "figures.toml"
    figures.write_text('[[figure]]\nid = "gold"\nmeasure = "house_edge"\nbet = "tie"\ndecks = 8\nrules = "baccarat_gold"\n'
                       'policy = "player_on_5=draw"\nvalue = "4.908%"\nsource = "Wizard of Odds: Baccarat Gold"\nurl = "u"\n')
    code, out, _ = run("verify", "--data", str(figures))
    assert code == 0 and "1 figures: 1 as expected, 0 mismatch, 0 stale known-wrong marks" in out.splitlines()


def test_version(run):
    from exact_odds import __version__

    from exact_odds.engine import kernel

    code, out, _ = run("--version")
    instruction_set = kernel._kernel.instruction_set() if kernel.compiled() else None
    path = f"compiled kernel ({instruction_set})" if instruction_set else f"numpy path ({kernel.kernel_info().reason})"
    assert code == 0 and out == f"baccarat-odds {__version__}, {path}\n"
    assert instruction_set in (None, "avx512", "avx2", "generic")


def test_the_public_api():
    import exact_odds
    from exact_odds import BACCARAT_GOLD, DrawRules, Shoe, analyze, batch_expectations, catalog

    assert isinstance(BACCARAT_GOLD, DrawRules) and callable(analyze) and callable(batch_expectations)
    assert analyze(Shoe.decks(1), [catalog()["banker"]]).total == falling(52, 6)
    assert set(exact_odds.__all__) >= {"Shoe", "catalog", "analyze", "batch_expectations", "DrawRules", "PUNTO_BANCO", "BACCARAT_GOLD"}


@pytest.mark.parametrize("args", [
    ("--decks", "1", "--remove", "AS", "--remove", "KS"),
    ("--decks", "1", "--decks", "2"),
    ("deal", "9S", "5D", "--stake=5", "--stake", "6"),
    ("eor", "--bets", "banker", "--bets=tie"),
    ("simulate", "--shoes", "1", "--seed", "1", "--seed", "2"),
])
def test_an_option_given_twice_in_one_place_is_refused(run, args):
    """Regression: `--remove AS --remove KS` once analysed the deck less KS only (click keeps the last value)."""
    code, out, err = run(*args)
    assert code == 2 and out == "" and "given already" in err and len(err.strip().splitlines()) == 1


def test_policy_may_be_given_several_times(run):
    once = run("--rules", "baccarat_gold", "--policy", "player_on_5=draw,punto_banco")
    assert once[0] == 0 and run("--rules", "baccarat_gold", "--policy", "player_on_5=draw", "--policy", "punto_banco") == once


@pytest.mark.parametrize("args", [
    ("--decks", "1", "--remove", "AS 2 AS"),
    ("--decks", "1", "--remove", "2 AS AS"),
    ("deal", "AS", "3", "AS", "K", "--decks", "1"),
])
def test_a_suited_card_is_checked_after_one_without_suit(run, args):
    """Regression: after a card without a suit, a second AS of one deck was once removed (and dealt)."""
    code, out, err = run(*args)
    assert code == 2 and out == "" and "no more AS" in err


def test_removing_a_card_without_suit_forgets_the_split_and_keeps_the_counts(run):
    code, out, _ = run("--decks", "1", "--remove", "AS 2 AH A A", "--format", "json")
    shoe = Shoe.decks(1).remove(parse_cards("AS 2 AH A A"))
    assert code == 0 and shoe.card_counts is None and shoe.rank_counts[0] == 0 and json.loads(out)["shoe"]["cards"] == 47


def test_deal_settles_in_exact_amounts(run):
    """Regression: deal once rounded to cents (a 0.01 stake on the banker 'won 0.01', not 0.0095)."""
    # Banker 9 beats player 8: 0.01 at 1:1 less 5% wins 0.0095, 1 less 4.5% wins 0.955; 2 + 2 + 4 ties
    # 3 + K + 5 (8-8): 1/3 at 8 to 1 wins 8/3.
    assert "banker  0.01     wins 0.0095" in run("deal", "8", "9", "K", "K", "--stake", "0.01", "--bets", "banker")[1].splitlines()
    assert "banker  1        wins 0.955" in run("deal", "8", "9", "K", "K", "--commission", "4.5", "--stake", "1", "--bets", "banker")[1].splitlines()
    assert "tie     1/3      wins 8/3" in run("deal", "2", "3", "2", "K", "4", "5", "--stake", "1/3")[1].splitlines()


@pytest.mark.parametrize("args, words", [
    (("--decks", "1", "--bets", "dragon_7", "--commission", "1"), "--commission sets the banker bet's pay"),
    (("--bets", "player", "--tie-pays", "9"), "--tie-pays sets the tie bet's pay"),
    (("eor", "--bets", "dragon_7", "--tie-pays", "9"), "--tie-pays sets the tie bet's pay"),
    (("solve-pay", "--bet", "dragon_7", "--edge", "1", "--commission", "4"), "--commission sets the banker bet's pay"),
    (("bets", "--bets", "tie", "--commission", "4"), "--commission sets the banker bet's pay"),
    (("report", "--out", "never-written", "--shoes", "0", "--seed", "7"), "--seed set the counting simulation"),
    (("report", "--out", "never-written", "--decks", "inf", "--no-burn"), "the infinite deck has no simulation"),
    (("simulate", "--scheduler", "tcp://127.0.0.1:9", "--workers", "2"), "give one"),
    (("report", "--out", "never-written", "--shoes", "1"), "need at least 2 shoes"),
])
def test_an_option_that_would_change_nothing_is_refused(run, args, words):
    """Found by acceptance probes: each of these once ran with exit 0 and the option had no effect."""
    code, out, err = run(*args)
    assert code == 2 and out == "" and words in err and len(err.strip().splitlines()) == 1


def test_a_bets_file_none_of_whose_bets_is_chosen_is_refused(run, user_bets, tmp_path):
    for args in (("--decks", "1", "--bets", "banker"), ("export", "--bets", "banker", "--out", str(tmp_path / "out"))):
        code, out, err = run(*args, "--bets-file", user_bets)
        assert code == 2 and "none of its bets (banker_seven)" in err and not (tmp_path / "out").exists()
    assert run("--decks", "1", "--bets", "banker,banker_seven", "--bets-file", user_bets)[0] == 0
