"""The batch scorer gives exactly what ``score_hands`` gives, pair by pair, under every rule set."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import piquet.analysis.batch as batch
from piquet.analysis.batch import BATCH_FIELDS, batch_rows, score_batch, split_worth
from piquet.analysis.handscore import score_hands
from piquet.core.cards import DECK32, DECK36, CardSet, Rank
from piquet.core.declarations import _best_split
from piquet.core.errors import PiquetError
from piquet.core.rules import PRESETS, PointMeasure, PointScoring, Rules, get_rules

SETTINGS = settings(
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Pair = tuple[int, int, bool, bool]

#: sequence worths to try (each builds a split table: keep to a few)
SEQUENCE_VALUES = (
    (3, 4, 15, 16, 17, 18, 19),
    (3, 4, 15, 16, 17, 18),
    (2, 0, 5, -3, 40),
)


def _pack(rules: Rules) -> list[int]:
    return [i for i in range(36) if rules.deck_size == 36 or i % 9]


@st.composite
def dealt_pairs(draw: st.DrawFn, rules: Rules) -> Pair:
    """Two disjoint 12-card hands from the rule set's pack, and carte blanche flags."""
    order = draw(st.permutations(_pack(rules)))
    elder = sum(1 << i for i in order[:12])
    younger = sum(1 << i for i in order[12:24])
    return elder, younger, draw(st.booleans()), draw(st.booleans())


def _check(pairs: list[Pair], rules: Rules) -> None:
    elder = np.array([p[0] for p in pairs], dtype=np.uint64)
    younger = np.array([p[1] for p in pairs], dtype=np.uint64)
    got = score_batch(
        elder,
        younger,
        rules,
        elder_blanche=[p[2] for p in pairs],
        younger_blanche=[p[3] for p in pairs],
    )
    assert set(got) == set(BATCH_FIELDS)
    rows = batch_rows(got)
    for (e, y, eb, yb), row in zip(pairs, rows, strict=True):
        want = score_hands(e, y, rules, elder_blanche=eb, younger_blanche=yb).to_json()
        assert row == want, (rules.name, str(CardSet(e)), str(CardSet(y)), eb, yb)


def _hands(text_e: str, text_y: str, rules: Rules, **flags: bool) -> dict[str, Any]:
    e, y = CardSet.parse(text_e).mask, CardSet.parse(text_y).mask
    got = batch_rows(
        score_batch(
            [e],
            [y],
            rules,
            elder_blanche=[flags.get("elder_blanche", False)],
            younger_blanche=[flags.get("younger_blanche", False)],
        )
    )[0]
    want = score_hands(e, y, rules, **flags).to_json()
    assert got == want
    return got


# ---------------------------------------------------------------------------- random deals


@pytest.mark.parametrize("name", list(PRESETS))
@SETTINGS
@given(data=st.data())
def test_batch_equals_score_hands_on_random_deals(name: str, data: st.DataObject) -> None:
    rules = PRESETS[name]
    pairs = data.draw(st.lists(dealt_pairs(rules), min_size=1, max_size=25))
    _check(pairs, rules)


@st.composite
def house_rules(draw: st.DrawFn) -> Rules:
    """A preset with the declaration and repique knobs changed at random."""
    base = PRESETS[draw(st.sampled_from(list(PRESETS)))]
    low = int(base.low_rank)
    return base.replace(
        point_measure=draw(st.sampled_from(list(PointMeasure))),
        point_scoring=draw(st.sampled_from(list(PointScoring))),
        sequences_same_suit=draw(st.booleans()),
        sequence_values=draw(st.sampled_from(SEQUENCE_VALUES)),
        set_min_rank=Rank(draw(st.integers(low, 14))),
        quatorze_beats_trio=draw(st.booleans()),
        both_blanche_score=draw(st.booleans()),
        blanche_value=draw(st.integers(0, 40)),
        trio_value=draw(st.integers(0, 10)),
        quatorze_value=draw(st.integers(0, 40)),
        pique_threshold=draw(st.integers(1, 60)),
        repique_bonus=draw(st.integers(0, 90)),
    )


