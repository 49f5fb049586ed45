"""Real shuffled shoes dealt to the cut card, with the exact expectation of every bet at every coup.

Each shoe is shuffled by its own generator, seeded by (seed, shoe number), so a run gives the same
result whatever the number of workers or machines. Before each coup the exact expectation of every
bet is computed (batch path, all coups of a chunk of shoes at once) from the cards left in the shoe.
A count sees only the cards turned face up: burned cards are not counted, and its true count divides
by the decks not yet seen. (Averaged over what the counter cannot see, the exact expectation is the
one given the cards seen, so the gains reported for a count are unbiased.)
"""

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from fractions import Fraction
from typing import Any

import numpy as np

from ..core.cards import POINT_VALUES, RANKS, rank_index
from ..core.coup import EMPTY_HAND, STOOD, coup_sequences, next_card, totals, winner_index
from ..bets.bets import Bet, available_bets
from ..core.features import OUTCOMES
from ..errors import InputError
from ..core.numbers import parse_exact, shown
from ..core.policy import Decisions
from ..core.shoe import Shoe

CHUNK_SHOES = 100
"""Shoes per task: the unit of work handed to a worker, fixed so results never depend on workers."""
QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)
THRESHOLDS = tuple(range(-4, 11))
"""True counts at or above which the count tables bet (unless the settings name others)."""
NO_COUPS = "no shoe dealt a coup: the burned cards or the cut card came before the first coup of every shoe (a bigger shoe, a later cut card or no burn)"
"""Why a run that dealt no coup is refused: it has no figure to give."""


@dataclass(frozen=True)
class Settings:
    """Everything that defines a run (picklable: the bets travel to the workers as data, never as names to look up again)."""

    shoe: Shoe
    shoes: int
    seed: int
    penetration: Fraction
    burn: bool
    tags: tuple[int, ...] | None
    bets: tuple[Bet, ...]
    """The bets priced at every coup (a name stands for the catalog's bet, the main bets at the rules' pays)."""
    decisions: Decisions
    thresholds: tuple[int, ...] = THRESHOLDS
    """Counts at or above which one bets, in increasing order."""
    running_count: bool = False
    """Bet on the running count itself (an unbalanced count), not the true count."""
    coups_after_cut: int = 1
    """Coups dealt after the one in which the cut card appears."""

    def __post_init__(self) -> None:
        """Catalog bets given by name, replaced by the bets themselves (here, once: not in every worker)."""
        if any(isinstance(bet, str) for bet in self.bets):
            available = available_bets(self.decisions.rules)
            unknown = [bet for bet in self.bets if isinstance(bet, str) and bet not in available]
            if unknown:
                raise InputError(f"unknown bet {shown(unknown[0])} (see `baccarat-odds bets` for the catalog)")
            object.__setattr__(self, "bets", tuple(available[bet] if isinstance(bet, str) else bet for bet in self.bets))

    @property
    def bet_names(self) -> tuple[str, ...]:
        return tuple(bet.name for bet in self.bets)


def parse_tags(text: str) -> tuple[int, ...]:
    """Count tags: 13 integers in rank order A..K, or RANK=TAG entries (ranks not named tag 0).

    >>> parse_tags("2=1,3=1,4=1,5=1,6=1,T=-1,J=-1,Q=-1,K=-1,A=-1")
    (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1, -1, -1, -1)
    """
    entries = [entry.strip() for entry in text.split(",") if entry.strip()]
    expected = f"unknown count tags {shown(text)} (expected 13 integers for A..K, or RANK=TAG entries such as 5=1,6=-1)"
    if entries and all("=" in entry for entry in entries):
        tags = [0] * 13
        named: set[int] = set()
        for entry in entries:
            rank, _, tag = (part.strip() for part in entry.partition("="))
            index = rank_index(rank)
            if index in named:
                raise InputError(f"count names {RANKS[index]} twice", parameter="count")
            named.add(index)
            tags[index] = _tag(tag, expected)
        return tuple(tags)
    if len(entries) == 13:
        return tuple(_tag(entry, expected) for entry in entries)
    raise InputError(expected)


def _tag(text: str, expected: str) -> int:
    if not re.fullmatch(r"[+-]?[0-9]{1,6}", text, flags=re.ASCII):
        raise InputError(expected)
    return int(text)


def parse_penetration(text: str) -> Fraction:
    value = parse_exact(text, "penetration", "14/16 or 0.875", parameter="penetration")
    if not 0 < value < 1:
        raise InputError(f"penetration must lie strictly between 0 and 1, not {text!r}", parameter="penetration")
    return value


