"""Exact or refused, round 3 (issue 18): tracebacks and wrong messages.

Each case checks the whole message line (or the parsed output) and, where there is an answer, checks
it against an independent computation: the house edge asked of solve-pay, brute force over every
ordering of a small shoe (tests/oracles.py), or an equivalent plain invocation.
"""

import csv
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from fractions import Fraction

import click
import numpy as np
import pytest

from exact_odds.engine.batch import batch_expectations
from exact_odds.bets.bets import Bet, Payout, catalog, load_bets
from exact_odds.core.cards import RANKS, Card
from exact_odds.studies.parallel import local_executor
from oracles import brute_force_expectations, feature_tally

ERROR = "baccarat-odds: error: "


def run_process(*args: str, timeout: float = 60, interrupts: tuple[float, ...] = ()) -> tuple[int, str, str]:
    """``python -m exact_odds ARGS`` in a session of its own; ``interrupts``: send Ctrl-C (SIGINT to
    the whole group, as a terminal does) after each of these many seconds, one after the other."""
    process = subprocess.Popen([sys.executable, "-m", "exact_odds", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        for delay in interrupts:
            time.sleep(delay)
            try:
                os.killpg(process.pid, signal.SIGINT)
            except ProcessLookupError:
                break
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"python -m exact_odds {' '.join(args)} ran longer than {timeout} s")
    return process.returncode, out.decode(), err.decode()


# ---------------------------------------------------------------------------------------------
# solve-pay prices one bet, and every pay it prints can be written back into a bets file
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["all", "ALL", "dragon_7,panda_8", ""])
def test_solve_pay_refuses_anything_but_one_bet(run, name):
    code, out, err = run("solve-pay", "--bet", name, "--edge", "5")
    assert (code, out) == (2, "")
    assert err == f"{ERROR}--bet takes one bet, not {name!r}: solve-pay prices one bet (see `baccarat-odds bets` for the names)\n"


def bets_file_text(bet: Bet, name: str, row: int, pay: str) -> str:
    """A bets file holding ``bet`` under ``name``, its row ``row`` paying ``pay``."""
    rows = ", ".join(f"{{ when = {json.dumps(line.condition.text)}, pays = {json.dumps(pay if index == row else line.pays.text)}, "
                     f"event = {json.dumps(line.event)} }}" for index, line in enumerate(bet.rows))
    return f'[[bet]]\nname = "{name}"\npays = [ {rows} ]\n'


@pytest.mark.parametrize("bet,edge,printed", [
    ("dragon_7", "5", "json"),  # the pay field of --format json: 3149351460869/76516991392
    ("dragon_bonus_player", "2.5", "text"),  # "N/M to 1" as the text prints it; row 3 of 8, the others keep their pays
])
def test_the_pay_solve_pay_prints_gives_the_edge_asked_for(run, tmp_path, bet, edge, printed):
    code, out, err = run("solve-pay", "--bet", bet, "--edge", edge, "--format", printed)
    assert code == 0, err
    if printed == "json":
        record = json.loads(out)
        row, pay = record["row"]["number"] - 1, record["pay"]
    else:
        row = int(re.search(r": row (\d+), ", out.splitlines()[0]).group(1)) - 1
        pay = re.search(r"^pay for a house edge of [0-9.]+%: (\S+ to 1) \(", out, re.MULTILINE).group(1)
    assert Fraction(pay.removesuffix(" to 1")).numerator > 10**12  # refused by bets files before: "at most a trillion"
    path = tmp_path / "bets.toml"
    path.write_text(bets_file_text(catalog()[bet], f"my_{bet}", row, pay), encoding="utf-8")
    code, out, err = run("--decks", "8", "--bets-file", str(path), "--bets", f"my_{bet}", "--format", "json")
    assert code == 0, err
    assert Fraction(json.loads(out)["bets"][f"my_{bet}"]["house_edge"]) == Fraction(edge) / 100


