"""The batch environment: every preset and format, seeded, legal masks, hidden cards hidden.

Each observation is checked against the public engine: the game's private state (its pack
and the choices of the deal so far, from the kernel's resumable board) is replayed through
:class:`~piquet.core.deal.Deal`,
and the observation must be exactly what the seat's :func:`~piquet.core.view.deal_view`
shows (own hand, own discards, cards played, the card led), so nothing hidden is in it;
the action mask must be the view's legal cards.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from piquet.core.actions import Play
from piquet.core.deal import Deal
from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.rules import PRESETS, Format
from piquet.core.view import deal_view
from piquet.fast import batch as B
from piquet.fast import kernel as K
from piquet.fast.engine import actions_of
from piquet.fast.env import VectorEnv

CASES = [(name, f.value) for name, rules in PRESETS.items() for f in rules.formats
         if f is not Format.POOL]


def _bits(row: np.ndarray) -> int:
    return sum(1 << c for c in range(36) if row[c])


def _check_against_engine(env: VectorEnv, obs: np.ndarray, mask: np.ndarray) -> None:
    rules = env.rules
    for i in range(env.num_envs):
        st = env._st[i]
        dealer = int(st[B.G_DEALER])
        start = (int(st[B.G_SCORE0 + 1 - dealer]), int(st[B.G_SCORE0 + dealer]))
        target = rules.target if env.format == "game" else None
        deal = Deal.new(rules, [int(c) for c in env._decks[i][: rules.deck_size]],
                        start=start, target=target)
        tl, _, tr = env._boards[:3]
        rows = [(int(a), int(b)) for a, b in tr[i][: int(tl[i, K.T_NTR])]]
        for action in actions_of(rows, rules):
            deal = deal.apply(action)
        role = deal.to_act
        assert role is not None and deal.phase.value == "play"
        view = deal_view(deal, role)
        played = 0
        for t in view.tricks:
            played |= 1 << t.lead | 1 << t.follow
        if view.trick_lead is not None:
            played |= 1 << view.trick_lead
        o = obs[i]
        assert _bits(o[0:36]) == view.hand.mask
        assert _bits(o[36:72]) == view.discards.mask
        assert _bits(o[72:108]) == played
        assert _bits(o[108:144]) == (0 if view.trick_lead is None else 1 << view.trick_lead)
        hidden = deal.hands[1 - role] | sum(1 << c for c in deal.stock)
        assert not (_bits(o[0:144]) & hidden)
        legal = {a.card.index for a in view.legal_actions if isinstance(a, Play)}
        assert set(np.flatnonzero(mask[i])) == legal


@pytest.mark.parametrize(("preset", "fmt"), CASES)
def test_env_observations_are_the_seats_view_for_every_preset_and_format(
        preset: str, fmt: str) -> None:
    env = VectorEnv(6, rules=preset, format=fmt, opponent_policy="random")  # type: ignore[arg-type]
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(1)
    ended = 0
    for step in range(400):
        if step % 7 == 0:
            _check_against_engine(env, obs, info["action_mask"])
        mask = info["action_mask"]
        acts = np.argmax(rng.random(mask.shape) * mask, axis=1)
        obs, rewards, term, trunc, info = env.step(acts)
        ended += int(term.sum())
        assert not trunc.any()
        assert (rewards[~term] == 0).all()
    assert ended > 0


def test_env_is_seeded() -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = VectorEnv(4, rules="rubicon", format="partie")
        obs, info = env.reset(seed=seed)
        out = [obs]
        for _ in range(60):
            obs, _, _, _, info = env.step(np.argmax(info["action_mask"], axis=1))
            out.append(obs)
        return out

    a, b, c = run(1), run(1), run(2)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert not all((x == y).all() for x, y in zip(a, c, strict=True))


def test_env_partie_rewards_are_settlements_and_game_rewards_are_one() -> None:
    for fmt in ("game", "partie"):
        env = VectorEnv(16, rules="rubicon", format=fmt)
        _, info = env.reset(seed=3)
        seen = 0
        for _ in range(700):
            _, rewards, term, _, info = env.step(np.argmax(info["action_mask"], axis=1))
            for r in rewards[term]:
                assert (abs(r) == 1) if fmt == "game" else (abs(r) >= 100 or r == 0), r
                seen += 1
        assert seen > 0


def test_env_refuses_bad_setups_and_illegal_cards_and_changes_nothing() -> None:
    with pytest.raises(PiquetError, match="game, partie"):
        VectorEnv(2, rules="rubicon", format="pool")  # type: ignore[arg-type]
    with pytest.raises(PiquetError, match="does not play a partie"):
        VectorEnv(2, rules="cotton-1674", format="partie")
    with pytest.raises(PiquetError, match="num_envs must be a whole number, 1 or more"):
        VectorEnv(0)
    env = VectorEnv(2, rules="rubicon")
    with pytest.raises(IllegalActionError, match="reset"):
        env.step([0, 0])
    _, info = env.reset(seed=0)
    illegal = [int(np.flatnonzero(~info["action_mask"][0])[0]), 0]
    before = env._st.copy()
    with pytest.raises(IllegalActionError, match="may not be played now; allowed"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="one card per game"):
        env.step([0])
    # a number that is no card, or not a whole number, is said to be so (3.9 played card 3)
    legal = [int(np.flatnonzero(info["action_mask"][i])[0]) for i in range(2)]
    with pytest.raises(IllegalActionError, match="36 is not a card index; the cards are 0 to 35"):
        env.step([36, legal[1]])
    with pytest.raises(IllegalActionError, match="-1 is not a card index"):
        env.step([legal[0], -1])
    with pytest.raises(IllegalActionError, match="whole numbers 0 to 35, not float64"):
        env.step([legal[0] + 0.9, legal[1]])
    assert (env._st == before).all()


def test_the_fast_functions_take_a_rule_sets_name_and_refuse_what_is_not_one() -> None:
    """``random_deals``, ``play_deal`` and ``playout`` took only a ``Rules`` and said
    "'str' object has no attribute 'deck_size'" for a name; ``n`` of 2.5 was taken."""
    from piquet.core.cards import pack
    from piquet.core.errors import RulesError
    from piquet.core.rules import get_rules
    from piquet.fast.engine import play_deal, playout, random_deals

    assert random_deals("rubicon", 20, seed=1) == random_deals(get_rules("rubicon"), 20, seed=1)
    deck = pack(get_rules("1754"))
    assert play_deal("1754", deck, seed=2) == play_deal(get_rules("1754"), deck, seed=2)
    assert playout("19c", pack(get_rules("19c")), n=2, seed=3).n == 2
    with pytest.raises(RulesError, match="unknown rule set 'whist'"):
        random_deals("whist", 1)
    with pytest.raises(PiquetError, match="rules are a Rules or a rule set's name, not int"):
        random_deals(3, 1)  # type: ignore[arg-type]
    with pytest.raises(PiquetError, match=r"n must be a whole number, 0 or more, not 2\.5"):
        random_deals("rubicon", 2.5)  # type: ignore[arg-type]
    with pytest.raises(PiquetError, match="n must be a whole number, 1 or more"):
        playout("rubicon", pack(get_rules("rubicon")), n=0)


def test_the_researchers_five_lines_in_the_docs_run() -> None:
    """``docs/integrations.md``'s batch-environment example is a few lines, and it runs as
    it is written: it is one of the page's blocks that ``tests/test_docs_examples.py``
    runs, which checks what it leaves (4096 observations of ``OBS_SIZE`` and 4096 rewards,
    as arrays): run there, not run twice."""
    from pathlib import Path

    from test_docs_examples import examples

    doc = (Path(__file__).parent.parent / "docs" / "integrations.md").read_text()
    part = doc.split("A researcher's five lines:", 1)[1]
    code = part.split("```python\n", 1)[1].split("```", 1)[0]
    assert "VectorEnv" in code and len(code.strip().splitlines()) <= 8
    assert "VectorEnv(4096," in code and "obs, rewards" in code
    assert code in [p.values[0] for p in examples()]


def test_env_gives_the_same_games_whatever_the_number_of_threads() -> None:
    def run(threads: int) -> list[np.ndarray]:
        env = VectorEnv(24, rules="rubicon", format="game", opponent_policy="random",
                        threads=threads)
        obs, info = env.reset(seed=9)
        out = [obs]
        for _ in range(80):
            obs, rewards, _, _, info = env.step(np.argmax(info["action_mask"], axis=1))
            out += [obs, rewards]
        env.close()
        return out

    one, three = run(1), run(3)
    assert all((x == y).all() for x, y in zip(one, three, strict=True))
    with pytest.raises(PiquetError, match="threads must be"):
        VectorEnv(4, threads=0)


def test_the_compiled_core_needs_none_of_the_research_extras() -> None:
    # `scripts/run` installs piquet without the test extras: the kernel, the solver (an
    # expert's move) and the web table must not need Gymnasium (the batch environment's),
    # PettingZoo, OpenSpiel or Ray
    code = (
        "import sys\n"
        "for name in ('gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel', 'ray', 'numba'):\n"
        "    sys.modules[name] = None  # an import of it fails as if it were not installed\n"
        "from piquet.core.match import new_match\n"
        "from piquet.fast import random_deals\n"
        "from piquet.players.base import make_player\n"
        "random_deals('rubicon', 10, policy='book')\n"
        "match = new_match('rubicon', seed=1)\n"
        "player = make_player('expert', seed=1, think_ms=20)\n"
        "player.choose(match.view(match.to_act))\n"
        "import piquet.web.app\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize(("preset", "fmt"), [(p, None) for p in sorted(PRESETS)]
                         + [("rubicon", "partie")])
def test_env_gives_final_obs_and_final_info_where_a_game_ends(preset: str, fmt: str | None) -> None:
    # Gymnasium's SAME_STEP autoreset: the ended game's last observation and facts in infos
    env = VectorEnv(16, rules=preset, format=fmt, threads=1)  # type: ignore[arg-type]
    obs, info = env.reset(seed=7)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(900):
        mask = info["action_mask"]
        acts = np.argmax(rng.random(mask.shape) * mask, axis=1)
        before, movers = obs, info["to_play"]
        obs, rewards, term, _, info = env.step(acts)
        if not term.any():
            assert "final_obs" not in info and "final_info" not in info
            continue
        assert (info["_final_obs"] == term).all() and (info["_final_info"] == term).all()
        assert info["final_obs"][~term].tolist() == [None] * int((~term).sum())
        fi = info["final_info"]
        for i in np.flatnonzero(term):
            ended += 1
            f = info["final_obs"][i]
            assert f.shape == (B.OBS_SIZE,) and f.dtype == np.float32
            assert (fi["returns"][i] == [rewards[i], -rewards[i]]).all()
            assert fi["to_play"][i] == movers[i]
            me = int(movers[i])
            scores = fi["scores"][i]
            assert np.isclose(f[150], scores[me] / 100) and np.isclose(f[151], scores[1 - me] / 100)
            winner = int(fi["winner"][i])
            assert (rewards[i] > 0) == (winner == 0) and (rewards[i] < 0) == (winner == 1)
            if winner >= 0:
                assert scores[winner] >= scores[1 - winner]
            assert np.isclose(f[152] * max(env.rules.partie_deals, 1), fi["deals"][i])
            if f[152] == before[i][152]:  # ended in the deal of the last card: that card played
                card = int(acts[i])
                assert f[card] == 0 and before[i][card] == 1 and f[72 + card] == 1
                assert (f[:36] <= before[i][:36]).all() and (f[72:108] >= before[i][72:108]).all()
                assert (f[36:72] == before[i][36:72]).all() and f[144] == before[i][144]
            assert not (f[0:36] * f[72:108]).any()
    assert ended > 0
