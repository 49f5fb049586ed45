"""solve-pay: the exact pay of one row for a stated house edge, checked by analysing the bet again
with that pay (a different path: a new pay table through the enumeration)."""

import json
from fractions import Fraction

import pytest

from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.bets.bets import Bet, Payout, catalog
from exact_odds.commands.setup import Setup
from exact_odds.errors import InputError
from exact_odds.studies.paysolve import choose_row, solve
from exact_odds.core.policy import Policy, resolve
from exact_odds.core.rules import BACCARAT_GOLD, PUNTO_BANCO
from exact_odds.core.shoe import Shoe

PUNTO = resolve(PUNTO_BANCO)


def own_bets(path) -> dict[str, Bet]:
    """The bets of a TOML file, read as --bets-file reads it."""
    own = Setup.reading(bets_file=str(path)).own_bets
    assert own is not None
    return own


def with_pay(bet: Bet, row: int, pay: Fraction) -> Bet:
    """The bet with one row's pay replaced."""
    rows = list(bet.rows)
    rows[row] = type(rows[row])(rows[row].condition, Payout(pay, str(pay)), rows[row].event)
    return Bet(bet.name + "_repriced", bet.description, tuple(rows))


def edge_of(bet: Bet, shoe: Shoe, decisions=PUNTO) -> Fraction:
    edge = analyze(shoe, [bet], decisions).bets[0].house_edge
    assert type(edge) is Fraction
    return edge


@pytest.mark.parametrize("name,shoe,edge", [
    ("player_pair", Shoe.decks(8), Fraction(5, 100)),
    ("dragon_7", Shoe.decks(8), Fraction(2, 100)),
    ("lucky_6_liberal", Shoe.decks(6), Fraction(-1, 100)),  # a player's edge: the pay rises past break-even
    ("dragon_bonus_player", Shoe.decks(1), Fraction(3, 100)),  # the largest pay of six winning rows
    ("perfect_pair", Shoe.decks(8), Fraction(4, 100)),  # a bet on suits
    ("tie", Shoe.infinite(), Fraction(1, 100)),
])
def test_the_solved_pay_gives_the_edge_exactly(name, shoe, edge):
    bet = catalog()[name]
    solution = solve(shoe, bet, PUNTO, edge=edge)
    assert type(solution.pay) is Fraction
    assert edge_of(with_pay(bet, solution.row, solution.pay), shoe) == edge
    for pay in solution.nearest(Fraction(1)) + solution.nearest(Fraction(1, 2)):
        assert solution.edge_at(pay) == edge_of(with_pay(bet, solution.row, pay), shoe)


def test_player_pair_in_eight_decks():
    """P(pair) = 31/415, EV = -43/415 at 11 to 1; a 5% edge needs (384 - 415/20) / 31 = 1453/124 to 1."""
    solution = solve(Shoe.decks(8), catalog()["player_pair"], PUNTO, edge=Fraction(1, 20), max_edge=Fraction(3, 100))
    assert solution.pay == Fraction(1453, 124)
    assert solution.probability == Fraction(31, 415)
    assert solution.nearest(Fraction(1)) == [11, 12]
    assert solution.nearest(Fraction(1, 2)) == [Fraction(23, 2), 12]
    assert [solution.edge_at(Fraction(pay)) for pay in (11, 12)] == [Fraction(43, 415), Fraction(12, 415)]
    assert solution.smallest_whole_pay == 12  # 12/415 = 2.89% <= 3%, and 11 to 1 gives 10.36%


def test_max_edge_is_the_smallest_whole_pay_at_or_below():
    bet = catalog()["dragon_7"]
    shoe = Shoe.decks(8)
    for limit in (Fraction(0), Fraction(5, 100), Fraction(76113, 1000000)):
        whole = solve(shoe, bet, PUNTO, max_edge=limit).smallest_whole_pay
        assert whole is not None
        assert edge_of(with_pay(bet, 0, Fraction(whole)), shoe) <= limit < edge_of(with_pay(bet, 0, Fraction(whole - 1)), shoe)


def test_a_rule_set_with_a_choice():
    bet = catalog()["banker"]
    decisions = resolve(BACCARAT_GOLD, Policy.parse("player_on_5=stand"))
    solution = solve(Shoe.decks(8), bet, decisions, row="banker wins", edge=Fraction(1, 100))
    assert edge_of(with_pay(bet, 0, solution.pay), Shoe.decks(8), decisions) == Fraction(1, 100)


