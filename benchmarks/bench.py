"""Benchmarks: every speed target beside its yardstick, in one run (prints figures, asserts nothing).

    python benchmarks/bench.py [--quick]

Each line shows what exact_odds measured, the yardstick measured in the same run, their ratio, and
the target of issues 12, 13 and 20. The machine may be shared: read the ratios, not the absolute times.

1. Batch, one core: depleted 8-deck shoes per second with the 42 coup bets of the catalog, the 3
   main bets and all 47 rank-level bets, times the naive C enumerator's milliseconds per 8-deck shoe
   (gcc -O2, built here from benchmarks/naive_enumerator.c); each copy of the kernel's loops this
   CPU runs, and the numpy fallback; all 54 catalog bets on per-card shoes against the 42 coup bets.
2. One shoe, warm: the outcome table and the 3 main bets against the naive C enumerator; all
   rank-level bets and perfect pairs against the plain recursive enumerator.
3. 100 drawn user bets on the coup against the 42 catalog coup bets (one shoe and batch); 200 drawn
   bets on card slots, a condition given on the suits of two slots, and three bets each comparing
   the suits of two slots (on 8 decks and on a 16-card shoe): wall time and peak memory of one process.
4. Cold `baccarat-odds --decks 8` against `python -c "import numpy, click"`, run in alternation.
5. simulate, every rank-level bet at every coup: one worker against the batch rate per shoe; two
   local workers; a dask worker's rate against a local worker process's (the same command on two of
   each, in alternation, and the CPU each spends); dask LocalClusters of one and two workers,
   projected to the studies of the issue (1,000,000 shoes on 2 cores, 100,000,000 on N).
6. The figures of benchmarks/catalog_bench.py (the whole catalog on one shoe, cold and warm), when it is there.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # every figure but simulate's is for one core
os.environ.setdefault("OMP_NUM_THREADS", "1")

import json  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from exact_odds import analyze  # noqa: E402
from exact_odds.engine.analysis import PlainEngine  # noqa: E402
from exact_odds.engine.batch import batch_expectations  # noqa: E402
from exact_odds.bets.bets import Bet, catalog, load_bets  # noqa: E402
from exact_odds.engine.compiled import FastEngine  # noqa: E402
from exact_odds.engine.kernel import kernel_info  # noqa: E402
from exact_odds.core.shoe import Shoe  # noqa: E402

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent


def per_call(function: Callable[[], object], repeats: int, rounds: int = 5) -> float:
    """Best of ``rounds`` timings of ``repeats`` calls, in seconds per call."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeats):
            function()
        best = min(best, (time.perf_counter() - start) / repeats)
    return best


def line(label: str, ours: str, yardstick: str, ratio: str, target: str) -> None:
    print(f"  {label:<44} {ours:>14}  {yardstick:>14}  {ratio:>9}  {target}")


def heading(title: str, ours: str = "exact_odds", yardstick: str = "yardstick") -> None:
    print(f"\n{title}")
    line("", ours, yardstick, "ratio", "target")


def drawn_bets(prefix: str, conditions: Callable[[int], str], count: int, draw: random.Random) -> str:
    """A bets file of ``count`` one-row bets, the i-th on ``conditions(i)``, each with a drawn pay."""
    return "\n".join(f'[[bet]]\nname = "{prefix}_{index}"\npays = [{{ when = "{conditions(index)}", pays = "{draw.randint(2, 60)}" }}]\n'
                     for index in range(count))


def user_coup_bets(count: int, seed: int = 1) -> str:
    """``count`` bets on the coup, drawn from six shapes of condition (a fixed seed)."""
    draw = random.Random(seed)
    shapes = [
        lambda: f"winner == banker and banker_total == {draw.randint(0, 9)}",
        lambda: f"player_total - banker_total == {draw.randint(-9, 9)}",
        lambda: f"banker_third_card == {draw.randint(0, 9)} and winner == player",
        lambda: f"(player_two_card_total + banker_two_card_total) % 10 == {draw.randint(0, 9)}",
        lambda: f"total_cards == {draw.randint(4, 6)} and margin >= {draw.randint(1, 8)}",
        lambda: f"winner == tie and player_total in [{draw.randint(0, 4)}, {draw.randint(5, 9)}]",
    ]
    return drawn_bets("user_coup", lambda index: shapes[index % len(shapes)](), count, draw)


