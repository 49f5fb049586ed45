"""Issue 34, item 1: the PAR workbook, opened and recalculated by a real spreadsheet program.

LibreOffice's calc, headless, recalculates every formula of workbooks written by the library (none
holds a cached value, and its profile is told to recalculate on loading), in one run: every catalog
bet's edge and figures on 8 decks and on other deck counts equal the exact values; a pay changed in
the workbook gives the edge of a bets file with that pay; counts past 2^53 come as exact fractions;
a bet built to fail GLI-11's 100-million check is flagged. Text that looks like a formula stays
text, and a workbook is written only where files.py's manifest allows."""

import shutil
import subprocess
import zipfile
from datetime import datetime, timezone
from fractions import Fraction
from pathlib import Path

import pytest

openpyxl = pytest.importorskip("openpyxl")

from exact_odds.bets.bets import catalog, load_bets  # noqa: E402
from exact_odds.core.shoe import Shoe  # noqa: E402
from exact_odds import analyze  # noqa: E402
from exact_odds.errors import InputError  # noqa: E402
from exact_odds.output.files import FolderTarget  # noqa: E402
from exact_odds.output.workbook import EXACT_LIMIT, INPUTS, SUMMARY, workbook_bytes  # noqa: E402
from exact_odds.studies.par import Digest, par_sheet  # noqa: E402

SOFFICE = shutil.which("soffice")
STAMP = datetime(2024, 5, 1, tzinfo=timezone.utc)
FAILING = load_bets('''
[[bet]]
name = "six_deuces_of_spades"
description = "built to fail GLI-11 4.8.2: its top award comes about once in 250 billion coups"
pays = [{ when = "count(card_rank == 2 and card_suit == S) == 6", pays = "1000", event = "six deuces of spades" },
        { when = "winner == tie", pays = "8", event = "tie" }]
''', "test")["six_deuces_of_spades"]
DECKS = (1, 8, "inf")
CHANGED = {"dragon_7": ("winner == banker and banker_cards == 3 and banker_total == 7", "45"), "tie": ("winner == tie", "9")}
"""Pays changed in the workbook, and the same bets with those pays as a bets file writes them."""
PROFILE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""
"""A LibreOffice profile that recalculates every formula of an .xlsx on loading (0: always)."""


def recalculated(paths: list[Path], folder: Path) -> dict[str, object]:
    """Each workbook opened, recalculated and saved by headless LibreOffice calc (one run), read back with its computed values."""
    profile = folder / "profile"
    (profile / "user").mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(PROFILE, encoding="utf-8")
    out = folder / "recalculated"
    subprocess.run([SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore", "--convert-to", "xlsx",
                    "--outdir", str(out), *map(str, paths)], check=True, capture_output=True, timeout=300)
    return {path.name: openpyxl.load_workbook(out / path.name, data_only=True) for path in paths}


def named(book, name: str):
    """The value of the cell a defined name points at."""
    sheet, cell = next(iter(book.defined_names[name].destinations))
    return book[sheet][cell.replace("$", "")]


def value(book, name: str) -> float:
    found = named(book, name).value
    assert isinstance(found, (int, float)), (name, found)
    return found


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    if SOFFICE is None:
        pytest.skip("LibreOffice's calc (Debian's libreoffice-calc) is not installed: .ci/run installs it where it may")
    folder = tmp_path_factory.mktemp("workbooks")
    everything = par_sheet(8, [*catalog(), FAILING], decks=DECKS, title="all bets", version="test")
    (folder / "all.xlsx").write_bytes(workbook_bytes(everything, STAMP))
    changed = openpyxl.load_workbook(folder / "all.xlsx")
    for name, (_, pay) in CHANGED.items():
        named(changed, f"{name}_pay_1").value = int(pay)
    changed.save(folder / "changed.xlsx")
    (folder / "nine.xlsx").write_bytes(workbook_bytes(par_sheet(9, "banker, tie, dragon_7, player_pair", decks=(9, 1)), STAMP))
    return recalculated([folder / "all.xlsx", folder / "changed.xlsx", folder / "nine.xlsx"], folder)


def test_every_catalog_bets_figures_recompute_to_the_exact_values(books):
    book = books["all.xlsx"]
    exact = analyze(Shoe.decks(8), [*catalog().values(), FAILING])
    assert len(exact.bets) == 55
    for result in exact.bets:
        name = result.bet.name
        assert abs(value(book, f"{name}_house_edge") - result.house_edge) < 1e-12, name
        assert abs(value(book, f"{name}_element_of_risk") - result.house_edge) < 1e-12, name
        assert abs(value(book, f"{name}_push_frequency") - result.push_probability) < 1e-12, name
        wins = sum((row.probability for row in result.rows if row.pays.net > 0), Fraction(0))
        assert abs(value(book, f"{name}_hit_frequency") - wins) < 1e-12, name
        assert abs(value(book, f"{name}_variance") / result.variance - 1) < 1e-9, name
        resolved = named(book, f"{name}_edge_resolved").value
        assert resolved == "never resolves" if result.house_edge_excluding_pushes is None else abs(resolved - result.house_edge_excluding_pushes) < 1e-12