def test_solve_pay_refuses_a_pay_no_bets_file_could_hold(run, tmp_path):
    """Another row paying 1 to 10^299 - 1 puts a denominator of 299 digits into the expectation: the
    tie's pay for 5% would need more than a bets file holds, and is refused rather than printed."""
    path = tmp_path / "bets.toml"
    path.write_text(f'[[bet]]\nname = "fine_tie"\npays = [ {{ when = "winner == tie", pays = "8", event = "tie" }}, '
                    f'{{ when = "winner == banker", pays = "1/{10**299 - 1}" }} ]\n', encoding="utf-8")
    code, out, err = run("solve-pay", "--bet", "fine_tie", "--bets-file", str(path), "--row", "tie", "--edge", "5")
    assert (code, out) == (2, "")
    assert err == (f"{ERROR}the pay of 'tie' for a house edge of 5.0000%: in lowest terms its numerator and denominator "
                   "may have at most 300 digits each\n")


SMALL_SHOE = {"A": 1, "3": 1, "5": 1, "9": 1, "K": 2, "7": 1}
"""Seven cards: 5,040 orderings for the brute force."""
ODD_PAYS = ('[[bet]]\nname = "odd_pays"\npays = [ { when = "winner == banker", pays = "1/999999999989" }, '
            '{ when = "winner == player", pays = "1/999999999961" } ]\n')
"""Two pays whose common denominator (about 10^24) is past int64 (it once crashed simulate)."""


def repriced(name: str, pays: dict[int, Fraction]) -> Bet:
    bet = catalog()[name]
    rows = tuple(type(row)(row.condition, Payout(pays[index], str(pays[index])), row.event) if index in pays else row
                 for index, row in enumerate(bet.rows))
    return Bet(f"{name}_repriced", bet.description, rows)


def test_batch_path_keeps_pays_beyond_int64_exact():
    """The path of simulate applies pays in integers: past int64 (a pay of 300 digits, a common
    denominator of two pays near a trillion) in Python integers, equal to the brute force."""
    bets = [repriced("dragon_7", {0: Fraction(3149351460869, 76516991392)}),
            repriced("player_pair", {0: Fraction(10**40 + 7, 10**29 + 3)}),
            repriced("tie", {0: Fraction(10**299 + 3, 10**298 + 7)}),
            *load_bets(ODD_PAYS, "test").values()]
    batch = batch_expectations(np.array([[SMALL_SHOE.get(rank, 0) for rank in RANKS]]), bets)
    expected = brute_force_expectations(bets, {Card(rank, "S"): count for rank, count in SMALL_SHOE.items()})
    assert {bet.name: batch.expected_value(0, bet.name) for bet in bets} == expected
    floats = batch.floats()
    assert floats.dtype == np.float64 and floats[0].tolist() == [float(expected[bet.name]) for bet in bets]


def test_simulate_with_pays_past_int64_runs(run, tmp_path):
    path = tmp_path / "bets.toml"
    path.write_text(ODD_PAYS, encoding="utf-8")
    code, out, err = run("simulate", "--decks", "1", "--shoes", "2", "--workers", "1", "--bets-file", str(path), "--format", "json")
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert record["shoes_completed"] == 2 and list(record["bets"]) == ["banker", "player", "tie", "odd_pays"]


# ---------------------------------------------------------------------------------------------
# simulate --scheduler at a port where no dask scheduler answers
# ---------------------------------------------------------------------------------------------

def listener(reply: bytes | None) -> tuple[int, threading.Event]:
    """A plain TCP listener on loopback: to each connection it sends ``reply`` (an HTTP error,
    which dask would read as a frame of 3 EiB), or it closes it at once (None)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            with connection:
                if reply is not None:
                    connection.recv(1024)
                    connection.sendall(reply)
                    time.sleep(0.5)
        server.close()

    threading.Thread(target=serve, daemon=True).start()
    return server.getsockname()[1], stop


@pytest.mark.parametrize("reply,happened", [
    (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4, "what answers does not speak dask's protocol"),
    (None, "the connection was closed without an answer"),
])
def test_simulate_scheduler_that_is_no_dask_scheduler(reply, happened):
    pytest.importorskip("distributed")
    port, stop = listener(reply)
    try:
        code, out, err = run_process("simulate", "--decks", "1", "--shoes", "2", "--scheduler", f"tcp://127.0.0.1:{port}", timeout=40)
    finally:
        stop.set()
    assert (code, out) == (2, "")
    if reply is None:  # dask retries a connection closed in its handshake until its connect timeout: on a busy machine that is what it reports
        assert err in {f"{ERROR}no dask scheduler answers at tcp://127.0.0.1:{port} ({said})\n" for said in (happened, "no connection within 5 s")}
    else:
        assert err == f"{ERROR}no dask scheduler answers at tcp://127.0.0.1:{port} ({happened})\n"  # and nothing after it


def test_simulate_scheduler_port_out_of_range(run):
    code, out, err = run("simulate", "--decks", "1", "--shoes", "2", "--scheduler", "tcp://127.0.0.1:99999")
    assert (code, out) == (2, "")
    assert err == f"{ERROR}--scheduler 'tcp://127.0.0.1:99999': port 99999 is out of range (1 to 65535)\n"


# ---------------------------------------------------------------------------------------------
# Ctrl-C during simulate --workers 2: exit 130, one line, whatever the timing
# ---------------------------------------------------------------------------------------------

def test_workers_never_see_ctrl_c_even_as_they_start():
    """A worker is born with Ctrl-C blocked (and then ignores it): a Ctrl-C while it starts up
    cannot print its traceback. The parent's own mask is left as it was."""
    with local_executor(1) as pool:
        blocked = pool.submit(signal.pthread_sigmask, signal.SIG_BLOCK, []).result()
        handler = pool.submit(signal.getsignal, signal.SIGINT).result()
    assert signal.SIGINT in blocked and handler == signal.SIG_IGN
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


