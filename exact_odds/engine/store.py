"""Compiled tables kept on disk, so that a new process need not build them.

Every kind is kept: the plain table of point values, the tables of counted predicates (by coup row,
or by the events a set of bets tells apart), the tables of first-card draws, the patterns of
:mod:`exact_odds.engine.patterns`, and the event bases of :mod:`exact_odds.engine.events`. A file
is named by what builds it (its kind, what it is built from: the rule decisions, the slots and
classes tracked, the bets' conditions, and the source of the modules that build it, so an edited
checkout never reads a stale table), written whole (beside its place, then renamed), and checked
when read: its SHA-256 must match the digest it carries, its arrays must be integers of the right
shapes, and a table's weighted orderings must account for every sequence of its classes exactly
once (see :func:`~exact_odds.engine.tables.table_from_arrays`; an event basis must count what its
table counts, see :func:`~exact_odds.engine.events.cached_basis`).
Anything else is ignored and the table rebuilt. The folder holds at most :data:`KEPT` files and
:data:`KEPT_BYTES` bytes (the least recently used go first). ``EXACT_ODDS_CACHE`` names another
folder, or ``off`` keeps nothing on disk.
"""

import hashlib
import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

import numpy as np

from ..bets.bets import Bet
from ..core.features import COUNTED, Array, Granularity, Partition
from ..core.policy import Decisions
from .tables import MAX_CARDS, Support, Table, Tracked, table_arrays, table_from_arrays

BUILDERS = ("engine/store.py", "engine/tables.py", "engine/sequences.py", "engine/coup_table.py", "engine/counted.py", "engine/patterns.py", "engine/events.py", "engine/kernel.py", "engine/distribution.py",
            "core/cards.py", "core/coup.py", "core/features.py", "core/policy.py", "core/rules.py", "bets/conditions.py", "bets/bets.py")
"""The modules whose source builds the tables (relative to the package)."""
KEPT = 32
KEPT_BYTES = 200 * 2**20
SUFFIX = ".table"
MAGIC = b"exact_odds table 2\n"

Kept = TypeVar("Kept")


def folder() -> str | None:
    """Where tables are kept, or None when caching is off."""
    setting = os.environ.get("EXACT_ODDS_CACHE", "")
    if setting.lower() == "off":
        return None
    if setting:
        return setting
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "exact_odds")


@lru_cache(maxsize=1)
def source_digest() -> bytes:
    """The SHA-256 of the builders' source (:data:`BUILDERS`)."""
    hasher = hashlib.sha256()
    for name in BUILDERS:
        with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), name), "rb") as source:
            hasher.update(name.encode("ascii") + b"\0" + source.read())
    return hasher.digest()


def decisions_key(decisions: Decisions) -> tuple[object, ...]:
    """What of the rules and the policy a table depends on."""
    return decisions.rules.field_values(), str(decisions.policy), decisions.scale, decisions.player, decisions.banker


def bets_key(bets: Sequence[Bet]) -> tuple[tuple[str, ...], ...]:
    """What of the bets the rows they tell apart depend on: each bet's conditions, in order."""
    return tuple(tuple(str(row.condition.tree) for row in bet.rows) for bet in bets)


def key(kind: str, what: object) -> str:
    """The file name of the ``kind`` of table built from ``what`` by this source."""
    hasher = hashlib.sha256(source_digest() + kind.encode("ascii") + b"\0" + repr(what).encode("utf-8"))
    return f"{kind}-{hasher.hexdigest()[:24]}{SUFFIX}"


def kept(kind: str, what: object, build: Callable[[], Kept], arrays: Callable[[Kept], dict[str, Array] | None],
         restore: Callable[[dict[str, Array]], Kept | None]) -> Kept:
    """What ``build`` makes from ``what``, read from disk when a sound copy is there, else built and
    kept (when ``arrays`` gives its arrays; None: not kept). ``restore`` makes it again from the
    arrays read, or None where they do not make a sound one."""
    where = folder()
    path = os.path.join(where, key(kind, what)) if where else None
    if path is not None and os.path.isfile(path):
        found = _read(path, restore)
        if found is not None:
            return found
    made = build()
    layout = arrays(made) if path is not None else None
    if path is not None and layout is not None:
        _write(path, layout)
    return made


def _read(path: str, restore: Callable[[dict[str, Array]], Kept | None]) -> Kept | None:
    try:
        with open(path, "rb") as stored:
            arrays, digest = _decode(stored.read())
        if digest != _digest(arrays):
            return None
        found = restore(arrays)
    except Exception:  # a file that cannot be read whole (short, garbled header, missing array) is rebuilt
        return None
    if found is not None:
        try:
            os.utime(path)  # the least recently used go first
        except OSError:
            pass
    return found


def coup_table(decisions: Decisions, tracked: Tracked = (), support: Support = None, bets: tuple[Bet, ...] | None = None) -> Table:
    """The table of :func:`~exact_odds.engine.coup_table.build_coup_table`, kept on disk and in memory. A
    table of counted predicates alone is the same for every shoe (no support: one table, and one
    event basis, however the shoe runs out of cards); given the ``bets`` to settle, its rows are the
    events they and the winner tell apart (far fewer: see :func:`~exact_odds.engine.counted.counted_table`)."""
    counted = bool(tracked) and all(slot.startswith(COUNTED) for slot, _ in tracked)
    return _coup_table(decisions, tracked, None if counted else support, bets if counted else None)


