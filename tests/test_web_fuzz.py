"""No request ever produces a 500: schemathesis against the OpenAPI schema, hypothesis for
the WebSocket.  Every answer also matches the schema it documents."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.websockets import WebSocketDisconnect

from piquet.web.app import create_app
from test_web_kit import ThreadServer, client, config, create, net

# passwords hashed at Argon2id's least cost (conftest): the fuzzer registers and logs in
# hundreds of times, and the server's own parameters are test_web_accounts's
pytestmark = pytest.mark.usefixtures("cheap_passwords")

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The server, a game on it, and one HTTP session for every request: schemathesis
    otherwise opens and closes a connection for each, a good part of the CPU the server
    and the test spend a request.  The session keeps no cookie (each request is sent as
    from a new client, as before), and reads nothing from the environment: requests
    otherwise looks up the proxy variables and the ``.netrc`` file for every request
    (some 3 CPU-s over the test) for a server on this machine that needs neither."""
    with ThreadServer(tmp_path_factory.mktemp("fuzz")) as srv, requests.Session() as session:
        session.cookies.set_policy(DefaultCookiePolicy(allowed_domains=[]))
        session.trust_env = False
        made = net.post(srv.url + "/api/games", json={"opponent": "friend"}).json()
        yield {"url": srv.url, "id": made["id"], "token": made["token"], "session": session}


@pytest.fixture(scope="module")
def api_schema() -> Any:
    """The schema, the application's own (building the app opens no database).  Made when
    the test runs, in the one test process that runs it: a schema given at collection has
    schemathesis build every operation's test there, in each of the suite's processes
    (some 2 CPU-s each), though only one of them runs it.  Each operation is a subtest
    of the one test, with the same examples and checks as a test of its own."""
    return schemathesis.openapi.from_dict(create_app(config(Path("unused.sqlite3"))).openapi())


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request: pytest.FixtureRequest) -> None:
    """schemathesis's schema-from-a-fixture reads and labels a test by ``node._nodeid``,
    an attribute pytest 9 no longer has (its id is ``nodeid``): given it, the same id."""
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid


FUZZ_EXAMPLES = 15
"""Random examples per operation (schemathesis's fuzzing phase), besides its coverage
phase's, which tries every operation's documented bounds, missing and wrong-typed parts and
every body it can derive from the schema, deterministically.  Counted over a run
(derandomized: the same cases each run), 15 reach every (route, status) pair that 25 did
(249; 10 missed three, 5 a dozen) save one: the login's 429, which only the 20 failed logins
of one client address bring and is checked on its own below
(test_a_throttled_login_keeps_its_schema).  Each example costs the generator and the
checks about 4 ms of CPU, most of it hypothesis's drawing and schemathesis's mutations:
25 spent some 3.5 CPU-s more for no route or status more."""


@schema.parametrize()
@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_api_never_fails_and_keeps_its_schema(case: Any, live: dict[str, Any]) -> None:
    case.call_and_validate(base_url=live["url"], session=live["session"], checks=CHECKS)
    # the same request on a real game, with its seat's token
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters = {**case.path_parameters, "game_id": live["id"]}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {live['token']}"}
        if case.query and "wait" in case.query:
            case.query = {**case.query, "wait": 0}
        case.call_and_validate(base_url=live["url"], session=live["session"], checks=CHECKS)


def test_a_throttled_login_keeps_its_schema(tmp_path: Path) -> None:
    """The login's 429 (too many failed logins, for one account or from one client
    address) is documented and answered as the schema says: the fuzzing above reaches it
    only after 20 failed logins from its one address."""
    api = create_app(config(Path("unused.sqlite3"))).openapi()
    login = schemathesis.openapi.from_dict(api)["/api/account/login"]["POST"]
    assert "429" in api["paths"]["/api/account/login"]["post"]["responses"]
    with client(tmp_path) as c:
        assert c.post("/api/account/register",
                      json={"name": "Ada", "password": "a long enough password"}
                      ).status_code == 201
        c.cookies.clear()
        answers = [c.post("/api/account/login", json={"name": name, "password": "wrong"})
                   for name in ["Ada"] * 6 + [f"nobody{i}" for i in range(16)]]
    codes = [r.status_code for r in answers]
    assert codes == [401] * 5 + [429] + [401] * 15 + [429], codes
    for r in (answers[5], answers[-1]):
        assert r.headers["content-type"] == "application/json"
        assert int(r.headers["retry-after"]) > 0
        login.validate_response(r)
    assert "for this account" in answers[5].json()["error"]
    assert "from this address" in answers[-1].json()["error"]


# ---------------------------------------------------------------------- the WebSocket
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
MESSAGES = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=64),
    JSONISH.map(json.dumps),
    st.fixed_dictionaries(
        {
            "action": st.one_of(
                st.text(max_size=40), st.sampled_from(["pass", "play:QH", "discard:-"])
            )
        }
    ).map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from(["ping", "refresh", "action", "nope"])}).map(
        json.dumps
    ),
    st.just("x" * 5000),
)


@pytest.fixture(scope="module")
def ws_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str, str]]:
    with client(tmp_path_factory.mktemp("ws")) as c:
        made = create(c, opponent="friend")
        yield c, made["id"], made["token"]


def _send(ws: Any, msg: str | bytes) -> None:
    if isinstance(msg, bytes):
        ws.send_bytes(msg)
    else:
        ws.send_text(msg)


@given(messages=st.lists(MESSAGES, min_size=1, max_size=6))
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_websocket_answers_anything_without_failing(
    ws_game: tuple[Any, str, str], messages: list[str | bytes]
) -> None:
    c, gid, token = ws_game
    with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": token}))
        first = ws.receive_json()
        assert first["type"] == "view" and first["view"]["id"] == gid
        for msg in messages:
            _send(ws, msg)
        # every message is answered in order; a ping at the end drains them
        ws.send_text(json.dumps({"type": "ping"}))
        for _ in range(len(messages) + 10):
            reply = ws.receive_json()
            assert reply["type"] in ("view", "error", "pong")
            if reply["type"] == "error":
                assert isinstance(reply["error"], str) and reply["error"]
            if reply["type"] == "pong":
                break
        else:  # pragma: no cover
            raise AssertionError("no pong")


@given(first=MESSAGES)
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_websocket_refuses_a_bad_first_message(
    ws_game: tuple[Any, str, str], first: str | bytes
) -> None:
    c, gid, _token = ws_game
    with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
        _send(ws, first)
        reply = ws.receive_json()
        assert reply["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code in (4401, 4404)


def test_websocket_for_an_unknown_game_or_token_closes_alike(
    ws_game: tuple[Any, str, str],
) -> None:
    c, gid, token = ws_game
    codes = []
    for path, tok in ((f"/api/games/{gid}/ws", "wrong"), ("/api/games/nosuch/ws", token)):
        with c.websocket_connect(path) as ws:
            ws.send_text(json.dumps({"token": tok}))
            err = ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            codes.append((closed.value.code, err["error"]))
    assert codes[0] == codes[1]
