"""The protection study's search (issue 32): each figure beside its yardstick, in one run.

    python benchmarks/protect_bench.py [--quick]

1. ``best_sort`` for every rank-level catalog bet (47) on 8 decks: every two-way split of the values
   (511) and of the ranks (4,095) for 1 to 6 sorted cards, beside the issue's target of 10 minutes.
2. ``best_sort`` for the main bets and 4 sorted cards beside a probe through the public API, measured
   here: one coup distribution with the first four cards tracked by value, then, split by split,
   its rows grouped by the pattern of the four cards and each bet settled, for Roach's 1,023 sorts
   of the values (timed on a sample, scaled to 1,023).
"""

import argparse
import time

import numpy as np

from exact_odds.bets.bets import available_bets
from exact_odds.core.features import FIRST_CARDS, Granularity
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds.engine.compiled import FastEngine
from exact_odds.studies.protect import protect
from exact_odds.studies.splits import direct_level

TARGET = 600.0
"""Seconds the issue allows the 47 bets' search."""


def seconds(function) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def public_api_probe(sample: int) -> float:
    """Seconds for the 1,023 sorts of the values, 4 cards, main bets, through the public API."""
    decisions = resolve(PUNTO_BANCO)
    bets = [available_bets(PUNTO_BANCO)[name] for name in ("banker", "player", "tie")]
    started = time.perf_counter()
    coups = FastEngine().coups(Shoe.decks(8), decisions, dict.fromkeys(FIRST_CARDS, Granularity.VALUE))
    nets = [np.asarray(bet.scaled_pays[1], dtype=np.int64)[bet.settle(coups.columns)] for bet in bets]
    values = np.stack([np.asarray(coups.columns[f"{slot}_value"], dtype=np.int64) for slot in FIRST_CARDS])
    setup = time.perf_counter() - started
    masks = np.random.default_rng(0).choice(np.arange(1, 1024), size=sample, replace=False)
    started = time.perf_counter()
    for mask in masks:
        high = (int(mask) >> np.arange(10)) & 1
        pattern = (high[values] * (1 << np.arange(4))[:, None]).sum(axis=0)
        sums = [np.bincount(pattern, weights=(net * coups.counts).astype(np.float64), minlength=16) for net in nets]
        np.maximum(np.max(sums, axis=0), 0).sum()  # (in floats: a probe, not an exact figure)
    return setup + (time.perf_counter() - started) * 1023 / sample


def main(quick: bool) -> None:
    rank_level = [bet for bet in available_bets(PUNTO_BANCO).values() if direct_level(bet) is not None]
    print(f"protection study, 8 decks ({len(rank_level)} rank-level catalog bets)")
    ours = seconds(lambda: protect(8, "banker, player, tie", best_sort=True, sorted=4))
    probe = public_api_probe(40 if quick else 200)
    print(f"  best_sort, main bets, 4 cards (511 + 4,095 splits, exact): {ours:.1f} s beside a public-API probe of the 1,023 value "
          f"sorts (floats): {probe:.1f} s: {ours / probe:.2f}x")
    if quick:
        return
    search = seconds(lambda: protect(8, rank_level, best_sort=True))
    held = "holds" if search <= TARGET else "MISSED"
    print(f"  best_sort, {len(rank_level)} bets, 1-6 cards (6 x (511 + 4,095) splits): {search:.1f} s beside the target {TARGET:.0f} s: "
          f"{search / TARGET:.2f}x (target <= 1, {held})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the main bets only, a smaller sample of the probe")
    main(parser.parse_args().quick)
