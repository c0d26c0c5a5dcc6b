"""The browser table's pages: the one page of the table (its paths: the start, a game,
a join, a replay, the lessons), its static files, and the page a person at an address
that is not one of the table's sees."""

from __future__ import annotations

import functools
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from piquet import __version__

__all__ = ["NOT_FOUND_PAGE", "STATIC", "add_pages"]

STATIC = Path(__file__).parent / "static"
#: What a person at an address that is not a page of the table sees (the API keeps JSON).
NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Piquet: no such page</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css"></head>
<body><header class="topbar"><a class="brand" href="/"><span class="brand-suit">♠</span>Piquet</a>
</header><main id="main" class="main"><div class="panel" id="not-found">
<h2>No such page</h2><p>There is nothing at this address: it may be mistyped.</p>
<p><a href="/">Go to the card table</a></p></div></main></body></html>
"""
PAGES = ("/", "/play/{game_id}", "/join/{game_id}", "/replay/{game_id}", "/learn",
         "/learn/{page:path}")
"""The paths of the table's page (the page reads which it is from the address)."""


@functools.cache
def _index_html() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8").replace("{{version}}", __version__)


def page() -> HTMLResponse:
    """The table's page."""
    return HTMLResponse(_index_html(), headers={"cache-control": "no-cache"})


def add_pages(app: FastAPI) -> None:
    """Serve the table's page at its paths, and its static files."""
    _index_html()  # read now: a missing file fails at start, not at the first visit
    for route in PAGES:
        app.add_api_route(route, page, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
