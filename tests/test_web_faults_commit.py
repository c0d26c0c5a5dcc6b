"""Commit first, then memory (issue 39): a failing commit at every write changes nothing.

A scenario of every kind of write the browser's server makes (a new game, moves, an undo,
a resignation, a rematch, a friend game, a new link, a lobby offer and its acceptance, a
spectator link, a tally and its entries and undo, your games) is played step by step;
each step is tried first with every commit of its request failing, as a full disk or a
refused commit fails it (the database's own error, raised where the commit would be),
then again with the database working, as a person tries again.  The failing request gets
``503`` with ``Retry-After`` and changes nothing: before it, after it and after the
second try, the process that failed (its memory), a second process over the same
database (``shared``, as on PostgreSQL) and the database itself agree on each seat's
view, each record (or its refusal), each game's log, the lobby and the tally, and after
the failure they say exactly what they said before it.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from piquet.web.app import create_app
from test_web_kit import bearer, config, pick


class _Faults:
    """Fails every commit of the engine while armed (the database's own error)."""

    def __init__(self) -> None:
        self.armed = False
        self.failed = 0

    def __call__(self, _conn: Any) -> None:
        if self.armed:
            self.failed += 1
            raise sa.exc.OperationalError(
                "COMMIT", {}, sqlite3.OperationalError("database or disk is full")
            )


@contextlib.contextmanager
def _servers(url: str, *, shared_a: bool | None) -> Iterator[tuple[TestClient, TestClient,
                                                                   _Faults]]:
    """Two servers over ``url``: ``a`` (its commits fail while armed) and ``b``."""
    db = Path("/nonexistent")  # replaced by ``database`` below
    a_app = create_app(config(db, database=url, shared=shared_a))
    b_app = create_app(config(db, database=url, shared=True))
    faults = _Faults()
    with TestClient(a_app) as a, TestClient(b_app) as b:
        sa.event.listen(a_app.state.piquet.store.engine, "commit", faults)
        yield a, b, faults


@dataclass
class _World:
    """What the scenario made so far: games (id -> seat -> token), a tally, a lobby's
    challenge, the identity cookie's games."""

    games: dict[str, dict[int, str]] = field(default_factory=dict)
    tally: tuple[str, str] | None = None
    challenge: str | None = None
    offer: dict[str, Any] | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(39))


Step = Callable[[TestClient, _World], Any]


def _settled(c: TestClient, world: _World) -> None:
    """Wait until no computer is to move in any game (its answer is written)."""
    for gid, tokens in world.games.items():
        tok = next(iter(tokens.values()))  # one seat is enough to know the game is settled
        for _ in range(100):
            r = c.get(f"/api/games/{gid}", headers=bearer(tok))
            if r.status_code != 200:
                break
            g = r.json()
            to_act = g["to_act"]
            if g["finished"] or to_act is None or g["seats"][to_act]["kind"] != "ai":
                break
            # the computer is to move: wait for its move (a long poll ends at its news)
            c.get(f"/api/games/{gid}", headers=bearer(tok), params={"wait": 1})


def _practice(c: TestClient, w: _World) -> Any:
    r = c.post("/api/games", json={"rules": "rubicon", "opponent": "random", "name": "Ada"})
    if r.status_code == 201:
        w.games[r.json()["id"]] = {0: r.json()["token"]}
    return r


def _first(w: _World) -> tuple[str, str]:
    """The practice game (the first made) and its seat's token; skips the step (None)
    when its making failed."""
    if not w.games:
        raise _Skip
    gid = next(iter(w.games))
    return gid, w.games[gid][0]


class _Skip(Exception):
    """A step that has nothing to act on (what it needs failed to be made)."""


def _move(c: TestClient, w: _World) -> Any:
    gid, tok = _first(w)
    g = c.get(f"/api/games/{gid}", headers=bearer(tok), params={"wait": 5}).json()
    if not g["your_turn"]:
        return None
    return c.post(f"/api/games/{gid}/actions", json={"action": pick(g, w.rng), "n": g["n"]},
                  headers=bearer(tok))


