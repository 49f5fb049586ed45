"""The casino's scoreboards of a shoe ("roads"), as plain data: the bead plate and the big road.

A player checks the coups entered against the board at the table; these are the same boards, built
as the casinos' electronic scoreboards build them:

- the **bead plate**: every coup one cell, ties included, in columns of six filled top to bottom,
  then left to right; each cell the winner, a banker pair and a player pair (dots at the top left
  and the bottom right on the boards) and whether a hand had a natural;
- the **big road**: banker and player decisions only, a streak of one winner down a column and a
  new column when the winner changes; a tie is marked on the cell of the last decision (a count:
  several ties in a row are one cell's count), and ties before the first decision are kept apart
  (the boards draw them in the first cell, before its decision); when a streak passes the sixth
  row, or meets a cell already filled below, it turns right along its row (the "dragon tail") and
  goes on to the right. A new streak starts at the top of the column after the previous streak's
  first column (further right only where a tail already holds that top cell).

The derived roads (big eye boy, small road, cockroach pig) read the big road's streaks as if its
columns were endless: at each decision, red where the road repeats the shape of the column one,
two or three back, blue where it does not (:func:`derived_road`), placed as the big road is.

The roads record what was dealt; past results predict nothing (:data:`NOTE`).

>>> road = big_road([Result("tie"), Result("banker"), Result("banker", player_pair=True), Result("tie"), Result("player")])
>>> road.leading_ties, [(cell.column, cell.row, cell.winner, cell.ties) for cell in road.cells]
((1,), [(0, 0, 'banker', ()), (0, 1, 'banker', (4,)), (1, 0, 'player', ())])
>>> print(road.text(), end="")
 B   P
 B1.
<BLANKLINE>
<BLANKLINE>
<BLANKLINE>
<BLANKLINE>
1 tie before the first decision (coup 1)
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.coup import Coup
from ..core.numbers import shown
from ..core.rules import PUNTO_BANCO, DrawRules
from ..errors import InputError

ROWS = 6
"""The rows of the casinos' boards."""
WINNERS = ("banker", "player", "tie")
LETTERS = {"banker": "B", "player": "P", "tie": "T"}
NOTE = ("The roads record the coups dealt, to check them against the casino's board. Past results predict nothing: "
        "each coup is dealt from the cards left in the shoe, and the exact figures already count every card seen.")
"""The note every rendering of the roads carries."""
LEGEND = "B banker, P player, T tie; ' a banker pair (top left), . a player pair (bottom right); a number: the ties marked on a cell"


@dataclass(frozen=True)
class Result:
    """What the boards show of one coup: its winner, whether each hand's first two cards were a
    pair, and whether either hand had a natural."""

    winner: str
    player_pair: bool = False
    banker_pair: bool = False
    natural: bool = False

    def __post_init__(self) -> None:
        if self.winner not in WINNERS:
            raise InputError(f"winner must be one of {', '.join(WINNERS)}, not {shown(self.winner)}", parameter="winner")
        for key in ("player_pair", "banker_pair", "natural"):
            if not isinstance(getattr(self, key), bool):
                raise InputError(f"{key} must be True or False, not {shown(getattr(self, key))}", parameter=key)

    def marks(self) -> dict[str, Any]:
        return {"winner": self.winner, "player_pair": self.player_pair, "banker_pair": self.banker_pair, "natural": self.natural}


def result_of(coup: Coup, rules: DrawRules = PUNTO_BANCO) -> Result:
    """The board's record of a settled coup (a natural as ``rules`` define one).

    >>> from exact_odds.core.coup import play_coup
    >>> from exact_odds.core.cards import parse_cards
    >>> result_of(play_coup(parse_cards("9S 5D 9H 2C")))
    Result(winner='player', player_pair=True, banker_pair=False, natural=True)
    """
    if not isinstance(coup, Coup) or coup.winner is None:
        raise InputError(f"a road records settled coups, not {shown(coup)}", parameter="coups")
    return Result(coup.winner, coup.player[0].rank == coup.player[1].rank, coup.banker[0].rank == coup.banker[1].rank,
                  any((hand[0].value + hand[1].value) % 10 in rules.naturals for hand in (coup.player, coup.banker)))


