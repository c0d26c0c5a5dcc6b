"""Helpers shared by the engine tests: build a pack that deals given hands, play at random,
and the scenarios that several source modules play (R, P, Q, SIX)."""

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
    return [(ROLE_NAMES[e.role], e.kind.value, e.points) for e in deal.events]


def said(deal: Deal) -> list[str]:
    return [f"{ROLE_NAMES[u.role]}: {u.text}" for u in deal.dialog]


def _state(deal: Deal) -> dict[str, object]:
    """Every public attribute of the deal (private memo caches left out)."""
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
    assert not deal.can(action)
    assert _state(deal) == before
    return message


__all__ = [
    "P_ELDER",
    "P_STOCK",
    "P_YOUNGER",
    "Q_ELDER",
    "Q_STOCK",
    "Q_YOUNGER",
    "R_ELDER",
    "R_STOCK",
    "R_YOUNGER",
    "SIX_ELDER",
    "SIX_STOCK",
    "SIX_YOUNGER",
    "act",
    "build_deck",
    "cards",
    "declare_p",
    "declare_r",
    "elder_speaks_q",
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


# ---------------------------------------------------------------- scenarios of the sources
# Deals that more than one source module plays (each under its own rules: the exchange
# differs, the hands and what elder declares do not).

# R (36 cards): elder 39 in hand - ruff of 60 (6), sixieme major (16), quatorze of aces and
# three kings (17).  Elder lays out 6C and takes 8H; younger lays out 7S and takes 7H.
R_ELDER = "AS KS QS JS TS 9S AH KH AD KD AC 6C"
R_YOUNGER = "QH JH TH 9H QD JD TD 9D KC QC 8S 7S"
R_STOCK = "8H 7H 6S 6H 8D 7D 6D JC TC 9C 8C 7C"


def declare_r(deal: Deal) -> Deal:
    """Elder declares R's ruff, sixieme and quatorze; each is good."""
    return act(
        deal,
        "declare:point:AS KS QS JS TS 9S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S",
        "good",
        "declare:set:AS AH AD AC",
        "good",
    )


# P (36 cards): elder 29 in hand - ruff of 60 (6), sixieme major and quart to the knave
# (20), three aces (3); his first lead, an ace, makes thirty.  Elder lays out 6D, younger 6S.
P_ELDER = "AS KS QS JS TS 9S JH TH 9H AD AC 6D"
P_YOUNGER = "8S 7S 6S KH QH AH KD QD JD KC QC JC"
P_STOCK = "8H 7H 6H TD 9D 8D 7D TC 9C 8C 7C 6C"


def declare_p(deal: Deal) -> Deal:
    """Elder declares P's ruff, sixieme and three aces; each is good."""
    return act(
        deal,
        "declare:point:AS KS QS JS TS 9S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S",
        "good",
        "declare:set:AS AD AC",
        "good",
    )


# Q (32 cards): elder has the point of five (51), a quint major (15), a quatorze of aces
# and three kings (17); younger a point of six in clubs (K Q J 9 8 7 = 54), which beats
# elder's.
Q_ELDER = "AS KS QS JS TS AH AD AC KH KD 7H 8D"
Q_YOUNGER = "KC QC JC 9C 8C 7C 9S 8S QH JH QD JD"
Q_STOCK = "7D 7S TH 9H 8H TD 9D TC"


def elder_speaks_q(deal: Deal) -> Deal:
    """Elder declares Q's point (not good: younger's is better), quint and quatorze."""
    return act(
        deal,
        "declare:point:AS KS QS JS TS",
        "not-good",
        "declare:sequence:AS KS QS JS TS",
        "good",
        "declare:set:AS AH AD AC",
        "good",
    )


# SIX (32 cards): tricks six and six when played out as the modules do; elder has a point
# of six and a sixieme major with a tierce to the nine, younger three aces.
SIX_ELDER = "AS KS QS JS TS 9S 9H 8H 7H 9D 8D 7D"
SIX_YOUNGER = "AH KH QH JH TH AD KD QD JD TD AC KC"
SIX_STOCK = "7C 8C 9C TC JC QC 8S 7S"


_ADVICE: list[tuple[tuple[object, ...], dict[str, object], object]] = []
"""The rankings :func:`advise_once_per_question` made in this test process, with their
arguments."""


def advise_once_per_question(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ``advise`` command's :func:`~piquet.advisor.advise`, answered once for each
    question asked in this test process (for the rest of the test): the advice is a function
    of its arguments (seeded, frozen: ``tests/test_advisor.py``'s ranking test asks it twice
    and compares), so a command that asks the same advice again prints what a second
    ranking would have given.  Only for a test that changes nothing the ranking reads
    besides its arguments (a test that patches the odds' exact limit, say, asks the real
    one).  Returns the questions the test asks (their places in the process's list), each
    once, as they come."""
    import piquet.advisor
    from piquet.analysis import odds

    real = piquet.advisor.advise
    questions: list[int] = []

    def once(*args: object, **kwargs: object) -> object:
        # what the ranking reads besides its arguments, as shipped (a test that changes
        # it must ask the real advice: a kept answer would not be the one it asks for)
        assert odds._EXACT_LIMIT == 3_000_000, "advise_once_per_question with the odds patched"
        i = next((n for n, (a, k, _) in enumerate(_ADVICE) if a == args and k == kwargs),
                 len(_ADVICE))
        if i == len(_ADVICE):
            _ADVICE.append((args, kwargs, real(*args, **kwargs)))  # type: ignore[arg-type]
        if i not in questions:
            questions.append(i)
        return _ADVICE[i][2]

    monkeypatch.setattr(piquet.advisor, "advise", once)
    return questions
