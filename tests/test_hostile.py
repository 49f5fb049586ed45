"""Hostile and unusual input (issue 11): every input gets a correct answer or a refusal.

The standard checked here:
- a refusal is exit status 2 with at most three lines on stderr (normally one, starting
  "baccarat-odds: error: "), never a Python traceback, every line short;
- an answer (exit status 0) is the correct answer: where a case accepts either, the answer is
  checked against an independent computation or an equivalent plain invocation;
- nothing is left behind on failure (no output file, no staging folder, the user's files untouched);
- Ctrl-C is exit status 130; a closed output pipe is a non-zero exit with at most one line.

Most cases run in-process (the `run` fixture of conftest.py) under a CPU-time guard; those that
need a real process (signals, closed pipes, worker processes, memory limits) run
`python -m exact_odds` in a fresh session with a time limit and an address-space limit.

Sections: helpers; numbers; bets files; verify --data files; rules files; deal; export --out;
--plot; simulate; Ctrl-C and closed pipes; fuzz (hypothesis).
"""

import json
import os
import resource
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

ERROR_PREFIX = "baccarat-odds: error: "
MAX_STDERR_LINES = 3
MAX_LINE = 500
MEMORY_LIMIT = 4 * 2**30
"""Address-space limit of a subprocess: a runaway allocation fails there, not on the machine."""


def assert_clean_stderr(err: str, max_lines: int = MAX_STDERR_LINES) -> None:
    """No traceback, at most ``max_lines`` lines, each short."""
    lines = err.splitlines()
    assert "Traceback" not in err, f"traceback on stderr:\n{err[-2000:]}"
    assert len(lines) <= max_lines, f"{len(lines)} lines on stderr:\n{err[:2000]}"
    assert all(len(line) < MAX_LINE for line in lines), f"a stderr line of {max(map(len, lines))} characters"


def assert_refused(code: int, out: str, err: str) -> None:
    """Exit status 2 and one short error line (or at most three), no traceback."""
    assert code == 2, f"expected a refusal (exit 2), got exit {code}; stdout starts {out[:300]!r}; stderr {err[:300]!r}"
    assert_clean_stderr(err)
    assert err.startswith(ERROR_PREFIX), f"stderr does not start with {ERROR_PREFIX!r}: {err[:300]!r}"


class TookTooLong(Exception):
    pass


@pytest.fixture
def cli(run):
    """The `run` fixture under a time guard, turning an uncaught exception into a clear failure
    (the real command would print a traceback and exit 1)."""

    def invoke(*args: str, seconds: float = 30) -> tuple[int, str, str]:
        def expire(number, frame):
            raise TookTooLong

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return run(*args)
        except TookTooLong:
            pytest.fail(f"baccarat-odds {shown_args(args)} ran longer than {seconds} s")
        except Exception as error:  # noqa: BLE001 - any escape is a traceback for the user
            pytest.fail(f"baccarat-odds {shown_args(args)} raised {type(error).__name__}: {str(error)[:300]} (a traceback, exit 1)")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    return invoke


def shown_args(args) -> str:
    text = shlex.join(str(arg) for arg in args)
    return text if len(text) < 200 else text[:200] + "..."


def limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def as_in_a_terminal() -> None:
    """The memory limit, and Ctrl-C as a terminal delivers it: SIGINT at its default in the child,
    even where the tests run with it ignored (a background job, nohup), which the child would inherit."""
    limit_memory()
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_process(args, timeout: float = 60, cwd=None, interrupt_after: float | None = None,
                stdout=subprocess.PIPE) -> tuple[int, str, str, float]:
    """Run ``python -m exact_odds ARGS`` in its own session: (exit status, stdout, stderr, seconds).

    ``interrupt_after``: send SIGINT to its process group after that many seconds (a terminal's
    Ctrl-C). Past ``timeout`` the whole group is killed and the test fails."""
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "exact_odds", *map(str, args)], stdout=stdout,
                               stderr=subprocess.PIPE, cwd=cwd, start_new_session=True,
                               preexec_fn=limit_memory if interrupt_after is None else as_in_a_terminal)
    try:
        if interrupt_after is not None:
            try:
                process.wait(interrupt_after)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        pytest.fail(f"python -m exact_odds {shown_args(args)} ran longer than {timeout} s")
    return (process.returncode, (out or b"").decode("utf-8", "replace"), err.decode("utf-8", "replace"),
            time.monotonic() - started)


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder`` (hidden ones too): files by content, links by target."""
    entries: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            entries[name] = "-> " + os.readlink(path)
        elif path.is_dir():
            entries[name] = "dir"
        else:
            entries[name] = path.read_bytes()
    return entries


def bet_file(name: str, when: str, pays: str = "1", extra: str = "") -> str:
    """A bets file of one bet with one row (``when`` and ``pays`` as TOML basic strings)."""
    return f'[[bet]]\nname = "{name}"\n{extra}pays = [ {{ when = "{when}", pays = "{pays}" }} ]\n'


def json_bets(out: str) -> dict:
    return json.loads(out)["bets"]


# Expectations of a case: refused, or answered (exit 0, checked), or either.

REFUSE = "refuse"


class Answer:
    """Exit status 0 and ``check(stdout, cli)`` holds; with ``or_refuse``, a refusal is fine too."""

    def __init__(self, check: Callable[[str, Callable], None], or_refuse: bool = False):
        self.check = check
        self.or_refuse = or_refuse


def same_ev_as(bet: str, reference: tuple[str, ...], reference_bet: str | None = None) -> Callable:
    """The bet's exact expectation equals ``reference_bet``'s in the reference invocation."""

    def check(out: str, cli) -> None:
        code, reference_out, err = cli(*reference)
        assert code == 0, err
        assert json_bets(out)[bet]["expected_value"] == json_bets(reference_out)[reference_bet or bet]["expected_value"]

    return check


def same_ev_in_output(bet: str, as_bet: str) -> Callable:
    def check(out: str, cli) -> None:
        bets = json_bets(out)
        assert bets[bet]["expected_value"] == bets[as_bet]["expected_value"], (bets[bet]["expected_value"], bets[as_bet]["expected_value"])

    return check


def ev_is(bet: str, value: Fraction) -> Callable:
    def check(out: str, cli) -> None:
        assert Fraction(json_bets(out)[bet]["expected_value"]) == value

    return check


def tie_paying(bet: str, pay: int) -> Callable:
    """One deck, a tie paying ``pay`` to 1: EV = P(tie) pay - (1 - P(tie)) exactly, P(tie) from the
    plain invocation (`--decks 1 --format json`), whose outcomes and other bets are unchanged."""

    def check(out: str, cli) -> None:
        code, plain_out, err = cli("--decks", "1", "--format", "json")
        assert code == 0, err
        data, plain = json.loads(out), json.loads(plain_out)
        assert data["outcomes"] == plain["outcomes"]
        tie = Fraction(plain["outcomes"]["tie"]["probability"])
        assert Fraction(data["bets"][bet]["expected_value"]) == tie * pay - (1 - tie)
        for other in set(data["bets"]) - {bet}:
            assert data["bets"][other] == plain["bets"][other], other

    return check


def dealt_natural_8_7(bet: str, result: str) -> Callable:
    """The whole output of dealing 9S 5D 9H 2C with one bet of 100 that ends with ``result``."""

    def check(out: str, cli) -> None:
        width = max(len(bet), len("bet") + 2)
        assert out.splitlines() == [
            "player 9S 9H = 8; banker 5D 2C = 7",
            "natural: both hands stand",
            "player 8, banker 7: player wins",
            "",
            f"{'bet':{width}}  stake    result",
            f"{'-' * width}  -------  {'-' * max(len(result), 8)}",
            f"{bet:{width}}  100      {result}",
        ], out

    return check


def player_wins(amount: str) -> Callable:
    def check(out: str, cli) -> None:
        rows = [line.split() for line in out.splitlines()]
        assert ["player", amount, "wins", amount] in rows, out

    return check


def run_case(cli, tmp_path: Path, monkeypatch, args: list[str], files: dict[str, str | bytes | None], expect) -> tuple[int, str, str]:
    """Write ``files`` into tmp_path, run ``args`` ({tmp} is tmp_path) there, check ``expect`` and
    that tmp_path holds exactly what it held before."""
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            path.mkdir(exist_ok=True)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = cli(*(arg.replace("{tmp}", str(tmp_path)) for arg in args))
    if expect == REFUSE:
        assert_refused(code, out, err)
    else:
        assert_clean_stderr(err)
        if code == 2 and expect.or_refuse:
            assert err.startswith(ERROR_PREFIX)
        else:
            assert code == 0, f"expected an answer (exit 0), got exit {code}: {err[:300]!r}"
            expect.check(out, cli)
    assert snapshot(tmp_path) == before, "files were written or changed in the working folder"
    return code, out, err


# ---------------------------------------------------------------------------------------------
# Numbers: options that take a count, an exact number, a pay, a fraction
# ---------------------------------------------------------------------------------------------

DIGITS_5000 = "1" + "0" * 4999
NUMBER_CASES = [
    pytest.param(["--decks", "²"], {}, REFUSE, id="decks-superscript-2"),
    pytest.param(["--decks", "٣"], {}, REFUSE, id="decks-arabic-3"),
    pytest.param(["--decks", "１"], {}, REFUSE, id="decks-fullwidth-1"),
    pytest.param(["--decks", "1_0"], {}, REFUSE, id="decks-1_0"),
    pytest.param(["--decks", DIGITS_5000], {}, REFUSE, id="decks-5000-digits"),
    pytest.param(["--decks", ""], {}, REFUSE, id="decks-empty"),
    pytest.param(["--decks", "1e3"], {}, REFUSE, id="decks-1e3"),
    pytest.param(["--commission", "1_0"], {}, REFUSE, id="commission-1_0"),
    pytest.param(["--commission", "1" * 3000], {}, REFUSE, id="commission-3000-digits"),
    pytest.param(["--decks", "1", "--commission", "0.5" + "0" * 3000, "--format", "json"], {},
                 Answer(same_ev_as("banker", ("--decks", "1", "--commission", "0.5", "--format", "json")), or_refuse=True),
                 id="commission-0.5-then-3000-zeros"),
    pytest.param(["--commission", "٣"], {}, REFUSE, id="commission-arabic-3"),
    pytest.param(["--commission", "nan"], {}, REFUSE, id="commission-nan"),
    pytest.param(["--commission", "100"], {}, REFUSE, id="commission-100"),
    pytest.param(["deal", "9S", "5D", "9H", "2C", "--stake", "1e5"], {},
                 Answer(player_wins("100000"), or_refuse=True), id="stake-1e5"),
    pytest.param(["deal", "9S", "5D", "9H", "2C", "--stake", DIGITS_5000], {}, REFUSE, id="stake-5000-digits"),
    pytest.param(["deal", "9S", "5D", "9H", "2C", "--stake", "0"], {}, REFUSE, id="stake-0"),
    pytest.param(["deal", "9S", "5D", "9H", "2C", "--stake", "٣"], {}, REFUSE, id="stake-arabic-3"),
    pytest.param(["--shoe", "A=3,A=3"], {}, REFUSE, id="shoe-duplicate-rank"),
    pytest.param(["--shoe", "A=3,a=3"], {}, REFUSE, id="shoe-duplicate-rank-case"),
    pytest.param(["--shoe", "T=3,10=3"], {}, REFUSE, id="shoe-duplicate-T-and-10"),
    pytest.param(["--shoe", "A=1_0"], {}, REFUSE, id="shoe-count-1_0"),
    pytest.param(["--shoe", "A=" + DIGITS_5000], {}, REFUSE, id="shoe-count-5000-digits"),
    pytest.param(["--shoe", "A=٣,K=٣"], {}, REFUSE, id="shoe-count-arabic"),
    pytest.param(["--shoe", "A=-3,K=9"], {}, REFUSE, id="shoe-count-negative"),
    pytest.param(["--shoe", ",,,"], {}, REFUSE, id="shoe-only-commas"),
    pytest.param(["--tie-pays", "-1"], {}, REFUSE, id="tie-pays-minus-1"),
    pytest.param(["--tie-pays", "0"], {}, REFUSE, id="tie-pays-0"),
    pytest.param(["--tie-pays", "1_0"], {}, REFUSE, id="tie-pays-1_0"),
    # The project's rule (exact_odds/core/numbers.py): only ASCII digits are digits.
    pytest.param(["--tie-pays", "٣"], {}, REFUSE, id="tie-pays-arabic-3"),
    pytest.param(["--tie-pays", DIGITS_5000], {}, REFUSE, id="tie-pays-5000-digits"),
    pytest.param(["--decks", "1", "--tie-pays", "1" + "0" * 160, "--format", "json"], {},
                 Answer(tie_paying("tie", 10**160), or_refuse=True), id="tie-pays-10^160"),
    pytest.param(["--shoe", "A=6", "--remove", "K"], {}, REFUSE, id="remove-rank-not-in-shoe"),
    pytest.param(["--shoe", "9h=7", "--remove", "9s"], {}, REFUSE, id="remove-suit-not-in-shoe"),
    pytest.param(["--decks", "1", "--remove", "KS KS"], {}, REFUSE, id="remove-card-twice-from-1-deck"),
    pytest.param(["--decks", "inf", "--remove", "K"], {}, REFUSE, id="remove-from-infinite-deck"),
    pytest.param(["--decks", "1", "--remove", "K" * 5000], {}, REFUSE, id="remove-5000-char-token"),
    pytest.param(["--rules", "baccarat_gold", "--decks", "1", "--policy", "player_on_5=٠.٥"], {}, REFUSE,
                 id="policy-arabic-probability"),
    pytest.param(["--rules", "baccarat_gold", "--decks", "1", "--policy", "player_on_5=" + "1" * 5000], {}, REFUSE,
                 id="policy-5000-digits"),
]


@pytest.mark.parametrize("args,files,expect", NUMBER_CASES)
def test_numbers(cli, tmp_path, monkeypatch, args, files, expect):
    run_case(cli, tmp_path, monkeypatch, args, files, expect)


# ---------------------------------------------------------------------------------------------
# Bets files (--bets-file)
# ---------------------------------------------------------------------------------------------

TIE = "winner == tie"
MB_VALID = " or ".join([TIE] * 60_000)  # about 1 MB; the same event as a tie
MB_INVALID = MB_VALID + " or winner == bunker"
MB_GARBAGE = TIE + " " + "@" * 1_000_000
LATIN1 = ('[[bet]]\nname = "caf"\ndescription = "caf\xe9"\npays = [ { when = "winner == tie", pays = "8" } ]\n').encode("latin-1")
ANALYSE = ["--decks", "1", "--bets-file", "{tmp}/bets.toml", "--format", "json"]

BETS_FILE_CASES = [
    pytest.param(ANALYSE + ["--bets", "my_huge"], {"bets.toml": bet_file("my_huge", TIE, "1" + "0" * 160)},
                 Answer(tie_paying("my_huge", 10**160), or_refuse=True), id="pay-10^160"),
    pytest.param(ANALYSE + ["--bets", "my_huge"], {"bets.toml": bet_file("my_huge", TIE, DIGITS_5000)}, REFUSE,
                 id="pay-5000-digits"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[[bet]]\nname = "my_bet"\npays = "1"\n'}, REFUSE,
                 id="pays-a-string-not-a-list"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[[bet]]\nname = "my_bet"\npays = 1\n'}, REFUSE,
                 id="pays-an-integer-not-a-list"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[[bet]]\nname = "my_bet"\npays = { when = "true", pays = "1" }\n'},
                 REFUSE, id="pays-a-table-not-a-list"),
    # A bet that always wins and pays 1 to 1: expectation exactly 1.
    pytest.param(ANALYSE + ["--bets", "always"], {"bets.toml": bet_file("always", "true", "1")},
                 Answer(ev_is("always", Fraction(1))), id="when-true-always-wins"),
    pytest.param(ANALYSE + ["--bets", "never"], {"bets.toml": bet_file("never", "false", "1")},
                 Answer(ev_is("never", Fraction(-1))), id="when-false-never-wins"),
    pytest.param(["--shoe", "9h=7", "--bets-file", "{tmp}/bets.toml", "--format", "json", "--bets", "always"],
                 {"bets.toml": bet_file("always", "true", "1")},
                 Answer(ev_is("always", Fraction(1))), id="when-true-on-an-all-tie-shoe"),
    # Counted by hand: player 9 + 9 = 8 and banker 5 + 2 = 7, a natural; `true` wins at 1 to 1.
    pytest.param(["deal", "9S", "5D", "9H", "2C", "--bets", "always", "--bets-file", "{tmp}/bets.toml"],
                 {"bets.toml": bet_file("always", "true", "1")}, Answer(dealt_natural_8_7("always", "wins 100")), id="deal-when-true"),
    pytest.param(ANALYSE + ["--bets", "nested,tie"], {"bets.toml": bet_file("nested", "(" * 500 + TIE + ")" * 500, "8")},
                 Answer(same_ev_in_output("nested", "tie"), or_refuse=True), id="500-nested-parentheses"),
    pytest.param(ANALYSE + ["--bets", "nots,tie"], {"bets.toml": bet_file("nots", "not " * 10_000 + TIE, "8")},
                 Answer(same_ev_in_output("nots", "tie"), or_refuse=True), id="10000-nots"),
    pytest.param(ANALYSE + ["--bets", "big_when,tie"], {"bets.toml": bet_file("big_when", MB_VALID, "8")},
                 Answer(same_ev_in_output("big_when", "tie"), or_refuse=True), id="1MB-condition-valid"),
    pytest.param(ANALYSE + ["--bets", "big_when"], {"bets.toml": bet_file("big_when", MB_INVALID, "8")}, REFUSE,
                 id="1MB-condition-bad-value-at-the-end"),
    pytest.param(ANALYSE + ["--bets", "big_when"], {"bets.toml": bet_file("big_when", MB_GARBAGE, "8")}, REFUSE,
                 id="1MB-condition-garbage"),
    pytest.param(ANALYSE + ["--bets", "big_name"], {"bets.toml": bet_file("big_name", TIE, "8", 'description = "' + "x" * 1_000_000 + '"\n')},
                 Answer(same_ev_as("big_name", ("--decks", "1", "--format", "json", "--bets", "tie"), "tie"), or_refuse=True),
                 id="1MB-description"),
    # Ordering a feature that is not a number is meaningless: an error, not a silent code order.
    # Constants and bare true/false features are part of the language (README: `natural` is true/false).
    pytest.param(ANALYSE + ["--bets", "with_true,tie"], {"bets.toml": bet_file("with_true", "true and " + TIE, "8")},
                 Answer(same_ev_in_output("with_true", "tie")), id="true-and-a-comparison"),
    pytest.param(ANALYSE + ["--bets", "with_false,tie"], {"bets.toml": bet_file("with_false", TIE + " or false", "8")},
                 Answer(same_ev_in_output("with_false", "tie")), id="a-comparison-or-false"),
    pytest.param(ANALYSE + ["--bets", "bare,explicit"],
                 {"bets.toml": bet_file("bare", "banker_natural", "8") + bet_file("explicit", "banker_two_card_total >= 8", "8")},
                 Answer(same_ev_in_output("bare", "explicit")), id="bare-boolean-feature"),
    pytest.param(ANALYSE + ["--bets", "bare,explicit"],
                 {"bets.toml": bet_file("bare", "not not natural", "8")
                               + bet_file("explicit", "player_two_card_total >= 8 or banker_two_card_total >= 8", "8")},
                 Answer(same_ev_in_output("bare", "explicit")), id="not-not-boolean-feature"),
    # The player's 9 + 9 = 8 is a natural: the bare feature holds, 8 to 1 on 100.
    pytest.param(["deal", "9S", "5D", "9H", "2C", "--decks", "1", "--bets-file", "{tmp}/bets.toml", "--bets", "bare"],
                 {"bets.toml": bet_file("bare", "player_natural", "8")}, Answer(dealt_natural_8_7("bare", "wins 800")),
                 id="deal-bare-boolean-feature"),
    pytest.param(ANALYSE + ["--bets", "order"], {"bets.toml": bet_file("order", "winner < player")}, REFUSE,
                 id="order-winner-lt-player"),
    pytest.param(ANALYSE + ["--bets", "order"], {"bets.toml": bet_file("order", "player >= winner")}, REFUSE,
                 id="order-player-ge-winner-swapped"),
    pytest.param(ANALYSE + ["--bets", "order"], {"bets.toml": bet_file("order", "player_card1_suit > H")}, REFUSE,
                 id="order-suit"),
    pytest.param(ANALYSE + ["--bets", "order"], {"bets.toml": bet_file("order", "player_card1_color < red")}, REFUSE,
                 id="order-colour"),
    pytest.param(ANALYSE + ["--bets", "order"], {"bets.toml": bet_file("order", "natural < true")}, REFUSE,
                 id="order-boolean"),
    pytest.param(ANALYSE + ["--bets", "order"], {"bets.toml": bet_file("order", "player_card1_rank < K")}, REFUSE,
                 id="order-rank-A-low-or-high"),
    pytest.param(ANALYSE + ["--bets", "arabic"], {"bets.toml": bet_file("arabic", TIE, "٣")}, REFUSE, id="pay-arabic-3"),
    pytest.param(ANALYSE + ["--bets", "caf"], {"bets.toml": LATIN1}, REFUSE, id="latin-1-file"),
    pytest.param(ANALYSE + ["--bets", "caf"], {"bets.toml": b"\xff\xfe[\x00[\x00"}, REFUSE, id="utf-16-bytes"),
    # A user's banker would silently replace the catalog's banker: refused (also for every command).
    pytest.param(ANALYSE, {"bets.toml": bet_file("banker", "winner == player")}, REFUSE, id="redefine-banker"),
    pytest.param(["--bets-file", "{tmp}/bets.toml", "bets"], {"bets.toml": bet_file("banker", "winner == player")}, REFUSE,
                 id="redefine-banker-bets-listing"),
    pytest.param(["verify", "--bets-file", "{tmp}/bets.toml", "--bet", "banker"], {"bets.toml": bet_file("banker", "winner == player")},
                 REFUSE, id="redefine-banker-verify"),
    pytest.param(ANALYSE, {"bets.toml": bet_file("tie", "winner == player")}, REFUSE, id="redefine-tie"),
    pytest.param(ANALYSE, {"bets.toml": bet_file("dragon_7", "winner == player")}, REFUSE, id="redefine-dragon_7"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": bet_file("my_bet", TIE, extra='odds = "3"\n')}, REFUSE,
                 id="unknown-bet-key"),
    pytest.param(ANALYSE + ["--bets", "my_bet"],
                 {"bets.toml": '[[bet]]\nname = "my_bet"\npays = [ { when = "winner == tie", pays = "8", odds = "x" } ]\n'},
                 REFUSE, id="unknown-row-key"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[bets]\nname = "my_bet"\n'}, REFUSE, id="unknown-top-level-table"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": bet_file("my_bet", TIE) + bet_file("my_bet", TIE)}, REFUSE,
                 id="duplicate-bet-name"),
    pytest.param(ANALYSE, {"bets.toml": ""}, REFUSE, id="empty-file"),
    pytest.param(ANALYSE, {"bets.toml": "\n\n# nothing\n"}, REFUSE, id="only-comments"),
    pytest.param(ANALYSE, {"bets.toml": "[[bet]]\n"}, REFUSE, id="empty-bet-table"),
    pytest.param(ANALYSE, {"bets.toml": "bet = 5\n"}, REFUSE, id="bet-an-integer"),
    pytest.param(ANALYSE, {"bets.toml": "bet = [1, 2]\n"}, REFUSE, id="bet-a-list-of-integers"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[[bet]]\nname = "my_bet"\npays = [ { when = "winner == tie" } ]\n'},
                 REFUSE, id="row-without-pays"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[[bet]]\nname = "my_bet"\npays = [ { when = ["winner == tie"], pays = "8" } ]\n'},
                 REFUSE, id="when-a-list"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[[bet]]\nname = "my_bet"\npays = [ { when = 1, pays = "8" } ]\n'},
                 REFUSE, id="when-an-integer"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[[bet]]\nname = "my_bet"\npays = [ { when = "winner == tie", pays = 1e-7 } ]\n'},
                 REFUSE, id="pays-a-float-1e-7"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[[bet]]\nname = "my_bet"\npays = [ { when = "winner == tie", pays = nan } ]\n'},
                 REFUSE, id="pays-nan"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": '[[bet]]\nname = 5\npays = [ { when = "winner == tie", pays = "8" } ]\n'},
                 REFUSE, id="name-an-integer"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": bet_file("my_bet", "")}, REFUSE, id="empty-condition"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": bet_file("my_bet", "winner ==")}, REFUSE, id="condition-cut-short"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": bet_file("my_bet", "player_total in [")}, REFUSE, id="in-list-cut-short"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": bet_file("my_bet", "player_total == " + DIGITS_5000)}, REFUSE,
                 id="condition-5000-digit-literal"),
    pytest.param(ANALYSE + ["--bets", "my_bet"], {"bets.toml": bet_file("my_bet", "banker_total == ٣")}, REFUSE,
                 id="condition-arabic-digit"),
    pytest.param(["--decks", "1", "--bets-file", "{tmp}/folder"], {"folder": None}, REFUSE, id="directory-as-bets-file"),
    pytest.param(["--decks", "1", "--bets-file", "{tmp}/missing.toml"], {}, REFUSE, id="missing-bets-file"),
    pytest.param(["--decks", "1", "--bets-file", ""], {}, REFUSE, id="empty-bets-file-path"),
    pytest.param(["--decks", "1", "--bets-file", "/proc/self/mem"], {}, REFUSE, id="bets-file-proc-self-mem"),
]


@pytest.mark.parametrize("args,files,expect", BETS_FILE_CASES)
def test_bets_files(cli, tmp_path, monkeypatch, args, files, expect):
    run_case(cli, tmp_path, monkeypatch, args, files, expect)


def six_hearts_coups() -> int:
    """Ordered 6-card sequences of one deck whose coup deals six cards, all hearts (Punto Banco)."""
    heart_values = {value: 1 for value in range(1, 10)} | {0: 4}

    def deals_six(cards: list[int]) -> bool:
        player_1, banker_1, player_2, banker_2, player_3, _ = cards
        player, banker = (player_1 + player_2) % 10, (banker_1 + banker_2) % 10
        if player >= 8 or banker >= 8 or player >= 6:
            return False
        return (banker <= 2 or (banker == 3 and player_3 != 8) or (banker == 4 and 2 <= player_3 <= 7)
                or (banker == 5 and 4 <= player_3 <= 7) or (banker == 6 and player_3 in (6, 7)))

    def count(prefix: list[int], left: dict[int, int]) -> int:
        if len(prefix) == 6:
            return int(deals_six(prefix))
        total = 0
        for value, copies in left.items():
            if copies:
                total += copies * count(prefix + [value], left | {value: copies - 1})
        return total

    return count([], heart_values)


def test_suited_bet_reading_all_six_slots(tmp_path):
    """A bet on the suits of all six slots: answered correctly or refused, quickly, within 4 GiB."""
    slots = [f"{side}_card{number}_suit == H" for side in ("player", "banker") for number in (1, 2, 3)]
    (tmp_path / "bets.toml").write_text(bet_file("six_hearts", " and ".join(slots), "1"))
    code, out, err, seconds = run_process(["--decks", "1", "--bets-file", tmp_path / "bets.toml", "--bets", "six_hearts",
                                           "--format", "json"], timeout=30)
    assert_clean_stderr(err)
    assert "MemoryError" not in err
    if code == 2:
        assert err.startswith(ERROR_PREFIX)
        return
    assert code == 0, f"exit {code}: {err[-500:]!r}"
    win = Fraction(six_hearts_coups(), 52 * 51 * 50 * 49 * 48 * 47)
    assert Fraction(json_bets(out)["six_hearts"]["expected_value"]) == 2 * win - 1


def test_third_card_suit_bet_answers_quickly(tmp_path):
    """One third-card suit on one deck (a bet a user writes in a minute) must not take minutes; by
    the symmetry of suits, P(player's third card is a heart) = P(player draws) / 4 exactly."""
    (tmp_path / "bets.toml").write_text(bet_file("third_heart", "player_card3_suit == H", "1") + bet_file("draws", "player_cards == 3", "1"))
    code, out, err, seconds = run_process(["--decks", "1", "--bets-file", tmp_path / "bets.toml", "--bets", "third_heart,draws",
                                           "--format", "json"], timeout=30)
    assert_clean_stderr(err)
    if code == 2:
        assert err.startswith(ERROR_PREFIX)
        return
    assert code == 0, err[-500:]
    bets = json_bets(out)
    draws = (Fraction(bets["draws"]["expected_value"]) + 1) / 2
    assert Fraction(bets["third_heart"]["expected_value"]) == 2 * draws / 4 - 1


# ---------------------------------------------------------------------------------------------
# verify --data files with malformed records
# ---------------------------------------------------------------------------------------------

HOUSE_EDGE = 'id = "x"\nmeasure = "house_edge"\nbet = "banker"\nvalue = "1.06%"\nsource = "s"\nurl = "u"\n'
EOR = 'id = "x"\nmeasure = "effect_of_removal"\nbet = "banker"\nrank = "T"\nvalue = "188"\nscale = "10000000"\nsource = "s"\nurl = "u"\n'
MATRIX_SIZE = 'id = "x"\nmeasure = "matrix_size"\nrules = "chemin_de_fer_b2"\nvalue = "2 x 2^484"\nsource = "s"\nurl = "u"\n'


def figure(body: str) -> dict[str, str]:
    return {"figures.toml": "[[figure]]\n" + body}


VERIFY = ["verify", "--data", "{tmp}/figures.toml"]


def verified_ok(percent: str | None = None) -> Callable:
    """The one record x matches; given ``percent``, its computed figure is that at the places
    printed (the banker's 8-deck edge: 1.0579%, multiplayerbaccarat.com, as in test_analysis.py)."""

    def check(out: str, cli) -> None:
        lines = out.splitlines()
        assert "1 figures: 1 as expected, 0 mismatch, 0 stale known-wrong marks" in lines, out
        [row] = [line.split() for line in lines if line.split()[:1] == ["x"]]
        assert row[-1] == "ok", out
        if percent is not None:
            places = len(percent.split(".")[1])
            assert round(Fraction(row[2].removesuffix("%")), places) == Fraction(percent), row

    return check


VERIFY_CASES = [
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = 8\n"), Answer(verified_ok("1.0579")), id="valid-record-control"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = [8]\n"), REFUSE, id="decks-a-list"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = "8"\n'), REFUSE, id="decks-a-string"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = true\n"), REFUSE, id="decks-true"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = 1.5\n"), REFUSE, id="decks-1.5"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = 8.0\n"), REFUSE, id="decks-8.0"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = 0\n"), REFUSE, id="decks-0"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = -8\n"), REFUSE, id="decks-negative"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = nan\n"), REFUSE, id="decks-nan"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = { n = 8 }\n"), REFUSE, id="decks-a-table"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = "INF"\n'), REFUSE, id="decks-INF-upper"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = 8\nremoved = -1\n"), REFUSE, id="removed-minus-1"),
    pytest.param(VERIFY, figure(EOR + "decks = 8\nremoved = -1\n"), REFUSE, id="eor-removed-minus-1"),
    pytest.param(VERIFY, figure(EOR + "decks = 8\nremoved = 0\n"), REFUSE, id="eor-removed-0"),
    pytest.param(VERIFY, figure(EOR + 'decks = 8\nremoved = "1"\n'), REFUSE, id="eor-removed-a-string"),
    pytest.param(VERIFY, figure(EOR + "decks = 1\nremoved = 5\n"), REFUSE, id="eor-removed-more-than-the-deck-holds"),
    pytest.param(VERIFY, figure(EOR + "decks = 8\nremoved = 1000000000000000000\n"), REFUSE, id="eor-removed-10^18"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = 8\nscale = "0"\n'), REFUSE, id="scale-string-0"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = 8\nscale = 0\n"), REFUSE, id="scale-integer-0"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = 8\nscale = true\n"), REFUSE, id="scale-true"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = 8\nscale = 1.5\n"), REFUSE, id="scale-float"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = 8\nscale = "1/0"\n'), REFUSE, id="scale-1-over-0"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = 8\nscale = "' + DIGITS_5000 + '"\n'), REFUSE, id="scale-5000-digits"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = 8\nscale = ["1"]\n'), REFUSE, id="scale-a-list"),
    pytest.param(VERIFY, figure(EOR + 'decks = "inf"\n'), REFUSE, id="eor-decks-inf"),
    pytest.param(VERIFY, figure(EOR.replace('rank = "T"\n', 'rank = "Z"\n') + "decks = 8\n"), REFUSE, id="eor-unknown-rank"),
    pytest.param(VERIFY, figure(EOR.replace('rank = "T"\n', "rank = 10\n") + "decks = 8\n"), REFUSE, id="eor-rank-an-integer"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = 8\ncolour = "red"\n'), REFUSE, id="unknown-field"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = 8\n"" = "x"\n'), REFUSE, id="empty-field-name"),
    pytest.param(VERIFY, figure(HOUSE_EDGE.replace('value = "1.06%"', "value = 1.06") + "decks = 8\n"), REFUSE, id="value-a-float"),
    pytest.param(VERIFY, figure(HOUSE_EDGE.replace('value = "1.06%"', "value = 1") + "decks = 8\n"), REFUSE, id="value-an-integer"),
    pytest.param(VERIFY, figure(HOUSE_EDGE.replace('value = "1.06%"', 'value = ["1.06%"]') + "decks = 8\n"), REFUSE, id="value-a-list"),
    pytest.param(VERIFY, figure(HOUSE_EDGE.replace('value = "1.06%"', "value = true") + "decks = 8\n"), REFUSE, id="value-true"),
    pytest.param(VERIFY, figure(HOUSE_EDGE.replace('value = "1.06%"', 'value = "1e5"') + "decks = 8\n"), REFUSE, id="value-1e5"),
    pytest.param(VERIFY, figure(HOUSE_EDGE.replace('value = "1.06%"', 'value = "' + DIGITS_5000 + '"') + "decks = 8\n"),
                 REFUSE, id="value-5000-digits"),
    pytest.param(VERIFY, figure(HOUSE_EDGE.replace('value = "1.06%"', 'value = "١٫٠٦%"') + "decks = 8\n"), REFUSE,
                 id="value-arabic-digits"),
    pytest.param(VERIFY, figure(HOUSE_EDGE.replace('bet = "banker"', "bet = 1") + "decks = 8\n"), REFUSE, id="bet-an-integer"),
    pytest.param(VERIFY, figure(HOUSE_EDGE.replace('measure = "house_edge"', 'measure = "HOUSE_EDGE"') + "decks = 8\n"), REFUSE,
                 id="measure-upper-case"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + "decks = 8\nhand_pairs = 1\n"), REFUSE, id="hand_pairs-an-integer"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = 8\npolicy = "player_on_5=draw"\n'), REFUSE, id="policy-under-punto-banco"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = 8\nrules = "/etc/passwd"\n'), REFUSE, id="rules-a-path"),
    pytest.param(VERIFY, figure('id = "x"\nmeasure = "combinations"\nwhen = "winner < player"\nvalue = "1"\nsource = "s"\nurl = "u"\ndecks = 1\n'),
                 REFUSE, id="when-ordering-winner"),
    pytest.param(VERIFY, figure('id = "x"\nmeasure = "combinations"\nwhen = 5\nvalue = "1"\nsource = "s"\nurl = "u"\ndecks = 1\n'),
                 REFUSE, id="when-an-integer"),
    # hand_pairs counts the first two cards of each hand: a coup feature cannot be counted that way.
    pytest.param(VERIFY, figure('id = "x"\nmeasure = "combinations"\nwhen = "winner == tie"\nhand_pairs = true\nvalue = "1"\n'
                                'source = "s"\nurl = "u"\ndecks = 1\n'), REFUSE, id="hand_pairs-with-a-coup-feature"),
    pytest.param(VERIFY, figure('id = "x"\nmeasure = "combinations"\nwhen = "banker_third_card == 3"\nhand_pairs = true\n'
                                'value = "1"\nsource = "s"\nurl = "u"\ndecks = 1\n'), REFUSE, id="hand_pairs-with-a-third-card"),
    pytest.param(VERIFY, figure(MATRIX_SIZE + 'decks = "any"\n'), Answer(verified_ok()), id="matrix-size-control"),
    *(pytest.param(VERIFY, figure(MATRIX_SIZE.replace('"2 x 2^484"', f'"{size}"') + 'decks = "any"\n'), REFUSE, id=f"matrix-size-{size}")
      for size in ("2x2^484", "2 X 2^484", "2 × 2^484", "2 x 2^0484", "3 x 2^484", "2 x 2^", "2 x 2^0", "2 x 2^1234567", "2 x 4^242",
                   "2 x 2^484 x 2", " 2 x 2^484", "2 x 2**484", "2 x 2^-1", "2 x 2^٤٨٤")),
    pytest.param(VERIFY, figure(MATRIX_SIZE + 'decks = "some"\n'), REFUSE, id="matrix-size-decks-some"),
    pytest.param(VERIFY, figure(MATRIX_SIZE + "decks = 0\n"), REFUSE, id="matrix-size-decks-0"),
    pytest.param(VERIFY, figure(MATRIX_SIZE + 'decks = "any"\nbet = "banker"\n'), REFUSE, id="matrix-size-with-a-bet"),
    pytest.param(VERIFY, figure(MATRIX_SIZE + 'decks = "any"\nshoes = 10\n'), REFUSE, id="matrix-size-with-shoes"),
    pytest.param(VERIFY, figure(MATRIX_SIZE.replace("chemin_de_fer_b2", "chemin_de_fer_c") + 'decks = "any"\n'), REFUSE,
                 id="matrix-size-unknown-rules"),
    pytest.param(VERIFY, figure(MATRIX_SIZE.replace('rules = "chemin_de_fer_b2"\n', "rules = 2\n") + 'decks = "any"\n'), REFUSE,
                 id="matrix-size-rules-an-integer"),
    pytest.param(VERIFY, figure(HOUSE_EDGE + 'decks = "any"\n'), REFUSE, id="decks-any-for-a-house-edge"),
    pytest.param(VERIFY, {"figures.toml": "figure = 3\n"}, REFUSE, id="figure-an-integer"),
    pytest.param(VERIFY, {"figures.toml": "figure = [1, 2]\n"}, REFUSE, id="figure-a-list-of-integers"),
    pytest.param(VERIFY, {"figures.toml": ""}, REFUSE, id="empty-file"),
    pytest.param(VERIFY, {"figures.toml": ("[[figure]]\n" + HOUSE_EDGE + 'decks = 8\nnote = "caf\xe9"\n').encode("latin-1")}, REFUSE,
                 id="latin-1-file"),
    pytest.param(VERIFY, {"figures.toml": "[[figure]]\n" + HOUSE_EDGE + "decks = 8\n[[figure]]\n" + HOUSE_EDGE + "decks = 8\n"}, REFUSE,
                 id="duplicate-id"),
    pytest.param(["verify", "--data", "{tmp}/folder"], {"folder": None}, REFUSE, id="directory-as-data-file"),
    pytest.param(["verify", "--data", ""], {}, REFUSE, id="empty-data-path"),
]


