"""The Ray path of the tournaments: a local cluster gives the numbers local processes give."""

from __future__ import annotations

import json

import pytest

from piquet.cli import main
from piquet.core.rules import PRESETS
from piquet.tournament import run_pairs

ray = pytest.importorskip("ray")


def test_ray_local_tournament_matches_local_workers(
    local_ray: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["tournament", "--rules", "rubicon", "--players", "book", "random", "--deals", "3",
         "--seed", "5", "--ray", "local", "--json", "--no-progress"]
    )
    assert code == 0
    on_ray = json.loads(capsys.readouterr().out)
    here = run_pairs(PRESETS["rubicon"], "book", "random", pairs=3, seed=5, workers=1)
    margin = sum(p.margin for p in here) / len(here)
    assert on_ray["pairs"] == 3
    assert on_ray["margin_per_deal"] == pytest.approx(margin, abs=0.01)


def test_ray_runs_pairs_in_pair_order(local_ray: None) -> None:
    on_ray = run_pairs(PRESETS["rubicon"], "book", "random", pairs=4, seed=2, ray_address="local")
    assert [p.index for p in on_ray] == [0, 1, 2, 3]
    assert on_ray == run_pairs(PRESETS["rubicon"], "book", "random", pairs=4, seed=2)


def test_ray_plays_whole_matches_as_local_workers_do(local_ray: None) -> None:
    """``--format`` on Ray: a match is one job; the same pairs as here."""
    from piquet.tournament import match_tournament

    on_ray = match_tournament("rubicon", "book", "random", format="partie", pairs=2, seed=3,
                              ray_address="local")
    here = match_tournament("rubicon", "book", "random", format="partie", pairs=2, seed=3)
    assert on_ray.outcomes == here.outcomes
