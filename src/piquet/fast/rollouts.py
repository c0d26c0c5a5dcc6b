"""Many play-outs in one compiled call: every candidate discard in every drawn world.

The expert's exchange (:mod:`piquet.players.exchange`) plays each good discard to the end
of the deal in hundreds of worlds.  Through :func:`piquet.fast.playout` that is one Python
call per discard and world (some 24,000 a decision, most of the time spent outside the
kernel); :func:`discard_rollouts` makes them all in one call of :func:`rollout_matrix`,
a compiled loop over the kernel's deal (``src/piquet/native/module.c``).

World ``j`` is played with the generator :func:`~piquet.fast.policies.new_rng` of
``seed + j * plays + r`` for its ``r``-th play-out, the same for every candidate (common
random numbers): with ``plays=1`` the values are those of ``playout(rules, deck, history
+ [discard], policy=..., n=1, seed=seed + j)``, bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from piquet.core.actions import Action
from piquet.core.errors import PiquetError
from piquet.core.rules import Rules
from piquet.fast import kernel as K
from piquet.fast.engine import _check_deck, policy_code, trace_of
from piquet.fast.params import compile_rules
from piquet.fast.policies import new_rng
from piquet.fast.solver import Mode, Solver

__all__ = ["discard_rollout_points", "discard_rollouts", "discard_solver_values", "rollout_matrix",
           "solver_matrix"]

I64 = npt.NDArray[np.int64]


def rollout_matrix(p: I64, decks: I64, fz: I64, nfz: I64, cands: I64, role: int, policy: int,
                   states: npt.NDArray[np.uint64], plays: int,
                   out: npt.NDArray[np.float64]) -> I64:
    """Fill ``out[c, j]`` with ``role``'s points minus the other's, averaged over ``plays``
    play-outs of world ``j`` (pack ``decks[j]``, forced choices ``fz[j, :nfz[j]]``, then
    the discard ``cands[c]``, the rest by ``policy``), generator state ``states[j, r]`` for
    its ``r``-th play-out.  Returns for each candidate 0, or -1 if it was not a legal
    discard in some world (its row is then left as it stood).  Compiled, without the GIL."""
    status = np.zeros(len(cands), dtype=np.int64)
    K._native.rollout_matrix(p, decks, fz, nfz, cands, role, policy, states, plays, out, status)
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
    code = _checked(role, decks, histories, policy)
    if plays < 1:
        raise PiquetError(f"plays must be at least 1, not {plays}")
    n_w = len(decks)
    if n_w == 0 or not discards:
        return [[] if n_w == 0 else None for _ in discards]
    deck_arr, fz, nfz, cands = _worlds_arrays(rules, decks, histories, discards)
    states = np.array(
        [[new_rng(seed + j * plays + r)[0] for r in range(plays)] for j in range(n_w)],
        dtype=np.uint64,
    )
    out = np.zeros((len(cands), n_w), dtype=np.float64)
    status = rollout_matrix(compile_rules(rules), deck_arr, fz, nfz, cands, int(role), int(code),
                            states, int(plays), out)
    result: list[list[float] | None] = []
    for c in range(len(cands)):
        result.append(None if status[c] < 0 else [float(x) for x in out[c]])
    return result


def discard_rollout_points(
    rules: Rules,
    role: int,
    decks: Sequence[Sequence[int]],
    histories: Sequence[Sequence[Action]],
    discards: Sequence[int],
    *,
    seed: int,
    policy: str = "book",
) -> list[npt.NDArray[np.int64] | None]:
    """As :func:`discard_rollouts` with one play-out a world, but both sides' points: for
    each discard an array ``(worlds, 2)`` of ``role``'s points and the other's (the same
    play-outs: ``mine - theirs`` is :func:`discard_rollouts`'s value), or None for a discard
    that is not legal in some world."""
    code = _checked(role, decks, histories, policy)
    n_w = len(decks)
    if n_w == 0 or not discards:
        return [np.zeros((0, 2), dtype=np.int64) if n_w == 0 else None for _ in discards]
    deck_arr, fz, nfz, cands = _worlds_arrays(rules, decks, histories, discards)
    states = np.array([new_rng(seed + j)[0] for j in range(n_w)], dtype=np.uint64)
    out = np.zeros((len(cands), n_w, 2), dtype=np.int64)
    status = np.zeros(len(cands), dtype=np.int64)
    K._native.rollout_points(compile_rules(rules), deck_arr, fz, nfz, cands, int(role),
                             int(code), states, out, status)
    return [None if status[c] < 0 else out[c] for c in range(len(cands))]


# ------------------------------------------------------------------ the play by the solver
# The book plays the rest of the dialog (the other's exchange, the declarations); then the
# play of the cards is valued by the double-dummy solver (piquet.fast.solver) instead of the
# book's play: elder's first lead tried card by card (younger's declarations that wait for
# the lead are made after it, by the book, as on the board), each followed by a greedy
# open-handed play down to ``exact_cards`` cards in the hand to move, then solved exactly
# (within ``node_cap`` positions a solve; out of them, the greedy play to the end).


def solver_matrix(p: I64, sp: I64, decks: I64, fz: I64, nfz: I64, cands: I64, role: int,
                  policy: int, states: npt.NDArray[np.uint64], exact_cards: int, node_cap: int,
                  tt: I64, buf: I64, stats: I64, S: I64, out: npt.NDArray[np.float64],
                  solved: I64) -> I64:
    """Fill ``out[c, j]`` with ``role``'s points minus the other's in world ``j`` after the
    discard ``cands[c]``: the dialog by ``policy`` (generator state ``states[j]``, the same
    for every candidate), then elder's first lead tried card by card (open-handed, the
    best kept), each followed by the greedy open-handed play of both seats while the seat
    to move holds more than ``exact_cards`` cards, then the solver's exact value (at most
    ``node_cap`` positions, else the greedy play on).  ``solved[c, j]`` counts the leads
    solved exactly.  ``sp``, ``tt``, ``buf``, ``stats``, ``S``: the solver's vector and
    arrays.  Returns for each candidate 0, or -1 if it was not a legal discard in some
    world.  Compiled, without the GIL."""
    status = np.zeros(len(cands), dtype=np.int64)
    K._native.solver_matrix(p, sp, decks, fz, nfz, cands, role, policy, states, exact_cards,
                            node_cap, tt, buf, stats, S, out, solved, status)
    return status


def discard_solver_values(
    rules: Rules,
    role: int,
    decks: Sequence[Sequence[int]],
    histories: Sequence[Sequence[Action]],
    discards: Sequence[int],
    solver: Solver,
    *,
    seeds: Sequence[int],
    exact_cards: int = 12,
    node_cap: int = 200_000,
    policy: str = "book",
) -> tuple[list[list[float] | None], int]:
    """For each discard, ``role``'s points minus the other's in each world after it: the
    dialog by ``policy`` (world ``j`` drawing from :func:`~piquet.fast.policies.new_rng`
    of ``seeds[j]``), the play of the cards by the solver (see :func:`solver_matrix`);
    ``solver`` (made for ``rules`` and the objective DIFF) lends its table.  Also returns
    how many first leads were solved exactly.  None for a discard not legal in some world."""
    if len(decks) != len(histories) or len(decks) != len(seeds):
        raise PiquetError(f"{len(decks)} packs, {len(histories)} histories, {len(seeds)} seeds")
    code = _checked(role, decks, histories, policy)
    if solver.rules != rules or solver.objective.mode is not Mode.DIFF:
        raise PiquetError("the solver must be made for these rules and the objective DIFF")
    n_w = len(decks)
    if n_w == 0 or not discards:
        return [[] if n_w == 0 else None for _ in discards], 0
    deck_arr, fz, nfz, cands = _worlds_arrays(rules, decks, histories, discards)
    states = np.array([new_rng(s)[0] for s in seeds], dtype=np.uint64)
    out = np.zeros((len(cands), n_w), dtype=np.float64)
    solved = np.zeros((len(cands), n_w), dtype=np.int64)
    # the solver's own arrays (its table is valid for these rules and DIFF)
    tt, buf, stats, stack, sp = solver._tt, solver._buf, solver._stats, solver._stack, solver._p
    status = solver_matrix(compile_rules(rules), sp, deck_arr, fz, nfz, cands, int(role),
                           int(code), states, int(exact_cards), int(node_cap), tt, buf, stats,
                           stack, out, solved)
    result: list[list[float] | None] = []
    for c in range(len(cands)):
        result.append(None if status[c] < 0 else [float(x) for x in out[c]])
    return result, int(solved.sum())


def _checked(role: int, decks: Sequence[Sequence[int]],
             histories: Sequence[Sequence[Action]], policy: str) -> int:
    """The policy's code, once a pack goes with each history and the role is one; raises
    :class:`PiquetError` saying what is wrong."""
    if len(decks) != len(histories):
        raise PiquetError(f"{len(decks)} packs but {len(histories)} histories")
    if role not in (0, 1):
        raise PiquetError(f"role must be 0 (elder) or 1 (younger), not {role}")
    return policy_code(policy)


def _worlds_arrays(
    rules: Rules, decks: Sequence[Sequence[int]], histories: Sequence[Sequence[Action]],
    discards: Sequence[int],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The packs (checked), the forced choices (with a free row after each history for the
    discard), their numbers and the candidate discards, as the compiled loops take them."""
    n_w = len(decks)
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
    return deck_arr, fz, nfz, np.asarray(list(discards), dtype=np.int64)
