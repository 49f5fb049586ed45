"""Sessions that follow the player (issue 33): the list of sessions, newest first, with the link
that resumes each; and a session's server-sent events, the version after every change, read from
a real server (`baccarat-odds serve`) as a browser's EventSource reads them."""

import http.client
import json

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402
from test_serve_sessions import call, free_port, serve  # noqa: E402

from exact_odds.serve.app import create_app  # noqa: E402


def test_the_sessions_newest_first(tmp_path):
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"))) as client:
        first = client.post("/api/v1/sessions", json={"decks": 6, "burn": "none", "bets": "banker,player"}).json()["id"]
        second = client.post("/api/v1/sessions", json={"table": "ez_baccarat"}).json()["id"]
        third = client.post("/api/v1/sessions", json={"shoe": "A=4,K=4,5=4", "burn": "none"}).json()["id"]
        for card in "9 5".split():
            client.post(f"/api/v1/sessions/{first}/cards", json={"card": card})
        listed = client.get("/api/v1/sessions").json()["sessions"]
        assert [(entry["id"], entry["version"], entry["entries"], entry["link"], entry["table"], entry["title"]) for entry in listed] == [
            (third, 0, 0, f"/#s={third}", None, "A=4,K=4,5=4, punto_banco, bets banker, player, tie"),
            (second, 0, 0, f"/#s={second}", "ez_baccarat", "EZ Baccarat with Dragon 7 and Panda 8"),
            (first, 2, 2, f"/#s={first}", None, "6 decks, punto_banco, bets banker,player")]
        assert listed[2]["updated"] > listed[2]["created"] and listed[0]["updated"] == listed[0]["created"]
        assert [entry["id"] for entry in client.get("/api/v1/sessions", params={"limit": 2}).json()["sessions"]] == [third, second]
        refused = client.get("/api/v1/sessions", params={"limit": 0})
        assert (refused.status_code, refused.json()) == (422, {"error": "query.limit: Input should be greater than or equal to 1"})
        missing = client.get("/api/v1/sessions/nope/events")
        assert (missing.status_code, missing.json()) == (404, {"error": "no session 'nope' (create one with POST /api/v1/sessions)"})


def read_event(stream: http.client.HTTPResponse) -> dict:
    """The data of the next ``version`` event of a server-sent event stream."""
    lines: list[str] = []
    while True:
        line = stream.readline().decode()
        assert line, "the stream ended"
        if line == "\n" and lines:
            break
        if line != "\n":
            lines.append(line.rstrip("\n"))
        if lines and lines[0].startswith("retry:"):
            lines = []
    assert lines[0] == "event: version", lines
    return json.loads(lines[1].removeprefix("data: "))


def test_the_event_stream_carries_every_version(tmp_path):
    port = free_port()
    server = serve(str(tmp_path / "sessions.sqlite"), port)
    try:
        session = call(port, "POST", "/api/v1/sessions", {"decks": 8, "burn": "none"})["id"]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", f"/api/v1/sessions/{session}/events")
        stream = connection.getresponse()
        assert (stream.status, stream.getheader("Content-Type")) == (200, "text/event-stream; charset=utf-8")
        assert read_event(stream) == {"version": 0}
        call(port, "POST", f"/api/v1/sessions/{session}/cards", {"card": "9"})
        assert read_event(stream) == {"version": 1}
        call(port, "POST", f"/api/v1/sessions/{session}/undo")
        assert read_event(stream) == {"version": 2}
        call(port, "DELETE", f"/api/v1/sessions/{session}")
        assert read_event(stream) == {"version": None}
        assert stream.read() == b""  # the stream ends with the session
        connection.close()
    finally:
        server.terminate()
        server.communicate(timeout=10)
