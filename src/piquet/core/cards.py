"""Suits, ranks, cards and sets of cards.

A card is one of 36 (``6`` to ``A`` in four suits); the 32-card pack leaves out
the sixes.  Inside the engine a set of cards is an ``int`` bitmask: bit
``9 * suit + (rank - 6)``.  :class:`CardSet` wraps such a mask as an immutable
value that prints and parses the way players write cards::

    >>> CardSet.parse("AS KS qh 10h")
    CardSet('AS KS QH TH')
    >>> str(Card.parse("10♥"))
    'TH'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final, Protocol

from piquet.core.errors import ParseError

__all__ = [
    "DECK32",
    "DECK36",
    "SUIT_CARDS",
    "SUIT_MASKS",
    "Card",
    "CardSet",
    "NamedLead",
    "Rank",
    "Suit",
    "card_points",
    "mask_cards",
    "pack",
    "pack_mask",
    "suit_mask",
]


class Suit(enum.IntEnum):
    """The four suits, in the order the engine sorts them (spades first)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def plural(self) -> str:
        return ("spades", "hearts", "diamonds", "clubs")[self]

    def __str__(self) -> str:
        return self.letter

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``, ``h``, ``♦``, ``clubs`` and the like."""
        key = text.strip().lower()
        found = _SUIT_WORDS.get(key)
        if found is None:
            raise ParseError(f"{text!r} is not a suit: write S, H, D or C (or ♠ ♥ ♦ ♣)")
        return found


class Rank(enum.IntEnum):
    """Ranks from six to ace; the value is the number of pips (ace 14)."""

    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        return "6789TJQKA"[self - 6]

    @property
    def points(self) -> int:
        """Value for the point: ace 11, courts and ten 10, others their pips."""
        return 11 if self == Rank.ACE else min(int(self), 10)

    @property
    def name_singular(self) -> str:
        return ("six", "seven", "eight", "nine", "ten", "knave", "queen", "king", "ace")[self - 6]

    @property
    def name_plural(self) -> str:
        return ("sixes", "sevens", "eights", "nines", "tens", "knaves", "queens", "kings", "aces")[
            self - 6
        ]

    def __str__(self) -> str:
        return self.letter

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        found = _RANK_WORDS.get(key)
        if found is None:
            raise ParseError(
                f"{text!r} is not a rank: write A K Q J T 9 8 7 6 (10 is accepted for T)"
            )
        return found


_SUIT_WORDS: Final = {
    **{s.letter.lower(): s for s in Suit},
    **{s.symbol: s for s in Suit},
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
    **{s.plural: s for s in Suit},
    **{s.plural[:-1]: s for s in Suit},
}
_RANK_WORDS: Final = {
    **{r.letter: r for r in Rank},
    "10": Rank.TEN,
    "N": Rank.JACK,  # knave
    "KN": Rank.JACK,
}

_SUIT_BITS: Final = 0x1FF


def suit_mask(suit: int) -> int:
    """The mask of all nine cards of ``suit``."""
    return _SUIT_BITS << (9 * suit)


SUIT_MASKS: Final = tuple(suit_mask(s) for s in range(4))
DECK36: Final = (1 << 36) - 1
#: The 32-card piquet pack: no sixes.
DECK32: Final = DECK36 & ~sum(1 << (9 * s) for s in range(4))


class _PackRules(Protocol):
    @property
    def deck_size(self) -> int: ...


_PACKS: Final = {n: tuple(i for i in range(36) if n == 36 or i % 9) for n in (32, 36)}


def pack(rules: _PackRules) -> list[int]:
    """The card indices of a rule set's pack (``rules.deck_size`` 36 or 32: no sixes),
    in order, as a new list to shuffle."""
    return list(_PACKS[rules.deck_size])


def pack_mask(rules: _PackRules) -> int:
    """A rule set's pack as a card mask (:data:`DECK36` or :data:`DECK32`)."""
    return DECK36 if rules.deck_size == 36 else DECK32


