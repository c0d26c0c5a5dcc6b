"""The expert's play search: no strategy fusion at its own next card.

Perfect-information Monte Carlo (the reference's play) values a card by the mean over
the drawn worlds of its double-dummy value, as if, from the next card on, the player
knew the world: it may pick a different next card in each world (*strategy fusion*), and
so overvalues lines that need a guess later.  This search looks one trick further with
the player's information respected (an αμ-style search of depth two):

- for each candidate card and each world, the other answers with his double-dummy best
  card (he is assumed to read the cards, as in αμ); the worlds are then grouped by what
  the role to move will have seen when it next plays (his answer: worlds where he answered
  alike cannot be told apart);
- when that role leads the next trick, it must choose **one** card for the whole group:
  the group's value is the best card's weighted sum over the group's worlds, each value
  exact (the solver at the leaves);
- when the other leads next (or the deal is over), the exact value of the position stands.

A card's value is the sum over its groups divided by the worlds' weight; the best wins.
Values are in the solver's units: the deal's points from here on (DIFF), or the
objective's (RACE, PARTIE).
"""

from __future__ import annotations

from dataclasses import dataclass

from piquet.core.deal import ELDER
from piquet.fast.solver import Mode, PlayState, Solver, _step, _terminal

__all__ = ["Child", "after", "lookahead_values"]


@dataclass(frozen=True, slots=True)
class Child:
    """The position after one card, the points (elder minus younger) it scored, and whether
    the play is over."""

    state: PlayState
    gain: int
    over: bool
    terminal: int
    """The objective's value (elder's side) when ``over`` (RACE, PARTIE)."""


def after(solver: Solver, state: PlayState, card: int) -> Child:
    """The position after the role to move plays ``card`` (a card it holds)."""
    h0, h1, leader, lead, won0, ntr, acc0, acc1, opn = solver._args(state)
    h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, ended = _step(
        h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, card, solver._p
    )
    new = PlayState(
        hands=(int(h0), int(h1)),
        leader=int(leader),
        lead=None if lead < 0 else int(lead),
        won=(int(won0), int(ntr - won0)),
        totals=(int(acc0), int(acc1)),
        open=bool(opn),
    )
    gain = (int(acc0) - int(acc1)) - (state.totals[0] - state.totals[1])
    over = bool(ended) or (int(ntr) == 12 and lead < 0)
    term = int(_terminal(acc0, acc1, ended, solver._p)) if over else 0
    return Child(new, gain, over, term)


def _through(solver: Solver, child: Child, rest: int) -> int:
    """Elder's value of a move: the points it scored plus ``rest`` (DIFF), or the value of
    the position it leads to (RACE, PARTIE)."""
    if child.over:
        return child.gain if solver.objective.mode is Mode.DIFF else child.terminal
    if solver.objective.mode is Mode.DIFF:
        return child.gain + rest
    return rest


def lookahead_values(
    solver: Solver,
    states: list[PlayState],
    weights: list[float],
    candidates: list[int],
    *,
    nodes: int,
) -> tuple[dict[int, float], int]:
    """Each candidate card's value (the mover's side) by the search of the module
    docstring over the worlds ``states`` (the same role to move in each), within about
    ``nodes`` solver positions; and how many worlds it used (0: none within the budget)."""
    if not states:
        return {}, 0
    me = states[0].to_move
    sign = 1 if me == ELDER else -1
    start = solver.nodes
    # per candidate: group key -> list of (weight, base, next card values or None)
    entries: dict[int, dict[int, list[tuple[float, int, dict[int, int] | None]]]] = {
        c: {} for c in candidates
    }
    used = 0
    for state, w in zip(states, weights, strict=True):
        row: dict[int, tuple[int, float, int, dict[int, int] | None]] = {}
        for c in candidates:
            left = nodes - (solver.nodes - start)
            if left <= 0:
                return _finish(entries, used), used
            got = _one(solver, state, c, me, sign, left)
            if got is None:
                return _finish(entries, used), used
            row[c] = (got[0], w, got[1], got[2])
        for c, (key, wt, base, vec) in row.items():
            entries[c].setdefault(key, []).append((wt, base, vec))
        used += 1
    return _finish(entries, used), used


def _one(
    solver: Solver, state: PlayState, card: int, me: int, sign: int, nodes: int
) -> tuple[int, int, dict[int, int] | None] | None:
    """(group key, base value, the next card's values or None) of ``card`` in one world,
    all on the mover's side; None when the budget ran out."""
    start = solver.nodes
    first = after(solver, state, card)
    if first.over:
        return -1, sign * _through(solver, first, 0), None
    key = -1
    child = first
    base_gain = first
    if first.state.lead is not None:
        # the other answers with his best card in this world
        vals = solver.move_values(first.state, nodes=nodes)
        if solver.aborted or not vals:
            return None
        reply = max(vals, key=lambda r: (vals[r], -r))
        key = reply
        second = after(solver, first.state, reply)
        if second.over or second.state.leader != me:
            # his best answer's value stands (from his side: negate)
            mine = -vals[reply]
            return key, sign * _through(solver, first, sign * mine), None
        child = second
        gain = first.gain + second.gain
        base_gain = Child(second.state, gain, False, 0)
    elif first.state.leader != me:
        v = solver.value(first.state, nodes=nodes)
        if v is None:
            return None
        return key, sign * _through(solver, first, v), None
    left = nodes - (solver.nodes - start)
    if left <= 0:
        return None
    nxt = solver.move_values(child.state, nodes=left)
    if solver.aborted or not nxt:
        return None
    if solver.objective.mode is Mode.DIFF:
        return key, sign * base_gain.gain, nxt
    return key, 0, nxt


def _finish(
    entries: dict[int, dict[int, list[tuple[float, int, dict[int, int] | None]]]], used: int
) -> dict[int, float]:
    out: dict[int, float] = {}
    if used == 0:
        return out
    for c, groups in entries.items():
        total = 0.0
        wsum = 0.0
        for items in groups.values():
            wsum += sum(w for w, _, _ in items)
            vecs = [vec for _, _, vec in items if vec is not None]
            if not vecs:
                total += sum(w * base for w, base, _ in items)
                continue
            cards = set(vecs[0])
            total += max(
                sum(w * (base + (vec[n] if vec is not None else 0)) for w, base, vec in items)
                for n in cards
            )
        out[c] = total / wsum if wsum else 0.0
    return out
