"""Ctrl-C held while a few steps that must not be cut run (renames of a folder written whole, the
end of worker processes). Standard library only, so that the studies and the output layer both use it."""

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C while the block runs (a few renames), then deliver it to the handler restored
    (KeyboardInterrupt; nothing where the command, stopping already, ignores Ctrl-C)."""
    received: list[int] = []

    def hold(number: int, frame: FrameType | None) -> None:
        received.append(number)

    try:
        previous = signal.signal(signal.SIGINT, hold)
    except ValueError:  # not the main thread: nothing to defer
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if received:
            signal.raise_signal(signal.SIGINT)
