"""Every command's output on the catalog is pinned byte for byte (issue 19: the move into folders
by role, one walk and one renderer change no output). The pinned files are the output of main before
those changes; regenerate them only for a deliberate change of output, and say so in the commit:
``python tests/test_pinned_output.py``."""

import shlex
import sys
from pathlib import Path

import pytest

PINNED = Path(__file__).parent / "pinned"
COMMANDS = {
    "analysis-all-json": "--decks 8 --bets all --format json",
    "analysis-gold-choices": "--decks 6 --rules baccarat_gold --bets player,banker,tie,dragon_7",
    "analysis-markdown-returns": "--decks 6 --remove '5 5 K 9h' --bets dragon_7,panda_8,player_pair --format markdown --returns",
    "analysis-csv": "--shoe A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=3 --bets banker,tie,big --format csv",
    "analysis-given-json": "--decks 1 --given 'winner == banker' --format json",
    "analysis-by": "--decks 2 --by player_total --bets banker,player,tie",
    "analysis-unordered": "--decks 8 --bets player_pair,perfect_pair --unordered hands --format json",
    "deal-settled": "deal 4C AD KS 2H 8C --stake 200",
    "deal-midcoup": "deal 4C AD KS --decks 1",
    "eor-json": "eor --decks 8 --bets banker,player,tie,dragon_7 --format json",
    "formula-json": "formula --bets banker,player,tie --format json",
    "formula-latex": "formula --bets tie --format latex",
    "bets": "bets",
    "rules-gold-toml": "rules --rules baccarat_gold --format toml",
    "rules-chemin-text": "rules --rules chemin_de_fer_b2",
    "verify-json": "verify --source 'Wizard of Odds' --bet tie --format json",
    "solve-pay-json": "solve-pay --bet dragon_7 --edge 5 --max-edge 3 --format json",
    "chemin-json": "chemin-de-fer --decks 1 --model a --format json",
    "simulate-json": "simulate --decks 8 --shoes 40 --seed 7 --bets banker,player,tie,dragon_7 --workers 1 --format json",
}


def output(args: str) -> str:
    from click.testing import CliRunner

    from exact_odds.cli.commands import cli

    result = CliRunner().invoke(cli, shlex.split(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_output_is_pinned(name: str) -> None:
    assert output(COMMANDS[name]) == (PINNED / f"{name}.out").read_text(encoding="utf-8")


if __name__ == "__main__":
    PINNED.mkdir(exist_ok=True)
    for name, args in COMMANDS.items():
        (PINNED / f"{name}.out").write_text(output(args), encoding="utf-8")
        print(name, file=sys.stderr)