def user_slot_bets(count: int, seed: int = 2) -> str:
    """``count`` bets on two of the first four card slots (ranks, suits, colours, values), drawn."""
    draw = random.Random(seed)

    def condition(index: int) -> str:
        first, second = draw.sample(["player_card1", "player_card2", "banker_card1", "banker_card2"], 2)
        return [
            lambda: f"{first}_rank == {second}_rank and {first}_suit == {second}_suit",
            lambda: f"{first}_color == {second}_color and {first}_value >= {draw.randint(5, 9)}",
            lambda: f"{first}_rank == {draw.choice('A23456789TJQK')} and winner == {draw.choice(['player', 'banker'])}",
            lambda: f"{first}_suit == {second}_suit and {first}_value + {second}_value == {draw.randint(2, 18)}",
            lambda: f"{first}_rank == {second}_rank and banker_total >= {draw.randint(5, 8)}",
        ][index % 5]()

    return drawn_bets("user_slot", condition, count, draw)


def depleted_shoes(count: int, suited: bool = False) -> np.ndarray:
    """``count`` 8-deck shoes with 200 random cards dealt (per rank, or per card when ``suited``)."""
    rng = np.random.default_rng(2026)
    columns, each = (52, 8) if suited else (13, 32)
    return np.full((count, columns), each) - rng.multivariate_hypergeometric([each] * columns, 200, size=count)


def shoes_per_second(bets: list[Bet], shoes: np.ndarray, kernel: str = "") -> float:
    """Shoes per second of the batch path, best of three, with ``EXACT_ODDS_KERNEL`` set to ``kernel``."""
    previous = os.environ.get("EXACT_ODDS_KERNEL")
    os.environ["EXACT_ODDS_KERNEL"] = kernel
    try:
        batch_expectations(shoes[:64], bets)
        return len(shoes) / per_call(lambda: batch_expectations(shoes, bets), 1, rounds=3)
    finally:
        if previous is None:
            os.environ.pop("EXACT_ODDS_KERNEL")
        else:
            os.environ["EXACT_ODDS_KERNEL"] = previous


