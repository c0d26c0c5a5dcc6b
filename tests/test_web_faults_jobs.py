"""Faults of the computer's workers (piquet.jobs) under the server: a killed worker, the
analyses of three clients while a fourth plays, quotas; and a web process that never
loads the compiled AI code.

Every wait is for a condition (with a generous ceiling for a loaded machine), never for a
time.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from piquet.table.ai import ai_seed
from piquet.web.app import create_app
from piquet.web.games import Games
from serverkit import migrated_data
from test_web_kit import Server, bearer, config, create, net, pick, view

CEILING = 300.0


def until(cond: Any, what: str, timeout: float = CEILING) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


@contextlib.contextmanager
def served(tmp_path: Path, **changes: Any) -> Iterator[TestClient]:
    app = create_app(config(tmp_path / "games.sqlite3", **changes))
    with TestClient(app, client=("10.0.0.9", 5000)) as c:
        yield c


def ai_moves_are(c: TestClient, gid: str, level: str) -> int:
    """Check that every move of the computer in ``gid`` so far is ``level``'s own (the
    same seed formula: none was chosen by another level); how many there were."""
    from piquet.players import make_player

    games: Games = c.app.state.piquet.games  # type: ignore[attr-defined]
    entry = games.cached(gid)
    assert entry is not None
    row, m = entry.row, entry.live.match
    ai = {s.seat for s in row.seats if s.kind == "ai"}
    replay = Games._new_match(row.rules, row.format, row.seed, row.games_to_play,
                              len(row.seats))
    checked = 0
    for idx, (player, action) in enumerate(m.history):
        if player in ai:
            chose = make_player(level, seed=ai_seed(row.seed, player, idx)).choose(
                replay.view(player))
            assert str(chose) == str(action), (idx, chose, action)
            checked += 1
        replay = replay.apply(action, player)
    return checked


def my_turn(c: Any, gid: str, token: str) -> dict[str, Any]:
    """The seat's view once it is to act (or the game is over); the computer meanwhile."""
    def ready() -> dict[str, Any] | None:
        g = view(c, gid, token, wait=5)
        assert g.get("computer_problem") is None, g["computer_problem"]
        return g if g["your_turn"] or g["finished"] else None

    got: dict[str, Any] = until(ready, "the computer answered")
    return got


def move(c: Any, gid: str, token: str, rng: random.Random) -> dict[str, Any]:
    g = my_turn(c, gid, token)
    r = c.post(f"/api/games/{gid}/actions", json={"action": pick(g, rng), "n": g["n"]},
               headers=bearer(token))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def play_until_the_computer_moves(c: Any, gid: str, token: str, rng: random.Random,
                                  level: str, than: int) -> int:
    """Moves of the person until the computer has made more than ``than`` moves (or the
    game is over: a person may act several times in a row); how many it has made."""
    while True:
        g = my_turn(c, gid, token)
        made = ai_moves_are(c, gid, level)
        if made > than or g["finished"]:
            return made
        move(c, gid, token, rng)


def test_a_killed_worker_the_next_move_and_hint_come_from_the_same_level(
    tmp_path: Path,
) -> None:
    rng = random.Random(5)
    with served(tmp_path, ai_executor="process", ai_workers=1) as c:
        jobs = c.app.state.piquet.jobs  # type: ignore[attr-defined]
        made = create(c, opponent="book", hints=True)
        gid, token = made["id"], made["token"]
        for _ in range(3):
            move(c, gid, token, rng)
        my_turn(c, gid, token)
        before = ai_moves_are(c, gid, "book")
        # the worker is killed while nobody waits on it ...
        os.kill(jobs.pids()[0], signal.SIGKILL)
        until(lambda: jobs.health()["replaced"] == 1, "the worker replaced")
        # ... the next hint comes from the advisor, the next move from the book
        r = c.get(f"/api/games/{gid}/hint", headers=bearer(token))
        assert r.status_code == 200 and r.json()["hint"], r.text
        after = play_until_the_computer_moves(c, gid, token, rng, "book", before)
        # killed at once after a move (under the computer's job, or just after it): the
        # game goes on with the book
        killed = jobs.health()["replaced"]
        pid = jobs.pids()[0]
        r = c.get("/api/health").json()
        assert r["workers"]["alive"] == 1 and r["workers"]["status"] == "ok"
        move(c, gid, token, rng)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        my_turn(c, gid, token)
        until(lambda: jobs.health()["replaced"] == killed + 1, "the worker replaced again")
        play_until_the_computer_moves(c, gid, token, rng, "book", after)


