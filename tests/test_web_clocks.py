"""Clocks kept by the server (web/clocks.py): read from the log's times, a loss on time
said plainly and recorded, a move past the time refused, and a clock that runs out while
the server is down (killed) decided once and correctly when it is back.

No test waits on a clock: the time a player "thought" is written into the log's times
(as a player thinking that long would have left it), and the tests wait for conditions.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from piquet.web.clocks import ClockSpec, Step, run_clock
from serverkit import migrated_file
from test_web_kit import Server, bearer, client, create, net, pick, view

LIVE = ClockSpec(kind="live", base=300.0, increment=3.0)
DAYS = ClockSpec(kind="correspondence", per_move=86400.0)


# ---------------------------------------------------------------------- the clock itself
def test_a_live_clock_charges_each_player_his_own_thinking_and_adds_the_increment() -> None:
    steps = [
        Step(at=100.0, to_act=0, mover=0),  # the first move is free: the clock starts
        Step(at=130.0, to_act=1, mover=1),  # 1 thought 30 s, +3
        Step(at=140.0, to_act=1, mover=1),  # 1 again (a declaration), 10 s, +3
        Step(at=150.0, to_act=0, mover=None),  # a takeback asked while 0 was to act
        Step(at=200.0, to_act=0, mover=0),  # 0 thought 60 s in all, +3
    ]
    clock = run_clock(LIVE, steps, 1, now=220.0)
    assert clock.running == 1 and clock.flagged is None
    assert clock.remaining == (300 - 60 + 3, 300 - 30 + 3 - 10 + 3 - 20)
    assert run_clock(LIVE, [], 0, now=1e9).running is None  # not started: nobody's runs


def test_a_clock_that_runs_out_says_who_and_when() -> None:
    steps = [Step(at=0.0, to_act=0, mover=0)]
    clock = run_clock(LIVE, steps, 1, now=400.0)
    assert clock.flagged == (1, 300.0) and clock.remaining[1] == 0
    # a move made after the time was gone does not save it
    late = [*steps, Step(at=350.0, to_act=1, mover=1)]
    assert run_clock(LIVE, late, 0, now=351.0).flagged == (1, 300.0)


def test_correspondence_gives_each_move_its_days() -> None:
    steps = [Step(at=0.0, to_act=0, mover=0), Step(at=80000.0, to_act=1, mover=1)]
    clock = run_clock(DAYS, steps, 0, now=80000.0 + 86000)
    assert clock.flagged is None and clock.remaining == (400.0, 86400.0)
    assert run_clock(DAYS, steps, 0, now=80000.0 + 86401).flagged == (0, 80000.0 + 86400)


# ---------------------------------------------------------------------- through the API
def friend_clocked(c: Any, clock: dict[str, Any]) -> tuple[str, dict[int, str]]:
    r = c.post("/api/games", json={"opponent": "friend", "rules": "rubicon",
                                   "format": "game", "name": "Ada", "clock": clock})
    assert r.status_code == 201, r.text
    made = r.json()
    j = c.post(f"/api/games/{made['id']}/join", json={"invite": made["invites"][0]["invite"],
                                                       "name": "Bob"})
    assert j.status_code == 201, j.text
    return made["id"], {0: made["token"], 1: j.json()["token"]}


def first_move(c: Any, gid: str, tokens: dict[int, str]) -> int:
    """Whoever is to act makes a move; the one to act next."""
    g = view(c, gid, tokens[0])
    p = g["to_act"]
    mine = view(c, gid, tokens[p])
    r = c.post(f"/api/games/{gid}/actions", json={"action": pick(mine, random.Random(1)),
               "n": mine["n"]}, headers=bearer(tokens[p]))
    assert r.status_code == 200, r.text
    nxt: int = r.json()["to_act"]
    return nxt


def think(engine: sa.Engine, gid: str, seconds: float, c: Any = None) -> None:
    """As if the player to act had been thinking ``seconds`` since the last entry (the
    server of the test client ``c`` is told its log's times changed)."""
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE piquet_actions SET created_at = created_at - :s "
                             "WHERE game_id = :g"), {"s": seconds, "g": gid})
    if c is not None:
        c.app.state.piquet.clocks.forget()


