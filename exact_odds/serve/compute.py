"""Where the analysis of a session's next coup is computed: in the request's thread, or in a worker
process while other sessions compute at once.

Why worker processes (issue 30, measured on 2 cores: 8 decks, every catalog bet by rank). A card's
analysis is Python that holds the GIL: the kernels, which release it, take 0.1 ms; the rest of
:func:`~exact_odds.engine.analysis.analyze_checked` about 1.2 ms, its record (``to_dict``, from
integer counts) 0.7 ms and the record's JSON text 0.6 ms. Threads of two sessions therefore take
turns (1.1x as fast at once as one after the other), and no numpy or C rewrite of the record would
change that without changing the engine. Shipped back whole, an Analysis costs as much as it took
to compute (pickled with its bets, 37 kB: 0.7 ms out, 0.8 ms in). So a worker computes the
analysis, its record and the record's JSON text (41 kB for the catalog: 0.02 ms to unpickle), and
sends back the text, which the answer holds as it is (:class:`Encoded`), and the integers the exact
figures are rebuilt from (:class:`Computed`): the server rebuilds the Analysis over the bets it holds
only when the staking or the banner reads its Fractions (:class:`NextCoup`). The workers are asked
over a pipe each by the thread that waits (:mod:`.workers` says why not a ProcessPoolExecutor).

One session alone, or one core, is computed in its own thread, as before (a worker's round trip
would only add to its time); the workers start when analyses overlap, and are used once they are
ready (until then, and after any failure of a worker, the analysis is computed in the thread: the
answer is the same, only later). A worker killed, or an answer that does not fit the session's
bets, is never an answer: the analysis is computed again in the thread.
"""

import functools
import json
import logging
import multiprocessing
import os
import threading
import time
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Callable, Hashable
from typing import Any, Protocol

from ..bets.bets import Bet
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..engine.analysis import Analysis, BetAnalysis, ReturnRow, analyze_checked
from ..errors import InputError
from .workers import Pool, WorkerFailed

LOG = logging.getLogger(__name__)
TOGETHER = 1.0
"""Seconds after two analyses overlapped during which sessions are taken to compute at once (each
analysis in the pool), so that two sessions fed card after card keep to the pool."""
ANSWER_SECONDS = 60.0
"""How long a request waits on a worker (an analysis takes milliseconds): a worker that does not answer
in time is taken as hung, its pool forgotten (its workers killed) and the analysis computed in the thread."""
FAILURES = 3
"""The pool is given up (every analysis in the thread) after this many failures in a row."""


class Table(Protocol):
    """What the analysis reads of a session's table (:class:`.sessions.Table`)."""

    @property
    def settings(self) -> Hashable: ...
    @property
    def bets(self) -> tuple[Bet, ...]: ...
    @property
    def decisions(self) -> Decisions: ...
    @property
    def notes(self) -> tuple[str, ...]: ...


TableOf = Callable[[Any], Table]
"""How a worker makes a session's table from its settings (:func:`.sessions.table_of`, sent by name)."""


BetCounts = tuple[str, tuple[int, ...], int, int, int, int, int, str]
"""What a bet's :class:`~exact_odds.engine.analysis.BetAnalysis` is rebuilt from: its name, its
lines' combinations (the rows of its pay table, in order), its total and cards, its exact expectation
as two integers (numerator, denominator), its scale and how it is counted (a plain tuple: a named
one takes three times as long to unpickle)."""


JSON_TEXT = functools.partial(json.dumps, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))
"""JSON text as :class:`JSONResponse` writes it."""


class Encoded:
    """A part of a JSON answer already encoded (its text, as :data:`JSON_TEXT` writes it), put into
    the answer as it is (:func:`.states.state_body`); equal to a part of the same text."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Encoded) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Encoded({self.text[:40]!r}...)"

    @property
    def value(self) -> object:
        """The part read back from its text (for an answer made as a whole by :class:`JSONResponse`)."""
        return json.loads(self.text)


def plain(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its :class:`Encoded` parts read back (the same JSON text, whichever way it is written)."""
    return {name: value.value if isinstance(value, Encoded) else value for name, value in record.items()}