@dataclass(frozen=True)
class Bead:
    """One coup on the bead plate: its number in the shoe (from 1), its place, what it showed."""

    coup: int
    column: int
    row: int
    result: Result

    def to_dict(self) -> dict[str, Any]:
        return {"coup": self.coup, "column": self.column, "row": self.row, **self.result.marks()}


@dataclass(frozen=True)
class BeadPlate:
    """Every coup of the shoe in order, in columns of :attr:`rows`."""

    rows: int
    beads: tuple[Bead, ...]

    @property
    def columns(self) -> int:
        return max((bead.column for bead in self.beads), default=-1) + 1

    def to_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "columns": self.columns, "cells": [bead.to_dict() for bead in self.beads]}

    def text(self) -> str:
        """The plate for a terminal: a line per row (see :data:`LEGEND`)."""
        return _grid(self.rows, self.columns, {(bead.column, bead.row): _cell(bead.result, 0) for bead in self.beads})


@dataclass(frozen=True)
class Mark:
    """One decision on the big road: its coup, its place, the winner and the decision's pairs and
    natural, the ties marked on it (their coups), and its streak (the road's columns as if endless,
    from 0) and depth in the streak (from 0): where the tail turned, ``row`` < ``depth``."""

    coup: int
    column: int
    row: int
    result: Result
    ties: tuple[int, ...]
    streak: int
    depth: int

    @property
    def winner(self) -> str:
        return self.result.winner

    @property
    def tail(self) -> bool:
        """Whether the cell is on the dragon tail (the streak turned right before it)."""
        return self.row < self.depth

    def to_dict(self) -> dict[str, Any]:
        return {"coup": self.coup, "column": self.column, "row": self.row, **self.result.marks(), "ties": len(self.ties),
                "tie_coups": list(self.ties), "streak": self.streak, "depth": self.depth, "tail": self.tail}


@dataclass(frozen=True)
class BigRoad:
    """The banker and player decisions of the shoe (see the module docstring)."""

    rows: int
    cells: tuple[Mark, ...]
    leading_ties: tuple[int, ...]
    """The coups of the ties dealt before the first decision."""

    @property
    def columns(self) -> int:
        return max((cell.column for cell in self.cells), default=-1) + 1

    def to_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "columns": self.columns, "leading_ties": len(self.leading_ties),
                "leading_tie_coups": list(self.leading_ties), "cells": [cell.to_dict() for cell in self.cells]}

    def text(self) -> str:
        """The road for a terminal: a line per row, each cell's tie count after its letter."""
        width = max((len(str(len(cell.ties))) for cell in self.cells if cell.ties), default=0)
        grid = _grid(self.rows, self.columns, {(cell.column, cell.row): _cell(cell.result, len(cell.ties), width) for cell in self.cells})
        if not self.leading_ties:
            return grid
        count = len(self.leading_ties)
        coups = ", ".join(str(coup) for coup in self.leading_ties)
        return grid + f"{count} tie{'s' if count > 1 else ''} before the first decision (coup{'s' if count > 1 else ''} {coups})\n"


DERIVED = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}
"""The derived roads by name, and how many columns back each compares."""
COLOURS = {"red": "R", "blue": "B"}


@dataclass(frozen=True)
class DerivedMark:
    """One mark of a derived road: the big-road decision it was read at (its coup), its place, its
    colour, and its streak and depth (as the big road's)."""

    coup: int
    column: int
    row: int
    colour: str
    streak: int
    depth: int

    def to_dict(self) -> dict[str, Any]:
        return {"coup": self.coup, "column": self.column, "row": self.row, "colour": self.colour, "streak": self.streak, "depth": self.depth}


