"""Sessions made from a table profile (:mod:`exact_odds.bets.profiles`), and ``GET /api/v1/tables``.

A session made from a table (``"table": "ez_baccarat"``, or ``"table_toml"``: a profile file's
text) takes from it the shoe, the rules and the pays, the bets offered (and the table's own bets),
the burn and the cut card; the profile is kept with the session's settings, as its TOML. Its
sizing takes the table's limits, chip and rebate: a bankroll sized at that table is sized within
them, in whole chips (a ``min``, ``max``, ``unit`` or ``rebate`` other than the table's is refused:
:class:`exact_odds.commands.size.SessionStaking`).

>>> from exact_odds.commands.session import session_settings
>>> settings = session_settings(TABLES["ez_baccarat"], suits=False)
>>> settings.bets, settings.decks, settings.cut_card, settings.commission
('ez_banker,player,tie,dragon_7,panda_8', 8, 16, None)
"""

from functools import lru_cache
from typing import Any

from ..bets.profiles import TABLES, TableProfile, load_profile, profile_toml
from ..commands.session import Settings


@lru_cache(maxsize=64)
def profile_from_text(text: str) -> TableProfile:
    return load_profile(text, "the session's table")


def profile_of(settings: Settings) -> TableProfile | None:
    """The table a session was made from (None: none)."""
    return None if settings.table_toml is None else profile_from_text(settings.table_toml)


def tables_record() -> dict[str, Any]:
    """``GET /api/v1/tables``: the preset tables, each its profile as JSON, and as a profile file's text (``toml``)."""
    return {"tables": [{**profile.to_dict(), "toml": profile_toml(profile)} for profile in TABLES.values()]}