def _undo(c: TestClient, w: _World) -> Any:
    gid, tok = _first(w)
    g = c.get(f"/api/games/{gid}", headers=bearer(tok), params={"wait": 5}).json()
    return c.post(f"/api/games/{gid}/undo", json={"n": g["n"]}, headers=bearer(tok))


def _resign(c: TestClient, w: _World) -> Any:
    gid, tok = _first(w)
    return c.post(f"/api/games/{gid}/resign", headers=bearer(tok))


def _rematch(c: TestClient, w: _World) -> Any:
    gid, tok = _first(w)
    r = c.post(f"/api/games/{gid}/rematch", headers=bearer(tok))
    if r.status_code == 201:
        w.games[r.json()["id"]] = {r.json()["seat"]: r.json()["token"]}
    return r


def _friend(c: TestClient, w: _World) -> Any:
    r = c.post("/api/games", json={"rules": "rubicon", "opponent": "friend", "name": "Ada"})
    if r.status_code == 201:
        w.offer = r.json()
        w.games[r.json()["id"]] = {0: r.json()["token"]}
    return r


def _new_link(c: TestClient, w: _World) -> Any:
    if w.offer is None:
        return None
    r = c.post(f"/api/games/{w.offer['id']}/invite", headers=bearer(w.offer["token"]))
    if r.status_code == 200 and r.json()["invites"]:
        w.offer["invites"] = r.json()["invites"]
    return r


def _lobby_post(c: TestClient, w: _World) -> Any:
    if w.offer is None:
        return None
    r = c.post("/api/lobby", json={"game": w.offer["id"],
                                   "invite": w.offer["invites"][0]["invite"]},
               headers=bearer(w.offer["token"]))
    if r.status_code == 201:
        w.challenge = r.json()["id"]
    return r


def _lobby_accept(c: TestClient, w: _World) -> Any:
    if w.challenge is None:
        return None
    r = c.post(f"/api/lobby/{w.challenge}/accept", json={"name": "Bob"})
    if r.status_code == 201:
        w.games[r.json()["id"]][r.json()["seat"]] = r.json()["token"]
    return r


def _friend_move(c: TestClient, w: _World) -> Any:
    if w.offer is None:
        return None
    for tok in w.games[w.offer["id"]].values():
        g = c.get(f"/api/games/{w.offer['id']}", headers=bearer(tok)).json()
        if g["your_turn"]:
            return c.post(f"/api/games/{w.offer['id']}/actions",
                          json={"action": pick(g, w.rng), "n": g["n"]}, headers=bearer(tok))
    return None


def _watch_link(c: TestClient, w: _World) -> Any:
    gid, tok = _first(w)
    return c.post(f"/api/games/{gid}/watch-link", headers=bearer(tok))


def _tally(c: TestClient, w: _World) -> Any:
    r = c.post("/api/tallies", json={"rules": "rubicon", "names": ["Anne", "Bob"]})
    if r.status_code == 201:
        w.tally = (r.json()["id"], r.json()["token"])
    return r


def _tally_entry(c: TestClient, w: _World) -> Any:
    if w.tally is None:
        return None
    return c.post(f"/api/tallies/{w.tally[0]}/entries", json={"entry": "dealer Anne"},
                  headers=bearer(w.tally[1]))


def _tally_undo(c: TestClient, w: _World) -> Any:
    if w.tally is None:
        return None
    return c.post(f"/api/tallies/{w.tally[0]}/undo", headers=bearer(w.tally[1]))


def _my_games(c: TestClient, w: _World) -> Any:
    gid, tok = _first(w)
    return c.post("/api/me/games", json={"id": gid, "token": tok})


STEPS: list[tuple[str, Step]] = [
    ("a new game", _practice),
    ("a move", _move),
    ("another move", _move),
    ("an undo", _undo),
    ("a spectator link", _watch_link),
    ("your games", _my_games),
    ("a resignation", _resign),
    ("a rematch", _rematch),
    ("a friend game", _friend),
    ("a new link", _new_link),
    ("a lobby offer", _lobby_post),
    ("the offer accepted", _lobby_accept),
    ("a friend's move", _friend_move),
    ("a tally", _tally),
    ("a tally's entry", _tally_entry),
    ("a tally's undo", _tally_undo),
]


