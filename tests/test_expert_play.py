"""The expert's play and declarations: inference by consistency, sinking."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from piquet.analysis.sampling import World, sample_worlds
from piquet.core.actions import Action, Declare, Pass
from piquet.core.deal import Deal, Phase
from piquet.core.match import MatchView
from piquet.core.rules import PRESETS, Rules
from piquet.core.view import deal_view
from piquet.fast.solver import DIFF, Solver
from piquet.players import VARIANTS, make_player
from piquet.players.base import Player
from piquet.players.book import book_action
from piquet.players.common import Situation, truthful_declaration
from piquet.players.consistency import PlayConsistency
from piquet.players.expert import ExpertPlayer
from piquet.players.search import _continue_value
from piquet.players.sinking import choose_sink, sink_options
from piquet.tournament import deal_pack, play_deal

FAST = 20


def _declare_positions(rules_name: str, count: int) -> list[Deal]:
    """Deals at a declaration with a holding to declare, reached by the book."""
    rules = PRESETS[rules_name]
    out: list[Deal] = []
    for seed in range(200):
        d = Deal.new(rules, deal_pack(rules, seed, 0))
        while not d.is_over and d.phase is not Phase.PLAY:
            seat = d.to_act
            assert seat is not None
            view = deal_view(d, seat)
            if d.phase is Phase.DECLARE and isinstance(truthful_declaration(view, rules), Declare):
                out.append(d)
                break
            d = d.apply(book_action(view, rules))
        if len(out) >= count:
            break
    return out


def _play_deal_at(rules_name: str, seed: int, tricks: int) -> Deal:
    """A deal played by the book to ``tricks`` tricks (someone to lead or follow)."""
    rules = PRESETS[rules_name]
    d = Deal.new(rules, deal_pack(rules, seed, 0))
    while not d.is_over:
        if d.phase is Phase.PLAY and len(d.tricks) >= tricks:
            return d
        seat = d.to_act
        assert seat is not None
        d = d.apply(book_action(deal_view(d, seat), rules))
    raise AssertionError("the deal ended early")


def _valuer(rules: Rules, seat: int) -> Callable[[Deal], float]:
    solver = Solver(rules, DIFF, tt_bits=12)
    sit = Situation(start=(0, 0), objective=DIFF, lead=0)

    def value(deal: Deal) -> float:
        return _continue_value(deal, rules, sit, solver, seat)

    return value


# ------------------------------------------------------------------ sinking
def test_sink_options_are_a_pass_and_lesser_claims_of_a_declaration() -> None:
    for d in _declare_positions("rubicon", 5):
        seat = d.to_act
        assert seat is not None
        view = deal_view(d, seat)
        default = truthful_declaration(view, d.rules)
        assert isinstance(default, Declare)
        opts = sink_options(view, default)
        assert default not in opts
        for a in opts:
            assert a in view.legal_actions
            assert isinstance(a, Pass) or (
                isinstance(a, Declare)
                and a.cards.mask.bit_count() < default.cards.mask.bit_count()
            )
        assert sink_options(view, Pass()) == []


def test_a_sink_is_chosen_only_within_the_allowance() -> None:
    rules = PRESETS["rubicon"]
    sank = 0
    for d in _declare_positions("rubicon", 6):
        seat = d.to_act
        assert seat is not None
        view = deal_view(d, seat)
        default = truthful_declaration(view, rules)
        worlds = sample_worlds(view, rules, random.Random(1), 12)
        value = _valuer(rules, seat)

        never = choose_sink(view, rules, default, worlds, value, allowance=-1e9)
        assert never.action == default and not never.sank
        always = choose_sink(view, rules, default, worlds, value, allowance=1e9)
        if sink_options(view, default):
            assert always.sank and always.action in sink_options(view, default)
            assert always.cost is not None
            # the threshold is the cheapest sink's cost itself: at it, declare all; just
            # above it, that sink
            at = choose_sink(view, rules, default, worlds, value, allowance=always.cost)
            assert at.action == default and not at.sank and at.cost == always.cost
            above = choose_sink(view, rules, default, worlds, value,
                                allowance=always.cost + 1e-6)
            assert above.sank and above.action == always.action
            sank += 1
    assert sank >= 1


def test_the_sinking_expert_plays_legal_deals_and_counts_its_sinks() -> None:
    rules = PRESETS["rubicon"]
    sinks = 0
    for seed in range(3):
        pack = deal_pack(rules, seed, 1)
        expert = ExpertPlayer(seed, FAST, sink_allowance=50.0)
        spy = _DeclarationSpy(expert, rules)
        play_deal(rules, pack, (spy, make_player("book")), elder=seed % 2)
        decided, differed = expert.declaration_stats
        # every declaration decision counted, and the ones that differ are the sinks made
        assert decided == len(spy.seen) and differed <= decided
        made = [(str(a), str(t)) for a, t in spy.seen if a != t]
        assert [(action, truthful) for _, action, truthful, _ in expert.sinks] == made
        assert len(made) == differed
        assert all(cost < 50.0 for *_, cost in expert.sinks)
        sinks += differed
    assert sinks >= 1  # an allowance of 50 points sinks where there is anything to sink
    assert "expert-sink1" in VARIANTS


class _DeclarationSpy:
    """A player that records each declaration it makes with the truthful one."""

    def __init__(self, inner: Player, rules: Rules) -> None:
        self.inner, self.rules, self.name = inner, rules, inner.name
        self.seen: list[tuple[Action, Action]] = []

    def choose(self, view: MatchView) -> Action:
        action = self.inner.choose(view)
        deal = view.deal
        if deal is not None and deal.phase is Phase.DECLARE:
            self.seen.append((action, truthful_declaration(deal, self.rules)))
        return action


@pytest.mark.parametrize("preset", ["rubicon", "cotgrave-1662"])
def test_the_reference_still_declares_truthfully_at_a_small_budget(preset: str) -> None:
    """Below 200 ms the reference (and the plain expert) declare truthfully: the hook
    ``_declares_by_search`` the sinking variants widen leaves them as they were."""
    rules = PRESETS[preset]
    for seed in range(3):
        pack = deal_pack(rules, seed, 2)
        for level in ("reference", "expert"):
            spy = _DeclarationSpy(make_player(level, seed=5, think_ms=FAST), rules)
            play_deal(rules, pack, (spy, make_player("book")), elder=seed % 2)
            assert spy.seen, "no declaration was asked"
            assert all(made == truthful for made, truthful in spy.seen), spy.seen


# ------------------------------------------------------------------ consistency
@pytest.mark.parametrize("tricks", [3, 6, 9])
def test_consistency_reads_his_past_cards_and_only_lowers_weights(tricks: int) -> None:
    rules = PRESETS["rubicon"]
    d = _play_deal_at("rubicon", 7, tricks)
    seat = d.to_act
    assert seat is not None
    view = deal_view(d, seat)
    solver = Solver(rules, DIFF, tt_bits=14)
    reader = PlayConsistency(view, solver, 10**7)
    his = 1 - seat
    his_cards = [t.lead if t.leader == his else t.follow for t in view.tricks]
    if view.trick_lead is not None:
        his_cards.append(view.trick_lead)
    read = [c.card for c in reader.cards]
    assert set(read) <= set(his_cards)
    assert read == sorted(read, key=lambda c: -his_cards.index(c))  # latest first
    worlds = sample_worlds(view, rules, random.Random(2), 30)
    weighed = reader.weigh(list(worlds))
    assert len(weighed) == len(worlds)
    for a, b in zip(weighed, worlds, strict=True):
        assert a.opp_hand == b.opp_hand and 0 < a.weight <= b.weight + 1e-12
    # his true hand: the cards he holds now in the deal
    true = World(0, 0, (), d.hands[his], 1.0)
    assert reader.weigh([true])[0].weight > 0


def test_consistency_prefers_a_hand_where_his_card_was_the_solvers() -> None:
    rules = PRESETS["rubicon"]
    found = False
    for seed in range(12):
        d = _play_deal_at("rubicon", seed, 8)
        seat = d.to_act
        assert seat is not None
        view = deal_view(d, seat)
        reader = PlayConsistency(view, Solver(rules, DIFF, tt_bits=14), 10**7,
                                 lam=1.0)
        worlds = sample_worlds(view, rules, random.Random(seed), 40)
        weighed = reader.weigh(list(worlds))
        if len({round(w.weight / v.weight, 9) for w, v in zip(weighed, worlds, strict=True)}) > 1:
            found = True
            assert reader.depth >= 1 and reader.solved >= reader.depth
            break
    assert found


def test_the_consistent_expert_is_seeded_and_reads_within_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each reading of his past cards solves within twice its budget of positions (the
    first hand reads while its cost, times the hands, fits the budget; the others may
    spend as much again), give or take one search's overrun."""
    rules = PRESETS["rubicon"]
    used: list[tuple[int, int]] = []
    slack = 2_000  # an aborted search may pass its limit by a little
    original = PlayConsistency.weigh

    def spy(self: PlayConsistency, worlds: list[World]) -> list[World]:
        start = self.solver.nodes
        out = original(self, worlds)
        used.append((self.solver.nodes - start, self.budget))
        return out

    monkeypatch.setattr(PlayConsistency, "weigh", spy)
    pack = deal_pack(rules, 4, 1)
    runs = []
    for _ in range(2):
        expert = ExpertPlayer(2, FAST, consistency=0.5)
        runs.append(play_deal(rules, pack, (expert, make_player("reference", seed=3,
                                                                think_ms=FAST)),
                              elder=1).history)
        decided, solved = expert.consistency_stats
        assert decided >= 1 and solved >= 1
        read, readable = expert.consistency_depth
        assert 0 < read <= readable
    assert runs[0] == runs[1]
    assert used and all(n <= 2 * budget + slack for n, budget in used), used
    # a budget too small for every card: it binds (unbounded, these reads cost ~100,000)
    used.clear()
    tight = ExpertPlayer(2, 2, consistency=0.5)
    play_deal(rules, pack, (tight, make_player("reference", seed=3, think_ms=FAST)), elder=1)
    assert used and all(budget == 8_000 for _, budget in used)
    assert all(n <= 2 * budget + slack for n, budget in used), used
    assert tight.consistency_depth[0] < tight.consistency_depth[1]
    assert "expert-consistent0.5" in VARIANTS


# ------------------------------------------------------------------ the first trick
def test_the_first_tricks_cards_get_the_boosted_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = PRESETS["rubicon"]
    seen: list[tuple[int, int]] = []
    original = ExpertPlayer._play_means

    def spy(self, deal, rules_, sit, rng, budget, legal):  # type: ignore[no-untyped-def]
        seen.append((len(deal.tricks), budget.think_ms))
        return original(self, deal, rules_, sit, rng, budget, legal)

    monkeypatch.setattr(ExpertPlayer, "_play_means", spy)
    expert = ExpertPlayer(1, FAST, first_trick_boost=4.0)
    play_deal(rules, deal_pack(rules, 5, 0), (expert, make_player("book")), elder=0)
    assert seen and all(ms == (4 * FAST if tricks == 0 else FAST) for tricks, ms in seen)
    assert any(tricks == 0 for tricks, _ in seen)
    assert "expert-first2" in VARIANTS and "expert-first4" in VARIANTS
