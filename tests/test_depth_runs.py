"""How a `depth` run runs: resumed after an interruption or a kill with the same bytes and no
range weighed twice, on a dask cluster, and every input it cannot honour refused before any work."""

import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from exact_odds.core.shoe import Shoe
from exact_odds.errors import InputError
from exact_odds.studies import depth as depth_module
from exact_odds.studies.depth import DepthSettings, run_depth
from exact_odds.studies.ranges import ResultsFolder, Task, digest, executor_for, run_tasks

SHOE = "A=2,2=1,3=1,5=1,7=1,8=1,9=1,T=1"
SETTINGS = DepthSettings(shoe=Shoe.parse(SHOE), cards_left=(6, 7), bets=("banker", "tie"))
SMALL_RANGES = 5
"""Compositions per range in these tests: the 9-card shoe's 6 and 7 cards make 14 ranges."""


def record(study: depth_module.DepthStudy) -> str:
    return json.dumps(study.to_dict())


def saved(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.glob("p*.json"))


@pytest.fixture
def small_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(depth_module, "RANGE", SMALL_RANGES)


def test_interrupted_run_resumes_to_the_same_bytes(small_ranges: None, tmp_path: Path) -> None:
    whole = run_depth(SETTINGS)
    computed: list[int] = []

    def interrupt_after_three(progress: depth_module.Progress) -> None:
        if progress.computed:
            computed.append(progress.done)
        if len(computed) == 3:
            raise KeyboardInterrupt("stopped after three ranges")

    with pytest.raises(KeyboardInterrupt, match="stopped after three ranges"):
        run_depth(SETTINGS, resume=tmp_path / "run", progress=interrupt_after_three)
    assert len(saved(tmp_path / "run")) == 3
    resumed = run_depth(SETTINGS, resume=tmp_path / "run")
    assert record(resumed) == record(whole)
    assert (resumed.ranges_read, resumed.ranges_computed) == (3, whole.ranges_computed - 3)
    again = run_depth(SETTINGS, resume=tmp_path / "run")
    assert record(again) == record(whole) and (again.ranges_read, again.ranges_computed) == (whole.ranges_computed, 0)
    kept = saved(tmp_path / "run")  # each pass's ranges of each number of cards left, summed into one file
    assert kept == sorted(f"p{passes}-n{cards}.json" for passes, cards in {(int(name[1]), int(name.split("-n")[1].split(".")[0])) for name in kept})
    assert {"p1-n6.json", "p1-n7.json"} <= set(kept)


KILLED = """
import sys, time
from exact_odds.core.shoe import Shoe
from exact_odds.studies import depth
depth.RANGE = {ranges}
def slowly(progress):
    if progress.computed:
        time.sleep(0.2)
depth.run_depth(depth.DepthSettings(shoe=Shoe.parse("{shoe}"), cards_left=(6, 7), bets=("banker", "tie")), resume=sys.argv[1], progress=slowly)
"""


def test_killed_run_resumes_to_the_same_bytes(small_ranges: None, tmp_path: Path) -> None:
    """A process killed (SIGKILL) while it writes its results: the folder resumes, nothing lost or half-written."""
    folder = tmp_path / "run"
    worker = subprocess.Popen([sys.executable, "-c", KILLED.format(ranges=SMALL_RANGES, shoe=SHOE), str(folder)],
                              env={**os.environ, "PYTHONPATH": str(Path(depth_module.__file__).parents[2])})
    deadline = time.monotonic() + 120
    while len(saved(folder)) < 2 and time.monotonic() < deadline and worker.poll() is None:
        time.sleep(0.05)
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    assert len(saved(folder)) >= 2
    whole = run_depth(SETTINGS)
    resumed = run_depth(SETTINGS, resume=folder)
    assert record(resumed) == record(whole)
    assert resumed.ranges_read >= 2 and resumed.ranges_computed > 0 and resumed.ranges_read + resumed.ranges_computed == whole.ranges_computed


def test_same_bytes_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0") as cluster:
        clustered = run_depth(SETTINGS, scheduler=cluster.scheduler_address)
    assert record(clustered) == record(run_depth(SETTINGS))


def test_same_bytes_on_local_workers(small_ranges: None) -> None:
    assert record(run_depth(SETTINGS, workers=2)) == record(run_depth(SETTINGS))


