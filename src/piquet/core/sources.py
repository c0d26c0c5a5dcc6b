"""Where each preset's knob values come from.

Every preset in :data:`piquet.core.rules.PRESETS` rests on one text: a period book
(Cotgrave 1662, Cotton 1674, the 1754 *Compleat Gamester*, a 19th-century
encyclopedia article), a 1995 reconstruction of Cotton, or, for ``rubicon``,
David Parlett's published rules of Rubicon Piquet.  :data:`SOURCE_FILES`
names the text of each preset, and :data:`SOURCES` gives, for every preset
and every knob of :class:`~piquet.core.rules.Rules` except ``name``, one short
citation in one of three forms:

``quote: "<words>"`` (optionally followed by `` - <explanation>``)
    The words the value rests on, copied verbatim from the preset's source
    file (only runs of whitespace may differ).
``reading: <choice and reason>``
    The text is silent or ambiguous; the choice the preset makes, and why.
``parlett: <rule>``
    ``rubicon`` only: what Parlett's published rules say.

``piquet rules NAME`` prints every knob with its value and this citation::

    >>> citation("cotgrave-1662", "elder_max")
    'quote: "he may take in eight of the twelve Cards remaining in the Stock"'
"""

from __future__ import annotations

from typing import Final

__all__ = ["SOURCES", "SOURCE_FILES", "SOURCE_TITLES", "citation", "is_reading"]

SOURCE_TITLES: Final[dict[str, str]] = {
    "cotgrave-1662": "John Cotgrave, Wit's Interpreter (1662)",
    "cotton-1674": "Charles Cotton, The Compleat Gamester (1674)",
    "du-coeur-1995": "Justin du Coeur's reconstruction of Cotton (1995)",
    "court-gamester-1754": "The Compleat Gamester, 8th edition (1754)",
    "encyclopedia-19c": "a 19th-century encyclopedia article",
    "rubicon": "David Parlett's rules of Rubicon Piquet (modern)",
}
"""Each preset's source as a reader names it (the terminal's summaries, ``piquet rules``)."""

SOURCE_FILES: Final[dict[str, str | None]] = {
    "cotgrave-1662": "cotgrave-1662.txt",
    "cotton-1674": "cotton-1674.txt",
    "du-coeur-1995": "du-coeur-1995.txt",
    "court-gamester-1754": "court-gamester-1754.txt",
    "encyclopedia-19c": "encyclopedia-19c.txt",
    "rubicon": None,
}
"""The file in the ``sources`` folder that each preset rests on (``None``: Parlett)."""

# Knobs of the Rubicon partie, for the texts that know no partie.
_NO_PARTIE: Final[dict[str, str]] = {
    "partie_deals": (
        "reading: unused, since the text knows no Rubicon partie; the modern six deals "
        "apply if a partie is asked for under these rules"
    ),
    "settlement": (
        "reading: unused, since the text knows no Rubicon partie; Parlett's settlement "
        "applies if a partie is asked for under these rules"
    ),
    "partie_tie_extra_deals": (
        "reading: unused, since the text knows no Rubicon partie; as in Parlett, a level "
        "partie goes on one deal each"
    ),
}

_SEQUENCES_ONE_SUIT: Final = (
    "reading: the text never says whether a sequence must lie in one suit; read as one "
    "suit, as every later source requires (1754: of the same Suit)"
)
_QUATORZE_BEATS_TRIO: Final = (
    "reading: the text ranks sets only by their rank; read, as 1754 says outright, that "
    "any quatorze beats any three"
)
_SETS_NOT_SHOWN: Final = (
    "reading: only the Ruff and the sequences are to be shown; the rule that the other "
    "may ask which card of a set is missing implies sets are told, not shown"
)
_PIQUE_EITHER: Final = (
    "reading: the pique is not limited to elder by name (he that can in like manner); as it "
    "must be made by elder's first card at the latest, only elder can ever make one"
)
_ONE_GAME: Final = (
    "reading: the text describes only the single set played to an agreed total; no "
    "partie and no pool"
)
_NO_LURCH: Final = "reading: the text has no lurch, so nobody pays double (0)"
_YOUNGER_BLANCHE_NUMBER: Final = (
    "the text gives the holder's procedure for elder; reading for younger: he names his "
    "number too and is bound to it; when elder has already named his, younger may name up to "
    "what that will leave (the other may take all the rest), else up to what elder must leave"
)

