"""PostgreSQL's connections killed under a serving process (``pg_terminate_backend`` on
its backends, again and again): while writes fail, a move answers 503 in words and health
answers 503; once writes succeed again health answers 200; no acknowledged move is lost
and the server's game agrees with the database.

The server's backends are told apart from everyone else's on the shared database by the
``application_name`` its URL gives them: only those are killed.  The kills go on until
both a failed move and a failed health check have been seen (a ceiling far beyond what a
loaded machine takes), not for a fixed time.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from test_web_kit import PG_URL, Server, bearer, friend_game, net, pick, poster

CEILING = 300.0
"""Seconds the kills may go on before the test gives up (it stops at the first moment
both failures were seen)."""


def _kill_loop(app: str, stop: threading.Event, kills: list[int]) -> None:
    import psycopg

    with psycopg.connect(PG_URL, autocommit=True) as conn:
        while not stop.is_set():
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s AND pid <> pg_backend_pid()", (app,)
            ).fetchall()
            kills.append(len(rows))
            time.sleep(0.002)


def _move(base: str, gid: str, tokens: dict[int, str], rng: random.Random) -> httpx.Response:
    """The seat to act makes a random legal move (sending ``n``): the move's answer, or
    the answer of a look at the game that failed before it (a 503 too, under kills)."""
    look = net.get(base + f"/api/games/{gid}", headers=bearer(tokens[0]))
    if look.status_code != 200:
        return look
    game = net.get(base + f"/api/games/{gid}", headers=bearer(tokens[look.json()["to_act"]]))
    if game.status_code != 200:
        return game
    return net.post(
        base + f"/api/games/{gid}/actions",
        json={"action": pick(game.json(), rng), "n": game.json()["n"]},
        headers=bearer(tokens[look.json()["to_act"]]),
    )


def _stored(url: str, gid: str) -> int:
    import psycopg

    base, _, query = url.partition("?")
    options = query.split("options=", 1)[1].split("&", 1)[0].replace("%3D", "=")
    with psycopg.connect(base, options=options) as conn:
        row = conn.execute(
            "SELECT count(*) FROM piquet_actions WHERE game_id = %s", (gid,)).fetchone()
        assert row is not None
        return int(row[0])


def test_killed_connections_make_health_503_until_writes_succeed(
    pg_url: str, tmp_path: Path
) -> None:
    app = "piquet-kill-" + secrets.token_hex(4)
    url = f"{pg_url}&application_name={app}"
    server = Server(["--database", url, "--rate-limit", "0"], cwd=tmp_path).start()
    base = server.url
    rng = random.Random(39)
    acknowledged = 0
    try:
        gid, tokens = friend_game(poster(base))
        assert _move(base, gid, tokens, rng).status_code == 200
        acknowledged += 1
        assert net.get(base + "/api/health").status_code == 200

        stop = threading.Event()
        kills: list[int] = []
        killer = threading.Thread(target=_kill_loop, args=(app, stop, kills), daemon=True)
        killer.start()
        failed_move: dict[str, Any] | None = None
        failed_health: dict[str, Any] | None = None
        deadline = time.monotonic() + CEILING
        try:
            while failed_move is None or failed_health is None:
                assert time.monotonic() < deadline, (
                    f"in {CEILING} s of kills ({sum(kills)} backends) no failure seen: "
                    f"move {failed_move}, health {failed_health}")
                try:
                    r = _move(base, gid, tokens, rng)
                except httpx.HTTPError:
                    continue
                assert r.status_code in (200, 503), r.text
                if r.status_code == 200:
                    acknowledged += 1
                elif r.request.method == "POST":
                    assert r.headers["retry-after"]
                    failed_move = r.json()
                h = net.get(base + "/api/health")
                assert h.status_code in (200, 503), h.text
                if h.status_code == 503:
                    assert h.headers["retry-after"]
                    failed_health = h.json()
                    assert failed_health["database"] == "failing"
        finally:
            stop.set()
            killer.join(CEILING)
        # the killer has stopped (a join that gave up after 10 s could leave it killing on
        # a loaded machine, and the write below fail)
        assert not killer.is_alive()
        assert sum(kills) > 0
        # said in words, without the database's host, port or the library's text
        for said in (failed_move["error"], failed_health["error"]):
            assert "127.0.0.1" not in said and "5432" not in said
            assert "psycopg" not in said.lower() and "sqlalchemy" not in said.lower()
        # the kills stopped: the next write succeeds, and health says so at once
        r = _move(base, gid, tokens, rng)
        assert r.status_code == 200, r.text
        acknowledged += 1
        h = net.get(base + "/api/health")
        assert h.status_code == 200, h.text
        # nothing acknowledged is lost; the server's game is the database's
        stored = _stored(pg_url, gid)
        assert stored >= acknowledged
        n = net.get(base + f"/api/games/{gid}", headers=bearer(tokens[0])).json()["n"]
        assert n == stored
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()
