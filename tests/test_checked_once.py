"""Checked once (issue 30): the front doors write no refusal a request should make.

Every ``raise`` of an InputError (or a subclass) under cli/ and serve/ is listed here by its module
and the start of its message, either as a refusal that belongs to the door (TRANSPORT: the command
line's syntax, the token, a body or a store too large, a session not found, a stale version, a
file that cannot be read...) with the reason, or as one still to move into its command's request
(NOT_YET_IN_A_REQUEST, naming it). A new refusal in a door fails here, and so does an entry that
is no longer raised: the second list only shrinks.
"""

import ast
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from exact_odds.errors import InputError

pytest.importorskip("fastapi")

PACKAGE = Path(__file__).parent.parent / "exact_odds"
DOORS = ("cli", "serve")

TRANSPORT_KINDS = {
    "Refused": "a change the session's state does not allow (409): the session's log and state, not a field of a request",
    "Stale": "a change made on a version the session no longer has (409): the session's state",
    "NotFound": "no session of that id (404): the store",
}
"""Refusals by kind: every raise of these belongs to the server's sessions and store."""

TRANSPORT = {
    ("cli/shared.py", "{} before a command belongs to the analysis"): "where an option stands on the command line",
    ("cli/shared.py", "{} means nothing to `{}`"): "where an option stands on the command line",
    ("cli/shared.py", "{} is given both before and after `{}`"): "where an option stands on the command line",
    ("cli/commands.py", "{}: that option is given already"): "an option given twice on the command line",
    ("cli/folders.py", "--decks is given both before and after `export`"): "where an option stands on the command line",
    ("cli/folders.py", "--decks is given both before and after `report`"): "where an option stands on the command line",
    ("cli/studies.py", "--decks goes after `banque`"): "where an option stands on the command line",
    ("cli/server.py", "serve needs the serve extra"): "a package not installed",
    ("cli/server.py", "{} is empty: give {}, or leave it out"): "the server's address, file and token",
    ("cli/server.py", "--db {}: cannot open it"): "a file that cannot be opened",
    ("cli/server.py", "--token holds a space or a character other than ASCII"): "the token, which travels in a header",
    ("cli/server.py", "cannot listen on {} port {}"): "the network",
    ("serve/routers/sessions.py", "Idempotency-Key must be 1 to 200 visible"): "a header of the transport",
    ("serve/store.py", "the store holds {} sessions"): "the store's size",
    ("serve/store.py", "the session holds {} events"): "the store's size",
    ("serve/store.py", "the session keeps {} request keys"): "the store's size",
    ("serve/store.py", "Idempotency-Key {} was sent before"): "a header of the transport",
    ("serve/routers/analysis.py", "bets: a position served holds at most {}"): "the work one request may ask of the server",
    ("serve/staking.py", "bets: a position served holds at most {}"): "the work one request may ask of the server",
    ("serve/sessions.py", "give one card, such as 9, T or 9h, not {}"): "a session's log entry (the kept state comes with the server's restructure)",
    ("serve/sessions.py", "this session enters cards with their suits"): "a session's log entry",
    ("serve/sessions.py", "the shoe has {} cards left ({}); a coup"): "a session's state",
    ("serve/sessions.py", "a burn names the card turned face up"): "a session's log entry",
}
"""Refusals that belong to a front door, with the reason."""

NOT_YET_IN_A_REQUEST: dict[tuple[str, str], str] = {}
"""Refusals still written in a door, each with the request it moves to: none are left, and a new one
fails the first test."""


