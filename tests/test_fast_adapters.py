"""The adapters' shortcuts (what an episode keeps, the legal ids read from the deal) give
exactly what the reference path gives: at every step of random episodes of every preset and
every format, the player to move, the legal ids, both players' strings and tensors and the
returns.  ``bench/bench_fast.py --adapters-diff N`` runs the same check over N episodes."""

from __future__ import annotations

import pytest

from piquet.core.rules import PRESETS, Format
from piquet.integrations.actions import EpisodeFormat
from piquet.integrations.check import differ_episode

EPISODES = {EpisodeFormat.DEAL: 150, EpisodeFormat.GAME: 8, EpisodeFormat.PARTIE: 5}
CASES = [(name, fmt) for name, rules in PRESETS.items() for fmt in EpisodeFormat
         if fmt is not EpisodeFormat.PARTIE or Format.PARTIE in rules.formats]


@pytest.mark.parametrize(("preset", "fmt"), CASES)
def test_episode_answers_equal_the_reference_at_every_step(preset: str, fmt: EpisodeFormat
                                                           ) -> None:
    rules = PRESETS[preset]
    for seed in range(EPISODES[fmt]):
        msg = differ_episode(rules, fmt, seed, max_deals=8)
        assert msg is None, f"{preset} {fmt.value} episode {seed}: {msg}"
