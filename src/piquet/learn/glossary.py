"""The glossary: every period term the interface shows, one source of truth.

Each :class:`Term` has a plain definition for someone who has never played, an example,
and how each text uses the word (:class:`Usage`, quoting the passage verbatim where the
text has one: ``tests/test_learn_glossary.py`` checks every quotation against the texts in
``shared/sources/``).  The browser's tooltips and page, the terminal's ``piquet glossary``,
the lessons and the coach all read this module; nothing else defines a term.

>>> lookup("Quatorze").name
'quatorze'
>>> lookup("elder hand").key
'elder'
>>> [t.key for t in terms_in("Point of five: not good, his quint beats it.")]
['point', 'not-good', 'quint']
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

__all__ = [
    "GLOSSARY",
    "SOURCE_NAMES",
    "Term",
    "Usage",
    "lookup",
    "scanned_forms",
    "terms_in",
]

SOURCE_NAMES: Final[dict[str, str]] = {
    "cotgrave-1662": "Cotgrave (1662)",
    "cotton-1674": "Cotton (1674)",
    "du-coeur-1995": "du Coeur's reconstruction (1995)",
    "court-gamester-1754": "The Compleat Gamester (1754)",
    "encyclopedia-19c": "the 19th-century encyclopedia",
    "rubicon": "Rubicon Piquet today (Parlett)",
}
"""The texts a usage may name, as a reader names them (keys: the rule sets' names)."""


@dataclass(frozen=True, slots=True)
class Usage:
    """How one text uses a term: ``how`` in plain words, ``quote`` its own words (verbatim,
    or empty where the text has no single passage, e.g. Parlett's rules)."""

    source: str
    how: str
    quote: str = ""

    @property
    def source_name(self) -> str:
        return SOURCE_NAMES[self.source]


@dataclass(frozen=True, slots=True)
class Term:
    """One entry: ``key`` (a stable id), ``name`` (as shown), ``forms`` (other ways the
    interface writes it, found by :func:`lookup` and :func:`terms_in`), a plain
    ``definition``, an ``example``, related ``see`` keys, and the texts' ``uses``."""

    key: str
    name: str
    definition: str
    example: str
    forms: tuple[str, ...] = ()
    see: tuple[str, ...] = ()
    uses: tuple[Usage, ...] = ()

    def lines(self) -> list[str]:
        """The entry as the terminal prints it."""
        out = [f"{self.name}: {self.definition}", f"  Example: {self.example}"]
        for u in self.uses:
            quote = f' "{u.quote}"' if u.quote else ""
            out.append(f"  {u.source_name}: {u.how}{quote}")
        if self.see:
            out.append("  See also: " + ", ".join(GLOSSARY[k].name for k in self.see))
        return out


def _t(
    key: str,
    name: str,
    definition: str,
    example: str,
    *,
    forms: tuple[str, ...] = (),
    see: tuple[str, ...] = (),
    uses: tuple[Usage, ...] = (),
) -> Term:
    return Term(key, name, definition, example, forms, see, uses)


_CG, _CT, _DC, _G54, _E19, _RB = (
    "cotgrave-1662",
    "cotton-1674",
    "du-coeur-1995",
    "court-gamester-1754",
    "encyclopedia-19c",
    "rubicon",
)

_TERMS: Final = (
    # ------------------------------------------------------------ the table and the deal
    _t(
        "piquet", "Piquet",
        "A card game for two players with a short pack: each is dealt twelve cards, may "
        "change some of them, scores points for what the hand holds (the declarations), and "
        "then plays twelve tricks with no trumps.",
        "A deal of Piquet: the deal, the exchange, the declarations, the play, the count.",
        forms=("picket", "picquet"),
        uses=(
            Usage(_CG, "calls it Picket, \"that Royal Game\".",
                  "Thus have you a brief, yet exact account of that Royal Game called Picket."),
            Usage(_G54, "spells it Piquet and gives its General Rules.",
                  "*General RULES for playing at PIQUET.*"),
        ),
    ),
    _t(
        "pack", "pack",
        "The cards used. Piquet leaves out the low cards: the 17th-century texts play with "
        "36 cards (ace down to six in each suit), the later ones with 32 (ace down to seven).",
        "A 32-card pack: A K Q J 10 9 8 7 in spades, hearts, diamonds and clubs.",
        forms=("deck", "32 cards", "36 cards"),
        uses=(
            Usage(_CG, "36 cards: the deuces to fives are thrown out.",
                  "play with the other six and thirty Cards"),
            Usage(_G54, "32 cards: the sixes go too.",
                  "You are to play with the rest, which will amount to Thirty-two."),
        ),
    ),
    _t(
        "court-card", "court card",
        "A king, a queen or a knave (jack). Holding none of them is carte blanche.",
        "KH, QS and JD are court cards; AH and 10C are not.",
        forms=("court cards", "courts", "court-card", "court-cards"),
        see=("carte-blanche",),
        uses=(
            Usage(_G54, "counts each court card as ten for the point.",
                  "You must observe also, that all Court-Cards are reckoned for Ten."),
        ),
    ),
    _t(
        "knave", "knave",
        "The jack. The period texts say knave; cards print it as J.",
        "JS is the knave of spades.",
        forms=("knaves", "jack", "jacks"),
        uses=(Usage(_G54, "ranks it below the queen.",
                    "the Queen the Knave, the Knave the Ten, and so down"),),
    ),
    _t(
        "dealer", "dealer",
        "The player who shuffles and deals the cards. In Piquet the dealer is the younger "
        "hand: he exchanges and speaks second, a disadvantage, so the players take turns.",
        "Anne deals: Bob is elder, Anne is younger.",

        see=("elder", "younger", "cut"),
        uses=(
            Usage(_CG, "the lower cut card deals, and dealing is the worse place.",
                  "The disadvantage in this play is the Dealer's, and the least Card deals."),
            Usage(_G54, "the lower card in cutting deals.",
                  "He who shews the lowest Card in cutting, is the Dealer."),
        ),
    ),
    _t(
        "cut", "cut",
        "Lifting part of the pack: to choose the first dealer (the lower card deals) and, "
        "before each deal, by the dealer's opponent.",
        "Bob cuts the 8 of clubs, Anne the queen: Bob deals first.",
        forms=("cuts", "cutting"),
        uses=(
            Usage(_G54, "a cut must lift at least two cards.",
                  "provided it is more than one; but one Card is no Cut"),
        ),
    ),
    _t(
        "elder", "elder",
        "The player who did not deal (the elder hand, or eldest). Elder exchanges first and "
        "may take more cards, declares first in every class, and leads the first trick.",
        "Anne dealt, so Bob is elder: he may exchange up to five cards (32-card rules) and "
        "leads first.",
        forms=("elder hand", "eldest", "eldest hand", "the elder"),
        see=("younger", "dealer"),
        uses=(
            Usage(_DC, "defines it outright.",
                  "Elder (that is, non-dealer) goes first, and declares how well he fares for "
                  "this category."),
            Usage(_G54, "calls him the eldest hand, or \"he who is to play first\".",
                  "then he, who is to play first, may take 5, which is a great Advantage"),
            Usage(_E19, "the elder hand discards first and leads.",
                  "The elder hand then makes his discard."),
        ),
    ),
    _t(
        "younger", "younger",
        "The player who dealt (the younger hand). Younger exchanges after elder, takes what "
        "elder left, answers elder's declarations, and follows to the first trick.",
        "Anne dealt, so she is younger: after Bob's exchange she may take the three cards left.",
        forms=("younger hand", "the younger"),
        see=("elder", "dealer"),
        uses=(
            Usage(_DC, "defines it outright.",
                  "Younger (the dealer) can then either accept that claim, or better it."),
            Usage(_E19, "the younger hand is the dealer, and waits for elder's exchange.",
                  "the younger hand must not touch any of the stock cards"),
        ),
    ),
    _t(
        "hand", "hand",
        "The twelve cards a player holds; also a player's place (the elder hand, the younger "
        "hand), and in the 19th-century text a deal (\"six hands\").",
        "Your hand: AS KS QS 9S 7S 9H 8H KD JD 10D 9D 10C.",
        forms=("hands",),
    ),
    _t(
        "packet", "packet",
        "How many cards the dealer gives at a time while dealing (2, 3 or 4, as the rules "
        "allow). It changes which cards each player gets from the shuffled pack, so the "
        "table asks the dealer to choose it: \"deal by 2\" or \"deal by 3\".",
        "Deal by 2: two cards to elder, two to yourself, and again, until each has twelve.",
        forms=("packets", "deal by 2", "deal by 3", "deal by 4", "deal by 2/3",
               "two by two", "packet size"),
        uses=(
            Usage(_CG, "the dealer gives two, three or four at a time.",
                  "he delivers them in what number he phansies, so that it exceed not four, "
                  "nor be under two"),
            Usage(_G54, "the same number throughout, usually two.",
                  "but he must always go thro' the Deal to the End, with the same Number as "
                  "he begins"),
            Usage(_E19, "always two by two.",
                  "He who cuts the lowest piquet card deals, after his adversary has cut, two "
                  "by two, until each party has 12 cards."),
        ),
    ),
    _t(
        "stock", "stock",
        "The cards left after the deal (eight in a 32-card pack, twelve in a 36-card pack), "
        "laid face down between the players. Elder takes from the top first, younger takes "
        "what elder left. Also called the talon.",
        "32 cards: 12 to each player, 8 in the stock: elder may take up to 5, younger the rest.",
        forms=("talon", "the stock", "stock cards"),
        see=("exchange", "leftovers"),
        uses=(
            Usage(_CG, "calls it the Stock.",
                  "he may take in eight of the twelve Cards remaining in the Stock"),
            Usage(_E19, "\"the stock\".",
                  "The remaining eight are \"the stock,\" which are placed in one pile between "
                  "the players."),
            Usage(_RB, "today's players often say talon (5 cards for elder, 3 for younger)."),
        ),
    ),
    _t(
        "exchange", "exchange",
        "Laying out (discarding) cards and taking as many from the stock. Elder goes first "
        "and may take up to 5 (32 cards) or 8 (36 cards); younger may take what elder left. "
        "Each must usually lay out at least one card.",
        "Elder lays out 9H 8H 10C and takes three from the stock: \"I take three.\"",
        forms=("exchanges", "discard", "discards", "discarding", "lay out", "laid out",
               "take in", "takes in"),
        see=("stock", "leftovers"),
        uses=(
            Usage(_CG, "both must lay out at least one card.",
                  "you are both obliged to discard one Card at least"),
            Usage(_G54, "elder may take five and leave three.",
                  "then he, who is to play first, may take 5, which is a great Advantage, and "
                  "leave but 3 to the Dealer"),
            Usage(_E19, "younger may take all that remain.",
                  "He may then discard from his own hand as many as there remain of the stock, "
                  "and take all of the stock cards left."),
        ),
    ),
    _t(
        "leftovers", "leftovers",
        "Stock cards nobody took. Elder's unused cards (when he takes fewer than his share) "
        "he may look at; the cards younger leaves are seen or not as each rule set says: "
        "elder may have to name his first lead to see them.",
        "Younger takes 2 of the 3 cards left and leaves one: he may look at it.",
        forms=("leftover", "unused", "the cards he left", "the rest of the stock", "remainder"),
        see=("name-the-lead", "stock"),
        uses=(
            Usage(_CG, "elder may look at the remainder of his eight.",
                  "If he take in lesse than eight, he has liberty to look upon the remainder of "
                  "them eight"),
            Usage(_G54, "younger may look at what he leaves; elder too if he names his lead.",
                  "he may also look on the Cards he leaves, and the other may likewise see "
                  "them, if he declares first what Card he will lead"),
            Usage(_E19, "elder may look after he has played his first card.",
                  "if he does so, the elder hand may look at them also after he has played"),
        ),
    ),
    _t(
        "name-the-lead", "name the lead",
        "In the 1662 and 1754 rules elder may see the cards younger left only by first "
        "naming the suit (1662) or the card (1754) he will lead, and is bound to it. If he "
        "holds none, younger appoints his lead.",
        "Elder says \"I shall lead the queen of hearts: show me the cards you left.\"",
        forms=("named lead", "names his lead", "appoint", "appoints", "appointed",
               "appoint the lead", "bound to lead"),
        see=("leftovers", "lead"),
        uses=(
            Usage(_G54, "elder names the card and is bound to lead it.",
                  "But take Notice, that he is obliged to lead the Card he names."),
            Usage(_G54, "naming what he lacks, he plays what younger appoints.",
                  "he is obliged to play what Card the other shall appoint him"),
        ),
    ),
    _t(
        "carte-blanche", "carte blanche",
        "A hand of twelve dealt cards with no court card (no king, queen or knave). It "
        "scores 10, counted before anything else, and it stops the other's pique and "
        "repique. The holder says so at once and shows his hand.",
        "AS 10S 9S 8S AH 10H 7H AD 9D 8D 10C 7C: no king, queen or knave: carte blanche, 10.",
        forms=("blanche", "blank", "blanck", "carte-blanche", "cart-blanche"),
        see=("court-card", "pique", "repique"),
        uses=(
            Usage(_CG, "calls it the Blank and counts ten for it.",
                  "reckons ten for the Blank"),
            Usage(_G54, "counted first, so it stops a pique and repique.",
                  "The *Carte-blanche* is the first Thing reckoned, and therefore prevents a "
                  "*Picque* and *Re-Picque*."),
            Usage(_DC, "if both hold one, neither scores.",
                  "if both players are blank, neither scores"),
        ),
    ),
    # ------------------------------------------------------------ the declarations
    _t(
        "declaration", "declaration",
        "Saying what your hand holds in one class (the point, then sequences, then sets), so "
        "the better holding scores. Elder declares first; younger answers good, not good or "
        "equal. Also called a claim.",
        "Elder: \"Point of five.\" Younger: \"Not good.\" (he holds six cards of a suit).",
        forms=("declarations", "declare", "declares", "declared", "declaring", "claim", "claims",
               "reckoning in hand"),
        see=("point", "sequence", "set", "good", "show", "sink"),
        uses=(
            Usage(_E19, "elder claims, younger allows or disallows.",
                  "the elder hand claims the point, sequence, quatorze, or threes, according to "
                  "the strength of his hand"),
        ),
    ),
    _t(
        "class", "class",
        "One of the three kinds of holding declared in turn: the point, the sequences, the "
        "sets. Only the better holder of a class scores in it.",
        "Your quint beats his quart: you win the class of sequences.",
        forms=("classes",),
        see=("point", "sequence", "set"),
    ),
    _t(
        "points", "points",
        "What the players count: the score. Each class declared, the tricks and the "
        "bonuses count points, and the game is won on points. Not the same as the point, "
        "the first class declared (your longest suit).",
        "A quint counts 15 points; winning the last trick counts one point more.",
        see=("point",),
    ),
    _t(
        "point", "point",
        "The first class declared: your longest suit. Whoever holds the better point scores "
        "it. In the 32-card rules it is the number of cards (one point per card; equal "
        "length is decided by making, the pips); in the 17th-century rules it is the pips "
        "of one suit (ace 11, courts 10, others as marked), one point per ten.",
        "AS KS QS 9S 7S: a point of five, making 47: five points (by cards) if good.",
        forms=("the point", "point of"),
        see=("ruff", "making", "good", "pips"),
        uses=(
            Usage(_G54, "counts the pips of the longest suit: \"Are 41 good?\"",
                  "he is to reckon how many Points he has in that Suit, and ask the other if "
                  "so many are good"),
            Usage(_E19, "counts the cards, one each; the pips only break a tie.",
                  "the elder hand announces the greatest number of cards of the same suit in "
                  "his hand as his point, and counts as many as he has cards, one for each"),
        ),
    ),
    _t(
        "ruff", "ruff",
        "Cotgrave's and Cotton's word for the point: \"how much you can make of a suit\", the "
        "pips of your best suit, one point for every ten (35 to 39 count as 40). Not the "
        "trumping of whist: Piquet has no trumps.",
        "A ruff of 51 (AS KS QS JS 10S): five points if good.",
        forms=("ruff of",),
        see=("point",),
        uses=(
            Usage(_CG, "defines it.",
                  "you are to consider the Ruff, that is, to see how much you can make of a "
                  "suit"),
            Usage(_DC, "keeps the word for the pip-counted point.",
                  "a Ruff of 40 is worth four points"),
        ),
    ),
    _t(
        "pips", "pips",
        "The value of a card for the point: ace 11, king, queen and knave 10, the others the "
        "number they show.",
        "AS KS 9S 7S: 11 + 10 + 9 + 7 = 37 pips.",
        forms=("spots",),
        uses=(Usage(_CG, "counts the spots.",
                    "The Cards are all valued according to the number of the spots they bear"),),
    ),
    _t(
        "making", "making",
        "When the point is counted by cards and both hold as many, the pips decide: younger "
        "asks \"Making?\" and elder tells his pips (\"making 47\").",
        "Elder: \"Point of five.\" Younger: \"Making?\" Elder: \"Forty-seven.\" Younger (48): "
        "\"Not good.\"",
        forms=("making?",),
        see=("point", "pips"),
        uses=(
            Usage(_E19, "the pips decide between points of as many cards.",
                  "If each player has an equal number, then the value of the cards is "
                  "ascertained"),
            Usage(_RB, "the word today: elder says \"making\" so many."),
        ),
    ),
    _t(
        "good", "good",
        "Younger's answer to a declaration he cannot beat: elder's holding scores.",
        "Elder: \"Quart major.\" Younger, holding only a tierce: \"Good.\"",
        forms=("it is good", "good?"),
        see=("not-good", "equal"),
        uses=(
            Usage(_G54, "elder asks whether his point is good.",
                  "*Are 41 good?*"),
        ),
    ),
    _t(
        "not-good", "not good",
        "Younger's answer when he holds better in that class: elder's claim scores nothing, "
        "and younger declares his own.",
        "Elder: \"Point of four.\" Younger, with five hearts: \"Not good.\"",
        forms=("not good.",),
        see=("good", "equal"),
        uses=(
            Usage(_E19, "his claims are \"disallowed as not good\".",
                  "his claims are allowed, or disallowed as \"not good,\""),
        ),
    ),
    _t(
        "equal", "equal",
        "Younger's answer when he holds exactly as good in that class: neither scores (the "
        "19th-century text says the class is \"paid\").",
        "Both hold a point of five making 48: \"Equal.\" Nobody scores the point.",
        forms=("paid", "equal."),
        see=("good", "not-good"),
        uses=(
            Usage(_CG, "equal holdings score for neither; being elder does not help.",
                  "they can neither of them reckon any thing, eldership benefits not in this "
                  "case"),
            Usage(_E19, "calls it paid.",
                  "or if both are of equal value, the point is \" paid\" and counts for neither"),
        ),
    ),
    _t(
        "show", "show",
        "Laying the declared cards face up so the other can check them. The point and the "
        "sequences must be shown; sets need not be in most rules.",
        "Your point of five is good: you show AS KS QS 9S 7S.",
        forms=("shows", "shown", "showing", "shew"),
        uses=(
            Usage(_G54, "sets need not be shown.",
                  "He that has *Threes*, or *Quatorzes* of Aces, Kings, Queens, Knaves, or Tens, "
                  "is not obliged to shew them."),
        ),
    ),
    _t(
        "sequence", "sequence",
        "Three or more cards in a row of rank (ace, king, queen, knave, 10, 9, 8, 7, 6), in "
        "one suit except in du Coeur's reconstruction. The longest wins the class, then the "
        "highest; the winner counts all his sequences.",
        "KH QH JH 10H: a quart to the king (4 points if good).",
        forms=("sequences", "sequents"),
        see=("tierce", "quart", "quint", "major", "to-the"),
        uses=(
            Usage(_CG, "a quart drowns a tierce, a quint a quart.",
                  "a Quart drowns a Tierce, a Quint a Quart, and so of the rest"),
            Usage(_G54, "calls them Sequents.", "The second Thing is the Sequents"),
            Usage(_DC, "lets a run mix suits.",
                  "Given that sequence does not appear to require sequence-in-suit"),
        ),
    ),
    _t(
        "tierce", "tierce",
        "A sequence of three cards: worth 3.",
        "QS JS 10S: a tierce to the queen.",
        forms=("tierces", "tierce major"),
        see=("sequence",),
        uses=(Usage(_CG, "names the three-card sequence.",
                    "which last is called a Tierce Major, because it is the highest"),),
    ),
    _t(
        "quart", "quart",
        "A sequence of four cards: worth 4.",
        "AD KD QD JD: a quart major.",
        forms=("quarts", "quarte", "quartes"),
        see=("sequence",),
        uses=(Usage(_CG, "a sequence of four.", "A Quart is a Sequence of four Cards"),),
    ),
    _t(
        "quint", "quint",
        "A sequence of five cards: worth 15 (not 5).",
        "KC QC JC 10C 9C: a quint to the king, 15 points if good.",
        forms=("quints", "quinte", "quintes"),
        see=("sequence",),
        uses=(Usage(_CG, "a sequence of five.", "a Quint of five"),),
    ),
    _t(
        "sixieme", "sixième",
        "A sequence of six cards: worth 16. Longer ones add one point a card: septième "
        "(seven, 17), huitième (eight, 18), neuvième (nine, 19, possible only with 36 cards).",
        "AH KH QH JH 10H 9H: a sixième major, 16.",
        forms=("sixieme", "sixiesm", "sixism", "sixth", "septième", "septieme", "septiesm",
               "huitième", "huitieme", "huictiesm", "neuvième", "neuvieme", "neusiesm"),
        see=("sequence",),
        uses=(Usage(_CT, "lists the long sequences.",
                    "Tierces, Quartes, Quintes, Sixiesms, Septiesms, Huictiesms, and Neusiesms"),),
    ),
    _t(
        "major", "major",
        "A sequence headed by the ace: the highest of its length (tierce major, quart "
        "major, quint major).",
        "AS KS QS: tierce major.",
        forms=("tierce-major",),
        see=("to-the",),
        uses=(Usage(_G54, "ace, king, queen is the Tierce-Major.",
                    "Ace, King, and Queen, are called *Tierce-Major*"),),
    ),
    _t(
        "to-the", "to the king",
        "How a sequence not headed by the ace is named: by its top card (\"quart to the "
        "king\": K Q J 10; \"tierce to the nine\": 9 8 7).",
        "QH JH 10H 9H: a quart to the queen.",
        forms=("to the queen", "to the knave", "to the ten", "to the nine", "to the eight",
               "of a king", "of a queen"),
        see=("major", "sequence"),
        uses=(Usage(_CG, "names a sequence by its best card.",
                    "These Sequences take their denomination from the highest Card in the "
                    "Sequence"),),
    ),
    _t(
        "set", "set",
        "(1) The third class: three or four cards of one rank, ace down to 10 (nines and "
        "lower never count). Three score 3 (a trio), four score 14 (a quatorze); the "
        "higher set wins and its holder counts all his sets. (2) In Cotgrave and Cotton, "
        "\"the Set\" is the game itself, usually a hundred points.",
        "AS AH AD (three aces) beats KS KH KD; any quatorze beats any three.",
        forms=("sets", "ternary", "ternaries", "threes", "three aces", "three kings",
               "three queens", "three knaves", "three tens"),
        see=("trio", "quatorze", "game"),
        uses=(
            Usage(_CG, "counts threes (ternaries) of aces to tens.",
                  "you come to reckon your three Aces, three Kings, three Queens, three Knaves, "
                  "or three Tens"),
            Usage(_CG, "the Set as the game.", "The Set is usually a hundred"),
        ),
    ),
    _t(
        "trio", "trio",
        "Three cards of one rank, ace to 10: worth 3 if your sets win.",
        "KS KD KC: three kings, a trio.",
        forms=("trios", "three of a kind"),
        see=("set", "which-is-missing"),
        uses=(Usage(_G54, "threes count three.",
                    "no Number less than Three of any of these are good for any thing"),),
    ),
    _t(
        "quatorze", "quatorze",
        "Four cards of one rank, ace to 10: worth 14 (French for fourteen). It beats any "
        "three.",
        "AS AH AD AC: a quatorze of aces, 14.",
        forms=("quatorzes", "quatorze of"),
        see=("set",),
        uses=(
            Usage(_CG, "named for the fourteen it counts.",
                  "for each reckons fourteen, which is the reason they are called Quatorzes"),
            Usage(_G54, "even four tens bar three aces.",
                  "If there are 4 Knaves, or Tens, in one Hand, 3 Aces, or Kings, &c. are not "
                  "to be told in another Hand."),
        ),
    ),
    _t(
        "which-is-missing", "which is missing",
        "If you held four of a rank, laid one out and declare three, the other may ask which "
        "one you laid out, and you must tell him (the 1662 and 1754 rules).",
        "\"Three kings.\" \"Which one did you lay out?\" \"The king of clubs, laid out.\"",
        forms=("which one did you lay out", "the missing card", "ask-missing",
               "laid out none"),
        see=("trio",),
        uses=(
            Usage(_CG, "he must say which he lacks.",
                  "he is bound to tell the other, if he ask him what Ace, King, Queen, &c. he "
                  "wants"),
            Usage(_G54, "the other may ask which ace, which king.",
                  "Then the other may ask you which Ace, which King, &c."),
        ),
    ),
    _t(
        "sink", "sink",
        "Not declaring a holding, or declaring less than you hold, so as not to tell the "
        "other what you have. What you sink scores nothing.",
        "Holding three queens you say nothing, so he does not know where the queens are.",
        forms=("sinks", "sinking", "sank", "sunk", "pass"),
        see=("declaration",),
        uses=(
            Usage(_G54, "advises it now and then.",
                  "It may sometimes be good Judgment in the younger Hand not to call Three "
                  "Queens, Knaves, &c. and to sink one Card of his Point"),
            Usage(_RB, "what is not declared is lost and stays hidden."),
        ),
    ),
    _t(
        "counting-order", "counting order",
        "The order in which points count in a deal: carte blanche, the point, sequences, "
        "sets, then the play card by card, the last trick, the cards. It decides pique, "
        "repique and who reaches the game first.",
        "At 95 each, elder's point (5) counts before younger's quint: elder wins.",
        forms=("order of counting", "counted first", "first reckoned"),
        uses=(
            Usage(_G54, "the point comes first when there is no carte blanche.",
                  "If there be no *Carte-blanche*, the Point is the first Thing."),
        ),
    ),
    _t(
        "repique", "repique",
        "Reaching 30 from the declarations alone, before the other has scored anything: you "
        "count 90 instead of 30 (60 more). The other's carte blanche or any point he scores "
        "prevents it.",
        "Quatorze of aces (14) + quint (15) + point of six (6) = 35 before he scores: repique, "
        "95.",
        forms=("repiqued", "re-picque", "repicque", "repicy", "ninety"),
        see=("pique", "counting-order"),
        uses=(
            Usage(_CG, "calls it a Repicy.",
                  "this is known by the name of a Repicy"),
            Usage(_G54, "30 in hand counts 90.",
                  "can reckon up 30 in Hand, when the other has reckoned nothing, reckons 90 "
                  "for them"),
        ),
    ),
    _t(
        "pique", "pique",
        "Reaching 30 from the declarations and the play together, before the other has "
        "scored anything: you count 60 instead of 30 (30 more). Only elder can make one in "
        "practice (younger's first card comes after elder's lead scores).",
        "Elder counts 26 in hand, leads four winning aces: 30 before younger scores: pique, 60.",
        forms=("piqued", "picque", "picy", "sixty"),
        see=("repique", "counting-order"),
        uses=(
            Usage(_G54, "part in hand, part by play.",
                  "can make up 30, part in Hand, and part by Play, before the other has told "
                  "any Thing, reckons them for 60"),
            Usage(_CG, "calls it a Picy.", "this is called a Picy"),
        ),
    ),
    # ------------------------------------------------------------ the play
    _t(
        "trick", "trick",
        "One card from each player: the higher card of the suit led wins it. A card of "
        "another suit never wins (there are no trumps). The winner leads next.",
        "You lead KH, he plays 7H: your trick.",
        forms=("tricks",),
        see=("lead", "follow-suit"),
    ),
    _t(
        "lead", "lead",
        "The first card of a trick. Elder leads the first trick; the winner of each trick "
        "leads the next. Leading a card of 10 or higher counts a point in most rules.",
        "Elder leads AS and counts 1.",
        forms=("leads", "leading", "the lead", "first lead"),
        see=("trick", "name-the-lead"),
        uses=(
            Usage(_CG, "elder counts one for each ace to ten he leads.",
                  "If the Elder hand plays an Ace, King, Queen, or Ten; for every such Card, he "
                  "is to reckon one"),
        ),
    ),
    _t(
        "follow-suit", "follow suit",
        "Playing a card of the suit led, which you must do if you can; if you cannot, any "
        "card may be played, and it cannot win.",
        "He leads QD: holding KD and 8D, you must play one of them.",
        forms=("must follow", "playable"),
        see=("trick",),
        uses=(Usage(_CG, "younger follows in suit.",
                    "the Elder begins, and Younger followes in suit"),),
    ),
    _t(
        "tenth-card", "tenth card",
        "A card of 10 or higher (ace, king, queen, knave, ten): the cards that count in the "
        "play in the period rules.",
        "Winning a trick with the queen counts 1; winning it with the 9 counts nothing (1754).",
        forms=("tenth cards", "ten or higher", "a tenth card"),
        uses=(Usage(_G54, "a tenth card led counts one at once.",
                    "If the Person who leads, plays a tenth Card, he reckons 1 for it as soon as "
                    "he plays it down"),),
    ),
    _t(
        "last-trick", "last trick",
        "The twelfth trick: it counts extra for its winner (1 or 2, as the rules say).",
        "You win the last trick with the ace: 2 in 1754.",
        forms=("the last trick",),
        uses=(Usage(_E19, "counts 2.", "The last trick counts 2 for the winner."),),
    ),
    _t(
        "the-cards", "the cards",
        "Winning more tricks than the other: 10 points (7 tricks or more in the 19th-century "
        "rules; six each is \"divided\" and counts for neither).",
        "You win 8 tricks to 4: the cards, 10.",
        forms=("winning the cards", "most tricks", "divided", "the cards (most tricks)"),
        see=("capot",),
        uses=(
            Usage(_E19, "six each are divided.",
                  "If each party has six tricks, they are \" divided;\""),
            Usage(_G54, "aims the discard at winning the cards.",
                  "Your View in discarding, is to win the Cards"),
        ),
    ),
    _t(
        "capot", "capot",
        "Winning all twelve tricks: 40 points instead of the 10 for the cards.",
        "You win every trick: capot, 40.",
        forms=("capet", "all the tricks"),
        see=("the-cards",),
        uses=(
            Usage(_CG, "spells it Capet.", "reckons forty, and this is called a Capet"),
            Usage(_G54, "40 instead of 10.",
                  "instead of reckoning 10, which is his Right for winning the Cards, reckons "
                  "40, and this is called a *Capot*"),
        ),
    ),
    # ------------------------------------------------------------ the game and beyond
    _t(
        "game", "game",
        "Deals played until one player reaches the agreed total, usually 100 (\"a hundred "
        "up\"; du Coeur's players used 121). In the older rules the game can end in the "
        "middle of a deal, the moment the total is reached in counting order.",
        "Anne reaches 100 with her point in the fourth deal: she wins the game at once.",
        forms=("games", "a hundred up", "target", "game of 100"),
        see=("set", "partie", "counting-order"),
        uses=(
            Usage(_G54, "a hundred up is the usual game.", "The common way of playing it, is a "
                  "Hundred Up"),
            Usage(_DC, "played to 121.", "we chose to play to 121"),
        ),
    ),
    _t(
        "partie", "partie",
        "A match of a fixed number of deals (six in Rubicon Piquet), the scores added; then "
        "settled by the rubicon.",
        "Six deals, each dealing three times: the higher total wins the partie.",
        forms=("parties", "a rubicon partie"),
        see=("rubicon",),
        uses=(
            Usage(_E19, "the Rubicon game of six hands.",
                  "Sometimes the \" Rubicon \" game of six hands is played"),
            Usage(_RB, "six deals; level after six, each deals once more."),
        ),
    ),
    _t(
        "rubicon", "rubicon",
        "The 100-point line of the partie: a loser who has not reached 100 is \"rubiconed\", "
        "and the winner scores both totals plus 100.",
        "After six deals 140 to 86: the loser is rubiconed: 100 + 140 + 86 = 326 to the winner.",
        forms=("rubiconed", "rubicon piquet"),
        see=("partie",),
        uses=(
            Usage(_E19, "the loser's score is added to the winner's.",
                  "if one party scores less than 100, his score is added to that of the "
                  "winner"),
            Usage(_RB, "the winner scores 100 plus both totals when the loser is under 100."),
        ),
    ),
    _t(
        "lurch", "lurch",
        "In the 1754 rules, losing a game without reaching 50: the loser pays double.",
        "Anne wins 100 to 44: Bob is lurched and pays two stakes.",
        forms=("lurched", "lurches", "lurch'd"),
        uses=(Usage(_G54, "the loser under 50 pays double.",
                    "when the Loser cannot make up 50, before the other wins the Game, he is "
                    "to pay him double"),),
    ),
    # ------------------------------------------------------------ the computer's words
    _t(
        "book", "the book",
        "The advice of the 1754 Compleat Gamester's \"Particular Rules\" (what to discard, "
        "when to sink, what to lead), which the computer's simplest sound player, \"book\", "
        "follows. The hints say when their choice is the book's too.",
        "\"Discard 9H 8H 10C (the book's discard too).\"",
        forms=("the book's", "book's"),
        see=("expert",),
        uses=(
            Usage(_G54, "gives the rules of play the book level follows.",
                  "*Particular RULES for playing the GAME.*"),
        ),
    ),
    _t(
        "expert", "expert",
        "The strongest computer player: it thinks about the cards you cannot see by dealing "
        "them many ways that fit all it has seen and heard, and plays each deal out. The "
        "hints and the coach use its choices.",
        "\"Sink your three queens: the expert's simulation of the deal prefers silence.\"",
        forms=("the expert", "the expert's", "expert's"),
        see=("book",),
    ),
    _t(
        "pool", "pool",
        "The 1754 way for three to play: two play a game while the third waits; the loser "
        "pays into the pool and makes room; whoever wins two games running takes the pool.",
        "Anne beats Bob, then Carl: two in a row: she sweeps the pool.",
        forms=("pools", "a pool of three"),
        uses=(Usage(_G54, "won by two games running.",
                    "You must observe, the *Pool* is never won, till one Person gets two Games "
                    "successively."),),
    ),
)

GLOSSARY: Final[dict[str, Term]] = {t.key: t for t in _TERMS}
"""Every term, by key, in the order a learner meets them."""


def _fold(text: str) -> str:
    """Lower case, accents dropped, runs of spaces as one (how forms are matched)."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"\s+", " ", plain.lower()).strip(" .?!:;,")


_INDEX: Final[dict[str, Term]] = {}
for _term in _TERMS:
    for _form in (_term.key, _term.name, *_term.forms):
        _INDEX.setdefault(_fold(_form), _term)
_NOT_SCANNED: Final = frozenset({"the cards", "hand", "hands"})
"""Forms too common in plain sentences to mark wherever they appear ("deal the cards two
at a time"); :func:`lookup` still finds them."""
_PATTERN: Final = re.compile(
    r"(?<![\w-])("
    + "|".join(re.escape(f) for f in sorted(_INDEX, key=len, reverse=True)
               if f and f not in _NOT_SCANNED)
    + r")(?![\w-])"
)


def scanned_forms() -> list[tuple[str, str]]:
    """The forms :func:`terms_in` finds in a sentence (folded: lower case, no accents),
    each with its term's key, the longest first: what a page marks as a term."""
    return sorted(((f, t.key) for f, t in _INDEX.items() if f and f not in _NOT_SCANNED),
                  key=lambda p: (-len(p[0]), p[0]))


def lookup(text: str) -> Term | None:
    """The term ``text`` names (its name, key or another form; case and accents ignored),
    or None."""
    return _INDEX.get(_fold(text))


def terms_in(text: str) -> list[Term]:
    """The terms named in ``text``, each once, in the order they first appear (the longest
    form wins: "not good" is not read as "good")."""
    seen: dict[str, Term] = {}
    for m in _PATTERN.finditer(_fold_keep(text)):
        term = _INDEX[m.group(1)]
        seen.setdefault(term.key, term)
    return list(seen.values())


def _fold_keep(text: str) -> str:
    """:func:`_fold` without the trim, so positions in sentences are kept."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"\s+", " ", plain.lower())
