"""A seat's responses never hold a card it may not see, under every rule set.

Random games are walked through the API with every seat a person (invited), and each
response is checked against the engine, rebuilt independently from the stored seed and
action log: the view is exactly ``Match.view(seat)``, the deal just finished is exactly
that seat's ``deal_view`` of it, and no card appears anywhere in the response that
``visible_mask`` does not allow.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from piquet.actions import parse_action
from piquet.cards import Card
from piquet.deal import Deal
from piquet.match import Match, new_match
from piquet.rules import PRESETS
from piquet.view import deal_view, visible_mask
from test_web_kit import CARD, client, create, walk

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
            for a in self.store.actions(self.game_id, len(self.states) - 1):
                m, last = self.states[-1]
                action = parse_action(a.action)
                assert m.deal is not None
                after = m.deal.apply(action)
                self.states.append((m.apply(action, a.player), after if after.is_over else last))
        return self.states[n]


def cards_in(obj: Any) -> set[int]:
    return {Card.parse(t).index for t in CARD.findall(json.dumps(obj))}


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
        out["legal_actions"] = [a for a in d["legal_actions"] if not a.startswith(_SPOKEN)]
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


@pytest.mark.parametrize(("rules", "fmt"), CASES, ids=[f"{r}-{f or 'default'}" for r, f in CASES])
def test_no_response_shows_a_hidden_card(tmp_path: Path, rules: str, fmt: str | None) -> None:
    with client(tmp_path) as c:
        n_friends = 2 if fmt == "pool" else 1
        made = create(c, rules=rules, format=fmt, opponents=["friend"] * n_friends)
        gid = made["id"]
        tokens = {0: made["token"]}
        for inv in made["invites"]:
            r = c.post(f"/api/games/{gid}/join", json={"invite": inv["invite"]})
            tokens[r.json()["seat"]] = r.json()["token"]
        oracle = Oracle(c.app.state.piquet["store"], gid)  # type: ignore[attr-defined]
        seen = {"n": 0}

        def check(seat: int, r: dict[str, Any]) -> None:
            check_response(oracle, seat, r)
            seen["n"] += 1

        final = walk(c, gid, tokens, random.Random(hash(rules) & 0xFFFF), check=check)
        assert final["finished"]
        for seat, tok in tokens.items():
            r = c.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tok}"}).json()
            check_response(oracle, seat, r)
        assert seen["n"] > 100


def test_the_seed_is_never_sent_before_the_end(tmp_path: Path) -> None:
    """The seed decides every deal: it must stay on the server while the game is on."""
    with client(tmp_path) as c:
        made = create(c, opponent="random")
        gid = made["id"]
        seed = c.app.state.piquet["store"].game(gid).seed  # type: ignore[attr-defined]
        r = c.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {made['token']}"})
        assert str(seed) not in r.text