@pytest.mark.parametrize("args,files,expect", VERIFY_CASES)
def test_verify_data_files(cli, tmp_path, monkeypatch, args, files, expect):
    run_case(cli, tmp_path, monkeypatch, args, files, expect)


def test_verify_data_huge_deck_count_is_refused_or_answered(cli, tmp_path, monkeypatch):
    """decks = 10^30 in a record: a count no shoe holds; refused, or answered quickly and exactly
    (the banker's edge by the plain enumerator on that shoe; 1.06% at two places, as on the infinite deck)."""

    def banker_edge_of_10_30_decks(out: str, cli) -> None:
        from exact_odds.bets.bets import catalog
        from exact_odds.core.shoe import Shoe
        from exact_odds import analyze
        from exact_odds.engine.analysis import PlainEngine

        [record] = json.loads(out)["figures"]
        edge = -analyze(Shoe.decks(10**30), [catalog()["banker"]], engine=PlainEngine()).bets[0].expected_value
        assert Fraction(record["computed"]) == edge
        assert round(edge * 100, 2) == Fraction("1.06") and record["verdict"] == "ok"

    run_case(cli, tmp_path, monkeypatch, VERIFY + ["--format", "json"], figure(HOUSE_EDGE + "decks = 1000000000000000000000000000000\n"),
             Answer(banker_edge_of_10_30_decks, or_refuse=True))


