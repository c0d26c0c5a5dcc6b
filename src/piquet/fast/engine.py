"""The kernel from Python: play a deal, read its events, replay its choices in the engine.

:func:`play_deal` runs one deal through the compiled kernel (:mod:`piquet.fast.kernel`) and
returns a :class:`FastDeal`: its score events in counting order (as the engine's
:class:`~piquet.core.scoring.Kind`), its scores, who reached the game's target, and the
choices made.  :func:`actions_of` turns those choices into the public engine's actions, so
the same deal can be replayed through :class:`~piquet.core.deal.Deal` (that is what the
differential test does).  :func:`flat_start` and :func:`flat_resume` keep the resumable
board in one flat array (the adapters' card run, :mod:`piquet.integrations.board`); both
are the compiled core's (``src/piquet/native/module.c``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from piquet.core.actions import (
    PLAY,
    Action,
    AnnounceBlanche,
    Answer,
    Appoint,
    DealBy,
    Declare,
    Discard,
    Leftover,
    LeftoverChoice,
    NameLead,
    Pass,
    Play,
    Question,
    Reply,
)
from piquet.core.cards import Card, CardSet, Suit, pack
from piquet.core.declarations import DeclClass
from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.rules import Format, Rules, get_rules
from piquet.core.scoring import Kind
from piquet.fast import kernel as K
from piquet.fast.params import compile_rules
from piquet.fast.policies import BOOK, RANDOM, new_rng

__all__ = [
    "POLICIES",
    "FLAT_EV",
    "FLAT_INFO",
    "FLAT_PS",
    "FLAT_SIZE",
    "FastDeal",
    "Playouts",
    "actions_of",
    "flat_resume",
    "flat_parts",
    "flat_start",
    "play_deal",
    "playout",
    "policy_code",
    "random_deals",
    "rules_and_format",
    "trace_of",
    "whole_number",
]

POLICIES: Final = {"random": RANDOM, "book": BOOK}
"""The kernel's policies by name."""
KINDS: Final = tuple(Kind)
_REPLIES: Final = (Reply.GOOD, Reply.NOT_GOOD, Reply.EQUAL, Reply.MAKING)
PolicyName = Literal["random", "book"]
_NO_CHOICES: Final = np.zeros((1, 2), dtype=np.int64)


def policy_code(policy: str) -> int:
    """The kernel's number for a policy name; refuses an unknown name, saying the known."""
    try:
        return POLICIES[policy]
    except KeyError:
        raise PiquetError(
            f"unknown policy {policy!r}; the kernel's policies are: {', '.join(POLICIES)}"
        ) from None


@dataclass(frozen=True, slots=True)
class FastDeal:
    """One deal played by the kernel."""

    events: tuple[tuple[int, Kind, int], ...]
    """(role, kind, points) in counting order, pique and repique included."""
    scores: tuple[int, int]
    """Points elder and younger counted in the deal."""
    reached: int | None
    """The role that reached the game's target (the deal stopped there), else None."""
    trace: tuple[tuple[int, int], ...]
    """The choices made, as the kernel's (code, value) rows (see :func:`actions_of`)."""


def rules_of(rules: Rules | str) -> Rules:
    """``rules`` as a :class:`Rules`: a name is a preset's, an alias or a house-rule file,
    as :func:`~piquet.core.rules.get_rules` reads it.  Raises :class:`RulesError` for an
    unknown name, :class:`PiquetError` for anything else."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return get_rules(rules)
    raise PiquetError(f"rules are a Rules or a rule set's name, not {type(rules).__name__}")


def whole_number(name: str, n: object, least: int) -> int:
    """``n`` as an int, refused (:class:`PiquetError`, naming ``name``) unless it is a whole
    number (not a bool) of at least ``least``."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < least:
        raise PiquetError(f"{name} must be a whole number, {least} or more, not {n!r:.20}")
    return int(n)


def rules_and_format(
    rules: Rules | str, format: str | None, known: Iterable[str], plays: str
) -> tuple[Rules, str]:
    """The rule set (:func:`rules_of`) and the format a batch of games plays: ``format``, or
    the rule set's default; refused (:class:`PiquetError`) unless it is one of ``known``
    (``plays`` says who plays them: "the batch environment plays") and, for a partie, the
    rule set plays one."""
    r = rules_of(rules)
    name = format if format is not None else r.default_format.value
    known = tuple(known)
    if name not in known:
        raise PiquetError(f"format {name!r} is not known; {plays}: {', '.join(known)}")
    if name == "partie" and (why := r.format_refusal(
            Format.PARTIE, offered=(Format.GAME, Format.PARTIE))) is not None:
        raise PiquetError(why)
    return r, name


def _check_deck(rules: Rules, deck: Sequence[int]) -> None:
    if sorted(deck) != pack(rules):
        raise PiquetError(f"a {rules.deck_size}-card pack must hold each of its cards exactly once")


