"""``baccarat-odds serve`` as several server processes (serve/processes.py): each connection goes to
the process holding the fewest; one session fed over connections on two processes answers what one
process answers, card for card; a server process killed is started again and no answered card is
lost; SIGTERM ends them all; a server process that cannot start stops the server in one line."""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402
from test_serve_sessions import free_port  # noqa: E402

from exact_odds.serve import processes  # noqa: E402
from exact_odds.serve.app import create_app  # noqa: E402

SHOE = "7S 9S 5D 9H 2C 3H 2S 8D KC QH 6S 4C AD KS 2H 8C 7S 3D KH 4C".split()
"""A burn, then the four worked example coups of rules-sources/002 (tests/test_serve_api.py)."""
COUPS = {5: 4, 11: 6, 16: 5, 20: 4}
"""After how many cards each coup of SHOE is complete (its last card), and how many cards it has."""


def test_each_connection_goes_to_the_process_holding_the_fewest():
    pairs = [socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM) for _ in range(3)]
    servers = [processes.Server(process=None, control=ours, open=open_) for (ours, _), open_ in zip(pairs, (2, 0, 1))]
    with socket.create_server(("127.0.0.1", 0)) as listener:
        clients = [socket.create_connection(listener.getsockname()) for _ in range(3)]
        listener.setblocking(False)
        deadline = time.monotonic() + 10
        while sum(server.open for server in servers) < 6 and time.monotonic() < deadline:
            processes.hand_over(listener, servers)
    assert [server.open for server in servers] == [2, 2, 2]  # 0 to the second; 1 to the third (of two holding one, handed none); 2 to the second
    for number, client in enumerate(clients):
        client.sendall(str(number).encode())
    received = {}
    for index, (_, theirs) in enumerate(pairs):
        theirs.setblocking(False)
        while True:
            try:
                message, descriptors, _, _ = socket.recv_fds(theirs, 1, 1)
            except BlockingIOError:
                break
            assert message == b"c" and len(descriptors) == 1
            with socket.socket(fileno=descriptors[0]) as handed:
                received[handed.recv(1).decode()] = index
    assert received == {"0": 1, "1": 2, "2": 1}
    for client in clients:
        client.close()
    for ours, theirs in pairs:
        ours.close()
        theirs.close()


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listed:
        return [int(child) for child in listed.read().split()]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


class Connection:
    """One keep-alive HTTP connection to the server (so that it stays with one server process)."""

    def __init__(self, port: int):
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        self.http.request(method, path, body=None if body is None else json.dumps(body), headers={"Content-Type": "application/json"})
        response = self.http.getresponse()
        answer = json.loads(response.read())
        assert response.status in (200, 201), answer
        return answer


LINUX = pytest.mark.skipif(not os.path.exists(f"/proc/{os.getpid()}/task"), reason="lists a process's children in Linux's /proc")


def two_processes(db: str) -> tuple[subprocess.Popen, int]:
    """``baccarat-odds serve --processes 2`` over ``db``, in a process group of its own, once both
    server processes are started: (the server, its port)."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "exact_odds", "serve", "--port", str(port), "--db", db, "--processes", "2"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(children(server.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    return server, port


def in_one_process(db: str, cards: list[str]) -> dict:
    """The state one server process (the app in this process, over ``db``) answers for SHOE's first cards."""
    with TestClient(create_app(db)) as client:
        session = client.post("/api/v1/sessions", json={"decks": 8, "bets": "all", "suits": True}).json()["id"]
        state = client.post(f"/api/v1/sessions/{session}/burns", json={"card": cards[0]}).json()
        for seen, card in enumerate(cards[1:], 2):
            state = client.post(f"/api/v1/sessions/{session}/cards", json={"card": card}).json()
            if seen in COUPS:
                state = client.post(f"/api/v1/sessions/{session}/coups").json()
        return unnamed(state)


def unnamed(state: dict) -> dict:
    """A session's state less its id (made at random)."""
    return {key: value for key, value in state.items() if key != "id"}


@LINUX
def test_one_session_over_two_processes_and_one_killed_answers_what_one_process_answers(tmp_path):
    server, port = two_processes(str(tmp_path / "s.sqlite"))
    try:
        deadline = time.monotonic() + 60
        first, second = sorted(children(server.pid))
        connections = [Connection(port), Connection(port)]  # the first to one process, the second to the other
        session = connections[0].call("POST", "/api/v1/sessions", {"decks": 8, "bets": "all", "suits": True})["id"]
        state = connections[1].call("POST", f"/api/v1/sessions/{session}/burns", {"card": SHOE[0]})
        for seen, card in enumerate(SHOE[1:12], 2):
            connection = connections[seen % 2]
            state = connection.call("POST", f"/api/v1/sessions/{session}/cards", {"card": card})
            if seen in COUPS:
                state = connection.call("POST", f"/api/v1/sessions/{session}/coups")
        assert unnamed(state) == in_one_process(str(tmp_path / "one.sqlite"), SHOE[:12])
        os.kill(first, signal.SIGKILL)
        while (len(children(server.pid)) < 2 or first in children(server.pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        started_again = set(children(server.pid)) - {second}
        assert second in children(server.pid) and len(started_again) == 1 and alive(server.pid)
        connections = [Connection(port), Connection(port)]
        for seen, card in enumerate(SHOE[12:], 13):
            connection = connections[seen % 2]
            state = connection.call("POST", f"/api/v1/sessions/{session}/cards", {"card": card})
            if seen in COUPS:
                state = connection.call("POST", f"/api/v1/sessions/{session}/coups")
        assert unnamed(state) == in_one_process(str(tmp_path / "two.sqlite"), SHOE) and state["shoe"]["seen"] == SHOE
        for connection in connections:
            connection.http.close()
        server.terminate()
        out, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()
    assert server.returncode == -signal.SIGTERM and err == "" and out.startswith(f"baccarat-odds serve: http://127.0.0.1:{port}/ ")
    assert not any(alive(child) for child in (second, *started_again))


def test_a_server_process_that_cannot_start_stops_the_server_in_one_line(tmp_path, capfd):
    with socket.create_server(("127.0.0.1", 0)) as listener:
        with pytest.raises(processes.Failed, match=r"^a server process stopped as it started \(exit status 1\): see its message above$"):
            processes.run(listener, str(tmp_path / "no such folder" / "s.sqlite"), None, 2)
        assert listener.fileno() == -1  # closed: no connection waits on a server that is gone
    err = capfd.readouterr().err
    assert err.startswith(f"baccarat-odds serve: a server process cannot open {tmp_path / 'no such folder' / 's.sqlite'}: ")
    assert err.count("\n") in (1, 2) and len(set(err.splitlines())) == 1  # each of the two says so in one line


@LINUX
@pytest.mark.parametrize("stop", ["Ctrl-C", "the first process killed"])
def test_the_server_processes_end_with_the_server(tmp_path, stop):
    server, port = two_processes(str(tmp_path / "s.sqlite"))
    try:
        deadline = time.monotonic() + 60
        served = children(server.pid)
        assert Connection(port).call("GET", "/api/v1/health")
        os.killpg(server.pid, signal.SIGINT) if stop == "Ctrl-C" else server.kill()  # a terminal's Ctrl-C goes to the whole group
        out, err = server.communicate(timeout=30)
        while any(alive(child) for child in served) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()
    assert not any(alive(child) for child in served)
    if stop == "Ctrl-C":
        assert (server.returncode, err) == (130, "baccarat-odds: interrupted\n")
