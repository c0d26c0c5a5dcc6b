"""An opponent about as strong as you (issue 41): /api/me/opponent and the adaptive level
in a new game, through the HTTP API on a real server."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from piquet.core.match import new_match
from piquet.core.rules import PRESETS
from piquet.players import make_player
from piquet.players.adaptive import LEARNER_START, adaptive_level
from piquet.web.evenmatch import results_in
from test_web_kit import bearer, client, create, pick, view


def test_results_count_each_deal_against_the_level_played() -> None:
    rules = PRESETS["rubicon"]
    m = new_match(rules, seed=5, names=("person", "ai"), format="partie")
    players = (make_player("book"), make_player("adaptive-200", seed=1))
    while len(m.deals) < 3:
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)
    results = results_in(m, 0, {1: "adaptive-200"})
    adaptive = make_player("adaptive-200", seed=1)
    assert [r.opponent for r in results] == adaptive.levels(m.view(1))[:3]  # type: ignore[attr-defined]
    for r, d in zip(results, m.deals, strict=True):
        mine = d.points[d.players.index(0)]
        theirs = d.points[d.players.index(1)]
        assert r.score == (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    assert results_in(m, 0, {1: "no-such-level"}) == []


def _finish_a_deal(c: TestClient, gid: str, tok: str) -> dict[str, Any]:
    rng = random.Random(2)
    for _ in range(400):
        g = view(c, gid, tok, wait=1)
        if g["view"]["deals"] or g["finished"]:
            return g
        if g["your_turn"]:
            r = c.post(f"/api/games/{gid}/actions", json={"action": pick(g, rng), "n": g["n"]},
                       headers=bearer(tok))
            assert r.status_code == 200, r.text
    raise AssertionError("the deal did not finish")


def test_a_browser_gets_an_even_opponent_from_its_games(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        first = c.get("/api/me/opponent").json()  # a newcomer
        assert first["deals"] == 0 and first["level"] == adaptive_level(LEARNER_START)
        made = create(c, rules="rubicon", opponent="nell", name="Ada")
        gid, tok = made["id"], made["token"]
        assert c.post("/api/me/games", json={"id": gid, "token": tok}).status_code == 200
        _finish_a_deal(c, gid, tok)
        now = c.get("/api/me/opponent").json()
        assert now["deals"] == 1 and now["rating"] != first["rating"]
        assert now["level"] == adaptive_level(now["rating"])
        # the form sends that level: the game starts with it
        made = create(c, rules="rubicon", opponent=now["level"], name="Ada")
        g = view(c, made["id"], made["token"])
        assert not g["finished"]
        bad = c.post("/api/games", json={"opponent": "adaptive-99999"})
        assert bad.status_code in (400, 422) and "choose one of" in bad.text
