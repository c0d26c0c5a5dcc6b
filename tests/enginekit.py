"""Helpers shared by the engine tests: build a pack that deals given hands, play at random."""

from __future__ import annotations

import random

from piquet.actions import Action
from piquet.cards import Card, CardSet, mask_cards
from piquet.deal import Deal
from piquet.rules import Rules


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
        from piquet.actions import DealBy

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


__all__ = ["build_deck", "cards", "mask_cards", "new_deal", "play_random"]
