"""The head of a seat's view and of an action's answer, written out once by the server's
HTTP protocol (``web.guarded``'s cycle, ``web.limits.api_json_headers``: issue 39's cost of
a move), is byte for byte the head uvicorn writes for the same answer made FastAPI's way,
header by header: over a real socket, kept alive or closed after the answer, HTTP/1.1 and
1.0, a view, a refused action and an action played.  And the protocol's one timer a
connection (not one a request) still gives each request of a kept-alive connection its
own time to arrive."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from piquet.web import guarded
from piquet.web.app import create_app
from piquet.web.limits import ServerLimits, api_json_headers, guarded_http
from test_web_kit import START_CEILING, config, free_port, migrated, pick


class Served:
    """uvicorn in a thread, with the server's own HTTP protocol (as ``piquet serve``)."""

    def __init__(self, tmp: Path, limits: ServerLimits | None = None) -> None:
        self.port = free_port()
        self.app = create_app(config(migrated(tmp / "games.sqlite3", {})))
        self.server = uvicorn.Server(uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="error",
            access_log=False,  # as ``piquet serve`` runs it
            http=guarded_http(limits or ServerLimits())))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.prepared = 0  # the answers whose head was written from prepared headers

    def ask(self, head: str, body: bytes = b"") -> bytes:
        """The whole answer (head and body) to one request on a new connection."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
            s.sendall(head.encode() + body)
            got = b""
            while b"\r\n\r\n" not in got:
                got += s.recv(65536)
            top, _, rest = got.partition(b"\r\n\r\n")
            size = int(re.search(rb"content-length: (\d+)", top)[1])  # type: ignore[index]
            while len(rest) < size:
                rest += s.recv(65536)
            return top + b"\r\n\r\n" + rest

    def both(self, head: str, body: bytes = b"") -> tuple[bytes, bytes]:
        """The answer the short way (the prepared head) and FastAPI's way, their date
        lines taken out (the clock may turn a second between the two)."""
        hot = self.app.state.hot
        before = self.prepared
        fast = self.ask(head, body)
        assert self.prepared == before + 1
        hot.on = False
        try:
            slow = self.ask(head, body)
        finally:
            hot.on = True
        assert self.prepared == before + 1
        return _undated(fast), _undated(slow)


def _undated(answer: bytes) -> bytes:
    return re.sub(rb"\r\ndate: [^\r]*", b"", answer)


@contextlib.contextmanager
def running(s: Served) -> Iterator[Served]:
    s.thread.start()
    deadline = time.monotonic() + START_CEILING
    while not s.server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert s.server.started
    try:
        yield s
    finally:
        s.server.should_exit = True
        s.thread.join(10)


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    s = Served(tmp_path)
    wrote = guarded._Cycle.wrote_prepared

    def counted(cycle: Any, message: Any) -> bool:
        done = wrote(cycle, message)
        s.prepared += done
        return done

    monkeypatch.setattr(guarded._Cycle, "wrote_prepared", counted)
    with running(s):
        yield s


def _json(answer: bytes) -> Any:
    return json.loads(answer.partition(b"\r\n\r\n")[2])


def _post(path: str, token: str | None, data: dict[str, Any], version: str = "1.1",
          close: bool = False) -> tuple[str, bytes]:
    body = json.dumps(data).encode()
    head = (f"POST {path} HTTP/{version}\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n")
    if token is not None:
        head += f"Authorization: Bearer {token}\r\n"
    if close:
        head += "Connection: close\r\n"
    return head + "\r\n", body


def test_prepared_head_is_uvicorns(served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    # no access log, as ``piquet serve`` runs (pytest's log capture gives uvicorn's
    # access logger handlers of its own as the test starts; a logged answer goes
    # uvicorn's own way)
    access = logging.getLogger("uvicorn.access")
    monkeypatch.setattr(access, "handlers", [])
    monkeypatch.setattr(access, "propagate", False)
    made = _json(served.ask(*_post("/api/games", None, {"opponent": "random"})))
    gid, token = made["id"], made["token"]
    view = f"/api/games/{gid}"
    for version, close in (("1.1", False), ("1.1", True), ("1.0", False)):
        head = f"GET {view}?wait=10 HTTP/{version}\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
        head += ("Connection: close\r\n" if close else "") + "\r\n"
        fast, slow = served.both(head)
        assert fast == slow, (version, close)
        assert fast.startswith(b"HTTP/1.1 200 OK\r\n")
        assert (b"connection: close\r\n" in fast) == (close or version == "1.0")
    game = _json(fast)
    assert game["your_turn"]
    # a stale action (409, the game as it stands), then one played
    n = game["n"]
    fast, slow = served.both(*_post(f"{view}/actions", token, {"action": "x", "n": n + 5}))
    assert fast == slow
    assert fast.startswith(b"HTTP/1.1 409 Conflict\r\n")
    import random

    action = pick(game, random.Random(1))
    played = served.ask(*_post(f"{view}/actions", token, {"action": action, "n": n}))
    assert _json(played)["n"] > n
    # the computer's reply, then nothing moves until this seat acts again
    again = _json(served.ask(
        f"GET {view}?wait=10 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n"))
    assert again["your_turn"] or again["finished"]
    # the same action sent again is a retry: the game as it stands, both ways alike
    fast, slow = served.both(*_post(f"{view}/actions", token, {"action": action, "n": n}))
    assert fast == slow
    assert fast.startswith(b"HTTP/1.1 200 OK\r\n")


def test_prepared_headers_are_the_guards() -> None:
    """What the guards add to an answer under /api/ is in the prepared headers, in the
    order they add it, and the written block is those headers, line by line."""
    from piquet.web import limits

    got = api_json_headers(123)
    assert list(got) == [(b"content-length", b"123"), (b"content-type", b"application/json"),
                         *limits._PAGE_HEADERS, limits._NO_STORE]
    assert got.block == b"".join(k + b": " + v + b"\r\n" for k, v in got)
    assert got.length == 123
    assert all(k == k.lower() and k not in (b"connection", b"transfer-encoding")
               for k, _v in got)


def test_each_request_of_a_kept_alive_connection_has_its_own_deadline(tmp_path: Path) -> None:
    """The timer set for a connection's first request rings at that request's deadline
    while the next one is arriving: the next is refused (408) only at its own deadline."""
    timeout = 1.0
    with running(Served(tmp_path, ServerLimits(request_timeout=timeout))) as s, \
            socket.create_connection(("127.0.0.1", s.port), timeout=START_CEILING) as c:
        c.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert c.recv(65536).startswith(b"HTTP/1.1 200 OK\r\n")
        time.sleep(0.6 * timeout)
        began = time.monotonic()
        c.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # the rest never comes
        answer = c.recv(65536)
        late = time.monotonic() - began
    assert answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n"), answer
    assert late >= timeout - 0.05, late


def test_a_bug_on_the_short_way_is_said_as_on_fastapis(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The two routes' requests go from the application straight to the guards, under an
    error middleware of their own: a bug there is the same 500 as FastAPI's way says."""
    from piquet.web.games import Games
    from test_web_kit import LeanClient, bearer, create

    app = create_app(config(migrated(tmp_path / "games.sqlite3", {})))
    with LeanClient(app, raise_server_exceptions=False) as c:
        made = create(c, opponent="random")
        url = f"/api/games/{made['id']}"
        assert c.get(url, headers=bearer(made["token"])).status_code == 200
        assert app._front is not None  # type: ignore[attr-defined]  # the short way, taken

        def bug(*_args: Any) -> str:
            raise RuntimeError("a bug")

        monkeypatch.setattr(Games, "seat_body", bug)
        answers = []
        for on in (True, False):
            app.state.hot.on = on
            got = c.get(url, headers=bearer(made["token"]))
            answers.append((got.status_code, got.content, got.headers.multi_items()))
        assert answers[0] == answers[1]
        assert answers[0][0] == 500


