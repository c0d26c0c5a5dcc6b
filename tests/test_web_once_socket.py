"""Issue 34: the actor's view is sent once, when the page acts over HTTP too.

A game's socket tells its page an id in its first message; an action posted with that id
(``"socket": ID``) is answered over HTTP, and that socket is not sent the same view again.
The seat's other sockets (another tab) still get it, the computer's reply still comes over
the socket, and an id the server does not know (or another seat's) skips nothing.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from test_web_kit import ThreadServer, bearer, friend_game, net, pick, poster

WAIT = 60  # seconds at most for a message that must come (a failure, never a measure)


@contextmanager
def _socket(srv: ThreadServer, gid: str, token: str) -> Iterator[tuple[ClientConnection, str]]:
    """A game socket of the seat ``token`` opens: the connection and the id its first
    message told."""
    with _opened(srv, gid, token) as (ws, sid, _view):
        yield ws, sid


@contextmanager
def _opened(
    srv: ThreadServer, gid: str, token: str
) -> Iterator[tuple[ClientConnection, str, dict[str, Any]]]:
    """:func:`_socket`, and the view its first message carries."""
    with connect(srv.url.replace("http", "ws") + f"/api/games/{gid}/ws") as ws:
        ws.send(json.dumps({"token": token}))
        first = json.loads(ws.recv(timeout=WAIT))
        assert first["type"] == "view" and isinstance(first["socket"], str), first
        yield ws, first["socket"], first["view"]


def _next_view(ws: ClientConnection) -> dict[str, Any]:
    """The next view the socket sends (other messages passed over)."""
    while True:
        msg = json.loads(ws.recv(timeout=WAIT))
        if msg["type"] == "view":
            assert "socket" not in msg  # told once, in the first message
            view: dict[str, Any] = msg["view"]
            return view


def _act(srv: ThreadServer, gid: str, token: str, game: dict[str, Any], rng: random.Random,
         socket: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {"action": pick(game, rng), "n": game["n"]}
    if socket is not None:
        body["socket"] = socket
    r = net.post(f"{srv.url}/api/games/{gid}/actions", json=body, headers=bearer(token))
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    assert answer["n"] == game["n"] + 1
    return answer


def test_an_action_over_http_naming_its_socket_is_not_sent_on_it_again(
    tmp_path: Path,
) -> None:
    """Between two people: the actor's socket named in the action gets none of that view
    (the next view it gets is the other's move); the actor's second tab and the other
    seat get it once each."""
    rng = random.Random(34)
    with ThreadServer(tmp_path) as srv:
        gid, tokens = friend_game(poster(srv.url))
        with _socket(srv, gid, tokens[0]) as (a0, sid), _socket(srv, gid, tokens[0]) as (
            tab, _other
        ), _socket(srv, gid, tokens[1]) as (b, _sid_b):
            game = net.get(f"{srv.url}/api/games/{gid}", headers=bearer(tokens[0])).json()
            for _ in range(6):
                actor = game["to_act"]
                mine = net.get(f"{srv.url}/api/games/{gid}",
                               headers=bearer(tokens[actor])).json()
                if actor == 0:
                    answer = _act(srv, gid, tokens[0], mine, rng, sid)
                    # the second tab and the other seat hear of it; then the other moves
                    assert _next_view(tab)["n"] == answer["n"]
                    assert _next_view(b)["n"] == answer["n"]
                else:
                    answer = _act(srv, gid, tokens[1], mine, rng, None)
                    # the seat's first socket: this is the next view, none in between
                    seen = _next_view(a0)
                    assert seen["n"] == answer["n"], (seen["n"], answer["n"])
                    assert _next_view(tab)["n"] == answer["n"]
                    assert _next_view(b)["n"] == answer["n"]  # no id: sent twice, as ever
                game = answer


def test_an_unknown_or_another_seats_socket_id_skips_nothing(tmp_path: Path) -> None:
    """A made-up id, a closed socket's, the other seat's: the view is sent as without one."""
    rng = random.Random(35)
    with ThreadServer(tmp_path) as srv:
        gid, tokens = friend_game(poster(srv.url))
        with _socket(srv, gid, tokens[0]) as (_gone, closed):
            pass
        with _socket(srv, gid, tokens[0]) as (s0, sid0), _socket(srv, gid, tokens[1]) as (
            s1, sid1
        ):
            sockets, sids = (s0, s1), (sid0, sid1)
            for wrong in ("no-such-socket", "x" * 64, closed, "the other seat's"):
                game = net.get(f"{srv.url}/api/games/{gid}", headers=bearer(tokens[0])).json()
                actor = game["to_act"]
                mine = net.get(f"{srv.url}/api/games/{gid}",
                               headers=bearer(tokens[actor])).json()
                sid = sids[1 - actor] if wrong == "the other seat's" else wrong
                answer = _act(srv, gid, tokens[actor], mine, rng, sid)
                assert _next_view(sockets[actor])["n"] == answer["n"], wrong
                assert _next_view(sockets[1 - actor])["n"] == answer["n"], wrong
            # an id over its length is refused as the schema says (and nothing applied)
            game = net.get(f"{srv.url}/api/games/{gid}", headers=bearer(tokens[0])).json()
            actor = game["to_act"]
            mine = net.get(f"{srv.url}/api/games/{gid}", headers=bearer(tokens[actor])).json()
            r = net.post(f"{srv.url}/api/games/{gid}/actions", headers=bearer(tokens[actor]),
                         json={"action": pick(mine, rng), "n": mine["n"], "socket": "x" * 65})
            assert r.status_code == 422, r.text
            again = net.get(f"{srv.url}/api/games/{gid}", headers=bearer(tokens[0])).json()
            assert again["n"] == game["n"]
        # a socket closed is forgotten (its id then marks nothing)
        held = srv.app.state.piquet.sockets
        deadline = time.monotonic() + WAIT  # a ceiling on a hang, not a measure
        while len(held) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(held) == 0


def test_the_computers_reply_still_comes_on_the_named_socket(tmp_path: Path) -> None:
    """Against the computer: the view the HTTP answer carries never comes on the socket it
    named; the computer's reply (a later view) always does."""
    rng = random.Random(36)
    with ThreadServer(tmp_path) as srv:
        r = net.post(f"{srv.url}/api/games", json={"opponent": "random"})
        assert r.status_code == 201, r.text
        gid, token = r.json()["id"], r.json()["token"]
        answered: set[int] = set()
        seen: list[int] = []
        with _opened(srv, gid, token) as (ws, sid, game):
            while not game["your_turn"]:  # the computer is elder: its first moves
                game = _next_view(ws)
            replies = 0
            while replies < 4 and not game["finished"]:
                answer = _act(srv, gid, token, game, rng, sid)
                answered.add(answer["n"])
                game = answer
                while not game["your_turn"] and not game["finished"]:
                    game = _next_view(ws)  # the computer's move(s), over the socket
                    assert game["n"] not in answered, "sent on the socket named: " + str(game["n"])
                    seen.append(game["n"])
                    replies += 1
        assert replies >= 4
        assert not answered & set(seen), (sorted(answered), seen)
