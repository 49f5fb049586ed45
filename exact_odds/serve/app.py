"""The HTTP API (version 1, its OpenAPI schema at /openapi.json, shown at /docs) and the tracker page at /.

Every bad request is answered 4xx with ``{"error": "<one line>"}``, the line the CLI prints for the
same input: 400 a body that is not JSON text, 401 a missing or wrong token, 404 no such session,
409 a change the session's state refuses, 413 too large, 422 a value refused. No request names a
file: bets and rules files are given as text. Answers are JSON responses built directly (FastAPI's
own encoder, walking a whole analysis, would cost more than computing it).
"""

import hmac
import time
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from importlib import resources
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Match, Mount

from .. import __version__
from ..commands.setup import MAX_TEXT
from ..errors import InputError
from .compute import plain
from .docs_assets import add_offline_docs
from .routers import analysis, tables
from .routers import sessions as sessions_routes
from .sessions import status_of
from .states import state_record
from .store import Stale, Store, etag

MAX_BODY = 4 * MAX_TEXT
"""A request body holds at most this many bytes (413 past it)."""
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Error(BaseModel):
    """What was wrong, in one line."""

    error: str


class Conflict(BaseModel):
    """What was wrong, in one line; and for a change made on a state the session no longer has (If-Match), its current state."""

    error: str
    state: dict[str, Any] | None = Field(None, description="The session's current state, when the change was made on an older one.")


ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": Conflict if code == 409 else Error, "description": words} for code, words in (
    (400, "a body that cannot be read"), (401, "no token, or a wrong one"), (404, "no such session"),
    (409, "refused by the session's state, or made on a state it no longer has (If-Match)"), (413, "too large"), (422, "a value refused"))}


def one_line(error: RequestValidationError) -> str:
    """The first problem pydantic found, as ``where: what``."""
    problems = error.errors()
    if not problems:
        return "the request is not valid"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "body"
    return f"{where}: {first.get('msg', 'not valid')}".replace("\n", " ")[:300]


PUBLIC = ("/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json")
"""The API's documentation, the same for every server: read without the token (it holds no session)."""


def public(path: str) -> bool:
    """Whether ``path`` is the API's documentation or one of its assets (read without the token)."""
    return path in PUBLIC or path.startswith("/docs-assets/")


class Guard:
    """Refuse, before the app reads it, a request without the token (when one is set) or with a
    body larger than :data:`MAX_BODY`; say in a ``Server-Timing`` header how long the server took.
    The token comes as ``Authorization: Bearer TOKEN`` or ``?token=TOKEN`` (for the page's first
    load), compared in constant time."""

    def __init__(self, app: ASGIApp, token: str | None):
        self.app, self.token = app, token

    def authorized(self, scope: Scope) -> bool:
        if self.token is None or (scope.get("method") in ("GET", "HEAD") and public(scope.get("path", ""))):
            return True
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"authorization", b"").decode("latin-1")
        if given.lower().startswith("bearer "):
            given = given[7:].strip()
        else:
            given = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token") or [""])[0]
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not self.authorized(scope):
            await JSONResponse({"error": "this server needs its token: send Authorization: Bearer TOKEN (or open /?token=TOKEN)"}, 401)(scope, receive, send)
            return
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > MAX_BODY:
                await JSONResponse({"error": f"the request body is larger than {MAX_BODY:,} bytes"}, 413)(scope, receive, send)
                return
            more = message.get("more_body", False)
        delivered, started = False, time.perf_counter()

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                elapsed = f"app;dur={1000 * (time.perf_counter() - started):.2f}".encode()
                message["headers"] = [*message.get("headers", []), (b"server-timing", elapsed)]
            await send(message)

        await self.app(scope, replay, timed)


METHODS = ("CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE")
"""The methods of HTTP (RFC 9110), in the order a 405's ``Allow`` lists them."""


def allowed(routes: Sequence[BaseRoute], scope: Scope) -> str:
    """The methods some route answers at ``scope``'s path, for a 405's ``Allow``: each method tried on
    each route (a router included under a prefix is one route of the app, which matches a method if
    one of its own routes does), the mounts left out (they answer every path under them)."""
    return ", ".join(method for method in METHODS if any(
        not isinstance(route, Mount) and route.matches({**scope, "method": method})[0] == Match.FULL for route in routes))


def create_app(db: str, token: str | None = None) -> Any:
    """The app over the sessions of the SQLite file ``db`` (``token``: needed by every request): its
    configuration, middleware and answers to errors; the API's routes grouped by resource in
    :mod:`.routers` under ``/api/v1``, the store of sessions kept in ``app.state`` for them."""
    store = Store(db)
    app = FastAPI(title="exact_odds", version=__version__, responses=ERRORS, docs_url=None, redoc_url=None,
                  description="Exact baccarat odds: analyses, deals and live shoe sessions. Every number is exact (fractions as strings).")

    @app.exception_handler(InputError)
    async def refused(request: Request, error: InputError) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_of(error))

    @app.exception_handler(Stale)
    def stale(request: Request, error: Stale) -> JSONResponse:  # not async: the state's analysis computes
        return JSONResponse({"error": str(error), "state": plain(state_record(error.loaded))}, 409, headers={"ETag": etag(error.loaded.version)})

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": one_line(error)}, 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        headers, detail = error.headers, str(error.detail)
        if error.status_code == 400 and detail == "There was an error parsing the body":
            detail = "the request body cannot be read as JSON text (UTF-8)"
        if error.status_code == 405:  # every method of the path, not only those of the route that matched first
            headers = {"Allow": allowed(app.router.routes, request.scope)}
        return JSONResponse({"error": detail}, error.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        """A defect of the server (never of the request): one line, the traceback only in the server's log."""
        return JSONResponse({"error": f"internal error ({type(error).__name__}): please report it"}, 500)

    add_offline_docs(app)

    @app.get("/", include_in_schema=False)
    def tracker() -> HTMLResponse:
        return HTMLResponse(resources.files(__package__).joinpath("tracker.html").read_text(encoding="utf-8"))

    @app.get("/api/v1/health")
    def health() -> JSONResponse:
        """The server's version."""
        return JSONResponse({"status": "ok", "version": __version__})

    app.state.store = store
    for router in (tables.router, analysis.router, sessions_routes.router):
        app.include_router(router, prefix="/api/v1")
    return Guard(app, token)
