"""What the routes share, as FastAPI dependencies and parameters: the store of sessions (made once
by :func:`~.app.create_app`, kept in ``app.state``), a session's id, and the headers of a change.

The token is checked before any route, by the app's middleware (:class:`~.app.Guard`: it refuses
before the body is read, and guards the documentation and unknown paths alike). A session is
looked up inside its route, not as a dependency: FastAPI solves dependencies before it reads the
query and the body, so a lookup there would answer 404 where a bad body or query is answered 422.
"""

from typing import Annotated

from fastapi import Depends, Header, Path, Request

from .store import Store


async def the_store(request: Request) -> Store:
    """The app's store of sessions (async: a lookup, not worth a worker thread)."""
    store: Store = request.app.state.store
    return store


SessionStore = Annotated[Store, Depends(the_store)]
"""The store of sessions, given to a route."""
Id = Annotated[str, Path(max_length=64, description="The session's id")]
IfMatch = Annotated[str | None, Header(alias="If-Match", max_length=200, description=(
    "The ETag of the state this change was made on: refused (409, with the current state) if the session has changed since. "
    "Without it, the change is made on whatever the state is now."))]
Key = Annotated[str | None, Header(alias="Idempotency-Key", max_length=200, description=(
    "A key of your own for this change (e.g. a UUID): sent again, the change is not made again, and its first answer is given."))]
