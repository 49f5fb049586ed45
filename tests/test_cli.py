"""The command line: the worked examples of the rules sources, the JSON contract, bad input."""

import json
import subprocess
import sys

import pytest

from exact_odds.cli import main


def run(capsys, *args):
    """Run the command in-process; return (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def result_of(output: str, bet: str) -> str:
    for line in output.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[0] == bet and fields[1].isdigit():
            return " ".join(fields[2:])
    raise AssertionError(f"no line for {bet} in\n{output}")


def test_example_1_player_8_beats_banker_7(capsys):
    code, out, _ = run(capsys, "deal", "9S", "5D", "9H", "2C", "--bets", "banker,player,tie,player_pair")
    assert code == 0
    assert "player 8, banker 7: player wins" in out
    assert result_of(out, "player") == "wins 100"
    assert result_of(out, "banker") == "loses 100"
    assert result_of(out, "player_pair") == "wins 1100"


def test_example_2_banker_8_beats_player_1_after_drawing(capsys):
    # Player 3 + 8 = 1 draws a queen (stays 1); banker 2 + K = 2 draws on anything: a 6 makes 8.
    code, out, _ = run(capsys, "deal", "3H", "2S", "8D", "KC", "QH", "6S")
    assert code == 0
    assert "banker draws on 2 against a player third card of 0: 6S" in out
    assert "player 1, banker 8: banker wins" in out
    assert result_of(out, "banker") == "wins 95"


def test_example_3_banker_stands_on_3_against_an_8(capsys):
    code, out, _ = run(capsys, "deal", "4C", "AD", "KS", "2H", "8C", "--stake", "200")
    assert code == 0
    assert "banker stands on 3 against a player third card of 8" in out
    assert "player 2, banker 3: banker wins" in out
    assert result_of(out, "banker") == "wins 190"


def test_example_4_a_seven_seven_tie(capsys):
    code, out, _ = run(capsys, "deal", "7S", "3D", "KH", "4C")
    assert code == 0
    assert "player 7, banker 7: tie" in out
    assert result_of(out, "tie") == "wins 800"
    assert result_of(out, "player") == "push"
    assert result_of(out, "banker") == "push"


def test_deal_mid_coup_gives_exact_odds(capsys):
    code, out, _ = run(capsys, "deal", "9S", "5D", "--decks", "1")
    assert code == 0
    assert "ordered 4-card completions" in out


def test_json_contract(capsys):
    code, out, _ = run(capsys, "--decks", "8", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["total_combinations"] == 4_998_398_275_503_360
    assert data["outcomes"]["banker"]["combinations"] == 2_292_252_566_437_888
    assert data["outcomes"]["tie"]["probability"] == "619306544887/6508331087895"
    assert set(data["bets"]) == {"banker", "player", "tie"}
    assert data["bets"]["player"]["house_edge"] == "241149546272/19524993263685"


def test_table_states_the_shoe(capsys):
    code, out, _ = run(capsys, "--decks", "6", "--remove", "5 5 K 9h")
    assert code == 0
    assert out.startswith("Shoe: 6 decks less 5 5 K 9H (308 cards)")


def test_csv_and_markdown(capsys):
    code, out, _ = run(capsys, "--decks", "1", "--format", "csv")
    assert code == 0 and out.splitlines()[1].startswith("outcome,banker,,,6737232640,14658134400,")
    code, out, _ = run(capsys, "--decks", "1", "--format", "markdown", "--returns")
    assert code == 0 and "| banker" in out and "## banker:" in out


def test_commission_and_tie_pays(capsys):
    code, out, _ = run(capsys, "--decks", "8", "--commission", "4", "--tie-pays", "9", "--format", "json")
    data = json.loads(out)
    assert data["bets"]["banker"]["house_edge_percent"] == "0.599308"
    assert data["bets"]["tie"]["house_edge_percent"] == "4.844032"


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
    """Seven nines of hearts: every coup is a tie, so the banker bet never resolves."""
    code, out, _ = run(capsys, "--shoe", "9h=7", "--bets", "banker,perfect_pair", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["outcomes"]["tie"]["probability"] == "1"
    assert data["bets"]["banker"]["house_edge_excluding_pushes"] is None
    assert data["bets"]["perfect_pair"]["expected_value"] == "25"


def test_deal_mid_coup_on_the_infinite_deck(capsys):
    code, out, _ = run(capsys, "deal", "9S", "--decks", "inf")
    assert code == 0 and "127780/371293" in out
