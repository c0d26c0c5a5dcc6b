"""Hidden information stays hidden: what each seat's view shows, for every preset.

The oracle here is written from RULES.md, independently of :mod:`piquet.core.view`: from the
pack and the record of actions it works out which cards a seat may see -- its own dealt
cards, discards and takes; the unused rest of elder's allotment (elder, where allowed);
younger's leftovers by the rule set's procedure (1662 elder names a suit, 1754 a card,
1995 younger turns them up for both, 19c and rubicon younger looks and elder may look after
his first card, 1674 hidden); a carte blanche shown once the other has discarded; winning
declarations that must be shown; every card played.  Every card anywhere in a view (its
fields and its JSON, dialog and notes included) must be one of those, or a card only named
aloud (the card elder names or younger appoints for the lead).

A second check is metamorphic: swap two cards a seat cannot see, replay the same actions
(the other seat's mapped through the swap), and whenever the public record (dialog,
events) comes out the same, the seat's view -- legal actions included -- must be the same.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from enginekit import games_ending_on_a_lead, new_deal
from piquet.core.actions import (
    PLAY,
    Action,
    AnnounceBlanche,
    Answer,
    Appoint,
    Declare,
    Discard,
    Leftover,
    LeftoverChoice,
    NameLead,
    Play,
    Question,
    Reply,
)
from piquet.core.cards import DECK32, DECK36, CardSet, mask_cards
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.declarations import COURTS, DeclClass
from piquet.core.match import Match, new_match
from piquet.core.rules import PRESETS, Format, Leftovers, Rules
from piquet.core.view import DealView, deal_view, visible_mask
from piquet.core.view import played_by as view_played_by
from piquet.players.random_player import RandomPlayer
from test_properties import (
    bits,
    blanche_cases,
    blanche_pack,
    class_outcomes,
    dealt_hands,
    shuffled_pack,
)

PRESET_NAMES = list(PRESETS)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def profile(examples: int) -> settings:
    return settings(
        deadline=None, max_examples=examples, suppress_health_check=[HealthCheck.too_slow]
    )


CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([6-9TJQKA][SHDC])(?![A-Za-z0-9])")
CARD_BIT = {str(c): c.bit for c in CardSet(DECK36)}


def card_tokens(text: str) -> int:
    """The cards written anywhere in ``text`` (as ``QH``, ``TS`` ...)."""
    out = 0
    for token in set(CARD_TOKEN.findall(text)):
        out |= CARD_BIT[token]
    return out


# ====================================================================== the oracle


def oracle(deal: Deal, seat: int) -> tuple[int, int]:
    """(cards ``seat`` may see, cards only named aloud), from RULES.md, the pack and the record."""
    rules = deal.rules
    if deal.phase is Phase.DEAL:
        return 0, 0
    other = 1 - seat
    dealt = dealt_hands(deal)
    stock = deal.deck[24:]
    seen = dealt[seat]
    named = 0
    n: list[int | None] = [None, None]
    announced: set[int] = set()
    younger_looked = elder_named = elder_played = asked = False
    for s, a in deal.history:
        if isinstance(a, AnnounceBlanche):
            announced.add(s)
        elif isinstance(a, Discard):
            n[s] = len(a.cards)
            if s == seat:
                seen |= a.cards.mask
        elif isinstance(a, Leftover):
            younger_looked = s == YOUNGER and a.choice is LeftoverChoice.LOOK
        elif isinstance(a, NameLead):
            elder_named = True
            named |= a.card.bit if a.card is not None else 0
        elif isinstance(a, Appoint):
            named |= a.card.bit if a.card is not None else 0
        elif isinstance(a, Play):
            seen |= a.card.bit
            elder_played = elder_played or s == ELDER
        elif isinstance(a, Question) and a.ask:
            asked = s == seat
    ne, ny = n
    if ne is not None and seat == ELDER:
        seen |= bits(stock[:ne])  # elder's takes
        if rules.elder_sees_unused:
            seen |= bits(stock[ne : rules.elder_max])  # the rest of his allotment
    if ne is not None and ny is not None:
        if seat == YOUNGER:
            seen |= bits(stock[ne : ne + ny])
        mode = rules.younger_leftovers
        names = mode in (Leftovers.ELDER_NAMES_SUIT, Leftovers.ELDER_NAMES_CARD)
        if seat == YOUNGER:
            sees = names or (mode is not Leftovers.HIDDEN and younger_looked)
        else:
            sees = (
                (names and elder_named)
                or (mode is Leftovers.YOUNGER_TURNS_UP and younger_looked)
                or (mode is Leftovers.YOUNGER_LOOKS and younger_looked and elder_played)
            )
        if sees:
            seen |= bits(stock[ne + ny :])
    # carte blanche: "the other discards first; show the hand"
    if other in announced and n[seat] is not None:
        seen |= dealt[other]
    # with no number announced (Rubicon) elder's is shown at once, younger's once elder has
    # exchanged (a carte blanche "need not be shown till the adversary has discarded")
    if not rules.blanche_number and dealt[other] & COURTS == 0:
        if other == ELDER or n[ELDER] is not None:
            seen |= dealt[other]
    # winning declarations that must be shown
    must_show = (rules.show_point, rules.show_sequences, rules.show_sets)
    outcomes = class_outcomes(deal)
    for cls, (winner, _, cards) in outcomes.items():
        if winner == other and must_show[cls]:
            seen |= cards
    # "which one is missing?" -- and, where the rules say so, the card laid out is shown
    if asked and rules.show_missing:
        winner, _, cards = outcomes[DeclClass.SET]
        assert winner == other
        for rank in range(6, 15):
            of_rank = bits(9 * s + rank - 6 for s in range(4))
            if (cards & of_rank).bit_count() == 3:
                seen |= of_rank & ~cards & own_discards(deal, other)
    return seen, named


def own_discards(deal: Deal, seat: int) -> int:
    return bits(
        i
        for s, a in deal.history
        if s == seat and isinstance(a, Discard)
        for i in mask_cards(a.cards.mask)
    )


def played_by(deal: Deal, seat: int) -> int:
    return bits(a.card.index for s, a in deal.history if s == seat and isinstance(a, Play))


def action_cards(action: Action) -> int:
    if isinstance(action, (Discard, Declare)):
        return action.cards.mask
    if isinstance(action, Play):
        return action.card.bit
    return 0


def json_without_options(data: dict[str, Any]) -> str:
    """The JSON text of a view, legal actions left out (naming a lead offers every card)."""
    deal = data.get("deal", data)
    if isinstance(deal, dict):
        deal = {k: v for k, v in deal.items() if k != "legal_actions"}
    if "deal" in data:
        data = {**data, "deal": deal}
    else:
        data = deal
    return json.dumps(data, ensure_ascii=False)


def check_view(deal: Deal, seat: int, view: DealView) -> None:
    """Every card in ``view`` is one ``seat`` may see; own cards are exact."""
    allowed, named = oracle(deal, seat)
    other = 1 - seat
    assert view.role == seat
    assert view.phase is deal.phase and view.to_act == deal.to_act
    # the engine's own oracle agrees with this one
    assert visible_mask(deal, seat) == allowed, (
        f"visible_mask differs: engine only {CardSet(visible_mask(deal, seat) & ~allowed)}, "
        f"oracle only {CardSet(allowed & ~visible_mask(deal, seat))}"
    )
    if deal.phase is not Phase.DEAL:
        assert view.dealt.mask == dealt_hands(deal)[seat]
    assert view.hand.mask == deal.hands[seat]
    assert view.discards.mask == own_discards(deal, seat)
    assert view.opponent_played.mask == played_by(deal, other)
    fields = {
        "hand": view.hand,
        "dealt": view.dealt,
        "discards": view.discards,
        "taken": view.taken,
        "stock_seen": view.stock_seen,
        "opponent_shown": view.opponent_shown,
        "opponent_played": view.opponent_played,
        "seen_by_opponent": view.seen_by_opponent,
    }
    for name, cards in fields.items():
        leak = cards.mask & ~allowed
        assert not leak, f"{deal.rules.name}: {name} shows {CardSet(leak)} to seat {seat}"
    assert view.stock_seen.mask & view.hand.mask == 0
    assert (
        view.seen_by_opponent.mask & ~(view.hand.mask | view.discards.mask | played_by(deal, seat))
        == 0
    )
    for u in view.dialog:
        assert not u.shown & ~allowed, f"dialog {u.text!r} shows {CardSet(u.shown & ~allowed)}"
    said = card_tokens("\n".join(u.text for u in view.dialog)) & ~allowed & ~named
    assert not said, f"the dialog names hidden {CardSet(said)}"
    for t in view.tricks:
        assert allowed >> t.lead & 1 and allowed >> t.follow & 1
    if view.trick_lead is not None:
        assert allowed >> view.trick_lead & 1
    noted = card_tokens("\n".join(e.note for e in view.events)) & ~allowed
    assert not noted, f"an event note names hidden {CardSet(noted)}"
    # legal actions: only for the seat to act, and only with its own cards
    if deal.to_act == seat and deal.phase is not Phase.EXCHANGE:
        assert list(view.legal_actions) == deal.legal_actions()
        assert view.discard_range is None
    else:
        assert view.legal_actions == ()
    if deal.to_act == seat and deal.phase is Phase.EXCHANGE:
        assert view.discard_range == deal.discard_range()
    for a in view.legal_actions:
        assert action_cards(a) & ~deal.hands[seat] == 0, f"{a} offered to seat {seat}"
    # and the JSON: every card string in it is allowed (or only named aloud)
    text = json_without_options(view.to_json())
    leak = card_tokens(text) & ~allowed & ~named
    assert not leak, f"{deal.rules.name}: view JSON of seat {seat} mentions {CardSet(leak)}"


def check_views(deal: Deal) -> None:
    for seat in (ELDER, YOUNGER):
        check_view(deal, seat, deal_view(deal, seat))


# ====================================================================== random deals


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(seed=SEEDS)
@profile(30)
def test_deal_views_show_only_what_the_seat_may_see(preset: str, seed: int) -> None:
    """Both seats' views at every step of 30 random deals a preset (it was 60): the same
    :func:`check_view` runs at every step of every deal of the whole random matches of
    :func:`test_match_views_show_only_what_the_player_may_see` (three a preset and format,
    17 to 56 deals a preset more), and ``tests/test_web_leaks.py`` checks every response
    of a whole game a preset against :func:`visible_mask`."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    deal = Deal.new(rules, shuffled_pack(rules, rng))
    check_views(deal)
    while not deal.is_over:
        deal = deal.apply(deal.random_action(rng))
        check_views(deal)


