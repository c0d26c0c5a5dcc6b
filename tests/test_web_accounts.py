"""Accounts (web/accounts.py) and rated games (web/rated.py), through the HTTP API of a
real server: passwords never in clear, cookie flags, no session fixation, CSRF refused,
login throttled, another's game neither readable nor playable, history from any device,
deletion, and ratings moved once by Glicko-2 when a rated game ends."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from piquet.analysis.ratings import NEW_PLAYER, rate_game
from piquet.web.accounts import _DUMMY_HASH, ACCOUNT_COOKIE, CSRF_COOKIE, CSRF_HEADER, _hasher
from piquet.web.rated import settle
from test_web_kit import MISS, LeanClient, bearer, cheap_hasher, client, pick, view

PASSWORD = "correct horse battery"
OTHER_PASSWORD = "tr0ub4dor&3 staple"


# the server hashes passwords at Argon2id's least cost (conftest's cheap_passwords): its
# own parameters take a tenth of a CPU-second a login, which these tests, logging in and
# failing some fifty times, do not check; the test of those parameters reads the
# server's own hasher, imported here before any test
pytestmark = pytest.mark.usefixtures("cheap_passwords")


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path) as first:
        yield first


def device(c: TestClient, *, https: bool = False) -> TestClient:
    """Another browser (its own cookies) on the same running server: its requests are
    made on the server's own event loop, as ``c``'s are (a client outside a ``with``
    starts a loop in a new thread for each request, some 2 ms of CPU)."""
    other = LeanClient(c.app, base_url="https://testserver" if https else "http://testserver")
    other.portal = c.portal
    return other


def csrf(c: TestClient) -> dict[str, str]:
    token = c.cookies.get(CSRF_COOKIE)
    assert token, "no CSRF cookie: not logged in"
    return {CSRF_HEADER: token}


def register(c: TestClient, name: str, password: str = PASSWORD) -> Any:
    r = c.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r


def login(c: TestClient, name: str, password: str = PASSWORD) -> Any:
    return c.post("/api/account/login", json={"name": name, "password": password})


def everything_stored(c: TestClient) -> str:
    """Every value of every table of the server's database, as one text."""
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    meta = sa.MetaData()
    meta.reflect(engine)
    out = []
    with engine.connect() as conn:
        for table in meta.sorted_tables:
            for row in conn.execute(sa.select(table)):
                out.append(" ".join(str(v) for v in row))
    return "\n".join(out)


# ---------------------------------------------------------------------- the basics
def test_playing_needs_no_account(c: TestClient) -> None:
    assert c.get("/api/account").json() == {"account": None}
    r = c.post("/api/games", json={"opponent": "random", "name": "Ada"})
    assert r.status_code == 201


def test_register_logs_in_and_logout_ends_the_session(c: TestClient) -> None:
    register(c, "Ada")
    assert c.get("/api/account").json()["account"]["name"] == "Ada"
    r = c.post("/api/account/logout", headers=csrf(c))
    assert r.status_code == 200
    assert c.get("/api/account").json() == {"account": None}
    assert login(c, "ada").status_code == 200  # the name is not case-sensitive
    assert c.get("/api/account").json()["account"]["name"] == "Ada"


def test_a_name_no_one_has_is_checked_as_hard_as_a_password() -> None:
    """The hash a login for an unknown name is checked against (so that a miss takes as
    long as a wrong password) is written out once: it must have the hasher's own
    parameters, and be the hash of what it says."""
    assert _hasher is not cheap_hasher()
    assert not _hasher.check_needs_rehash(_DUMMY_HASH)
    assert _hasher.verify(_DUMMY_HASH, MISS)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"name": "Ada", "password": "short"}, "8 to 128 characters"),
        ({"name": " ", "password": PASSWORD}, "2 to 30 visible characters"),
        ({"name": "Ada", "password": " " + PASSWORD}, "begin or end with a space"),
    ],
)
def test_bad_registrations_say_what_is_allowed(
    c: TestClient, body: dict[str, str], says: str
) -> None:
    r = c.post("/api/account/register", json=body)
    assert r.status_code == 400 and says in r.json()["error"]
    assert c.get("/api/account").json() == {"account": None}
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM piquet_accounts")).scalar() == 0


