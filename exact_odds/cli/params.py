"""The command line's parameter types: each reads the syntax of one kind of value (a deck count, a
whole number, an exact number), refusing in one line what it cannot read."""

from fractions import Fraction
from typing import Any

import click

from ..core.numbers import parse_count, parse_exact, parse_whole


# click.ParamType is generic from click 8.4 on (ParamType[int]), but subscripting it fails at import
# under click 8.1 to 8.3, which pyproject accepts: hence the type-arg ignores on the types below.
class DeckCount(click.ParamType):  # type: ignore[type-arg]
    """A positive whole number of decks, or ``inf`` for the infinite deck."""

    name = "N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        text = str(value).strip().lower()
        if text in ("inf", "infinite"):
            return "inf"
        return parse_count(value, "--decks", minimum=1)


class Count(click.ParamType):  # type: ignore[type-arg]
    """A whole number written with the digits 0-9, from ``minimum``."""

    name = "N"

    def __init__(self, minimum: int = 0, maximum: int | None = None):
        self.minimum, self.maximum = minimum, maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        option = param.opts[0] if param and param.opts else "value"
        return parse_count(value, option, self.minimum, self.maximum)


class Whole(click.ParamType):  # type: ignore[type-arg]
    """A whole number written with the digits 0-9, and a minus sign if negative (its range is the
    request's to check)."""

    name = "N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        return parse_whole(value, param.opts[0] if param and param.opts else "value")


class ExactNumber(click.ParamType):  # type: ignore[type-arg]
    """An exact number: ``100``, ``2.5``, ``5/2`` (its range is the request's to check)."""

    name = "X"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Fraction:
        return parse_exact(value, param.opts[0] if param and param.opts else "value")
