"""Issue 18, point 1: every action is applied once.

An action request carries ``n``, the log length of the view it was chosen from.  A copy
of an action already recorded (a retry after a lost answer, a double click, a request sent
twice) is answered 200 with the game as it stands and changes nothing; an action chosen
from a view the game has left behind is refused with 409 and the game as it stands.  The
optimistic append on the log length makes this hold across parallel requests and across
processes sharing PostgreSQL; a SIGKILLed server, restarted, tells a client whether its
last action landed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from serverkit import migrated_data
from test_web_kit import (
    Server,
    ThreadServer,
    at_once,
    bearer,
    client,
    friend_game,
    net,
    pick,
    poster,
    view,
)


def test_the_same_action_sent_twice_with_n_is_applied_once(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tokens = friend_game(c.post)
        rng = random.Random(18)
        for _ in range(30):
            seat = view(c, gid, tokens[0])["to_act"]
            game = view(c, gid, tokens[seat])
            action = pick(game, rng)
            answers = [
                c.post(
                    f"/api/games/{gid}/actions",
                    json={"action": action, "n": game["n"]},
                    headers=bearer(tokens[seat]),
                )
                for _ in range(3)
            ]
            assert [a.status_code for a in answers] == [200, 200, 200], answers[-1].text
            assert [a.json()["n"] for a in answers] == [game["n"] + 1] * 3
            assert view(c, gid, tokens[0])["n"] == game["n"] + 1
        store = c.app.state.piquet.store  # type: ignore[attr-defined]
        assert [a.idx for a in store.actions(gid)] == list(range(30))


def test_an_action_on_a_view_left_behind_is_409_with_the_game(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tokens = friend_game(c.post)
        rng = random.Random(3)
        seat = view(c, gid, tokens[0])["to_act"]
        first = view(c, gid, tokens[seat])
        r = c.post(
            f"/api/games/{gid}/actions",
            json={"action": pick(first, rng), "n": first["n"]},
            headers=bearer(tokens[seat]),
        )
        assert r.status_code == 200
        now = r.json()
        # another action said to be based on the old view: refused, the game as it stands
        for seat_, n in ((now["to_act"], first["n"]), (now["to_act"], now["n"] + 5)):
            mine = view(c, gid, tokens[seat_])
            r = c.post(
                f"/api/games/{gid}/actions",
                json={"action": pick(mine, rng), "n": n},
                headers=bearer(tokens[seat_]),
            )
            assert r.status_code == 409, r.text
            body = r.json()
            assert "as it stands" in body["error"]
            assert body["game"] == view(c, gid, tokens[seat_])
            assert body["game"]["n"] == now["n"]
        # the same action by the other seat is not "the same action"
        other = 1 - seat
        r = c.post(
            f"/api/games/{gid}/actions",
            json={"action": "pass", "n": first["n"]},
            headers=bearer(tokens[other]),
        )
        assert r.status_code == 409 and r.json()["game"]["seat"] == other
        # n must be a whole number
        for bad in ("3", -1, 1.5, True):
            r = c.post(
                f"/api/games/{gid}/actions",
                json={"action": "pass", "n": bad},
                headers=bearer(tokens[now["to_act"]]),
            )
            assert r.status_code == 422, (bad, r.text)
        assert view(c, gid, tokens[0])["n"] == now["n"]


def test_twenty_parallel_copies_apply_exactly_one(tmp_path: Path) -> None:
    with ThreadServer(tmp_path) as srv, httpx.Client(base_url=srv.url, timeout=30) as http:
        gid, tokens = friend_game(http.post)
        rng = random.Random(20)
        for _ in range(8):
            seat = http.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json()["to_act"]
            game = http.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
            body = {"action": pick(game, rng), "n": game["n"]}
            answers = at_once(
                20,
                lambda _i, body=body, seat=seat: net.post(
                    srv.url + f"/api/games/{gid}/actions", json=body, headers=bearer(tokens[seat])
                ),
            )
            assert {a.status_code for a in answers} == {200}, [a.text for a in answers][:2]
            assert {a.json()["n"] for a in answers} == {game["n"] + 1}
        store = srv.app.state.piquet.store
        assert [a.idx for a in store.actions(gid)] == list(range(8))


def test_a_copy_on_the_websocket_is_answered_with_the_view_and_applied_once(
    tmp_path: Path,
) -> None:
    with ThreadServer(tmp_path) as srv, httpx.Client(base_url=srv.url, timeout=30) as http:
        gid, tokens = friend_game(http.post)
        seat = http.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json()["to_act"]
        with connect(srv.url.replace("http", "ws") + f"/api/games/{gid}/ws") as ws:
            ws.send(json.dumps({"token": tokens[seat]}))
            game = json.loads(ws.recv(timeout=120))["view"]
            action = pick(game, random.Random(1))
            ws.send(json.dumps({"action": action, "n": game["n"]}))
            after = json.loads(ws.recv(timeout=120))
            assert after["type"] == "view" and after["view"]["n"] == game["n"] + 1
            # the answer is sent once (by the session, or by its pump on the news: not both)
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=120)) == {"type": "pong"}
            ws.send(json.dumps({"action": action, "n": game["n"]}))  # the copy
            again = json.loads(ws.recv(timeout=120))
            assert again == after
            ws.send(json.dumps({"action": "pass", "n": game["n"] + 7}))
            refused = json.loads(ws.recv(timeout=120))
            assert refused["type"] == "error" and refused["status"] == 409
            assert refused["game"]["n"] == game["n"] + 1
            # a refusal says which action it answers
            assert refused["answers"] == {"action": "pass", "n": game["n"] + 7}
            ws.send(json.dumps({"action": "pass", "n": "1"}))
            bad = json.loads(ws.recv(timeout=120))
            assert bad["status"] == 400 and bad["answers"] == {"action": "pass", "n": "1"}
        store = srv.app.state.piquet.store
        assert len(store.actions(gid)) == 1


def test_copies_through_two_processes_on_postgresql_apply_exactly_one(pg_servers: Any) -> None:
    with pg_servers("--ai-workers", "1") as servers:
        gid, tokens = friend_game(poster(servers[0].url))
        rng = random.Random(5)
        for _ in range(6):
            base = servers[0].url + f"/api/games/{gid}"
            seat = net.get(base, headers=bearer(tokens[0])).json()["to_act"]
            game = net.get(base, headers=bearer(tokens[seat])).json()
            body = {"action": pick(game, rng), "n": game["n"]}
            answers = at_once(
                20,
                lambda i: net.post(
                    servers[i % 2].url + f"/api/games/{gid}/actions",
                    json=body,  # noqa: B023
                    headers=bearer(tokens[seat]),  # noqa: B023
                    timeout=30,
                ),
            )
            assert {a.status_code for a in answers} == {200}, [a.text for a in answers][:2]
            assert {a.json()["n"] for a in answers} == {game["n"] + 1}
        for s in servers:
            assert (
                net.get(s.url + f"/api/games/{gid}", headers=bearer(tokens[0])).json()["n"]
                == 6
            )


def test_after_a_sigkill_a_retry_tells_whether_the_action_landed(tmp_path: Path) -> None:
    """The answer to the last action is lost with the server; once it is back, sending the
    action again with its ``n`` answers 200 without applying it twice."""
    data = migrated_data(tmp_path / "data")
    args = ["--data", str(data), "--rate-limit", "0", "--ai-workers", "1"]
    server = Server(args, cwd=tmp_path).start()
    try:
        gid, tokens = friend_game(poster(server.url))
        base = server.url + f"/api/games/{gid}"
        rng = random.Random(12)
        sent = []
        for _ in range(5):
            seat = net.get(base, headers=bearer(tokens[0])).json()["to_act"]
            game = net.get(base, headers=bearer(tokens[seat])).json()
            body = {"action": pick(game, rng), "n": game["n"]}
            r = net.post(base + "/actions", json=body, headers=bearer(tokens[seat]))
            assert r.status_code == 200
            sent.append((seat, body))
        server.kill()
    finally:
        server.stop()
    server = Server(args, cwd=tmp_path).start()
    try:
        base = server.url + f"/api/games/{gid}"
        for seat, body in sent[-2:]:  # the client does not know: it sends them again
            r = net.post(base + "/actions", json=body, headers=bearer(tokens[seat]))
            assert r.status_code in (200, 409), r.text
            assert (r.json().get("game") or r.json())["n"] == 5
        seat, body = sent[-1]
        r = net.post(base + "/actions", json=body, headers=bearer(tokens[seat]))
        assert r.status_code == 200 and r.json()["n"] == 5
    finally:
        server.stop()


def test_the_same_seat_remembered_or_offered_twice_at_once_on_postgresql(
    pg_servers: Any, pg_url: str
) -> None:
    """Two requests at the same moment to remember a seat in "Your games", or to offer it
    in the lobby (two tabs, a double click): on PostgreSQL both deleted nothing and the
    second insert broke the unique key, answered 503 "the server cannot use its database".
    Each now answers as the first did, and one row stands."""
    import sqlalchemy as sa

    with pg_servers("--ai-workers", "1") as servers:  # no computer plays here
        for round_ in range(4):
            made = net.post(servers[0].url + "/api/games", json={"opponent": "friend"}).json()
            # the browser's identity cookie, sent as a browser sends it (the shared
            # client keeps none of its own)
            cookie = {"Cookie": f"piquet_id=identity-of-round-{round_}-" + "x" * 32}
            answers = at_once(
                8,
                lambda i: net.post(
                    servers[i % 2].url + "/api/me/games",
                    json={"id": made["id"], "token": made["token"]},  # noqa: B023
                    headers=cookie,  # noqa: B023
                    timeout=30,
                ),
            )
            assert {a.status_code for a in answers} == {200}, [a.text for a in answers][:2]
            posted = at_once(
                8,
                lambda i: net.post(
                    servers[i % 2].url + "/api/lobby",
                    json={"game": made["id"], "invite": made["invites"][0]["invite"]},  # noqa: B023
                    headers=bearer(made["token"]),  # noqa: B023
                    timeout=30,
                ),
            )
            assert {a.status_code for a in posted} == {201}, [a.text for a in posted][:2]
            ids = {a.json()["id"] for a in posted}
            listed = net.get(servers[1].url + "/api/lobby").json()["challenges"]
            assert len(listed) == round_ + 1 and len(ids & {c["id"] for c in listed}) == 1
        engine = sa.create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.connect() as conn:
            rows = conn.execute(sa.text("select count(*) from piquet_player_games")).scalar()
        engine.dispose()
        assert rows == 4
