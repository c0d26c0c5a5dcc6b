"""The short way to the two routes a game is played by: a seat's view (``GET
/api/games/{id}``, the long poll) and its action (``POST /api/games/{id}/actions``).

Every move passes through both, and FastAPI's way to an endpoint (three more layers of
middleware, matching every route in turn, solving the dependencies, validating each
parameter through pydantic) cost more CPU than the endpoint itself.  The guards
(:class:`~piquet.web.limits.Guards`, the one layer of middleware of the server's own)
hand such a request, once it passed them, to :class:`HotRoutes`: it takes only a
request it can read plainly (a well-formed id, no query but ``wait`` and ``n`` as plain
numbers, a bearer token or none, a JSON body that :class:`~piquet.web.models.ActionIn`
accepts)
and runs the routes' own work (:func:`~piquet.web.game_routes.seat_view`,
:func:`~piquet.web.game_routes.act_on`) on it, a refusal said by the application's own
error handlers; anything else (a malformed id, a query it does not know, a body that
fails validation) goes the application's way as before, so every refusal is said as it
always was.  The OpenAPI schema documents the two routes as they are (their FastAPI
routes are still there, and answer what the short way hands on).
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request

from piquet.web.game_routes import act_on, seat_view
from piquet.web.ids import ID_PATTERN
from piquet.web.limits import GuardedSend, api_json_headers
from piquet.web.models import ActionIn
from piquet.web.server import Server

__all__ = ["HotRoutes"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_ID: Final = ID_PATTERN[1:-1]  # without its anchors
_VIEW: Final = re.compile(rf"/api/games/({_ID})")
_ACT: Final = re.compile(rf"/api/games/({_ID})/actions")
_WAIT: Final = re.compile(rb"wait=([0-9]{1,2}(?:\.[0-9]{1,6})?)")
_SEEN: Final = re.compile(rb"n=(0|[1-9][0-9]{0,8})")
_JSON: Final = b"application/json"


class HotRoutes:
    """The seat's view and its action, read plainly (see the module's words): the
    guards (:class:`~piquet.web.limits.Guards`) hand each request to :meth:`serve` once
    it passed them, the application's way being ``rest``.  ``on`` False: every request
    goes the application's way (the tests compare the two)."""

    def __init__(self) -> None:
        self.on = True
        self._handlers: tuple[dict[Any, Any], dict[int, Any]] | None = None

    def claims(self, scope: Scope) -> bool:
        """Whether ``scope`` is one of the two routes (an HTTP request, read or not)."""
        if not self.on or scope.get("root_path"):
            return False
        method = scope["method"]
        return (method == "GET" and _VIEW.fullmatch(scope["path"]) is not None) or (
            method == "POST" and _ACT.fullmatch(scope["path"]) is not None)

    async def serve(self, scope: Scope, receive: Receive, send: Send, rest: ASGIApp) -> None:
        """Answer a request :meth:`claims`, or hand it to ``rest`` (the application).

        A view or an action's answer carries the guards' headers itself, prepared
        (:func:`~piquet.web.limits.api_json_headers`), and goes out on the ``send`` that
        the guards' wraps (:class:`~piquet.web.limits.GuardedSend`), so that the server's
        HTTP protocol writes its head as it comes; a refusal goes through ``send``."""
        token, content_type = _headers(scope)
        app = scope["app"]
        state: Server = app.state.piquet
        if scope["method"] == "GET":
            query = _query(scope["query_string"])
            m = _VIEW.fullmatch(scope["path"])
            if query is None or m is None:
                await rest(scope, receive, send)
                return
            work = self._view(state, m[1], token, *query)
        else:
            m = _ACT.fullmatch(scope["path"])
            message = await receive()
            data = message.get("body", b"")
            action = None
            if (m is not None and content_type == _JSON and message["type"] == "http.request"
                    and not message.get("more_body", False) and data):
                action = _action(data)
            if action is None or m is None:
                await rest(scope, _replay(message, receive), send)
                return
            work = act_on(state, m[1], token, action.action, action.n, action.socket)
        try:
            status, body = await work
        except Exception as exc:
            # said as the application's error handlers say it (the ones that
            # ``ExceptionMiddleware`` holds; the rest, a bug, goes on up to be a 500)
            handler = self._handler(app, exc)
            if handler is None:
                raise
            response = await handler(Request(scope, receive), exc)
            await response(scope, receive, send)
            return
        if type(send) is not GuardedSend:
            await _answer(send, status, body)
            return
        data = body.encode()
        plain = send.plain
        await plain({"type": "http.response.start", "status": status,
                     "headers": api_json_headers(len(data))})
        await plain({"type": "http.response.body", "body": data})

    @staticmethod
    async def _view(state: Server, game_id: str, token: str | None, wait: float,
                    seen: int | None) -> tuple[int, str]:
        entry, seat = await seat_view(state, game_id, token, wait, seen)
        return 200, state.games.seat_body(entry, seat)

    def _handler(self, app: Any, exc: Exception) -> Any:
        if self._handlers is None:
            classes: dict[Any, Any] = {}
            statuses: dict[int, Any] = {}
            for key, handler in app.exception_handlers.items():
                if key in (500, Exception):  # the server's error middleware's
                    continue
                if not inspect.iscoroutinefunction(handler):  # pragma: no cover
                    raise TypeError("the error handlers are coroutines")
                (statuses if isinstance(key, int) else classes)[key] = handler
            self._handlers = (classes, statuses)
        classes, statuses = self._handlers
        if isinstance(exc, HTTPException) and exc.status_code in statuses:
            return statuses[exc.status_code]
        for cls in type(exc).__mro__:
            if cls in classes:
                return classes[cls]
        return None


