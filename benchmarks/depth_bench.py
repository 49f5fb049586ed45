"""The targets of `depth` (issue 31), each figure beside its yardstick, in one run (asserts nothing).

    python benchmarks/depth_bench.py [--quick]

The machine is shared: every time is the CPU time of the processes that did the work (what two
or 64 dedicated cores would take), beside the wall time seen here.

1. 8 decks, 6 to 26 cards left, the main bets, Dragon 7 and Panda 8, on this machine's 2 local
   workers: the whole study run (every pass), CPU of all its processes / 2 against 15 minutes.
   (--quick: 6 to 20 cards left.)
2. 8 decks, 6 to 52 cards left, the 3 main bets, on 64 cores: the rate per core measured at every
   n on sample ranges (a first pass with its grids, a later pass), the passes each n takes
   estimated from its compositions (say so), scaled by a dask cluster's measured 1-to-2-worker
   efficiency, against 30 minutes.
3. Peak memory: the plans of every n from 6 to 52 held and a range of 52 cards walked; a run (its
   driver, its workers) of a few n near 26; against 1 GiB. Nothing grows with the compositions
   walked: they are streamed, and what a run keeps per n (its sums, grids and collected
   compositions) is bounded by the number of bets and levels.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from exact_odds.core.shoe import Shoe  # noqa: E402
from exact_odds.engine.walk import walk  # noqa: E402
from exact_odds.studies import depth  # noqa: E402
from exact_odds.studies.levels import COLLECT, PILOT, SUBGRID  # noqa: E402
from exact_odds.studies.ranges import Task, executor_for, run_tasks  # noqa: E402

FIVE = ("banker", "player", "tie", "dragon_7", "panda_8")
MAIN = ("banker", "player", "tie")
SAMPLE = 1 << 18
"""Compositions per sample range when measuring a rate per core."""


def line(label: str, ours: str, yardstick: str, ratio: str, target: str) -> None:
    print(f"  {label:<52} {ours:>16}  {yardstick:>14}  {ratio:>9}  {target}")


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def on_two_workers(quick: bool) -> None:
    last = 20 if quick else 26
    print(f"\n1. depth, 8 decks, 6-{last} cards left, main bets + dragon_7 + panda_8, 2 local workers (run in full)")
    line("", "exact_odds", "yardstick", "ratio", "target")
    settings = depth.DepthSettings(shoe=Shoe.decks(8), cards_left=tuple(range(6, last + 1)), bets=FIVE)
    started, cpu = time.perf_counter(), cpu_seconds()
    study = depth.run_depth(settings, workers=2)
    wall, used = time.perf_counter() - started, cpu_seconds() - cpu
    compositions = sum(at.compositions for at in study.depths)
    line("CPU of every process / 2 cores", f"{used / 2 / 60:.1f} min", "15 min", f"{used / 2 / 900:.2f}x", "<= 15 min (on 2 idle cores)")
    line("wall time on this shared machine", f"{wall / 60:.1f} min", f"load {os.getloadavg()[0]:.1f}", "", "")
    line("compositions; ranges weighed (all passes)", f"{compositions:,}", f"{study.ranges_computed} ranges", "", "")
    line("CPU per composition, every pass and bet", f"{used * 1e9 / compositions:.0f} ns", "", "", "")


def rates(cards: int, bets: tuple[str, ...]) -> tuple[float, float, float]:
    """Seconds of one core per composition at ``cards`` left: a first pass (sums, the pilot's
    grids) and a later one (a finer grid, no sums) over sample ranges; and the seconds to plan."""
    settings = depth.DepthSettings(shoe=Shoe.decks(8), cards_left=(cards,), bets=bets)
    began = time.process_time()
    plan = depth.plan(settings, cards)
    depth.check_plan(settings, plan)
    grids = depth.pilot(settings, plan)
    planning = time.process_time() - began
    count = plan.compositions.count
    starts = sorted({min(int(place * count), max(0, count - SAMPLE)) for place in (0.1, 0.5, 0.85)})
    first = plan.given(grids, ())
    finer = plan.given(tuple(np.linspace(int(grid[len(grid) // 2 - 1]), int(grid[len(grid) // 2]), SUBGRID).astype(np.int64) for grid in grids),
                       (), summing=False, bounded=True)
    timed = []
    for walk_plan in (first, finer):
        began, walked = time.process_time(), 0
        for start in starts:
            stop = min(count, start + SAMPLE)
            walk(walk_plan, start, stop)
            walked += stop - start
        timed.append((time.process_time() - began) / walked)
    return timed[0], timed[1], planning


def later_passes(count: int) -> int:
    """Passes after the first, estimated: the first pass's buckets hold about count / PILOT
    compositions near a level; more than COLLECT of them take a finer grid before collecting."""
    return 1 if count / PILOT <= COLLECT else 2


def timed_range(plan: object, start: int, stop: int) -> float:
    """A task that weighs a range and says how long it took, where it ran."""
    began = time.perf_counter()
    depth.weigh_range(plan, start, stop)  # type: ignore[arg-type]
    return time.perf_counter() - began


def dask_scaling() -> tuple[float, float] | None:
    """On the same 8 ranges (CPU bound), dask clusters of 1 and 2 workers: the speed-up of 2 over 1
    (ideal 2; on shared cores it measures the machine's load as much as dask), and dask's own
    efficiency with 2 workers: the time the workers spent weighing over 2 x the wall time (what
    scheduling, moving tasks and results cost; the load slows the weighing and the wall alike)."""
    try:
        from dask.distributed import LocalCluster
    except ImportError:
        return None
    settings = depth.DepthSettings(shoe=Shoe.decks(8), cards_left=(24,), bets=MAIN)
    plan = depth.plan(settings, 24)
    plan = plan.given(depth.pilot(settings, plan), ())
    size = 1 << 21
    tasks = [Task(f"r{index}", (plan, index * size, (index + 1) * size), size) for index in range(8)]
    walls, busy = {}, {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            with executor_for(1, cluster.scheduler_address) as pool:
                run_tasks(timed_range, tasks[:workers], lambda task, result: None, pool=pool)  # workers warm
                spent: list[float] = []
                began = time.perf_counter()
                run_tasks(timed_range, tasks, lambda task, result: spent.append(result), pool=pool)
                walls[workers], busy[workers] = time.perf_counter() - began, sum(spent)
    return walls[1] / walls[2], busy[2] / (2 * walls[2])


def on_64_cores(quick: bool) -> None:
    print("\n2. depth, 8 decks, 6-52 cards left, the 3 main bets, on 64 cores (projected)")
    line("", "exact_odds", "yardstick", "ratio", "target")
    cards_left = range(6, 53, 4 if quick else 1)
    total = planning = 0.0
    for cards in cards_left:
        first, later, planned = rates(cards, MAIN)
        count = depth.plan(depth.DepthSettings(shoe=Shoe.decks(8), cards_left=(cards,), bets=MAIN), cards).compositions.count
        share = 4 if quick else 1  # every 4th n stands for its neighbours
        total += share * count * (first + later_passes(count) * later)
        planning += share * planned
        if cards in (6, 18, 26, 34, 42, 52):
            line(f"n = {cards}: CPU per composition, first / later pass", f"{first * 1e9:.0f} / {later * 1e9:.0f} ns", f"{count:,}", "",
                 f"{1 + later_passes(count)} passes (estimated)")
    measured = dask_scaling()
    line("one core: CPU of every pass of every n", f"{total / 3600:.1f} h", "", "", "")
    if measured is None:
        line("dask", "(no dask)", "", "", "pip install '.[cluster]'")
        return
    speed_up, efficiency = measured
    line("dask: 2 workers' speed over 1 (same 8 ranges)", f"{speed_up:.2f}x", "2.00x ideal", f"{speed_up / 2:.2f}", "on shared cores: the load shows")
    line("dask: 2 workers' time weighing / (2 x wall)", f"{efficiency:.2f}", "1.00 ideal", "", "dask's own cost")
    for label, share in (("dask's efficiency", efficiency), ("the 1-to-2 speed-up", speed_up / 2)):
        wall = total / 64 / share + planning
        line(f"64 cores: CPU / 64 / {label} + planning", f"{wall / 60:.1f} min", "30 min", f"{wall / 1800:.2f}x", "<= 30 min")


WALKED = """
from exact_odds.core.shoe import Shoe
from exact_odds.engine.walk import walk
from exact_odds.studies import depth
settings = depth.DepthSettings(shoe=Shoe.decks(8), cards_left=tuple(range(6, 53)), bets=("banker", "player", "tie"))
plans = {{cards: depth.plan(settings, cards) for cards in settings.cards_left}}
grids = depth.pilot(settings, plans[52])
walk(plans[52].given(grids, ()), 0, {walked})
print(next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) / 1024)
"""
RUN = """
import resource
from exact_odds.core.shoe import Shoe
from exact_odds.studies import depth
depth.RANGE = 1 << 20
depth.run_depth(depth.DepthSettings(shoe=Shoe.decks(8), cards_left=({cards}), bets={bets}), workers=2)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
"""


def memory(quick: bool) -> None:
    print("\n3. peak memory (resident, MiB)")
    line("", "exact_odds", "yardstick", "ratio", "target")
    walked = 1 << (22 if quick else 25)
    done = subprocess.run([sys.executable, "-c", WALKED.format(walked=walked)], capture_output=True, text=True, check=True)
    mebibytes = float(done.stdout.split()[-1])
    line(f"plans of n = 6-52 held, {walked:,} of n = 52 walked", f"{mebibytes:,.0f} MiB", "1,024 MiB", f"{mebibytes / 1024:.2f}x", "<= 1 GiB at any n")
    cards = "20, 21" if quick else "24, 25, 26"
    done = subprocess.run([sys.executable, "-c", RUN.format(cards=cards, bets=FIVE)], capture_output=True, text=True, check=True)
    driver, worker = (float(value) for value in done.stdout.split()[-2:])
    line(f"a run of n = {cards}, 5 bets, ranges of 2^20: driver", f"{driver:,.0f} MiB", "1,024 MiB", f"{driver / 1024:.2f}x", "<= 1 GiB")
    line("the same run: a worker at most", f"{worker:,.0f} MiB", "1,024 MiB", f"{worker / 1024:.2f}x", "<= 1 GiB")


def main(quick: bool) -> None:
    print(f"depth benchmarks{' (quick)' if quick else ''}: CPU times are what dedicated cores would take; load now {os.getloadavg()[0]:.1f}")
    on_two_workers(quick)
    on_64_cores(quick)
    memory(quick)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