@pytest.mark.parametrize("first,second", [(1.0, 0.001), (1.6, 0.02), (3.0, 0.2)])
def test_double_ctrl_c_during_simulate_with_workers(first, second):
    """Two Ctrl-C's in a row, at times that fall in the start of the workers, the run or the stop."""
    code, out, err = run_process("simulate", "--decks", "8", "--shoes", "100000", "--workers", "2", "--format", "json",
                                 interrupts=(first, second))
    assert (code, err) == (130, "baccarat-odds: interrupted\n")
    if out:  # interrupted in the run: the shoes completed, in whole chunks of 100
        record = json.loads(out)
        assert record["interrupted"] is True and record["shoes_completed"] % 100 == 0


# ---------------------------------------------------------------------------------------------
# Messages name the option given; options a command does not take are not offered
# ---------------------------------------------------------------------------------------------

def test_formula_empty_bets_names_the_option(run):
    code, out, err = run("formula", "--bets", "")
    assert (code, out) == (2, "")
    assert err == f"{ERROR}--bets is empty (give names separated by commas, or all)\n"


def test_formula_takes_bets_like_every_command_and_no_bet(run):
    code, out, _ = run("formula", "--help")
    assert code == 0
    assert re.findall(r"^\s+(--bets?) ", out, re.MULTILINE) == ["--bets"]
    code, out, err = run("formula", "--bet", "x")
    assert (code, out) == (2, "")
    assert err.startswith(f"{ERROR}No such option '--bet'.")


def test_chemin_de_fer_does_not_offer_tie_pays(run):
    code, out, _ = run("chemin-de-fer", "--help")
    assert code == 0 and "--tie-pays" not in out and "--commission PCT" in out
    code, out, err = run("chemin-de-fer", "--model", "A", "--tie-pays", "9")
    assert (code, out) == (2, "")
    assert err == f"{ERROR}{click.exceptions.NoSuchOption('--tie-pays').format_message()}\n"
    code, out, err = run("--tie-pays", "9", "chemin-de-fer", "--model", "A")
    assert (code, out, err) == (2, "", f"{ERROR}--tie-pays means nothing to `chemin-de-fer`\n")


# ---------------------------------------------------------------------------------------------
# --by a card slot's value: "none" where the slot is not dealt, in every format
# ---------------------------------------------------------------------------------------------

SUITED_SHOE = "AS=1,3H=1,5D=1,9C=1,KS=1,KH=1,7D=1"


def by_rows(out: str, fmt: str) -> list[tuple[str, int]]:
    """(value label, combinations) of each row of a --by table (up to the blank line before the best-of line)."""
    if fmt == "json":
        return [(row["value"], row["combinations"]) for row in json.loads(out)["rows"]]
    table = out.split("\n\n")[0].splitlines()[2:]
    if fmt == "csv":
        lines = list(csv.reader(io.StringIO(out)))[1:]
    elif fmt == "markdown":
        lines = [[cell.strip() for cell in line.strip("|").split("|")] for line in table if line]
    else:
        lines = [re.split(r"\s{2,}", line.strip()) for line in table if line]
    return [(line[0], int(line[1].replace(",", ""))) for line in lines]


