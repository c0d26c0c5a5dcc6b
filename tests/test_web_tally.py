"""The tally in the browser: games played with real cards, scored through the HTTP API.

Whole matches played in the engine are entered line by line as a real table would enter
them (``test_tally._entries_for``) and must give the engine's result; what the rule set
forbids is refused with a message and changes nothing; tallies survive a restart of the
server on the same database; the record downloaded replays with
``TallySession.from_record``.  The page itself is driven by Playwright at the end.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from browserkit import box_of
from piquet.core.match import new_match
from piquet.tally import TallySession
from piquet.web.app import create_app
from piquet.web.tally_schemas import TallyOut
from piquet.web.tally_view import speak
from piquet.web.tallystore import TallyStore
from test_tally import ELDER_HAND, YOUNGER_HAND, _entries_for
from test_web_kit import (
    ThreadServer,
    bearer,
    client,
    config,
    screenshot,
)

# the scripted deal of test_tally: Bob deals, Anne is elder (court-gamester-1754)
SCRIPT = [
    "dealer Bob",
    f"elder {ELDER_HAND}",
    f"younger {YOUNGER_HAND}",
    "Anne: discard 9D 8D 7C 8C take 8H 7H TD 7D",
    "discard 9S 8S 7S take QC JC TC",
    "decline",
    "point AS KS QS JS TS",
    "equal",
    "sequence AS KS QS JS TS",
    "equal",
    "pass",
    "pass",
]


def new_tally(c: TestClient, **body: Any) -> tuple[str, str, dict[str, Any]]:
    body.setdefault("rules", "court-gamester-1754")
    body.setdefault("names", ["Anne", "Bob"])
    r = c.post("/api/tallies", json=body)
    assert r.status_code == 201, r.text
    made = r.json()
    return made["id"], made["token"], made["tally"]


def enter(c: TestClient, tid: str, token: str, entry: str, status: int = 200) -> dict[str, Any]:
    r = c.post(f"/api/tallies/{tid}/entries", json={"entry": entry}, headers=bearer(token))
    assert r.status_code == status, (entry, r.text)
    data: dict[str, Any] = r.json()
    return data


def state(c: TestClient, tid: str, token: str) -> dict[str, Any]:
    r = c.get(f"/api/tallies/{tid}", headers=bearer(token))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


# ---------------------------------------------------------------------- whole games
@pytest.mark.parametrize(("preset", "seed"), [("rubicon", 2), ("court-gamester-1754", 1)])
def test_a_match_played_in_the_engine_entered_line_by_line_gives_its_result(
    tmp_path: Path, preset: str, seed: int
) -> None:
    played, lines = _entries_for(
        new_match(preset, seed=seed, names=("Anne", "Bob")), random.Random(seed)
    )
    with client(tmp_path) as c:
        tid, tok, t = new_tally(c, rules=preset)
        assert t["n"] == 0 and t["scores"] == [0, 0] and "dealer" in t["expecting"]
        first_deal_seen = False
        for line in lines:
            t = enter(c, tid, tok, line)
            TallyOut.model_validate(t)  # every state keeps the documented schema
            if t["deals"] and not first_deal_seen:
                first_deal_seen = True
                d, e = t["deals"][0], played.deals[0]
                assert d["points"] == list(e.points)
                assert [d["elder"], d["younger"]] == [played.names[p] for p in e.players]
                # the deal just finished stays on the page, its dialog and counts whole,
                # until the next deal's cards are entered
                last = t["last_deal"]
                assert last is not None and last["number"] == 1 and last["dialog"]
                assert last["points"] == {"elder": e.points[0], "younger": e.points[1]}
                assert sum(ev["points"] for ev in last["events"] if ev["seat"] == "elder") \
                    == e.points[0]
            if t["deal"] is not None and t["deal"]["phase"] != "cards":
                assert t["last_deal"] is None
        assert t["finished"] and t["deal"] is None
        assert t["last_deal"] is not None and t["last_deal"]["number"] == played.deals[-1].number
        assert t["result"] == played.result()
        assert t["result_text"] and ("wins" in t["result_text"] or "Drawn" in t["result_text"])
        assert len(t["deals"]) == len(played.deals)
        assert t["n"] == len(t["entries"]) >= len(lines)
        # the entries read back as lines the tally accepts: entering them again replays it
        tid2, tok2, _ = new_tally(c, rules=preset)
        for e in t["entries"]:
            t2 = enter(c, tid2, tok2, e["text"])
        assert t2["result"] == played.result() and t2["n"] == t["n"]
        # nothing more once the match is over (undo still works)
        r = c.post(f"/api/tallies/{tid}/entries", json={"entry": "pass"}, headers=bearer(tok))
        assert r.status_code == 409 and "over" in r.json()["error"]
        r = c.post(f"/api/tallies/{tid}/undo", headers=bearer(tok))
        assert r.status_code == 200 and not r.json()["finished"]


def test_a_scripted_deal_shows_the_cards_the_dialog_and_the_score(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid, tok, t = new_tally(c)
        assert t["deal"]["phase"] == "cards" and t["deck_size"] == 32
        for line in SCRIPT[:2]:
            t = enter(c, tid, tok, line)
        assert t["deal"]["dealer"] == "Bob" and t["deal"]["cards"]["elder"]["name"] == "Anne"
        assert sorted(t["deal"]["cards"]["elder"]["dealt"]) == sorted(ELDER_HAND.split())
        for line in SCRIPT[2:]:
            t = enter(c, tid, tok, line)
        d = t["deal"]
        assert d["phase"] == "play" and d["to_act"] == "elder" and d["to_act_name"] == "Anne"
        assert sorted(d["cards"]["elder"]["taken"]) == sorted("8H 7H TD 7D".split())
        assert sorted(d["cards"]["younger"]["discards"]) == sorted("9S 8S 7S".split())
        assert [line["text"] for line in d["dialog"]][:2] == [
            "elder exchanges 4",
            "younger exchanges 3",
        ]
        assert t["scores"] == [0, 0]
        t = enter(c, tid, tok, "AS JH")  # a tenth card led counts one (1754)
        assert t["scores"] == [1, 0]
        assert t["deal"]["tricks"] == [
            {"leader": "elder", "lead": "AS", "follow": "JH", "winner": "elder"}
        ]
        assert t["deal"]["cards"]["elder"]["played"] == ["AS"]
        assert "AS" not in t["deal"]["cards"]["elder"]["hand"]
        texts = [e["text"] for e in t["entries"]]
        assert texts[3] == "elder: discard 9D 8D 8C 7C take 8H 7H TD 7D"
        assert texts[-2:] == ["AS", "JH"]
        assert [e["by"] for e in t["entries"][-2:]] == ["Anne", "Bob"]
        assert t["entries"][1]["by"] is None  # the cards dealt are nobody's move


def test_cards_taken_in_later_are_unknown_until_entered(tmp_path: Path) -> None:
    blank_elder = "AS TS 9S 8S AH TH 9H 8H AD TD AC TC"
    younger = "KS QS JS KH QH JH KD QD JD KC QC JC"
    with client(tmp_path) as c:
        tid, tok, _ = new_tally(c)
        for line in ["dealer Bob", f"elder {blank_elder}", f"younger {younger}", "blanche 2"]:
            t = enter(c, tid, tok, line)
        t = enter(c, tid, tok, "discard JD JC")  # younger lays out first
        t = enter(c, tid, tok, "discard 8S 8H take 7S 7H")  # elder shows, counts 10, takes
        d = t["deal"]
        assert d["pending_take"] == "younger" and d["to_act"] == "younger"
        young = d["cards"]["younger"]
        assert young["taken"] == [] and young["taken_unknown"] == 2 and len(young["hand"]) == 10
        assert t["scores"] == [10, 0] and "take" in t["expecting"]
        refused = enter(c, tid, tok, "decline", 422)
        assert "first say which cards younger took in" in refused["error"]
        t = enter(c, tid, tok, "take 7D 7C")
        assert sorted(t["deal"]["cards"]["younger"]["taken"]) == ["7C", "7D"]
        assert t["deal"]["cards"]["younger"]["taken_unknown"] == 0


# ---------------------------------------------------------------------- refusals
@pytest.mark.parametrize(
    ("lines", "entry", "status", "words"),
    [
        (SCRIPT[:6], "point AS KS QS JS TS 9S", 422, "cannot show"),  # a claim not in hand
        (SCRIPT[:4], "Anne: discard 7C take QC", 422, "does not allow discarding twice"),
        (SCRIPT[:5], "discard 7C", 422, "does not allow discarding twice"),
        (SCRIPT[:3], "discard 9S take 8H", 422, "does not hold 9S"),  # a card not in hand
        (SCRIPT[:3], "younger: discard 9S take 8H", 422, "not younger's turn"),  # out of turn
        (SCRIPT[:3], "Bob: discard 9S take 8H", 422, "not younger's turn"),
        ([*SCRIPT, "AS"], "Anne: KS", 422, "not elder's turn"),  # younger is to follow
        ([*SCRIPT, "AS"], "KS", 422, "KS"),  # Bob holds no KS
        (SCRIPT[:3], "discard 9D 8D", 422, "say which 2 cards elder takes in"),
        (SCRIPT[:3], "discard ZZ take 8H", 400, "ZZ"),
        (SCRIPT[:3], "Carol: pass", 400, "not elder, younger or a player"),
        ([], "elder AS KS", 422, "dealt 12 cards"),
        ([], "fly me to the moon", 422, "not entered yet"),
    ],
)
def test_what_the_rules_forbid_is_refused_and_changes_nothing(
    tmp_path: Path, lines: list[str], entry: str, status: int, words: str
) -> None:
    with client(tmp_path) as c:
        tid, tok, _ = new_tally(c)
        for line in lines:
            enter(c, tid, tok, line)
        before = state(c, tid, tok)
        err = enter(c, tid, tok, entry, status)
        assert set(err) == {"error"} and words in err["error"]
        assert state(c, tid, tok) == before


def test_refusals_speak_the_tallys_words_not_action_ids(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid, tok, _ = new_tally(c)
        for line in SCRIPT[:6]:
            t = enter(c, tid, tok, line)
        assert "declare:" not in t["expecting"] and "point AS KS QS JS TS" in t["expecting"]
        err = enter(c, tid, tok, "point AS KS QS JS TS 9S", 422)["error"]
        assert "declare:" not in err and "Allowed: point AS KS QS JS TS" in err


def test_undo_takes_back_the_last_entry_and_then_says_there_is_none(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid, tok, _ = new_tally(c)
        t0 = enter(c, tid, tok, "dealer Bob")
        t1 = enter(c, tid, tok, f"elder {ELDER_HAND}")
        r = c.post(f"/api/tallies/{tid}/undo", headers=bearer(tok))
        assert r.status_code == 200
        back = r.json()
        assert back["n"] == t0["n"] == 1 and back["version"] == t1["version"] + 1
        assert back["deal"]["cards"]["elder"]["dealt"] == []
        assert enter(c, tid, tok, "undo")["n"] == 0  # typed, as at the terminal
        r = c.post(f"/api/tallies/{tid}/undo", headers=bearer(tok))
        assert r.status_code == 409 and "nothing to undo" in r.json()["error"]
        # blank lines and comments change nothing
        assert enter(c, tid, tok, "   ")["version"] == enter(c, tid, tok, "# cut")["version"]


def test_an_entry_made_on_an_older_version_is_refused_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """Two devices on one sheet: the second, still showing Bob's sequence as next after the
    first had entered it, tapped "pass", which was taken as Bob passing his set.  An entry
    (or an undo) says the version it was made on; a stale one is refused (409) and the
    sheet is sent as it stands."""
    with client(tmp_path) as c:
        tid, tok, _ = new_tally(c)
        seen = enter(c, tid, tok, "dealer Bob")
        moved = enter(c, tid, tok, f"elder {ELDER_HAND}")  # the other device
        late = c.post(f"/api/tallies/{tid}/entries",
                      json={"entry": f"younger {YOUNGER_HAND}", "version": seen["version"]},
                      headers=bearer(tok))
        assert late.status_code == 409 and "changed meanwhile" in late.json()["error"]
        undo = c.post(f"/api/tallies/{tid}/undo", json={"version": seen["version"]},
                      headers=bearer(tok))
        assert undo.status_code == 409
        assert state(c, tid, tok)["version"] == moved["version"]
        fresh = c.post(f"/api/tallies/{tid}/entries",
                       json={"entry": f"younger {YOUNGER_HAND}", "version": moved["version"]},
                       headers=bearer(tok))
        assert fresh.status_code == 200 and fresh.json()["n"] == moved["n"] + 1
        # without a version, as before: whatever stands
        assert enter(c, tid, tok, "undo")["n"] == moved["n"]


WORDS = [
    *"dealer packet elder younger blanche discard take point sequence set pass good".split(),
    *"not equal making ask look decline name appoint undo play: declare: # : Anne Bob".split(),
    *"AS KS QS 7H 8H 9D 6D ZZ 10H 0 1 2 12 -".split(),
    "Anne:",
    "elder:",
    "younger:",
]


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, str]]:
    with client(tmp_path_factory.mktemp("fuzz")) as c:
        tid, tok, _ = new_tally(c)
        for line in SCRIPT[:3]:
            enter(c, tid, tok, line)
        yield c, tid, tok


@given(
    text=st.one_of(
        st.text(max_size=80),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=7).map(" ".join),
    )
)
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_text_is_answered_without_failing(
    dealt: tuple[TestClient, str, str], text: str
) -> None:
    c, tid, tok = dealt
    r = c.post(f"/api/tallies/{tid}/entries", json={"entry": text}, headers=bearer(tok))
    assert r.status_code in (200, 400, 409, 422), r.text
    body = r.json()
    if r.status_code == 200:
        TallyOut.model_validate(body)
        if body["n"] != 3:  # accepted: take it back, to try the next text on the same deal
            while body["n"] > 3:
                body = c.post(f"/api/tallies/{tid}/undo", headers=bearer(tok)).json()
            while body["n"] < 3:
                body = enter(c, tid, tok, SCRIPT[body["n"]])
    else:
        assert set(body) == {"error"} and isinstance(body["error"], str) and body["error"]


# ---------------------------------------------------------------------- tokens and bodies
def test_tokens_missing_wrong_or_of_another_tally_reveal_nothing(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        a, tok_a, _ = new_tally(c)
        _b, tok_b, _ = new_tally(c)
        for path, method in (("", "get"), ("/record", "get"), ("/undo", "post")):
            url = f"/api/tallies/{a}{path}"
            r = c.request(method.upper(), url)
            assert r.status_code == 401 and set(r.json()) == {"error"}
            for headers in (bearer("x" * 43), bearer(tok_b), bearer("y" * 500)):
                r = c.request(method.upper(), url, headers=headers)
                assert r.status_code == 404, (path, r.text)
                assert r.json() == {"error": "no such tally, or its key is not this one: "
                                             "open the tally by its own link"}
        r = c.post(f"/api/tallies/{a}/entries", json={"entry": "dealer Bob"}, headers=bearer(tok_b))
        assert r.status_code == 404
        unknown = c.get("/api/tallies/nosuchtally", headers=bearer(tok_a))
        assert unknown.status_code == 404 and unknown.json()["error"].startswith("no such tally")
        assert c.get("/api/tallies/bad id!", headers=bearer(tok_a)).status_code in (404, 422)
        assert state(c, a, tok_a)["n"] == 0


def test_malformed_bodies_and_choices_are_refused_with_json(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid, tok, _ = new_tally(c)
        url = f"/api/tallies/{tid}/entries"
        for body in ({"nothing": 1}, {"entry": 12}, {"entry": "x" * 301}, [], "pass"):
            r = c.post(url, json=body, headers=bearer(tok))
            assert r.status_code == 422 and r.json()["error"].startswith("bad request"), body
        r = c.post(
            url, content=b"{not json", headers={**bearer(tok), "content-type": "application/json"}
        )
        assert r.status_code == 422 and "error" in r.json()
        assert state(c, tid, tok)["n"] == 0
        for body, status, words in [
            ({"rules": "bezique"}, 400, "rule sets are"),
            ({"rules": "../../etc/house.toml"}, 400, "rule sets are"),
            ({"rules": "court-gamester-1754", "format": "pool"}, 400, "not the pool"),
            ({"rules": "rubicon", "format": "marathon"}, 400, "unknown format"),
            ({"names": ["Anne", "anne"]}, 400, "different names"),
            ({"names": ["elder", "Bob"]}, 400, "'elder'"),
            ({"names": ["Anne: the first", "Bob"]}, 400, "':'"),
            ({"names": ["Anne"]}, 422, "bad request"),
            ({"names": ["A", "B", "C"]}, 422, "bad request"),
            ({"games": 0}, 422, "bad request"),
            ({"games": 99}, 422, "bad request"),
        ]:
            r = c.post("/api/tallies", json=body)
            assert r.status_code == status, (body, r.text)
            assert words in r.json()["error"], (body, r.text)


def test_names_are_cleaned_and_kept_as_text(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        _tid, _tok, t = new_tally(c, names=["  <b>Ann</b>\x00\u202e ", '<script>alert("x")'])
        assert t["names"] == ["<b>Ann</b>", '<script>alert("x")']
        assert "<b>Ann</b>" in t["expecting"]  # the JSON carries text; the page sets text


def test_rule_sets_formats_and_aliases(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        _tid, _tok, t = new_tally(c, rules="1754")
        assert t["rules"] == "court-gamester-1754" and t["format"] == "game"
        _tid, _tok, t = new_tally(c, rules="rubicon", format="partie", games=2)
        assert t["format"] == "partie" and t["games"] == 2 and t["deck_size"] == 32
        _tid, _tok, t = new_tally(c, rules="cotgrave-1662")
        assert t["deck_size"] == 36


def test_new_tallies_have_their_own_rate_limit(tmp_path: Path) -> None:
    with client(tmp_path, create_per_minute=3.0) as c:
        codes = [c.post("/api/tallies", json={}) for _ in range(5)]
        assert codes[0].status_code == 201
        limited = [r for r in codes if r.status_code == 429]
        assert limited and int(limited[0].headers["retry-after"]) >= 1
        assert limited[0].json()["error"].startswith("too many new tallies")


# ---------------------------------------------------------------------- keeping and records
def test_a_tally_survives_a_restart_on_the_same_database(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(config(db))) as c:
        tid, tok, _ = new_tally(c)
        for line in SCRIPT:
            before = enter(c, tid, tok, line)
        before = enter(c, tid, tok, "AS JH")
    with TestClient(create_app(config(db))) as c:
        again = state(c, tid, tok)
        assert again == before
        assert again["scores"] == [1, 0]
        t = enter(c, tid, tok, "KS AD")  # Bob has no spades left
        assert t["scores"] == [2, 0] and t["n"] == before["n"] + 2


def test_a_tally_on_postgresql_survives_a_restart(tmp_path: Path, pg_url: str) -> None:
    with TestClient(create_app(config(tmp_path / "x.sqlite3", database=pg_url))) as c:
        tid, tok, _ = new_tally(c)
        for line in SCRIPT:
            before = enter(c, tid, tok, line)
        assert c.post(f"/api/tallies/{tid}/undo", headers=bearer(tok)).status_code == 200
        before = enter(c, tid, tok, "pass")
    with TestClient(create_app(config(tmp_path / "x.sqlite3", database=pg_url))) as c:
        assert state(c, tid, tok) == before
        assert enter(c, tid, tok, "AS JH")["scores"] == [1, 0]


def test_two_servers_on_one_database_never_fork_a_tally(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(config(db))) as a, TestClient(create_app(config(db))) as b:
        tid, tok, _ = new_tally(a)
        for line in SCRIPT[:3]:
            enter(a, tid, tok, line)
        assert state(b, tid, tok)["n"] == 3
        assert b.post(f"/api/tallies/{tid}/undo", headers=bearer(tok)).json()["n"] == 2
        # a's cached session is of an older version: it replays what b wrote
        assert state(a, tid, tok)["n"] == 2
        t = enter(a, tid, tok, f"younger {YOUNGER_HAND}")
        assert state(b, tid, tok) == t
    # the store's optimistic write refuses a writer that read an older version
    from piquet.web.store import Store

    store = Store.open(f"sqlite:///{db}")
    try:
        tallies = TallyStore(store.engine)
        row = tallies.tally(tid)
        assert row is not None
        assert not tallies.rewrite_tail(
            tid, version=row.version - 1, keep=0, add=[], finished=False
        )
        snap = tallies.snapshot(tid)
        assert snap is not None and len(snap[1]) == row.n_entries == 3
    finally:
        store.close()


def test_record_download_replays_with_from_record(tmp_path: Path) -> None:
    played, lines = _entries_for(
        new_match("encyclopedia-19c", seed=1, names=("Anne", "Bob")), random.Random(1)
    )
    with client(tmp_path) as c:
        tid, tok, _ = new_tally(c, rules="encyclopedia-19c")
        for line in lines[:20]:
            t = enter(c, tid, tok, line)
        r = c.get(f"/api/tallies/{tid}/record", headers=bearer(tok))
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
        assert "attachment" in r.headers["content-disposition"]
        mid = TallySession.from_record(json.loads(r.text))
        assert mid.names == ("Anne", "Bob") and len(mid.steps) == t["n"]
        assert list(mid.scores.values()) == t["scores"]
        assert speak(mid.expecting()) == t["expecting"]
        for line in lines[20:]:
            t = enter(c, tid, tok, line)
        record = c.get(f"/api/tallies/{tid}/record", headers=bearer(tok)).json()
        assert record["tally"] == 1 and record["result"] == played.result() == t["result"]
        again = TallySession.from_record(record)
        assert again.finished and again.match.result() == played.result()
        assert len(again.steps) == t["n"]


def test_the_api_is_in_the_openapi_schema(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        spec = c.get("/openapi.json").json()
        paths = spec["paths"]
        assert {
            "/api/tallies",
            "/api/tallies/{tally_id}",
            "/api/tallies/{tally_id}/entries",
            "/api/tallies/{tally_id}/undo",
            "/api/tallies/{tally_id}/record",
        } <= set(paths)
        assert paths["/api/tallies"]["post"]["responses"]["201"]
        assert "TallyOut" in spec["components"]["schemas"]
        for page in ("/tally", "/tally/abc"):
            r = c.get(page)
            assert r.status_code == 200 and 'src="/static/tally.js' in r.text
            assert "script-src 'self'" in r.headers["content-security-policy"]
        assert c.get("/static/tally.css").status_code == 200




def _new_sheet(browser: Any, url: str) -> tuple[Any, list[str]]:
    """A desktop page on a new 1754 score sheet of Anne's and Bob's, and the page's
    errors as they come."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/tally")
    page.wait_for_selector("#tally-start")
    page.select_option("#tally-rules", "court-gamester-1754")
    page.fill("#tally-name1", "Anne")
    page.fill("#tally-name2", "Bob")
    page.click("#tally-start")
    page.wait_for_selector("#main[data-n='0']")
    return page, errors


