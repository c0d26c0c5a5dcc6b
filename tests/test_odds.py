"""Exact odds, the per-suit tables and the vectorised declaration pass."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from piquet.analysis.drawtables import (
    OpponentModel,
    claim_codes,
    cross_suit_sequences,
    declaration_pass,
    discard_masks,
    draws,
    hand_stats,
    suit_tables,
)
from piquet.analysis.drawtables.codes import SEQUENCE_CODES, SET_CODES
from piquet.analysis.odds import (
    ELDER,
    YOUNGER,
    Odds,
    deck_mask,
    draw_chance,
    improvements,
    odds_phrase,
    role_draw_range,
)
from piquet.cli import main
from piquet.core.cards import CardSet, mask_cards
from piquet.core.declarations import DeclClass, best_claim, counted
from piquet.core.errors import PiquetError
from piquet.core.rules import PRESETS, get_rules


# ---------------------------------------------------------------- the simple draw
def test_draw_chance_is_the_hypergeometric_tail() -> None:
    for n, d, w, k in [(20, 5, 4, 1), (20, 3, 4, 1), (20, 5, 2, 2), (24, 8, 4, 3), (10, 0, 3, 0)]:
        expected = sum(
            Fraction(comb(w, j) * comb(n - w, d - j), comb(n, d)) for j in range(k, min(w, d) + 1)
        )
        assert draw_chance(n, d, w, at_least=k) == expected
    assert draw_chance(20, 3, 4) == Fraction(29, 57)
    assert draw_chance(20, 5, 0) == 0
    assert draw_chance(20, 5, 4, at_least=0) == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((2, 3, 1), "cannot draw 3 cards from 2"),
        ((20, 5, 21), "want 21 of 20"),
        ((-1, 1, 1), "unseen must not be negative"),
    ],
)
def test_draw_chance_refuses_impossible_numbers(args: tuple[int, int, int], words: str) -> None:
    with pytest.raises(PiquetError, match=words):
        draw_chance(*args)
    with pytest.raises(PiquetError, match="at-least must not be negative"):
        draw_chance(20, 3, 1, at_least=-1)


def test_the_idiom_reads_like_the_books() -> None:
    assert odds_phrase(Fraction(29, 57)) == "29 to 28 on"
    assert odds_phrase(Fraction(1, 4)) == "3 to 1 against"
    assert odds_phrase(Fraction(3, 20)) == "17 to 3 against"
    assert odds_phrase(Fraction(1, 2)) == "evens"
    assert odds_phrase(Fraction(0)) == "impossible"
    assert odds_phrase(Fraction(1)) == "certain"
    assert odds_phrase(Fraction(232, 323)) == "232 to 91 on, about 5 to 2"
    assert odds_phrase(Fraction(1, 969)) == "968 to 1 against"  # Hoyle's four certain cards
    assert odds_phrase(Fraction(1, 19)) == "18 to 1 against"  # Hoyle's two certain cards


def test_odds_json_has_fraction_and_probability() -> None:
    out = Odds(Fraction(29, 57)).to_json()
    assert out == {"fraction": "29/57", "probability": 29 / 57, "odds": "29 to 28 on"}


# ---------------------------------------------------------------- tables against the engine
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_hand_stats_agree_with_the_engine(preset: str) -> None:
    """The per-suit tables give the engine's best claims and counted totals."""
    rules = PRESETS[preset]
    tables = suit_tables(rules)
    rng = random.Random(preset)
    pack = mask_cards(deck_mask(rules))
    for _ in range(600):
        mask = sum(1 << c for c in rng.sample(pack, rng.choice([9, 12, 14, 17])))
        got = hand_stats(mask, tables)
        for cls, code, value in (
            (DeclClass.POINT, got.point_code, got.point_value),
            (DeclClass.SEQUENCE, got.seq_code, got.seq_sum),
            (DeclClass.SET, got.set_code, got.set_sum),
        ):
            claim = best_claim(mask, cls, rules)
            if claim is None:
                assert (code, value) == (0, 0)
                continue
            want = claim_codes(cls, claim.key, claim.size, rules)
            if cls is DeclClass.POINT:  # equal keys may differ in the cards-count tiebreak
                code, want = code >> 4, want >> 4
            assert (code, value) == (want, counted(mask, claim, rules)[1]), (cls, CardSet(mask))


