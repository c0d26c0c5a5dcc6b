"""The default ranking's pick: the book's discard unless the play-out shows, beyond its
noise, that another is better; and the seeds it rests on are the same in every process."""

from __future__ import annotations

import subprocess
import sys

import pytest

from piquet.advisor import advise
from piquet.advisor.deals import Setup
from piquet.core.cards import CardSet
from piquet.core.rules import get_rules
from piquet.players.common import book_discard

R1754 = get_rules("court-gamester-1754")
#: Particular Rule III's hand: the book lays out a queen, the play-out prefers the queens
HAND = CardSet.parse("AS KS QS 7S QH 9H 8H QD 8D 9C 8C 7C")
SMALL = {"samples": 40, "candidates": 3, "exact": 12, "seed": 2}


def _book(hand: CardSet, role: int) -> CardSet:
    s = Setup.of(hand, R1754, role)
    return CardSet(book_discard(hand.mask, s.lo, s.hi, R1754, role=role))


def test_the_book_discard_is_valued_exactly_beside_the_leaders() -> None:
    advice = advise(HAND, R1754, role=0, **SMALL)  # type: ignore[arg-type]
    book = _book(HAND, 0)
    ranked = {r.discard: r for r in advice.ranking}
    assert ranked[book].method == "exact"
    info = advice.method["book"]
    assert info["discard"] == str(book)
    assert advice.note and "book's discard" in advice.note
    assert advice.to_json()["note"] == advice.note


def test_a_huge_margin_keeps_the_book_and_no_margin_ranks_by_value() -> None:
    book = _book(HAND, 0)
    kept = advise(HAND, R1754, role=0, book_margin=float("inf"), **SMALL)  # type: ignore[arg-type]
    assert kept.best == book
    assert kept.method["book"]["kept"] is True
    free = advise(HAND, R1754, role=0, book_margin=0.0, **SMALL)  # type: ignore[arg-type]
    values = [r.value for r in free.ranking]
    assert values == sorted(values, reverse=True)
    if free.best != book:
        rule = free.method["book"]
        assert rule["rival"] == str(free.best) and rule["kept"] is False
        assert rule["diff"] > 0 and rule["stderr"] > 0
        assert "departs from the book" in free.note
        # the same worlds, so the same figures whichever margin is asked
        assert kept.method["book"]["diff"] == rule["diff"]
        assert "within the play-out's noise" in kept.note or rule["z"] >= 1e9


def test_the_ranking_is_the_same_whatever_the_margin_but_for_the_first_place() -> None:
    a = advise(HAND, R1754, role=0, book_margin=float("inf"), **SMALL)  # type: ignore[arg-type]
    b = advise(HAND, R1754, role=0, book_margin=0.0, **SMALL)  # type: ignore[arg-type]
    assert sorted(a.ranking, key=lambda r: r.discard.mask) == sorted(
        b.ranking, key=lambda r: r.discard.mask
    )


@pytest.mark.parametrize("margin", [-1.0, float("nan")])
def test_a_bad_margin_is_refused(margin: float) -> None:
    from piquet.core.errors import PiquetError

    with pytest.raises(PiquetError, match="book margin must be 0 or more"):
        advise(HAND, R1754, role=0, book_margin=margin, **SMALL)  # type: ignore[arg-type]


_POOL_FINGERPRINT = """
import hashlib, sys
from piquet.advisor.game import future_pool
from piquet.core.rules import get_rules
pool = future_pool(get_rules("court-gamester-1754"))
print(hashlib.sha256(repr(pool[:20]).encode()).hexdigest())
"""


def test_the_future_pool_is_the_same_in_every_process() -> None:
    """Its RNG is seeded with a string (hashed by SHA-512, not Python's salted str hash):
    processes with different hash seeds deal the same pool."""
    outs = set()
    for salt in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", _POOL_FINGERPRINT],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": salt, "PATH": ""},
        )
        outs.add(done.stdout.strip())
    assert len(outs) == 1 and len(outs.pop()) == 64


@pytest.mark.parametrize(
    ("decl", "total", "words"),
    [
        (5.0, 5.3, "almost all of it in the declarations"),
        (0.2, 3.0, "almost all of it in the play"),
        (2.0, 4.0, "in the declarations and in the play alike"),
        (-2.6, 0.07, "the play (the cards), though the declarations give some of it back"),
        (3.0, 1.0, "the declarations, though the play gives some of it back"),
        (0.0, 0.01, "no difference to speak of"),
    ],
)
def test_where_a_difference_comes_from_in_words(decl: float, total: float, words: str) -> None:
    from piquet.advisor.explain import _where

    assert _where(decl, total).startswith(words)


def test_the_exact_worlds_stop_at_the_solvers_budget_and_stay_seeded() -> None:
    """A budget of positions, not of time: the same seed gives the same advice, and a small
    budget still values the leaders exactly in the fewest worlds allowed."""
    args = {"samples": 40, "candidates": 3, "exact": 30, "seed": 4}
    tight = advise(HAND, R1754, role=0, exact_nodes=1, **args)  # type: ignore[arg-type]
    assert tight.method["exact_worlds"] == 12
    again = advise(HAND, R1754, role=0, exact_nodes=1, **args)  # type: ignore[arg-type]
    assert again.ranking == tight.ranking
    free = advise(HAND, R1754, role=0, exact_nodes=10**12, **args)  # type: ignore[arg-type]
    assert free.method["exact_worlds"] == 30
    assert "in 12 of them" in tight.method["play"]
