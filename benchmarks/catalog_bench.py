"""The whole catalog beside one bet (issue 20, items 1-3): each figure beside its yardstick, measured
in the same run and in alternation, as ratios (the machine may be shared).

    python benchmarks/catalog_bench.py [--runs 5]

``bench.py`` imports :func:`catalog_figures` and prints :func:`report` of them.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

COMMAND = [sys.executable, "-m", "exact_odds"]
ALL = COMMAND + ["--bets", "all"]
YARDSTICK = COMMAND + ["--decks", "8"]


@dataclass(frozen=True)
class Figure:
    """A measure beside its yardstick, and the largest ratio the issue allows."""

    name: str
    value: float
    yardstick_name: str
    yardstick: float
    unit: str
    target: float

    @property
    def ratio(self) -> float:
        return self.value / self.yardstick

    def __str__(self) -> str:
        held = "holds" if self.ratio <= self.target else "MISSED"
        return (f"{self.name}: {self.value:.4g} {self.unit} beside {self.yardstick_name} {self.yardstick:.4g} {self.unit}: "
                f"{self.ratio:.2f}x (target <= {self.target:g}x, {held})")


def run(command: list[str], cache: str) -> tuple[float, int]:
    """Seconds and peak resident kilobytes of one process (its output discarded)."""
    environment = {**os.environ, "EXACT_ODDS_CACHE": cache}
    started = time.perf_counter()
    process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if status:
        raise RuntimeError(f"{' '.join(command)} failed (status {status})")
    return elapsed, int(usage.ru_maxrss)


def depleted_suited_shoe(seed: int = 20, dealt: int = 150):  # type: ignore[no-untyped-def]
    """An 8-deck shoe with per-card counts, ``dealt`` cards drawn at random."""
    from exact_odds.core.shoe import Shoe

    counts = [8] * 52
    chooser = random.Random(seed)
    for _ in range(dealt):
        card = chooser.choice([card for card in range(52) if counts[card]])
        counts[card] -= 1
    ranks = tuple(sum(counts[rank * 4 : rank * 4 + 4]) for rank in range(13))
    return Shoe(ranks, tuple(counts), f"8 decks less {dealt} cards")


def warm_ratio(repeats: int = 30) -> tuple[float, float]:
    """Best seconds of all 54 catalog bets and of the 3 main bets on one depleted suited shoe, warm, alternating."""
    from exact_odds import analyze

    shoe = depleted_suited_shoe()
    analyze(shoe, "all")
    every, main = [], []
    for _ in range(repeats):
        for bets, times in (("all", every), (None, main)):
            started = time.perf_counter()
            analyze(shoe, bets)
            times.append(time.perf_counter() - started)
    return min(every), min(main)


def catalog_figures(runs: int = 5) -> list[Figure]:
    """The four figures of items 1-3, each measured ``runs`` times in alternation with its yardstick (medians)."""
    with tempfile.TemporaryDirectory(prefix="exact-odds-bench-") as folder:
        warm_cache = os.path.join(folder, "kept")
        run(ALL, warm_cache)  # fills the cache
        cold, yardstick, empty, memory = [], [], [], []
        for index in range(runs):
            seconds, _ = run(YARDSTICK, warm_cache)
            yardstick.append(seconds)
            seconds, kilobytes = run(ALL, warm_cache)
            cold.append(seconds)
            memory.append(kilobytes)
            seconds, kilobytes = run(ALL, os.path.join(folder, f"empty-{index}"))
            empty.append(seconds)
            memory.append(kilobytes)
    every, main = warm_ratio()
    return [
        Figure("--bets all, cold process, cache warm", statistics.median(cold), "--decks 8", statistics.median(yardstick), "s", 3),
        Figure("--bets all, first run on an empty cache", statistics.median(empty), "--decks 8", statistics.median(yardstick), "s", 10),
        Figure("--bets all, peak memory (largest run)", max(memory) / 1024, "250 MB", 250, "MB", 1),
        Figure("54 bets warm, one depleted suited 8-deck shoe", every * 1e3, "the 3 main bets warm", main * 1e3, "ms", 30),
    ]


def report(figures: list[Figure]) -> str:
    return "\n".join(str(figure) for figure in figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    print(report(catalog_figures(parser.parse_args().runs)))


if __name__ == "__main__":
    main()
