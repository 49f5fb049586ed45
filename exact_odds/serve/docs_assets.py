"""The API's documentation pages (Swagger UI at /docs, ReDoc at /redoc) served from local files.

FastAPI's own pages load their scripts and styles from a CDN, and are blank without a network.
:func:`add_offline_docs` serves the same pages with the Swagger UI and ReDoc assets that the
``fastapi-offline`` package ships (MIT; Swagger UI is Apache-2.0, ReDoc MIT), read from that
package's folder (its code is not imported): the scripts, the stylesheet and the favicon under one
mount, Swagger UI without its validator badge (which calls an outside validator), ReDoc without
Google Fonts. The app is made without FastAPI's pages (``docs_url=None, redoc_url=None``).
"""

import importlib.util
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

PACKAGE = "fastapi_offline"
"""The package whose folder ``static/`` holds the assets (the ``serve`` extra installs it)."""
ASSETS = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png")
"""The files the two pages load, each from :func:`assets_folder`."""


def assets_folder() -> Path:
    """The folder of the Swagger UI and ReDoc assets, checked to hold every file of :data:`ASSETS`."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"the offline API docs need the {PACKAGE.replace('_', '-')} package: pip install -e '.[serve]'")
    folder = Path(spec.origin).parent / "static"
    missing = [name for name in ASSETS if not (folder / name).is_file()]
    if missing:
        raise RuntimeError(f"the {PACKAGE.replace('_', '-')} package at {folder} lacks {', '.join(missing)}: reinstall it")
    return folder


def add_offline_docs(app: FastAPI, docs_url: str = "/docs", redoc_url: str = "/redoc", assets_url: str = "/docs-assets") -> None:
    """Serve Swagger UI at ``docs_url`` and ReDoc at ``redoc_url`` for ``app``'s OpenAPI schema,
    their assets mounted at ``assets_url`` (every URL behind the request's root path). ``app`` must
    have been made with ``docs_url=None, redoc_url=None`` (else FastAPI's CDN pages answer first)."""
    if app.docs_url is not None or app.redoc_url is not None:
        raise ValueError("make the app with FastAPI(docs_url=None, redoc_url=None): its own pages load their scripts from a CDN")
    if app.openapi_url is None:
        raise ValueError("the app has no OpenAPI schema (openapi_url=None) for the docs to show")
    openapi_url, redirect_url = app.openapi_url, app.swagger_ui_oauth2_redirect_url
    app.mount(assets_url, StaticFiles(directory=assets_folder()), name="docs-assets")

    @app.get(docs_url, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(openapi_url=root + openapi_url, title=f"{app.title} - Swagger UI",
                                   swagger_js_url=f"{root}{assets_url}/swagger-ui-bundle.js", swagger_css_url=f"{root}{assets_url}/swagger-ui.css",
                                   swagger_favicon_url=f"{root}{assets_url}/favicon.png",
                                   oauth2_redirect_url=None if redirect_url is None else root + redirect_url,
                                   swagger_ui_parameters={**(app.swagger_ui_parameters or {}), "validatorUrl": None})

    if redirect_url is not None:
        @app.get(redirect_url, include_in_schema=False)
        async def swagger_ui_redirect() -> HTMLResponse:
            return get_swagger_ui_oauth2_redirect_html()

    @app.get(redoc_url, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(openapi_url=root + openapi_url, title=f"{app.title} - ReDoc", redoc_js_url=f"{root}{assets_url}/redoc.standalone.js",
                              redoc_favicon_url=f"{root}{assets_url}/favicon.png", with_google_fonts=False)
