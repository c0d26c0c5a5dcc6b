"""The exercises: at least 200 a rule set, made reproducibly from seeds, every stated best
choice really best by the stated margin (judged again in fresh deals, within the estimator's
error), shown from the seat's view only, and ``piquet puzzle``."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from piquet.cli import main
from piquet.core.errors import PiquetError
from piquet.core.rules import PRESETS
from piquet.learn.making import WANTED, confirmed, generate, rejudge
from piquet.learn.puzzles import MIN_MARGIN, MIN_Z, Puzzle, Theme, choose, load

FRESH = 7_000_000
"""Added to a puzzle's judge seed: deals it was not chosen in."""
RECHECK_WORLDS = 16
Z = 4.5
"""Standard errors allowed: of the difference between the stated and the fresh margin, and
of the fresh margin below 0."""


def _by_preset() -> dict[str, list[Puzzle]]:
    out: dict[str, list[Puzzle]] = {}
    for p in load():
        out.setdefault(p.rules, []).append(p)
    return out


def test_at_least_200_puzzles_a_rule_set_in_every_theme() -> None:
    by = _by_preset()
    assert set(by) == set(PRESETS)
    for preset, puzzles in by.items():
        assert len(puzzles) >= 200, preset
        themes = Counter(p.theme for p in puzzles)
        # as many as made of each theme, less the few their confirmation dropped
        assert all(0.9 * n <= themes[t] <= n for t, n in WANTED.items()), (preset, themes)
        difficulty = Counter(p.difficulty for p in puzzles)
        assert len(difficulty) >= 2, (preset, difficulty)
    ids = [p.id for p in load()]
    assert len(ids) == len(set(ids))


def test_every_puzzle_states_a_clear_margin_best_first() -> None:
    for p in load():
        assert len(p.options) == len(p.values) >= 2
        assert list(p.values) == sorted(p.values, reverse=True), p.id
        # the paired mean difference is the difference of the (same-weighted) means
        assert abs(p.margin - (p.values[0] - p.values[1])) < 0.01, p.id
        assert p.margin >= MIN_MARGIN and p.margin >= MIN_Z * p.stderr - 1e-6, p.id
        if p.theme in (Theme.LEAD, Theme.PLAY):
            assert len(p.options) >= 3


def test_the_first_puzzles_are_made_again_from_their_seeds() -> None:
    """Reproducible: generating again gives the same puzzles, figures and all."""
    made = [p for p in generate("rubicon", WANTED, limit=4) if confirmed(p)]
    stored = {p.id: p for p in _by_preset()["rubicon"]}
    assert made and all(p.to_json() == stored[p.id].to_json() for p in made)
    # and a confirmed puzzle is never left out
    assert {p.id for p in made} == {i for i in stored if int(i.rsplit("-", 1)[1]) <= 4}


def test_a_sample_is_judged_again_to_the_same_figures() -> None:
    """The engine and the solver still say what the data file says (its own seeds)."""
    for puzzles in _by_preset().values():
        for p in puzzles[:: max(1, len(puzzles) // 2)][:2]:
            j = rejudge(p, seed=p.judge_seed)
            assert [round(j.mean(i), 3) for i in range(len(p.options))] == list(p.values), p.id


def test_a_puzzle_shows_only_its_seats_view_and_takes_any_form_of_answer() -> None:
    from piquet.core.view import visible_mask

    for puzzles in _by_preset().values():
        p = puzzles[0]
        m = p.match()
        player = m.to_act
        assert player is not None
        view = p.view()
        assert view == m.view(player)
        deal = m.deal
        assert deal is not None and view.deal is not None
        role = view.deal.role
        shown = (view.deal.hand.mask | view.deal.discards.mask | view.deal.stock_seen.mask
                 | view.deal.opponent_shown.mask | view.deal.opponent_played.mask)
        assert shown & ~visible_mask(deal, role) == 0
        for a in p.choices():
            assert deal.can(a)
        best = p.best
        assert p.read(str(best)) == best and p.read("1") == p.shown()[0][0]
        assert p.verdict(best).best and p.verdict(best).cost == 0
        worst = p.choices()[-1]
        v = p.verdict(worst)
        assert not v.best and v.cost > 0 and "gives up about" in v.text
        with pytest.raises(PiquetError, match="not one of the choices"):
            p.read("9Z")


def _recheck(p: Puzzle) -> None:
    j = rejudge(p, seed=p.judge_seed + FRESH, worlds=RECHECK_WORLDS)
    margin, se_fresh = j.margin(0, 1)
    # the spread of the paired difference is one quantity; 16 deals may miss its rare big
    # ones (a capot in a few deals of 32) and understate it: the larger of the two estimates
    # of the fresh margin's standard error is used
    se = max(se_fresh, p.stderr * math.sqrt(p.worlds / RECHECK_WORLDS))
    band = Z * math.hypot(p.stderr, se) + 0.05
    assert margin > -Z * se - 0.05, (p.id, margin, se)
    assert abs(margin - p.margin) <= band, (p.id, p.margin, p.stderr, margin, se)


@pytest.mark.statistical
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_stated_best_is_best_by_its_margin_in_fresh_deals(preset: str) -> None:
    """Every puzzle judged again in 16 deals it was neither chosen nor confirmed in: the
    margin there is the stated margin within the estimator's error (4.5 standard errors of
    the difference), and the fresh deals never show the stated best significantly behind
    the next choice.  (Each puzzle was kept only when the best came out ahead in the deals
    of its confirmation too: :func:`piquet.learn.making.confirmed`.)"""
    for p in _by_preset()[preset]:
        _recheck(p)


def test_a_sample_is_best_by_its_margin_in_fresh_deals() -> None:
    """The quick subset's share of the check above."""
    for puzzles in _by_preset().values():
        _recheck(puzzles[len(puzzles) // 3])


# ---------------------------------------------------------------- choosing and the command
def test_choose_filters_and_refuses_what_does_not_exist() -> None:
    p = choose(rules="1754", theme="lead", seed=4)
    assert p.rules == "court-gamester-1754" and p.theme is Theme.LEAD
    assert choose(rules="rubicon", theme="discard", seed=4) == choose(
        rules="rubicon", theme="discard", seed=4)
    with pytest.raises(PiquetError, match="the themes are: discard, declare, lead, play"):
        choose(theme="endgame")
    with pytest.raises(PiquetError, match="choose easy, medium, hard"):
        choose(difficulty="fiendish")


def test_the_puzzle_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--rules", "rubicon", "--theme", "play", "--seed", "2",
                 "--answer", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Puzzle rubicon-") and "Your hand: " in out and "Your choices:" in out
    assert ("Right: " in out) != ("Not the best: " in out)
    assert "What each choice is worth" in out
    assert main(["puzzle", "--rules", "rubicon", "--theme", "play", "--seed", "2",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["theme"] == "play" and "best" not in data and data["choices"]
    assert "values" not in data
    best = choose(rules="rubicon", theme="play", seed=2).options[0]
    assert main(["puzzle", "--rules", "rubicon", "--theme", "play", "--seed", "2",
                 "--answer", best, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["best"] is True and data["cost"] == 0
    assert main(["puzzle", "--rules", "rubicon", "--theme", "play", "--seed", "2",
                 "--answer", "nonsense"]) == 2
    assert "is not one of the choices" in capsys.readouterr().err
    assert main(["puzzle", "--theme", "endgame"]) == 2
    assert "no theme 'endgame'" in capsys.readouterr().err
