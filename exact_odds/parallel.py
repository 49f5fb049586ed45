"""Running chunks of work on any :class:`concurrent.futures.Executor`: local worker processes, or a
dask.distributed cluster (its client's executor). The chunk function is handed in.

Results come back in completion order with their index, so a caller can keep them in order and a
run gives the same result whatever runs it. Ctrl-C stops the workers at once (a second Ctrl-C
during the stop is held), and what finished is kept by the caller.
"""

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

from .errors import InputError
from .files import interrupts_deferred
from .parsing import shown

ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""Each worker process is one core's worth: its linear algebra must not start threads of its own."""
ADDRESS = re.compile(r"(tcp|tls|ws|wss|ucx)://[A-Za-z0-9_.\-\[\]:]+:[0-9]{1,5}")
CONNECT_SECONDS = 5
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
"""glibc's mallopt parameters (malloc.h)."""


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


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


class LocalPool(concurrent.futures.Executor):
    """An executor over a pool of fresh worker processes (spawned, one BLAS thread each, deaf to
    Ctrl-C) that can be stopped at once: :meth:`shutdown` without waiting terminates them."""

    def __init__(self, workers: int):
        saved = {name: os.environ.get(name) for name in ONE_THREAD}
        os.environ.update(ONE_THREAD)  # read by the fresh worker processes as they import numpy
        try:
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
    """A :class:`LocalPool` of ``workers`` processes, stopped at once if the block is interrupted."""
    pool = LocalPool(workers)
    try:
        yield pool
    except BaseException:
        with interrupts_deferred():
            pool.shutdown(wait=False)
        raise
    else:
        pool.shutdown()


def check_address(address: str) -> None:
    if not ADDRESS.fullmatch(address):
        raise InputError(f"--scheduler {shown(address)}: expected a dask scheduler address such as tcp://host:8786")


@contextmanager
def cluster_executor(address: str) -> Iterator[concurrent.futures.Executor]:
    """The executor of a dask.distributed client connected to ``address`` (within a time limit)."""
    check_address(address)
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--scheduler needs dask.distributed: pip install 'exact_odds[cluster]'") from None
    outcome: dict[str, Any] = {}

    def connect() -> None:
        try:
            outcome["client"] = Client(address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
        except Exception as error:  # dask raises many kinds (OSError, TimeoutError, CommClosedError, ...)
            outcome["error"] = error

    # A peer that accepts and never answers can outlast dask's own timeout: wait on a daemon thread.
    connecting = threading.Thread(target=connect, daemon=True)
    connecting.start()
    connecting.join(CONNECT_SECONDS + 2)
    if "client" not in outcome:
        error = outcome.get("error")
        reason = f"{type(error).__name__}: {str(error)[:120]}" if error else f"no answer within {CONNECT_SECONDS + 2} s"
        raise InputError(f"cannot reach the dask scheduler at {address}: {reason}")
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