@pytest.mark.parametrize(("fields", "parameter", "message"), [
    ({"cards_left": (500,), "shoe": Shoe.decks(8)}, "cards_left", "cards_left 500 is past the shoe: 8 decks holds 416 cards"),
    ({"cards_left": (5, 18)}, "cards_left", "cards_left 5: a coup needs at least 6 cards"),
    ({"cards_left": ()}, "cards_left", "cards_left must be one or more numbers of cards"),
    ({"cards_left": (6.5,)}, "cards_left", "cards_left must be whole numbers, not 6.5"),
    ({"bets": ("banker", "perfect_pair")}, "bets", "bets: perfect_pair reads suits or colours"),
    ({"bets": ("super_tie",)}, "bets", "bets: super_tie reads suits or colours"),
    ({"bets": ("bogus",)}, "bets", "bets: unknown bet 'bogus'"),
    ({"shoe": Shoe.infinite()}, "shoe", "shoe: depth counts the cards left in a real shoe, not the infinite deck"),
    ({"quantiles": (Fraction(1, 2), Fraction(1))}, "quantiles", "quantiles must be distinct fractions strictly between 0 and 1"),
    ({"quantiles": (0.5,)}, "quantiles", "quantiles must be distinct fractions strictly between 0 and 1, not"),
    ({"decisions": "punto_banco"}, "decisions", "decisions must be the rules with their choices fixed, not 'punto_banco'"),
    ({"shoe": Shoe.decks(100), "cards_left": (1000,)}, "cards_left", r"cards_left 1000: 2.62e\+21 compositions by value, beyond the 2\^62"),
])
def test_settings_refused(fields: dict[str, object], parameter: str, message: str) -> None:
    given = {"shoe": Shoe.decks(8), "cards_left": (18,), **fields}
    with pytest.raises(InputError, match=message) as refused:
        DepthSettings(**given)  # type: ignore[arg-type]
    assert refused.value.parameter == parameter and "\n" not in str(refused.value)


def test_scheduler_that_does_not_answer_is_refused_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr("exact_odds.studies.parallel.CONNECT_SECONDS", 1)  # nothing listens: no need to wait dask's 5 s
    monkeypatch.setattr("exact_odds.studies.parallel.ANSWER_SECONDS", 2)
    with pytest.raises(InputError, match=r"scheduler: no dask scheduler answers at tcp://127.0.0.1:9 \(") as refused:
        run_depth(SETTINGS, scheduler="tcp://127.0.0.1:9", resume=tmp_path / "run")
    assert refused.value.parameter == "scheduler" and saved(tmp_path / "run") == []


def test_folder_of_another_run_is_refused(tmp_path: Path) -> None:
    run_depth(SETTINGS, resume=tmp_path / "run")
    other = DepthSettings(shoe=Shoe.parse(SHOE), cards_left=(6,), bets=("banker", "tie"))
    with pytest.raises(InputError, match="resume '.*/run' holds the results of another run \\(its cards_left differs\\)") as refused:
        run_depth(other, resume=tmp_path / "run")
    assert refused.value.parameter == "resume"


def test_folders_that_are_no_results_folders_are_refused(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("keep me")
    with pytest.raises(InputError, match="resume '.*/notes' is not empty and is no results folder"):
        run_depth(SETTINGS, resume=tmp_path / "notes")
    assert (tmp_path / "notes" / "mine.txt").read_text() == "keep me"
    (tmp_path / "file").write_text("")
    with pytest.raises(InputError, match="resume '.*/file' is a file, not a results folder"):
        run_depth(SETTINGS, resume=tmp_path / "file")
    with pytest.raises(InputError, match="workers must be a whole number from 1, not 0"):
        run_depth(SETTINGS, workers=0)


def test_result_of_another_task_is_refused(tmp_path: Path) -> None:
    folder = ResultsFolder(tmp_path / "run", "example", {"n": 1})
    folder.save("a", digest((1, 2)), 3)
    with pytest.raises(InputError, match="holds the result of another task than this run's a"):
        folder.saved("a", digest((1, 3)))
    (tmp_path / "run" / "b.json").write_text('{"key": "b", "dige')  # not written whole by us: weighed again
    results: dict[str, object] = {}
    with executor_for(1, None) as pool:
        ran = run_tasks(pow, [Task("a", (1, 2), 1), Task("b", (2, 5), 1)], lambda task, result: results.update({task.key: result}), pool=pool,
                        folder=ResultsFolder(tmp_path / "run", "example", {"n": 1}))
    assert results == {"a": 3, "b": 32} and (ran.computed, ran.read) == (1, 1)
