"""Exact odds of the draw, in fractions and in the books' idiom.

Two questions, both answered exactly:

* :func:`draw_chance`: drawing ``draw`` cards from ``unseen``, the chance of
  taking in at least ``at_least`` of ``wanted`` certain cards (the
  hypergeometric tail), as a :class:`~fractions.Fraction`;
* :func:`improvements`: a player holds twelve cards and lays out a discard;
  over every possible draw from the cards he has not seen, the chance of each
  improvement of his point, his sequences and his sets.

:class:`Odds` prints a chance the way the period books do: ``29 to 28 on``,
``3 to 1 against``, and, when the exact figures are large, the nearest small
ratio (``232 to 91 on, about 5 to 2``).

Who draws from what (the reading used throughout, for the 32-card pack): each
player holds twelve and has not seen the other twenty.  Elder takes the top
cards of the stock, which are any five of his twenty unseen cards; younger, if
elder took his five, takes the last three, which are any three of *his* twenty
unseen cards (elder's hand, elder's discard and the stock are all alike to
him).  So elder draws up to 5 from 20 and younger 3 from 20.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, Final

import numpy as np

from piquet.analysis.drawtables import cross_suit_sequences, draws, suit_tables
from piquet.core.cards import CardSet, Rank, Suit, mask_cards, pack_mask
from piquet.core.declarations import COURTS, DeclClass, best_claim, statement
from piquet.core.errors import PiquetError
from piquet.core.roles import ROLE_NAMES
from piquet.core.rules import PointMeasure, Rules
from piquet.core.words import SEQUENCE_NAMES

__all__ = [
    "Event",
    "Improvements",
    "Odds",
    "certain_cards_chance",
    "deck_mask",
    "draw_chance",
    "improvements",
    "odds_phrase",
    "role_draw_range",
]

ELDER: Final = 0
YOUNGER: Final = 1
_ROLES: Final = ROLE_NAMES
#: most draws enumerated for one discard before sampling (never reached by the presets)
_EXACT_LIMIT: Final = 3_000_000


def draw_chance(unseen: int, draw: int, wanted: int, *, at_least: int = 1) -> Fraction:
    """The chance of taking in at least ``at_least`` of ``wanted`` certain cards.

    ``draw`` cards are taken from ``unseen`` cards, all alike to the player,
    of which ``wanted`` would please him.  Exact (hypergeometric).  Raises
    :class:`PiquetError` if the numbers cannot describe a draw.
    """
    for name, value in (("unseen", unseen), ("draw", draw), ("wanted", wanted)):
        if value < 0:
            raise PiquetError(f"{name} must not be negative (got {value})")
    if unseen < 1:
        raise PiquetError("unseen must be at least 1")
    if draw > unseen:
        raise PiquetError(f"cannot draw {draw} cards from {unseen}: draw at most {unseen}")
    if wanted > unseen:
        raise PiquetError(f"cannot want {wanted} of {unseen} cards: want at most {unseen}")
    if at_least < 0:
        raise PiquetError(f"at-least must not be negative (got {at_least})")
    total = comb(unseen, draw)
    good = sum(
        comb(wanted, j) * comb(unseen - wanted, draw - j)
        for j in range(at_least, min(wanted, draw) + 1)
    )
    return Fraction(good, total)


# ====================================================================== the idiom
def _simple_ratio(big: int, small: int) -> tuple[int, int]:
    """Small whole numbers near ``big : small`` (``big >= small > 0``), as the books give them."""
    if big >= 10 * small:
        # "N to 1", rounded exactly: a float cannot hold every ratio of whole numbers
        return round(Fraction(big, small)), 1
    ratio = big / small  # below 10: a float holds it, however large big and small are
    for tolerance in (0.03, 0.06):
        for y in range(1, 13):
            x = round(ratio * y)
            if x >= y and abs(x / y - ratio) / ratio <= tolerance:
                return x, y
    best = min(
        ((round(ratio * y), y) for y in range(1, 13)),
        key=lambda xy: abs(xy[0] / xy[1] - ratio),
    )
    return best


def odds_phrase(p: Fraction) -> str:
    """A chance in the books' words: ``29 to 28 on``, ``3 to 1 against``, ``evens``.

    When the exact figures run past 40 the nearest small ratio follows
    (``232 to 91 on, about 5 to 2``).
    """
    if p <= 0:
        return "impossible"
    if p >= 1:
        return "certain"
    a, b = p.numerator, p.denominator - p.numerator
    if a == b:
        return "evens"
    big, small = max(a, b), min(a, b)
    side = "on" if a > b else "against"
    exact = f"{big} to {small} {side}"
    if big <= 40:
        return exact
    x, y = _simple_ratio(big, small)
    if (x, y) == (big, small):
        return exact
    about = "evens" if x == y else f"{x} to {y}"
    return f"{exact}, about {about}"


@dataclass(frozen=True, slots=True)
class Odds:
    """An exact chance: the reduced fraction, the probability and the idiom."""

    fraction: Fraction

    @property
    def probability(self) -> float:
        return float(self.fraction)

    @property
    def phrase(self) -> str:
        return odds_phrase(self.fraction)

    @property
    def rounded(self) -> str:
        """The idiom in small numbers, as the books round it: ``9 to 2 on`` for
        110421 to 24175 on; the exact ratio when it is already small."""
        p = self.fraction
        if p <= 0 or p >= 1:
            return odds_phrase(p)
        a, b = p.numerator, p.denominator - p.numerator
        big, small = max(a, b), min(a, b)
        x, y = (big, small) if big <= 40 else _simple_ratio(big, small)
        if x == y:
            return "evens"
        return f"{x} to {y} {'on' if a > b else 'against'}"

    @property
    def for_against(self) -> tuple[int, int]:
        """(chances for, chances against), in lowest terms."""
        f = self.fraction
        return f.numerator, f.denominator - f.numerator

    def __str__(self) -> str:
        f = self.fraction
        return f"{f.numerator}/{f.denominator} = {float(f):.4f} ({self.phrase})"

    def to_json(self) -> dict[str, Any]:
        f = self.fraction
        return {
            "fraction": f"{f.numerator}/{f.denominator}",
            "probability": float(f),
            "odds": self.phrase,
        }


# ====================================================================== improvements
def deck_mask(rules: Rules) -> int:
    """Every card of the rule set's pack, as a mask."""
    return pack_mask(rules)


