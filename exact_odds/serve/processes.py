"""``baccarat-odds serve`` as several server processes behind one listening socket: this process
accepts each connection and hands it to the server process that holds the fewest open connections,
which serves it to its end (keep-alive included).

Why processes (issue 30, measured on 2 cores, two sessions fed every catalog bet card by card): the
HTTP layer (uvicorn and FastAPI, about 1.4 ms a request), a card's change and its analysis hold
their process's GIL, so in one process two sessions at once were only 1.2x to 1.5x as fast as one
after the other, even with the analyses sent to worker processes of their own; with each session's
connection in a server process of its own, 1.56x to 1.73x (docs/serve.md, Speed). Why not uvicorn's
own ``workers`` (processes accepting from one shared socket): the kernel gives a connection to
whichever accepts first, often the process that already serves the other session, and two
sessions then share one core; here the connection goes where fewest are open.

Each server process is the same app over the same SQLite file (the store keeps each session's state
in memory and reads its version in SQLite on every use, so a session changed through another process
is read again, never answered stale). This process imports neither FastAPI nor the engine: it
starts the server processes, accepts, hands over (the descriptor over a Unix socket, with
``SCM_RIGHTS``) and counts each process's connections as it reports them closed. A server process
that stops (killed, say) is started again; one that exits before it is ready to serve (its database
unusable, say) stops the server, as it would only fail again. Ctrl-C, or SIGTERM to
this process, closes the listening socket and ends each server process gracefully (their requests
answered); this process killed, each server process sees its Unix socket close and ends likewise.
"""

import asyncio
import contextlib
import json
import selectors
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

ENDING = 10.0
"""How long the server processes are given to end gracefully (their requests answered) before they are killed."""
HAND_OFF = 5.0
"""How long a connection's hand-off to a server process may wait (that process not reading: the connection is closed)."""


READY = b"+"
"""What a server process sends once it serves."""
CLOSED = b"-"
"""What a server process sends as a connection it was handed closes."""


class Failed(OSError):
    """A server process stopped as it started (the command says so in one line, status 1)."""


@dataclass
class Server:
    """One server process: the Unix socket it is handed connections over, whether it serves yet, how
    many connections it holds open and when it was last handed one."""

    process: subprocess.Popen[bytes]
    control: socket.socket
    ready: bool = False
    open: int = 0
    handed: float = float("-inf")


