"""Play from here (piquet.web.review_routes): a finished deal's position replayed against
the computer, through the API; nothing hidden comes out while people are still playing."""

from __future__ import annotations

import random
from pathlib import Path

from test_web_kit import bearer, client, friend_game, pick, view


def test_play_from_here_opens_the_same_position_against_the_computer(
    tmp_path: Path,
) -> None:
    with client(tmp_path) as c:
        gid, tokens = friend_game(c.post, rules="rubicon", name="Ada", guest="Bob")
        rng = random.Random(5)
        g = view(c, gid, tokens[0])
        while g["view"]["deal_number"] == 1:  # deal 1 to its end
            p = g["to_act"]
            mine = view(c, gid, tokens[p])
            r = c.post(f"/api/games/{gid}/actions", json={"action": pick(mine, rng),
                                                            "n": mine["n"]},
                       headers=bearer(tokens[p]))
            assert r.status_code == 200, r.text
            g = view(c, gid, tokens[0])
        deal_one = g["n"]  # the actions of deal 1
        p = g["to_act"]  # and one of deal 2
        mine = view(c, gid, tokens[p])
        r = c.post(f"/api/games/{gid}/actions", json={"action": pick(mine, rng),
                                                        "n": mine["n"]}, headers=bearer(tokens[p]))
        assert r.status_code == 200, r.text
        # between people, while the game is on: refused, with the reason
        r = c.post(f"/api/games/{gid}/from/3", headers=bearer(tokens[0]))
        assert r.status_code == 409 and "until the game is over" in r.json()["error"]
        assert c.post(f"/api/games/{gid}/from/3").status_code == 401
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(tokens[1])).status_code == 200
        # a step of the deal that was in play, or past the log: refused
        r = c.post(f"/api/games/{gid}/from/{deal_one}", headers=bearer(tokens[0]))
        assert r.status_code == 409 and "not yet public" in r.json()["error"], r.text
        r = c.post(f"/api/games/{gid}/from/99999", headers=bearer(tokens[0]))
        assert r.status_code == 409 and "numbered 0 to" in r.json()["error"]
        for step in (2, deal_one - 3):
            r = c.post(f"/api/games/{gid}/from/{step}", headers=bearer(tokens[0]))
            assert r.status_code == 201, r.text
            made = r.json()
            old = c.get(f"/api/games/{gid}/replay", params={"step": step},
                        headers=bearer(tokens[0])).json()
            new = view(c, made["id"], made["token"])
            seat = made["seat"]
            assert new["n"] == step and new["to_act"] == seat and new["seat"] == seat
            assert new["view"]["deal"]["hand"] == old["views"][str(seat)]["deal"]["hand"]
            assert new["view"]["scores"] == old["views"][str(seat)]["scores"]
            # the other seat is the computer, hints on
            other = next(s for s in new["seats"] if s["seat"] != seat)
            assert other["kind"] == "ai", new["seats"]
            assert new["hints"] is True
            # the learner plays on from there
            act = pick(new, rng)
            r = c.post(f"/api/games/{made['id']}/actions", json={"action": act, "n": step},
                       headers=bearer(made["token"]))
            assert r.status_code == 200, r.text


def test_play_from_here_counts_as_a_new_game(tmp_path: Path) -> None:
    """Each position played from the analysis is a new game: the limit on new games
    holds for it (a burst of two at six a minute)."""
    with client(tmp_path, create_per_minute=6.0) as c:
        made = c.post("/api/games", json={"opponent": "random"}).json()
        gid, token = made["id"], made["token"]
        codes = [c.post(f"/api/games/{gid}/from/0", headers=bearer(token)).status_code
                 for _ in range(3)]
        assert codes[-1] == 429, codes
