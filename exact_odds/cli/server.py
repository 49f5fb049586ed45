"""The `baccarat-odds serve` command: the shoe tracker page and the JSON API (:mod:`exact_odds.serve`),
from the serve extra (registered on the group in :mod:`.commands`)."""

import os

import click

from ..errors import InputError
from ..studies.parallel import cores
from .params import Count

MOST_PROCESSES = 8
"""The default number of server processes is the cores this process may run on, at most this many."""


def default_db() -> str:
    """Where sessions are kept by default: exact_odds/sessions.sqlite under the user's data folder."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "exact_odds", "sessions.sqlite")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on; any but this machine's loopback needs a token.")
@click.option("--port", type=Count(1, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--db", metavar="FILE", help="The SQLite file of the sessions (default: sessions.sqlite in the user's data folder, exact_odds/).")
@click.option("--token", metavar="TOKEN", envvar="BACCARAT_ODDS_TOKEN",
              help="A token every request must carry (Authorization: Bearer TOKEN, or ?token= to open the page); "
                   "one is made and printed once when another host than loopback is given without it. Also $BACCARAT_ODDS_TOKEN.")
@click.option("--processes", type=Count(1, 64), help="Server processes, each session's connection served by one of them, so that "
              f"sessions fed at once compute on cores of their own (default: this machine's cores, at most {MOST_PROCESSES}).")
def serve(host: str, port: int, db: str | None, token: str | None, processes: int | None) -> None:
    """Serve the shoe tracker page at / and the JSON API at /api/v1 (its schema at /docs): live
    sessions that follow a shoe card by card with every bet's exact edge, kept in SQLite so that
    a server stopped at any moment loses no card it answered. Needs the serve extra
    (pip install '.[serve]' in the project's folder)."""
    import ipaddress
    import secrets
    import socket
    import sqlite3

    try:
        import uvicorn  # noqa: F401  (the server processes run it)

        import fastapi  # noqa: F401  (the server processes' app)

        from ..serve import processes as server_processes
        from ..serve.store import Store
    except ImportError:
        raise InputError("serve needs the serve extra: pip install '.[serve]' in the project's folder (FastAPI and uvicorn)") from None
    for flag, value, what in (("--host", host, "an address such as 0.0.0.0"), ("--db", db, "a file"), ("--token", token, "a token")):
        if value is not None and not value.strip():
            raise InputError(f"{flag} is empty: give {what}, or leave it out")
    if token is not None and not all("!" <= character <= "~" for character in token):  # the page sends it as Authorization: Bearer TOKEN
        raise InputError("--token holds a space or a character other than ASCII: a token travels in an HTTP header, so give letters, digits and punctuation")
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    made = token is None and not loopback
    if made:
        token = secrets.token_urlsafe(24)
    path = db or default_db()
    if db is None:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        Store(path).close()
    except sqlite3.Error as error:
        raise InputError(f"--db {path}: cannot open it as the sessions' SQLite file ({error})") from None
    try:
        listener = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET, backlog=2048)
    except OSError as error:
        raise InputError(f"cannot listen on {host} port {port}: {error.strerror or error}") from None
    shown_host = f"[{host}]" if ":" in host else host
    address = f"http://{shown_host}:{port}/"
    click.echo(f"baccarat-odds serve: {address} (API at {address}docs; sessions in {path}; Ctrl-C stops)")
    if made:
        click.echo(f"token (printed once): {token}  open {address}?token={token}")
    server_processes.run(listener, path, token, processes or min(cores(), MOST_PROCESSES))