def test_a_name_is_taken_once(c: TestClient) -> None:
    register(c, "Ada")
    other = device(c)
    r = other.post("/api/account/register", json={"name": "ADA", "password": PASSWORD})
    assert r.status_code == 409 and "taken" in r.json()["error"]


# ---------------------------------------------------------------------- security
def test_passwords_are_never_stored_nor_logged_in_clear(
    c: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    register(c, "Ada")
    c.post("/api/account/logout", headers=csrf(c))
    assert login(c, "Ada", "wrong password here").status_code == 401
    assert login(c, "Ada").status_code == 200
    stored = everything_stored(c)
    assert PASSWORD not in stored and "wrong password here" not in stored
    assert "$argon2id$" in stored  # Argon2id, memory-hard
    assert PASSWORD not in caplog.text and "wrong password here" not in caplog.text


def test_cookie_flags_httponly_samesite_and_secure_over_https(c: TestClient) -> None:
    r = register(c, "Ada")
    cookies = r.headers.get_list("set-cookie")
    session = next(x for x in cookies if x.startswith(ACCOUNT_COOKIE + "="))
    assert "HttpOnly" in session and "SameSite=lax" in session and "Path=/api" in session
    assert "Secure" not in session  # served over plain http (local): see docs/web.md
    token = next(x for x in cookies if x.startswith(CSRF_COOKIE + "="))
    assert "SameSite=lax" in token and "HttpOnly" not in token  # the page reads it
    secure = device(c, https=True)
    r = secure.post("/api/account/register", json={"name": "Bob", "password": PASSWORD})
    assert r.status_code == 201
    for line in r.headers.get_list("set-cookie"):
        assert "Secure" in line and "SameSite=lax" in line


def test_login_rotates_the_session_id_no_fixation(c: TestClient) -> None:
    register(c, "Ada")
    c.post("/api/account/logout", headers=csrf(c))
    victim = device(c)
    planted = "an-id-the-attacker-chose-and-planted-in-the-victims-browser"
    victim.cookies.set(ACCOUNT_COOKIE, planted, domain="testserver.local", path="/api")
    r = victim.post("/api/account/login", json={"name": "Ada", "password": PASSWORD})
    assert r.status_code == 200
    issued = victim.cookies.get(ACCOUNT_COOKIE)
    assert issued and issued != planted
    # the planted id opens nothing
    attacker = device(c)
    attacker.cookies.set(ACCOUNT_COOKIE, planted)
    assert attacker.get("/api/account").json() == {"account": None}
    # a second login ends the first session: its id no longer opens the account
    assert login(victim, "Ada").status_code == 200
    again = victim.cookies.get(ACCOUNT_COOKIE)
    assert again != issued
    old = device(c)
    old.cookies.set(ACCOUNT_COOKIE, issued)
    assert old.get("/api/account").json() == {"account": None}


def test_csrf_refused_and_nothing_changed(c: TestClient) -> None:
    register(c, "Ada")
    made = c.post("/api/games", json={"opponent": "random"}).json()  # carries the cookie
    assert "id" not in made and "CSRF" in made["error"]
    r = c.post("/api/account/logout")
    assert r.status_code == 403 and "CSRF" in r.json()["error"]
    r = c.post("/api/account/logout", headers={CSRF_HEADER: "0" * 64})
    assert r.status_code == 403
    r = c.post("/api/account/delete", json={"password": PASSWORD})
    assert r.status_code == 403
    assert c.get("/api/account").json()["account"]["name"] == "Ada"  # nothing changed
    # a login or registration that is not JSON (a form on another site) is refused
    r = device(c).post("/api/account/login", data={"name": "Ada", "password": PASSWORD})
    assert r.status_code == 415
    # with the token it goes through
    assert c.post("/api/games", json={"opponent": "random"}, headers=csrf(c)).status_code == 201


def test_login_is_throttled_per_account_and_per_client(c: TestClient) -> None:
    register(c, "Ada")
    register(device(c), "Bob")
    guesser = device(c)
    for _ in range(5):
        assert login(guesser, "Ada", "not the password").status_code == 401
    r = login(guesser, "Ada")  # even the right password waits now
    assert r.status_code == 429 and "for this account" in r.json()["error"]
    assert int(r.headers["retry-after"]) > 0
    assert login(device(c), "Ada").status_code == 429  # from any client: the account's
    # the same client's failures over many names: the client is stopped too
    for i in range(15):
        assert login(guesser, f"nobody{i}", "not the password").status_code == 401
    r = login(guesser, "Bob")
    assert r.status_code == 429 and "from this address" in r.json()["error"]


def test_anothers_game_is_neither_readable_nor_playable(c: TestClient) -> None:
    register(c, "Ada")
    made = c.post("/api/games", json={"opponent": "random"}, headers=csrf(c)).json()
    gid, token = made["id"], made["token"]
    assert c.post("/api/me/games", json={"id": gid, "token": token},
                  headers=csrf(c)).json()["account"] is True
    bob = device(c)
    register(bob, "Bob")
    assert bob.get("/api/me/games").json() == {"games": []}
    assert bob.get(f"/api/me/games/{gid}/seat").json() == {"id": gid, "seat": None,
                                                            "token": None}
    assert bob.get(f"/api/games/{gid}").status_code == 401
    own = bob.post("/api/games", json={"opponent": "random"}, headers=csrf(bob)).json()
    assert bob.get(f"/api/games/{gid}", headers=bearer(own["token"])).status_code == 404
    r = bob.post(f"/api/games/{gid}/actions", json={"action": "x"},
                 headers={**bearer(own["token"]), **csrf(bob)})
    assert r.status_code == 404
    r = bob.post(f"/api/games/{gid}/resign", headers={**bearer(own["token"]), **csrf(bob)})
    assert r.status_code == 404
    # Bob cannot add Ada's game to his list without its token
    r = bob.post("/api/me/games", json={"id": gid, "token": own["token"]}, headers=csrf(bob))
    assert r.status_code == 404


def test_the_accounts_games_follow_it_to_another_device(c: TestClient) -> None:
    register(c, "Ada")
    made = c.post("/api/games", json={"opponent": "random"}, headers=csrf(c)).json()
    c.post("/api/me/games", json={"id": made["id"], "token": made["token"]}, headers=csrf(c))
    phone = device(c)
    assert phone.get("/api/me/games").json() == {"games": []}
    assert login(phone, "Ada").status_code == 200
    listed = phone.get("/api/me/games").json()["games"]
    assert [g["id"] for g in listed] == [made["id"]]
    seat = phone.get(f"/api/me/games/{made['id']}/seat").json()
    assert seat["token"] == made["token"]
    # logged out, the phone's own (empty) list again
    phone.post("/api/account/logout", headers=csrf(phone))
    assert phone.get("/api/me/games").json() == {"games": []}


def test_deleting_the_account_deletes_its_data(c: TestClient) -> None:
    register(c, "Ada")
    made = c.post("/api/games", json={"opponent": "random"}, headers=csrf(c)).json()
    c.post("/api/me/games", json={"id": made["id"], "token": made["token"]}, headers=csrf(c))
    phone = device(c)
    login(phone, "Ada")
    r = c.post("/api/account/delete", json={"password": "not it at all"}, headers=csrf(c))
    assert r.status_code == 401 and "not deleted" in r.json()["error"]
    r = c.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(c))
    assert r.status_code == 200 and r.json()["deleted"] is True
    assert c.get("/api/account").json() == {"account": None}
    assert phone.get("/api/account").json() == {"account": None}  # every session ended
    assert login(c, "Ada").status_code == 401
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        for table in ("piquet_accounts", "piquet_sessions", "piquet_player_games",
                      "piquet_ratings"):
            assert conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() == 0
    # the game itself stays (the other players' record)
    assert c.get(f"/api/games/{made['id']}", headers=bearer(made["token"])).status_code == 200


