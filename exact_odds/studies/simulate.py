"""Real shuffled shoes dealt to the cut card, with the exact expectation of every bet at every coup.

The shoes are dealt by :mod:`exact_odds.studies.dealer`. Before each coup the exact expectation of
every bet is computed (batch path, all coups of a chunk of shoes at once) from the cards left in the
shoe, and summed into what the report needs. (Averaged over what the counter cannot see, the exact
expectation is the one given the cards seen, so the gains reported for a count are unbiased.)
"""

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.cards import RANKS
from ..core.features import OUTCOMES
from ..errors import InputError
from .dealer import Settings, deal_shoes

CHUNK_SHOES = 100
"""Shoes per task: the unit of work handed to a worker, fixed so results never depend on workers."""
QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)
NO_COUPS = "no shoe dealt a coup: the burned cards or the cut card came before the first coup of every shoe (a bigger shoe, a later cut card or no burn)"
"""Why a run that dealt no coup is refused: it has no figure to give."""


@dataclass
class ChunkResult:
    """What a chunk of shoes contributes to the report: sums over its coups and shoes (floats,
    merged in chunk order so that a run gives the same bytes whatever runs it) and a sample."""

    shoes: int
    coups: int
    outcome_counts: np.ndarray  # (3,) observed banker, player, tie
    probability_sums: np.ndarray  # (3,) sum of the exact probabilities
    probability_variances: np.ndarray  # (3,) sum of p (1 - p)
    ev_sums: np.ndarray  # (bets,)
    positive_counts: np.ndarray  # (bets,) coups with EV > 0 (exact sign)
    positive_ev_sums: np.ndarray  # (bets,) sum of EV where EV > 0
    count_moments: np.ndarray  # (bets, 5) sums of tc, tc^2, ev, ev^2, ev tc (zeros without a count)
    threshold_coups: np.ndarray  # (thresholds,) coups with tc >= threshold
    threshold_ev: np.ndarray  # (bets, thresholds) sum of EV there
    shoe_moments: np.ndarray  # (bets, 2 + thresholds, 4, 4) see :func:`shoe_moments`; betting when EV > 0, at each threshold, on every coup
    sample_ev: np.ndarray  # (sampled coups, bets)
    sample_counts: np.ndarray  # (sampled coups,)


SAMPLED_SHOES = 2000
"""Quantiles and plots read the coups of about this many shoes (every k-th shoe; all of a smaller run)."""


def per_shoe(rows: np.ndarray, coups_per_shoe: np.ndarray, dtype: Any = None) -> np.ndarray:
    """Sums of per-coup rows by shoe (a shoe's coups are consecutive), of type ``dtype`` (default the
    rows'); zero for a shoe without a coup.

    >>> per_shoe(np.array([[True], [True], [False], [True]]), np.array([3, 0, 1]), np.int64).tolist()
    [[2], [0], [1]]
    """
    sums = np.zeros((len(coups_per_shoe),) + rows.shape[1:], dtype=dtype or rows.dtype)
    dealt = np.flatnonzero(coups_per_shoe)
    if len(dealt):  # reduceat over the shoes that dealt coups only: an empty segment would read one row
        sums[dealt] = np.add.reduceat(rows.view(np.uint8) if rows.dtype == bool else rows, (np.cumsum(coups_per_shoe) - coups_per_shoe)[dealt], axis=0, dtype=sums.dtype)
    return sums


