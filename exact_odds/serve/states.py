"""A session's state as the API answers it: its JSON record (the replayed state, its version, what
to bet now with a bankroll kept, the roads and the banner) written once per coup where it grows,
the bankroll and sizing kept with a session, and the first answer to a change sent again."""

import functools
import json
from typing import Any

from fastapi.responses import Response

from ..commands.session import Settings, Table
from ..commands.size import SessionStaking, Staking
from ..errors import InputError
from . import banner, sessions, staking, tables
from .compute import JSON_TEXT, Encoded, NextCoup
from .staking import MAX_SERVED
from .store import Loaded, Repeated, Store, etag


def at_the_table(table: Table, given: Staking) -> SessionStaking:
    """The sizing ``given`` for a session of ``table``: among its bets, at its table's limits (checked once)."""
    return sizing_at(table.settings, tuple(bet.name for bet in table.bets), given)


@functools.lru_cache(maxsize=256)
def sizing_at(settings: Settings, names: tuple[str, ...], given: Staking) -> SessionStaking:
    """:func:`at_the_table`, made once for a session's settings and a staking (after each card a lookup, not the table's limits written again)."""
    return SessionStaking(staking=given, names=names, table=tables.profile_of(settings))


def what_to_bet(table: Table, state: sessions.Replay, analysis: NextCoup, given: SessionStaking,
                most: int = MAX_SERVED) -> staking.Position:
    left = sessions.shoe_left(table, state)
    return staking.session_position(table.settings, left, table.bets, table.decisions, analysis.analysis, given, most)


RECENT = 16
"""The latest log entries a state carries (what an undo takes back, for the page's redo)."""


def state_record(loaded: Loaded) -> dict[str, Any]:
    """A session's state as JSON: :func:`sessions.session_state`, its version, and what to bet now (with a bankroll kept)."""
    table, state, sizing = loaded.table, loaded.state, loaded.sizing
    record, analysis = sessions.session_state(loaded.session, table, state)
    position, refused = None, None
    if sizing is not None and analysis is None:
        refused = f"no analysis of the next coup: {record['analysis_refused']}"
    elif sizing is not None and analysis is not None:
        try:
            position = what_to_bet(table, state, analysis, at_the_table(table, Staking(**sizing)), staking.PER_CARD)
        except InputError as error:
            refused = str(error)
    record.update(version=loaded.version, sizing=sizing, what_to_bet=None if position is None else position.record, what_to_bet_refused=refused)
    profile = tables.profile_of(table.settings)
    record.update(table=None if profile is None else profile.to_dict(), roads=banner.shoe_roads(table, state),
                  recent_entries=[{"kind": event.kind, "card": event.card, "hidden": event.hidden} for event in loaded.events[-RECENT:]],
                  banner=banner.banner(record, analysis, None if position is None else position.sizing, state.starts, profile))
    return record


ENCODED_ONCE = ("coups", "roads")
"""The parts of a state whose JSON text is kept from one card to the next (they change when a coup closes)."""


def state_body(record: dict[str, Any], state: sessions.Replay) -> bytes:
    """``record``, the state's JSON record, as :class:`JSONResponse` writes :func:`.compute.plain`
    of it, byte for byte; the parts that grow through a shoe but change only when a coup closes
    encoded once for the state (the time of an answer stays flat through the shoe), and the parts
    already encoded (:class:`.compute.Encoded`: the analysis, encoded where it was computed) put in as they are."""
    parts = {name: value.text for name, value in record.items() if isinstance(value, Encoded)}
    for name in ENCODED_ONCE:
        if name not in state.encoded:
            state.encoded[name] = JSON_TEXT(record[name])
        parts[name] = state.encoded[name]
    markers = {name: "\0" + name + "\0" for name in parts}
    text = JSON_TEXT({**record, **markers})
    for name, part in parts.items():  # the key and the marker: found only where the part goes (text never holds an unescaped quote)
        text = text.replace(f'"{name}":{JSON_TEXT(markers[name])}', f'"{name}":{part}', 1)
    return text.encode("utf-8")


def keep_sizing(given: Staking) -> sessions.Edit:
    """Keep ``given`` with a session, after sizing its next coup with them (refused: not kept)."""
    def edit(table: Table, events: list[sessions.Event], state: sessions.Replay) -> sessions.Change:
        sizing = at_the_table(table, given)
        what_to_bet(table, state, sessions.analysis_of(table, state), sizing, staking.PER_CARD)
        return sessions.Change(sets_sizing=True, sizing=sizing.at_table.to_dict())
    return edit


def forget_sizing(table: Table, events: list[sessions.Event], state: sessions.Replay) -> sessions.Change:
    return sessions.Change(sets_sizing=True, sizing=None)


def repeated(store: Store, session: str, outcome: Repeated) -> Response:
    """The first answer to a request key sent again (a change no longer kept whole: the session's state now)."""
    headers = {"Idempotent-Replayed": "true"}
    if outcome.answer is None:
        loaded = store.load(session)
        return Response(state_body(state_record(loaded), loaded.state), outcome.status, headers={**headers, "ETag": etag(loaded.version)},
                        media_type="application/json")
    if outcome.status == 200:
        headers["ETag"] = etag(json.loads(outcome.answer)["version"])
    return Response(outcome.answer, outcome.status, headers=headers, media_type="application/json")
