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
