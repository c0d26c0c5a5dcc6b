"""Drawing worlds: what a view tells about the hidden cards, and constructive draws.

Part of :mod:`piquet.analysis.sampling` (the one sampler): :func:`knowledge` gathers what a seat's
view tells about the cards it cannot see, :func:`draw` places them all once (checked
against the exchange, the voids, the claims' shown cards and carte blanche; the dialog's
fit is weighed in :mod:`piquet.analysis.sampling.dialog`).

A sequence the other declared and never showed is said by its length and top card only
("quart to the queen"): its suit is unknown.  :func:`knowledge` lists every way of placing
his unshown sequences in suits that could hold them (:class:`Placement`), each weighted by
how many hands it leaves him (the chance that a hand drawn as if nothing were said holds
those cards); :func:`draw` places one, drawn by that weight, before filling his hand, and
divides the world's weight by the number of listed placements the drawn hand holds, so
that a hand holding such a run in two suits is not counted twice.  Every world still fits
the dialog (:func:`~piquet.analysis.sampling.dialog.dialog_weight` checks it).
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from piquet.core.cards import SUIT_MASKS, mask_cards, pack_mask
from piquet.core.deal import ELDER, YOUNGER, Phase
from piquet.core.declarations import COURTS as COURTS_MASK
from piquet.core.declarations import DeclClass
from piquet.core.errors import PiquetError
from piquet.core.facts import (
    BlancheCalled,
    BlancheDiscards,
    BlancheShown,
    Declared,
    Exchanged,
    FurtherHeld,
    HoldingShown,
    LaidOut,
    LeadAppointed,
    MissingTold,
    Statement,
)
from piquet.core.rules import Rules
from piquet.core.view import DealView

__all__ = [
    "SINK_WEIGHT",
    "Knowledge",
    "Placement",
    "SamplingError",
    "World",
    "draw",
    "knowledge",
]

#: Weight of a world in which the other sank a holding (declared less than he held).
SINK_WEIGHT: Final = 0.15


class SamplingError(PiquetError):
    """No world consistent with the view could be drawn."""


@dataclass(frozen=True, slots=True)
class World:
    """One placement of every hidden card.

    ``opp_dealt``: the other's twelve dealt cards; ``opp_discards``: what he
    laid out (0 if he has not yet); ``stock``: the stock in order, top first;
    ``opp_hand``: his hand now (after the exchange, less the cards played);
    ``weight``: how likely the world is, relative to the others.
    """

    opp_dealt: int
    opp_discards: int
    stock: tuple[int, ...]
    opp_hand: int
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a view tells about the hidden cards, prepared once per decision."""

    role: int
    rules: Rules
    deck: int
    mine_dealt: int
    mine_taken: int
    mine_discards: int
    taken_seen: int
    """Cards of this seat's take that the other saw (elder's unused cards younger took)."""
    mine_shown: int
    """Cards this seat showed in the dialog (carte blanche, claims)."""
    seen_stock: int
    """Stock cards this seat saw and does not hold."""
    opp_known_dealt: int
    """The other's dealt hand when he showed carte blanche, else 0."""
    opp_blanche: bool
    opp_known_held: int
    """Cards the other held after the exchange: played or shown with a claim."""
    opp_played: int
    unplaced: int
    """Cards whose place this seat does not know (the other's dealt hand, unseen stock)."""
    k_elder: int
    """Cards elder exchanged (-1: not yet)."""
    k_younger: int
    younger_discarded: bool
    """Younger has laid out his cards (he may take them later, after elder's blanche)."""
    opp_exchanged: bool
    """The other has taken in his cards."""
    void_suits: int
    """Bit s: the other showed out of suit s; his hand now holds none of it."""
    slots: tuple[int, ...]
    """Each stock place: 0 unseen, 2 taken by this seat, 3 one of elder's unused cards this
    seat saw, 4 one of younger's leftovers this seat saw, 5 both."""
    elder_leftovers_seen: int
    leftovers_seen: int
    sets: tuple[tuple[int, int, int], ...] = ()
    """The other's declared sets: (rank, 3 or 4, the missing card's index or -1)."""
    excluded: int = 0
    """Cards the other cannot hold: above the lowest card of a point he showed, a card he
    appointed elder to lead, and what he said he laid out."""
    opp_laid_out: int = 0
    """Cards the other said he laid out (the missing card of a trio, 1754)."""
    not_laid_out: int = 0
    """Cards the other did not lay out: every card of a rank of which he said "I laid out
    none of the kings"."""
    placements: tuple[Placement, ...] = ()
    """The ways his unshown sequences may lie (empty: none to place)."""
    placement_sums: tuple[float, ...] = ()
    """The running sums of the placements' weights (to draw one by weight)."""


