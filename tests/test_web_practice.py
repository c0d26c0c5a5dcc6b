"""Undo, resign, rematch (web/practice.py); a browser's games, invitations, the rules in
full and /docs offline (web/players.py): through the HTTP API, on a real server."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from piquet.core.rules import CHOICE_ENUMS, PRESETS
from piquet.web.players import IDENTITY_COOKIE, open_box, seal
from test_web_kit import (
    ThreadServer,
    bearer,
    client,
    create,
    friend_game,
    net,
    pick,
    poster,
    view,
    walk,
)


def act(c: TestClient, game_id: str, token: str, action: str, n: int | None = None) -> Any:
    body: dict[str, Any] = {"action": action}
    if n is not None:
        body["n"] = n
    return c.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(token))


def my_turn(c: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """The game once it is this seat's turn (the computer moves meanwhile)."""
    for _ in range(200):
        g = view(c, game_id, token, wait=1)
        if g["your_turn"] or g["finished"]:
            return g
    raise AssertionError("never my turn")


def _friend_game(c: TestClient, **more: Any) -> tuple[str, dict[int, str]]:
    """A friend game of Ada's and Bob's (rubicon unless ``rules`` says otherwise)."""
    return friend_game(c.post, rules=more.pop("rules", "rubicon"), name="Ada", guest="Bob",
                       **more)


