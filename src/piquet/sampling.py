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
  the same words, the same extra holdings counted and the cards shown;
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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from piquet.core.actions import Action, DealBy, Discard, Play, Reply
from piquet.core.cards import SUIT_MASKS, Card, CardSet, mask_cards, pack_mask
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase, Utterance
from piquet.core.declarations import COURTS as COURTS_MASK
from piquet.core.declarations import Claim, DeclClass, claims, counted
from piquet.core.errors import PiquetError
from piquet.core.facts import (
    BlancheCalled,
    BlancheDiscards,
    BlancheShown,
    Declared,
    Exchanged,
    Fact,
    FurtherHeld,
    HoldingShown,
    LaidOut,
    LeadAppointed,
    LeadLacked,
    LeadNamed,
    MissingTold,
    Passed,
    PipsTold,
    Replied,
    Statement,
    statement_of,
)
from piquet.core.rules import PointMeasure, Rules
from piquet.core.transitions import pack_dealing
from piquet.core.view import DealView, deal_view

__all__ = [
    "SINK_WEIGHT",
    "Knowledge",
    "World",
    "knowledge",
    "public_actions",
    "sample_deals",
    "sample_hands",
    "sample_worlds",
    "world_deal",
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
    unused_seen: int
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
        elif isinstance(fact, (Declared, FurtherHeld)):
            # a sequence in one suit names its cards ("tierce to the nine in diamonds")
            for said in _statements(fact):
                decl_shown |= _named_cards(said)
    opp_played = view.opponent_played.mask
    took = [ke >= 0, ky >= 0 and (not y_discard_only or ke >= 0)]
    younger_discarded = ky >= 0
    opp_exchanged = took[other]
    # stock places: elder takes the top k_elder, younger the next k_younger
    stock_size = rules.stock_size
    slots = [0] * stock_size
    unused = view.unused_seen.mask
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
    return Knowledge(
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
        unused_seen=unused,
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


def _statements(fact: Declared | FurtherHeld) -> tuple[Statement, ...]:
    return (fact.said,) if isinstance(fact, Declared) else fact.said


def _named_cards(said: Statement) -> int:
    """The cards a statement names: a sequence in one suit (else 0)."""
    if said.cls is not DeclClass.SEQUENCE or said.suit < 0:
        return 0
    base = 9 * said.suit - 6
    return sum(1 << (base + r) for r in range(said.rank - said.size + 1, said.rank + 1))


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
    kind, value = view.lead_rule
    bound = SUIT_MASKS[value] if kind == "suit" else 1 << value
    return 0 if bound >> first & 1 else bound


def _shown_by(view: DealView, seat: int) -> int:
    out = 0
    for u in view.dialog:
        if u.seat == seat:
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
        elif isinstance(fact, LeadAppointed) and fact.card >= 0:
            excluded |= 1 << fact.card  # younger appoints a card he does not hold
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


def _draw(kn: Knowledge, view: DealView, rng: random.Random) -> World | None:
    """One constructive draw (not yet checked against the dialog); None if it failed."""
    rules = kn.rules
    other = 1 - kn.role
    stock_size = rules.stock_size
    slots = kn.slots
    u_only = kn.unused_seen & ~kn.leftovers_seen
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
        if not kn.opp_blanche and dealt & COURTS_MASK == 0:
            return None
        return World(dealt, disc, stock, dealt & ~disc)
    # the other has exchanged: his take is a range of stock places
    k_o = kn.k_younger if other == YOUNGER else kn.k_elder
    first = 0 if other == ELDER else max(kn.k_elder, 0)
    take_places = range(first, first + k_o)
    seen_take = [i for i in take_places if slots[i] == 3]
    unseen_take = [i for i in take_places if slots[i] == 0]
    known = kn.opp_known_held
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
        if not kn.opp_blanche and dealt & COURTS_MASK == 0:
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
    return World(dealt, disc, stock, hand & ~kn.opp_played)


def _pools(kn: Knowledge, rng: random.Random, u_only: int) -> dict[int, list[int]]:
    """Shuffled cards for the seen stock places of each kind (3, 4, 5)."""
    out = {
        3: list(mask_cards(u_only)),
        4: list(mask_cards(kn.leftovers_seen & ~kn.unused_seen)),
        5: list(mask_cards(kn.leftovers_seen & kn.unused_seen)),
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


# ------------------------------------------------------------------ the dialog


def _said_of(claim: Claim, rules: Rules) -> tuple[Statement, Statement]:
    """What announcing ``claim`` tells, in full and (a point by cards) its first part."""
    return statement_of(claim, rules), statement_of(claim, rules, full=False)


def _talk_by_class(dialog: Sequence[Utterance]) -> list[tuple[DeclClass, list[Fact]]]:
    by: dict[DeclClass, list[Fact]] = {}
    for u in dialog:
        if u.cls is not None:
            by.setdefault(u.cls, []).append(u.fact)
    return sorted(by.items())


def _find_claims(hand: int, cls: DeclClass, said: Statement, rules: Rules) -> list[Claim]:
    """The claims of ``hand`` whose announcement tells ``said``."""
    return [c for c in claims(hand, cls, rules) if said in _said_of(c, rules)]


def _my_post_exchange(view: DealView) -> int:
    played = 0
    for t in view.tricks:
        played |= 1 << (t.lead if t.leader == view.role else t.follow)
    if view.trick_lead is not None and view.to_act != view.role:
        played |= 1 << view.trick_lead
    return view.hand.mask | played


def dialog_weight(opp_hand: int, view: DealView, rules: Rules) -> float:
    """How well a post-exchange hand of the other fits the dialog: 0 (impossible) to 1.

    ``opp_hand`` is his whole hand after the exchange (cards played included).
    """
    role = view.role
    other = 1 - role
    mine = _my_post_exchange(view)
    weight = 1.0
    for cls, facts in _talk_by_class(view.dialog):
        w = _class_weight(cls, facts, opp_hand, mine, role, rules)
        if w == 0.0:
            return 0.0
        weight *= w
    if other == ELDER and _lead_fits(opp_hand, view) == 0.0:
        return 0.0
    return weight


def _class_weight(
    cls: DeclClass, facts: list[Fact], opp_hand: int, mine: int, role: int, rules: Rules
) -> float:
    """How well the other's hand fits what was said in one class (0: it cannot)."""
    partial = cls is DeclClass.POINT and rules.point_measure is PointMeasure.CARDS
    my_claim: Claim | None = None
    my_said: Statement | None = None
    his: list[Claim] = []
    """The claims of his hand that his words may stand for."""
    his_said: Statement | None = None
    revealed = False
    won = False
    """He won the class: I answered "good" to his claim, or he declared as younger."""
    weight = 1.0
    his_claims = claims(opp_hand, cls, rules)
    for fact in facts:
        if fact.role == role:
            if isinstance(fact, PipsTold):
                revealed = True
                if my_said is not None:
                    mine_now = _claims_with(mine, cls, my_said, fact.pips, rules)
                    my_claim = mine_now[0] if mine_now else my_claim
            elif isinstance(fact, Declared) and my_claim is None:
                my_said = fact.said
                found = _find_claims(mine, cls, my_said, rules)
                my_claim = found[0] if found else None
            elif isinstance(fact, Replied) and fact.reply is Reply.GOOD:
                won = bool(his)
            continue
        if isinstance(fact, Replied):
            reply = fact.reply
            if reply is Reply.NOT_GOOD:
                if my_claim is None:
                    return 0.0
                if partial and not revealed:
                    if not any(c.key[0] > my_claim.key[0] for c in his_claims):
                        return 0.0
                elif not any(c.key > my_claim.key for c in his_claims):
                    return 0.0
            elif reply is Reply.EQUAL:
                if my_claim is None or not any(c.key == my_claim.key for c in his_claims):
                    return 0.0
            elif reply is Reply.MAKING:
                if my_claim is None or not any(
                    c.key[0] == my_claim.key[0] for c in his_claims
                ):
                    return 0.0
            elif my_claim is not None and any(c.key > my_claim.key for c in his_claims):
                weight *= SINK_WEIGHT  # "good" to a worse claim than his
        elif isinstance(fact, Passed):
            if his_claims:
                weight *= SINK_WEIGHT
        elif isinstance(fact, Declared):
            his_said = fact.said
            his = _find_claims(opp_hand, cls, his_said, rules)
            if not his:
                return 0.0
            if his_claims and his_claims[0].key > his[0].key:
                weight *= SINK_WEIGHT
            if fact.role == YOUNGER:
                won = True  # younger declares only what wins the class
        elif isinstance(fact, PipsTold):
            revealed = True
            if his_said is None:
                return 0.0
            his = _claims_with(opp_hand, cls, his_said, fact.pips, rules)
            if not his:
                return 0.0
        elif isinstance(fact, FurtherHeld):
            his = [c for c in his if _extras(opp_hand, c, rules) == fact.said]
            if not his:
                return 0.0
        elif isinstance(fact, HoldingShown):
            his = [c for c in his if _counted_cards(opp_hand, c, rules) == fact.cards]
            if not his:
                return 0.0
        # "which one is missing?" and its answer: see Knowledge.sets and not_laid_out
    if won and not any(isinstance(f, FurtherHeld) for f in facts):
        # he counted no further holding: his hand holds none beside the claim
        his = [c for c in his if not _extras(opp_hand, c, rules)]
        if not his:
            return 0.0
    return weight


def _extras(hand: int, claim: Claim, rules: Rules) -> tuple[Statement, ...]:
    """What the winner of a class announces beside ``claim`` ("And three kings")."""
    held, _ = counted(hand, claim, rules)
    return tuple(statement_of(h, rules) for h in held if h.cards != claim.cards)


def _counted_cards(hand: int, claim: Claim, rules: Rules) -> int:
    held, _ = counted(hand, claim, rules)
    cards = 0
    for h in held:
        cards |= h.cards
    return cards


def _claims_with(
    hand: int, cls: DeclClass, said: Statement, pips: int, rules: Rules
) -> list[Claim]:
    """The claims announced by ``said`` (the first words of a point) that make ``pips``."""
    return [c for c in _find_claims(hand, cls, said, rules) if c.pips == pips]


def _lead_fits(hand: int, view: DealView) -> float:
    named = 0
    lacked = False
    for u in view.dialog:
        fact = u.fact
        if isinstance(fact, LeadNamed):
            named = 1 << fact.card if fact.card >= 0 else SUIT_MASKS[fact.suit]
        elif isinstance(fact, LeadLacked):
            lacked = True
    if not named:
        return 1.0
    holds = bool(hand & named)
    return 1.0 if holds != lacked else 0.0


# ------------------------------------------------------------------ public entry points
def sample_worlds(
    view: DealView,
    rules: Rules,
    rng: random.Random,
    n: int,
    *,
    max_tries: int | None = None,
) -> list[World]:
    """Up to ``n`` worlds consistent with ``view`` (each with its weight).

    Draws are rejected when they break a hard constraint; after ``max_tries``
    draws (default ``max(300, 30 * n)``) the worlds found so far are returned,
    and if there are none the dialog is no longer required, so that a decision
    always has worlds to think with.  Raises :class:`SamplingError`
    only if no world at all can be drawn.
    """
    kn = knowledge(view, rules)
    tries = max_tries if max_tries is not None else max(300, 30 * n)
    check_dialog = kn.opp_exchanged and any(u.cls is not None for u in view.dialog)
    other = 1 - view.role
    if other == ELDER and any(isinstance(u.fact, LeadNamed) for u in view.dialog):
        check_dialog = kn.opp_exchanged
    out: list[World] = []
    loose: list[World] = []
    for _ in range(tries):
        w = _draw(kn, view, rng)
        if w is None:
            continue
        if check_dialog:
            full = w.opp_hand | kn.opp_played
            weight = dialog_weight(full, view, rules)
            if weight <= 0.0:
                if len(loose) < n:
                    loose.append(w)
                continue
            w = World(w.opp_dealt, w.opp_discards, w.stock, w.opp_hand, weight)
        out.append(w)
        if len(out) >= n:
            return out
    if out:
        return out
    if loose:
        return loose
    raise SamplingError("no placement of the hidden cards fits this view")


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
    plays = _plays(view)
    budget = [2000]
    found = _replay(deal, view, world, plays, 0, budget)
    if found is None:
        raise SamplingError("this world does not replay to the view")
    found.reverse()
    return found


def _replay(
    d: Deal, view: DealView, world: World, plays: list[int], played: int, budget: list[int]
) -> list[Action] | None:
    """Depth-first replay; returns the actions in reverse order, or None."""
    while True:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if _reached(d, view, played, len(plays)):
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
            options = _matching(d, view)
            if not options:
                return None
            if len(options) > 1:
                for a in options:
                    rest = _replay(d.apply(a), view, world, plays, played, budget)
                    if rest is not None:
                        rest.append(a)
                        return rest
                return None
            a = options[0]
        if not d.can(a):
            return None
        rest = _replay(d.apply(a), view, world, plays, played, budget)
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


def _matching(d: Deal, view: DealView) -> list[Action]:
    """Actions whose new dialog lines are the view's next lines (silent ones last)."""
    n = len(d.dialog)
    out: list[Action] = []
    silent: list[Action] = []
    for a in d.legal_actions():
        nd = d.apply(a)
        new = nd.dialog[n:]
        if not new:
            silent.append(a)
        elif tuple(view.dialog[n : n + len(new)]) == new:
            out.append(a)
    return out + silent


def world_deal(view: DealView, rules: Rules, world: World, *, start: tuple[int, int] = (0, 0),
               target: int | None = None) -> Deal:
    """The :class:`Deal` of this world, replayed to the point of ``view``.

    Raises :class:`SamplingError` if the replay does not give exactly ``view``.
    """
    deck = world_deck(view, rules, world)
    d = Deal.new(rules, deck, start=start, target=target)
    for a in public_actions(d, view, world):
        d = d.apply(a)
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