def role_draw_range(rules: Rules, role: int, *, stock: int | None = None) -> tuple[int, int]:
    """(fewest, most) cards ``role`` may lay out and take in.

    Younger's most is what elder left: by default the stock less elder's full
    allotment, or ``stock`` if given.  Raises :class:`PiquetError` for a
    ``stock`` the rule set cannot leave him.
    """
    if role == ELDER:
        return rules.elder_min, rules.elder_max
    fewest_left = rules.stock_size - rules.elder_max
    most_left = rules.stock_size - rules.elder_min
    left = fewest_left if stock is None else stock
    if not fewest_left <= left <= most_left:
        raise PiquetError(
            f"elder takes {rules.elder_min} to {rules.elder_max} cards under {rules.name}, so "
            f"younger is left {fewest_left} to {most_left}, not {left}"
        )
    hi = min(left, rules.younger_max) if rules.younger_max else left
    return min(rules.younger_min, hi), hi


def _check_hand(hand: int, rules: Rules, *, what: str = "the hand") -> None:
    pack = deck_mask(rules)
    if hand & ~pack:
        raise PiquetError(
            f"{what} holds {CardSet(hand & ~pack)}, not in the {rules.deck_size}-card pack "
            f"of {rules.name}"
        )
    if hand.bit_count() != 12:
        raise PiquetError(f"{what} must hold the 12 cards dealt, not {hand.bit_count()}")


@dataclass(frozen=True, slots=True)
class Event:
    """One improvement the draw may bring, and its exact chance."""

    cls: str
    """``point``, ``sequence``, ``set`` or ``blanche``."""
    name: str
    odds: Odds
    value: int = 0
    """What the improvement counts if good (the declaration's own worth)."""

    def to_json(self) -> dict[str, Any]:
        return {"class": self.cls, "name": self.name, "value": self.value, **self.odds.to_json()}