def run_chunk(settings: Settings, first: int, last: int) -> ChunkResult:
    """Deal shoes first..last-1, weigh every coup, and sum what the report needs."""
    from ..engine.batch import batch_expectations
    from .parallel import keep_freed_memory

    keep_freed_memory()
    bets = list(settings.bets)
    suited = any(bet.needs_suits for bet in bets)
    compositions, winners, counts, coups_per_shoe = deal_shoes(settings, first, last, suited)
    if len(compositions):
        batch = batch_expectations(compositions, bets, settings.decisions, outcomes=True)
        values, positive, probabilities = batch.floats(), batch.positive(), batch.outcome_floats()
    else:  # no shoe of the chunk dealt a coup (the burn or the cut card came first)
        values, positive, probabilities = np.zeros((0, len(bets))), np.zeros((0, len(bets)), dtype=bool), np.zeros((0, len(OUTCOMES)))
    shoes = last - first
    shoe_of_coup = np.repeat(np.arange(shoes), coups_per_shoe)
    thresholds = np.asarray(settings.thresholds if settings.tags else ())

    # coups by shoe and by how many thresholds their true count reaches; then, per threshold, the
    # sums over the coups at or above it (a cumulative sum over those buckets from the top)
    bucket = np.searchsorted(thresholds, counts, side="right")
    cell = shoe_of_coup * (len(thresholds) + 1) + bucket
    cells = shoes * (len(thresholds) + 1)
    if len(thresholds):
        by_bet = np.ascontiguousarray(values.T)  # each bet's values in a row: one pass over memory per bet, not a strided one
        grid = np.stack([np.bincount(cell, weights=by_bet[bet], minlength=cells) for bet in range(len(bets))], axis=1)
        above: np.ndarray = np.cumsum(grid.reshape(shoes, len(thresholds) + 1, len(bets))[:, ::-1], axis=1)[:, ::-1][:, 1:]  # (shoes, thresholds, bets)
    else:  # no count: no threshold to sum above
        above = np.zeros((shoes, 0, len(bets)))
    coups_above = np.cumsum(np.bincount(bucket, minlength=len(thresholds) + 1)[::-1])[::-1][1:]
    shoe_coups_above = np.cumsum(np.bincount(cell, minlength=cells).reshape(shoes, len(thresholds) + 1)[:, ::-1], axis=1)[:, ::-1][:, 1:]
    positive_values = np.where(positive, values, 0)
    ev_sums = values.sum(axis=0)
    perfect_gains = per_shoe(positive_values, coups_per_shoe)  # (shoes, bets)
    perfect_bets = per_shoe(positive, coups_per_shoe, np.int64)
    # (shoes, bets, 2 + thresholds): betting when EV > 0, at each threshold, on every coup
    gains = np.concatenate([perfect_gains[:, :, None], above.transpose(0, 2, 1), per_shoe(values, coups_per_shoe)[:, :, None]], axis=2)
    made = np.concatenate([perfect_bets[:, :, None], np.broadcast_to(shoe_coups_above[:, None, :], (shoes, len(bets), len(thresholds))),
                           np.broadcast_to(coups_per_shoe[:, None, None], (shoes, len(bets), 1))], axis=2)
    every_kth = max(1, settings.shoes // SAMPLED_SHOES)
    sampled = np.isin(shoe_of_coup + first, np.arange(first, last)[(np.arange(first, last) % every_kth) == 0])
    return ChunkResult(
        shoes=last - first,
        coups=len(winners),
        outcome_counts=np.bincount(winners, minlength=3),
        probability_sums=probabilities.sum(axis=0),
        probability_variances=(probabilities * (1 - probabilities)).sum(axis=0),
        ev_sums=ev_sums,
        positive_counts=perfect_bets.sum(axis=0),
        positive_ev_sums=positive_values.sum(axis=0),
        count_moments=np.stack([np.full(len(bets), counts.sum()), np.full(len(bets), (counts**2).sum()), ev_sums,
                                (values**2).sum(axis=0), (values * counts[:, None]).sum(axis=0)], axis=1)
        if settings.tags else np.zeros((len(bets), 5)),  # read only with a count
        threshold_coups=coups_above,
        threshold_ev=above.sum(axis=0).T,
        shoe_moments=shoe_moments(gains, made, coups_per_shoe),
        sample_ev=values[sampled],
        sample_counts=counts[sampled],
    )


def shoe_moments(gains: np.ndarray, bets_made: np.ndarray, coups: np.ndarray) -> np.ndarray:
    """Sums over shoes of u u^T for u = (1, gain, bets made, coups) of each shoe: gains and bets made
    are (shoes, ...), coups (shoes,); the result is (..., 4, 4). Means, ratios and their standard
    errors over shoes follow from these sums (:func:`estimates`)."""
    ones = np.ones(gains.shape)
    spread = np.broadcast_to(coups.reshape((-1,) + (1,) * (gains.ndim - 1)), gains.shape)
    vectors = np.stack([ones, gains, bets_made.astype(np.float64), spread.astype(np.float64)], axis=-1)
    moments: np.ndarray = (vectors[..., :, None] * vectors[..., None, :]).sum(axis=0)
    return moments


def chunks(settings: Settings) -> list[tuple[int, int]]:
    return [(first, min(first + CHUNK_SHOES, settings.shoes)) for first in range(0, settings.shoes, CHUNK_SHOES)]


@dataclass
class Simulation:
    settings: Settings
    results: list[ChunkResult] = field(default_factory=list)
    interrupted: bool = False

    def expectations(self) -> np.ndarray:
        """(sampled coups x bets) float expectations, in shoe order."""
        return np.concatenate([result.sample_ev for result in self.results])

    def true_counts(self) -> np.ndarray:
        """The true count before each sampled coup."""
        return np.concatenate([result.sample_counts for result in self.results])

    def total(self, field: str) -> np.ndarray:
        """A sum over the chunks, added in chunk order."""
        total: np.ndarray = getattr(self.results[0], field).astype(np.float64 if getattr(self.results[0], field).dtype.kind == "f" else np.int64)
        for result in self.results[1:]:
            total = total + getattr(result, field)
        return total


def run(settings: Settings, workers: int = 1, scheduler: str | None = None, progress: Any = None) -> Simulation:
    """Run every chunk (in this process, on ``workers`` local processes, or on a dask cluster) and
    keep them in order. Interrupted (Ctrl-C), it keeps the chunks completed in order from the first."""
    from contextlib import nullcontext

    from .parallel import cluster_executor, local_executor, run_ranges

    done: dict[int, ChunkResult] = {}
    simulation = Simulation(settings)
    executor: Any = cluster_executor(scheduler) if scheduler else local_executor(workers) if workers > 1 else nullcontext()
    try:
        with executor as pool:
            for index, result in run_ranges(run_chunk, settings, chunks(settings), pool):
                done[index] = result
                if progress:
                    progress(result.shoes)
    except KeyboardInterrupt:
        simulation.interrupted = True
    index = 0
    while index in done:
        simulation.results.append(done[index])
        index += 1
    return simulation


def summary(simulation: Simulation) -> dict[str, Any]:
    """The report of a run: outcome frequencies against exact probabilities, and per bet the
    distribution of exact EV over coups, the perfect-information gain and the count's gains."""
    settings = simulation.settings
    results = simulation.results
    shoes = sum(result.shoes for result in results)
    record = {
        "settings": {
            "shoe": str(settings.shoe),
            "rules": settings.decisions.rules.name,
            "policy": str(settings.decisions.policy) or None,
            "shoes": settings.shoes,
            "seed": settings.seed,
            "penetration": str(settings.penetration),
            "burn": settings.burn,
            "count_tags": dict(zip(RANKS, settings.tags)) if settings.tags else None,
        },
        "shoes_completed": shoes,
        "interrupted": simulation.interrupted,
    }
    coups = sum(result.coups for result in results)
    record["coups"] = coups
    if not coups:
        if not simulation.interrupted:
            raise InputError(NO_COUPS)
        return record
    outcomes = {}
    observed_counts, expected_sums, variances = (simulation.total(field) for field in ("outcome_counts", "probability_sums", "probability_variances"))
    for index, name in enumerate(OUTCOMES):
        error = math.sqrt(float(variances[index])) / coups
        observed = float(observed_counts[index]) / coups
        mean = float(expected_sums[index]) / coups
        outcomes[name] = {
            "observed": round(observed, 6),
            "exact_mean": round(mean, 6),
            "standard_error": round(error, 6),
            "z": round((observed - mean) / error, 3) if error else 0.0,
        }
    record["outcomes"] = outcomes
    sample = simulation.expectations()
    record["quantiles_from_coups"] = len(sample)
    ev_sums, positive_counts, positive_sums = (simulation.total(field) for field in ("ev_sums", "positive_counts", "positive_ev_sums"))
    per_shoe, moments = simulation.total("shoe_moments"), simulation.total("count_moments")
    threshold_coups, threshold_ev = simulation.total("threshold_coups"), simulation.total("threshold_ev")
    bets = {}
    for index, name in enumerate(settings.bet_names):
        every_coup, perfect = slot_estimates(per_shoe[index, -1]), slot_estimates(per_shoe[index, 0])
        entry: dict[str, Any] = {
            "mean_ev": round(float(ev_sums[index]) / coups, 8),
            "mean_ev_standard_error": _error(every_coup["gain_per_coup"], shoes, 10),
            # None when every sampled shoe dealt no coup
            "quantiles": {f"{q:g}": round(float(value), 8) for q, value in zip(QUANTILES, np.quantile(sample[:, index], QUANTILES))} if len(sample) else None,
            "positive_share": round(float(positive_counts[index]) / coups, 6),
            "positive_share_standard_error": _error(perfect["bet_share"], shoes, 6),
            "perfect_information_gain_per_100_coups": round(100 * float(positive_sums[index]) / coups, 6),
            "perfect_information_gain_per_100_coups_standard_error": _error(perfect["gain_per_100_coups"], shoes, 6),
            "perfect_information": per_shoe_record(per_shoe[index, 0], shoes, float(positive_counts[index])),
        }
        if settings.tags:
            count_sum, count_squares, ev_sum, ev_squares, cross = (float(value) for value in moments[index])
            spread = math.sqrt(max(0.0, (count_squares / coups - (count_sum / coups) ** 2) * (ev_squares / coups - (ev_sum / coups) ** 2)))
            entry["count_correlation"] = round((cross / coups - count_sum * ev_sum / coups**2) / spread, 6) if spread else 0.0
            entry["by_true_count"] = {
                str(threshold): {
                    "bet_share": round(float(threshold_coups[position]) / coups, 6),
                    "bet_share_standard_error": _error(slot_estimates(per_shoe[index, 1 + position])["bet_share"], shoes, 6),
                    "gain_per_100_coups": round(100 * float(threshold_ev[index, position]) / coups, 6),
                    "gain_per_100_coups_standard_error": _error(slot_estimates(per_shoe[index, 1 + position])["gain_per_100_coups"], shoes, 6),
                    **per_shoe_record(per_shoe[index, 1 + position], shoes, float(threshold_coups[position])),
                }
                for position, threshold in enumerate(settings.thresholds)
            }
        bets[name] = entry
    record["bets"] = bets
    return record


def per_shoe_record(moments: np.ndarray, shoes: int, bets_made: float) -> dict[str, float | None]:
    """The mean win per shoe (units, one unit per bet made) and the bets made per shoe, each with its
    standard error over shoes (None, undefined, for one shoe) (``moments``: see :func:`shoe_moments`)."""
    mean = float(moments[0, 1]) / shoes
    error = round(math.sqrt(max(0.0, float(moments[1, 1]) / shoes - mean**2) * shoes / (shoes - 1) / shoes), 6) if shoes > 1 else None
    return {"gain_per_shoe": round(mean, 6), "gain_per_shoe_standard_error": error, "bets_per_shoe": round(bets_made / shoes, 4),
            "bets_per_shoe_standard_error": _error(slot_estimates(moments)["bets_per_shoe"], shoes, 4)}


def _error(estimate: "Estimate", shoes: int, places: int) -> float | None:
    """An estimate's standard error to ``places`` decimals; None, undefined, over one shoe."""
    return round(estimate.standard_error, places) if shoes > 1 and math.isfinite(estimate.standard_error) else None


@dataclass(frozen=True)
class Estimate:
    """A mean over shoes, or a ratio of two means, with its standard error (floats: statistics)."""

    value: float
    standard_error: float


def estimates(simulation: Simulation, bet: str, threshold: int | None) -> dict[str, Estimate]:
    """What betting one unit on ``bet`` whenever the count is at or above ``threshold`` (None:
    whenever its exact EV is positive, perfect information) yields: per shoe the gain, the bets made
    and the coups dealt; the share of coups bet, the edge when betting and the gain per 100 coups.
    Ratios are of sums over shoes, their standard errors by the delta method."""
    settings = simulation.settings
    if threshold is not None and threshold not in settings.thresholds:
        raise InputError(f"the simulation counted no threshold {threshold} (it has {', '.join(map(str, settings.thresholds))})")
    slot = 0 if threshold is None else 1 + settings.thresholds.index(threshold)
    moments = simulation.total("shoe_moments")[settings.bet_names.index(bet), slot]
    if not moments[0, 3]:
        raise InputError(NO_COUPS)
    return slot_estimates(moments)


def slot_estimates(moments: np.ndarray) -> dict[str, Estimate]:
    """The estimates of :func:`estimates` from one slot's moments (4 x 4, see :func:`shoe_moments`)."""
    shoes = float(moments[0, 0])
    means = moments[0, 1:] / shoes
    covariance = (moments[1:, 1:] / shoes - np.outer(means, means)) * shoes / max(shoes - 1, 1)

    def mean(index: int) -> Estimate:
        return Estimate(float(means[index]), math.sqrt(max(0.0, covariance[index, index]) / shoes))

    def ratio(top: int, bottom: int, scale: float = 1.0) -> Estimate:
        if means[bottom] == 0:
            return Estimate(math.nan, math.nan)
        value = means[top] / means[bottom]
        spread = covariance[top, top] - 2 * value * covariance[top, bottom] + value**2 * covariance[bottom, bottom]
        return Estimate(scale * float(value), scale * math.sqrt(max(0.0, spread) / shoes) / float(means[bottom]))

    return {"gain_per_shoe": mean(0), "bets_per_shoe": mean(1), "coups_per_shoe": mean(2), "bet_share": ratio(1, 2),
            "edge_when_betting": ratio(0, 1), "gain_per_coup": ratio(0, 2), "gain_per_100_coups": ratio(0, 2, 100.0)}
