"""Kill the server (SIGKILL) in the middle of a game, restart it on the same data, and
finish the game with nothing lost that was acknowledged."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import httpx

from piquet.core.match import Match
from serverkit import migrated_data
from test_web_kit import Server, net, pick

#: how long the computer may take to move before the test says it never will (a loaded
#: machine is slow; the wait ends as soon as the move is made)
PATIENCE_S = 300.0


def _play(http: httpx.Client, gid: str, rng: random.Random, moves: int) -> list[str]:
    """Make ``moves`` of seat 0's moves (waiting for the computer); the ids acknowledged."""
    done: list[str] = []
    waited_since = time.monotonic()
    while len(done) < moves:
        game = http.get(f"/api/games/{gid}", params={"wait": 10}).json()
        if game["finished"]:
            break
        if not game["your_turn"]:
            # the computer has not moved yet (a restarted server's worker is still
            # starting on a loaded machine): wait on, for the move, with a long ceiling
            assert time.monotonic() - waited_since < PATIENCE_S, game
            continue
        waited_since = time.monotonic()
        action = pick(game, rng)
        r = http.post(f"/api/games/{gid}/actions", json={"action": action})
        assert r.status_code == 200, r.text  # acknowledged
        done.append(action)
    return done


def _log(data: Path) -> list[tuple[int, int, str]]:
    with sqlite3.connect(data / "piquet.sqlite3") as db:
        return list(db.execute("SELECT idx, player, action FROM piquet_actions ORDER BY idx"))


def test_sigkill_mid_game_loses_nothing_acknowledged(tmp_path: Path) -> None:
    data = migrated_data(tmp_path / "data")  # (a first start's migration: not what is tested)
    args = ["--data", str(data), "--rate-limit", "0", "--ai-workers", "1"]
    server = Server(args, cwd=tmp_path).start()
    rng = random.Random(4)
    try:
        made = net.post(server.url + "/api/games", json={"opponent": "random"}).json()
        gid = made["id"]
        auth = {"Authorization": f"Bearer {made['token']}"}
        with httpx.Client(base_url=server.url, headers=auth, timeout=20) as http:
            mine = _play(http, gid, rng, 25)
            before = http.get(f"/api/games/{gid}").json()
        assert not before["finished"] and len(mine) == 25
        server.kill()  # no shutdown, no flush
    finally:
        server.stop()
    log = _log(data)
    assert len(log) >= before["n"]
    ours = [a for _i, p, a in log if p == 0]
    assert [str(a) for a in ours[: len(mine)]] == [str(a) for a in _canonical(mine)]

    server = Server(args, cwd=tmp_path).start()
    try:
        with httpx.Client(base_url=server.url, headers=auth, timeout=20) as http:
            again = http.get(f"/api/games/{gid}").json()
            assert again["n"] >= before["n"]
            if again["n"] == before["n"]:
                assert again["view"] == before["view"]
            _play(http, gid, rng, 10_000)
            end = http.get(f"/api/games/{gid}").json()
            assert end["finished"]
            record = http.get(f"/api/games/{gid}/record").json()
        replayed = Match.from_record(record)
        assert replayed.result() == end["result"]
        assert [a for _p, a in record["actions"]][: before["n"]] == [a for _i, _p, a in log][
            : before["n"]
        ]
    finally:
        server.stop()


def _canonical(ids: list[str]) -> list[str]:
    from piquet.core.actions import parse_action

    return [str(parse_action(i)) for i in ids]
