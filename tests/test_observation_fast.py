"""The adapters' fast tensors (:func:`episode_information_state_tensor`,
:func:`episode_observation_tensor`) equal, bit for bit, the reference ones made from
:func:`knowledge` (:func:`information_state_tensor`, :func:`observation_tensor`): for both
seats at every step of random episodes of every preset and format, on the kernel's board
and through the engine alone; and a returned tensor is the caller's own."""

from __future__ import annotations

import random

import numpy as np
import pytest

from piquet.core.rules import PRESETS, Format
from piquet.integrations.actions import Episode, EpisodeFormat
from piquet.integrations.observation import (
    episode_information_state_tensor,
    episode_observation_tensor,
    information_state_tensor,
    knowledge,
    observation_tensor,
)

EPISODES = {EpisodeFormat.DEAL: 8, EpisodeFormat.GAME: 1, EpisodeFormat.PARTIE: 1}
"""Random episodes of each format a case plays: the first of those (the same seeds, the same
moves) that ``tests/test_fast_adapters.py`` plays in the whole suite, where
:func:`~piquet.integrations.check.differ_episode` compares at every step the same tensors,
on the kernel's board and through the engine alone, asked twice, with the reference ones
made from a copy of the episode with nothing kept (and the strings, the legal ids and the
returns besides): 50, 3 and 2 episodes, where this test played 40, 3 and 2.  That test
is of the slow kind; this one keeps a sample of it in the quick subset."""
CASES = [(name, fmt, kernel) for name, rules in PRESETS.items() for fmt in EpisodeFormat
         if fmt is not EpisodeFormat.PARTIE or Format.PARTIE in rules.formats
         for kernel in (True, False)]


@pytest.mark.parametrize(("preset", "fmt", "kernel"), CASES)
def test_fast_tensors_equal_the_reference(preset: str, fmt: EpisodeFormat, kernel: bool
                                          ) -> None:
    rules = PRESETS[preset]
    steps = 0
    for seed in range(EPISODES[fmt]):
        rng = random.Random(seed)
        ep = Episode.start(rules, format=fmt, max_deals=8, kernel=kernel)
        while True:
            for player in (0, 1):
                k = knowledge(ep, player)
                info = episode_information_state_tensor(ep, player)
                assert info.tobytes() == information_state_tensor(k).tobytes(), (
                    f"{preset} {fmt.value} kernel={kernel} episode {seed} step {steps} "
                    f"player {player}: information-state tensor")
                # asked again (kept by the episode): the same
                assert episode_information_state_tensor(ep, player).tobytes() == info.tobytes()
                assert episode_observation_tensor(ep, player).tobytes() == (
                    observation_tensor(k).tobytes()), (
                    f"{preset} {fmt.value} kernel={kernel} episode {seed} step {steps} "
                    f"player {player}: observation tensor")
            if ep.over:
                break
            legal = ep.legal_ids()
            ep = ep.apply(legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 0


def test_a_returned_tensor_is_the_callers_own() -> None:
    rng = random.Random(3)
    ep = Episode.start(PRESETS["rubicon"])
    while ep.run is None:
        legal = ep.legal_ids()
        ep = ep.apply(legal[rng.randrange(len(legal))])
    first = episode_information_state_tensor(ep, 0)
    kept = first.copy()
    first[:] = 0.5  # the caller writes on its tensor: the episode's answer does not change
    again = episode_information_state_tensor(ep, 0)
    assert np.array_equal(again, kept)
    assert again is not first


@pytest.mark.parametrize("preset", list(PRESETS))
def test_fast_tensors_asked_only_now_and_then_equal_the_reference(preset: str) -> None:
    """As PettingZoo asks (only the player to move, so a seat's tensor on the kernel's
    board is worked out from one kept some cards before) and at random gaps: the same."""
    rules = PRESETS[preset]
    rng = random.Random(5)
    asked = 0
    for fmt in (EpisodeFormat.DEAL, EpisodeFormat.GAME):
        for _ in range(6):
            ep = Episode.start(rules, format=fmt, max_deals=3)
            while not ep.over:
                player = ep.to_move
                if player >= 0 and rng.random() < 0.7:
                    got = episode_information_state_tensor(ep, player)
                    want = information_state_tensor(knowledge(ep, player))
                    assert got.tobytes() == want.tobytes()
                    asked += 1
                legal = ep.legal_ids()
                ep = ep.apply(legal[rng.randrange(len(legal))])
            for player in (0, 1):
                assert episode_information_state_tensor(ep, player).tobytes() == (
                    information_state_tensor(knowledge(ep, player)).tobytes())
    assert asked > 100