def template(node: ast.expr) -> str:
    """A message as written: its text, each value formatted into it as ``{}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(template(part) if isinstance(part, ast.Constant) else "{}" for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return template(node.left) + template(node.right)
    return "{}"


def door_refusals() -> list[tuple[str, str, str]]:
    """(module path under the package, the kind raised, the message as written) of every raise of an
    InputError or a subclass under the front doors."""
    found = []
    for door in DOORS:
        for path in sorted((PACKAGE / door).rglob("*.py")):
            module = importlib.import_module(".".join(("exact_odds", *path.relative_to(PACKAGE).with_suffix("").parts)))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name):
                    kind = getattr(module, node.exc.func.id, None)
                    if isinstance(kind, type) and issubclass(kind, InputError):
                        message = template(node.exc.args[0]) if node.exc.args else ""
                        found.append((path.relative_to(PACKAGE).as_posix(), kind.__name__, message))
    return found


def listed(place: str, message: str, entries: dict[tuple[str, str], str]) -> tuple[str, str] | None:
    return next(((where, start) for where, start in entries if where == place and message.startswith(start)), None)


def test_the_front_doors_refuse_only_what_belongs_to_them() -> None:
    unlisted = [f"{place}: {message[:80]!r}" for place, kind, message in door_refusals()
                if kind not in TRANSPORT_KINDS and not listed(place, message, TRANSPORT) and not listed(place, message, NOT_YET_IN_A_REQUEST)]
    assert not unlisted, "refusals in a front door that a request should make (or list one with its reason): " + "; ".join(unlisted)


def test_every_listed_refusal_is_still_raised() -> None:
    """An entry whose refusal moved into a request (or went) leaves the lists."""
    raised = [(place, message) for place, _, message in door_refusals()]
    stale = [entry for entry in (*TRANSPORT, *NOT_YET_IN_A_REQUEST) if not any(place == entry[0] and message.startswith(entry[1]) for place, message in raised)]
    assert not stale, stale


def test_the_shared_setup_is_refused_by_no_door() -> None:
    """The shoe, rules, pays and bets are checked by commands/setup.py's Setup alone: no door
    writes a message of its own about them."""
    words = ("commission", "tie_pays", "--tie-pays", "rules_toml", "bets_toml", "--bets-file", "policy optimal is solved for one shoe and")
    written = [(place, message) for place, _, message in door_refusals() if any(message.startswith(word) for word in words)]
    assert not written, written


@pytest.mark.parametrize(("fields", "flags", "message"), [
    ({"commission": "120"}, ["--commission", "120"], "commission must be at least 0 and below 100 percent, not '120'"),
    ({"commission": "x"}, ["--commission", "x"], "commission must be an exact number such as 5, 2.5 or 2.5%, not 'x'"),
    ({"tie_pays": "lose"}, ["--tie-pays", "lose"], "tie_pays must be a positive pay such as 8 or 9, not 'lose'"),
    ({"bets": "banker", "tie_pays": "9"}, ["--bets", "banker", "--tie-pays", "9"],
     "tie_pays sets the tie bet's pay, and the tie bet is not among the bets chosen"),
])
def test_both_doors_give_the_setup_s_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str], fields: dict[str, str], flags: list[str],
                                             message: str) -> None:
    """One refusal, written once in commands/setup.py: the server answers it naming the field, the
    CLI naming the flag."""
    from fastapi.testclient import TestClient

    from exact_odds.cli.commands import main
    from exact_odds.serve.app import create_app

    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        response = client.post("/api/v1/analysis", json={"decks": 1, **fields})
    assert (response.status_code, response.json()) == (422, {"error": message})
    with pytest.raises(SystemExit, match="^2$"):
        main(["--decks", "1", *flags])
    parameter = message.split()[0]
    assert capsys.readouterr().err == f"baccarat-odds: error: --{parameter.replace('_', '-')}{message[len(parameter):]}\n"


@pytest.mark.parametrize(("fields", "flags", "message", "in_cli"), [
    ({"main": "banker"}, ["--main", "banker"], "main names the main bets for side_needs_main and side_ratio: give one of them, or leave it out",
     "--main names the main bets for --side-needs-main and --side-ratio: give one of them, or leave it out"),
    ({"rebate": "100"}, ["--rebate", "100"], "rebate must be at least 0 and below 100 percent, not '100'",
     "--rebate must be at least 0 and below 100 percent, not '100'"),
])
def test_both_doors_give_the_size_request_s_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str], fields: dict[str, str],
                                                     flags: list[str], message: str, in_cli: str) -> None:
    """commands/size.py's Staking checks the rebate and the main bets for both doors; the CLI
    spells every parameter the message names as its flag."""
    from fastapi.testclient import TestClient

    from exact_odds.cli.commands import main
    from exact_odds.serve.app import create_app

    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        response = client.post("/api/v1/size", json={"decks": 1, "bankroll": "100", **fields})
    assert (response.status_code, response.json()) == (422, {"error": message})
    with pytest.raises(SystemExit, match="^2$"):
        main(["size", "--decks", "1", "--bankroll", "100", *flags])
    assert capsys.readouterr().err == f"baccarat-odds: error: {in_cli}\n"


@pytest.mark.parametrize(("flags", "message"), [
    (["--unordered", "hands", "--given", "winner == tie"], "--unordered counts bets on the first cards alone; with --given or --by every bet is counted through the coup"),
    (["--unordered", "cards", "--by", "banker_total"], "--unordered counts bets on the first cards alone; with --given or --by every bet is counted through the coup"),
    (["--by", "banker_total", "--returns"], "--by gives a table by value: it does not combine with --given or --returns"),
    (["--unordered", "hands", "--bets", "banker"], "--unordered counts bets settled on the first cards alone (the pair bets), and none of these bets is"),
])
def test_the_analyze_request_s_refusals_in_cli_terms(capsys: pytest.CaptureFixture[str], flags: list[str], message: str) -> None:
    """commands/analyze.py's request (and the library, for the last) refuses; the CLI names the flags."""
    from exact_odds.cli.commands import main

    with pytest.raises(SystemExit, match="^2$"):
        main(["--decks", "1", *flags])
    assert capsys.readouterr().err == f"baccarat-odds: error: {message}\n"


