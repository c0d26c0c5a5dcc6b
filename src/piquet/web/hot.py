"""The short way to the two routes a game is played by: a seat's view (``GET
/api/games/{id}``, the long poll) and its action (``POST /api/games/{id}/actions``).

Every move passes through both, and FastAPI's way to an endpoint (matching every route
in turn, solving the dependencies, validating each parameter through pydantic) cost
more CPU than the endpoint itself.  :class:`HotRoutes` is the router's first route: it
takes only a request it can read plainly (a well-formed id, no query but ``wait`` as a
plain number, a bearer token or none, a JSON body that :class:`ActionIn` accepts) and
runs the routes' own work (:func:`~piquet.web.game_routes.seat_view`,
:func:`~piquet.web.game_routes.act_on`) on it; anything else (a malformed id, a query it
does not know, a body that fails validation) goes to FastAPI's route as before, so every
refusal is said as it always was.  It is no :class:`~fastapi.routing.APIRoute`: the
OpenAPI schema does not see it, and documents the two routes as they are.  The guards
(:class:`~piquet.web.limits.Guards`) and the error handlers are in front of it as they
are in front of every route.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from pydantic import ValidationError
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import ASGIApp

from piquet.web.game_routes import act_on, seat_view
from piquet.web.ids import ID_PATTERN
from piquet.web.models import ActionIn
from piquet.web.server import Server

__all__ = ["HotRoutes", "add_hot_routes"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_ID: Final = ID_PATTERN[1:-1]  # without its anchors
_VIEW: Final = re.compile(rf"/api/games/({_ID})")
_ACT: Final = re.compile(rf"/api/games/({_ID})/actions")
_WAIT: Final = re.compile(rb"wait=([0-9]{1,2}(?:\.[0-9]{1,6})?)")
_SLOW: Final = "piquet.slow"
"""Set in a request's scope handed back to the router: the routes FastAPI made take it."""
_JSON: Final = b"application/json"


class HotRoutes(BaseRoute):
    """The router's first route: the seat's view and its action, read plainly (see the
    module's words), or handed back to the router to be routed as before."""

    def __init__(self, router: ASGIApp) -> None:
        self.router = router

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and _SLOW not in scope and not scope.get("root_path"):
            method = scope["method"]
            if (method == "GET" and _VIEW.fullmatch(scope["path"])) or (
                method == "POST" and _ACT.fullmatch(scope["path"])
            ):
                return Match.FULL, {}
        return Match.NONE, {}

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        raise NoMatchFound(name, path_params)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        token, content_type = _headers(scope)
        state: Server = scope["app"].state.piquet
        if scope["method"] == "GET":
            wait = _wait(scope["query_string"])
            m = _VIEW.fullmatch(scope["path"])
            if wait is None or m is None:
                await self._slow(scope, receive, send)
                return
            entry, seat = await seat_view(state, m[1], token, wait)
            await _answer(send, 200, state.games.seat_body(entry, seat))
            return
        m = _ACT.fullmatch(scope["path"])
        message = await receive()
        body = message.get("body", b"")
        action = None
        if (m is not None and content_type == _JSON and message["type"] == "http.request"
                and not message.get("more_body", False) and body):
            action = _action(body)
        if action is None or m is None:
            await self._slow(scope, _replay(message, receive), send)
            return
        response = await act_on(state, m[1], token, action.action, action.n)
        await response(scope, receive, send)

    async def _slow(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The request routed as FastAPI routes it (this route stepping aside)."""
        scope[_SLOW] = True
        await self.router(scope, receive, send)


def add_hot_routes(router: Any) -> None:
    """Put :class:`HotRoutes` first in ``router`` (the application's router)."""
    router.routes.insert(0, HotRoutes(router.app))


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