@pytest.mark.parametrize("feature", ["player_card3_value", "banker_card3_value", "player_card3_rank"])
@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown"])
def test_by_a_slot_not_dealt_says_none(run, feature, fmt):
    code, out, err = run("--shoe", SUITED_SHOE, "--by", feature, "--format", fmt)
    assert code == 0, err
    cards = {Card(entry[:-3], entry[-3]): 1 for entry in SUITED_SHOE.split(",")}
    tally: Counter = Counter()
    for key, count in feature_tally(cards, coup=True).items():
        tally[dict(key)[feature]] += count
    label = (lambda value: RANKS[value]) if feature.endswith("rank") else str
    assert by_rows(out, fmt) == [("none" if value == -1 else label(value), int(count)) for value, count in sorted(tally.items())]


# ---------------------------------------------------------------------------------------------
# Issue 29, class 8: one rule for bet names in the CLI, the library and the API
# ---------------------------------------------------------------------------------------------

EMPTY_NAME = "holds an empty name (two commas together, or one at an end): give each name once, separated by commas"
NAME_CASES = [
    # (the names as given, the library's message; the CLI prints it with --bets for bets)
    ("banker,,", f"bets 'banker,,' {EMPTY_NAME}"),
    (",banker", f"bets ',banker' {EMPTY_NAME}"),
    ("banker, ,tie", f"bets 'banker, ,tie' {EMPTY_NAME}"),
    ("banker,tie,BANKER", "bets names banker twice: give each bet once"),
    ("tie, tie", "bets names tie twice: give each bet once"),
    (" , ", "bets is empty (give names separated by commas, or all)"),
    ("dragon7", "unknown bet 'dragon7'; did you mean dragon_7?"),
    ("bunker", "unknown bet 'bunker'; did you mean banker or ez_banker?"),
    ("perfect", "unknown bet 'perfect'; did you mean perfect_pair or perfect_pair_v2?"),
    ("nope", "unknown bet 'nope': no bet of the catalog, the main bets or the bets given is named so"),
]


def cli_terms(message: str, option: str = "--bets") -> str:
    return option + message[len("bets"):] if message.startswith("bets ") else message


@pytest.mark.parametrize("names,message", NAME_CASES)
def test_the_library_refuses_bet_names_in_one_line(names, message):
    from exact_odds import InputError, analyze
    from exact_odds.studies.joint import joint
    from exact_odds.studies.sizing import size

    for call in (lambda: analyze(1, names), lambda: joint(1, names), lambda: size(1, names, 100)):
        with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
            call()


@pytest.mark.parametrize("names,message", NAME_CASES)
@pytest.mark.parametrize("command", [[], ["eor"], ["size", "--bankroll", "100"], ["simulate", "--shoes", "1"], ["formula"]],
                         ids=["analysis", "eor", "size", "simulate", "formula"])
def test_the_cli_refuses_bet_names_by_the_same_rule(run, command, names, message):
    code, out, err = run(*command, "--decks", "1", "--bets", names) if command != ["formula"] else run("formula", "--bets", names)
    assert (code, out, err) == (2, "", f"{ERROR}{cli_terms(message)}\n")


@pytest.mark.parametrize("argv,message", [
    (["solve-pay", "--bet", "dragon7", "--edge", "5"], "unknown bet 'dragon7'; did you mean dragon_7?"),
    (["size", "--decks", "1", "--bankroll", "100", "--bets", "banker,dragon_7", "--side-needs-main", "--unit", "1", "--main", "banker,,"],
     f"--main 'banker,,' {EMPTY_NAME}"),
    (["size", "--decks", "1", "--bankroll", "100", "--bets", "banker,dragon_7", "--side-needs-main", "--unit", "1", "--main", "banker,banker"],
     "--main names banker twice: give each bet once"),
])
def test_other_options_that_name_bets_follow_the_rule(run, argv, message):
    assert run(*argv) == (2, "", f"{ERROR}{message}\n")


