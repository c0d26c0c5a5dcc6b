"""Finding people (web/people.py): who is online, seeks matched by format and rating
range into rated games, the public list of games in play; through the HTTP API."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from test_web_accounts import csrf, device, register
from test_web_kit import bearer, client, friend_game

# passwords hashed at Argon2id's least cost (conftest): these tests register and log in,
# the hasher's own parameters are test_web_accounts's
pytestmark = pytest.mark.usefixtures("cheap_passwords")

TAB_A, TAB_B, TAB_C = "a" * 20, "b" * 20, "c" * 20


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path) as first:
        yield first


def test_who_is_online_names_accounts_and_counts_guests(c: TestClient) -> None:
    register(c, "Ada")
    guest = device(c)
    assert c.post("/api/presence", json={"tab": TAB_A}, headers=csrf(c)).status_code == 200
    got = guest.post("/api/presence", json={"tab": TAB_B}).json()
    assert got == {"online": ["Ada"], "guests": 1}
    # the same tab again is still one; a page gone quiet drops out
    c.post("/api/presence", json={"tab": TAB_A}, headers=csrf(c))
    assert guest.get("/api/presence").json() == {"online": ["Ada"], "guests": 1}
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE piquet_presence SET seen_at = :t WHERE tab = :tab"),
                     {"t": time.time() - 3600, "tab": TAB_A})
    assert guest.get("/api/presence").json() == {"online": [], "guests": 1}
    r = guest.post("/api/presence", json={"tab": "<script>"})
    assert r.status_code == 422


def test_seeks_match_by_format_and_rating_range(c: TestClient) -> None:
    ada, bob, cyd = c, device(c), device(c)
    for who, name in ((ada, "Ada"), (bob, "Bob"), (cyd, "Cyd")):
        register(who, name)
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    cyd_id = engine.connect().execute(sa.text(
        "SELECT id FROM piquet_accounts WHERE name = 'Cyd'")).scalar()
    with engine.begin() as conn:  # Cyd is far stronger at a game of rubicon
        conn.execute(sa.text(
            "INSERT INTO piquet_ratings VALUES (:a, 'game', 2000, 60, 0.06, 30, 0)"),
            {"a": cyd_id})
    r = ada.post("/api/seeks", json={"rules": "rubicon", "format": "game", "range": 200},
                 headers=csrf(ada))
    assert r.status_code == 201 and r.json() == {"matched": False, "game": None}
    assert [s["name"] for s in c.get("/api/seeks").json()["seeks"]] == ["Ada"]
    # another format does not match; a rating outside the range does not either
    r = bob.post("/api/seeks", json={"rules": "rubicon", "format": "partie"},
                 headers=csrf(bob))
    assert r.json()["matched"] is False
    r = cyd.post("/api/seeks", json={"rules": "rubicon", "format": "game"}, headers=csrf(cyd))
    assert r.json()["matched"] is False
    # Bob changes his seek to a game: matched with Ada at once
    r = bob.post("/api/seeks", json={"rules": "rubicon", "format": "game", "range": 300},
                 headers=csrf(bob))
    made = r.json()
    assert made["matched"] is True and made["opponent"] == "Ada" and made["seat"] == 1
    gid = made["game"]
    assert [s["name"] for s in c.get("/api/seeks").json()["seeks"]] == ["Cyd"]
    # Ada's page finds the game, and her seat, from her account
    assert ada.get("/api/seeks/mine").json()["seek"]["game"] == gid
    seat = ada.get(f"/api/me/games/{gid}/seat").json()
    assert seat["seat"] == 0 and seat["token"]
    assert [g["id"] for g in bob.get("/api/me/games").json()["games"]] == [gid]
    rating = ada.get(f"/api/games/{gid}/rating", headers=bearer(seat["token"])).json()
    assert rating["rated"] is True and rating["format"] == "game"
    game = ada.get(f"/api/games/{gid}", headers=bearer(seat["token"])).json()
    assert [s["name"] for s in game["seats"]] == ["Ada", "Bob"]
    # a seek needs an account, and a rated format
    assert device(c).post("/api/seeks", json={"rules": "rubicon", "format": "game"}
                          ).status_code == 401
    r = cyd.post("/api/seeks", json={"rules": "court-gamester-1754", "format": "pool"},
                 headers=csrf(cyd))
    assert r.status_code == 400 and "rated game or partie" in r.json()["error"]
    assert cyd.delete("/api/seeks/mine", headers=csrf(cyd)).json() == {"seek": None}
    assert c.get("/api/seeks").json()["seeks"] == []


def test_the_games_in_play_are_the_rated_ones_each_with_its_spectator_link(
    c: TestClient,
) -> None:
    ada, bob = c, device(c)
    register(ada, "Ada")
    register(bob, "Bob")
    ada.post("/api/seeks", json={"rules": "rubicon", "format": "game"}, headers=csrf(ada))
    made = bob.post("/api/seeks", json={"rules": "rubicon", "format": "game"},
                    headers=csrf(bob)).json()
    casual, _tokens = friend_game(device(c).post, rules="rubicon", name="Cas", guest="Ual")
    stranger = device(c)
    listed = stranger.get("/api/games-in-play").json()["games"]
    assert [g["id"] for g in listed] == [made["game"]]  # a casual game stays private
    assert listed[0]["players"] == ["Ada", "Bob"]
    url = listed[0]["url"]
    assert url.startswith(f"/watch/{made['game']}#key=")
    key = url.split("#key=")[1]
    watched = stranger.get(f"/api/games/{made['game']}/watch", headers=bearer(key))
    assert watched.status_code == 200 and watched.json()["spectator"] is True
    assert casual not in stranger.get("/api/games-in-play").text
    # once over, it leaves the list
    r = bob.post(f"/api/games/{made['game']}/resign",
                 headers={**bearer(made["token"]), **csrf(bob)})
    assert r.status_code == 200
    assert stranger.get("/api/games-in-play").json()["games"] == []


def _seek(who: TestClient, **body: object) -> dict[str, object]:
    r = who.post("/api/seeks", json={"rules": "rubicon", "format": "game", **body},
                 headers=csrf(who))
    assert r.status_code == 201, r.text
    out: dict[str, object] = r.json()
    return out


def test_a_seek_sets_a_clock_matched_only_with_the_same_clock(c: TestClient) -> None:
    ada, bob, cyd = c, device(c), device(c)
    for who, name in ((ada, "Ada"), (bob, "Bob"), (cyd, "Cyd")):
        register(who, name)
    live = {"minutes": 5, "increment": 3}
    assert _seek(ada, clock=live)["matched"] is False
    listed = c.get("/api/seeks").json()["seeks"]
    assert listed[0]["clock"] == "5 minutes each + 3 s a move" and listed[0]["id"]
    assert ada.get("/api/seeks/mine").json()["seek"]["clock"] == "5 minutes each + 3 s a move"
    # no clock, another live clock, correspondence: none of them is Ada's
    assert _seek(bob)["matched"] is False
    assert _seek(bob, clock={"minutes": 5, "increment": 2})["matched"] is False
    assert _seek(cyd, clock={"days": 3})["matched"] is False
    assert sorted(s["name"] for s in c.get("/api/seeks").json()["seeks"]) == ["Ada", "Bob",
                                                                              "Cyd"]
    # the same clock: matched, and the game has that clock
    made = _seek(bob, clock=live)
    assert made["matched"] is True and made["opponent"] == "Ada"
    clock = bob.get(f"/api/games/{made['game']}/clock",
                    headers=bearer(str(made["token"]))).json()["clock"]
    assert clock["kind"] == "live" and clock["remaining"] == [300.0, 300.0]
    assert clock["words"] == "5 minutes each + 3 s a move"
    # a correspondence seek met by the same: a clock of days
    dan = device(c)
    register(dan, "Dan")
    met = _seek(dan, clock={"days": 3})
    assert met["matched"] is True and met["opponent"] == "Cyd"
    clock = dan.get(f"/api/games/{met['game']}/clock",
                    headers=bearer(str(met["token"]))).json()["clock"]
    assert clock["kind"] == "correspondence" and clock["remaining"] == [259200.0, 259200.0]
    # a seek without a clock makes a game without one
    eve = device(c)
    register(eve, "Eve")
    assert _seek(eve)["matched"] is False
    fay = device(c)
    register(fay, "Fay")
    plain = _seek(fay)
    assert plain["matched"] is True and plain["opponent"] == "Eve"
    assert fay.get(f"/api/games/{plain['game']}/clock",
                   headers=bearer(str(plain["token"]))).json() == {"clock": None}
    # a clock out of bounds, or of both kinds, is refused and no seek is made
    r = fay.post("/api/seeks", json={"rules": "rubicon", "format": "game",
                                      "clock": {"minutes": 5, "days": 1}}, headers=csrf(fay))
    assert r.status_code == 400 and "either live" in r.json()["error"]
    r = fay.post("/api/seeks", json={"rules": "rubicon", "format": "game",
                                      "clock": {"minutes": 500}}, headers=csrf(fay))
    assert r.status_code == 422
    assert fay.get("/api/seeks/mine").json() == {"seek": None}


def test_rated_games_and_seeks_are_in_the_lobby_and_accepting_one_makes_the_rated_game(
    c: TestClient,
) -> None:
    ada, bob, guest = c, device(c), device(c)
    register(ada, "Ada")
    register(bob, "Bob")
    # Ada offers a rated partie with a clock in the lobby; a guest offers a casual game
    r = ada.post("/api/games", json={"rules": "rubicon", "format": "partie",
                                     "opponent": "friend", "rated": True,
                                     "clock": {"minutes": 10, "increment": 5}},
                 headers=csrf(ada))
    rated = r.json()
    posted = ada.post("/api/lobby", json={"game": rated["id"],
                                          "invite": rated["invites"][0]["invite"]},
                      headers={**bearer(rated["token"]), **csrf(ada)})
    assert posted.status_code == 201, posted.text
    casual = guest.post("/api/games", json={"rules": "rubicon", "opponent": "friend",
                                            "name": "Gus"}).json()
    guest.post("/api/lobby", json={"game": casual["id"],
                                   "invite": casual["invites"][0]["invite"]},
               headers=bearer(casual["token"]))
    # and Cyd seeks a rated game with a correspondence clock
    cyd = device(c)
    register(cyd, "Cyd")
    _seek(cyd, clock={"days": 1})
    listed = {x["name"]: x for x in device(c).get("/api/lobby").json()["challenges"]}
    assert set(listed) == {"Ada", "Gus", "Cyd"}
    assert listed["Ada"]["rated"] is True and listed["Ada"]["kind"] == "challenge"
    assert listed["Ada"]["clock"] == "10 minutes each + 5 s a move"
    assert listed["Gus"]["rated"] is False and listed["Gus"]["clock"] is None
    assert listed["Cyd"]["kind"] == "seek" and listed["Cyd"]["rated"] is True
    assert listed["Cyd"]["clock"] == "1 day a move"
    # a rated challenge needs an account (not the host's) to accept it
    r = device(c).post(f"/api/lobby/{listed['Ada']['id']}/accept", json={"name": "Anon"})
    assert r.status_code == 401 and "log in" in r.json()["error"]
    r = ada.post(f"/api/lobby/{listed['Ada']['id']}/accept", json={}, headers=csrf(ada))
    assert r.status_code == 409
    assert "Ada" in [x["name"] for x in c.get("/api/lobby").json()["challenges"]]
    r = bob.post(f"/api/lobby/{listed['Ada']['id']}/accept", json={"name": "x"},
                 headers=csrf(bob))
    assert r.status_code == 201, r.text
    took = r.json()
    rating = bob.get(f"/api/games/{took['id']}/rating", headers=bearer(took["token"])).json()
    assert rating["rated"] is True and rating["format"] == "partie"
    game = bob.get(f"/api/games/{took['id']}", headers=bearer(took["token"])).json()
    assert [s["name"] for s in game["seats"]] == ["Ada", "Bob"]
    assert took["id"] in [g["id"] for g in c.get("/api/games-in-play").json()["games"]]
    # accepting Cyd's seek from the lobby makes the rated game with its clock
    dan = device(c)
    register(dan, "Dan")
    r = dan.post(f"/api/seeks/{listed['Cyd']['id']}/accept", headers=csrf(dan))
    assert r.status_code == 201, r.text
    met = r.json()
    assert met["matched"] is True and met["opponent"] == "Cyd"
    clock = dan.get(f"/api/games/{met['game']}/clock", headers=bearer(met["token"])).json()
    assert clock["clock"]["words"] == "1 day a move"
    assert dan.get(f"/api/games/{met['game']}/rating",
                   headers=bearer(met["token"])).json()["rated"] is True
    assert cyd.get("/api/seeks/mine").json()["seek"]["game"] == met["game"]
    assert [x["name"] for x in c.get("/api/lobby").json()["challenges"]] == ["Gus"]
    # a seek gone, one's own, one out of range, or without an account: refused
    r = dan.post(f"/api/seeks/{listed['Cyd']['id']}/accept", headers=csrf(dan))
    assert r.status_code == 404 and "no longer open" in r.json()["error"]
    _seek(dan, range=100)
    dan_seek = c.get("/api/seeks").json()["seeks"][0]["id"]
    r = dan.post(f"/api/seeks/{dan_seek}/accept", headers=csrf(dan))
    assert r.status_code == 409 and "yours" in r.json()["error"]
    assert device(c).post(f"/api/seeks/{dan_seek}/accept").status_code == 401
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    eve = device(c)
    register(eve, "Eve")
    eve_id = engine.connect().execute(sa.text(
        "SELECT id FROM piquet_accounts WHERE name = 'Eve'")).scalar()
    with engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO piquet_ratings VALUES (:a, 'game', 2000, 60, 0.06, 30, 0)"),
            {"a": eve_id})
    r = eve.post(f"/api/seeks/{dan_seek}/accept", headers=csrf(eve))
    assert r.status_code == 409 and "outside this seek's range" in r.json()["error"]


def test_a_process_dying_between_the_game_and_the_claim_leaves_the_seek_open(
    c: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The seek is claimed in the one transaction that makes the game rated, clocked and
    listed: a failure at any step before that commits (here: the game made, then the
    transaction failing after its claim) leaves the waiting seek open, never taken
    without a game, and the next seeker meets it."""
    import piquet.web.people as people

    ada, bob, cyd = c, device(c), device(c)
    for who, name in ((ada, "Ada"), (bob, "Bob"), (cyd, "Cyd")):
        register(who, name)
    _seek(ada, clock={"minutes": 5, "increment": 3})
    calls = []

    def dies(*args: object, **kwargs: object) -> None:
        calls.append(args)
        raise RuntimeError("the process died here")

    monkeypatch.setattr(people, "list_seat", dies)  # after the claim, in its transaction
    bob_crash = TestClient(c.app, raise_server_exceptions=False,
                           cookies=dict(bob.cookies))
    r = bob_crash.post("/api/seeks", json={"rules": "rubicon", "format": "game",
                                           "clock": {"minutes": 5, "increment": 3}},
                       headers=csrf(bob))
    assert r.status_code == 500 and calls
    mine = ada.get("/api/seeks/mine").json()["seek"]
    assert mine["waiting"] is True and mine["game"] is None
    assert [s["name"] for s in c.get("/api/seeks").json()["seeks"]] == ["Ada"]
    # nothing of the half-made game is rated, clocked, listed or in play
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        for table in ("piquet_rated_games", "piquet_clocks", "piquet_player_games"):
            assert conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() == 0
    assert c.get("/api/games-in-play").json()["games"] == []
    # the process dies before the claim (the game made, the join failing): the same
    monkeypatch.undo()

    def join_dies(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(c.app.state.piquet.games, "join", join_dies)  # type: ignore[attr-defined]
    r = bob_crash.post("/api/seeks", json={"rules": "rubicon", "format": "game",
                                           "clock": {"minutes": 5, "increment": 3}},
                       headers=csrf(bob))
    assert r.status_code == 500
    assert ada.get("/api/seeks/mine").json()["seek"]["waiting"] is True
    monkeypatch.undo()
    # the next seeker meets Ada's seek, and the game is whole
    made = _seek(cyd, clock={"minutes": 5, "increment": 3})
    assert made["matched"] is True and made["opponent"] == "Ada"
    mine = ada.get("/api/seeks/mine").json()["seek"]
    assert mine["waiting"] is False and mine["game"] == made["game"]
    seat = ada.get(f"/api/me/games/{made['game']}/seat").json()
    assert seat["seat"] == 0 and seat["token"]
    assert cyd.get(f"/api/games/{made['game']}/clock",
                   headers=bearer(str(made["token"]))).json()["clock"]["kind"] == "live"


def test_two_processes_accepting_one_seek_at_once_make_one_game(
    pg_url: str, tmp_path: Path,
) -> None:
    """Two server processes on one PostgreSQL database: Bob (through one) and Cyd
    (through the other) accept Ada's seek at the same moment; one gets the game, with the
    seek's clock, the other is told the seek is gone, and Ada's page finds the game
    through either process."""
    import httpx

    from piquet.web.accounts import CSRF_COOKIE, CSRF_HEADER
    from test_web_kit import at_once, two_servers

    with two_servers(tmp_path, pg_url) as (one, two):
        people = {}
        for name, srv in (("Ada", one), ("Bob", one), ("Cyd", two)):
            who = httpx.Client(base_url=srv.url, timeout=30)
            r = who.post("/api/account/register",
                         json={"name": name, "password": "a long enough password"})
            assert r.status_code == 201, r.text
            who.headers[CSRF_HEADER] = who.cookies[CSRF_COOKIE]
            people[name] = who
        r = people["Ada"].post("/api/seeks", json={"rules": "rubicon", "format": "partie",
                                                   "clock": {"days": 2}})
        assert r.status_code == 201 and r.json()["matched"] is False
        seek = people["Bob"].get("/api/lobby").json()["challenges"][0]
        assert seek["kind"] == "seek" and seek["clock"] == "2 days a move"
        answers = at_once(2, lambda i: people[("Bob", "Cyd")[i]].post(
            f"/api/seeks/{seek['id']}/accept"))
        codes = sorted(a.status_code for a in answers)
        assert codes == [201, 404], [a.text for a in answers]
        won = next(a.json() for a in answers if a.status_code == 201)
        for srv in (one, two):
            ada = httpx.Client(base_url=srv.url, cookies=people["Ada"].cookies, timeout=30)
            assert ada.get("/api/seeks/mine").json()["seek"]["game"] == won["game"]
            clock = ada.get(f"/api/games/{won['game']}/clock",
                            headers=bearer(won["token"])).json()["clock"]
            assert clock["words"] == "2 days a move"
        assert [g["id"] for g in people["Ada"].get("/api/games-in-play").json()["games"]] == [
            won["game"]]
        for who in people.values():
            who.close()
    # the process that lost the race left no game of its own behind (it made one before
    # its claim failed: that one went)
    import sqlalchemy as sa

    from piquet.web.store import games_t

    engine = sa.create_engine(pg_url)
    try:
        with engine.connect() as conn:
            ids = [r.id for r in conn.execute(sa.select(games_t.c.id))]
    finally:
        engine.dispose()
    assert ids == [won["game"]]