@dataclass(frozen=True)
class Computed:
    """What a worker sends back: the analysis's record as JSON text, and the integers the Analysis is rebuilt from."""

    text: str
    outcomes: dict[str, int]
    total: int
    notes: tuple[str, ...]
    bets: tuple[BetCounts, ...]


class NextCoup:
    """The analysis of a session's next coup: its record as JSON text (for the answer, encoded once,
    in a worker or the thread), the bets with a positive expectation, and the exact figures in
    Fractions for the staking and the banner: the whole :attr:`analysis`, or one :meth:`bet`'s. A
    worker's are rebuilt from its counts (:class:`Computed`) when first read, a bet at a time where
    one is asked for, so a card whose banner reads no figure rebuilds none."""

    def __init__(self, record: Encoded, positive: tuple[str, ...], analysis: Analysis | None = None,
                 computed: "tuple[Computed, Table, Shoe] | None" = None):
        self.record, self.positive = record, positive
        self._analysis, self._computed = analysis, computed
        self._bets: dict[str, BetAnalysis] = {}
        self._lock = threading.Lock()

    @property
    def analysis(self) -> Analysis:
        with self._lock:
            if self._analysis is None:
                assert self._computed is not None
                computed, table, shoe = self._computed
                bets = tuple(rebuilt_bet(bet, counts) for bet, counts in zip(table.bets, computed.bets))
                self._analysis = Analysis(shoe, table.decisions, computed.outcomes, computed.total, bets, notes=computed.notes)
            return self._analysis

    def bet(self, name: str) -> BetAnalysis:
        """The analysis of the bet ``name`` (one of the table's)."""
        with self._lock:
            if self._analysis is not None:
                return self._analysis[name]
            assert self._computed is not None
            if name not in self._bets:
                computed, table, _ = self._computed
                bet, counts = next((bet, counts) for bet, counts in zip(table.bets, computed.bets) if bet.name == name)
                self._bets[name] = rebuilt_bet(bet, counts)
            return self._bets[name]


def in_thread(table: Table, shoe: Shoe) -> NextCoup:
    """The analysis of the next coup of ``shoe`` (checked) under ``table``, and its record: exactly
    what ``baccarat-odds --format json`` prints for them."""
    analysis = analyze_checked(shoe, list(table.bets), table.decisions)
    positive = tuple(result.bet.name for result in analysis.bets if result.expected_value > 0)
    return NextCoup(Encoded(JSON_TEXT(analysis.to_dict(table.notes))), positive, analysis=analysis)


@functools.lru_cache(maxsize=64)
def worker_table(table_of: TableOf, settings: Hashable) -> Table:
    """A session's table made in a worker, once for its settings (as the server made it)."""
    return table_of(settings)


def compute(table_of: TableOf, settings: Hashable, shoe: Shoe) -> Computed:
    """In a worker: the analysis of the next coup, as the record's text and the counts sent back."""
    table = worker_table(table_of, settings)
    analysis = analyze_checked(shoe, list(table.bets), table.decisions)
    counts = tuple((result.bet.name, tuple(row.combinations for row in result.rows), result.total, result.cards,
                    result.expected_value.numerator, result.expected_value.denominator, result.scale, result.unordered)
                   for result in analysis.bets)
    return Computed(JSON_TEXT(analysis.to_dict(table.notes)), dict(analysis.outcomes), analysis.total, analysis.notes, counts)


def received(computed: Computed, table: Table, shoe: Shoe) -> NextCoup:
    """The analysis a worker computed, over the server's own bets (checked here: a worker's answer
    that does not fit them is refused, ValueError), its figures rebuilt when first read."""
    if tuple(counts[0] for counts in computed.bets) != tuple(bet.name for bet in table.bets):
        raise ValueError("a worker analysed other bets than the session's")
    for bet, counts in zip(table.bets, computed.bets):
        if not len(bet.payouts) - 1 <= len(counts[1]) <= len(bet.payouts):
            raise ValueError(f"a worker's return table of {bet.name} does not fit its pay table")
    positive = tuple(counts[0] for counts in computed.bets if counts[4] > 0)
    return NextCoup(Encoded(computed.text), positive, computed=(computed, table, shoe))


