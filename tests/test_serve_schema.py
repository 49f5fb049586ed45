"""Schema fuzzing: schemathesis sends requests generated from the API's own OpenAPI schema (half of
those on a session's routes go to a session that exists, so that cards, burns, coups and undos are
tried on real state). No answer is a 5xx, every answer conforms to the schema (status code, content
type, body, headers), and every 4xx is a JSON object holding one line of error (and a 409 for a
stale If-Match, the current state). A request the schema
allows may still be refused (a card "zz", a composition that names no card): what a value means is
checked by the library, with its message, so schemathesis's check that every schema-valid request
is accepted is left out."""

import pytest

schemathesis = pytest.importorskip("schemathesis")
pytest.importorskip("fastapi")
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from exact_odds.serve.app import create_app  # noqa: E402

APP = None


def app():
    """One app for the module, over a store in a folder of its own (the schema is read at import)."""
    global APP
    if APP is None:
        import atexit
        import shutil
        import tempfile

        folder = tempfile.mkdtemp(prefix="serve-schema-")
        atexit.register(shutil.rmtree, folder, True)
        APP = create_app(folder + "/sessions.sqlite")
    return APP


REJECTED = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422"]
"""How a request the schema does not allow may be refused: 413 too when it is too large to read."""
CONFIG = schemathesis.config.SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {"expected-statuses": REJECTED}}})
schema = schemathesis.openapi.from_asgi("/openapi.json", app(), config=CONFIG)


@pytest.fixture(scope="module")
def session() -> str:
    from fastapi.testclient import TestClient

    with TestClient(app()) as client:
        return str(client.post("/api/v1/sessions", json={"decks": 1, "burn": "none"}).json()["id"])


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_error_and_every_answer_in_the_schema(case, session):
    if case.path_parameters and "session" in case.path_parameters and len(repr(case.body)) % 2 == 0:
        case.path_parameters["session"] = session
    response = case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])
    assert response.status_code < 500
    if 400 <= response.status_code < 500:
        body = response.json()
        stale = response.status_code == 409 and list(body) == ["error", "state"]  # made on another version (If-Match): the state now
        assert (list(body) == ["error"] or stale) and isinstance(body["error"], str) and "\n" not in body["error"]


def test_cards_from_any_text_are_answered_or_refused_as_data(session):
    """Every text sent as a card to a live session: a 200, or a 4xx with one line."""
    from fastapi.testclient import TestClient
    from hypothesis import given

    client = TestClient(app())

    @given(st.text(max_size=6) | st.sampled_from(["9", "10h", "T", "k", "As", "0", "1", "", " ", "5 5"]))
    @settings(max_examples=60, deadline=None)
    def card(text: str) -> None:
        response = client.post(f"/api/v1/sessions/{session}/cards", json={"card": text})
        assert response.status_code in (200, 409, 422), response.text
        if response.status_code != 200:
            assert list(response.json()) == ["error"] and "\n" not in response.json()["error"]
        elif response.json()["coup_in_progress"]["complete"]:
            assert client.post(f"/api/v1/sessions/{session}/coups").status_code == 200

    card()