def test_cross_suit_split_table_is_the_engines_best_split() -> None:
    rules = get_rules("du-coeur-1995")
    rng = random.Random(5)
    pack = mask_cards(deck_mask(rules))
    for _ in range(400):
        mask = sum(1 << c for c in rng.sample(pack, rng.choice([8, 12, 16, 20])))
        claim = best_claim(mask, DeclClass.SEQUENCE, rules)
        code, total = cross_suit_sequences(mask, rules)
        if claim is None:
            assert (code, total) == (0, 0)
        else:
            assert code == claim.key[0] * 16 + claim.key[1]
            assert total == counted(mask, claim, rules)[1]


def test_draws_enumerate_every_combination_once() -> None:
    unseen = list(range(1, 9)) + list(range(10, 18))
    dr = draws(unseen, 3)
    assert dr.exact and dr.count == comb(16, 3)
    seen = {tuple(int(x) for x in row) for row in dr.suits}
    assert len(seen) == comb(16, 3)
    sampled = draws(unseen, 3, limit=50, rng=random.Random(1))
    assert not sampled.exact and sampled.count == 50
    assert all(sum(int(x).bit_count() for x in row) == 3 for row in sampled.suits)


# ---------------------------------------------------------------- the pass
def _scalar_pass(
    hand: int, discards: list[int], unseen: list[int], rules_name: str, opponent: OpponentModel
) -> list[tuple[int, int, int, float]]:
    """The baseline: every final hand in a Python loop (per-hand table lookups)."""
    rules = get_rules(rules_name)
    tables = suit_tables(rules)
    sizes = {DeclClass.POINT: 40000, DeclClass.SEQUENCE: SEQUENCE_CODES, DeclClass.SET: SET_CODES}
    tabs = {c: opponent.tables(c, sizes[c]) for c in DeclClass}
    out = []
    for d in discards:
        kept = hand & ~d
        pt = sq = st = 0
        value = 0.0
        n = 0
        for combo in itertools.combinations(unseen, d.bit_count()):
            h = hand_stats(kept | sum(1 << c for c in combo), tables)
            pt, sq, st = pt + h.point_value, sq + h.seq_sum, st + h.set_sum
            gp, nbp, hp = (float(x[h.point_code]) for x in tabs[DeclClass.POINT])
            gs, nbs, hs = (float(x[h.seq_code]) for x in tabs[DeclClass.SEQUENCE])
            gt, nbt, ht = (float(x[h.set_code]) for x in tabs[DeclClass.SET])
            v = gp * h.point_value - hp + gs * h.seq_sum - hs + gt * h.set_sum - ht
            if h.total >= rules.pique_threshold:
                v += nbp * nbs * nbt * (1 - opponent.blanche) * rules.repique_bonus
            value += v
            n += 1
        out.append((pt, sq, st, value / n))
    return out