def _type(page: Any, text: str) -> None:
    n = int(page.get_attribute("#main", "data-version"))
    page.fill("#tally-entry", text)
    page.press("#tally-entry", "Enter")
    page.wait_for_selector(f"#main[data-version='{n + 1}'][data-busy='0']")


def test_the_tally_page_keeps_the_score_and_says_what_is_refused(
    tmp_path: Path, browser: Any
) -> None:
    with ThreadServer(tmp_path) as srv:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(srv.url + "/")
        page.click("#tally-link")  # the lobby links to the tally
        page.wait_for_selector("#tally-start")
        page.select_option("#tally-rules", "court-gamester-1754")
        page.fill("#tally-name1", "Anne")
        page.fill("#tally-name2", "Bob <i>")
        page.click("#tally-start")
        page.wait_for_url("**/tally/*")
        page.wait_for_selector("#main[data-n='0']")
        page.click("button[data-word='dealer Bob <i>']")  # a tap enters it
        page.wait_for_selector("#main[data-n='1']")
        assert page.inner_text(".tscore[data-player='1'] .pname") == "Bob <i>"  # text, not markup
        for line in SCRIPT[1:]:
            _type(page, line.replace("Bob", "Bob <i>"))
        assert page.inner_text("#tally-score-0") == "0"
        # a card tapped in the picker goes into the entry
        page.click("#tally-picker button[data-card='AS']")
        assert page.input_value("#tally-entry").strip() == "AS"
        _type(page, page.input_value("#tally-entry"))
        assert page.inner_text("#tally-score-0") == "1"  # a tenth card led counts one
        _type(page, "JH")
        # a card Anne does not hold is refused, with the reason, and nothing changes
        n = page.get_attribute("#main", "data-n")
        page.fill("#tally-entry", "9S")
        page.press("#tally-entry", "Enter")
        page.wait_for_selector("#tally-refusal:not([hidden])")
        refusal = page.inner_text("#tally-refusal")
        assert refusal.startswith("Refused:") and "9S" in refusal
        assert page.get_attribute("#main", "data-n") == n
        assert page.input_value("#tally-entry") == "9S"  # kept, to be corrected
        assert "Anne" in page.inner_text("#tally-entry-list")
        screenshot(page, "tally", full_page=True)
        # undo by button; the reload keeps the tally
        page.click("#tally-undo")
        page.wait_for_selector(f"#main[data-n='{int(n or 0) - 1}']")
        page.reload()
        page.wait_for_selector(f"#main[data-n='{int(n or 0) - 1}']")
        assert page.inner_text("#tally-score-0") == "1"
        # the record downloads
        with page.expect_download() as dl:
            page.click("#tally-download")
        record = json.loads(Path(dl.value.path()).read_text())
        assert record["tally"] == 1 and record["players"] == ["Anne", "Bob <i>"]
        assert not errors
        ctx.close()
        # on a phone the page fits the width
        phone = browser.new_context(viewport={"width": 390, "height": 844})
        p2 = phone.new_page()
        p2.goto(srv.url + "/tally")
        p2.wait_for_selector("#tally-start")
        assert p2.evaluate("document.documentElement.scrollWidth") <= 390
        p2.fill("#tally-name1", "Anne")
        p2.fill("#tally-name2", "Bob")
        p2.click("#tally-start")
        p2.wait_for_selector("#tally-picker button[data-card='7D']")
        assert p2.evaluate("document.documentElement.scrollWidth") <= 390
        box = box_of(p2.locator("#tally-picker"))
        assert box is not None and box["x"] + box["width"] <= 390
        phone.close()