_COTGRAVE: Final[dict[str, str]] = {
    "deck_size": 'quote: "play with the other six and thirty Cards"',
    "packet_sizes": (
        'quote: "he delivers them in what number he phansies, so that it exceed not four, '
        'nor be under two" - packets of 2, 3 or 4; one size through a deal is a reading'
    ),
    "cut_after_game": (
        'quote: "that they did first agree to lift for Dealing at the end of every Set, '
        'otherwise not" - the players take turns; a new cut only by agreement'
    ),
    "blanche_value": 'quote: "reckons ten for the Blank"',
    "both_blanche_score": (
        "quote: \"the younger's Blank shall barre the former, and hinder his Picy and "
        "Repicy\" - reading: read as barring elder's pique and repique, not his blank: both count"
    ),
    "blanche_number": (
        'quote: "I have a Blank, and I intend to discard such a number of Cards" - '
        + _YOUNGER_BLANCHE_NUMBER
    ),
    "elder_max": 'quote: "he may take in eight of the twelve Cards remaining in the Stock"',
    "elder_min": 'quote: "you are both obliged to discard one Card at least"',
    "younger_min": 'quote: "you are both obliged to discard one Card at least"',
    "younger_max": (
        'quote: "may the other likewise take all the rest, or but a few of them only" '
        "- no limit but what elder left"
    ),
    "elder_sees_unused": (
        'quote: "he has liberty to look upon the remainder of them eight, laying them down '
        'upon the rest"'
    ),
    "younger_leftovers": (
        'quote: "then may the Elder hand see them, provided that he first acquaint the '
        'other with the suit, that he intends to play" - reading: younger sees the cards he '
        "leaves, named suit or not: the text is silent, and elder's own leftovers are his to "
        '"survey"'
    ),
    "point_measure": (
        'quote: "the Ruff, that is, to see how much you can make of a suit" - the pip '
        "total of one suit, ace 11"
    ),
    "point_scoring": (
        'quote: "you are to count as much for thirty five as for forty" - one per ten, '
        "35 to 39 as 40"
    ),
    "sequences_same_suit": _SEQUENCES_ONE_SUIT,
    "sequence_values": (
        'quote: "You reckon for every Tierce three, Quart four, but for a Quint fifteen, '
        'a Sixiesm sixteen, and so upward" - on to the Neusiesme, 19'
    ),
    "set_min_rank": (
        'quote: "as for Nines, Eights, Sevens and Sixes, they have no place in this account"'
    ),
    "trio_value": 'quote: "for every Ternary you count three"',
    "quatorze_value": 'quote: "for each reckons fourteen, which is the reason they are called"',
    "quatorze_beats_trio": _QUATORZE_BEATS_TRIO,
    "younger_declares_after_lead": (
        'quote: "the eldest he speaks first, and if the younger makes not more, his Ruff is '
        'good" - each class is settled in turn before the first card'
    ),
    "show_point": 'quote: "him that doth not shew his Ruff before he play his first Card"',
    "show_sequences": 'quote: "After you have manifested your Sequences"',
    "show_sets": _SETS_NOT_SHOWN,
    "ask_missing": (
        'quote: "he is bound to tell the other, if he ask him what Ace, King, Queen, &c. he wants"'
    ),
    "show_missing": (
        "reading: Cotgrave only obliges him to tell which card he wants, not to show it"
    ),
    "play_scoring": (
        'quote: "he wins the Trick, and reckons one for his Card, as well as the other" '
        "- 1 for leading a card of ten or higher, 1 for winning with one"
    ),
    "lead_value": 'quote: "for every such Card, he is to reckon one"',
    "win_value": 'quote: "he wins the Trick, and reckons one for his Card"',
    "last_trick_bonus": (
        'quote: "but if it be with a Nine, Eight, Seven, or Six, he then reckons but one"'
    ),
    "last_trick_tenth_bonus": (
        'quote: "is to reckon two for it, if he win it with a Ten" - the two include the 1 '
        "that the winning card counts anyway, so the extra is 1"
    ),
    "cards_bonus": 'quote: "he that has the most, is to reckon Ten for them"',
    "capot_bonus": 'quote: "reckons forty, and this is called a Capet"',
    "pique_threshold": (
        'quote: "up to thirty in his own hand, without playing a Card, and before the other '
        'can reckon anything"'
    ),
    "repique_bonus": (
        'quote: "instead of counting thirty, he shall reckon ninety" - 90 for 30: +60'
    ),
    "pique_bonus": 'quote: "instead of thirty, he reckons sixty, and this is called a Picy"',
    "pique_elder_only": _PIQUE_EITHER,
    "pique_by_first_card": (
        'quote: "and also by playing his first Card up to said number of thirty, before the '
        'other has played a Card" - hand, then elder\'s first lead; once younger plays, no pique'
    ),
    "target": 'quote: "The Set is usually a hundred"',
    "game_ends_mid_deal": (
        'quote: "if it fall out that any of the two have a Blank, he wins the Set, because '
        'the Blanks are alwayes first reckoned"'
    ),
    "formats": _ONE_GAME,
    "default_format": _ONE_GAME,
    **_NO_PARTIE,
    "lurch_below": _NO_LURCH,
    "false_claim": (
        "quote: \"he shall be debarr'd from reckoning anything of what he really hath, and his "
        "adversary shall reckon all he has, but yet the other shall make all he can in play\" - "
        "reading: the other who makes all he can in play is the one who misreckoned; and \"the "
        "false reckoning of the one, shall not at all hinder the Picy, or Repicy of the other\""
    ),
    "unshown_claim": (
        "quote: \"he then loses them utterly, and his Adversary reckons the same, though of "
        "lesse value then his were\" - he that shows not his Ruff (or his sequences) before "
        "his first card"
    ),
    "call_correction": (
        "quote: \"the first word not being necessary to stand\" - reading: the text gives both "
        "usages, \"the liberty of the Game at Paris\" (a word recalled before one's first "
        "card) and Provence's, where \"the first word stands\"; the preset takes Paris's, "
        "described at length (a house rule may play Provence's)"
    ),
    "renounce_taken_back": (
        "quote: \"except he play'd by mistake, and knew not that he had of the suit, for in "
        "this case he is to take up his Card, and follow suit\""
    ),
    "carte_blanche": 'quote: "if he finds never a Court Card among them, says, I have a Blank"',
    "younger_blanche_bars": (
        "quote: \"the younger's Blank shall barre the former, and hinder his Picy and Repicy; "
        "though the eldest hand's Blank consists of the bigger Cards\" - reading: \"barre the "
        "former\" is read as barring elder's pique and repique, and both blanks count (false); "
        "read as cancelling elder's blank, only younger's counts (true)"
    ),
    "appoint_if_card_lacked": (
        "reading: unused, since elder names a suit to see the leftovers, not a card; "
        "true, as 1754 is read"
    ),
    "pique_by_cards": (
        "quote: \"by playing his first Card up to said number of thirty, before the other has "
        "played a Card\" - the pique is made by elder's first card at the latest; the cards, "
        "won after the play, never count toward it"
    ),
}