def test_a_list_of_bets_follows_the_same_rule():
    """A bet given twice, by name or as a Bet, in any mix; no bet at all (the CLI refuses an empty
    --bets: the library no longer answers an analysis of no bets)."""
    from exact_odds import InputError, analyze, batch_expectations

    tie = catalog()["tie"]
    for bets, message in (([], "bets is empty (give names separated by commas, or all)"),
                          (["banker", "banker"], "bets names banker twice: give each bet once"),
                          ([tie, "tie"], "bets names tie twice: give each bet once"),
                          (["all", "dragon_7"], "bets names dragon_7 twice: give each bet once"),
                          ([tie, load_bets('[[bet]]\nname = "tie"\npays = [{ when = "winner == tie", pays = "9" }]\n', "mine")["tie"]],
                           "bets names tie twice: give each bet once")):
        with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
            analyze(1, bets)
    with pytest.raises(InputError, match="^bets names tie twice: give each bet once$"):
        batch_expectations([[4] * 13], [tie, tie])


@pytest.mark.parametrize("names,message", [case for case in NAME_CASES if not case[0].strip(" ,")] + NAME_CASES[:4] + NAME_CASES[6:8])
def test_the_api_refuses_bet_names_by_the_same_rule(tmp_path, names, message):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from fastapi.testclient import TestClient

    from exact_odds.serve.app import create_app

    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        for path, body in (("/api/v1/analysis", {"decks": 1, "bets": names}), ("/api/v1/sessions", {"decks": 1, "bets": names}),
                           ("/api/v1/size", {"decks": 1, "bets": names, "bankroll": "100"})):
            response = client.post(path, json=body)
            assert (response.status_code, response.json()) == (422, {"error": message}), path
        session = client.post("/api/v1/sessions", json={"decks": 1, "bets": "banker,player,tie"}).json()["id"]
        if names.strip(" ,") and not message.startswith("unknown"):  # the session's bets to size
            response = client.post(f"/api/v1/sessions/{session}/size", json={"bankroll": "100", "bets": names})
            assert (response.status_code, response.json()) == (422, {"error": message})


# ---------------------------------------------------------------------------------------------
# Issue 29, class 8: user text is text in every format (HTML, Markdown, LaTeX, CSV)
# ---------------------------------------------------------------------------------------------

HOSTILE_BETS = r'''[[bet]]
name = "hostile"
description = "<img src=x onerror=alert(1)> | [x](javascript:y)\nsecond line"
pays = [
  { when = "winner == tie", pays = "8", event = "=HYPERLINK(\"http://evil\",\"x\")" },
  { when = "winner == banker", pays = "push", event = "<script>alert(2)</script> | more" },
  { when = "winner == player and player_total == 9", pays = "1", event = "@SUM(A1)" },
  { when = "winner == player and player_total == 8", pays = "1", event = "-2+3" },
  { when = "winner == player and player_total == 7", pays = "1", event = "+1" },
]
'''


@pytest.fixture
def hostile_bets(tmp_path):
    path = tmp_path / "hostile.toml"
    path.write_text(HOSTILE_BETS, encoding="utf-8")
    return str(path)


def test_markdown_shows_a_bets_files_text_and_never_runs_it(run, hostile_bets):
    code, out, err = run("--decks", "1", "--bets-file", hostile_bets, "--bets", "hostile", "--format", "markdown", "--returns")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "## hostile: &lt;img src=x onerror=alert(1)> | \\[x](javascript:y) second line" in lines
    events = [line.split(" | ")[0].removeprefix("| ").rstrip() for line in lines if line.startswith("| ") and "|-" not in line]
    assert events[-8:] == ["event", '=HYPERLINK("http://evil","x")', "&lt;script>alert(2)&lt;/script> \\| more", "@SUM(A1)", "-2+3", "+1",
                           "any other result", "total"]
    assert not re.search("<(script|img)", out, re.IGNORECASE)


def test_csv_cells_a_spreadsheet_would_run_are_text(run, hostile_bets):
    """A cell starting = + - @ that is not a number is written after a quote; numbers (-1, -93.709517, +1) as they are."""
    code, out, err = run("--decks", "1", "--bets-file", hostile_bets, "--bets", "hostile", "--format", "csv")
    assert (code, err) == (0, "")
    rows = list(csv.reader(io.StringIO(out)))
    assert [row[2] for row in rows if row[0] == "return"] == ["'=HYPERLINK(\"http://evil\",\"x\")", "<script>alert(2)</script> | more",
                                                              "'@SUM(A1)", "'-2+3", "+1", "any other result"]
    assert [row[9] for row in rows if row[0] == "bet"] == ["-93.709517"]
    assert [row[8] for row in rows if row[2] == "any other result"] == ["-6580601/50896300"]