# ---------------------------------------------------------------------- rated games
def rated_pair(c: TestClient, **body: Any) -> tuple[TestClient, TestClient, str, str, str]:
    """Ada makes a rated game, Bob joins it: the two clients, the id, their tokens."""
    ada, bob = c, device(c)
    register(ada, "Ada")
    register(bob, "Bob")
    made = ada.post("/api/games", json={"opponent": "friend", "rated": True, **body},
                    headers=csrf(ada))
    assert made.status_code == 201, made.text
    game = made.json()
    r = bob.post(f"/api/games/{game['id']}/join", json={"invite": game["invites"][0]["invite"]},
                 headers=csrf(bob))
    assert r.status_code == 201, r.text
    return ada, bob, game["id"], game["token"], r.json()["token"]


def test_a_rated_game_needs_accounts(c: TestClient) -> None:
    r = c.post("/api/games", json={"opponent": "friend", "rated": True})
    assert r.status_code == 401 and "log in" in r.json()["error"]
    register(c, "Ada")
    r = c.post("/api/games", json={"opponent": "random", "rated": True}, headers=csrf(c))
    assert r.status_code == 400 and "friend" in r.json()["error"]
    r = c.post("/api/games", json={"opponent": "friend", "rated": True, "rules":
                                   "court-gamester-1754", "format": "pool"}, headers=csrf(c))
    assert r.status_code == 400 and "pool" in r.json()["error"]
    made = c.post("/api/games", json={"opponent": "friend", "rated": True},
                  headers=csrf(c)).json()
    invite = {"invite": made["invites"][0]["invite"]}
    anonymous = device(c)
    r = anonymous.post(f"/api/games/{made['id']}/join", json=invite)
    assert r.status_code == 401 and "rated" in r.json()["error"]
    r = c.post(f"/api/games/{made['id']}/join", json=invite, headers=csrf(c))
    assert r.status_code == 409 and "yours" in r.json()["error"]
    # the seat is still free: the invitation still opens it
    assert anonymous.post(f"/api/games/{made['id']}/invitation", json=invite).status_code == 200


