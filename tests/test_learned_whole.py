"""``learned-whole``: the network trained on every decision of the whole game.

Its observation, built from a seat's :class:`~piquet.core.match.MatchView`, must be the
adapters' observation tensor of a single deal (what ``GameEnv(format="deal",
tensor="observation")`` writes: tests/test_fast_game.py checks the two equal) and its legal
ids the episode's, at every decision of random deals of every preset, the discards laid
out card by card included; it plays whole games of every preset legally and
deterministically; the weights it ships are small.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from piquet.core.errors import PiquetError
from piquet.core.rules import PRESETS, Format
from piquet.integrations.actions import Episode, EpisodeFormat
from piquet.integrations.learned_whole import (
    WholeGamePlayer,
    legal_action_ids,
    load_whole_weights,
    whole_observation,
)
from piquet.integrations.observation import OBS_SIZE, episode_observation_tensor
from piquet.players import make_player
from piquet.tournament import play_match


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_observation_and_legal_ids_from_a_view_are_the_episodes(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(f"learned-whole:{name}")
    steps = 0
    for _ in range(4):
        ep = Episode.start(rules, format=EpisodeFormat.DEAL)
        while not ep.over:
            mover = ep.to_move
            if mover >= 0:
                view, selected = ep.match_view(mover), ep.selected_by(mover)
                assert view.deal is not None
                got = whole_observation(view, selected)
                assert np.array_equal(got, episode_observation_tensor(ep, mover))
                assert legal_action_ids(view.deal, rules=rules, selected=selected) == \
                    ep.legal_ids()
                steps += 1
            ep = ep.apply(rng.choice(ep.legal_ids()))
    assert steps > 100


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_learned_whole_plays_whole_games_legally_and_deterministically(name: str) -> None:
    rules = PRESETS[name]
    fmt = Format.PARTIE if Format.PARTIE in rules.formats else Format.GAME
    games = [play_match(rules, 4, (make_player("learned-whole", seed=1),
                                   make_player("book", seed=2)), format=fmt)
             for _ in range(2)]
    assert games[0].finished and games[0].history == games[1].history
    assert any(who == 0 for who, _ in games[0].history)


def test_the_shipped_whole_game_weights_are_small_and_well_formed() -> None:
    import piquet.integrations

    path = Path(piquet.integrations.__file__).parent / "data" / "learned-whole.npz"
    assert path.stat().st_size < 1_000_000
    w = load_whole_weights(path)
    assert w["w1"].shape[0] == OBS_SIZE and w["wp"].shape[1] == 480
    assert isinstance(make_player("learned-whole", seed=3), WholeGamePlayer)


def test_whole_game_weights_that_are_not_are_refused_in_words(tmp_path: Path) -> None:
    bad = tmp_path / "x.npz"
    np.savez(bad, w1=np.zeros((3, 3)))
    with pytest.raises(PiquetError, match="not a learned-whole policy's weights"):
        load_whole_weights(bad)
    wrong = tmp_path / "y.npz"
    np.savez(wrong, **{k: np.zeros((5, 36)) for k in ("w1", "b1", "w2", "b2", "wp", "bp",
                                                      "wv", "bv")})
    with pytest.raises(PiquetError, match="the observation has 717"):
        load_whole_weights(wrong)


def test_the_training_script_trains_on_the_whole_game(tmp_path: Path) -> None:
    """scripts/train_learned.py --env game, one short update (PyTorch: the train extra)."""
    pytest.importorskip("torch")
    from scriptkit import load_script

    script = load_script("scripts/train_learned.py", "train_learned")
    assert script.main(["--out", str(tmp_path), "--env", "game", "--envs", "2", "--steps",
                        "40", "--hidden", "8", "--hidden2", "8", "--minibatch", "64",
                        "--checkpoints", "0"]) == 0
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("update,cpu_s,decisions,deals") and len(rows) == 2
    w = load_whole_weights(tmp_path / "learned-whole-0min.npz")
    assert w["w1"].shape == (OBS_SIZE, 8)
    a = play_match(PRESETS["rubicon"], 2, (WholeGamePlayer(0, weights=w), make_player("book")))
    assert a.finished