_COTTON: Final[dict[str, str]] = {
    "deck_size": 'quote: "play with the rest of the Cards, which are in number thirty and six"',
    "packet_sizes": (
        'quote: "delivering what number he pleaseth at a time, so that he exceed not four, '
        'nor deal under two"'
    ),
    "cut_after_game": (
        "reading: Cotton says only that the players deal again until the set is up; as in "
        "Cotgrave, whom he copies, the deal alternates with no new cut unless agreed"
    ),
    "blanche_value": 'quote: "reckons ten for the Blanck"',
    "both_blanche_score": (
        'quote: "the youngers Blank shall bar the former and hinder his Picy and Repicy" '
        "- reading: read as barring elder's pique and repique, not his blank: both count"
    ),
    "blanche_number": (
        'quote: "I have a Blanck, and I intend to discard such a number of Cards" - '
        + _YOUNGER_BLANCHE_NUMBER
    ),
    "elder_max": 'quote: "he may take in eight of the twelve in the Stock"',
    "elder_min": 'quote: "the Gamesters are both obliged to discard one Card at least"',
    "younger_min": 'quote: "the Gamesters are both obliged to discard one Card at least"',
    "younger_max": (
        'quote: "the Antagonist may take in what he thinks fit, acquitting his hand of the '
        'like number" - no limit but what elder left'
    ),
    "elder_sees_unused": (
        "reading: Cotton does not say; yes, as in Cotgrave, from whom he copies the passage "
        "around it"
    ),
    "younger_leftovers": (
        "reading: Cotton leaves out Cotgrave's passage on younger's leftovers, so nobody sees them"
    ),
    "point_measure": (
        'quote: "the Ruff, that is how much you can make of one suit" - the pip total of '
        "one suit, ace 11"
    ),
    "point_scoring": (
        'quote: "sets up one for every ten he can produce" - and 35 to 39 count as 40'
    ),
    "sequences_same_suit": _SEQUENCES_ONE_SUIT,
    "sequence_values": (
        'quote: "You must reckon for every Tierce three, for a Quart four, but for a Quint '
        'fifteen, a Sixiesm sixteen, and so upward" - on to the Neusiesm, 19'
    ),
    "set_min_rank": (
        'quote: "as for Nines, Eights, Sevens and Sixes, they have no place in this account"'
    ),
    "trio_value": 'quote: "for every Ternary you count three"',
    "quatorze_value": 'quote: "for each reckons fourteen, which is the reason they are called"',
    "quatorze_beats_trio": _QUATORZE_BEATS_TRIO,
    "younger_declares_after_lead": (
        'quote: "the eldest speaks first, and if the youngest makes up no more the Ruff is '
        'good" - each class is settled in turn before the first card'
    ),
    "show_point": 'quote: "him that sheweth not his Ruff before he play his first Card"',
    "show_sequences": 'quote: "After you have manifested your Sequences"',
    "show_sets": _SETS_NOT_SHOWN,
    "ask_missing": (
        'quote: "he is bound to tell the other, if he ask him what Ace, King, Queen, &c. he wants"'
    ),
    "show_missing": "reading: Cotton only obliges him to tell which card he wants, not to show it",
    "play_scoring": (
        'quote: "he wins the Trick, and reckons one for his Card as well as the other" '
        "- 1 for leading a card of ten or higher, 1 for winning with one"
    ),
    "lead_value": 'quote: "for every such Card he is to reckon one"',
    "win_value": 'quote: "he wins the Trick, and reckons one for his Card"',
    "last_trick_bonus": (
        'quote: "if he win it with a Ten, but if with any Card under, he reckons but one"'
    ),
    "last_trick_tenth_bonus": (
        'quote: "Whosoever wins the last Trick reckons two for it, if he win it with a Ten" '
        "- the two include the 1 that the winning card counts anyway, so the extra is 1"
    ),
    "cards_bonus": 'quote: "he that hath the most is to reckon Ten for them"',
    "capot_bonus": 'quote: "he that wins all the Cards reckons forty, and this is called a Capet"',
    "pique_threshold": (
        'quote: "up to thirty in his own hand, without playing a Card, and before the other '
        'can reckon any thing"'
    ),
    "repique_bonus": 'quote: "instead of thirty, he shall reckon ninety" - 90 for 30: +60',
    "pique_bonus": (
        'quote: "instead of thirty he reckons sixty, and this is called a Picy" - 60 for 30: +30'
    ),
    "pique_elder_only": (
        "reading: the pique is not limited to elder by name (he that can make in like "
        "manner); as it must be made by elder's first card at the latest, only elder "
        "can ever make one"
    ),
    "pique_by_first_card": (
        'quote: "before the other hath play\'d a Card, or reckoned any thing" - hand, then '
        "elder's first lead; once younger plays, no pique"
    ),
    "target": 'quote: "The usual Set is an hundred"',
    "game_ends_mid_deal": (
        'quote: "if it so happens that any of the two have a Blank, he wins the Set, because '
        'the Blanks are always first reckoned"'
    ),
    "formats": _ONE_GAME,
    "default_format": _ONE_GAME,
    **_NO_PARTIE,
    "lurch_below": _NO_LURCH,
    "false_claim": (
        "quote: \"he shall be debar'd from reckoning anything he really hath, and his adversary "
        "shall reckon all he hath, yet the other shall make all he can in play\" - reading: the "
        "other who makes all he can in play is the one who misreckoned, as in Cotgrave, whose "
        "words Cotton copies"
    ),
    "unshown_claim": (
        "quote: \"So it is with him that sheweth not his Ruff before he play his first Card, "
        "losing absolutely all the advantage thereof\" - he loses it; nothing is said of the "
        "other counting his own"
    ),
    "call_correction": (
        "reading: Cotton leaves out Cotgrave's passage on recalling a word before the first "
        "card (the liberty of Paris); the first word stands"
    ),
    "renounce_taken_back": (
        "reading: Cotton leaves out Cotgrave's rule of a card played by mistake; the text says "
        "nothing of a renounce"
    ),
    "carte_blanche": 'quote: "finding never a Court-Card among them, says, I have a Blanck"',
    "younger_blanche_bars": (
        "quote: \"the youngers Blank shall bar the former and hinder his Picy and Repicy, though "
        "the eldest hands Blank consists of the biggest Cards\" - reading: read as barring "
        "elder's pique and repique, and both blanks count (false); read as cancelling elder's "
        "blank, only younger's counts (true)"
    ),
    "appoint_if_card_lacked": (
        "reading: unused, since nobody sees younger's leftovers (hidden); true, as 1754 is read"
    ),
    "pique_by_cards": (
        "quote: \"before the other hath play'd a Card, or reckoned any thing\" - the pique is made "
        "by elder's first card at the latest; the cards, won after the play, never count toward it"
    ),
}

