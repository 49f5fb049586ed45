"""The analyses computed in worker processes (serve/compute.py) are exactly those computed in the
server's thread: the Analysis (every bet's return table and exact figures) and its record, field by
field and as JSON text, for several shoes and settings; a refusal is the same refusal; a worker
killed while a session waits on it loses nothing (the analysis is computed again in the thread); the
app's end shuts the workers."""

import os
import signal
import threading
import time
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from exact_odds.commands.session import Settings, Table, session_settings, table_of
from exact_odds.core.cards import parse_cards
from exact_odds.core.shoe import Shoe
from exact_odds import analyze
from exact_odds.errors import InputError
from exact_odds.serve import compute, sessions
from exact_odds.serve.app import create_app
from exact_odds.serve.states import state_record
from exact_odds.serve.store import Loaded, Store
from exact_odds.serve.tables import TABLES
from exact_odds.serve.workers import Pool

OWN_BETS = """
[[bet]]
name = "player_nine"
description = "the player's first two cards make 9"
pays = [{ when = "player_natural and player_total == 9", pays = "4" }]
"""
CASES = (
    (Settings(decks=8, bets="all", burn="none"), "9 5 K 2 7 7 A 3 Q 4 6 8"),
    (Settings(shoe="As=7,Ah=7,Ad=7,Ac=7,9h=5,9s=5,Ks=20,Kh=20,5c=9,3d=9,2h=9", suits=True, bets="all"), "AS 9H KS 5C 3D"),
    (session_settings(TABLES["ez_baccarat"], suits=False), "8 8 2 4 T"),
    (Settings(decks=1, rules="baccarat_gold", policy="player_on_5=draw", commission="4", tie_pays="9", bets="banker, player, tie, dragon_7, player_nine", bets_toml=OWN_BETS), "5 5 K 9 4"),
)


def the_next_coup(table: Table, cards: str) -> tuple[Table, Shoe]:
    """The shoe left after ``cards``, checked."""
    return table, table.start.remove(parse_cards(cards)).checked()


def waited_pool(computer: compute.Computer, table: Table, shoe: Shoe) -> Pool:
    """The computer's pool once its workers are ready (started by the first call)."""
    ends = time.monotonic() + 120
    while (pool := computer.ready_pool(table, shoe)) is None:
        assert time.monotonic() < ends, "the workers did not start"
        time.sleep(0.02)
    return pool


@pytest.fixture(scope="module")
def computer():
    """A computer of two workers; its workers ended after the tests (checked)."""
    made = compute.Computer(table_of, cores=2)
    yield made
    pool = made.pool
    processes = pool.processes if pool is not None else []
    made.close()
    assert made.pool is None and all(process.exitcode is not None for process in processes)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_a_workers_analysis_is_the_threads_field_by_field(computer, case):
    settings, cards = CASES[case]
    table, shoe = the_next_coup(table_of(settings), cards)
    pool = waited_pool(computer, table, shoe)
    answered = computer.answered_in_pool
    answer = computer.in_pool(pool, table, shoe)
    assert answer is not None and computer.answered_in_pool == answered + 1
    expected = analyze(shoe, list(table.bets), table.decisions)  # the oracle: what analysis_of computed in the thread
    expected_record = expected.to_dict(table.notes)
    assert answer.positive == tuple(result.bet.name for result in expected.bets if result.expected_value > 0)
    assert answer.record.text == compute.JSON_TEXT(expected_record)  # byte for byte (the floats too), as the answer writes it
    record = answer.record.value
    for wanted in expected.bets:  # a bet at a time, rebuilt from the worker's counts
        assert answer.bet(wanted.bet.name) == wanted and answer.bet(wanted.bet.name).bet is wanted.bet
    analysis = answer.analysis  # the whole analysis, rebuilt from the worker's counts once read
    assert analysis == expected and analysis.bets  # every bet: its rows (event, pays, combinations, total), cards, expectation
    for got, wanted in zip(analysis.bets, expected.bets, strict=True):
        assert got.bet is wanted.bet  # the server's own bets
        assert (got.expected_value, got.variance, got.house_edge_excluding_pushes) == (wanted.expected_value, wanted.variance,
                                                                                       wanted.house_edge_excluding_pushes)
        assert type(got.expected_value) is Fraction and type(got.variance) is Fraction
    assert (analysis.outcomes, analysis.total, analysis.shoe, analysis.decisions) == (expected.outcomes, expected.total, shoe, table.decisions)
    for name in expected_record:
        assert record[name] == expected_record[name], name
    assert record.keys() == expected_record.keys()


