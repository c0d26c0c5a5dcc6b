"""The adapters' fast paths against the engine path, step by step.

An :class:`~piquet.integrations.actions.Episode` plays the cards on the compiled kernel's
board once only cards are left (:mod:`piquet.integrations.board`), keeps what it has worked
out (who moves, the current deal, each player's view, the legal ids) and reads the mover's
legal ids from the deal instead of building the whole view.  :func:`differ_episode` plays
one random episode twice in step, on the kernel's board (``kernel=True``) and through the
engine alone (``kernel=False``), and at every step compares everything the adapters give
(the player to move, the legal ids, each player's information-state and observation
strings and tensors, the returns; the tensors as the adapters make them, kept by the
episode) with the same answers worked out afresh the reference way (the tensors from the
seat's knowledge): from a copy of the engine episode with nothing kept, the legal ids by
:func:`~piquet.integrations.actions.legal_action_ids` from the seat's
:func:`~piquet.core.view.deal_view`.  ``tests/test_fast_adapters.py`` runs it for every
preset and format; ``bench/bench_fast.py --adapters-diff N`` over N episodes of each.

:func:`differ_game` does the same for the whole game on the compiled board
(:mod:`piquet.fast.game`): one random game on the board and through the engine's episode
with the same packs and ids, compared at every step (``tests/test_fast_game.py``;
``bench/bench_fast.py --game-diff N``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from piquet.core.cards import CardSet
from piquet.core.rules import Rules
from piquet.core.view import deal_view
from piquet.fast.game import TERMINAL as BOARD_TERMINAL
from piquet.fast.game import GameBoards
from piquet.integrations.actions import (
    CHANCE,
    TERMINAL,
    Episode,
    EpisodeFormat,
    legal_action_ids,
)
from piquet.integrations.observation import (
    INFO_PIECES,
    episode_information_state_tensor,
    episode_observation_tensor,
    information_state_string,
    information_state_tensor,
    knowledge,
    observation_string,
    observation_tensor,
)

__all__ = ["differ_episode", "differ_game"]


def _reference_legal(ep: Episode) -> list[int]:
    mover = ep.to_move
    if mover == TERMINAL:
        return []
    if mover == CHANCE:
        return [o for o, _ in ep.chance_outcomes()]
    deal = ep.deal
    assert deal is not None
    view = deal_view(deal, ep.role_of(mover))
    return legal_action_ids(view, rules=ep.rules, selected=CardSet(ep.selected))


def _answers(ep: Episode, legal: list[int], *, reference: bool = False) -> tuple[object, ...]:
    """Every answer at this step; the tensors as the adapters make them (kept by the
    episode, :func:`episode_information_state_tensor`), or with ``reference`` from the
    seat's knowledge afresh."""
    out: list[object] = [ep.to_move, legal, ep.returns(), ep.over]
    for player in (0, 1):
        k = knowledge(ep, player)
        if reference:
            info, obs = information_state_tensor(k), observation_tensor(k)
        else:
            info = episode_information_state_tensor(ep, player)
            obs = episode_observation_tensor(ep, player)
        # (the tensors as bytes: equal bit for bit)
        out += [information_state_string(k), observation_string(k), info.tobytes(),
                obs.tobytes()]
    return tuple(out)


def differ_episode(rules: Rules, fmt: EpisodeFormat, seed: int, *, max_deals: int = 50,
                   counts: list[int] | None = None) -> str | None:
    """None when the episode's answers on the kernel's board and through the engine equal
    the reference answers at every step of one random episode (seeded), else the first
    difference.  ``counts`` gets [steps, steps on the kernel's board] added."""
    rng = random.Random(seed)
    ep = Episode.start(rules, format=fmt, max_deals=max_deals)
    engine = Episode.start(rules, format=fmt, max_deals=max_deals, kernel=False)
    tally = counts if counts is not None else [0, 0]
    step = 0
    while True:
        fast = _answers(ep, ep.legal_ids())
        ep.legal_ids()  # asked twice: the kept answer must not change
        slow = _answers(engine, engine.legal_ids())
        fresh = replace(engine)  # the same episode with nothing kept
        ref = _answers(fresh, _reference_legal(fresh), reference=True)
        again = _answers(ep, ep.legal_ids())
        for name, a, b, c, d in zip(_NAMES, fast, ref, again, slow, strict=True):
            if not (a == b == c == d):
                where = "kernel's board" if ep.run is not None else "engine"
                return (f"step {step} ({where}): {name} differs:\n fast {a!r}\n"
                        f" reference {b!r}\n engine path {d!r}")
        if ep.over:
            return None
        tally[0] += 1
        tally[1] += ep.run is not None
        legal = ep.legal_ids()
        action = legal[rng.randrange(len(legal))]
        ep = ep.apply(action)
        engine = engine.apply(action)
        step += 1


