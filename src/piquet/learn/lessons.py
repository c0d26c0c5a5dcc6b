"""The lessons: from the cards and the deal to a whole deal, then how each period differs.

Each is a :class:`~piquet.learn.lesson.Lesson` (data): steps of plain text with glossary
terms marked, positions shown from one role's view, and questions the engine answers (the
``expected`` answers are the author's, checked against the engine by the suite).  The
first ten teach today's game (``rubicon``, Rubicon Piquet, the 32-card game); the last four
what is particular to each period's rules.
"""

from __future__ import annotations

from typing import Final

from piquet.core.declarations import DeclClass
from piquet.core.roles import Role
from piquet.learn.lesson import Ask, Lesson, Position, Question, Step

__all__ = ["LESSONS", "lesson"]

E, Y = Role.ELDER, Role.YOUNGER
P, SEQ, SET = DeclClass.POINT, DeclClass.SEQUENCE, DeclClass.SET

# A deal of today's game used by several lessons: elder holds five spades (47 pips) and a
# tierce major, younger five hearts (48 pips) and a quart major.
_DEAL = Position(
    "rubicon",
    elder="AS KS QS 9S 7S 9H 8H KD JD TD 9D TC",
    younger="JS TS 8S AH KH QH JH 7H AD QD 8D 7D",
    stock="TH AC KC QC JC 9C 8C 7C",
)
_AFTER_EXCHANGE = Position(
    "rubicon", _DEAL.elder, _DEAL.younger, _DEAL.stock,
    actions=("discard:9H 8H TC", "discard:8S 8D 7D"),
)

_CARDS = Lesson(
    "cards", "The cards and the deal", "rubicon",
    "What is played with, who deals, and who is elder.",
    (
        Step("[[Piquet]] is played by two with a short [[pack]] of 32 cards: in each suit "
             "the ace (highest), king, queen, [[knave]] (the jack), 10, 9, 8 and 7. No "
             "trumps, no jokers."),
        Step("One player is the [[dealer]]; the other is [[elder]] (the [[elder hand]]). "
             "The dealer is the [[younger]] hand. Elder has the advantage: he changes more "
             "cards, speaks first and leads first, so the players deal in turn."),
        Step("Each player gets twelve cards, dealt two at a time ([[packet]]s of 2). The "
             "eight left over are the [[stock]] (or talon), face down between you. Here you "
             "are elder: these are your twelve cards.",
             _DEAL, E),
        Step("A hand with no [[court card]] (no king, queen or knave) is [[carte blanche]] "
             "and scores at once.",
             _DEAL, E,
             Question(Ask.BLANCHE, "Is your hand carte blanche?", "no")),
        Step("Now you change some cards: that is [[exchange|the exchange]], the next lesson.",
             _DEAL, E,
             Question(Ask.EXCHANGE, "How many cards may you lay out and replace?", "1 to 5")),
    ),
)

_EXCHANGE = Lesson(
    "exchange", "The exchange: how many, and what to keep", "rubicon",
    "Elder may change up to five cards, younger the rest; keep long suits and high cards.",
    (
        Step("Elder [[discard|lays out]] at least one card and takes as many from the top "
             "of the [[stock]]: up to five of the eight. Younger may then take what elder "
             "left (three if elder took five).", _DEAL, E),
        Step("Keep what scores: a long suit (the [[point]]), cards in a row (a "
             "[[sequence]]), three or four of a rank (a [[set]]), and high cards to win "
             "[[trick]]s. Lay out the low cards of short suits. Here elder lays out 9H 8H "
             "10C and takes three.",
             Position("rubicon", _DEAL.elder, _DEAL.younger, _DEAL.stock,
                      actions=("discard:9H 8H TC",)), Y,
             Question(Ask.EXCHANGE, "Elder took three. How many may you, younger, lay out?",
                      "1 to 5")),
        Step("Cards elder does not take he may look at ([[leftovers]]); cards younger leaves "
             "stay face down unless the rules say otherwise.", _AFTER_EXCHANGE, E,
             Question(Ask.POINT, "Elder, after your exchange: how many cards is your point?",
                      "5")),
    ),
)

