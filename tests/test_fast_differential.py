"""The compiled kernel against the public engine: the same packs and the same choices give
the same score events (role, kind, points, order), the same scores and the same end.

Every preset with both kernel policies (random and book), packs dealt with carte blanche,
and random house rules that turn every knob the kernel reads.  ``bench/bench_fast.py --diff
N`` runs the same check over N deals per preset.
"""

from __future__ import annotations

import random

import pytest

from piquet.core.cards import pack
from piquet.core.declarations import COURTS
from piquet.core.rules import PRESETS, Rules
from piquet.core.transitions import pack_dealing
from piquet.fast.check import COMPILED, differ, differ_resumed, random_case, random_house_rules
from piquet.fast.engine import play_deal

DEALS_PER_PRESET = 1500


def _run(rules: Rules, cases: int, seed: str) -> None:
    rng = random.Random(seed)
    for i in range(cases):
        deck, start, target = random_case(rules, rng)
        for policy in ("random", "book"):
            msg = differ(rules, deck, start=start, target=target, policy=policy, seed=i)
            assert msg is None, f"{rules.name} deal {i} ({policy}, start {start}): {msg}"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_events_equal_engine_events_for_every_preset(preset: str) -> None:
    _run(PRESETS[preset], DEALS_PER_PRESET, f"diff:{preset}")


def _blanche_deck(rules: Rules, rng: random.Random, holders: tuple[int, ...]) -> list[int]:
    """A pack dealing carte blanche (no K Q J) to each role in ``holders``, by packets of 2."""
    cards = pack(rules)
    low = [c for c in cards if not COURTS >> c & 1]
    rng.shuffle(low)
    hands: list[list[int]] = [[], []]
    for role in holders:
        hands[role], low = low[:12], low[12:]
    rest = [c for c in cards if c not in hands[0] and c not in hands[1]]
    rng.shuffle(rest)
    for role in (0, 1):
        if not hands[role]:
            hands[role], rest = rest[:12], rest[12:]
    masks = [sum(1 << c for c in h) for h in hands]
    return pack_dealing(masks[0], masks[1], rest, 2)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_carte_blanche_equals_engine(preset: str) -> None:
    rules = PRESETS[preset].replace(packet_sizes=(2,))
    rng = random.Random(f"blanche:{preset}")
    for i in range(150):
        holders = ((0,), (1,), (0, 1))[i % 3]
        if len(holders) == 2 and rules.deck_size == 32:
            holders = (i % 2,)  # a 32-card pack has 20 low cards: not enough for two blanks
        deck = _blanche_deck(rules, rng, holders)
        start = (rng.randrange(0, rules.target), rng.randrange(0, rules.target))
        for policy in ("random", "book"):
            msg = differ(rules, deck, start=start, target=rules.target, policy=policy, seed=i)
            assert msg is None, f"{preset} blanche {holders} deal {i} ({policy}): {msg}"
        assert any(k.name == "BLANCHE" for _, k, _ in play_deal(rules, deck).events) or (
            len(holders) == 2 and not rules.both_blanche_score)


def test_random_house_rules_turn_every_knob_the_compiled_code_reads() -> None:
    rng = random.Random("knobs")
    drawn = [random_house_rules(rng, PRESETS["rubicon"]) for _ in range(200)]
    for name in COMPILED:
        assert len({repr(getattr(r, name)) for r in drawn}) > 1, f"{name} is never turned"


@pytest.mark.parametrize(
    ("both", "bars", "blanche"),
    [(True, False, True), (False, False, True), (True, True, True), (False, True, True),
     (True, False, False)],
)
def test_kernel_follows_the_readings_of_two_blanks(both: bool, bars: bool, blanche: bool) -> None:
    """Both players dealt carte blanche (a 36-card pack): both count, neither, younger's
    alone (1662's "the younger's Blank shall barre the former" read the other way), or no
    carte blanche at all (the 19th-century article's silence read the other way)."""
    rules = PRESETS["cotgrave-1662"].replace(
        name="blanks", packet_sizes=(2,), both_blanche_score=both, younger_blanche_bars=bars,
        carte_blanche=blanche)
    rng = random.Random(f"blanks:{both}:{bars}:{blanche}")
    for i in range(60):
        deck = _blanche_deck(rules, rng, ((0, 1), (0,), (1,))[i % 3])
        start = (rng.randrange(0, rules.target), rng.randrange(0, rules.target))
        for policy in ("random", "book"):
            msg = differ(rules, deck, start=start, target=rules.target, policy=policy, seed=i)
            assert msg is None, f"{rules} blanks deal {i} ({policy}): {msg}"


def test_kernel_follows_the_reading_of_a_pique_by_the_cards() -> None:
    """du Coeur's "thirty points before the other player has scored anything" read as
    letting the cards and the capot make the pique: a low threshold makes it frequent."""
    for threshold in (8, 12, 20):
        rules = PRESETS["du-coeur-1995"].replace(name="cards-pique", pique_by_cards=True,
                                                 pique_threshold=threshold)
        _run(rules, 150, f"cards-pique:{threshold}")


def test_kernel_equals_engine_under_random_house_rules() -> None:
    rng = random.Random("house")
    for r in range(300):
        rules = random_house_rules(rng, PRESETS["rubicon"])
        _run(rules, 10, f"house:{r}")


def test_kernel_refuses_a_pack_that_is_not_the_rule_sets() -> None:
    from piquet.core.errors import PiquetError

    rules = PRESETS["rubicon"]
    with pytest.raises(PiquetError, match="32-card pack"):
        play_deal(rules, list(range(32)))


def test_kernel_refuses_an_unknown_policy() -> None:
    from piquet.core.errors import PiquetError

    rules = PRESETS["rubicon"]
    deck = pack(rules)
    with pytest.raises(PiquetError, match="random, book"):
        play_deal(rules, deck, policy="clever")  # type: ignore[arg-type]


def test_kernel_deal_is_a_function_of_pack_policy_and_seed() -> None:
    rules = PRESETS["du-coeur-1995"]
    deck = pack(rules)
    random.Random(5).shuffle(deck)
    assert play_deal(rules, deck, seed=9) == play_deal(rules, deck, seed=9)
    traces = {play_deal(rules, deck, seed=s).trace for s in range(20)}
    assert len(traces) > 1




@pytest.mark.parametrize("preset", list(PRESETS))
def test_resumable_board_equals_engine_for_every_preset(preset: str) -> None:
    """The board the batch environment steps, stopped at every card and resumed with a card
    chosen from outside, against the engine fed the same choices (every stop and the end)."""
    rules = PRESETS[preset]
    rng = random.Random(f"resumed:{preset}")
    for i in range(DEALS_PER_PRESET // 3):
        deck, start, target = random_case(rules, rng)
        for policy in ("random", "book"):
            msg = differ_resumed(rules, deck, start=start, target=target, policy=policy, seed=i)
            assert msg is None, f"{preset} resumed deal {i} ({policy}, start {start}): {msg}"


def test_resumable_board_equals_engine_under_random_house_rules() -> None:
    rng = random.Random("house-resumed")
    for r in range(60):
        rules = random_house_rules(rng, PRESETS["rubicon"])
        cases = random.Random(f"house-resumed:{r}")
        for i in range(10):
            deck, start, target = random_case(rules, cases)
            for policy in ("random", "book"):
                msg = differ_resumed(rules, deck, start=start, target=target, policy=policy,
                                     seed=i)
                assert msg is None, f"{rules} deal {i} ({policy}): {msg}"