def check_match_views(m: Match) -> None:
    for p in range(m.n_players):
        mv = m.view(p)
        assert mv.player == p
        data = mv.to_json()
        assert "seed" not in data
        assert mv.to_act == m.to_act
        role = mv.role
        if m.deal is None or role is None:
            assert mv.deal is None and mv.legal_actions == ()
            assert card_tokens(json.dumps(data)) == 0, "a player out of the deal sees cards"
            continue
        assert role == m.role_of(p)
        assert mv.deal == deal_view(m.deal, role)
        assert mv.deal is not None
        check_view(m.deal, role, mv.deal)
        allowed, named = oracle(m.deal, role)
        leak = card_tokens(json_without_options(data)) & ~allowed & ~named
        assert not leak, f"match view of player {p} mentions {CardSet(leak)}"
        if m.to_act == p:
            assert mv.legal_actions == mv.deal.legal_actions
        else:
            assert mv.legal_actions == ()


@pytest.mark.parametrize(("preset", "fmt"), [(n, f) for n, r in PRESETS.items() for f in r.formats])
@given(seed=st.integers(0, 2**40))
@profile(3)
def test_match_views_show_only_what_the_player_may_see(preset: str, fmt: Format, seed: int) -> None:
    m = new_match(PRESETS[preset], seed=seed, format=fmt)
    players = [RandomPlayer(seed + p) for p in range(m.n_players)]
    check_match_views(m)
    while not m.finished:
        actor = m.to_act
        assert actor is not None
        m = m.apply(players[actor].choose(m.view(actor)), actor)
        check_match_views(m)
    for p in range(m.n_players):
        assert m.view(p).deal is None