_POINT = Lesson(
    "point", "The point", "rubicon",
    "Your longest suit scores one point a card, if it is better than his.",
    (
        Step("The [[point]] is your longest suit. Elder says how many cards: \"Point of "
             "five.\" Younger answers [[good]] (he has fewer), [[not good]] (he has more) or, "
             "with as many, asks \"[[making]]?\": then the [[pips]] decide (ace 11, court "
             "cards 10, the rest as marked).", _AFTER_EXCHANGE, E),
        Step("Your spades: AS KS QS 9S 7S: five cards, 11 + 10 + 10 + 9 + 7 = 47 pips.",
             _AFTER_EXCHANGE, E,
             Question(Ask.POINT, "How many cards is your point?", "5")),
        Step("Younger holds AH KH QH JH 7H: five cards too, 48 pips. Who wins the point?",
             _AFTER_EXCHANGE, E,
             Question(Ask.WINNER, "Who wins the point (elder, younger or neither)?",
                      "younger", P)),
        Step("The winner counts one point a card, and shows the cards.", _AFTER_EXCHANGE, Y,
             Question(Ask.COUNT, "How many does younger count for the point?", "5", P)),
    ),
)

_SEQUENCES = Lesson(
    "sequences", "Sequences", "rubicon",
    "Three or more in a row of one suit; the longest wins, then the highest.",
    (
        Step("A [[sequence]] is three or more cards in a row of one suit: a [[tierce]] "
             "(three, worth 3), a [[quart]] (four, 4), a [[quint]] (five, 15), a "
             "[[sixième]] (six, 16), and so on. It is named by its top card: \"quart "
             "[[to the king]]\", or [[major]] when the ace heads it.", _AFTER_EXCHANGE, E),
        Step("Your best sequence:", _AFTER_EXCHANGE, E,
             Question(Ask.BEST, "Which cards make your best sequence?", "AS KS QS", SEQ)),
        Step("The longer sequence wins the [[class]]; between two as long, the higher top "
             "card; the winner counts every sequence he holds, the loser none.",
             _AFTER_EXCHANGE, E,
             Question(Ask.WINNER, "Your tierce major against his quart major: who wins?",
                      "younger", SEQ)),
        Step("What the winner counts:", _AFTER_EXCHANGE, Y,
             Question(Ask.COUNT, "How many does younger count for sequences?", "4", SEQ)),
    ),
)

_SETS_A = Position(
    "rubicon",
    elder="AS AH AD KS KH QS QH QD JC TC 9C 8C",
    younger="KD KC AC JS JH JD TS TH TD 7S 7H 7D",
    stock="9S 8S 9H 8H 9D 8D QC 7C",
    actions=("discard:8C", "discard:7D"),
)
_SETS_B = Position(
    "rubicon",
    elder="AS AH AD KS KH QS QH QD JC 9C 8C 7C",
    younger="KD KC AC JS JH JD TS TH TD TC 7S 7H",
    stock="9S 8S 9H 8H 9D 8D 7D QC",
    actions=("discard:7C", "discard:7H"),
)

_SETS = Lesson(
    "sets", "Sets: threes and quatorzes", "rubicon",
    "Three or four of a rank, ace to ten; the higher set wins and counts them all.",
    (
        Step("A [[set]] is three or four cards of one rank, ace down to 10 (nines and lower "
             "never count). Three ([[trio]], or \"three kings\") score 3; four (a "
             "[[quatorze]]) score 14.", _SETS_A, E),
        Step("The higher set wins the class, and its holder counts every set he has: here "
             "three aces against three knaves.", _SETS_A, E,
             Question(Ask.WINNER, "Who wins the sets?", "elder", SET)),
        Step("Elder counts his three aces and his three queens:", _SETS_A, E,
             Question(Ask.COUNT, "How many does elder count for sets?", "6", SET)),
        Step("Any quatorze beats any three: four tens beat three aces.", _SETS_B, E,
             Question(Ask.WINNER, "Now who wins the sets?", "younger", SET)),
        Step("Younger counts the quatorze and his three knaves:", _SETS_B, Y,
             Question(Ask.COUNT, "How many does younger count?", "17", SET)),
    ),
)

