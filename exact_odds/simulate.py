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
from fractions import Fraction
from typing import Any

import numpy as np

from .cards import POINT_VALUES, RANKS, rank_index
from .coup import EMPTY_HAND, STOOD, coup_key, next_card
from .errors import InputError
from .parsing import parse_exact, shown
from .policy import Decisions
from .shoe import Shoe

CHUNK_SHOES = 25
"""Shoes per task: the unit of work handed to a worker, fixed so results never depend on workers."""
QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)
OUTCOME_EVENTS = {"banker": "winner == banker", "player": "winner == player", "tie": "winner == tie"}


@dataclass(frozen=True)
class Settings:
    """Everything that defines a run (picklable: bets travel as names and file text)."""

    shoe: Shoe
    shoes: int
    seed: int
    penetration: Fraction
    burn: bool
    tags: tuple[int, ...] | None
    bet_names: tuple[str, ...]
    decisions: Decisions
    bets_text: str | None = None


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
                raise InputError(f"--count names {RANKS[index]} twice")
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
    value = parse_exact(text, "--penetration", "14/16 or 0.875")
    if not 0 < value < 1:
        raise InputError(f"--penetration must lie strictly between 0 and 1, not {text!r}")
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
    player_two, banker_two, player_third, banker_third = coup_key(hand)
    player = (player_two + max(player_third, 0)) % 10
    banker = (banker_two + max(banker_third, 0)) % 10
    return position - start, 0 if banker > player else 1 if player > banker else 2


