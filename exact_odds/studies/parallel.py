"""Running chunks of work on any :class:`concurrent.futures.Executor`: local worker processes, or a
dask.distributed cluster (its client's executor). The chunk function is handed in.

Results come back in completion order with their index, so a caller can keep them in order and a
run gives the same result whatever runs it. Ctrl-C stops the workers at once (a second Ctrl-C
during the stop is held), and what finished is kept by the caller.
"""

import asyncio
import concurrent.futures
import ctypes
import functools
import multiprocessing
import os
import re
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..errors import InputError
from ..interrupts import interrupts_deferred
from ..core.numbers import shown

ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""Each worker process is one core's worth: its linear algebra must not start threads of its own."""
ADDRESS = re.compile(r"(tcp|tls|ws|wss|ucx)://[A-Za-z0-9_.\-\[\]:]+:[0-9]{1,5}")
CONNECT_SECONDS = 5
ANSWER_SECONDS = CONNECT_SECONDS + 1
"""dask retries a refused connection for CONNECT_SECONDS; a peer that accepts has a second more to answer."""
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
"""glibc's mallopt parameters (malloc.h)."""
TASKS_WANTED = 16
"""A run handed to workers is cut into at least this many tasks where it can be (to share the work out)."""
RANGES_PER_TASK = 10
"""and each task runs at most this many consecutive ranges."""
WORKERS_PER_CORE = 8
"""The most local worker processes started per core."""


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def check_workers(workers: object) -> None:
    """Refuse ``workers`` unless it is None (chosen for the run) or a count of local worker
    processes this machine can run: at most WORKERS_PER_CORE per core (more only wait on each
    other, and a careless count such as 10**30 would start processes without end)."""
    if workers is None:
        return
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"workers must be a whole number from 1, not {shown(workers)}", parameter="workers")
    limit = WORKERS_PER_CORE * cores()
    if workers > limit:
        raise InputError(f"workers {shown(workers)} is more processes than this machine runs at once: at most {limit} "
                         f"({WORKERS_PER_CORE} per core)", parameter="workers")


@functools.lru_cache(maxsize=1)
def keep_freed_memory() -> None:
    """Ask glibc, once per process, to keep freed blocks of up to 64 MiB for reuse instead of
    returning them to the system. A dask worker starts with MALLOC_TRIM_THRESHOLD_=65536, under
    which every chunk's temporaries are mapped and unmapped afresh: measured, 45% slower chunks.
    Elsewhere (not glibc) nothing is done."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(M_TRIM_THRESHOLD, 1 << 28)
        libc.mallopt(M_MMAP_THRESHOLD, 1 << 26)
    except (OSError, AttributeError):
        pass


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _interrupts_blocked() -> Iterator[None]:
    """Block Ctrl-C in this thread while the block runs (it is delivered after): the processes and
    threads started in it inherit the block, so a worker never sees Ctrl-C, even as it starts."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # started in the block, it would unblock Ctrl-C on its way
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class LocalPool(concurrent.futures.Executor):
    """An executor over a pool of fresh worker processes (spawned, one BLAS thread each, deaf to
    Ctrl-C) that can be stopped at once: :meth:`shutdown` without waiting terminates them."""

    def __init__(self, workers: int):
        saved = {name: os.environ.get(name) for name in ONE_THREAD}
        os.environ.update(ONE_THREAD)  # read by the fresh worker processes as they import numpy
        try:
            with _interrupts_blocked():
                self.pool = multiprocessing.get_context("spawn").Pool(workers, initializer=_ignore_interrupts)
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_running_or_notify_cancel()
        self.pool.apply_async(fn, args, kwargs, callback=future.set_result, error_callback=future.set_exception)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if wait and not cancel_futures:
            self.pool.close()
            self.pool.join()
        else:
            self.pool.terminate()


@contextmanager
def local_executor(workers: int) -> Iterator[concurrent.futures.Executor]:
    """A :class:`LocalPool` of ``workers`` processes, stopped at once if the block is interrupted
    (a Ctrl-C while they start is held until they can be stopped)."""
    started: list[LocalPool] = []
    try:
        with interrupts_deferred():
            started.append(LocalPool(workers))
        yield started[0]
    except BaseException:
        with interrupts_deferred():
            for pool in started:
                pool.shutdown(wait=False)
        raise
    else:
        started[0].shutdown()


def check_address(address: object) -> None:
    if not isinstance(address, str) or not ADDRESS.fullmatch(address):
        raise InputError(f"scheduler {shown(address)}: expected a dask scheduler address such as tcp://host:8786", parameter="scheduler")
    port = int(address.rpartition(":")[2])
    if not 1 <= port <= 65535:
        raise InputError(f"scheduler {shown(address)}: port {port} is out of range (1 to 65535)", parameter="scheduler")


