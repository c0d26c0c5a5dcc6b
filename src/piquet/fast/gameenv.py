"""``GameEnv``: N whole games of Piquet stepped together, every decision the agent's (a
Gymnasium ``VectorEnv``).

Where :class:`~piquet.fast.env.VectorEnv` lets the agent play only the cards, here every
decision of every deal is the agent's, for both players (self-play), on the compiled
board of :mod:`piquet.fast.game`: the packet size, carte blanche's number, the exchange
(card by card, then ``discard-done``), the leftovers, the lead named or appointed, every
declaration (any claim the hand holds: sinking is a choice), every answer, "which is
missing", every card.

- **Action**: an id 0-479, the numbering of the OpenSpiel and PettingZoo adapters
  (:mod:`piquet.integrations.actions`: ``action_name(i)`` names it).
  ``infos["action_mask"]`` (``(num_envs, 480)`` booleans) marks the legal ones; an id not
  legal is refused with :class:`~piquet.core.errors.IllegalActionError` and no game
  changes.  ``infos["to_play"]`` is the player (0 or 1) to act in each game.
- **Observation** (``float32``, :data:`~piquet.fast.game.OBS_SIZE` = 1605 per game, in
  [0, 1]), for the player to act: the adapters' information-state tensor
  (:data:`piquet.integrations.observation.INFO_PIECES`, the same layout and values: the
  hand, the cards dealt, discarded, taken and laid out, the stock cards seen, the other's
  cards shown and played, one's own cards the other has seen, the trick, the counts, the
  lead named, carte blanche, every declaration, pass, answer and pips told, which card is
  missing, the points counted by kind, the game, every trick in order).
  Every part equals the adapters' tensor bit for bit (``tests/test_fast_game.py``, at
  every step of random games of every preset and format).  Nothing hidden is in it.
  ``tensor="observation"`` gives the adapters' smaller observation tensor instead
  (:data:`~piquet.fast.game.OBSERVATION_SIZE` = 717: the same without the tricks in order).
- **Reward**: at the end of a game, player 0's (player 1's is its negative):
  ``format="game"`` +1 / -1; ``format="partie"`` the settlement's points; 0 for a drawn
  partie or a game cut off; ``format="deal"`` (a single deal, player 1 dealing, as the
  adapters' format ``"deal"``) the point difference.
- **Ends**: ``terminated`` when the game is decided (or a partie drawn); ``truncated`` when
  a game is cut off undecided after ``max_deals`` deals (a time limit: bootstrap from
  ``final_obs``).  Gymnasium's ``SAME_STEP`` autoreset: an ended game starts again in the
  same step and the observation returned is the new game's first;
  ``infos["final_obs"]`` (an object array, ``None`` where no game ended, with the mask
  ``infos["_final_obs"]``) holds the ended game's last observation, for the player who
  made its last move, and ``infos["final_info"]`` (mask ``infos["_final_info"]``) its
  ``returns`` (``(num_envs, 2)``: players 0 and 1), ``to_play`` (that last mover),
  ``scores`` (``(num_envs, 2)``: the scores of players 0 and 1 at its end, a partie's
  totals), ``winner`` (0, 1, or -1 for none: a drawn partie, a game cut off) and
  ``deals`` (the deals played), each with its mask (``_scores`` ...).

Seeded: ``reset(seed=S)`` gives game ``i`` its own generator from ``S`` and ``i``; a game
that ends draws the next one's seed from its own generator, so the same seed and actions
give the same games whatever the number of threads.  ``observations=False`` skips the
observations (the masks are still written: for a policy that needs only them, and for
measuring the board alone); ``copy=False`` returns the environment's own arrays (valid
until the next step), as Gymnasium's ``copy`` option of its vector environments.
"""

from __future__ import annotations

from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.rules import Rules
from piquet.fast import kernel as K
from piquet.fast.autoreset import add_final
from piquet.fast.game import NUM_ACTIONS, TENSORS, GameBoards
from piquet.fast.rowthreads import RowThreads, ThreadedRows