@dataclass(frozen=True, slots=True)
class Improvements:
    """What a discard may take in: every event's exact chance over every draw."""

    rules: str
    role: int
    hand: CardSet
    discard: CardSet
    unseen: int
    draw: int
    draws: int
    exact: bool
    kept: tuple[str, ...]
    """What the kept cards already hold, in words."""
    events: tuple[Event, ...]
    blanche: str

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "role": _ROLES[self.role],
            "hand": [str(c) for c in self.hand],
            "discard": [str(c) for c in self.discard],
            "unseen": self.unseen,
            "draw": self.draw,
            "draws": self.draws,
            "exact": self.exact,
            "kept": list(self.kept),
            "carte_blanche": self.blanche,
            "events": [e.to_json() for e in self.events],
        }

    def lines(self) -> list[str]:
        """The answer as text lines for the terminal."""
        how = "every draw" if self.exact else "a sample of draws"
        laid = str(self.discard) if self.discard else "nothing"
        many = "draw" if self.draws == 1 else "draws"
        out = [
            f"{_ROLES[self.role].capitalize()} under {self.rules} lays out {laid} "
            f"and takes in {self.draw} of {self.unseen} unseen cards "
            f"({self.draws:,} {many}, {how}).",
        ]
        if self.kept:
            out.append("Keeps: " + "; ".join(self.kept) + ".")
        out.append(f"Carte blanche: {self.blanche}.")
        width = max((len(e.name) for e in self.events), default=0)
        for e in self.events:
            f = e.odds.fraction
            if not self.exact:  # a sampled count is no exact fraction: say so
                out.append(
                    f"  {e.name:<{width}}  about {e.odds.probability:.2f}  "
                    f"(about {e.odds.rounded})"
                )
                continue
            out.append(
                f"  {e.name:<{width}}  {f.numerator}/{f.denominator}"
                f" = {e.odds.probability:.4f}  ({e.odds.phrase})"
            )
        if not self.events:
            out.append("  The draw can improve nothing this rule set counts.")
        return out


def _kept_words(kept: int, rules: Rules) -> tuple[str, ...]:
    out = []
    for cls in DeclClass:
        claim = best_claim(kept, cls, rules)
        if claim is not None:
            out.append(statement(claim, rules))
    return tuple(out)


def _point_event_name(v: int, rules: Rules) -> str:
    if rules.point_measure is PointMeasure.CARDS:
        return f"point of {v} cards or more"
    return f"point worth {v} or more ({max(10 * v - 5, 0)} pips or more)"


def _checked_draw(h: int, d: int, s: int, rules: Rules, role: int, stock: int | None
                  ) -> tuple[list[int], int]:
    """The unseen cards and how many ``role`` takes in, laying out ``d`` from ``h`` having
    seen ``s``; raises :class:`PiquetError` for what the rule set does not allow."""
    _check_hand(h, rules)
    if d & ~h:
        raise PiquetError(f"the discard holds {CardSet(d & ~h)}, which the hand does not hold")
    if s & h:
        raise PiquetError(f"{CardSet(s & h)} cannot be both in the hand and seen elsewhere")
    if s & ~deck_mask(rules):
        raise PiquetError(f"{CardSet(s & ~deck_mask(rules))} is not in the pack of {rules.name}")
    # the stock is unseen until it is drawn, and as many cards as elder took from it lie
    # unseen in his discard: no player knows more than the other's twelve
    most_seen = rules.deck_size - 12 - rules.stock_size
    if s.bit_count() > most_seen:
        raise PiquetError(
            f"{s.bit_count()} cards seen, but under {rules.name} a player knows at most "
            f"{most_seen} other cards when he draws: the stock's {rules.stock_size} (for "
            "younger, the stock elder left him and elder's discard) are unseen"
        )
    if role == ELDER and stock is not None:
        raise PiquetError(
            "the stock elder left is younger's question: elder draws from the whole stock "
            "(give the stock for younger only)"
        )
    lo, hi = role_draw_range(rules, role, stock=stock)
    k = d.bit_count()
    if not lo <= k <= hi:
        raise PiquetError(f"{_ROLES[role]} lays out {lo} to {hi} cards under {rules.name}, not {k}")
    unseen = [c for c in mask_cards(deck_mask(rules) & ~h & ~s)]
    if k > len(unseen):
        raise PiquetError(f"only {len(unseen)} cards are unseen; cannot take in {k}")
    return unseen, k


def _blanche_words(h: int, rules: Rules) -> str:
    """Carte blanche for the twelve dealt ``h``: not scored, held, or impossible."""
    if not rules.carte_blanche:
        return "not scored: these rules give nothing for a hand without a court card"
    if h & COURTS == 0:
        return (
            f"held: the twelve dealt have no king, queen or knave ({rules.blanche_value}, "
            "counted first)"
        )
    return f"impossible: it is judged on the twelve dealt, which hold {CardSet(h & COURTS)}"