def rebuilt_bet(bet: Bet, counts: BetCounts) -> BetAnalysis:
    """A bet's analysis a worker computed, over the server's own bet (its rows as ``analyze`` lays
    them out: one per line of the pay table, the last, a loss, left out where no coup reaches it)."""
    _, combinations, total, cards, numerator, denominator, scale, unordered = counts
    rows = tuple(ReturnRow(event, pays, count, total) for event, pays, count in zip(bet.events, bet.payouts, combinations))
    return BetAnalysis(bet, rows, total, cards, Fraction(numerator, denominator), scale, unordered)


def usable_cores() -> int:
    """The cores this process may run on (``taskset`` counted)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def start_method() -> str:
    """forkserver where there is one: the server's threads are never forked (a lock another thread
    held would stay locked in the child); each worker is forked from a process that imported the
    engine once. Else spawn."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


class Computer:
    """Computes the analyses of sessions' next coups: in the caller's thread, or by a pool of
    ``cores`` worker processes while analyses overlap (see the module's docstring), where each
    session's table is made by ``table_of`` from its settings."""

    def __init__(self, table_of: TableOf, cores: int | None = None, together: float = TOGETHER):
        self.table_of = table_of
        self.cores = usable_cores() if cores is None else cores
        self.together = together
        self.lock = threading.Lock()
        self.running = 0
        self.together_until = float("-inf")
        self.pool: Pool | None = None
        self.failures = 0
        self.answered_in_pool = 0
        """How many analyses workers computed (the others were computed in the callers' threads)."""

    def next_coup(self, table: Table, shoe: Shoe) -> NextCoup:
        """The analysis of the next coup of ``shoe`` (checked) under ``table``, and its record."""
        with self.lock:
            now = time.monotonic()
            if self.running:
                self.together_until = now + self.together
            at_once = self.cores > 1 and now < self.together_until and self.failures < FAILURES
            self.running += 1
        try:
            pool = self.ready_pool(table, shoe) if at_once else None
            answer = None if pool is None else self.in_pool(pool, table, shoe)
            return in_thread(table, shoe) if answer is None else answer
        finally:
            with self.lock:
                self.running -= 1

    def ready_pool(self, table: Table, shoe: Shoe) -> Pool | None:
        """The pool once its workers are ready; None until then (it is started here, each worker
        warmed by the analysis asked for)."""
        with self.lock:
            pool = self.pool
            if pool is None:
                context = multiprocessing.get_context(start_method())
                if start_method() == "forkserver":
                    context.set_forkserver_preload([__name__, "exact_odds.serve.sessions", "exact_odds.engine.compiled"])
                self.pool = Pool(self.cores, compute, (self.table_of, table.settings, shoe), context)
                return None
        try:
            return pool if pool.ready() else None
        except WorkerFailed as error:
            self.discard(pool, str(error))
            return None

    def in_pool(self, pool: Pool, table: Table, shoe: Shoe) -> NextCoup | None:
        """The analysis computed by a worker; None where it failed (then computed in the thread)."""
        try:
            done, value = pool.ask((self.table_of, table.settings, shoe), ANSWER_SECONDS)
        except WorkerFailed as error:  # a worker died, or hangs: never an answer, and its pool goes with its workers
            self.discard(pool, str(error))
            return None
        if not done and isinstance(value, InputError):  # refused, as in the thread (its message and parameter sent back whole)
            raise value
        try:
            if not done:
                raise value
            answer = received(value, table, shoe)
        except Exception:  # a defect: computed again in the thread, which answers or raises it itself
            LOG.exception("an analysis failed in a worker process; computed again in the server's thread")
            with self.lock:
                self.failures += 1
            return None
        with self.lock:
            self.failures = 0
            self.answered_in_pool += 1
        return answer

    def discard(self, pool: Pool, why: str) -> None:
        """Forget a pool that failed, its workers killed (a new one starts when analyses overlap again)."""
        LOG.warning("the analyses' worker pool failed (%s); computed in the server's threads until a new one is ready", why)
        with self.lock:
            if self.pool is not pool:
                return
            self.pool = None
            self.failures += 1
        pool.end(kill=True)

    def close(self) -> None:
        """End the pool's workers (a new pool starts when analyses overlap again)."""
        with self.lock:
            pool, self.pool = self.pool, None
            self.together_until = float("-inf")
        if pool is not None:
            pool.end()
