"""`baccarat-odds shoe` (issue 31): a whole shoe dealt to the cut card, exact against every ordering
of small shoes dealt here, simulated within its standard errors of the exact figures, the same
bytes on local workers, on a dask cluster and after a run stopped and resumed; every refusal in one line.

The oracle deals every distinct sequence of point values of the shoe (each equally likely) by the
conventions of docs/shoe.md, written out below: the burn (turn a card, burn its value, ten for a
0), coups dealt while six cards are left, the cut card's coup finished and ``after_cut`` more. Before
each coup, each bet's expectation is that of the shoe less the cards seen (the burned ones unseen),
every ordered six cards of it dealt by the tableau below.
"""

import json
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from exact_odds.commands import shoe as shoe_command

PAYS = {"banker": (Fraction(19, 20), Fraction(-1), Fraction(0)), "player": (Fraction(-1), Fraction(1), Fraction(0)),
        "tie": (Fraction(-1), Fraction(-1), Fraction(8))}
"""Net pay of each bet when the banker wins, the player wins, a tie."""


def total(cards: tuple[int, ...]) -> int:
    return sum(cards) % 10


def coup(cards: tuple[int, ...]) -> tuple[int, int]:
    """Punto Banco from the cards in shoe order (point values): (the winner 0 banker / 1 player / 2 tie, cards used)."""
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    used = 4
    if total(tuple(player)) < 8 and total(tuple(banker)) < 8:
        third = None
        if total(tuple(player)) <= 5:
            third = cards[used]
            player.append(third)
            used += 1
        own = total(tuple(banker))
        if third is None:
            draws = own <= 5
        else:
            draws = own <= 2 or (own == 3 and third != 8) or (own == 4 and 2 <= third <= 7) or (own == 5 and 4 <= third <= 7) or (own == 6 and third in (6, 7))
        if draws:
            banker.append(cards[used])
            used += 1
    ours, theirs = total(tuple(banker)), total(tuple(player))
    return (0 if ours > theirs else 1 if theirs > ours else 2), used


@cache
def expectations(left: tuple[int, ...]) -> dict[str, Fraction]:
    """Each bet's expectation on the next coup from the cards ``left`` (a count per value), every
    ordered six cards weighed by its ways."""
    totals: Counter[int] = Counter()
    for cards in product([value for value in range(10) if left[value]], repeat=6):
        ways, remaining = 1, list(left)
        for value in cards:
            ways *= remaining[value]
            remaining[value] -= 1
        if ways:
            totals[coup(cards)[0]] += ways
    weight = sum(totals.values())
    return {name: sum((pays[winner] * ways for winner, ways in totals.items()), Fraction(0)) / weight for name, pays in PAYS.items()}


def orderings(counts: list[int]):
    """Every distinct sequence of point values with these counts."""
    if not any(counts):
        yield ()
        return
    for value, count in enumerate(counts):
        if count:
            counts[value] -= 1
            for rest in orderings(counts):
                yield (value, *rest)
            counts[value] += 1


def dealt(order: tuple[int, ...], cut_card: int, after_cut: int, burn: bool):
    """Each coup of the shoe dealt in ``order``: (the expectations before it, its winner)."""
    full = [order.count(value) for value in range(10)]
    seen = [0] * 10
    position = 0
    if burn:
        seen[order[0]] += 1
        position = 1 + (order[0] or 10)
    reached, after = position > cut_card, 0
    while len(order) - position >= 6 and not (reached and after >= after_cut):
        before = expectations(tuple(have - gone for have, gone in zip(full, seen)))
        winner, used = coup(order[position:])
        for value in order[position : position + used]:
            seen[value] += 1
        if reached:
            after += 1
        reached = reached or position + used > cut_card
        position += used
        yield before, winner


def brute_force(spec: dict[int, int], cut_card: int, after_cut: int, burn: bool) -> dict[str, Fraction]:
    counts = [spec.get(value, 0) for value in range(10)]
    shoes = coups = best = Fraction(0)
    results, perfect = Counter[str](), Counter[str]()
    for order in orderings(counts):
        shoes += 1
        for before, winner in dealt(order, cut_card, after_cut, burn):
            coups += 1
            best += max(0, *before.values())
            for name, pays in PAYS.items():
                results[name] += pays[winner]
                perfect[name] += max(Fraction(0), before[name])
    top = expectations(tuple(counts))
    figures = {"expected_coups": coups / shoes, "best": best / shoes}
    for name in PAYS:
        hold = results[name] / coups
        figures.update({f"{name} off_the_top": top[name], f"{name} hold_per_coup": hold, f"{name} cut_card_effect": hold - top[name],
                        f"{name} perfect_play": perfect[name] / shoes})
    return figures


