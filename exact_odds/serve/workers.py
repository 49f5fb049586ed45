"""Worker processes that the server's threads talk to over a pipe each: the thread that asks sends
the request and reads the answer itself.

Why not :class:`concurrent.futures.ProcessPoolExecutor` (measured on 2 cores, two sessions fed at
once, every catalog bet): its requests go through a feeder thread and its answers through a
manager thread, each of which must take the GIL from the server's busy threads before the answer
reaches the thread that waits on it; they cost the server about 1 ms of its own time a card, and
while the other session holds the GIL each hand-over may wait a switch interval (5 ms). Here a
worker is taken from the idle ones, asked, and given back, by one thread.
"""

import multiprocessing
import queue
import signal
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

END_SECONDS = 10.0
"""How long a worker told to end is waited on before it is killed."""


class WorkerFailed(Exception):
    """A worker that died, that did not answer in time, or that no request could have in time."""


def life(connection: Connection, function: Callable[..., object]) -> None:
    """A worker process: Ctrl-C, which the terminal sends to the whole process group, ignored (the
    server ends its workers); then it serves."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    serve(connection, function)


def serve(connection: Connection, function: Callable[..., object]) -> None:
    """Each request (the arguments of ``function``) answered ``(True, value)``, or ``(False, error)``
    where it raised; None, or the pipe closed, ends it."""
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        try:
            answer: tuple[bool, object] = (True, function(*request))
        except Exception as error:
            answer = (False, error)
        try:
            connection.send(answer)
        except (EOFError, OSError):
            return
        except Exception as error:  # an error that cannot be pickled: told in words
            connection.send((False, RuntimeError(f"{type(error).__name__}: {error} (answering {type(answer[1]).__name__})")))


class Worker:
    """A worker process and the server's end of its pipe (used by one thread at a time)."""

    def __init__(self, context: BaseContext, function: Callable[..., object]):
        self.connection, child = context.Pipe()
        self.process: BaseProcess = context.Process(target=life, args=(child, function), daemon=True)  # type: ignore[attr-defined]
        self.process.start()
        child.close()

    def send(self, request: Sequence[object] | None) -> None:
        try:
            self.connection.send(request)
        except (EOFError, OSError) as error:
            raise WorkerFailed(f"{type(error).__name__}: {error}") from None

    def answer(self, seconds: float) -> tuple[bool, Any]:
        """The answer to the request sent (``(True, value)`` or ``(False, error)``), waited on at most ``seconds``."""
        try:
            if not self.connection.poll(seconds):
                raise WorkerFailed(f"no answer within {seconds:g} s")
            answer: tuple[bool, Any] = self.connection.recv()
        except (EOFError, OSError) as error:
            raise WorkerFailed(f"the worker died ({type(error).__name__})") from None
        return answer


class Pool:
    """``cores`` workers of ``function``, each started by answering ``first`` (until then not ready)."""

    def __init__(self, cores: int, function: Callable[..., object], first: Sequence[object], context: BaseContext | None = None):
        context = context or multiprocessing.get_context()
        self.workers = [Worker(context, function) for _ in range(cores)]
        self.lock = threading.Lock()
        self.warming = list(self.workers)
        self.idle: "queue.SimpleQueue[Worker]" = queue.SimpleQueue()
        self.taken: set[Worker] = set()
        for worker in self.workers:
            worker.send(first)

    @property
    def processes(self) -> list[BaseProcess]:
        return [worker.process for worker in self.workers]

    def ready(self) -> bool:
        """Whether every worker has answered its first request (WorkerFailed: one failed)."""
        with self.lock:
            for worker in list(self.warming):
                if worker.connection.poll(0):
                    done, value = worker.answer(0)
                    if not done:
                        raise WorkerFailed(f"a worker failed to start ({type(value).__name__}: {value})")
                    self.warming.remove(worker)
                    self.idle.put(worker)
            return not self.warming

    def ask(self, request: Sequence[object], seconds: float) -> tuple[bool, Any]:
        """``request`` answered by an idle worker (waited on at most ``seconds``, and its answer as long)."""
        try:
            worker = self.idle.get(timeout=seconds)
        except queue.Empty:
            raise WorkerFailed(f"no worker free within {seconds:g} s") from None
        with self.lock:
            self.taken.add(worker)
        worker.send(request)
        answer = worker.answer(seconds)
        with self.lock:
            self.taken.discard(worker)
        self.idle.put(worker)
        return answer

    def end(self, kill: bool = False) -> None:
        """End the workers: killed (``kill``, or a worker busy with a request), else told to end and
        waited on (then killed if they have not ended)."""
        with self.lock:
            busy = set(self.taken)
        for worker in self.workers:
            if kill or worker in busy:
                worker.process.kill()
            else:
                try:
                    worker.send(None)
                except WorkerFailed:
                    pass
        for worker in self.workers:  # (their pipes are closed when the pool is dropped: a thread may still be reading one)
            worker.process.join(END_SECONDS)
            if worker.process.exitcode is None:
                worker.process.kill()
                worker.process.join(END_SECONDS)
