"""Piquet as a PettingZoo AEC environment.

::

    import numpy as np
    from piquet.integrations.pettingzoo import piquet_v2

    rng = np.random.default_rng(0)
    e = piquet_v2.env(rules="rubicon")
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        legal = np.flatnonzero(obs["action_mask"])
        action = None if terminated or truncated else int(rng.choice(legal))
        e.step(action)

Agents ``player_0`` and ``player_1``; actions ``Discrete(NUM_ACTIONS)`` with the
fixed ids of :mod:`piquet.integrations.actions`; each observation is
``{"observation": information-state tensor, "action_mask": int8 mask}``, both
from the agent's own view (:mod:`piquet.integrations.observation`).  The pack
is shuffled from the seed given to ``reset``.  ``format="deal"`` (default)
plays one deal and rewards the point difference; ``format="game"`` plays to
the target and rewards +1 / -1 (a game still undecided after ``max_deals`` deals is
cut off there: ``truncated``, not ``terminated``, reward 0); ``format="partie"`` plays
the Rubicon partie (rule sets that play one) and rewards the settlement's points.
``render_mode`` ``"ansi"`` returns the mover's information-state string, ``"human"``
prints it.

The game is played on the compiled board from its first decision (``board=True``, the
default after 0.2.0: :class:`BoardPiquetEnv`, the same episodes for the same seed, some six
times as fast); ``board=False`` (or ``kernel=False``, the engine alone) plays the engine's
episode (:class:`PiquetEnv`).

The name carries the environment's version (:mod:`piquet.integrations.versions`), which
changes when a rule reading or the observations do: ``piquet_v2`` (``env(version=2)``, the
default) plays this release's readings and observations; ``piquet_v1`` and ``piquet_v0``
still load, with a warning that what they played is no longer played (version 1's
observations named the suit of a sequence never shown; version 0's reading of a partly
declared run).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped,import-not-found,unused-ignore]

from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.rules import DEFAULT_PRESET, get_rules
from piquet.integrations.actions import CHANCE, NUM_ACTIONS, TERMINAL, Episode, EpisodeFormat
from piquet.integrations.observation import (
    INFO_SIZE,
    episode_information_state_tensor,
    information_state_string,
    knowledge,
)
from piquet.integrations.versions import ENV_VERSION, check_version, env_name, versioned_rules

__all__ = ["PiquetEnv", "VersionedEnv", "env", "piquet_v0", "piquet_v1", "piquet_v2", "raw_env"]

AGENTS = ("player_0", "player_1")


class _PiquetAEC(AECEnv):  # type: ignore[misc]
    """What both raw environments share: the metadata naming the version, the rule set
    read at that version, the render mode, the agents and their spaces, the running
    generator of the chance draws, the bookkeeping of an episode, and the render."""

    # (each instance's own copy names its version: PettingZoo's wrappers read it)
    metadata: dict[str, Any] = {  # noqa: RUF012 (an instance replaces it, below)
        "render_modes": ["ansi", "human"],
        "name": env_name(ENV_VERSION),
        "is_parallelizable": False,
    }

    def _versioned(self, rules: str, version: int) -> None:
        """The version (checked) and the rule set as that version plays it."""
        super().__init__()
        self.version = check_version(version)
        self.rules = versioned_rules(get_rules(rules), self.version)
        self.metadata = {**type(self).metadata, "name": env_name(self.version)}

    def _seated(self, render_mode: str | None, max_deals: int) -> None:
        """The render mode (checked), the agents, their spaces and the running generator."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise PiquetError(f"render_mode {render_mode!r}: use None, 'ansi' or 'human'")
        self.render_mode = render_mode
        self.max_deals = max_deals
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (INFO_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.action_spaces = dict.fromkeys(AGENTS, self._action_space)
        self.observation_spaces = dict.fromkeys(AGENTS, self._observation_space)
        self._rng = random.Random(random.SystemRandom().randrange(2**63))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _reset_bookkeeping(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}

    def _episode_now(self) -> Episode:
        raise NotImplementedError  # pragma: no cover - each environment says

    def _checked_id(self, action: Any) -> int | None:
        """The id ``action`` of the selected agent, checked (its cumulative reward then
        zeroed); None where the agent is done (the dead step taken).  Raises
        :class:`IllegalActionError` for no action or one that is not a whole number."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        if action is None:
            raise IllegalActionError(f"{agent} must act: give one of its legal ids")
        if isinstance(action, np.ndarray) and action.ndim == 0:
            action = action.item()  # a 0-d array, as a vectorized caller hands one over
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
            # 3.7 was read as id 3 and "7" as id 7
            raise IllegalActionError(
                f"{agent}: an action is a whole-number id (0 to {NUM_ACTIONS - 1}), "
                f"not {action!r:.20}"
            )
        self._cumulative_rewards[agent] = 0.0
        return int(action)

    def step(self, action: int | None) -> None:
        """Play ``action`` (an id) for the selected agent (the dead step of an agent that is
        done); then the next agent is selected and the rewards added up.

        Raises :class:`IllegalActionError` for an id that is not legal now.
        """
        player = AGENTS.index(self.agent_selection)
        action_id = self._checked_id(action)
        if action_id is None:
            return
        self._play(action_id)  # refuses an id not legal, naming the legal ones
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._next(player, self._moved_on())

    def _play(self, action_id: int) -> None:
        raise NotImplementedError  # pragma: no cover - each environment plays its own way

    def _moved_on(self) -> int:
        """After :meth:`_play`: the bookkeeping of a deal or an episode ended (the returns
        by :meth:`_ended`); the player to move now, or :data:`TERMINAL`."""
        raise NotImplementedError  # pragma: no cover - each environment says

    def _ended(self, rewards: dict[str, float], cut_off: bool, info: dict[str, Any]) -> None:
        """The episode is over: the returns, how it ended, what each agent is told."""
        self.rewards = rewards
        # a game cut off at max_deals is a time limit, not an end: truncated, so that a
        # learner bootstraps from the last observation instead of taking 0 as final
        if cut_off:
            self.truncations = dict.fromkeys(AGENTS, True)
        else:
            self.terminations = dict.fromkeys(AGENTS, True)
        self.infos = {a: dict(info) for a in AGENTS}

    def _next(self, player: int, mover: int) -> None:
        """Select who moves next (``player`` again once it is over) and add up the rewards."""
        self.agent_selection = AGENTS[player if mover == TERMINAL else mover]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``ansi``: the mover's information-state string; ``human``: the same, printed."""
        if self.render_mode is None:
            return None
        ep = self._episode_now()
        mover = ep.to_move
        player = mover if mover >= 0 else 0
        text = information_state_string(knowledge(ep, player))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def record(self) -> dict[str, Any]:
        """The game so far as a record through the table's log
        (:meth:`piquet.integrations.actions.Episode.record`: the rule set, every action of
        the rules by player, the packs drawn); ``Episode.from_record`` replays it."""
        return self._episode_now().record()


class PiquetEnv(_PiquetAEC):
    """The raw AEC environment (use :func:`env` for the usual wrappers).

    Raises :class:`~piquet.core.errors.RulesError` for an unknown rule set and
    :class:`~piquet.core.errors.PiquetError` for a bad format, ``max_deals`` or ``version``
    (and warns with :class:`~piquet.integrations.versions.OldReadingWarning` for a version
    whose readings are no longer played).
    """

    def __init__(
        self,
        *,
        rules: str = DEFAULT_PRESET,
        format: str = "deal",
        max_deals: int = 50,
        render_mode: str | None = None,
        kernel: bool = True,
        version: int = ENV_VERSION,
    ) -> None:
        self._versioned(rules, version)
        try:
            self.format = EpisodeFormat(format)
        except ValueError:
            raise PiquetError(
                f"format {format!r} is not known; use one of: "
                + ", ".join(f.value for f in EpisodeFormat)
            ) from None
        self._seated(render_mode, max_deals)
        self.kernel = kernel
        self.episode = Episode.start(self.rules, format=self.format, max_deals=max_deals,
                                     kernel=kernel)
        self._reset_bookkeeping()

    def _episode_now(self) -> Episode:
        return self.episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode; the pack's shuffle comes from ``seed`` (or the running seed)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.episode = self._to_player(
            Episode.start(self.rules, format=self.format, max_deals=self.max_deals,
                          kernel=self.kernel)
        )
        self._reset_bookkeeping()
        self.agent_selection = AGENTS[self.episode.to_move]

    def _to_player(self, ep: Episode) -> Episode:
        """Draw chance outcomes until a player is to move or the episode is over."""
        while ep.to_move == CHANCE:
            if ep.dealer is not None:  # a pack: drawn at once, the same draws
                ep = ep.draw_rest(self._rng)
                continue
            outcomes = ep.chance_outcomes()
            ep = ep.apply(outcomes[self._rng.randrange(len(outcomes))][0])
        return ep

    def observe(self, agent: str) -> dict[str, Any]:
        player = AGENTS.index(agent)
        ep = self.episode
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if ep.to_move == player:
            mask[ep.legal_ids()] = 1
        return {"observation": episode_information_state_tensor(ep, player), "action_mask": mask}

    def _play(self, action_id: int) -> None:
        self.episode = self._to_player(self.episode.apply(action_id))

    def _moved_on(self) -> int:
        ep = self.episode
        if ep.to_move == TERMINAL:
            returns = ep.returns()
            self._ended({a: float(returns[i]) for i, a in enumerate(AGENTS)}, ep.cut_off,
                        {"deals": ep.deals, "winner": ep.winner, "cut_off": ep.cut_off})
        return ep.to_move