_SHOW_1754 = Position(
    "court-gamester-1754",
    elder="AS AH AD KS KH QS QH QD JC 9C 8C 7C",
    younger="KD KC AC JS JH JD TS TH TD TC 7S 7H",
    stock="9S 8S 9H 8H 9D 8D 7D QC",
    actions=("discard:7C", "discard:TC"),
)

_MISSING_1754 = Position(
    "court-gamester-1754",
    elder="KS KH KD KC AS QS JS 9S 8H 7H 8D 7C",
    younger="AH QH JH TH 9H AD QD JD TD 9D AC QC",
    stock="TS 8S 7S 7D JC TC 9C 8C",
    actions=("discard:KC 8H 7H 8D 7C", "discard:9H 9D AC"),
    declared=True,
)

_SHOWING = Lesson(
    "showing", "Showing, and \"which is missing\"", "court-gamester-1754",
    "What you declare you show; a three from a four you laid out must be told.",
    (
        Step("A point or a sequence that is [[good]] is [[show]]n: laid on the table, so the "
             "other can check it. A [[set]] need only be told (1754).", _SHOW_1754, E),
        Step("Here younger laid out the 10 of clubs from his four tens: he can declare only "
             "three tens now. Under the 1662 and 1754 rules elder may ask [[which is "
             "missing]]: \"Which one did you lay out?\" and younger must say.", _SHOW_1754, Y,
             Question(Ask.BEST, "Younger: which cards make your best set now?", "JS JH JD",
                      SET)),
        Step("Sinking is the other side of showing: to [[sink]] a holding is not to declare "
             "it (or declare less), so as not to tell what you hold. What you sink scores "
             "nothing.", _SHOW_1754, E,
             Question(Ask.WINNER, "If both declare their best, who wins the sets?", "elder",
                      SET)),
        Step("Here elder held four kings, laid one out, and declared \"three kings\". You, "
             "younger, said \"good\" and asked which one he laid out; he had to tell you. "
             "Read the dialog.", _MISSING_1754, Y,
             Question(Ask.MISSING, "Which king did elder lay out?", "KC")),
    ),
)

_PIQUE = Position(
    "rubicon",
    elder="AS KS QS JS TS AH AD AC KH QH 7D 7C",
    younger="9S 8S 7S JH TH 9H KD QD JD 9D KC QC",
    stock="8H 7H 8D 8C 9C TD JC TC",
    actions=("discard:7D 7C", "discard:9S 8S 7S"),
)

_PIQUE_LESSON = Lesson(
    "pique", "Pique, repique and capot", "rubicon",
    "Thirty before the other scores: 60 or 90; all twelve tricks: 40.",
    (
        Step("[[Counting order]] matters: carte blanche, point, sequences, sets, then the "
             "play. If you reach 30 from your declarations alone before the other scores "
             "anything, it is a [[repique]]: you count 90 instead of 30.", _PIQUE, E),
        Step("Elder here holds a point of five (5), a quint major in spades (15) and a tierce "
             "major in hearts (3), and four aces (a [[quatorze]], 14): 37 in hand before "
             "younger counts anything. Instead of 30 he counts 90, and goes on from there.",
             _PIQUE, E,
             Question(Ask.TOTAL, "How many has elder once the declarations are made?",
                      "97")),
        Step("Reaching 30 with the help of the play, before the other scores, is a "
             "[[pique]]: 60 instead of 30 (only elder can, in practice). Winning all twelve "
             "tricks is [[capot]]: 40 instead of the 10 for [[the cards]]."),
    ),
)

_PLAY = Position(
    "rubicon", _DEAL.elder, _DEAL.younger, _DEAL.stock,
    actions=("discard:9H 8H TC", "discard:8S 8D 7D"),
    declared=True,
)

