"""The compiled kernel against the public engine: the same packs and the same choices give
the same score events (role, kind, points, order), the same scores and the same end.

Every preset with both kernel policies (random and book), packs dealt with carte blanche,
and random house rules that turn every knob the kernel reads.  ``bench/bench_fast.py --diff
N`` runs the same check over N deals per preset.
"""

from __future__ import annotations

import enum
import random
from typing import Final

import pytest

from piquet.core.cards import pack
from piquet.core.declarations import COURTS
from piquet.core.rules import PRESETS, Rules
from piquet.core.transitions import pack_dealing
from piquet.fast.check import differ, differ_resumed, random_case
from piquet.fast.engine import play_deal
from piquet.fast.params import FIELDS

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


#: the knobs the compiled code reads (piquet.fast.params.FIELDS: generated from Rules's
#: fields, so a new knob lands here or stops the import)
COMPILED: Final = tuple(name for name, how in FIELDS.items() if not isinstance(how, str))
#: knobs drawn together (their valid values depend on each other)
_JOINT: Final = ("deck_size", "packet_sizes", "elder_max", "elder_min", "younger_min",
                 "younger_max", "sequence_values", "set_min_rank", "partie_deals")
#: the range of each whole-number knob (a new one must say its range here)
_RANGES: Final = {
    "blanche_value": (0, 15), "trio_value": (0, 5), "quatorze_value": (0, 20),
    "last_trick_bonus": (0, 3), "last_trick_tenth_bonus": (0, 3), "cards_bonus": (0, 15),
    "capot_bonus": (0, 50), "pique_threshold": (5, 40), "repique_bonus": (0, 70),
    "pique_bonus": (0, 40), "target": (20, 150),
}
#: how often a yes-or-no knob is yes, where not one time in two
_YES: Final = {"carte_blanche": 0.8, "game_ends_mid_deal": 0.8}
#: knobs the engine reads and the compiled code need not, drawn as well
_ALSO: Final = ("show_missing",)


def _joint(rng: random.Random) -> dict[str, object]:
    deck_size = rng.choice((32, 36))
    stock = deck_size - 24
    elder_max = rng.randrange(1, stock)
    younger_min = rng.randrange(0, stock - elder_max + 1)
    return {
        "deck_size": deck_size,
        "packet_sizes": rng.sample((1, 2, 3, 4, 6, 12), rng.randrange(1, 4)),
        "elder_max": elder_max,
        "elder_min": rng.randrange(0, elder_max + 1),
        "younger_min": younger_min,
        "younger_max": rng.choice((0, max(younger_min, 1) + rng.randrange(0, 3))),
        "sequence_values": [rng.randrange(0, 20) for _ in range(rng.randrange(1, 8))],
        "set_min_rank": rng.randrange(6 if deck_size == 36 else 7, 15),
        "partie_deals": 2 * rng.randrange(1, 5),  # an even number
    }


def random_house_rules(rng: random.Random, base: Rules) -> Rules:
    """A rule set with every knob the compiled code reads (:data:`COMPILED`) drawn at random
    (within what is valid): by its type (yes or no, one of an enum's values, a number in its
    range), or with the knobs it depends on (:data:`_JOINT`)."""
    changes = _joint(rng)
    for name in (*COMPILED, *_ALSO):
        if name in changes:
            continue
        default = getattr(base, name)
        if isinstance(default, bool):
            changes[name] = rng.random() < _YES.get(name, 0.5)
        elif isinstance(default, enum.Enum):
            changes[name] = rng.choice(list(type(default)))
        elif name in _RANGES:
            changes[name] = rng.randrange(*_RANGES[name])
        else:
            raise AssertionError(f"no way to draw the knob {name!r}: give its range in _RANGES")
    return base.replace(name="house", **changes)


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
