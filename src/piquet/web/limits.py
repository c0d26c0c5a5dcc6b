"""Guards in front of the application: request size, request rate, security headers
(plain ASGI middleware, so they cover the WebSocket handshake as well as HTTP), and the
limits on each connection (header size and count, time to send a request, connections
open), enforced in the HTTP protocol itself as the bytes arrive.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "BodyLimit",
    "RateLimit",
    "SecurityHeaders",
    "ServerLimits",
    "SocketCap",
    "TokenBuckets",
    "guarded_http",
    "refuse_socket",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


async def _send_error(send: Send, status: int, message: str, headers: list[Any]) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class TokenBuckets:
    """Token buckets by key: ``rate`` tokens a second, at most ``burst`` saved up.

    Keeps the ``max_keys`` most recent keys (older ones start full again).
    """

    def __init__(self, rate: float, burst: float, *, max_keys: int = 65536) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, now: float | None = None) -> float:
        """0 if a request may go now, else the seconds to wait before the next one."""
        if self.rate <= 0:
            return 0.0
        t = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(key, (self.burst, t))
        tokens = min(self.burst, tokens + (t - last) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, t)
            return (1 - tokens) / self.rate
        self._buckets[key] = (tokens - 1, t)
        self._buckets.move_to_end(key)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return 0.0


class RateLimit:
    """429 for a client (by address) over its rate on ``/api``; game creation (a new game,
    a rematch) has its own."""

    def __init__(self, app: ASGIApp, *, rate: float, burst: int, create_per_minute: float):
        self.app = app
        self.all = TokenBuckets(rate, burst)
        self.create = TokenBuckets(create_per_minute / 60.0, max(1.0, create_per_minute / 3))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not scope["path"].startswith("/api"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = client[0] if client else "?"
        wait = self.all.take(key)
        if not wait and scope["type"] == "http" and scope.get("method") == "POST":
            path = scope["path"].rstrip("/")
            # a rematch is a new game too (resign and rematch over and over made games as
            # fast as the general rate allowed), and so is a guided deal, and a position
            # played from the analysis (``/from/STEP``)
            if path in ("/api/games", "/api/learn/guided") or (
                path.startswith("/api/games/")
                and (path.endswith("/rematch") or "/from/" in path)
            ):
                wait = self.create.take(key)
        if wait:
            if scope["type"] == "websocket":
                await refuse_socket(
                    receive, send, 4429, "too many requests: slow down and try again"
                )
                return
            retry = str(max(1, math.ceil(wait))).encode()
            await _send_error(
                send, 429, "too many requests: slow down and try again", [(b"retry-after", retry)]
            )
            return
        await self.app(scope, receive, send)


async def refuse_socket(receive: Receive, send: Send, code: int, reason: str) -> None:
    """Refuse a WebSocket with close ``code`` and ``reason``: the handshake is accepted
    first, so the client hears the code (a close before the accept is an HTTP 403, which
    says nothing of why)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": reason[:120]})


class SocketCap:
    """At most ``per_client`` WebSockets open at once from one client address: one more
    is closed with 4429 at once, so that one client cannot hold most of the server's
    connections and shut the others out (they still connect)."""

    def __init__(self, app: ASGIApp, *, per_client: int) -> None:
        self.app = app
        self.per_client = per_client
        self.open: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or self.per_client <= 0:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = client[0] if client else "?"
        if self.open.get(key, 0) >= self.per_client:
            await refuse_socket(
                receive, send, 4429,
                f"too many live connections from your address (at most {self.per_client}): "
                "close a tab and try again",
            )
            return
        self.open[key] = self.open.get(key, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open[key] - 1
            if left:
                self.open[key] = left
            else:
                del self.open[key]


class BodyLimit:
    """413 for an HTTP request body over ``limit`` bytes (declared or actually sent)."""

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = f"request body too large: at most {self.limit} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.limit + 1
                if declared > self.limit:
                    await _send_error(send, 413, too_big, [(b"connection", b"close")])
                    return
        # read the whole body (it is small), then hand it on
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await _send_error(send, 413, too_big, [(b"connection", b"close")])
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        await self.app(
            scope,
            _replay(
                [{"type": "http.request", "body": b"".join(chunks), "more_body": False}], receive
            ),
            send,
        )


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive


_CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


class SecurityHeaders:
    """Content-Security-Policy and friends on every page (not on the API docs pages), and
    ``Cache-Control: no-store`` on every answer of the API that does not say otherwise: a
    seat's view, a record, a token, an analysis are private, and the rest (the lobby, the
    health) changes from one moment to the next, so no cache along the way keeps any."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        docs = path in ("/docs", "/redoc") or path.startswith("/docs/")
        api = path.startswith("/api/") or path == "/api"
        extra = _DOCS_HEADERS if docs else _PAGE_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                if api and not any(k.lower() == b"cache-control" for k, _v in headers):
                    headers += extra
                    headers.append(_NO_STORE)
                else:
                    headers += extra
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


_DOCS_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
_PAGE_HEADERS: Final = (*_DOCS_HEADERS, (b"content-security-policy", _CSP.encode()))
_NO_STORE: Final = (b"cache-control", b"no-store")


# ---------------------------------------------------------------------- the connections
@dataclass(frozen=True, slots=True, kw_only=True)
class ServerLimits:
    """What one connection may cost the server, enforced as the bytes arrive (before the
    application sees a request).  ``piquet serve`` runs uvicorn with these."""

    max_head: int = 16384
    """Bytes of request line and headers together: more is refused with 431."""
    max_headers: int = 64
    """Header lines in one request: more is refused with 431."""
    request_timeout: float = 10.0
    """Seconds from a connection's opening (or a request's first byte) to the request's
    last byte: a client idle or trickling past it gets 408 and the connection is closed."""
    max_connections: int = 1000
    """Open connections (WebSockets included): one more is answered 503 and closed."""
    keep_alive: int = 30
    """Seconds an idle keep-alive connection stays open between requests."""


def guarded_http(limits: ServerLimits) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with ``limits`` enforced (pass it as ``http=``)."""
    from piquet.web.guarded import GuardedHttpTools

    return type("GuardedHttpTools", (GuardedHttpTools,), {"limits": limits})


# ---------------------------------------------------------------------- socket messages
MAX_DEPTH: Final = 32  # no message of the sockets' protocols nests deeper than 2


def too_deep(text: str) -> bool:
    """Whether ``text`` opens more than :data:`MAX_DEPTH` arrays or objects at once (outside
    strings).  Decided before parsing, so the answer never depends on the recursion limit."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False