def section(sheet, header: tuple[str, ...]) -> dict[str, list]:
    """The rows of the summary's table under ``header`` (its first cells), by their first cell, up to a blank row."""
    rows = list(sheet.iter_rows())
    start = next(index for index, row in enumerate(rows) if tuple(cell.value for cell in row[:len(header)]) == header)
    found = {}
    for row in rows[start + 1:]:
        if row[0].value is None:
            break
        found.setdefault(row[0].value, []).append([cell.value for cell in row])
    return found


def test_the_summary_and_the_edges_by_number_of_decks_recompute(books):
    summary = books["all.xlsx"][SUMMARY]
    by_decks = section(summary, ("bet", "1 deck", "8 decks", "infinite deck"))
    figures = section(summary, ("bet", "house edge", "per bet resolved"))
    assert len(by_decks) == len(figures) == 55
    for count, column in zip(DECKS, (1, 2, 3)):
        exact = analyze(Shoe.infinite() if count == "inf" else Shoe.decks(count), [*catalog().values(), FAILING])
        for result in exact.bets:
            assert abs(by_decks[result.bet.name][0][column] - result.house_edge) < 1e-12, (count, result.bet.name)
    assert abs(figures["banker"][0][1] - Fraction(114753351728, 10847218479825)) < 1e-12  # 1.0579%, every source's 8-deck banker edge
    outcomes = analyze(Shoe.decks(8), "banker")
    comar = section(summary, ("bet", "line", "event", "true odds against (to 1)"))
    banker_wins = Fraction(outcomes.outcomes["banker"], outcomes.total)
    assert comar["banker"][0][1:6] == [1, "banker wins", pytest.approx(float((1 - banker_wins) / banker_wins), rel=1e-12), 0.95,
                                       pytest.approx(float(outcomes["banker"].house_edge), abs=1e-12)]
    assert comar["banker"][1][1:5] == [2, "tie", pytest.approx(float(1 / outcomes.probability("tie") - 1), rel=1e-12), "push"]


def test_a_pay_changed_in_the_workbook_gives_the_edge_of_a_bets_file_with_that_pay(books):
    book = books["changed.xlsx"]
    text = "".join(f'[[bet]]\nname = "{name}_changed"\npays = [{{ when = "{when}", pays = "{pay}" }}]\n' for name, (when, pay) in CHANGED.items())
    mine = load_bets(text, "changed pays")
    for name in CHANGED:
        bet = mine[f"{name}_changed"]
        assert abs(value(book, f"{name}_house_edge") - analyze(Shoe.decks(8), bet).bets[0].house_edge) < 1e-12, name
        one_deck = book[name].cell(row=6 + len(catalog()[name].rows) + 2, column=14).value  # the house edge on the first deck count, 1
        assert abs(one_deck - analyze(Shoe.decks(1), bet).bets[0].house_edge) < 1e-12, name
    assert abs(value(book, "banker_house_edge") - Fraction(114753351728, 10847218479825)) < 1e-12  # unchanged


def test_counts_past_2_53_come_as_exact_fractions_and_recompute(books):
    book = books["nine.xlsx"]
    assert Shoe.decks(9).size == 468 and 468 * 467 * 466 * 465 * 464 * 463 >= EXACT_LIMIT
    exact = analyze(Shoe.decks(9), "banker, tie, dragon_7, player_pair")
    for result in exact.bets:
        assert abs(value(book, f"{result.bet.name}_house_edge") - result.house_edge) < 1e-12
    sheet = book["tie"]
    reduced = exact["tie"].rows[0].probability
    assert (sheet["E6"].value, sheet["F6"].value) == (reduced.numerator, reduced.denominator)
    assert "past 2^53" in sheet["C2"].value and sheet["B2"].value == str(exact["tie"].total)


def test_the_gli_11_check_flags_an_award_rarer_than_once_in_100_million(books):
    book = books["all.xlsx"]
    sheet = book["six_deuces_of_spades"]
    total = 416 * 415 * 414 * 413 * 412 * 411
    once_in = Fraction(total, 8 * 7 * 6 * 5 * 4 * 3)  # the six cards all deuces of spades: 8 of them in 8 decks
    assert once_in > 100_000_000
    assert sheet["L6"].value == f"display the odds: 1 in {round(once_in):,}"
    assert sheet["L7"].value == "passes" and sheet["L8"].value == "not an award"
    assert abs(sheet["I6"].value / once_in - 1) < 1e-12
    gli = [row[7].value for row in book[SUMMARY].iter_rows() if row[0].value == "six_deuces_of_spades"][:2]
    assert gli == [f"display the odds: 1 in {round(once_in):,}", "passes"]