def test_a_rated_game_moves_both_ratings_once_by_glicko2(c: TestClient) -> None:
    ada, bob, gid, ada_token, bob_token = rated_pair(c, format="game", rules="rubicon")
    info = ada.get(f"/api/games/{gid}/rating", headers=bearer(ada_token)).json()
    assert info == {"rated": True, "format": "game", "settled": False,
                    "ratings": [1500.0, 1500.0], "changes": None}
    assert view(bob, gid, bob_token)["seats"][1]["name"] == "Bob"  # the account's name
    r = bob.post(f"/api/games/{gid}/resign", headers={**bearer(bob_token), **csrf(bob)})
    assert r.status_code == 200
    info = ada.get(f"/api/games/{gid}/rating", headers=bearer(ada_token)).json()
    won, lost = rate_game(NEW_PLAYER, NEW_PLAYER, first_score=1)
    assert info["settled"] is True
    assert info["ratings"] == [round(won.rating, 2), round(lost.rating, 2)]
    assert info["changes"][0] == {"before": 1500.0, "after": round(won.rating, 2),
                                  "deviation": round(won.deviation, 2)}
    # settled once: another settlement (another process, a retry) changes nothing
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    assert settle(engine, gid, 1.0) is False
    assert bob.get(f"/api/games/{gid}/rating", headers=bearer(bob_token)).json() == info
    # the rating is per format: a partie starts from 1500
    made = ada.post("/api/games", json={"opponent": "friend", "rated": True, "rules":
                                        "rubicon", "format": "partie"}, headers=csrf(ada))
    gid2 = made.json()["id"]
    bob.post(f"/api/games/{gid2}/join", json={"invite": made.json()["invites"][0]["invite"]},
             headers=csrf(bob))
    info2 = ada.get(f"/api/games/{gid2}/rating", headers=bearer(made.json()["token"])).json()
    assert info2["format"] == "partie" and info2["ratings"] == [1500.0, 1500.0]