def naive_c_seconds() -> tuple[float, tuple[int, int, int]] | None:
    """Seconds per 8-deck shoe of the naive C enumerator (best of three runs of 50 shoes) and its
    counts (None without a compiler)."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        binary = Path(folder) / "naive_enumerator"
        subprocess.run([compiler, "-O2", "-o", str(binary), str(HERE / "naive_enumerator.c")], check=True)
        runs = [subprocess.run([str(binary), "8", "50"], capture_output=True, text=True, check=True).stdout.split() for _ in range(3)]
    banker, player, tie, _ = runs[0]
    return min(float(run[3]) for run in runs) / 1e6, (int(banker), int(player), int(tie))


def batch(quick: bool, bets: dict[str, list[Bet]], naive: tuple[float, tuple[int, int, int]] | None) -> dict[str, float]:
    """Section 1; returns the shoes per second of each set of bets."""
    shoes = depleted_shoes(4_096 if quick else 16_384)
    info = kernel_info()
    heading(f"1. batch: {len(shoes):,} depleted 8-deck shoes (200 cards dealt), shoes/s, one core, {info}",
            "shoes/s", "naive C" if naive else "(no compiler)")
    rates = {}
    for name in ("42 coup bets", "3 main bets", "47 rank-level bets"):
        rates[name] = shoes_per_second(bets[name], shoes)
        if naive is None:
            line(f"{name} x naive C ms per shoe", f"{rates[name]:,.0f}", "(no compiler)", "", ">= 250" if name == "42 coup bets" else "")
        else:
            line(f"{name} x naive C ms per shoe", f"{rates[name]:,.0f}", f"{naive[0] * 1e3:.3f} ms", f"{rates[name] * naive[0]:.0f}",
                 ">= 250 (was about 82)" if name == "42 coup bets" else "")
    coup = bets["42 coup bets"]
    if info.compiled:
        from exact_odds.engine import kernel

        assert kernel._kernel is not None
        for variant in getattr(kernel._kernel, "variants", tuple)()[1:]:  # (a build before issue 20 has one copy)
            rate = shoes_per_second(coup, shoes, kernel=str(variant))
            line(f"  42 coup bets, the {variant} loops", f"{rate:,.0f}", f"{rates['42 coup bets']:,.0f}", f"{rate / rates['42 coup bets']:.2f}x",
                 f"the {info.instruction_set} loops run here")
    few = shoes[: 512 if quick else 2_048]
    fallback = shoes_per_second(coup, few, kernel="numpy")
    line("  42 coup bets, numpy path", f"{fallback:,.0f}", f"{rates['42 coup bets']:,.0f}", f"{fallback / rates['42 coup bets']:.3f}x", "same results")
    suited = depleted_shoes(1_024 if quick else 4_096, suited=True)
    everything = bets["54 catalog bets"]
    start = time.perf_counter()
    batch_expectations(suited[:64], everything)
    first = time.perf_counter() - start
    rates["54 catalog bets"] = len(suited) / per_call(lambda: batch_expectations(suited, everything), 1, rounds=3)
    line("54 catalog bets, per-card shoes / 42 coup bets", f"{rates['54 catalog bets']:,.0f}", f"{rates['42 coup bets']:,.0f}",
         f"{rates['54 catalog bets'] / rates['42 coup bets']:.3f}", f">= 0.25 (was 1/20; first call {first:.1f} s)")
    for name in ("perfect pair", "super tie", "lucky nines"):
        rate = shoes_per_second(bets[name], suited)
        line(f"  {name} alone, per-card shoes", f"{rate:,.0f}", f"{rates['42 coup bets']:,.0f}", f"{rate / rates['42 coup bets']:.3f}", "")
    return rates


def single_shoe(bets: dict[str, list[Bet]], naive: tuple[float, tuple[int, int, int]] | None) -> None:
    shoe = Shoe.decks(8)
    fast = FastEngine()
    heading("2. one 8-deck shoe, warm, per analysis")
    main = bets["3 main bets"]
    analyze(shoe, main, engine=fast)
    ours = per_call(lambda: analyze(shoe, main, engine=fast), 500)
    if naive is None:
        line("outcomes + 3 main bets / naive C -O2", f"{ours * 1e3:.3f} ms", "(no compiler)", "", "<= 0.15x")
    else:
        seconds, counts = naive
        outcomes = analyze(shoe, main, engine=fast).outcomes
        agrees = counts == (outcomes["banker"], outcomes["player"], outcomes["tie"])
        line(f"outcomes + 3 main bets / naive C (same: {agrees})", f"{ours * 1e3:.3f} ms", f"{seconds * 1e3:.3f} ms", f"{ours / seconds:.2f}x", "<= 0.15x")
    for name, repeats in (("47 rank-level bets", 100), ("perfect pair", 100)):
        chosen = bets[name]
        analyze(shoe, chosen, engine=fast)
        ours = per_call(lambda: analyze(shoe, chosen, engine=fast), repeats)
        plain = per_call(lambda: analyze(shoe, chosen, engine=PlainEngine()), 1, rounds=1)
        line(f"{name} / plain enumerator", f"{ours * 1e3:.3f} ms", f"{plain * 1e3:.0f} ms", f"{ours / plain:.5f}x", "<= 1 ms")


SUITED_SLOT_BETS = "".join(f'[[bet]]\nname = "suits_{index}"\npays = [{{ when = "{condition}", pays = "3" }}]\n' for index, condition in enumerate([
    "player_card1_suit == banker_card3_suit", "banker_card1_suit == player_card3_suit", "player_card2_suit == banker_card2_suit and winner == player"]))
"""Three one-row bets, each comparing the suits of two other slots (issue 18)."""
SIXTEEN_CARDS = "AS=1,AH=1,2S=1,2D=1,3C=1,4H=1,5S=1,6D=1,7C=1,8H=1,9S=1,TD=1,JC=1,QH=1,KS=1,KD=1"


def peak_memory(bets_text: str, given: str | None = None, shoe: str = "") -> tuple[float, float]:
    """Seconds and peak resident MiB of one process analysing these bets (without any, the main
    bets) on 8 decks or the ``shoe`` given by per-card counts, given a condition if any. The peak is
    the process's own (VmHWM): Linux carries ru_maxrss over an exec from the parent, this one."""
    script = ("import resource, sys, time\n"
              "from exact_odds import analyze\nfrom exact_odds.bets.bets import catalog, load_bets\nfrom exact_odds.core.shoe import Shoe\n"
              "text = sys.stdin.read()\n"
              "bets = list(load_bets(text, 'bench').values()) if text else [catalog()[name] for name in ('banker', 'player', 'tie')]\n"
              f"shoe = Shoe.parse({shoe!r}) if {bool(shoe)} else Shoe.decks(8)\n"
              f"start = time.perf_counter(); analyze(shoe, bets, given={given!r})\n"
              "seconds = time.perf_counter() - start\n"
              "try:\n"
              "    peak = next(int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
              "except OSError:\n"
              "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
              "print(seconds, peak / 1024)\n")
    seconds, mebibytes = subprocess.run([sys.executable, "-c", script], input=bets_text, capture_output=True, text=True, check=True).stdout.split()
    return float(seconds), float(mebibytes)


