"""The collector's policy of a served process (issue 39's tail at 500 games): with the
start-up freeze, the full pass comes after ``full_pass_every`` passes of generation 1
(the young passes as Python makes them), and the process's thresholds are given back when
the server stops; without the freeze (the tests' servers) nothing is changed."""

from __future__ import annotations

import gc
from pathlib import Path

from test_web_kit import bearer, client, create


def test_a_frozen_server_runs_full_passes_rarely_and_gives_the_thresholds_back(
    tmp_path: Path,
) -> None:
    before = gc.get_threshold()
    try:
        with client(tmp_path, freeze_start_up=True, full_pass_every=77) as c:
            assert gc.get_threshold() == (before[0], before[1], 77)
            made = create(c, opponent="random")
            r = c.get(f"/api/games/{made['id']}", headers=bearer(made["token"]))
            assert r.status_code == 200
        assert gc.get_threshold() == before
    finally:
        gc.set_threshold(*before)
        gc.freeze()  # as the suite's conftest leaves the process (the server unfroze it)


def test_without_the_freeze_the_thresholds_are_left_alone(tmp_path: Path) -> None:
    before = gc.get_threshold()
    with client(tmp_path / "b", full_pass_every=77):
        assert gc.get_threshold() == before
    assert gc.get_threshold() == before
