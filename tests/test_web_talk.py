"""Between the players (web/talk.py, table/state.py): the chat (limits, mute, kept with
the game, none from spectators), a takeback asked of the other and answered, an abort
before the first move; through the HTTP API and the WebSocket of a real server."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_web_kit import bearer, client, create, friend_game, pick, view


def _game(c: TestClient) -> tuple[str, dict[int, str]]:
    return friend_game(c.post, rules="rubicon", name="Ada", guest="Bob")


def say(c: TestClient, gid: str, token: str, text: str) -> Any:
    return c.post(f"/api/games/{gid}/chat", json={"text": text}, headers=bearer(token))


def chat(c: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}/chat", headers=bearer(token))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def move(c: TestClient, gid: str, token: str, rng: random.Random) -> dict[str, Any]:
    g = view(c, gid, token)
    r = c.post(f"/api/games/{gid}/actions", json={"action": pick(g, rng), "n": g["n"]},
               headers=bearer(token))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


# ---------------------------------------------------------------------- chat
def test_chat_between_the_players_kept_with_the_game(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = _game(c)
        assert say(c, gid, tok[0], "Good luck!").status_code == 201
        markup = '<img src=x onerror="alert(1)"> & <b>bold</b>'
        assert say(c, gid, tok[1], markup).status_code == 201
        got = chat(c, gid, tok[0])
        assert [(m["seat"], m["text"]) for m in got["messages"]] == [
            (0, "Good luck!"), (1, markup)]  # kept as text: the page shows it as text
        assert got["max"] == 280 and got["muted"] is False
    with client(tmp_path) as c2:  # a restarted server: the chat is kept with the game
        assert [m["text"] for m in chat(c2, gid, tok[1])["messages"]] == ["Good luck!", markup]


def test_chat_limits_say_what_is_allowed_and_change_nothing(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = _game(c)
        r = say(c, gid, tok[0], "x" * 281)
        assert r.status_code == 400 and "at most 280 characters" in r.json()["error"]
        r = say(c, gid, tok[0], " \n\t\u200b ")
        assert r.status_code == 400 and "empty" in r.json()["error"]
        assert chat(c, gid, tok[0])["messages"] == []
        assert say(c, gid, tok[0], "a\x00b\u202e  c\n\nd").status_code == 201
        assert chat(c, gid, tok[1])["messages"][0]["text"] == "a b c d"
        # against the computer there is nobody to write to
        practice = create(c, rules="rubicon", opponent="random")
        r = say(c, practice["id"], practice["token"], "hello")
        assert r.status_code == 409 and "computer" in r.json()["error"]


def test_no_chat_from_or_to_spectators_or_strangers(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = _game(c)
        say(c, gid, tok[0], "between us")
        key = c.post(f"/api/games/{gid}/watch-link", headers=bearer(tok[0])).json()["key"]
        assert c.get(f"/api/games/{gid}/watch", headers=bearer(key)).status_code == 200
        assert c.get(f"/api/games/{gid}/chat", headers=bearer(key)).status_code == 404
        assert say(c, gid, key, "from the rail").status_code == 404
        assert "between us" not in c.get(f"/api/games/{gid}/watch", headers=bearer(key)).text
        assert c.get(f"/api/games/{gid}/chat").status_code == 401
        other = create(c, opponent="random")
        assert say(c, gid, other["token"], "hi").status_code == 404
        assert [m["text"] for m in chat(c, gid, tok[1])["messages"]] == ["between us"]


def test_mute_leaves_the_others_messages_out(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = _game(c)
        say(c, gid, tok[0], "one")
        r = c.post(f"/api/games/{gid}/chat/mute", json={"muted": True}, headers=bearer(tok[1]))
        assert r.status_code == 200 and r.json()["muted"] is True
        say(c, gid, tok[0], "two")
        say(c, gid, tok[1], "mine")
        assert [m["text"] for m in chat(c, gid, tok[1])["messages"]] == ["mine"]
        assert [m["text"] for m in chat(c, gid, tok[0])["messages"]] == ["one", "two", "mine"]
        c.post(f"/api/games/{gid}/chat/mute", json={"muted": False}, headers=bearer(tok[1]))
        assert [m["text"] for m in chat(c, gid, tok[1])["messages"]] == ["one", "two", "mine"]


def test_the_socket_tells_of_a_message(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = _game(c)
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_json({"token": tok[1]})
            assert ws.receive_json()["type"] == "view"
            say(c, gid, tok[0], "your move")
            msg = ws.receive_json()
            while msg["type"] != "talk":
                msg = ws.receive_json()
        assert chat(c, gid, tok[1])["messages"][-1]["text"] == "your move"


# ---------------------------------------------------------------------- takeback
def test_takeback_asked_of_the_other_and_answered(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = _game(c)
        rng = random.Random(11)
        first = view(c, gid, tok[0])
        p = first["to_act"]
        before = view(c, gid, tok[p])
        assert before["takeback"] == {"asked": None, "can_ask": False}
        after = move(c, gid, tok[p], rng)
        assert after["takeback"]["can_ask"] is True
        # nothing asked: nothing to answer
        r = c.post(f"/api/games/{gid}/takeback", json={"answer": "yes"}, headers=bearer(tok[1 - p]))
        assert r.status_code == 409 and "no takeback is asked" in r.json()["error"]
        asked = c.post(f"/api/games/{gid}/takeback", json={}, headers=bearer(tok[p]))
        assert asked.status_code == 200 and asked.json()["takeback"]["asked"] == p
        # the asker does not answer his own question; a second question waits
        r = c.post(f"/api/games/{gid}/takeback", json={"answer": "yes"}, headers=bearer(tok[p]))
        assert r.status_code == 409 and "the other player answers" in r.json()["error"]
        r = c.post(f"/api/games/{gid}/takeback", json={}, headers=bearer(tok[p]))
        assert r.status_code == 409 and "already asked" in r.json()["error"]
        # no: the move stands
        r = c.post(f"/api/games/{gid}/takeback", json={"answer": "no"},
                   headers=bearer(tok[1 - p]))
        assert r.status_code == 200 and r.json()["takeback"]["asked"] is None
        assert view(c, gid, tok[p])["view"] == after["view"]
        # asked again, yes: back to just before the move
        c.post(f"/api/games/{gid}/takeback", json={}, headers=bearer(tok[p]))
        r = c.post(f"/api/games/{gid}/takeback", json={"answer": "yes"},
                   headers=bearer(tok[1 - p]))
        assert r.status_code == 200, r.text
        back = view(c, gid, tok[p])
        assert back["view"] == before["view"] and back["legal_actions"] == before[
            "legal_actions"]
        assert back["n"] > after["n"]  # the log grows: the takeback is its entries
        # a move taken back and retried at its old n is refused as stale
        r = c.post(f"/api/games/{gid}/actions", json={"action": pick(before, rng),
                   "n": before["n"]}, headers=bearer(tok[p]))
        assert r.status_code == 409


def test_a_move_lets_an_unanswered_takeback_lapse(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = _game(c)
        rng = random.Random(4)
        g = view(c, gid, tok[0])
        # play until the one who just moved is not the one to move next
        while True:
            p = g["to_act"]
            g = move(c, gid, tok[p], rng)
            if g["to_act"] != p:
                break
        c.post(f"/api/games/{gid}/takeback", json={}, headers=bearer(tok[p]))
        assert view(c, gid, tok[p])["takeback"]["asked"] == p
        after = move(c, gid, tok[1 - p], rng)
        assert after["takeback"]["asked"] is None


def test_no_takeback_nor_abort_against_the_computer(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", opponent="random")
        r = c.post(f"/api/games/{made['id']}/takeback", json={}, headers=bearer(made["token"]))
        assert r.status_code == 409 and "undo" in r.json()["error"]
        assert view(c, made["id"], made["token"])["can_abort"] is False
        r = c.post(f"/api/games/{made['id']}/abort", headers=bearer(made["token"]))
        assert r.status_code == 409 and "two people" in r.json()["error"]


# ---------------------------------------------------------------------- abort
def test_abort_before_the_first_move_only(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, tok = _game(c)
        g = view(c, gid, tok[0])
        p = g["to_act"]
        assert g["can_abort"] is True
        move(c, gid, tok[p], random.Random(2))
        assert view(c, gid, tok[p])["can_abort"] is False
        r = c.post(f"/api/games/{gid}/abort", headers=bearer(tok[p]))
        assert r.status_code == 409 and "resign instead" in r.json()["error"]
        # the other has not moved yet: he may
        r = c.post(f"/api/games/{gid}/abort", headers=bearer(tok[1 - p]))
        assert r.status_code == 200, r.text
        done = r.json()
        assert done["finished"] and done["aborted"] == 1 - p
        assert done["result"] == {"aborted": 1 - p, "winner": None}
        assert done["legal_actions"] == [] and done["to_act"] is None
        r = c.post(f"/api/games/{gid}/actions", json={"action": "x"}, headers=bearer(tok[p]))
        assert r.status_code == 409 and "aborted" in r.json()["error"]
        rec = c.get(f"/api/games/{gid}/record", params={"as": "json"}, headers=bearer(tok[p]))
        assert rec.status_code == 200 and rec.json()["tags"] == {"Aborted": 1 - p}


@pytest.mark.parametrize("who", [0, 1])
def test_an_aborted_rated_game_is_not_rated(tmp_path: Path, who: int) -> None:
    from test_web_accounts import csrf, rated_pair

    with client(tmp_path) as c:
        ada, bob, gid, ada_token, bob_token = rated_pair(c, rules="rubicon", format="game")
        g = view(ada, gid, ada_token)
        first = g["to_act"]
        aborter = 1 - first if who else first
        cl, token = (ada, ada_token) if aborter == 0 else (bob, bob_token)
        r = cl.post(f"/api/games/{gid}/abort", headers={**bearer(token), **csrf(cl)})
        assert r.status_code == 200, r.text
        info = ada.get(f"/api/games/{gid}/rating", headers=bearer(ada_token)).json()
        assert info["settled"] is True and info["changes"] is None
        assert info["ratings"] == [1500.0, 1500.0]