_NAMES = ("to_move", "legal ids", "returns", "over", *(
    f"player {p}'s {what}" for p in (0, 1) for what in (
        "information-state string", "observation string", "information-state tensor",
        "observation tensor")))


_FORMATS = {"game": EpisodeFormat.GAME, "partie": EpisodeFormat.PARTIE,
            "deal": EpisodeFormat.DEAL}
_PIECES = tuple((name, sum(n for _, n in INFO_PIECES[:i]), size)
                for i, (name, size) in enumerate(INFO_PIECES))


def differ_game(rules: Rules, fmt: str, seed: int, *, max_deals: int = 50,
                packs: Callable[[int], Sequence[int] | None] | None = None,
                prefer: int | None = None, counts: list[int] | None = None) -> str | None:
    """None when one random game (seeded) on the compiled board (:mod:`piquet.fast.game`)
    and through the engine's episode (``kernel=False``), with the same first dealer, packs
    and ids, agree at every step: the player to act, the legal ids, each player's
    information-state tensor part by part (the board's observation), each finished deal's
    points; at the end the scores, winner, returns, cut-off and number of steps.  Else the
    first difference.  ``packs(k)``: the pack of the k-th deal (None: the board's own);
    ``prefer``: an id taken whenever it is legal (e.g. the packet size a pack was made
    for).  ``counts`` gets [steps] added."""
    boards = GameBoards(1, rules=rules, format=fmt,  # type: ignore[arg-type]
                        max_deals=max_deals)
    boards.reset(seed)
    ep = Episode.start(boards.rules, format=_FORMATS[fmt], max_deals=max_deals, kernel=False)
    if fmt != "deal":  # (a single deal has no chance node for its dealer: player 1)
        ep = ep.apply(int(boards.field("dealer")[0]))
    rng = random.Random(seed)
    tally = counts if counts is not None else [0]
    step = 0
    dealt = -1
    deals_seen = 0
    while True:
        ndeals = int(boards.field("ndeals")[0])
        if ep.to_move == CHANCE:
            pack = None if packs is None or dealt == ndeals else packs(ndeals)
            if pack is not None:
                boards.deal_pack(0, list(pack))
                dealt = ndeals
            for card in boards.deck(0):
                ep = ep.apply(card)
            continue
        mover = int(boards.to_move[0])
        if ep.to_move != mover:
            return f"step {step}: to act: board {mover}, engine {ep.to_move}"
        if ndeals != deals_seen:
            deals_seen = ndeals
            points = tuple(int(x) for x in boards.field("deal_pts", 2)[0])
            if len(ep.deals) != ndeals or ep.deals[-1] != points:
                return f"step {step}: deal {ndeals}'s points: board {points}, engine {ep.deals}"
        for player in (0, 1):
            mine = boards.observe(np.array([player]))[0]
            theirs = episode_information_state_tensor(ep, player)
            for name, at, size in _PIECES:
                a, b = mine[at:at + size], theirs[at:at + size]
                if not (a == b).all():
                    where = np.flatnonzero(a != b)
                    return (f"step {step}: player {player}'s {name} differs at "
                            f"{where.tolist()}: board {a[where].tolist()}, engine "
                            f"{b[where].tolist()}")
        if mover == BOARD_TERMINAL:
            break
        legal = boards.legal_ids(0)
        if ep.legal_ids() != legal:
            return f"step {step}: legal ids: board {legal}, engine {ep.legal_ids()}"
        action = prefer if prefer is not None and prefer in legal else rng.choice(legal)
        ep = ep.apply(action)
        boards.step(np.array([action]))
        step += 1
        tally[0] += 1
    end = (ep.over, ep.scores, len(ep.deals), ep.cut_off, ep.winner, ep.returns(), step)
    winner = int(boards.field("winner")[0])
    r0 = 0.0 if winner < 0 else (
        float(boards.field("settled")[0]) if fmt == "partie" else 1.0) * (1 if winner == 0 else -1)
    if fmt == "deal":
        pts = boards.field("deal_pts", 2)[0]
        r0 = float(pts[0] - pts[1])
    board_end = (True, tuple(int(x) for x in boards.field("score", 2)[0]),
                 int(boards.field("ndeals")[0]), bool(boards.field("truncated")[0]),
                 None if winner < 0 else winner, (r0, -r0), int(boards.field("steps")[0]))
    if end != board_end:
        return f"the end: board {board_end}, engine {end}"
    return None
