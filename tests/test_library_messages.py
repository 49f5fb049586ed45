"""Library errors speak in library terms (issue 21): a message names a parameter as the library
calls it (``policy ...``), never a CLI flag; the CLI names its own option for it (``--policy ...``)."""

import ast
import pickle
import re
from pathlib import Path

import pytest

from exact_odds import BACCARAT_GOLD, InputError, Policy, analyze, resolve

PACKAGE = Path(__file__).parent.parent / "exact_odds"
LIBRARY = ("core", "bets", "engine", "studies", "games")
FLAG = re.compile(r"(?<![\w-])--[a-z]")
ERROR = "baccarat-odds: error: "


def message_texts(call: ast.Call) -> str:
    """The literal text of an ``InputError(...)``'s message (the constant parts of an f-string)."""
    return " ".join(node.value for argument in call.args for node in ast.walk(argument)
                    if isinstance(node, ast.Constant) and isinstance(node.value, str))


def library_messages() -> list[tuple[str, int, str]]:
    found = []
    for folder in LIBRARY:
        for path in sorted((PACKAGE / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "InputError":
                    found.append((f"{folder}/{path.name}", node.lineno, message_texts(node)))
    return found


def test_the_scan_finds_the_library_messages():
    assert len(library_messages()) > 100


def test_no_library_message_names_a_cli_flag():
    flagged = [f"{where}:{line}: {text}" for where, line, text in library_messages() if FLAG.search(text)]
    assert not flagged, "\n".join(flagged)


GOLD_OPEN = ("Baccarat Gold leaves a choice open at player_on_5: give a policy, e.g. player_on_5=draw, =stand or =P "
             "(a probability such as 9/11)")
POLICY_KEY = ("policy key 'bogus': expected player_on_T, player_on_A+B, banker_on_T_vs_X or banker_on_A+B_vs_X "
              "(T a total, A+B two card values, X a third card 0-9 or stood)")

# (library call, its message, the parameter it begins by naming, the CLI arguments that give the same input)
CASES = [
    (lambda: analyze(8, "banker", rules="baccarat_gold"), GOLD_OPEN, None, None),
    (lambda: Policy.parse("bogus=draw"), POLICY_KEY, "policy", ["--policy", "bogus=draw"]),
    (lambda: analyze(8, "banker", rules="baccarat_gold", policy="player_on_5=1.5"),
     "policy player_on_5 must be a probability from 0 to 1, not '1.5'", "policy", ["--rules", "baccarat_gold", "--policy", "player_on_5=1.5"]),
    (lambda: analyze(8, "banker", policy="player_on_5=draw"),
     "policy player_on_5: not a choice under Punto Banco (there the player always draws)", "policy", ["--policy", "player_on_5=draw"]),
    (lambda: resolve(BACCARAT_GOLD, Policy.parse("player_on_5=draw,player_on_5=stand")), None, None, None),
    (lambda: analyze(8, "banker", rules="no_such_rules"),
     "rules 'no_such_rules' is neither a preset (punto_banco, baccarat_gold, chemin_de_fer_a, chemin_de_fer_b2, chemin_de_fer_b3) "
     "nor a rules file", "rules", ["--rules", "no_such_rules"]),
    (lambda: analyze(by_rank_shoe(), "perfect_pair"),
     "bet 'perfect_pair' reads suits, but the shoe is given by rank only (give per-card counts, e.g. 9h=7,...)", None,
     ["--shoe", "A=4,K=4", "--bets", "perfect_pair"]),
]


def by_rank_shoe():
    from exact_odds import Shoe

    return Shoe.parse("A=4,K=4")


@pytest.mark.parametrize("call,message,parameter,argv", CASES, ids=range(len(CASES)))
def test_a_library_message_is_in_library_terms_and_the_cli_names_its_option(run, call, message, parameter, argv):
    with pytest.raises(InputError) as refused:
        call()
    text = str(refused.value)
    assert not FLAG.search(text), text
    if message is not None:
        assert text == message
        assert refused.value.parameter == parameter
    if argv is not None:
        code, out, err = run(*argv)
        expected = "--" + text if parameter else text
        assert (code, out, err) == (2, "", f"{ERROR}{expected}\n")


def test_the_parameter_survives_pickling():
    """Errors come back from worker processes pickled."""
    with pytest.raises(InputError) as refused:
        Policy.parse("bogus=draw")
    again = pickle.loads(pickle.dumps(refused.value))
    assert (str(again), again.parameter) == (POLICY_KEY, "policy")


def test_a_message_that_does_not_begin_with_its_parameter_is_printed_as_it_is():
    from exact_odds.cli.shared import in_cli_terms

    assert in_cli_terms(InputError("a policy is needed", parameter="policy")) == "a policy is needed"
    assert in_cli_terms(InputError("policy x", parameter="policy")) == "--policy x"
    assert in_cli_terms(InputError("policy x")) == "policy x"
