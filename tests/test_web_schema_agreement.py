"""The OpenAPI description and the server agree (issue 39), over every route of the API.

- Every answer the server gives is one the route's description lists: asked as it should
  be, without a token, with a wrong one, for a game that does not exist, with a body over
  the limit, over the rate limit, and with the database failing; a ``429`` and a ``503``
  carry ``Retry-After``, and every answer of the API ``Cache-Control: no-store``.
- The description accepts what the server reads: each field of each JSON body is sent
  as a whole number written ``14.0``, a string of digits, a bool, null, a string over its
  length, a number past its bounds, a value outside its list; the server never refuses
  one the description accepts as unreadable (``422``, "bad request": ``n: 10620.0`` was),
  and refuses (``400`` or ``422``) every one it refuses (JSON Schema, as a client or
  schemathesis reads it).

- A state-changing request that carries the login cookie without its CSRF token is
  refused (``403``) by every route, which each lists.

A route added without an entry in :data:`REQUESTS` fails the first test: say how to ask it.
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from piquet.web.accounts import ACCOUNT_COOKIE, CSRF_HEADER, csrf_of
from test_web_kit import bearer, client, create, offer

# passwords hashed at Argon2id's least cost (conftest): these tests register and log in,
# the hasher's own parameters are test_web_accounts's
pytestmark = pytest.mark.usefixtures("cheap_passwords")

PASSWORD = "correct horse battery"


@dataclass
class World:
    """What the requests act on: a practice game, a friend game waiting for its friend,
    a tally, a challenge in the lobby, a lesson, a puzzle; accounts logged in (their
    session ids: one that plays, one to log out, one to delete), two rated games between
    two accounts (Bob's seat: one to talk in, one to abort), and an open seek (its id)."""

    game: str
    token: str
    friend: str
    friend_token: str
    invite: str
    tally: str
    tally_token: str
    challenge: str
    lesson: str
    puzzle: str
    session: str
    leaving: str
    deleting: str
    rated: str
    rated_token: str
    aborting: str
    aborting_token: str
    seek: str


def _register(c: TestClient, name: str) -> str:
    """A new account, logged in: its session id (the client's cookies left empty)."""
    r = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    session = c.cookies.get(ACCOUNT_COOKIE)
    c.cookies.clear()
    assert session
    return session


def _logged(session: str) -> dict[str, str]:
    return {"cookie": f"{ACCOUNT_COOKIE}={session}", CSRF_HEADER: csrf_of(session)}


def _rated_game(c: TestClient, ada: str, bob: str) -> tuple[str, str]:
    """Ada's seek met by Bob's: a rated game between two accounts (its id, Bob's token)."""
    seek = {"rules": "rubicon", "format": "game"}
    waiting = c.post("/api/seeks", json=seek, headers=_logged(ada))
    assert waiting.status_code == 201 and not waiting.json()["matched"], waiting.text
    met = c.post("/api/seeks", json=seek, headers=_logged(bob))
    assert met.status_code == 201 and met.json()["matched"], met.text
    return met.json()["game"], met.json()["token"]


def _world(c: TestClient) -> World:
    made = create(c, rules="rubicon", opponent="random", name="Ada")
    friend = offer(c.post, rules="rubicon", name="Ada")
    tally = c.post("/api/tallies", json={"rules": "rubicon", "names": ["Anne", "Bob"]}).json()
    challenge = c.post("/api/lobby", json={"game": friend["id"],
                                           "invite": friend["invites"][0]["invite"]},
                       headers=bearer(friend["token"])).json()
    lesson = c.get("/api/learn/lessons").json()["lessons"][0]["key"]
    puzzle = c.get("/api/learn/puzzles").json()["id"]
    ada, bob = _register(c, "Ada"), _register(c, "Bob")
    rated, rated_token = _rated_game(c, ada, bob)
    aborting, aborting_token = _rated_game(c, ada, bob)
    seek = c.post("/api/seeks", json={"rules": "rubicon", "format": "partie"},
                  headers=_logged(ada))
    assert seek.status_code == 201 and not seek.json()["matched"], seek.text
    seek_id = c.get("/api/seeks").json()["seeks"][0]["id"]
    return World(made["id"], made["token"], friend["id"], friend["token"],
                 friend["invites"][0]["invite"], tally["id"], tally["token"],
                 challenge["id"], lesson, puzzle, ada, _register(c, "Cy"),
                 _register(c, "Di"), rated, rated_token, aborting, aborting_token, seek_id)


@dataclass
class Ask:
    """One request: its path filled in, who asks (the token, or None), a JSON body, the
    account's session it is sent with (its cookie and CSRF token, or None)."""

    path: str
    token: str | None = None
    body: Any = None
    query: dict[str, Any] | None = None
    session: str | None = None


def _game(w: World) -> dict[str, Any]:
    return {"game_id": w.game}


# (method, path template) -> how to ask it well
REQUESTS: dict[tuple[str, str], Callable[[World], Ask]] = {
    ("get", "/api/health"): lambda w: Ask("/api/health"),
    ("get", "/api/options"): lambda w: Ask("/api/options"),
    ("post", "/api/games"): lambda w: Ask("/api/games", body={"rules": "rubicon",
                                                              "opponent": "random"}),
    ("get", "/api/games/{game_id}"): lambda w: Ask(f"/api/games/{w.game}", w.token),
    ("post", "/api/games/{game_id}/actions"): lambda w: Ask(
        f"/api/games/{w.game}/actions", w.token, {"action": "pass", "n": 0}),
    ("post", "/api/games/{game_id}/invite"): lambda w: Ask(
        f"/api/games/{w.friend}/invite", w.friend_token),
    ("post", "/api/games/{game_id}/join"): lambda w: Ask(
        f"/api/games/{w.friend}/join", None, {"invite": w.invite, "name": "Bob"}),
    ("get", "/api/games/{game_id}/hint"): lambda w: Ask(f"/api/games/{w.game}/hint", w.token),
    ("get", "/api/games/{game_id}/record"): lambda w: Ask(
        f"/api/games/{w.game}/record", w.token),
    ("get", "/api/games/{game_id}/replay"): lambda w: Ask(
        f"/api/games/{w.game}/replay", w.token, query={"step": 0}),
    ("post", "/api/tallies"): lambda w: Ask("/api/tallies", body={
        "rules": "rubicon", "names": ["Anne", "Bob"], "games": 1}),
    ("get", "/api/tallies/{tally_id}"): lambda w: Ask(f"/api/tallies/{w.tally}",
                                                      w.tally_token),
    ("post", "/api/tallies/{tally_id}/entries"): lambda w: Ask(
        f"/api/tallies/{w.tally}/entries", w.tally_token, {"entry": "dealer Anne",
                                                           "version": 0}),
    ("post", "/api/tallies/{tally_id}/undo"): lambda w: Ask(
        f"/api/tallies/{w.tally}/undo", w.tally_token, {"version": 0}),
    ("get", "/api/tallies/{tally_id}/record"): lambda w: Ask(
        f"/api/tallies/{w.tally}/record", w.tally_token),
    ("post", "/api/games/{game_id}/undo"): lambda w: Ask(
        f"/api/games/{w.game}/undo", w.token, {"n": 0}),
    ("post", "/api/games/{game_id}/resign"): lambda w: Ask(
        f"/api/games/{w.game}/resign", w.token),
    ("post", "/api/games/{game_id}/rematch"): lambda w: Ask(
        f"/api/games/{w.game}/rematch", w.token),
    ("get", "/api/learn/glossary"): lambda w: Ask("/api/learn/glossary"),
    ("get", "/api/learn/lessons"): lambda w: Ask("/api/learn/lessons"),
    ("get", "/api/learn/lessons/{key}"): lambda w: Ask(f"/api/learn/lessons/{w.lesson}"),
    ("post", "/api/learn/lessons/{key}/steps/{index}/check"): lambda w: Ask(
        f"/api/learn/lessons/{w.lesson}/steps/0/check", body={"answer": "elder"}),
    ("get", "/api/learn/puzzles"): lambda w: Ask("/api/learn/puzzles",
                                                 query={"rules": "rubicon", "seed": 1}),
    ("post", "/api/learn/puzzles/{pid}/answer"): lambda w: Ask(
        f"/api/learn/puzzles/{w.puzzle}/answer", body={"answer": "pass"}),
    ("post", "/api/learn/guided"): lambda w: Ask("/api/learn/guided",
                                                 body={"rules": "rubicon", "name": "Ann"}),
    ("get", "/api/games/{game_id}/coach"): lambda w: Ask(f"/api/games/{w.game}/coach",
                                                         w.token),
    ("get", "/api/games/{game_id}/feedback"): lambda w: Ask(
        f"/api/games/{w.game}/feedback", w.token),
    ("post", "/api/me/games"): lambda w: Ask("/api/me/games", body={"id": w.game,
                                                                    "token": w.token}),
    ("get", "/api/me/games"): lambda w: Ask("/api/me/games"),
    ("get", "/api/me/games/{game_id}/seat"): lambda w: Ask(f"/api/me/games/{w.game}/seat"),
    ("delete", "/api/me/games/{game_id}"): lambda w: Ask(f"/api/me/games/{w.game}"),
    ("post", "/api/games/{game_id}/invitation"): lambda w: Ask(
        f"/api/games/{w.friend}/invitation", body={"invite": w.invite}),
    ("get", "/api/rules/{name}"): lambda w: Ask("/api/rules/rubicon"),
    ("get", "/api/games/{game_id}/analysis"): lambda w: Ask(
        f"/api/games/{w.game}/analysis", w.token),
    ("post", "/api/games/{game_id}/from/{step}"): lambda w: Ask(
        f"/api/games/{w.game}/from/0", w.token),
    ("get", "/api/lobby"): lambda w: Ask("/api/lobby"),
    ("post", "/api/lobby"): lambda w: Ask("/api/lobby", w.friend_token, {
        "game": w.friend, "invite": w.invite}),
    ("post", "/api/lobby/{challenge_id}/accept"): lambda w: Ask(
        f"/api/lobby/{w.challenge}/accept", body={"name": "Bob"}),
    ("delete", "/api/lobby/{challenge_id}"): lambda w: Ask(
        f"/api/lobby/{w.challenge}", w.friend_token),
    ("post", "/api/games/{game_id}/watch-link"): lambda w: Ask(
        f"/api/games/{w.game}/watch-link", w.token),
    ("get", "/api/games/{game_id}/watch"): lambda w: Ask(f"/api/games/{w.game}/watch",
                                                         "not-the-key"),
    ("get", "/api/account"): lambda w: Ask("/api/account", session=w.session),
    ("post", "/api/account/register"): lambda w: Ask("/api/account/register", body={
        "name": "Eve", "password": PASSWORD}),
    ("post", "/api/account/login"): lambda w: Ask("/api/account/login", body={
        "name": "Bob", "password": PASSWORD}),
    ("post", "/api/account/logout"): lambda w: Ask("/api/account/logout", session=w.leaving),
    ("post", "/api/account/delete"): lambda w: Ask("/api/account/delete", body={
        "password": PASSWORD}, session=w.deleting),
    ("get", "/api/account/progress"): lambda w: Ask("/api/account/progress",
                                                    session=w.session),
    ("post", "/api/account/progress"): lambda w: Ask("/api/account/progress", body={
        "progress": {"lessons": {"first": {"0": True}}, "level": "learner"}},
        session=w.session),
    ("get", "/api/me/opponent"): lambda w: Ask("/api/me/opponent"),
    ("get", "/api/presence"): lambda w: Ask("/api/presence"),
    ("post", "/api/presence"): lambda w: Ask("/api/presence", body={"tab": "a" * 20},
                                             session=w.session),
    ("get", "/api/seeks"): lambda w: Ask("/api/seeks"),
    ("post", "/api/seeks"): lambda w: Ask("/api/seeks", body={
        "rules": "rubicon", "format": "partie", "range": 400}, session=w.session),
    ("post", "/api/seeks/{seek_id}/accept"): lambda w: Ask(
        f"/api/seeks/{w.seek}/accept", session=w.session),
    ("get", "/api/seeks/mine"): lambda w: Ask("/api/seeks/mine", session=w.session),
    ("delete", "/api/seeks/mine"): lambda w: Ask("/api/seeks/mine", session=w.session),
    ("get", "/api/games-in-play"): lambda w: Ask("/api/games-in-play"),
    ("get", "/api/games/{game_id}/rating"): lambda w: Ask(
        f"/api/games/{w.rated}/rating", w.rated_token),
    ("get", "/api/games/{game_id}/clock"): lambda w: Ask(
        f"/api/games/{w.rated}/clock", w.rated_token),
    ("get", "/api/games/{game_id}/chat"): lambda w: Ask(
        f"/api/games/{w.rated}/chat", w.rated_token),
    ("post", "/api/games/{game_id}/chat"): lambda w: Ask(
        f"/api/games/{w.rated}/chat", w.rated_token, {"text": "Good luck!"}),
    ("post", "/api/games/{game_id}/chat/mute"): lambda w: Ask(
        f"/api/games/{w.rated}/chat/mute", w.rated_token, {"muted": False}),
    ("post", "/api/games/{game_id}/takeback"): lambda w: Ask(
        f"/api/games/{w.rated}/takeback", w.rated_token, {"n": 0}),
    ("post", "/api/games/{game_id}/abort"): lambda w: Ask(
        f"/api/games/{w.aborting}/abort", w.aborting_token),
}


def _spec(c: TestClient) -> dict[str, Any]:
    spec: dict[str, Any] = c.get("/openapi.json").json()
    return spec


def _routes(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, operations in spec["paths"].items():
        if path.startswith("/api"):
            for method, operation in operations.items():
                yield method, path, operation


def _call(c: TestClient, method: str, ask: Ask, **more: Any) -> Any:
    headers = {} if ask.token is None else bearer(ask.token)
    if ask.session is not None:
        headers.update(_logged(ask.session))
    headers.update(more.pop("headers", {}))
    kwargs: dict[str, Any] = {"headers": headers, "params": ask.query}
    if ask.body is not None:
        kwargs["json"] = ask.body
    kwargs.update(more)
    try:
        return c.request(method.upper(), ask.path, **kwargs)
    finally:
        c.cookies.clear()  # a login's cookie is the next request's only if it says so


def _check(spec_op: dict[str, Any], r: Any, where: str) -> None:
    declared = set(spec_op["responses"])
    assert str(r.status_code) in declared, (
        f"{where}: answered {r.status_code}, the description lists {sorted(declared)}: "
        f"{r.text[:200]}")
    assert r.headers.get("cache-control") == "no-store", where
    if r.status_code in (429, 503):
        assert int(r.headers["retry-after"]) >= 1, where
    if r.status_code >= 400:
        assert isinstance(r.json().get("error"), str), where


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, World]]:
    with client(tmp_path_factory.mktemp("agree")) as c:
        yield c, _world(c)


