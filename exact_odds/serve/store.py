"""Sessions kept in one SQLite file: their settings as JSON, each session's log of events, its
sizing settings, its version and the keys of the requests that changed it.

Every change is one SQLite transaction (WAL), committed before it is answered: a server killed at any
moment loses no card it answered. (With synchronous NORMAL the commit is in the operating system's
hands before the answer, which a killed process cannot undo; a power cut may lose the last commits,
which synchronous FULL, an fsync on every card, would keep at some milliseconds a card.)

Each session's state is kept in memory once derived from its log (:class:`Loaded`), and advanced by
each change; the version in SQLite says whether it is still the session's (another server on the
same file may have changed it: then the log is read and replayed again), so the log stays the truth
and a server started again rebuilds every state from it.

The server processes of one server (:mod:`.processes`) write to the same file: each change waits for
the others' on a lock file beside it (``<file>-lock``, empty), which wakes it as soon as they commit.
SQLite's own locking keeps the file right without it, but a writer that finds the file locked sleeps
a millisecond or more before it tries again (about one card in fifteen of two sessions fed at once),
where a change holds the lock some tenths of a millisecond.

Every change adds one to the session's version, its ``ETag``. A change may name the version it was
made on (``If-Match``): made on another, it is refused (:class:`Stale`) and changes nothing. A change
may carry a key (``Idempotency-Key``): its outcome is kept with the key, in the same transaction,
and the same key again is answered that outcome (:class:`Repeated`), never applied twice.
"""

import json
import os
import fcntl
import stat
import secrets
import sqlite3
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from ..core.numbers import shown
from ..errors import InputError
from ..commands.session import Settings, Table, table_of
from ..commands.setup import TooLarge
from .recent import Recent
from .sessions import ANALYSES_KEPT, Change, Edit, Event, NotFound, Refused, Replay, advance, replay, status_of

MAX_SESSIONS = 10_000
"""A store holds at most this many sessions."""
MAX_EVENTS = 20_000
"""A session's log holds at most this many events (some forty 8-deck shoes)."""
MAX_KEYS = 5 * MAX_EVENTS
"""A session keeps at most this many request keys (each is kept for good: never applied twice)."""
ANSWERS_KEPT = 64
"""The first answers kept whole, for the latest keys of a session (the older keys keep their outcome)."""
SESSIONS_KEPT = 256
"""The sessions whose state is kept in memory (the latest used; the others are replayed from their log when used)."""
LOCKS = 64
"""The locks the sessions' changes are spread over (see :meth:`Store.session_lock`)."""
EARLIER_KEPT = 16
"""The states before a session's latest entries kept with it (an undo of the last entry goes back to the one before)."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def etag(version: int) -> str:
    """The ``ETag`` of a session's state at ``version``: the version, quoted."""
    return f'"{version}"'


@dataclass(frozen=True)
class Loaded:
    """A session as stored: its table, log, version, sizing settings and state (the log replayed)."""

    session: str
    created: str
    table: Table
    events: list[Event]
    version: int
    sizing: dict[str, Any] | None
    state: Replay
    earlier: tuple[Replay, ...] = ()
    """The states before the latest entries, the last one's last (at most :data:`EARLIER_KEPT`)."""


@dataclass(frozen=True)
class Precondition:
    """What a change carries beside its body: the ``If-Match`` it was sent with (None: any version),
    its ``Idempotency-Key`` (None: none) and the request, as text, that the key names."""

    if_match: str | None = None
    key: str | None = None
    request: str = ""

    def matches(self, version: int) -> bool:
        if self.if_match is None:
            return True
        tags = [tag.strip() for tag in self.if_match.split(",")]
        return "*" in tags or etag(version) in tags


ANY = Precondition()


class Stale(Refused):
    """A change made on a version of the session that is no longer its version (answered 409 with
    the current state: ``loaded``)."""

    def __init__(self, loaded: Loaded, if_match: str):
        super().__init__(f"this session has changed since the state this change was made on (If-Match {' '.join(if_match.split())[:40]}; "
                         f"the session's ETag is now {etag(loaded.version)}): another tab or program changed it. Nothing was changed; "
                         "the current state is in this answer")
        self.loaded = loaded


@dataclass(frozen=True)
class Repeated:
    """A request key seen before: the first outcome's status and answer (None: the answer of a
    change is no longer kept whole; the session's state then stands for it)."""

    status: int
    answer: bytes | None