def user_bets(quick: bool, bets: dict[str, list[Bet]]) -> None:
    shoe = Shoe.decks(8)
    fast = FastEngine()
    mine = list(load_bets(user_coup_bets(100), "bench").values())
    coup = bets["42 coup bets"]
    heading("3. bets of your own, one core", "100 user bets", "42 coup bets")
    analyze(shoe, mine, engine=fast)
    analyze(shoe, coup, engine=fast)
    ours = per_call(lambda: analyze(shoe, mine, engine=fast), 50)
    theirs = per_call(lambda: analyze(shoe, coup, engine=fast), 50)
    line("one 8-deck shoe, warm", f"{ours * 1e3:.2f} ms", f"{theirs * 1e3:.2f} ms", f"{ours / theirs:.1f}x", "<= 3x")
    shoes = depleted_shoes(2_048 if quick else 8_192)
    ours = shoes_per_second(mine, shoes)
    theirs = shoes_per_second(coup, shoes)
    line("batch, depleted 8-deck shoes/s", f"{ours:,.0f}", f"{theirs:,.0f}", f"{theirs / ours:.1f}x", "<= 3x")
    seconds, mebibytes = peak_memory(user_slot_bets(200))
    line("200 bets on card slots: peak memory", f"{mebibytes:,.0f} MiB", "1,024 MiB", f"{mebibytes / 1024:.2f}x", f"well under 1 GiB ({seconds:.1f} s)")
    seconds, mebibytes = peak_memory("", given="player_card1_suit == banker_card3_suit")
    line("--given two slots' suits: peak memory", f"{mebibytes:,.0f} MiB", "1,024 MiB", f"{mebibytes / 1024:.2f}x", f"well under 1 GiB ({seconds:.1f} s)")
    seconds, mebibytes = peak_memory(SUITED_SLOT_BETS)
    line("3 bets on two slots' suits: peak memory", f"{mebibytes:,.0f} MiB", "1,024 MiB", f"{mebibytes / 1024:.2f}x", f"well under 1 GiB ({seconds:.1f} s)")
    seconds, mebibytes = peak_memory(SUITED_SLOT_BETS, shoe=SIXTEEN_CARDS)
    line("  the same, 16-card shoe: time", f"{seconds:.2f} s", "1 s", f"{seconds:.2f}x", f"well under a second ({mebibytes:,.0f} MiB)")


def command(name: str) -> list[str]:
    installed = BIN / name
    return [str(installed)] if installed.exists() else [sys.executable, "-m", "exact_odds"]


