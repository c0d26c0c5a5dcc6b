"""A new player's walk-through of the browser table, the API side: what the table offers
and says (the leftovers' words, the rule summary, appointing, sinking, the first lead, two
tabs of one seat, the spectator after a resignation).  The page itself:
``test_web_walkthrough_browser.py``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from piquet.core.actions import Action, Appoint, Declare, NameLead, Pass, parse_action
from piquet.core.cards import Card, CardSet, pack_mask
from piquet.core.declarations import DeclClass, claims
from piquet.core.match import Match, MatchView, new_match
from piquet.core.roles import ELDER, YOUNGER
from piquet.core.rules import PRESETS, Leftovers, Rules
from piquet.core.view import appointable
from piquet.table.menu import first_lead as lead_bound
from piquet.table.menu import menu
from piquet.table.summary import rules_summary
from test_web_kit import bearer, client, create, view

Choose = Callable[[Match, random.Random], Action]


def legal_objects(view: MatchView, rules: Rules) -> list[dict[str, Any]]:
    """The menu as the browser receives it (``legal_actions``), under ``rules``."""
    return [i.to_json() for i in menu(dataclasses.replace(view, rule_set=rules))]


def first_lead(view: MatchView) -> dict[str, Any] | None:
    """The browser's ``first_lead``."""
    bound = lead_bound(view)
    return None if bound is None else bound.to_json()


def fewest(m: Match, rng: random.Random) -> Action:
    """Discard as few as allowed (at least one), so cards are left in the stock; else any."""
    deal = m.deal
    assert deal is not None
    if deal.phase.value == "exchange":
        lo, _hi = deal.discard_range()
        hand = CardSet(deal.hands[deal.to_act])
        return parse_action("discard:" + " ".join(str(c) for c in list(hand)[: max(1, lo)]))
    return m.random_action(rng)


def drive(m: Match, until: Callable[[Match], bool], choose: Choose = fewest) -> Match:
    rng = random.Random(5)
    for _ in range(2000):
        if until(m):
            return m
        assert not m.finished
        m = m.apply(choose(m, rng), m.to_act)
    raise AssertionError("the moment was not reached")


def phase(name: str, role: int | None = None) -> Callable[[Match], bool]:
    def at(m: Match) -> bool:
        d = m.deal
        return d is not None and d.phase.value == name and (role is None or d.to_act == role)

    return at


def seat_of(m: Match, role: int) -> int:
    p = m.player_of(role)
    assert p is not None
    return p


# ---------------------------------------------------------------------- 1. the leftovers' words
@pytest.mark.parametrize("name", [n for n, r in PRESETS.items() if r.younger_leftovers in (
    Leftovers.YOUNGER_TURNS_UP, Leftovers.YOUNGER_LOOKS)])
def test_younger_turning_up_his_leftovers_says_both_see_them(name: str) -> None:
    """du-coeur-1995: younger's choice turns the cards up for both to see; the buttons
    say so.  Where younger only looks himself, they say "look"."""
    m = drive(new_match(name, seed=3), phase("leftovers", YOUNGER))
    labels = {a["id"]: a["label"] for a in legal_objects(m.view(seat_of(m, YOUNGER)), m.rules)}
    if m.rules.younger_leftovers is Leftovers.YOUNGER_TURNS_UP:
        assert labels == {"look": "Turn them up (both see them)",
                          "decline": "Leave them face down"}
    else:
        assert labels == {"look": "Look at your leftovers",
                          "decline": "Leave them unseen"}


# ---------------------------------------------------------------------- 3. the rule summary
@pytest.mark.parametrize("name", list(PRESETS))
def test_the_summary_says_what_younger_may_take(name: str) -> None:
    """The exchange's line follows the knobs: ``younger_max`` caps younger where it can
    bind (du-coeur-1995: 8 of the 11 elder may leave); 0 is every card elder leaves."""
    r = PRESETS[name]
    [line] = [x for x in rules_summary(r) if x.startswith("Elder exchanges")]
    assert f"Elder exchanges {r.elder_min} to {r.elder_max} cards" in line
    if r.younger_max and r.younger_max < r.stock_size - r.elder_min:
        assert f"younger may take up to {r.younger_max} of the cards elder leaves" in line
    else:
        assert "younger may take all the cards elder leaves" in line
    assert ("may take none" if r.younger_min == 0
            else f"must take at least {r.younger_min}") in line
    if name == "du-coeur-1995":
        assert "up to 8" in line


