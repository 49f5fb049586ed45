"""Polish a user notices (issue 18): verify's table fits a terminal, published notes name what
ships, every output follows the umask, export shows one progress bar, simulate and report burn
alike by default.
"""

import json
import os
import pty
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import click
import pytest

import exact_odds
from exact_odds.cli.commands import cli
from exact_odds.output.files import FileTarget, FolderTarget
from exact_odds.studies.simulate import Estimate
from exact_odds.commands.verify import document
from exact_odds.output.render import render
from exact_odds.studies.figures import parse_printed, published_figures
from exact_odds.studies.verify import Check

PACKAGE = Path(exact_odds.__file__).parent
WIDTH = 120


# ---------------------------------------------------------------------------------------------
# verify: a table that fits in 120 columns and cuts no word
# ---------------------------------------------------------------------------------------------

def printed_as_computed(figure) -> Check:
    """A check of ``figure`` whose computed value is the printed one (the table's layout does not
    depend on the maths): a simulated figure gets an estimate with a standard error."""
    printed = parse_printed(figure.value) if figure.measure != "matrix_size" else None
    verdict = "known-wrong" if figure.known_wrong else "ok"
    if figure.measure == "matrix_size":
        return Check(figure, None, verdict, size=figure.value)
    value = printed.value / 100 if printed.percent else printed.value
    if figure.simulated:
        return Check(figure, None, verdict, Estimate(float(value), 0.001))
    return Check(figure, value, verdict)


def words(text: str) -> set[str]:
    return set(text.split())


def test_the_verify_table_of_every_shipped_figure_fits_and_cuts_no_word():
    figures = published_figures()
    checks = [printed_as_computed(figure) for figure in figures]
    table = render(document(checks), "table")
    long_lines = [line for line in table.splitlines() if len(line) > WIDTH]
    assert not long_lines, long_lines[:3]
    shown = words(table)
    for figure in figures:
        for text in (figure.id, figure.value, figure.source, figure.url, figure.known_wrong):
            assert words(text) <= shown, (figure.id, words(text) - shown)
    rows = [line.split() for line in table.splitlines() if line.startswith("  ") and not line.startswith("    ")]
    ids = [row[0] for row in rows if row[0] not in ("figure",) and not set(row[0]) <= {"-"}]
    assert ids == [figure.id for figure in figures]


def test_a_mismatch_shows_its_exact_value_and_the_summary_is_json_s(tmp_path, run):
    """The table's summary lines are the JSON summary's clauses; a mismatch prints the exact value
    (here the 8-deck banker win count of the shipped record, one off)."""
    path = tmp_path / "figures.toml"
    path.write_text('[[figure]]\nid = "banker-wins-8d"\nmeasure = "combinations"\nwhen = "winner == banker"\ndecks = 8\n'
                    'value = "2,292,252,566,437,889"\nsource = "A source whose name is long enough to be wrapped over more than '
                    'one line of the table, as a few shipped sources are, without a word being cut anywhere in it at all"\n'
                    'url = "http://example.com/baccarat"\n')
    code, table, _ = run("verify", "--data", str(path))
    assert code == 1
    lines = table.splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    assert "    exact: 2292252566437888" in lines  # CasinoExploit's (and the Wizard of Odds') printed count
    assert lines[-2:] == ["1 figures: 0 as expected, 1 mismatch, 0 stale known-wrong marks", "exact values: --format json"]
    code, out, _ = run("verify", "--data", str(path), "--format", "json")
    record = json.loads(out)
    assert record["summary"] == "1 figures: 0 as expected, 1 mismatch, 0 stale known-wrong marks"
    assert record["figures"][0]["computed"] == "2292252566437888"


# ---------------------------------------------------------------------------------------------
# published.toml: notes name public sources, not files that are not shipped
# ---------------------------------------------------------------------------------------------

URL = re.compile(r"\b(?:https?://)?(?:[\w-]+\.)+(?:com|net|org|uk|co|info|io|de|fi|jp|ru|gov|edu)(?:/\S*)?", re.IGNORECASE)
FILE_NAME = re.compile(r"[\w./-]*[\w-]\.(?:md|py|pyx|c|h|txt|ipynb|sh|csv|json|toml|pkl|npy|xlsx?)\b")


def shipped(name: str) -> bool:
    """A file of the package, named from inside it or as exact_odds/..."""
    return (PACKAGE / name).is_file() or (name.startswith("exact_odds/") and (PACKAGE.parent / name).is_file())


def test_published_notes_name_no_file_that_is_not_shipped():
    """Notes, known-wrong reasons and comments alike (a URL is a public source, not a file)."""
    text = (PACKAGE / "data" / "published.toml").read_text(encoding="utf-8")
    assert not re.search(r"/work/|research/|notes/|research check", text, re.IGNORECASE)
    missing = sorted(name for name in set(FILE_NAME.findall(URL.sub(" ", text))) if not shipped(name))
    assert not missing, missing


def test_the_file_name_search_finds_what_the_old_notes_named():
    """The search of the test above, on the references the notes held before issue 18."""
    old = ('(recorded in counts.md, not here)', 'research check (/work/research/check_apx3.py, exact', 'see exact_odds/games/chemin.py',
           'http://www.casinoexploit.com/baccarat.html', 'mirror internetradiomercedes.com/games/baccarat/counting-lucky-6.')
    assert [FILE_NAME.findall(URL.sub(" ", text)) for text in old] == [["counts.md"], ["/work/research/check_apx3.py"],
                                                                        ["exact_odds/games/chemin.py"], [], []]