SQLITE_HEADER = b"SQLite format 3\x00"


def _a_file(path: str) -> bool:
    """Whether ``path`` names a file (not SQLite's ``:memory:`` nor a ``file:`` URI)."""
    return path != ":memory:" and not path.startswith("file:")


def _refuse_theirs(path: str) -> None:
    """A file of the user's at ``path`` (one that is not empty and not SQLite) is refused, never
    written over (SQLite takes a file of a few bytes for an empty database); so is a dangling link,
    which would make a file elsewhere (sqlite3.DatabaseError, as SQLite refuses what it cannot open)."""
    if not _a_file(path):
        return
    if os.path.islink(path) and not os.path.exists(path):
        raise sqlite3.DatabaseError("it is a link to nothing: give the file itself")
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a pipe is not waited on
    except OSError:
        return  # not there yet: made
    try:
        regular = stat.S_ISREG(os.fstat(handle).st_mode)
        head = os.read(handle, len(SQLITE_HEADER)) if regular else b""
    finally:
        os.close(handle)
    if not regular:
        raise sqlite3.DatabaseError("it is not a regular file but a folder, a pipe or a device")
    if head and head != SQLITE_HEADER:
        raise sqlite3.DatabaseError("it is not an SQLite file, and a file of yours is never written over")


class Store:
    """Sessions in one SQLite file: settings as JSON, and each session's log of events."""

    def __init__(self, path: str):
        _refuse_theirs(path)
        self.lock, self.tables_lock = threading.Lock(), threading.Lock()
        self.connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
        self.writing: int | None = None
        tables = {row[0] for row in self.connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "sessions" not in tables:
            self.close()
            raise sqlite3.DatabaseError("it is the SQLite file of another program, with no sessions table: left as it was")
        if _a_file(path):
            try:
                self.writing = os.open(f"{path}-lock", os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as error:
                self.close()
                raise sqlite3.OperationalError(f"cannot open {path}-lock, beside it, to write to it: {error.strerror}") from None
        self.tables: "OrderedDict[Settings, Table]" = OrderedDict()
        self.kept: Recent[str, Loaded] = Recent(SESSIONS_KEPT)
        self.locks = tuple(threading.Lock() for _ in range(LOCKS))
        with self.lock:
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=NORMAL")
            self.connection.executescript("""
                CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, created TEXT NOT NULL, settings TEXT NOT NULL,
                    version INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE IF NOT EXISTS events (session TEXT NOT NULL REFERENCES sessions(id), seq INTEGER NOT NULL,
                    kind TEXT NOT NULL, card TEXT, hidden INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (session, seq));
                CREATE TABLE IF NOT EXISTS sizing (session TEXT PRIMARY KEY REFERENCES sessions(id), settings TEXT NOT NULL);
                CREATE TABLE IF NOT EXISTS requests (session TEXT NOT NULL REFERENCES sessions(id), key TEXT NOT NULL,
                    request TEXT NOT NULL, status INTEGER NOT NULL, answer BLOB, PRIMARY KEY (session, key));
            """)
            columns = [row[1] for row in self.connection.execute("PRAGMA table_info(sessions)")]
            if "version" not in columns:  # a store of an earlier release
                self.connection.execute("ALTER TABLE sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 0")

    def close(self) -> None:
        with self.lock:
            self.connection.close()
            if self.writing is not None:
                os.close(self.writing)
                self.writing = None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction, committed when the block ends (rolled back if it raises)."""
        with self.lock:
            if self.writing is not None:
                fcntl.flock(self.writing, fcntl.LOCK_EX)  # the other server processes' changes first (see the module's docstring)
            try:
                self.connection.execute("BEGIN IMMEDIATE")
                try:
                    yield self.connection
                except BaseException:
                    self.connection.execute("ROLLBACK")
                    raise
                self.connection.execute("COMMIT")
            finally:
                if self.writing is not None:
                    fcntl.flock(self.writing, fcntl.LOCK_UN)

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
            connection.execute("INSERT INTO sessions (id, created, settings) VALUES (?, ?, ?)", (session, now(), json.dumps(settings.to_dict())))
        return session

    def session_lock(self, session: str) -> threading.Lock:
        """The lock of a session's changes and their answers: one session's one at a time, other
        sessions' at once (one of :data:`LOCKS` locks, by the session's id: two sessions share one
        seldom, and a request for an id never made keeps nothing)."""
        return self.locks[zlib.crc32(session.encode("utf-8", "replace")) % LOCKS]

    def _load(self, connection: sqlite3.Connection, session: str) -> Loaded:
        """The session's state kept, if it is at the stored version; else its log read and replayed."""
        row = connection.execute("SELECT created, settings, version FROM sessions WHERE id = ?", (session,)).fetchone()
        if row is None:
            raise NotFound(f"no session {shown(session)} (create one with POST /api/v1/sessions)")
        kept = self.kept.get(session)
        if kept is not None and kept.version == row[2]:
            return kept
        events = [Event(*entry) for entry in connection.execute(
            "SELECT seq, kind, card, hidden, at FROM events WHERE session = ? ORDER BY seq", (session,))]
        sizing = connection.execute("SELECT settings FROM sizing WHERE session = ?", (session,)).fetchone()
        table = self.table(Settings(**json.loads(row[1])))
        loaded = Loaded(session, row[0], table, events, row[2], None if sizing is None else dict(json.loads(sizing[0])), replay(table, events))
        return self.kept.put(session, loaded)

    def load(self, session: str) -> Loaded:
        """A session as stored, its log replayed."""
        with self.lock:
            return self._load(self.connection, session)

    def change(self, session: str, edit: Edit, precondition: Precondition = ANY) -> Loaded | Repeated:
        """Apply ``edit`` to a session in one transaction, its version one more: the session after
        it; or, for a request key seen before, its first outcome (refused: :class:`Stale`, or the
        edit's refusal, kept with the key)."""
        refusal: InputError | None = None
        with self.transaction() as connection:
            loaded = self._load(connection, session)
            if precondition.key is not None:
                seen = self._repeated(connection, session, precondition)
                if seen is not None:
                    return seen
            if not precondition.matches(loaded.version):
                raise Stale(loaded, precondition.if_match or "")
            try:
                change = edit(loaded.table, loaded.events, loaded.state)
                if len(loaded.events) - len(change.deleted) + len(change.added) > MAX_EVENTS:
                    raise TooLarge(f"the session holds {len(loaded.events):,} events, the most a session may hold is {MAX_EVENTS:,}: start another")
            except InputError as error:
                if precondition.key is None:
                    raise
                self._keep(connection, session, precondition, status_of(error), json.dumps({"error": str(error)}).encode())
                refusal = error
            else:
                log = self._write(connection, loaded, change)
                connection.execute("UPDATE sessions SET version = version + 1 WHERE id = ?", (session,))
                if precondition.key is not None:
                    self._keep(connection, session, precondition, 200, None)
        if refusal is not None:
            raise refusal  # the refusal is kept with its key
        after = self._after(loaded, change, log)
        with self.lock:  # kept unless a later change's state already is (a state older than the stored version is replaced when used)
            kept = self.kept.get(session)
            if kept is None or kept.version < after.version:
                self.kept.put(session, after)
        return after

    @staticmethod
    def _after(loaded: Loaded, change: Change, log: list[Event]) -> Loaded:
        """The session after ``change``: the new entries added to its state; after an undo of its last
        entry, the state before it; else (entries deleted or corrected) its log replayed."""
        state, earlier = loaded.state, loaded.earlier
        last_taken_back = bool(change.deleted) and change.deleted == (loaded.events[-1].seq,) and not change.replaced and not change.added
        if last_taken_back and earlier:
            state, earlier = earlier[-1], earlier[:-1]
        elif change.deleted or change.replaced:
            state, earlier = replay(loaded.table, log), ()
        else:
            for event in log[len(loaded.events):]:
                earlier = (*earlier, state)[-EARLIER_KEPT:]
                state = advance(loaded.table, state.copy(), event)
        sizing = change.sizing if change.sets_sizing else loaded.sizing
        return Loaded(loaded.session, loaded.created, loaded.table, log, loaded.version + 1, sizing, state, earlier)

    def _write(self, connection: sqlite3.Connection, loaded: Loaded, change: Change) -> list[Event]:
        """Write ``change`` to the session's log (and sizing): the new log."""
        session, events = loaded.session, loaded.events
        for seq in change.deleted:
            connection.execute("DELETE FROM events WHERE session = ? AND seq = ?", (session, seq))
        replaced = dict(change.replaced)
        for seq, card in replaced.items():
            connection.execute("UPDATE events SET card = ? WHERE session = ? AND seq = ?", (card, session, seq))
        last, stamp = events[-1].seq if events else 0, now()
        new = [Event(last + offset, kind, card, hidden, stamp) for offset, (kind, card, hidden) in enumerate(change.added, 1)]
        for event in new:
            connection.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", (session, event.seq, event.kind, event.card, event.hidden, event.at))
        if change.sets_sizing:
            connection.execute("DELETE FROM sizing WHERE session = ?", (session,))
            if change.sizing is not None:
                connection.execute("INSERT INTO sizing VALUES (?, ?)", (session, json.dumps(change.sizing)))
        if not change.deleted and not replaced:
            return events + new
        kept = [Event(event.seq, event.kind, replaced.get(event.seq, event.card), event.hidden, event.at)
                for event in events if event.seq not in change.deleted]
        return kept + new

    def _repeated(self, connection: sqlite3.Connection, session: str, precondition: Precondition) -> Repeated | None:
        row = connection.execute("SELECT request, status, answer FROM requests WHERE session = ? AND key = ?", (session, precondition.key)).fetchone()
        if row is None:
            (count,) = connection.execute("SELECT COUNT(*) FROM requests WHERE session = ?", (session,)).fetchone()
            if count >= MAX_KEYS:
                raise TooLarge(f"the session keeps {MAX_KEYS:,} request keys, the most it may keep: start another session")
            return None
        if row[0] != precondition.request:
            raise InputError(f"Idempotency-Key {shown(precondition.key)} was sent before with another request ({row[0]}): "
                             "a key names one change; give this one a key of its own")
        return Repeated(row[1], None if row[2] is None else zlib.decompress(row[2]))

    def _keep(self, connection: sqlite3.Connection, session: str, precondition: Precondition, status: int, answer: bytes | None) -> None:
        connection.execute("INSERT INTO requests VALUES (?, ?, ?, ?, ?)",
                           (session, precondition.key, precondition.request, status, None if answer is None else zlib.compress(answer)))

    def keep_answer(self, session: str, key: str, answer: bytes) -> None:
        """Keep the first answer to the change of request ``key`` whole (for the latest
        :data:`ANSWERS_KEPT` keys of the session; the older keep their outcome)."""
        with self.transaction() as connection:
            connection.execute("UPDATE requests SET answer = ? WHERE session = ? AND key = ?", (zlib.compress(answer), session, key))
            connection.execute("""UPDATE requests SET answer = NULL WHERE session = ? AND status = 200 AND answer IS NOT NULL AND rowid NOT IN
                                  (SELECT rowid FROM requests WHERE session = ? AND status = 200 AND answer IS NOT NULL
                                   ORDER BY rowid DESC LIMIT ?)""", (session, session, ANSWERS_KEPT))

    def version(self, session: str) -> int | None:
        """A session's version now (None: no such session)."""
        with self.lock:
            row = self.connection.execute("SELECT version FROM sessions WHERE id = ?", (session,)).fetchone()
        return None if row is None else int(row[0])

    def summaries(self, limit: int) -> list[dict[str, Any]]:
        """The newest ``limit`` sessions, newest first: id, created, last entry, version, entries, settings."""
        with self.lock:
            rows = self.connection.execute("""SELECT id, created, settings, version, (SELECT MAX(at) FROM events WHERE session = id),
                                              (SELECT COUNT(*) FROM events WHERE session = id) FROM sessions
                                              ORDER BY created DESC, rowid DESC LIMIT ?""", (limit,)).fetchall()
        return [{"id": row[0], "created": row[1], "updated": row[4] or row[1], "version": row[3], "entries": row[5],
                 "settings": json.loads(row[2])} for row in rows]

    def delete(self, session: str, precondition: Precondition = ANY) -> None:
        """Forget a session (refused, :class:`Stale`, if it is no longer at the version of ``precondition``)."""
        with self.transaction() as connection:
            loaded = self._load(connection, session)
            if not precondition.matches(loaded.version):
                raise Stale(loaded, precondition.if_match or "")
            for table in ("requests", "sizing", "events"):
                connection.execute(f"DELETE FROM {table} WHERE session = ?", (session,))
            connection.execute("DELETE FROM sessions WHERE id = ?", (session,))
        self.kept.pop(session)
