"""The view the server sends is the view its OpenAPI schema documents (issue 34): every
field of a seat's JSON is in ``ViewOut`` and every field of ``ViewOut`` is sent, through
every route that answers with it (a view, an action, an undo, a resignation), and a
conflict's body is ``ConflictOut``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from piquet.web.app import ConflictOut, LegalActionOut, ViewOut
from test_web_kit import bearer, client, create, view


def _check(body: dict[str, Any], schema: dict[str, Any]) -> None:
    props = schema["components"]["schemas"]["ViewOut"]["properties"]
    assert set(body) == set(props), set(body) ^ set(props)
    ViewOut.model_validate(body)
    items = schema["components"]["schemas"]["LegalActionOut"]["properties"]
    for item in body["legal_actions"]:
        assert set(item) <= set(items), set(item) - set(items)
        LegalActionOut.model_validate(item)


def test_every_view_sent_is_the_documented_view(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        schema = c.get("/openapi.json").json()
        made = create(c, rules="rubicon", opponent="random", name="Ada")
        gid, tok = made["id"], made["token"]
        rng = random.Random(1)
        g = view(c, gid, tok, wait=1)
        _check(g, schema)
        for _ in range(8):
            g = view(c, gid, tok, wait=1)
            if not g["your_turn"]:
                continue
            _check(g, schema)
            item = rng.choice([i for i in g["legal_actions"] if i.get("offer", True)])
            text = item["id"]
            if text == "discard":
                text = "discard:" + " ".join(g["view"]["deal"]["hand"][: item["min"]])
            r = c.post(f"/api/games/{gid}/actions", json={"action": text, "n": g["n"]},
                       headers=bearer(tok))
            assert r.status_code == 200, r.text
            _check(r.json(), schema)
            stale = c.post(f"/api/games/{gid}/actions", json={"action": "pass", "n": 0},
                           headers=bearer(tok))
            assert stale.status_code == 409
            conflict = stale.json()
            assert set(conflict) == set(schema["components"]["schemas"]["ConflictOut"]
                                        ["properties"])
            ConflictOut.model_validate(conflict)
            _check(conflict["game"], schema)
        g = view(c, gid, tok, wait=1)
        if g["can_undo"]:
            r = c.post(f"/api/games/{gid}/undo", json={"n": g["n"]}, headers=bearer(tok))
            assert r.status_code == 200, r.text
            _check(r.json(), schema)
        r = c.post(f"/api/games/{gid}/resign", headers=bearer(tok))
        assert r.status_code == 200, r.text
        _check(r.json(), schema)
        assert r.json()["resigned"] == 0 and r.json()["finished"]