@lru_cache(maxsize=16)
def _coup_table(decisions: Decisions, tracked: Tracked, support: Support, bets: tuple[Bet, ...] | None) -> Table:
    counted = bool(tracked) and all(slot.startswith(COUNTED) for slot, _ in tracked)
    what = (decisions_key(decisions), tracked, support, None if bets is None else bets_key(bets))
    scale = decisions.scale**2
    if counted:
        from .counted import counted_partition  # the builders here only: a process that reads its tables need not import them

        partition = counted_partition(tracked)
        refined = partition.classes
    else:
        fine = Granularity.VALUE
        for _, level in tracked:
            fine = fine.join(level)
        partition, refined = Partition.of(fine), (fine.classes if tracked else 0)

    def build() -> Table:
        from .coup_table import build_coup_table
        from .counted import counted_table

        if bets is None:
            return build_coup_table(decisions, tracked, support)
        chosen = bets
        return counted_table(decisions, tracked, lambda columns: np.stack([bet.settle(columns) for bet in chosen] + [columns["winner"]], axis=1))

    table = kept("coup", what, build, _table_arrays, lambda arrays: table_from_arrays(partition, refined, MAX_CARDS, scale, arrays, support))
    return table.kept_as(key("coup", what))


@lru_cache(maxsize=16)
def card_table(tracked: Tracked, partition: Partition | None = None) -> Table:
    """The table of :func:`~exact_odds.engine.coup_table.card_table`, kept on disk."""
    from .coup_table import card_partition_of
    from .coup_table import card_table as build_card_table

    chosen = partition if partition is not None else card_partition_of(tracked)
    what = (tracked, chosen.labels)
    table = kept("cards", what, lambda: build_card_table(tracked, chosen), _table_arrays,
                 lambda arrays: table_from_arrays(chosen, chosen.classes, len(tracked), 1, arrays))
    return table.kept_as(key("cards", what))


def _table_arrays(table: Table) -> dict[str, Array] | None:
    """A table's arrays to keep (none for Python-integer weights, which no file holds)."""
    return None if table.entry_weight.dtype == object else table_arrays(table)


def _encode(arrays: dict[str, Array]) -> bytes:
    """The arrays as one file: a line per array (name, type, shape), their digest, a blank line,
    then the arrays' bytes in that order (read back without any archive library). Integers are
    kept in the narrowest type that holds them.

    >>> arrays, digest = _decode(_encode({"keys": np.arange(6).reshape(2, 3), "more": np.arange(3)}))
    >>> arrays["keys"].tolist(), arrays["keys"].dtype.name, digest == _digest(arrays)
    ([[0, 1, 2], [3, 4, 5]], 'int8', True)
    """
    arrays = {name: _compact(array) for name, array in arrays.items()}
    lines = [f"{name} {array.dtype.str} {'x'.join(map(str, array.shape))}" for name, array in arrays.items()]
    header = "\n".join(lines + [f"digest {_digest(arrays).hex()}"]).encode("utf-8")
    return MAGIC + header + b"\n\n" + b"".join(np.ascontiguousarray(array).tobytes() for array in arrays.values())


def _decode(data: bytes) -> tuple[dict[str, Array], bytes]:
    """The arrays and the digest a file of :func:`_encode` holds (ValueError for anything else)."""
    header, blank, body = data.removeprefix(MAGIC).partition(b"\n\n")
    *lines, digest = header.decode("utf-8").split("\n")
    if not data.startswith(MAGIC) or not blank or not digest.startswith("digest "):
        raise ValueError("not a table file")
    arrays, offset = {}, 0
    for line in lines:
        name, kind, dimensions = line.split(" ")
        dtype, shape = np.dtype(kind), tuple(int(size) for size in dimensions.split("x") if size)
        if dtype.kind not in "iu" or name in arrays:
            raise ValueError(f"{name} holds {dtype}")
        count = int(np.prod(shape))
        arrays[name] = np.frombuffer(body, dtype, count, offset).reshape(shape)
        offset += count * dtype.itemsize
    if offset != len(body):
        raise ValueError("the file is longer than its arrays")
    return arrays, bytes.fromhex(digest.removeprefix("digest "))


def _digest(arrays: dict[str, Array]) -> bytes:
    hasher = hashlib.sha256()
    for name, array in arrays.items():
        hasher.update(name.encode("utf-8") + array.dtype.str.encode("ascii") + repr(array.shape).encode("ascii") + np.ascontiguousarray(array).tobytes())
    return hasher.digest()


def _compact(array: Array) -> Array:
    """An integer ``array`` in the narrowest signed integer type that holds it (a smaller file reads faster)."""
    if array.dtype == bool:
        return array.astype(np.int8)
    if array.dtype.kind not in "iu":
        return array
    for kind in (np.int8, np.int16, np.int32):
        if not array.size or (np.iinfo(kind).min <= array.min() and array.max() <= np.iinfo(kind).max):
            return array.astype(kind)
    return array


def _write(target: str, arrays: dict[str, Array]) -> None:
    """Keep ``arrays`` at ``target`` whole or not at all, then let the oldest files go beyond
    :data:`KEPT` files or :data:`KEPT_BYTES`; a folder that cannot be written is no error."""
    import tempfile  # here only: a process that reads the table need not import them
    from pathlib import Path

    path, staging = Path(target), None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".table-", suffix=SUFFIX, dir=path.parent)
        staging = name
        with os.fdopen(handle, "wb") as stream:
            stream.write(_encode(arrays))
        os.replace(staging, path)
        staging = None
        held, total = 0, 0
        for kept_file in sorted((each for each in path.parent.glob(f"*{SUFFIX}") if not each.name.startswith(".")),
                                key=lambda each: each.stat().st_mtime, reverse=True):
            size = kept_file.stat().st_size
            if kept_file != path and (held >= KEPT or total + size > KEPT_BYTES):
                kept_file.unlink()
                continue
            held, total = held + 1, total + size
    except OSError:
        if staging is not None and os.path.exists(staging):
            os.unlink(staging)

