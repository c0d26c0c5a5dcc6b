"""Piquet as a PettingZoo AEC environment: PettingZoo's API test for every rule set."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test

from piquet.core.errors import IllegalActionError, PiquetError, RulesError
from piquet.core.rules import PRESETS
from piquet.integrations.actions import NUM_ACTIONS, action_name
from piquet.integrations.observation import INFO_SIZE
from piquet.integrations.pettingzoo import env, raw_env

PRESET_NAMES = sorted(PRESETS)

# api_test warns about dict observations for every environment not on its own list;
# {"observation", "action_mask"} is PettingZoo's documented form for masked actions.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning"),
]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_pettingzoo_api_test_passes(name: str) -> None:
    api_test(env(rules=name), num_cycles=300)


FORMATS = [(name, fmt) for name in PRESET_NAMES for fmt in ("deal", "game", "partie")
           if fmt != "partie" or name in ("rubicon", "encyclopedia-19c")]


@pytest.mark.parametrize("fmt", ["deal", "game", "partie"])
def test_the_raw_env_and_the_engine_path_pass_the_api_test(fmt: str) -> None:
    api_test(raw_env(rules="rubicon", format=fmt), num_cycles=200)
    api_test(env(rules="rubicon", format=fmt, kernel=False), num_cycles=200)


@pytest.mark.parametrize(("name", "fmt"), [c for c in FORMATS if c[1] != "deal"])
def test_pettingzoo_api_test_passes_for_a_whole_game_or_partie(name: str, fmt: str) -> None:
    api_test(env(rules=name, format=fmt), num_cycles=200)


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_the_same_seed_plays_the_same_episode(name: str, fmt: str) -> None:
    seed_test(lambda: env(rules=name, format=fmt), num_cycles=100)


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_pettingzoo_render_test_passes(name: str, fmt: str) -> None:
    render_test(lambda render_mode=None: env(rules=name, format=fmt, render_mode=render_mode))


def test_human_render_prints_the_movers_information_state(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    e = raw_env(rules="rubicon", render_mode="human")
    e.reset(seed=1)
    assert e.render() is None
    assert "rubicon" in capsys.readouterr().out


def _play(e: object, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)  # type: ignore[attr-defined]
    totals = {"player_0": 0.0, "player_1": 0.0}
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _ = e.last()  # type: ignore[attr-defined]
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)  # type: ignore[attr-defined]
            continue
        assert obs["observation"].shape == (INFO_SIZE,)
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        e.step(int(rng.choice(legal)))  # type: ignore[attr-defined]
    return totals


def test_a_deal_rewards_the_point_difference() -> None:
    e = env(rules="encyclopedia-19c")
    totals = _play(e, 3)
    assert totals["player_0"] == -totals["player_1"]
    deals = e.unwrapped.episode.deals
    assert totals["player_0"] == deals[0][0] - deals[0][1]


def test_only_the_selected_agent_has_legal_actions() -> None:
    e = raw_env(rules="rubicon")
    e.reset(seed=1)
    mover = e.agent_selection
    idle = "player_1" if mover == "player_0" else "player_0"
    assert e.observe(idle)["action_mask"].sum() == 0
    mask = e.observe(mover)["action_mask"]
    assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.int8
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="legal"):
        e.step(illegal)
    assert all(action_name(int(i)) for i in np.flatnonzero(mask))


def test_bad_options_say_what_is_allowed() -> None:
    with pytest.raises(RulesError, match="the presets are"):
        raw_env(rules="whist")
    with pytest.raises(PiquetError, match="use one of: deal, game, partie"):
        raw_env(format="pool")
    with pytest.raises(PiquetError, match="does not play a partie"):
        raw_env(rules="cotton-1674", format="partie")
    with pytest.raises(PiquetError, match="use None, 'ansi' or 'human'"):
        raw_env(render_mode="rgb_array")
    e = raw_env(render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert text is not None and "hand:" in text


@pytest.mark.parametrize("fmt", ["game", "partie"])
def test_a_whole_game_or_partie_ends_and_is_zero_sum(fmt: str) -> None:
    e = env(rules="rubicon", format=fmt)
    totals = _play(e, 11)
    assert totals["player_0"] == -totals["player_1"]
    ep = e.unwrapped.episode
    assert ep.over and ep.match is not None and ep.match.finished
    if fmt == "partie":
        assert len(ep.deals) >= 6
        assert totals["player_0"] == 0 or abs(totals["player_0"]) >= 100
    else:
        assert abs(totals["player_0"]) == 1


def test_a_pack_drawn_at_once_is_the_pack_drawn_card_by_card() -> None:
    """``Episode.draw_rest`` (the env's chance nodes): the same draws of the same seed give
    the same pack, deal and state of the generator as applying the outcomes one by one."""
    import random as _random

    from piquet.core.rules import PRESETS
    from piquet.integrations.actions import CHANCE, Episode, EpisodeFormat

    for fmt in (EpisodeFormat.DEAL, EpisodeFormat.GAME):
        for seed in range(10):
            one, all_ = _random.Random(seed), _random.Random(seed)
            a = b = Episode.start(PRESETS["rubicon"], format=fmt)
            while a.to_move == CHANCE:
                outcomes = a.chance_outcomes()
                a = a.apply(outcomes[one.randrange(len(outcomes))][0])
            while b.to_move == CHANCE:
                if b.dealer is None:
                    outcomes = b.chance_outcomes()
                    b = b.apply(outcomes[all_.randrange(len(outcomes))][0])
                else:
                    b = b.draw_rest(all_)
            assert a.pack == b.pack and a.dealer == b.dealer and a.to_move == b.to_move
            assert a.legal_ids() == b.legal_ids() and one.random() == all_.random()
            assert a.deal is not None and b.deal is not None
            assert a.deal.hands == b.deal.hands


@pytest.mark.parametrize("wrapped", [False, True])
def test_an_action_that_is_not_a_whole_number_id_is_refused(wrapped: bool) -> None:
    """The raw env read ``step(3.7)`` as id 3 and ``step("7")`` as id 7."""
    e = (env if wrapped else raw_env)(rules="rubicon")
    e.reset(seed=1)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    for bad in (legal + 0.7, str(legal), True):
        with pytest.raises((IllegalActionError, ValueError, AssertionError)):
            e.step(bad)  # type: ignore[arg-type]
    e.step(np.int64(legal))  # a numpy integer is a whole number
    e.step(np.array(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])))


def _play_random(e: Any, seed: int) -> dict[str, tuple[float, bool, bool, dict[str, object]]]:
    """Play ``e`` to its end with random legal ids; each agent's last (reward, terminated,
    truncated, info)."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    last = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            last[agent] = (reward, terminated, truncated, info)
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return last


