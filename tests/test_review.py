"""The analysis of a finished deal (piquet.review.deal) against the engine and the solver."""

from __future__ import annotations

import copy
import functools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from piquet.core.actions import PLAY, Discard, Play
from piquet.core.deal import ELDER, Phase
from piquet.core.match import Match, new_match
from piquet.core.rules import get_rules
from piquet.fast.solver import Solver, play_state
from piquet.review.deal import finished_deals, review_deal

CHEAP = {"think_ms": 5, "samples": 8, "verify": 16, "nodes": 200_000}


def random_match(rules: str, seed: int, *, worst_play: bool = False) -> tuple[Match, Match]:
    """(the match before any action, the match played to its end at random; with
    ``worst_play`` elder always plays the card of least double-dummy value).  Made once a
    test process (a match is immutable, a function of these arguments): four tests read
    rubicon's seed 5 played worst."""
    return _random_match(rules, seed, worst_play)


@functools.cache
def _random_match(rules: str, seed: int, worst_play: bool) -> tuple[Match, Match]:
    first = new_match(rules, seed=seed, names=["a", "b"])
    m = first
    rng = random.Random(seed)
    solver = Solver(get_rules(rules))
    while not m.finished:
        d = m.deal
        assert d is not None
        if worst_play and d.phase is Phase.PLAY and d.to_act == ELDER:
            vals = solver.move_values(play_state(d))
            card = min(vals, key=lambda c: (vals[c], c))
            m = m.apply(PLAY[card])
            continue
        m = m.apply(m.random_action(rng))
    return first, m


@pytest.mark.parametrize("rules", ["rubicon", "cotton-1674", "du-coeur-1995"])
def test_finished_deals_cut_the_log_into_its_deals(rules: str) -> None:
    first, m = random_match(rules, 11)
    deals = finished_deals(first, m.history)
    assert len(deals) == len(m.deals)
    at = 0
    for i, fd in enumerate(deals, 1):
        assert fd.number == i and fd.start == at and fd.end.is_over
        assert fd.players == m.deals[i - 1].players
        assert fd.end.scores == m.deals[i - 1].points
        at += len(fd.actions)
    assert at == len(m.history)
    # a deal still being played is left out
    cut = deals[-1].start + 3
    assert len(finished_deals(first, m.history[:cut])) == len(deals) - 1


def test_a_deal_that_dealing_ended_keeps_the_numbers_of_the_deals_after_it(
    tmp_path: Path,
) -> None:
    """A house rule whose carte blanche is shown as it is dealt (no number announced) and a
    game of 10: deal 8 of seed 258 is a blanche that wins its game as it is dealt, with no
    action to review.  The deals after it keep their places in the match (they were
    numbered 8 to 11, so an analysis named every later deal one too low)."""
    house = tmp_path / "house.toml"
    house.write_text('base = "encyclopedia-19c"\nname = "blanche-at-once"\ntarget = 10\n'
                     "[knobs]\nblanche_number = false\n")
    rules = get_rules(str(house))
    first = new_match(rules, seed=258, format="game", games=12)
    m, rng, history = first, random.Random(258), []
    while not m.finished:
        action, player = m.random_action(rng), m.to_act
        assert player is not None
        history.append((player, action))
        m = m.apply(action, player)
    deals = finished_deals(first, history)
    assert len(m.deals) == 12 and len(deals) == 11
    assert [d.number for d in deals] == [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12]
    assert all(d.end.is_over and d.actions for d in deals)
    # the web's analysis finds each deal by its number, and says why deal 8 has none
    from piquet.jobs.work import analyse_deal

    log = [(p, str(a)) for p, a in history]
    cheap = (5, 8, 8)  # the expert's budget, the advisor's samples, the deals verified
    eighth = json.loads(analyse_deal(str(house), "game", 258, 12, 2, log, 8, *cheap))
    assert eighth["number"] == 8 and "ended as it was dealt" in eighth["note"]
    ninth = json.loads(analyse_deal(str(house), "game", 258, 12, 2, log, 9, *cheap))
    assert ninth["number"] == 9 and ninth["start"] == deals[7].start


