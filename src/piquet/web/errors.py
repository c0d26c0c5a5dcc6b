"""How the browser table's server says what went wrong: every error is a JSON object
``{"error": "..."}`` in plain words (a person at a mistyped address gets a page), with the
HTTP status of its kind (:data:`HTTP_STATUS`) and, for a 503, when to try again."""

from __future__ import annotations

import logging
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from piquet.jobs import JobFailed, QuotaFull
from piquet.table.errors import Refusal, TableError
from piquet.web.pages import NOT_FOUND_PAGE
from piquet.web.store import StoreError, plainly, reason_of, unavailable_words

__all__ = ["HTTP_STATUS", "RETRY", "add_error_handlers", "unavailable"]

log = logging.getLogger("piquet.web")

HTTP_STATUS: dict[Refusal, int] = {
    Refusal.UNREADABLE: 400,
    Refusal.NO_TOKEN: 401,
    Refusal.NOT_FOUND: 404,
    Refusal.NOT_NOW: 409,
    Refusal.GONE: 410,
    Refusal.AGAINST_RULES: 422,
    Refusal.UNAVAILABLE: 503,
}
"""How each refusal is said in HTTP (here only: the rest of the code speaks of kinds)."""
RETRY: Final[dict[str, str]] = {"retry-after": "5"}
"""Every 503 says when to try again."""


def unavailable(said: str) -> dict[str, str]:
    """The body of a 503: the fault in plain words (see :func:`piquet.web.store.plainly`)."""
    return {"error": unavailable_words(said)}


async def _game_error(_r: Request, exc: TableError) -> JSONResponse:
    status = HTTP_STATUS[exc.kind]
    return JSONResponse({"error": exc.message}, status_code=status,
                        headers=RETRY if status == 503 else None)


async def _store_error(_r: Request, exc: StoreError) -> JSONResponse:
    # the message (a path, a host, the database's words) is the log's; the client
    # hears the fault in plain words
    return JSONResponse(unavailable(exc.said), status_code=503, headers=RETRY)


async def _quota(_r: Request, exc: QuotaFull) -> JSONResponse:
    return JSONResponse({"error": exc.message}, status_code=429,
                        headers={"retry-after": str(exc.retry_after)})


async def _job_failed(_r: Request, exc: JobFailed) -> JSONResponse:
    return JSONResponse({"error": exc.message + "; try again in a moment"},
                        status_code=503, headers={"retry-after": "5"})


async def _database_error(_r: Request, exc: SQLAlchemyError) -> JSONResponse:
    # the routers that reach the database directly (lobby, analysis, spectators, your
    # games): their failures are the database's too, said as the store's are
    why = reason_of(exc)
    log.warning("piquet: database error: %s", why)
    return JSONResponse(unavailable(plainly(why)), status_code=503, headers=RETRY)


async def _bug(_r: Request, exc: Exception) -> JSONResponse:
    log.error("request failed", exc_info=exc)
    return JSONResponse({"error": "internal error: the server failed (see its log)"}, 500)


async def _http_error(r: Request, exc: StarletteHTTPException) -> Response:
    path = r.url.path
    if (exc.status_code == 404 and r.method == "GET"
            and "text/html" in r.headers.get("accept", "")
            and not path.startswith(("/api/", "/static/", "/docs", "/openapi", "/ws"))):
        # a person at a mistyped address gets a page, not the API's JSON
        return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
    return JSONResponse(
        {"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
    )


async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
        parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
    return JSONResponse({"error": "bad request: " + "; ".join(parts)}, status_code=422)


_HANDLERS: Final[dict[type[Exception], Any]] = {
    TableError: _game_error,
    StoreError: _store_error,
    QuotaFull: _quota,
    JobFailed: _job_failed,
    SQLAlchemyError: _database_error,
    Exception: _bug,
    StarletteHTTPException: _http_error,
    RequestValidationError: _invalid,
}


def add_error_handlers(app: FastAPI) -> None:
    """Say every error of ``app`` as above."""
    for kind, handler in _HANDLERS.items():
        app.add_exception_handler(kind, handler)