@dataclass(frozen=True, slots=True)
class Placement:
    """One way the other's declared, unshown sequences may lie: the ``cards`` of each run in
    the suit given it (together), and the ``weight`` of that choice: the chance that a hand
    drawn without it holds those cards, so that each choice is drawn as often as the hands
    it allows."""

    cards: int
    weight: float


_deck: Final = pack_mask


def knowledge(view: DealView, rules: Rules) -> Knowledge:
    """Gather what ``view`` tells about the hidden cards.

    Raises :class:`PiquetError` if the view is not in a deal (nothing dealt yet).
    """
    if view.phase is Phase.DEAL:
        raise PiquetError("nothing is dealt yet: there are no hidden cards to place")
    role = view.role
    other = 1 - role
    deck = _deck(rules)
    mine_dealt = view.dealt.mask
    mine_taken = view.taken.mask
    seen = view.stock_seen.mask
    blanche_shown = 0
    opp_blanche = False
    decl_shown = 0
    ke = ky = -1
    y_discard_only = False
    for u in view.dialog:
        fact = u.fact
        if isinstance(fact, Exchanged):
            if fact.role == ELDER:
                ke = fact.count
            else:
                ky = fact.count
        elif isinstance(fact, LaidOut):
            ky = fact.count
            y_discard_only = True
        if fact.role != other:
            continue
        if isinstance(fact, BlancheShown):
            blanche_shown = fact.cards
        elif isinstance(fact, (BlancheCalled, BlancheDiscards)):
            opp_blanche = True
        elif isinstance(fact, HoldingShown):
            decl_shown |= fact.cards
    opp_played = view.opponent_played.mask
    took = [ke >= 0, ky >= 0 and (not y_discard_only or ke >= 0)]
    younger_discarded = ky >= 0
    opp_exchanged = took[other]
    # stock places: elder takes the top k_elder, younger the next k_younger
    stock_size = rules.stock_size
    slots = [0] * stock_size
    unused = view.elder_leftovers_seen.mask
    left = view.leftovers_seen.mask
    if role == ELDER and took[ELDER]:
        for i in range(ke):
            slots[i] = 2
        if unused:
            for i in range(ke, rules.elder_max):
                slots[i] = 3
    if role == YOUNGER and took[YOUNGER]:
        for i in range(ke, ke + ky):
            slots[i] = 2
    if left and ke >= 0 and ky >= 0:
        for i in range(ke + ky, stock_size):
            slots[i] = 5 if slots[i] == 3 else 4
    taken_counts = [ke, ky]
    voids = 0
    for t in view.tricks:
        if t.leader == role and t.follow // 9 != t.lead // 9:
            voids |= 1 << (t.lead // 9)
    if view.trick_lead is not None and view.to_act == role:
        pass  # the other led; a lead tells nothing about voids
    unplaced = deck & ~mine_dealt & ~mine_taken & ~seen
    sets, excluded, kept = _set_and_point_facts(view, other)
    if other == ELDER:
        excluded |= _lead_not_held(view)
    laid_out = 0
    for _, _, miss in sets:
        if miss >= 0:
            laid_out |= 1 << miss
    kn = Knowledge(
        placements=(),
        not_laid_out=kept,
        sets=sets,
        excluded=excluded | laid_out,
        opp_laid_out=laid_out,
        role=role,
        rules=rules,
        deck=deck,
        mine_dealt=mine_dealt,
        mine_taken=mine_taken,
        mine_discards=view.discards.mask,
        taken_seen=view.seen_by_opponent.mask & mine_taken,
        elder_leftovers_seen=unused,
        leftovers_seen=left,
        mine_shown=_shown_by(view, role),
        seen_stock=seen,
        opp_known_dealt=blanche_shown,
        opp_blanche=opp_blanche,
        opp_known_held=opp_played | decl_shown,
        opp_played=opp_played,
        unplaced=unplaced,
        k_elder=taken_counts[ELDER],
        k_younger=taken_counts[YOUNGER],
        younger_discarded=younger_discarded,
        opp_exchanged=opp_exchanged,
        void_suits=voids,
        slots=tuple(slots),
    )
    runs = _unshown_runs(view, other, rules)
    if not runs or not kn.opp_exchanged:
        return kn
    placements = _placements(kn, view, runs)
    sums = tuple(itertools.accumulate(p.weight for p in placements))
    return replace(kn, placements=placements, placement_sums=sums)


def _statements(fact: Declared | FurtherHeld) -> tuple[Statement, ...]:
    return (fact.said,) if isinstance(fact, Declared) else fact.said


def _unshown_runs(view: DealView, other: int, rules: Rules) -> list[tuple[int, int]]:
    """(length, top rank) of each sequence in one suit the other declared (or counted
    beside his claim) and never showed."""
    if not rules.sequences_same_suit:
        return []
    runs: list[tuple[int, int]] = []
    for u in view.dialog:
        fact = u.fact
        if fact.role != other:
            continue
        if isinstance(fact, HoldingShown) and fact.cls is DeclClass.SEQUENCE:
            return []  # he showed every sequence he counted: their cards are known
        if isinstance(fact, (Declared, FurtherHeld)):
            runs.extend(
                (said.size, said.rank)
                for said in _statements(fact)
                if said.cls is DeclClass.SEQUENCE
            )
    return runs


_MAX_PLACEMENTS: Final = 4096


def _run_cards(length: int, top: int, suit: int) -> int:
    base = 9 * suit - 6
    return sum(1 << (base + r) for r in range(top - length + 1, top + 1))


def _inclusion(pool: int, picked: int, wanted: int) -> float:
    """The chance that ``wanted`` given cards all lie among ``picked`` drawn at random
    from ``pool`` (0 if they cannot)."""
    if wanted > picked or picked > pool:
        return 0.0
    out = 1.0
    for i in range(wanted):
        out *= (picked - i) / (pool - i)
    return out


def _placements(
    kn: Knowledge, view: DealView, runs: Sequence[tuple[int, int]]
) -> tuple[Placement, ...]:
    """Every way of placing ``runs`` in suits (runs apart, each in cards the other may hold
    after the exchange), weighted by the hands each leaves him: known cards cost nothing;
    an unseen card is one of the places of his hand filled at random from the unplaced
    cards; one of elder's unused cards that this seat saw is one of younger's seen take."""
    other = 1 - kn.role
    allowed = _void_allowed(kn, view)
    known = kn.opp_known_held
    from_unseen = kn.unplaced & allowed & ~kn.excluded & ~known
    seen_take = 0
    from_seen = 0
    if other == YOUNGER:
        first = max(kn.k_elder, 0)
        seen_take = sum(1 for i in range(first, first + kn.k_younger) if kn.slots[i] == 3)
        if seen_take:
            from_seen = kn.elder_leftovers_seen & ~kn.leftovers_seen & allowed & ~known
    holdable = known | from_unseen | from_seen
    fill = 12 - known.bit_count() - seen_take
    n_unseen = from_unseen.bit_count()
    n_seen = from_seen.bit_count()
    choices: list[list[int]] = []
    for length, top in runs:
        suits = [_run_cards(length, top, s) for s in range(4)]
        choices.append([c for c in suits if c & ~holdable == 0])
    out: list[Placement] = []
    for combo in itertools.islice(itertools.product(*choices), _MAX_PLACEMENTS):
        cards = 0
        for c in combo:
            if cards & c:
                break
            cards |= c
        else:
            weight = _inclusion(n_unseen, fill, (cards & from_unseen).bit_count())
            weight *= _inclusion(n_seen, seen_take, (cards & from_seen).bit_count())
            if weight > 0.0:
                out.append(Placement(cards, weight))
    return tuple(out)


def _placed(kn: Knowledge, rng: random.Random) -> int:
    """One placement of the other's unshown sequences, drawn by weight (0: none)."""
    sums = kn.placement_sums
    if not sums:
        return 0
    i = bisect.bisect_right(sums, rng.random() * sums[-1])
    return kn.placements[min(i, len(sums) - 1)].cards


def _placement_share(kn: Knowledge, hand: int) -> float:
    """1 / the number of placements ``hand`` holds (at least the one drawn)."""
    held = sum(1 for p in kn.placements if p.cards & ~hand == 0)
    return 1.0 / held if held > 1 else 1.0


def _lead_not_held(view: DealView) -> int:
    """The cards elder was bound to lead first and did not: he held none of them."""
    if view.lead_rule is None:
        return 0
    if view.tricks:
        first = view.tricks[0].lead
    elif view.trick_lead is not None:
        first = view.trick_lead
    else:
        return 0
    bound = view.lead_rule.mask
    return 0 if bound >> first & 1 else bound


def _shown_by(view: DealView, seat: int) -> int:
    out = 0
    for u in view.dialog:
        if u.role == seat:
            out |= u.shown
    return out


_SetFact = tuple[int, int, int]


def _set_and_point_facts(
    view: DealView, other: int
) -> tuple[tuple[_SetFact, ...], int, int]:
    """The other's declared sets; the cards he cannot hold (above the lowest card of a
    point he showed, a card he appointed); the cards of the ranks of which he said he laid
    out none."""
    sets: list[tuple[int, int, int]] = []
    missing: list[int] = []
    excluded = 0
    kept = 0
    for u in view.dialog:
        fact = u.fact
        if fact.role != other:
            continue
        if isinstance(fact, HoldingShown) and fact.cls is DeclClass.POINT:
            shown = fact.cards
            suit = mask_cards(shown)[0] // 9
            low = min(c % 9 for c in mask_cards(shown))
            above = sum(1 << (9 * suit + r) for r in range(low + 1, 9))
            excluded |= above & ~shown
        elif isinstance(fact, LeadAppointed) and fact.lead.card is not None:
            excluded |= fact.lead.mask  # younger appoints a card he does not hold
        elif isinstance(fact, MissingTold):
            if fact.card >= 0:
                missing.append(fact.card)
            else:
                kept |= sum(1 << (9 * s + fact.rank - 6) for s in range(4))
        elif isinstance(fact, (Declared, FurtherHeld)):
            for said in _statements(fact):
                if said.cls is DeclClass.SET:
                    sets.append((said.rank, said.size, -1))
    out = []
    for rank, n, _ in sets:
        miss = next((m for m in missing if m % 9 + 6 == rank), -1)
        out.append((rank, n, miss))
    return tuple(out), excluded, kept


def _forced(kn: Knowledge, rng: random.Random, hand: int, allowed: int) -> int:
    """Cards the other's declared sets put in his hand (trios: three of four at random),
    among the cards he may hold (``allowed``: not of a suit he showed out of)."""
    out = 0
    possible = (kn.unplaced | kn.opp_known_held | kn.seen_stock) & allowed
    for rank, n, miss in kn.sets:
        cards = [9 * s + rank - 6 for s in range(4)]
        held = [c for c in cards if hand >> c & 1]
        if n == 4:
            out |= sum(1 << c for c in cards if possible >> c & 1)
            continue
        if len(held) >= 3:
            continue
        if miss >= 0:
            out |= sum(1 << c for c in cards if c != miss and possible >> c & 1)
            continue
        free = [c for c in cards if not hand >> c & 1 and (kn.unplaced & allowed) >> c & 1]
        need = 3 - len(held)
        if len(free) >= need:
            out |= _pick(rng, free, need)
    return out & kn.unplaced


# ------------------------------------------------------------------ drawing worlds
def _pick(rng: random.Random, cards: Sequence[int], n: int) -> int:
    out = 0
    for c in rng.sample(list(cards), n):
        out |= 1 << c
    return out


def _void_allowed(kn: Knowledge, view: DealView) -> int:
    """Cards the other's post-exchange hand may hold, given the suits he showed out of."""
    allowed = kn.deck
    for s in range(4):
        if kn.void_suits >> s & 1:
            allowed &= ~SUIT_MASKS[s]
    return (allowed & ~kn.excluded) | kn.opp_known_held


def draw(kn: Knowledge, view: DealView, rng: random.Random) -> World | None:
    """One constructive draw (not yet checked against the dialog); None if it failed."""
    rules = kn.rules
    other = 1 - kn.role
    stock_size = rules.stock_size
    slots = kn.slots
    u_only = kn.elder_leftovers_seen & ~kn.leftovers_seen
    if not kn.opp_exchanged:
        # the other's dealt hand, then the unseen stock places
        if kn.opp_known_dealt:
            dealt = kn.opp_known_dealt
        elif kn.opp_blanche:
            # he called carte blanche and has not shown it yet: a hand without a court
            blank = mask_cards(kn.unplaced & ~COURTS_MASK)
            if len(blank) < 12:
                return None
            dealt = _pick(rng, blank, 12)
        else:
            dealt = _pick(rng, mask_cards(kn.unplaced), 12)
        rest = list(mask_cards(kn.unplaced & ~dealt))
        rng.shuffle(rest)
        disc = 0
        k_o = kn.k_younger if other == YOUNGER else kn.k_elder
        if other == YOUNGER and kn.younger_discarded and k_o > 0:
            disc = _pick(rng, mask_cards(dealt), k_o)
        stock = _fill_stock(slots, kn, _pools(kn, rng, u_only), rest, {})
        if stock is None:
            return None
        if not kn.opp_blanche and rules.holds_blanche(dealt):
            return None
        return World(dealt, disc, stock, dealt & ~disc)
    # the other has exchanged: his take is a range of stock places
    k_o = kn.k_younger if other == YOUNGER else kn.k_elder
    first = 0 if other == ELDER else max(kn.k_elder, 0)
    take_places = range(first, first + k_o)
    seen_take = [i for i in take_places if slots[i] == 3]
    unseen_take = [i for i in take_places if slots[i] == 0]
    placed = _placed(kn, rng)
    known = kn.opp_known_held | placed
    # seen stock cards in his take: those he played or showed, then random
    must_seen = known & kn.seen_stock
    if must_seen & ~u_only or must_seen.bit_count() > len(seen_take):
        return None
    allowed = _void_allowed(kn, view)
    pool_seen = mask_cards(u_only & ~must_seen & allowed)
    if len(pool_seen) < len(seen_take) - must_seen.bit_count():
        return None
    chosen_seen = must_seen | _pick(rng, pool_seen, len(seen_take) - must_seen.bit_count())
    hand = known | chosen_seen
    if kn.opp_known_dealt:
        # carte blanche shown: his hand is the dealt hand less discards, plus the take
        b = kn.opp_known_dealt
        hand |= _forced(kn, rng, hand, allowed)
        from_take = hand & ~b
        if from_take.bit_count() > k_o:
            return None
        keep_known = hand & b
        n_unseen_take = len(unseen_take)
        extra_take_needed = n_unseen_take - (from_take & ~kn.seen_stock).bit_count()
        if extra_take_needed < 0:
            return None
        take_pool = [c for c in mask_cards(kn.unplaced & ~b & ~hand & allowed)]
        if len(take_pool) < extra_take_needed:
            return None
        take_unseen = (from_take & ~kn.seen_stock) | _pick(rng, take_pool, extra_take_needed)
        keep_known |= b & kn.not_laid_out
        keep_pool = [c for c in mask_cards(b & ~keep_known & allowed)]
        n_keep = 12 - k_o - keep_known.bit_count()
        if n_keep < 0 or len(keep_pool) < n_keep:
            return None
        kept = keep_known | _pick(rng, keep_pool, n_keep)
        disc = b & ~kept
        hand = kept | chosen_seen | take_unseen
        dealt = b
    else:
        hand |= _forced(kn, rng, hand, allowed)
        need = 12 - hand.bit_count()
        fill_pool = mask_cards(kn.unplaced & ~hand & allowed & ~kn.excluded)
        if need < 0 or len(fill_pool) < need:
            return None
        hand |= _pick(rng, fill_pool, need)
        # which of his unseen cards came from the stock
        cand = mask_cards(hand & kn.unplaced)
        if len(cand) < len(unseen_take):
            return None
        take_unseen = _pick(rng, cand, len(unseen_take))
        must_disc = kn.opp_laid_out & kn.unplaced & ~hand
        disc_pool = mask_cards(kn.unplaced & ~hand & ~must_disc & ~kn.not_laid_out)
        if len(disc_pool) < k_o - must_disc.bit_count() or must_disc.bit_count() > k_o:
            return None
        disc = must_disc | _pick(rng, disc_pool, k_o - must_disc.bit_count())
        dealt = (hand & ~chosen_seen & ~take_unseen) | disc
        if not kn.opp_blanche and rules.holds_blanche(dealt):
            return None
    fixed: dict[int, int] = {}
    for place, card in zip(seen_take, mask_cards(chosen_seen), strict=True):
        fixed[place] = card
    for place, card in zip(unseen_take, mask_cards(take_unseen), strict=True):
        fixed[place] = card
    rest = list(mask_cards(kn.unplaced & ~dealt & ~take_unseen))
    rng.shuffle(rest)
    stock = _fill_stock(slots, kn, _pools(kn, rng, u_only & ~chosen_seen), rest, fixed)
    if stock is None or len(stock) != stock_size:
        return None
    weight = _placement_share(kn, hand) if placed else 1.0
    return World(dealt, disc, stock, hand & ~kn.opp_played, weight)


def _pools(kn: Knowledge, rng: random.Random, u_only: int) -> dict[int, list[int]]:
    """Shuffled cards for the seen stock places of each kind (3, 4, 5)."""
    out = {
        3: list(mask_cards(u_only)),
        4: list(mask_cards(kn.leftovers_seen & ~kn.elder_leftovers_seen)),
        5: list(mask_cards(kn.leftovers_seen & kn.elder_leftovers_seen)),
    }
    for v in out.values():
        rng.shuffle(v)
    return out


def _fill_stock(
    slots: tuple[int, ...],
    kn: Knowledge,
    pools: dict[int, list[int]],
    unseen: list[int],
    fixed: dict[int, int],
) -> tuple[int, ...] | None:
    # the cards of this seat's take that the other saw lay on top (elder's unused)
    # (cards this seat showed in the dialog may have been seen either way: they come next)
    mine = [
        *mask_cards(kn.mine_taken & kn.taken_seen & ~kn.mine_shown),
        *mask_cards(kn.mine_taken & kn.taken_seen & kn.mine_shown),
        *mask_cards(kn.mine_taken & ~kn.taken_seen),
    ]
    out: list[int] = []
    used = {3: 0, 4: 0, 5: 0}
    ui = mi = 0
    for place, kind in enumerate(slots):
        if place in fixed:
            out.append(fixed[place])
        elif kind == 2:
            if mi >= len(mine):
                return None
            out.append(mine[mi])
            mi += 1
        elif kind in used:
            pool = pools[kind]
            if used[kind] >= len(pool):
                return None
            out.append(pool[used[kind]])
            used[kind] += 1
        else:
            if ui >= len(unseen):
                return None
            out.append(unseen[ui])
            ui += 1
    if ui != len(unseen) or any(used[k] != len(pools[k]) for k in used):
        return None
    return tuple(out)