def test_every_play_that_drops_the_double_dummy_value_is_named() -> None:
    first, m = random_match("rubicon", 5, worst_play=True)
    fd = finished_deals(first, m.history)[0]
    rules = get_rules("rubicon")
    out = review_deal(fd, rules, seed=1, exchange=False, declarations=False)
    solver = Solver(rules)
    want = []
    for i, (_p, a) in enumerate(fd.actions):
        d = fd.deal_before(i)
        if isinstance(a, Play) and d.phase is Phase.PLAY:
            vals = solver.move_values(play_state(d))
            drop = max(vals.values()) - vals[a.card.index]
            if drop:
                want.append((fd.start + i, drop))
    assert [(p["step"], p["drop"]) for p in out["play"]] == want
    elder = [p for p in out["play"] if p["role"] == "elder"]
    assert elder, "elder played his worst card every time and lost nothing?"
    assert out["losses"]["elder"]["play"] == sum(p["drop"] for p in elder)
    assert out["exchange"] == [] and out["declarations"] == []


def test_the_exchange_is_judged_against_the_advisor() -> None:
    first, m = random_match("rubicon", 8)
    fd = finished_deals(first, m.history)[0]
    out = review_deal(fd, get_rules("rubicon"), seed=2, declarations=False, **CHEAP)
    made = {i: a for i, (_p, a) in enumerate(fd.actions) if isinstance(a, Discard)}
    assert [e["step"] - fd.start for e in out["exchange"]] == sorted(made)
    for e in out["exchange"]:
        a = made[e["step"] - fd.start]
        assert isinstance(a, Discard) and e["made"] == [str(c) for c in a.cards]
        assert len(e["dealt"]) == 12 and 1 <= e["rank"] <= e["of"]
        if e["made"] == e["best"]:
            assert e["verified"] is None
        else:
            assert e["verified"]["samples"] == CHEAP["verify"]
            assert e["loss"] == e["verified"]["difference"]


def test_declarations_are_judged_against_the_expert_in_this_deal() -> None:
    first, m = random_match("rubicon", 3)
    fd = finished_deals(first, m.history)[0]
    out = review_deal(fd, get_rules("rubicon"), seed=2, exchange=False, **CHEAP)
    for x in out["declarations"]:
        assert x["made"] != x["expert"]
        assert x["loss"] == x["expert_value"] - x["made_value"]
        assert x["kind"] in ("sink", "answer", "declare", "pass", "other")
    # the costliest choice, not their sum: each is valued alone, the rest of the deal as
    # it was, so two answers may count the same points
    for role in ("elder", "younger"):
        assert out["losses"][role]["declarations"] == max(
            [0, *(x["loss"] for x in out["declarations"] if x["role"] == role)])


def test_a_deal_won_before_the_play_says_no_card_was_played() -> None:
    """A game can be won in the declarations (du-coeur-1995, seed 0 at random): the analysis
    says how many cards were played (none), so the page does not speak of the play."""
    first, m = random_match("du-coeur-1995", 0)
    deals = finished_deals(first, m.history)
    ended = [fd for fd in deals if not fd.end.tricks and fd.end.trick_lead is None]
    assert ended, "seed 0 had a deal won before the play"
    out = review_deal(ended[0], get_rules("du-coeur-1995"), seed=1, exchange=False,
                      declarations=False)
    assert out["cards_played"] == 0 and out["play"] == []
    played = review_deal(deals[0], get_rules("du-coeur-1995"), seed=1, exchange=False,
                         declarations=False)
    end = deals[0].end
    assert played["cards_played"] == 2 * len(end.tricks) + (end.trick_lead is not None) > 0


@functools.cache
def _worst_reviewed() -> dict[str, Any]:
    first, m = random_match("rubicon", 5, worst_play=True)
    fd = finished_deals(first, m.history)[0]
    return review_deal(fd, get_rules("rubicon"), seed=1, **CHEAP)


def _worst_review() -> dict[str, Any]:
    """The first deal of rubicon's seed 5 played worst, reviewed in full (seed 1,
    :data:`CHEAP`): a function of these, made once a test process; each test gets its own
    copy to read."""
    return copy.deepcopy(_worst_reviewed())