def play_values(decisions: Decisions, values: list[int], start: int, rng: np.random.Generator) -> tuple[int, int]:
    """Cards used and winner (0 banker, 1 player, 2 tie) of the coup dealt from ``values[start:]``,
    following the coup walk; a mixed choice is drawn with ``rng``."""
    hand = EMPTY_HAND
    position = start
    while (move := next_card(decisions, hand)) is not None:
        slot, draw, stand = move
        if stand and (not draw or rng.integers(decisions.scale) >= draw):
            hand = hand[:slot] + (STOOD,) + hand[slot + 1 :]
        else:
            hand = hand[:slot] + (values[position],) + hand[slot + 1 :]
            position += 1
    return position - start, winner_index(*totals(hand))


@lru_cache(maxsize=4)
def dealing_table(decisions: Decisions) -> tuple[np.ndarray, np.ndarray] | None:
    """For pure decisions, the coup dealt from any six point values (index: the values as a
    6-digit number): cards used and winner, read off the vectorised walk (:func:`~exact_odds.core.coup.coup_sequences`)."""
    if not decisions.pure:
        return None
    values, _ = coup_sequences(decisions)
    player_stood = values[4] < 0
    positions = np.vstack([values[:4], np.where(player_stood, values[5], values[4]), np.where(player_stood, -1, values[5])])
    used = (positions >= 0).sum(axis=0)
    prefix = np.zeros(values.shape[1], dtype=np.int64)
    for row in range(6):
        prefix = prefix * 10 + np.maximum(positions[row], 0) * (row < used)
    winner = winner_index(*totals(values))
    spans = 10 ** (6 - used)
    start = prefix - prefix % spans
    codes = np.repeat(start, spans) + np.arange(int(spans.sum())) - np.repeat(np.cumsum(spans) - spans, spans)
    cards, winners = np.zeros(10**6, dtype=np.int8), np.zeros(10**6, dtype=np.int8)
    cards[codes], winners[codes] = np.repeat(used, spans), np.repeat(winner, spans)
    return cards, winners


