"""The lobby, the spectator link and the analysis through the HTTP API and the WebSocket.

(What they may show is checked step by step in test_web_leaks.py; here: who may do what,
the errors, races, and that the analysis is stored with the game.)
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from test_web_kit import (
    bearer,
    client,
    create,
    friend_game,
    least_analysis,
    offer,
    pick,
    view,
    walk,
)


def post(c: Any, made: dict[str, Any]) -> Any:
    return c.post("/api/lobby", json={"game": made["id"], "invite": made["invites"][0]["invite"]},
                  headers=bearer(made["token"]))


# ---------------------------------------------------------------------- the lobby
def test_a_posted_challenge_is_listed_and_taken_once(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = offer(c.post, name="Ada", rules="rubicon")
        r = post(c, made)
        assert r.status_code == 201, r.text
        cid = r.json()["id"]
        listed = c.get("/api/lobby").json()["challenges"]
        assert [(x["id"], x["name"], x["rules"], x["format"]) for x in listed] == [
            (cid, "Ada", "rubicon", "partie")
        ]
        assert "invite" not in listed[0] and made["invites"][0]["invite"] not in str(listed)
        first = c.post(f"/api/lobby/{cid}/accept", json={"name": "Bob"})
        assert first.status_code == 201, first.text
        assert first.json()["id"] == made["id"] and first.json()["seat"] == 1
        again = c.post(f"/api/lobby/{cid}/accept", json={"name": "Eve"})
        assert again.status_code == 404
        assert again.json() == {"error": "this challenge is no longer open: it was taken or "
                                "withdrawn"}
        assert c.get("/api/lobby").json()["challenges"] == []
        # the seat is Bob's: his token opens it, with his name
        g = c.get(f"/api/games/{made['id']}", headers=bearer(first.json()["token"])).json()
        assert g["seat"] == 1 and g["seats"][1]["name"] == "Bob" and g["seats"][1]["joined"]
        # and the invitation link no longer opens it
        r = c.post(f"/api/games/{made['id']}/join",
                   json={"invite": made["invites"][0]["invite"]})
        assert r.status_code == 404


def test_the_link_and_the_challenge_open_the_same_seat(tmp_path: Path) -> None:
    """Whichever comes first takes the seat; the challenge then leaves the lobby."""
    with client(tmp_path) as c:
        made = offer(c.post, name="Ada")
        cid = post(c, made).json()["id"]
        r = c.post(f"/api/games/{made['id']}/join", json={"invite": made["invites"][0]["invite"]})
        assert r.status_code == 201
        assert c.get("/api/lobby").json()["challenges"] == []
        assert c.post(f"/api/lobby/{cid}/accept", json={}).status_code == 404


def test_a_new_link_retires_the_challenge(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = offer(c.post, name="Ada")
        post(c, made)
        r = c.post(f"/api/games/{made['id']}/invite", headers=bearer(made["token"]))
        assert r.status_code == 200
        assert c.get("/api/lobby").json()["challenges"] == []


def test_a_new_link_can_be_offered_in_the_lobby(tmp_path: Path) -> None:
    """Issue 38: "Offer in the lobby" after "Make a new link" always failed: the offer was
    checked against the invitation held in memory from before the new link."""
    with client(tmp_path) as c:
        made = offer(c.post, name="Ada")
        r = c.post(f"/api/games/{made['id']}/invite", headers=bearer(made["token"]))
        assert r.status_code == 200, r.text
        fresh = r.json()["invites"][0]["invite"]
        r = c.post("/api/lobby", json={"game": made["id"], "invite": fresh},
                   headers=bearer(made["token"]))
        assert r.status_code == 201, r.text
        # the replaced link offers nothing
        old = post(c, made)
        assert old.status_code == 404
        listed = c.get("/api/lobby").json()["challenges"]
        assert [x["id"] for x in listed] == [r.json()["id"]]
        taken = c.post(f"/api/lobby/{r.json()['id']}/accept", json={"name": "Bob"})
        assert taken.status_code == 201 and taken.json()["seat"] == 1


def test_posting_needs_a_seat_and_the_games_own_invitation(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = offer(c.post, name="Ada")
        other = offer(c.post, name="Ada")
        body = {"game": made["id"], "invite": made["invites"][0]["invite"]}
        assert c.post("/api/lobby", json=body).status_code == 401
        r = c.post("/api/lobby", json=body, headers=bearer(other["token"]))
        assert r.status_code == 404
        r = c.post("/api/lobby", json={**body, "invite": other["invites"][0]["invite"]},
                   headers=bearer(made["token"]))
        assert r.status_code == 404 and "make a new link" in r.json()["error"]
        r = c.post("/api/lobby", json={"game": "../x", "invite": "y"},
                   headers=bearer(made["token"]))
        assert r.status_code == 422 and r.json()["error"].startswith("bad request: game")
        vs_ai = create(c, opponent="random")
        r = c.post("/api/lobby", json={"game": vs_ai["id"], "invite": "nothing"},
                   headers=bearer(vs_ai["token"]))
        assert r.status_code == 404
        assert c.get("/api/lobby").json()["challenges"] == []  # nothing changed


def test_posting_again_replaces_and_withdrawing_needs_a_seat(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = offer(c.post, name="Ada")
        first = post(c, made).json()["id"]
        second = post(c, made).json()["id"]
        assert [x["id"] for x in c.get("/api/lobby").json()["challenges"]] == [second]
        assert c.post(f"/api/lobby/{first}/accept", json={}).status_code == 404
        stranger = offer(c.post, name="Ada")
        assert c.delete(f"/api/lobby/{second}", headers=bearer(stranger["token"])).status_code \
            == 404
        assert c.delete(f"/api/lobby/{second}").status_code == 401
        r = c.delete(f"/api/lobby/{second}", headers=bearer(made["token"]))
        assert r.status_code == 200 and r.json() == {"withdrawn": second}
        assert c.get("/api/lobby").json()["challenges"] == []
        # withdrawn from the lobby, the link still works
        r = c.post(f"/api/games/{made['id']}/join", json={"invite": made["invites"][0]["invite"]})
        assert r.status_code == 201


def test_a_pool_cannot_be_offered(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, rules="court-gamester-1754", format="pool",
                      opponents=["friend", "friend"])
        r = post(c, made)
        assert r.status_code == 400 and r.json()["error"] == (
            "only a game of two may be offered in the lobby"
        )


def test_posting_challenges_is_rate_limited(tmp_path: Path) -> None:
    with client(tmp_path, create_per_minute=3.0) as c:
        made = offer(c.post, name="Ada")
        codes = [post(c, made).status_code for _ in range(4)]
        assert codes[0] == 201 and codes[-1] == 429


# ---------------------------------------------------------------------- spectators
def test_the_spectator_link_is_made_by_a_seat_and_kept(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, opponent="random")
        gid = made["id"]
        assert c.post(f"/api/games/{gid}/watch-link").status_code == 401
        other = create(c, opponent="random")
        r = c.post(f"/api/games/{gid}/watch-link", headers=bearer(other["token"]))
        assert r.status_code == 404
        one = c.post(f"/api/games/{gid}/watch-link", headers=bearer(made["token"])).json()
        two = c.post(f"/api/games/{gid}/watch-link", headers=bearer(made["token"])).json()
        assert one == two and one["url"] == f"/watch/{gid}#key={one['key']}"
        r = c.get(f"/api/games/{gid}/watch")
        assert r.status_code == 401 and "Bearer KEY" in r.json()["error"]
        assert c.get(f"/api/games/{gid}/watch", headers=bearer("nope")).status_code == 404
        # another game's key opens nothing here
        k2 = c.post(f"/api/games/{other['id']}/watch-link", headers=bearer(other["token"]))
        r = c.get(f"/api/games/{gid}/watch", headers=bearer(k2.json()["key"]))
        assert r.status_code == 404
        assert c.get(f"/watch/{gid}").status_code == 200  # the page


def test_spectator_socket_refuses_a_bad_key_and_actions(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = offer(c.post, name="Ada")  # nobody moves but the people
        gid = made["id"]
        key = c.post(f"/api/games/{gid}/watch-link", headers=bearer(made["token"])).json()["key"]
        with c.websocket_connect(f"/api/games/{gid}/watch/ws") as ws:
            ws.send_json({"key": "wrong"})
            assert ws.receive_json()["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404
        with c.websocket_connect(f"/api/games/{gid}/watch/ws") as ws:
            ws.send_json({"token": made["token"]})  # a seat's token is not a key
            assert ws.receive_json()["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
        with c.websocket_connect(f"/api/games/{gid}/watch/ws") as ws:
            ws.send_json({"key": key})
            first = ws.receive_json()
            assert first["type"] == "view" and first["view"]["spectator"] is True
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"action": "pass"})
            err = ws.receive_json()
            assert err["type"] == "error" and "only watches" in err["error"]
            ws.send_json({"type": "refresh"})
            assert ws.receive_json()["type"] == "view"
            # JSON nested too deep is no command: answered, the socket kept (it closed
            # with 1011 and a RecursionError in the server's log)
            ws.send_text("[" * 3000)
            err = ws.receive_json()
            assert err["type"] == "error" and "only watches" in err["error"]
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        with c.websocket_connect(f"/api/games/{gid}/watch/ws") as ws:
            ws.send_text("[" * 3000)  # as the first message: refused as no key
            assert ws.receive_json()["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4401
        assert c.get(f"/api/games/{gid}", headers=bearer(made["token"])).json()["n"] == 0


# ---------------------------------------------------------------------- the analysis
def wait_ready(c: Any, gid: str, token: str, timeout: float = 600) -> dict[str, Any]:
    """The analysis once nothing is pending (a generous ceiling: a loaded machine is slow)."""
    deadline = time.monotonic() + timeout
    while True:
        r = c.get(f"/api/games/{gid}/analysis", headers=bearer(token))
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if not body["pending"]:
            return body
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.2)


def check_game_curve(body: dict[str, Any], game: dict[str, Any]) -> None:
    """The answer's curve over the game's deals against the deals' scores (the game's view)
    and each deal's own curve: one point to start, each analysed deal's curve turned to
    player 0's side and shifted by the points before it, each deal ending on the score."""
    g = body["game_curve"]
    settled = game["view"]["deals"]
    assert [d["number"] for d in g["deals"]] == list(range(1, body["deals_over"] + 1))
    assert len(settled) == body["deals_over"]
    pts = g["points"]
    assert pts[0]["margin"] == 0
    totals = [0, 0]
    for d, s, one in zip(g["deals"], settled, body["deals"], strict=True):
        before = totals[0] - totals[1]
        totals[s["elder"]] += s["points"][0]
        totals[s["younger"]] += s["points"][1]
        assert (d["before"], d["after"], d["totals"]) == (before, totals[0] - totals[1],
                                                           totals)
        assert pts[d["last"]]["margin"] == d["after"]
        a = one["analysis"]
        curve = (a or {}).get("curve") or []
        assert d["curve"] == bool(curve)
        if curve:
            sign = 1 if a["players"]["elder"] == 0 else -1
            assert [p["margin"] for p in pts[d["first"]:d["last"] + 1]] == [
                before + sign * q["margin"] for q in curve]
        else:
            assert d["first"] == d["last"]
    assert g["totals"] == totals


