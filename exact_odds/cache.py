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
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .features import Columns, coup_columns
from .policy import Decisions
from .tables import MAX_CARDS, Table, table_arrays, table_from_arrays

FIELDS = ("multisets", "entry_multiset", "entry_row", "entry_weight", "keys")
BUILDERS = ("cache.py", "coup.py", "features.py", "policy.py", "rules.py", "tables.py")
KEPT = 8


def folder() -> Path | None:
    """Where tables are kept, or None when caching is off."""
    setting = os.environ.get("EXACT_ODDS_CACHE", "")
    if setting.lower() == "off":
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or (Path.home() / ".cache")
    return Path(base) / "exact_odds"


def key(decisions: Decisions) -> str:
    """The name of the table of ``decisions`` built by this source."""
    hasher = hashlib.sha256(repr((decisions.rules, str(decisions.policy), decisions.scale, decisions.player, decisions.banker)).encode("utf-8"))
    for name in BUILDERS:
        hasher.update((Path(__file__).parent / name).read_bytes())
    return hasher.hexdigest()[:24]


def cached_table(decisions: Decisions, build: Callable[[], Table]) -> Table:
    """The plain table of ``decisions``, read from disk when a sound copy is there, else built
    (and kept when possible)."""
    where = folder()
    path = where / f"coup-table-{key(decisions)}.npz" if where else None
    if path is not None and path.is_file():
        table = _read(path, decisions)
        if table is not None:
            return table
    table = build()
    if path is not None and table.entry_weight.dtype != object:
        _write(path, table)
    return table


def _read(path: Path, decisions: Decisions) -> Table | None:
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in FIELDS}
            digest = bytes(stored["digest"])
    except Exception:  # any file that cannot be read whole (bad zip, CRC, header, missing array) is rebuilt
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


def _write(path: Path, table: Table) -> None:
    """Keep ``table`` at ``path`` whole or not at all; a folder that cannot be written is no error."""
    staging: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".coup-table-", suffix=".npz", dir=path.parent)
        staging = Path(name)
        arrays = {name: _compact(array) for name, array in table_arrays(table).items()}
        with os.fdopen(handle, "wb") as stream:
            # numpy's stubs let **arrays fill savez's allow_pickle flag (so mypy objects); no field has that name
            np.savez(stream, digest=np.frombuffer(_digest(arrays), dtype=np.uint8), **arrays)  # type: ignore[arg-type]
        os.replace(staging, path)
        staging = None
        for stale in sorted(path.parent.glob("coup-table-*.npz"), key=lambda kept: kept.stat().st_mtime)[:-KEPT]:
            stale.unlink()
    except OSError:
        if staging is not None:
            staging.unlink(missing_ok=True)
