"""The compiled table of point values kept on disk, so that a new process need not build it.

The file is keyed by the decisions (rules and policy) and the source of the modules that build the
table (so an edited checkout never reads a stale table), written whole
(beside its place, then renamed), and checked when read: its SHA-256 must match the digest it
carries, its arrays must have the right shapes and types, and the weighted orderings must account
for every sequence of point values exactly once (each of the 10^6 sequences of six values extends
exactly one coup). Anything else is ignored and the table rebuilt. At most :data:`KEPT` tables are
kept (the least recently written go first). ``EXACT_ODDS_CACHE`` names another folder, or ``off``
keeps nothing on disk.
"""

import hashlib
import os
from dataclasses import astuple
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from ..core.features import Columns, coup_columns
from ..core.policy import Decisions
from .tables import MAX_CARDS, Support, Table, Tracked, build_coup_table, table_arrays, table_from_arrays

FIELDS = ("multisets", "entry_multiset", "entry_row", "entry_weight", "keys")
BUILDERS = ("engine/store.py", "core/coup.py", "core/features.py", "core/policy.py", "core/rules.py", "engine/tables.py")
KEPT = 8
SUFFIX = ".table"


def coup_table(decisions: Decisions, tracked: Tracked = (), support: Support = None) -> Table:
    """The table of :func:`~exact_odds.engine.tables.build_coup_table`; the plain one (no tracked
    slots, every card) read from disk when a sound copy is there."""
    if not tracked and support is None:
        return _plain_table(decisions)
    return build_coup_table(decisions, tracked, support)


@lru_cache(maxsize=8)
def _plain_table(decisions: Decisions) -> Table:
    return cached_table(decisions, lambda: build_coup_table(decisions, (), None))


def folder() -> str | None:
    """Where tables are kept, or None when caching is off."""
    setting = os.environ.get("EXACT_ODDS_CACHE", "")
    if setting.lower() == "off":
        return None
    if setting:
        return setting
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "exact_odds")


def key(decisions: Decisions) -> str:
    """The name of the table of ``decisions`` built by this source."""
    hasher = hashlib.sha256(repr((astuple(decisions.rules), str(decisions.policy), decisions.scale, decisions.player, decisions.banker)).encode("utf-8"))
    for name in BUILDERS:
        with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), name), "rb") as source:
            hasher.update(source.read())
    return hasher.hexdigest()[:24]


def cached_table(decisions: Decisions, build: Callable[[], Table]) -> Table:
    """The plain table of ``decisions``, read from disk when a sound copy is there, else built
    (and kept when possible). (Paths are plain strings here: pathlib is imported to write only.)"""
    where = folder()
    path = os.path.join(where, f"coup-table-{key(decisions)}{SUFFIX}") if where else None
    if path is not None and os.path.isfile(path):
        table = _read(path, decisions)
        if table is not None:
            return table
    table = build()
    if path is not None and table.entry_weight.dtype != object:
        _write(path, table)
    return table


def _read(path: str, decisions: Decisions) -> Table | None:
    try:
        with open(path, "rb") as stored:
            arrays, digest = _decode(stored.read())
    except Exception:  # any file that cannot be read whole (short, garbled header, missing array) is rebuilt
        return None
    if any(array.dtype.kind != "i" for array in arrays.values()) or digest != _digest(arrays):
        return None
    arrays = {name: array.astype(np.int64) for name, array in arrays.items()}
    keys = arrays["keys"]
    if keys.ndim != 2 or keys.shape[0] != 4 or arrays["entry_row"].size and arrays["entry_row"].max() >= keys.shape[1]:
        return None
    sizes = arrays["multisets"].sum(axis=1)
    if arrays["entry_multiset"].size and arrays["entry_multiset"].max() >= len(sizes):
        return None
    covered = int((arrays["entry_weight"] * 10 ** (MAX_CARDS - sizes[arrays["entry_multiset"]])).sum())
    if covered != 10**MAX_CARDS * decisions.scale**2:
        return None
    columns: Columns = coup_columns(keys[0], keys[1], keys[2], keys[3], decisions.rules.naturals)
    return table_from_arrays(columns, decisions.scale**2, arrays)


MAGIC = b"exact_odds coup table 1\n"


def _encode(arrays: dict[str, np.ndarray]) -> bytes:
    """The arrays as one file: a line per array (name, type, shape), its digest, a blank line, then
    the arrays' bytes in that order (read back without any archive library).

    >>> arrays, digest = _decode(_encode({name: np.arange(6, dtype=np.int8).reshape(2, 3) for name in FIELDS}))
    >>> arrays["keys"].tolist(), digest == _digest(arrays)
    ([[0, 1, 2], [3, 4, 5]], True)
    """
    lines = [f"{name} {arrays[name].dtype.str} {'x'.join(map(str, arrays[name].shape))}" for name in FIELDS]
    header = "\n".join(lines + [f"digest {_digest(arrays).hex()}"]).encode("ascii")
    return MAGIC + header + b"\n\n" + b"".join(np.ascontiguousarray(arrays[name]).tobytes() for name in FIELDS)


def _decode(data: bytes) -> tuple[dict[str, np.ndarray], bytes]:
    """The arrays and the digest a file of :func:`_encode` holds (ValueError for anything else)."""
    header, blank, body = data.removeprefix(MAGIC).partition(b"\n\n")
    *lines, digest = header.decode("ascii").split("\n")
    if not data.startswith(MAGIC) or not blank or [line.split(" ")[0] for line in lines] != list(FIELDS) or not digest.startswith("digest "):
        raise ValueError("not a coup table file")
    arrays, offset = {}, 0
    for line in lines:
        name, kind, dimensions = line.split(" ")
        dtype, shape = np.dtype(kind), tuple(int(size) for size in dimensions.split("x"))
        if dtype.kind not in "iuf":
            raise ValueError(f"{name} holds {dtype}")
        count = int(np.prod(shape))
        arrays[name] = np.frombuffer(body, dtype, count, offset).reshape(shape)
        offset += count * dtype.itemsize
    if offset != len(body):
        raise ValueError("the file is longer than its arrays")
    return arrays, bytes.fromhex(digest.removeprefix("digest "))


def _digest(arrays: dict[str, np.ndarray]) -> bytes:
    hasher = hashlib.sha256()
    for name in FIELDS:
        hasher.update(name.encode("ascii") + repr(arrays[name].shape).encode("ascii") + np.ascontiguousarray(arrays[name]).tobytes())
    return hasher.digest()


def _compact(array: np.ndarray) -> np.ndarray:
    """``array`` in the narrowest signed integer type that holds it (a smaller file reads faster)."""
    for kind in (np.int8, np.int16, np.int32):
        if not array.size or (np.iinfo(kind).min <= array.min() and array.max() <= np.iinfo(kind).max):
            return array.astype(kind)
    return array


def _write(target: str, table: Table) -> None:
    """Keep ``table`` at ``target`` whole or not at all; a folder that cannot be written is no error."""
    import tempfile  # here only: a process that reads the table need not import them
    from pathlib import Path

    path, staging = Path(target), None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".coup-table-", suffix=SUFFIX, dir=path.parent)
        staging = name
        with os.fdopen(handle, "wb") as stream:
            stream.write(_encode({name: _compact(array) for name, array in table_arrays(table).items()}))
        os.replace(staging, path)
        staging = None
        for stale in sorted(path.parent.glob("coup-table-*"), key=lambda kept: kept.stat().st_mtime)[:-KEPT]:  # older formats go first
            stale.unlink()
    except OSError:
        if staging is not None and os.path.exists(staging):
            os.unlink(staging)
