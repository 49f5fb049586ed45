"""The groups of a sort: a partition of the values, the ranks or the suits into groups, what the
backs of sorted cards show (:mod:`exact_odds.studies.protect` values what seeing them is worth)."""

from dataclasses import dataclass

import numpy as np

from ..core.cards import POINT_VALUES, RANKS, SUITS
from ..core.features import Array, Granularity, card_labels
from ..core.numbers import shown
from ..errors import InputError

GROUP_NAMES = "ABCDEFGHIJKLM"
"""How the groups of a sort are called in its patterns (``ABBA``: the first and fourth cards in the first group)."""
KINDS = {"values": tuple(str(value) for value in range(10)), "ranks": RANKS, "suits": SUITS}
"""What a sort may split, and its symbols (value 0 is the ten-valued cards)."""


@dataclass(frozen=True)
class Groups:
    """A partition of the values, the ranks or the suits into groups: what the backs of sorted
    cards show."""

    kind: str
    members: tuple[tuple[str, ...], ...]

    def __str__(self) -> str:
        return "; ".join(",".join(group) for group in self.members)

    def group_of(self, granularity: Granularity) -> Array:
        """The group of each class of cards at ``granularity`` (which must tell the groups apart)."""
        cards = np.arange(52)
        symbol = {"values": np.asarray(POINT_VALUES)[cards // 4], "ranks": cards // 4, "suits": cards % 4}[self.kind]
        of_symbol = np.zeros(len(KINDS[self.kind]), dtype=np.int64)
        for index, group in enumerate(self.members):
            of_symbol[[KINDS[self.kind].index(member) for member in group]] = index
        by_card = of_symbol[symbol]
        found = np.zeros(granularity.classes, dtype=np.int64)
        found[card_labels(granularity)] = by_card
        return found

    @property
    def granularity(self) -> Granularity:
        """The coarsest granularity that tells the groups apart."""
        return {"values": Granularity.VALUE, "ranks": Granularity.RANK, "suits": Granularity.VALUE_SUIT}[self.kind]


def parse_groups(text: str, suits_known: bool = True) -> Groups:
    """Groups as written: one group (the rest is the other: ``6,7,8,9``) or every group separated
    by ``;`` (``0,1,2;3,4,5;6,7,8,9``), of values (0-9, 0 the ten-valued cards), ranks (A 2..9 T J Q K)
    or suits (S H D C).

    >>> str(parse_groups("6,7,8,9")), str(parse_groups("k,q; a, 2; 3,4,5,6,7,8,9,10,j")), parse_groups("h,d").kind
    ('6,7,8,9; 0,1,2,3,4,5', 'Q,K; A,2; 3,4,5,6,7,8,9,T,J', 'suits')
    """
    def refuse(message: str) -> InputError:
        return InputError(f"groups {shown(text)}: {message}", parameter="groups")

    if not isinstance(text, str) or not text.strip():
        raise InputError(f"groups must name values, ranks or suits (e.g. 6,7,8,9), not {shown(text)}", parameter="groups")
    written = [[token.strip().upper() for token in part.split(",")] for part in text.split(";")]
    for number, group in enumerate(written, 1):
        if not any(group) or not all(group):
            raise refuse(f"group {number} is empty" if not any(group) else f"group {number} has an empty entry")
    tokens = [token.replace("10", "T") for group in written for token in group]
    kind = "suits" if all(token in SUITS for token in tokens) else "ranks" if any(token in "ATJQK" for token in tokens) else "values"
    symbols = KINDS[kind]
    unknown = [token for token in tokens if token not in symbols]
    if unknown:
        expected = {"values": "values 0-9 (0: the ten-valued cards)", "ranks": "ranks A 2..9 T J Q K", "suits": "suits S H D C"}[kind]
        raise refuse(f"{unknown[0]!r} is not one of the {expected}")
    repeated = sorted({token for token in tokens if tokens.count(token) > 1}, key=symbols.index)
    if repeated:
        raise refuse(f"{repeated[0]} is in more than one place")
    groups = [[token.replace("10", "T") for token in group] for group in written]
    rest = [symbol for symbol in symbols if symbol not in tokens]
    if len(groups) == 1:
        if not rest:
            raise refuse(f"the group holds every one of the {kind}: the other group is empty (a sort tells groups apart)")
        groups.append(rest)
    elif rest:
        raise refuse(f"the groups leave out {', '.join(rest)} (with ';' every group is given)")
    if kind == "suits" and not suits_known:
        raise refuse("the shoe has no suits (give the shoe by card, e.g. 9h=32, to sort by suit)")
    return Groups(kind, tuple(tuple(sorted(group, key=symbols.index)) for group in groups))
