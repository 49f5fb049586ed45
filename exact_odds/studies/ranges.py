"""Work in ranges of an index: run on local workers or a dask cluster, kept in a results folder,
resumed after a kill.

A study too big for one process splits its work into *tasks*, each a range of an index (two
integers: compositions by rank, shoes by seed) that a worker computes alone from the task's
arguments. :func:`run_tasks` runs them (in this process, on local worker processes or on a dask
scheduler: :mod:`exact_odds.studies.parallel`), and with a :class:`ResultsFolder` writes each
finished task's result whole (a temporary file, then a rename) the moment it arrives. Run again on
the same folder, it reads the tasks already done and computes only the others: a run killed at any
moment resumes where it stopped, and no finished task is computed twice. Each result is handed to
the caller's merge, in task order (sums of floats come out the same whatever ran them) or as it
comes (exact sums), and let go: a resumed run gives exactly what an uninterrupted one does.

A folder records the parameters of its run (``run.json``) and each result the digest of its
task's identity (plain data): a folder of another run, or a result that another task wrote, is
refused, never mixed in. Each result also carries the digest of its own data: one edited by hand,
cut short or of an older layout is computed again, never taken as it is. Results kept in a folder
are JSON data.

>>> import tempfile
>>> folder = ResultsFolder(tempfile.mkdtemp() + "/run", "example", {"cards": 18})
>>> done = {}
>>> with executor_for(workers=1, scheduler=None) as pool:
...     run_tasks(pow, [Task("a", (2, 10), 1), Task("b", (3, 3), 1)], lambda task, result: done.update({task.key: result}), pool=pool, folder=folder)
Ran(computed=2, read=0)
>>> done, folder.saved("a", digest((2, 10)))
({'a': 1024, 'b': 27}, 1024)
"""

import concurrent.futures
import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.numbers import shown
from ..core.textfile import user_text
from ..errors import InputError

RUN_FILE = "run.json"
RESULT = re.compile(r"[A-Za-z0-9_.-]{1,120}")
"""A task's key: the name of its result's file."""


@dataclass(frozen=True, eq=False)
class Task:
    """A piece of work: ``function(*args)``, its result kept under ``key``; ``units`` of work (for progress)."""

    key: str
    args: tuple[Any, ...]
    units: int
    identity: Any = None
    """Plain data that tells the task apart (default: its arguments, when they are plain data)."""


@dataclass(frozen=True)
class Progress:
    """How far a run is: units done of the total (those read from the folder count as done), the
    seconds since it started, and what is running."""

    done: int
    total: int
    elapsed: float
    label: str = ""
    computed: int = 0
    """Units computed in this run (the rest of ``done`` was read from the folder): the rate's base."""

    @property
    def eta(self) -> float | None:
        """Seconds left at the rate so far (None until a unit is computed)."""
        if not self.computed or not self.elapsed:
            return None
        return (self.total - self.done) * self.elapsed / self.computed