def test_a_refusal_in_a_worker_is_the_threads(computer):
    table = table_of(Settings(shoe="A=4,5=2,9=2", burn="none"))
    shoe = table.start.remove(parse_cards("A A 5"))  # five cards left: not a coup
    pool = waited_pool(computer, *the_next_coup(table_of(CASES[0][0]), ""))
    with pytest.raises(InputError, match=r"holds 5 cards; a coup needs a shoe of at least 6$") as expected:
        analyze(shoe, list(table.bets), table.decisions)
    with pytest.raises(InputError, match=r"holds 5 cards; a coup needs a shoe of at least 6$") as refused:
        computer.in_pool(pool, table, shoe)
    assert (type(refused.value), str(refused.value), refused.value.parameter) == (type(expected.value), str(expected.value), expected.value.parameter)
    assert computer.pool is pool and computer.failures == 0  # a refusal is no failure of the pool


def test_analyses_at_once_go_to_the_workers_once_ready_and_one_core_stays_in_its_thread():
    table, shoe = the_next_coup(table_of(CASES[0][0]), "9 5")
    expected = analyze(shoe, list(table.bets), table.decisions)
    computer = compute.Computer(table_of, cores=2)
    computer.together_until = float("inf")  # as after two analyses overlapped
    first = computer.next_coup(table, shoe)  # starts the pool, computed in the thread meanwhile
    assert first.analysis == expected and computer.pool is not None and computer.answered_in_pool == 0
    waited_pool(computer, table, shoe)
    second = computer.next_coup(table, shoe)
    assert (second.analysis, second.record, second.positive) == (first.analysis, first.record, first.positive) and computer.answered_in_pool == 1
    computer.close()
    alone = compute.Computer(table_of, cores=1)
    alone.together_until = float("inf")
    third = alone.next_coup(table, shoe)
    assert (third.analysis, third.record, third.positive) == (first.analysis, first.record, first.positive) and alone.pool is None


def test_a_worker_killed_while_a_session_waits_on_it_loses_nothing(tmp_path, monkeypatch):
    """A session's card is answered (by the thread) while the worker computing its analysis is killed,
    its log kept: the answer is what a server opened again on the same file answers."""
    computer = compute.Computer(table_of, cores=2)
    monkeypatch.setattr(sessions, "COMPUTER", computer)
    path = str(tmp_path / "sessions.sqlite")
    store = Store(path)
    session = store.create(Settings(decks=8, bets="all", burn="none"))
    first = store.change(session, sessions.add_card("9"))
    assert isinstance(first, Loaded)
    computer.together_until = float("inf")
    waited_pool(computer, first.table, sessions.shoe_left(first.table, first.state))
    pool = computer.pool
    assert pool is not None
    workers = pool.processes
    for worker in workers:  # stopped: no answer can come from them
        os.kill(worker.pid, signal.SIGSTOP)
    answers: list[dict[str, object]] = []

    def card() -> None:
        loaded = store.change(session, sessions.add_card("5"))
        assert isinstance(loaded, Loaded)
        answers.append(state_record(loaded))

    waiting = threading.Thread(target=card)
    waiting.start()
    time.sleep(0.5)
    assert not answers  # waiting on a worker
    for worker in workers:
        os.kill(worker.pid, signal.SIGKILL)
    waiting.join(120)
    assert len(answers) == 1 and computer.answered_in_pool == 0 and computer.pool is None
    store.close()
    again = Store(path)
    sessions.ANALYSES.values.clear()
    expected = state_record(again.load(session))  # computed in the thread: the pool is forgotten and starts again when wanted
    again.close()
    assert answers[0]["shoe"]["seen"] == ["9", "5"]
    assert answers[0] == expected
    for worker in workers:
        worker.join(10)
        assert worker.exitcode == -signal.SIGKILL
    table, shoe = the_next_coup(first.table, "9 5 4")
    waited_pool(computer, table, shoe)  # a new pool
    assert computer.next_coup(table, shoe).analysis == analyze(shoe, list(table.bets), table.decisions) and computer.answered_in_pool == 1
    computer.close()


