"""The API's docs offline (issue 33): /docs and /redoc reference only local URLs, and those answer with the assets."""

import re
from html.parser import HTMLParser

import pytest

pytest.importorskip("fastapi")
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from exact_odds.serve import docs_assets  # noqa: E402
from exact_odds.serve.docs_assets import ASSETS, add_offline_docs, assets_folder  # noqa: E402


class Links(HTMLParser):
    """Every URL a page loads: src and href attributes, ReDoc's spec-url, and Swagger UI's ``url:``."""

    def __init__(self, page: str):
        super().__init__()
        self.urls: list[str] = []
        self.feed(page)
        self.urls += re.findall(r"^\s*url: '([^']*)'", page, flags=re.M)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value for name, value in attrs if name in ("src", "href", "spec-url") and value is not None]


def small_app() -> FastAPI:
    app = FastAPI(title="tiny", docs_url=None, redoc_url=None)

    @app.get("/hello")
    def hello() -> dict[str, str]:
        return {"hello": "world"}

    add_offline_docs(app)
    return app


TYPES = {"js": "text/javascript", "css": "text/css", "png": "image/png"}


@pytest.mark.parametrize("page, loads", [
    ("/docs", ["/docs-assets/swagger-ui.css", "/docs-assets/favicon.png", "/docs-assets/swagger-ui-bundle.js", "/openapi.json"]),
    ("/redoc", ["/docs-assets/favicon.png", "/openapi.json", "/docs-assets/redoc.standalone.js"]),
])
def test_pages_load_only_local_files_and_those_answer(page, loads):
    client = TestClient(small_app())
    answer = client.get(page)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    assert Links(answer.text).urls == loads
    assert "http" not in answer.text and "//" not in "".join(loads)
    folder = assets_folder()
    for url in loads:
        loaded = client.get(url)
        assert loaded.status_code == 200, url
        if url.startswith("/docs-assets/"):
            name = url.removeprefix("/docs-assets/")
            assert loaded.content == (folder / name).read_bytes() and len(loaded.content) > 1000
            assert loaded.headers["content-type"].startswith(TYPES[name.rpartition(".")[2]])
    if page == "/docs":
        assert '"validatorUrl": null' in answer.text and client.get("/docs/oauth2-redirect").status_code == 200
    else:
        assert "fonts.googleapis" not in answer.text


def test_the_assets_are_the_pages_scripts():
    folder = assets_folder()
    assert b"SwaggerUIBundle" in (folder / "swagger-ui-bundle.js").read_bytes()
    assert b"Redoc" in (folder / "redoc.standalone.js").read_bytes()
    assert (folder / "favicon.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(ASSETS) == sorted(path.name for path in folder.iterdir() if path.name in ASSETS)


def test_behind_a_root_path_every_url_carries_it():
    outer = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    outer.mount("/api", small_app())
    client = TestClient(outer)
    page = client.get("/api/docs")
    assert Links(page.text).urls == ["/api/docs-assets/swagger-ui.css", "/api/docs-assets/favicon.png", "/api/docs-assets/swagger-ui-bundle.js",
                                     "/api/openapi.json"]
    assert all(client.get(url).status_code == 200 for url in Links(page.text).urls)
    assert Links(client.get("/api/redoc").text).urls == ["/api/docs-assets/favicon.png", "/api/openapi.json", "/api/docs-assets/redoc.standalone.js"]


def test_refusals():
    with pytest.raises(ValueError, match=r"^make the app with FastAPI\(docs_url=None, redoc_url=None\): its own pages load their scripts from a CDN$"):
        add_offline_docs(FastAPI())
    with pytest.raises(ValueError, match=r"^the app has no OpenAPI schema \(openapi_url=None\) for the docs to show$"):
        add_offline_docs(FastAPI(docs_url=None, redoc_url=None, openapi_url=None))


def test_a_missing_package_is_said(monkeypatch, tmp_path):
    monkeypatch.setattr(docs_assets.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(RuntimeError, match=r"^the offline API docs need the fastapi-offline package: pip install -e '\.\[serve\]'$"):
        assets_folder()
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "favicon.png").write_bytes(b"")

    class Spec:
        origin = str(tmp_path / "__init__.py")

    monkeypatch.setattr(docs_assets.importlib.util, "find_spec", lambda name: Spec())
    with pytest.raises(RuntimeError, match=r"lacks swagger-ui-bundle\.js, swagger-ui\.css, redoc\.standalone\.js: reinstall it$"):
        assets_folder()