_PLAY_LESSON = Lesson(
    "play", "The play and its count", "rubicon",
    "Follow suit; the higher card of the suit led wins; leads and wins count.",
    (
        Step("After the declarations come twelve [[trick]]s. Elder [[lead]]s first; you "
             "must [[follow suit]] if you can; the higher card of the suit led wins; a card "
             "of another suit never wins (no trumps). The winner leads next.", _PLAY, Y),
        Step("Elder has led. Younger must follow if he can:", _PLAY, Y,
             Question(Ask.PLAYABLE, "Which cards may younger play?", "QC JC 9C")),
        Step("Today's count: 1 for each card led, 1 for winning a trick the other led, 1 "
             "more for the [[last trick]], 10 for [[the cards]] (seven tricks or more).",
             _PLAY, Y,
             Question(Ask.SCORE, "How many has elder counted in this deal so far?", "9")),
    ),
)

_BLANCHE = Position(
    "rubicon",
    elder="AS TS 9S 8S AH TH 7H AD 9D 8D TC 7C",
    younger="KS QS JS 7S KH QH JH 9H KD QD JD TD",
)

_BLANCHE_LESSON = Lesson(
    "blanche", "Carte blanche", "rubicon",
    "Twelve cards without a king, queen or knave score 10 before anything else.",
    (
        Step("[[carte blanche|Carte blanche]]: no king, queen or knave among your twelve "
             "dealt cards. Say so at once and show the hand: it scores 10, counted first, "
             "and it stops the other's [[pique]] and [[repique]].", _BLANCHE, E,
             Question(Ask.BLANCHE, "Is elder's hand carte blanche?", "yes")),
        Step("Younger's hand is full of court cards:", _BLANCHE, Y,
             Question(Ask.BLANCHE, "Is younger's hand carte blanche?", "no")),
    ),
)

_GAME = Lesson(
    "game", "The game, the partie and the rubicon", "rubicon",
    "A game to 100, or today's partie of six deals settled by the rubicon.",
    (
        Step("The older rules play a [[game]] to 100 (\"a hundred up\"): deals go on until "
             "one player reaches it, and it can end in the middle of a deal, in counting "
             "order."),
        Step("Today's [[partie]] is six deals, each player dealing three times. Then the "
             "[[rubicon]]: a loser who has not reached 100 is rubiconed, and the winner "
             "scores 100 plus both totals; otherwise 100 plus the difference. Here is a "
             "partie played out by the computer.",
             Position("rubicon", _DEAL.elder, _DEAL.younger, _DEAL.stock), E,
             Question(Ask.SETTLEMENT, "What does the winner score by the settlement?",
                      "129", seed=3)),
        Step("The 1754 rules have the [[lurch]] instead: a loser under 50 pays double.",
             None, E,
             Question(Ask.LURCH, "A loser with 44 at the end: is he lurched?", "yes",
                      value=44)),
    ),
)

# ------------------------------------------------------------------ the periods
_COTGRAVE = Position(
    "cotgrave-1662",
    elder="AS KS QS JS 9S 8S AH 6H AD 6D 6C 7C",
    younger="TS 7S 6S KH QH JH TH 9H KD QD KC QC",
)

_PERIOD_1662 = Lesson(
    "cotgrave-1662", "1662 and 1674: Cotgrave's and Cotton's game", "cotgrave-1662",
    "36 cards, the point by pips (the Ruff), elder takes eight, a game can end mid-deal.",
    (
        Step("Cotgrave (1662) and Cotton (1674), who copied him, play with 36 cards (down to "
             "the 6). The [[stock]] holds twelve: elder may take eight.", _COTGRAVE, E,
             Question(Ask.EXCHANGE, "How many may elder lay out?", "1 to 8")),
        Step("The point is the [[ruff]]: the pips of your best suit (ace 11, courts 10), "
             "one point for every ten, 35 to 39 counting as 40.", _COTGRAVE, E,
             Question(Ask.POINT, "What is elder's ruff, in pips?", "58")),
        Step("In play the leader counts one for an ace, king, queen, knave or 10 led "
             "([[tenth card]]s), and the winner one for taking a trick with one."),
    ),
)

_DUCOEUR = Position(
    "du-coeur-1995",
    elder="AS KH QD JC TS 9H 8D 7C 6S AH KD 6H",
    younger="QS JS 9S 8S 7S TH 7H QH JH TD 9D 8H",
)