def test_analysis_is_for_seats_and_stored_with_the_game(tmp_path: Path) -> None:
    """(On the least budget: the checks are of who may ask, what is stored and how the
    parts of each deal's analysis fit together, never of a figure.)"""
    with client(tmp_path, analysis=least_analysis()) as c:
        made = create(c, rules="rubicon", opponent="random")
        gid = made["id"]
        assert c.get(f"/api/games/{gid}/analysis").status_code == 401
        other = create(c, opponent="random")
        assert c.get(f"/api/games/{gid}/analysis", headers=bearer(other["token"])).status_code \
            == 404
        start = c.get(f"/api/games/{gid}/analysis", headers=bearer(made["token"])).json()
        assert start["deals"] == [] and start["deals_over"] == 0
        final = walk(c, gid, {0: made["token"]}, random.Random(4))
        assert final["finished"]
        done = wait_ready(c, gid, made["token"])
        assert done["finished"] and len(done["deals"]) == done["deals_over"] >= 1
        for d in done["deals"]:
            a = d["analysis"]
            assert d["status"] == "ready" and a["number"] == d["number"]
            assert {x["role"] for x in a["exchange"]} <= {"elder", "younger"}
            for p in a["play"]:
                assert p["drop"] > 0 and p["best_value"] - p["value"] == p["drop"]
            for x in a["declarations"]:
                assert x["loss"] == x["expert_value"] - x["made_value"]
        from piquet.web.analysis import analyses_t

        with c.app.state.piquet.store.engine.connect() as conn:  # type: ignore[attr-defined]
            rows = conn.execute(analyses_t.select().where(analyses_t.c.game_id == gid)).all()
        assert len(rows) == done["deals_over"]
        check_game_curve(done, c.get(f"/api/games/{gid}", headers=bearer(made["token"])).json())
    # a new server over the same database answers from the table at once
    with client(tmp_path) as c:
        again = c.get(f"/api/games/{gid}/analysis", headers=bearer(made["token"])).json()
        assert again["pending"] == 0 and again["deals"] == done["deals"]


