"""Baccara banque's payoff structure on a shoe, exactly: a banker against two player hands dealt
from one shoe (:class:`exact_odds.core.rules.BanqueRules`).

Every coup is counted among the ``N (N-1) ... (N-8)`` ordered 9-card sequences (``N^9`` with
replacement): the three two-card hands, then up to three third cards. The banker decides in a
*cell*: his two-card total against what he sees of each player (a natural, a standing, or the third
card face up). In each cell and for each of his choices (stand, draw) the banker's net wins against
each hand (wins less losses) are counted as polynomials in the players' draw probabilities: a
coup meets at most one choice of each player, so each count is the coefficient of 1, of player
1's probability of drawing at the cell's option point, of player 2's, or of their product.

The counts are exact integers, added up in residues modulo three primes below 2^31 (numpy) and
recovered by the Chinese remainder theorem: the largest count (8 decks: 416^9, about 2^78) is well
inside their product (about 2^93).

>>> from exact_odds.core.rules import BANQUE_ETHIER_LEE
>>> from exact_odds.core.shoe import Shoe
>>> table = banque_table(BANQUE_ETHIER_LEE, Shoe.parse("K=3,A=2,2=2,5=3"))  # ten cards: 10 x 9 x ... x 2 deals
>>> table.total, table.options, table.constant
(3628800, (5,), (0, 0))
"""

from dataclasses import dataclass
from functools import lru_cache
from math import prod
from typing import Any

import numpy as np

from ..core.rules import CHOICE, DRAW, STAND, BanqueRules
from ..core.shoe import Shoe

STOOD, NATURAL = 10, 11
"""A player's state as the banker sees it: his third card 0-9, that he stood, or a natural."""
STATE_NAMES = (*map(str, range(10)), "stood", "natural")
PAIRS = [(low, high) for low in range(10) for high in range(low, 10)]
PRIMES = (2147483647, 2147483629, 2147483587)

Cell = tuple[int, int, int]
"""(banker's two-card total, player 1's state, player 2's state)."""


@dataclass(frozen=True)
class BanqueTable:
    """The payoff structure of a banque rule set on a shoe, counted out of ``total`` sequences.

    ``options`` are the totals where a player chooses (C); ``counts[cell][choice][hand][m1][m2]``
    the banker's net wins against hand 1 or 2 (``hand`` 0 or 1) when he stands (``choice`` 0) or
    draws (1) in the cell: the coefficient of the product of player 1's factor ``m1`` (0: 1; 1 + i:
    his probability of drawing on ``options[i]`` in this cell's situation) and player 2's ``m2``.
    ``constant`` holds the coups where no one chooses (a banker's natural, or two players')."""

    rules: BanqueRules
    total: int
    options: tuple[int, ...]
    constant: tuple[int, int]
    cells: tuple[Cell, ...]
    counts: tuple[tuple[tuple[tuple[tuple[int, ...], ...], ...], ...], ...]


def _branches(rules: BanqueRules, total: int, natural: bool, options: tuple[int, ...]) -> list[tuple[bool, int, list[tuple[int, int]]]]:
    """How a player's hand can go: (draws, state if he does not draw, [(factor index, coefficient)])."""
    if natural:
        return [(False, NATURAL, [(0, 1)])]
    mark = rules.player[total]
    if mark == DRAW:
        return [(True, -1, [(0, 1)])]
    if mark == STAND:
        return [(False, STOOD, [(0, 1)])]
    index = 1 + options.index(total)
    return [(True, -1, [(index, 1)]), (False, STOOD, [(0, 1), (index, -1)])]


def _sign_tables() -> tuple[np.ndarray, np.ndarray]:
    """SIGN[b, p]: the banker's result with total b against total p; DRAWN[t, c, p]: with two-card
    total t and third card c against p."""
    sign = np.array([[(b > p) - (b < p) for p in range(10)] for b in range(10)], dtype=np.int64)
    drawn = np.array([[sign[(t + c) % 10] for c in range(10)] for t in range(10)], dtype=np.int64)
    return sign, drawn


