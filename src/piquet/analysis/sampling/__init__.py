"""Worlds consistent with what one seat knows: the other hand, the discards, the stock.

A seat sees its own cards, the cards it was shown or saw in the stock, the
dialog and the tricks (:class:`~piquet.core.view.DealView`).  Searching players need
the rest: a *world* places every hidden card (the other's dealt hand and
discards, the unseen stock in order) so that the deal, replayed, gives exactly
this seat's view.  The draws here are constructive, then filtered:

- the exchange: how many each discarded, which stock cards this seat took or
  saw (elder's unused cards, the leftovers), and therefore which stock places
  the other took from;
- the dialog: every claim the other declared must be a claim of his hand, with
  the same words, the same extra holdings counted and the cards shown (a sequence is
  said without its suit: one he never showed is placed in a suit that could hold it,
  each suit drawn as often as the hands it allows, see :mod:`piquet.analysis.sampling.draw`);
  "not good" means a better holding, "equal" an equal one, "making?" a point of
  as many cards; a trio's missing card is the one he named; a lead he named and
  lacked is a card or suit he does not hold;
- the play: a suit he did not follow is a suit he no longer held;
- carte blanche: a blanche he showed is his dealt hand; without one his dealt
  hand held a king, queen or knave.

Choices the other could make freely carry a weight instead of a veto: a
holding he sank (passed, answered "good" to a worse claim, declared less than
his best) makes a world less likely (:data:`SINK_WEIGHT`).

:func:`sample_hands` is the fast path for the play (the other's hand only);
:func:`sample_worlds` draws whole worlds; :func:`world_deal` and
:func:`sample_deals` rebuild each as a :class:`~piquet.core.deal.Deal` by replaying
the public history, checked to give the same view.  The view holds no list of
actions, so :func:`public_actions` reconstructs the seat's own and the public
actions from the view while replaying.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from piquet.analysis.sampling.dialog import dialog_weight
from piquet.analysis.sampling.draw import (
    SINK_WEIGHT,
    Knowledge,
    SamplingError,
    World,
    draw,
    knowledge,
)
from piquet.core.actions import Action, DealBy, Discard, Play
from piquet.core.cards import Card, CardSet
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.facts import LeadNamed
from piquet.core.rules import Rules
from piquet.core.transitions import pack_dealing
from piquet.core.view import DealView, deal_view

__all__ = [
    "SINK_WEIGHT",
    "Knowledge",
    "SamplingError",
    "World",
    "dialog_weight",
    "knowledge",
    "public_actions",
    "sample_deals",
    "sample_hands",
    "sample_worlds",
    "world_deal",
    "world_deck",
]


# ------------------------------------------------------------------ public entry points
def sample_worlds(
    view: DealView,
    rules: Rules,
    rng: random.Random,
    n: int,
    *,
    max_tries: int | None = None,
    weigh: Callable[[World], float] | None = None,
    pool: int = 1,
    reweigh: Callable[[list[World]], list[World]] | None = None,
    uniform: bool = False,
) -> list[World]:
    """Up to ``n`` worlds consistent with ``view`` (each with its weight).

    Draws are rejected when they break a hard constraint; after ``max_tries``
    draws (default ``max(300, 30 * n * pool)``) the worlds found so far are returned,
    and if there are none the dialog is no longer required, so that a decision
    always has worlds to think with.  Raises :class:`SamplingError`
    only if no world at all can be drawn.

    ``weigh`` (a belief model: how likely the other's free choices were in a world,
    relative to the others) multiplies each world's weight.  With ``pool`` > 1,
    ``n * pool`` worlds are drawn and ``n`` kept by systematic resampling on their
    weights; a world drawn more than once is returned once, weighted by its count
    (so the solver's work goes to the likely worlds).  ``reweigh``, if given, is applied to
    all the drawn worlds after ``weigh`` and before the resampling (a model that weighs
    the worlds together, as the expert's reading of the other's past cards does).

    ``uniform``: every world consistent with the view alike.  The dialog then only vetoes
    (a world whose hand could not have said what was said); the other's free choices
    weigh nothing (a holding he sank no longer makes a world less likely,
    :data:`SINK_WEIGHT`).  Without ``weigh`` and ``reweigh`` the worlds are then drawn
    uniformly from the consistent ones (their weights only correct the draw, see
    :mod:`piquet.analysis.sampling.draw`).
    """
    if pool < 1:
        raise PiquetError(f"pool must be at least 1, not {pool}")
    kn = knowledge(view, rules)
    want = n * pool
    tries = max_tries if max_tries is not None else max(300, 30 * want)
    check_dialog = kn.opp_exchanged and any(u.cls is not None for u in view.dialog)
    other = 1 - view.role
    if other == ELDER and any(isinstance(u.fact, LeadNamed) for u in view.dialog):
        check_dialog = kn.opp_exchanged
    out: list[World] = []
    loose: list[World] = []
    for _ in range(tries):
        w = draw(kn, view, rng)
        if w is None:
            continue
        if check_dialog:
            full = w.opp_hand | kn.opp_played
            weight = dialog_weight(full, view, rules)
            if weight <= 0.0:
                if len(loose) < n:
                    loose.append(w)
                continue
            if not uniform:
                w = World(w.opp_dealt, w.opp_discards, w.stock, w.opp_hand, w.weight * weight)
        out.append(w)
        if len(out) >= want:
            break
    if not out:
        out = loose
    if not out:
        raise SamplingError("no placement of the hidden cards fits this view")
    if weigh is not None:
        weighed = [World(w.opp_dealt, w.opp_discards, w.stock, w.opp_hand, w.weight * weigh(w))
                   for w in out]
        kept = [w for w in weighed if w.weight > 0.0]
        out = kept or out
    if reweigh is not None:
        out = reweigh(out)
    if len(out) > n:
        out = _resample(out, n, rng)
    return out


def _resample(worlds: list[World], n: int, rng: random.Random) -> list[World]:
    """``n`` draws from ``worlds`` in proportion to their weights (systematic resampling);
    each world drawn once, weighted by how many times it was drawn."""
    total = sum(w.weight for w in worlds)
    if total <= 0.0:
        return worlds[:n]
    step = total / n
    u = rng.random() * step
    counts: dict[int, int] = {}
    acc = 0.0
    i = 0
    for k in range(n):
        x = u + k * step
        while i < len(worlds) - 1 and acc + worlds[i].weight < x:
            acc += worlds[i].weight
            i += 1
        counts[i] = counts.get(i, 0) + 1
    return [
        World(worlds[i].opp_dealt, worlds[i].opp_discards, worlds[i].stock, worlds[i].opp_hand,
              float(c))
        for i, c in sorted(counts.items())
    ]


def sample_hands(
    view: DealView, rules: Rules, rng: random.Random, n: int
) -> list[tuple[int, float]]:
    """The other's hand now in up to ``n`` worlds, with weights (the fast path for play)."""
    return [(w.opp_hand, w.weight) for w in sample_worlds(view, rules, rng, n)]


# ------------------------------------------------------------------ whole deals
def world_deck(view: DealView, rules: Rules, world: World, packet: int | None = None) -> list[int]:
    """The pack order (top first) that deals this world's hands and stock."""
    size = packet or view.packet or rules.packet_sizes[0]
    hands = [0, 0]
    hands[view.role] = view.dealt.mask
    hands[1 - view.role] = world.opp_dealt
    return pack_dealing(hands[ELDER], hands[YOUNGER], world.stock, size)


def _plays(view: DealView) -> list[int]:
    out: list[int] = []
    for t in view.tricks:
        out.extend((t.lead, t.follow))
    if view.trick_lead is not None:
        out.append(view.trick_lead)
    return out


def public_actions(deal: Deal, view: DealView, world: World) -> list[Action]:
    """The actions that lead from ``deal`` (freshly dealt from the world's pack) to ``view``.

    Discards come from the view (this seat's) and the world (the other's), plays
    from the tricks; every other action is one whose words match the dialog
    (where words fit several actions, as a point of two cards may, the replay
    tries each).  Raises :class:`SamplingError` if the world cannot give the view.
    """
    return _public_replay(deal, view, world)[0]


def _public_replay(deal: Deal, view: DealView, world: World) -> tuple[list[Action], Deal]:
    """:func:`public_actions` and the deal they lead to (the replay's own last state, so
    that it need not be replayed again)."""
    plays = _plays(view)
    budget = [2000]
    end: list[Deal] = []
    found = _replay(deal, view, world, plays, 0, budget, end)
    if found is None:
        raise SamplingError("this world does not replay to the view")
    found.reverse()
    return found, end[0]


def _replay(
    d: Deal, view: DealView, world: World, plays: list[int], played: int, budget: list[int],
    end: list[Deal],
) -> list[Action] | None:
    """Depth-first replay; returns the actions in reverse order (and appends the state
    reached to ``end``), or None."""
    while True:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if _reached(d, view, played, len(plays)):
            end.append(d)
            return []
        if d.is_over or len(d.dialog) > len(view.dialog):
            return None
        if d.phase is Phase.EXCHANGE:
            cards = view.discards.mask if d.to_act == view.role else world.opp_discards
            a: Action = Discard(CardSet(cards))
        elif d.phase is Phase.PLAY:
            if played >= len(plays):
                return None
            a = Play(Card.from_index(plays[played]))
            played += 1
        elif d.phase is Phase.DEAL:
            a = DealBy(view.packet or d.rules.packet_sizes[0])
        else:
            # each option comes with the state it leads to (applied once, by _matching)
            options = _matching(d, view)
            if not options:
                return None
            for a, after in options[:-1]:
                rest = _replay(after, view, world, plays, played, budget, end)
                if rest is not None:
                    rest.append(a)
                    return rest
            a, after = options[-1]
            rest = _replay(after, view, world, plays, played, budget, end)
            if rest is not None:
                rest.append(a)
            return rest
        try:
            after = d.apply(a)
        except IllegalActionError:
            return None
        rest = _replay(after, view, world, plays, played, budget, end)
        if rest is not None:
            rest.append(a)
        return rest


def _reached(d: Deal, view: DealView, played: int, n_plays: int) -> bool:
    return (
        played == n_plays
        and len(d.dialog) == len(view.dialog)
        and d.phase is view.phase
        and d.to_act == view.to_act
    )


def _matching(d: Deal, view: DealView) -> list[tuple[Action, Deal]]:
    """Actions whose new dialog lines are the view's next lines (silent ones last), each
    with the deal it leads to."""
    n = len(d.dialog)
    out: list[tuple[Action, Deal]] = []
    silent: list[tuple[Action, Deal]] = []
    for a in d.legal_actions():
        nd = d._apply_legal(a)  # (legal: no check needed)
        new = nd.dialog[n:]
        if not new:
            silent.append((a, nd))
        elif tuple(view.dialog[n : n + len(new)]) == new:
            out.append((a, nd))
    return out + silent


def world_deal(view: DealView, rules: Rules, world: World, *, start: tuple[int, int] = (0, 0),
               target: int | None = None) -> Deal:
    """The :class:`Deal` of this world, replayed to the point of ``view``.

    Raises :class:`SamplingError` if the replay does not give exactly ``view``.
    """
    deck = world_deck(view, rules, world)
    # the replay's last state is the deal its actions lead to (applying is pure)
    _, d = _public_replay(Deal.new(rules, deck, start=start, target=target), view, world)
    if deal_view(d, view.role) != view:
        raise SamplingError("the replayed world gives another view")
    return d


def sample_deals(
    view: DealView,
    rules: Rules,
    rng: random.Random,
    n: int,
    *,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> list[tuple[Deal, float]]:
    """Up to ``n`` whole deals consistent with ``view``, with weights.

    Worlds whose replay fails are dropped (a drawn world that passes the fast
    checks replays in all but rare cases).
    """
    out: list[tuple[Deal, float]] = []
    for w in sample_worlds(view, rules, rng, n):
        try:
            out.append((world_deal(view, rules, w, start=start, target=target), w.weight))
        except SamplingError:
            continue
    return out