# ====================================================================== swapping hidden cards


def map_action(action: Action, swap: dict[int, int]) -> Action:
    def m(mask: int) -> CardSet:
        return CardSet(bits(swap.get(i, i) for i in mask_cards(mask)))

    if isinstance(action, Discard):
        return Discard(m(action.cards.mask))
    if isinstance(action, Declare):
        return Declare(action.cls, m(action.cards.mask))
    if isinstance(action, Play):
        return PLAY[swap.get(action.card.index, action.card.index)]
    return action


def replay_swapped(deal: Deal, seat: int, x: int, y: int) -> Deal | None:
    """The same deal with cards ``x`` and ``y`` swapped in the pack, the same actions replayed
    (the other seat's through the swap); None if an action becomes illegal."""
    swap = {x: y, y: x}
    pack = [swap.get(i, i) for i in deal.deck]
    again = Deal.new(deal.rules, pack, start=deal.start, target=deal.target)
    for s, a in deal.history:
        mapped = a if s == seat else map_action(a, swap)
        if not again.can(mapped):
            return None
        again = again.apply(mapped)
    return again


def swap_trials(deal: Deal, rng: random.Random, trials: int) -> tuple[int, int]:
    """Swap hidden cards of the seat to act; returns (conclusive, tried)."""
    seat = deal.to_act
    assert seat is not None
    pack = DECK36 if deal.rules.deck_size == 36 else DECK32
    allowed, _ = oracle(deal, seat)
    hidden = list(mask_cards(pack & ~allowed))
    if len(hidden) < 2:
        return 0, 0
    theirs = [i for i in hidden if deal.hands[1 - seat] >> i & 1]
    view = deal_view(deal, seat)
    conclusive = 0
    for _ in range(trials):
        x = rng.choice(theirs or hidden)
        y = rng.choice([i for i in hidden if i != x])
        other = replay_swapped(deal, seat, x, y)
        if other is None:
            continue
        twin = deal_view(other, seat)
        if twin.dialog != view.dialog:
            continue  # the other seat said or showed something else: fair to differ
        conclusive += 1
        # every count is announced, so the same dialog means the same events (notes included)
        assert twin.events == view.events, (
            f"{deal.rules.name}: the events tell seat {seat} what the dialog does not: "
            f"{set(twin.events) ^ set(view.events)}"
        )
        assert twin == view, (
            f"{deal.rules.name}: seat {seat}'s view depends on hidden cards "
            f"{CardSet((1 << x) | (1 << y))} (phase {deal.phase.value}): "
            f"{[str(a) for a in view.legal_actions]} vs {[str(a) for a in twin.legal_actions]}"
        )
    return conclusive, trials