def test_clock_choices_are_checked(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for bad in ({"minutes": 0}, {"minutes": 5, "days": 1}, {}, {"days": 30},
                    {"minutes": 5, "seconds": 3}):
            r = c.post("/api/games", json={"opponent": "friend", "clock": bad})
            assert r.status_code in (400, 422), (bad, r.text)
        r = c.post("/api/games", json={"opponent": "random", "clock": {"minutes": 5}})
        assert r.status_code == 400 and "friend" in r.json()["error"]
        made = create(c, opponent="random")
        got = c.get(f"/api/games/{made['id']}/clock", headers=bearer(made["token"])).json()
        assert got == {"clock": None}


def test_a_game_lost_on_time_is_said_plainly_and_recorded(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = friend_clocked(c, {"minutes": 5, "increment": 3})
        clock = c.get(f"/api/games/{gid}/clock", headers=bearer(tok[0])).json()["clock"]
        assert clock["kind"] == "live" and clock["running"] is None
        assert clock["remaining"] == [300, 300] and "5 minutes each" in clock["words"]
        p = first_move(c, gid, tok)
        clock = c.get(f"/api/games/{gid}/clock", headers=bearer(tok[0])).json()["clock"]
        assert clock["running"] == p
        engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
        think(engine, gid, 301, c)
        # the late move is refused: the time was gone, the game is lost on time
        mine = view(c, gid, tok[p])
        r = c.post(f"/api/games/{gid}/actions", json={"action": pick(mine, random.Random(2)),
                   "n": mine["n"]}, headers=bearer(tok[p]))
        assert r.status_code == 409 and "clock ran out" in r.json()["error"]
        g = view(c, gid, tok[1 - p])
        assert g["finished"] and g["timed_out"] == p
        assert g["result"] == {"timeout": p, "winner": 1 - p}
        rec = c.get(f"/api/games/{gid}/record", params={"as": "json"}, headers=bearer(tok[0]))
        assert rec.json()["tags"] == {"LostOnTime": p}
        with engine.connect() as conn:
            texts = [r[0] for r in conn.execute(sa.text(
                "SELECT action FROM piquet_actions WHERE game_id = :g ORDER BY idx"),
                {"g": gid})]
        assert texts.count("timeout") == 1 and texts[-1] == "timeout"


def test_a_correspondence_clock_waits_days(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = friend_clocked(c, {"days": 2})
        p = first_move(c, gid, tok)
        engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
        think(engine, gid, 86400, c)  # a day: still in time
        clock = c.get(f"/api/games/{gid}/clock", headers=bearer(tok[0])).json()["clock"]
        assert clock["flagged"] is None and 86300 < clock["remaining"][p] <= 86400
        assert not view(c, gid, tok[0])["finished"]
        think(engine, gid, 86401, c)
        clock = c.get(f"/api/games/{gid}/clock", headers=bearer(tok[0])).json()["clock"]
        assert clock["flagged"] == p
        assert view(c, gid, tok[0])["result"] == {"timeout": p, "winner": 1 - p}


# ---------------------------------------------------------------------- a killed server
def _wait_finished(url: str, gid: str, token: str) -> dict[str, Any]:
    deadline = time.monotonic() + 300  # a ceiling only: the wait ends when it is decided
    while time.monotonic() < deadline:
        g = net.get(f"{url}/api/games/{gid}", headers=bearer(token), timeout=30).json()
        if g.get("finished"):
            out: dict[str, Any] = g
            return out
        time.sleep(0.2)
    raise AssertionError("the clock was never decided")


def _timeouts(database: str, gid: str) -> list[int]:
    engine = sa.create_engine(database)
    try:
        with engine.connect() as conn:
            return [r[0] for r in conn.execute(sa.text(
                "SELECT player FROM piquet_actions WHERE game_id = :g AND action = 'timeout'"),
                {"g": gid})]
    finally:
        engine.dispose()


def _kill_expire_restart(tmp_path: Path, database: str, servers: int) -> None:
    common = ["--database", database, "--rate-limit", "0"]
    first = Server(common, cwd=tmp_path).start()
    try:
        with httpx.Client(base_url=first.url, timeout=30) as c:
            gid, tok = friend_clocked(c, {"minutes": 5, "increment": 0})
            p = first_move(c, gid, tok)
    finally:
        first.kill()  # SIGKILL: the clock runs on with no server at all
    engine = sa.create_engine(database)
    try:
        think(engine, gid, 3600)  # the server was down for an hour
    finally:
        engine.dispose()
    back = [Server(common, cwd=tmp_path) for _ in range(servers)]
    try:
        for s in back:
            s.start()
        g = _wait_finished(back[-1].url, gid, tok[0])
        assert g["timed_out"] == p and g["result"] == {"timeout": p, "winner": 1 - p}
        # every process looked (each ticks once a second): still one timeout only
        for s in back:
            _wait_finished(s.url, gid, tok[1])
        assert _timeouts(database, gid) == [p]
        # the other player's move is refused: the game is over
        with httpx.Client(base_url=back[0].url, timeout=30) as c:
            mine = view(c, gid, tok[1 - p])  # type: ignore[arg-type]
            assert mine["finished"] and mine["legal_actions"] == []
    finally:
        for s in back:
            s.stop()
    again = Server(common, cwd=tmp_path).start()  # and once more: nothing changes
    try:
        _wait_finished(again.url, gid, tok[0])
        assert _timeouts(database, gid) == [p]
    finally:
        again.stop()


def test_a_clock_expiry_while_the_server_is_killed_is_decided_once(tmp_path: Path) -> None:
    # a copy of a migrated database: the first start's migration is not what is tested
    db = migrated_file(tmp_path / "games.sqlite3")
    _kill_expire_restart(tmp_path, f"sqlite:///{db}", servers=1)


def test_two_servers_back_after_a_kill_decide_the_expiry_once(
    tmp_path: Path, pg_url: str
) -> None:
    _kill_expire_restart(tmp_path, pg_url, servers=2)


@pytest.mark.parametrize("who", [0, 1])
def test_a_rated_game_lost_on_time_is_rated(tmp_path: Path, who: int) -> None:
    from piquet.analysis.ratings import NEW_PLAYER, rate_game
    from test_web_accounts import csrf, device, register

    with client(tmp_path) as c:
        ada, bob = c, device(c)
        register(ada, "Ada")
        register(bob, "Bob")
        made = ada.post("/api/games", json={"opponent": "friend", "rated": True, "rules":
                                            "rubicon", "format": "game",
                                            "clock": {"minutes": 1}}, headers=csrf(ada))
        assert made.status_code == 201, made.text
        gid, a_tok = made.json()["id"], made.json()["token"]
        j = bob.post(f"/api/games/{gid}/join", json={"invite": made.json()["invites"][0][
            "invite"]}, headers=csrf(bob))
        tok = {0: a_tok, 1: j.json()["token"]}
        clients: dict[int, TestClient] = {0: ada, 1: bob}
        # moves until the one to act is ``who``
        rng = random.Random(3)
        while True:
            g = view(ada, gid, tok[0])
            if g["to_act"] == who and g["n"] > 0:
                break
            q = g["to_act"]
            mine = view(clients[q], gid, tok[q])
            r = clients[q].post(f"/api/games/{gid}/actions", json={"action": pick(mine, rng),
                                "n": mine["n"]}, headers={**bearer(tok[q]), **csrf(clients[q])})
            assert r.status_code == 200, r.text
        engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
        think(engine, gid, 61, c)
        info = ada.get(f"/api/games/{gid}/clock", headers=bearer(tok[0])).json()
        assert info["clock"]["flagged"] == who
        rating = ada.get(f"/api/games/{gid}/rating", headers=bearer(tok[0])).json()
        won, lost = rate_game(NEW_PLAYER, NEW_PLAYER, first_score=1)
        expect = [round(lost.rating, 2), round(won.rating, 2)]
        assert rating["ratings"] == (expect if who == 0 else expect[::-1])