_DU_COEUR: Final[dict[str, str]] = {
    "deck_size": 'quote: "This game is played with a 36-card deck"',
    "packet_sizes": 'quote: "in sets of 2, 3, or 4 cards at a time"',
    "cut_after_game": (
        "reading: the report does not say; the deal alternates after each game as in "
        "Cotton, its source"
    ),
    "blanche_value": 'quote: "Blank is worth ten points"',
    "both_blanche_score": (
        'quote: "if both players are blank, neither scores" - reading: read as an equal class, '
        "which blocks nothing: neither blank stops the other's pique or repique"
    ),
    "blanche_number": (
        "reading: the report says only to declare Blank and show the hand; Cotton's procedure, "
        "which it reconstructs: the holder names the number he will discard and is bound to "
        "it; younger may name up to what elder's named number will leave, else up to what "
        "elder must leave"
    ),
    "elder_max": 'quote: "Elder may now discard up to eight cards from his hand"',
    "elder_min": (
        "reading: the report gives no minimum; Cotton, which it reconstructs, obliges both "
        "players to discard at least one card"
    ),
    "younger_min": (
        "reading: the report gives no minimum; Cotton, which it reconstructs, obliges both "
        "players to discard at least one card"
    ),
    "younger_max": 'quote: "We played that Younger may only draw up to eight"',
    "elder_sees_unused": (
        'quote: "if he drew less than eight, he may examine (but not alter) the remaining '
        'cards up to eight"'
    ),
    "younger_leftovers": (
        'quote: "Younger may choose to flip up the remaining cards in the Stock, for both to see"'
    ),
    "point_measure": (
        'quote: "choose your strongest single suit, counting by the point system described '
        'earlier" - pip totals: A-K-10-8 is 39'
    ),
    "point_scoring": (
        'quote: "So a Ruff of 40 is worth four points, as is one of 35, but 34 is worth '
        'three points"'
    ),
    "sequences_same_suit": (
        'quote: "only sequences within a particular suit count. I can find no evidence of '
        'this" - so runs may mix suits; each card counts in one sequence only'
    ),
    "sequence_values": (
        "reading: the table after Score sequences as follows is missing from the text; "
        "Cotton's values, which the report follows: 3, 4, 15, 16 and one more per card"
    ),
    "set_min_rank": (
        'quote: "Only cards of ten or higher count -- sixes through nines are worthless"'
    ),
    "trio_value": 'quote: "Score three points for each Ternary, and 14 for each Quatorze"',
    "quatorze_value": 'quote: "Score three points for each Ternary, and 14 for each Quatorze"',
    "quatorze_beats_trio": 'quote: "that a four of a kind beats any three of a kind"',
    "younger_declares_after_lead": (
        'quote: "In each, the Elder (that is, non-dealer) goes first, and declares how well '
        'he fares for this category" - all is declared before the tricks'
    ),
    "show_point": 'quote: "Show the cards that win the Ruff"',
    "show_sequences": 'quote: "must show all sequences you are counting"',
    "show_sets": (
        'quote: "The better shows the cards that make up the claim, and takes the '
        'appropriate score"'
    ),
    "ask_missing": (
        "reading: the report does not mention it; winning sets are shown, so the question "
        "never arises"
    ),
    "show_missing": (
        "reading: the report has no question about a missing card, so nothing is shown"
    ),
    "play_scoring": (
        'quote: "the winner of the trick takes one point for each such card" - each card of '
        "ten or higher in the trick"
    ),
    "lead_value": (
        "reading: unused, since no lead scores under winner-tenths; 1, as in every other "
        "text, if a house rule makes leads score"
    ),
    "win_value": 'quote: "the winner of the trick takes one point for each such card"',
    "last_trick_bonus": (
        'quote: "Winner of the final trick gets one point, or two points if he wins with a ten"'
    ),
    "last_trick_tenth_bonus": (
        'quote: "or two points if he wins with a ten" - reading: read as a bonus on top of the '
        "points the trick's tenth cards already give"
    ),
    "cards_bonus": 'quote: "the player who took the most tricks takes ten points"',
    "capot_bonus": 'quote: "he gets forty points instead of ten"',
    "pique_threshold": (
        'quote: "manages to get thirty points before the other player has scored anything"'
    ),
    "repique_bonus": (
        'quote: "Repique is if this happens before starting the tricks, and is worth 60"'
    ),
    "pique_bonus": (
        'quote: "Pique is if one player gets 30 points in a hand before the other gets any, '
        'and is worth 30"'
    ),
    "pique_elder_only": (
        'quote: "If one player in a hand manages to get thirty points" - either player'
    ),
    "pique_by_first_card": (
        'quote: "Pique is if one player gets 30 points in a hand before the other gets any" '
        "- at any card of the play, not only elder's first"
    ),
    "target": 'quote: "we chose to play to 121"',
    "game_ends_mid_deal": (
        'quote: "Note that wins are immediate -- you do not finish out the winning hand"'
    ),
    "formats": _ONE_GAME,
    "default_format": _ONE_GAME,
    **_NO_PARTIE,
    "lurch_below": _NO_LURCH,
    "false_claim": (
        "reading: the reconstruction names no penalty: every winning claim is shown (winning "
        "any phase requires showing what cards you had to win it)"
    ),
    "unshown_claim": (
        "reading: the reconstruction names no penalty; a winning claim is shown as it is won"
    ),
    "call_correction": "reading: the reconstruction is silent; the first word stands",
    "renounce_taken_back": "reading: the reconstruction says nothing of a renounce",
    "carte_blanche": 'quote: "Blank is worth ten points, and requires showing the entire hand"',
    "younger_blanche_bars": (
        "reading: not the reconstruction's rule: when both hold a blank neither scores "
        "(the rule for two blanks)"
    ),
    "appoint_if_card_lacked": (
        "reading: unused, since younger turns his leftovers up or leaves them; true, as 1754 is "
        "read"
    ),
    "pique_by_cards": (
        "quote: \"thirty points before the other player has scored anything\" - reading: the "
        "cards and the capot, counted after the play, are not among what makes the pique, as in "
        "every other text (false); read as anything scored, they may complete it (true); it "
        "matters in about 3 deals of 4,000"
    ),
}

