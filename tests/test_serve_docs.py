"""The served app's API docs offline (issue 33): /docs and /redoc load only local files, which
answer 200 with the assets, also on a server with a token (the docs hold no session)."""

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402
from test_docs_assets import Links  # noqa: E402

from exact_odds.serve.app import create_app  # noqa: E402
from exact_odds.serve.docs_assets import assets_folder  # noqa: E402


@pytest.mark.parametrize("token", [None, "s3cret"])
@pytest.mark.parametrize("page, loads", [
    ("/docs", ["/docs-assets/swagger-ui.css", "/docs-assets/favicon.png", "/docs-assets/swagger-ui-bundle.js", "/openapi.json"]),
    ("/redoc", ["/docs-assets/favicon.png", "/openapi.json", "/docs-assets/redoc.standalone.js"]),
])
def test_the_apps_docs_load_only_local_files(tmp_path, token, page, loads):
    with TestClient(create_app(str(tmp_path / "sessions.sqlite"), token=token)) as client:
        answer = client.get(page)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
        assert Links(answer.text).urls == loads
        for url in loads:
            loaded = client.get(url)
            assert loaded.status_code == 200, url
            if url.startswith("/docs-assets/"):
                assert loaded.content == (assets_folder() / url.removeprefix("/docs-assets/")).read_bytes()
        assert "/api/v1/sessions/{session}/cards" in client.get("/openapi.json").json()["paths"]
        if token is not None:  # the sessions stay behind the token
            assert client.get("/api/v1/health").status_code == 401
            assert client.post("/docs").status_code == 401