# ---------------------------------------------------------------------------------------------
# Every output follows the umask
# ---------------------------------------------------------------------------------------------

@pytest.fixture(params=[0o027, 0o002])
def umask(request):
    previous = os.umask(request.param)
    yield request.param
    os.umask(previous)


def plain_mode(path: Path, folder: bool = False) -> int:
    """The mode a plain open (or mkdir) gives under the current umask."""
    if folder:
        path.mkdir()
    else:
        path.write_bytes(b"x")
    return path.stat().st_mode & 0o777


def test_a_plot_follows_the_umask(tmp_path, umask):
    target = tmp_path / "plot.png"
    FileTarget(str(target), "--plot", b"mark").write(b"\x89PNG")
    assert target.stat().st_mode & 0o777 == plain_mode(tmp_path / "plain") == 0o666 & ~umask


def test_a_plot_written_over_a_file_follows_the_umask(tmp_path, umask):
    target = tmp_path / "plot.png"
    target.write_bytes(b"old, with the mark")  # a plot drawn here before
    target.chmod(0o600)
    FileTarget(str(target), "--plot", b"mark").write(b"\x89PNG")
    assert target.read_bytes() == b"\x89PNG" and target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_folder_of_results_follows_the_umask(tmp_path, umask):
    out = tmp_path / "out"
    with FolderTarget(str(out), False, "test") as target:
        target.write({"a.txt": "a\n", "sub/b.txt": "b\n"})
    files = plain_mode(tmp_path / "plain")
    folders = plain_mode(tmp_path / "plain-folder", folder=True)
    assert {name: (out / name).stat().st_mode & 0o777 for name in ("a.txt", "sub/b.txt", "manifest.json")} == dict.fromkeys(
        ("a.txt", "sub/b.txt", "manifest.json"), files)
    assert (out.stat().st_mode & 0o777, (out / "sub").stat().st_mode & 0o777) == (folders, folders)


def test_eor_plot_follows_the_umask(tmp_path, run, umask):
    pytest.importorskip("matplotlib")
    code, _, err = run("eor", "--decks", "1", "--bets", "banker", "--plot", str(tmp_path / "eor.png"))
    assert code == 0, err
    assert (tmp_path / "eor.png").stat().st_mode & 0o777 == plain_mode(tmp_path / "plain")


# ---------------------------------------------------------------------------------------------
# export: one progress bar
# ---------------------------------------------------------------------------------------------

def test_export_shows_one_progress_bar_on_a_terminal(tmp_path):
    """stderr a terminal: the decks and the chemin de fer games are one bar, drawn to 100% once (the
    zero-sum games alone, --commission 0: six games in the bar as well as twelve, without the slow
    equilibrium searches of a commission)."""
    leader, follower = pty.openpty()
    drawn = b""
    try:
        process = subprocess.Popen([sys.executable, "-m", "exact_odds", "export", "--decks", "1", "--bets", "banker", "--no-formulas",
                                    "--commission", "0", "--out", "out"], stdout=subprocess.DEVNULL, stderr=follower, cwd=tmp_path)
        os.close(follower)
        while True:  # read as it draws (a full terminal would block it), to the end
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            drawn += chunk
        assert process.wait(timeout=120) == 0, drawn[-500:]
    finally:
        os.close(leader)
    assert (tmp_path / "out" / "manifest.json").is_file()
    assert len(list((tmp_path / "out" / "chemin-de-fer").glob("*.json"))) == 6  # A, B2, B3 on 1 deck and inf
    bars = [line for line in drawn.decode().replace("\r\n", "\n").split("\n") if "exporting" in line]
    assert len(bars) == 1, bars
    assert bars[0].count("100%") == 1


# ---------------------------------------------------------------------------------------------
# simulate and report: one burn default (on, as Punto Banco is dealt)
# ---------------------------------------------------------------------------------------------

def named(command: str) -> click.Command:
    """A command of the group (one of another module imported as it is named)."""
    found = cli.get_command(click.Context(cli), command)
    assert found is not None, command
    return found


def burn_option(command: str) -> click.Option:
    (option,) = [param for param in named(command).params if param.name == "burn"]
    assert isinstance(option, click.Option)
    return option


def test_simulate_and_report_burn_by_default_and_say_so():
    for command in ("simulate", "report"):
        option = burn_option(command)
        assert (option.opts, option.secondary_opts, option.default) == (["--burn"], ["--no-burn"], True)
        shown = " ".join(named(command).get_help(click.Context(named(command), info_name=command)).split())
        assert "--burn / --no-burn" in shown and "[default: burn]" in shown


def test_simulate_without_a_burn_option_is_simulate_burn(run):
    args = ("simulate", "--decks", "1", "--shoes", "4", "--seed", "5", "--workers", "1", "--bets", "banker", "--format", "json")
    results = {flag: run(*args, *flag) for flag in ((), ("--burn",), ("--no-burn",))}
    assert all(code == 0 for code, _, _ in results.values())
    assert results[()][1] == results[("--burn",)][1] != results[("--no-burn",)][1]
    assert json.loads(results[()][1])["settings"]["burn"] is True