_COURT_GAMESTER: Final[dict[str, str]] = {
    "deck_size": 'quote: "You are to play with the rest, which will amount to Thirty-two"',
    "packet_sizes": (
        'quote: "The Dealer may distribute the Cards, by 4, by 3, or by 2 at a Time, as he '
        'pleases" - with the same number throughout'
    ),
    "cut_after_game": (
        'quote: "Sometimes it is agreed to play a certain Number of Games, and to deal '
        'alternately to the End of those Games" - a match is such a number of games; '
        '"When the Game is at an End, you are to cut again for the Deal, if you play on" is '
        "a new match, which begins with a cut"
    ),
    "blanche_value": 'quote: "then he is to reckon Ten for his *Carte-blanche*"',
    "both_blanche_score": (
        'quote: "must be shewed upon the Table, whether in the Hand of the Dealer, or of the '
        'other" - either player counts his own; nothing cancels a second one'
    ),
    "blanche_number": (
        'quote: "Then he is to tell how many Cards he will lay out, and desire the other to '
        'discard" - younger may name up to what elder\'s named number will leave, else up to '
        "what elder must leave (a reading: the text does not say which holder speaks first)"
    ),
    "elder_max": 'quote: "he, who is to play first, may take 5"',
    "elder_min": (
        'quote: "both the Dealer and he that leads, are obliged to discard at least one"'
    ),
    "younger_min": (
        'quote: "both the Dealer and he that leads, are obliged to discard at least one"'
    ),
    "younger_max": (
        'quote: "Then the other may take all that is left, or what Number of them he pleases"'
    ),
    "elder_sees_unused": (
        'quote: "When he takes less than 5, he may see the rest of them, and lay them again '
        'upon the Stock"'
    ),
    "younger_leftovers": (
        'quote: "the other may likewise see them, if he declares first what Card he will lead"'
    ),
    "point_measure": (
        'quote: "In reckoning up your Point, every Card is reckoned, for as much as it bears"'
    ),
    "point_scoring": (
        'quote: "so that by this you see there is as much reckoned for 35, as for 40" - one '
        "per ten, 35 to 39 as 40"
    ),
    "sequences_same_suit": (
        'quote: "these *Sequents* of Cards must be of the same Suit, otherwise they are of '
        'no Value"'
    ),
    "sequence_values": (
        'quote: "the *Septieme* seventeen; the *Huitieme* eighteen" - tierce 3, quart 4, '
        "quint 15, sixieme 16 before them"
    ),
    "set_min_rank": (
        'quote: "As for the Nines, Eights, and Sevens, you are allowed nothing for them"'
    ),
    "trio_value": 'quote: "but Three of any of these are worth Three"',
    "quatorze_value": 'quote: "reckons 14, for them: And this is called a *Quatorze*"',
    "quatorze_beats_trio": (
        'quote: "If there are 4 Knaves, or Tens, in one Hand, 3 Aces, or Kings, &c. are not '
        'to be told in another Hand"'
    ),
    "younger_declares_after_lead": (
        'quote: "when you have reckoned all your Game that is to be told in Hand" - only '
        "then does the leader play down"
    ),
    "show_point": (
        'quote: "if he does not remember to shew it before he plays down a Card, it is good '
        'for nothing to him"'
    ),
    "show_sequences": (
        'quote: "and not shew them before he plays down, he loses the Advantage of reckoning them"'
    ),
    "show_sets": (
        'quote: "Knaves, or Tens, is not obliged to shew them" - said of threes and quatorzes'
    ),
    "ask_missing": (
        'quote: "Then the other may ask you which Ace, which King, &c. you laid out, and '
        'you are obliged to tell him"'
    ),
    "show_missing": (
        'quote: "if he requires it, you must shew him which you laid out"'
    ),
    "play_scoring": (
        'quote: "If the Person who leads, plays a tenth Card, he reckons 1 for it as soon '
        'as he plays it down" - and the follower 1 for winning with a higher one'
    ),
    "lead_value": 'quote: "he reckons 1 for it as soon as he plays it down"',
    "win_value": (
        'quote: "if the other plays another Card that is higher, he wins it, and also '
        'reckons one"'
    ),
    "last_trick_bonus": (
        'quote: "he who wins the last Trick reckons 1 for it, though it be won with a 9, 8, or 7"'
    ),
    "last_trick_tenth_bonus": (
        'quote: "if it be won with a 10, or upwards, he reckons 2 for it" - the 2 include '
        "the 1 that the winning card counts anyway, so the extra is 1"
    ),
    "cards_bonus": 'quote: "he that has most, is to reckon 10 for winning the Cards"',
    "capot_bonus": (
        'quote: "instead of reckoning 10, which is his Right for winning the Cards, reckons 40"'
    ),
    "pique_threshold": 'quote: "can reckon up 30 in Hand, when the other has reckoned nothing"',
    "repique_bonus": (
        'quote: "reckons 90 for them; and this is called a *Repicque*" - 90 for 30: +60'
    ),
    "pique_bonus": 'quote: "reckons them for 60; and this is called a *Picque*" - +30',
    "pique_elder_only": (
        'quote: "can make up 30, part in Hand, and part by Play, before the other has told '
        'any Thing" - no player is excluded'
    ),
    "pique_by_first_card": (
        'quote: "part in Hand, and part by Play, before the other has told any Thing" - by '
        "any card of the play, not only elder's first"
    ),
    "target": 'quote: "The common way of playing it, is a Hundred Up"',
    "game_ends_mid_deal": (
        'quote: "he who has the Point wins the Game" - both at 95: the point, counted first, '
        "decides"
    ),
    "formats": (
        'quote: "is another Way of playing *Piquet*, only invented for Society" - the game, '
        "and the three-player Pool"
    ),
    "default_format": 'quote: "The common way of playing it, is a Hundred Up"',
    **_NO_PARTIE,
    "lurch_below": (
        'quote: "when the Loser cannot make up 50, before the other wins the Game, he is to '
        'pay him double"'
    ),
    "false_claim": (
        "quote: \"he cuts him off from all he reckoned, and he is to count nothing that he got "
        "by that Deal\" - \"yet what he has in his Hand may hinder the other, and save a "
        "*Picque*, or a *Repicque*\""
    ),
    "unshown_claim": (
        "quote: \"it is good for nothing to him, and he must not reckon it\" - and \"the "
        "Dealer shall tell his *Points*, *Tierces*, *Quartes*, or *Quints*, &c. tho' they are "
        "not so good as the others\""
    ),
    "call_correction": (
        "quote: \"And he suffers nothing by this Mistake, provided there be not a Card played "
        "down.\" - he may count the better holding he finds after allowing the other's"
    ),
    "renounce_taken_back": "quote: \"he may take it up again, and play down the other\"",
    "carte_blanche": 'quote: "is always first told, and must be shewed upon the Table"',
    "younger_blanche_bars": (
        "reading: the text does not compare two blanks: either player's must be shown and counted"
    ),
    "appoint_if_card_lacked": (
        "quote: \"he should promise to lead a Card of a Suit which he had not in his Hand, he is "
        "obliged to play what Card the other shall appoint him\" - reading: the text covers a "
        "card of a suit he has none of; the preset reads it for any card he lacks, even of a suit "
        "he holds, since he cannot lead the card he named (true); read as covering only that "
        "case, he may name only a card he holds or one of a suit he lacks (false)"
    ),
    "pique_by_cards": (
        "quote: \"part in Hand, and part by Play\" - the cards, won after the play, are neither"
    ),
}