# ---------------------------------------------------------------------- undo
def test_undo_takes_back_your_last_move_and_the_computers_answer(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", opponent="random", name="Ada")
        gid, tok = made["id"], made["token"]
        rng = random.Random(7)
        g = my_turn(c, gid, tok)
        assert g["practice"] and not g["can_undo"]
        r = c.post(f"/api/games/{gid}/undo", json={"n": g["n"]}, headers=bearer(tok))
        assert r.status_code == 409 and "no move" in r.json()["error"]
        before = g
        for _ in range(6):
            g = my_turn(c, gid, tok)
            before = g
            assert act(c, gid, tok, pick(g, rng), g["n"]).status_code == 200
        after = my_turn(c, gid, tok)
        assert after["can_undo"] and after["n"] > before["n"]
        r = c.post(f"/api/games/{gid}/undo", json={"n": after["n"]}, headers=bearer(tok))
        assert r.status_code == 200, r.text
        back = r.json()
        # exactly the game as it stood before that move: same view, same choices; the
        # log keeps growing (the undo is its entry, the game's version moves on)
        assert back["n"] == after["n"] + 1
        assert back["view"] == before["view"]
        assert back["legal_actions"] == before["legal_actions"]
        store = c.app.state.piquet.store  # type: ignore[attr-defined]
        assert len(store.actions(gid)) == back["n"] and store.actions(gid)[-1].action == "undo"
        # a stale n is refused with the game as it stands
        r = c.post(f"/api/games/{gid}/undo", json={"n": after["n"]}, headers=bearer(tok))
        assert r.status_code == 409 and r.json()["game"]["n"] == back["n"]
        # a delayed retry of the move taken back is refused as stale, never applied again
        # (issue 39: the log had grown back to the length the retry named)
        taken = store.actions(gid)[before["n"]]
        r = act(c, gid, tok, taken.action, before["n"])
        assert r.status_code == 409 and "taken back" in r.json()["error"], r.text
        assert view(c, gid, tok)["n"] == back["n"]
    # a new server on the same database rebuilds the same game from the log
    with client(tmp_path) as c2:
        again = view(c2, gid, tok)
        assert again["n"] == back["n"] and again["view"] == before["view"]


def test_undo_stays_within_the_deal_in_play(tmp_path: Path) -> None:
    """Once the next deal's cards are shown, the moves of the deal before stay: taking one
    back would bring back a deal whose next hand has been seen."""
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", opponent="random", name="Ada")
        gid, tok = made["id"], made["token"]
        rng = random.Random(3)
        g = my_turn(c, gid, tok)
        while g["view"]["deal_number"] == 1:
            assert act(c, gid, tok, pick(g, rng), g["n"]).status_code == 200
            g = my_turn(c, gid, tok)
        # the first question of deal 2: nothing of this deal is mine yet
        assert not g["can_undo"]
        r = c.post(f"/api/games/{gid}/undo", json={"n": g["n"]}, headers=bearer(tok))
        assert r.status_code == 409
        assert "the deals before this one stay" in r.json()["error"]
        assert view(c, gid, tok)["n"] == g["n"]  # nothing changed
        # a move of this deal may be taken back
        assert act(c, gid, tok, pick(g, rng), g["n"]).status_code == 200
        g2 = my_turn(c, gid, tok)
        if g2["view"]["deal_number"] == 2:
            assert g2["can_undo"]
            r = c.post(f"/api/games/{gid}/undo", json={"n": g2["n"]}, headers=bearer(tok))
            assert r.status_code == 200 and r.json()["view"] == g["view"]
            assert r.json()["n"] == g2["n"] + 1  # the undo is an entry of the log


def test_undo_is_for_practice_games_only(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tokens = _friend_game(c)
        g = view(c, gid, tokens[0])
        p = g["to_act"]
        mine = view(c, gid, tokens[p])
        assert act(c, gid, tokens[p], pick(mine, random.Random(1))).status_code == 200
        r = c.post(f"/api/games/{gid}/undo", json={}, headers=bearer(tokens[p]))
        assert r.status_code == 409 and "practice" in r.json()["error"]
        assert view(c, gid, tokens[p])["practice"] is False


# ---------------------------------------------------------------------- resign
def test_a_resigned_game_is_over_for_both_and_takes_no_action(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tokens = _friend_game(c)
        r = c.post(f"/api/games/{gid}/resign", headers=bearer(tokens[0]))
        assert r.status_code == 200, r.text
        assert r.json()["finished"] and r.json()["resigned"] == 0
        other = view(c, gid, tokens[1])
        assert other["finished"] and other["resigned"] == 0 and other["legal_actions"] == []
        assert other["result"]["winner"] == 1 and not other["your_turn"]
        real = c.app.state.piquet.games.peek(gid).live.match  # type: ignore[attr-defined]
        to_act = real.to_act
        legal = real.view(to_act).legal_actions
        r = act(c, gid, tokens[to_act], str(legal[0]) if legal else "pass")
        assert r.status_code == 409 and "resigned" in r.json()["error"]
        r = c.post(f"/api/games/{gid}/resign", headers=bearer(tokens[1]))
        assert r.status_code == 409


def test_the_computer_stops_when_you_resign(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", opponent="random")
        gid, tok = made["id"], made["token"]
        g = my_turn(c, gid, tok)
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(tok)).status_code == 200
        games = c.app.state.piquet.games  # type: ignore[attr-defined]
        assert games.ai_turn(games.peek(gid)) is None
        assert view(c, gid, tok, wait=0.5)["n"] == g["n"] + 1  # the resignation alone


def test_a_resigned_game_has_its_record_and_its_replay(tmp_path: Path) -> None:
    from piquet.core.match import Match
    from piquet.core.notation import loads

    with client(tmp_path) as c:
        gid, tokens = _friend_game(c)
        games = c.app.state.piquet.games  # type: ignore[attr-defined]
        for _ in range(3):  # a few moves, then a resignation
            real = games.peek(gid).live.match
            seat = real.to_act
            move = str(real.legal_actions()[0])
            assert act(c, gid, tokens[seat], move).status_code == 200
        assert c.get(f"/api/games/{gid}/record", headers=bearer(tokens[0])).status_code == 409
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(tokens[1])).status_code == 200
        r = c.get(f"/api/games/{gid}/record", headers=bearer(tokens[0]))
        assert r.status_code == 200, r.text
        rec = r.json()
        assert rec["tags"] == {"Resigned": 1} and len(rec["actions"]) == 3
        assert len(Match.from_record(rec).history) == 3
        text = c.get(f"/api/games/{gid}/record?as=text", headers=bearer(tokens[0])).text
        assert "[Resigned 1]" in text and loads(text).tags == {"Resigned": 1}
        r = c.get(f"/api/games/{gid}/replay?step=3", headers=bearer(tokens[0]))
        assert r.status_code == 200, r.text
        assert r.json()["resigned"] == 1  # told at the last step
        r = c.get(f"/api/games/{gid}/replay?step=2", headers=bearer(tokens[0]))
        assert r.json()["resigned"] is None
        # "Your games" offers its replay, as a finished game's
        assert c.post("/api/me/games", json={"id": gid, "token": tokens[0]}).status_code == 200
        (mine,) = c.get("/api/me/games").json()["games"]
        assert mine["finished"] and mine["replay"] and mine["status"] == "Bob resigned"


# ---------------------------------------------------------------------- rematch
def test_a_rematch_keeps_the_settings_and_swaps_the_seats(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tokens = _friend_game(c, rules="encyclopedia-19c", hints=True)
        early = c.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0]))
        assert early.status_code == 409  # not before the end
        walk(c, gid, tokens, random.Random(3))
        r = c.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0]))
        assert r.status_code == 201, r.text
        new = r.json()
        assert new["seat"] == 1 and [i["seat"] for i in new["invites"]] == [0]
        old0 = view(c, gid, tokens[0])
        old1 = view(c, gid, tokens[1])
        assert old0["rematch"] == old1["rematch"] == new["id"]
        assert old0["rematch_mine"] and not old1["rematch_mine"]
        # the other player takes the seat kept for them, with the old game's token
        r = c.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[1]))
        assert r.status_code == 201, r.text
        theirs = r.json()
        assert theirs["id"] == new["id"] and theirs["seat"] == 0
        g = view(c, new["id"], new["token"])
        assert g["rules"] == "encyclopedia-19c" and g["format"] == "game" and g["hints"]
        assert [s["name"] for s in g["seats"]] == ["Bob", "Ada"]
        assert all(s["joined"] for s in g["seats"])
        r = c.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0]))
        assert r.status_code == 409  # made already: it is in your games