def test_a_game_cut_off_at_max_deals_is_truncated_not_terminated() -> None:
    """Issue 37: a game cut off at ``max_deals`` was ``terminated=True, truncated=False``;
    a time-limit cut is a truncation (value methods bootstrap from it)."""
    cut = 0
    for seed in range(6):
        last = _play_random(env(rules="rubicon", format="game", max_deals=1), seed)
        assert set(last) == {"player_0", "player_1"}
        for reward, terminated, truncated, info in last.values():
            assert terminated != truncated
            assert truncated == info["cut_off"]
            if truncated:
                assert reward == 0.0 and info["winner"] is None
        cut += all(v[2] for v in last.values())
    assert cut  # one deal rarely reaches 100: most of these games were cut off
    api_test(env(rules="rubicon", format="game", max_deals=1), num_cycles=200)


@pytest.mark.parametrize("fmt", ["deal", "partie"])
def test_a_deal_or_a_partie_that_ends_is_terminated(fmt: str) -> None:
    last = _play_random(env(rules="rubicon", format=fmt), 3)
    assert all(v[1] and not v[2] and v[3]["cut_off"] is False for v in last.values())


def test_the_environments_name_carries_its_version() -> None:
    import warnings

    from piquet.integrations.pettingzoo import piquet_v0, piquet_v1, piquet_v2
    from piquet.integrations.versions import ENV_VERSION, OldReadingWarning

    assert ENV_VERSION == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the current version warns of nothing
        assert env().unwrapped.metadata["name"] == "piquet_v2"
        e = piquet_v2.env(rules="rubicon")
        assert e.unwrapped.metadata["name"] == piquet_v2.name == "piquet_v2"
        assert raw_env().metadata["name"] == "piquet_v2"
    with pytest.warns(OldReadingWarning, match="version 0 .* cannot be played as it was"):
        old = piquet_v0.env(rules="rubicon")
    assert old.unwrapped.metadata["name"] == "piquet_v0" and old.unwrapped.version == 0
    # version 1's observations named the suit of a sequence never shown (issue 36)
    with pytest.warns(OldReadingWarning, match="version 1 .* Version 2 changed what is said"):
        assert piquet_v1.env(rules="rubicon").unwrapped.version == 1
    api_test(old, num_cycles=50)  # still works
    for bad, said in ((7, "version 7 is not known"), (True, "a whole number"),
                      ("one", "a whole number")):
        with pytest.raises(PiquetError, match=said):
            raw_env(version=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "fmt"), FORMATS)
def test_the_board_is_the_default_and_plays_the_engines_episodes_for_a_seed(
        name: str, fmt: str) -> None:
    """``board=True`` (the default) draws the first dealer and the packs as the engine's env
    does: the same seed and ids give the same agents, observations, masks and rewards."""
    import random as _random

    from piquet.integrations.pettingzoo import BoardPiquetEnv, PiquetEnv

    assert isinstance(raw_env(rules=name, format=fmt), BoardPiquetEnv)
    assert isinstance(raw_env(rules=name, format=fmt, kernel=False), PiquetEnv)
    for seed in (1, 2):
        both = [raw_env(rules=name, format=fmt, max_deals=6, board=b) for b in (False, True)]
        for e in both:
            e.reset(seed=seed)
        rng = _random.Random(seed)
        for _ in range(2000):
            agent = both[0].agent_selection
            assert both[1].agent_selection == agent
            seen = [e.observe(agent) for e in both]
            assert np.array_equal(seen[0]["observation"], seen[1]["observation"])
            assert np.array_equal(seen[0]["action_mask"], seen[1]["action_mask"])
            assert both[0].rewards == both[1].rewards
            if both[0].terminations[agent] or both[0].truncations[agent]:
                assert both[0].truncations == both[1].truncations
                break
            action = rng.choice(np.flatnonzero(seen[0]["action_mask"]).tolist())
            for e in both:
                e.step(action)
        else:
            pytest.fail("the episode did not end")
