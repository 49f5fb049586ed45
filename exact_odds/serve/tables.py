"""Sessions made from a table profile (:mod:`exact_odds.bets.profiles`), and ``GET /api/v1/tables``.

A session made from a table (``"table": "ez_baccarat"``, or ``"table_toml"``: a profile file's
text) takes from it the shoe, the rules and the pays, the bets offered (and the table's own bets),
the burn and the cut card; the profile is kept with the session's settings, as its TOML. Its
sizing takes the table's limits, chip and rebate: a bankroll sized at that table is sized within
them, in whole chips (a ``min``, ``max``, ``unit`` or ``rebate`` other than the table's is refused).

>>> settings = session_settings(TABLES["ez_baccarat"], suits=False)
>>> settings.bets, settings.decks, settings.cut_card, settings.commission
('ez_banker,player,tie,dragon_7,panda_8', 8, 16, None)
>>> table_staking(settings, Staking(bankroll="1000")).unit
'5'
"""

import json
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..bets.profiles import TABLES, TableProfile, load_profile, profile_toml
from ..errors import InputError
from ..commands.setup import MAX_TEXT, TooLarge
from ..commands.size import Staking
from ..commands.session import Settings

TABLE_SETS = ("decks", "shoe", "rules", "rules_toml", "policy", "commission", "tie_pays", "bets", "bets_toml", "burn", "cut_card")
"""The session fields a table sets (given beside a table: refused)."""
TABLE_SIZES = ("min", "max", "unit", "rebate")
"""The sizing fields a table sets (given other than the table's: refused)."""


def profile_given(table: str | None, table_toml: str | None) -> TableProfile | None:
    """The profile a session request names: a preset's name (``table``) or a profile file's text
    (``table_toml``), not both (None: neither)."""
    if table is not None and table_toml is not None:
        raise InputError("give table (a preset's name) or table_toml (a profile file's text), not both")
    if table is not None:
        return TABLES[table]
    if table_toml is None:
        return None
    if len(table_toml) > MAX_TEXT:
        raise TooLarge(f"table_toml holds {len(table_toml):,} characters; at most {MAX_TEXT:,} are read")
    return load_profile(table_toml, "table_toml")


def check_alone(given: set[str], table: str) -> None:
    """Refuse the fields a table sets when given beside it (a second answer to one question)."""
    clash = [name for name in TABLE_SETS if name in given]
    if clash:
        raise InputError(f"{clash[0]}: the table ({table}) sets the shoe, rules, bets, burn and cut card: leave {clash[0]} out, "
                         "or give a profile of your own (table_toml)")


def own_bets_toml(profile: TableProfile) -> str | None:
    """The table's own bets as a bets file's text (None: it has none)."""
    if not profile.own_bets:
        return None
    lines = []
    for bet in profile.own_bets:
        lines += ["[[bet]]", f"name = {json.dumps(bet.name)}", f"description = {json.dumps(bet.description)}", "pays = ["]
        lines += [f"  {{ when = {json.dumps(row.condition.text)}, pays = {json.dumps(row.pays.text)}, event = {json.dumps(row.event)} }},"
                  for row in bet.rows]
        lines += ["]", ""]
    return "\n".join(lines)


def session_settings(profile: TableProfile, suits: bool) -> Settings:
    """A session's settings at the table ``profile`` (``suits``: enter suits even where no bet reads them)."""
    return Settings(decks=profile.decks, rules=profile.rules, commission=None if profile.commission is None else str(profile.commission),
                    tie_pays=None if profile.tie_pays is None else str(profile.tie_pays), bets=",".join(bet.name for bet in profile.bets),
                    bets_toml=own_bets_toml(profile), suits=suits or profile.needs_suits, burn=profile.burn,
                    cut_card=profile.cards_behind_cut, table_toml=profile_toml(profile))


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
