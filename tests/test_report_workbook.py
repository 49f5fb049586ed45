"""Issue 34 through the command: `report --xlsx` writes the PAR workbook into the report's folder
(named in its manifest, never over a user's file), with a hostile title and submitter written as
text; without openpyxl the flag is refused in one line naming the extra."""

import json
import sys

import pytest

openpyxl = pytest.importorskip("openpyxl")
pytest.importorskip("matplotlib")

from exact_odds.output.workbook import SUMMARY  # noqa: E402

EPOCH = "1767225600"  # 2026-01-01 00:00:00 UTC
TITLE, SUBMITTER, GAME = "=HYPERLINK(\"http://example.invalid\",\"open\")", "+A. Designer", "@Red Nine"
BETS = "dragon_7,tie"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """One report with its workbook, written twice into the same folder (the second replaces the first's files)."""
    from exact_odds.cli.commands import main

    root = tmp_path_factory.mktemp("report")
    args = ["report", "--bets", BETS, "--decks", "1,8", "--shoes", "0", "--xlsx", "--title", TITLE, "--submitter", SUBMITTER,
            "--game", GAME, "--out", str(root / "out")]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        patch.setattr(sys, "argv", ["baccarat-odds", *args])
        for _ in range(2):
            with pytest.raises(SystemExit) as stop:
                main(args)
            assert stop.value.code == 0
    return root / "out"


def test_the_workbook_is_in_the_folder_and_its_manifest(report):
    manifest = json.loads((report / "manifest.json").read_text())
    assert manifest["command"] == "report" and "par.xlsx" in manifest["files"]
    book = openpyxl.load_workbook(report / "par.xlsx")
    assert book.sheetnames == [SUMMARY, "dragon_7", "tie", "Inputs"]
    cover = {row[0].value: row[1].value for row in book[SUMMARY].iter_rows(max_row=7)}
    assert cover["date"] == "2026-01-01 00:00:00 UTC" and cover["shoe"] == "8 decks (416 cards)"
    assert [row[1].value for row in book[SUMMARY].iter_rows() if row[0].value == "command"][0].startswith("baccarat-odds report --bets dragon_7,tie")


def test_a_hostile_title_and_submitter_are_text_in_the_workbook(report):
    book = openpyxl.load_workbook(report / "par.xlsx")
    cover = {row[0].value: row[1] for row in book[SUMMARY].iter_rows(max_row=7)}
    for label, given in (("title", TITLE), ("submitter", SUBMITTER), ("game", GAME)):
        cell = cover[label]
        assert (cell.value, cell.data_type, cell.quotePrefix) == (given, "s", True), label
    command = [row[1] for row in book["Inputs"].iter_rows() if row[0].value == "command"][0]
    assert command.data_type == "s" and TITLE in command.value


def test_a_user_s_workbook_is_never_overwritten(run, tmp_path):
    folder = tmp_path / "r"
    folder.mkdir()
    (folder / "par.xlsx").write_bytes(b"my own workbook")
    code, out, err = run("report", "--bets", "tie", "--decks", "8", "--shoes", "0", "--xlsx", "--out", str(folder))
    assert (code, out) == (2, "") and len(err.splitlines()) == 1 and "holds files this command did not write (par.xlsx)" in err
    code, out, err = run("report", "--bets", "tie", "--decks", "8", "--shoes", "0", "--xlsx", "--force", "--out", str(folder))
    assert (code, out) == (2, "") and len(err.splitlines()) == 1 and "par.xlsx': a file of that name is there that report did not write" in err
    assert [path.name for path in folder.iterdir()] == ["par.xlsx"] and (folder / "par.xlsx").read_bytes() == b"my own workbook"


def test_without_the_flag_no_workbook_and_force_removes_the_report_s_own(run, tmp_path):
    folder = tmp_path / "r"
    assert run("report", "--bets", "tie", "--decks", "8", "--shoes", "0", "--xlsx", "--out", str(folder))[0] == 0
    assert (folder / "par.xlsx").read_bytes().startswith(b"PK")
    code, out, _ = run("report", "--bets", "tie", "--decks", "8", "--shoes", "0", "--out", str(folder))
    assert (code, out) == (0, f"wrote 8 files to {folder}\n")
    assert not (folder / "par.xlsx").exists() and "par.xlsx" not in json.loads((folder / "manifest.json").read_text())["files"]


def test_without_openpyxl_the_flag_is_one_line_naming_the_extra(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "openpyxl", None)  # importing it fails, as where the extra is not installed
    code, out, err = run("report", "--bets", "tie", "--shoes", "0", "--xlsx", "--out", str(tmp_path / "r"))
    assert (code, out) == (2, "") and err == "baccarat-odds: error: the workbook needs openpyxl: pip install 'exact_odds[xlsx]' (or openpyxl)\n"
    assert not (tmp_path / "r").exists()
