"""Imports without the garbage collector.

Importing makes tens of thousands of objects (functions, classes, constants) that live as long as
the process, and no garbage: the collector, which runs every 700 new objects, only walks them again
and again. Off while the command line and a command's modules are imported, and what was imported
then frozen (kept out of every later collection), it was 7-8% of the CPU of a cold
``baccarat-odds --decks 8``, and 6% more for the analysis's own modules (farm-bench, paired runs).
The collector is back on for the command's work.
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager

FREEZE = False
"""Whether :func:`collector_off` freezes what is there at its end: set by the command line's own
process (:mod:`exact_odds.__main__`), which holds nothing but the command. A program or a test that
calls the command line in its own process keeps its objects collectable."""


@contextmanager
def collector_off() -> Iterator[None]:
    """Collect nothing inside (and, in the command line's own process, freeze what is there at the
    end); then collect as before.

    >>> import gc
    >>> with collector_off():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if FREEZE:
            gc.freeze()
        if enabled:
            gc.enable()
