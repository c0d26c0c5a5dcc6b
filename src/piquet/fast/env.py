"""``VectorEnv``: N games of Piquet stepped together, for research (a Gymnasium ``VectorEnv``).

The agent plays the cards, for both players (self-play); every other choice of a deal (the
packet size, carte blanche, the exchange, the leftovers, the declarations and answers) is
made by a kernel policy (``opponent_policy="book"`` or ``"random"``).  Each game is a game
to the rule set's target (``format="game"``) or a Rubicon partie (``format="partie"``:
``rules.partie_deals`` deals, then the settlement).

- **Observation** (``float32``, :data:`~piquet.fast.batch.OBS_SIZE` per game), for the player
  to play: his hand, his discards, the cards played so far, the card led to this trick (36
  each); his role (1 elder), the trick number and the tricks each has won (/12), the points
  each has made in the deal and the game score of each (/100), the deal number.  Nothing
  of the other's hand or of the stock is in it.
- **Action**: a card index (0-35, ``Card.index``); ``infos["action_mask"]`` marks the legal
  ones (follow suit; elder bound by a named lead).  An illegal card is refused with a
  :class:`~piquet.core.errors.IllegalActionError` and nothing changes.
- **Reward**: at the end of a game, from player 0's side (player 1's is its negative):
  ``format="game"`` +1 / -1; ``format="partie"`` the settlement's points (+ for player 0
  winning), 0 for a drawn partie.  ``infos["to_play"]`` is the player to act.
- Finished games start again in the same step (Gymnasium's ``SAME_STEP`` autoreset): the
  observation returned is the new game's first; ``terminated`` marks the ended game, the
  reward is the whole game's (no game is truncated).  As Gymnasium specifies for that mode
  (and as :class:`~piquet.fast.gameenv.GameEnv`), ``infos["final_obs"]`` (an object array,
  ``None`` where no game ended, mask ``infos["_final_obs"]``) holds the ended game's last
  observation, for the player who played its last card, as the board stands at the end
  (his hand and discards left, the cards played, the card led to a trick left unfinished,
  the tricks, the points of the deal that ended it and the game scores settled), and
  ``infos["final_info"]`` (mask ``infos["_final_info"]``) its ``returns`` (``(num_envs,
  2)``: players 0 and 1), ``to_play`` (that last mover), ``scores`` (``(num_envs, 2)``:
  players 0 and 1 at its end), ``winner`` (0, 1, or -1 for a drawn partie) and ``deals``
  (the deals played), each with its mask (``_scores`` ...).

Seeded: ``reset(seed=S)`` gives every game its own generator from ``S``; the same seed and
actions give the same games (whatever the number of threads).

A step is one compiled call a slice of the games (``threads`` slices, by default one per
core, on threads at once): each game goes on from its resumable board
(:mod:`piquet.fast.batch`) to its next card; the observations and legal masks are written
from the boards.
"""

from __future__ import annotations

from typing import Any, Final, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from piquet.core.errors import IllegalActionError
from piquet.core.rules import Rules
from piquet.fast import batch as B
from piquet.fast.autoreset import add_final
from piquet.fast.engine import PolicyName, policy_code, rules_and_format, whole_number
from piquet.fast.params import compile_rules
from piquet.fast.policies import new_rng
from piquet.fast.rowthreads import RowThreads, ThreadedRows

__all__ = ["VectorEnv"]

_FORMATS: Final = {"game": B.FORMAT_GAME, "partie": B.FORMAT_PARTIE}


class VectorEnv(ThreadedRows, gymnasium.vector.VectorEnv):
    """N games stepped together; see the module docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        *,
        rules: Rules | str = "rubicon",
        format: Literal["game", "partie"] | None = None,
        opponent_policy: PolicyName = "book",
        seed: int = 0,
        threads: int | None = None,
    ) -> None:
        num_envs = self.num_envs = whole_number("num_envs", num_envs, 1)
        self.rules, name = rules_and_format(rules, format, _FORMATS,
                                            "the batch environment plays")
        self.format = name
        self._fmt = _FORMATS[name]
        self._policy = policy_code(opponent_policy)
        self._p = compile_rules(self.rules)
        self.single_observation_space = gymnasium.spaces.Box(
            0.0, np.inf, shape=(B.OBS_SIZE,), dtype=np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(36)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete(np.full(num_envs, 36))
        self._decks = np.zeros((num_envs, 36), dtype=np.int64)
        self._st = np.zeros((num_envs, B.G_SIZE), dtype=np.int64)
        self._boards = B.new_boards(num_envs)
        self._masks = np.zeros((num_envs, 36), dtype=np.bool_)
        self._rows_at = np.arange(num_envs)
        self._rngs = np.zeros((num_envs, 1), dtype=np.uint64)
        self._obs = np.zeros((num_envs, B.OBS_SIZE), dtype=np.float32)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._done = np.zeros(num_envs, dtype=np.bool_)
        self._final = np.zeros((num_envs, B.OBS_SIZE), dtype=np.float32)
        self._facts = np.zeros((num_envs, 4), dtype=np.int64)  # scores 0 and 1, winner, deals
        self._seed = seed
        self._started = False
        self._threads = RowThreads(num_envs, threads, "piquet-env")

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._masks.copy(),
                "to_play": self._st[:, B.G_TO_PLAY].copy()}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal cards of each game, ``(num_envs, 36)``."""
        return self._masks.copy()

    def _restart(self) -> npt.NDArray[np.float32]:
        for i in range(self.num_envs):
            self._rngs[i] = new_rng(self._seed * 1_000_003 + i)
        self._rows(B.reset_rows, self._p, self._fmt, self._policy, self._decks, self._st,
                   self._rngs, self._boards, self._obs, self._masks, self._rewards, self._done)
        return self._obs.copy()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_],
               npt.NDArray[np.bool_], dict[str, Any]]:
        """Play one card in every game; see the module docstring for what comes back."""
        acts = self._given(actions, "card", "card indices", 35)
        bad = (acts < 0) | (acts > 35)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise IllegalActionError(
                f"game {i}: {int(acts[i])} is not a card index; the cards are 0 to 35")
        legal = self._masks[self._rows_at, acts]
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            allowed = [int(c) for c in np.flatnonzero(self._masks[i])]
            raise IllegalActionError(
                f"game {i}: card {int(acts[i])} may not be played now; allowed: {allowed}")
        movers = self._st[:, B.G_TO_PLAY].copy()
        self._rows(B.step_rows, self._p, self._fmt, self._policy, self._decks, self._st,
                   self._rngs, self._boards, self._obs, self._masks, self._rewards, self._done,
                   acts, self._final, self._facts)
        terminated = self._done.copy()
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        infos = self._infos()
        add_final(infos, terminated, self._final, {
            "returns": np.stack([self._rewards, -self._rewards], axis=1), "to_play": movers,
            "scores": self._facts[:, :2], "winner": self._facts[:, 2],
            "deals": self._facts[:, 3]})
        return self._obs.copy(), self._rewards.copy(), terminated, truncated, infos