@pytest.mark.parametrize("preset", ["court-gamester-1754", "du-coeur-1995", "rubicon"])
def test_vectorised_pass_equals_the_scalar_loop(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(7)
    pack = mask_cards(deck_mask(rules))
    hand = sum(1 << c for c in rng.sample(pack, 12))
    unseen = [c for c in pack if not hand >> c & 1]
    tables = suit_tables(rules)
    opponent = OpponentModel(
        tuple(hand_stats(sum(1 << c for c in rng.sample(unseen, 12)), tables) for _ in range(150)),
        0.01,
    )
    discards = rng.sample(discard_masks(hand, 1, 3), 12)
    res = declaration_pass(hand, rules, discards=discards, unseen=unseen, opponent=opponent)
    assert res.all_exact
    base = _scalar_pass(hand, discards, unseen, preset, opponent)
    for i, (pt, sq, st, value) in enumerate(base):
        assert (res.point_sum[i], res.seq_sum[i], res.set_sum[i]) == (pt, sq, st)
        assert res.decl_value[i] == pytest.approx(value, abs=1e-4)


def test_full_elder_pass_covers_every_discard_and_draw() -> None:
    rules = get_rules("court-gamester-1754")
    hand = CardSet.parse("AS KS QS 7S QH JH TH QD 9D QC 8C 7C").mask
    unseen = mask_cards(deck_mask(rules) & ~hand)
    discards = discard_masks(hand, 1, 5)
    assert len(discards) == 1585
    res = declaration_pass(hand, rules, discards=discards, unseen=unseen)
    assert res.hands == 14_941_023
    assert res.all_exact
    # a discard keeping the quatorze: the set total is exactly 14 on every draw
    i = discards.index(CardSet.parse("AS 7S 9D 8C 7C").mask)
    assert res.set_sum[i] >= 14 * res.draws[i]
    assert np.all(res.decl_value == (res.point_sum + res.seq_sum + res.set_sum) / res.draws)


def test_budget_makes_the_pass_sample_and_say_so() -> None:
    rules = get_rules("cotgrave-1662")
    rng = random.Random(3)
    pack = mask_cards(deck_mask(rules))
    hand = sum(1 << c for c in rng.sample(pack, 12))
    unseen = [c for c in pack if not hand >> c & 1]
    discards = discard_masks(hand, 7, 8)
    res = declaration_pass(
        hand, rules, discards=discards, unseen=unseen, budget=400_000, rng=random.Random(1)
    )
    assert not res.all_exact
    assert res.hands <= 400_000


# ---------------------------------------------------------------- improvements
def test_improvements_are_exact_fractions_over_every_draw() -> None:
    rules = get_rules("court-gamester-1754")
    hand = CardSet.parse("AS KS QS 7S QH QD QC JH TH 9D 8C 7C")
    imp = improvements(hand, CardSet.parse("JH TH 9D 8C 7C"), rules)
    assert imp.draws == comb(20, 5) and imp.exact and imp.unseen == 20
    names = {e.name: e.odds.fraction for e in imp.events}
    # A K Q 7 of spades kept: a quart needs the knave, or the ten, nine and eight
    assert names["quart or better in spades"] == draw_chance(20, 5, 1) + Fraction(
        comb(16, 2), comb(20, 5)
    )
    assert names["quint or better in spades"] == draw_chance(20, 5, 2, at_least=2)
    assert "impossible" in imp.blanche
    assert any("quatorze of queens" in k for k in imp.kept)
    data = imp.to_json()
    assert data["events"][0]["fraction"].count("/") == 1


def test_improvements_for_younger_and_carte_blanche() -> None:
    rules = get_rules("rubicon")
    hand = CardSet.parse("AS TS 9S 8S AH TH 9H 7H AD TD 9C 8C")
    imp = improvements(hand, CardSet.parse("9C 8C 7H"), rules, role=YOUNGER)
    assert imp.draw == 3 and imp.draws == comb(20, 3)
    assert imp.blanche.startswith("held")
    assert "point of 5 cards or more" in {e.name for e in imp.events}


@pytest.mark.parametrize(
    ("hand", "discard", "role", "words"),
    [
        ("AS KS QS 7S QH QD QC JH TH 9D 8C", "8C", ELDER, "12 cards"),
        ("AS KS QS 7S QH QD QC JH TH 9D 8C 7C", "6C", ELDER, "does not hold"),
        ("AS KS QS 7S QH QD QC JH TH 9D 8C 7C", "QH QD QC JH TH 9D", ELDER, "1 to 5"),
        ("AS KS QS 7S QH QD QC JH TH 9D 8C 7C", "QH QD QC JH", YOUNGER, "1 to 3"),
        ("AS KS QS 6S QH QD QC JH TH 9D 8C 7C", "6S", ELDER, "not in the 32-card pack"),
    ],
)
def test_improvements_refuse_what_the_rules_forbid(
    hand: str, discard: str, role: int, words: str
) -> None:
    with pytest.raises(PiquetError, match=words):
        improvements(
            CardSet.parse(hand), CardSet.parse(discard), get_rules("court-gamester-1754"), role=role
        )


def test_younger_draw_range_follows_the_stock_left() -> None:
    rules = get_rules("court-gamester-1754")
    assert role_draw_range(rules, ELDER) == (1, 5)
    assert role_draw_range(rules, YOUNGER) == (1, 3)
    assert role_draw_range(rules, YOUNGER, stock=5) == (1, 5)
    assert role_draw_range(get_rules("encyclopedia-19c"), YOUNGER) == (0, 3)
    with pytest.raises(PiquetError, match="younger is left 3 to 7, not 8"):
        role_draw_range(rules, YOUNGER, stock=8)


# ---------------------------------------------------------------- the command
def test_cli_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--unseen", "20", "--draw", "3", "--wanted", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fraction"] == "29/57"
    assert out["probability"] == pytest.approx(29 / 57)
    assert out["odds"] == "29 to 28 on"