class BoardPiquetEnv(_PiquetAEC):
    """The raw AEC environment of a deal, whole game or partie on the compiled board
    (:class:`piquet.fast.game.GameBoards`) from its first decision: the same agents, spaces,
    ids, observations and masks as :class:`PiquetEnv` (``tests/test_fast_game.py`` checks
    them equal step by step), the chance draws (the first dealer, each pack) made as
    :class:`PiquetEnv` makes them, so a seed deals the same packs, and the engine's episode
    worked out only to render (replayed from the packs and ids).

    ``format="deal"``: a single deal on the board, player 1 dealing, its return the point
    difference, as :class:`PiquetEnv`'s.

    Raises :class:`~piquet.core.errors.PiquetError` for a format not known, or a bad
    ``max_deals``.
    """

    def __init__(
        self,
        *,
        rules: str = DEFAULT_PRESET,
        format: str = "game",
        max_deals: int = 50,
        render_mode: str | None = None,
        version: int = ENV_VERSION,
    ) -> None:
        from piquet.fast.game import GameBoards

        self._versioned(rules, version)
        if format not in ("game", "partie", "deal"):
            raise PiquetError(f"format {format!r} is not known; use one of: deal, game, "
                              "partie")
        self._seated(render_mode, max_deals)
        self.format = EpisodeFormat(format)
        self.boards = GameBoards(1, rules=self.rules, format=format,  # type: ignore[arg-type]
                                 max_deals=max_deals)
        self._pack_cards = Episode.start(self.rules, format=self.format,
                                         max_deals=max_deals).pack_cards
        self._to_move_at = self.boards.offset("to_move")
        self._ndeals_at = self.boards.offset("ndeals")
        self._reset_bookkeeping()
        self._started = False

    def _reset_bookkeeping(self) -> None:
        super()._reset_bookkeeping()
        self.deals: list[tuple[int, int]] = []
        self._dealer = 0
        self._packs: list[tuple[int, ...]] = []
        self._ids: list[list[int]] = []
        self._deals_before = 0
        """The deals ended before the step being taken (:meth:`_play`)."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; its packs come from ``seed`` (or the running seed)."""
        if seed is not None:
            self._rng = random.Random(seed)
        b = self.boards
        b.reset(0)
        self._reset_bookkeeping()
        # the first dealer and the pack drawn as PiquetEnv draws them (the same calls on
        # the same generator), so a seed deals the same packs with board=True or False
        dealer = None if self.format is EpisodeFormat.DEAL else self._rng.randrange(2)
        b.deal_pack(0, self._draw_pack(), dealer=dealer)
        self._dealer = int(b.field("dealer")[0])
        self._packs.append(b.deck(0))
        self._ids.append([])
        self._started = True
        self.agent_selection = AGENTS[int(self.boards.to_move[0])]

    def observe(self, agent: str) -> dict[str, Any]:
        player = AGENTS.index(agent)
        b = self.boards
        obs = b.observe_one(0, player)
        if b.rows[0, self._to_move_at] == player:
            mask = b.legal_row(0).view(np.int8)
        else:
            mask = np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": obs, "action_mask": mask}

    def _play(self, action_id: int) -> None:
        b = self.boards
        self._deals_before = int(b.rows[0, self._ndeals_at])
        b.step_one(0, action_id)  # refuses an id not legal, naming the legal ones
        self._ids[-1].append(action_id)

    def _moved_on(self) -> int:
        b = self.boards
        before = self._deals_before
        if int(b.rows[0, self._ndeals_at]) != before:
            pts = b.field("deal_pts", 2)[0]
            self.deals.append((int(pts[0]), int(pts[1])))
            if not b.field("over")[0]:
                if int(b.rows[0, self._ndeals_at]) == before + 1:
                    b.deal_pack(0, self._draw_pack())  # the next deal not yet begun
                self._packs.append(b.deck(0))
                self._ids.append([])
        mover = int(b.rows[0, self._to_move_at])
        if mover == TERMINAL:
            winner = int(b.field("winner")[0])
            won = 0.0 if winner < 0 else (
                float(b.field("settled")[0]) if self.format is EpisodeFormat.PARTIE else 1.0)
            r0 = won if winner == 0 else -won
            if self.format is EpisodeFormat.DEAL:  # the point difference
                r0 = float(self.deals[-1][0] - self.deals[-1][1])
            cut_off = bool(b.field("truncated")[0])
            self._ended({"player_0": r0, "player_1": -r0}, cut_off,
                        {"deals": tuple(self.deals), "winner": None if winner < 0 else winner,
                         "cut_off": cut_off})
        return mover

    def _draw_pack(self) -> list[int]:
        """A pack, top first, drawn as :meth:`Episode.draw_rest` draws one (one
        ``randrange`` over the cards left, a card)."""
        left = list(self._pack_cards)
        return [left.pop(self._rng.randrange(len(left))) for _ in range(len(left))]

    @property
    def episode(self) -> Episode:
        """The engine's episode at the same point, replayed from the packs and ids (worked
        out when asked: for rendering and checking)."""
        ep = Episode.start(self.rules, format=self.format, max_deals=self.max_deals)
        if self.format is not EpisodeFormat.DEAL:  # (a deal's dealer is player 1, no chance)
            ep = ep.apply(self._dealer)
        for pack, ids in zip(self._packs, self._ids, strict=True):
            for card in pack:
                ep = ep.apply(card)
            for i in ids:
                ep = ep.apply(i)
        return ep

    def _episode_now(self) -> Episode:
        return self.episode


