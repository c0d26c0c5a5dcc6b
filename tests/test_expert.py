"""The expert: its beliefs, its lookahead, the reference it is measured against."""

from __future__ import annotations

import dataclasses
import random

import pytest

from piquet.analysis.sampling import World, sample_worlds
from piquet.core.cards import Card, CardSet
from piquet.core.deal import Deal, Phase
from piquet.core.errors import PiquetError
from piquet.core.rules import PRESETS, Rules
from piquet.core.view import deal_view
from piquet.fast.solver import Mode, Objective, Solver, play_state
from piquet.players import LEVELS, VARIANTS, WEAKEST_FIRST, make_player
from piquet.players.beliefs import COUNT_WEIGHT, FOLLOW_WEIGHT, BeliefModel, _Follow
from piquet.players.common import book_discard, card_values
from piquet.players.expert import ExpertPlayer
from piquet.players.lookahead import lookahead_values
from piquet.players.search import SearchPlayer
from piquet.tournament import deal_pack, play_deal

FAST = 20


def _mask(*names: str) -> int:
    return CardSet(Card.parse(n) for n in names).mask


def _play_position(rules: Rules, seed: int) -> Deal | None:
    """A deal in its play, some tricks in, reached by random actions."""
    rng = random.Random(seed)
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    rng.shuffle(pack)
    d = Deal.new(rules, pack)
    stop = rng.randrange(2, 18)
    plays = 0
    while not d.is_over:
        if d.phase is Phase.PLAY:
            plays += 1
            if plays >= stop:
                return d
        d = d.apply(d.random_action(rng))
    return None


def _younger_after_exchange(rules: Rules, seed: int) -> Deal:
    """A deal where elder has exchanged by the book and younger is to exchange."""
    book = make_player("book")
    pack = deal_pack(rules, seed, 0)
    from piquet.tournament import deal_match

    m = deal_match(rules, pack, elder=0)
    while True:
        assert m.deal is not None
        if m.deal.phase is Phase.EXCHANGE and m.deal.to_act == 1:
            return m.deal
        p = m.to_act
        assert p is not None
        m = m.apply(book.choose(m.view(p)), p)


# ------------------------------------------------------------------ levels
def test_reference_and_expert_are_levels_and_variants_are_not() -> None:
    assert WEAKEST_FIRST[-2:] == ("reference", "expert")
    assert [lv for lv in LEVELS if lv in WEAKEST_FIRST][-2:] == ["reference", "expert"]
    assert "expert-lookahead" in VARIANTS and "expert-lookahead" not in LEVELS
    assert make_player("expert-lookahead", seed=1).name == "expert-lookahead"
    assert make_player("reference").name == "reference"
    with pytest.raises(PiquetError, match="the levels are"):
        make_player("expert-2099")


def test_reference_plays_as_the_2025_expert() -> None:
    rules = PRESETS["rubicon"]
    pack = deal_pack(rules, 3, 2)
    ref = play_deal(rules, pack, (make_player("reference", seed=5, think_ms=FAST),
                                  make_player("book")), elder=0)
    old = play_deal(rules, pack, (SearchPlayer(5, FAST, level="reference"), make_player("book")),
                    elder=0)
    assert ref.history == old.history


