"""The analysis of a session's next coup, and its JSON record encoded once.

A card's analysis is Python that holds the GIL (the kernels, which release it, are 0.1 ms of about
3 ms for every catalog bet), so sessions fed at once compute on cores of their own by being served
by server processes of their own (:mod:`.processes`), not here. The record's JSON text is made once
and put into each answer as it is (:class:`Encoded`).
"""

import functools
import json
from dataclasses import dataclass
from typing import Any

from ..commands.session import Table
from ..core.shoe import Shoe
from ..engine.analysis import Analysis, BetAnalysis, analyze_checked

JSON_TEXT = functools.partial(json.dumps, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))
"""JSON text as :class:`JSONResponse` writes it."""


class Encoded:
    """A part of a JSON answer already encoded (its text, as :data:`JSON_TEXT` writes it), put into
    the answer as it is (:func:`.states.state_body`); equal to a part of the same text."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Encoded) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Encoded({self.text[:40]!r}...)"

    @property
    def value(self) -> object:
        """The part read back from its text (for an answer made as a whole by :class:`JSONResponse`)."""
        return json.loads(self.text)


def plain(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its :class:`Encoded` parts read back (the same JSON text, whichever way it is written)."""
    return {name: value.value if isinstance(value, Encoded) else value for name, value in record.items()}


@dataclass(frozen=True)
class NextCoup:
    """The analysis of a session's next coup: its record as JSON text (for the answer, encoded once),
    the bets with a positive expectation, and the exact figures (for the staking and the banner)."""

    record: Encoded
    positive: tuple[str, ...]
    analysis: Analysis

    def bet(self, name: str) -> BetAnalysis:
        """The analysis of the bet ``name`` (one of the table's)."""
        return self.analysis[name]


def next_coup(table: Table, shoe: Shoe) -> NextCoup:
    """The analysis of the next coup of ``shoe`` (checked) under ``table``, and its record: exactly
    what ``baccarat-odds --format json`` prints for them."""
    analysis = analyze_checked(shoe, list(table.bets), table.decisions)
    positive = tuple(result.bet.name for result in analysis.bets if result.expected_value > 0)
    return NextCoup(Encoded(JSON_TEXT(analysis.to_dict(table.notes))), positive, analysis)