def test_a_refused_line_does_not_spoil_the_taps_and_choices_after_it(
    tmp_path: Path, browser: Any
) -> None:
    """A line refused and left in the box is dropped once a tap is accepted (the cards
    picked next went after it, and every later line was refused); a "who" that was
    refused does not hold for the entries after it."""
    with ThreadServer(tmp_path) as srv:
        page, errors = _new_sheet(browser, srv.url)
        page.fill("#tally-entry", "dealr Bob")
        page.press("#tally-entry", "Enter")
        page.wait_for_selector("#tally-refusal:not([hidden])")
        assert page.input_value("#tally-entry") == "dealr Bob"  # kept, to be corrected
        page.click("button[data-word='dealer Bob']")  # ... or a tap instead
        page.wait_for_selector("#main[data-n='1']")
        assert page.input_value("#tally-entry") == ""
        page.click("#tally-picker button[data-card='AS']")
        assert page.input_value("#tally-entry").strip() == "AS"
        for line in SCRIPT[1:3]:
            _type(page, line)
        # younger chosen while elder is to act: refused, and the choice goes back
        page.select_option("#tally-who", "younger")
        page.fill("#tally-entry", "discard 9S take QC")
        page.press("#tally-entry", "Enter")
        page.wait_for_selector("#tally-refusal:not([hidden])")
        assert page.input_value("#tally-who") == ""
        _type(page, SCRIPT[3])  # Anne's exchange, entered as whoever is to act
        # a trick entered in one line is one entry, listed as one and undone as one (it was
        # listed as two entries, both taken back by one undo)
        for line in SCRIPT[4:]:
            _type(page, line)
        before = page.locator("#tally-entry-list li").count()
        _type(page, "AS JH")
        items = page.locator("#tally-entry-list li")
        assert items.count() == before + 1
        assert items.last.get_attribute("data-steps") == "2"
        assert "AS" in items.last.inner_text() and "JH" in items.last.inner_text()
        assert page.inner_text("#tally-entries h3") == f"Entries ({before + 1})"
        n = int(page.get_attribute("#main", "data-n") or 0)
        page.click("#tally-undo")
        page.wait_for_selector(f"#main[data-n='{n - 2}']")
        assert page.locator("#tally-entry-list li").count() == before
        assert not errors