_ENCYCLOPEDIA: Final[dict[str, str]] = {
    "deck_size": 'quote: "a game played by two persons with 32 cards"',
    "packet_sizes": 'quote: "two by two, until each party has 12 cards"',
    "cut_after_game": (
        "reading: the article does not say; the deal alternates, as the six hands of its "
        "Rubicon game require"
    ),
    "blanche_value": (
        "reading: the article never mentions carte blanche (its list of what the score is "
        "composed of leaves it out); 10 as in every other source and in modern Rubicon"
    ),
    "both_blanche_score": (
        "reading: the article is silent; each player counts his own blank, as in 1754 and "
        "modern Rubicon"
    ),
    "blanche_number": (
        "reading: the article never mentions carte blanche; the procedure of the older texts "
        "(1754: tell how many Cards he will lay out): the holder names his number and is bound "
        "to it; younger may name up to what elder's named number will leave, else up to what "
        "elder must leave"
    ),
    "elder_max": 'quote: "He must discard at least one, and may discard five"',
    "elder_min": 'quote: "He must discard at least one, and may discard five"',
    "younger_min": 'quote: "But this is optional; he need not take any, or may take a part only"',
    "younger_max": (
        'quote: "He may then discard from his own hand as many as there remain of the stock"'
    ),
    "elder_sees_unused": (
        'quote: "If the elder hand takes from the stock fewer than five cards, he may look '
        'at those which he leaves"'
    ),
    "younger_leftovers": (
        'quote: "if he does so, the elder hand may look at them also after he has played"'
    ),
    "point_measure": (
        'quote: "announces the greatest number of cards of the same suit in his hand as his '
        'point" - equal numbers go by pip value'
    ),
    "point_scoring": 'quote: "counts as many as he has cards, one for each"',
    "sequences_same_suit": (
        'quote: "The sequence consists of at least three cards of the same suit, following '
        'consecutively"'
    ),
    "sequence_values": (
        'quote: "a tierce or sequence of three, counting 3; a quart, counting 4; a quint, '
        'counting 15" - then 16, 17 and 18 for the whole suit'
    ),
    "set_min_rank": 'quote: "three of equal value, aces, kings, queens, knaves, or tens"',
    "trio_value": 'quote: "are counted by the holder for 3"',
    "quatorze_value": 'quote: "Whichever player holds the highest quatorze counts 14"',
    "quatorze_beats_trio": (
        'quote: "If neither party has a quatorze, then three of equal value" - threes count '
        "only when no quatorze is held"
    ),
    "younger_declares_after_lead": (
        'quote: "He then plays his first card, and the dealer or younger hand must then, '
        'before playing, make his claims"'
    ),
    "show_point": 'quote: "Whichever party gains the point must lay it upon the table"',
    "show_sequences": (
        'quote: "All other claims as to value of cards are, if admitted, followed by showing" '
        "- reading: read as: every admitted claim is shown"
    ),
    "show_sets": (
        'quote: "All other claims as to value of cards are, if admitted, followed by showing" '
        "- reading: read as: every admitted claim is shown, sets included"
    ),
    "ask_missing": (
        "reading: the article does not mention it; winning sets are shown, so the question "
        "never arises"
    ),
    "show_missing": "reading: the article has no question about a missing card",
    "play_scoring": (
        'quote: "Each lead, whether the trick be taken or not, counts one, and each trick '
        'taken counts one"'
    ),
    "lead_value": 'quote: "Each lead, whether the trick be taken or not, counts one"',
    "win_value": 'quote: "each trick taken counts one"',
    "last_trick_bonus": (
        'quote: "The last trick counts 2 for the winner" - 1 more than any other trick'
    ),
    "last_trick_tenth_bonus": (
        "reading: the article has no tenth-card rule: the last trick counts 2 whatever wins "
        "it, so this is the same as the last trick's extra point"
    ),
    "cards_bonus": 'quote: "the winner of seven or more tricks adds 10 to his score"',
    "capot_bonus": (
        'quote: "The capot is won by taking all the 12 tricks, and instead of 10 gives 40 to '
        'the winner"'
    ),
    "pique_threshold": 'quote: "count 30 on his hand alone, he wins a repique"',
    "repique_bonus": (
        'quote: "he wins a repique, which also adds 90 to his score" - reading: read as 90 for 30 '
        "(+60), as elder calls ninety instead of thirty"
    ),
    "pique_bonus": (
        'quote: "by taking tricks he can reach 30 before the adversary takes a trick" - he '
        "then calls sixty for thirty: +30"
    ),
    "pique_elder_only": 'quote: "the dealer, while he cannot gain a pique"',
    "pique_by_first_card": (
        'quote: "by taking tricks he can reach 30 before the adversary takes a trick" - by '
        "any card of the play, not only the first lead"
    ),
    "target": 'quote: "The game is ordinarily played for 100 points"',
    "game_ends_mid_deal": (
        "reading: the article is silent; as in every older text, a game to 100 ends the "
        "moment 100 is reached in counting order (no effect in the partie)"
    ),
    "formats": (
        'quote: "game of six hands is played, in which if one party scores less than 100" '
        "- the game of 100 and the Rubicon partie"
    ),
    "default_format": 'quote: "The game is ordinarily played for 100 points"',
    "partie_deals": 'quote: "game of six hands is played"',
    "settlement": (
        'quote: "his score is added to that of the winner, if he has scored 100 or more" '
        "- otherwise (a reading) the winner scores the difference"
    ),
    "partie_tie_extra_deals": (
        "reading: the article says nothing of a partie level after six hands; it stays drawn"
    ),
    "lurch_below": "reading: the article has no lurch; the rubicon takes its place (0)",
    "false_claim": (
        "quote: \"A party making a claim to what he has not got counts nothing that hand.\" - "
        "reading: what he really holds still stands against the other's claims, as 1754 says "
        "outright"
    ),
    "unshown_claim": (
        "quote: \"If he does not do so, or if he omits to claim any other point before playing, "
        "he loses the count.\" - nothing is said of the other counting his own"
    ),
    "call_correction": (
        "quote: \"make your highest claim first\" - once made, a claim stands: \"you cannot "
        "then claim the higher point\""
    ),
    "renounce_taken_back": (
        "quote: \"A card touching the board is played, unless it causes a revoke.\""
    ),
    "carte_blanche": (
        "reading: the article never names carte blanche, and its list of what makes the score "
        "(\"the point, the sequence, the quatorze, the cards, and the capot\") leaves it out; "
        "read as played, with the 10 of every other source and of modern Rubicon (true); read "
        "as absent, a hand without a court card is a hand like any other (false)"
    ),
    "younger_blanche_bars": "reading: the article has no carte blanche; as 1754, each counts",
    "appoint_if_card_lacked": (
        "reading: unused, since elder names no lead (younger-looks); true, as 1754 is read"
    ),
    "pique_by_cards": (
        "reading: the article's pique is made \"from strength of hand and by taking tricks\" "
        "before the adversary counts; as in every older text, the cards and the capot, counted "
        "after the play, do not make it"
    ),
}