@pytest.mark.parametrize("preset", PRESET_NAMES)
@given(seed=SEEDS)
@profile(25)
def test_views_do_not_depend_on_hidden_cards(preset: str, seed: int) -> None:
    rules = PRESETS[preset]
    rng = random.Random(seed)
    deal = Deal.new(rules, shuffled_pack(rules, rng))
    done = 0
    while not deal.is_over:
        if deal.phase in (Phase.DECLARE, Phase.LEFTOVERS, Phase.APPOINT) or rng.random() < 0.15:
            answering = deal.phase is Phase.DECLARE and deal.to_act == YOUNGER
            done += swap_trials(deal, rng, 8 if answering else 3)[0]
        deal = deal.apply(deal.random_action(rng))
    assert done > 0, "no swap of hidden cards could be compared"


# ====================================================================== deals built by hand


def test_point_of_five_answer_does_not_reveal_elders_pips() -> None:
    """Rubicon: elder says "point of five"; younger, holding five, may only ask "making?"
    or say "good" -- the same options whatever elder's five are worth."""
    rules = PRESETS["rubicon"]
    younger = "AS KS QS 9S 8S  JH 7H  JD 7D  JC 8C 7C"
    views = []
    for elder, rest in (
        ("AH KH QH TH 9H  AD KD QD  AC KC QC TC", "TD 9D 8D 9C TS JS 7S 8H"),
        ("KH QH TH 9H 8H  AD KD QD  AC KC QC TC", "TD 9D 8D 9C TS JS 7S AH"),
    ):
        deal = new_deal(rules, elder, younger, rest)
        deal = deal.apply(Discard(CardSet.parse("TC")))
        deal = deal.apply(Discard(CardSet.parse("7C")))
        while deal.phase is Phase.LEFTOVERS:
            deal = deal.apply(Leftover(LeftoverChoice.DECLINE))
        five = [
            a
            for a in deal.legal_actions()
            if isinstance(a, Declare) and len(a.cards) == 5 and a.cls is DeclClass.POINT
        ]
        assert five, [str(a) for a in deal.legal_actions()]
        deal = deal.apply(five[0])
        assert deal.to_act == YOUNGER
        options = set(deal.legal_actions())
        assert Answer(Reply.MAKING) in options and Answer(Reply.NOT_GOOD) not in options
        assert Answer(Reply.EQUAL) not in options
        views.append(deal_view(deal, YOUNGER))
    assert views[0].legal_actions == views[1].legal_actions
    assert views[0].dialog == views[1].dialog
    assert views[0].hand == views[1].hand