def test_undo_takes_back_the_same_line_whether_the_tally_was_read_back_or_not(
    tmp_path: Path,
) -> None:
    """A line of two cards is one entry of two steps: undo takes back both, in the process
    that took the line (its session in memory) as after a restart (the session read back
    from the stored steps, which keep how they were entered); once, after a restart it
    took back one card."""
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(config(db))) as c:
        tid, tok, _ = new_tally(c)
        for line in SCRIPT:
            before = enter(c, tid, tok, line)
        both = enter(c, tid, tok, "AS JH")
        assert [e["entry"] for e in both["entries"][-2:]] == [len(SCRIPT) + 1] * 2
        here = c.post(f"/api/tallies/{tid}/undo", headers=bearer(tok)).json()
        assert here["n"] == both["n"] - 2 and here["entries"] == before["entries"]
        enter(c, tid, tok, "AS JH")
    with TestClient(create_app(config(db))) as c:
        again = state(c, tid, tok)
        assert again["entries"] == both["entries"]  # grouped as entered
        there = enter(c, tid, tok, "undo")  # typed, after a restart
        assert there["entries"] == here["entries"] and there["n"] == here["n"]


def test_a_card_to_name_is_picked_not_offered_as_a_button_each(tmp_path: Path) -> None:
    """1754: elder may name the card he will lead. The page once had a button for each of
    the 32 ("name AS", ...), filling a phone's screen; the key word "name" and the card
    picker make the entry, and the words offered are the rest ("decline")."""
    with client(tmp_path) as c:
        tid, tok, _ = new_tally(c)
        for line in SCRIPT[:5]:
            t = enter(c, tid, tok, line)
        assert t["deal"]["phase"] == "leftovers"
        assert t["deal"]["words"] == ["decline"]
        t = enter(c, tid, tok, "name KD")  # typed (or the key word and a picked card)
        assert t["deal"]["phase"] == "appoint" and t["deal"]["words"] == []