def play_deal(
    rules: Rules | str,
    deck: Sequence[int],
    *,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
    policy: PolicyName = "random",
    seed: int = 0,
) -> FastDeal:
    """Play one deal of ``deck`` (card indices, top first) through the kernel.

    ``start`` and ``target`` as for :meth:`piquet.core.deal.Deal.new`; ``policy`` makes
    every choice, drawing from a generator seeded by ``seed``.
    """
    rules = rules_of(rules)
    _check_deck(rules, deck)
    code = policy_code(policy)
    p = compile_rules(rules)
    tr = np.zeros((K.MAX_TRACE, 2), dtype=np.int64)
    ev = np.zeros((K.MAX_EVENTS, 3), dtype=np.int64)
    info = np.zeros(K.I_SIZE, dtype=np.int64)
    ntr, nev, s0, s1, reached = K.play_deal(
        p, np.asarray(deck, dtype=np.int64), start[0], start[1], target or 0, code,
        new_rng(seed), tr, ev, _NO_CHOICES, 0, False, info)
    return FastDeal(
        events=tuple((int(a), KINDS[int(b)], int(c)) for a, b, c in ev[:nev]),
        scores=(int(s0), int(s1)),
        reached=None if reached < 0 else int(reached),
        trace=tuple((int(a), int(b)) for a, b in tr[:ntr]),
    )


def actions_of(trace: Sequence[tuple[int, int]], rules: Rules) -> list[Action]:
    """The public engine's actions for a kernel trace, in order."""
    del rules  # the codes carry everything; kept for the signature's sake
    out: list[Action] = []
    for code, value in trace:
        if code == K.A_DEAL:
            out.append(DealBy(value))
        elif code == K.A_BLANCHE:
            out.append(AnnounceBlanche(value))
        elif code == K.A_DISCARD:
            out.append(Discard(CardSet(value)))
        elif code == K.A_LEFTOVER:
            out.append(Leftover(LeftoverChoice.LOOK if value else LeftoverChoice.DECLINE))
        elif code == K.A_NAME_SUIT:
            out.append(NameLead(suit=Suit(value)))
        elif code == K.A_NAME_CARD:
            out.append(NameLead(card=Card.from_index(value)))
        elif code == K.A_APPOINT_SUIT:
            out.append(Appoint(suit=Suit(value)))
        elif code == K.A_APPOINT_CARD:
            out.append(Appoint(card=Card.from_index(value)))
        elif code == K.A_DECLARE:
            out.append(Declare(DeclClass(value & 3), CardSet(value >> 2)))
        elif code == K.A_PASS:
            out.append(Pass())
        elif code == K.A_ANSWER:
            out.append(Answer(_REPLIES[value]))
        elif code == K.A_QUESTION:
            out.append(Question(bool(value)))
        elif code == K.A_PLAY:
            out.append(PLAY[value])
        else:  # pragma: no cover - the kernel writes only the codes above
            raise PiquetError(f"unknown kernel choice code {code}")
    return out


def random_deals(rules: Rules | str, n: int, *, seed: int = 0,
                 policy: PolicyName = "random") -> tuple[int, int, int]:
    """Play ``n`` deals of random packs in the kernel; return (elder's points, younger's
    points, score events) summed over them."""
    rules = rules_of(rules)
    n = whole_number("n", n, 0)
    totals = np.zeros(2, dtype=np.int64)
    events = K.play_deals(compile_rules(rules), n, policy_code(policy), new_rng(seed), totals)
    return int(totals[0]), int(totals[1]), int(events)


def trace_of(actions: Sequence[Action]) -> npt.NDArray[np.int64]:
    """The kernel's choice rows for engine actions (the inverse of :func:`actions_of`)."""
    rows: list[tuple[int, int]] = []
    for a in actions:
        if isinstance(a, Play):
            rows.append((K.A_PLAY, a.card.index))
        elif isinstance(a, Discard):
            rows.append((K.A_DISCARD, a.cards.mask))
        elif isinstance(a, Declare):
            rows.append((K.A_DECLARE, a.cards.mask << 2 | int(a.cls)))
        elif isinstance(a, Pass):
            rows.append((K.A_PASS, 0))
        elif isinstance(a, Answer):
            rows.append((K.A_ANSWER, _REPLIES.index(a.reply)))
        elif isinstance(a, Question):
            rows.append((K.A_QUESTION, int(a.ask)))
        elif isinstance(a, DealBy):
            rows.append((K.A_DEAL, a.size))
        elif isinstance(a, AnnounceBlanche):
            rows.append((K.A_BLANCHE, a.discards))
        elif isinstance(a, Leftover):
            rows.append((K.A_LEFTOVER, int(a.choice is LeftoverChoice.LOOK)))
        elif isinstance(a, NameLead):
            if a.card is not None:
                rows.append((K.A_NAME_CARD, a.card.index))
            else:
                assert a.suit is not None
                rows.append((K.A_NAME_SUIT, int(a.suit)))
        elif isinstance(a, Appoint):
            if a.card is not None:
                rows.append((K.A_APPOINT_CARD, a.card.index))
            else:
                assert a.suit is not None
                rows.append((K.A_APPOINT_SUIT, int(a.suit)))
        else:  # pragma: no cover - every action type is above
            raise PiquetError(f"{a}: not an action of a deal")
    out = np.zeros((max(len(rows), 1), 2), dtype=np.int64)
    for i, (code, value) in enumerate(rows):
        out[i, 0] = code
        out[i, 1] = value
    return out


