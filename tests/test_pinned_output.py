"""Every command's output on the catalog is pinned byte for byte (issue 19: the move into folders
by role, one walk and one renderer change no output; issue 30: the commands floor changes none
either, nor a report's pages, nor the server's answers). The pinned files are the output of main
before those changes; regenerate them only for a deliberate change of output, and say so in the
commit: ``python tests/test_pinned_output.py``."""

import json
import shlex
import sys
from pathlib import Path
from typing import Any

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
    # issue 30: every command and format not pinned above, before the commands floor moved them
    "analysis-table": "--decks 8",
    "analysis-policy-json": "--decks 6 --rules baccarat_gold --policy player_on_5=draw --bets player,banker --format json",
    "analysis-enumerate-markdown": "--shoe A=4,5=4,K=4 --engine enumerate --format markdown",
    "deal-given": "deal 4C AD KS --decks 1 --given 'banker_total >= 6'",
    "eor-table": "eor --decks 1 --bets banker,tie",
    "formula-solve": "formula --bets tie --solve --above 14",
    "rules-text": "rules",
    "rules-policy": "rules --rules baccarat_gold --policy player_on_5=draw",
    "bets-named": "bets --bets dragon_7,tie",
    "verify-table": "verify --source 'Wizard of Odds' --bet tie",
    "solve-pay-text": "solve-pay --bet dragon_7 --edge 5",
    "chemin-table": "chemin-de-fer --decks 1 --model b2",
    "chemin-latex": "chemin-de-fer --decks 1 --model a --format latex",
    "chemin-commission-markdown": "chemin-de-fer --decks 2 --model a --commission 5 --format markdown",
    "simulate-table": "simulate --decks 8 --shoes 40 --seed 7 --workers 1",
    "size-table": "size --bankroll 1000",
    "size-limits-json": "size --bankroll 1000 --decks 1 --remove '9 9 9 9' --bets banker,player,tie,dragon_7 --min 10 --unit 5 --rebate 2 "
                        "--dead-chip --format json",
    "size-positive-markdown": "size --bankroll 1000 --decks 1 --remove '9 9 9 9 8 8' --bets dragon_7 --kelly 1/2 --max 50 --format markdown",
    "size-session-csv": "size --bankroll 1000 --session 10 --rebate 10 --format csv",
}


REPORT = "report --bets tie --decks 1,2,inf --shoes 20 --out report"
"""A report whose Markdown pages are pinned (its plots are matplotlib's drawing, which its versions change)."""
REPORT_PAGES = ("index.md", "tie.md")
SERVED: dict[str, tuple[str, str, dict[str, Any] | None]] = {
    "api-analysis": ("POST", "/api/v1/analysis", {"decks": 8, "bets": "banker,player,tie,dragon_7"}),
    "api-analysis-choices": ("POST", "/api/v1/analysis", {"decks": 6, "rules": "baccarat_gold", "bets": "player,banker"}),
    "api-analysis-given": ("POST", "/api/v1/analysis", {"decks": 1, "remove": "5 5", "given": "winner == tie", "commission": "4"}),
    "api-size": ("POST", "/api/v1/size", {"bankroll": 1000, "decks": 1, "remove": "9 9 9 9 8 8", "bets": "dragon_7", "kelly": "1/2"}),
    "api-deal": ("POST", "/api/v1/deal", {"cards": "4C AD KS 2H 8C", "stake": 200}),
    "api-deal-midcoup": ("POST", "/api/v1/deal", {"cards": "4C AD KS", "decks": 1, "given": "banker_total >= 6"}),
    "api-rules": ("GET", "/api/v1/rules", None),
    "api-catalog": ("GET", "/api/v1/catalog", None),
}
"""The server's answers pinned, by name: (method, path, body)."""
SESSION = [("POST", "burns", {"card": "5"}), *[("POST", "cards", {"card": card}) for card in "4 A K 2 8".split()], ("POST", "coups", None),
           ("PUT", "sizing", {"bankroll": 1000, "bets": "banker,dragon_7"}), ("POST", "cards", {"card": "9"})]
"""A session's changes, after which its state is pinned (its id and times left out)."""