_AS_19C: Final = "reading: not among Parlett's changes to the encyclopedia-19c game, so "

_RUBICON: Final[dict[str, str]] = {
    "deck_size": "parlett: 32 cards, A K Q J 10 9 8 7 in each suit",
    "packet_sizes": "parlett: 12 each, dealt in twos or in threes, one size for the deal",
    "cut_after_game": "parlett: the deal alternates through the deals of a partie; no new cut",
    "blanche_value": "parlett: carte blanche (no court card in the twelve dealt) scores 10",
    "both_blanche_score": (
        "parlett: either player dealt a blank may claim 10 for it; blanks are not compared, "
        "so both can score"
    ),
    "blanche_number": (
        "reading: no source the project holds settles whether the holder announces how many "
        "cards he will exchange; Parlett's rules are read as: the blanche is declared and "
        "shown, no number of cards is announced, and the exchange goes on as usual, a younger "
        "holder taking as many as remain, at least one (false); the older texts' number, "
        "announced and bound to (true). Declared at once, shown by elder before he exchanges "
        "and by younger once elder has exchanged, as a blanche need not be shown before the "
        "other discards"
    ),
    "elder_max": "parlett: elder must exchange at least one card and at most five",
    "elder_min": "parlett: elder must exchange at least one card and at most five",
    "younger_min": "parlett: younger too must exchange at least one card",
    "younger_max": "parlett: younger may exchange up to all the cards elder left",
    "elder_sees_unused": (
        "parlett: elder, taking fewer than five, may look at the ones he was entitled to"
    ),
    "younger_leftovers": (
        "parlett: if younger looks at the cards he leaves, elder may see them after leading "
        "his first card; if not, neither does"
    ),
    "point_measure": (
        "parlett: the point is the number of cards in a suit; at equal length the pip total "
        "(ace 11, courts 10) decides, and if that is equal nobody scores"
    ),
    "point_scoring": "parlett: a good point scores 1 per card",
    "sequences_same_suit": "parlett: a sequence is three or more cards in order in one suit",
    "sequence_values": (
        "parlett: tierce 3, quart 4, quint 15, sixieme 16, septieme 17, huitieme 18"
    ),
    "set_min_rank": "parlett: sets are three or four of a rank from ten up; nines never count",
    "trio_value": "parlett: a trio scores 3",
    "quatorze_value": "parlett: a quatorze scores 14",
    "quatorze_beats_trio": (
        "parlett: any quatorze beats any trio; between sets of a size the higher rank wins"
    ),
    "younger_declares_after_lead": (
        "parlett: elder declares all his combinations and leads; younger declares before "
        "playing to the first trick"
    ),
    "show_point": _AS_19C + "the winning point is shown",
    "show_sequences": _AS_19C + "winning sequences are shown",
    "show_sets": (
        "reading: sets are told, not shown: the opponent can check them against his own "
        "hand, and what is not declared stays hidden (Parlett on sinking)"
    ),
    "ask_missing": _AS_19C + "there is no question about the missing card of a set",
    "show_missing": _AS_19C + "there is no question about the missing card of a set",
    "play_scoring": (
        "parlett: 1 for each lead, whatever the card; 1 for winning a trick the other led"
    ),
    "lead_value": "parlett: 1 for each lead",
    "win_value": "parlett: 1 for winning a trick the other led",
    "last_trick_bonus": "parlett: 1 extra for winning the last trick",
    "last_trick_tenth_bonus": (
        "reading: the modern game has no tenth-card rule, so this is the same as the last "
        "trick's extra point"
    ),
    "cards_bonus": "parlett: 10 for winning seven or more tricks; six each scores nothing",
    "capot_bonus": "parlett: 40 for winning all twelve tricks, instead of the 10",
    "pique_threshold": "parlett: pique and repique are reached at 30",
    "repique_bonus": (
        "parlett: either player reaching 30 from declarations alone before the other scores adds 60"
    ),
    "pique_bonus": (
        "parlett: elder reaching 30 from declarations and play before younger scores adds 30 "
        "(never by the cards or capot, which come after the play)"
    ),
    "pique_elder_only": (
        "parlett: only elder can pique, since his first lead scores before younger plays"
    ),
    "pique_by_first_card": (
        "parlett: elder reaching 30 from declarations and play before younger scores anything; "
        "not limited to his first lead"
    ),
    "target": (
        "parlett: 100 is the rubicon a partie's loser must cross; reading: the single game "
        "format is played to the same 100"
    ),
    "game_ends_mid_deal": (
        "reading: matters only in the single-game format; as in the older game, it ends the "
        "moment the target is reached in counting order"
    ),
    "formats": (
        "parlett: the game is the partie of six deals; reading: the single game to 100 is "
        "kept as an option"
    ),
    "default_format": "parlett: a game of Rubicon Piquet is a partie of six deals",
    "partie_deals": "parlett: a partie is six deals, the players dealing alternately",
    "settlement": (
        "parlett: the winner scores 100 plus the difference, or 100 plus both totals if the "
        "loser is under 100 (rubiconed)"
    ),
    "partie_tie_extra_deals": (
        "parlett: if the scores are level after six deals, each deals once more"
    ),
    "lurch_below": "reading: no lurch in the modern game; being rubiconed takes its place (0)",
    "false_claim": _AS_19C + "a false claim counts nothing that hand",
    "unshown_claim": _AS_19C + "a claim not shown before playing loses its count",
    "call_correction": _AS_19C + "the highest claim is made first, and a claim once made stands",
    "renounce_taken_back": _AS_19C + "a card that causes a revoke is taken back",
    "carte_blanche": "parlett: carte blanche (no court card in the twelve dealt) is declared "
    "and scores 10",
    "younger_blanche_bars": (
        "parlett: blanks are not compared; either player dealt one claims 10 for it"
    ),
    "appoint_if_card_lacked": "reading: unused, since elder names no lead (younger-looks)",
    "pique_by_cards": (
        "parlett: a pique is 30 from declarations and tricks before younger scores; the cards "
        "and capot are counted after the play and never make one"
    ),
}

