"""bench/match_pairs.py plays pair ``i`` of ``piquet tournament --format F``: the same
matches, the same stake a pair, kept a line a pair; and its summary is the tournament's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from piquet.tournament.matches import match_tournament
from scriptkit import load_script

bench = load_script("bench/match_pairs.py", "match_pairs_bench")


def test_a_pair_at_a_time_is_the_tournaments_pair(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pairs.jsonl"
    common = ["--players", "random", "book", "--rules", "court-gamester-1754",
              "--format", "game", "--seed", "7", "--out", str(out)]
    # two runs, the second going on from the first's last pair (as a stopped run is resumed)
    bench.main(["play", *common, "--first", "0", "--pairs", "2"])
    bench.main(["play", *common, "--first", "2", "--pairs", "1"])
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [x["index"] for x in lines] == [0, 1, 2]
    t = match_tournament("court-gamester-1754", "random", "book", format="game", pairs=3,
                         seed=7)
    for line, pair in zip(lines, t.outcomes, strict=True):
        assert line["match_seed"] == pair.seed
        assert line["stake"] == sum(o.stake for o in pair.matches) / 2
        assert [m["points"] for m in line["matches"]] == [list(o.points) for o in pair.matches]
    capsys.readouterr()
    bench.main(["summary", str(out), str(out)])  # a pair read twice counts once
    said = capsys.readouterr().out
    assert t.stake.ci95 is not None
    assert f"3 pairs, stake a pair {t.stake.mean:+.2f} " in said
    assert f"(95% {t.stake.ci95[0]:+.2f} to {t.stake.ci95[1]:+.2f})" in said