def test_every_route_is_asked_here(served: tuple[TestClient, World]) -> None:
    c, _w = served
    listed = {(m, p) for m, p, _op in _routes(_spec(c))}
    assert listed == set(REQUESTS), (listed ^ set(REQUESTS))


def test_every_answer_is_one_the_description_lists(served: tuple[TestClient, World]) -> None:
    c, w = served
    spec = _spec(c)
    for method, path, op in _routes(spec):
        ask = REQUESTS[(method, path)](w)
        _check(op, _call(c, method, ask), f"{method} {path}")
        if ask.token is not None:
            nobody = Ask(ask.path, None, ask.body, ask.query)
            _check(op, _call(c, method, nobody), f"{method} {path} without a token")
            wrong = Ask(ask.path, "A" * 43, ask.body, ask.query)
            _check(op, _call(c, method, wrong), f"{method} {path} with a wrong token")
        if ask.session is not None:
            out = Ask(ask.path, ask.token, ask.body, ask.query)
            _check(op, _call(c, method, out), f"{method} {path} logged out")
            wrong = Ask(ask.path, ask.token, ask.body, ask.query, "A" * 43)
            _check(op, _call(c, method, wrong), f"{method} {path} with a wrong session")
        if method != "get":
            forged = _call(c, method, ask, headers={
                "cookie": f"{ACCOUNT_COOKIE}={ask.session or w.session}", CSRF_HEADER: ""})
            _check(op, forged, f"{method} {path} with the login cookie, without its CSRF")
            if path not in ("/api/account/login", "/api/account/register"):
                assert forged.status_code == 403, (method, path, forged.text)
        if "{game_id}" in path:
            gone_path = ask.path
            for game in (w.game, w.friend, w.rated, w.aborting):
                gone_path = gone_path.replace(game, "NoSuchGame")
            gone = Ask(gone_path, ask.token, ask.body, ask.query, ask.session)
            _check(op, _call(c, method, gone), f"{method} {path} of no game")
        big = _call(c, method, ask, content=b"{" + b" " * 20000 + b"}",
                    headers={"content-type": "application/json"})
        _check(op, big, f"{method} {path} with a body over the limit")
        assert big.status_code == 413
    # the join of a game over (resigned) is a 409 the description lists (issue 39)
    friend = offer(c.post, rules="rubicon", name="Ada")
    assert c.post(f"/api/games/{friend['id']}/resign",
                  headers=bearer(friend["token"])).status_code == 200
    late = c.post(f"/api/games/{friend['id']}/join",
                  json={"invite": friend["invites"][0]["invite"]})
    assert late.status_code == 409
    _check(spec["paths"]["/api/games/{game_id}/join"]["post"], late, "a join after the end")