# ---------------------------------------------------------------------------------------------
# Rules files (--rules FILE)
# ---------------------------------------------------------------------------------------------

def rules_toml(cli) -> str:
    code, out, err = cli("rules", "--format", "toml")
    assert code == 0, err
    return out


@pytest.mark.parametrize("edit", [
    pytest.param(lambda text: text.replace('tie_pays = "8"', f'tie_pays = "{DIGITS_5000}"'), id="tie_pays-5000-digits"),
    pytest.param(lambda text: text.replace('tie_pays = "8"', 'tie_pays = "٣"'), id="tie_pays-arabic"),
    pytest.param(lambda text: text.replace('commission = "5"', "commission = true"), id="commission-true"),
    pytest.param(lambda text: text.replace('commission = "5"', 'commission = "1_0"'), id="commission-1_0"),
    pytest.param(lambda text: text.replace("naturals = [8, 9]", 'naturals = "8"'), id="naturals-a-string"),
    pytest.param(lambda text: text.replace("naturals = [8, 9]", "naturals = [8, 99]"), id="naturals-out-of-range"),
    pytest.param(lambda text: text.replace('player_sees = "total"', 'player_sees = "everything"'), id="player_sees-unknown"),
    pytest.param(lambda text: text + 'colour = "red"\n', id="unknown-field"),
    pytest.param(lambda text: "", id="empty"),
])
def test_rules_files(cli, tmp_path, monkeypatch, edit):
    text = edit(rules_toml(cli))
    run_case(cli, tmp_path, monkeypatch, ["--decks", "1", "--rules", "{tmp}/rules.toml"], {"rules.toml": text}, REFUSE)