def figures_of(record: dict) -> dict[str, Fraction]:
    found = {"expected_coups": Fraction(record["expected_coups"]), "best": Fraction(record["best"]["perfect_play"])}
    for name, entry in record["bets"].items():
        found.update({f"{name} {figure}": Fraction(entry[figure]) for figure in ("off_the_top", "hold_per_coup", "cut_card_effect", "perfect_play")})
    return found


CASES = [
    ("9=2,K=8", {9: 2, 0: 8}, 4, 0, False),
    ("A=3,2=3,K=6", {1: 3, 2: 3, 0: 6}, 5, 1, True),
    ("A=2,4=2,6=1,K=6", {1: 2, 4: 2, 6: 1, 0: 6}, 6, 2, False),
]


@pytest.mark.parametrize("spec, counts, cut, after, burn", CASES)
def test_exact_json_equals_every_ordering_dealt(run, spec, counts, cut, after, burn):
    code, out, err = run("shoe", "--shoe", spec, "--cut-card", str(cut), "--after-cut", str(after), "--burn" if burn else "--no-burn",
                         "--format", "json")
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert (record["format"], record["method"], record["method_reason"]) == ("exact_odds.shoe", "exact", "auto chose exact: the exact method counts this shoe")
    assert (record["cut_card"], record["after_cut"], record["burn"], record["shoes"], record["seed"]) == (cut, after, burn, None, None)
    assert figures_of(record) == brute_force(counts, cut, after, burn)


def test_the_table_of_the_shoe_checked_by_hand(run):
    code, out, err = run("shoe", "--shoe", "9=2,K=8", "--cut-card", "4", "--after-cut", "0", "--no-burn", "--method", "exact")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1] == "Method exact: 3 multisets of cards seen weighed."
    assert "Expected coups: 1.66667" in lines  # 5/3
    rows = {line.split()[0]: line.split()[1:] for line in lines if line.split() and line.split()[0] in ("banker", "tie", "best")}
    # banker: -17/900 off the top, -29/1500 per coup, -1/2250; tie: 6/5, 26/25, -4/25, perfect play 34/15
    assert rows == {"banker": ["-1.8889%", "-1.9333%", "-0.0444%", "0"], "tie": ["120.0000%", "104.0000%", "-16.0000%", "2.26667"],
                    "best": ["2.26667"]}


SIMULATED = ("--shoe", "A=3,2=3,K=6", "--cut-card", "5", "--method", "simulated", "--seed", "7")


def test_simulated_figures_lie_within_their_standard_errors_of_the_exact(run):
    code, out, err = run("shoe", *SIMULATED, "--shoes", "3000", "--workers", "1", "--format", "json")
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert (record["method"], record["shoes"], record["seed"], record["interrupted"], record["method_reason"]) == ("simulated", 3000, 7, False, None)
    exact = brute_force({1: 3, 2: 3, 0: 6}, 5, 1, True)
    checked = 0
    for key, value in exact.items():
        name, _, figure = key.rpartition(" ")
        entry = record["bets"][name] if name else record if figure == "expected_coups" else record["best"]
        figure = "perfect_play" if figure == "best" else figure
        if figure == "off_the_top":
            assert (Fraction(entry[figure]), entry[f"{figure}_standard_error"]) == (value, None)
            continue
        estimate, error = entry[f"{figure}_decimal"], entry[f"{figure}_standard_error"]
        assert entry[figure] is None and error is not None
        assert abs(estimate - float(value)) <= 4 * error + 1e-12, key
        checked += 1
    assert checked == 11  # expected coups, the best bet, 3 bets x (hold, effect, perfect play)


