"""The short way to a seat's view and its action (``piquet.web.hot``) answers every
request exactly as FastAPI's routes do: the same status, headers and body, whether it
takes the request itself or hands it to them."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from piquet.web.hot import HotRoutes
from test_web_kit import bearer, client, create, pick, view


class Ways:
    """One server, asked each request twice: the short way first (counting the requests
    it took and those it handed over), then with the short way taken out of the router."""

    def __init__(self, c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
        self.c = c
        self.handled = self.handed = 0
        serve = HotRoutes.serve

        async def counted(hot: HotRoutes, scope: Any, receive: Any, send: Any,
                          rest: Any) -> None:
            self.handled += 1

            async def handed(*args: Any) -> None:
                self.handed += 1
                await rest(*args)

            await serve(hot, scope, receive, send, handed)

        monkeypatch.setattr(HotRoutes, "serve", counted)
        self.hot = c.app.state.hot  # type: ignore[attr-defined]
        assert isinstance(self.hot, HotRoutes)

    def both(self, method: str, url: str, **kw: Any) -> tuple[Any, bool]:
        """The short way's answer (checked equal to FastAPI's), and whether it took it."""
        handled, handed = self.handled, self.handed
        fast = self.c.request(method, url, **kw)
        took = self.handled > handled and self.handed == handed
        self.hot.on = False
        try:
            slow = self.c.request(method, url, **kw)
        finally:
            self.hot.on = True
        assert fast.status_code == slow.status_code, (url, kw, fast.text, slow.text)
        assert fast.content == slow.content, (url, kw)
        assert fast.headers.multi_items() == slow.headers.multi_items(), (url, kw)
        return fast, took


@pytest.fixture
def ways(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Ways]:
    with client(tmp_path) as c:
        yield Ways(c, monkeypatch)


def _my_turn(ways: Ways) -> tuple[dict[str, Any], dict[str, Any]]:
    made = create(ways.c, opponent="random")
    return made, view(ways.c, made["id"], made["token"], wait=10)


def test_views_answer_alike(ways: Ways) -> None:
    made, game = _my_turn(ways)
    assert game["your_turn"]
    gid, token = made["id"], made["token"]
    url = f"/api/games/{gid}"
    taken = [
        ({}, 401),  # no token
        ({"headers": bearer(token)}, 200),
        ({"headers": {"Authorization": f"bearer   {token}  "}}, 200),
        ({"headers": bearer(token), "params": {"wait": 0}}, 200),
        ({"headers": bearer(token), "params": {"wait": "0.5"}}, 200),  # my turn: at once
        ({"headers": bearer(token), "params": {"wait": 30}}, 200),
        ({"headers": {"Authorization": "Basic abc"}}, 401),
        ({"headers": {"Authorization": "Bearer"}}, 401),
        ({"headers": {"Authorization": "Bearer "}}, 401),
        ({"headers": bearer("x" * 43)}, 404),
    ]
    for kw, status in taken:
        r, took = ways.both("GET", url, **kw)
        assert (r.status_code, took) == (status, True), kw
    assert r.json().keys() == {"error"}
    handed = [
        ({"headers": bearer(token), "params": {"wait": 31}}, 422),
        ({"headers": bearer(token), "params": {"wait": "-1"}}, 422),
        ({"headers": bearer(token), "params": {"wait": "soon"}}, 422),
        ({"headers": bearer(token), "params": {"wait": "1e1"}}, 200),
        ({"headers": bearer(token), "params": {"other": "1"}}, 200),
        ({"headers": bearer(token), "params": [("wait", "0"), ("wait", "0")]}, 200),
    ]
    for kw, status in handed:
        r, took = ways.both("GET", url, **kw)
        assert (r.status_code, took) == (status, False), kw
    # ids the route refuses, or another route's
    for path in ("/api/games/a.b", "/api/games/" + "a" * 33):
        r, took = ways.both("GET", path, headers=bearer(token))
        assert r.status_code == 422 and not took, path
    r, took = ways.both("GET", url + "/", headers=bearer(token), follow_redirects=False)
    assert r.status_code == 307 and not took
    r, took = ways.both("GET", "/api/games/nosuchgame", headers=bearer(token))
    assert (r.status_code, took) == (404, True)
    # another method at the view's address: FastAPI's 405
    r, took = ways.both("PUT", url, headers=bearer(token))
    assert r.status_code == 405


def test_refused_actions_answer_alike(ways: Ways) -> None:
    made, game = _my_turn(ways)
    gid, token = made["id"], made["token"]
    url = f"/api/games/{gid}/actions"
    legal = pick(game, random.Random(3))
    n = game["n"]
    taken = [
        ({"json": {"action": legal}}, 401),  # no token
        ({"json": {"action": legal}, "headers": bearer("y" * 43)}, 404),
        ({"json": {"action": "???"}, "headers": bearer(token)}, 400),
        ({"json": {"action": legal, "n": n + 5}, "headers": bearer(token)}, 409),
    ]
    if n > 0:  # a move chosen on the game before the computer's
        taken.append(({"json": {"action": legal, "n": n - 1}, "headers": bearer(token)}, 409))
    for kw, status in taken:
        r, took = ways.both("POST", url, **kw)
        assert (r.status_code, took) == (status, True), (kw, r.text)
    deep = "[" * 8000 + "]" * 8000  # under the body limit, over the parser's depth
    handed: list[tuple[dict[str, Any], int]] = [
        ({"json": {"action": 5}}, 422),
        ({"json": {"action": legal, "n": 1.5}}, 422),
        ({"json": {"action": legal, "n": -1}}, 422),
        ({"json": {"action": "x" * 201}}, 422),
        ({"json": {}}, 422),
        ({"json": [legal]}, 422),
        ({"json": None}, 422),
        ({"content": b"{not json"}, 422),
        ({"content": b""}, 422),
        ({"content": b"\xff\xfe{"}, 400),
        ({"content": deep.encode()}, 400),
        ({"content": json.dumps({"action": legal}).encode(),
          "headers": {"content-type": "text/plain"}}, 422),
    ]
    # the JSON parser's depth is the interpreter's recursion limit, which a library run
    # earlier in this test process may have left raised (the server is in this process)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # the interpreter's own
    try:
        for kw, status in handed:
            kw.setdefault("headers", {}).update(bearer(token))
            if "content" in kw:
                kw["headers"].setdefault("content-type", "application/json")
            r, took = ways.both("POST", url, **kw)
            assert (r.status_code, took) == (status, False), (kw.get("json"), r.text)
            assert r.json().keys() == {"error"}
    finally:
        sys.setrecursionlimit(limit)
    # nothing was applied by any of them
    assert view(ways.c, gid, token)["n"] == n


def test_actions_taken_the_short_way_are_the_routes(ways: Ways) -> None:
    """A whole deal's actions through the short way: each answer is the seat's view as
    the route gives it afterwards, and a retry with the same ``n`` answers alike."""
    rng = random.Random(7)
    made, game = _my_turn(ways)
    gid, token = made["id"], made["token"]
    for _ in range(12):
        if game["finished"]:
            break
        action, n = pick(game, rng), game["n"]
        handled, handed = ways.handled, ways.handed
        r = ways.c.post(f"/api/games/{gid}/actions", json={"action": action, "n": n},
                        headers=bearer(token))
        assert r.status_code == 200, r.text
        assert ways.handled == handled + 1 and ways.handed == handed
        assert r.headers["content-type"] == "application/json"
        assert r.headers["cache-control"] == "no-store"
        assert r.json()["n"] > n
        game = view(ways.c, gid, token, wait=10)  # the computer's reply, if any
        # the retry: 200 and the game as it stands, the same either way
        retry, took = ways.both("POST", f"/api/games/{gid}/actions",
                                json={"action": action, "n": n}, headers=bearer(token))
        assert retry.status_code == 200 and took
        assert retry.json()["n"] == game["n"]


def test_the_two_routes_are_still_fastapis(tmp_path: Path) -> None:
    """The two routes are still FastAPI's (the schema documents them from there, and
    they answer what the short way hands on), with the short way in front of them."""
    from fastapi.routing import APIRoute, iter_route_contexts

    from piquet.web.app import create_app
    from test_web_kit import config

    app = create_app(config(tmp_path / "a.sqlite3"))
    assert isinstance(app.state.hot, HotRoutes)
    paths = {(r.path, m) for r in iter_route_contexts(app.routes)
             if isinstance(r.original_route, APIRoute) for m in r.methods}
    assert {("/api/games/{game_id}", "GET"), ("/api/games/{game_id}/actions", "POST")} <= paths
    schema = app.openapi()["paths"]
    assert "wait" in json.dumps(schema["/api/games/{game_id}"]["get"]["parameters"])
    assert "409" in schema["/api/games/{game_id}/actions"]["post"]["responses"]
