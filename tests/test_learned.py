"""The ``learned`` level: its observation is ``VectorEnv``'s, it plays whole games legally,
deterministically, and the weights it ships are small and well formed.

The differential test follows each game of a ``VectorEnv`` (random legal cards) with a
:class:`~piquet.core.match.Match` of the public engine: each deal's pack and dealer are the
environment's, the kernel's choices of the deal (its resumable board's trace) are applied,
and at every card the observation :func:`piquet.players.learned.observation` builds from
the seat's :class:`~piquet.core.match.MatchView` must equal the environment's, value for
value (so it has nothing the seat may not see: the environment's is checked against the
seat's view by tests/test_fast_env.py).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from piquet.core.actions import Play
from piquet.core.errors import PiquetError
from piquet.core.match import Match, new_match
from piquet.core.rules import PRESETS, Format
from piquet.fast import batch as B
from piquet.fast import kernel as K
from piquet.fast.engine import actions_of
from piquet.fast.env import VectorEnv
from piquet.players import make_player
from piquet.players.learned import OBS_SIZE, LearnedPlayer, load_weights, observation
from piquet.tournament import play_match

CASES = [(name, f.value) for name, rules in PRESETS.items() for f in rules.formats
         if f is not Format.POOL]


def test_the_observation_has_the_environments_size() -> None:
    assert OBS_SIZE == B.OBS_SIZE


class _Shadow:
    """One game of the environment, followed in the engine."""

    def __init__(self, env: VectorEnv, i: int) -> None:
        self.env, self.i = env, i
        self.match: Match = new_match(env.rules, seed=0, format=env.format)
        self.done = 0  # choices of the deal in play applied
        self.deal_no = -1
        self.new_deal()

    def new_deal(self) -> None:
        env, i = self.env, self.i
        st = env._st[i]
        pack = [int(c) for c in env._decks[i][: env.rules.deck_size]]
        self.match = self.match.with_pack(pack, dealer=int(st[B.G_DEALER]))
        self.done = 0
        self.deal_no = int(st[B.G_DEAL_NO])
        assert self.match.deal_number == self.deal_no

    def catch_up(self) -> None:
        """Apply the kernel's choices of the deal in play not applied yet."""
        env, i = self.env, self.i
        tl, _, tr = env._boards[:3]
        rows = [(int(a), int(b)) for a, b in tr[i][: int(tl[i, K.T_NTR])]]
        for action in actions_of(rows[self.done:], env.rules):
            p = self.match.to_act
            assert p is not None
            self.match = self.match.apply(action, p)
        self.done = len(rows)

    def check(self, obs: np.ndarray) -> None:
        env, i = self.env, self.i
        self.catch_up()
        p = self.match.to_act
        assert p == int(env._st[i, B.G_TO_PLAY])
        mine = observation(self.match.view(p))
        assert np.array_equal(mine, obs), (
            f"{env.rules.name} {env.format}: differ at "
            f"{np.flatnonzero(mine != obs).tolist()}: {mine[mine != obs]} vs {obs[mine != obs]}")


@pytest.mark.parametrize(("name", "fmt"), CASES)
def test_the_observation_from_a_view_is_the_environments(name: str, fmt: str) -> None:
    env = VectorEnv(3, rules=name, format=fmt, seed=11, threads=1)  # type: ignore[arg-type]
    rng = random.Random(f"learned-obs:{name}:{fmt}")
    obs, info = env.reset()
    games = [_Shadow(env, i) for i in range(env.num_envs)]
    checked = ends = 0
    for _ in range(400):
        for g in games:
            g.check(obs[g.i])
            checked += 1
        mask = info["action_mask"]
        acts = np.array([rng.choice(np.flatnonzero(m).tolist()) for m in mask])
        for g in games:
            p = g.match.to_act
            assert p is not None
            g.match = g.match.apply(Play(_card(int(acts[g.i]))), p)
            g.done += 1
        obs, reward, term, _, info = env.step(acts)
        for g in games:
            if term[g.i]:
                # the engine's game ends where the kernel's did, the same side winning;
                # unless kernel choices after the agent's card ended it (a declaration
                # after the lead, the next deal's): the new game's deal replaced them
                if g.match.finished:
                    a, b = g.match.games[-1].scores
                    assert (a > b) == (reward[g.i] > 0) or a == b
                    ends += 1
                games[g.i] = _Shadow(env, g.i)
            elif int(env._st[g.i, B.G_DEAL_NO]) != g.deal_no or g.match.deal is None:
                assert g.match.deal_number == int(env._st[g.i, B.G_DEAL_NO])
                g.new_deal()
    assert checked == 1200
    assert ends > 0 or fmt == "partie"


