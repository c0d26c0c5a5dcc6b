"""The differential check of the kernel against the public engine.

:func:`differ` plays one pack through the kernel, replays the kernel's choices through
:class:`~piquet.core.deal.Deal`, and says where the two disagree: every score event (role,
kind, points, order), the final scores, who reached the target, and that the engine's deal
ends exactly where the kernel's did.  :func:`differ_resumed` does the same for the
resumable board (:func:`piquet.fast.kernel.run_deal` and :func:`~piquet.fast.kernel.resume`,
what the batch environment steps): the deal stopped at every card, the card chosen from
outside, and at every stop what the seat sees and may play compared with the engine's view.
``tests/test_fast_differential.py`` runs both over a few thousand deals of every preset
and of :func:`random_house_rules` (every knob the compiled code reads, :data:`COMPILED`,
drawn at random: the list is generated from :class:`~piquet.core.rules.Rules`'s fields by
:mod:`piquet.fast.params`, so a new knob is drawn too); ``bench/bench_fast.py --diff N`` over
N per preset.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Final

import numpy as np

from piquet.core.actions import Play
from piquet.core.cards import pack
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.errors import IllegalActionError
from piquet.core.rules import Rules
from piquet.core.scoring import Kind
from piquet.core.view import deal_view, played_by
from piquet.fast import batch as B
from piquet.fast import kernel as K
from piquet.fast.engine import KINDS, PolicyName, actions_of, play_deal, policy_code
from piquet.fast.params import FIELDS, compile_rules
from piquet.fast.policies import new_rng

__all__ = ["COMPILED", "differ", "differ_resumed", "random_case", "random_house_rules"]


def random_case(rules: Rules, rng: random.Random) -> tuple[list[int], tuple[int, int], int | None]:
    """A shuffled pack, game scores before the deal, and a target: one time in three a
    score near the target, so that the game is often reached mid-deal."""
    deck = pack(rules)
    rng.shuffle(deck)
    target: int | None = rules.target
    if rng.random() < 1 / 3:
        start = (rng.randrange(rules.target - 40, rules.target),
                 rng.randrange(rules.target - 40, rules.target))
    elif rng.random() < 0.5:
        start = (0, 0)
        target = None
    else:
        start = (rng.randrange(0, rules.target), rng.randrange(0, rules.target))
    return deck, start, target


#: the knobs the compiled code reads (piquet.fast.params.FIELDS: generated from Rules's
#: fields, so a new knob lands here or stops the import)
COMPILED: Final = tuple(name for name, how in FIELDS.items() if not isinstance(how, str))
#: knobs drawn together (their valid values depend on each other)
_JOINT: Final = ("deck_size", "packet_sizes", "elder_max", "elder_min", "younger_min",
                 "younger_max", "sequence_values", "set_min_rank", "partie_deals")
#: the range of each whole-number knob (a new one must say its range here)
_RANGES: Final = {
    "blanche_value": (0, 15), "trio_value": (0, 5), "quatorze_value": (0, 20),
    "lead_value": (0, 4), "win_value": (0, 4),
    "last_trick_bonus": (0, 3), "last_trick_tenth_bonus": (0, 3), "cards_bonus": (0, 15),
    "capot_bonus": (0, 50), "pique_threshold": (5, 40), "repique_bonus": (0, 70),
    "pique_bonus": (0, 40), "target": (20, 150),
}
#: how often a yes-or-no knob is yes, where not one time in two
_YES: Final = {"carte_blanche": 0.8, "game_ends_mid_deal": 0.8}
#: knobs the engine reads and the compiled code need not, drawn as well
_ALSO: Final = ("show_missing",)


def _joint(rng: random.Random) -> dict[str, object]:
    deck_size = rng.choice((32, 36))
    stock = deck_size - 24
    elder_max = rng.randrange(1, stock)
    younger_min = rng.randrange(0, stock - elder_max + 1)
    return {
        "deck_size": deck_size,
        "packet_sizes": rng.sample((1, 2, 3, 4, 6, 12), rng.randrange(1, 4)),
        "elder_max": elder_max,
        "elder_min": rng.randrange(0, elder_max + 1),
        "younger_min": younger_min,
        "younger_max": rng.choice((0, max(younger_min, 1) + rng.randrange(0, 3))),
        "sequence_values": [rng.randrange(0, 20) for _ in range(rng.randrange(1, 8))],
        "set_min_rank": rng.randrange(6 if deck_size == 36 else 7, 15),
        "partie_deals": 2 * rng.randrange(1, 5),  # an even number
    }


def random_house_rules(rng: random.Random, base: Rules) -> Rules:
    """A rule set with every knob the compiled code reads (:data:`COMPILED`) drawn at random
    (within what is valid): by its type (yes or no, one of an enum's values, a number in its
    range), or with the knobs it depends on (:data:`_JOINT`)."""
    changes = _joint(rng)
    for name in (*COMPILED, *_ALSO):
        if name in changes:
            continue
        default = getattr(base, name)
        if isinstance(default, bool):
            changes[name] = rng.random() < _YES.get(name, 0.5)
        elif isinstance(default, enum.Enum):
            changes[name] = rng.choice(list(type(default)))
        elif name in _RANGES:
            changes[name] = rng.randrange(*_RANGES[name])
        else:
            raise RuntimeError(f"no way to draw the knob {name!r}: give its range in _RANGES")
    return base.replace(name="house", **changes)


def differ(
    rules: Rules,
    deck: Sequence[int],
    *,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
    policy: PolicyName = "random",
    seed: int = 0,
) -> str | None:
    """None when the kernel and the engine agree on this deal, else what differs."""
    fast = play_deal(rules, deck, start=start, target=target, policy=policy, seed=seed)
    deal = Deal.new(rules, deck, start=start, target=target)
    deal, msg = _replay(deal, fast.trace, 0, rules)
    if msg is not None:
        return msg
    return _compare_end(deal, fast.events, fast.scores, fast.reached)


def _replay(deal: Deal, trace: Sequence[tuple[int, int]], first: int, rules: Rules
            ) -> tuple[Deal, str | None]:
    """``deal`` with the kernel's choices ``trace[first:]`` applied, or what went wrong."""
    for i, action in enumerate(actions_of(trace[first:], rules), start=first):
        if deal.is_over:
            return deal, f"the engine's deal is over before the kernel's choice {i} ({action})"
        try:
            deal = deal.apply(action)
        except IllegalActionError as exc:
            return deal, f"choice {i} ({action}) refused by the engine: {exc}"
    return deal, None