def test_the_routes_put_in_one_list_are_those_fastapi_included(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The included routers' routes, put in the application's own list, are the same
    routes in the same order, and the OpenAPI schema is the same, byte for byte."""
    from fastapi.routing import _IncludedRouter

    import piquet.web.app as web_app

    def key(route: Any) -> tuple[str, str, str]:
        methods = ",".join(sorted(getattr(route, "methods", None) or ()))
        return type(route).__name__, getattr(route, "path", ""), methods

    def listed(app: Any) -> list[tuple[str, str, str]]:
        out: list[tuple[str, str, str]] = []
        for route in app.router.routes:
            if isinstance(route, _IncludedRouter):
                out += [key(r.original_route) for r in route.effective_route_contexts()]
            else:
                out.append(key(route))
        return out

    flat = create_app(config(tmp_path / "a.sqlite3"))
    monkeypatch.setattr(web_app, "_flatten_routes", lambda _app: None)
    nested = create_app(config(tmp_path / "b.sqlite3"))
    assert not any(isinstance(r, _IncludedRouter) for r in flat.router.routes)
    assert any(isinstance(r, _IncludedRouter) for r in nested.router.routes)
    assert listed(flat) == listed(nested)
    assert json.dumps(flat.openapi(), sort_keys=True) == json.dumps(nested.openapi(),
                                                                     sort_keys=True)
