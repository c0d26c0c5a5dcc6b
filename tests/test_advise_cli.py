"""``piquet advise`` at the terminal: no sampled figure printed as if exact (issue 12)."""

from __future__ import annotations

import pytest

from enginekit import advise_once_per_question
from piquet.analysis import odds
from piquet.cli import main

ARGS = [
    "advise",
    "--rules",
    "1754",
    "--role",
    "younger",
    "--hand",
    "AS QS 8S AH JH 7H AD TD 9D TC 9C 7C",
    "--samples",
    "20",
    "--candidates",
    "2",
    "--top",
    "2",
]


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines unwrapped (these tests read each line whole; wrapping is tested apart)."""
    monkeypatch.setenv("COLUMNS", "1000")


def _chance_lines(text: str) -> list[str]:
    return [x.strip() for x in text.splitlines() if x.strip().startswith("takes in ")]


def test_advise_says_about_and_how_many_draws_when_the_chances_are_sampled(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12: "piquet advise prints sampled figures as if exact ('82% (110421 to 24175
    on)'): say 'about' and how many draws were sampled"."""
    monkeypatch.setattr(odds, "_EXACT_LIMIT", 500)  # 1,140 draws of 3 from 20: sampled
    assert main(ARGS) == 0
    lines = _chance_lines(capsys.readouterr().out)
    assert lines
    for line in lines:
        assert line.startswith("takes in 3 of 20 (about, from a sample of 500 draws)"), line
        _, _, events = line.partition("): ")
        for ev in events.split("; "):
            name_pct, _, ratio = ev.rpartition(" (")
            assert name_pct.split()[-2] == "about" and ratio.startswith("about "), ev


def test_advise_marks_exact_chances_as_exact_and_rounds_only_with_about(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    advise_once_per_question(monkeypatch)  # (the odds' limit as shipped: the advice is too)
    assert main(ARGS) == 0
    lines = _chance_lines(capsys.readouterr().out)
    assert lines
    for line in lines:
        assert line.startswith("takes in 3 of 20 (exact over all 1,140 draws)"), line
        _, _, events = line.partition("): ")
        for ev in events.split("; "):
            name_pct, _, ratio = ev.rpartition(" (")
            assert name_pct.split()[-1].endswith("%") and " about " not in name_pct, ev
            # a ratio past 40 is given in the books' small numbers, and then says "about"
            numbers = [int(w) for w in ratio.rstrip(")").split() if w.isdigit()]
            assert max(numbers, default=0) <= 40, ev


def test_odds_of_a_hand_from_a_sample_of_draws_say_about(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(odds, "_EXACT_LIMIT", 500)
    argv = ["odds", "--rules", "1754", "--hand", "AS KS QS 7S QH QD QC JH TH 9D 8C 7C"]
    assert main([*argv, "--role", "elder", "--discard", "JH TH 9D 8C 7C"]) == 0
    out = capsys.readouterr().out
    assert "(500 draws, a sample of draws)" in out
    events = [x for x in out.splitlines() if x.startswith("  ")]
    assert events and all(" about " in x and "(about " in x and "/" not in x for x in events)


def test_advise_says_the_play_shares_come_from_simulated_deals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    advise_once_per_question(monkeypatch)
    assert main(ARGS) == 0
    out = capsys.readouterr().out
    plays = [x.strip() for x in out.splitlines() if x.strip().startswith("the cards are")]
    assert plays and all(x.endswith(" simulated deals)") and "(about: " in x for x in plays)
