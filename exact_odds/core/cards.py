"""Ranks, suits, point values and card text.

Card text is case-insensitive: a rank ``A 2..9 T 10 J Q K`` and an optional suit ``S H D C``.

>>> parse_card("10h")
Card(rank='T', suit='H')
>>> parse_card("kd").value
0
>>> [str(card) for card in parse_cards("9s 5 Ac")]
['9S', '5', 'AC']
"""

from ..errors import InputError
from .values import OrderedValue

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
POINT_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)
"""Baccarat point value of each rank, in the order of :data:`RANKS`."""


def rank_index(rank: str) -> int:
    """Index of a rank symbol in :data:`RANKS` (``"10"`` is accepted for ``T``)."""
    symbol = rank.upper()
    if symbol == "10":
        symbol = "T"
    if symbol not in RANKS:
        raise InputError(f"unknown rank {rank!r} (expected one of A 2 3 4 5 6 7 8 9 T 10 J Q K)")
    return RANKS.index(symbol)


class Card(OrderedValue):
    """A card: a rank and, when known, a suit."""

    __slots__ = ("rank", "suit")
    rank: str
    suit: str | None

    def __init__(self, rank: str, suit: str | None = None) -> None:
        if rank not in RANKS:
            raise InputError(f"unknown rank {rank!r} (expected one of {' '.join(RANKS)}; parse_card reads card text)")
        if suit is not None and suit not in SUITS:
            raise InputError(f"unknown suit {suit!r} (expected one of {' '.join(SUITS)} or None)")
        self._set(rank, suit)

    @property
    def rank_index(self) -> int:
        return RANKS.index(self.rank)

    @property
    def value(self) -> int:
        """Baccarat point value: tens and faces 0, ace 1."""
        return POINT_VALUES[self.rank_index]

    def __str__(self) -> str:
        return self.rank + (self.suit or "")


def parse_card(text: str) -> Card:
    """Parse one card such as ``9s``, ``10H``, ``kd`` or ``5``."""
    token = text.strip().upper()
    if len(token) >= 2 and token[-1] in SUITS:
        rank, suit = token[:-1], token[-1]
    else:
        rank, suit = token, None
    try:
        index = rank_index(rank)
    except InputError:
        raise InputError(f"unknown card {text!r} (expected a rank A 2-9 T 10 J Q K and an optional suit S H D C)") from None
    return Card(RANKS[index], suit)


def parse_cards(text: str | list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas (or a list of such texts)."""
    if isinstance(text, str):
        text = [text]
    tokens = [token for part in text for token in part.replace(",", " ").split()]
    return tuple(parse_card(token) for token in tokens)
