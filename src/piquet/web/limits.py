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
    "CsrfCheck",
    "GuardedSend",
    "Guards",
    "Prepared",
    "ServerLimits",
    "TokenBuckets",
    "api_json_headers",
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


async def refuse_socket(receive: Receive, send: Send, code: int, reason: str) -> None:
    """Refuse a WebSocket with close ``code`` and ``reason``: the handshake is accepted
    first, so the client hears the code (a close before the accept is an HTTP 403, which
    says nothing of why)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": reason[:120]})


CsrfCheck = Callable[[Scope], tuple[int, str] | None]
"""Why a request is refused for want of its CSRF token (status, words), or None."""
_SLOW_DOWN: Final = "too many requests: slow down and try again"


class Guards:
    """Every guard in front of the application, in one pure-ASGI layer (one pass where
    five middlewares each wrapped the next), checked in this order:

    1. **security headers** (HTTP): Content-Security-Policy and friends on every page (not
       on the API docs pages), and ``Cache-Control: no-store`` on every answer of the API
       that does not say otherwise: a seat's view, a record, a token, an analysis are
       private, and the rest (the lobby, the health) changes from one moment to the next,
       so no cache along the way keeps any.  They go on every answer below too.
    2. **rate** (HTTP and WebSocket on ``/api``): 429 (a socket: closed with 4429) for a
       client (by address) over ``rate`` requests a second; game creation (a new game, a
       rematch, a guided deal, a position played from the analysis) has its own,
       ``create_per_minute``.
    3. **sockets** (WebSocket): at most ``sockets_per_client`` open at once from one
       client address: one more is closed with 4429 at once, so that one client cannot
       hold most of the server's connections and shut the others out.
    4. **body** (HTTP): 413 for a request body over ``max_body`` bytes, declared or
       actually sent (the body is read whole, it is small, and handed on).
    5. **CSRF** (HTTP): ``csrf`` (:func:`piquet.web.accounts.csrf_refusal`) says whether a
       state-changing request is refused.

    A request that passed them all goes on to the application, or, for a seat's view
    or its action, to ``hot`` (:class:`piquet.web.hot.HotRoutes`), the short way.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        rate: float,
        burst: int,
        create_per_minute: float,
        max_body: int,
        sockets_per_client: int,
        csrf: CsrfCheck | None = None,
        hot: Any = None,
    ) -> None:
        self.app = app
        self.hot = hot
        """:class:`piquet.web.hot.HotRoutes` (or None): the short way to the two routes
        a game is played by, for a request that passed every guard."""
        self.all = TokenBuckets(rate, burst)
        self.create = TokenBuckets(create_per_minute / 60.0, max(1.0, create_per_minute / 3))
        self.limit = max_body
        self.too_big = f"request body too large: at most {max_body} bytes"
        self.per_client = sockets_per_client
        self.open: dict[str, int] = {}
        self.csrf = csrf

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            await self._http(scope, receive, send)
        elif kind == "websocket":
            await self._socket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _wait(self, scope: Scope, path: str) -> float:
        """0 if the client may go on, else the seconds before its next request."""
        client = scope.get("client")
        key = client[0] if client else "?"
        wait = self.all.take(key)
        if not wait and scope["type"] == "http" and scope.get("method") == "POST":
            path = path.rstrip("/")
            # a rematch is a new game too (resign and rematch over and over made games as
            # fast as the general rate allowed), and so is a guided deal, and a position
            # played from the analysis (``/from/STEP``)
            if path in ("/api/games", "/api/learn/guided") or (
                path.startswith("/api/games/")
                and (path.endswith("/rematch") or "/from/" in path)
            ):
                wait = self.create.take(key)
        return wait

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope["path"]
        send = GuardedSend(path, send)
        if path.startswith("/api"):
            wait = self._wait(scope, path)
            if wait:
                retry = str(max(1, math.ceil(wait))).encode()
                await _send_error(send, 429, _SLOW_DOWN, [(b"retry-after", retry)])
                return
        limit = self.limit
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = limit + 1
                if declared > limit:
                    await _send_error(send, 413, self.too_big, [(b"connection", b"close")])
                    return
        # read the whole body (it is small), then hand it on
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                if not await self._csrf_refused(scope, send):
                    await self.app(scope, _replay([message]), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > limit:
                await _send_error(send, 413, self.too_big, [(b"connection", b"close")])
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        if await self._csrf_refused(scope, send):
            return
        whole = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        receive = _replay([{"type": "http.request", "body": whole, "more_body": False}], receive)
        hot = self.hot
        if hot is not None and hot.claims(scope):
            await hot.serve(scope, receive, send, self.app)
            return
        await self.app(scope, receive, send)

    async def _csrf_refused(self, scope: Scope, send: Send) -> bool:
        refusal = self.csrf(scope) if self.csrf is not None else None
        if refusal is None:
            return False
        await _send_error(send, refusal[0], refusal[1], [])
        return True

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        key = client[0] if client else "?"
        if scope["path"].startswith("/api") and self._wait(scope, scope["path"]):
            await refuse_socket(receive, send, 4429, _SLOW_DOWN)
            return
        if self.per_client <= 0:
            await self.app(scope, receive, send)
            return
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


class GuardedSend:
    """``send`` adding the security headers (and ``no-store`` on the API) to the answer;
    ``plain``, the ``send`` it wraps, is for an answer that carries them already
    (:func:`api_json_headers`)."""

    __slots__ = ("_api", "_extra", "plain")

    def __init__(self, path: str, send: Send) -> None:
        docs = path in ("/docs", "/redoc") or path.startswith("/docs/")
        self._api = path.startswith("/api/") or path == "/api"
        self._extra = _DOCS_HEADERS if docs else _PAGE_HEADERS
        self.plain = send

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            if self._api and not any(k.lower() == b"cache-control" for k, _v in headers):
                headers += self._extra
                headers.append(_NO_STORE)
            else:
                headers += self._extra
            message["headers"] = headers
        await self.plain(message)


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
_DOCS_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
_PAGE_HEADERS: Final = (*_DOCS_HEADERS, (b"content-security-policy", _CSP.encode()))
_NO_STORE: Final = (b"cache-control", b"no-store")


class Prepared(tuple[tuple[bytes, bytes], ...]):
    """An answer's headers as the ASGI message carries them (name and value pairs, each
    name in lower case), with the head's lines already written out as uvicorn writes them
    (``block``: ``name: value`` and CRLF for each, in order) and the body's length: the
    server's HTTP protocol (:mod:`piquet.web.guarded`) writes ``block`` as it is, where it
    checks each header of any other answer against two regular expressions, one
    header after the other.  Made by :func:`api_json_headers` only: no ``connection``
    or ``transfer-encoding`` header among them."""

    block: bytes
    length: int


_API_JSON: Final = ((b"content-type", b"application/json"), *_PAGE_HEADERS, _NO_STORE)
_API_JSON_BLOCK: Final = b"".join(name + b": " + value + b"\r\n" for name, value in _API_JSON)


def api_json_headers(length: int) -> Prepared:
    """The headers of a JSON answer of ``length`` bytes to a request under ``/api/``:
    its length and type, and what the guards add to every such answer (the security
    headers and ``cache-control: no-store``), in the order they add them."""
    size = str(length).encode()
    out = Prepared(((b"content-length", size), *_API_JSON))
    out.block = b"content-length: " + size + b"\r\n" + _API_JSON_BLOCK
    out.length = length
    return out


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