def digest(data: Any) -> str:
    """Plain data (numbers, text, lists, mappings) digested, the same in every process: what tells a
    task's result apart in its file, so that it is never taken for another task's."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:32]


class ResultsFolder:
    """A folder of one run's results: ``run.json`` (what the run is and its parameters) and a
    JSON file per finished task. A folder that does not exist is made; an empty one is taken; a
    folder of this run is resumed; anything else is refused (``parameter`` names the option)."""

    def __init__(self, path: str | os.PathLike[str], kind: str, parameters: Mapping[str, Any], parameter: str = "resume"):
        if not isinstance(path, (str, os.PathLike)) or not isinstance(os.fspath(path), str):
            raise InputError(f"{parameter} must be a folder's path (text or a pathlib.Path), not {shown(path)}", parameter=parameter)
        self.path, self.kind, self.parameter = Path(path), kind, parameter
        self.parameters = json.loads(json.dumps(parameters))  # as it reads back
        record = {"kind": kind, "parameters": self.parameters}
        if self.path.is_symlink() and not self.path.exists():
            raise InputError(f"{parameter} {str(self.path)!r} is a link to nothing: give the folder itself", parameter=parameter)
        if self.path.exists() and not self.path.is_dir():
            raise InputError(f"{parameter} {str(self.path)!r} is a file, not a results folder", parameter=parameter)
        run_file = self.path / RUN_FILE
        if run_file.exists() or run_file.is_symlink():
            try:
                found = json.loads(user_text(str(run_file)))
            except (OSError, ValueError):
                raise InputError(f"{parameter} {str(self.path)!r}: its {RUN_FILE} cannot be read", parameter=parameter) from None
            if found != record:
                raise InputError(f"{parameter} {str(self.path)!r} holds the results of another run ({_difference(found, record)})",
                                 parameter=parameter)
            return
        if self.path.exists() and any(self.path.iterdir()):
            raise InputError(f"{parameter} {str(self.path)!r} is not empty and is no results folder: name a new or empty folder", parameter=parameter)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(f"cannot make {parameter} {str(self.path)!r}: {error.strerror or error}", parameter=parameter) from None
        self._write(RUN_FILE, record)

    def saved(self, key: str, task_digest: str) -> Any | None:
        """The result saved for ``key`` (None if there is none, or none whole: computed again); one
        that another task wrote is refused, and so is a folder, a pipe or a device in its place."""
        file = self.path / f"{key}.json"
        if not file.exists() and not file.is_symlink():
            return None
        if file.is_symlink() or not file.is_file():
            raise InputError(f"{self.parameter} {str(file)!r} is not a file of results (a link, a folder, a pipe or a device): "
                             "move it, or name a new folder", parameter=self.parameter)
        try:
            record = json.loads(user_text(str(file)))
        except (OSError, ValueError):
            return None  # not one of ours whole: computed again (every file of ours is written whole)
        if not isinstance(record, dict) or record.get("key") != key or record.get("digest") != task_digest:
            raise InputError(f"{self.parameter} {str(file)!r} holds the result of another task than this run's {key}", parameter=self.parameter)
        if "result" not in record or record.get("check") != digest(record["result"]):
            return None  # edited, or of an older layout: computed again, never taken as it is
        return record["result"]

    def save(self, key: str, task_digest: str, result: Any) -> None:
        self._write(f"{key}.json", {"key": key, "digest": task_digest, "check": digest(result), "result": result})

    def discard(self, keys: Iterable[str]) -> None:
        """The results of ``keys`` removed (once a summary of theirs is saved: a folder stays small)."""
        for key in keys:
            (self.path / f"{key}.json").unlink(missing_ok=True)

    def _write(self, name: str, record: Any) -> None:
        """Written whole: to a temporary file beside it, then renamed over (readable as the umask allows)."""
        try:
            handle, staging = tempfile.mkstemp(dir=self.path, prefix=".partial-", suffix=".json")
        except OSError as error:
            raise InputError(f"cannot write into {self.parameter} {str(self.path)!r}: {error.strerror or error}", parameter=self.parameter) from None
        try:
            os.fchmod(handle, 0o666 & ~_umask())
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                json.dump(record, file, separators=(",", ":"))
            os.replace(staging, self.path / name)
        except OSError as error:
            Path(staging).unlink(missing_ok=True)
            raise InputError(f"cannot write {str(self.path / name)!r}: {error.strerror or error}", parameter=self.parameter) from None
        except BaseException:
            Path(staging).unlink(missing_ok=True)
            raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _difference(found: Any, expected: dict[str, Any]) -> str:
    """What differs between a folder's run record and this run's, in a few words."""
    if not isinstance(found, dict) or found.get("kind") != expected["kind"]:
        return f"made by {shown(found.get('kind') if isinstance(found, dict) else found)}, not {expected['kind']}"
    theirs, ours = found.get("parameters", {}), expected["parameters"]
    names = sorted(name for name in set(theirs) | set(ours) if theirs.get(name) != ours.get(name))
    return "its " + ", ".join(names[:3]) + (" differ" if len(names) > 1 else " differs")


@contextmanager
def executor_for(workers: int, scheduler: str | None) -> Iterator[Any]:
    """Where tasks run: this process (one worker), ``workers`` local processes, or the dask
    scheduler at ``scheduler`` (one that does not answer is refused before any work)."""
    from .parallel import cluster_executor, local_executor

    with ExitStack() as stack:
        pool: Any = None
        if scheduler:
            try:
                pool = stack.enter_context(cluster_executor(scheduler))
            except InputError as error:
                message = str(error)
                raise InputError(message if message.startswith("scheduler") else f"scheduler: {message}", parameter="scheduler") from None
        elif workers > 1:
            pool = stack.enter_context(local_executor(workers))
        yield pool


@dataclass(frozen=True)
class Ran:
    """What :func:`run_tasks` did: tasks computed, and tasks whose results were read from the folder."""

    computed: int
    read: int


def run_tasks(function: Callable[..., Any], tasks: Sequence[Task], merge: Callable[[Task, Any], None], *, pool: Any = None,
              folder: ResultsFolder | None = None, progress: Callable[[Progress], None] | None = None, label: str = "",
              ordered: bool = True) -> Ran:
    """Every task's result handed to ``merge``: read from ``folder`` where it was saved, else
    ``function(*args)`` computed (and saved there the moment it arrives) on ``pool`` (an executor
    of :func:`executor_for`; None: in this process). With ``ordered``, the
    results are merged in task order (those that arrive early wait), so that sums of floats come
    out the same whatever ran them; else as they come (exact sums). ``progress`` hears after each
    task. A result must be JSON data when a folder keeps it. Interrupted (Ctrl-C), what finished
    is kept in the folder."""
    keys = [task.key for task in tasks]
    if len(set(keys)) != len(keys) or not all(RESULT.fullmatch(key) and key != RUN_FILE.removesuffix(".json") for key in keys):
        raise ValueError("task keys must be distinct file names")
    digests = {task.key: digest(task.args if task.identity is None else task.identity) for task in tasks} if folder else {}
    saved = {task.key: folder.saved(task.key, digests[task.key]) for task in tasks} if folder else {}
    pending = [task for task in tasks if saved.get(task.key) is None]
    waiting: dict[int, Any] = {}
    position = 0

    def arrived(index: int, result: Any) -> None:
        nonlocal position
        if not ordered:
            merge(tasks[index], result)
            return
        waiting[index] = result
        while position in waiting:
            merge(tasks[position], waiting.pop(position))
            position += 1

    for index, task in enumerate(tasks):
        if saved.get(task.key) is not None:
            arrived(index, saved.pop(task.key))
    total = sum(task.units for task in tasks)
    done = total - sum(task.units for task in pending)
    started, computed = time.monotonic(), 0
    if progress:
        progress(Progress(done, total, 0.0, label))
    if pending:
        place = {task.key: index for index, task in enumerate(tasks)}
        for index, result in _completed(function, [task.args for task in pending], pool):
            task = pending[index]
            if folder:
                folder.save(task.key, digests[task.key], result)
            arrived(place[task.key], result)
            done, computed = done + task.units, computed + task.units
            if progress:
                progress(Progress(done, total, time.monotonic() - started, label, computed))
    return Ran(len(pending), len(tasks) - len(pending))


def _completed(function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], pool: Any) -> Iterator[tuple[int, Any]]:
    """``function(*args)`` for each, as (index, result) in completion order (in this process when
    ``pool`` is None). Each result is let go once handed on: a pass's results are never all held."""
    if pool is None:
        for index, args in enumerate(arguments):
            yield index, function(*args)
        return
    futures = {pool.submit(function, *args): index for index, args in enumerate(arguments)}
    try:
        for future in concurrent.futures.as_completed(list(futures)):
            index = futures.pop(future)
            yield index, future.result()
    finally:
        for future in futures:
            future.cancel()