def test_rows_by_number_event_and_default():
    bet = catalog()["dragon_bonus_player"]
    largest = max(range(len(bet.rows)), key=lambda index: bet.rows[index].pays.net)
    assert choose_row(bet, None) == largest
    assert choose_row(bet, "1") == 0
    assert choose_row(bet, bet.rows[2].event.upper()) == 2
    with pytest.raises(InputError, match="has rows 1 to"):
        choose_row(bet, "99")
    with pytest.raises(InputError, match="is not an event"):
        choose_row(bet, "a royal flush")


def test_an_event_naming_two_rows_is_refused(run, tmp_path):
    bets = tmp_path / "bets.toml"
    bets.write_text('[[bet]]\nname = "twice"\npays = [{ when = "winner == banker and banker_total == 7", pays = "5", event = "banker wins" },'
                    ' { when = "winner == banker", pays = "1", event = "Banker wins" }]\n')
    bet = own_bets(bets)["twice"]
    with pytest.raises(InputError, match="^row 'BANKER WINS' is the event of rows 1, 2 of twice: give the row's number"):
        choose_row(bet, "BANKER WINS")
    assert choose_row(bet, "2") == 1
    code, out, err = run("solve-pay", "--bet", "twice", "--row", "banker wins", "--edge", "5", "--bets-file", str(bets))
    assert code == 2 and out == ""
    assert err.strip().splitlines() == ["baccarat-odds: error: --row 'banker wins' is the event of rows 1, 2 of twice: give the row's number"]


def test_refusals():
    with pytest.raises(InputError, match="would be 92.5301%, and a winning pay only lowers it"):
        solve(Shoe.decks(8), catalog()["player_pair"], PUNTO, edge=Fraction(99, 100))  # even a push loses more
    shadowed = catalog()["banker"]  # a row no coup reaches: the same condition as the row above it
    never = Bet("never", "", (shadowed.rows[0], shadowed.rows[0]))
    with pytest.raises(InputError, match="never settles"):
        solve(Shoe.decks(8), never, PUNTO, row="2", edge=Fraction(1, 100))


def test_cli_json(run):
    code, out, err = run("solve-pay", "--bet", "player_pair", "--edge", "5%", "--max-edge", "3", "--format", "json")
    assert code == 0 and err == ""
    record = json.loads(out)
    assert record["pay"] == "1453/124"
    assert record["row"] == {"number": 1, "event": record["row"]["event"], "pays": "11", "probability": "31/415"}
    assert [entry["pay"] for entry in record["nearest_whole"]] == ["11", "12"]
    assert record["nearest_half"][0] == {"pay": "23/2", "house_edge": "11/166", "house_edge_percent": float(Fraction(1100, 166))}
    assert record["smallest_whole_pay"]["pay"] == "12"


def test_cli_text_with_shared_options(run, tmp_path):
    bets = tmp_path / "bets.toml"
    bets.write_text('[[bet]]\nname = "banker_seven"\npays = [{ when = "winner == banker and banker_total == 7", pays = "5", event = "banker wins on 7" }]\n')
    code, out, _ = run("solve-pay", "--bet", "banker_seven", "--row", "banker wins on 7", "--edge", "2.5", "--decks", "6", "--bets-file", str(bets))
    assert code == 0
    # The row wins with probability w (the plain enumerator): at a pay p the edge is 1 - w (p + 1) = 1/40.
    [wins, _] = analyze(Shoe.decks(6), [own_bets(bets)["banker_seven"]], engine=PlainEngine()).bets[0].rows
    pay = (1 - Fraction(1, 40)) / wins.probability - 1
    shown = [line.rsplit(" (", 1)[0] for line in out.splitlines() if line.startswith("pay for a house edge")]
    assert shown == [f"pay for a house edge of 2.5000%: {pay} to 1"]


@pytest.mark.parametrize("args,message", [
    (["--bet", "dragon_7"], "give --edge"),
    (["--bet", "dragon_7", "--edge", "five"], "--edge must be an exact number"),
    (["--bet", "dragon_7,panda_8", "--edge", "5"], "takes one bet"),
    (["--bet", "nope", "--edge", "5"], "unknown bet"),
    (["--bet", "dragon_7", "--row", "3", "--edge", "5"], "has rows 1 to 1"),
    (["--bet", "player_pair", "--edge", "99"], "only lowers it"),
    (["--bet", "perfect_pair", "--edge", "5", "--shoe", "A=32,K=32"], "reads suits"),
    (["--bet", "dragon_7", "--edge", "5", "--bets", "banker"], "No such option '--bets'"),
])
def test_cli_bad_input_is_one_line(run, args, message):
    code, out, err = run("solve-pay", *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err
