"""A whole shoe dealt to the cut card (issue 31): the targets, each beside its yardstick, in one run.

    python benchmarks/shoe_bench.py [--quick]

1. Exact: single-deck shoes dealt to several cut cards (burn on, one coup after the cut card's),
   the 3 main bets: wall time, multisets weighed and primes; beside it, the batch kernel's time to
   weigh as many shoes (the floor of the exact method's weighing).
2. Simulated: 8-deck shoes on the local workers, the 3 main bets, Dragon 7 and Panda 8, the cut card
   where simulate puts it by default (penetration 14/16, 52 cards behind it): shoes/s measured on
   10,000 shoes (with the workers' start, and after the first tenth) and projected to 1,000,000 (the
   machine is shared: the projection is from the rate measured here, and says so), with each bet's cut-card effect and its standard error, and
   that standard error projected to 1,000,000 shoes.
"""

import os
import sys
import time

import numpy as np

from exact_odds.bets.bets import main_bets
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds.engine.batch import batch_expectations
from exact_odds.studies.parallel import cores
from exact_odds.studies.shoe import ShoeStudy, shoe_odds


def line(label: str, ours: str, yardstick: str, ratio: str, target: str) -> None:
    print(f"  {label:<46} {ours:>16}  {yardstick:>16}  {ratio:>8}  {target}")


def heading(title: str, ours: str = "exact_odds", yardstick: str = "yardstick") -> None:
    print(f"\n{title}")
    line("", ours, yardstick, "ratio", "target")


def batch_seconds(shoes: int) -> float:
    """Seconds the batch kernel takes to weigh ``shoes`` depleted single-deck shoes on the 3 main bets (measured on up to 200,000)."""
    rng = np.random.default_rng(1)
    sample = min(shoes, 200_000)
    left = np.full((sample, 13), 4) - rng.multivariate_hypergeometric([4] * 13, 20, size=sample)
    bets = list(main_bets(PUNTO_BANCO).values())
    batch_expectations(left[:100], bets)
    start = time.perf_counter()
    batch_expectations(left, bets)
    return (time.perf_counter() - start) * shoes / sample


def exact(quick: bool) -> None:
    heading("1. exact shoe, one deck (52 cards), burn, one coup after the cut card's, 3 main bets", "exact method", "batch alone")
    for cut in ((13, 26) if quick else (13, 26, 39)):
        study = ShoeStudy(shoe=Shoe.decks(1), cut_card=cut)
        start = time.perf_counter()
        odds = shoe_odds(study)
        elapsed = time.perf_counter() - start
        floor = batch_seconds(odds.states or 0)
        line(f"cut card {cut}: {odds.states:,} multisets seen", f"{elapsed:,.0f} s", f"{floor:,.0f} s", f"{elapsed / floor:.1f}x", "report it")
        banker = odds["banker"]
        line(f"  banker cut-card effect {float(banker.cut_card_effect.exact) * 100:+.6f}%", f"{len(str(banker.cut_card_effect.exact))} chars", "", "", "exact")


def simulated(quick: bool) -> None:
    shoes = 2_000 if quick else 10_000
    workers = min(2, cores())
    heading(f"2. simulated shoe, 8 decks, cut card at 364 of 416 (simulate's 14/16), {shoes:,} shoes on {workers} local workers", "measured", "projected")
    study = ShoeStudy(shoe=Shoe.decks(8), cut_card=364, bets="banker,player,tie,dragon_7,panda_8", method="simulated", shoes=shoes, seed=1)
    done: list[tuple[float, int]] = []  # (time, shoes done) as ranges complete
    start = time.perf_counter()
    odds = shoe_odds(study, workers=workers, progress=lambda count: done.append((time.perf_counter(), (done[-1][1] if done else 0) + count)))
    elapsed = time.perf_counter() - start
    # the rate once both workers are running (their start and first tables left out), projected to 10^6 shoes
    first = next(index for index, (_, count) in enumerate(done) if count >= shoes // 10)
    steady = (done[-1][1] - done[first][1]) / (done[-1][0] - done[first][0])
    line(f"{shoes:,} shoes, {shoes / elapsed:,.0f} shoes/s with the start", f"{elapsed:.1f} s", f"{(1_000_000 / (shoes / elapsed)) / 60:.1f} min", "", "")
    line(f"  after the first tenth: {steady:,.0f} shoes/s", "", f"{1_000_000 / steady / 60:.1f} min", "", "1,000,000 in <= 15 min")
    for entry in odds.bets:
        effect = entry.cut_card_effect
        error = effect.standard_error or 0.0
        line(f"  {entry.bet.name} cut-card effect (± s.e.)", f"{effect.value * 100:+.5f}%", f"± {error * 100:.5f}%",
             "", f"± {error * (shoes / 1_000_000) ** 0.5 * 100:.6f}% at 10^6")


def main(quick: bool) -> None:
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, Python {sys.version.split()[0]}{', quick run' if quick else ''}")
    exact(quick)
    simulated(quick)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