def test_rules_file_latin1_and_directory(cli, tmp_path, monkeypatch):
    text = rules_toml(cli).replace('name = "Punto Banco"', 'name = "Punto Banco caf\xe9"')
    run_case(cli, tmp_path, monkeypatch, ["--decks", "1", "--rules", "{tmp}/rules.toml"], {"rules.toml": text.encode("latin-1")}, REFUSE)
    run_case(cli, tmp_path, monkeypatch, ["--decks", "1", "--rules", "{tmp}/folder"], {"folder": None}, REFUSE)


# ---------------------------------------------------------------------------------------------
# deal: the cards must be in the shoe
# ---------------------------------------------------------------------------------------------

DEAL_CASES = [
    pytest.param(["deal", "--decks", "1", "KS", "KS", "KS", "KS", "KS", "KS"], id="six-KS-from-one-deck"),
    pytest.param(["deal", "--decks", "1", "KS", "KS"], id="two-KS-from-one-deck-mid-coup"),
    pytest.param(["deal", "--shoe", "A=6", "K", "K", "K", "K"], id="kings-from-a-shoe-of-aces"),
    pytest.param(["deal", "--decks", "1", "--remove", "KS", "KS"], id="a-removed-card-dealt"),
    pytest.param(["deal", "--decks", "1", *(["9S"] * 5000)], id="5000-cards"),
    pytest.param(["deal", "--decks", "1", "٩S"], id="arabic-rank"),
    pytest.param(["deal", "--decks", "1", "9S", "5D", "9H", "2C", "3H"], id="a-card-too-many"),
]


@pytest.mark.parametrize("args", DEAL_CASES)
def test_deal(cli, tmp_path, monkeypatch, args):
    run_case(cli, tmp_path, monkeypatch, args, {}, REFUSE)


def test_deal_an_empty_card_argument(cli, tmp_path, monkeypatch):
    """`deal ""`: no card at all; refused, or the odds of a fresh coup (cards seen: none)."""
    run_case(cli, tmp_path, monkeypatch, ["deal", "--decks", "1", ""], {}, Answer(fresh_one_deck_odds, or_refuse=True))


def fresh_one_deck_odds(out: str, cli) -> None:
    """The odds of a fresh coup: the outcomes and expectations of the plain `--decks 1 --format json`."""
    code, plain_out, err = cli("--decks", "1", "--format", "json")
    assert code == 0, err
    plain = json.loads(plain_out)
    head, outcomes, bets = out.rstrip("\n").split("\n\n")
    assert head == "cards seen: none; drawing from 1 deck (52 cards) less those cards (52 left)", out
    assert {name: row[1:3] for name, row in table_rows(outcomes).items()} == {
        name: [f"{value['combinations']:,}", value["probability"]] for name, value in plain["outcomes"].items()}
    assert {name: row[1] for name, row in table_rows(bets).items()} == {name: bet["expected_value"] for name, bet in plain["bets"].items()}


def table_rows(table: str) -> dict[str, list[str]]:
    """A plain table's rows below its heading and rule, by first cell (no cell holds a space)."""
    return {line.split()[0]: line.split() for line in table.splitlines()[2:]}


# ---------------------------------------------------------------------------------------------
# export --out: refused before any work, the user's files untouched, nothing left behind
# ---------------------------------------------------------------------------------------------

EXPORT = ["export", "--decks", "1", "--no-formulas", "--no-chemin", "--bets", "banker"]


def test_export_out_empty_never_writes_into_the_current_folder(cli, tmp_path, monkeypatch):
    run_case(cli, tmp_path, monkeypatch, [*EXPORT, "--out", ""], {}, REFUSE)
    run_case(cli, tmp_path, monkeypatch, [*EXPORT, "--out", " "], {}, REFUSE)


@pytest.mark.parametrize("out", ["/proc/exact-odds-hostile", "/proc/self/exact-odds-hostile/deeper", "/dev/null", "/dev/null/sub"])
def test_export_out_unwritable_system_paths(cli, tmp_path, monkeypatch, out):
    run_case(cli, tmp_path, monkeypatch, [*EXPORT, "--out", out], {}, REFUSE)


def test_export_out_under_a_regular_file(cli, tmp_path, monkeypatch):
    run_case(cli, tmp_path, monkeypatch, [*EXPORT, "--out", "{tmp}/plain.txt/results"], {"plain.txt": "mine\n"}, REFUSE)
    run_case(cli, tmp_path, monkeypatch, [*EXPORT, "--out", "{tmp}/plain.txt"], {"plain.txt": "mine\n"}, REFUSE)