def test_the_apps_end_shuts_the_workers(tmp_path, monkeypatch):
    computer = compute.Computer(table_of, cores=2)
    monkeypatch.setattr(sessions, "COMPUTER", computer)
    computer.together_until = float("inf")
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        session = client.post("/api/v1/sessions", json={"decks": 8, "bets": "all", "burn": "none"}).json()["id"]
        for card in "9 5 K".split():
            assert client.post(f"/api/v1/sessions/{session}/cards", json={"card": card}).status_code == 200
        pool = computer.pool
        assert pool is not None
        waited_pool(computer, *the_next_coup(table_of(Settings(decks=8, bets="all", burn="none")), "9 5 K"))
        answered = client.post(f"/api/v1/sessions/{session}/cards", json={"card": "2"})
        assert answered.status_code == 200 and computer.answered_in_pool == 1
        workers = pool.processes
        assert workers and all(worker.exitcode is None for worker in workers)
    assert computer.pool is None and all(worker.exitcode == 0 for worker in workers)


def test_a_worker_that_hangs_is_not_waited_on_for_ever(tmp_path, monkeypatch):
    """A worker that never answers (stopped here) costs the request ANSWER_SECONDS: the thread then
    computes the analysis, the pool is forgotten and its workers are ended."""
    computer = compute.Computer(table_of, cores=2)
    monkeypatch.setattr(compute, "ANSWER_SECONDS", 1.0)
    table, shoe = the_next_coup(table_of(Settings(decks=8, bets="all", burn="none")), "9")
    computer.together_until = float("inf")
    waited_pool(computer, table, shoe)
    pool = computer.pool
    assert pool is not None
    workers = pool.processes
    for worker in workers:
        os.kill(worker.pid, signal.SIGSTOP)
    table, shoe = the_next_coup(table, "9 5")
    started = time.monotonic()
    answer = computer.next_coup(table, shoe)
    assert time.monotonic() - started < 30
    expected = analyze(shoe, list(table.bets), table.decisions)
    assert answer.analysis == expected and answer.record.text == compute.JSON_TEXT(expected.to_dict(table.notes))
    assert computer.pool is None and computer.answered_in_pool == 0
    for worker in workers:
        worker.join(10)
        assert worker.exitcode == -signal.SIGKILL
    computer.close()


def failing(kind: str) -> object:
    """What a worker runs in test_a_workers_failures_are_answers_in_words: a refusal, an error that cannot be pickled, or a value."""
    if kind == "refused":
        raise InputError("refused here", parameter="kind")
    if kind == "unpicklable":
        error = ValueError("held a lock")
        error.lock = threading.Lock()
        raise error
    return kind


def test_a_workers_failures_are_answers_and_none_ends_it():
    """A worker (workers.serve, here in a thread over a pipe) answers each request (True, value) or (False, error): a refusal
    whole, an error that cannot be pickled in words; None ends it."""
    from multiprocessing import Pipe

    from exact_odds.serve import workers

    ours, theirs = Pipe()
    worker = threading.Thread(target=workers.serve, args=(theirs, failing))
    worker.start()
    ours.send(("fine",))
    assert ours.recv() == (True, "fine")
    ours.send(("refused",))
    done, error = ours.recv()
    assert (done, type(error), str(error), error.parameter) == (False, InputError, "refused here", "kind")
    ours.send(("unpicklable",))
    done, error = ours.recv()
    assert (done, type(error)) == (False, RuntimeError) and str(error).startswith("TypeError: cannot pickle '_thread.lock' object")
    ours.send(None)
    worker.join(10)
    assert not worker.is_alive()
