"""The games the server holds in memory: served without reading the database, yet never
stale.

With SQLite (one process) memory is the truth once a game is loaded: a move reads nothing
and writes one short transaction.  Where other processes share the database (PostgreSQL;
or ``shared=True``) a game in memory is checked against the stored log length first.  A
restart, or a write by another process, is always seen; an action is held in memory only
once committed.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from fastapi.testclient import TestClient

from piquet.core.match import new_match
from piquet.table.state import TableState
from piquet.web.app import create_app
from piquet.web.entries import seats_of
from piquet.web.games import Entry, Games, Live, _step
from piquet.web.store import GameRow, SeatRow, Store, database_url
from test_web_kit import (
    ThreadServer,
    accept,
    at_once,
    bearer,
    config,
    create,
    friend_game,
    net,
    offer,
    pick,
    poster,
    view,
)

# the clocks' sweeper (web/clocks.Sweeper._in_play): the clocked games not finished
_SWEEPER = re.compile(
    r"^\s*SELECT\s+\w*clocks\.game_id\s+FROM\s+\w*clocks\s+JOIN\s+\w*games\b", re.I
)


@contextmanager
def statements(c: TestClient) -> Iterator[list[str]]:
    """The SQL statements the server runs meanwhile for the game (their first word, upper
    case); the SQLite checkpointer's own thread runs its PRAGMA every half second, for no
    request, and the clocks' sweeper its look for clocked games in play every second (on a
    loaded machine a request can last long enough to see it): both are left out."""
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    seen: list[str] = []

    def record(_conn: Any, _cur: Any, statement: str, *_args: Any) -> None:
        if threading.current_thread().name == "piquet-db-checkpoint":
            return
        if _SWEEPER.search(statement):
            return
        seen.append(statement.split(None, 1)[0].upper())

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def move(c: TestClient, gid: str, tokens: dict[int, str], rng: random.Random) -> dict[str, Any]:
    """The seat to act makes a random legal move; the answer."""
    seat = view(c, gid, tokens[0])["to_act"]
    game = view(c, gid, tokens[seat])
    r = c.post(
        f"/api/games/{gid}/actions", json={"action": pick(game, rng)}, headers=bearer(tokens[seat])
    )
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_move_reads_nothing_and_writes_one_short_transaction(tmp_path: Path) -> None:
    rng = random.Random(1)
    with TestClient(create_app(config(tmp_path / "g.sqlite3"))) as c:
        gid, tokens = friend_game(c.post)
        for _ in range(5):
            move(c, gid, tokens, rng)
        seat = view(c, gid, tokens[0])["to_act"]
        with statements(c) as seen:
            game = view(c, gid, tokens[seat])
            view(c, gid, tokens[1 - seat])
        assert seen == []  # both views from memory
        with statements(c) as seen:
            r = c.post(
                f"/api/games/{gid}/actions",
                json={"action": pick(game, rng)},
                headers=bearer(tokens[seat]),
            )
            assert r.status_code == 200, r.text
        assert seen == ["UPDATE", "INSERT"]  # the optimistic update and the log row
        # a refusal touches nothing either
        with statements(c) as seen:
            r = c.post(
                f"/api/games/{gid}/actions",
                json={"action": "play:AS"},
                headers=bearer(tokens[1 - r.json()["to_act"]]),
            )
            assert r.status_code in (409, 422), r.text
        assert seen == []


def test_on_postgresql_its_news_keeps_the_views_in_memory(pg_url: str, tmp_path: Path
                                                          ) -> None:
    """A shared database (PostgreSQL) whose news is heard: a game held is shown without
    reading its version (with or without the ``n`` the client has seen, on the short way
    and FastAPI's), and a move writes its row (with its news) and its log entry."""
    rng = random.Random(2)
    db = database_url(pg_url, tmp_path)
    with TestClient(create_app(config(tmp_path / "unused", database=db))) as c:
        games = c.app.state.piquet.games  # type: ignore[attr-defined]
        news = games.news
        assert games.shared and news is not None and news.wait_ready(30)
        gid, tokens = friend_game(c.post)
        deadline = time.monotonic() + 30
        while news.vague.get(gid, 0) < 1:  # the seat taken: its news heard (then read)
            assert time.monotonic() < deadline
            time.sleep(0.01)
        for _ in range(5):
            move(c, gid, tokens, rng)
        seat = view(c, gid, tokens[0])["to_act"]
        with statements(c) as seen:
            game = view(c, gid, tokens[seat])
            view(c, gid, tokens[1 - seat])
            for path in (f"/api/games/{gid}", f"/api/games/{gid}?wait=0"):
                r = c.get(path, params={"n": game["n"]}, headers=bearer(tokens[seat]))
                assert r.status_code == 200 and r.json() == game
        assert seen == []
        with statements(c) as seen:
            r = c.post(
                f"/api/games/{gid}/actions",
                json={"action": pick(game, rng), "n": game["n"]},
                headers=bearer(tokens[seat]),
            )
            assert r.status_code == 200, r.text
        # the advance, which sends its news (pg_notify, committed with it), and the log row
        assert seen == ["WITH", "INSERT"]
        # an n the game has not reached (no process wrote it): read, and answered as it is
        with statements(c) as seen:
            r = c.get(f"/api/games/{gid}", params={"n": game["n"] + 5},
                      headers=bearer(tokens[seat]))
            assert r.status_code == 200 and r.json()["n"] == game["n"] + 1
        assert seen
        bad = c.get(f"/api/games/{gid}", params={"n": -1}, headers=bearer(tokens[seat]))
        assert bad.status_code == 422


def test_a_restarted_server_rebuilds_the_game_from_the_log(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    rng = random.Random(2)
    with TestClient(create_app(config(db))) as c:
        gid, tokens = friend_game(c.post)
        for _ in range(30):
            move(c, gid, tokens, rng)
        before = {s: view(c, gid, t) for s, t in tokens.items()}
    with TestClient(create_app(config(db))) as c:
        assert c.app.state.piquet.games.peek(gid) is None  # type: ignore[attr-defined]
        after = {s: view(c, gid, t) for s, t in tokens.items()}
        assert after == before
        move(c, gid, tokens, rng)  # and play goes on
        assert view(c, gid, tokens[0])["n"] == before[0]["n"] + 1


def test_a_write_memory_did_not_see_is_found_and_nothing_forks(tmp_path: Path) -> None:
    """Another writer (here a second store on the same file, as a second process would)
    records the next action behind the server's back: the server's stale move is refused
    and the game is then shown as stored."""
    db = tmp_path / "g.sqlite3"
    rng = random.Random(3)
    with TestClient(create_app(config(db))) as c:
        gid, tokens = friend_game(c.post)
        for _ in range(3):
            move(c, gid, tokens, rng)
        seat = view(c, gid, tokens[0])["to_act"]
        game = view(c, gid, tokens[seat])
        other = Store.open(database_url(f"sqlite:///{db}", tmp_path), sqlite_sync="normal")
        try:
            first = pick(game, rng)
            assert other.append(gid, idx=game["n"], revision=0, player=seat, action=first,
                                finished=False)
        finally:
            other.close()
        r = c.post(
            f"/api/games/{gid}/actions",
            json={"action": pick(game, rng)},
            headers=bearer(tokens[seat]),
        )
        assert r.status_code == 409, r.text
        assert "already acted" in r.json()["error"]
        assert view(c, gid, tokens[0])["n"] == game["n"] + 1
        log = c.app.state.piquet.store.actions(gid)  # type: ignore[attr-defined]
        assert [a.idx for a in log] == list(range(game["n"] + 1))
        assert log[-1].action == first


def test_shared_mode_sees_the_other_process_at_once(tmp_path: Path) -> None:
    """Two servers over one database, ``shared``: each shows the other's moves, joins and
    seats without any message between them, at the price of one cheap query a view."""
    db = tmp_path / "g.sqlite3"
    rng = random.Random(4)
    a_app = create_app(config(db, shared=True))
    b_app = create_app(config(db, shared=True))
    with TestClient(a_app) as a, TestClient(b_app) as b:
        made = create(a, opponent="friend", name="Near")
        gid = made["id"]
        view(a, gid, made["token"])  # A holds the game
        r = b.post(f"/api/games/{gid}/join", json={"invite": made["invites"][0]["invite"]})
        assert r.status_code == 201
        tokens = {0: made["token"], 1: r.json()["token"]}
        # the seat taken through B: A knows its token and shows it taken
        seen = view(a, gid, tokens[1])
        assert seen["seats"][1]["joined"] and seen["seat"] == 1
        servers = [a, b]
        for k in range(40):
            here, there = servers[k % 2], servers[1 - k % 2]
            before = view(there, gid, tokens[0])  # ``there`` holds the game as it was
            after = move(here, gid, tokens, rng)
            assert view(there, gid, tokens[0])["n"] == after["n"] == before["n"] + 1
            if after["finished"]:
                break
        # a view of an unchanged game costs one query: the version
        with statements(a) as seen_sql:
            view(a, gid, tokens[0])
        assert seen_sql == ["SELECT"]


def test_views_from_memory_equal_views_built_afresh() -> None:
    """The JSON text kept per entry (with the last deal's view spliced in) says exactly
    what ``seat_json`` says, at every step of random games of every format."""
    games = Games.__new__(Games)
    games.problems = {}
    rng = random.Random(5)
    for rules, fmt, seats in [
        ("encyclopedia-19c", "game", 2),
        ("rubicon", "partie", 2),
        ("court-gamester-1754", "pool", 3),
    ]:
        m = new_match(rules, seed=rng.randrange(1 << 30), format=fmt, games=1, names=["x"] * seats)
        row = GameRow(
            "g",
            rules,
            fmt,
            1,
            1,
            False,
            0,
            False,
            0.0,
            tuple(SeatRow(i, "human", None, f"P{i}", "t", None) for i in range(seats)),
        )
        live = Live(TableState.new("g", seats_of(row), m))
        steps = 0
        while not live.match.finished and steps < 400:
            entry = Entry(row, live)
            for s in range(seats):
                text = games.seat_body(entry, s)
                assert games.seat_body(entry, s) is text  # built once
                # and what the computer cannot do now, said apart (null: nothing)
                assert json.loads(text) == {**games.seat_json(entry, s),
                                            "computer_problem": None}
            to_act = live.match.to_act
            assert to_act is not None
            live = _step(live, to_act, live.match.random_action(rng))
            steps += 1


def test_a_double_submission_is_recorded_once(tmp_path: Path) -> None:
    """The same move sent twice at the same moment: one is recorded, the other refused."""
    with ThreadServer(tmp_path) as srv:
        gid, tokens = friend_game(poster(srv.url))
        rng = random.Random(6)
        for _ in range(10):
            game = net.get(srv.url + f"/api/games/{gid}", headers=bearer(tokens[0])).json()
            seat = game["to_act"]
            mine = net.get(srv.url + f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
            action = pick(mine, rng)
            codes = at_once(
                2,
                lambda _: (
                    net.post(
                        srv.url + f"/api/games/{gid}/actions",
                        json={"action": action},  # noqa: B023 (called before the loop moves on)
                        headers=bearer(tokens[seat]),  # noqa: B023
                    ).status_code
                ),
            )
            assert 200 in codes and set(codes) <= {200, 409, 422}, codes
            after = net.get(srv.url + f"/api/games/{gid}", headers=bearer(tokens[0])).json()
            assert after["n"] == mine["n"] + codes.count(200)
        store = srv.app.state.piquet.store
        assert [a.idx for a in store.actions(gid)] == list(range(after["n"]))


def test_two_processes_on_postgresql_never_show_a_stale_game(
    pg_servers: Any, pg_url: str, tmp_path: Path
) -> None:
    """Two ``piquet serve`` over one PostgreSQL schema and no Redis: nothing tells one
    process of the other's moves, yet each view, each move and each long poll sees them
    (the version check), a seat taken on one opens on the other, and the log never forks.
    """
    with pg_servers() as (a, b):
        made = offer(poster(a.url))
        gid = made["id"]
        ha = httpx.Client(base_url=a.url, timeout=20)
        hb = httpx.Client(base_url=b.url, timeout=20)
        assert ha.get(f"/api/games/{gid}", headers=bearer(made["token"])).status_code == 200
        tokens = {0: made["token"], 1: accept(poster(b.url), made, "Far")}
        # A held the game before the join: it now shows the seat taken, and opens it
        seen = ha.get(f"/api/games/{gid}", headers=bearer(tokens[1])).json()
        assert seen["seats"][1]["name"] == "Far" and seen["seat"] == 1
        rng = random.Random(7)
        clients = [ha, hb]
        final: dict[str, Any] = {}
        for k in range(80):
            here, there = clients[k % 2], clients[1 - k % 2]
            state = there.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json()
            if state["finished"]:
                break
            seat = state["to_act"]
            mine = there.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
            # the move goes through ``here``, which last saw the game a move ago
            done = here.post(
                f"/api/games/{gid}/actions",
                json={"action": pick(mine, rng)},
                headers=bearer(tokens[seat]),
            )
            assert done.status_code == 200, done.text
            assert done.json()["n"] == state["n"] + 1
            # the other process shows it at once, and a long poll there returns it
            polled = there.get(
                f"/api/games/{gid}", params={"wait": 1}, headers=bearer(tokens[1 - seat])
            ).json()
            assert polled["n"] == state["n"] + 1
            final = polled
        assert final and final["n"] > 20
        views = [c.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json() for c in clients]
        assert views[0] == views[1]
        store = Store.open(database_url(pg_url, tmp_path))
        try:
            assert [x.idx for x in store.actions(gid)] == list(range(views[0]["n"]))
        finally:
            store.close()
        ha.close()
        hb.close()