# ---------------------------------------------------------------------- 4. appointing
def _elder_lacks_a_card(card_of: Callable[[Match], Card]) -> Match:
    """court-gamester-1754 at younger's appointment: elder named ``card_of(m)``, which he
    lacks."""
    m = drive(new_match("court-gamester-1754", seed=7), phase("leftovers", ELDER))
    m = m.apply(NameLead(card=card_of(m)), m.to_act)
    assert m.deal is not None and m.deal.phase.value == "appoint"
    return m


def _not_in_elders_hand(m: Match) -> Card:
    assert m.deal is not None
    free = pack_mask(m.rules) & ~m.deal.hands[ELDER]
    return Card.from_index((free & -free).bit_length() - 1)


def test_appointing_offers_only_cards_elder_may_hold() -> None:
    """1754: younger appoints among the cards elder may hold as far as he knows; the
    engine still allows the rest (records depend on it), the table offers them not."""
    m = _elder_lacks_a_card(_not_in_elders_hand)
    younger = seat_of(m, YOUNGER)
    v = m.view(younger)
    assert v.deal is not None
    objs = legal_objects(v, m.rules)
    offered = {a["id"] for a in objs if a["offer"]}
    shown = {a["id"] for a in objs}
    assert shown == {str(a) for a in v.deal.legal_actions}  # every legal action listed
    may_hold = appointable(v.deal, m.rules)
    assert offered == {f"appoint:{Card.from_index(i)}" for i in range(36) if may_hold >> i & 1}
    known = v.deal.discards.mask | v.deal.stock_seen.mask
    assert known and not any(f"appoint:{Card.from_index(i)}" in offered
                             for i in range(36) if known >> i & 1)
    assert m.deal is not None
    elder_hand = m.deal.hands[ELDER]
    assert all(f"appoint:{c}" in offered for c in CardSet(elder_hand))
    assert len(offered) < len(shown)


def _lead(m: Match) -> Match:
    return drive(m, lambda x: bool(x.deal and x.deal.phase.value == "play"))


def test_the_first_lead_says_when_elder_is_free() -> None:
    """Appointed a card he does not hold, elder leads as he likes: both are told (younger
    knows it when the card is one he laid out himself); appointed one he holds, he must
    lead it, and younger is told only that he must if he holds it."""
    m = _elder_lacks_a_card(_not_in_elders_hand)
    younger, elder = seat_of(m, YOUNGER), seat_of(m, ELDER)
    assert m.deal is not None
    mine = next(iter(CardSet(m.deal.discards[YOUNGER])))
    free = _lead(m.apply(Appoint(card=mine), younger))
    assert first_lead(free.view(elder)) == {"how": "appointed", "held": False}
    assert first_lead(free.view(younger)) == {"how": "appointed", "held": False}
    held = next(iter(CardSet(m.deal.hands[ELDER])))
    bound = _lead(m.apply(Appoint(card=held), younger))
    assert first_lead(bound.view(elder)) == {"how": "appointed", "held": True}
    assert first_lead(bound.view(younger)) == {"how": "appointed", "held": None}
    # once elder has led, younger knows
    assert bound.deal is not None and bound.deal.to_act == ELDER
    after = bound.apply(parse_action(f"play:{held}"), elder)
    assert first_lead(after.view(younger)) == {"how": "appointed", "held": True}


def test_a_named_lead_is_recalled_at_the_first_lead() -> None:
    """1662: elder names a suit he holds; at his first lead the table recalls it."""
    m = drive(new_match("cotgrave-1662", seed=7), phase("leftovers", ELDER))
    assert m.deal is not None
    suit = Card.from_index((m.deal.hands[ELDER] & -m.deal.hands[ELDER]).bit_length() - 1).suit
    m = _lead(m.apply(NameLead(suit=suit), m.to_act))
    for p in m.in_game:
        assert first_lead(m.view(p)) == {"how": "named", "held": True}


