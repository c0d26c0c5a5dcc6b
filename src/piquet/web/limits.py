"""Guards in front of the application: request size, request rate, security headers.

Plain ASGI middleware, so they cover the WebSocket handshake as well as HTTP.
"""

from __future__ import annotations

import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["BodyLimit", "RateLimit", "SecurityHeaders", "TokenBuckets"]

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
    """429 for a client (by address) over its rate on ``/api``; game creation has its own."""

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
            if scope["path"].rstrip("/") == "/api/games":
                wait = self.create.take(key)
        if wait:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4429})
                return
            retry = str(max(1, math.ceil(wait))).encode()
            await _send_error(
                send, 429, "too many requests: slow down and try again", [(b"retry-after", retry)]
            )
            return
        await self.app(scope, receive, send)


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
    """Content-Security-Policy and friends on every page (not on the API docs pages)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope["path"] in ("/docs", "/redoc") or scope["path"].startswith("/docs/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                if not docs:
                    headers.append((b"content-security-policy", _CSP.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