def cold_start(quick: bool) -> None:
    runs = 7 if quick else 31
    with tempfile.TemporaryDirectory() as cache:
        # as a user runs it: bytecode cached (the first run writes it, as it builds the table cache)
        environment = {**{name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}, "EXACT_ODDS_CACHE": cache}
        ours_command = command("baccarat-odds") + ["--decks", "8"]
        yardstick_command = [sys.executable, "-c", "import numpy, click"]

        def timed(arguments: list[str]) -> tuple[float, float]:
            """Wall and CPU seconds of one run."""
            start, cpu = time.perf_counter(), children_cpu()
            subprocess.run(arguments, check=True, capture_output=True, env=environment)
            return time.perf_counter() - start, children_cpu() - cpu

        first, _ = timed(ours_command)
        ours, theirs = [], []
        for _ in range(runs):  # in turn, each pair's ratio taken: the machine's speed drifts less within a pair
            theirs.append(timed(yardstick_command))
            ours.append(timed(ours_command))
    heading(f"4. cold start, {runs} runs in alternation: medians, and the median of the pairs' ratios", "baccarat-odds", "numpy + click")
    for label, part in (("wall", 0), ("CPU", 1)):
        ratio = statistics.median(mine[part] / yardstick[part] for mine, yardstick in zip(ours, theirs))
        line(f"`baccarat-odds --decks 8`, {label}", f"{statistics.median(run[part] for run in ours):.3f} s",
             f"{statistics.median(run[part] for run in theirs):.3f} s", f"{ratio:.2f}x", "<= 1.5x")
    line("  its first run (builds the table cache, bytecode)", f"{first:.3f} s", "", f"{first / statistics.median(run[0] for run in theirs):.2f}x",
         "once per machine")


