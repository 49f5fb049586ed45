"""A small cache safe across threads: the values used last, by key.

Different sessions compute at once in a server process's threads: no lock is held around an
analysis (each session's changes are ordered by its own lock, Store.session_lock), and its caches
(these) are safe across threads. Each server process (:mod:`.processes`) has caches of its own.
"""

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The ``most`` values used last, by key, safe across threads (each read and write under its own
    lock; a value is computed outside it, so two threads may compute the same value at once)."""

    def __init__(self, most: int):
        self.most, self.lock, self.values = most, threading.Lock(), OrderedDict[K, V]()

    def get(self, key: K) -> V | None:
        with self.lock:
            value = self.values.get(key)
            if value is not None:
                self.values.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> V:
        with self.lock:
            self.values[key] = value
            self.values.move_to_end(key)
            if len(self.values) > self.most:
                self.values.popitem(last=False)
        return value

    def pop(self, key: K) -> None:
        with self.lock:
            self.values.pop(key, None)