@pytest.mark.parametrize(("fields", "flags", "message"), [
    ({"stake": "0"}, ["--stake", "0"], "stake must be positive, not '0'"),
    ({"stake": "x"}, ["--stake", "x"], "stake must be an exact number such as 5, 2.5 or 5/2, not 'x'"),
])
def test_both_doors_give_the_deal_request_s_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str], fields: dict[str, str],
                                                     flags: list[str], message: str) -> None:
    """commands/deal.py's request reads the cards and the stake for both doors."""
    from fastapi.testclient import TestClient

    from exact_odds.cli.commands import main
    from exact_odds.serve.app import create_app

    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        response = client.post("/api/v1/deal", json={"decks": 1, "cards": "9S 5D", **fields})
        assert (response.status_code, response.json()) == (422, {"error": message})
        response = client.post("/api/v1/deal", json={"decks": 1, "cards": " , "})
        assert (response.status_code, response.json()) == (422, {"error": "give the cards dealt, in shoe order (e.g. 9S 5D 9H 2C)"})
    with pytest.raises(SystemExit, match="^2$"):
        main(["deal", "--decks", "1", "9S", "5D", *flags])
    assert capsys.readouterr().err == f"baccarat-odds: error: --{message}\n"


@pytest.mark.parametrize(("flags", "message"), [
    (["--source", " "], "--source is empty: give the text to match, or leave --source out"),
    (["--bet", ""], "--bet is empty: give the text to match, or leave --bet out"),
    (["--source", "no such source anywhere"], "no published figure matches the filters"),
])
def test_the_verify_request_s_refusals_in_cli_terms(capsys: pytest.CaptureFixture[str], flags: list[str], message: str) -> None:
    from exact_odds.cli.commands import main

    with pytest.raises(SystemExit, match="^2$"):
        main(["verify", *flags])
    assert capsys.readouterr().err == f"baccarat-odds: error: {message}\n"


