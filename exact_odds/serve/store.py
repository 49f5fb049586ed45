"""Sessions kept in one SQLite file: their settings as JSON and each session's log of events.

Every change is one SQLite transaction (WAL), committed before it is answered: a server killed at any
moment loses no card it answered. (With synchronous NORMAL the commit is in the operating system's
hands before the answer, which a killed process cannot undo; a power cut may lose the last commits,
which synchronous FULL, an fsync on every card, would keep at some milliseconds a card.)
"""

import json
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any

from ..core.numbers import shown
from .sessions import ANALYSES_KEPT, Edit, Event, NotFound, Replay, Settings, Table, TooLarge, advance, replay, table_of

MAX_SESSIONS = 10_000
"""A store holds at most this many sessions."""
MAX_EVENTS = 20_000
"""A session's log holds at most this many events (some forty 8-deck shoes)."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Store:
    """Sessions in one SQLite file: settings as JSON, and each session's log of events."""

    def __init__(self, path: str):
        self.connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
        self.lock, self.tables_lock = threading.Lock(), threading.Lock()
        self.tables: "OrderedDict[Settings, Table]" = OrderedDict()
        with self.lock:
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=NORMAL")
            self.connection.executescript("""
                CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, created TEXT NOT NULL, settings TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS events (session TEXT NOT NULL REFERENCES sessions(id), seq INTEGER NOT NULL,
                    kind TEXT NOT NULL, card TEXT, hidden INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (session, seq));
                CREATE TABLE IF NOT EXISTS sizing (session TEXT PRIMARY KEY REFERENCES sessions(id), settings TEXT NOT NULL);
            """)

    def close(self) -> None:
        with self.lock:
            self.connection.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction, committed when the block ends (rolled back if it raises)."""
        with self.lock:
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                self.connection.execute("ROLLBACK")
                raise
            self.connection.execute("COMMIT")

    def table(self, settings: Settings) -> Table:
        """The table of ``settings`` (kept for the sessions in use)."""
        with self.tables_lock:
            table = self.tables.get(settings)
            if table is None:
                table = self.tables[settings] = table_of(settings)
                if len(self.tables) > ANALYSES_KEPT:
                    self.tables.popitem(last=False)
            return table

    def create(self, settings: Settings) -> str:
        """A new session of ``settings`` (checked first): its id."""
        self.table(settings)
        session = secrets.token_urlsafe(12)
        with self.transaction() as connection:
            (count,) = connection.execute("SELECT COUNT(*) FROM sessions").fetchone()
            if count >= MAX_SESSIONS:
                raise TooLarge(f"the store holds {MAX_SESSIONS:,} sessions, the most it may hold: delete one first")
            connection.execute("INSERT INTO sessions VALUES (?, ?, ?)", (session, now(), json.dumps(settings.to_dict())))
        return session

    def _load(self, connection: sqlite3.Connection, session: str) -> tuple[str, Settings, list[Event]]:
        row = connection.execute("SELECT created, settings FROM sessions WHERE id = ?", (session,)).fetchone()
        if row is None:
            raise NotFound(f"no session {shown(session)} (create one with POST /api/v1/sessions)")
        events = [Event(*entry) for entry in connection.execute(
            "SELECT seq, kind, card, hidden, at FROM events WHERE session = ? ORDER BY seq", (session,))]
        return row[0], Settings(**json.loads(row[1])), events

    def load(self, session: str) -> tuple[str, Table, list[Event]]:
        """A session's creation time, table and log."""
        with self.lock:
            created, settings, events = self._load(self.connection, session)
        return created, self.table(settings), events

    def change(self, session: str, edit: Edit) -> tuple[Table, list[Event], Replay]:
        """Apply ``edit`` to a session in one transaction: its table, new log and state."""
        with self.transaction() as connection:
            _, settings, events = self._load(connection, session)
            table = self.table(settings)
            state = replay(table, events)
            deleted, added = edit(table, events, state)
            if len(events) - len(deleted) + len(added) > MAX_EVENTS:
                raise TooLarge(f"the session holds {len(events):,} events, the most a session may hold is {MAX_EVENTS:,}: start another")
            for seq in deleted:
                connection.execute("DELETE FROM events WHERE session = ? AND seq = ?", (session, seq))
            last, stamp = events[-1].seq if events else 0, now()
            new = [Event(last + offset, kind, card, hidden, stamp) for offset, (kind, card, hidden) in enumerate(added, 1)]
            for event in new:
                connection.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", (session, event.seq, event.kind, event.card, event.hidden, event.at))
            log = [event for event in events if event.seq not in deleted] + new
        if deleted:
            return table, log, replay(table, log)
        for event in new:
            state = advance(table, state, event)
        return table, log, state

    def sizing(self, session: str) -> dict[str, Any] | None:
        """A session's bankroll and sizing settings (None: none set)."""
        with self.lock:
            row = self.connection.execute("SELECT settings FROM sizing WHERE session = ?", (session,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def set_sizing(self, session: str, settings: dict[str, Any] | None) -> None:
        """Set (None: clear) a session's bankroll and sizing settings, in one transaction."""
        with self.transaction() as connection:
            if connection.execute("SELECT 1 FROM sessions WHERE id = ?", (session,)).fetchone() is None:
                raise NotFound(f"no session {shown(session)} (create one with POST /api/v1/sessions)")
            connection.execute("DELETE FROM sizing WHERE session = ?", (session,))
            if settings is not None:
                connection.execute("INSERT INTO sizing VALUES (?, ?)", (session, json.dumps(settings)))

    def delete(self, session: str) -> None:
        with self.transaction() as connection:
            self._load(connection, session)
            connection.execute("DELETE FROM sizing WHERE session = ?", (session,))
            connection.execute("DELETE FROM events WHERE session = ?", (session,))
            connection.execute("DELETE FROM sessions WHERE id = ?", (session,))