def test_export_out_in_a_read_only_folder(cli, tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as root: a 0o500 folder is writable")
        run_case(cli, tmp_path, monkeypatch, [*EXPORT, "--out", "{tmp}/locked/results"], {}, REFUSE)
    finally:
        locked.chmod(0o700)


def test_export_refuses_a_folder_of_the_users_own_files(cli, tmp_path, monkeypatch):
    files = {"work/thesis.tex": "my thesis\n", "work/README.md": "my readme\n", "work/decks-1.csv": "my own table\n"}
    run_case(cli, tmp_path, monkeypatch, [*EXPORT, "--out", "{tmp}/work"], files, REFUSE)


def test_export_force_keeps_the_users_own_files(cli, tmp_path, monkeypatch):
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "thesis.tex").write_text("my thesis\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(*EXPORT, "--out", str(tmp_path / "work"), "--force")
    assert_clean_stderr(err)
    assert code == 0, err
    assert (tmp_path / "work" / "thesis.tex").read_text() == "my thesis\n"
    assert (tmp_path / "work" / "decks-1.json").exists()
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["work"], "a staging folder was left behind"


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_export_never_writes_through_a_symlink_in_the_target(cli, tmp_path, monkeypatch, force):
    """A link named like an export file, pointing outside: the file it points to is never written."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "out"
    target.mkdir()
    for name in ("decks-1.csv", "README.md", "manifest.json"):
        (target / name).symlink_to(victim)
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = cli(*EXPORT, "--out", str(target), *(["--force"] if force else []))
    assert_clean_stderr(err)
    assert victim.read_text() == "precious\n"
    if not force:
        assert_refused(code, out, err)
        assert snapshot(tmp_path) == before
    elif code == 2:
        assert err.startswith(ERROR_PREFIX)
        assert snapshot(tmp_path) == before
    else:
        assert code == 0, err
        assert not any(path.is_symlink() for path in target.iterdir())
        assert snapshot(target) == plain_export(cli, tmp_path / "plain", EXPORT)


def test_export_to_a_symlinked_folder_leaves_its_files_alone(cli, tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir()
    (real / "mine.txt").write_text("mine\n")
    (tmp_path / "link").symlink_to(real)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(*EXPORT, "--out", str(tmp_path / "link"))
    assert_refused(code, out, err)
    assert (real / "mine.txt").read_text() == "mine\n"
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["link", "real"]


def plain_export(cli, folder: Path, args: list[str]) -> dict[str, bytes | str]:
    """What the plain invocation ``args --out folder`` writes."""
    code, out, err = cli(*args, "--out", str(folder))
    assert code == 0, err
    return snapshot(folder)


@pytest.mark.parametrize("decks", ["1-100000000", "0", "5-2", "-1", "1-", "-", "", ",", "²", "1_0", "1-" + DIGITS_5000, "inf-8"])
def test_export_deck_lists(cli, tmp_path, monkeypatch, decks):
    """Refused at once (a long range must not start computing), nothing written."""
    run_case(cli, tmp_path, monkeypatch, ["export", "--decks", decks, "--no-formulas", "--no-chemin", "--bets", "banker", "--out", "{tmp}/results"],
             {}, REFUSE)


def test_export_a_deck_count_given_three_times(cli, tmp_path, monkeypatch):
    """`--decks 1,1,1`: refused with nothing written, or the very files of `--decks 1`."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("export", "--decks", "1,1,1", "--no-formulas", "--no-chemin", "--bets", "banker", "--out", str(tmp_path / "results"),
                         seconds=10)
    assert_clean_stderr(err)
    if code == 2:
        assert err.startswith(ERROR_PREFIX)
        assert list(tmp_path.iterdir()) == []
        return
    assert code == 0, err
    assert snapshot(tmp_path / "results") == plain_export(cli, tmp_path / "plain", EXPORT)