def deal_shoe(settings: Settings, shoe: int, suited: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One shuffled shoe of real cards (suited when the shoe knows its suits): per coup, the
    composition left in the shoe (per card when ``suited``, else per rank), the winner, and the true
    count (running count of the cards seen over the decks not yet seen: burned cards are face down)."""
    rng = np.random.default_rng([settings.seed, shoe])
    by_card = settings.shoe.card_counts is not None
    full = np.asarray(settings.shoe.card_counts if by_card else settings.shoe.rank_counts)
    cards = np.repeat(np.arange(len(full)), full)
    rng.shuffle(cards)
    ranks = cards // 4 if by_card else cards
    values = np.asarray(POINT_VALUES)[ranks].tolist()
    size = len(cards)
    seen = np.ones(size, dtype=bool)
    position = 0
    if settings.burn:
        burned = values[0] or 10
        seen[1 : 1 + burned] = False
        position = 1 + burned
    cut = math.floor(size * settings.penetration)
    starts, winners = [], []
    last = False
    while position + 6 <= size:
        used, winner = play_values(settings.decisions, values, position, rng)
        starts.append(position)
        winners.append(winner)
        appeared = position <= cut < position + used
        position += used
        if last:
            break
        last = appeared
    kinds = cards if suited else ranks
    onehot = np.zeros((size + 1, 52 if suited else 13), dtype=np.int64)
    onehot[np.arange(1, size + 1), kinds] = 1
    dealt_before = np.cumsum(onehot, axis=0)[starts]
    compositions = (full if suited else np.asarray(settings.shoe.rank_counts)) - dealt_before
    true_counts = np.zeros(len(starts))
    if settings.tags:
        tags = np.asarray(settings.tags)
        card_tags = tags[np.arange(52) // 4] if suited else tags
        onehot[1:] *= seen[:, None]
        seen_before = np.cumsum(onehot, axis=0)[starts]
        unseen = size - seen_before.sum(axis=1)
        true_counts = (seen_before @ card_tags) / (unseen / 52)
    return compositions, np.asarray(winners), true_counts


@dataclass
class ChunkResult:
    """Per coup, in shoe order: exact-sign flags and float expectations of each bet, outcome data."""

    shoes: int
    expectations: np.ndarray  # (coups, bets) float, for statistics
    positive: np.ndarray  # (coups, bets) exact sign
    probabilities: np.ndarray  # (coups, 3) exact P(banker, player, tie) as floats
    winners: np.ndarray
    true_counts: np.ndarray


def chosen_bets(settings: Settings):
    from .bets import available_bets, load_bets

    available = available_bets(settings.decisions.rules, load_bets(settings.bets_text, "bets file") if settings.bets_text else None)
    return [available[name] for name in settings.bet_names]


def indicator_bets():
    """Bets that pay 1 on each outcome, so that P = (EV + 1) / 2."""
    from .bets import bet_from_record

    return [bet_from_record({"name": name, "pays": [{"when": when, "pays": "1"}]}, "simulation") for name, when in OUTCOME_EVENTS.items()]


def run_chunk(settings: Settings, first: int, last: int) -> ChunkResult:
    """Deal shoes first..last-1 and weigh every coup."""
    from .batch import batch_expectations

    bets = chosen_bets(settings)
    suited = any(bet.needs_suits for bet in bets)
    dealt = [deal_shoe(settings, shoe, suited) for shoe in range(first, last)]
    compositions = np.concatenate([shoe[0] for shoe in dealt])
    batch = batch_expectations(compositions, bets + indicator_bets(), settings.decisions)
    floats = batch.floats()
    return ChunkResult(
        last - first,
        floats[:, : len(bets)],
        batch.positive()[:, : len(bets)],
        (floats[:, len(bets) :] + 1) / 2,
        np.concatenate([shoe[1] for shoe in dealt]),
        np.concatenate([shoe[2] for shoe in dealt]),
    )


def chunks(settings: Settings) -> list[tuple[int, int]]:
    return [(first, min(first + CHUNK_SHOES, settings.shoes)) for first in range(0, settings.shoes, CHUNK_SHOES)]


@dataclass
class Simulation:
    settings: Settings
    results: list[ChunkResult] = field(default_factory=list)
    interrupted: bool = False

    def expectations(self) -> np.ndarray:
        """(coups x bets) float expectations of every coup, in shoe order."""
        return np.concatenate([result.expectations for result in self.results])

    def true_counts(self) -> np.ndarray:
        return np.concatenate([result.true_counts for result in self.results])


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


THRESHOLDS = tuple(range(-4, 11))
"""True counts at or above which the count tables bet."""


def summary(simulation: Simulation) -> dict:
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
    if not results:
        record["coups"] = 0
        return record
    expectations = np.concatenate([result.expectations for result in results])
    positive = np.concatenate([result.positive for result in results])
    probabilities = np.concatenate([result.probabilities for result in results])
    winners = np.concatenate([result.winners for result in results])
    true_counts = np.concatenate([result.true_counts for result in results])
    coups = len(winners)
    record["coups"] = coups
    outcomes = {}
    for index, name in enumerate(OUTCOME_EVENTS):
        expected = probabilities[:, index]
        error = math.sqrt(float((expected * (1 - expected)).sum())) / coups
        observed = float((winners == index).sum()) / coups
        outcomes[name] = {
            "observed": round(observed, 6),
            "exact_mean": round(float(expected.mean()), 6),
            "standard_error": round(error, 6),
            "z": round((observed - float(expected.mean())) / error, 3) if error else 0.0,
        }
    record["outcomes"] = outcomes
    bets = {}
    for index, name in enumerate(settings.bet_names):
        values = expectations[:, index]
        entry = {
            "mean_ev": round(float(values.mean()), 8),
            "quantiles": {f"{q:g}": round(float(value), 8) for q, value in zip(QUANTILES, np.quantile(values, QUANTILES))},
            "positive_share": round(float(positive[:, index].mean()), 6),
            "perfect_information_gain_per_100_coups": round(100 * float(values[positive[:, index]].sum()) / coups, 6),
        }
        if settings.tags:
            spread = values.std() * true_counts.std()
            entry["count_correlation"] = round(float(((values - values.mean()) * (true_counts - true_counts.mean())).mean() / spread), 6) if spread else 0.0
            entry["by_true_count"] = {
                str(threshold): {
                    "bet_share": round(float((true_counts >= threshold).mean()), 6),
                    "gain_per_100_coups": round(100 * float(values[true_counts >= threshold].sum()) / coups, 6),
                }
                for threshold in THRESHOLDS
            }
        bets[name] = entry
    record["bets"] = bets
    return record


def summary_text(record: dict) -> str:
    """The report as tables."""
    from tabulate import tabulate

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
    lines += [tabulate(rows, ["outcome", "observed", "exact (mean over coups)", "std error", "z"], tablefmt="simple", disable_numparse=True), ""]
    rows = []
    for name, entry in record["bets"].items():
        quantiles = entry["quantiles"]
        rows.append([name, f"{100 * entry['mean_ev']:.4f}%", f"{100 * quantiles['0.01']:.4f}%", f"{100 * quantiles['0.5']:.4f}%",
                     f"{100 * quantiles['0.99']:.4f}%", f"{100 * entry['positive_share']:.3f}%", f"{entry['perfect_information_gain_per_100_coups']:.5f}"]
                    + ([f"{entry['count_correlation']:.3f}"] if "count_correlation" in entry else []))
    headers = ["bet", "mean EV", "EV 1%", "EV median", "EV 99%", "coups EV > 0", "gain /100 coups (EV > 0)"]
    headers += ["count corr."] if settings["count_tags"] else []
    lines += [tabulate(rows, headers, tablefmt="simple", disable_numparse=True), ""]
    if settings["count_tags"]:
        for name, entry in record["bets"].items():
            best = max(entry["by_true_count"].items(), key=lambda item: item[1]["gain_per_100_coups"])
            if best[1]["gain_per_100_coups"] > 0:
                lines.append(f"{name}: betting at true count >= {best[0]} (on {100 * best[1]['bet_share']:.3f}% of coups) "
                             f"gains {best[1]['gain_per_100_coups']:.5f} units per 100 coups")
            else:
                lines.append(f"{name}: no true-count threshold from {THRESHOLDS[0]} to {THRESHOLDS[-1]} gains")
    return "\n".join(lines) + "\n"
