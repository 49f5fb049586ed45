"""Sessions that follow the player: the list of sessions (newest first, each with the link that
resumes it on any device) and each session's server-sent events, which carry the state's version
whenever it changes, so that every tab and device on a session shows its latest state.

The stream (``GET /api/v1/sessions/{id}/events``, ``text/event-stream``) sends ``event: version``
with ``{"version": N}`` at once and after every change (the store is read every
:data:`POLL` seconds: a change made by another server on the same file is seen too), ``{"version":
null}`` when the session is deleted, and ends after :data:`LIFETIME` seconds (the browser's
``EventSource`` connects again after ``retry`` milliseconds and is sent the version then), so that
a server stopping never waits on a stream. The routes are in :mod:`.routers.sessions`.
"""

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request

from .store import Store
from .tables import profile_from_text

POLL = 0.1
"""Seconds between two reads of a session's version by its stream."""
LIFETIME = 20.0
"""Seconds a stream lasts before the browser connects again."""
RETRY = 500
"""Milliseconds the browser waits before it connects again."""
MAX_LISTED = 1000


def summary(record: dict[str, Any]) -> dict[str, Any]:
    """A session of the list: its id and link, when made and last changed, its version and
    entries, and what it tracks (its table, or its shoe, rules and bets)."""
    settings = record.pop("settings")
    profile = None if settings.get("table_toml") is None else profile_from_text(settings["table_toml"])
    shoe = settings.get("shoe")
    return {**record, "link": f"/#s={record['id']}", "table": None if profile is None else profile.name,
            "title": profile.title if profile is not None else
            f"{shoe[:60] if shoe else str(settings.get('decks') or 8) + ' decks'}, {settings.get('rules') or 'punto_banco'}, "
            f"bets {settings.get('bets') or 'banker, player, tie'}"}


def event(version: int | None) -> str:
    return f"event: version\ndata: {json.dumps({'version': version})}\n\n"


async def versions(store: Store, session: str, request: Request, lifetime: float = LIFETIME) -> AsyncIterator[str]:
    """The stream of a session's versions (see the module docstring)."""
    yield f"retry: {RETRY}\n\n"
    last: int | None = -1
    ends = time.monotonic() + lifetime
    while time.monotonic() < ends and not await request.is_disconnected():
        version = await asyncio.to_thread(store.version, session)
        if version != last:
            yield event(version)
            last = version
        if version is None:
            return
        await asyncio.sleep(POLL)

