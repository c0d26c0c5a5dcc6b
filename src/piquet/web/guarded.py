"""The HTTP protocol with the server's limits enforced in it, as the bytes arrive: header
size and count, the time to send a request, the connections open (uvicorn's httptools
protocol, subclassed).  Imported only by ``guarded_http`` (:mod:`piquet.web.limits`), when
a server starts under uvicorn."""

from __future__ import annotations

import asyncio
import json
from typing import Any, ClassVar, Final

import httptools
from uvicorn.protocols.http.httptools_impl import (
    STATUS_LINE,
    HttpToolsProtocol,
    RequestResponseCycle,
)

from piquet.web.limits import Prepared, ServerLimits

__all__ = ["GuardedHttpTools"]

SLACK: Final = 65536
"""A chunk may hold the end of the head and a body (at most 16 KiB)."""

_EARLY: Final = 0.001
"""Seconds a timer may ring before its time and still count as on time (the event loop's
timers have a resolution of a millisecond)."""


class _Refused(Exception):
    """The request head is over a limit (raised inside a parser callback)."""


def _raw_response(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    retry = "retry-after: 5\r\n" if status == 503 else ""  # every 503 says when to come back
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n{retry}connection: close\r\n\r\n"
    ).encode() + body


class _Corked:
    """The connection's transport as one request's answer writes to it: the answer's
    head (status line and headers) is held back until the next write, its body, and the
    two go to the socket as one write (one system call, one wake-up of the client, where
    uvicorn writes the head and the body each on its own).  Closing writes what is held
    first; an interim answer (``100 Continue``) is never held."""

    __slots__ = ("_head", "_transport")

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self._head: bytes | None = None

    def write(self, data: bytes) -> None:
        head = self._head
        if head is not None:
            self._head = None
            self._transport.write(head + data)
        elif data.startswith(b"HTTP/1.1 ") and not data.startswith(b"HTTP/1.1 1"):
            self._head = data
        else:
            self._transport.write(data)

    def flush(self) -> None:
        head = self._head
        if head is not None:
            self._head = None
            self._transport.write(head)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def __getattr__(self, name: str) -> Any:
        self.flush()
        return getattr(self._transport, name)