@dataclass(frozen=True)
class DerivedRoad:
    """A road derived from the big road (see :func:`derived_road`)."""

    name: str
    rows: int
    cells: tuple[DerivedMark, ...]

    @property
    def columns(self) -> int:
        return max((cell.column for cell in self.cells), default=-1) + 1

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rows": self.rows, "columns": self.columns, "cells": [cell.to_dict() for cell in self.cells]}

    def text(self) -> str:
        """The road for a terminal: R red, B blue."""
        return _grid(self.rows, self.columns, {(cell.column, cell.row): f"{COLOURS[cell.colour]} " for cell in self.cells})


def derived_road(road: BigRoad, name: str) -> DerivedRoad:
    """The big eye boy, small road or cockroach pig of ``road`` (:data:`DERIVED`), comparing each
    decision with the streak ``k`` = 1, 2 or 3 columns back, as the boards do. A decision that
    starts streak ``c`` (``c`` > ``k``) is red where streaks ``c - 1`` and ``c - 1 - k`` are as long;
    one at depth ``d`` >= 1 of streak ``c`` (``c`` >= ``k``) is blue where streak ``c - k`` is
    exactly ``d`` long (the road "falls straight" there), else red. The first mark is thus read at
    the second decision of streak ``k``, or at the first of streak ``k + 1``.

    >>> letters = "B B P B B B P P B B".split()
    >>> road = big_road([Result("banker" if letter == "B" else "player") for letter in letters])
    >>> [cell.colour for cell in derived_road(road, "big_eye_boy").cells]
    ['blue', 'blue', 'red', 'blue', 'red', 'blue', 'red']
    """
    if name not in DERIVED:
        raise InputError(f"a derived road is one of {', '.join(DERIVED)}, not {shown(name)}", parameter="name")
    back = DERIVED[name]
    lengths = [0] * (road.cells[-1].streak + 1 if road.cells else 0)
    for cell in road.cells:
        lengths[cell.streak] = cell.depth + 1
    read = []
    for cell in road.cells:
        if cell.depth == 0 and cell.streak > back:
            read.append((cell.coup, "red" if lengths[cell.streak - 1] == lengths[cell.streak - 1 - back] else "blue"))
        elif cell.depth > 0 and cell.streak >= back:
            read.append((cell.coup, "blue" if lengths[cell.streak - back] == cell.depth else "red"))
    places = placed([colour for _, colour in read], road.rows)
    return DerivedRoad(name, road.rows, tuple(DerivedMark(coup, column, row, colour, streak, depth)
                                              for (coup, colour), (column, row, streak, depth) in zip(read, places)))


@dataclass(frozen=True)
class Roads:
    """A shoe's bead plate, big road and the roads derived from it, with the note that they predict nothing."""

    bead_plate: BeadPlate
    big_road: BigRoad
    derived: tuple[DerivedRoad, ...]
    """The big eye boy, the small road and the cockroach pig."""

    def to_dict(self) -> dict[str, Any]:
        return {"note": NOTE, "bead_plate": self.bead_plate.to_dict(), "big_road": self.big_road.to_dict(),
                **{road.name: road.to_dict() for road in self.derived}}

    def text(self) -> str:
        derived = "".join(f"\n{road.name.replace('_', ' ').capitalize()} (R red, B blue)\n{road.text()}" for road in self.derived)
        return f"Bead plate\n{self.bead_plate.text()}\nBig road\n{self.big_road.text()}{derived}\n{LEGEND}.\n{NOTE}\n"


def _results(coups: Iterable["Result | Coup"], rules: DrawRules) -> list[Result]:
    if isinstance(coups, (str, bytes, Result, Coup)) or not isinstance(coups, Iterable):
        raise InputError(f"coups are the shoe's coups in order (Result or settled Coup), not {shown(coups)}", parameter="coups")
    return [coup if isinstance(coup, Result) else result_of(coup, rules) for coup in coups]