# ---------------------------------------------------------------------- 7. sinking
def _declaring(hand: str) -> tuple[Any, Match]:
    """A cotton-1674 view of elder at the sequences, with ``hand`` (and every claim of
    it, and pass, as the legal actions)."""
    m = drive(new_match("cotton-1674", seed=11), phase("declare", ELDER))
    v = m.view(seat_of(m, ELDER))
    assert v.deal is not None
    mask = CardSet.parse(hand).mask
    found = claims(mask, DeclClass.SEQUENCE, m.rules)
    legal = (*(Declare(DeclClass.SEQUENCE, c.cardset) for c in found), Pass())
    deal = dataclasses.replace(v.deal, hand=CardSet(mask), legal_actions=legal)
    return dataclasses.replace(v, deal=deal), m


def test_a_claim_that_counts_as_the_best_is_no_sink() -> None:
    """Two tierces to the ten (spades, hearts): declaring either shows and counts both,
    so the other is not offered as "declaring less"."""
    v, m = _declaring("TS 9S 8S TH 9H 8H AC JC 7D 6C QD 6S")
    objs = [a for a in legal_objects(v, m.rules) if a["kind"] == "declare"]
    assert len(objs) == 2
    assert [a["offer"] for a in objs] == [True, False]


def test_two_equal_points_are_both_offered() -> None:
    """Two points of five making 48 (spades, hearts): only the one declared is counted and
    shown, so which the other sees is a real choice; both are offered."""
    m = drive(new_match("cotton-1674", seed=11), phase("declare", ELDER))
    v = m.view(seat_of(m, ELDER))
    assert v.deal is not None
    mask = CardSet.parse("AS KS QS JS 7S AH KH QH JH 7H 8D 8C").mask
    rules = PRESETS["rubicon"]
    found = claims(mask, DeclClass.POINT, rules)
    legal = tuple(Declare(DeclClass.POINT, c.cardset) for c in found)
    deal = dataclasses.replace(v.deal, hand=CardSet(mask), legal_actions=legal)
    objs = legal_objects(dataclasses.replace(v, deal=deal), rules)
    equal = [a for a in objs if a["label"].startswith("Point of five")]
    assert len(equal) == 2 and all(a["offer"] for a in equal)
    # and each says which it is
    assert sorted(a["label"] for a in equal) == [
        "Point of five (in hearts, 48 pips)", "Point of five (in spades, 48 pips)"]


def test_a_lesser_claim_that_counts_less_is_a_sink() -> None:
    """A quart in hearts and a tierce in spades: the tierce alone (3) counts less than the
    quart with it (7): a real sink, offered."""
    v, m = _declaring("TS 9S 8S TH 9H 8H 7H AC JC 6C QD 6S")
    objs = [a for a in legal_objects(v, m.rules) if a["kind"] == "declare"]
    assert objs[0]["label"].lower().startswith("quart")
    assert all(a["offer"] for a in objs) and len(objs) >= 2


# ---------------------------------------------------------------------- 5. two tabs
def _ada_and_bob(c: Any) -> tuple[dict[str, Any], str, dict[int, str]]:
    """A rubicon game between two friends, Ada (seat 0) and Bob, who has joined: (the
    game as made, its id, each seat's token)."""
    made = create(c, rules="rubicon", opponent="friend", name="Ada")
    gid = made["id"]
    r = c.post(f"/api/games/{gid}/join", json={"invite": made["invites"][0]["invite"],
                                               "name": "Bob"})
    assert r.status_code == 201, r.text
    return made, gid, {0: made["token"], 1: r.json()["token"]}


