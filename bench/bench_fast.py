"""The compiled fast path against its targets, with ratios measured in the same run.

Run from the repository root (under ``nice`` on a shared machine)::

    .venv/bin/python bench/bench_fast.py [--seconds N] [--presets NAME ...]
    .venv/bin/python bench/bench_fast.py --diff 100000      # the differential check

Every rate is per CPU-second of this process (``time.process_time``) unless it says wall;
the ratios compare figures measured in this run, so the machine's load cancels out.

``kernel``      random full deals through :func:`piquet.fast.random_deals` (one core).
``book``        the same with the kernel's book policy.
``engine``      random full deals through the public engine (``Deal.random_action``).
``skat``        OpenSpiel's C++ skat, random games two ways: ``pyspiel.random_sim_test``
                (the C++ loop, with its checks) and a Python loop over ``apply_action``;
                the ratio is against the faster.
``VectorEnv``   :class:`piquet.fast.VectorEnv` (4,096 games, random legal cards drawn with
                numpy): steps per wall second on all cores and per CPU-second, with the
                random choice of the cards counted and without it (``env.step`` alone),
                and ``env.step`` alone on one thread (per CPU-second).
``GameEnv``     :class:`piquet.fast.GameEnv`: whole games, every decision the agent's (4,096
                games of rubicon, random legal ids drawn by the compiled helper
                ``GameBoards.random_ids``, counted; ``copy=False``): steps per wall
                second on all cores and on one thread, with the observations written
                (the information state, 1,605 values, and the observation, 717) and
                without, against the target (1,000,000 whole-game steps/s), and
                ``env.step`` alone; and with 512 games (the observations then stay in
                the caches). ``--game-only`` measures only this.
``python_piquet`` random games through the OpenSpiel adapter; ``pettingzoo`` steps, with
                the wrappers (``env``) and without (``raw_env``); each also through the
                engine alone (``kernel=False``: no card played on the kernel's board), the
                ratio said.  ``--adapters-only`` measures only these and their floors.
                ``python_piquet`` single deals, whole games and parties (rubicon) on the
                compiled board (``board=True``, from the first decision) against the same
                floor for the same chance and player steps an episode (target 0.5 of
                it), and the same episodes through the engine (``board=False``).
                The PettingZoo envs of whole games on the compiled board
                (``board=True``, from the first decision) against the same floor
                (target 0.5 of it) and against the same games through the engine.
                Then each PettingZoo env in two processes at once (the random loop for the
                same seconds in each): their steps per wall second added up, against the
                target (50,000 steps/s), with the load before and after.
``floor``       the same two harnesses over a trivial Python game with the same numbers of
                chance and player steps a game (and, for PettingZoo, the same observation
                and mask sizes and wrappers) that does nothing else: what the framework's
                per-call cost alone allows; the adapters' figures are given as a ratio of it.

``--diff N`` plays N deals per preset (random and book policies in turn, one third of them
with the game's target in reach) through the kernel and the engine with
:func:`piquet.fast.check.differ`, and counts the deals where any score event differs; then
N/10 deals through the resumable board (what the batch environment steps) with
:func:`piquet.fast.check.differ_resumed` (compared at every card and at the end).
``--adapters-diff N`` plays N random episodes of each format (deal, game, partie where the
rule set plays one) per preset with :func:`piquet.integrations.check.differ_episode`: every
answer of the adapters at every step against the reference path.
``--game-diff N`` plays N random games of each format per preset on GameEnv's compiled
board and through the engine with :func:`piquet.integrations.check.differ_game`: the player
to act, the legal ids and each player's observation at every step, every deal's points and
the end.
The last line of the output is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

import numpy as np

from piquet.core.deal import Deal
from piquet.core.rules import PRESETS, Rules
from piquet.fast import random_deals
from piquet.fast.check import differ, differ_resumed, random_case

TARGET_DEALS = 100_000
TARGET_ENV = 1_000_000
TARGET_OPENSPIEL = 10_000
TARGET_PETTINGZOO = 50_000


def _cpu_rate(fn: Any, seconds: float) -> float:
    """Calls of ``fn`` (each returning how many units it did) per CPU-second, after one
    call not timed (the first loads compiled code: up to a CPU-second inside a short
    window made the adapters' ratios depend on ``--seconds``)."""
    fn()
    done = 0
    start = time.process_time()
    wall = time.perf_counter()
    while time.perf_counter() - wall < seconds:
        done += fn()
    return done / max(time.process_time() - start, 1e-9)


def kernel_rate(rules: Rules, seconds: float, policy: str) -> float:
    random_deals(rules, 10, policy=policy)  # type: ignore[arg-type]  # compiled (cached)
    seed = [0]

    def run() -> int:
        seed[0] += 1
        random_deals(rules, 20_000, seed=seed[0], policy=policy)  # type: ignore[arg-type]
        return 20_000

    return _cpu_rate(run, seconds)


def engine_rate(rules: Rules, seconds: float, counts: list[int] | None = None) -> float:
    """Random deals a CPU-second through the engine; ``counts`` gets [deals, actions] added."""
    rng = random.Random(1)
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    tally = counts if counts is not None else [0, 0]

    def run() -> int:
        order = pack[:]
        rng.shuffle(order)
        deal = Deal.new(rules, order)
        while not deal.is_over:
            deal = deal.apply(deal.random_action(rng))
            tally[1] += 1
        tally[0] += 1
        return 1

    return _cpu_rate(run, seconds)


def skat_rate(seconds: float) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("skat")

    def run() -> int:
        pyspiel.random_sim_test(game, num_sims=200, serialize=False, verbose=False)
        return 200

    return _cpu_rate(run, seconds)


def skat_loop_rate(seconds: float, counts: list[int] | None = None) -> float | None:
    """C++ skat driven from a Python loop (random legal actions, random chance outcomes);
    ``counts`` gets [games, player actions] added."""
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("skat")
    rng = random.Random(2)
    tally = counts if counts is not None else [0, 0]

    def run() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                tally[1] += 1
        tally[0] += 1
        return 1

    return _cpu_rate(run, seconds)


def env_rate(seconds: float, preset: str, threads: int | None = None
             ) -> dict[str, float]:
    """VectorEnv steps a second (wall and CPU), with and without the random choice of cards."""
    from piquet.fast.env import VectorEnv

    env = VectorEnv(4096, rules=preset, format="game", opponent_policy="random",
                    threads=threads)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(0)
    mask = info["action_mask"]
    _, _, _, _, info = env.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
    steps = 0
    step_cpu = 0.0
    step_wall = 0.0
    cpu = time.process_time()
    wall = time.perf_counter()
    while time.perf_counter() - wall < seconds:
        mask = info["action_mask"]
        acts = np.argmax(rng.random(mask.shape) * mask, axis=1)
        c0 = time.process_time()
        w0 = time.perf_counter()
        _, _, _, _, info = env.step(acts)
        step_cpu += time.process_time() - c0
        step_wall += time.perf_counter() - w0
        steps += env.num_envs
    w = time.perf_counter() - wall
    c = time.process_time() - cpu
    env.close()
    return {"steps_per_wall_s": steps / w, "steps_per_cpu_s": steps / c,
            "step_only_per_wall_s": steps / step_wall, "step_only_per_cpu_s": steps / step_cpu}


TARGET_GAME = 1_000_000


def game_env_rate(seconds: float, preset: str, *, threads: int | None = None,
                  observations: bool = True, tensor: str = "information_state",
                  n: int = 4096) -> dict[str, float]:
    """GameEnv (every decision the agent's) steps a second, wall and CPU, with random legal
    ids drawn by the compiled helper (GameBoards.random_ids, counted), and env.step alone."""
    from piquet.fast.gameenv import GameEnv
    from piquet.fast.policies import new_rng

    env = GameEnv(n, rules=preset, format="game", threads=threads, observations=observations,
                  tensor=tensor, copy=False)  # type: ignore[arg-type]
    env.reset(seed=1)
    rng = new_rng(7)
    acts = np.zeros(n, dtype=np.int64)
    steps = 0
    step_cpu = step_wall = 0.0
    ended = 0
    cpu = time.process_time()
    wall = time.perf_counter()
    while time.perf_counter() - wall < seconds:
        env.boards.random_ids(rng, acts)
        c0 = time.process_time()
        w0 = time.perf_counter()
        _, _, term, trunc, _ = env.step(acts)
        step_cpu += time.process_time() - c0
        step_wall += time.perf_counter() - w0
        steps += n
        ended += int(term.sum() + trunc.sum())
    w = time.perf_counter() - wall
    c = time.process_time() - cpu
    env.close()
    return {"steps_per_wall_s": steps / w, "steps_per_cpu_s": steps / c,
            "step_only_per_wall_s": steps / step_wall, "step_only_per_cpu_s": steps / step_cpu,
            "games_ended": ended, "steps": steps}


def game_env_report(seconds: float, report: dict[str, Any]) -> None:
    """GameEnv on all cores and on one thread, with and without observations."""
    rows = {}
    for label, kw in (("obs", {"observations": True}),
                      ("small_obs", {"tensor": "observation"}),
                      ("no_obs", {"observations": False}),
                      ("obs_1thread", {"observations": True, "threads": 1}),
                      ("small_obs_1thread", {"tensor": "observation", "threads": 1}),
                      ("no_obs_1thread", {"observations": False, "threads": 1}),
                      ("obs_512games", {"n": 512}),
                      ("small_obs_512games", {"tensor": "observation", "n": 512})):
        r = game_env_rate(seconds, "rubicon", **kw)
        rows[label] = r
        x = r["steps_per_wall_s"] / TARGET_GAME
        games = kw.get("n", 4096)
        print(f"GameEnv rubicon game, {games:4d} games, {label:18s}: "
              f"{r['steps_per_wall_s']:>11,.0f} steps/s wall ({x:.2f}x"
              f" the {TARGET_GAME:,} target), {r['steps_per_cpu_s']:>11,.0f} per CPU-s; "
              f"env.step alone {r['step_only_per_wall_s']:,.0f}/s wall", flush=True)
    base = rows["obs"]["steps_per_wall_s"]
    print(f"  ratios (wall): without observations / with "
          f"{rows['no_obs']['steps_per_wall_s'] / base:.2f}; all cores / one thread "
          f"{base / rows['obs_1thread']['steps_per_wall_s']:.2f} (with observations), "
          f"{rows['no_obs']['steps_per_wall_s'] / rows['no_obs_1thread']['steps_per_wall_s']:.2f}"
          " (without)")
    report["game_env"] = rows


def openspiel_rate(preset: str, seconds: float, game: Any = None,
                   counts: list[int] | None = None) -> float | None:
    """Random games a CPU-second of ``python_piquet`` (or of ``game``, the same loop);
    ``counts`` gets [games, chance steps, player steps] added."""
    if game is None:
        try:
            from piquet.integrations import openspiel as ops
        except ImportError:
            return None
        game = ops.load(preset)
    rng = random.Random(3)
    tally = counts if counts is not None else [0, 0, 0]

    def run() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                tally[1] += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                tally[2] += 1
        tally[0] += 1
        return 1

    return _cpu_rate(run, seconds)


def _floor_game(chance: int, moves: int, deals: int = 1) -> Any:
    """A Python pyspiel game that does nothing but ``chance`` chance steps (36, 35, ...
    outcomes, as a pack drawn card by card) then ``moves`` player steps (two legal ids),
    with python_piquet's number of distinct actions: the per-call floor of the harness.
    ``deals`` > 1: a whole game's floor, that many rounds of ``chance // deals`` chance
    steps then ``moves // deals`` player steps (plus the first dealer's chance node)."""
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

    if deals > 1:
        return _floor_whole_game(chance, moves, deals)
    name = f"python_floor_{chance}_{moves}"
    game_type = pyspiel.GameType(
        short_name=name, long_name=name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=480, max_chance_outcomes=36, num_players=2,
                            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                            max_game_length=chance + moves)

    class FloorState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.n = 0

        def current_player(self) -> int:
            if self.n >= chance + moves:
                return int(pyspiel.PlayerId.TERMINAL)
            if self.n < chance:
                return int(pyspiel.PlayerId.CHANCE)
            return self.n % 2

        def _legal_actions(self, player: int) -> list[int]:
            return [0, 1]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            k = 36 - self.n
            return [(c, 1.0 / k) for c in range(k)]

        def _apply_action(self, action: int) -> None:
            self.n += 1

        def is_terminal(self) -> bool:
            return self.n >= chance + moves

        def returns(self) -> list[float]:
            return [0.0, 0.0]

    class FloorGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> Any:
            return FloorState(self)

    pyspiel.register_game(game_type, FloorGame)
    return pyspiel.load_game(name)


def _floor_whole_game(chance: int, moves: int, deals: int) -> Any:
    """:func:`_floor_game` for whole games: a first chance node of two outcomes, then
    ``deals`` rounds of a pack drawn card by card and the round's player steps."""
    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

    pack = max(1, (chance - 1) // deals)
    turn = max(1, moves // deals)
    length = 1 + deals * (pack + turn)
    name = f"python_floor_game_{pack}_{turn}_{deals}"
    game_type = pyspiel.GameType(
        short_name=name, long_name=name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=480, max_chance_outcomes=36, num_players=2,
                            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                            max_game_length=length)

    class FloorState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.n = 0

        def current_player(self) -> int:
            n = self.n
            if n >= length:
                return int(pyspiel.PlayerId.TERMINAL)
            if n == 0 or (n - 1) % (pack + turn) < pack:
                return int(pyspiel.PlayerId.CHANCE)
            return n % 2

        def _legal_actions(self, player: int) -> list[int]:
            return [0, 1]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            if self.n == 0:
                return [(0, 0.5), (1, 0.5)]
            k = 36 - (self.n - 1) % (pack + turn)
            return [(c, 1.0 / k) for c in range(k)]

        def _apply_action(self, action: int) -> None:
            self.n += 1

        def is_terminal(self) -> bool:
            return self.n >= length

        def returns(self) -> list[float]:
            return [0.0, 0.0]

    class FloorGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> Any:
            return FloorState(self)

    pyspiel.register_game(game_type, FloorGame)
    return pyspiel.load_game(name)


def openspiel_game_report(s: float, report: dict[str, Any]) -> None:
    """python_piquet's single deals, whole games and parties (rubicon) on the compiled
    board (``board=True``) and through the engine (``board=False``), against a Python
    pyspiel game that does nothing but the same chance and player steps an episode, same
    loop."""
    from piquet.integrations import openspiel as ops_mod

    rows = {}
    for fmt in ("deal", "game", "partie"):
        counts = [0, 0, 0]
        on_board = openspiel_rate("rubicon", s, counts=counts,
                                  game=ops_mod.load("rubicon", format=fmt, board=True))
        engine = openspiel_rate("rubicon", s,
                                game=ops_mod.load("rubicon", format=fmt, board=False))
        assert on_board is not None and engine is not None
        games = max(counts[0], 1)
        chance, moves = round(counts[1] / games), round(counts[2] / games)
        deals = max(1, round((chance - 1) / 32))
        floor = openspiel_rate("rubicon", s, game=_floor_game(chance, moves, deals))
        assert floor is not None
        rows[fmt] = {"games_per_cpu_s": on_board, "engine_games_per_cpu_s": engine,
                     "floor_games_per_cpu_s": floor, "steps_per_game": [chance, moves]}
        print(f"python_piquet (rubicon, {fmt}s, board=True): {on_board:,.1f} "
              f"games/CPU-s = {on_board / floor:.3f} of the floor (target 0.5: "
              f"{'met' if on_board >= 0.5 * floor else 'NOT met'}); the same through the "
              f"engine (board=False) {engine:,.1f} = {engine / floor:.3f}; floor (a Python "
              f"pyspiel game doing nothing, {chance} chance + {moves} player steps a {fmt}, "
              f"same loop) {floor:,.1f} games/CPU-s", flush=True)
    report["python_piquet_board"] = rows


def pettingzoo_rate(preset: str, seconds: float, e: Any = None,
                    counts: list[int] | None = None) -> float | None:
    """Steps a CPU-second of the PettingZoo env (or of ``e``, the same loop); ``counts``
    gets [games, steps] added."""
    if e is None:
        try:
            from piquet.integrations.pettingzoo import env as make_env
        except ImportError:
            return None
        e = make_env(rules=preset)
    rng = np.random.default_rng(4)
    games = [0]
    tally = counts if counts is not None else [0, 0]

    def run() -> int:
        steps = 0
        e.reset(seed=games[0])
        games[0] += 1
        tally[0] += 1
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        tally[1] += steps
        return steps

    return _cpu_rate(run, seconds)


def _pettingzoo_worker(job: tuple[str, float, bool]) -> tuple[int, float, float]:
    """One process of :func:`pettingzoo_processes`: (steps, wall seconds, CPU seconds) of
    the random loop on a fresh env, after a short warm-up."""
    preset, seconds, wrapped = job
    from piquet.integrations.pettingzoo import env as make_env
    from piquet.integrations.pettingzoo import raw_env

    e = (make_env if wrapped else raw_env)(rules=preset)
    pettingzoo_rate(preset, 0.3, e=e)
    counts = [0, 0]
    wall, cpu = time.perf_counter(), time.process_time()
    pettingzoo_rate(preset, seconds, e=e, counts=counts)
    return counts[1], time.perf_counter() - wall, time.process_time() - cpu


def pettingzoo_processes(preset: str, seconds: float, *, wrapped: bool,
                         processes: int = 2) -> dict[str, Any]:
    """``processes`` processes each running the random loop for ``seconds``: their steps
    per wall second added up (each its steps over its own wall time; they run together),
    and the load before and after."""
    import multiprocessing

    load = os.getloadavg()[0]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        runs = pool.map(_pettingzoo_worker, [(preset, seconds, wrapped)] * processes)
    return {"processes": processes, "steps_per_wall_s": sum(n / w for n, w, _ in runs),
            "steps_per_cpu_s": sum(n for n, _, _ in runs) / sum(c for _, _, c in runs),
            "load_before": load, "load_after": os.getloadavg()[0]}


def _floor_env(moves: int, *, wrapped: bool = True) -> Any:
    """A PettingZoo AEC env that does nothing but ``moves`` steps a game, with the
    adapter's observation and mask sizes and (``wrapped``) its wrappers: the per-call
    floor."""
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from piquet.integrations.actions import NUM_ACTIONS
    from piquet.integrations.observation import INFO_SIZE

    agents = ["player_0", "player_1"]

    class FloorEnv(AECEnv):  # type: ignore[misc]
        metadata: dict[str, Any] = {"render_modes": [], "name": "floor_v0"}  # noqa: RUF012

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = list(agents)
            space = spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (INFO_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})
            self.observation_spaces = dict.fromkeys(agents, space)
            self.action_spaces = dict.fromkeys(agents, spaces.Discrete(NUM_ACTIONS))
            self.n = 0

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: Any = None) -> None:
            self.agents = list(agents)
            self.rewards = dict.fromkeys(agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(agents, 0.0)
            self.terminations = dict.fromkeys(agents, False)
            self.truncations = dict.fromkeys(agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
            self.agent_selection = agents[0]
            self.n = 0

        def observe(self, agent: str) -> dict[str, Any]:
            mask = np.zeros(NUM_ACTIONS, np.int8)
            mask[:2] = 1
            return {"observation": np.zeros(INFO_SIZE, np.float32), "action_mask": mask}

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.n += 1
            self.rewards = dict.fromkeys(agents, 0.0)
            if self.n >= moves:
                self.terminations = dict.fromkeys(agents, True)
            else:
                self.agent_selection = agents[self.n % 2]
            self._accumulate_rewards()

    e: Any = FloorEnv()
    if not wrapped:
        return e
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def diff_run(n: int, presets: list[str]) -> dict[str, dict[str, int]]:
    out = {}
    for name in presets:
        rules = PRESETS[name]
        row = {}
        for label, check, count in (("kernel", differ, n), ("resumed", differ_resumed, n // 10)):
            rng = random.Random(f"bench-diff:{name}")
            bad = 0
            start = time.perf_counter()
            for i in range(count):
                deck, start_scores, target = random_case(rules, rng)
                policy = "random" if i % 2 == 0 else "book"
                msg = check(rules, deck, start=start_scores, target=target,
                            policy=policy, seed=i)  # type: ignore[arg-type]
                if msg is not None:
                    bad += 1
                    if bad <= 3:
                        print(f"  {name} {label} deal {i}: {msg}")
            row[label] = bad
            print(f"{name:22s} {label:8s} {count:>9,} deals  {bad} differ  "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
        out[name] = row
    return out


def game_diff_run(n: int, presets: list[str]) -> dict[str, dict[str, int]]:
    """N random games of each preset and format on the compiled board (GameEnv's) against
    the engine, compared at every step (piquet.integrations.check.differ_game); games of at
    most 4 deals (a partie: all its deals; format deal: a single deal)."""
    from piquet.core.rules import Format
    from piquet.integrations.check import differ_game

    out = {}
    for name in presets:
        rules = PRESETS[name]
        row = {}
        for fmt in ("deal", "game", "partie"):
            if fmt != "deal" and Format(fmt) not in rules.formats:
                continue
            bad = 0
            steps = [0]
            start = time.perf_counter()
            for seed in range(n):
                msg = differ_game(rules, fmt, seed, max_deals={"game": 4, "deal": 1}.get(fmt, 50),
                                  counts=steps)
                if msg is not None:
                    bad += 1
                    if bad <= 3:
                        print(f"  {name} {fmt} game {seed}: {msg}")
            row[fmt] = bad
            row[f"{fmt}_steps"] = steps[0]
            print(f"{name:22s} {fmt:7s} {n:>6,} games  {bad} differ  ({steps[0]:,} steps; "
                  f"{time.perf_counter() - start:.0f} s)", flush=True)
        out[name] = row
    return out


def adapters_diff_run(n: int, presets: list[str]) -> dict[str, dict[str, int]]:
    from piquet.core.rules import Format
    from piquet.integrations.actions import EpisodeFormat
    from piquet.integrations.check import differ_episode

    out = {}
    for name in presets:
        rules = PRESETS[name]
        row = {}
        for fmt in EpisodeFormat:
            if fmt is EpisodeFormat.PARTIE and Format.PARTIE not in rules.formats:
                continue
            bad = 0
            start = time.perf_counter()
            steps = [0, 0]
            for seed in range(n):
                msg = differ_episode(rules, fmt, seed, counts=steps)
                if msg is not None:
                    bad += 1
                    if bad <= 3:
                        print(f"  {name} {fmt.value} episode {seed}: {msg}")
            row[fmt.value] = bad
            row[f"{fmt.value}_steps"] = steps[0]
            row[f"{fmt.value}_board_steps"] = steps[1]
            print(f"{name:22s} {fmt.value:7s} {n:>7,} episodes  {bad} differ  "
                  f"({steps[0]:,} steps, {steps[1]:,} on the kernel's board; "
                  f"{time.perf_counter() - start:.0f} s)", flush=True)
        out[name] = row
    return out


def adapters(s: float, report: dict[str, Any], eng: float | None, skat: float | None,
             ratios: Any) -> None:
    """python_piquet and PettingZoo (wrapped and raw) on the engine's episode
    (``board=False``), each with the cards on the kernel's board and through the engine
    alone (``kernel=False``), against its floor (the compiled board from the first
    decision, the default after 0.2.0, is measured by the rows "on the
    board")."""
    try:
        from piquet.integrations import openspiel as ops_mod
        from piquet.integrations.pettingzoo import env as make_env
        from piquet.integrations.pettingzoo import raw_env
    except ImportError as exc:
        print(f"python_piquet / PettingZoo: n/a ({exc})")
        return

    counts = [0, 0, 0]
    ops = openspiel_rate("rubicon", s, game=ops_mod.load("rubicon", board=False),
                         counts=counts)
    ops_engine = openspiel_rate("rubicon", s, game=ops_mod.load("rubicon", kernel=False))
    report["python_piquet_games_per_cpu_s"] = ops
    report["python_piquet_engine_path_games_per_cpu_s"] = ops_engine
    if ops is not None and ops_engine is not None:
        chance = round(counts[1] / counts[0])
        moves = round(counts[2] / counts[0])
        floor = openspiel_rate("rubicon", s, game=_floor_game(chance, moves))
        report["openspiel_floor_games_per_cpu_s"] = floor
        report["openspiel_steps_per_game"] = [chance, moves]
        assert floor is not None
        vs_skat = f"; x skat {ops / skat:.3f}" if skat else ""
        vs_eng = f"; x engine {ops / eng:.2f}" if eng else ""
        print(f"python_piquet board=False (rubicon): {ops:,.0f} games/CPU-s; target "
              f"{TARGET_OPENSPIEL:,}: "
              f"{'met' if ops >= TARGET_OPENSPIEL else 'NOT met'}{vs_eng}{vs_skat}")
        print(f"  engine path (kernel=False): {ops_engine:,.0f} games/CPU-s; the kernel's board "
              f"= {ops / ops_engine:.3f} of the engine path")
        print(f"  floor (a Python pyspiel game doing nothing, {chance} chance + {moves} player "
              f"steps a game, same loop): {floor:,.0f} games/CPU-s; python_piquet = "
              f"{ops / floor:.3f} of the floor (engine path {ops_engine / floor:.3f}); the "
              f"target is {TARGET_OPENSPIEL / floor:.2f}x the floor")
        openspiel_game_report(s, report)
    rows = {}
    for label, maker, wrapped in (("PettingZoo", make_env, True),
                                  ("PettingZoo raw_env", raw_env, False)):
        pz_counts = [0, 0]
        pz = pettingzoo_rate("rubicon", s, e=maker(rules="rubicon", board=False),
                             counts=pz_counts)
        pz_engine = pettingzoo_rate("rubicon", s, e=maker(rules="rubicon", kernel=False))
        assert pz is not None and pz_engine is not None
        moves = round(pz_counts[1] / pz_counts[0])
        floor = pettingzoo_rate("rubicon", s, e=_floor_env(moves, wrapped=wrapped))
        assert floor is not None
        rows[label] = {"steps_per_cpu_s": pz, "engine_path_steps_per_cpu_s": pz_engine,
                       "floor_steps_per_cpu_s": floor}
        more = f"; {ratios(pz)}" if ratios is not None and ratios(pz) else ""
        print(f"{label} board=False (rubicon): {pz:,.0f} steps/CPU-s; target "
              f"{TARGET_PETTINGZOO:,}: "
              f"{'met' if pz >= TARGET_PETTINGZOO else 'NOT met'}{more}")
        print(f"  engine path (kernel=False): {pz_engine:,.0f} steps/CPU-s; the kernel's board "
              f"= {pz / pz_engine:.3f} of the engine path")
        print(f"  floor (an AEC env doing nothing, {moves} steps a game, same sizes, "
              f"{'wrappers' if wrapped else 'no wrappers'} and loop): {floor:,.0f} "
              f"steps/CPU-s; {label} = {pz / floor:.3f} of the floor (engine path "
              f"{pz_engine / floor:.3f}); the target is {TARGET_PETTINGZOO / floor:.2f}x the "
              f"floor", flush=True)
    for label, maker, wrapped in (("PettingZoo game on the board", make_env, True),
                                  ("PettingZoo raw_env game on the board", raw_env, False)):
        counts = [0, 0]
        on_board = pettingzoo_rate("rubicon", s, counts=counts,
                                   e=maker(rules="rubicon", format="game", board=True))
        engine_game = pettingzoo_rate("rubicon", s,
                                      e=maker(rules="rubicon", format="game", board=False))
        assert on_board is not None and engine_game is not None
        moves = round(counts[1] / counts[0])
        floor = pettingzoo_rate("rubicon", s, e=_floor_env(moves, wrapped=wrapped))
        assert floor is not None
        rows[label] = {"steps_per_cpu_s": on_board, "engine_steps_per_cpu_s": engine_game,
                       "floor_steps_per_cpu_s": floor}
        print(f"{label} (rubicon, whole games, board=True): {on_board:,.0f} steps/CPU-s "
              f"= {on_board / floor:.3f} of the floor (target 0.5: "
              f"{'met' if on_board >= 0.5 * floor else 'NOT met'}); the same games through "
              f"the engine (board=False) {engine_game:,.0f} = {engine_game / floor:.3f}; floor "
              f"(an AEC env doing nothing, {moves} steps a game, same sizes, "
              f"{'wrappers' if wrapped else 'no wrappers'} and loop) {floor:,.0f} steps/CPU-s",
              flush=True)
    cores = os.cpu_count() or 1
    for label, wrapped in (("PettingZoo", True), ("PettingZoo raw_env", False)):
        two = pettingzoo_processes("rubicon", s, wrapped=wrapped, processes=2)
        rows[label]["two_processes"] = two
        wall = two["steps_per_wall_s"]
        print(f"{label} (rubicon), two processes on {cores} cores: {wall:,.0f} steps/s wall "
              f"in all ({two['steps_per_cpu_s']:,.0f} per CPU-s; one process "
              f"{rows[label]['steps_per_cpu_s']:,.0f} per CPU-s); target "
              f"{TARGET_PETTINGZOO:,}/s: {'met' if wall >= TARGET_PETTINGZOO else 'NOT met'} "
              f"(load {two['load_before']:.2f} before, {two['load_after']:.2f} after)",
              flush=True)
    report["pettingzoo_steps_per_cpu_s"] = rows["PettingZoo"]["steps_per_cpu_s"]
    report["pettingzoo_floor_steps_per_cpu_s"] = rows["PettingZoo"]["floor_steps_per_cpu_s"]
    report["pettingzoo"] = rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--presets", nargs="*", default=list(PRESETS))
    ap.add_argument("--diff", type=int, default=0, metavar="N",
                    help="run the differential check over N deals per preset instead")
    ap.add_argument("--adapters-diff", type=int, default=0, metavar="N",
                    help="check the adapters' answers over N episodes of each format instead")
    ap.add_argument("--game-diff", type=int, default=0, metavar="N",
                    help="check the whole game on the compiled board against the engine over "
                         "N random games of each preset and format instead")
    ap.add_argument("--game-only", action="store_true",
                    help="measure only GameEnv (the whole game, every decision the agent's)")
    ap.add_argument("--adapters-only", action="store_true",
                    help="measure only python_piquet and PettingZoo (and their floors)")
    args = ap.parse_args(argv)
    load = os.getloadavg()
    report: dict[str, Any] = {"load_before": load, "cpus": os.cpu_count()}
    if args.game_diff:
        report["game_diff"] = game_diff_run(args.game_diff, args.presets)
        report["game_diff_games_per_format"] = args.game_diff
        print(json.dumps(report))
        return 1 if any(v for row in report["game_diff"].values()
                        for k, v in row.items() if not k.endswith("steps")) else 0
    if args.game_only:
        print(f"load average before: {load[0]:.2f} on {os.cpu_count()} cores")
        game_env_report(args.seconds, report)
        report["load_after"] = os.getloadavg()
        print(f"load average after: {report['load_after'][0]:.2f}")
        print(json.dumps(report))
        return 0
    if args.adapters_only:
        print(f"load average before: {load[0]:.2f} on {os.cpu_count()} cores; per CPU-second")
        adapters(args.seconds, report, None, None, None)
        report["load_after"] = os.getloadavg()
        print(f"load average after: {report['load_after'][0]:.2f}")
        print(json.dumps(report))
        return 0
    if args.diff or args.adapters_diff:
        if args.diff:
            report["diff"] = diff_run(args.diff, args.presets)
            report["diff_deals_per_preset"] = args.diff
        if args.adapters_diff:
            report["adapters_diff"] = adapters_diff_run(args.adapters_diff, args.presets)
            report["adapters_episodes_per_format"] = args.adapters_diff
        print(json.dumps(report))
        failed = [v for part in ("diff", "adapters_diff") for row in report.get(part, {}).values()
                  for k, v in row.items() if v and not k.endswith("steps")]
        return 1 if failed else 0
    s = args.seconds
    sim = skat_rate(s)
    skat_counts = [0, 0]
    loop = skat_loop_rate(s, skat_counts)
    # C++ skat's player actions a CPU-second (Python loop): the per-step yardstick
    skat_steps = loop * skat_counts[1] / skat_counts[0] if loop else None
    report["skat_python_loop_actions_per_cpu_s"] = skat_steps
    report["skat_random_sim_test_games_per_cpu_s"] = sim
    report["skat_python_loop_games_per_cpu_s"] = loop
    # the ratio is taken against the faster of the two ways of running C++ skat
    skat = max((r for r in (sim, loop) if r is not None), default=None)
    print(f"load average before: {load[0]:.2f} on {os.cpu_count()} cores; per CPU-second")
    print(f"OpenSpiel C++ skat: random_sim_test {'n/a' if sim is None else f'{sim:,.0f}'}, "
          f"Python loop {'n/a' if loop is None else f'{loop:,.0f}'} games/CPU-s "
          f"(x skat below: against the faster)")
    print()
    head = (f"{'preset':22s} {'kernel':>10s} {'book':>10s} {'engine':>8s} "
            f"{'x engine':>9s} {'x skat':>7s} {'>=100k':>7s}")
    print(head)
    rows = {}
    for name in args.presets:
        rules = PRESETS[name]
        k = kernel_rate(rules, s, "random")
        b = kernel_rate(rules, s, "book")
        eng_counts = [0, 0]
        e = engine_rate(rules, s, eng_counts)
        rows[name] = {"kernel": k, "book": b, "engine": e,
                      "engine_actions": e * eng_counts[1] / eng_counts[0]}
        vs_skat = f"{k / skat:7.2f}" if skat else "    n/a"
        print(f"{name:22s} {k:10,.0f} {b:10,.0f} {e:8,.0f} {k / e:9.1f} {vs_skat} "
              f"{'yes' if k >= TARGET_DEALS else 'NO':>7s}", flush=True)
    report["deals"] = rows
    print()
    env = env_rate(s * 2, "rubicon")
    one = env_rate(s, "rubicon", threads=1)
    env["one_thread_step_only_per_cpu_s"] = one["step_only_per_cpu_s"]
    report["vector_env"] = env
    wall = env["steps_per_wall_s"]
    print(f"VectorEnv (rubicon, 4096 games, random legal cards): {wall:,.0f} steps/s wall on "
          f"{os.cpu_count()} cores, {env['steps_per_cpu_s']:,.0f} per CPU-s; env.step alone "
          f"{env['step_only_per_wall_s']:,.0f}/s wall, {env['step_only_per_cpu_s']:,.0f} per "
          f"CPU-s ({one['step_only_per_cpu_s']:,.0f} per CPU-s on one thread); target "
          f"{TARGET_ENV:,}/s: {'met' if wall >= TARGET_ENV else 'NOT met'} (wall, with the "
          f"choice of cards); per CPU-s {env['steps_per_cpu_s'] / TARGET_ENV:.2f}x the target")
    eng = rows.get("rubicon", {}).get("engine")
    eng_steps = rows.get("rubicon", {}).get("engine_actions")

    def ratios(per_step: float) -> str:
        """A per-step rate against the engine's and C++ skat's actions a CPU-second."""
        parts = []
        if eng_steps:
            parts.append(f"x engine actions {per_step / eng_steps:.2f}")
        if skat_steps:
            parts.append(f"x C++ skat actions {per_step / skat_steps:.2f}")
        return "; ".join(parts)

    if eng_steps or skat_steps:
        print(f"  per CPU-s: {ratios(env['steps_per_cpu_s'])} (engine "
              f"{eng_steps or 0:,.0f} actions/CPU-s, rubicon; C++ skat "
              f"{skat_steps or 0:,.0f} player actions/CPU-s, Python loop)")
    game_env_report(s, report)
    adapters(s, report, eng, skat, ratios)
    report["load_after"] = os.getloadavg()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