def test_each_deal_is_analysed_as_it_ends_while_the_next_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 35: the analysis is made in the background while play goes on.  Nobody asks
    for it: deal 1's is stored while deal 2 is being played, and at the game's end every
    deal's is made (each once), so the review is ready as the game ends."""
    import piquet.jobs.work as work
    from piquet.web.analysis import analyses_t

    made_for: list[int] = []
    real = work.analyse_deal

    def counted(*args: Any) -> str:
        made_for.append(args[6])  # the deal's number
        return real(*args)

    monkeypatch.setattr(work, "analyse_deal", counted)  # (the jobs run in threads here)
    with client(tmp_path, analyse_as_played=True, analysis=least_analysis()) as c:
        made = create(c, rules="rubicon", opponent="random")
        gid, token = made["id"], made["token"]
        engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]

        def stored() -> list[int]:
            with engine.connect() as conn:
                rows = conn.execute(analyses_t.select().where(analyses_t.c.game_id == gid))
                return sorted(int(r.deal) for r in rows)

        def play_until(deals: int) -> dict[str, Any]:
            rng = random.Random(deals)
            while True:
                g = view(c, gid, token, wait=0.5)
                if len(g["view"]["deals"]) >= deals or g["finished"]:
                    return g
                if g["your_turn"]:
                    r = c.post(f"/api/games/{gid}/actions",
                               json={"action": pick(g, rng), "n": g["n"]},
                               headers=bearer(token))
                    assert r.status_code == 200, r.text

        g = play_until(1)
        assert not g["finished"] and g["view"]["deal_number"] == 2
        deadline = time.monotonic() + 600
        while stored() != [1]:
            assert time.monotonic() < deadline, "deal 1 was not analysed"
            time.sleep(0.1)
        # deal 2 is still being played: nothing of it is analysed
        assert len(view(c, gid, token)["view"]["deals"]) == 1
        g = play_until(3)
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(token)).status_code == 200
        while stored() != [1, 2, 3]:
            assert time.monotonic() < deadline, "the deals were not analysed"
            time.sleep(0.1)
        body = wait_ready(c, gid, token)
        assert body["pending"] == 0 and [d["status"] for d in body["deals"]] == ["ready"] * 3
        assert sorted(made_for) == [1, 2, 3]  # each deal once


