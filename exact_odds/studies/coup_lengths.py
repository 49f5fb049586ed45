"""How many cards each coup takes: a sequence of point values cut into whole coups, by classes.

A coup takes four cards, five or six, and which is decided by the cards themselves: the first four
(the player's two and the banker's two) settle whether the coup ends there, takes exactly one more,
exactly two, or one more and then a sixth if the fifth card says so. That is the *behaviour* of the
first four cards: the cards the coup takes for each value of the fifth card. It depends on the
player's pair (cards 1 and 3) and the banker's pair (cards 2 and 4), each in either order, so pairs
fall into *classes*: player pairs that behave alike against every banker pair, and banker pairs
alike against every player pair. Punto Banco has 3 player classes (draws, stands, natural), 7
banker classes and 7 behaviours. :mod:`exact_odds.studies.shoe_exact` counts the sequences of point
values that cut into whole coups pair class by pair class, not sequence by sequence.

>>> from exact_odds.core.policy import resolve
>>> from exact_odds.core.rules import PUNTO_BANCO
>>> lengths = coup_lengths(resolve(PUNTO_BANCO))
>>> len(lengths.player_classes), len(lengths.banker_classes), len(lengths.behaviours)
(3, 7, 7)
>>> lengths.behaviours[lengths.behaviour[lengths.player_class[(0, 5)]][lengths.banker_class[(0, 3)]]]
(6, 6, 6, 6, 6, 6, 6, 6, 5, 6)
"""

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement, product

from ..core.features import sequence_index
from ..core.policy import Decisions
from ..errors import InputError
from .dealer import dealing_table

Pair = tuple[int, int]
PAIRS: tuple[Pair, ...] = tuple(combinations_with_replacement(range(10), 2))
"""The 55 pairs of point values, each in increasing order."""
ENDS = (4,) * 10
"""The behaviour of four cards that settle the coup."""


def orders(pair: Pair) -> int:
    """The orders a pair can be dealt in: 1 for two equal values, else 2."""
    return 1 if pair[0] == pair[1] else 2


@dataclass(frozen=True)
class CoupLengths:
    """The classes of a rule set's pairs, and the behaviour of each player class against each banker class."""

    player_class: dict[Pair, int]
    """Each player pair's class."""
    banker_class: dict[Pair, int]
    behaviour: tuple[tuple[int, ...], ...]
    """``behaviour[player class][banker class]``: an index into :attr:`behaviours`."""
    behaviours: tuple[tuple[int, ...], ...]
    """Each behaviour: the cards the coup takes (4, 5 or 6) by the value of its fifth card; :data:`ENDS` first."""

    @property
    def player_classes(self) -> tuple[tuple[Pair, ...], ...]:
        return _members(self.player_class)

    @property
    def banker_classes(self) -> tuple[tuple[Pair, ...], ...]:
        return _members(self.banker_class)


def _members(classes: dict[Pair, int]) -> tuple[tuple[Pair, ...], ...]:
    return tuple(tuple(pair for pair in PAIRS if classes[pair] == index) for index in range(max(classes.values()) + 1))


def _classes(rows: dict[Pair, tuple[int, ...]]) -> dict[Pair, int]:
    """Pairs with equal rows in one class, numbered in the order of :data:`PAIRS`."""
    numbers: dict[tuple[int, ...], int] = {}
    return {pair: numbers.setdefault(rows[pair], len(numbers)) for pair in PAIRS}


@lru_cache(maxsize=8)
def coup_lengths(decisions: Decisions) -> CoupLengths:
    """The pair classes and behaviours of ``decisions`` (pure: every choice fixed), read off the
    dealing table of the simulation (:func:`~exact_odds.studies.dealer.dealing_table`), so that the
    exact shoe cuts coups exactly as the simulation deals them."""
    table = dealing_table(decisions)
    if table is None:
        raise InputError("the exact shoe needs a policy that fixes every choice (a mixed choice draws at random: method simulated deals it)",
                         parameter="policy")
    used = table[0]

    def cards(first: int, second: int, third: int, fourth: int) -> tuple[int, ...]:
        return tuple(int(used[sequence_index((first, second, third, fourth, fifth, 0))]) for fifth in range(10))

    seen = {(player, banker): cards(player[0], banker[0], player[1], banker[1]) for player, banker in product(PAIRS, PAIRS)}
    for (player, banker), behaviour in seen.items():  # a hand's two cards in either order take the same cards
        if cards(player[1], banker[1], player[0], banker[0]) != behaviour:
            raise InputError(f"the exact shoe needs rules that read a hand's two cards in either order ({decisions.rules.name} does not)")
    behaviours = (ENDS,) + tuple(sorted(set(seen.values()) - {ENDS}))
    index = {behaviour: position for position, behaviour in enumerate(behaviours)}
    player_class = _classes({player: tuple(index[seen[player, banker]] for banker in PAIRS) for player in PAIRS})
    banker_class = _classes({banker: tuple(index[seen[player, banker]] for player in PAIRS) for banker in PAIRS})
    grid = [[0] * (max(banker_class.values()) + 1) for _ in range(max(player_class.values()) + 1)]
    for (player, banker), behaviour in seen.items():
        grid[player_class[player]][banker_class[banker]] = index[behaviour]
    return CoupLengths(player_class, banker_class, tuple(map(tuple, grid)), behaviours)