def test_expert_is_seeded() -> None:
    rules = PRESETS["court-gamester-1754"]
    pack = deal_pack(rules, 4, 1)
    runs = [
        play_deal(rules, pack, (make_player("expert", seed=2, think_ms=FAST),
                                make_player("reference", seed=3, think_ms=FAST)), elder=1).history
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


# ------------------------------------------------------------------ beliefs: the exchange
def test_a_discard_of_the_least_useful_cards_is_the_likeliest() -> None:
    rules = PRESETS["rubicon"]
    d = _younger_after_exchange(rules, 6)
    model = BeliefModel(deal_view(d, 1), rules)
    elder_dealt = d.dealt[0]
    lo, hi = model.range
    book = book_discard(elder_dealt, lo, hi, rules, role=0)
    values = card_values(elder_dealt, rules, role=0)
    best_card = max(values, key=lambda c: values[c])
    worst_kept = min((c for c in values if not book >> c & 1), key=lambda c: values[c])
    if best_card == worst_kept:
        pytest.skip("a hand whose best card is its worst kept")
    swapped = (book & ~(1 << min(c for c in values if book >> c & 1))) | 1 << best_card
    assert model._exchange_weight(elder_dealt, book) == pytest.approx(1.0)
    assert model._exchange_weight(elder_dealt, swapped) < 0.5


def test_taking_fewer_cards_than_the_advice_is_less_likely() -> None:
    rules = PRESETS["rubicon"]
    d = _younger_after_exchange(rules, 6)
    model = BeliefModel(deal_view(d, 1), rules)
    elder_dealt = d.dealt[0]
    lo, hi = model.range
    book = book_discard(elder_dealt, lo, hi, rules, role=0)
    values = card_values(elder_dealt, rules, role=0)
    order = sorted(values, key=lambda c: (values[c], c))
    fewer = sum(1 << c for c in order[: book.bit_count() - 1])
    assert model._exchange_weight(elder_dealt, fewer) == pytest.approx(COUNT_WEIGHT)


# ------------------------------------------------------------------ beliefs: the play
def test_following_high_with_a_lower_winner_held_is_less_likely() -> None:
    rules = PRESETS["rubicon"]
    d = _younger_after_exchange(rules, 6)
    model = BeliefModel(deal_view(d, 1), rules)
    ten = _mask("TH").bit_length() - 1
    knave = _mask("JH").bit_length() - 1
    king = _mask("KH").bit_length() - 1
    queen = _mask("QH").bit_length() - 1
    # we led the ten; he won with the king, holding the knave
    held = _mask("JH", "KH", "7S")
    assert model._follow_weight(_Follow(ten, king, _mask("KH"), 0), held) == FOLLOW_WEIGHT
    # winning with the lowest card that wins
    assert model._follow_weight(_Follow(ten, knave, _mask("JH"), 0), held) == 1.0
    # the knave and the queen are equivalent: either is as likely
    held_jq = _mask("JH", "QH")
    assert model._follow_weight(_Follow(ten, queen, _mask("QH"), 0), held_jq) == 1.0
    # the queen played before makes the knave and the king equivalent
    assert model._follow_weight(_Follow(ten, king, _mask("KH"), _mask("QH")), held) == 1.0


# ------------------------------------------------------------------ the sampler's hook
def test_weighed_sampling_keeps_the_likely_worlds() -> None:
    rules = PRESETS["rubicon"]
    d = _younger_after_exchange(rules, 6)
    view = deal_view(d, 1)
    ace_spades = _mask("AS")

    def weigh(w: World) -> float:
        return 0.0 if w.opp_hand & ace_spades else 1.0

    plain = sample_worlds(view, rules, random.Random(1), 30)
    if all(w.opp_hand & ace_spades for w in plain) or not any(
        w.opp_hand & ace_spades for w in plain
    ):
        pytest.skip("the ace of spades is not in doubt in this deal")
    got = sample_worlds(view, rules, random.Random(1), 10, weigh=weigh, pool=4)
    assert 1 <= len(got) <= 10
    assert sum(w.weight for w in got) == pytest.approx(10)
    assert not any(w.opp_hand & ace_spades for w in got)
    again = sample_worlds(view, rules, random.Random(1), 10, weigh=weigh, pool=4)
    assert got == again


def test_reweigh_sees_every_drawn_world_before_the_resampling() -> None:
    """``reweigh`` gets the whole pool, weighed by ``weigh``, and the worlds kept are drawn
    on the weights it returns (as the consistency reading uses it)."""
    rules = PRESETS["rubicon"]
    view = deal_view(_younger_after_exchange(rules, 6), 1)
    ace_spades = _mask("AS")
    seen: list[list[World]] = []

    def reweigh(worlds: list[World]) -> list[World]:
        seen.append(worlds)
        return [World(w.opp_dealt, w.opp_discards, w.stock, w.opp_hand,
                      0.0 if w.opp_hand & ace_spades else w.weight) for w in worlds]

    got = sample_worlds(view, rules, random.Random(1), 10, pool=4, reweigh=reweigh)
    assert len(seen) == 1 and len(seen[0]) == 40
    if all(w.opp_hand & ace_spades for w in seen[0]) or not any(
        w.opp_hand & ace_spades for w in seen[0]
    ):
        pytest.skip("the ace of spades is not in doubt in this deal")
    assert sum(w.weight for w in got) == pytest.approx(10)
    assert not any(w.opp_hand & ace_spades for w in got)


def test_a_pool_below_one_is_refused() -> None:
    rules = PRESETS["rubicon"]
    view = deal_view(_younger_after_exchange(rules, 6), 1)
    with pytest.raises(PiquetError, match="pool must be at least 1"):
        sample_worlds(view, rules, random.Random(1), 4, pool=0)


# ------------------------------------------------------------------ the lookahead
@pytest.mark.parametrize("preset", ["rubicon", "du-coeur-1995", "cotgrave-1662"])
@pytest.mark.parametrize("mode", [Mode.DIFF, Mode.RACE])
def test_lookahead_over_one_world_is_the_exact_value(preset: str, mode: Mode) -> None:
    rules = PRESETS[preset]
    objective = Objective(mode=mode, remaining=(30, 25)) if mode is Mode.RACE else Objective()
    checked = 0
    for seed in range(30):
        d = _play_position(rules, seed)
        if d is None:
            continue
        state = play_state(d)
        solver = Solver(rules, objective)
        exact = solver.move_values(state)
        values, used = lookahead_values(solver, [state], [1.0], list(exact), nodes=10**8)
        assert used == 1
        assert values == pytest.approx({c: float(v) for c, v in exact.items()})
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_lookahead_never_values_a_card_above_the_mean_of_its_exact_values() -> None:
    """Over two worlds the seat cannot tell apart, choosing one next card for both is
    worth at most the mean of the per-world exact values (which may choose differently:
    strategy fusion); on some positions strictly less."""
    rules = PRESETS["rubicon"]
    checked = 0
    for seed in range(80):
        d = _play_position(rules, seed)
        if d is None or d.trick_lead is not None:
            continue
        state = play_state(d)
        me = state.to_move
        opp = state.hands[1 - me]
        played = 0
        for t in d.tricks:
            played |= 1 << t.lead | 1 << t.follow
        pack = sum(1 << c for c in range(36) if c % 9)
        outside = pack & ~state.hands[0] & ~state.hands[1] & ~played
        if not outside or not opp:
            continue
        swap_out = opp & -opp
        swap_in = outside & -outside
        hands = list(state.hands)
        hands[1 - me] = (opp & ~swap_out) | swap_in
        other = dataclasses.replace(state, hands=(hands[0], hands[1]))
        solver = Solver(rules)
        a = solver.move_values(state)
        b = solver.move_values(other)
        values, used = lookahead_values(solver, [state, other], [1.0, 1.0], list(a),
                                        nodes=10**8)
        assert used == 2
        for c in a:
            assert values[c] <= (a[c] + b[c]) / 2 + 1e-9
        checked += 1
    assert checked >= 5


def test_expert_records_its_lookahead_decisions() -> None:
    rules = PRESETS["rubicon"]
    expert = ExpertPlayer(4, 60, lookahead=True)
    play_deal(rules, deal_pack(rules, 2, 0), (expert, make_player("book")), elder=0)
    decided, changed = expert.lookahead_stats
    assert decided >= 1 and 0 <= changed <= decided


def test_a_name_can_fix_the_budget() -> None:
    player = make_player("expert@1000", seed=1, think_ms=100)
    assert isinstance(player, ExpertPlayer) and player.think_ms == 1000
    assert make_player("expert", think_ms=100).think_ms == 100  # type: ignore[attr-defined]
    for bad in ("expert@0", "expert@fast", "expert@"):
        with pytest.raises(PiquetError, match="positive whole number of milliseconds"):
            make_player(bad)


# ------------------------------------------------------------------ the exchange by play-outs
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_wide_candidates_are_legal_distinct_and_start_with_the_book(preset: str) -> None:
    from piquet.players.common import discard_candidates
    from piquet.players.exchange import wide_candidates

    rules = PRESETS[preset]
    d = _younger_after_exchange(rules, 11)
    view = deal_view(d, 1)
    assert view.discard_range is not None
    lo, hi = view.discard_range
    hand = view.hand.mask
    cands = wide_candidates(hand, lo, hi, rules, role=1, limit=30)
    assert cands[0] == book_discard(hand, lo, hi, rules, role=1)
    assert len(cands) == len(set(cands)) <= 30
    assert all(lo <= c.bit_count() <= hi and c & ~hand == 0 for c in cands)
    # the reference's candidates come first, in its order
    ref = [c for c in discard_candidates(hand, lo, hi, rules, role=1, limit=30)
           if c != cands[0]]
    assert cands[1 : 1 + len(ref)] == ref[: len(cands) - 1]


def test_playout_values_are_the_kernels_and_repeat_from_a_seed() -> None:
    from piquet.fast import playout
    from piquet.players.exchange import playout_values, playout_worlds

    rules = PRESETS["rubicon"]
    d = _younger_after_exchange(rules, 12)
    view = deal_view(d, 1)
    worlds = sample_worlds(view, rules, random.Random(1), 8)
    ready = playout_worlds(view, rules, worlds)
    assert ready and all(pw.weight == pw.world.weight for pw in ready)
    assert view.discard_range is not None
    disc = book_discard(view.hand.mask, *view.discard_range, rules, role=1)
    got = playout_values(rules, 1, ready, disc, seed=5)
    assert got is not None and got == playout_values(rules, 1, ready, disc, seed=5)
    from piquet.core.actions import Discard

    one = playout(rules, ready[2].deck, (*ready[2].history, Discard(CardSet(disc))),
                  policy="book", n=1, seed=7)
    assert got[2] == one.mean_scores[1] - one.mean_scores[0]
    # the replayed history gives the seat's view in each world
    for pw in ready:
        dd = Deal.new(rules, list(pw.deck))
        for a in pw.history:
            dd = dd.apply(a)
        assert deal_view(dd, 1) == view


@pytest.mark.parametrize("preset", ["rubicon", "du-coeur-1995", "cotgrave-1662"])
@pytest.mark.parametrize("role", [0, 1])
def test_all_playout_values_in_one_call_are_the_single_play_outs(preset: str, role: int) -> None:
    """The compiled loop over discards and worlds gives, bit for bit, what one
    :func:`piquet.fast.playout` call per discard and world gives (same seeds)."""
    from piquet.core.actions import Discard
    from piquet.fast.rollouts import discard_rollouts
    from piquet.players.exchange import (
        all_playout_values,
        playout_values,
        playout_worlds,
        wide_candidates,
    )

    rules = PRESETS[preset]
    if role == 1:
        d = _younger_after_exchange(rules, 14)
    else:
        d = Deal.new(rules, deal_pack(rules, 14, 0))
        while d.phase is not Phase.EXCHANGE:
            d = d.apply(d.random_action(random.Random(0)))
    view = deal_view(d, role)
    assert view.discard_range is not None
    ready = playout_worlds(view, rules, sample_worlds(view, rules, random.Random(2), 12))
    cands = wide_candidates(view.hand.mask, *view.discard_range, rules, role=role, limit=8)
    # one discard that is not legal (a card not held) gives None, the others their values
    foreign = next(c for c in range(36) if not view.hand.mask >> c & 1 and
                   (rules.deck_size == 36 or c % 9))
    bad = (cands[0] & (cands[0] - 1)) | 1 << foreign
    got = all_playout_values(rules, role, ready, [*cands, bad], seed=9)
    assert got[-1] is None
    assert got[:-1] == [playout_values(rules, role, ready, c, seed=9) for c in cands]
    # several play-outs a world: the mean of the single ones with the seeds they use
    two = discard_rollouts(rules, role, [pw.deck for pw in ready[:3]],
                           [pw.history for pw in ready[:3]], cands[:1], seed=4, plays=2)
    from piquet.fast import playout

    want = []
    for j, pw in enumerate(ready[:3]):
        vals = []
        for r in range(2):
            s = playout(rules, pw.deck, (*pw.history, Discard(CardSet(cands[0]))),
                        policy="book", seed=4 + 2 * j + r).mean_scores
            vals.append(s[role] - s[1 - role])
        want.append(sum(vals) / 2)
    assert two == [want]
    with pytest.raises(PiquetError):
        discard_rollouts(rules, role, [ready[0].deck], [], cands, seed=1)
    with pytest.raises(PiquetError):
        discard_rollouts(rules, role, [ready[0].deck], [ready[0].history], cands, seed=1,
                         plays=0)


def _same_view_other_cards(rules: Rules, seed: int) -> tuple[list[int], list[int]]:
    """Two packs that deal elder the same hand, and younger and the stock other cards."""
    from piquet.core.transitions import pack_dealing

    rng = random.Random(seed)
    cards = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    rng.shuffle(cards)
    elder = sum(1 << c for c in cards[:12])
    rest = cards[12:]
    packs = []
    for _ in range(2):
        rng.shuffle(rest)
        younger = sum(1 << c for c in rest[:12])
        packs.append(pack_dealing(elder, younger, tuple(rest[12:]), rules.packet_sizes[0]))
    return packs[0], packs[1]


@pytest.mark.parametrize("preset", ["rubicon", "cotgrave-1662", "du-coeur-1995"])
def test_the_expert_exchange_sees_no_hidden_card(preset: str) -> None:
    """Elder's discard depends on his view alone: the same hand with other hidden cards
    (younger's hand, the stock) gives the same discard from the same seed."""
    from piquet.tournament import deal_match

    rules = PRESETS[preset]
    chosen = []
    for pack in _same_view_other_cards(rules, 21):
        m = deal_match(rules, pack, elder=0)
        expert = make_player("expert", seed=3, think_ms=FAST)
        while True:
            p = m.to_act
            assert p is not None and m.deal is not None
            view = m.view(p)
            action = expert.choose(view) if p == 0 else make_player("book").choose(view)
            if p == 0 and m.deal.phase is Phase.EXCHANGE:
                chosen.append((view.deal, action))
                break
            m = m.apply(action, p)
    assert chosen[0][0] == chosen[1][0]
    assert chosen[0][1] == chosen[1][1]


def test_the_playout_exchange_can_be_switched_off() -> None:
    rules = PRESETS["rubicon"]
    pack = deal_pack(rules, 8, 0)
    plain = play_deal(rules, pack, (make_player("expert-book-exchange", seed=5, think_ms=FAST),
                                    make_player("book")), elder=0)
    assert plain.is_over
    assert make_player("expert-exact-check", seed=1).name == "expert-exact-check"


def test_the_expert_counts_its_budget_at_the_measured_speed() -> None:
    from piquet.players.expert import EXPERT_NODES_PER_MS, ExpertBudget, per_world_nodes
    from piquet.players.search import NODES_PER_MS

    expert = ExpertPlayer(1, 100)
    assert isinstance(expert._budget(), ExpertBudget)
    assert expert._budget().nodes == 100 * EXPERT_NODES_PER_MS > 100 * NODES_PER_MS
    assert type(ExpertPlayer(1, 100, calibrated=False)._budget()).__name__ == "_Budget"
    rules = PRESETS["rubicon"]
    assert per_world_nodes(rules, 12) > per_world_nodes(rules, 11) > per_world_nodes(rules, 1)
    assert per_world_nodes(PRESETS["cotgrave-1662"], 12) > per_world_nodes(rules, 12)
    assert per_world_nodes(PRESETS["court-gamester-1754"], 12) > per_world_nodes(rules, 12)


def test_near_the_target_the_exchange_is_the_references() -> None:
    """The play-outs count the deal's points: for a race or a partie's settlement the
    reference's evaluation (with the objective) decides."""
    from piquet.fast.solver import Objective
    from piquet.players.common import Situation

    rules = PRESETS["rubicon"]
    d = _younger_after_exchange(rules, 13)
    view = deal_view(d, 1)
    race = Situation((80, 90), Objective(mode=Mode.RACE, remaining=(20, 10)), -10)
    a = ExpertPlayer(4, FAST)
    b = ExpertPlayer(4, FAST, playout_exchange=False)
    got = [p._exchange(view, rules, race, random.Random(2), p._budget()) for p in (a, b)]
    assert got[0] == got[1]
    assert view.discard_range is not None
    lo, hi = view.discard_range
    assert lo <= got[0].bit_count() <= hi and got[0] & ~view.hand.mask == 0


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"worlds_per_ms": -5.0}, "worlds_per_ms must be a positive number, not -5.0"),
        ({"worlds_per_ms": float("nan")}, "worlds_per_ms must be a positive number"),
        ({"max_worlds": 0}, "max_worlds must be at least 200, not 0"),
        ({"switch_margin": float("nan")}, "switch_margin must be a number of points"),
        ({"switch_margin": -1.0}, "switch_margin must be a number of points >= 0, not -1.0"),
    ],
)
def test_the_experts_exchange_settings_are_checked(setting: dict[str, float],
                                                    message: str) -> None:
    with pytest.raises(PiquetError, match=message):
        ExpertPlayer(0, 100, **setting)  # type: ignore[arg-type]