def test_cli_odds_text_and_at_least(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--unseen", "20", "--draw", "5", "--wanted", "2", "--at-least", "2"]) == 0
    assert "1/19" in capsys.readouterr().out
    assert main(["odds", "--unseen", "20", "--draw", "5", "--wanted", "1"]) == 0
    assert "3 to 1 against" in capsys.readouterr().out


def test_cli_odds_for_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "odds",
            "--rules",
            "1754",
            "--hand",
            "AS KS QS 7S QH QD QC JH TH 9D 8C 7C",
            "--role",
            "elder",
            "--discard",
            "JH TH 9D 8C 7C",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["draws"] == 15504 and out["exact"]
    assert {"class", "name", "fraction", "probability", "odds"} <= set(out["events"][0])
    assert (
        main(
            [
                "odds",
                "--rules",
                "1754",
                "--hand",
                "AS KS QS 7S QH QD QC JH TH 9D 8C 7C",
                "--role",
                "elder",
                "--discard",
                "JH TH 9D 8C 7C",
            ]
        )
        == 0
    )
    assert "quint or better in spades" in capsys.readouterr().out


def test_cli_odds_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--unseen", "20", "--draw", "30", "--wanted", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("piquet: error: cannot draw 30") and "Traceback" not in err
    assert main(["odds", "--unseen", "20"]) == 2
    assert "give --unseen N" in capsys.readouterr().err
    assert main(["odds", "--hand", "AS"]) == 2
    assert "--discard" in capsys.readouterr().err


HAND_1754 = ["--rules", "1754", "--hand", "AS KS QS 7S QH QD QC JH TH 9D 8C 7C"]


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        # elder and younger draw from different stocks: the role is never assumed
        (["--discard", "JH"], "need --role elder or --role younger"),
        # the stock elder left is younger's; it was ignored for elder
        (["--role", "elder", "--discard", "JH TH 9D", "--stock", "2"],
         "give it with --role younger"),
        # more known than a player can know: the stock (8) is unseen when he draws, so at
        # most 12 others are known; 17 gave "2 of 3 unseen cards" as if it were possible
        (["--role", "elder", "--discard", "JH TH", "--seen",
          "AH KH 9H 8H 7H JS TS 9S 8S JD TD 8D 7D AC KC JC TC"],
         "knows at most 12 other cards"),
    ],
)
def test_cli_odds_of_a_hand_refuse_what_no_player_could_ask(
    capsys: pytest.CaptureFixture[str], argv: list[str], why: str
) -> None:
    assert main(["odds", *HAND_1754, *argv]) == 2
    err = capsys.readouterr().err
    assert why in err and len(err.strip().splitlines()) == 1, err
    # the other's twelve may all be known
    assert main(["odds", *HAND_1754, "--role", "elder", "--discard", "JH TH", "--seen",
                 "AH KH 9H 8H 7H JS TS 9S 8S JD TD 8D"]) == 0


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--draw", "3", "--wanted", "4", "--at-least", "5"], "only 3 cards are drawn"),
        (["--draw", "5", "--wanted", "2", "--at-least", "3"], "only 2 cards are wanted"),
        (["--draw", "5", "--wanted", "0"], "no card is wanted"),
        (["--draw", "0", "--wanted", "3"], "no card is drawn"),
    ],
)
def test_cli_odds_refuses_an_impossible_question_with_exit_2(
    argv: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 12: "piquet odds --unseen 20 --draw 3 --wanted 4 --at-least 5 answers
    'impossible' with exit 0: refuse an impossible question with a one-line reason"."""
    assert main(["odds", "--unseen", "20", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("piquet: error: impossible question: ") and why in err
    assert "--at-least goes from 0 to" in err
    assert main(["odds", "--unseen", "20", "--draw", "3", "--wanted", "4", "--at-least", "3"]) == 0
    assert "1/285" in capsys.readouterr().out
