"""Sessions in SQLite: each change is one committed transaction, a store reopened finds every
change, and a server killed with SIGKILL mid-session and started again has every answered card."""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from exact_odds.commands.setup import TooLarge
from exact_odds.commands.session import Settings
from exact_odds.serve.sessions import Refused, add_burn, add_card, close_coup, replay, undo
from exact_odds.serve.store import MAX_EVENTS, Store


def cards_of(store: Store, session: str) -> list[str]:
    return [str(card) for card in store.load(session).state.seen]


def test_a_reopened_store_has_every_change(tmp_path):
    path = str(tmp_path / "sessions.sqlite")
    store = Store(path)
    session = store.create(Settings(decks=1, burn="none"))
    for card in "9S 5D 9H 2C".split():
        store.change(session, add_card(card))
    store.change(session, close_coup)
    store.change(session, add_burn(None, 2))
    store.close()
    again = Store(path)
    assert cards_of(again, session) == ["9S", "5D", "9H", "2C"]
    loaded = again.load(session)
    state = loaded.state
    assert state == replay(loaded.table, loaded.events) and loaded.version == 6
    assert ([coup.coup.winner for coup in state.coups], state.hidden) == (["player"], 2)
    with sqlite3.connect(path) as plain:  # the file is a plain SQLite database in WAL mode
        assert plain.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert plain.execute("SELECT kind, card, hidden FROM events WHERE session = ? ORDER BY seq", (session,)).fetchall() == [
            ("card", "9S", 0), ("card", "5D", 0), ("card", "9H", 0), ("card", "2C", 0), ("coup", None, 0), ("burn", None, 2)]


def test_a_refused_change_writes_nothing(tmp_path):
    store = Store(str(tmp_path / "sessions.sqlite"))
    session = store.create(Settings(shoe="A=1,K=8", burn="none"))
    store.change(session, add_card("A"))
    with pytest.raises(Refused, match="cannot remove A: the shoe holds no more A"):
        store.change(session, add_card("A"))
    with pytest.raises(Refused, match="the cards A are not a whole coup by the tableau"):
        store.change(session, close_coup)
    store.change(session, undo)
    assert cards_of(store, session) == []
    with pytest.raises(Refused, match="nothing to undo"):
        store.change(session, undo)


def test_a_change_waits_for_another_stores_on_the_same_file_and_then_goes_on(tmp_path):
    """Two stores on one file (as two server processes hold): a change made while the other's is
    open waits on the lock file beside it, and is made once the other's is committed."""
    path = str(tmp_path / "sessions.sqlite")
    first, second = Store(path), Store(path)
    session = first.create(Settings(decks=1, burn="none"))
    order: list[str] = []
    with first.transaction() as connection:
        waiting = threading.Thread(target=lambda: (second.change(session, add_card("9S")), order.append("second")))
        waiting.start()
        waiting.join(0.5)
        assert waiting.is_alive() and order == []  # it waits, and fails nothing
        connection.execute("UPDATE sessions SET version = version + 1 WHERE id = ?", (session,))
        order.append("first")
    waiting.join(30)
    assert order == ["first", "second"] and cards_of(first, session) == ["9S"] and first.load(session).version == 2
    assert os.path.getsize(path + "-lock") == 0
    first.close()
    second.close()


def test_a_lock_file_that_cannot_be_opened_is_refused_in_one_line(tmp_path, run):
    path = tmp_path / "sessions.sqlite"
    os.mkdir(str(path) + "-lock")
    with pytest.raises(sqlite3.OperationalError, match=f"^cannot open {path}-lock, beside it, to write to it: Is a directory$"):
        Store(str(path))
    assert run("serve", "--db", str(path)) == (
        2, "", f"baccarat-odds: error: --db {path}: cannot open it as the sessions' SQLite file (cannot open {path}-lock, beside it, to write to it: Is a directory)\n")


def test_a_session_holds_a_bounded_log(tmp_path, monkeypatch):
    store = Store(str(tmp_path / "sessions.sqlite"))
    session = store.create(Settings(burn="none"))
    monkeypatch.setattr("exact_odds.serve.store.MAX_EVENTS", 2)
    store.change(session, add_card("9"))
    store.change(session, add_card("5"))
    with pytest.raises(TooLarge, match="the most a session may hold is 2"):
        store.change(session, add_card("9"))
    assert MAX_EVENTS >= 400 * 40  # forty 8-deck shoes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(db: str, port: int) -> subprocess.Popen:
    """``baccarat-odds serve`` in a process of its own, once it answers."""
    process = subprocess.Popen([sys.executable, "-m", "exact_odds", "serve", "--port", str(port), "--db", db],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            call(port, "GET", "/api/v1/health")
            return process
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None:
                raise AssertionError(process.stderr.read() if process.stderr else "the server stopped") from None
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not answer within 30 s")


def call(port: int, method: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
def test_a_server_killed_mid_session_loses_no_answered_card(tmp_path):
    db, port = str(tmp_path / "sessions.sqlite"), free_port()
    server = serve(db, port)
    try:
        session = call(port, "POST", "/api/v1/sessions", {"decks": 8, "bets": "all"})["id"]
        call(port, "POST", f"/api/v1/sessions/{session}/burns", {"card": "7"})
        answered = ["7"]
        for coup in ("9 5 9 2", "3 2 8 K Q 6"):
            for card in coup.split():
                state = call(port, "POST", f"/api/v1/sessions/{session}/cards", {"card": card})
                answered.append(card)
            if coup == "9 5 9 2":
                call(port, "POST", f"/api/v1/sessions/{session}/coups")
        os.killpg(server.pid, signal.SIGKILL)  # the first process and every server process at once
        server.wait(timeout=10)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
        server.communicate()
    restarted = serve(db, port)
    try:
        after = call(port, "GET", f"/api/v1/sessions/{session}")
    finally:
        restarted.terminate()
        restarted.communicate(timeout=10)
    assert after["shoe"]["seen"] == answered == state["shoe"]["seen"]
    assert after["analysis"] == state["analysis"] and after["coups"] == state["coups"]
    assert after["coup_in_progress"]["cards"] == ["3", "2", "8", "K", "Q", "6"]
