"""Bets as data: the pay language, the condition language, the catalog and malformed files."""

from fractions import Fraction

import numpy as np
import pytest

from exact_odds.bets.bets import catalog, load_bets, parse_pays
from exact_odds.cli.commands import main
from exact_odds.bets.conditions import parse_condition
from exact_odds.errors import InputError
from exact_odds.core.features import Columns, Granularity, card_columns

REQUIRED_NAMES = (
    "banker banker_4pct player tie tie_9to1 ez_banker no_commission_banker dragon_7 panda_8 ox_6 player_pair "
    "banker_pair either_pair perfect_pair perfect_pair_v2 dragon_bonus_player dragon_bonus_banker lucky_6 "
    "lucky_6_liberal super_6 big_tiger natural_8 natural_9 big small cards_4 cards_5 cards_6 three_card_win_player "
    "three_card_win_banker three_giving_8 lucky_99"
).split() + [f"egalite_{total}" for total in range(10)]


def test_catalog_holds_every_named_bet():
    assert set(REQUIRED_NAMES) <= set(catalog())


@pytest.mark.parametrize("text,net", [("40", Fraction(40)), ("19/20", Fraction(19, 20)), ("3/2", Fraction(3, 2)),
                                      ("0.54", Fraction(27, 50)), ("5 for 1", Fraction(4)), ("8 to 1", Fraction(8)),
                                      ("1:2", Fraction(1, 2)), ("push", Fraction(0)), ("lose", Fraction(-1))])
def test_pays(text, net):
    payout = parse_pays(text)
    assert payout.net == net and isinstance(payout.net, Fraction)


@pytest.mark.parametrize("text", ["5 to 0", "5:0", "1 for 0", "1 to 0/3"])
def test_a_pay_per_nothing_staked_is_refused(text):
    """Regression: '5 to 0' once escaped as a ZeroDivisionError traceback."""
    with pytest.raises(InputError, match="per 0 staked"):
        parse_pays(text)


def test_condition_evaluates_over_columns():
    columns = Columns({"winner": np.array([0, 1, 2]), "banker_total": np.array([7, 7, 3]), "banker_cards": np.array([3, 3, 2])})
    condition = parse_condition("winner == banker and (banker_cards == 3 and banker_total in [6, 7])")
    assert condition(columns).tolist() == [True, False, False]
    assert parse_condition("not winner == tie")(columns).tolist() == [True, True, False]
    assert parse_condition("7 == banker_total")(columns).tolist() == [True, True, False]


def test_rank_literals_follow_the_card_text_rules():
    columns = Columns(card_columns("player_card1", Granularity.RANK, [8, 9, 12, 0]), {"player_card1": Granularity.RANK})
    assert parse_condition("player_card1_rank in [9, 10, K]")(columns).tolist() == [True, True, True, False]


@pytest.mark.parametrize("text,message", [
    ("winner == bunker", "'bunker' is not a value of winner"),
    ("winnner == banker", "unknown feature 'winnner'"),
    ("banana", "unknown feature 'banana'"),
    ("banker_total ==", "expected more but found the end"),
    ("banker_total == 7 and", "expected more but found the end"),
    ("banker_total == player_card1_rank", "cannot compare banker_total (int) with player_card1_rank (rank)"),
    ("banker_total", "banker_total is not true/false"),
    ("__import__('os')", "unexpected"),
    ("winner < player", "winner has no order"),
    ("count(winner == banker) > 1", "inside count(...) only the card is read"),
    ("banker_total % 0 == 1", "% takes a positive whole number"),
    ("(" * 41 + "true" + ")" * 41, "nesting deeper than 40"),
    ("card_rank == 9", "card_rank is the card inside count"),
])
def test_bad_conditions_name_the_token(text, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_condition(text)


MALFORMED = {
    "unknown feature": ('[[bet]]\nname = "x"\npays = [{ when = "colour == red", pays = "2" }]\n', "bet 'x', row 1: unknown feature 'colour'"),
    "bad pay": ('[[bet]]\nname = "x"\npays = [{ when = "winner == tie", pays = "lots" }]\n', "bet 'x', row 1: bad pay 'lots'"),
    "empty table": ('[[bet]]\nname = "x"\npays = []\n', "bet 'x': pays must be a list of rows"),
    "duplicate name": ('[[bet]]\nname = "x"\npays = [{ when = "winner == tie", pays = "8" }]\n' * 2, "duplicate bet name 'x'"),
    "not toml": ("[[bet]\n", "not valid TOML"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_bets_file_exits_2_with_one_line(tmp_path, capsys, case):
    text, message = MALFORMED[case]
    path = tmp_path / "bets.toml"
    path.write_text(text)
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        load_bets(text, str(path))
    with pytest.raises(SystemExit) as exit_info:
        main(["--decks", "1", "--bets-file", str(path), "--bets", "x"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and len(err.strip().splitlines()) == 1 and message in err


def test_user_bet_from_a_file(tmp_path, capsys):
    path = tmp_path / "mine.toml"
    path.write_text('[[bet]]\nname = "banker_seven"\ndescription = "banker wins on 7"\n'
                    'pays = [{ when = "winner == banker and banker_total == 7", pays = "5" }]\n')
    with pytest.raises(SystemExit) as exit_info:
        main(["--decks", "8", "--bets-file", str(path), "--bets", "banker_seven", "--format", "json"])
    assert exit_info.value.code == 0
    assert '"banker_seven"' in capsys.readouterr().out