def test_the_simulation_records_left_out_are_counted_in_cli_terms(capsys: pytest.CaptureFixture[str]) -> None:
    """three_giving_8's published figures are all simulations: left out without --simulate, and said so."""
    from exact_odds.cli.commands import main

    with pytest.raises(SystemExit, match="^2$"):
        main(["verify", "--bet", "three_giving_8"])
    err = capsys.readouterr().err
    assert re.fullmatch(r"baccarat-odds: error: no published figure matches the filters \([1-9][0-9]* simulation records: give --simulate\)\n", err), err


@pytest.mark.parametrize(("flags", "message"), [
    (["--rules", "chemin_de_fer_b2", "--policy", "player_on_5=draw", "--format", "toml"],
     "--policy is no part of a rules file: give --format text to see its choice at each option point"),
    (["--rules", "chemin_de_fer_b2", "--policy", "optimal"],
     "--policy optimal is solved for a shoe, and `rules` takes none: `chemin-de-fer --model M --decks N` shows its solution"),
    (["--policy", "punto_banco"], "--policy: Punto Banco has no option point, so a policy chooses nothing"),
])
def test_the_rules_request_s_refusals_in_cli_terms(capsys: pytest.CaptureFixture[str], flags: list[str], message: str) -> None:
    from exact_odds.cli.commands import main

    with pytest.raises(SystemExit, match="^2$"):
        main(["rules", *flags])
    assert capsys.readouterr().err == f"baccarat-odds: error: {message}\n"


@pytest.mark.parametrize(("flags", "message"), [
    (["--bet", "dragon_7"], "give --edge PCT (the pay for that house edge) or --max-edge PCT (the smallest whole pay at or below it)"),
    (["--bet", "dragon_7,tie", "--edge", "5"],
     "--bet takes one bet, not 'dragon_7,tie': solve-pay prices one bet (see `baccarat-odds bets` for the names)"),
    (["--bet", "dragon_7", "--max-edge", "x"], "--max-edge must be an exact number such as 5, 2.5 or 2.5%, not 'x'"),
])
def test_the_solve_pay_request_s_refusals_in_cli_terms(capsys: pytest.CaptureFixture[str], flags: list[str], message: str) -> None:
    """The request's messages name its fields; the CLI their flags, the first time each stands (not "house edge")."""
    from exact_odds.cli.commands import main

    with pytest.raises(SystemExit, match="^2$"):
        main(["solve-pay", *flags])
    assert capsys.readouterr().err == f"baccarat-odds: error: {message}\n"


@pytest.mark.parametrize(("flags", "message"), [
    ([], "give --model A|B2|B3 or --rules NAME|FILE (a chemin de fer rule set)"),
    (["--model", "A", "--rules", "chemin_de_fer_a"], "give --model or --rules, not both: a model is a rule set (--model A is --rules chemin_de_fer_a)"),
])
def test_the_chemin_request_s_refusals_in_cli_terms(capsys: pytest.CaptureFixture[str], flags: list[str], message: str) -> None:
    from exact_odds.cli.commands import main

    with pytest.raises(SystemExit, match="^2$"):
        main(["chemin-de-fer", *flags])
    assert capsys.readouterr().err == f"baccarat-odds: error: {message}\n"


def _setup(**fields: object) -> object:
    from exact_odds.commands.setup import Setup

    return Setup(**fields)  # type: ignore[arg-type]


def _size(**fields: object) -> object:
    from exact_odds.commands.size import SizeRequest

    return SizeRequest(**{"bankroll": "100", **fields})  # type: ignore[arg-type]


def _formula(**fields: object) -> object:
    from exact_odds.commands.formula import FormulaRequest

    return FormulaRequest(setup=_setup(), **fields)  # type: ignore[arg-type]


def _simulate(setup: dict[str, object], **fields: object) -> object:
    from exact_odds.commands.simulate import SimulateRequest

    return SimulateRequest(setup=_setup(**setup), **fields)  # type: ignore[arg-type]