def raw_env(
    *,
    rules: str = DEFAULT_PRESET,
    format: str = "deal",
    max_deals: int = 50,
    render_mode: str | None = None,
    kernel: bool = True,
    version: int = ENV_VERSION,
    board: bool | None = None,
) -> PiquetEnv | BoardPiquetEnv:
    """The unwrapped environment (``kernel``: play the cards on the compiled kernel's board;
    False: every step through the engine; ``version``: see
    :mod:`piquet.integrations.versions`; ``board``: the deal, game or partie on the compiled
    board from its first decision, :class:`BoardPiquetEnv`, the same episodes for the same
    seed as :class:`PiquetEnv` and some six times as fast; None, the default: the board
    unless ``kernel`` is False)."""
    if board is None:
        board = kernel
    if board:
        return BoardPiquetEnv(rules=rules, format=format, max_deals=max_deals,
                              render_mode=render_mode, version=version)
    return PiquetEnv(rules=rules, format=format, max_deals=max_deals, render_mode=render_mode,
                     kernel=kernel, version=version)


def env(
    *,
    rules: str = DEFAULT_PRESET,
    format: str = "deal",
    max_deals: int = 50,
    render_mode: str | None = None,
    kernel: bool = True,
    version: int = ENV_VERSION,
    board: bool | None = None,
) -> AECEnv:
    """The environment with PettingZoo's usual checks (order, bounds)."""
    e: AECEnv = raw_env(rules=rules, format=format, max_deals=max_deals, render_mode=render_mode,
                        kernel=kernel, version=version, board=board)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


@dataclass(frozen=True, slots=True)
class VersionedEnv:
    """The environment at one version, named as PettingZoo names its environments:
    ``piquet_v2.env(rules="rubicon")`` (as ``chess_v6.env()``), ``piquet_v2.raw_env()``."""

    version: int

    @property
    def name(self) -> str:
        return env_name(self.version)

    def env(self, **options: Any) -> AECEnv:
        """:func:`env` at this version (the same options)."""
        return env(**options, version=self.version)

    def raw_env(self, **options: Any) -> PiquetEnv | BoardPiquetEnv:
        """:func:`raw_env` at this version (the same options)."""
        return raw_env(**options, version=self.version)


piquet_v2: Final = VersionedEnv(2)
"""This release's environment (:data:`~piquet.integrations.versions.ENV_VERSION`)."""
piquet_v1: Final = VersionedEnv(1)
"""Version 1's name, kept working: it warns that its observations (which named the suit of
a sequence never shown) are no longer made, and plays version 2's."""
piquet_v0: Final = VersionedEnv(0)
"""The first version's name, kept working: it warns that its reading of a partly declared
run is no longer played, and plays the current version's."""
