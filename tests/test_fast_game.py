"""The whole game on the compiled board (piquet.fast.game) against the engine: the same packs
and action ids, stepped through an Episode on the engine path, give the same player to act
and the same legal ids at every step, the same points in every deal, the same scores,
winner, returns and end, over random games of every preset in each format it plays."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.rules import PRESETS, Format, Rules
from piquet.fast.check import random_house_rules
from piquet.fast.game import OBS_SIZE, TERMINAL, GameBoards
from piquet.integrations.actions.ids import DEAL_BASE, DEAL_SIZES
from piquet.integrations.check import differ_game
from piquet.integrations.observation import INFO_PIECES

CASES = [(name, fmt) for name, rules in PRESETS.items()
         for fmt in ("game", "partie") if Format(fmt) in rules.formats]
#: single deals on the board (format "deal": player 1 deals, no game target)
DEALS = [(name, "deal") for name in PRESETS]


_AT = {name: sum(n for _, n in INFO_PIECES[:i]) for i, (name, _) in enumerate(INFO_PIECES)}


def play_both(name: str | Rules, fmt: str, seed: int, max_deals: int,
              packs: Callable[[int], tuple[int, ...] | None] | None = None) -> int:
    """One random game on the board and on the engine, compared at every step
    (:func:`piquet.integrations.check.differ_game`: the player to act, the legal ids, each
    player's observation part by part, each deal's points, the end); the steps.
    ``packs(k)``: the pack of the k-th deal (None: the board's own), dealt by the rule
    set's first packet size."""
    rules = PRESETS[name] if isinstance(name, str) else name
    planned = DEAL_BASE + DEAL_SIZES.index(rules.packet_sizes[0]) if packs else None
    counts = [0]
    msg = differ_game(rules, fmt, seed, max_deals=max_deals, packs=packs, prefer=planned,
                      counts=counts)
    assert msg is None, f"{rules.name} {fmt} seed {seed}: {msg}"
    return counts[0]


@pytest.mark.parametrize(("name", "fmt"), CASES)
def test_whole_games_agree_with_the_engine(name: str, fmt: str) -> None:
    total = 0
    for seed in range(4):
        total += play_both(name, fmt, seed, max_deals=3 if fmt == "game" else 50)
    assert total > 100


@pytest.mark.parametrize(("name", "fmt"), DEALS)
def test_single_deals_agree_with_the_engine(name: str, fmt: str) -> None:
    """Format "deal": the engine's single-deal episode (player 1 deals, no game target, the
    point difference returned), step for step, over random deals."""
    total = 0
    for seed in range(12):
        total += play_both(name, fmt, seed, max_deals=1)
    assert total > 300
    boards = GameBoards(4, rules=name, format="deal")
    boards.reset(2)
    assert (boards.field("dealer") == 1).all()


def test_a_game_cut_off_is_truncated() -> None:
    boards = GameBoards(1, rules="rubicon", format="game", max_deals=1)
    boards.reset(5)
    rng = random.Random(0)
    while boards.to_move[0] != TERMINAL:
        boards.step(np.array([rng.choice(boards.legal_ids(0))]))
    assert boards.field("truncated")[0] == 1 and boards.field("winner")[0] == -1


def test_illegal_ids_are_refused_and_change_nothing() -> None:
    boards = GameBoards(2, rules="cotgrave-1662", format="game")
    boards.reset(1)
    before = boards.rows.copy()
    legal0 = boards.legal_ids(0)
    bad = next(i for i in range(480) if i not in boards.legal_ids(1))
    with pytest.raises(IllegalActionError,
                       match=r"game 1: action id .* is not allowed now; legal ids:"):
        boards.step(np.array([legal0[0], bad]))
    with pytest.raises(IllegalActionError, match="not an id"):
        boards.step(np.array([legal0[0], 480]))
    with pytest.raises(IllegalActionError, match="whole numbers"):
        boards.step(np.array([0.5, 1.0]))
    assert (boards.rows == before).all()


def test_seeded() -> None:
    a = GameBoards(3, rules="rubicon")
    b = GameBoards(3, rules="rubicon")
    a.reset(11)
    b.reset(11)
    assert (a.rows == b.rows).all()
    b.reset(12)
    assert not (a.rows == b.rows).all()


def test_bad_setup_is_refused() -> None:
    with pytest.raises(PiquetError, match="does not play a partie"):
        GameBoards(1, rules="cotgrave-1662", format="partie")
    with pytest.raises(PiquetError, match="number of games must be a whole number, 1 or more"):
        GameBoards(0)
    with pytest.raises(PiquetError, match="not known"):
        GameBoards(1, format="pool")  # type: ignore[arg-type]


def test_the_numbering_is_the_adapters() -> None:
    from piquet.fast import game
    from piquet.integrations.actions import ids

    assert game.NUM_ACTIONS == ids.NUM_ACTIONS
    assert game.TERMINAL == ids.TERMINAL


def _blanche_pack(name: str, who: str, seed: int) -> tuple[int, ...] | None:
    """A pack whose deal gives carte blanche (no king, queen or knave) to elder, younger or
    both, dealt by the rule set's first packet size (None if the pack has too few cards
    below the knave for it)."""
    rules = PRESETS[name]
    size = rules.packet_sizes[0]
    cards = [c for c in range(36) if rules.deck_size == 36 or c % 9]
    courts = [c for c in cards if c % 9 in (5, 6, 7)]
    low = [c for c in cards if c % 9 not in (5, 6, 7)]
    rng = random.Random(seed)
    rng.shuffle(courts)
    rng.shuffle(low)
    blank = {"elder": (0,), "younger": (1,), "both": (0, 1)}[who]
    if 12 * len(blank) > len(low):
        return None
    pack: list[int] = []
    for pos in range(len(cards)):
        seat = (pos // size) % 2 if pos < 24 else -1
        source = low if seat in blank else (courts or low)
        if not source:
            source = low
        pack.append(source.pop())
    return tuple(pack)


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("who", ["elder", "younger", "both"])
def test_carte_blanche_agrees_with_the_engine(name: str, who: str) -> None:
    fmt = PRESETS[name].default_format.value
    if fmt == "pool":
        fmt = "game"
    if _blanche_pack(name, who, 0) is None:
        pytest.skip("the pack has too few cards below the knave for two blanks")
    for seed in range(3):
        play_both(name, fmt, seed, max_deals=2,
                  packs=lambda k, s=seed: _blanche_pack(name, who, 10 * s + k))


def test_a_pack_is_checked() -> None:
    boards = GameBoards(1, rules="rubicon")
    boards.reset(0)
    with pytest.raises(IllegalActionError, match="each once"):
        boards.deal_pack(0, list(range(32)))
    boards.deal_pack(0, [c for c in range(36) if c % 9])
    boards.step(np.array([boards.legal_ids(0)[0]]))
    with pytest.raises(IllegalActionError, match="only a deal not yet begun"):
        boards.deal_pack(0, [c for c in range(36) if c % 9])


def test_the_observation_is_the_adapters_layout() -> None:
    assert sum(n for _, n in INFO_PIECES) == OBS_SIZE


# ---------------------------------------------------------------------- the environment


def _run_env(env: object, steps: int, seed: int) -> list[tuple[object, ...]]:
    from piquet.fast.gameenv import GameEnv

    assert isinstance(env, GameEnv)
    obs, infos = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        mask = infos["action_mask"]
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, rew, term, trunc, infos = env.step(acts)
        seen.append((obs.copy(), rew.copy(), term.copy(), trunc.copy()))
    return seen


def test_env_follows_gymnasium_same_step_autoreset() -> None:
    from gymnasium.vector import AutoresetMode

    from piquet.fast.gameenv import GameEnv

    env = GameEnv(4, rules="rubicon", format="game", max_deals=1, seed=3)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, infos = env.reset()
    assert obs.shape == (4, OBS_SIZE) and obs.dtype == np.float32
    assert infos["action_mask"].shape == (4, 480)
    assert env.single_observation_space.contains(obs[0])
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, rew, term, trunc, infos = env.step(acts)
        if term.any() or trunc.any():
            done = term | trunc
            assert (infos["_final_obs"] == done).all() and (infos["_final_info"] == done).all()
            for i in np.flatnonzero(done):
                ended += 1
                final = infos["final_obs"][i]
                assert final.shape == (OBS_SIZE,)
                # the final observation is the last deal's end; the new game's is its start
                assert final[_AT["phase"] + 7] == 1.0 and obs[i][_AT["phase"] + 7] == 0.0
                assert infos["final_info"]["returns"][i].sum() == 0.0
                # max_deals=1: a rubicon game (to 100) is cut off after one deal unless won
                assert trunc[i] == (rew[i] == 0.0)
            assert infos["final_obs"][~done].tolist() == [None] * int((~done).sum())
    assert ended > 0
    env.close()


@pytest.mark.parametrize("fmt", ["game", "partie"])
def test_env_final_info_has_the_scores_winner_and_deals(fmt: str) -> None:
    """final_info tells how each ended game ended: the same scores, winner and deals as
    GameBoards stepped with the same seed and ids shows at its end."""
    from piquet.fast.gameenv import GameEnv

    env = GameEnv(1, rules="rubicon", format=fmt, max_deals=8, seed=5)  # type: ignore[arg-type]
    boards = GameBoards(1, rules="rubicon", format=fmt, max_deals=8)  # type: ignore[arg-type]
    _, infos = env.reset(seed=5)
    boards.reset(5)
    rng = np.random.default_rng(2)
    ended = 0
    while ended < 3:
        act = int(rng.choice(np.flatnonzero(infos["action_mask"][0])))
        _, rew, term, trunc, infos = env.step(np.array([act]))
        boards.step(np.array([act]))
        if term[0] or trunc[0]:
            final = infos["final_info"]
            assert final["_scores"][0] and final["_winner"][0] and final["_deals"][0]
            assert final["scores"][0].tolist() == boards.field("score", 2)[0].tolist()
            assert final["winner"][0] == boards.field("winner")[0]
            assert final["deals"][0] == boards.field("ndeals")[0] >= 1
            assert (final["winner"][0] == -1) == (rew[0] == 0.0)
            assert final["winner"][0] != -1 or fmt == "partie" or trunc[0]
            ended += 1
            # the env's next game: the row's own generator, as GameEnv draws it
            boards.rows[:] = env.boards.rows
        else:
            assert "final_info" not in infos


def test_env_partie_rewards_are_the_settlement() -> None:
    from piquet.fast.gameenv import GameEnv

    env = GameEnv(2, rules="rubicon", format="partie", seed=1)
    _, infos = env.reset()
    rng = np.random.default_rng(1)
    got = []
    for _ in range(3000):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        _, rew, term, trunc, infos = env.step(acts)
        assert not trunc.any()
        got += [float(r) for r, t in zip(rew, term, strict=True) if t]
    assert got and all(abs(r) >= 100 or r == 0 for r in got)


def test_env_is_seeded_whatever_the_threads() -> None:
    from piquet.fast.gameenv import GameEnv

    a = _run_env(GameEnv(6, rules="cotgrave-1662", threads=1, max_deals=2), 200, 9)
    b = _run_env(GameEnv(6, rules="cotgrave-1662", threads=3, max_deals=2), 200, 9)
    for x, y in zip(a, b, strict=True):
        for u, v in zip(x, y, strict=True):
            assert (u == v).all()  # type: ignore[attr-defined]


def test_env_refuses_illegal_ids() -> None:
    from piquet.fast.gameenv import GameEnv

    env = GameEnv(2, rules="rubicon")
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(np.array([0, 0]))
    obs, infos = env.reset(seed=0)
    bad = int(np.flatnonzero(~infos["action_mask"][1])[0])
    good = int(np.flatnonzero(infos["action_mask"][0])[0])
    with pytest.raises(IllegalActionError, match="game 1: action id"):
        env.step(np.array([good, bad]))
    with pytest.raises(IllegalActionError, match="one action id per game"):
        env.step(np.array([good]))
    after, _ = env.reset(seed=0)
    assert (after == obs).all()


def test_env_observation_is_the_boards() -> None:
    from piquet.fast.gameenv import GameEnv

    env = GameEnv(3, rules="court-gamester-1754", seed=2)
    obs, infos = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(60):
        assert (obs == env.boards.observe()).all()
        assert (infos["action_mask"] == env.boards.legal_mask()).all()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, _, _, _, infos = env.step(acts)


# ---------------------------------------------------------------------- the adapters


@pytest.mark.parametrize(("name", "fmt"), CASES)
def test_the_same_observations_and_ids_in_python_piquet(name: str, fmt: str) -> None:
    """A policy trained on GameEnv reads and writes the same numbers in OpenSpiel: over random
    games, python_piquet's information-state tensors, legal ids and returns are the board's."""
    pytest.importorskip("pyspiel")
    from piquet.integrations import openspiel as ops

    game = ops.load(name, format=fmt, max_deals=3)
    for seed in range(2):
        boards = GameBoards(1, rules=name, format=fmt, max_deals=3)  # type: ignore[arg-type]
        boards.reset(seed)
        state = game.new_initial_state()
        state.apply_action(int(boards.field("dealer")[0]))
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                for card in boards.deck(0):
                    state.apply_action(card)
                continue
            player = state.current_player()
            assert player == int(boards.to_move[0])
            assert state.legal_actions() == boards.legal_ids(0)
            for p in (0, 1):
                theirs = np.asarray(state.information_state_tensor(p), dtype=np.float32)
                mine = boards.observe(np.array([p]))[0]
                assert (mine == theirs).all()
            action = rng.choice(boards.legal_ids(0))
            state.apply_action(action)
            boards.step(np.array([action]))
        assert int(boards.to_move[0]) == TERMINAL
        r0 = state.returns()[0]
        if fmt == "game" and boards.field("winner")[0] >= 0:
            assert r0 == (1.0 if boards.field("winner")[0] == 0 else -1.0)
        assert state.is_truncated() == bool(boards.field("truncated")[0])


@pytest.mark.parametrize(("name", "fmt"), CASES)
def test_the_same_observations_and_ids_in_pettingzoo(name: str, fmt: str) -> None:
    """The same in the PettingZoo raw env: the board deals PettingZoo's packs (and first
    dealer), and each agent's observation and action mask are the board's."""
    from piquet.integrations.pettingzoo import raw_env

    env = raw_env(rules=name, format=fmt, max_deals=3)
    env.reset(seed=4)
    boards = GameBoards(1, rules=name, format=fmt, max_deals=3)  # type: ignore[arg-type]
    boards.reset(0)
    deal = env.episode.deal
    boards.deal_pack(0, deal.deck[:boards.rules.deck_size], dealer=env.episode.dealer)
    dealt = 0
    rng = random.Random(1)
    while env.agents:
        if int(boards.field("ndeals")[0]) != dealt and int(boards.to_move[0]) != TERMINAL:
            dealt = int(boards.field("ndeals")[0])
            boards.deal_pack(0, env.episode.deal.deck[:boards.rules.deck_size])
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        player = int(agent[-1])
        assert player == int(boards.to_move[0])
        seen = env.observe(agent)
        mine = boards.observe(np.array([player]))[0]
        assert (mine == seen["observation"]).all()
        assert (seen["action_mask"].astype(bool) == boards.legal_mask()[0]).all()
        action = rng.choice(boards.legal_ids(0))
        env.step(action)
        boards.step(np.array([action]))
    assert int(boards.to_move[0]) == TERMINAL


def test_the_smaller_observation_is_the_adapters_observation_tensor() -> None:
    from piquet.fast.game import OBSERVATION_SIZE
    from piquet.fast.gameenv import GameEnv
    from piquet.integrations.observation import OBS_SIZE as ADAPTERS_OBS_SIZE

    assert OBSERVATION_SIZE == ADAPTERS_OBS_SIZE
    env = GameEnv(8, rules="encyclopedia-19c", tensor="observation", seed=5)
    obs, infos = env.reset()
    rng = np.random.default_rng(5)
    for _ in range(80):
        assert obs.shape == (8, OBSERVATION_SIZE)
        assert (obs == env.boards.observe()[:, :OBSERVATION_SIZE]).all()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, _, _, _, infos = env.step(acts)
    with pytest.raises(PiquetError, match="tensor"):
        GameEnv(1, tensor="pixels")  # type: ignore[arg-type]


def test_whole_games_agree_with_the_engine_under_random_house_rules() -> None:
    rng = random.Random("whole-house")
    for r in range(40):
        rules = random_house_rules(rng, PRESETS["rubicon"])
        # and what a seat sees, which the compiled deal does not read (the observation does)
        rules = rules.replace(**{knob: rng.random() < 0.5 for knob in (
            "elder_sees_unused", "show_point", "show_sequences", "show_sets", "show_missing")})
        for fmt in ("game", "partie"):
            if Format(fmt) in rules.formats:
                play_both(rules, fmt, r, max_deals=2 if fmt == "game" else 50)


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning")
@pytest.mark.parametrize(("name", "fmt"), CASES + DEALS[:2])
def test_the_pettingzoo_env_on_the_board_passes_pettingzoos_tests(name: str, fmt: str) -> None:
    from pettingzoo.test import api_test, render_test, seed_test

    from piquet.integrations.pettingzoo import env, raw_env

    api_test(env(rules=name, format=fmt, board=True), num_cycles=200)
    api_test(raw_env(rules=name, format=fmt, board=True), num_cycles=100)
    seed_test(lambda: env(rules=name, format=fmt, board=True), num_cycles=100)
    render_test(lambda render_mode=None: env(rules=name, format=fmt, board=True,
                                             render_mode=render_mode))


@pytest.mark.parametrize(("name", "fmt"), CASES + DEALS)
def test_the_pettingzoo_env_on_the_board_is_the_engines(name: str, fmt: str) -> None:
    """At every step, each agent's observation and mask are the engine's episode's (replayed
    from the packs and ids); at the end the rewards are its returns."""
    from piquet.integrations.observation import episode_information_state_tensor
    from piquet.integrations.pettingzoo import raw_env

    e = raw_env(rules=name, format=fmt, max_deals=2, board=True)
    e.reset(seed=3)
    rng = random.Random(3)
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            ep = e.episode
            assert ep.over and e.truncations[agent] == ep.cut_off
            if len(e.agents) == 2:  # (the first dead step removes the agent's reward)
                assert (e.rewards["player_0"], e.rewards["player_1"]) == ep.returns()
            e.step(None)
            continue
        ep = e.episode
        assert ep.to_move == int(agent[-1])
        for a in ("player_0", "player_1"):
            seen = e.observe(a)
            p = int(a[-1])
            assert (seen["observation"] == episode_information_state_tensor(ep, p)).all()
            want = np.zeros(480, np.int8)
            if ep.to_move == p:
                want[ep.legal_ids()] = 1
            assert (seen["action_mask"] == want).all()
        e.step(rng.choice(ep.legal_ids()))


def test_the_pettingzoo_env_on_the_board_refuses_bad_formats_and_ids() -> None:
    from piquet.integrations.pettingzoo import raw_env

    with pytest.raises(PiquetError, match="format 'pool' is not known; use one of: deal"):
        raw_env(format="pool", board=True)
    e = raw_env(rules="rubicon", format="game", board=True)
    e.reset(seed=0)
    bad = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not allowed now"):
        e.step(bad)
    with pytest.raises(IllegalActionError, match="whole-number id"):
        e.step(3.5)  # type: ignore[arg-type]