def test_a_rematch_against_the_computer_gives_it_the_first_seat(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", opponent="club", name="Ada")
        assert c.post(f"/api/games/{made['id']}/resign", headers=bearer(made["token"])).is_success
        r = c.post(f"/api/games/{made['id']}/rematch", headers=bearer(made["token"]))
        assert r.status_code == 201, r.text
        g = view(c, r.json()["id"], r.json()["token"])
        assert g["seat"] == 1 and g["format"] == "partie"
        assert g["seats"][0]["kind"] == "ai" and g["seats"][0]["level"] == "club"


# ---------------------------------------------------------------------- your games
def test_your_games_are_listed_under_the_identity_cookie(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", opponent="random", name="Ada")
        gid, tok = made["id"], made["token"]
        assert c.get("/api/me/games").json() == {"games": []}
        r = c.post("/api/me/games", json={"id": gid, "token": tok})
        assert r.status_code == 200 and IDENTITY_COOKIE in r.cookies
        identity = r.cookies[IDENTITY_COOKIE]
        assert len(identity) >= 40
        assert "httponly" in r.headers["set-cookie"].lower()
        games = c.get("/api/me/games").json()["games"]
        assert [g["id"] for g in games] == [gid]
        line = games[0]
        assert line["format_label"] == "a Rubicon partie of 6 deals"
        assert "deal 1 of 6" in line["score"] and line["opponents"] == "Computer (random)"
        assert line["score"].startswith("You 0 · Computer (random) 0")  # the caller first
        assert line["state"] in ("yours", "theirs") and not line["finished"]
        # the seat comes back to this browser; the database holds no token
        assert c.get(f"/api/me/games/{gid}/seat").json()["token"] == tok
        engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
        with engine.connect() as conn:
            rows = conn.execute(sa.text("select * from piquet_player_games")).all()
        assert rows and all(
            tok not in str(tuple(row)) and identity not in str(tuple(row)) for row in rows
        )
        # another browser sees nothing, and cannot add a seat without its token
        other = TestClient(c.app)
        assert other.get("/api/me/games").json() == {"games": []}
        none = other.get(f"/api/me/games/{gid}/seat")
        assert none.status_code == 200 and none.json() == {"id": gid, "seat": None,
                                                           "token": None}
        missing = other.get("/api/me/games/nosuchgame123/seat")
        assert missing.status_code == 404 and "no such game" in missing.json()["error"]
        bad = other.post("/api/me/games", json={"id": gid, "token": "x" * 43})
        assert bad.status_code == 404
        # forget
        assert c.delete(f"/api/me/games/{gid}").status_code == 200
        assert c.get("/api/me/games").json() == {"games": []}


def test_a_sealed_token_opens_only_with_its_identity() -> None:
    box = seal("identity-one" * 4, "game1", 0, "tok" * 14)
    assert "tok" not in box
    assert open_box("identity-one" * 4, "game1", 0, box) == "tok" * 14
    assert open_box("identity-two" * 4, "game1", 0, box) != "tok" * 14


# ---------------------------------------------------------------------- invitations
def test_an_invitation_says_who_invites_and_whether_it_was_used(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", opponent="friend", name="Ada")
        gid, code = made["id"], made["invites"][0]["invite"]
        r = c.post(f"/api/games/{gid}/invitation", json={"invite": code})
        assert r.status_code == 200, r.text
        about = r.json()
        assert about["host"] == "Ada" and about["format_label"] == "a Rubicon partie of 6 deals"
        assert about["rules"] == "rubicon" and about["summary"]
        # a new link replaces the old one
        new = c.post(f"/api/games/{gid}/invite", headers=bearer(made["token"])).json()
        r = c.post(f"/api/games/{gid}/invitation", json={"invite": code})
        assert r.status_code == 410 and "replaced" in r.json()["error"]
        code2 = new["invites"][0]["invite"]
        assert c.post(f"/api/games/{gid}/join", json={"invite": code2}).status_code == 201
        r = c.post(f"/api/games/{gid}/invitation", json={"invite": code2})
        assert r.status_code == 410 and "has been used" in r.json()["error"]
        r = c.post("/api/games/nosuchgame/invitation", json={"invite": code2})
        assert r.status_code == 404
        # an invitation to a game of 100 speaks of that game, not of the partie too
        game = create(c, rules="rubicon", format="game", opponent="friend", name="Ada")
        about = c.post(f"/api/games/{game['id']}/invitation",
                       json={"invite": game["invites"][0]["invite"]}).json()
        said = " ".join(about["summary"])
        assert "This game: a game of 100." in said and "partie" not in said.lower(), said


# ---------------------------------------------------------------------- rules, docs, options
def test_the_rules_in_full_name_each_source(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.get("/api/rules/court-gamester-1754")
        assert r.status_code == 200
        knobs = {k["knob"]: k for k in r.json()["knobs"]}
        assert len(knobs) > 20 and all(k["source"] for k in knobs.values())
        assert c.get("/api/rules/house.toml").status_code == 400
        opts = c.get("/api/options").json()
        rubicon = next(x for x in opts["rules"] if x["name"] == "rubicon")
        assert rubicon["partie_deals"] == 6 and rubicon["default_format"] == "partie"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_rules_in_full_read_as_words(tmp_path: Path, preset: str) -> None:
    """A player reading the rules meets no programmer's values: no True/False, no knob
    names, no enum values such as "younger-looks" or "leads-and-wins" (a new user met
    them), and no code."""
    with client(tmp_path) as c:
        knobs = c.get(f"/api/rules/{preset}").json()["knobs"]
    raw = {m.value for e in CHOICE_ENUMS for m in e
           if "-" in m.value or m.value in ("parlett", "encyclopedia", "pips", "tens")}
    for k in knobs:
        words = f"{k['meaning']} {k['value']} {k['source']}"
        assert not re.search(r"\bTrue\b|\bFalse\b|``|\b[a-z]+_[a-z_]+\b", words), words
        assert k["value"] not in raw, k
        assert k["value"] and k["meaning"], k


def test_a_mistyped_address_gets_a_page_and_the_api_keeps_json(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        page = c.get("/nonsense", headers={"accept": "text/html,application/xhtml+xml"})
        assert page.status_code == 404 and "text/html" in page.headers["content-type"]
        assert "No such page" in page.text and 'href="/"' in page.text
        for path, accept in (("/nonsense", "application/json"),
                             ("/api/nonsense", "text/html"),
                             ("/static/nonsense.js", "text/html")):
            r = c.get(path, headers={"accept": accept})
            assert r.status_code == 404 and r.json()["error"], path


def test_docs_need_no_network(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        page = c.get("/docs")
        assert page.status_code == 200
        assert "http://" not in page.text and "https://" not in page.text
        assert '"/docs/assets/swagger-ui-bundle.js"' in page.text
        js = c.get("/docs/assets/swagger-ui-bundle.js")
        assert js.status_code == 200 and "SwaggerUIBundle" in js.text
        assert c.get("/docs/assets/swagger-ui.css").status_code == 200
        assert c.get("/redoc").status_code == 404  # it would need a network


def test_your_games_says_what_a_finished_partie_was_settled_for(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", format="partie", opponent="friend", name="Ada")
        gid = made["id"]
        joined = c.post(f"/api/games/{gid}/join",
                        json={"invite": made["invites"][0]["invite"]}).json()
        final = walk(c, gid, {0: made["token"], 1: joined["token"]}, random.Random(2))
        assert final["finished"]
        res = final["result"]
        assert c.post("/api/me/games", json={"id": gid, "token": made["token"]}).status_code == 200
        [line] = c.get("/api/me/games").json()["games"]
        assert line["status"].startswith("Finished: ")
        assert f"settled at {res['settled']}" in line["status"]
        assert ("(the loser rubiconed)" in line["status"]) == bool(res.get("rubiconed"))


def test_a_long_poll_answers_at_once_when_the_other_resigns(tmp_path: Path) -> None:
    """The seat waiting for its turn (``?wait=``) was told of a resignation only at the end
    of its wait: the resignation is not an action, and the loop looked only for the match
    finished or the seat to act."""
    import threading
    import time

    with ThreadServer(tmp_path) as srv:
        gid, tokens = friend_game(poster(srv.url))
        url = srv.url + f"/api/games/{gid}"
        actor = net.get(url, headers=bearer(tokens[0])).json()["to_act"]
        waiter = 1 - actor
        answer: dict[str, Any] = {}

        def poll() -> None:
            t = time.monotonic()
            r = net.get(url, params={"wait": 30}, headers=bearer(tokens[waiter]), timeout=90)
            answer.update(r.json(), took=time.monotonic() - t)

        t = threading.Thread(target=poll)
        t.start()
        time.sleep(0.5)
        assert net.post(url + "/resign", headers=bearer(tokens[actor])).status_code == 200
        t.join(90)
        assert answer["finished"] and answer["resigned"] == actor
        # woken by the resignation, not at the wait's end: an answer at its end comes 30 s
        # after the server had the request, so at least 30 s after it was sent (was: under
        # 25 s, a margin that a loaded machine's resignation and answer could use up)
        assert answer["took"] < 30
        # a long poll of a game already resigned answers at once too
        t0 = time.monotonic()
        again = net.get(url, params={"wait": 30}, headers=bearer(tokens[actor]), timeout=90)
        assert again.json()["resigned"] == actor and time.monotonic() - t0 < 30


def test_a_seat_of_a_resigned_game_cannot_be_taken_nor_offered(tmp_path: Path) -> None:
    """A friend could join a game already resigned (and land in a finished game), its
    invitation still read as open, and its seat could be offered in the lobby."""
    with client(tmp_path) as c:
        made = create(c, opponent="friend", name="Ada")
        gid, code = made["id"], made["invites"][0]["invite"]
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(made["token"])).status_code == 200
        about = c.post(f"/api/games/{gid}/invitation", json={"invite": code})
        assert about.status_code == 410 and "over" in about.json()["error"]
        join = c.post(f"/api/games/{gid}/join", json={"invite": code, "name": "Bob"})
        assert join.status_code == 409 and "the game is over" in join.json()["error"]
        offer = c.post("/api/lobby", json={"game": gid, "invite": code},
                       headers=bearer(made["token"]))
        assert offer.status_code == 409 and "the game is over" in offer.json()["error"]
        # a game against the computer has no seat for a friend: no invitation of it is "used"
        solo = create(c, opponent="random")
        none = c.post(f"/api/games/{solo['id']}/invitation", json={"invite": "x" * 20})
        assert none.status_code == 404 and "no seat for a friend" in none.json()["error"]


def test_the_analysis_of_a_resigned_game_says_it_is_over(tmp_path: Path) -> None:
    """Resigned before any deal was over, the analysis said "No deal is over yet" (the
    match, not the game, was asked whether it was finished)."""
    with client(tmp_path) as c:
        made = create(c, opponent="random")
        gid, tok = made["id"], made["token"]
        assert c.get(f"/api/games/{gid}/analysis", headers=bearer(tok)).json()["finished"] is False
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(tok)).status_code == 200
        after = c.get(f"/api/games/{gid}/analysis", headers=bearer(tok)).json()
        assert after["finished"] is True and after["deals"] == []


def test_a_challenge_leaves_the_lobby_when_its_game_is_resigned(tmp_path: Path) -> None:
    """The lobby kept listing a resigned game's open seat; accepting it then said it was
    "taken or withdrawn"."""
    with client(tmp_path) as c:
        made = create(c, opponent="friend", name="Ada")
        gid, code = made["id"], made["invites"][0]["invite"]
        posted = c.post("/api/lobby", json={"game": gid, "invite": code},
                        headers=bearer(made["token"]))
        assert posted.status_code == 201
        assert [x["id"] for x in c.get("/api/lobby").json()["challenges"]] == [posted.json()["id"]]
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(made["token"])).status_code == 200
        assert c.get("/api/lobby").json()["challenges"] == []


def test_the_store_takes_no_seat_of_a_game_resigned_meanwhile(tmp_path: Path) -> None:
    """The join checked the game was not over, then took the seat in a statement of its
    own: a resignation between the two let the seat be taken.  The statement that takes
    the seat now looks for the resignation itself."""
    from piquet.web.refusals import hash_secret

    with client(tmp_path) as c:
        made = create(c, opponent="friend", name="Ada")
        gid, code = made["id"], made["invites"][0]["invite"]
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(made["token"])).status_code == 200
        store = c.app.state.piquet.store
        taken = store.join(gid, invite_hash=hash_secret(code), token_hash="x" * 43, name="Bob")
        assert taken is None
        assert all(s.token_hash != "x" * 43 for s in store.game(gid).seats)
