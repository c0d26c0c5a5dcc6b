"""Many play-outs in one compiled call: every candidate discard in every drawn world.

The expert's exchange (:mod:`piquet.players.exchange`) plays each good discard to the end
of the deal in hundreds of worlds.  Through :func:`piquet.fast.playout` that is one Python
call per discard and world (some 24,000 a decision, most of the time spent outside the
kernel); :func:`discard_rollouts` makes them all in one call of :func:`rollout_matrix`,
a numba loop over the kernel's :func:`~piquet.fast.kernel.play_deal`.

World ``j`` is played with the generator :func:`~piquet.fast.policies.new_rng` of
``seed + j * plays + r`` for its ``r``-th play-out, the same for every candidate (common
random numbers): with ``plays=1`` the values are those of ``playout(rules, deck, history
+ [discard], policy=..., n=1, seed=seed + j)``, bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from piquet.core.actions import Action
from piquet.core.errors import PiquetError
from piquet.core.rules import Rules
from piquet.fast import kernel as K
from piquet.fast.engine import _check_deck, policy_code, trace_of
from piquet.fast.params import compile_rules
from piquet.fast.policies import new_rng

__all__ = ["discard_rollouts", "rollout_matrix"]


@njit(cache=True, nogil=True)
def rollout_matrix(p, decks, fz, nfz, cands, role, policy, states, plays, out):  # type: ignore[no-untyped-def]
    """Fill ``out[c, j]`` with ``role``'s points minus the other's, averaged over ``plays``
    play-outs of world ``j`` (pack ``decks[j]``, forced choices ``fz[j, :nfz[j]]``, then
    the discard ``cands[c]``, the rest by ``policy``), generator state ``states[j, r]`` for
    its ``r``-th play-out.  Returns for each candidate 0, or -1 if it was not a legal
    discard in some world (its row is then left as it stood)."""
    n_c = cands.shape[0]
    n_w = decks.shape[0]
    status = np.zeros(n_c, dtype=np.int64)
    tr = np.zeros((K.MAX_TRACE, 2), dtype=np.int64)
    ev = np.zeros((K.MAX_EVENTS, 3), dtype=np.int64)
    info = np.zeros(K.I_SIZE, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    for c in range(n_c):
        for j in range(n_w):
            k = nfz[j]
            fz[j, k, 0] = K.A_DISCARD
            fz[j, k, 1] = cands[c]
            total = 0.0
            bad = False
            for r in range(plays):
                rng[0] = states[j, r]
                _, _, s0, s1, _ = K.play_deal(p, decks[j], 0, 0, 0, policy, rng, tr, ev,
                                              fz[j], k + 1, False, info)
                if info[K.I_STATUS] == K.BAD_CHOICE:
                    bad = True
                    break
                total += (s0 - s1) if role == 0 else (s1 - s0)
            if bad:
                status[c] = -1
                break
            out[c, j] = total / plays
    return status


def discard_rollouts(
    rules: Rules,
    role: int,
    decks: Sequence[Sequence[int]],
    histories: Sequence[Sequence[Action]],
    discards: Sequence[int],
    *,
    seed: int,
    plays: int = 1,
    policy: str = "book",
) -> list[list[float] | None]:
    """For each discard (a card mask), ``role``'s points minus the other's in each world
    (``decks[j]`` with the deal's actions so far ``histories[j]``) after that discard,
    the rest of the deal played by ``policy`` (``plays`` play-outs a world, averaged);
    None for a discard that is not legal in some world.  The deal starts at (0, 0) with
    no target, as in :func:`piquet.fast.playout`'s defaults."""
    if len(decks) != len(histories):
        raise PiquetError(f"{len(decks)} packs but {len(histories)} histories")
    if plays < 1:
        raise PiquetError(f"plays must be at least 1, not {plays}")
    if role not in (0, 1):
        raise PiquetError(f"role must be 0 (elder) or 1 (younger), not {role}")
    code = policy_code(policy)
    n_w = len(decks)
    if n_w == 0 or not discards:
        return [[] if n_w == 0 else None for _ in discards]
    for d in decks:
        _check_deck(rules, d)
    rows = [trace_of(h) if h else np.zeros((0, 2), dtype=np.int64) for h in histories]
    nfz = np.array([len(h) for h in histories], dtype=np.int64)
    depth = int(nfz.max()) + 1
    fz = np.zeros((n_w, depth, 2), dtype=np.int64)
    for j, (r, k) in enumerate(zip(rows, nfz, strict=True)):
        fz[j, :k] = r[:k]
    deck_arr = np.zeros((n_w, 36), dtype=np.int64)
    for j, d in enumerate(decks):
        deck_arr[j, : len(d)] = d
    states = np.array(
        [[new_rng(seed + j * plays + r)[0] for r in range(plays)] for j in range(n_w)],
        dtype=np.uint64,
    )
    cands = np.asarray(list(discards), dtype=np.int64)
    out = np.zeros((len(cands), n_w), dtype=np.float64)
    status = rollout_matrix(compile_rules(rules), deck_arr, fz, nfz, cands, int(role), int(code),
                            states, int(plays), out)
    result: list[list[float] | None] = []
    for c in range(len(cands)):
        result.append(None if status[c] < 0 else [float(x) for x in out[c]])
    return result