class _Cycle(RequestResponseCycle):
    """uvicorn's request cycle, writing the head of an answer whose headers the server
    prepared (:class:`~piquet.web.limits.Prepared`: the seat's view, an action's answer)
    as they come, written out once: the same bytes that uvicorn's own ``send`` writes,
    without checking each header against two regular expressions and lowering its name
    (the server's answers carry about ten headers).  Any other message, and an answer
    whose write must wait or that is logged, goes uvicorn's own way."""

    async def send(self, message: Any) -> None:
        if not self.wrote_prepared(message):
            await super().send(message)

    def wrote_prepared(self, message: Any) -> bool:
        """Whether ``message`` is the start of an answer with prepared headers, written
        here (else it is uvicorn's to write)."""
        headers = message.get("headers")
        if (type(headers) is not Prepared or message["type"] != "http.response.start"
                or self.response_started or self.disconnected or self.flow.write_paused
                or self.access_log or self.scope["method"] == "HEAD"):
            return False
        self.response_started = True
        self.waiting_for_100_continue = False
        self.chunked_encoding = False
        self.expected_content_length = headers.length
        content = [STATUS_LINE[message["status"]]]
        for name, value in self.default_headers:
            content.extend((name.lower(), b": ", value, b"\r\n"))
        content.append(headers.block)
        if not self.keep_alive:
            content.append(b"connection: close\r\n")
        content.append(b"\r\n")
        self.transport.write(b"".join(content))
        return True


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with :attr:`limits` enforced as the bytes arrive (a
    subclass names its limits: see ``guarded_http`` in :mod:`piquet.web.limits`)."""

    limits: ClassVar[ServerLimits] = ServerLimits()
    _timer: asyncio.TimerHandle | None = None
    _deadline = 0.0
    _open = False
    _got = 0
    _head = 0
    _lines = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.server_state.connections) >= self.limits.max_connections:
            transport.write(
                _raw_response(
                    503,
                    "Service Unavailable",
                    f"the server has {self.limits.max_connections} connections open: "
                    "try again shortly",
                )
            )
            transport.close()
            self.transport = transport
            self.parser = None  # type: ignore[assignment]
            return
        super().connection_made(transport)
        self._begin()

    def _begin(self) -> None:
        """A request may begin: it must be all here within the timeout.

        One timer a connection, not one a request: a timer set for an earlier request
        stays, and when it rings it finds no request open, or sets itself again for the
        deadline of the request now open (a kept-alive connection's requests come far
        more often than the timeout, and a timer made and cancelled each time cost more
        than the rest of these checks)."""
        self._open, self._got, self._head, self._lines = True, 0, 0, 0
        self._deadline = self.loop.time() + self.limits.request_timeout
        if self._timer is None:
            self._timer = self.loop.call_at(self._deadline, self._too_slow)

    def _end(self) -> None:
        self._open = False

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if not self._open or self.transport.is_closing():
            return
        if self._deadline - self.loop.time() > _EARLY:  # a later request's deadline
            self._timer = self.loop.call_at(self._deadline, self._too_slow)
            return
        if self._got:
            self._refuse(
                408,
                "Request Timeout",
                f"the request did not arrive within {self.limits.request_timeout:g} s",
            )
        else:  # a connection that never said anything
            self.transport.close()

    def _refuse(self, status: int, reason: str, message: str) -> None:
        self._end()
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            if cycle.response_started:
                self.transport.close()  # a response is under way: just hang up
                return
            # the head arrived, the body is still trickling in: the application
            # waits for it; it hears a disconnect and anything it sends is dropped,
            # while the client is told why (the documented 408)
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.write(_raw_response(status, reason, message))
        self.transport.close()

    def _too_big(self) -> None:
        self._refuse(
            431,
            "Request Header Fields Too Large",
            f"request headers too large: at most {self.limits.max_headers} headers and "
            f"{self.limits.max_head} bytes",
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self._end()
        self._stop_timer()
        if self.parser is not None:
            super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.parser is None or self.transport.is_closing():
            return
        if not self._open and (self.cycle is None or self.cycle.response_complete):
            self._begin()  # the next request on a kept-alive connection
        if self._open:
            self._got += len(data)
            if self._got > self.limits.max_head + SLACK:
                self._too_big()
                return
        try:
            super().data_received(data)
        except httptools.HttpParserCallbackError:  # pragma: no cover - uvicorn catches
            self._too_big()

    def on_url(self, url: bytes) -> None:
        self._head += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head += len(name) + len(value) + 4
        self._lines += 1
        if self._lines > self.limits.max_headers or self._head > self.limits.max_head:
            raise _Refused
        super().on_header(name, value)

    def send_400_response(self, msg: str) -> None:
        if self._lines > self.limits.max_headers or self._head > self.limits.max_head:
            self._too_big()
        else:
            self._end()
            super().send_400_response(msg)

    def on_headers_complete(self) -> None:
        if self._head > self.limits.max_head:
            raise _Refused
        super().on_headers_complete()
        cycle = self.cycle
        # the answer's head and body in one write (not for HEAD: no body follows)
        if cycle is not None and cycle.scope is self.scope and self.scope["method"] != "HEAD":
            cycle.transport = _Corked(self.transport)  # type: ignore[assignment]
            # the prepared answers' head written as it comes (the task that runs the
            # application has not started yet: it will call this class's ``send``)
            if type(cycle) is RequestResponseCycle:
                cycle.__class__ = _Cycle

    def on_message_complete(self) -> None:
        self._end()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._end()
        self._stop_timer()
        super().handle_websocket_upgrade()