def test_a_level_that_cannot_play_is_said_and_never_replaced_by_random(
    tmp_path: Path,
) -> None:
    """Every worker dies at once under the move (twice): the players are told, in their
    view, that the computer cannot play; no move is made for it."""
    with served(tmp_path, ai_executor="process", ai_workers=1) as c:
        jobs = c.app.state.piquet.jobs  # type: ignore[attr-defined]
        made = create(c, opponent="expert")
        gid, token = made["id"], made["token"]
        until(lambda: jobs.health()["alive"] == 1, "the worker started")
        killing = True

        def killer() -> None:
            while killing:
                for p in jobs.pids():
                    if jobs.health()["running"]["move"]:
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(p, signal.SIGKILL)
                time.sleep(0.001)

        import threading

        t = threading.Thread(target=killer, daemon=True)
        t.start()
        try:
            def stuck() -> dict[str, Any] | None:
                g = view(c, gid, token, wait=5)
                if g["your_turn"]:  # the expert is dealer here: play till it must act
                    r = c.post(f"/api/games/{gid}/actions",
                               json={"action": pick(g, random.Random(1)), "n": g["n"]},
                               headers=bearer(token))
                    assert r.status_code == 200, r.text
                    return None
                return g if g.get("computer_problem") else None

            g = until(stuck, "the players told the computer cannot play")
        finally:
            killing = False
            t.join()
        assert g["computer_problem"] == (
            "The computer (expert) cannot play just now: the computer's move could not be "
            "computed (the worker computing it stopped twice).  It tries again when you "
            "reload the game.")
        n = g["n"]
        assert view(c, gid, token)["n"] == n  # nothing played in its place
        # the workers work again: asked again (after its pause), the expert moves
        games = c.app.state.piquet.games  # type: ignore[attr-defined]
        c.app.state.piquet.ai._failed.clear()  # (the pause between tries, skipped)
        until(lambda: view(c, gid, token, wait=5)["n"] > n, "the expert moved")
        g = view(c, gid, token)
        assert g["computer_problem"] is None and gid not in games.problems
        assert ai_moves_are(c, gid, "expert") >= 1


def finished_deals(c: Any, rules: str, deals: int, seed: int) -> tuple[str, str]:
    """A game of this client's against ``random`` with ``deals`` deals over, then
    resigned (its analysis is then due): (id, token)."""
    rng = random.Random(seed)
    made = create(c, rules=rules, opponent="random")
    gid, token = made["id"], made["token"]
    while True:
        g = view(c, gid, token, wait=5)
        if len(g["view"]["deals"]) >= deals or g["finished"]:
            break
        if g["your_turn"]:
            r = c.post(f"/api/games/{gid}/actions",
                       json={"action": pick(g, rng), "n": g["n"]}, headers=bearer(token))
            assert r.status_code == 200, r.text
    if not g["finished"]:
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(token)).status_code == 200
    return gid, token