HOSTILE = ("=HYPERLINK(\"http://example.invalid\",\"click\")", "+1+1", "-2+3", "@SUM(1,2)", "=1/0")


def test_formula_characters_in_user_text_are_written_as_text(tmp_path):
    bet = load_bets('[[bet]]\nname = "mine"\ndescription = "=2+2"\npays = [{ when = "winner == tie", pays = "8", event = "=EVENT()" }]\n', "x")["mine"]
    data = par_sheet(8, bet, decks=(8,), title=HOSTILE[0], submitter=HOSTILE[1], game=HOSTILE[2],
                     inputs=(Digest.of_text(HOSTILE[3], HOSTILE[4], "=cmd|' /C calc'!A0\n"),))
    path = tmp_path / "hostile.xlsx"
    path.write_bytes(workbook_bytes(data))
    book = openpyxl.load_workbook(path)
    cells = [cell for sheet in book for row in sheet.iter_rows() for cell in row if isinstance(cell.value, str)]
    hostile = [cell for cell in cells if cell.value in (*HOSTILE, "=2+2", "=EVENT()", "=cmd|' /C calc'!A0")]
    assert {cell.value for cell in hostile} == {*HOSTILE, "=2+2", "=EVENT()", "=cmd|' /C calc'!A0"}
    assert all(cell.data_type == "s" and cell.quotePrefix for cell in hostile)
    with zipfile.ZipFile(path) as archive:
        xml = "".join(archive.read(name).decode() for name in archive.namelist() if name.startswith("xl/worksheets/"))
    assert "<f>HYPERLINK" not in xml and "<f>2+2" not in xml and "<f>EVENT" not in xml and "<f>cmd" not in xml
    assert book[INPUTS]["A6"].value == HOSTILE[3]


def test_the_same_data_and_date_give_the_same_bytes():
    data = par_sheet(8, "tie", decks=(8,), date="2024-05-01 00:00:00")
    assert workbook_bytes(data, STAMP) == workbook_bytes(data, STAMP)


def test_a_workbook_never_replaces_a_file_the_report_did_not_write(tmp_path):
    data = workbook_bytes(par_sheet(8, "tie", decks=(8,)), STAMP)
    folder = tmp_path / "report"
    folder.mkdir()
    (folder / "par.xlsx").write_bytes(b"the user's own workbook")
    with pytest.raises(InputError, match=r"holds files this command did not write \(par.xlsx\)"):
        FolderTarget(str(folder), force=False, command="report")
    with FolderTarget(str(folder), force=True, command="report") as target:  # --force replaces the command's own files only
        target.write({"index.html": "x"})
    assert (folder / "par.xlsx").read_bytes() == b"the user's own workbook"
    written, other = tmp_path / "ours", workbook_bytes(par_sheet(8, "banker", decks=(8,)), STAMP)
    with FolderTarget(str(written), force=False, command="report") as target:
        target.write({"par.xlsx": data})
    with FolderTarget(str(written), force=False, command="report") as target:  # the report's own workbook (its manifest says so) is replaced
        target.write({"par.xlsx": other})
    assert (written / "par.xlsx").read_bytes() == other != data


@pytest.mark.parametrize("bets, message", [
    ((), "at least one bet"),
])
def test_a_workbook_of_nothing_is_refused(bets, message):
    from exact_odds.studies.par import ParSheet

    with pytest.raises(InputError, match=message):
        workbook_bytes(ParSheet("t", "g", "s", "8 decks", "r", "v", "d", "c", bets, ()))


def test_a_fraction_past_2_53_is_written_as_text_beside_its_nearest_double(tmp_path):
    from exact_odds.studies.par import DeckCount, ParSheet, SheetBet, SheetLine

    prime = 2**61 - 1  # a Mersenne prime: no count below it shares a factor with it
    lines = (SheetLine(1, "rare", "winner == tie", "9", Fraction(9), 3), SheetLine(None, "any other result", "no line above holds", "lose", Fraction(-1), prime - 3))
    bet = SheetBet("made_up", "", lines, prime, (DeckCount("9", (3, prime - 3), prime), DeckCount("1", (1, 4), 5)))
    path = tmp_path / "inexact.xlsx"
    path.write_bytes(workbook_bytes(ParSheet("t", "g", "s", "a shoe", "r", "v", "d", "c", (bet,), ())))
    sheet = openpyxl.load_workbook(path)["made_up"]
    nearest = "=" + repr(float(Fraction(3, prime)))  # correctly rounded (3 / prime would round the prime first), every digit
    assert (sheet["B2"].value, sheet["E6"].value, sheet["G6"].value) == (str(prime), f"3/{prime}", nearest)
    assert sheet["N6"].value == nearest and sheet["O6"].value == 1 and sheet["O8"].value == 5  # 1 deck's counts stay integers
    assert sheet["C3"].value.endswith(": rare, any other result, 9 decks")