def test_export_long_deck_range_is_refused_fast(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    started = time.process_time()
    code, out, err = cli("export", "--decks", "1-100000000", "--out", str(tmp_path / "results"), seconds=5)
    assert_refused(code, out, err)
    assert time.process_time() - started < 2
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# --plot to an unwritable path: refused before computing
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("plot", ["/proc/x.png", "{tmp}/plain.txt/x.png", "{tmp}/missing/x.png", "", "{tmp}/folder"])
def test_eor_plot_unwritable_is_refused_before_computing(cli, tmp_path, monkeypatch, plot):
    code, out, err = run_case(cli, tmp_path, monkeypatch, ["eor", "--decks", "8", "--plot", plot],
                              {"plain.txt": "mine\n", "folder": None}, REFUSE)
    assert out == "", "the report was computed and printed before the plot path was refused"


@pytest.mark.parametrize("plot", ["/proc/x.png", "{tmp}/plain.txt/x.png"])
def test_simulate_plot_unwritable_is_refused_before_computing(tmp_path, plot):
    (tmp_path / "plain.txt").write_text("mine\n")
    before = snapshot(tmp_path)
    # 100,000 eight-deck shoes take minutes: a refusal within the time limit came first.
    code, out, err, seconds = run_process(["simulate", "--decks", "8", "--shoes", "100000", "--workers", "1",
                                           "--plot", plot.replace("{tmp}", str(tmp_path))], timeout=30, cwd=tmp_path)
    assert_refused(code, out, err)
    assert out == ""
    assert snapshot(tmp_path) == before


# ---------------------------------------------------------------------------------------------
# simulate: shoe size, seeds, penetration, workers, scheduler (in a subprocess: worker processes)
# ---------------------------------------------------------------------------------------------

SIMULATE = ["simulate", "--shoes", "2", "--workers", "1"]
SIMULATE_REFUSALS = [
    pytest.param(["simulate", "--decks", "1000000000", "--shoes", "1", "--workers", "1"], id="decks-1000000000"),
    pytest.param(["simulate", "--shoe", "A=999999999999", "--shoes", "1", "--workers", "1"], id="shoe-of-a-trillion-aces"),
    pytest.param([*SIMULATE, "--decks", "1", "--seed", "-5"], id="seed-minus-5"),
    pytest.param([*SIMULATE, "--decks", "1", "--seed", DIGITS_5000], id="seed-5000-digits"),
    pytest.param([*SIMULATE, "--decks", "1", "--seed", "٣"], id="seed-arabic"),
    pytest.param([*SIMULATE, "--decks", "1", "--penetration", "garbage"], id="penetration-garbage"),
    pytest.param([*SIMULATE, "--decks", "1", "--penetration", "0"], id="penetration-0"),
    pytest.param([*SIMULATE, "--decks", "1", "--penetration", "1"], id="penetration-1"),
    pytest.param([*SIMULATE, "--decks", "1", "--penetration", DIGITS_5000], id="penetration-5000-digits"),
    pytest.param([*SIMULATE, "--decks", "1", "--penetration", "0." + "9" * 4998], id="penetration-0.999-5000-chars"),
    pytest.param([*SIMULATE, "--decks", "1", "--penetration", "٠.٥"], id="penetration-arabic"),
    pytest.param([*SIMULATE, "--decks", "1", "--penetration", "1/0"], id="penetration-1-over-0"),
    pytest.param([*SIMULATE, "--decks", "1", "--penetration", "nan"], id="penetration-nan"),
    pytest.param([*SIMULATE, "--decks", "1", "--penetration", "0.5_0"], id="penetration-underscore"),
    pytest.param([*SIMULATE, "--decks", "1", "--count", "5=" + DIGITS_5000], id="count-5000-digits"),
    pytest.param([*SIMULATE, "--decks", "1", "--count", "5=١"], id="count-arabic"),
    pytest.param([*SIMULATE, "--decks", "1", "--count", "5=1,5=2"], id="count-duplicate-rank"),
    pytest.param(["simulate", "--decks", "1", "--shoes", "0", "--workers", "1"], id="shoes-0"),
    pytest.param(["simulate", "--decks", "1", "--shoes", DIGITS_5000, "--workers", "1"], id="shoes-5000-digits"),
    pytest.param(["simulate", "--decks", "inf", "--shoes", "1", "--workers", "1"], id="infinite-deck"),
    pytest.param(["simulate", "--decks", "1", "--shoes", "1", "--workers", "0"], id="workers-0"),
    pytest.param([*SIMULATE, "--decks", "1", "--scheduler", "garbage"], id="scheduler-garbage"),
    pytest.param([*SIMULATE, "--decks", "1", "--scheduler", "tcp://127.0.0.1:9"], id="scheduler-nothing-listening"),
    pytest.param([*SIMULATE, "--decks", "1", "--scheduler", "tcp://127.0.0.1:99999"], id="scheduler-port-out-of-range"),
]


@pytest.mark.parametrize("args", SIMULATE_REFUSALS)
def test_simulate_refusals(tmp_path, args):
    code, out, err, seconds = run_process(args, timeout=45, cwd=tmp_path)
    assert_refused(code, out, err)
    assert list(tmp_path.iterdir()) == []


def test_simulate_workers_1000_is_capped_or_refused(tmp_path):
    code, out, err, seconds = run_process(["simulate", "--decks", "1", "--shoes", "2", "--workers", "1000"], timeout=60, cwd=tmp_path)
    assert_clean_stderr(err)
    if code == 2:
        assert err.startswith(ERROR_PREFIX)
    else:
        assert code == 0, err[-500:]
        assert out.startswith("2 shoes of 1 deck"), out[:300]
    assert seconds < 30


# ---------------------------------------------------------------------------------------------
# Ctrl-C (exit 130) and a closed output pipe
# ---------------------------------------------------------------------------------------------

def test_ctrl_c_during_simulate_is_130(tmp_path):
    code, out, err, seconds = run_process(["simulate", "--decks", "8", "--shoes", "100000", "--workers", "2"],
                                          timeout=60, cwd=tmp_path, interrupt_after=4)
    assert code == 130, f"exit {code}: {err[-500:]!r}"
    assert_clean_stderr(err)


def test_ctrl_c_during_the_analysis_is_130(tmp_path):
    code, out, err, seconds = run_process(["simulate", "--shoes", "1000000", "--workers", "1", "--format", "json"], timeout=60, cwd=tmp_path, interrupt_after=3)
    assert code == 130, f"exit {code}: {err[-500:]!r}"
    assert_clean_stderr(err)


def test_ctrl_c_during_export_leaves_nothing_behind(tmp_path):
    code, out, err, seconds = run_process(["export", "--decks", "1-8", "--out", tmp_path / "results"], timeout=60, cwd=tmp_path,
                                          interrupt_after=2)
    assert code == 130, f"exit {code}: {err[-500:]!r}"
    assert_clean_stderr(err)
    assert list(tmp_path.iterdir()) == [], f"left behind: {[entry.name for entry in tmp_path.iterdir()]}"


@pytest.mark.parametrize("args", [
    ["--decks", "8", "--bets", "all"],
    ["--decks", "1", "--format", "json"],
    ["bets"],
    ["deal", "9S", "5D", "9H", "2C"],
    ["rules"],
], ids=lambda args: " ".join(args))
def test_closed_stdout_pipe(args):
    """`baccarat-odds ... | head -0`: the reader is gone before the first write."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        code, out, err, seconds = run_process(args, timeout=60, stdout=writer)
    finally:
        os.close(writer)
    assert code != 0, "exit 0 although the output was lost"
    assert_clean_stderr(err, max_lines=1)
    assert "Exception ignored" not in err


def test_output_lost_midway_is_one_line_and_status_1(monkeypatch, capsys):
    """A pipe closed after the first lines (`... | head -1` with more output than the pipe holds):
    the write fails midway. (Simulated in-process: how much a real pipe absorbs varies by system.)"""
    import io

    from exact_odds.cli.commands import main

    class ClosedAfterOneLine(io.StringIO):
        def write(self, text):
            super().write(text[: text.find("\n") + 1])
            if self.getvalue().count("\n") >= 1 and text.count("\n") > 1:
                raise BrokenPipeError(32, "Broken pipe")
            return len(text)

        def fileno(self):
            return os.open(os.devnull, os.O_WRONLY)

    monkeypatch.setattr(sys, "stdout", ClosedAfterOneLine())
    with pytest.raises(SystemExit) as exit_info:
        main(["rules"])
    main_err = capsys.readouterr().err
    assert exit_info.value.code == 1
    assert main_err.strip() == "baccarat-odds: error: the output was closed before it was all written"


# ---------------------------------------------------------------------------------------------
# Fuzz: random argument lists, random bets files, random verify files
# ---------------------------------------------------------------------------------------------
# Each value is drawn mostly from valid ones (so that examples reach the computation) and
# sometimes from hostile text or a value of the wrong type.

def mostly(valid, rare, odds: int = 3):
    """``odds`` times in ``odds + 1`` ``valid``, else ``rare``."""
    return st.integers(0, odds).flatmap(lambda pick: rare if pick == 0 else valid)


HOSTILE_TEXT = ["", " ", "-", "--", "0", "-1", "1_0", "²", "٣", "１", "1e5", "nan", "inf", "-inf", "1/0", "0/0",
                DIGITS_5000, "9" * 13, "999999999999", "0x10", "1,5", "1.5.5", "5%", "%", "'", '"', "\\", "\x00", "\n",
                "é", "🂡", "=", "==", ",", "A=", "=3", "../../etc/passwd"]
small_text = st.text(max_size=12)
hostile = st.sampled_from(HOSTILE_TEXT) | small_text

SHOES = ["A=2,K=2,9=2", "9h=7", "A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=4,J=4,Q=4,K=4", "K=6", "5=3,6=3", "A=1", "9h=3,9s=3,8d=1",
         "ah=1,2h=1,3h=1,4h=1,5h=1,6h=1,7h=1,8h=1,9h=1,th=1,jh=1,qh=1,kh=1"]
CHEAP_BETS = ["banker", "player", "tie", "dragon_7", "panda_8", "player_pair", "either_pair", "lucky_6", "egalite_5",
              "big", "tie_9to1", "no_commission_banker"]
CARDS = ["9S", "5D", "9H", "2C", "KS", "AH", "10h", "TD", "5", "K", "3c"]

OPTION_VALUES = {
    "--decks": mostly(st.sampled_from(["1", "2", "inf", "1", "8"]), hostile),
    "--shoe": mostly(st.sampled_from(SHOES), hostile),
    "--remove": mostly(st.sampled_from(["5 5 K", "9h", "A", "KS KS", "K,Q", "9S 9S 9S 9S 9S", "10"]), hostile),
    "--commission": mostly(st.sampled_from(["4", "0", "2.5", "5%", "99.99", "100"]), hostile),
    "--tie-pays": mostly(st.sampled_from(["8", "9", "7.5", "5 for 1", "push"]), hostile),
    "--bets": mostly(st.lists(st.sampled_from(CHEAP_BETS), min_size=1, max_size=3).map(",".join),
                     st.sampled_from(["nonsense", "BANKER", "", ",", "banker,,tie"]) | hostile),
    "--rules": mostly(st.sampled_from(["punto_banco", "baccarat_gold"]), hostile),
    "--policy": mostly(st.sampled_from(["player_on_5=draw", "player_on_5=stand", "player_on_5=9/11", "punto_banco"]),
                       st.sampled_from(["player_on_5=2", "banker_on_3_vs_8=draw", "player_on_1+4=draw", "player_on_5=draw,player_on_5=stand"])
                       | hostile),
    "--format": mostly(st.sampled_from(["table", "json", "csv", "markdown"]), st.sampled_from(["text", "latex", "toml"]) | hostile),
    "--stake": mostly(st.sampled_from(["100", "2.5", "5/2", "0.01"]), hostile),
    "--shoes": mostly(st.sampled_from(["1", "2"]), st.sampled_from(["0", "-1"]) | hostile),
    "--seed": mostly(st.sampled_from(["0", "1", "4294967296", "18446744073709551616"]), st.just("-5") | hostile),
    "--penetration": mostly(st.sampled_from(["14/16", "0.5", "1/2", "0.99"]), st.sampled_from(["0", "1"]) | hostile),
    "--count": mostly(st.sampled_from(["5=1,6=-1", "1,1,1,1,1,1,1,1,1,1,1,1,1", "A=-1,K=1"]), st.sampled_from(["Z=1", "5=1,5=1"]) | hostile),
}
COMMAND_OPTIONS = {
    None: ["--decks", "--shoe", "--remove", "--commission", "--tie-pays", "--bets", "--rules", "--policy", "--format"],
    "deal": ["--decks", "--shoe", "--remove", "--commission", "--tie-pays", "--bets", "--rules", "--policy", "--stake"],
    "eor": ["--decks", "--shoe", "--remove", "--bets", "--rules", "--policy", "--format"],
    "simulate": ["--decks", "--shoe", "--remove", "--bets", "--shoes", "--seed", "--penetration", "--count", "--rules", "--policy"],
    "bets": ["--bets", "--rules", "--commission", "--tie-pays"],
    "rules": ["--rules", "--format"],
}


@st.composite
def argument_lists(draw) -> list[str]:
    """A command, up to four of its options with values, and cards for `deal`; always a small shoe."""
    command = draw(st.sampled_from(list(COMMAND_OPTIONS)))
    names = draw(st.lists(st.sampled_from(COMMAND_OPTIONS[command]), max_size=4))
    if command in (None, "deal", "eor", "simulate") and not {"--decks", "--shoe"} & set(names):
        names.append("--decks")
    args = [] if command is None else [command]
    for name in names:
        value = draw(OPTION_VALUES[name])
        if name == "--decks" and value == "8" and command == "simulate":
            value = "1"
        args += [name, value]
    if command == "deal":
        args += draw(st.lists(mostly(st.sampled_from(CARDS), hostile), min_size=1, max_size=6))
    if command == "simulate":
        args += ["--workers", "1"] + ([] if "--shoes" in names else ["--shoes", "2"])
    if command not in (None, "rules") and draw(st.integers(0, 4)) == 0:
        # a shared option before the command (valid or not for that command)
        name = draw(st.sampled_from(["--decks", "--bets", "--commission"]))
        args = [name, draw(OPTION_VALUES[name])] + args
    return args


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(args=argument_lists())
def test_fuzz_arguments(cli, args):
    code, out, err = cli(*args, seconds=60)
    event(f"{args[0] if args[0] in COMMAND_OPTIONS else 'analysis'}: exit {code}")
    assert code in (0, 2), f"exit {code} for {shown_args(args)}: {err[-500:]!r}"
    assert_clean_stderr(err)
    if code == 2:
        assert err.startswith(ERROR_PREFIX), err[:300]


# TOML written by hand: any Python value of the kinds TOML has.

def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_string(key)} = {toml_value(item)}" for key, item in value.items()) + " }"
    raise TypeError(value)


def toml_string(text: str) -> str:
    """A TOML basic string: quote, backslash and control characters escaped, the rest as is."""
    escaped = "".join(f"\\u{ord(char):04x}" if ord(char) < 0x20 or ord(char) == 0x7F or char in '"\\' else char for char in text)
    return f'"{escaped}"'


def toml_tables(name: str, records: list[dict]) -> str:
    return "".join(f"[[{name}]]\n" + "".join(f"{toml_string(key)} = {toml_value(value)}\n" for key, value in record.items())
                   for record in records)


scalars = (st.integers(-3, 60) | st.sampled_from([10**18, -(2**63), 2**63 - 1]) | st.booleans()
           | st.floats(allow_nan=True, allow_infinity=True) | hostile)
anything = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(small_text, inner, max_size=2), max_leaves=4)
"""A value of any TOML type."""

# Conditions from the language's grammar, kept to features that are cheap to count on one deck
# (a third card's rank or suit is exercised by the dedicated tests above).
NUMERIC = {"player_total": ["0", "7", "9"], "banker_total": ["6", "8"], "player_two_card_total": ["5", "0"],
           "banker_third_card": ["-1", "3", "7"], "player_third_card": ["-1", "8"], "total_cards": ["4", "5", "6"],
           "margin": ["0", "9", "-9"], "banker_card2_value": ["0", "9"], "player_card1_value": ["1", "5"]}
CATEGORICAL = {"winner": ["banker", "player", "tie"], "player_card1_rank": ["K", "A", "10", "T"], "banker_card1_rank": ["9", "q"],
               "player_card1_suit": ["H", "s"], "player_card2_color": ["red", "black"], "natural": ["true", "false"],
               "player_natural": ["true", "false"]}
BAD_VALUES = ["bunker", "10", "-1", "x", "٣", DIGITS_5000, "Z", "banker_total", "winner", ""]
numeric = st.sampled_from(sorted(NUMERIC)).flatmap(lambda feature: st.builds(
    lambda operator, value: f"{feature} {operator} {value}", st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
    mostly(st.sampled_from(NUMERIC[feature]), st.sampled_from(BAD_VALUES), odds=12)))
categorical = st.sampled_from(sorted(CATEGORICAL)).flatmap(lambda feature: st.builds(
    lambda operator, value: f"{feature} {operator} {value}",
    mostly(st.sampled_from(["==", "!="]), st.sampled_from(["<", ">=", "="]), odds=12),
    mostly(st.sampled_from(CATEGORICAL[feature]), st.sampled_from(BAD_VALUES), odds=12)))
memberships = st.sampled_from(sorted(NUMERIC)).flatmap(lambda feature: st.builds(
    lambda values: f"{feature} in [{', '.join(values)}]", st.lists(st.sampled_from(NUMERIC[feature]), min_size=1, max_size=3)))
atoms = mostly(numeric | categorical | memberships | st.sampled_from(["true", "false", "natural", "banker_natural"]),
               st.sampled_from(["not", "(", ")", "and", "", "winner", "nonsense == 1", "player_total in []", "player_total in [1,"]),
               odds=12)
conditions = st.recursive(atoms, lambda inner: st.builds(lambda left, op, right: f"{left} {op} {right}", inner, st.sampled_from(["and", "or", "AND"]), inner)
                          | inner.map(lambda text: f"not {text}") | inner.map(lambda text: f"({text})"), max_leaves=5)
good_pays = st.sampled_from(["8", "19/20", "0.95", "5 for 1", "1 to 1", "3:2", "push", "lose", "40", "1.5"])
bad_pays = st.sampled_from(["0", "-1", "1/0", "٣", "1e3", "5 for 0", ""]) | anything

good_rows = st.fixed_dictionaries({"when": conditions, "pays": good_pays}, optional={"event": small_text})


@st.composite
def bet_records(draw) -> dict:
    """A valid [[bet]] record, then up to two fields (of the bet or of a row) replaced by random
    values of any type, or dropped (a field the format does not know may be added)."""
    record: dict = {"name": draw(st.sampled_from(["my_bet", "my_other", "third_one"])),
                    "pays": draw(st.lists(good_rows, min_size=1, max_size=3))}
    if draw(st.booleans()):
        record["description"] = draw(small_text)
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        where = record
        rows = [row for row in record.get("pays", []) if isinstance(row, dict)] if isinstance(record.get("pays"), list) else []
        if draw(st.booleans()) and rows:
            where = draw(st.sampled_from(rows))
        field = draw(st.sampled_from(["when", "pays", "event", "odds"] if where is not record else ["name", "description", "pays", "odds"]))
        replacement = {"name": st.sampled_from(["banker", "Bad Name", "", "dragon_7", "x" * 100]), "pays": bad_pays,
                       "when": st.sampled_from(["", "winner", "winner < player", "player_total == " + DIGITS_5000])}.get(field, st.nothing())
        if draw(st.booleans()):
            where[field] = draw(replacement | anything)
        else:
            where.pop(field, None)
    return record


@FUZZ
@given(records=st.lists(bet_records(), min_size=1, max_size=3), command=st.sampled_from(["analysis", "deal", "bets", "eor"]))
def test_fuzz_bets_files(cli, tmp_path, records, command):
    path = tmp_path / "fuzz-bets.toml"
    path.write_text(toml_tables("bet", records), encoding="utf-8")
    names = [record["name"] for record in records if isinstance(record.get("name"), str) and record["name"].isidentifier()]
    chosen = ",".join(dict.fromkeys(names)) or "banker"
    if command == "analysis":
        args = ["--decks", "1", "--bets-file", str(path), "--bets", chosen, "--format", "json"]
    elif command == "deal":
        args = ["deal", "9S", "5D", "9H", "2C", "--decks", "1", "--bets-file", str(path), "--bets", chosen]
    elif command == "eor":
        args = ["eor", "--decks", "1", "--bets-file", str(path), "--bets", chosen]
    else:
        args = ["bets", "--bets-file", str(path)]
    code, out, err = cli(*args, seconds=60)
    event(f"{command}: exit {code}")
    assert code in (0, 2), f"exit {code} for {path.read_text()[:500]!r}: {err[-500:]!r}"
    assert_clean_stderr(err)
    if code == 2:
        assert err.startswith(ERROR_PREFIX), err[:300]


PRINTED = st.sampled_from(["1.06%", "45.86%", "-0.0000188", "2,292,252,566,437,888", "~10.1%", "0.5", "123", "-178", "1.0579 per cent"])
FIGURE_FIELDS = ["id", "measure", "decks", "value", "source", "url", "bet", "when", "rank", "removed", "scale", "hand_pairs", "rules",
                 "policy", "known_wrong", "printed_as", "colour"]


@st.composite
def figure_records(draw) -> dict:
    """A valid [[figure]] record of a random measure, then up to two fields replaced by random values
    of any type, or dropped (and sometimes a field the format does not know)."""
    measure = draw(st.sampled_from(["house_edge", "combinations", "probability", "expected_value", "effect_of_removal",
                                    "house_edge_excluding_pushes", "matrix_size"]))
    record: dict = {"id": draw(st.sampled_from(["a", "b", "c"])), "measure": measure,
                    "decks": draw(st.sampled_from([1, 2] if measure == "effect_of_removal" else [1, 2, "inf"])),
                    "value": draw(PRINTED), "source": "s", "url": "u"}
    if measure == "matrix_size":
        record.update({"decks": draw(st.sampled_from([1, "inf", "any"])), "value": draw(st.sampled_from(["2 x 2^88", "2^5 x 2^484", "1 x 1", "2x2"])),
                       "rules": draw(st.sampled_from(["chemin_de_fer_a", "chemin_de_fer_b3", "punto_banco"]))})
    elif measure in ("combinations", "probability"):
        record["when"] = draw(conditions)
        record["hand_pairs"] = draw(st.booleans())
    else:
        record["bet"] = draw(st.sampled_from(CHEAP_BETS))
    if measure == "effect_of_removal":
        record["rank"] = draw(st.sampled_from(["T", "K", "5", "10", "a"]))
        record["removed"] = draw(st.integers(1, 4))
        record["scale"] = draw(st.sampled_from(["10000000", "1", "100", 1000]))
    if measure != "matrix_size" and draw(st.booleans()):
        record.update({"rules": "baccarat_gold", "policy": draw(st.sampled_from(["player_on_5=draw", "player_on_5=1/3"]))})
    for field in draw(st.lists(st.sampled_from(FIGURE_FIELDS), min_size=(mutations := draw(st.sampled_from([0, 0, 1, 1, 2]))),
                               max_size=mutations)):
        if draw(st.booleans()):
            record[field] = draw(anything | st.integers(-3, 60) | st.sampled_from([10**18, 0, "inf", "0"]))
        else:
            record.pop(field, None)
    return record


@FUZZ
@given(records=st.lists(figure_records(), min_size=1, max_size=3))
def test_fuzz_verify_files(cli, tmp_path, records):
    for number, record in enumerate(records):
        if record.get("id") in ("a", "b", "c"):
            record["id"] = f"figure-{number}"  # unique, unless a mutation chose the id
    path = tmp_path / "fuzz-figures.toml"
    path.write_text(toml_tables("figure", records), encoding="utf-8")
    code, out, err = cli("verify", "--data", str(path), seconds=60)
    event(f"verify: exit {code}")
    assert code in (0, 1, 2), f"exit {code} for {path.read_text()[:500]!r}: {err[-500:]!r}"
    assert_clean_stderr(err)
    if code == 2:
        assert err.startswith(ERROR_PREFIX), err[:300]
