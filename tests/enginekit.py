"""Helpers shared by the engine tests: build a pack that deals given hands, play at random."""

from __future__ import annotations

import random

import pytest

from piquet.core.actions import Action, Play, parse_action
from piquet.core.cards import Card, CardSet, mask_cards
from piquet.core.deal import ROLE_NAMES, Deal
from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.match import Match
from piquet.core.rules import Rules


def build_deck(
    rules: Rules, elder: str, younger: str, stock: str, *, packet: int | None = None
) -> list[int]:
    """A pack order (top first) from which the dealer deals these hands and stock.

    ``elder``/``younger`` are 12 cards each, ``stock`` the rest in order (top first).
    The dealer deals elder first, ``packet`` cards at a time (default: the rule
    set's first packet size).
    """
    size = packet if packet is not None else rules.packet_sizes[0]
    e = [c.index for c in CardSet.parse(elder)]
    y = [c.index for c in CardSet.parse(younger)]
    s = [c.index for c in _ordered(stock)]
    assert len(e) == 12 and len(y) == 12, (len(e), len(y))
    assert len(s) == rules.stock_size, (len(s), rules.stock_size)
    deck: list[int] = []
    while e or y:
        deck.extend(e[:size])
        e = e[size:]
        deck.extend(y[:size])
        y = y[size:]
    deck.extend(s)
    return deck


def _ordered(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def new_deal(
    rules: Rules,
    elder: str,
    younger: str,
    stock: str,
    *,
    packet: int | None = None,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> Deal:
    """A deal with these hands, dealt (the packet size chosen if the rules offer several)."""
    size = packet if packet is not None else rules.packet_sizes[0]
    deal = Deal.new(
        rules, build_deck(rules, elder, younger, stock, packet=size), start=start, target=target
    )
    if deal.phase.value == "deal":
        from piquet.core.actions import DealBy

        deal = deal.apply(DealBy(size))
    return deal


def play_random(deal: Deal, rng: random.Random) -> tuple[Deal, list[Action]]:
    """Play ``deal`` to its end with uniformly random legal actions."""
    taken: list[Action] = []
    while not deal.is_over:
        a = deal.random_action(rng)
        taken.append(a)
        deal = deal.apply(a)
    return deal, taken


def cards(mask: int) -> str:
    return str(CardSet(mask))


def act(deal: Deal, *ids: str) -> Deal:
    for text in ids:
        deal = deal.apply(parse_action(text))
    return deal


def play(deal: Deal, cards: str) -> Deal:
    for text in cards.split():
        deal = deal.apply(Play(Card.parse(text)))
    return deal


def timeline(deal: Deal) -> list[tuple[str, str, int]]:
    return [(ROLE_NAMES[e.seat], e.kind.value, e.points) for e in deal.events]


def said(deal: Deal) -> list[str]:
    return [f"{ROLE_NAMES[u.seat]}: {u.text}" for u in deal.dialog]


def _state(deal: Deal) -> dict[str, object]:
    return {k: v for k, v in vars(deal).items() if not k.startswith("_")}


def refused(deal: Deal, action: Action, *words: str) -> str:
    """``action`` raises IllegalActionError naming ``words``, and ``deal`` is unchanged."""
    before = _state(deal)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(action)
    assert isinstance(info.value, PiquetError)
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert _state(deal) == before
    return message


__all__ = [
    "act",
    "build_deck",
    "cards",
    "mask_cards",
    "new_deal",
    "play",
    "play_random",
    "refused",
    "said",
    "timeline",
]


def games_ending_on_a_lead(preset: str, wanted: int = 2) -> list[tuple[Deal, Play, Deal]]:
    """``wanted`` deals of random games under ``preset`` that end the game on a card led
    (1754 counts a point for a lead, and a game can be won by it): each as the deal before
    the lead, the lead, and the deal after it (nobody to act, the trick open).  Seeds 0 up;
    raises if fewer are found in 400 games."""
    from piquet.core.deal import Phase
    from piquet.core.match import new_match

    out: list[tuple[Deal, Play, Deal]] = []
    for seed in range(400):
        m = new_match(preset, seed=seed)
        rng = random.Random(seed)
        while not m.finished:
            deal = m.deal
            assert deal is not None
            action = m.random_action(rng)
            if (deal.phase is Phase.PLAY and deal.trick_lead is None
                    and isinstance(action, Play) and deal.to_act is not None):
                after = deal.apply(action)
                if after.phase is Phase.OVER and after.trick_lead is not None:
                    out.append((deal, action, after))
                    break
            m = m.apply(action)
        if len(out) >= wanted:
            return out
    raise AssertionError(f"fewer than {wanted} {preset} games end on a card led")


def dealers_to_the_end(match: Match, rng: random.Random) -> tuple[Match, list[int]]:
    """``match`` played to its end by random moves, and who dealt each of its deals."""
    dealers = [match.dealer]
    while not match.finished:
        deal_number, game = match.deal_number, match.game_number
        match = match.apply(match.random_action(rng))
        if not match.finished and (match.deal_number, match.game_number) != (deal_number, game):
            dealers.append(match.dealer)
    return match, dealers