def test_over_the_rate_limit_every_route_says_429(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        w = _world(c)
    with client(tmp_path, rate=0.001, burst=1) as c:
        spec = _spec(c)
        c.get("/api/options")  # the one request of the burst
        for method, path, op in _routes(spec):
            r = _call(c, method, REQUESTS[(method, path)](w))
            assert r.status_code == 429, (method, path)
            _check(op, r, f"{method} {path} over the rate limit")


def test_with_the_database_failing_every_answer_is_listed(tmp_path: Path) -> None:
    """Every statement fails as a disk failing fails it: each route answers what it
    lists (a 503 with Retry-After where it needs the database)."""
    with client(tmp_path) as c:
        w = _world(c)
        spec = _spec(c)

        def fail(*_args: Any) -> None:
            raise sa.exc.OperationalError("SELECT", {}, sqlite3.OperationalError(
                "disk I/O error"))

        engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
        c.app.state.piquet.games._cache.clear()  # type: ignore[attr-defined]
        sa.event.listen(engine, "before_cursor_execute", fail)
        try:
            failed = 0
            for method, path, op in _routes(spec):
                r = _call(c, method, REQUESTS[(method, path)](w))
                _check(op, r, f"{method} {path} with the database failing")
                if r.status_code == 503:
                    failed += 1
                    assert "disk" in r.json()["error"] and "sqlite" not in r.text.lower()
            assert failed >= 20
        finally:
            sa.event.remove(engine, "before_cursor_execute", fail)


# ---------------------------------------------------------------------- the inputs
def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        schema = spec["components"]["schemas"][name]
    if "anyOf" in schema:  # an optional body: its object
        objects = [s for s in schema["anyOf"] if s.get("type") != "null"]
        if len(objects) == 1:
            return _resolve(spec, objects[0])
    return schema


def _mutations(prop: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Values to try in a field (whatever its schema)."""
    yield "14.0", 14.0
    yield "10620.0", 10620.0
    yield "14.5", 14.5
    yield "'14'", "14"
    yield "true", True
    yield "null", None
    yield "-1", -1
    yield "10**6", 10**6
    yield "a long string", "a" * 400
    yield "a list", ["a", "b"]
    yield "a word outside the list", "nothing-of-the-kind"
    del prop


def _validator(spec: dict[str, Any], schema: dict[str, Any]) -> jsonschema.Validator:
    """A JSON Schema validator of ``schema`` whose refs (``#/components/...``) resolve in
    the description."""
    whole = {**copy.deepcopy(schema), "components": spec["components"]}
    return jsonschema.Draft202012Validator(whole)


def test_the_description_accepts_exactly_what_the_server_reads(
    served: tuple[TestClient, World]
) -> None:
    c, w = served
    spec = _spec(c)
    disagree = []
    for method, path, op in _routes(spec):
        content = op.get("requestBody", {}).get("content", {}).get("application/json")
        if content is None:
            continue
        body_schema = _resolve(spec, content["schema"])
        check = _validator(spec, body_schema)
        ask = REQUESTS[(method, path)](w)
        base = ask.body or {}
        for field_name, prop in body_schema.get("properties", {}).items():
            for label, value in _mutations(prop):
                body = {**base, field_name: value}
                described = check.is_valid(body)
                r = _call(c, method, Ask(ask.path, ask.token, body, ask.query, ask.session))
                # not of the route's fields (a 422 "bad request"): never for an input
                # the description accepts; and what it refuses the server refuses, as
                # unreadable (400: an unknown rule set, say, with the names allowed) or
                # not of its fields.  (A 400 of what the schema cannot say, an answer
                # that is none of a puzzle's choices, is the server's to give.)
                unread = r.status_code == 422 and r.json()["error"].startswith("bad request")
                refused = unread or r.status_code == 400
                if (described and unread) or (not described and not refused):
                    disagree.append(f"{method} {path} {field_name}={label}: the description "
                                    f"{'accepts' if described else 'refuses'} it, the "
                                    f"server answers {r.status_code} {r.text[:120]}")
    assert not disagree, "\n".join(disagree)