def _compare_end(deal: Deal, events: tuple[tuple[int, Kind, int], ...], scores: tuple[int, int],
                 reached_role: int | None) -> str | None:
    if not deal.is_over:
        return f"the kernel stopped but the engine still waits ({deal.phase}, {deal.to_act})"
    engine = tuple((e.role, e.kind, e.points) for e in deal.events)
    if engine != events:
        return f"events differ:\n engine {engine}\n kernel {events}"
    if deal.scores != scores:
        return f"scores differ: engine {deal.scores}, kernel {scores}"
    reached = deal.game_reached_by
    if (None if reached is None else int(reached)) != reached_role:
        return f"target reached by: engine {reached}, kernel {reached_role}"
    return None


def _compare_stop(deal: Deal, info: np.ndarray) -> str | None:
    """The kernel stopped at a card: the engine waits for the same seat's card, and what the
    kernel says the seat holds, has laid out, has seen played, may play and has scored is
    what the engine's view of that seat shows."""
    role = deal.to_act
    seat = int(info[K.I_SEAT])
    if role is None or int(role) != seat or deal.phase is not Phase.PLAY:
        return f"the kernel waits for role {seat}'s card, the engine for {role} ({deal.phase})"
    view = deal_view(deal, role)
    played = played_by(view, ELDER) | played_by(view, YOUNGER)
    legal = sum(1 << a.card.index for a in view.legal_actions if isinstance(a, Play))
    lead = -1 if view.trick_lead is None else view.trick_lead
    engine = (view.hand.mask, legal, view.discards.mask, played, lead, len(view.tricks),
              view.tricks_won[seat], deal.scores)
    kernel = (int(info[K.I_HAND]), int(info[K.I_ALLOWED]), int(info[K.I_DISCARDS]),
              int(info[K.I_PLAYED]), int(info[K.I_LEAD]), int(info[K.I_TRICK]),
              int(info[K.I_WON]), (int(info[K.I_SCORE0]), int(info[K.I_SCORE1])))
    if engine != kernel:
        return ("at a card (hand, legal, discards, played, lead, trick, won, scores) differ:"
                f"\n engine {engine}\n kernel {kernel}")
    return None


def differ_resumed(
    rules: Rules,
    deck: Sequence[int],
    *,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
    policy: PolicyName = "random",
    seed: int = 0,
) -> str | None:
    """None when the resumable board and the engine agree on this deal, else what differs.

    The kernel deals ``deck`` on a board (:func:`~piquet.fast.kernel.run_deal`) and stops at
    every card; each card is drawn (seeded) from the legal cards the kernel gives and played
    with :func:`~piquet.fast.kernel.resume`, while the engine is fed the same choices.  At
    every stop :func:`_compare_stop`; at the end every score event, the scores and the end.
    """
    p = compile_rules(rules)
    tl, ev, tr, res, held, deferred, ps, info = (a[0] for a in B.new_boards(1))
    code = policy_code(policy)
    rng = new_rng(seed)
    pick = random.Random(seed)
    K.run_deal(p, np.asarray(deck, dtype=np.int64), start[0], start[1], target or 0, code, rng,
               tr, ev, K.NO_CHOICES, 0, True, info, tl, res, held, deferred, ps)
    deal = Deal.new(rules, deck, start=start, target=target)
    done = 0
    while True:
        ntr = int(tl[K.T_NTR])
        trace = [(int(a), int(b)) for a, b in tr[:ntr]]
        deal, msg = _replay(deal, trace, done, rules)
        if msg is not None:
            return msg
        done = ntr
        if info[K.I_STATUS] != K.STOPPED:
            break
        msg = _compare_stop(deal, info)
        if msg is not None:
            return msg
        allowed = int(info[K.I_ALLOWED])
        card = pick.choice([c for c in range(36) if allowed >> c & 1])
        K.resume(p, code, rng, tl, ev, held, res, deferred, ps, tr, info, card)
    if info[K.I_STATUS] == K.BAD_CHOICE:
        return "the kernel refused its own choice"
    nev = int(tl[K.T_NEV])
    events = tuple((int(a), KINDS[int(b)], int(c)) for a, b, c in ev[:nev])
    reached = int(tl[K.T_REACHED])
    return _compare_end(deal, events, (int(tl[K.T0]), int(tl[K.T1])),
                        None if reached < 0 else reached)