def test_a_deal_that_cannot_be_analysed_says_so_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failing analysis is tried once more (as every job), then stored as an error (the
    page stops waiting), not made again."""
    import piquet.jobs.work as work

    calls = {"n": 0}

    def broken(*_args: Any) -> str:
        calls["n"] += 1
        raise ValueError("injected")

    monkeypatch.setattr(work, "analyse_deal", broken)  # (the jobs run in threads here)
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", opponent="random")
        walk(c, made["id"], {0: made["token"]}, random.Random(6))
        body = wait_ready(c, made["id"], made["token"])
        assert body["deals"] and all(
            d["analysis"]["error"] == "this deal could not be analysed (ValueError)"
            for d in body["deals"]
        )
        n = calls["n"]
        wait_ready(c, made["id"], made["token"])
        assert calls["n"] == n == 2 * body["deals_over"]


def test_analysis_in_worker_processes(tmp_path: Path) -> None:
    """The server's default: the analysis runs in spawned worker processes (on the least
    budget: what is checked is that each deal's is made there)."""
    with client(tmp_path, ai_executor="process", ai_workers=1,
                analysis=least_analysis()) as c:
        made = create(c, rules="rubicon", opponent="random")
        walk(c, made["id"], {0: made["token"]}, random.Random(8))
        body = wait_ready(c, made["id"], made["token"])
        assert body["deals"] and all(d["analysis"].get("play") is not None
                                     for d in body["deals"])


