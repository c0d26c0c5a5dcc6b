"""Issue 18, point 6: the small ones.

Deeply nested JSON on the WebSocket is refused with words, not a crash; request fields
take their own types only (no ``"yes"`` for true, no ``"2"`` for 2); the OpenAPI schema
lists the values allowed, and each of them is accepted; names made only of characters
that draw nothing are replaced by the default.  (``X-Forwarded-For``: see
``test_web_faults_limits.py``.)
"""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from test_web_kit import bearer, client, create, view

DEEP = "[" * 2000 + "]" * 2000


def test_deeply_nested_json_on_the_websocket_is_refused_with_words(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with client(tmp_path) as c, caplog.at_level(logging.WARNING, logger="piquet.web"):
        made = create(c, opponent="random")
        gid = made["id"]
        # before the token: refused with words, and the socket stays open for the token
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_text(DEEP)
            reply = ws.receive_json()
            assert reply["type"] == "error" and "nested too deep" in reply["error"]
            assert "token" in reply["error"]
            ws.send_text(json.dumps({"token": made["token"]}))
            assert ws.receive_json()["type"] == "view"
        # sent again and again, it is refused a few times, then the socket closes (4401)
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            for _ in range(4):
                ws.send_text(DEEP)
                assert "nested too deep" in ws.receive_json()["error"]
            assert "the first message must be" in ws.receive_json()["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
        # after it: an error, and the socket stays open
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_text(json.dumps({"token": made["token"]}))
            assert ws.receive_json()["type"] == "view"
            ws.send_text('{"action": ' + DEEP + "}")
            reply = ws.receive_json()
            while reply["type"] == "view":
                reply = ws.receive_json()
            assert reply == {"type": "error", "error": reply["error"]}
            assert "nested too deep" in reply["error"]
            ws.send_text(json.dumps({"type": "ping"}))
            while (reply := ws.receive_json())["type"] == "view":
                pass
            assert reply == {"type": "pong"}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


@pytest.mark.parametrize("value", ["yes", "true", 0, 1, None])
def test_hints_must_be_true_or_false(tmp_path: Path, value: object) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/games", json={"opponent": "random", "hints": value})
        assert r.status_code == 422, r.text
        assert "hints" in r.json()["error"]
        assert c.post("/api/games", json={"opponent": "random", "hints": True}).status_code == 201


@pytest.mark.parametrize("value", ["2", 2.5, True])
def test_a_tally_counts_games_in_whole_numbers(tmp_path: Path, value: object) -> None:
    """A whole number, as JSON Schema's ``integer`` reads it: ``2`` or ``2.0`` (issue 39:
    the schema accepted ``2.0`` and the server refused it); never a string or a bool."""
    with client(tmp_path) as c:
        r = c.post("/api/tallies", json={"rules": "rubicon", "games": value})
        assert r.status_code == 422, r.text
        assert "games" in r.json()["error"]
        assert c.post("/api/tallies", json={"rules": "rubicon", "games": 2}).status_code == 201
        made = c.post("/api/tallies", json={"rules": "rubicon", "games": 2.0})
        assert made.status_code == 201 and made.json()["tally"]["games"] == 2


def test_the_schema_lists_the_values_allowed_and_each_is_accepted(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        schemas = c.get("/openapi.json").json()["components"]["schemas"]
        game = schemas["NewGameIn"]["properties"]
        options = c.get("/api/options").json()
        assert game["rules"]["enum"] == [r["name"] for r in options["rules"]]
        assert game["opponent"]["enum"] == options["opponents"]
        assert game["opponents"]["anyOf"][0]["items"]["enum"] == options["opponents"]
        assert set(game["format"]["enum"]) == {"game", "partie", "pool", None}
        assert game["hints"]["type"] == "boolean"
        for rules in game["rules"]["enum"]:
            assert create(c, rules=rules, opponent="random")["id"]
        for opponent in game["opponent"]["enum"]:
            assert create(c, opponent=opponent)["id"]
        tally = schemas["NewTallyIn"]["properties"]
        assert tally["rules"]["enum"] == game["rules"]["enum"]
        assert set(tally["format"]["enum"]) == {"game", "partie", None}
        act = schemas["ActionIn"]["properties"]["n"]["anyOf"][0]
        assert act == {"type": "integer", "minimum": 0}


@pytest.mark.parametrize(
    "name",
    [
        "\ufeff",  # byte order mark
        "\u3164\u3164",  # Hangul filler
        "\U000e0041\U000e0064\U000e0061",  # tag characters
        "\u0301\u0302\u0303",  # combining marks alone
        "\u2800 \u115f",  # blank Braille pattern, Hangul choseong filler
        "\u200d\u2060",  # joiners
    ],
)
def test_names_that_draw_nothing_become_the_default(tmp_path: Path, name: str) -> None:
    with client(tmp_path) as c:
        made = create(c, opponent="friend", name=name)
        gid = made["id"]
        joined = c.post(
            f"/api/games/{gid}/join", json={"invite": made["invites"][0]["invite"], "name": name}
        ).json()
        seats = view(c, gid, made["token"])["seats"]
        assert [s["name"] for s in seats] == ["Player 1", "Guest"]
        assert c.get(f"/api/games/{gid}", headers=bearer(joined["token"])).status_code == 200


def test_names_with_marks_on_letters_are_kept(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, opponent="random", name="Zoe\u0308 \ufeffA\u0301da")
        assert view(c, made["id"], made["token"])["seats"][0]["name"] == "Zoë Áda"


def test_errors_belong_to_their_layer() -> None:
    """A refusal names its kind, and only the web edge says it in HTTP; a database that
    fails is not bad input (issue 13's web part)."""
    from piquet.table.errors import Refusal, TableError
    from piquet.web.app import HTTP_STATUS
    from piquet.web.store import StoreError

    assert not issubclass(StoreError, ValueError)
    refused = TableError(Refusal.NOT_NOW, "it is not your turn")
    assert refused.kind is Refusal.NOT_NOW and not hasattr(refused, "status")
    assert set(HTTP_STATUS) == set(Refusal)


def test_a_database_failure_in_the_lobby_is_a_503_with_words(tmp_path: Path) -> None:
    """The routers that read the database themselves (lobby, your games, analysis, spectators)
    answer a database failure as the store does: 503 with words, never a bare 500."""
    import sqlite3

    with client(tmp_path) as c:
        assert c.get("/api/lobby").status_code == 200
        con = sqlite3.connect(tmp_path / "games.sqlite3")
        con.execute("DROP TABLE piquet_challenges")
        con.commit()
        con.close()
        r = c.get("/api/lobby")
        assert r.status_code == 503, r.text
        assert "database" in r.json()["error"]
        assert r.headers["retry-after"] == "5"


def test_nesting_is_judged_before_parsing_whatever_the_recursion_limit(tmp_path: Path) -> None:
    """A raised recursion limit (some libraries raise it) must not let deep JSON through."""
    import sys

    from piquet.web.limits import MAX_DEPTH, too_deep

    assert too_deep("[" * (MAX_DEPTH + 1)) and not too_deep("[" * MAX_DEPTH)
    assert not too_deep('{"token": "[[[[[[' + "[" * 100 + '"}')  # brackets inside a string
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        with client(tmp_path) as c:
            made = create(c, opponent="random")
            with c.websocket_connect(f"/api/games/{made['id']}/ws") as ws:
                ws.send_text(DEEP)
                assert "nested too deep" in ws.receive_json()["error"]
                ws.send_text(json.dumps({"token": made["token"]}))
                assert ws.receive_json()["type"] == "view"
    finally:
        sys.setrecursionlimit(old)


# the words of a failing database (issue 39): no path, host, port or library text
_RAW = [
    ("cannot write to the database: database or disk is full", "disk is full"),
    ("cannot write to the database: disk I/O error", "cannot write to its disk"),
    ("the database file /srv/piquet/piquet.sqlite3 was deleted while the server was "
     "running: nothing is acknowledged any more", "removed or replaced"),
    ('cannot read the database: connection failed: connection to server at "10.0.0.7", '
     "port 5432 failed: Connection refused", "cannot reach its database"),
    ("cannot write to the database: terminating connection due to administrator command",
     "cannot reach its database"),
    ("cannot read the database: database disk image is malformed", "is damaged"),
    ("cannot write to the database: attempt to write a readonly database", "read-only"),
    ("cannot write to the database: database is locked", "busy"),
    ("cannot write to the database: (psycopg.errors.InternalError_) something new",
     "cannot use its database"),
]


@pytest.mark.parametrize(("raw", "plain"), _RAW)
def test_a_database_fault_is_said_without_paths_hosts_or_library_text(
    raw: str, plain: str
) -> None:
    from piquet.web.store import StoreError, plainly

    said = StoreError(raw).said
    assert said == plainly(raw) and plain in said
    for secret in ("/srv", "sqlite3", "10.0.0.7", "5432", "psycopg", "Error", "administrator"):
        assert secret not in said


def test_the_tallys_503_says_it_plainly_with_retry_after(tmp_path: Path) -> None:
    """Issue 39: the tallies' 503 carried SQLAlchemy's text (the SQL, a link to its docs)
    and no Retry-After."""
    import sqlite3

    with client(tmp_path) as c:
        r = c.post("/api/tallies", json={"rules": "rubicon", "names": ["Anne", "Bob"]})
        assert r.status_code == 201
        tid, token = r.json()["id"], r.json()["token"]
        con = sqlite3.connect(tmp_path / "games.sqlite3")
        con.execute("DROP TABLE piquet_tally_entries")
        con.commit()
        con.close()
        r = c.post(f"/api/tallies/{tid}/entries", json={"entry": "dealer Anne"},
                   headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 503, r.text
        assert r.headers["retry-after"] == "5"
        error = r.json()["error"]
        assert error.startswith("the server cannot use its database") and "try again" in error
        for raw in ("sqlalche.me", "INSERT", "DELETE", "no such table", "piquet_"):
            assert raw not in r.text


def test_a_socket_hog_is_refused_while_others_connect(tmp_path: Path) -> None:
    """Issue 39: one client held 39 of 40 WebSockets and locked everyone else out.  Each
    client address may hold ``sockets_per_client``; one more is closed with 4429 and
    words, and another client still connects."""
    from fastapi.testclient import TestClient

    with client(tmp_path, sockets_per_client=3) as hog:
        made = create(hog, opponent="random")
        path = f"/api/games/{made['id']}/ws"
        hello = json.dumps({"token": made["token"]})
        other = TestClient(hog.app, client=("192.0.2.7", 40000))
        with contextlib.ExitStack() as held:
            for _ in range(3):
                ws = held.enter_context(hog.websocket_connect(path))
                ws.send_text(hello)
                assert ws.receive_json()["type"] == "view"
            with hog.websocket_connect(path) as ws, pytest.raises(WebSocketDisconnect) as out:
                ws.receive_json()
            assert out.value.code == 4429
            assert "too many live connections from your address (at most 3)" in out.value.reason
            with other.websocket_connect(path) as ws:  # someone else is still served
                ws.send_text(hello)
                assert ws.receive_json()["type"] == "view"
        # the hog's sockets closed, it may connect again
        with hog.websocket_connect(path) as ws:
            ws.send_text(hello)
            assert ws.receive_json()["type"] == "view"


def test_a_socket_over_the_rate_limit_is_closed_with_4429(tmp_path: Path) -> None:
    """Issue 39: the handshake over the rate limit got HTTP 403 (a close before the
    accept); the documented answer is the close code 4429, with words."""
    with client(tmp_path, rate=0.01, burst=2) as c:
        made = create(c, opponent="random")  # one request of the burst
        with c.websocket_connect(f"/api/games/{made['id']}/ws") as ws:  # the other
            ws.send_text(json.dumps({"token": made["token"]}))
            assert ws.receive_json()["type"] == "view"
        with (c.websocket_connect(f"/api/games/{made['id']}/ws") as ws,
              pytest.raises(WebSocketDisconnect) as out):
            ws.receive_json()
        assert out.value.code == 4429 and "too many requests" in out.value.reason


def test_health_probes_a_write_and_says_the_fault_as_long_as_it_lasts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39: health turned 200 thirty seconds after the last failed write with the
    disk still full (it only read).  It writes a probe now: 503 for as long as commits
    fail, 200 as soon as they succeed."""
    import sqlite3

    import sqlalchemy as sa

    import piquet.web.health as web_health

    monkeypatch.setattr(web_health, "HEALTH_FRESH", 0.0)  # a probe at every check
    failing = {"on": False}

    def commit(_conn: object) -> None:
        if failing["on"]:
            raise sa.exc.OperationalError("COMMIT", {}, sqlite3.OperationalError(
                "database or disk is full"))

    with client(tmp_path) as c:
        sa.event.listen(c.app.state.piquet.store.engine, "commit", commit)  # type: ignore[attr-defined]
        assert c.get("/api/health").status_code == 200
        failing["on"] = True
        for _ in range(5):  # no write but the probe's: each check finds the disk full
            r = c.get("/api/health")
            assert r.status_code == 503 and r.headers["retry-after"] == "5"
            assert r.json()["error"] == "the server's disk is full: nothing can be saved"
            assert r.headers["cache-control"] == "no-store"
        failing["on"] = False
        assert c.get("/api/health").status_code == 200