def test_the_report_escapes_the_title_submitter_and_game_in_markdown_and_html(run, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "report"
    code, printed, err = run("report", "--decks", "1", "--shoes", "0", "--bets", "tie", "--out", str(out),
                             "--title", "<script>alert(1)</script> & co", "--submitter", "A | B <img src=x>", "--game", "[l](javascript:y)")
    assert (code, err) == (0, ""), err
    markdown = (out / "tie.md").read_text(encoding="utf-8")
    lines = markdown.splitlines()
    assert lines[0] == "# &lt;script>alert(1)&lt;/script> &amp; co"
    cover = {line.split("|")[1].strip(): line.split(" | ", 1)[1].rstrip(" |") for line in lines[2:11] if line.startswith("| ") and "---" not in line}
    assert (cover["game"], cover["submitter"]) == ("\\[l](javascript:y)", "A \\| B &lt;img src=x>")
    page = (out / "tie.html").read_text(encoding="utf-8")
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt; &amp; co</title>" in page
    for text in (markdown, page, (out / "index.md").read_text(encoding="utf-8"), (out / "index.html").read_text(encoding="utf-8")):
        assert not re.search("<(script|img)", text, re.IGNORECASE)


def test_latex_keeps_a_rules_name_inside_its_comment(run, tmp_path):
    """A rules name holding a line break and LaTeX commands: the comment that names it stays one
    line, so no command of the name is read (it ran \\end{document} on a line of its own)."""
    import json as json_module

    from exact_odds.core.rules import CHEMIN_DE_FER_A, rules_toml

    name = "x}\\input{/etc/passwd}\n\\end{document} % & _ # <b>"
    text = re.sub(r"name = .*", lambda match: "name = " + json_module.dumps(name), rules_toml(CHEMIN_DE_FER_A), count=1)
    (tmp_path / "rules.toml").write_text(text, encoding="utf-8")
    code, out, err = run("chemin-de-fer", "--rules", str(tmp_path / "rules.toml"), "--decks", "1", "--format", "latex")
    assert (code, err) == (0, "")
    first = out.splitlines()[0]
    assert first == "% x}\\input{/etc/passwd} \\end{document} % & _ # <b>: 1 deck, no commission (a zero-sum game)"
    assert [line for line in out.splitlines() if "\\end{document}" in line or "\\input" in line] == [first]


def test_every_format_escapes_text_in_each_kind_of_block():
    """The renderer itself, block by block: a heading, a paragraph, items, a table cell and detail,
    a comment, a fenced block and a verbatim one."""
    from exact_odds.output.blocks import Comment, Document, Heading, Items, Paragraph, Preformatted, table
    from exact_odds.output.render import render

    hostile = "<b>x</b> & [a](javascript:b) -->\n```\n\\end{verbatim}\\input{y}"
    document = Document((Heading(2, hostile), Paragraph(hostile), Items((hostile,), hostile), table(["h"], [[hostile]]),
                         Comment((hostile,)), Preformatted(hostile)))
    markdown = render(document, "markdown")
    marked_up, fenced = markdown.split("\n````text\n")
    assert fenced == hostile + "\n````\n"  # as it is, in a fence longer than any run of backquotes inside
    assert "<b>" not in marked_up
    comments = [line for line in marked_up.splitlines() if "<!--" in line]  # one line, and nothing inside ends it
    assert comments == ["<!-- &lt;b&gt;x&lt;/b&gt; &amp; [a](javascript:b) - -&gt; ``` \\end{verbatim}\\input{y} -->"]
    assert "## &lt;b>x&lt;/b> &amp; \\[a](javascript:b) --> ``` \\\\end{verbatim}\\\\input{y}" in markdown
    page = render(document, "html")
    assert "<b>" not in page and page.count("-->") == 1
    latex = render(document, "latex")
    assert [line for line in latex.splitlines() if "\\end{verbatim}" in line and not line.startswith("%")] == ["\\end{verbatim}"]
    assert "\n\\end {verbatim}\\input{y}\n" in latex  # inside the verbatim block, which it no longer ends
    assert latex.splitlines()[0] == "\\subsection*{<b>x</b> \\& [a](javascript:b) --> ``` \\textbackslash{}end\\{verbatim\\}\\textbackslash{}input\\{y\\}}"