__all__ = ["GameEnv"]



class GameEnv(ThreadedRows, gymnasium.vector.VectorEnv):
    """N whole games stepped together; see the module docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        *,
        rules: Rules | str = "rubicon",
        format: Literal["game", "partie", "deal"] | None = None,
        max_deals: int = 50,
        seed: int = 0,
        threads: int | None = None,
        observations: bool = True,
        tensor: Literal["information_state", "observation"] = "information_state",
        copy: bool = True,
    ) -> None:
        if tensor not in TENSORS:
            raise PiquetError(f"tensor {tensor!r}: use one of {', '.join(TENSORS)}")
        size = TENSORS[tensor]
        self.boards = GameBoards(num_envs, rules=rules, format=format, max_deals=max_deals)
        self.rules = self.boards.rules
        self.format = self.boards.format
        self.num_envs = n = num_envs
        self.single_observation_space = gymnasium.spaces.Box(
            0.0, 1.0, shape=(size,), dtype=np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, n)
        self.action_space = gymnasium.spaces.MultiDiscrete(np.full(n, NUM_ACTIONS))
        self._observations = bool(observations)
        self._copy = bool(copy)
        self._size = size
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._final = np.zeros((n, size), dtype=np.float32)
        self._masks = np.zeros((n, NUM_ACTIONS), dtype=np.bool_)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._term = np.zeros(n, dtype=np.bool_)
        self._trunc = np.zeros(n, dtype=np.bool_)
        self._ended = np.zeros(n, dtype=np.bool_)
        self._returns = np.zeros((n, 2), dtype=np.float64)
        self._facts = np.zeros((n, 4), dtype=np.int64)  # scores 0 and 1, winner, deals
        self._status = np.zeros(n, dtype=np.int64)
        self._movers = np.zeros(n, dtype=np.int64)
        self._none = np.zeros(n, dtype=np.int64)
        self._rows_at = np.arange(n)
        self._seed = seed
        self._started = False
        self._threads = RowThreads(n, threads, "piquet-game")

    def _run(self, actions: npt.NDArray[np.int64], stepping: bool) -> None:
        b = self.boards
        self._rows(K._native.game_env, b._p, b.rows, actions,
                   self._obs if self._observations else None, self._masks, self._rewards,
                   self._term, self._trunc, self._ended, self._final, self._returns,
                   self._status, self._movers, int(stepping), self._size, self._facts)

    def _out(self, a: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return a.copy() if self._copy else a

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._out(self._masks), "to_play": self.boards.to_move}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal ids of each game, ``(num_envs, 480)``."""
        return self._masks.copy()

    def _restart(self) -> npt.NDArray[np.float32]:
        self.boards.reset(self._seed)
        self._run(self._none, False)
        return self._out(self._obs)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_],
               npt.NDArray[np.bool_], dict[str, Any]]:
        """Take one action id in every game; see the module docstring for what comes back."""
        acts = self._given(actions, "action id", "ids", NUM_ACTIONS - 1)
        inside = (acts >= 0) & (acts < NUM_ACTIONS)
        legal = inside.copy()
        legal[inside] = self._masks[self._rows_at[inside], acts[inside]]
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            allowed = ", ".join(str(int(j)) for j in np.flatnonzero(self._masks[i])[:40])
            raise IllegalActionError(
                f"game {i}: action id {int(acts[i])} is not allowed now; legal ids: {allowed} "
                "(piquet.integrations.actions.action_name names each)")
        self._run(acts, True)
        infos = self._infos()
        facts = self._facts
        add_final(infos, self._ended, self._final, {
            "returns": self._returns, "to_play": self._movers, "scores": facts[:, :2],
            "winner": facts[:, 2], "deals": facts[:, 3]})
        return (self._out(self._obs), self._out(self._rewards), self._out(self._term),
                self._out(self._trunc), infos)
