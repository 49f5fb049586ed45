"""`baccarat-odds depth` (issue 31): the command's JSON, table and CSV against brute force, a dask
cluster run, a run stopped and resumed to the same bytes, and every refusal in one line.

The oracle: every n-subset of the physical cards of a small shoe is equally likely to be the cards
left; each subset's expectation is every ordering of six of its cards dealt by plain code
(tests/oracles.py), each bet settled by its pay table. The command's figures must equal those of
this list of subsets, as Fractions.
"""

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import pytest

from exact_odds.bets.bets import available_bets
from exact_odds.core.cards import SUITS, Card
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.studies import depth as depth_module
from oracles import brute_force_expectations

SHOE = "A=2,2=1,5=1,8=1,9=1,T=2"
BETS = ("banker", "player", "tie", "dragon_7")
LEVELS = ("0.01", "0.05", "0.25", "0.5", "0.75", "0.95", "0.99")


def subsets(spec: str, bets: tuple[str, ...], left: int) -> list[dict[str, Fraction]]:
    """Each bet's expectation on every ``left``-subset of the shoe's physical cards (by brute force)."""
    ranks = [rank for part in spec.split(",") for rank, count in [part.split("=")] for _ in range(int(count))]
    cards = [Card(rank, SUITS[place % 4]) for place, rank in enumerate(ranks)]  # suits to tell the physical cards apart
    catalog = available_bets(PUNTO_BANCO)
    known: dict[tuple[str, ...], dict[str, Fraction]] = {}
    found = []
    for chosen in combinations(range(len(cards)), left):
        held = Counter(cards[index] for index in chosen)
        key = tuple(sorted(card.rank for card in held.elements()))
        if key not in known:
            known[key] = brute_force_expectations([catalog[name] for name in bets], dict(held))
        found.append(known[key])
    return found


def quantile(values: list[Fraction], level: Fraction) -> Fraction:
    ordered = sorted(values)
    return next(value for place, value in enumerate(ordered, start=1) if Fraction(place, len(ordered)) >= level)


def test_json_equals_every_subset_dealt(run):
    code, out, err = run("depth", "--shoe", SHOE, "--cards-left", "6", "--bets", ",".join(BETS), "--format", "json")
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert (record["format"], record["counted_by"], record["bets"]) == ("exact_odds.depth", "value", list(BETS))
    assert [at["cards_left"] for at in record["depths"]] == [6]
    for at in record["depths"]:
        found = subsets(SHOE, BETS, at["cards_left"])
        assert at["total_weight"] == len(found) == comb(8, at["cards_left"])
        for name in BETS:
            values = [expectations[name] for expectations in found]
            figures = at["bets"][name]
            assert Fraction(figures["mean"]) == sum(values) / len(values) == Fraction(record["off_the_top"][name]["ev"])
            assert Fraction(figures["p_positive"]) == Fraction(sum(value > 0 for value in values), len(values))
            assert Fraction(figures["expected_positive"]) == sum(max(value, Fraction(0)) for value in values) / len(values)
            assert (Fraction(figures["lowest"]), Fraction(figures["highest"])) == (min(values), max(values))
            assert {level: Fraction(entry["ev"]) for level, entry in figures["quantiles"].items()} == {
                level: quantile(values, Fraction(level)) for level in LEVELS}
        best = [max(*expectations.values(), Fraction(0)) for expectations in found]
        assert Fraction(at["best"]["p_positive"]) == Fraction(sum(value > 0 for value in best), len(best))
        assert Fraction(at["best"]["expected_positive"]) == sum(best) / len(best)


HAND_SHOE = ("--shoe", "9=1,T=6", "--cards-left", "6", "--bets", "banker,player,tie")
"""docs/depth.md's shoe to check by hand: the 9 out (weight 1), a ten out (weight 6)."""