def _coups(table: tuple[np.ndarray, np.ndarray], digits: np.ndarray, position: np.ndarray, cut: int,
           coups_after_cut: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coups dealt from each row of point values ``digits`` from ``position`` on (see
    :func:`deal_shoes`), read off the dealing table for every shoe at once: the coups of each shoe,
    and per coup (shoe after shoe) its first card and the index of its six values in the table."""
    shoes, width = digits.shape[0], max(0, digits.shape[1] - 5)
    windows = np.zeros((shoes, width), dtype=np.int64)
    for offset in range(6):
        windows = windows * 10 + digits[:, offset : offset + width]
    # each shoe's card after every coup, read to the end of the shoe (a last column that stays there),
    # in one flat array so that a step of every shoe is one lookup
    rows = np.arange(shoes)[:, None] * (width + 1)
    following = np.hstack([np.minimum(np.arange(width) + table[0][windows], width), np.full((shoes, 1), width)]) + rows
    at = np.minimum(position, width) + rows[:, 0]
    path = [at, following.ravel()[at]]
    while (path[-1] - rows[:, 0] < width).any():
        path.append(following.ravel()[path[-1]])
    starts = np.stack(path, axis=1) - rows
    dealt = starts[:, :-1] < width
    available = dealt.sum(axis=1)
    # the cut card appears when the position passes it: among the burned cards (then only the coups
    # after it are dealt) or in a coup, which is finished and followed by ``coups_after_cut`` more
    crossed = dealt & (starts[:, 1:] > cut)
    coups = np.where(position > cut, coups_after_cut, np.where(crossed.any(axis=1), crossed.argmax(axis=1) + 1 + coups_after_cut, available))
    coups = available if coups_after_cut < 0 else np.minimum(coups, available)
    kept = starts[:, :-1][np.arange(starts.shape[1] - 1) < coups[:, None]]
    return coups, kept, windows[np.repeat(np.arange(shoes), coups), kept]


def deal_shoes(settings: Settings, first: int, last: int, suited: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Shoes first..last-1, each as :func:`deal_shoe` deals it, their coups one after the other:
    compositions, winners and true counts per coup, and the coups of each shoe."""
    by_card = settings.shoe.card_counts is not None
    full = np.asarray(settings.shoe.card_counts if by_card else settings.shoe.rank_counts)
    cards = np.tile(np.repeat(np.arange(len(full)), full), (last - first, 1))
    generators = [np.random.Generator(np.random.PCG64([settings.seed, shoe])) for shoe in range(first, last)]  # default_rng's, made faster
    for row, rng in zip(cards, generators):
        rng.shuffle(row)
    ranks = cards // 4 if by_card else cards
    digits = np.asarray(POINT_VALUES)[ranks]
    shoes, size = cards.shape
    # the burn: the first card turned, then as many face down as its value (tens 10)
    position = 1 + np.where(digits[:, 0] > 0, digits[:, 0], 10) if settings.burn else np.zeros(shoes, dtype=np.int64)
    cut = math.floor(size * settings.penetration)
    table = dealing_table(settings.decisions)
    if table is not None:
        coups_per_shoe, starts, windows = _coups(table, digits, position, cut, settings.coups_after_cut)
        winners = table[1][windows].astype(np.int64)
    else:
        starts_of, winners_of = [], []
        for values, rng, at in zip(digits.tolist(), generators, position.tolist()):
            # the shoe's own generator, after its shuffle, draws its mixed choices
            shoe_starts, shoe_winners = [], []
            after_cut = settings.coups_after_cut if at > cut else None
            while after_cut != 0 and at + 6 <= size:
                used, winner = play_values(settings.decisions, values, at, rng)
                shoe_starts.append(at)
                shoe_winners.append(winner)
                at += used
                if after_cut is not None:
                    after_cut -= 1
                elif at > cut:
                    after_cut = settings.coups_after_cut
            starts_of.append(shoe_starts)
            winners_of.append(shoe_winners)
        coups_per_shoe = np.array([len(shoe_starts) for shoe_starts in starts_of], dtype=np.int64)
        starts = np.array([start for shoe_starts in starts_of for start in shoe_starts], dtype=np.int64)
        winners = np.array([winner for shoe_winners in winners_of for winner in shoe_winners], dtype=np.int64)
    shoe_of_coup = np.repeat(np.arange(shoes), coups_per_shoe)
    kinds = cards if suited else ranks
    width = 52 if suited else 13
    # each card before a shoe's last coup is counted in the row of the first coup after it, then the rows
    # are summed over each shoe's coups
    offsets = np.cumsum(coups_per_shoe) - coups_per_shoe
    marks = np.zeros((shoes, size), dtype=np.int64)
    marks[shoe_of_coup, starts] = 1
    before = np.cumsum(marks, axis=1)
    last_start = np.zeros(shoes, dtype=np.int64)
    last_start[coups_per_shoe > 0] = starts[offsets[coups_per_shoe > 0] + coups_per_shoe[coups_per_shoe > 0] - 1]
    counted = np.arange(size) < last_start[:, None]
    rows = (offsets[:, None] + before)[counted]
    dealt_before = np.cumsum(np.bincount(rows * width + kinds[counted], minlength=len(starts) * width).reshape(len(starts), width), axis=0)
    earlier = np.vstack([np.zeros((1, width), dtype=np.int64), dealt_before])[offsets[shoe_of_coup]]
    compositions = (full if suited else np.asarray(settings.shoe.rank_counts)) - (dealt_before - earlier)
    true_counts = np.zeros(len(starts))
    if settings.tags:
        seen = ~((np.arange(size) >= 1) & (np.arange(size) < position[:, None]))
        tagged = np.zeros((shoes, size + 1), dtype=np.int64)
        tagged[:, 1:] = np.asarray(settings.tags)[ranks] * seen
        running = np.cumsum(tagged, axis=1)[shoe_of_coup, starts]
        seen_before = np.cumsum(np.hstack([np.zeros((shoes, 1), dtype=np.int64), seen]), axis=1)[shoe_of_coup, starts]
        # one division of exact integers: a true count that is a whole number is exactly that number
        true_counts = running.astype(np.float64) if settings.running_count else (52 * running) / (size - seen_before)
    return compositions, winners, true_counts, coups_per_shoe


def deal_shoe(settings: Settings, shoe: int, suited: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One shuffled shoe of real cards (suited when the shoe knows its suits): per coup, the
    composition left in the shoe (per card when ``suited``, else per rank), the winner, and the true
    count (running count of the cards seen over the decks not yet seen: burned cards are face down; the
    running count itself when the settings say so)."""
    compositions, winners, true_counts, _ = deal_shoes(settings, shoe, shoe + 1, suited)
    return compositions, winners, true_counts


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
    shoe_moments: np.ndarray  # (bets, 1 + thresholds, 4, 4) see :func:`shoe_moments`; betting when EV > 0, then at each threshold
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
    gains = np.concatenate([perfect_gains[:, :, None], above.transpose(0, 2, 1)], axis=2)  # (shoes, bets, 1 + thresholds)
    made = np.concatenate([perfect_bets[:, :, None], np.broadcast_to(shoe_coups_above[:, None, :], (shoes, len(bets), len(thresholds)))], axis=2)
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

    from .parallel import cluster_executor, local_executor, run_chunks

    tasks = [(settings, first, last) for first, last in chunks(settings)]
    done: dict[int, ChunkResult] = {}
    simulation = Simulation(settings)
    executor: Any = cluster_executor(scheduler) if scheduler else local_executor(workers) if workers > 1 else nullcontext()
    try:
        with executor as pool:
            for index, result in run_chunks(run_chunk, tasks, pool):
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
        entry: dict[str, Any] = {
            "mean_ev": round(float(ev_sums[index]) / coups, 8),
            # None when every sampled shoe dealt no coup
            "quantiles": {f"{q:g}": round(float(value), 8) for q, value in zip(QUANTILES, np.quantile(sample[:, index], QUANTILES))} if len(sample) else None,
            "positive_share": round(float(positive_counts[index]) / coups, 6),
            "perfect_information_gain_per_100_coups": round(100 * float(positive_sums[index]) / coups, 6),
            "perfect_information": per_shoe_record(per_shoe[index, 0], shoes, float(positive_counts[index])),
        }
        if settings.tags:
            count_sum, count_squares, ev_sum, ev_squares, cross = (float(value) for value in moments[index])
            spread = math.sqrt(max(0.0, (count_squares / coups - (count_sum / coups) ** 2) * (ev_squares / coups - (ev_sum / coups) ** 2)))
            entry["count_correlation"] = round((cross / coups - count_sum * ev_sum / coups**2) / spread, 6) if spread else 0.0
            entry["by_true_count"] = {
                str(threshold): {
                    "bet_share": round(float(threshold_coups[position]) / coups, 6),
                    "gain_per_100_coups": round(100 * float(threshold_ev[index, position]) / coups, 6),
                    **per_shoe_record(per_shoe[index, 1 + position], shoes, float(threshold_coups[position])),
                }
                for position, threshold in enumerate(settings.thresholds)
            }
        bets[name] = entry
    record["bets"] = bets
    return record


def per_shoe_record(moments: np.ndarray, shoes: int, bets_made: float) -> dict[str, float | None]:
    """The mean win per shoe (units, one unit per bet made) and its standard error over shoes (None,
    undefined, for one shoe), and the bets made per shoe (``moments``: see :func:`shoe_moments`)."""
    mean = float(moments[0, 1]) / shoes
    error = round(math.sqrt(max(0.0, float(moments[1, 1]) / shoes - mean**2) * shoes / (shoes - 1) / shoes), 6) if shoes > 1 else None
    return {"gain_per_shoe": round(mean, 6), "gain_per_shoe_standard_error": error, "bets_per_shoe": round(bets_made / shoes, 4)}


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
            "edge_when_betting": ratio(0, 1), "gain_per_100_coups": ratio(0, 2, 100.0)}


def summary_text(record: dict[str, Any]) -> str:
    """The report as tables."""
    from ..output.grid import grid

    settings = record["settings"]
    lines = [
        f"{record['shoes_completed']:,} shoes of {settings['shoe']}, {settings['rules']}"
        + (f" ({settings['policy']})" if settings["policy"] else "") + f" (seed {settings['seed']}, penetration "
        f"{settings['penetration']}, burn {'on' if settings['burn'] else 'off'}), {record['coups']:,} coups"
        + (" (interrupted: the shoes completed in order)" if record["interrupted"] else ""),
        "",
    ]
    if not record["coups"]:
        return "\n".join(lines) + "\n"
    rows = [[name, f"{entry['observed']:.6f}", f"{entry['exact_mean']:.6f}", f"{entry['standard_error']:.6f}", f"{entry['z']:+.2f}"] for name, entry in record["outcomes"].items()]
    lines += [grid(rows, ["outcome", "observed", "exact (mean over coups)", "std error", "z"]), ""]
    rows = []
    for name, entry in record["bets"].items():
        quantiles = [f"{100 * entry['quantiles'][q]:.4f}%" if entry["quantiles"] else "n/a" for q in ("0.01", "0.5", "0.99")]
        rows.append([name, f"{100 * entry['mean_ev']:.4f}%", *quantiles, f"{100 * entry['positive_share']:.3f}%", f"{entry['perfect_information_gain_per_100_coups']:.5f}"]
                    + ([f"{entry['count_correlation']:.3f}"] if "count_correlation" in entry else []))
    headers = ["bet", "mean EV", "EV 1%", "EV median", "EV 99%", "coups EV > 0", "gain /100 coups (EV > 0)"]
    headers += ["count corr."] if settings["count_tags"] else []
    lines += [grid(rows, headers), ""]
    if settings["count_tags"]:
        for name, entry in record["bets"].items():
            best = max(entry["by_true_count"].items(), key=lambda item: item[1]["gain_per_100_coups"])
            if best[1]["gain_per_100_coups"] > 0:
                lines.append(f"{name}: betting at true count >= {best[0]} (on {100 * best[1]['bet_share']:.3f}% of coups) "
                             f"gains {best[1]['gain_per_100_coups']:.5f} units per 100 coups")
            else:
                lines.append(f"{name}: no true-count threshold from {min(entry['by_true_count'], key=int)} to {max(entry['by_true_count'], key=int)} gains")
    return "\n".join(lines) + "\n"