@pytest.mark.parametrize(
    ("preset", "elder_sees"),
    [
        ("court-gamester-1754", "after naming"),
        ("cotgrave-1662", "after naming"),
        ("cotton-1674", "never"),
        ("du-coeur-1995", "when turned up"),
        ("encyclopedia-19c", "after his first card"),
        ("rubicon", "after his first card"),
    ],
)
def test_younger_leftovers_by_procedure(preset: str, elder_sees: str) -> None:
    """Younger leaves stock cards; who sees them, and when, follows each rule set."""
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for _ in range(40):
        deal = Deal.new(rules, shuffled_pack(rules, rng))
        while deal.phase is not Phase.EXCHANGE or deal.to_act != YOUNGER:
            if deal.phase is Phase.EXCHANGE:
                deal = deal.apply(Discard(CardSet(list(deal.hand(ELDER))[:1])))
            else:
                deal = deal.apply(deal.random_action(rng))
            if deal.is_over:
                break
        if deal.is_over:
            continue
        lo, _ = deal.discard_range()
        deal = deal.apply(Discard(CardSet(list(deal.hand(YOUNGER))[:lo])))
        left = deal.leftovers
        assert left and left & deal.elder_leftovers != left
        unseen_by_elder = left & ~deal.elder_leftovers
        assert not deal_view(deal, ELDER).stock_seen.mask & unseen_by_elder
        if elder_sees == "never":
            assert deal.phase is Phase.DECLARE
            assert not deal_view(deal, YOUNGER).stock_seen.mask & left
        elif elder_sees == "after naming":
            assert deal.to_act == ELDER and deal.phase is Phase.LEFTOVERS
            assert deal_view(deal, YOUNGER).stock_seen.mask & left == left
            named = next(a for a in deal.legal_actions() if isinstance(a, NameLead))
            after = deal.apply(named)
            assert deal_view(after, ELDER).stock_seen.mask & left == left
            declined = deal.apply(Leftover(LeftoverChoice.DECLINE))
            assert not deal_view(declined, ELDER).stock_seen.mask & unseen_by_elder
        else:
            assert deal.to_act == YOUNGER and deal.phase is Phase.LEFTOVERS
            assert not deal_view(deal, YOUNGER).stock_seen.mask & left & ~deal.hands[YOUNGER]
            looked = deal.apply(Leftover(LeftoverChoice.LOOK))
            assert deal_view(looked, YOUNGER).stock_seen.mask == left
            declined = deal.apply(Leftover(LeftoverChoice.DECLINE))
            assert not deal_view(declined, YOUNGER).stock_seen.mask & left
            if elder_sees == "when turned up":
                assert deal_view(looked, ELDER).stock_seen.mask & left == left
            else:
                assert not deal_view(looked, ELDER).stock_seen.mask & unseen_by_elder
                d = looked
                while d.phase is not Phase.PLAY or d.to_act != ELDER or d.tricks:
                    d = d.apply(d.random_action(rng))
                assert not deal_view(d, ELDER).stock_seen.mask & unseen_by_elder
                d = d.apply(d.random_action(rng))  # elder's first card
                if not d.is_over:
                    assert deal_view(d, ELDER).stock_seen.mask & left == left
        return
    pytest.fail("no deal reached the leftovers")