_PERIOD_1995 = Lesson(
    "du-coeur-1995", "du Coeur's reconstruction (1995)", "du-coeur-1995",
    "Cotton as re-enactors play him: sequences in any suits; two blanks cancel; 121 up.",
    (
        Step("Justin du Coeur's players read Cotton as letting a [[sequence]] mix suits: "
             "ace, king, queen of different suits is a tierce major. Each card may be in "
             "one sequence only.", _DUCOEUR, E,
             Question(Ask.BEST, "Which cards make elder's best sequence?",
                      "AS KH QD JC TS 9H 8D 7C 6S", SEQ)),
        Step("The winner counts the split of his hand into runs that scores most, so a "
             "long run and the runs of its spare cards may count more than the run alone.",
             _DUCOEUR, E,
             Question(Ask.COUNT, "What does elder count for sequences if they are good?",
                      "19", SEQ)),
        Step("If both hold [[carte blanche]], neither scores it; the game is played to 121."),
    ),
)

_GAMESTER = Position(
    "court-gamester-1754",
    elder="AS KS QS JS 9S AH KH 8H AD 7D 8C 7C",
    younger="TS 8S 7S QH JH TH 9H KD QD JD TD AC",
)

_PERIOD_1754 = Lesson(
    "court-gamester-1754", "1754: naming the lead, the lurch and the pool",
    "court-gamester-1754",
    "32 cards; elder names his lead to see the cards younger left; the lurch; the pool.",
    (
        Step("The 1754 Compleat Gamester plays with 32 cards and the point by pips. Elder "
             "takes up to five.", _GAMESTER, E,
             Question(Ask.EXCHANGE, "How many may elder lay out?", "1 to 5")),
        Step("If younger leaves cards in the stock, elder may see them only by first "
             "naming the card he will lead ([[name the lead]]), and he is bound to lead "
             "it; if he holds none, younger appoints his lead."),
        Step("A loser under 50 is lurched and pays double ([[lurch]]); three may play a "
             "[[pool]], the winner staying in, two games running taking the pool.", None, E,
             Question(Ask.LURCH, "A loser with 50: is he lurched?", "no", value=50)),
        Step("The point counts pips, one per ten:", _GAMESTER, E,
             Question(Ask.POINT, "What is elder's point, in pips?", "50")),
    ),
)

_ENCYCLO = Position(
    "encyclopedia-19c",
    elder="AS KS QS JS 9S AH KH 8H AD 7D 8C 7C",
    younger="TS 8S 7S QH JH TH 9H KD QD JD TD AC",
    actions=("discard:7D 8C 7C", "discard:8S 7S"),
)

_PERIOD_19C = Lesson(
    "encyclopedia-19c", "The 19th century: the point by cards, and the order of declaring",
    "encyclopedia-19c",
    "Elder declares everything and leads; only then does younger declare.",
    (
        Step("The 19th-century article counts the [[point]] by cards, one a card; the pips "
             "only break a tie ([[making]]). Equal holdings are [[paid|\"paid\"]]: neither "
             "scores.", _ENCYCLO, E,
             Question(Ask.POINT, "How many cards is elder's point?", "5")),
        Step("The order changes: elder declares all three classes and leads his first "
             "card; only then does younger declare, before playing to it. Younger may "
             "take none of the stock.", _ENCYCLO, E,
             Question(Ask.WINNER, "Who wins the sequences?", "elder", SEQ)),
        Step("Seven tricks or more win [[the cards]]; six each are \"divided\"."),
    ),
)

LESSONS: Final[tuple[Lesson, ...]] = (
    _CARDS,
    _EXCHANGE,
    _POINT,
    _SEQUENCES,
    _SETS,
    _SHOWING,
    _PIQUE_LESSON,
    _PLAY_LESSON,
    _BLANCHE_LESSON,
    _GAME,
    _PERIOD_1662,
    _PERIOD_1995,
    _PERIOD_1754,
    _PERIOD_19C,
)
"""The lessons, in the order a newcomer takes them."""


def lesson(key: str) -> Lesson:
    """The lesson named ``key``; raises :class:`KeyError` naming the lessons."""
    for found in LESSONS:
        if found.key == key:
            return found
    raise KeyError(f"no lesson {key!r}; the lessons are: {', '.join(x.key for x in LESSONS)}")