class Card:
    """One playing card; there are exactly 36 instances, compared by identity.

    ``Card(Suit.HEARTS, Rank.QUEEN)`` prints as ``QH``.
    """

    __slots__ = ("_text", "bit", "index", "rank", "suit")

    index: int
    suit: Suit
    rank: Rank
    bit: int
    _text: str

    def __new__(cls, suit: Suit | int, rank: Rank | int) -> Card:
        if not (0 <= int(suit) < 4 and 6 <= int(rank) <= 14):
            raise ParseError(f"no such card: suit {suit!r}, rank {rank!r}")
        return _CARDS[9 * int(suit) + int(rank) - 6]

    @classmethod
    def _make(cls, index: int) -> Card:
        self = object.__new__(cls)
        suit, rank = Suit(index // 9), Rank(index % 9 + 6)
        for name, value in (
            ("index", index),
            ("suit", suit),
            ("rank", rank),
            ("bit", 1 << index),
            ("_text", rank.letter + suit.letter),
        ):
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    @staticmethod
    def from_index(index: int) -> Card:
        return _CARDS[index]

    @property
    def points(self) -> int:
        return self.rank.points

    @property
    def is_court(self) -> bool:
        return self.rank in (Rank.KING, Rank.QUEEN, Rank.JACK)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __lt__(self, other: Card) -> bool:
        return (self.rank, -self.suit) < (other.rank, -other.suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: rank then suit, as ``QH``, ``q h``, ``10h`` or ``Q♥``."""
        raw = text.strip()
        compact = re.sub(r"[\s\-_/]", "", raw)
        if len(compact) < 2:
            raise ParseError(f"{text!r} is not a card: write rank then suit, e.g. QH, 10h, Q♥")
        rank_text, suit_text = compact[:-1], compact[-1]
        try:
            rank = Rank.parse(rank_text)
            suit = Suit.parse(suit_text)
        except ParseError:
            raise ParseError(
                f"{text!r} is not a card: write rank (A K Q J T 9 8 7 6) then suit (S H D C), "
                "e.g. QH, 10h, Q♥"
            ) from None
        return cls(suit, rank)


_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(36))


def card_points(index: int) -> int:
    """Point value of the card with this index."""
    rank = index % 9 + 6
    return 11 if rank == 14 else min(rank, 10)


def _abs_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each suit and 9-bit suit mask, the absolute card indices, high rank first."""
    return tuple(
        tuple(tuple(9 * s + i for i in range(8, -1, -1) if m >> i & 1) for m in range(512))
        for s in range(4)
    )


_ABS: Final = _abs_tables()
SUIT_CARDS: Final = _ABS
"""``SUIT_CARDS[suit][m]``: the indices of the cards of a suit whose 9-bit mask is ``m``,
high rank first."""
_TEXTS: Final = tuple(str(c) for c in _CARDS)
_S0, _S1, _S2, _S3 = _ABS


def mask_cards(mask: int) -> tuple[int, ...]:
    """Indices of the cards in ``mask``, by suit (S H D C), high rank first."""
    return (
        _S0[mask & 0x1FF]
        + _S1[mask >> 9 & 0x1FF]
        + _S2[mask >> 18 & 0x1FF]
        + _S3[mask >> 27 & 0x1FF]
    )


_TOKEN = re.compile(r"[,;]+|\s+")


class CardSet:
    """An immutable set of cards; iterates by suit, highest rank first.

    ``str(CardSet)`` is the space-separated cards (``AS KS QH``) and
    ``CardSet.parse(str(x)) == x``.
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[Card] | int | str = 0) -> None:
        if isinstance(cards, int):
            if cards < 0 or cards > DECK36:
                raise ParseError(f"{cards!r} is not a card mask")
            value = cards
        elif isinstance(cards, str):
            # CardSet('AS KS'), as the repr prints it; raises ParseError
            value = CardSet.parse(cards).mask
        else:
            value = 0
            for c in cards:
                value |= c.bit
        object.__setattr__(self, "mask", value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (CardSet, (self.mask,))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse cards separated by spaces or commas; ``q h`` is one card.

        Raises :class:`ParseError` naming the bad token or the repeated card.
        """
        tokens = [t for t in _TOKEN.split(text.strip()) if t]
        cards: list[Card] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            # "q h": a lone rank followed by a lone suit
            if (
                i + 1 < len(tokens)
                and tok.upper() in _RANK_WORDS
                and tokens[i + 1].lower() in _SUIT_WORDS
            ):
                tok = tok + tokens[i + 1]
                i += 1
            cards.append(Card.parse(tok))
            i += 1
        mask = 0
        for c in cards:
            if mask & c.bit:
                raise ParseError(f"{c} is written twice in {text!r}")
            mask |= c.bit
        return cls(mask)

    def __iter__(self) -> Iterator[Card]:
        return (_CARDS[i] for i in mask_cards(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask & card.bit)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def of_suit(self, suit: Suit) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def __str__(self) -> str:
        return " ".join([_TEXTS[i] for i in mask_cards(self.mask)])

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"

    def sorted_text(self) -> str:
        """Cards grouped by suit with a gap between suits: ``AS KS  QH``."""
        groups = [" ".join(str(c) for c in CardSet(self.mask & SUIT_MASKS[s])) for s in range(4)]
        return "  ".join(g for g in groups if g)


@dataclass(frozen=True, slots=True)
class NamedLead:
    """A lead named by elder (to see younger's leftovers) or appointed by younger, to which
    elder's first lead is then bound: one card, or a whole suit, as the rule set's
    ``younger_leftovers`` says.  The one value of a named lead: the actions
    (:attr:`~piquet.core.actions.NameLead.lead`), the facts (``LeadNamed.lead``, ...) and the
    deal's state (``Deal.lead_rule``) all hold it.  Prints as an action's id writes it
    (``KS``, or ``S`` for spades); :attr:`words` as the dialog says it.

    >>> NamedLead(card=Card.parse("KS")), NamedLead(suit=Suit.HEARTS).words
    (NamedLead(card=Card.parse('KS'), suit=None), 'hearts')
    """

    card: Card | None = None
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if (self.card is None) == (self.suit is None):
            raise ValueError("a named lead is a card or a suit, one of the two")

    @property
    def mask(self) -> int:
        """The cards it names: the card, or every card of the suit."""
        if self.card is not None:
            return 1 << self.card.index
        assert self.suit is not None
        return SUIT_MASKS[self.suit]

    @property
    def words(self) -> str:
        """As the dialog says it: ``KS`` or ``spades``."""
        if self.card is not None:
            return str(self.card)
        assert self.suit is not None
        return self.suit.plural

    @property
    def kind(self) -> str:
        """``"card"`` or ``"suit"`` (the view's JSON)."""
        return "card" if self.card is not None else "suit"

    def __str__(self) -> str:
        return str(self.card) if self.card is not None else str(self.suit)
