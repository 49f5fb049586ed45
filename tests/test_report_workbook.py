"""Issue 34 through the command: `report --xlsx` writes the PAR workbook into the report's folder
(named in its manifest, never over a user's file), with a hostile title and submitter written as
text; without openpyxl the flag is refused in one line naming the extra. The workbook, recalculated
once by LibreOffice, shows the figures of the report's pages and JSON (element of risk, 1 in N, the
table's view), and those equal the library's analysis."""

import json
import shutil
import sys
from fractions import Fraction

import pytest

openpyxl = pytest.importorskip("openpyxl")
pytest.importorskip("matplotlib")

from exact_odds.core.shoe import Shoe  # noqa: E402
from exact_odds import analyze  # noqa: E402
from exact_odds.output.workbook import SUMMARY, TABLE  # noqa: E402

EPOCH = "1767225600"  # 2026-01-01 00:00:00 UTC
TITLE, SUBMITTER, GAME = "=HYPERLINK(\"http://example.invalid\",\"open\")", "+A. Designer", "@Red Nine"
BETS = "dragon_7,tie"
MIX = ["--table", "banker=5000,player=1000,dragon_7=50", "--differential", "2000", "--per-hour", "80"]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """One report with its workbook, written twice into the same folder (the second replaces the first's files)."""
    from exact_odds.cli.commands import main

    root = tmp_path_factory.mktemp("report")
    args = ["report", "--bets", BETS, "--decks", "1,8", "--shoes", "0", "--xlsx", "--title", TITLE, "--submitter", SUBMITTER,
            "--game", GAME, *MIX, "--out", str(root / "out")]
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
    assert book.sheetnames == [SUMMARY, "dragon_7", "tie", TABLE, "Inputs"]
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


def test_a_user_s_workbook_is_never_overwritten(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a short path: the message shows it whole
    folder = tmp_path / "r"
    folder.mkdir()
    (folder / "par.xlsx").write_bytes(b"my own workbook")
    code, out, err = run("report", "--bets", "tie", "--decks", "8", "--shoes", "0", "--xlsx", "--out", "r")
    assert (code, out) == (2, "") and len(err.splitlines()) == 1 and "holds files this command did not write (par.xlsx)" in err
    code, out, err = run("report", "--bets", "tie", "--decks", "8", "--shoes", "0", "--xlsx", "--force", "--out", "r")
    assert (code, out) == (2, "") and len(err.splitlines()) == 1 and "cannot write 'r/par.xlsx': a file of that name is there that report did not write" in err
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


def markdown_rows(text: str, header: str) -> list[list[str]]:
    """The cells of the Markdown tables whose header row begins ``| header``, one after the other."""
    lines = text.splitlines()
    rows = []
    for start in (index for index, line in enumerate(lines) if line.startswith(f"| {header} ")):
        for line in lines[start + 2:]:
            if not line.startswith("|"):
                break
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


@pytest.fixture(scope="module")
def recalculated_book(report, tmp_path_factory):
    """The report's workbook recalculated by headless LibreOffice calc (one run for every test below)."""
    from test_workbook import recalculated

    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice's calc (Debian's libreoffice-calc) is not installed: .ci/run installs it where it may")
    return recalculated([report / "par.xlsx"], tmp_path_factory.mktemp("recalculated"))["par.xlsx"]


def named(book, name: str):
    sheet, cell = next(iter(book.defined_names[name].destinations))
    return book[sheet][cell.replace("$", "")].value


def test_the_report_s_figures_are_the_library_s(report):
    record = json.loads((report / "report.json").read_text())
    assert record["format"] == "exact_odds.report" and list(record["bets"]) == ["dragon_7", "tie"]
    for result in analyze(Shoe.decks(8), BETS).bets:
        figures = record["bets"][result.bet.name]
        assert Fraction(figures["element_of_risk"]) == Fraction(figures["house_edge"]) == result.house_edge
        for line, row in zip(figures["lines"], result.rows, strict=True):
            assert line["combinations"] == row.combinations
            assert Fraction(line["one_in"]) == Fraction(result.total, row.combinations)
            assert Fraction(line["true_odds"]) == Fraction(result.total - row.combinations, row.combinations)
        page = (report / f"{result.bet.name}.md").read_text()
        risk = next(row for row in markdown_rows(page, "measure") if row[0].startswith("element of risk"))
        assert risk[1:] == [str(result.house_edge), f"{float(result.house_edge) * 100:.4f}%"]
        lines = markdown_rows(page, "event")
        assert [row[6] for row in lines[:-1]] == [f"{float(Fraction(result.total, row.combinations)):,.2f}" for row in result.rows]


def test_the_workbook_recalculated_shows_the_report_s_figures(report, recalculated_book):
    book = recalculated_book
    record = json.loads((report / "report.json").read_text())
    for name, figures in record["bets"].items():
        page = (report / f"{name}.md").read_text()
        risk = named(book, f"{name}_element_of_risk")
        assert abs(risk - Fraction(figures["element_of_risk"])) < 1e-12
        shown = next(row for row in markdown_rows(page, "measure") if row[0].startswith("element of risk"))[2]
        assert f"{risk * 100:.4f}%" == shown
        sheet = book[name]
        html_one_in = [row[6] for row in markdown_rows(page, "event")[:-1]]
        workbook_one_in = [f"{sheet[f'I{6 + index}'].value:,.2f}" for index in range(len(html_one_in))]
        assert workbook_one_in == html_one_in
        for index, line in enumerate(figures["lines"]):
            assert abs(sheet[f"I{6 + index}"].value / Fraction(line["one_in"]) - 1) < 1e-12


def test_the_workbook_s_table_view_is_the_report_s(report, recalculated_book):
    book = recalculated_book
    table = json.loads((report / "report.json").read_text())["table"]
    index = (report / "index.md").read_text()
    for prefix, figures in (("table", table["offered"]), ("table_capped", table["differential"]["capped"])):
        for key, name in (("hold", "hold"), ("expected_win", "expected_win"), ("win_per_hour", "win_per_hour"), ("exposure", "exposure")):
            exact = Fraction(figures[key] if key != "exposure" else figures["worst_coup"]["exposure"])
            assert abs(named(book, f"{prefix}_{name}") / exact - 1) < 1e-12, (prefix, key)
        assert named(book, f"{prefix}_pace") == 80 and abs(named(book, f"{prefix}_variance_of_win") / Fraction(figures["variance"]) - 1) < 1e-12
    assert Fraction(table["differential"]["capped"]["amounts"]["banker"]) == 3000
    holds = [row[2] for row in markdown_rows(index, "measure") if row[0].startswith("hold")]
    assert holds == [f"{named(book, 'table_hold') * 100:.4f}%", f"{named(book, 'table_capped_hold') * 100:.4f}%"]