def _stored_log(c: TestClient, gid: str) -> list[tuple[int, str]]:
    store = c.app.state.piquet.store  # type: ignore[attr-defined]
    return [(a.player, a.action) for a in store.actions(gid)]


def _everything(c: TestClient, w: _World) -> dict[str, Any]:
    """All that ``c`` says of the world: each game's log as stored, each seat's view and
    record (or its refusal), the lobby (without the offers' ages, which tick on), the
    tally."""
    seen: dict[str, Any] = {}
    for gid, tokens in w.games.items():
        seen[f"log {gid}"] = _stored_log(c, gid)
        for seat, tok in tokens.items():
            v = c.get(f"/api/games/{gid}", headers=bearer(tok))
            r = c.get(f"/api/games/{gid}/record", headers=bearer(tok))
            seen[f"view {gid} {seat}"] = (v.status_code, v.json())
            seen[f"record {gid} {seat}"] = (r.status_code, r.content)
            if r.status_code != 200:  # the seed is never given away by a game in play
                assert v.status_code == 200 and not v.json()["finished"], (gid, seat)
    seen["lobby"] = [{k: v for k, v in x.items() if k != "age"}
                     for x in c.get("/api/lobby").json()["challenges"]]
    if w.tally is not None:
        t = c.get(f"/api/tallies/{w.tally[0]}", headers=bearer(w.tally[1]))
        seen["tally"] = (t.status_code, t.json())
    return seen


def _agree(a: TestClient, b: TestClient, w: _World, where: str) -> dict[str, Any]:
    """The failing process, the other one and the database say the same of everything
    (what they say is returned)."""
    _settled(a, w)
    for gid in w.games:
        held = a.app.state.piquet.games.peek(gid)  # type: ignore[attr-defined]
        if held is not None:  # the failing process's memory is the database's log
            assert [(e.player, e.text) for e in held.live.state.log] == _stored_log(b, gid), \
                where
    seen_a, seen_b = _everything(a, w), _everything(b, w)
    for key in seen_b:
        assert seen_a[key] == seen_b[key], f"{where}: {key}"
    return seen_b


def _run(url: str, *, shared_a: bool | None) -> list[str]:
    """Each step of the scenario with every commit of its request failing, then again
    with the commits going through (the person tries again); what failed.

    Before the failing attempt, during it and after it, the failing process (its memory),
    the other process and the database agree, and the failing attempt changed nothing
    any of them says; the attempt that follows is checked the same way, so each write is
    made once on a world that every earlier write, failed and then made, left."""
    failed = []
    with _servers(url, shared_a=shared_a) as (a, b, faults):
        w = _World()
        for name, step in STEPS:
            before = _agree(a, b, w, f"before {name}")
            games_before = dict(w.games)
            faults.armed, faults.failed = True, 0
            try:
                r = step(a, w)
            except _Skip:
                r = None
            finally:
                faults.armed = False
            where = f"{name} (its commits failing)"
            if faults.failed:
                assert r is not None and r.status_code == 503, (where, r and r.text)
                assert int(r.headers["retry-after"]) >= 1, where
                assert "error" in r.json(), where
                assert w.games == games_before, where  # nothing made was handed out
                assert _agree(a, b, w, where) == before, f"{where}: something changed"
                failed.append(name)
                try:
                    step(a, w)  # the same again, the database working
                except _Skip:
                    pass
            _agree(a, b, w, f"{name} (made)")
    return failed


def test_a_failing_commit_at_every_write_changes_nothing_sqlite(tmp_path: Path) -> None:
    failed = _run(f"sqlite:///{tmp_path / 'games.sqlite3'}", shared_a=None)
    # every step wrote, and failed (a move waits for its turn)
    assert set(failed) >= {name for name, _ in STEPS} - {"a friend's move", "another move"}


def test_a_failing_commit_at_every_write_changes_nothing_postgresql(pg_url: str) -> None:
    from piquet.web.store import database_url

    url = database_url(pg_url, Path("."))
    failed = _run(url, shared_a=None)
    assert set(failed) >= {name for name, _ in STEPS} - {"a friend's move", "another move"}
