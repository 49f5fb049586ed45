"""The command line: the worked examples of the rules sources, the JSON contract, bad input.

Every expectation is independent of the code under test: the payouts of the worked examples
(rules-sources/002, examples 1-4), published combination counts, counts by hand, or plain loops
over the cards left (tests/oracles.py deals each sequence); whole lines are compared, tables laid
out by tabulate (tests/test_grid.py checks the project lays them out so)."""

import csv
import io
import json
import subprocess
import sys
from fractions import Fraction
from math import floor, prod

import pytest
from oracles import completion_totals, values_left
from tabulate import tabulate

from exact_odds.cli.commands import main
from exact_odds.core.cards import parse_cards

# CasinoExploit: Baccarat, "Probabilities in N-deck Baccarat" (the Wizard of Odds' figures), 8 decks.
BANKER_8D, PLAYER_8D, TIE_8D = 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216
SEQUENCES_8D = prod(range(411, 417))  # ordered 6-card sequences of 416 cards


def run(capsys, *args):
    """Run the command in-process; return (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def plain(rows, headers, align=None, markdown=False) -> list[str]:
    return tabulate(rows, headers, tablefmt="github" if markdown else "simple", colalign=align, disable_numparse=True).splitlines()


def decimal(value: Fraction, places: int) -> str:
    """``value`` to ``places`` decimals, half away from zero."""
    digits = str(floor(abs(value) * 10**places + Fraction(1, 2))).rjust(places + 1, "0")
    return ("-" if value < 0 and digits.strip("0") else "") + f"{digits[:-places]}.{digits[-places:]}"


def settled(coup: list[str], bets: list[tuple[str, str]], stake: str = "100") -> list[str]:
    """The lines of a dealt coup (worded as the command words them), then its bets settled."""
    return [*coup, "", *plain([[bet, stake, result] for bet, result in bets], ["bet", "stake", "result"])]


def test_example_1_player_8_beats_banker_7(capsys):
    # Rules source example 1: player 9 + 9 = 8, a natural, beats 5 + 2 = 7; player pair 11:1 = 1100.
    code, out, _ = run(capsys, "deal", "9S", "5D", "9H", "2C", "--bets", "banker,player,tie,player_pair")
    assert code == 0
    assert out.splitlines() == settled(
        ["player 9S 9H = 8; banker 5D 2C = 7", "natural: both hands stand", "player 8, banker 7: player wins"],
        [("banker", "loses 100"), ("player", "wins 100"), ("tie", "loses 100"), ("player_pair", "wins 1100")])


def test_example_2_banker_8_beats_player_1_after_drawing(capsys):
    # Example 2: player 3 + 8 = 1 draws a queen (stays 1); banker 2 + K = 2 draws on anything: a 6
    # makes 8. 100 on the banker wins 95 (1:1 less 5%).
    code, out, _ = run(capsys, "deal", "3H", "2S", "8D", "KC", "QH", "6S")
    assert code == 0
    assert out.splitlines() == settled(
        ["player 3H 8D = 1; banker 2S KC = 2", "player draws on 1: QH (third-card value 0), total 1",
         "banker draws on 2 against a player third card of 0: 6S, total 8", "player 1, banker 8: banker wins"],
        [("banker", "wins 95"), ("player", "loses 100"), ("tie", "loses 100")])


def test_example_3_banker_stands_on_3_against_an_8(capsys):
    # Example 3: player 4 + K = 4 draws an 8 (total 2); banker A + 2 = 3 stands against an 8 and
    # wins 3 to 2; 200 on the banker wins 190.
    code, out, _ = run(capsys, "deal", "4C", "AD", "KS", "2H", "8C", "--stake", "200")
    assert code == 0
    assert out.splitlines() == settled(
        ["player 4C KS = 4; banker AD 2H = 3", "player draws on 4: 8C (third-card value 8), total 2",
         "banker stands on 3 against a player third card of 8", "player 2, banker 3: banker wins"],
        [("banker", "wins 190"), ("player", "loses 200"), ("tie", "loses 200")], stake="200")


def test_example_4_a_seven_seven_tie(capsys):
    # Example 4: 7 + K = 7 against 3 + 4 = 7, both stand; the tie pays 8:1 (800), banker and player push.
    code, out, _ = run(capsys, "deal", "7S", "3D", "KH", "4C")
    assert code == 0
    assert out.splitlines() == settled(
        ["player 7S KH = 7; banker 3D 4C = 7", "player stands on 7", "banker stands on 7 when the player stood",
         "player 7, banker 7: tie"],
        [("banker", "push"), ("player", "push"), ("tie", "wins 800")])


def completions(seen: str, cards: int, decks: int | None) -> dict[str, int]:
    """Ways each outcome happens over the orderings of ``cards`` more cards from ``decks`` decks
    (None: drawn with replacement), by plain dealing (see :func:`completion_totals`)."""
    dealt = list(parse_cards(seen))
    tally = {"banker": 0, "player": 0, "tie": 0}
    for (player, banker), ways in completion_totals(dealt, cards, values_left(dealt, decks) if decks else None).items():
        tally["player" if player > banker else "banker" if banker > player else "tie"] += int(ways)
    return tally


def mid_coup_lines(head: str, cards: int, tally: dict[str, int]) -> list[str]:
    """The odds after some cards: each outcome's ways, and the three main bets' expectations."""
    ways = sum(tally.values())
    probability = {name: Fraction(count, ways) for name, count in tally.items()}
    expectations = {"banker": probability["banker"] * Fraction(19, 20) - probability["player"],
                    "player": probability["player"] - probability["banker"],
                    "tie": 8 * probability["tie"] - probability["banker"] - probability["player"]}
    outcomes = plain([[name, f"{count:,}", str(probability[name]), decimal(probability[name], 10)] for name, count in tally.items()],
                     ["outcome", f"ways (ordered {cards}-card completions)", "probability", "decimal"])
    bets = plain([[name, str(value), decimal(value, 6)] for name, value in expectations.items()], ["bet", "expected value now", "decimal"])
    return [head, "", *outcomes, "", *bets]


def test_deal_mid_coup_gives_exact_odds(capsys):
    code, out, _ = run(capsys, "deal", "9S", "5D", "--decks", "1")
    assert code == 0
    assert out.splitlines() == mid_coup_lines("cards seen: 9S 5D; drawing from 1 deck (52 cards) less those cards (50 left)", 4,
                                              completions("9S 5D", 4, 1))


def test_deal_mid_coup_on_the_infinite_deck(capsys):
    code, out, _ = run(capsys, "deal", "9S", "--decks", "inf")
    assert code == 0
    assert out.splitlines() == mid_coup_lines("cards seen: 9S; drawing from infinite deck (cards drawn with replacement)", 5,
                                              completions("9S", 5, None))


def test_json_contract(capsys):
    code, out, _ = run(capsys, "--decks", "8", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["total_combinations"] == SEQUENCES_8D == BANKER_8D + PLAYER_8D + TIE_8D
    assert {name: value["combinations"] for name, value in data["outcomes"].items()} == {
        "banker": BANKER_8D, "player": PLAYER_8D, "tie": TIE_8D}
    assert data["outcomes"]["tie"]["probability"] == str(Fraction(TIE_8D, SEQUENCES_8D))
    assert set(data["bets"]) == {"banker", "player", "tie"}
    assert Fraction(data["bets"]["player"]["house_edge"]) == Fraction(BANKER_8D - PLAYER_8D, SEQUENCES_8D)


def test_table_states_the_shoe(capsys):
    code, out, _ = run(capsys, "--decks", "6", "--remove", "5 5 K 9h")
    assert code == 0
    # 312 - 4 = 308 cards, and 308 * 307 * ... * 303 ordered 6-card sequences.
    assert out.splitlines()[0] == f"Shoe: 6 decks less 5 5 K 9H (308 cards), {prod(range(303, 309)):,} ordered 6-card sequences"


def test_csv_holds_the_figures_of_the_json(capsys):
    code, out, _ = run(capsys, "--decks", "1", "--format", "json")
    assert code == 0
    reference = json.loads(out)
    code, out, _ = run(capsys, "--decks", "1", "--format", "csv")
    assert code == 0
    records = list(csv.DictReader(io.StringIO(out)))
    sequences = prod(range(47, 53))  # ordered 6-card sequences of one deck
    outcomes = {record["name"]: (int(record["combinations"]), int(record["total"]), record["probability"]) for record in records
                if record["section"] == "outcome"}
    assert outcomes == {name: (value["combinations"], sequences, value["probability"]) for name, value in reference["outcomes"].items()}
    bets = {record["name"]: record["expected_value"] for record in records if record["section"] == "bet"}
    assert bets == {name: bet["expected_value"] for name, bet in reference["bets"].items()}


def test_markdown_return_table_of_a_pair_counted_by_hand(capsys):
    """One deck: the player's two cards pair in 13 * 4 * 3 = 156 of 52 * 51 = 2,652 ordered draws
    (1/17); at 11 to 1 the expectation is 12/17 - 1 = -5/17."""
    code, out, _ = run(capsys, "--decks", "1", "--bets", "player_pair", "--format", "markdown", "--returns")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"## Shoe: 1 deck (52 cards), {prod(range(47, 53)):,} ordered 6-card sequences"
    pair, other = Fraction(1, 17), Fraction(16, 17)
    table = plain([["player pair", "11", "156", decimal(pair, 10), decimal(11 * pair, 10)],
                   ["any other result", "lose", "2,496", decimal(other, 10), decimal(-other, 10)],
                   ["total", "", "2,652", "1.0000000000", decimal(Fraction(-5, 17), 10)]],
                  ["event", "pays", "combinations", "probability", "return"], ("left", "left", "right", "right", "right"), markdown=True)
    start = lines.index("## player_pair: Player Pair: the player's first two cards are of the same rank, pays 11 to 1")
    assert lines[start + 1 : start + 3 + len(table)] == ["Settles on its 2 cards alone (ordered 2-card draws).", "", *table]


def test_commission_and_tie_pays(capsys):
    code, out, _ = run(capsys, "--decks", "8", "--commission", "4", "--tie-pays", "9", "--format", "json")
    data = json.loads(out)
    banker = Fraction(PLAYER_8D - BANKER_8D * Fraction(96, 100), SEQUENCES_8D)  # 1:1 less 4%
    tie = Fraction(BANKER_8D + PLAYER_8D - 9 * TIE_8D, SEQUENCES_8D)  # 9 to 1
    assert data["bets"]["banker"]["house_edge"] == str(banker) and data["bets"]["tie"]["house_edge"] == str(tie)
    assert data["bets"]["banker"]["house_edge_percent"] == float(100 * banker) and decimal(100 * banker, 6) == "0.599308"
    assert data["bets"]["tie"]["house_edge_percent"] == float(100 * tie) and decimal(100 * tie, 6) == "4.844032"


BAD_INPUT = [
    ["--decks", "0"],
    ["--decks", "-3"],
    ["--decks", "1.5"],
    ["--decks", "abc"],
    ["--decks", "1", "--remove", " ".join(["A"] * 5)],
    ["--shoe", "A=2,K=3"],
    ["--shoe", "A=x"],
    ["--remove", "Z"],
    ["--remove", "10X"],
    ["--bets", "nonsense"],
    ["--shoe", "A=20,K=20", "--bets", "perfect_pair"],
    ["--decks", "8", "--shoe", "A=10"],
    ["--commission", "lots"],
    ["deal", "9S", "5D", "9H", "2C", "3H"],
    ["deal", "9Z"],
    ["--format", "yaml"],
]


@pytest.mark.parametrize("args", BAD_INPUT, ids=[" ".join(args) for args in BAD_INPUT])
def test_bad_input_is_one_line_and_status_2(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("baccarat-odds: error: ")
    assert "Traceback" not in err


def test_installed_command_runs():
    completed = subprocess.run([sys.executable, "-m", "exact_odds", "--decks", "0"], capture_output=True, text=True)
    assert completed.returncode == 2 and completed.stderr.count("\n") == 1


def test_a_shoe_where_every_coup_ties(capsys):
    """Seven nines of hearts: both hands are 9 + 9 = 8, naturals, so every coup is a tie; the banker
    bet never resolves, and both hands are suited pairs: a perfect pair pays 25."""
    code, out, _ = run(capsys, "--shoe", "9h=7", "--bets", "banker,perfect_pair", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["outcomes"]["tie"]["probability"] == "1"
    assert data["bets"]["banker"]["house_edge_excluding_pushes"] is None
    assert data["bets"]["perfect_pair"]["expected_value"] == "25"