def _headers(scope: Scope) -> tuple[str | None, bytes | None]:
    """The bearer token (or None) and the content type, each from the first header of
    its name, as FastAPI reads them."""
    authorization: bytes | None = None
    content_type: bytes | None = None
    for name, value in scope["headers"]:
        if name == b"authorization":
            if authorization is None:
                authorization = value
        elif name == b"content-type" and content_type is None:
            content_type = value
    if authorization is None:
        return None, content_type
    # as ``HTTPBearer(auto_error=False)``: "Bearer TOKEN", else no token
    text = authorization.decode("latin-1")
    scheme, _, param = text.partition(" ")
    credentials = param.strip()
    if not (text and scheme and credentials) or scheme.lower() != "bearer":
        return None, content_type
    return credentials, content_type


def _wait(query: bytes) -> float | None:
    """The seconds to wait (0 without a query), or None for a query read by FastAPI."""
    if not query:
        return 0.0
    m = _WAIT.fullmatch(query)
    if m is None:
        return None
    wait = float(m[1])
    return wait if wait <= 30 else None


def _query(query: bytes) -> tuple[float, int | None] | None:
    """(the seconds to wait, the log length seen) of a view's query: ``wait=S``, ``n=K``,
    both joined by ``&`` in either order, or none; None for any other query (read by
    FastAPI, which says what is wrong with it)."""
    wait = 0.0
    seen: int | None = None
    waited = False
    parts = query.split(b"&") if query else []
    if len(parts) > 2:
        return None
    for part in parts:
        m = _SEEN.fullmatch(part)
        if m is not None and seen is None:
            seen = int(m[1])
            continue
        got = None if waited or not part else _wait(part)
        if got is None:
            return None
        wait, waited = got, True
    return wait, seen


def _action(body: bytes) -> ActionIn | None:
    """The action sent, or None where FastAPI is to say what is wrong with it."""
    try:
        return ActionIn.model_validate(json.loads(body))
    except (ValueError, ValidationError, RecursionError):  # json's errors: ValueError
        return None


async def _answer(send: Send, status: int, body: str) -> None:
    """A JSON answer, with the headers a :class:`~starlette.responses.Response` has."""
    data = body.encode()
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-length", str(len(data)).encode()),
                    (b"content-type", _JSON)],
    })
    await send({"type": "http.response.body", "body": data})


def _replay(first: Message, then: Receive) -> Receive:
    """``then`` with ``first`` given back first (the body was read here)."""
    pending = [first]

    async def receive() -> Message:
        if pending:
            return pending.pop()
        return await then()

    return receive