def test_the_curve_follows_the_deal_to_its_score() -> None:
    """After each decision the curve holds elder's margin over the deal with best play
    from there, both hands open: each card's point is the solver's value of that card, the
    last is the deal's actual margin, and a card that dropped points moves the curve
    against its player by exactly the drop."""
    first, m = random_match("rubicon", 5, worst_play=True)
    fd = finished_deals(first, m.history)[0]
    out = _worst_review()
    curve = out["curve"]
    assert curve and curve[0]["what"] == "the exchange done" and curve[0]["role"] is None
    steps = [p["step"] for p in curve]
    assert steps == sorted(set(steps)) and fd.start <= steps[0]
    assert curve[-1]["margin"] == fd.end.scores[0] - fd.end.scores[1]
    plays = [i for i, (_p, a) in enumerate(fd.actions)
             if isinstance(a, Play) and fd.deal_before(i).phase is Phase.PLAY]
    assert [p["step"] for p in curve if p["what"].startswith("played ")] == [
        fd.start + i for i in plays]
    at = {p["step"]: i for i, p in enumerate(curve)}
    for drop in out["play"]:
        i = at[drop["step"]]
        sign = 1 if drop["role"] == "elder" else -1
        assert sign * (curve[i - 1]["margin"] - curve[i]["margin"]) == drop["drop"]
    json.dumps(out)


def test_each_finding_is_said_in_words() -> None:
    out = _worst_review()
    for e in out["exchange"]:
        assert e["say"].startswith("Discarded the ")
    for x in out["declarations"]:
        assert f"“{x['made']}”" in x["say"] and f"“{x['expert']}”" in x["say"]
    assert out["play"]
    for p in out["play"]:
        assert p["say"].startswith(f"Trick {p['trick']}: played the ")
        assert f"kept {p['drop']} point" in p["say"]
        assert not any(code in p["say"] for code in (p["card"], *p["best"]))


def test_the_game_curve_runs_across_every_deal_to_the_game_score() -> None:
    """One line over the whole game: it starts at 0, follows each analysed deal's curve
    shifted to the points scored before it and turned to player 0's side, and ends each
    deal on the points scored so far; a deal without an analysis has its end alone."""
    from piquet.review.curve import game_curve

    first, m = random_match("rubicon", 5, worst_play=True)
    fds = finished_deals(first, m.history)
    rules = get_rules("rubicon")
    assert len(m.deals) >= 3
    bodies = {fd.number: review_deal(fd, rules, seed=1, exchange=False, declarations=False)
              for fd in fds[:3] if fd.number != 2}
    g = game_curve(m.deals, bodies)
    assert g is not None
    pts, deals = g["points"], g["deals"]
    assert pts[0]["margin"] == 0 and pts[0]["deal"] == 0
    assert [d["number"] for d in deals] == list(range(1, len(m.deals) + 1))
    totals = [0, 0]
    for d, s in zip(deals, m.deals, strict=True):
        before = totals[0] - totals[1]
        for role, player in enumerate(s.players):
            totals[player] += s.points[role]
        assert d["before"] == before and d["after"] == totals[0] - totals[1]
        assert d["change"] == d["after"] - d["before"] and d["totals"] == totals
        assert sum(d["points"]) == sum(s.points)
        assert d["points"][s.players[0]] == s.points[0]
        assert pts[d["last"]]["margin"] == d["after"]
        assert all(p["deal"] == d["number"] for p in pts[d["first"]:d["last"] + 1])
        a = bodies.get(d["number"])
        if a is None:  # no analysis: the deal's end alone, no step to show
            assert d["first"] == d["last"] and not d["curve"]
            assert pts[d["last"]]["step"] is None
            continue
        sign = 1 if s.players[0] == 0 else -1
        inside = pts[d["first"]:d["last"] + 1]
        assert d["curve"] and len(inside) == len(a["curve"])
        for p, q in zip(inside, a["curve"], strict=True):
            assert p["margin"] == before + sign * q["margin"] and p["step"] == q["step"]
            assert p["player"] == (None if q["role"] is None else a["players"][q["role"]])
    assert g["totals"] == totals
    assert [d["number"] for d in deals if d["curve"]] == sorted(bodies)
    # the other person's cards face down: the deal's curve is empty, its end is public
    hidden = {n: {**b, "curve": []} for n, b in bodies.items()}
    shown = game_curve(m.deals, hidden)
    assert shown is not None and len(shown["points"]) == 1 + len(m.deals)
    assert [p["margin"] for p in shown["points"][1:]] == [d["after"] for d in deals]
    json.dumps(g)


def test_a_pool_has_no_game_curve() -> None:
    from piquet.core.match import DealSummary
    from piquet.review.curve import game_curve

    deal = DealSummary(1, 1, 0, (1, 2), (10, 3), ({}, {}), None)
    assert game_curve([deal], {}) is None