@SETTINGS
@given(rules=house_rules(), data=st.data())
def test_batch_equals_score_hands_under_house_rules(rules: Rules, data: st.DataObject) -> None:
    pairs = data.draw(st.lists(dealt_pairs(rules), min_size=1, max_size=12))
    _check(pairs, rules)


@SETTINGS
@given(
    rules=house_rules(),
    pairs=st.lists(
        st.tuples(st.integers(0, DECK36), st.integers(0, DECK36), st.booleans(), st.booleans()),
        min_size=1,
        max_size=12,
    ),
)
def test_batch_equals_score_hands_on_any_masks(rules: Rules, pairs: list[Pair]) -> None:
    """Not only deals: empty hands, shared cards and hands of any size agree too."""
    pack = DECK36 if rules.deck_size == 36 else DECK32
    _check([(e & pack, y & pack, eb, yb) for e, y, eb, yb in pairs], rules)


@settings(SETTINGS, max_examples=300)
@given(
    counts=st.lists(st.integers(0, 4), min_size=9, max_size=9),
    values=st.sampled_from(SEQUENCE_VALUES),
)
def test_split_worth_equals_best_split(counts: list[int], values: tuple[int, ...]) -> None:
    code = sum(c * 5**i for i, c in enumerate(counts))
    want, _ = _best_split(tuple(counts), (99, 99), values)
    # up to 12 cards come from the presolved table, more are solved on demand
    assert int(split_worth(np.array([code, code]), values)[1]) == want


def test_long_arrays_are_scored_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    monkeypatch.setattr(batch, "_CHUNK", 7)
    rng = random.Random(11)
    for name in ("du-coeur-1995", "rubicon"):
        rules = PRESETS[name]
        pack = _pack(rules)
        pairs: list[Pair] = []
        for _ in range(40):
            rng.shuffle(pack)
            pairs.append(
                (
                    sum(1 << i for i in pack[:12]),
                    sum(1 << i for i in pack[12:24]),
                    rng.random() < 0.3,
                    rng.random() < 0.3,
                )
            )
        _check(pairs, rules)


# ---------------------------------------------------------------------------- edge cases


def test_cotgrave_both_blanches_count_and_younger_blank_bars_elders_repique() -> None:
    rules = get_rules("cotgrave-1662")
    # elder: sixième in spades, quatorze of aces: 30+ in hand, but younger counted his blank first
    out = _hands(
        "AS KS QS JS TS 9S AH AD AC 6H 7H 8D",
        "8S 7S TH 9H 8H TD 9D 7D TC 9C 8C 7C",
        rules,
        elder_blanche=True,
        younger_blanche=True,
    )
    assert out["carte_blanche"] == {"elder": 10, "younger": 10}
    assert out["repique"] is None


def test_du_coeur_both_blanches_score_nothing() -> None:
    out = _hands(
        "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H",
        "AD TD 9D 8D 7D 6D AC TC 9C 8C 7C 6C",
        get_rules("du-coeur-1995"),
        elder_blanche=True,
        younger_blanche=True,
    )
    assert out["carte_blanche"] == {"elder": 0, "younger": 0}
    # mirror hands: every class is equal
    assert [out[c]["winner"] for c in ("point", "sequences", "sets")] == [None, None, None]
    assert out["totals"] == {"elder": 0, "younger": 0}


def test_equal_points_count_for_neither() -> None:
    # 1674: ruff of 41 in spades against 41 in hearts; 19c: point of five making 41 each
    for name in ("cotton-1674", "encyclopedia-19c"):
        out = _hands(
            "AS QS 9S 8S 7S KD QD 7D AC JC 8C 7C",
            "AH QH 9H 8H 7H KC QC TC 9C JD TD 8D",
            get_rules(name),
        )
        assert out["point"] == {"winner": None, "score": 0}, name


def test_equal_sequences_count_for_neither() -> None:
    # quart to the king in spades against quart to the king in hearts (1754: neither)
    out = _hands(
        "KS QS JS TS 7H 9H AD 9D 7D AC 9C 7C",
        "KH QH JH TH 8H 7S 9S AS 8D TD 8C TC",
        get_rules("court-gamester-1754"),
    )
    assert out["sequences"] == {"winner": None, "score": 0}