def _card(index: int) -> object:
    from piquet.core.cards import Card

    return Card.from_index(index)


@pytest.mark.parametrize(("name", "fmt"), CASES)
def test_learned_plays_whole_games_legally_and_deterministically(name: str, fmt: str) -> None:
    rules = PRESETS[name]
    f = Format(fmt)
    a = play_match(rules, 5, (make_player("learned", seed=1), make_player("book", seed=2)),
                   format=f)
    b = play_match(rules, 5, (make_player("learned", seed=1), make_player("book", seed=2)),
                   format=f)
    assert a.finished and a.history == b.history
    assert any(isinstance(act, Play) for who, act in a.history if who == 0)


def test_the_shipped_weights_are_small_and_well_formed() -> None:
    import piquet.players

    path = Path(piquet.players.__file__).parent / "data" / "learned.npz"
    assert path.stat().st_size < 1_000_000
    w = load_weights(path)
    assert w["w1"].shape[0] == OBS_SIZE and w["wp"].shape[1] == 36


def test_weights_that_are_not_weights_are_refused_in_words(tmp_path: Path) -> None:
    bad = tmp_path / "x.npz"
    np.savez(bad, w1=np.zeros((3, 3)))
    with pytest.raises(PiquetError, match="not a learned policy's weights"):
        load_weights(bad)
    wrong = tmp_path / "y.npz"
    np.savez(wrong, **{k: np.zeros((5, 36)) for k in ("w1", "b1", "w2", "b2", "wp", "bp",
                                                      "wv", "bv")})
    with pytest.raises(PiquetError, match="the observation has 153"):
        load_weights(wrong)


def test_the_observation_is_made_only_in_the_play() -> None:
    m = new_match("rubicon", seed=3)
    p = m.to_act
    assert p is not None
    with pytest.raises(PiquetError, match="only in the play"):
        observation(m.view(p))


def test_the_learned_player_makes_the_books_choices_outside_the_play() -> None:
    m = new_match("rubicon", seed=3)
    learned, book = LearnedPlayer(0), make_player("book", seed=0)
    while m.deal is not None and m.deal.phase.value != "play":
        p = m.to_act
        assert p is not None
        v = m.view(p)
        act = learned.choose(v)
        assert act == book.choose(v)
        m = m.apply(act, p)


def test_the_training_script_writes_weights_the_level_plays(tmp_path: Path) -> None:
    """scripts/train_learned.py, one short update (PyTorch installed: the train extra)."""
    pytest.importorskip("torch")
    from scriptkit import load_script

    script = load_script("scripts/train_learned.py", "train_learned")
    assert script.main(["--out", str(tmp_path), "--env", "cards", "--envs", "2", "--steps",
                        "6", "--hidden", "8", "--checkpoints", "0"]) == 0
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("update,cpu_s,decisions") and len(rows) == 2
    w = load_weights(tmp_path / "learned-0min.npz")
    assert w["w1"].shape == (OBS_SIZE, 8)
    a = play_match(PRESETS["rubicon"], 2, (LearnedPlayer(0, weights=w), make_player("book")))
    assert a.finished


def test_learned_is_offered_where_the_levels_are() -> None:
    """The terminal and the ladder list the registered levels; the browser lists
    LEVEL_NAMES, each with its line (which says the rest of its play is the book's)."""
    from piquet.cli.ladder_cmd import default_levels
    from piquet.levels import LEVEL_NAMES, LEVEL_NOTES, level_named
    from piquet.players import LEVELS

    assert "learned" in LEVELS and "learned" in default_levels()
    assert "learned" in LEVEL_NAMES and level_named("learned")
    assert "neural network" in LEVEL_NOTES["learned"] and "book" in LEVEL_NOTES["learned"]
    assert isinstance(make_player("learned", seed=3), LearnedPlayer)
