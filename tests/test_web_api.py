"""The HTTP API as the issue states it: create, view, act, invite; errors that say why."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from piquet.core.match import Match
from piquet.web.refusals import clean_name
from test_web_kit import bearer, client, create, pick, view, walk


def test_create_view_act_as_documented(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/games", json={"rules": "encyclopedia-19c", "opponent": "random"})
        assert r.status_code == 201
        made = r.json()
        assert isinstance(made["id"], str) and isinstance(made["token"], str)
        assert len(made["token"]) >= 40  # 32 random bytes
        game = view(c, made["id"], made["token"], wait=10)
        assert isinstance(game["finished"], bool) and game["finished"] is False
        assert all(isinstance(a["id"], str) for a in game["legal_actions"])
        assert game["your_turn"] and game["legal_actions"]
        n = game["n"]
        r = c.post(
            f"/api/games/{made['id']}/actions",
            json={"action": pick(game, random.Random(1))},
            headers=bearer(made["token"]),
        )
        assert r.status_code == 200, r.text
        after = r.json()
        assert after["n"] == n + 1 and "legal_actions" in after and "finished" in after


def test_exchange_lists_one_discard_descriptor(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for _attempt in range(20):
            made = create(c, rules="encyclopedia-19c", opponent="random")
            game = view(c, made["id"], made["token"], wait=10)
            if game["view"]["deal"]["phase"] == "exchange":
                break
        else:  # pragma: no cover
            pytest.skip("no exchange turn came up")
        [d] = game["legal_actions"]
        assert d["id"] == "discard" and d["kind"] == "discard"
        assert 0 <= d["min"] <= d["max"] <= 12
        hand = game["view"]["deal"]["hand"]
        too_many = "discard:" + " ".join(hand[: d["max"] + 1])
        r = c.post(
            f"/api/games/{made['id']}/actions",
            json={"action": too_many},
            headers=bearer(made["token"]),
        )
        assert r.status_code == 422 and "error" in r.json()
        ok = "discard:" + " ".join(hand[: max(1, d["min"])])
        r = c.post(
            f"/api/games/{made['id']}/actions", json={"action": ok}, headers=bearer(made["token"])
        )
        assert r.status_code == 200, r.text


def test_tokens_missing_wrong_or_of_another_game_reveal_nothing(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        a = create(c, opponent="random")
        b = create(c, opponent="random")
        url = f"/api/games/{a['id']}"
        assert c.get(url).status_code == 401
        for headers in (bearer("x" * 43), bearer(b["token"]), {"Authorization": "Basic abc"}):
            r = c.get(url, headers=headers)
            assert r.status_code in (401, 403, 404)
            assert set(r.json()) == {"error"}
        # an unknown game and a wrong token answer alike
        unknown = c.get("/api/games/nosuchgame", headers=bearer(a["token"]))
        wrong = c.get(url, headers=bearer(b["token"]))
        assert unknown.status_code == wrong.status_code == 404
        assert unknown.json() == wrong.json()
        for path in ("/actions", "/invite"):
            r = c.post(url + path, json={"action": "pass"}, headers=bearer(b["token"]))
            assert r.status_code == 404


def test_illegal_or_malformed_actions_leave_the_game_unchanged(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, opponent="random")
        gid, tok = made["id"], made["token"]
        before = view(c, gid, tok, wait=10)
        cases = [
            ({"action": "fly:me"}, 400),
            ({"action": "play:ZZ"}, 400),
            (
                {"action": "play:AS"}
                if "AS" not in before["view"]["deal"]["hand"]
                else {"action": "play:7S"},
                422,
            ),
            ({"nothing": 1}, 422),
            ({"action": 12}, 422),
            ({"action": "x" * 500}, 422),
        ]
        for body, status in cases:
            r = c.post(f"/api/games/{gid}/actions", json=body, headers=bearer(tok))
            assert r.status_code in (status, 409, 422), (body, r.text)
            assert isinstance(r.json()["error"], str) and r.json()["error"]
        r = c.post(
            f"/api/games/{gid}/actions",
            content=b"{not json",
            headers={**bearer(tok), "content-type": "application/json"},
        )
        assert r.status_code == 422 and "error" in r.json()
        after = view(c, gid, tok)
        assert after["n"] == before["n"] and after["view"] == before["view"]


def test_illegal_action_error_says_what_is_allowed(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        rng = random.Random(5)
        made = create(c, opponent="random")
        gid, tok = made["id"], made["token"]
        game = view(c, gid, tok, wait=10)
        # play until a trick must be followed, then try a wrong card
        for _ in range(400):
            if game["finished"]:
                pytest.skip("game ended first")
            d = game["view"]["deal"]
            if game["your_turn"] and d and d["phase"] == "play" and d["trick_lead"]:
                legal = {a["id"] for a in game["legal_actions"]}
                wrong = [c_ for c_ in d["hand"] if f"play:{c_}" not in legal]
                if wrong:
                    r = c.post(
                        f"/api/games/{gid}/actions",
                        json={"action": f"play:{wrong[0]}"},
                        headers=bearer(tok),
                    )
                    assert r.status_code == 422
                    assert "follow" in r.json()["error"]
                    return
            if game["your_turn"]:
                r = c.post(
                    f"/api/games/{gid}/actions",
                    json={"action": pick(game, rng)},
                    headers=bearer(tok),
                )
                game = r.json()
            else:
                game = view(c, gid, tok, wait=5)
        pytest.skip("no revoke chance came up")


def test_not_your_turn_is_409(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, opponent="friend")
        gid = made["id"]
        code = made["invites"][0]["invite"]
        r = c.post(f"/api/games/{gid}/join", json={"invite": code, "name": "Béatrice"})
        assert r.status_code == 201
        other = r.json()
        tokens = {0: made["token"], 1: other["token"]}
        game = view(c, gid, tokens[0])
        idle = 1 - game["to_act"]
        r = c.post(
            f"/api/games/{gid}/actions", json={"action": "pass"}, headers=bearer(tokens[idle])
        )
        assert r.status_code == 409 and "not your turn" in r.json()["error"]


def test_invite_makes_a_second_seat_with_its_own_token(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, opponent="friend", name="Ann")
        gid = made["id"]
        [inv] = made["invites"]
        assert inv["seat"] == 1 and inv["url"] == f"/join/{gid}#invite={inv['invite']}"
        seats = view(c, gid, made["token"])["seats"]
        assert seats[1]["kind"] == "human" and not seats[1]["joined"]
        assert c.post(f"/api/games/{gid}/join", json={"invite": "nope"}).status_code == 404
        r = c.post(f"/api/games/{gid}/join", json={"invite": inv["invite"], "name": "Bob"})
        assert r.status_code == 201
        joined = r.json()
        assert joined["seat"] == 1 and joined["token"] != made["token"]
        # the invitation is spent
        again = c.post(f"/api/games/{gid}/join", json={"invite": inv["invite"]})
        assert again.status_code == 404
        g1 = view(c, gid, joined["token"])
        assert g1["seat"] == 1 and g1["seats"][1]["name"] == "Bob" and g1["seats"][1]["joined"]
        assert g1["view"]["names"] == ["Ann", "Bob"]
        # a new link for a seat already taken: none
        r = c.post(f"/api/games/{gid}/invite", headers=bearer(made["token"]))
        assert r.status_code == 200 and r.json()["invites"] == []


def test_a_new_invite_link_replaces_the_old(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, opponent="friend")
        gid = made["id"]
        old = made["invites"][0]["invite"]
        r = c.post(f"/api/games/{gid}/invite", headers=bearer(made["token"]))
        [new] = r.json()["invites"]
        assert new["invite"] != old
        assert c.post(f"/api/games/{gid}/join", json={"invite": old}).status_code == 404
        assert c.post(f"/api/games/{gid}/join", json={"invite": new["invite"]}).status_code == 201


def test_whole_game_between_two_seats_then_record_and_replay(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = create(c, rules="rubicon", format="game", opponent="friend")
        gid = made["id"]
        joined = c.post(
            f"/api/games/{gid}/join", json={"invite": made["invites"][0]["invite"]}
        ).json()
        tokens = {0: made["token"], 1: joined["token"]}
        r = c.get(f"/api/games/{gid}/record", headers=bearer(tokens[0]))
        assert r.status_code == 409  # the seed would show every hand
        assert c.get(f"/api/games/{gid}/replay", headers=bearer(tokens[0])).status_code == 409
        final = walk(c, gid, tokens, random.Random(3))
        assert final["finished"] and final["legal_actions"] == [] and final["result"]
        r = c.get(f"/api/games/{gid}/record", params={"as": "json"}, headers=bearer(tokens[1]))
        assert r.status_code == 200
        assert "attachment" in r.headers["content-disposition"]
        record = r.json()
        m = Match.from_record(record)
        assert m.finished and m.result() == final["result"]
        assert len(record["actions"]) == final["n"]
        if "text" in c.get("/api/options").json()["record_formats"]:
            r = c.get(f"/api/games/{gid}/record", params={"as": "text"}, headers=bearer(tokens[0]))
            assert r.status_code == 200 and r.text.startswith("[Piquet")
            assert r.headers["content-type"].startswith("text/plain")
        rp = c.get(f"/api/games/{gid}/replay", params={"step": 5}, headers=bearer(tokens[0])).json()
        assert rp["steps"] == final["n"] and rp["step"] == 5 and rp["action"]["id"]
        assert set(rp["views"]) == {"0", "1"}
        bad = c.get(
            f"/api/games/{gid}/replay", params={"step": final["n"] + 1}, headers=bearer(tokens[0])
        )
        assert bad.status_code == 400
        # each step names the lines its action added and who said each: an answer "good"
        # is the answerer's words, and the cards it makes the other show are his deed
        answered = ended = 0
        for step in range(1, final["n"] + 1):
            rp = c.get(f"/api/games/{gid}/replay", params={"step": step},
                       headers=bearer(tokens[0])).json()
            act, lines = rp["action"], rp["action"]["lines"]
            assert rp["resigned"] is None
            # the step that ends a deal shows that deal as it ended (not the next one's
            # start, nor an empty table at the very end)
            for v in rp["views"].values():
                assert v["deal"] is not None and v["role"] in ("elder", "younger")
                if v["deal"]["phase"] == "over":
                    summary = next(s for s in final["view"]["deals"]
                                   if (s["game"], s["number"]) == (v["game_number"],
                                                                   v["deal_number"]))
                    assert summary["points"] == [v["deal"]["scores"]["elder"],
                                                 v["deal"]["scores"]["younger"]]
                    ended += 1
            if act["id"] == "good" and len(lines) > 1:
                assert lines[0] == {"player": act["player"], "said": "Good.", "deed": False}
                # what follows is the other's: the cards he shows (his deed), or under
                # rubicon, where sets are told and not shown, his words ("And three tens.")
                rest = lines[1:]
                assert all(ln["player"] == 1 - act["player"] for ln in rest)
                assert all(ln["said"].startswith("shows ") for ln in rest if ln["deed"])
                assert all(ln["deed"] or ln["said"].startswith("And ") for ln in rest), rest
                answered += 1
            if act["id"].startswith("play:"):
                assert lines == []
        assert answered and ended >= 2 * len(final["view"]["deals"])


@pytest.mark.parametrize(
    ("rules", "fmt"),
    [("encyclopedia-19c", "partie"), ("court-gamester-1754", "pool"), ("du-coeur-1995", None)],
)
def test_formats_play_to_the_end_against_the_computer(
    tmp_path: Path, rules: str, fmt: str | None
) -> None:
    with client(tmp_path) as c:
        made = create(c, rules=rules, format=fmt, opponent="random")
        final = walk(c, made["id"], {0: made["token"]}, random.Random(7))
        assert final["finished"]
        assert final["format"] == (fmt or final["format"])
        if fmt == "pool":  # two computers of one level, told apart
            assert [s["name"] for s in final["seats"]][1:] == [
                "Computer 1 (random)", "Computer 2 (random)"]


def test_new_game_choices_are_checked(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for body, word in [
            ({"rules": "bezique"}, "rule sets are"),
            ({"rules": "../../etc/house.toml"}, "rule sets are"),
            ({"rules": "rubicon", "format": "pool"}, "plays"),
            ({"format": "marathon"}, "unknown format"),
            ({"opponent": "grandmaster"}, "choose one of"),
        ]:
            r = c.post("/api/games", json=body)
            assert r.status_code == 400, body
            assert word in r.json()["error"]
        r = c.post("/api/games", json={"rules": "1754", "format": "pool", "opponents": ["random"]})
        assert r.status_code == 201  # one opponent fills both other seats of a pool


def test_options_list_rule_sets_levels_and_summaries(tmp_path: Path) -> None:
    from piquet.core.rules import PRESETS
    from piquet.players import LEVELS

    with client(tmp_path) as c:
        opts = c.get("/api/options").json()
        assert [r["name"] for r in opts["rules"]] == list(PRESETS)
        assert opts["levels"] == list(LEVELS) and opts["opponents"][-1] == "friend"
        # a new game offers the strongest first (as the terminal), each level in words
        assert opts["default_level"] == "expert" and opts["default_level"] in opts["levels"]
        assert all(opts["level_notes"][level] for level in opts["levels"])
        assert opts["default_rules"] == "encyclopedia-19c"
        pools = [r["name"] for r in opts["rules"] if "pool" in r["formats"]]
        assert pools == [n for n, r in PRESETS.items() if any(f.value == "pool" for f in r.formats)]
        assert all(len(r["summary"]) >= 8 for r in opts["rules"])


def test_hints_say_when_unavailable_or_off(tmp_path: Path) -> None:
    import importlib.util

    with client(tmp_path) as c:
        off = create(c, opponent="random")
        view(c, off["id"], off["token"], wait=10)
        r = c.get(f"/api/games/{off['id']}/hint", headers=bearer(off["token"]))
        assert r.status_code == 409 and "off" in r.json()["error"]
        on = create(c, opponent="random", hints=True)
        view(c, on["id"], on["token"], wait=10)
        r = c.get(f"/api/games/{on['id']}/hint", headers=bearer(on["token"]))
        if importlib.util.find_spec("piquet.advisor") is None:
            assert r.status_code == 404 and "not available" in r.json()["error"]
        else:
            assert r.status_code in (200, 409)


def test_names_are_cleaned_and_kept_as_text(tmp_path: Path) -> None:
    assert clean_name("  <b>Ann</b>\x00\u202e  ", "x") == "<b>Ann</b>"
    assert clean_name("", "Guest") == "Guest"
    assert len(clean_name("A" * 500, "x")) == 30
    with client(tmp_path) as c:
        made = create(c, opponent="random", name='<script>alert("x")</script>')
        g = view(c, made["id"], made["token"])
        assert g["seats"][0]["name"] == '<script>alert("x")</s'[:30] or g["seats"][0]["name"]
        r = c.get(f"/api/games/{made['id']}", headers=bearer(made["token"]))
        assert r.headers["content-type"].startswith("application/json")


def test_request_sizes_and_rates_are_limited(tmp_path: Path) -> None:
    """A burst of ten, then one every two seconds: thirty requests meet the limit however
    slowly the machine answers them (a separate request after them, at five a second, was
    answered 200 on a loaded machine: the bucket had refilled meanwhile)."""
    with client(tmp_path, rate=0.5, burst=10, create_per_minute=6.0) as c:
        big = json.dumps({"rules": "x" * 40000})
        r = c.post("/api/games", content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and "error" in r.json()
        answers = [c.get("/api/options") for _ in range(30)]
        refused = [r for r in answers if r.status_code == 429]
        assert refused, [r.status_code for r in answers]
        r = refused[0]
        assert int(r.headers["retry-after"]) >= 1
        assert r.json()["error"].startswith("too many requests")


def test_game_creation_has_its_own_limit(tmp_path: Path) -> None:
    with client(tmp_path, create_per_minute=3.0) as c:
        codes = [c.post("/api/games", json={}).status_code for _ in range(5)]
        assert codes[0] == 201 and 429 in codes


def test_a_rematch_counts_as_a_new_game(tmp_path: Path) -> None:
    """Resign and rematch, over and over, made a game at each turn past the limit on new
    games (59 in two seconds)."""
    with client(tmp_path, create_per_minute=6.0) as c:  # a burst of two
        made = c.post("/api/games", json={}).json()
        gid, token = made["id"], made["token"]
        codes = []
        for _ in range(6):
            assert c.post(f"/api/games/{gid}/resign", headers=bearer(token)).status_code == 200
            r = c.post(f"/api/games/{gid}/rematch", headers=bearer(token))
            codes.append(r.status_code)
            if r.status_code != 201:
                assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
                break
            gid, token = r.json()["id"], r.json()["token"]
        assert codes[0] == 201 and codes[-1] == 429


def test_pages_carry_security_headers(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for path in ("/", "/play/abc", "/join/abc", "/replay/abc"):
            r = c.get(path)
            assert r.status_code == 200 and "<main" in r.text
            assert "script-src 'self'" in r.headers["content-security-policy"]
            assert r.headers["x-content-type-options"] == "nosniff"
        assert c.get("/static/app.js").status_code == 200
        spec = c.get("/openapi.json").json()
        assert {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions"} <= set(
            spec["paths"]
        )


def test_unknown_paths_and_methods_answer_json_errors(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.get("/api/nothing")
        assert r.status_code == 404 and "error" in r.json()
        r = c.delete("/api/games")
        assert r.status_code == 405 and "error" in r.json()
        r = c.get("/api/games/bad id!", headers=bearer("x"))
        assert r.status_code in (404, 422)