def output(args: str) -> str:
    from click.testing import CliRunner

    from exact_odds.cli.commands import cli

    result = CliRunner().invoke(cli, shlex.split(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_output_is_pinned(name: str) -> None:
    assert output(COMMANDS[name]) == (PINNED / f"{name}.out").read_text(encoding="utf-8")


class Program:
    """What the report names as the program that ran (the kernel's path differs from machine to machine)."""

    def __str__(self) -> str:
        return "the kernel"


def report_pages(folder: Path) -> dict[str, str]:
    """The pinned pages of :data:`REPORT`, written into ``folder`` on a fixed date by a fixed program."""
    from exact_odds.cli.commands import main

    args = shlex.split(REPORT)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        patch.setenv("SOURCE_DATE_EPOCH", "1767225600")
        patch.setattr(sys, "argv", ["baccarat-odds", *args])
        patch.setattr("exact_odds.engine.kernel.kernel_info", Program)
        with pytest.raises(SystemExit) as done:
            main(args)
    assert done.value.code == 0
    return {name: (folder / "report" / name).read_text(encoding="utf-8") for name in REPORT_PAGES}


def test_report_pages_are_pinned(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pages = report_pages(tmp_path)
    assert pages == {name: (PINNED / f"report-{name}").read_text(encoding="utf-8") for name in REPORT_PAGES}


def served(folder: Path) -> dict[str, str]:
    """Each of :data:`SERVED`'s answers, and a session's state after :data:`SESSION`, as JSON text (keys in order)."""
    from fastapi.testclient import TestClient

    from exact_odds.serve.app import create_app

    answers = {}
    with TestClient(create_app(str(folder / "sessions.sqlite"))) as client:
        for name, (method, path, body) in SERVED.items():
            response = client.request(method, path, json=body)
            assert response.status_code == 200, response.text
            answers[name] = json.dumps(response.json(), indent=1) + "\n"
        response = client.post("/api/v1/sessions", json={"decks": 1, "bets": "banker,player,tie,dragon_7", "cut_card": 14})
        session = response.json()["id"]
        for method, action, body in SESSION:
            response = client.request(method, f"/api/v1/sessions/{session}/{action}", json=body)
            assert response.status_code == 200, response.text
        state = response.json()
        assert state.pop("id") == session
        answers["api-session"] = json.dumps(state, indent=1) + "\n"
        export = client.get(f"/api/v1/sessions/{session}/export").json()
        assert export.pop("id") == session and export.pop("created")
        for event in export["events"]:
            assert event.pop("at")
        answers["api-session-export"] = json.dumps(export, indent=1) + "\n"
    return answers


def openapi() -> str:
    """The server's OpenAPI document (its paths, operation ids and schemas) as JSON text, less the
    package's version (which a release changes)."""
    from exact_odds.serve.app import create_app

    document = create_app(":memory:").app.openapi()
    assert document["info"].pop("version")
    return json.dumps(document, indent=1) + "\n"


def test_the_server_s_openapi_document_is_pinned() -> None:
    """Routes grouped by resource (issue 30) answer the same paths, in the same order, with the same
    operation ids, parameters and schemas: a client generated from the document sees no change."""
    pytest.importorskip("fastapi")
    assert openapi() == (PINNED / "api-openapi.json").read_text(encoding="utf-8")


def test_the_server_s_answers_are_pinned(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    answers = served(tmp_path)
    assert answers == {name: (PINNED / f"{name}.json").read_text(encoding="utf-8") for name in answers}


if __name__ == "__main__":
    import tempfile

    PINNED.mkdir(exist_ok=True)
    for name, args in COMMANDS.items():
        (PINNED / f"{name}.out").write_text(output(args), encoding="utf-8")
        print(name, file=sys.stderr)
    with tempfile.TemporaryDirectory() as temporary:
        for name, text in report_pages(Path(temporary)).items():
            (PINNED / f"report-{name}").write_text(text, encoding="utf-8")
        for name, text in served(Path(temporary)).items():
            (PINNED / f"{name}.json").write_text(text, encoding="utf-8")
    (PINNED / "api-openapi.json").write_text(openapi(), encoding="utf-8")
    print("report, server", file=sys.stderr)