def test_a_sheet_on_two_devices_follows_the_other_and_shares_its_link(
    tmp_path: Path, browser: Any
) -> None:
    """The second device showed the sheet as it was until it was reloaded (its next tap
    then landed on the wrong step); "Link for another device" was only a passing toast
    where the clipboard is not allowed; "good" was offered while elder had yet to declare."""
    with ThreadServer(tmp_path) as srv:
        one, errors = _new_sheet(browser, srv.url)
        one.click("#tally-share")
        link = one.input_value("#tally-share-box #tally-share-link")
        assert "/tally/" in link and "#token=" in link
        assert one.evaluate("document.activeElement.id") == "tally-share-link"
        two = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        two.on("pageerror", lambda e: errors.append(str(e)))
        two.goto(link)
        two.wait_for_selector("#main[data-n='0']")
        for line in SCRIPT[:3]:
            _type(one, line)
        # the other device shows it within a few seconds, with no reload
        two.wait_for_selector("#main[data-n='3']")
        while one.get_attribute("#main", "data-phase") != "declare":
            _type(one, SCRIPT[int(one.get_attribute("#main", "data-n"))])
        buttons = one.query_selector_all("#tally-words .tword")
        words = [b.get_attribute("data-word") for b in buttons]
        assert "pass" in words and "good" not in words and "not good" not in words
        assert not errors, errors
        one.context.close()
        two.context.close()