def test_table_and_csv_of_the_shoe_checked_by_hand(run):
    code, out, err = run("depth", *HAND_SHOE)
    assert (code, err) == (0, "")
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.split() and line.split()[0] in ("banker", "tie", "best")}
    # tie: mean 2/7, P(EV > 0) 1/7, E[max(0, EV)] 8/7, at -1 on weight 6 of 7 and 8 on weight 1
    assert rows["tie"] == ["28.5714%", "14.2857%", "114.2857%", "-100.0000%", *["-100.0000%"] * 5, "800.0000%", "800.0000%", "800.0000%"]
    # banker: -1/40 where a ten is out (6 of 7), 0 where the 9 is
    assert rows["banker"] == ["-2.1429%", "0.0000%", "0.0000%", "-2.5000%", *["-2.5000%"] * 5, "0.0000%", "0.0000%", "0.0000%"]
    assert rows["best"] == ["14.2857%", "114.2857%"]
    assert "6 cards left: 2 compositions, total weight C(7, 6) = 7" in out
    code, out, err = run("depth", *HAND_SHOE, "--format", "csv")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == ("cards_left,compositions,total_weight,bet,mean,p_positive,expected_positive,lowest,"
                        + ",".join(f"quantile_{level}" for level in LEVELS) + ",highest")
    assert lines[1:] == ["6,2,7,banker,-3/140,0,0,-1/40,-1/40,-1/40,-1/40,-1/40,-1/40,0,0,0",
                         "6,2,7,player,0,0,0,0,0,0,0,0,0,0,0,0",
                         "6,2,7,tie,2/7,1/7,8/7,-1,-1,-1,-1,-1,-1,8,8,8",
                         "6,2,7,best,,1/7,8/7,,,,,,,,,"]