def simulated(arguments: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    completed = subprocess.run(command("baccarat-odds") + ["simulate", *arguments, "--format", "json"], check=True, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    record = json.loads(completed.stdout)
    return elapsed, record["shoes_completed"]


def children_cpu() -> float:
    """CPU seconds of this process's children that have ended (a command and its worker processes)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def dask_against_local(common: list[str], workers: int, rounds: int) -> None:
    """The same simulate command on ``workers`` local worker processes and on a dask LocalCluster of
    as many (started once, warm), in alternation: each one's best rate per worker, and the CPU
    seconds per 1,000 shoes of everything it ran (the command, its workers; for dask also the
    scheduler, in this process), which the machine's load does not change."""
    import psutil
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            pids = list(client.run(os.getpid).values())
        simulated(common[:2] + ["--shoes", "200"] + common[4:] + ["--scheduler", cluster.scheduler_address])  # the workers' first imports
        processes = [psutil.Process(pid) for pid in pids] + [psutil.Process()]
        rates: dict[str, list[float]] = {"local": [], "dask": []}
        costs: dict[str, list[float]] = {"local": [], "dask": []}
        for _ in range(rounds):
            for name, extra in (("local", ["--workers", str(workers)]), ("dask", ["--scheduler", cluster.scheduler_address])):
                before = children_cpu() + (sum(sum(process.cpu_times()[:2]) for process in processes) if name == "dask" else 0.0)
                elapsed, done = simulated(common + extra)
                after = children_cpu() + (sum(sum(process.cpu_times()[:2]) for process in processes) if name == "dask" else 0.0)
                rates[name].append(done / elapsed / workers)
                costs[name].append((after - before) / done * 1000)
    local, dask = max(rates["local"]), max(rates["dask"])
    line(f"a dask worker / a local worker process ({workers} each)", f"{dask:,.0f} shoes/s", f"{local:,.0f} shoes/s", f"{dask / local:.2f}", ">= 0.9")
    cpu_local, cpu_dask = min(costs["local"]), min(costs["dask"])
    line("  CPU s per 1,000 shoes, everything run", f"{cpu_dask:.3f} s", f"{cpu_local:.3f} s", f"{cpu_dask / cpu_local:.2f}", "")


def one_worker(quick: bool, bets: dict[str, list[Bet]], batch_rate: float) -> None:
    """simulate in this process, one core, against the batch rate divided by the coups per shoe."""
    from fractions import Fraction

    from exact_odds.core.policy import resolve
    from exact_odds.core.rules import PUNTO_BANCO
    from exact_odds.studies.dealer import Settings
    from exact_odds.studies.simulate import run

    shoes = 1_000 if quick else 4_000
    settings = Settings(Shoe.decks(8), shoes, 1, Fraction(14, 16), True, None, tuple(bets["47 rank-level bets"]), resolve(PUNTO_BANCO))
    run(Settings(Shoe.decks(8), 20, 2, Fraction(14, 16), True, None, settings.bets, settings.decisions))
    best = float("inf")
    for _ in range(3):  # best of three, as the batch rate beside it
        start = time.perf_counter()
        coups = sum(result.coups for result in run(settings).results)
        best = min(best, time.perf_counter() - start)
    rate = shoes / best
    yardstick = 0.7 * batch_rate / (coups / shoes)
    line(f"1 worker, shoes/s / 0.7 x batch per shoe ({coups / shoes:.1f} coups)", f"{rate:,.0f}", f"{yardstick:,.0f}", f"{rate / yardstick:.2f}", ">= 1")


def simulation(quick: bool, bets: dict[str, list[Bet]], batch_rate: float) -> None:
    names = ",".join(bet.name for bet in bets["47 rank-level bets"])
    shoes = 1_000 if quick else 10_000
    common = ["--decks", "8", "--shoes", str(shoes), "--bets", names]
    heading(f"5. simulate {shoes:,} eight-deck shoes, 47 rank-level bets at every coup", "measured", "projected")
    one_worker(quick, bets, batch_rate)
    elapsed, done = simulated(common + ["--workers", "2"])
    million = elapsed / done * 1_000_000
    line("2 local workers; 1,000,000 shoes", f"{elapsed:.1f} s", f"{million / 60:.1f} min", "", "<= 15 min")
    try:
        from dask.distributed import LocalCluster
    except ImportError:
        line("dask LocalCluster, 2 workers", "(no dask)", "", "", "pip install '.[cluster]'")
        return
    dask_against_local(common, 2, 2 if quick else 3)
    rates = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            elapsed, done = simulated(common + ["--scheduler", cluster.scheduler_address])
        rates[workers] = done / elapsed
        line(f"dask LocalCluster, {workers} worker{'s' * (workers > 1)}", f"{elapsed:.1f} s", f"{rates[workers]:,.0f} shoes/s",
             f"{rates[workers] / rates[1]:.2f}x" if workers > 1 else "", "scales with workers")
    per_core = rates[2] / 2
    for cores in (2, 64, 512):
        line(f"  100,000,000 shoes on {cores} cores", "", f"{1e8 / per_core / cores / 3600:,.1f} h", "", "")


def catalog_figures(quick: bool) -> None:
    """Section 6: benchmarks/catalog_bench.py's own lines, when it is there."""
    script = HERE / "catalog_bench.py"
    if not script.exists():
        return
    print("\n6. the whole catalog (benchmarks/catalog_bench.py)")
    sys.stdout.flush()
    subprocess.run([sys.executable, str(script)] + (["--quick"] if quick else []), check=False)


def main(quick: bool) -> None:
    everything = catalog()
    rank_level = [bet for bet in everything.values() if not bet.needs_suits]
    bets = {
        "42 coup bets": [bet for bet in rank_level if bet.needs_coup],
        "3 main bets": [everything[name] for name in ("banker", "player", "tie")],
        "47 rank-level bets": rank_level,
        "54 catalog bets": list(everything.values()),
        "perfect pair": [everything["perfect_pair"]],
        "super tie": [everything["super_tie"]],
        "lucky nines": [everything["lucky_nines"]],
    }
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"{kernel_info()}{', quick run' if quick else ''}")
    naive = naive_c_seconds()
    rates = batch(quick, bets, naive)
    single_shoe(bets, naive)
    user_bets(quick, bets)
    cold_start(quick)
    simulation(quick, bets, rates["47 rank-level bets"])
    catalog_figures(quick)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
