"""Real shuffled shoes dealt to the cut card: what defines a run, and the coups each shoe deals.

Each shoe is shuffled by its own generator, seeded by (seed, shoe number), so a run gives the same
result whatever the number of workers or machines. A shoe is dealt as Punto Banco deals it (the burn,
the coups to the cut card, one more after it), every shoe of a chunk at once; what each coup leaves in
the shoe is what the statistics (:mod:`exact_odds.studies.simulate`) weigh. A count sees only the
cards turned face up: burned cards are not counted, and its true count divides by the decks not yet
seen.
"""

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction

import numpy as np

from ..core.cards import POINT_VALUES, RANKS, rank_index
from ..core.coup import EMPTY_HAND, STOOD, coup_sequences, next_card, totals, winner_index
from ..core.features import sequence_index, shoe_order
from ..bets.bets import Bet, available_bets, unknown_bet
from ..errors import InputError
from ..core.numbers import parse_exact, shown
from ..core.policy import Decisions
from ..core.shoe import Shoe

THRESHOLDS = tuple(range(-4, 11))
"""True counts at or above which the count tables bet (unless the settings name others)."""


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
                raise unknown_bet(unknown[0], available)
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
    """For pure decisions, the coup dealt from any six point values (index:
    :func:`~exact_odds.core.features.sequence_index`): cards used and winner, read off the
    vectorised walk (:func:`~exact_odds.core.coup.coup_sequences`)."""
    if not decisions.pure:
        return None
    values, _ = coup_sequences(decisions)
    positions = shoe_order(values)
    used = (positions >= 0).sum(axis=0)
    prefix = sequence_index(np.maximum(positions, 0))  # the cards the coup uses, then zeros
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
    windows = sequence_index(digits[:, offset : offset + width] for offset in range(6))
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


def deal_shoes(settings: Settings, first: int, last: int, suited: bool = False, seen: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Shoes first..last-1, each as :func:`deal_shoe` deals it, their coups one after the other:
    compositions, winners and true counts per coup, and the coups of each shoe. With ``seen``, the
    compositions are of the cards not seen before each coup (the burned cards, face down, among them)."""
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
    face_down = (np.arange(size) >= 1) & (np.arange(size) < position[:, None])
    counted = np.arange(size) < last_start[:, None]
    if seen:
        counted &= ~face_down
    rows = (offsets[:, None] + before)[counted]
    dealt_before = np.cumsum(np.bincount(rows * width + kinds[counted], minlength=len(starts) * width).reshape(len(starts), width), axis=0)
    earlier = np.vstack([np.zeros((1, width), dtype=np.int64), dealt_before])[offsets[shoe_of_coup]]
    compositions = (full if suited else np.asarray(settings.shoe.rank_counts)) - (dealt_before - earlier)
    true_counts = np.zeros(len(starts))
    if settings.tags:
        tagged = np.zeros((shoes, size + 1), dtype=np.int64)
        tagged[:, 1:] = np.asarray(settings.tags)[ranks] * ~face_down
        running = np.cumsum(tagged, axis=1)[shoe_of_coup, starts]
        seen_before = np.cumsum(np.hstack([np.zeros((shoes, 1), dtype=np.int64), ~face_down]), axis=1)[shoe_of_coup, starts]
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
