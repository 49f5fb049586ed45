"""Sessions made from a table profile (:mod:`exact_odds.bets.profiles`), and ``GET /api/v1/tables``.

A session made from a table (``"table": "ez_baccarat"``, or ``"table_toml"``: a profile file's
text) takes from it the shoe, the rules and the pays, the bets offered (and the table's own bets),
the burn and the cut card; the profile is kept with the session's settings, as its TOML. Its
sizing takes the table's limits, chip and rebate: a bankroll sized at that table is sized within
them, in whole chips (a ``min``, ``max``, ``unit`` or ``rebate`` other than the table's is refused).

>>> from exact_odds.commands.session import session_settings
>>> settings = session_settings(TABLES["ez_baccarat"], suits=False)
>>> settings.bets, settings.decks, settings.cut_card, settings.commission
('ez_banker,player,tie,dragon_7,panda_8', 8, 16, None)
>>> table_staking(settings, Staking(bankroll="1000")).unit
'5'
"""

from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..bets.profiles import TABLES, TableProfile, load_profile, profile_toml
from ..commands.session import Settings
from ..errors import InputError
from ..commands.size import Staking

TABLE_SIZES = ("min", "max", "unit", "rebate")
"""The sizing fields a table sets (given other than the table's: refused)."""


@lru_cache(maxsize=64)
def profile_from_text(text: str) -> TableProfile:
    return load_profile(text, "the session's table")


def profile_of(settings: Settings) -> TableProfile | None:
    """The table a session was made from (None: none)."""
    return None if settings.table_toml is None else profile_from_text(settings.table_toml)


def limits_text(amounts: dict[str, Any]) -> str | None:
    return ",".join(f"{name}={amount}" for name, amount in amounts.items()) or None


def table_staking(settings: Settings, given: Staking) -> Staking:
    """``given`` with the limits, chip and rebate of the session's table (unchanged without one);
    a value other than the table's is refused."""
    profile = profile_of(settings)
    if profile is None:
        return given
    table = {"min": limits_text(profile.minimum), "max": limits_text(profile.maximum), "unit": str(profile.chip),
             "rebate": str(profile.rebate) if profile.rebate else None}
    for name in TABLE_SIZES:
        value = getattr(given, name)
        if value is not None and value != table[name]:
            raise InputError(f"{name}: this session's table ({profile.name}) sets the limits, the chip and the rebate "
                             f"({name} {table[name] or 'none'}): leave {name} out")
    return replace(given, min=table["min"], max=table["max"], unit=table["unit"], rebate=table["rebate"])


def tables_record() -> dict[str, Any]:
    """``GET /api/v1/tables``: the preset tables, each its profile as JSON, and as a profile file's text (``toml``)."""
    return {"tables": [{**profile.to_dict(), "toml": profile_toml(profile)} for profile in TABLES.values()]}