def test_auto_simulates_what_the_exact_method_cannot_count(run):
    code, out, err = run("shoe", "--shoe", "A=3,2=3,K=6", "--cut-card", "5", "--bets", "banker,player_pair", "--shoes", "20", "--workers", "1",
                         "--format", "json")
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert (record["method"], record["shoes"]) == ("simulated", 20)
    assert record["method_reason"] == ("auto chose simulated, as the exact method refuses: bet 'player_pair' reads card ranks or suits; "
                                       "the exact shoe tells cards apart by point value only (method simulated weighs it)")


def test_the_same_bytes_on_local_workers_and_on_a_dask_cluster(run, monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(shoe_command, "RANGE_SHOES", 10)
    _, alone, _ = run("shoe", *SIMULATED, "--shoes", "40", "--workers", "1", "--format", "json")
    code, local, err = run("shoe", *SIMULATED, "--shoes", "40", "--workers", "2", "--format", "json")
    assert (code, err, local) == (0, "", alone)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0") as cluster:
        code, clustered, err = run("shoe", *SIMULATED, "--shoes", "40", "--scheduler", cluster.scheduler_address, "--format", "json")
    assert (code, err, clustered) == (0, "", alone)


def test_a_run_stopped_after_some_ranges_resumes_to_the_same_bytes(run, tmp_path, monkeypatch):
    monkeypatch.setattr(shoe_command, "RANGE_SHOES", 10)
    weigh = shoe_command.weigh_shoes
    weighed: list[tuple[int, int]] = []

    def counted(study, first, last):
        weighed.append((first, last))
        return weigh(study, first, last)

    def stopping(study, first, last):
        if len(weighed) == 3:
            raise KeyboardInterrupt
        return counted(study, first, last)

    arguments = ("shoe", *SIMULATED, "--shoes", "60", "--workers", "1", "--format", "json")
    _, whole, _ = run(*arguments)
    folder = tmp_path / "run"
    monkeypatch.setattr(shoe_command, "weigh_shoes", stopping)
    code, part, err = run(*arguments, "--resume", str(folder))
    assert (code, err) == (130, "baccarat-odds: interrupted\n")
    assert (json.loads(part)["shoes"], json.loads(part)["interrupted"]) == (30, True)  # the shoes of the ranges finished, told as such
    assert sorted(path.name for path in folder.glob("shoes-*.json")) == ["shoes-0-10.json", "shoes-10-20.json", "shoes-20-30.json"]
    weighed.clear()
    monkeypatch.setattr(shoe_command, "weigh_shoes", counted)
    code, resumed, err = run(*arguments, "--resume", str(folder))
    assert (code, err, resumed) == (0, "", whole)
    assert weighed == [(30, 40), (40, 50), (50, 60)]  # no range computed twice
    weighed.clear()
    code, again, err = run(*arguments, "--resume", str(folder))
    assert (code, err, again, weighed) == (0, "", whole, [])


def refusal(run, *args: str) -> str:
    code, out, err = run("shoe", *args)
    assert (code, out) == (2, "") and err.count("\n") == 1 and err.startswith("baccarat-odds: error: ")
    return err.removeprefix("baccarat-odds: error: ").removesuffix("\n")


SMALL = ("--shoe", "9=2,K=8", "--no-burn")


@pytest.mark.parametrize("args, message", [
    (("--cut-card", "11"), "--cut-card 11 is past the shoe (10 cards)"),
    (("--cut-card", "-1"), "--cut-card must be a whole number from 0 (cards in front of the cut card), not -1"),
    (("--cut-card", "4", "--after-cut", "-1"), "--after-cut must be a whole number from 0 (coups dealt after the one in which the cut card appears), not -1"),
    (("--cut-card", "4", "--method", "exact", "--bets", "banker,player_pair"),
     "bet 'player_pair' reads card ranks or suits; the exact shoe tells cards apart by point value only (method simulated weighs it)"),
    (("--cut-card", "4", "--method", "exact", "--shoes", "100"), "--shoes sets the simulation; the exact method deals no shoes"),
    (("--cut-card", "4", "--seed", "3"), "--seed sets the simulation; the exact method (chosen by --method auto: give --method simulated to simulate) deals no shoes"),
    (("--cut-card", "4", "--method", "exact", "--resume", "folder"), "--resume runs the simulated method in ranges of shoes; the exact method counts in this process"),
    (("--cut-card", "4", "--workers", "2"),
     "--workers runs the simulated method in ranges of shoes; the exact method (chosen by auto: give method simulated to simulate) counts in this process"),
    (("--cut-card", "4", "--method", "simulated", "--scheduler", "nowhere"), "--scheduler 'nowhere': expected a dask scheduler address such as tcp://host:8786"),
    (("--cut-card", "4", "--method", "simulated", "--shoes", "0"), "--shoes must be at least 1, not '0'"),
    (("--cut-card", "4", "--method", "simulated", "--resume", " "), "--resume is empty: name a results folder"),
])
def test_hostile_inputs_refused_in_one_line(run, args, message):
    assert refusal(run, *SMALL, *args) == message


@pytest.mark.parametrize("args, message", [
    (("--decks", "inf", "--cut-card", "4"), "--shoe: the infinite deck has no cut card (give a shoe of real cards)"),
    (("--shoe", "9=2,K=3", "--cut-card", "4", "--no-burn"), "custom shoe 9=2,K=3 holds 5 cards; a coup needs a shoe of at least 6"),
    (("--shoe", "9=2,K=8", "--cut-card", "4"), "--shoe: 10 cards are too few for a coup after the burn (a coup needs six cards left)"),
    (("--decks", "2", "--cut-card", "80", "--method", "exact"),
     "--method exact would weigh 12,772,584,393 multisets of cards seen (at most 40,000,000): a smaller shoe or an earlier cut card, or method simulated"),
])
def test_shoes_refused_in_one_line(run, args, message):
    assert refusal(run, *args) == message


def test_a_scheduler_that_does_not_answer_is_refused(run, monkeypatch):
    import socket

    monkeypatch.setattr("exact_odds.studies.parallel.CONNECT_SECONDS", 1)  # nothing listens: no need to wait dask's 5 s
    monkeypatch.setattr("exact_odds.studies.parallel.ANSWER_SECONDS", 2)

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    message = refusal(run, *SMALL, "--cut-card", "4", "--method", "simulated", "--shoes", "10", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert message.startswith(f"--scheduler: no dask scheduler answers at tcp://127.0.0.1:{port} (")


def test_a_folder_of_another_run_is_refused(run, tmp_path):
    folder = tmp_path / "run"
    code, _, err = run("shoe", *SMALL, "--cut-card", "4", "--method", "simulated", "--shoes", "10", "--resume", str(folder))
    assert (code, err) == (0, "")
    assert refusal(run, *SMALL, "--cut-card", "5", "--method", "simulated", "--shoes", "10", "--resume", str(folder)) == (
        f"--resume {str(folder)!r} holds the results of another run (its cut_card differs)")


KILLED = """
import sys, time
from exact_odds.cli.commands import main
from exact_odds.commands import shoe
shoe.RANGE_SHOES = 10
weigh = shoe.weigh_shoes
def slowly(*arguments):
    time.sleep(0.3)
    return weigh(*arguments)
shoe.weigh_shoes = slowly
main(sys.argv[1:])
"""


def test_a_killed_run_resumes_to_the_same_bytes(run, tmp_path, monkeypatch):
    """A process killed (SIGKILL) between ranges or while it writes one: nothing half-written, the rest dealt on resuming."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    monkeypatch.setattr(shoe_command, "RANGE_SHOES", 10)
    arguments = ("shoe", *SIMULATED, "--shoes", "80", "--workers", "1", "--format", "json")
    folder = tmp_path / "run"
    killed = subprocess.Popen([sys.executable, "-c", KILLED, *arguments, "--resume", str(folder)], stdout=subprocess.DEVNULL,
                              env={**os.environ, "PYTHONPATH": str(Path(shoe_command.__file__).parents[2])})
    deadline = time.monotonic() + 120
    while len(list(folder.glob("shoes-*.json"))) < 2 and time.monotonic() < deadline and killed.poll() is None:
        time.sleep(0.05)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    kept = len(list(folder.glob("shoes-*.json")))
    assert 2 <= kept < 8
    _, whole, _ = run(*arguments)
    weigh = shoe_command.weigh_shoes
    weighed: list[tuple[int, int]] = []
    monkeypatch.setattr(shoe_command, "weigh_shoes", lambda study, first, last: weighed.append((first, last)) or weigh(study, first, last))
    code, resumed, err = run(*arguments, "--resume", str(folder))
    assert (code, err, resumed) == (0, "", whole)
    assert len(weighed) == 8 - kept