def test_carte_blanche_is_shown_only_after_the_other_discards() -> None:
    rules = PRESETS["cotgrave-1662"]
    elder = "AS TS 9S 8S  AH TH 9H  AD TD 9D  AC TC"
    younger = "KS QS JS  KH QH JH  KD QD JD  KC QC 8H"
    stock = "JC 7S 6S 7H 6H 8D 7D 6D 9C 8C 7C 6C"
    deal = new_deal(rules, elder, younger, stock)
    assert deal.phase is Phase.BLANCHE and deal.to_act == ELDER
    deal = deal.apply(AnnounceBlanche(3))
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet()
    assert "Carte blanche" in deal_view(deal, YOUNGER).dialog[-1].text
    assert deal.to_act == YOUNGER  # the other discards first
    deal = deal.apply(Discard(CardSet.parse("8H")))
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet.parse(elder)
    check_views(deal)


def test_a_sunk_holding_stays_hidden() -> None:
    """Rubicon does not show sets: a set counted is heard ("three aces") but not seen."""
    rules = PRESETS["rubicon"]
    elder = "AS AH AD  KS QS  KH QH  KD QD  KC QC JC"
    younger = "TS 9S 8S 7S  TH 9H 8H 7H  TD 9D 8D TC"
    stock = "JS JH JD AC 7D 9C 8C 7C"
    deal = new_deal(rules, elder, younger, stock)
    rng = random.Random(0)
    while not deal.is_over and not deal.tricks:
        check_views(deal)
        deal = deal.apply(deal.random_action(rng))
    shown = deal_view(deal, YOUNGER).opponent_shown.mask
    result = deal.results[DeclClass.SET]
    if result is not None and result.winner == ELDER and not rules.show_sets:
        held = bits(i for h in result.holdings for i in mask_cards(h.cards))
        assert not shown & held & ~deal.shown[ELDER]
    check_views(deal)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_oracle_sanity(preset: str) -> None:
    """The oracle lets a seat see its own hand and never the other's hand at the deal."""
    rules: Rules = PRESETS[preset]
    rng = random.Random(7)
    deal = Deal.new(rules, shuffled_pack(rules, rng))
    if deal.phase is Phase.DEAL:
        deal = deal.apply(deal.random_action(rng))
    for seat in (ELDER, YOUNGER):
        seen, named = oracle(deal, seat)
        assert seen & deal.hands[seat] == deal.hands[seat]
        if deal.phase is not Phase.BLANCHE:
            assert seen & deal.hands[1 - seat] == 0
        assert named == 0
        assert card_tokens(str(CardSet(deal.hands[seat]))) == deal.hands[seat]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_carte_blanche_views(preset: str) -> None:
    """Arranged packs where one or both seats hold carte blanche: every step's views."""
    rules = PRESETS[preset].replace(packet_sizes=[12])
    rng = random.Random(preset)
    for blank in blanche_cases(rules, 12):
        deal = Deal.new(rules, blanche_pack(rules, rng, blank))
        assert deal.phase is (Phase.BLANCHE if rules.blanche_number else Phase.EXCHANGE)
        while not deal.is_over:
            check_views(deal)
            deal = deal.apply(deal.random_action(rng))
        check_views(deal)
        for holder in blank:
            shown = deal_view(deal, 1 - holder).opponent_shown.mask
            assert shown & deal.dealt[holder] == deal.dealt[holder]


def test_a_card_led_when_the_game_ends_is_the_leaders_in_every_count() -> None:
    """A game can end on a card led (1754 counts a point for the lead): nobody is then to
    act, and the view's ``played_by`` once gave that card to both seats (it took the leader to be
    the seat not to act).  It is the leader's alone, in the deal and in both views."""
    for deal, action, final in games_ending_on_a_lead("court-gamester-1754"):
        leader = deal.to_act
        assert leader is not None
        bit = 1 << action.card.index
        for shown in (final, deal_view(final, ELDER), deal_view(final, YOUNGER)):
            assert view_played_by(shown, leader) & bit
            assert not view_played_by(shown, 1 - leader) & bit