def test_two_tabs_acting_at_once_hear_it_in_a_players_words(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        _made, gid, tokens = _ada_and_bob(c)
        g = view(c, gid, tokens[0])
        seat = g["to_act"]
        mine = view(c, gid, tokens[seat])
        n = mine["n"]
        legal = [a["id"] for a in mine["legal_actions"]]
        if mine["legal_actions"][0]["kind"] == "discard":
            hand = mine["view"]["deal"]["hand"]
            legal = [f"discard:{hand[0]}", f"discard:{hand[1]}"]
        first = c.post(f"/api/games/{gid}/actions", json={"action": legal[0], "n": n},
                       headers=bearer(tokens[seat]))
        assert first.status_code == 200, first.text
        second = c.post(f"/api/games/{gid}/actions", json={"action": legal[1], "n": n},
                        headers=bearer(tokens[seat]))
        assert second.status_code == 409
        body = second.json()
        assert body["error"] == ("your other tab (or a retry) already acted: here is the "
                                 "game as it stands")
        assert body["game"]["n"] == n + 1
        # the other seat acting on a view from before it: told who acted first
        other = 1 - seat
        if view(c, gid, tokens[other])["your_turn"]:
            late = c.post(f"/api/games/{gid}/actions", json={"action": "pass", "n": n},
                          headers=bearer(tokens[other]))
            assert late.status_code == 409
            assert late.json()["error"].startswith(("Ada acted first", "Bob acted first"))


# ---------------------------------------------------------------------- 2. the spectator
def test_a_spectator_hears_of_a_resignation(tmp_path: Path) -> None:
    """After a resignation the spectator's view is over: who resigned, who won."""
    with client(tmp_path) as c:
        made, gid, _tokens = _ada_and_bob(c)
        key = c.post(f"/api/games/{gid}/watch-link", headers=bearer(made["token"])).json()["key"]
        before = c.get(f"/api/games/{gid}/watch", headers=bearer(key)).json()
        assert not before["finished"] and before["resigned"] is None
        assert c.post(f"/api/games/{gid}/resign", headers=bearer(made["token"])).status_code == 200
        after = c.get(f"/api/games/{gid}/watch", headers=bearer(key)).json()
        assert after["finished"] and after["to_act"] is None and after["resigned"] == 0
        assert after["result"] == {"resigned": 0, "winner": 1}
        with c.websocket_connect(f"/api/games/{gid}/watch/ws") as ws:
            ws.send_json({"key": key})
            pushed = ws.receive_json()["view"]
            assert pushed["finished"] and pushed["result"]["winner"] == 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_choice_offered_has_words_of_its_own(preset: str) -> None:
    """A browser walk-through: sinking as elder offered four buttons all reading "Point of
    three" (and four "Point of two"), told apart only by their small cards.  Claims of the
    same words now say which they are (the point its suit and pips, a sequence its suit, a
    set the card kept back), over every decision of 120 random deals of each rule set."""
    told_apart = 0
    for seed in range(120):
        m, rng = new_match(preset, seed=seed), random.Random(seed)
        while not m.finished and not m.deals:
            seat = m.to_act
            assert seat is not None
            objs = [o for o in legal_objects(m.view(seat), m.rules) if o["kind"] != "discard"]
            labels = [o["label"] for o in objs]
            assert len(labels) == len(set(labels)), labels
            told_apart += sum(" (in " in x or "(keeping back" in x for x in labels)
            m = m.apply(m.random_action(rng), seat)
    assert told_apart > 0


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_summaries_say_when_a_pique_may_be_made(preset: str) -> None:
    """A terminal walk-through: the summaries of cotgrave-1662 and cotton-1674 said a pique
    was open to "either player" with the play, where the engine (their texts: a pique by
    elder's first card, "before the other has played a Card") allows it only from the hand
    and elder's first lead; both the web's and the terminal's summary now say so."""
    from piquet.table.summary import rules_summary as terminal_summary

    rules = PRESETS[preset]
    words = ("from the hand and elder's first lead at the latest" if rules.pique_by_first_card
             else "elder only" if rules.pique_elder_only else "either player")
    for text in (" ".join(rules_summary(rules)), " ".join(terminal_summary(rules, cited=True))):
        assert f"ique ({words})" in text, text