def test_three_clients_analyses_do_not_hold_up_a_fourths_computer(tmp_path: Path) -> None:
    """Three clients (three addresses) have their games analysed, one game a client at
    most (a second game's is refused in words); meanwhile a fourth plays the book, and
    each of its moves is answered while the analyses are still being made, with a worker
    kept free of them."""
    server = Server(["--data", str(migrated_data(tmp_path / "data")), "--ai-workers", "2",
                     "--quota-analyses", "1", "--rate-limit", "0",
                     # the quota is on the analyses asked for (those made as the deals
                     # end are the server's own)
                     "--analysis-on-request"], cwd=tmp_path).start()

    def at(i: int) -> httpx.Client:
        return httpx.Client(base_url=server.url, timeout=120,
                            transport=httpx.HTTPTransport(local_address=f"127.0.0.{i}"))

    def workers() -> dict[str, Any]:
        w: dict[str, Any] = net.get(server.url + "/api/health").json()["workers"]
        return w

    try:
        clients = [at(i) for i in (2, 3, 4)]
        games = [finished_deals(k, "rubicon", 2, seed) for seed, k in enumerate(clients)]
        for k, (gid, token) in zip(clients, games, strict=True):
            r = k.get(f"/api/games/{gid}/analysis", headers=bearer(token))
            assert r.status_code == 200 and r.json()["pending"] >= 2, r.text
        # a second game of the first client's is refused while its first is analysed
        gid4, token4 = finished_deals(clients[0], "rubicon", 1, 9)
        r = clients[0].get(f"/api/games/{gid4}/analysis", headers=bearer(token4))
        assert r.status_code == 429 and r.headers["retry-after"] == "10"
        assert r.json()["error"] == (
            "you already have 1 games being analysed (at most 1 at once): ask for this one "
            "again when one of them is ready")
        # the fourth plays the book: every answer comes with analyses still being made
        player = at(5)
        made = create(player, opponent="book")
        rng = random.Random(3)
        for _ in range(4):
            move(player, made["id"], made["token"], rng)
            w = workers()
            assert w["running"]["analysis"] <= 1  # one worker is kept for the others
            assert w["running"]["analysis"] + w["waiting"]["analysis"] >= 1
        my_turn(player, made["id"], made["token"])
        still = sum(k.get(f"/api/games/{gid}/analysis", headers=bearer(t)).json()["pending"]
                    for k, (gid, t) in zip(clients, games, strict=True))
        assert still >= 1
    finally:
        server.stop()


def _maps(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text()


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_the_web_process_loads_no_compiled_ai_code(tmp_path: Path) -> None:
    """The web process idles under 80 MB, on its first start too (the migrations run in
    a process of their own); over a game against the book with hints and a coach's note
    (the moves, the hints and the note from the workers) it never maps the compiled core
    or numpy."""
    # as a real server starts: warm workers, the start-up collected and frozen
    server = Server(["--data", str(tmp_path / "data"), "--ai-workers", "1"],
                    cwd=tmp_path, start_up="as served").start()
    try:
        assert server.proc is not None
        assert _rss_mb(server.proc.pid) <= 80, _rss_mb(server.proc.pid)
        base = server.url
        made = net.post(base + "/api/games",
                        json={"opponent": "book", "hints": True}).json()
        gid, token = made["id"], made["token"]
        rng = random.Random(2)
        for _ in range(3):
            g = net.get(base + f"/api/games/{gid}", params={"wait": 10},
                        headers=bearer(token), timeout=20).json()
            if not g["your_turn"]:
                continue
            hint = net.get(base + f"/api/games/{gid}/hint", headers=bearer(token),
                           timeout=120)
            assert hint.status_code == 200 and hint.json()["hint"], hint.text
            net.post(base + f"/api/games/{gid}/actions",
                     json={"action": pick(g, rng), "n": g["n"]}, headers=bearer(token))
        guided = net.post(base + "/api/learn/guided", json={"rules": "rubicon"}).json()
        note = net.get(base + f"/api/games/{guided['id']}/coach",
                       headers=bearer(guided["token"]), timeout=120)
        assert note.status_code == 200, note.text
        maps = _maps(server.proc.pid)
        assert "_native" not in maps and "numpy" not in maps
    finally:
        server.stop()
