"""Learning Piquet over HTTP (web/learn_routes.py): the glossary, the lessons checked by
the engine, the puzzles judged on the server, the guided deal's coach (the seat's own view
only), the words of the deal just finished, and the hint's word for one move only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from piquet.learn.glossary import GLOSSARY, lookup, terms_in
from piquet.learn.lessons import LESSONS
from piquet.learn.puzzles import choose
from test_web_kit import bearer, client, view

STATIC = Path(__file__).resolve().parents[1] / "src" / "piquet" / "web" / "static"


def test_glossary_is_the_modules_own(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        res = c.get("/api/learn/glossary").json()
    assert [t["key"] for t in res["terms"]] == list(GLOSSARY)
    elder = next(t for t in res["terms"] if t["key"] == "elder")
    assert "did not deal" in elder["definition"]
    forms = [f for f, _k in res["forms"]]
    assert forms == sorted(forms, key=lambda f: (-len(f), f))  # longest first, as terms_in
    for form, key in res["forms"]:
        assert lookup(form) is not None and lookup(form).key == key  # type: ignore[union-attr]


def test_lessons_listed_and_checked_by_the_engine(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        listed = c.get("/api/learn/lessons").json()["lessons"]
        assert [x["key"] for x in listed] == [x.key for x in LESSONS]
        assert len(listed) == 14
        assert listed[0]["rules_title"].startswith("Rubicon Piquet")
        point = c.get("/api/learn/lessons/point").json()
        steps = point["step_list"]
        # a marked term comes as a piece of its own; the answer is never sent
        assert any(s.get("term") == "point" for s in steps[0]["text"])
        assert "expected" not in str(point)
        asked = next(s for s in steps if s["question"] and s["question"]["ask"] == "winner")
        assert asked["position"]["hand"] and "opponent_hand" not in asked["position"]
        url = f"/api/learn/lessons/point/steps/{asked['index']}/check"
        wrong = c.post(url, json={"answer": "elder"}).json()
        right = c.post(url, json={"answer": "younger"}).json()
        assert wrong["correct"] is False and right["correct"] is True
        assert right["answer"].startswith("younger")
        bad = c.post(url, json={"answer": "me"})
        assert bad.status_code == 400 and "elder, younger or neither" in bad.json()["error"]
        assert c.post("/api/learn/lessons/point/steps/0/check",
                      json={"answer": "x"}).status_code == 404
        missing = c.get("/api/learn/lessons/nope")
        assert missing.status_code == 404 and "the lessons are" in missing.json()["error"]


def test_every_lessons_expected_answer_is_right_over_http(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for les in LESSONS[:3]:
            for i, step in enumerate(les.steps):
                if step.question is None:
                    continue
                res = c.post(f"/api/learn/lessons/{les.key}/steps/{i}/check",
                             json={"answer": step.question.expected}).json()
                assert res["correct"], (les.key, i, res)


def test_a_puzzle_is_judged_on_the_server(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        p = c.get("/api/learn/puzzles", params={"rules": "rubicon", "theme": "lead",
                                                "seed": 1}).json()
        want = choose(rules="rubicon", theme="lead", seed=1)
        assert p["id"] == want.id and p["rules_title"].startswith("Rubicon Piquet")
        assert "values" not in p and "margin" not in p  # nothing tells the answer
        assert len(p["choices"]) >= 3
        best = next(ch for ch in p["choices"] if ch["id"] == str(want.best))
        other = next(ch for ch in p["choices"] if ch["id"] != str(want.best))
        right = c.post(f"/api/learn/puzzles/{p['id']}/answer",
                       json={"answer": str(best["n"])}).json()
        assert right["best"] is True and right["cost"] == 0 and right["margin"] >= 1.5
        assert "Right" in right["text"]
        wrong = c.post(f"/api/learn/puzzles/{p['id']}/answer",
                       json={"answer": other["id"]}).json()
        assert wrong["best"] is False and wrong["cost"] > 0 and "gives up" in wrong["text"]
        bad = c.post(f"/api/learn/puzzles/{p['id']}/answer", json={"answer": "99"})
        assert bad.status_code == 400 and "not one of the choices" in bad.json()["error"]
        none = c.get("/api/learn/puzzles", params={"theme": "bluff"})
        assert none.status_code == 404 and "the themes are" in none.json()["error"]


def _guided(c: TestClient, rules: str = "rubicon") -> dict[str, Any]:
    res = c.post("/api/learn/guided", json={"rules": rules, "name": "Ada"})
    assert res.status_code == 201, res.text
    return dict(res.json())


def test_guided_deal_coach_speaks_from_the_seats_view(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        g = _guided(c)
        gid, token = g["id"], g["token"]
        v = view(c, gid, token, wait=10)
        assert v["hints"] is True
        assert [s["level"] for s in v["seats"] if s["kind"] == "ai"] == ["book"]
        for _ in range(40):
            v = view(c, gid, token, wait=10)
            if v["your_turn"] or v["finished"]:
                break
        assert v["your_turn"]
        note = c.get(f"/api/games/{gid}/coach", headers=bearer(token)).json()
        assert note["guided"] is True and note["before"] is not None
        said = " ".join(note["before"]["sentences"])
        assert "You are " in said and note["before"]["title"]
        # each term met is explained once, with its definition
        assert note["before"]["terms"]
        for t in note["before"]["terms"]:
            assert t["definition"] == GLOSSARY[t["key"]].definition
        # the coach knows only this seat's cards: no card of the other hand is named
        hand = set(v["view"]["deal"]["hand"])
        other = set(re.findall(r"\b(?:10|[7-9TJQKA])[SHDC]\b", said)) - hand
        assert not other - set(v["view"]["deal"].get("stock_seen", []))
        again = c.get(f"/api/games/{gid}/coach", headers=bearer(token)).json()
        assert again["before"] == note["before"]  # asked twice, answered once
        # the hint in a learner's words, or an expert's; nothing else
        said = c.get(f"/api/games/{gid}/hint", params={"level": "learner"},
                     headers=bearer(token)).json()["hint"]
        assert said and "nothing to suggest" not in said
        bad = c.get(f"/api/games/{gid}/hint", params={"level": "guru"}, headers=bearer(token))
        assert bad.status_code == 422 and "level" in bad.json()["error"]
        # the coach's own choice taken: after it, the coach says so (nothing lost)
        action = note["before"]["action"]
        assert action and action["id"].split(":")[0] in [a["id"].split(":")[0]
                                                         for a in v["legal_actions"]]
        res = c.post(f"/api/games/{gid}/actions", json={"action": action["id"], "n": v["n"]},
                     headers=bearer(token))
        assert res.status_code == 200, res.text
        after = c.get(f"/api/games/{gid}/coach", headers=bearer(token)).json()["after"]
        assert after is not None and after["cost"] == 0
        assert "the coach's choice too" in after["sentences"][0]
        # the note and the word on the last choice may be asked apart
        only = c.get(f"/api/games/{gid}/coach", params={"part": "after"},
                     headers=bearer(token)).json()
        assert only["before"] is None and only["after"] == after
        assert c.get(f"/api/games/{gid}/coach", params={"part": "all"},
                     headers=bearer(token)).status_code == 422
        # a wrong token is refused; a game that is not guided has no coach
        assert c.get(f"/api/games/{gid}/coach", headers=bearer("nope")).status_code == 404
        plain = c.post("/api/games", json={"opponent": "random"}).json()
        res = c.get(f"/api/games/{plain['id']}/coach", headers=bearer(plain["token"]))
        assert res.status_code == 409 and "not a guided one" in res.json()["error"]


def test_guided_games_count_as_new_games_for_the_limit(tmp_path: Path) -> None:
    with client(tmp_path, create_per_minute=3) as c:
        codes = [c.post("/api/learn/guided", json={}).status_code for _ in range(4)]
    assert codes[0] == 201 and codes[-1] == 429


def test_guided_game_needs_a_known_rule_set(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        res = c.post("/api/learn/guided", json={"rules": "whist"})
        assert res.status_code in (400, 422)
        assert "rule set" in res.json()["error"] or "whist" in res.json()["error"]


def test_feedback_after_a_deal_says_why(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        g = c.post("/api/games", json={"opponent": "random", "rules": "rubicon",
                                       "format": "partie"}).json()
        gid, token = g["id"], g["token"]
        early = c.get(f"/api/games/{gid}/feedback", headers=bearer(token))
        assert early.status_code == 409
        for _ in range(200):
            v = view(c, gid, token, wait=5)
            if v["view"]["deals"]:
                break
            if v["your_turn"]:
                act = v["legal_actions"][0]
                aid = act["id"]
                if act["kind"] == "discard":
                    aid = "discard:" + " ".join(v["view"]["deal"]["hand"][: act["min"] or 1])
                c.post(f"/api/games/{gid}/actions", json={"action": aid, "n": v["n"]},
                       headers=bearer(token))
        words = c.get(f"/api/games/{gid}/feedback", headers=bearer(token)).json()
        assert words["deal"] == 1 and words["lines"]
        text = " ".join(words["lines"])
        assert re.search(r"won the|stood|declared no|Nobody declared|equal|counted", text)


def test_hint_says_only_one_move_in_plain_words(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from piquet.core.actions import Pass
    from piquet.web.app import only_move_words

    deal = SimpleNamespace(legal_actions=(Pass(),), hand=SimpleNamespace(mask=0))
    from piquet.core.rules import get_rules

    said = only_move_words(SimpleNamespace(deal=deal, rule_set=get_rules("rubicon")))
    assert said.startswith("Only one move here") and "nothing to suggest" not in said


def test_pages_are_served(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for path in ("/learn", "/learn/glossary", "/learn/lessons/point", "/learn/puzzles"):
            res = c.get(path)
            assert res.status_code == 200 and "app.js" in res.text


# ---------------------------------------------------------------------- words of the pages
def test_the_learning_pages_words_are_read_by_the_glossary_test() -> None:
    """tests/test_learn_glossary.py reads every script of the pages (learn.js among them)
    for the period terms they show and checks each is in the glossary; here: the page's
    own words name terms the glossary has."""
    text = (STATIC / "learn.js").read_text(encoding="utf-8")
    words = " ".join(re.findall(r'"([^"\n]{3,})"', text))
    named = {t.key for t in terms_in(words)}
    assert {"elder", "younger", "piquet"} <= named <= set(GLOSSARY)


def test_a_guided_deal_for_each_rule_set_points_out_its_own_ways(tmp_path: Path) -> None:
    """Issue 35: the guided first deal is there for every rule set, and at the exchange the
    coach says what that rule set does its own way there (how many cards each may take)."""
    from piquet.core.deal import Phase
    from piquet.core.rules import PRESETS, get_rules
    from piquet.learn.coach import particulars

    with client(tmp_path) as c:
        for preset in PRESETS:
            g = _guided(c, preset)
            gid, token = g["id"], g["token"]
            own = particulars(get_rules(preset), Phase.EXCHANGE)
            assert own, preset
            for _ in range(60):
                v = view(c, gid, token, wait=10)
                if not v["your_turn"]:
                    continue
                assert v["rules"] == preset
                note = c.get(f"/api/games/{gid}/coach", headers=bearer(token)).json()
                if v["view"]["deal"]["phase"] == "exchange":
                    said = note["before"]["sentences"]
                    assert all(s in said for s in own), (preset, said)
                    break
                # before the exchange (a question of the deal): the coach's choice
                action = note["before"]["action"] or v["legal_actions"][0]
                r = c.post(f"/api/games/{gid}/actions",
                           json={"action": action["id"], "n": v["n"]}, headers=bearer(token))
                assert r.status_code == 200, r.text
            else:  # pragma: no cover
                raise AssertionError(f"{preset}: the guided seat never reached the exchange")