def _cards_named(a: dict[str, Any]) -> set[str]:
    """Every card a deal's analysis names in its card fields."""
    out: set[str] = set()
    for hand in (a.get("hands") or {}).values():
        for part in (hand or {}).values():
            out.update(part or [])
    for e in a.get("exchange", []):
        out.update(e.get("dealt", []) + e.get("made", []) + e.get("best", []))
    for p in a.get("play", []):
        out.update([p["card"], *p["best"]])
    return out


def test_between_people_the_analysis_keeps_the_others_cards_face_down(
    tmp_path: Path,
) -> None:
    """Issue 39: during a game between two people the analysis showed each of them the
    other's discards and whole dealt hand of every finished deal.  Until the game is over
    each sees only his own hand, discards and choices; after it, everything, as before.
    (On the least budget: whose cards and choices are shown is what is checked.)"""
    with client(tmp_path, analysis=least_analysis()) as c:
        gid, tokens = friend_game(c.post, rules="rubicon", name="Ada", guest="Bob")
        rng = random.Random(11)
        g = view(c, gid, tokens[0])
        while g["view"]["deal_number"] == 1 and not g["finished"]:  # deal 1 to its end
            p = g["to_act"]
            mine = view(c, gid, tokens[p])
            r = c.post(f"/api/games/{gid}/actions", json={"action": pick(mine, rng),
                                                            "n": mine["n"]},
                       headers=bearer(tokens[p]))
            assert r.status_code == 200, r.text
            g = view(c, gid, tokens[0])
        assert not g["finished"]
        seen = {seat: wait_ready(c, gid, tok) for seat, tok in tokens.items()}
        for seat in (0, 1):
            (deal,) = seen[seat]["deals"]
            a = deal["analysis"]
            mine = next(r for r, p in a["players"].items() if p == seat)
            other = "younger" if mine == "elder" else "elder"
            assert a["hidden"] == [other]
            assert a["hands"][other] is None and a["losses"][other] is None
            assert a["hands"][mine]["dealt"] and a["losses"][mine] is not None
            for part in ("exchange", "declarations", "play"):
                assert all(e["role"] == mine for e in a[part]), part
            assert a["points"]["elder"] is not None  # the deal's points are public
            # the curve is valued with every card known: it waits for the game's end
            assert a["curve"] == []
            # the game's curve: the deal's end alone (its points are public)
            g = seen[seat]["game_curve"]
            assert [p["margin"] for p in g["points"]] == [0, g["deals"][0]["after"]]
            assert not g["deals"][0]["curve"]
            seen[seat] = a
        # every card a seat is shown is its own: dealt to it or taken in by it (the
        # other's hand, discards and cards taken appear nowhere)
        for seat in (0, 1):
            a = seen[seat]
            mine = next(r for r, p in a["players"].items() if p == seat)
            own = set(a["hands"][mine]["dealt"]) | set(a["hands"][mine]["taken"])
            assert _cards_named(a) <= own
            other = seen[1 - seat]
            theirs = other["hands"][next(r for r, p in other["players"].items()
                                         if p == 1 - seat)]
            assert _cards_named(a).isdisjoint(theirs["dealt"] + theirs["discards"]
                                              + theirs["taken"])
        # once the game is over (a resignation), both see everything, as before
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(tokens[1])).status_code == 200
        for tok in tokens.values():
            a = wait_ready(c, gid, tok)["deals"][0]["analysis"]
            assert "hidden" not in a
            assert a["hands"]["elder"]["dealt"] and a["hands"]["younger"]["dealt"]
            assert a["curve"] and a["curve"][-1]["margin"] == (
                a["points"]["elder"] - a["points"]["younger"])
            check_game_curve(wait_ready(c, gid, tok), view(c, gid, tok))
