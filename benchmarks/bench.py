"""Benchmarks, side by side in one run (plain Python; prints figures, asserts nothing about time).

    python benchmarks/bench.py [--quick]

1. Full analysis of an 8-deck shoe, every value-level bet of the catalog: the plain recursive
   enumerator against the compiled evaluator, warm, in-process; their ratio.
2. The three main bets alone, against a naive C enumerator of the same loops (built here with gcc
   from benchmarks/naive_enumerator.c, when gcc is present).
3. Batch throughput on one core: depleted 8-deck shoes per second, every catalog bet that the batch
   path weighs (all but the two suited-pair bets).
4. Cold wall time of `baccarat-odds --decks 8` (a new process each time; the median of 5).
5. Simulation: 10,000 eight-deck shoes (500 with --quick) dealt to the cut card, exact EV of every
   rank-level catalog bet at every coup, on two worker processes.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the batch figure is for one core
os.environ.setdefault("OMP_NUM_THREADS", "1")

import json  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from exact_odds.analysis import PlainEngine, analyze  # noqa: E402
from exact_odds.bets import catalog  # noqa: E402
from exact_odds.fast import FastEngine, batch_expectations, coup_table  # noqa: E402
from exact_odds.shoe import Shoe  # noqa: E402


def per_call(function, repeats: int) -> float:
    """Best of three timings of ``repeats`` calls, in seconds per call."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeats):
            function()
        best = min(best, (time.perf_counter() - start) / repeats)
    return best


def full_analysis(engine, shoe, bets):
    result = analyze(shoe, bets, engine=engine)
    return [bet.expected_value for bet in result.bets]


def main(quick: bool) -> None:
    shoe = Shoe.decks(8)
    catalog_bets = catalog()
    value_bets = [bet for bet in catalog_bets.values() if bet.needs_coup]
    main_bets = [catalog_bets[name] for name in ("banker", "player", "tie")]
    batch_bets = [bet for bet in catalog_bets.values() if not bet.needs_suits]
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, numpy {np.__version__}")

    start = time.perf_counter()
    coup_table()
    print(f"compiled table built in {1000 * (time.perf_counter() - start):.0f} ms (once per process)")

    plain = per_call(lambda: full_analysis(PlainEngine(), shoe, value_bets), 1)
    fast = per_call(lambda: full_analysis(FastEngine(), shoe, value_bets), 200)
    print(f"\n1. full analysis, 8 decks, {len(value_bets)} value-level bets")
    print(f"   plain enumerator    {1000 * plain:9.3f} ms")
    print(f"   compiled evaluator  {1000 * fast:9.3f} ms")
    print(f"   ratio               {plain / fast:9.0f} x")

    main_fast = per_call(lambda: full_analysis(FastEngine(), shoe, main_bets), 500)
    print("\n2. outcome table and the three main bets, 8 decks")
    print(f"   compiled evaluator  {1000 * main_fast:9.3f} ms")
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler:
        with tempfile.TemporaryDirectory() as folder:
            binary = Path(folder) / "naive_enumerator"
            subprocess.run([compiler, "-O2", "-o", str(binary), str(Path(__file__).with_name("naive_enumerator.c"))], check=True)
            banker, player, tie, micros = subprocess.run([str(binary), "8", "20"], capture_output=True, text=True, check=True).stdout.split()
        ours = analyze(shoe, main_bets).outcomes
        agrees = (int(banker), int(player), int(tie)) == (ours["banker"], ours["player"], ours["tie"])
        print(f"   naive C enumerator  {float(micros) / 1000:9.3f} ms (gcc -O2; same counts: {agrees})")
        print(f"   ratio               {float(micros) / 1e6 / main_fast:9.1f} x")
    else:
        print("   naive C enumerator  (no C compiler found)")

    shoes = 2_000 if quick else 10_000
    rng = np.random.default_rng(2026)
    depleted = np.full((shoes, 13), 32) - rng.multivariate_hypergeometric([32] * 13, 200, size=shoes)
    batch_expectations(depleted[:10], batch_bets)
    start = time.perf_counter()
    batch_expectations(depleted, batch_bets)
    elapsed = time.perf_counter() - start
    print(f"\n3. batch, {shoes:,} depleted 8-deck shoes (200 cards dealt), {len(batch_bets)} bets, one core")
    print(f"   {shoes / elapsed:12,.0f} shoes per second ({1e6 * elapsed / shoes:.0f} us per shoe)")

    command = shutil.which("baccarat-odds")
    runs = [sys.executable, "-m", "exact_odds"] if command is None else [command]
    walls = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run(runs + ["--decks", "8"], check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
    print("\n4. cold `baccarat-odds --decks 8`")
    print(f"   median wall time    {statistics.median(walls):9.3f} s (min {min(walls):.3f} s)")

    shoes = 500 if quick else 10_000
    start = time.perf_counter()
    completed = subprocess.run(
        runs + ["simulate", "--shoes", str(shoes), "--workers", "2", "--bets", "all", "--format", "json"],
        check=True, capture_output=True, text=True,
    )
    elapsed = time.perf_counter() - start
    coups = json.loads(completed.stdout)["coups"]
    print(f"\n5. simulate {shoes:,} eight-deck shoes, every rank-level bet at every coup, 2 workers")
    print(f"   {elapsed:9.1f} s wall, {coups:,} coups ({coups / elapsed:,.0f} coups per second)")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
