"""Gymnasium's ``SAME_STEP`` autoreset infos, shared by the batch environments.

:class:`~piquet.fast.env.VectorEnv` and :class:`~piquet.fast.gameenv.GameEnv` start an
ended game again within the step that ended it; the observation they return is the new
game's first.  What the ended game's last step saw goes in ``infos`` as Gymnasium
specifies for that mode: ``final_obs`` (an object array, the ended game's last observation
where a game ended, ``None`` elsewhere; mask ``_final_obs``) and ``final_info`` (a dict of
arrays, each with its ``_name`` mask; mask ``_final_info``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["add_final"]


def add_final(infos: dict[str, Any], ended: npt.NDArray[np.bool_],
              final_obs: npt.NDArray[np.float32], facts: dict[str, npt.NDArray[Any]]) -> None:
    """Add ``final_obs`` and ``final_info`` to ``infos`` where ``ended`` is set (nothing
    when no game ended).  ``final_obs`` (one row a game) and ``facts`` (one array a fact,
    its first axis the games) are copied."""
    if not ended.any():
        return
    ended = ended.copy()
    obs = np.full(ended.shape[0], None, dtype=object)
    for j in np.flatnonzero(ended):
        obs[j] = final_obs[j].copy()
    infos["final_obs"] = obs
    infos["_final_obs"] = ended
    info: dict[str, Any] = {}
    for name, values in facts.items():
        info[name] = values.copy()
        info["_" + name] = ended
    infos["final_info"] = info
    infos["_final_info"] = ended
