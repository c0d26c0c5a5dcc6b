"""A seat's responses never hold a card it may not see, under every rule set; nor a
spectator's a card the players have not made public; nor the analysis an unfinished deal.

Random games are walked through the API with every seat a person (invited), and each
response is checked against the engine, rebuilt independently from the stored seed and
action log: the view is exactly ``Match.view(seat)``, the deal just finished is exactly
that seat's ``deal_view`` of it, and no card appears anywhere in the response that
``visible_mask`` does not allow.
"""

from __future__ import annotations

import functools
import json
import random
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from piquet.core.actions import parse_action
from piquet.core.cards import Card, CardSet
from piquet.core.deal import Deal
from piquet.core.match import Match, new_match
from piquet.core.rules import PRESETS
from piquet.core.view import deal_view, visible_mask
from test_web_kit import CARD, bearer, client, create, least_analysis, walk

CASES = [(name, None) for name in PRESETS] + [
    ("court-gamester-1754", "pool"),
    ("encyclopedia-19c", "partie"),
]


class Oracle:
    """The engine's own account of a stored game, step by step."""

    def __init__(self, store: Any, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        row = store.game(game_id)
        self.row = row
        self.states: list[tuple[Match, Deal | None]] = [
            (
                new_match(
                    row.rules,
                    seed=row.seed,
                    format=row.format,
                    names=[f"seat {i}" for i in range(len(row.seats))],
                ),
                None,
            )
        ]

    def at(self, n: int) -> tuple[Match, Deal | None]:
        if n >= len(self.states):
            for player, text in self._log(len(self.states) - 1):
                m, last = self.states[-1]
                action = parse_action(text)
                assert m.deal is not None
                after = m.deal.apply(action)
                self.states.append((m.apply(action, player), after if after.is_over else last))
        return self.states[n]

    def _log(self, start: int) -> list[tuple[int, str]]:
        """The stored log from index ``start`` on, as :meth:`Store.actions` reads it, in
        one statement compiled once: the walk asks at every step, and building and
        compiling the Store's query each time was a sixth of the test's CPU."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(_LOG, {"g": self.game_id, "s": start}).all()
        return [(int(r[0]), str(r[1])) for r in rows]


_LOG = sa.text("SELECT player, action FROM piquet_actions WHERE game_id = :g AND idx >= :s "
               "ORDER BY idx")


@functools.cache
def _card_index(text: str) -> int:
    """The index of the card written ``text`` (each spelling parsed once, not at each of
    the hundred thousand times a walk's responses write it)."""
    return Card.parse(text).index


def cards_in(obj: Any) -> set[int]:
    return {_card_index(t) for t in CARD.findall(json.dumps(obj))}


def placed_cards(r: dict[str, Any]) -> set[int]:
    """Every card the response places somewhere (a hand, a trick, a pile...).

    Left out: words said aloud that name a card without placing it (elder naming the
    card he will lead, younger appointing one), which the rules make public.
    """

    def strip_deal(d: dict[str, Any] | None) -> dict[str, Any] | None:
        if d is None:
            return None
        out = dict(d)
        out["dialog"] = [u["shown"] for u in d["dialog"]]
        out["lead_rule"] = None
        out["legal_actions"] = [a for a in d.get("legal_actions", ())
                                if not a.startswith(_SPOKEN)]
        return out

    view = dict(r["view"])
    view["deal"] = strip_deal(view["deal"])
    rest = {k: v for k, v in r.items() if k not in ("id", "seats", "view", "last_deal")}
    rest["legal_actions"] = [a for a in r["legal_actions"] if a["kind"] not in ("name", "appoint")]
    return cards_in([view, strip_deal(r["last_deal"]), rest])


_SPOKEN = ("name:", "appoint:")


def check_response(oracle: Oracle, seat: int, r: dict[str, Any]) -> None:
    m, last = oracle.at(r["n"])
    names = [s["name"] for s in r["seats"]]
    expected = m.view(seat).to_json()
    expected["names"] = names
    if expected["deal"] is not None:  # the legal actions are sent once, as the menu
        assert "legal_actions" not in r["view"]["deal"]
        del expected["deal"]["legal_actions"]
    assert r["view"] == expected
    allowed = 0
    if m.deal is not None and not m.finished:
        role = m.role_of(seat)
        if role is not None:
            allowed |= visible_mask(m.deal, role)
    if r["last_deal"] is not None:
        assert last is not None
        summary = m.deals[-1]
        role = summary.players.index(seat)
        want = deal_view(last, role).to_json()
        want["number"] = len(m.deals)
        assert r["last_deal"] == want
        allowed |= visible_mask(last, role)
    else:
        assert last is None or seat not in m.deals[-1].players
    shown = placed_cards(r)
    leaked = {i for i in shown if not allowed >> i & 1}
    assert not leaked, f"seat {seat} was sent {[str(Card.from_index(i)) for i in leaked]}"
    hand = set(r["view"]["deal"]["hand"]) if r["view"]["deal"] else set()
    for a in r["legal_actions"]:
        assert set(a["cards"]) <= hand


def test_the_seed_is_never_sent_before_the_end(tmp_path: Path) -> None:
    """The seed decides every deal: it must stay on the server while the game is on."""
    with client(tmp_path) as c:
        made = create(c, opponent="random")
        gid = made["id"]
        seed = c.app.state.piquet.store.game(gid).seed  # type: ignore[attr-defined]
        r = c.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {made['token']}"})
        assert str(seed) not in r.text


# ---------------------------------------------------------------------- spectators
def public_cards(r: dict[str, Any]) -> set[int]:
    """Every card a spectator's response places (words said aloud aside, as above)."""

    def strip(d: dict[str, Any] | None) -> dict[str, Any] | None:
        if d is None:
            return None
        out = dict(d)
        out["dialog"] = [u["shown"] for u in d["dialog"]]
        out["lead_rule"] = None
        return out

    view = dict(r["view"])
    view["deal"] = strip(view["deal"])
    return cards_in([view, strip(r["last_deal"]), r["result"]])


def check_spectator(oracle: Oracle, r: dict[str, Any]) -> None:
    """A spectator's response is the engine's public view at that step, and places no
    card that both players have not made public (shown or played)."""
    from piquet.core.view import public_mask, public_view

    m, last = oracle.at(r["n"])
    expected = m.public_view()
    expected["names"] = [s["name"] for s in r["seats"]]
    assert r["view"] == expected
    assert r["spectator"] is True
    assert set(r) == {"id", "spectator", "n", "rules", "format", "finished", "to_act", "seats",
                      "view", "last_deal", "result", "resigned", "aborted", "timed_out"}
    allowed = 0
    if m.deal is not None and not m.finished:
        allowed |= public_mask(m.deal)
    if r["last_deal"] is not None:
        assert last is not None
        want = public_view(last).to_json()
        want["number"] = len(m.deals)
        want["elder"], want["younger"] = m.deals[-1].players
        assert r["last_deal"] == want
        allowed |= public_mask(last)
    else:
        assert last is None
    leaked = {i for i in public_cards(r) if not allowed >> i & 1}
    assert not leaked, f"a spectator was sent {[str(Card.from_index(i)) for i in leaked]}"
    for seat in r["seats"]:
        assert "token_hash" not in seat and "invite_hash" not in seat


@pytest.mark.parametrize(("rules", "fmt"), CASES, ids=[f"{r}-{f or 'default'}" for r, f in CASES])
def test_no_response_shows_a_hidden_card(tmp_path: Path, rules: str, fmt: str | None) -> None:
    """At every step of a random game between people: each seat's response before and
    after each of its actions, and a spectator's over HTTP at each step and over the
    WebSocket."""
    with client(tmp_path) as c:
        n_friends = 2 if fmt == "pool" else 1
        made = create(c, rules=rules, format=fmt, opponents=["friend"] * n_friends)
        gid = made["id"]
        tokens = {0: made["token"]}
        for inv in made["invites"]:
            r = c.post(f"/api/games/{gid}/join", json={"invite": inv["invite"]})
            tokens[r.json()["seat"]] = r.json()["token"]
        key = c.post(f"/api/games/{gid}/watch-link", headers=bearer(made["token"])).json()["key"]
        oracle = Oracle(c.app.state.piquet.store, gid)  # type: ignore[attr-defined]
        seen = {"seat": 0, "ws": 0}
        steps: set[int] = set()  # the steps at which a seat's response was checked
        spectated: set[int] = set()  # and those at which a spectator's (HTTP) was
        with c.websocket_connect(f"/api/games/{gid}/watch/ws") as ws:
            ws.send_json({"key": key})
            check_spectator(oracle, ws.receive_json()["view"])

            def check(seat: int, r: dict[str, Any]) -> None:
                check_response(oracle, seat, r)
                seen["seat"] += 1
                steps.add(r["n"])
                if r["n"] in spectated:
                    # this step's public view is checked already: only the test moves
                    # the game (every seat a person), and it has not moved since
                    return
                s = c.get(f"/api/games/{gid}/watch", headers=bearer(key))
                assert s.status_code == 200, s.text
                public = s.json()  # (parsed once: each .json() parses the body again)
                assert public["n"] == r["n"]
                check_spectator(oracle, public)
                spectated.add(r["n"])

            final = walk(c, gid, tokens, random.Random(zlib.crc32(rules.encode())), check=check)
            assert final["finished"]
            for seat, tok in tokens.items():  # and the end, as each seat sees it
                check_response(oracle, seat, c.get(f"/api/games/{gid}", headers=bearer(tok)).json())
            # every change reached the socket: read until the last step, checking each
            n_last = final["n"]
            while True:
                msg = ws.receive_json()
                assert msg["type"] == "view"
                check_spectator(oracle, msg["view"])
                seen["ws"] += 1
                if msg["view"]["n"] == n_last:
                    break
            ws.send_json({"action": "pass"})
            assert ws.receive_json()["type"] == "error"  # a spectator does not play
        # every action was checked, its mover's view before it and the answer after it
        # (the game's length depends on its deal: a deal won by a repique can be short)
        assert final["n"] > 0 and seen["seat"] >= 2 * final["n"]
        # and a spectator's over HTTP at every one of those steps (each once: the mover's
        # view before an action and the answer after the one before it are the same step)
        assert spectated == steps and len(spectated) > 50 and seen["ws"] > 0


def test_a_spectator_key_opens_no_seat(tmp_path: Path) -> None:
    """The key shows the public view only: no seat's view, no action, no analysis."""
    with client(tmp_path) as c:
        made = create(c, opponent="random")
        gid = made["id"]
        key = c.post(f"/api/games/{gid}/watch-link", headers=bearer(made["token"])).json()["key"]
        for path in ("", "/analysis", "/replay", "/record", "/hint"):
            r = c.get(f"/api/games/{gid}{path}", headers=bearer(key))
            assert r.status_code == 404, (path, r.text)
        r = c.post(f"/api/games/{gid}/actions", json={"action": "pass"}, headers=bearer(key))
        assert r.status_code == 404
        # and a seat's token is not a spectator key
        r = c.get(f"/api/games/{gid}/watch", headers=bearer(made["token"]))
        assert r.status_code == 404


# ---------------------------------------------------------------------- the analysis
def check_analysis(
    oracle: Oracle, a: dict[str, Any], finished_deals_at: Any, seat: int
) -> None:
    """The analysis names only deals that are over at the step it was made from; of the
    other person's role, until the game is over, nothing of his hand or his choices
    (issue 39: face down, as at the table); the hands it shows are the true ones."""
    m, _last = oracle.at(a["n"])
    assert a["deals_over"] == len(m.deals)
    assert [d["number"] for d in a["deals"]] == list(range(1, len(m.deals) + 1))
    deals = finished_deals_at(a["n"])
    assert len(deals) == len(m.deals)
    for d in a["deals"]:
        body = d["analysis"]
        if body is None:
            assert d["status"] == "pending"
            continue
        fd = deals[d["number"] - 1]
        assert body["start"] + body["steps"] <= a["n"]
        assert body["start"] == fd.start and body["steps"] == len(fd.actions)
        for role, r in (("elder", 0), ("younger", 1)):
            if not a["finished"] and body["players"][role] != seat:
                assert body["hands"][role] is None and body["losses"][role] is None
                assert role in body["hidden"]
                assert all(e["role"] != role for part in ("exchange", "declarations", "play")
                           for e in body[part])
                continue
            assert body["hands"][role]["dealt"] == [str(x) for x in CardSet(fd.end.dealt[r])]


def test_no_analysis_of_an_unfinished_deal_reaches_a_seat(tmp_path: Path) -> None:
    """Asked at every step, each seat gets the analysis of the deals already over, never
    of the deal being played."""
    from piquet.review.deal import finished_deals

    with client(tmp_path, analysis=least_analysis()) as c:
        made = create(c, rules="rubicon", opponent="friend")
        gid = made["id"]
        tokens = {0: made["token"]}
        r = c.post(f"/api/games/{gid}/join", json={"invite": made["invites"][0]["invite"]})
        tokens[1] = r.json()["token"]
        # the real analysis on the least budget (the client's): what is checked is which
        # deals and whose cards it shows at every step, not its figures
        st = c.app.state.piquet  # type: ignore[attr-defined]
        oracle = Oracle(st.store, gid)
        row = oracle.row

        # the deals over at step n, by their number: a deal's account is made from the
        # history up to its end, so the list made at the first step with k deals over is
        # the list at every later step with k over (not made again at every request)
        over: dict[int, Any] = {}

        def deals_at(n: int) -> Any:
            m, _ = oracle.at(n)
            if len(m.deals) not in over:
                first = new_match(row.rules, seed=row.seed, format=row.format,
                                  names=[f"seat {i}" for i in range(len(row.seats))])
                over[len(m.deals)] = finished_deals(first, m.history)
            return over[len(m.deals)]

        ready = {"n": 0}
        asked: set[tuple[int, int]] = set()  # (seat, step) pairs asked at

        def check(seat: int, r: dict[str, Any]) -> None:
            if (seat, r["n"]) in asked:
                # the answer to a seat's own action and its view before its next one (it
                # leads again) are the same step: that seat was asked at it already
                return
            asked.add((seat, r["n"]))
            a = c.get(f"/api/games/{gid}/analysis", headers=bearer(tokens[seat]))
            assert a.status_code == 200, a.text
            body = a.json()
            check_analysis(oracle, body, deals_at, seat)
            ready["n"] += sum(1 for d in body["deals"] if d["status"] == "ready")
            if body["deals_over"] and not ready["n"]:
                # the first deal over: wait for its analysis (the walk is faster than the
                # analysis), so that one is checked while a deal is being played
                deadline = time.monotonic() + 600
                while time.monotonic() < deadline:
                    time.sleep(0.1)
                    again = c.get(f"/api/games/{gid}/analysis", headers=bearer(tokens[seat]))
                    body = again.json()
                    check_analysis(oracle, body, deals_at, seat)
                    done = sum(1 for d in body["deals"] if d["status"] == "ready")
                    if done:
                        ready["n"] += done
                        break

        final = walk(c, gid, tokens, random.Random(17), check=check)
        assert final["finished"]
        assert ready["n"] > 0, "no analysis was ever ready during the game"
        # every step, as the seat to act there saw it (and the mover after it)
        assert {n for _, n in asked} >= set(range(final["n"]))