def improvements(
    hand: CardSet | int,
    discard: CardSet | int,
    rules: Rules,
    *,
    role: int = ELDER,
    seen: CardSet | int = 0,
    stock: int | None = None,
) -> Improvements:
    """The exact chance of each improvement when ``role`` lays out ``discard``.

    ``hand`` is the twelve cards dealt; ``seen`` any other cards the player
    knows are not in the stock (shown by the other).  He takes in as many
    cards as he lays out, from the cards he has not seen.  Events: the point
    reaching each worth above what the kept cards hold; in each suit, a
    sequence of each length above the kept one; for each set rank, three and
    four of it; and carte blanche (judged on the twelve dealt, so the draw
    can never make it).  Raises :class:`PiquetError` for a hand, discard or
    number the rule set does not allow.
    """
    h = hand.mask if isinstance(hand, CardSet) else hand
    d = discard.mask if isinstance(discard, CardSet) else discard
    s = seen.mask if isinstance(seen, CardSet) else seen
    unseen, k = _checked_draw(h, d, s, rules, role, stock)
    kept = h & ~d
    dr = draws(unseen, k, limit=_EXACT_LIMIT)
    n = dr.count
    tables = suit_tables(rules)
    finals = [
        (np.int64(kept >> (9 * su) & 0x1FF) | dr.suits[:, su].astype(np.int64)) for su in range(4)
    ]
    events: list[Event] = []

    def chance(hits: Any) -> Odds:
        count = int(np.count_nonzero(hits))
        return Odds(Fraction(count, n))

    # --- the point
    pval = np.array([tables.point_value(c) for c in tables.point_code], dtype=np.int64)
    point_v = np.max(np.stack([pval[f] for f in finals]), axis=0)
    now = max(tables.point_value(tables.point_code[kept >> (9 * su) & 0x1FF]) for su in range(4))
    for v in range(now + 1, int(point_v.max()) + 1):
        events.append(Event("point", _point_event_name(v, rules), chance(point_v >= v), v))
    # --- sequences, suit by suit
    if rules.sequences_same_suit:
        seq_code = np.array(tables.seq_code, dtype=np.int64)
        for su in range(4):
            length = seq_code[finals[su]] >> 4
            had = tables.seq_code[kept >> (9 * su) & 0x1FF] >> 4
            for ln in range(max(had + 1, 3), int(length.max()) + 1):
                name = f"{SEQUENCE_NAMES[ln]} or better in {Suit(su).plural}"
                events.append(
                    Event("sequence", name, chance(length >= ln), rules.sequence_value(ln))
                )
    else:
        # the best run of ranks held in any suits
        presence = finals[0] | finals[1] | finals[2] | finals[3]
        lengths = np.array(tables.seq_code, dtype=np.int64)[presence] >> 4
        had = cross_suit_sequences(kept, rules)[0] >> 4
        for ln in range(max(had + 1, 3), int(lengths.max()) + 1):
            events.append(
                Event(
                    "sequence",
                    f"{SEQUENCE_NAMES[ln]} or better (any suits)",
                    chance(lengths >= ln),
                    rules.sequence_value(ln),
                )
            )
    # --- sets
    for rank in range(14, int(rules.set_min_rank) - 1, -1):
        bit = rank - 6
        count = (finals[0] >> bit & 1) + (finals[1] >> bit & 1)
        count += (finals[2] >> bit & 1) + (finals[3] >> bit & 1)
        held = sum(kept >> (9 * su + bit) & 1 for su in range(4))
        r = Rank(rank)
        if held < 3 and int(count.max()) >= 3:
            events.append(
                Event("set", f"three {r.name_plural} or more", chance(count >= 3), rules.trio_value)
            )
        if held < 4 and int(count.max()) >= 4:
            events.append(
                Event(
                    "set", f"quatorze of {r.name_plural}", chance(count >= 4), rules.quatorze_value
                )
            )
    blanche = _blanche_words(h, rules)
    return Improvements(
        rules=rules.name,
        role=role,
        hand=CardSet(h),
        discard=CardSet(d),
        unseen=len(unseen),
        draw=k,
        draws=n,
        exact=dr.exact,
        kept=_kept_words(kept, rules),
        events=tuple(events),
        blanche=blanche,
    )


def certain_cards_chance(
    rules: Rules, role: int, wanted: int, *, at_least: int = 1, stock: int | None = None
) -> Fraction:
    """The books' question for a role: taking in ``at_least`` of ``wanted`` certain cards.

    The player has seen only his twelve; elder takes his full allotment, and
    younger what elder left (``stock``, by default the rest of the stock).
    """
    unseen = rules.deck_size - 12
    draw = rules.elder_max if role == ELDER else role_draw_range(rules, role, stock=stock)[1]
    return draw_chance(unseen, draw, wanted, at_least=at_least)