def _rows(rows: object) -> int:
    if isinstance(rows, bool) or not isinstance(rows, int) or not 1 <= rows <= 100:
        raise InputError(f"rows must be a whole number from 1 to 100, not {shown(rows)}", parameter="rows")
    return rows


def bead_plate(coups: Iterable["Result | Coup"], rows: int = ROWS, rules: DrawRules = PUNTO_BANCO) -> BeadPlate:
    """The bead plate of the shoe's ``coups`` in order (each a :class:`Result`, or a settled coup
    read by ``rules``)."""
    rows = _rows(rows)
    return BeadPlate(rows, tuple(Bead(index + 1, index // rows, index % rows, result) for index, result in enumerate(_results(coups, rules))))


def placed(labels: Sequence[str], rows: int) -> list[tuple[int, int, int, int]]:
    """(column, row, streak, depth) of each label of a road's sequence, placed as the big road
    places decisions (a new streak when the label changes, the dragon tail): also the placement
    of the roads derived from it.

    >>> placed(["B"] * 3, 2)
    [(0, 0, 0, 0), (0, 1, 0, 1), (1, 1, 0, 2)]
    """
    taken: set[tuple[int, int]] = set()
    places: list[tuple[int, int, int, int]] = []
    first_column = -1
    for index, label in enumerate(labels):
        if index == 0 or label != labels[index - 1]:
            column = first_column + 1
            while (column, 0) in taken:  # a tail along the top row holds it
                column += 1
            first_column = column
            place = (column, 0, places[-1][2] + 1 if places else 0, 0)
        else:
            column, row, streak, depth = places[-1]
            down = row == depth and row + 1 < rows and (column, row + 1) not in taken
            place = (column, row + 1, streak, depth + 1) if down else (column + 1, row, streak, depth + 1)
        taken.add(place[:2])
        places.append(place)
    return places


def big_road(coups: Iterable["Result | Coup"], rows: int = ROWS, rules: DrawRules = PUNTO_BANCO) -> BigRoad:
    """The big road of the shoe's ``coups`` in order (see the module docstring)."""
    rows = _rows(rows)
    results = _results(coups, rules)
    decisions = [(number, result) for number, result in enumerate(results, start=1) if result.winner != "tie"]
    ties: dict[int, list[int]] = {number: [] for number, _ in decisions}
    leading: list[int] = []
    last = None
    for number, result in enumerate(results, start=1):
        if result.winner != "tie":
            last = number
        else:
            (leading if last is None else ties[last]).append(number)
    places = placed([result.winner for _, result in decisions], rows)
    cells = tuple(Mark(number, column, row, result, tuple(ties[number]), streak, depth)
                  for (number, result), (column, row, streak, depth) in zip(decisions, places))
    return BigRoad(rows, cells, tuple(leading))


def roads(coups: Iterable["Result | Coup"], rows: int = ROWS, rules: DrawRules = PUNTO_BANCO) -> Roads:
    """The bead plate, the big road and its derived roads of the shoe's ``coups`` in order.

    >>> shoe = [Result("banker"), Result("banker"), Result("tie", banker_pair=True), Result("player", natural=True)]
    >>> roads(shoe).to_dict()["big_road"]["cells"][1]["ties"]
    1
    """
    results = _results(coups, rules)
    road = big_road(results, rows)
    return Roads(bead_plate(results, rows), road, tuple(derived_road(road, name) for name in DERIVED))


def _cell(result: Result, ties: int, width: int = 0) -> str:
    """A cell for a terminal: ``'`` a banker pair, the letter, the tie count, ``.`` a player pair."""
    count = str(ties) if ties else ""
    return f"{chr(39) if result.banker_pair else ' '}{LETTERS[result.winner]}{count:<{width}}{'.' if result.player_pair else ' '}"


def _grid(rows: int, columns: int, cells: dict[tuple[int, int], str]) -> str:
    width = max((len(text) for text in cells.values()), default=3)
    lines = ["".join(cells.get((column, row), " " * width) for column in range(columns)).rstrip() for row in range(rows)]
    return "\n".join(lines) + "\n"