def test_a_casual_game_stays_unrated(c: TestClient) -> None:
    ada, bob = c, device(c)
    register(ada, "Ada")
    register(bob, "Bob")
    made = ada.post("/api/games", json={"opponent": "friend", "rules": "rubicon"},
                    headers=csrf(ada)).json()
    r = bob.post(f"/api/games/{made['id']}/join", json={"invite": made["invites"][0]["invite"]},
                 headers=csrf(bob))
    token = r.json()["token"]
    bob.post(f"/api/games/{made['id']}/resign", headers={**bearer(token), **csrf(bob)})
    assert ada.get(f"/api/games/{made['id']}/rating",
                   headers=bearer(made["token"])).json() == {"rated": False}
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM piquet_ratings")).scalar() == 0


def test_a_rated_game_played_out_is_rated_when_it_ends(c: TestClient) -> None:
    """A rated game played to its end (not resigned): rated at the commit of its last move."""
    ada, bob, gid, ada_token, bob_token = rated_pair(c, format="game", rules="rubicon")
    tokens = {0: ada_token, 1: bob_token}
    clients = {0: ada, 1: bob}
    rng = random.Random(5)
    g = view(ada, gid, ada_token)
    while not g["finished"]:
        p = g["to_act"]
        mine = view(clients[p], gid, tokens[p])
        r = clients[p].post(f"/api/games/{gid}/actions", json={"action": pick(mine, rng),
                            "n": mine["n"]}, headers={**bearer(tokens[p]), **csrf(clients[p])})
        assert r.status_code == 200, r.text
        g = r.json()
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        settled = conn.execute(sa.text(
            "SELECT settled, score_0 FROM piquet_rated_games WHERE game_id = :g"), {"g": gid}
        ).one()
        assert settled[0]  # settled by the last move itself, before anyone asked
        assert conn.execute(sa.text("SELECT count(*) FROM piquet_ratings")).scalar() == 2


def test_settlement_across_processes_rates_once_and_loses_no_update(pg_url: str) -> None:
    """On PostgreSQL, eight settlers of one game at once (as several server processes
    would be) rate it once; two games of one account settled at once both count."""
    from piquet.web.rated import start_rated, take_rated_seat
    from piquet.web.store import Store
    from test_web_kit import at_once

    store = Store.open(pg_url)
    try:
        engine = store.engine
        for gid in ("g1", "g2", "g3"):
            start_rated(engine, gid, "game", "ada")
        take_rated_seat(engine, "g1", "bob")
        take_rated_seat(engine, "g2", "cyd")
        take_rated_seat(engine, "g3", "dan")
        assert at_once(8, lambda _i: settle(engine, "g1", 1.0)).count(True) == 1
        # two more games of Ada's, settled at the same moment: both are counted
        assert at_once(2, lambda i: settle(engine, ("g2", "g3")[i], 1.0)) == [True, True]
        with engine.connect() as conn:
            games = conn.execute(sa.text(
                "SELECT games FROM piquet_ratings WHERE account_id = 'ada'")).scalar()
            assert games == 3
            bob = conn.execute(sa.text(
                "SELECT rating FROM piquet_ratings WHERE account_id = 'bob'")).scalar()
        _won, lost = rate_game(NEW_PLAYER, NEW_PLAYER, first_score=1)
        assert bob == pytest.approx(lost.rating)
    finally:
        store.close()