def _report(**fields: object) -> object:
    from exact_odds.commands.report import ReportRequest

    return ReportRequest(setup=_setup(), **fields)  # type: ignore[arg-type]


def _banque(**fields: object) -> object:
    from exact_odds.commands.banque import BanqueCommandRequest

    return BanqueCommandRequest(**fields)  # type: ignore[arg-type]


def _shoe(**fields: object) -> object:
    from exact_odds.commands.shoe import ShoeRequest
    from exact_odds.core.shoe import Shoe
    from exact_odds.studies.shoe import ShoeStudy

    return ShoeRequest(study=ShoeStudy(shoe=Shoe.parse("9=2,K=8"), cut_card=4, after_cut=0, burn=False), auto=True, **fields)  # type: ignore[arg-type]


OUT = "<out>"
"""Stands for a folder of the test's own in a command line."""

MOVED = [
    (lambda: _size(bankroll="0.0"), "bankroll", "bankroll must be positive, not '0.0'",
     ["size", "--bankroll", "0.0"], "--bankroll must be positive, not '0.0'"),
    (lambda: _size(total_max="0"), "total_max", "total_max must be positive, not '0'",
     ["size", "--bankroll", "100", "--total-max", "0"], "--total-max must be positive, not '0'"),
    (lambda: _size(unit="-5"), "unit", "unit must be positive, not '-5'", ["size", "--bankroll", "100", "--unit=-5"], "--unit must be positive, not '-5'"),
    (lambda: _size(side_ratio="0/3"), "side_ratio", "side_ratio must be positive, not '0/3'",
     ["size", "--bankroll", "100", "--side-ratio", "0/3"], "--side-ratio must be positive, not '0/3'"),
    (lambda: _size(session=10), "session", "session values a rebate on the session's net loss: give its rebate PCT",
     ["size", "--bankroll", "100", "--session", "10"], "--session values a rebate on the session's net loss: give its --rebate PCT"),
    (lambda: _formula(above="0"), "above", "above must be positive, not '0'", ["formula", "--above", "0"], "--above must be positive, not '0'"),
    (lambda: _formula(solve=True, below="-1"), "below", "below must be positive, not '-1'",
     ["formula", "--solve", "--below=-1"], "--below must be positive, not '-1'"),
    (lambda: _simulate({"decks": "inf"}), "shoe", "simulate deals real shoes: give a whole number of decks or a shoe",
     ["simulate", "--decks", "inf"], "simulate deals real shoes: give a whole number of decks or a --shoe"),
    (lambda: _simulate({"decks": 1001}), "shoe", "simulate shuffles at most 52,000 cards (1,000 decks); this shoe holds 52,052",
     ["simulate", "--decks", "1001"], "simulate shuffles at most 52,000 cards (1,000 decks); this shoe holds 52,052"),
    (lambda: _simulate({"decks": 1}, workers=1, scheduler="tcp://127.0.0.1:8786"), "workers",
     "workers sets local worker processes, and scheduler runs the shoes on the cluster's workers: give one",
     ["simulate", "--decks", "1", "--workers", "1", "--scheduler", "tcp://127.0.0.1:8786"],
     "--workers sets local worker processes, and --scheduler runs the shoes on the cluster's workers: give one"),
    (lambda: _report(game="a\tb"), "game", "game must be one line of printable text, not 'a\\tb'",
     ["report", "--out", OUT, "--game", "a\tb"], "--game must be one line of printable text, not 'a\\tb'"),
    (lambda: _report(decks="1001"), "shoes", "the report's simulation shuffles at most 52,000 cards; this shoe holds 52,052 (or give shoes 0)",
     ["report", "--out", OUT, "--decks", "1001"], "the report's simulation shuffles at most 52,000 cards; this shoe holds 52,052 (or give --shoes 0)"),
    (lambda: _report(decks="6", shoes=1), "shoes",
     "shoes 1: the report's estimates carry standard errors, which need at least 2 shoes (or shoes 0: no simulation)",
     ["report", "--out", OUT, "--decks", "6", "--shoes", "1"],
     "--shoes 1: the report's estimates carry standard errors, which need at least 2 shoes (or --shoes 0: no simulation)"),
    (lambda: _report(decks="6", shoes=0, seed=3, burn=True), "seed", "seed, burn set the counting simulation, and shoes 0 leaves the simulation out",
     ["report", "--out", OUT, "--decks", "6", "--shoes", "0", "--seed", "3", "--burn"],
     "--seed, --burn/--no-burn set the counting simulation, and --shoes 0 leaves the simulation out"),
    (lambda: _report(decks="inf", penetration="1/2"), "penetration", "penetration set the counting simulation, and the infinite deck has no simulation",
     ["report", "--out", OUT, "--decks", "inf", "--penetration", "1/2"],
     "--penetration set the counting simulation, and the infinite deck has no simulation"),
    (lambda: _report(decks="6", max="5", unit=5), "max",
     "max, unit: for the table's view, which table MIX asks for (e.g. table banker=100,player=100); give it, or leave them out",
     ["report", "--out", OUT, "--decks", "6", "--max", "5", "--unit", "5"],
     "--max, --unit: for the table's view, which --table MIX asks for (e.g. --table banker=100,player=100); give it, or leave them out"),
    (lambda: _report(decks="6", table="banker=0"), "table", "table: the amount on banker must be positive, not 0",
     ["report", "--out", OUT, "--decks", "6", "--table", "banker=0"], "--table: the amount on banker must be positive, not 0"),
    (lambda: _banque(preset="banque", rules="banque"), "preset", "give preset or rules, not both",
     ["banque", "--preset", "banque", "--rules", "banque"], "give --preset or --rules, not both"),
    (lambda: _banque(force=True), "force", "force is for out (writing a folder)", ["banque", "--force"], "--force is for --out (writing a folder)"),
    (lambda: _banque(decks="1-2"), "decks", "decks 1-2: give one deck count to print a solution (a list with out)",
     ["banque", "--decks", "1-2"], "--decks 1-2: give one deck count to print a solution (a list with --out)"),
    (lambda: _banque(out="x", format="json"), "format", "format is for the printed solution: out writes JSON records and a Markdown summary",
     ["banque", "--out", OUT, "--format", "json"], "--format is for the printed solution: --out writes JSON records and a Markdown summary"),
    (lambda: _shoe(seed=5), "seed", "seed sets the simulation; the exact method (chosen by method auto: give method simulated to simulate) deals no shoes",
     ["shoe", "--shoe", "9=2,K=8", "--cut-card", "4", "--after-cut", "0", "--no-burn", "--seed", "5"],
     "--seed sets the simulation; the exact method (chosen by --method auto: give --method simulated to simulate) deals no shoes"),
]
"""The refusals moved out of cli/ into their requests: the request, the parameter and its message;
the command line and the CLI's message (word for word what it printed before the move)."""


@pytest.mark.parametrize(("build", "parameter", "message", "args", "in_cli"), MOVED, ids=[case[3][0] + "-" + case[1] for case in MOVED])
def test_a_refusal_moved_into_its_request_is_the_library_s_and_the_cli_s(tmp_path: Path, capsys: pytest.CaptureFixture[str], build: Any,
                                                                        parameter: str, message: str, args: list[str], in_cli: str) -> None:
    """The library, building the request itself, gets the refusal naming its field; the CLI
    prints the same refusal naming the flags, and writes nothing."""
    from exact_odds.cli.commands import main

    with pytest.raises(InputError, match=f"^{re.escape(message)}$") as refused:
        build()
    assert refused.value.parameter == parameter
    out = tmp_path / "out"
    with pytest.raises(SystemExit, match="^2$"):
        main([str(out) if arg == OUT else arg for arg in args])
    assert capsys.readouterr() == ("", f"baccarat-odds: error: {in_cli}\n")
    assert not out.exists()