SOURCES: Final[dict[str, dict[str, str]]] = {
    "cotgrave-1662": _COTGRAVE,
    "cotton-1674": _COTTON,
    "du-coeur-1995": _DU_COEUR,
    "court-gamester-1754": _COURT_GAMESTER,
    "encyclopedia-19c": _ENCYCLOPEDIA,
    "rubicon": _RUBICON,
}
"""Preset name -> knob name -> citation (``quote:``, ``reading:`` or ``parlett:``)."""


def is_reading(preset: str, knob: str) -> bool:
    """Whether ``preset``'s value of ``knob`` is a reading: its text is silent there, or
    can be read two ways (its citation says ``reading:``, and names the other reading
    where there is one)."""
    return "reading:" in citation(preset, knob)


def citation(preset: str, knob: str) -> str:
    """The citation for ``preset``'s value of ``knob``.

    Raises :class:`KeyError` naming the known presets, or the preset's knobs.
    """
    key = preset.strip().lower()
    try:
        table = SOURCES[key]
    except KeyError:
        raise KeyError(
            f"no sources for rule set {preset!r}; the presets are: {', '.join(SOURCES)}"
        ) from None
    try:
        return table[knob]
    except KeyError:
        raise KeyError(
            f"no source for knob {knob!r} of {key}; the knobs are: {', '.join(table)}"
        ) from None