def start(db: str, token: str | None) -> Server:
    """A server process over ``db``, its settings sent on its standard input (the token in no command line)."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with theirs:
        process = subprocess.Popen([sys.executable, "-m", __name__, str(theirs.fileno())], stdin=subprocess.PIPE, pass_fds=(theirs.fileno(),))
    assert process.stdin is not None
    with process.stdin:
        process.stdin.write(json.dumps({"db": db, "token": token}).encode())
    ours.settimeout(HAND_OFF)
    return Server(process, ours)


class Terminated(Exception):
    """SIGTERM, raised where this process waits."""


def terminated(number: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated


def run(listener: socket.socket, db: str, token: str | None, count: int) -> None:
    """Serve the connections of ``listener`` with ``count`` server processes over ``db``, until
    Ctrl-C (KeyboardInterrupt, raised again once they ended) or SIGTERM (raised again likewise); a
    server process that stops as it starts raises :class:`Failed` once the others ended."""
    servers = [start(db, token) for _ in range(count)]
    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        serve(listener, servers, db, token)  # it ends only by raising
    except Terminated:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the end runs to its end
        end(listener, servers)
        signal.signal(signal.SIGTERM, previous)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # ended by SIGTERM: so this process ends
    signal.raise_signal(signal.SIGTERM)


def serve(listener: socket.socket, servers: list[Server], db: str, token: str | None) -> None:
    listener.setblocking(False)
    with selectors.DefaultSelector() as selector:
        selector.register(listener, selectors.EVENT_READ)
        for server in servers:
            selector.register(server.control, selectors.EVENT_READ, server)
        while True:
            for key, _ in sorted(selector.select(), key=lambda event: event[0].data is None):  # the closed counted before the next is handed
                if key.data is None:
                    hand_over(listener, servers)
                    continue
                server = key.data
                try:
                    closed = server.control.recv(4096)
                except OSError:
                    closed = b""
                if closed:
                    server.ready = server.ready or READY in closed
                    server.open = max(0, server.open - closed.count(CLOSED))
                    continue
                selector.unregister(server.control)  # it stopped: started again, unless it failed as it started
                stopped(server)
                if not server.ready and server.process.returncode >= 0:
                    raise Failed(f"a server process stopped as it started (exit status {server.process.returncode}): see its message above")
                servers[servers.index(server)] = again = start(db, token)
                selector.register(again.control, selectors.EVENT_READ, again)


def hand_over(listener: socket.socket, servers: list[Server]) -> None:
    """Each connection waiting on ``listener`` handed to the server process holding the fewest (of
    those, the one handed one the longest ago: a connection closed a moment ago may not be counted yet)."""
    while True:
        try:
            connection, _ = listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # out of descriptors, a connection reset before it was accepted: the others go on
            return
        with connection:
            server = min(servers, key=lambda server: (server.open, server.handed))
            try:
                socket.send_fds(server.control, [b"c"], [connection.fileno()])
            except OSError:  # that process is stopping or hangs: this connection is closed, and the client may try again
                continue
            server.open, server.handed = server.open + 1, time.monotonic()


def stopped(server: Server) -> None:
    server.control.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.process.wait(ENDING)
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def end(listener: socket.socket, servers: list[Server]) -> None:
    """Close ``listener`` and end every server process gracefully: its Unix socket closed, it
    answers what it holds and stops (killed after :data:`ENDING` seconds)."""
    listener.close()
    for server in servers:
        server.control.close()
    deadline = time.monotonic() + ENDING
    for server in servers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.process.wait(max(0.0, deadline - time.monotonic()))
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


# A server process.

def handed_server(config: Any, control: socket.socket) -> Any:
    """A uvicorn server with no listening socket of its own: it serves the connections handed to it
    over ``control``, says when each closes, and ends when ``control`` closes."""
    import uvicorn

    class Handed(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield  # ended by the server's first process (Ctrl-C ignored; SIGTERM ends it at once)

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=[])
            loop = asyncio.get_running_loop()
            connecting: set[asyncio.Task[Any]] = set()

            def protocol() -> asyncio.Protocol:
                http: Any = self.config.http_protocol_class  # typed as asyncio.Protocol, made with uvicorn's arguments
                served = http(config=self.config, server_state=self.server_state, app_state=self.lifespan.state)
                return Counted(served, lambda: tell(control, CLOSED))

            def received() -> None:
                try:
                    message, descriptors, _, _ = socket.recv_fds(control, 64, 16)
                except (BlockingIOError, InterruptedError):
                    return
                except OSError:
                    message, descriptors = b"", []
                if not message:
                    loop.remove_reader(control.fileno())
                    self.should_exit = True
                for descriptor in descriptors:
                    task = loop.create_task(loop.connect_accepted_socket(protocol, socket.socket(fileno=descriptor)))
                    connecting.add(task)
                    task.add_done_callback(connecting.discard)

            loop.add_reader(control.fileno(), received)
            tell(control, READY)

    return Handed(config)


def tell(control: socket.socket, news: bytes) -> None:
    """Tell the first process ``news`` (it may be gone: then this process is ending)."""
    with contextlib.suppress(OSError):
        control.send(news)


class Counted(asyncio.Protocol):
    """A connection's protocol (uvicorn's), that calls ``on_lost`` once the connection is closed."""

    def __init__(self, served: asyncio.Protocol, on_lost: Any):
        self.served, self.on_lost = served, on_lost

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.served.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.served.data_received(data)

    def eof_received(self) -> bool | None:
        return self.served.eof_received()

    def pause_writing(self) -> None:
        self.served.pause_writing()

    def resume_writing(self) -> None:
        self.served.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            self.served.connection_lost(exc)
        finally:
            self.on_lost()


def server_process(descriptor: int) -> None:
    """A server process: its settings read from standard input, then served until its Unix socket closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C goes to the whole group: the first process ends this one
    settings = json.loads(sys.stdin.read())
    import uvicorn

    from .app import create_app

    control = socket.socket(fileno=descriptor)
    control.setblocking(False)
    try:
        app = create_app(settings["db"], settings["token"])
    except (sqlite3.Error, OSError) as error:
        sys.exit(f"baccarat-odds serve: a server process cannot open {settings['db']}: {error}")
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    handed_server(config, control).run()


if __name__ == "__main__":
    server_process(int(sys.argv[1]))