def test_plot_drawn_and_a_users_file_kept(run, tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "depth.png"
    code, _, err = run("depth", *HAND_SHOE, "--plot", str(plot))
    assert (code, err) == (0, "") and plot.read_bytes().startswith(b"\x89PNG")
    theirs = tmp_path / "theirs.png"
    theirs.write_bytes(b"mine")
    code, out, err = run("depth", *HAND_SHOE, "--plot", str(theirs))
    assert (code, out, theirs.read_bytes()) == (2, "", b"mine")
    assert err.startswith("baccarat-odds: error: --plot ") and "this program did not write" in err


SMALL = ("--shoe", SHOE, "--cards-left", "6,7", "--bets", "banker,tie", "--format", "json")


def test_the_same_bytes_on_a_dask_cluster_and_on_local_workers(run):
    distributed = pytest.importorskip("distributed")
    _, alone, _ = run("depth", *SMALL, "--workers", "1")
    code, local, err = run("depth", *SMALL, "--workers", "2")
    assert (code, err, local) == (0, "", alone)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0") as cluster:
        code, clustered, err = run("depth", *SMALL, "--scheduler", cluster.scheduler_address)
    assert (code, err, clustered) == (0, "", alone)


def test_a_run_stopped_after_some_ranges_resumes_to_the_same_bytes(run, tmp_path, monkeypatch):
    monkeypatch.setattr(depth_module, "RANGE", 5)  # 5 compositions a range
    weigh = depth_module.weigh_range
    weighed: list[tuple[int, int]] = []

    def counted(walk_plan, start, stop):
        weighed.append((start, stop))
        return weigh(walk_plan, start, stop)

    def stopping(walk_plan, start, stop):
        if len(weighed) == 4:
            raise KeyboardInterrupt
        return counted(walk_plan, start, stop)

    monkeypatch.setattr(depth_module, "weigh_range", counted)
    _, whole, _ = run("depth", *SMALL, "--workers", "1")
    every = len(weighed)
    weighed.clear()
    monkeypatch.setattr(depth_module, "weigh_range", stopping)
    folder = tmp_path / "run"
    code, out, err = run("depth", *SMALL, "--workers", "1", "--resume", str(folder))
    assert (code, out, err) == (130, "", "baccarat-odds: interrupted\n")
    assert list(folder.glob("p1-*.json"))  # each range, or the sums of those of one n, kept
    weighed.clear()
    monkeypatch.setattr(depth_module, "weigh_range", counted)
    code, resumed, err = run("depth", *SMALL, "--workers", "1", "--resume", str(folder))
    assert (code, err, resumed) == (0, "", whole)
    assert len(weighed) == every - 4  # the 4 ranges weighed before the stop are read, not weighed again
    weighed.clear()
    code, again, err = run("depth", *SMALL, "--workers", "1", "--resume", str(folder))
    assert (code, err, again, weighed) == (0, "", whole, [])


def refusal(run, *args: str) -> str:
    code, out, err = run("depth", *args)
    assert (code, out) == (2, "") and err.count("\n") == 1 and err.startswith("baccarat-odds: error: ")
    return err.removeprefix("baccarat-odds: error: ").removesuffix("\n")


@pytest.mark.parametrize("args, message", [
    (("--decks", "1", "--cards-left", "53"), "--cards-left 53 is past the shoe: 1 deck holds 52 cards"),
    (("--decks", "1", "--cards-left", "5-8"), "--cards-left 5: a coup needs at least 6 cards"),
    (("--decks", "1", "--cards-left", "0"), "--cards-left 0: a coup needs at least 6 cards"),
    (("--decks", "1", "--cards-left", "26-18"), "--cards-left '26-18': a range runs from the smaller number to the larger"),
    (("--decks", "1", "--cards-left", "ten"), "--cards-left 'ten': expected numbers, ranges or ranges with a step, such as 6-26, 18,26,34 or 18-50/8"),
    (("--decks", "inf", "--cards-left", "18"), "--shoe: depth counts the cards left in a real shoe, not the infinite deck"),
    (("--decks", "1", "--cards-left", "18", "--bets", "banker,perfect_pair"),
     "--bets: perfect_pair reads suits or colours; depth counts compositions by value or rank, so bets on suits cannot be counted exactly"),
    (("--decks", "1", "--cards-left", "18", "--scheduler", "nowhere"), "--scheduler 'nowhere': expected a dask scheduler address such as tcp://host:8786"),
    (("--decks", "1", "--cards-left", "18", "--scheduler", "tcp://127.0.0.1:8786", "--workers", "2"),
     "--workers sets local worker processes, and --scheduler runs the ranges on the cluster's workers: give one"),
    (("--decks", "1", "--cards-left", "18", "--workers", "0"), "--workers must be at least 1, not '0'"),
    (("--decks", "1", "--cards-left", "18", "--resume", " "), "--resume is empty: name a results folder"),
])
def test_hostile_inputs_refused_in_one_line(run, args, message):
    assert refusal(run, *args) == message


def test_a_scheduler_that_does_not_answer_is_refused(run, tmp_path, monkeypatch):
    import socket

    monkeypatch.setattr("exact_odds.studies.parallel.CONNECT_SECONDS", 1)  # nothing listens: no need to wait dask's 5 s
    monkeypatch.setattr("exact_odds.studies.parallel.ANSWER_SECONDS", 2)

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    message = refusal(run, "--shoe", SHOE, "--cards-left", "6", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert message.startswith(f"--scheduler: no dask scheduler answers at tcp://127.0.0.1:{port} (")


def test_a_folder_of_another_run_is_refused(run, tmp_path):
    folder = tmp_path / "run"
    code, _, err = run("depth", "--shoe", SHOE, "--cards-left", "6", "--resume", str(folder))
    assert (code, err) == (0, "")
    assert refusal(run, "--shoe", SHOE, "--cards-left", "7", "--resume", str(folder)) == (
        f"--resume {str(folder)!r} holds the results of another run (its cards_left differs)")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert refusal(run, "--shoe", SHOE, "--cards-left", "6", "--resume", str(tmp_path / "other")) == (
        f"--resume {str(tmp_path / 'other')!r} is not empty and is no results folder: name a new or empty folder")