async def _identity(address: str) -> Any:
    """What the server at ``address`` says it is, asked as a dask client asks."""
    from distributed.core import rpc
    from distributed.security import Security

    async with rpc(address, timeout=CONNECT_SECONDS, connection_args=Security().get_connection_args("client")) as server:
        return await server.identity()


def _no_scheduler(address: str, error: BaseException | None, identity: Any) -> InputError:
    """The refusal when no dask scheduler answered at ``address``, with what did happen."""
    from distributed.comm.core import CommClosedError

    if isinstance(error, TimeoutError) or error is None and identity is None:
        happened = f"no answer within {ANSWER_SECONDS} s"
    elif isinstance(error, CommClosedError):
        happened = "the connection was closed without an answer"
    elif isinstance(error, OSError):
        happened = f"no connection within {CONNECT_SECONDS} s"
    elif error is None:
        happened = f"what answers is a dask {shown(identity.get('type') if isinstance(identity, dict) else identity)}"
    else:
        happened = "what answers does not speak dask's protocol"
    return InputError(f"no dask scheduler answers at {address} ({happened})")


def _is_scheduler(identity: Any) -> bool:
    return isinstance(identity, dict) and identity.get("type") == "Scheduler"


@contextmanager
def cluster_executor(address: str) -> Iterator[concurrent.futures.Executor]:
    """The executor of a dask.distributed client connected to ``address`` (within time limits).
    The server there is asked what it is first, and a client made only once a scheduler answers (a
    client that fails to connect lingers, and at exit reports its failure in a traceback)."""
    check_address(address)
    try:
        from distributed import Client
    except ImportError:
        raise InputError("scheduler needs dask.distributed: pip install 'exact_odds[cluster]'", parameter="scheduler") from None
    outcome: dict[str, Any] = {}

    def connect() -> None:
        try:
            outcome["identity"] = asyncio.run(asyncio.wait_for(_identity(address), ANSWER_SECONDS))
            if _is_scheduler(outcome["identity"]):
                outcome["client"] = Client(address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
        except Exception as error:  # refused, reset, garbage (dask reads it as a huge frame), ...: dask raises many kinds
            outcome["error"] = error

    # A peer that accepts and never answers can outlast the time limits: wait on a daemon thread.
    connecting = threading.Thread(target=connect, daemon=True)
    connecting.start()
    connecting.join(ANSWER_SECONDS + CONNECT_SECONDS + 2)
    if "client" not in outcome:
        error = outcome.get("error")
        if _is_scheduler(outcome.get("identity")):
            reason = f"{type(error).__name__}: {str(error)[:120]}" if error else f"no connection within {CONNECT_SECONDS} s"
            raise InputError(f"the dask scheduler at {address} answered, and then a client could not connect ({reason})")
        raise _no_scheduler(address, error, outcome.get("identity"))
    client = outcome["client"]
    try:
        yield client.get_executor(pure=False)
    finally:
        with interrupts_deferred():
            client.close(timeout=CONNECT_SECONDS)


def run_chunks(function: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], executor: concurrent.futures.Executor | None) -> Iterator[tuple[int, Any]]:
    """``function(*task)`` for every task, as (index, result) in completion order; in this process
    when ``executor`` is None."""
    if executor is None:
        for index, task in enumerate(tasks):
            yield index, function(*task)
        return
    futures = {executor.submit(function, *task): index for index, task in enumerate(tasks)}
    try:
        for future in concurrent.futures.as_completed(futures):
            yield futures[future], future.result()
    finally:
        for future in futures:
            future.cancel()


def _in_turn(function: Callable[..., Any], common: Any, ranges: Sequence[tuple[int, int]]) -> list[Any]:
    return [function(common, first, last) for first, last in ranges]


def run_ranges(function: Callable[..., Any], common: Any, ranges: Sequence[tuple[int, int]],
               executor: concurrent.futures.Executor | None) -> Iterator[tuple[int, Any]]:
    """``function(common, first, last)`` for every range, as (index, result) in completion order.
    On an executor, consecutive ranges go to a worker together, up to :data:`RANGES_PER_TASK` a task
    while that leaves :data:`TASKS_WANTED` tasks: ``common`` travels once a task, and each task's
    messages and its scheduling are shared by its ranges (on a dask worker, one range a task cost
    a fifth more CPU than in a local worker process, and as much again in the scheduler and client).
    The ranges, and so the results, are the same whatever runs them.

    >>> [(index, result) for index, result in run_ranges(lambda common, first, last: common * (last - first), 2, [(0, 3), (3, 4)], None)]
    [(0, 6), (1, 2)]
    """
    if executor is None:
        for index, (first, last) in enumerate(ranges):
            yield index, function(common, first, last)
        return
    size = max(1, min(RANGES_PER_TASK, len(ranges) // TASKS_WANTED))
    groups = [tuple(ranges[start : start + size]) for start in range(0, len(ranges), size)]
    for group, results in run_chunks(_in_turn, [(function, common, group) for group in groups], executor):
        for offset, result in enumerate(results):
            yield group * size + offset, result