@dataclass(frozen=True, slots=True)
class Playouts:
    """What ``n`` play-outs of one world gave."""

    n: int
    mean_scores: tuple[float, float]
    """Mean points elder and younger counted in the deal (from its start)."""
    reached: tuple[float, float]
    """How often elder, younger reached the game's target."""


def playout(
    rules: Rules | str,
    deck: Sequence[int],
    history: Sequence[Action] = (),
    *,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
    policy: PolicyName = "random",
    n: int = 1,
    seed: int = 0,
) -> Playouts:
    """Play a determinized world out ``n`` times with a fast policy: the AI's hook.

    ``deck`` is the world (every card's place, e.g. drawn by :mod:`piquet.analysis.sampling` and
    turned into a pack by :func:`piquet.core.transitions.pack_dealing`); ``history`` the
    actions of the deal so far (``Deal.history``'s actions), replayed as they were; the
    rest is played by ``policy`` (``"random"`` or ``"book"``), each play-out with its own
    draws from ``seed``.  Scores count from the deal's start, so the points already made
    are in them.  Raises :class:`IllegalActionError` if the history is not a legal
    sequence of this world, :class:`PiquetError` for a bad pack, policy or ``n``.
    """
    rules = rules_of(rules)
    _check_deck(rules, deck)
    n = whole_number("n", n, 1)
    code = policy_code(policy)
    fz = trace_of(history)
    out = np.zeros(4, dtype=np.int64)
    status = K.playouts(compile_rules(rules), np.asarray(deck, dtype=np.int64), start[0],
                        start[1], target or 0, code, new_rng(seed), fz, len(history), n, out)
    if status < 0:
        raise IllegalActionError(
            "the history is not a legal sequence of actions in this world (pack and rules)")
    return Playouts(n, (out[0] / n, out[1] / n), (out[2] / n, out[3] / n))


# ---------------------------------------------------------------------- a flat board
# The resumable board (kernel.run_deal / kernel.resume) in one flat int64 array, so that a
# caller holding many boards (piquet.integrations.board: one a card) copies one array and
# makes a three-argument call: the tally, events, trace, classes decided, held counts,
# deferred declarations, play state and stop info, at these offsets.
FLAT_EV: Final = K.T_SIZE
FLAT_TR: Final = FLAT_EV + K.MAX_EVENTS * 3
FLAT_RES: Final = FLAT_TR + K.MAX_TRACE * 2
FLAT_HELD: Final = FLAT_RES + 9
FLAT_DEF: Final = FLAT_HELD + K.MAX_HELD * 3
FLAT_PS: Final = FLAT_DEF + 9
FLAT_INFO: Final = FLAT_PS + K.PS_SIZE
FLAT_SIZE: Final = FLAT_INFO + K.I_SIZE


def flat_parts(flat: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], ...]:
    """The board's arrays as views of ``flat``: tally, events, trace, classes decided, held
    counts, deferred declarations, play state, stop info."""
    return (flat[0:FLAT_EV], flat[FLAT_EV:FLAT_TR].reshape((K.MAX_EVENTS, 3)),
            flat[FLAT_TR:FLAT_RES].reshape((K.MAX_TRACE, 2)),
            flat[FLAT_RES:FLAT_HELD].reshape((3, 3)),
            flat[FLAT_HELD:FLAT_DEF].reshape((K.MAX_HELD, 3)),
            flat[FLAT_DEF:FLAT_PS].reshape((3, 3)), flat[FLAT_PS:FLAT_INFO],
            flat[FLAT_INFO:FLAT_SIZE])


#: ``flat_start(p, deck, start0, start1, target, fz, nfz, flat)``: deal ``deck`` on
#: ``flat`` with the forced choices ``fz[:nfz]`` (the deal's history), stopped at the first
#: card after them (no policy draws: every choice is forced or a card)
flat_start = K._native.flat_start
#: ``flat_resume(p, flat, card)``: the seat to play plays ``card`` on ``flat``; the board
#: runs to the next card
flat_resume = K._native.flat_resume
if K._native.LAYOUT["FLAT_SIZE"] != FLAT_SIZE:
    raise ImportError("piquet.fast.engine's flat board differs from the compiled one")