SIGN, DRAWN = _sign_tables()
LOW = np.array([low for low, _ in PAIRS])
HIGH = np.array([high for _, high in PAIRS])
PAIR_TOTAL = (LOW + HIGH) % 10
BY_TOTAL = np.zeros((len(PAIRS), 10), dtype=np.int64)
BY_TOTAL[np.arange(len(PAIRS)), PAIR_TOTAL] = 1
HAND_CARDS = np.zeros((len(PAIRS), 10), dtype=np.int64)
np.add.at(HAND_CARDS, (np.arange(len(PAIRS)), LOW), 1)
np.add.at(HAND_CARDS, (np.arange(len(PAIRS)), HIGH), 1)


class _Counter:
    """The residues of every count (three primes at once) and the exact constants."""

    def __init__(self, size: int):
        self.residues = np.zeros((len(PRIMES), 10, 12, 12, 2, 2, size, size), dtype=np.int64)
        self.primes = np.array(PRIMES, dtype=np.int64).reshape(-1, 1, 1, 1)
        self.constant = [0, 0]

    def add(self, where: tuple[object, ...], values: np.ndarray, factor: int) -> None:
        """Add ``factor * values`` (values: banker total x state 1 x state 2) at ``where``."""
        residues = (values[None] % self.primes) * (np.array([factor % p for p in PRIMES], dtype=np.int64).reshape(-1, 1, 1, 1)) % self.primes
        index: tuple[Any, ...] = (slice(None), slice(None), *where)
        target = self.residues[index]
        target += residues.reshape(target.shape)
        target %= self.primes.reshape((-1,) + (1,) * (target.ndim - 1))

    def exact(self) -> np.ndarray:
        """The counts recovered from their residues (Python integers, the symmetric range)."""
        modulus = prod(PRIMES)
        result = np.zeros(self.residues.shape[1:], dtype=object)
        for prime, residues in zip(PRIMES, self.residues):
            others = modulus // prime
            result = result + residues.astype(object) * (others * pow(others, -1, prime))
        result = result % modulus
        return np.where(result > modulus // 2, result - modulus, result)


@lru_cache(maxsize=16)
def banque_table(rules: BanqueRules, shoe: Shoe) -> BanqueTable:
    """The payoff structure of ``rules`` dealt from ``shoe`` (see the module docstring)."""
    shoe.checked(9)
    counts = np.array(shoe.value_counts, dtype=np.int64)
    size = int(counts.sum())
    replace = shoe.with_replacement
    rest = [prod((size if replace else size - position) for position in range(used, 9)) for used in range(10)]
    options = tuple(total for total in range(10) if total not in rules.naturals and rules.player[total] == CHOICE)
    counter = _Counter(1 + len(options))
    for first, second in ((a, b) for a in PAIRS for b in PAIRS):
        weight, left = _dealt(counts, [*first, *second], replace)
        if weight:
            _pair(rules, options, counter, first, second, weight * (2 - (first[0] == first[1])) * (2 - (second[0] == second[1])), left, replace, rest)
    exact = counter.exact()
    cells = []
    table = []
    for banker_total in range(10):
        for state_1 in range(12):
            for state_2 in range(12):
                block = exact[banker_total, state_1, state_2]
                if banker_total in rules.naturals or (state_1 == NATURAL and state_2 == NATURAL) or not block.any():
                    continue
                cells.append((banker_total, state_1, state_2))
                table.append(tuple(tuple(tuple(tuple(int(value) for value in row) for row in hand) for hand in choice) for choice in block))
    return BanqueTable(rules, rest[0], options, (counter.constant[0], counter.constant[1]), tuple(cells), tuple(table))


def _dealt(counts: np.ndarray, cards: list[int], replace: bool) -> tuple[int, np.ndarray]:
    """The ordered ways to deal ``cards`` and the shoe's counts left after them."""
    left = counts.copy()
    weight = 1
    for card in cards:
        weight *= int(left[card])
        if not replace:
            left[card] -= 1
    return weight, left


def _pair(rules: BanqueRules, options: tuple[int, ...], counter: _Counter, first: tuple[int, int], second: tuple[int, int],
          weight: int, left: np.ndarray, replace: bool, rest: list[int]) -> None:
    """Every coup where the players hold ``first`` and ``second`` (dealt ``weight`` ways), by the
    banker's two cards and the third cards."""
    totals = (sum(first) % 10, sum(second) % 10)
    naturals = tuple(total in rules.naturals for total in totals)
    if replace:
        hands = (2 - (LOW == HIGH)) * left[LOW] * left[HIGH]
        after = np.broadcast_to(left, (len(PAIRS), 10))
    else:
        hands = (2 - (LOW == HIGH)) * left[LOW] * (left[HIGH] - (LOW == HIGH))
        after = left[None, :] - HAND_CARDS
    banker_natural = np.isin(PAIR_TOTAL, sorted(rules.naturals))
    # no one chooses: the banker's natural (two-card totals compared), or both players'
    for hand, total in enumerate(totals):
        counter.constant[hand] += weight * rest[6] * int((hands * banker_natural * SIGN[PAIR_TOTAL, total]).sum())
    if all(naturals):
        for hand in (0, 1):
            counter.constant[hand] -= weight * rest[6] * int((hands * ~banker_natural).sum())
        return
    hands = hands * ~banker_natural
    drawn_sum = np.einsum("hc,hcp->hp", after, DRAWN[PAIR_TOTAL])  # per banker hand, the sum over his third card, by player total
    for draws_1, state_1, factors_1 in _branches(rules, totals[0], naturals[0], options):
        for draws_2, state_2, factors_2 in _branches(rules, totals[1], naturals[1], options):
            shape = (len(PAIRS), 10 if draws_1 else 1, 10 if draws_2 else 1)
            cards_1 = np.arange(10).reshape(1, -1, 1) if draws_1 else None
            cards_2 = np.arange(10).reshape(1, 1, -1) if draws_2 else None
            third = np.ones(shape, dtype=np.int64)
            if cards_1 is not None:
                third = third * after[:, :, None]
            if cards_2 is not None:
                third = third * (after[:, None, :] - (0 if replace or cards_1 is None else (cards_1 == cards_2)))
            base = hands[:, None, None] * third
            finals = [(totals[0] + cards_1) % 10 if cards_1 is not None else None, (totals[1] + cards_2) % 10 if cards_2 is not None else None]
            for choice in (0, 1):
                used = 6 + draws_1 + draws_2 + choice
                for hand in (0, 1):
                    values = _results(base, hand, naturals[hand], totals[hand], finals[hand], choice, after, drawn_sum, cards_1, cards_2, replace, shape)
                    by_total = np.einsum("ht,hij->tij", BY_TOTAL, values)
                    where_1 = slice(0, 10) if draws_1 else state_1
                    where_2 = slice(0, 10) if draws_2 else state_2
                    for index_1, coefficient_1 in factors_1:
                        for index_2, coefficient_2 in factors_2:
                            counter.add((where_1, where_2, choice, hand, index_1, index_2), by_total,
                                        weight * rest[used] * coefficient_1 * coefficient_2)


def _results(base: np.ndarray, hand: int, natural: bool, total: int, final: np.ndarray | None, choice: int, after: np.ndarray,
             drawn_sum: np.ndarray, cards_1: np.ndarray | None, cards_2: np.ndarray | None, replace: bool, shape: tuple[int, int, int]) -> np.ndarray:
    """The banker's net wins against one hand, by banker hand and third cards (the banker's own third
    card summed over), weighted by ``base``."""
    banker = PAIR_TOTAL.reshape(-1, 1, 1)
    result: np.ndarray
    if choice == 0:
        result = -base if natural else base * SIGN[banker, final if final is not None else total]
        return result
    # the banker's third card: any card left, less the players' third cards already dealt
    if natural:
        left = after.sum(axis=1).reshape(-1, 1, 1) - (0 if replace else (cards_1 is not None) + (cards_2 is not None))
        result = -base * left
        return result
    player = final if final is not None else np.full((1, 1, 1), total)
    won = np.take_along_axis(drawn_sum[:, None, None, :], np.broadcast_to(player, shape)[..., None], axis=3)[..., 0]
    if not replace:
        for cards in (cards_1, cards_2):
            if cards is not None:
                won = won - DRAWN[banker, cards, player]
    result = base * won
    return result