def test_quatorze_beats_trio_unless_the_knob_says_otherwise() -> None:
    elder, younger = "AS AH AD 7S 8S JH 7D 9C 8C QH 9D 8D", "TS TH TD TC KS QS JS 9S 9H KC QC JC"
    rules = get_rules("court-gamester-1754")
    out = _hands(elder, younger, rules)
    assert out["sets"] == {"winner": "younger", "score": 14}
    higher_rank = _hands(elder, younger, rules.replace(quatorze_beats_trio=False))
    assert higher_rank["sets"] == {"winner": "elder", "score": 3}


def test_nines_count_only_if_set_min_rank_allows() -> None:
    elder, younger = "9S 9H 9D 9C AS KH QD JC 8S 7H 6D 6C", "AH AD AC KS QS JS TS 8H 7S 6S 6H TC"
    rules = get_rules("cotton-1674")
    assert _hands(elder, younger, rules)["sets"] == {"winner": "younger", "score": 3}
    house = rules.replace(set_min_rank="9")
    assert _hands(elder, younger, house)["sets"] == {"winner": "elder", "score": 14}


def test_thirty_six_card_tierce_from_the_six() -> None:
    out = _hands(
        "8S 7S 6S AH JH 9H AD JD 9D AC JC 9C",
        "KS QS TS KH QH TH KD QD TD KC QC TC",
        get_rules("cotton-1674"),
    )
    assert out["sequences"] == {"winner": "elder", "score": 3}


def test_du_coeur_runs_across_suits_and_best_split() -> None:
    # younger: septième 6..Q across suits beats elder's sixième; best split 8-Q, 6-8, T-Q = 21
    out = _hands(
        "AS KS QS JS TS 9S AH KH QH AD KD AC",
        "8S 7S 6S JH TH 9H 8H QD JD TD QC JC",
        get_rules("du-coeur-1995"),
    )
    assert out["sequences"] == {"winner": "younger", "score": 21}


def test_younger_repiques_in_nineteenth_century() -> None:
    out = _hands(
        "7S 8H 9D 7C 8C 9S TH 7H 7D 8D TC 9C",
        "AS KS QS JS TS AH KH QH JH AD AC KC",
        get_rules("encyclopedia-19c"),
    )
    assert out["repique"] == "younger"
    assert out["totals"]["younger"] >= 90


def test_point_by_pips_scored_per_card_takes_the_first_suit_on_a_tie() -> None:
    # spades A K Q 9 (40 pips, 4 cards), hearts T 9 8 7 6 (40 pips, 5 cards): claims() sorts
    # stably, so the spades are the claim, worth four cards
    rules = get_rules("cotton-1674").replace(point_scoring="per-card")
    out = _hands(
        "AS KS QS 9S TH 9H 8H 7H 6H 6D 7D 6C",
        "JS TS 8S AH KH QH AD KD QD AC KC QC",
        rules,
    )
    assert out["point"] == {"winner": "elder", "score": 4}


# ---------------------------------------------------------------------------- the interface


def test_empty_arrays_give_empty_results() -> None:
    got = score_batch(np.zeros(0, dtype=np.uint64), [], PRESETS["rubicon"])
    assert all(got[k].shape == (0,) for k in BATCH_FIELDS)
    assert batch_rows(got) == []


@pytest.mark.parametrize(
    ("elder", "younger", "flags", "says"),
    [
        ([1, 2], [3], None, "same length"),
        ([[1, 2]], [[3, 4]], None, "one-dimensional"),
        ([-1], [3], None, "negative"),
        ([1 << 36], [3], None, "above"),
        ([1.5], [3], None, "integer"),
        ([1, 2], [3, 4], [True], "one flag per hand pair"),
    ],
)
def test_bad_arrays_are_refused(elder: Any, younger: Any, flags: Any, says: str) -> None:
    with pytest.raises(PiquetError, match=says):
        score_batch(elder, younger, PRESETS["rubicon"], elder_blanche=flags)
