"""Hints at a table: one line for the player whose turn it is, from what his view shows.

- carte blanche and the exchange: the advisor's best discard
  (:func:`~piquet.advisor.ranking.advise`),
  and why, in the books' terms;
- the declarations: what to declare, when to sink (declare less than one
  holds, or nothing), and what to answer; the choice is the ``expert``
  level's (it plays the rest of the deal out in worlds drawn from the view,
  with each option), and the reason gives the chance, over worlds drawn from
  the view, that the holding is good;
- the play: the ``expert`` level's card, and what it does.

The chance a hint quotes is exact (:mod:`piquet.advisor.posterior`): counted over every
hand the other may hold given everything the seat has seen, the dialog included; where the
dialog has already decided a class (he declared less, or nothing) the hint says it is
certain.  Where the seat has one move only, the hint says so and why.  A hint is phrased
for a ``learner`` (plain words, the chance as "in about 9 deals out of 10") or an
``expert`` (the figures and the method).

Only the :class:`~piquet.core.match.MatchView` is read: nothing hidden is used.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Literal

from piquet.advisor.deals import ELDER, YOUNGER
from piquet.advisor.posterior import good_odds
from piquet.advisor.ranking import Advice, advise, node_limits
from piquet.analysis.sampling import SamplingError, sample_worlds
from piquet.core.actions import (
    PLAY,
    Action,
    Answer,
    Appoint,
    DealBy,
    Declare,
    Discard,
    Leftover,
    LeftoverChoice,
    NameLead,
    Pass,
    Play,
    Question,
    Reply,
)
from piquet.core.cards import SUIT_MASKS, CardSet
from piquet.core.deal import Phase
from piquet.core.declarations import DeclClass, best_claim, claims, statement
from piquet.core.errors import PiquetError
from piquet.core.facts import Declared, Passed
from piquet.core.play import follower_wins
from piquet.core.rules import Format, Leftovers, Rules
from piquet.core.view import DealView
from piquet.players.book import book_action
from piquet.players.expert import ExpertPlayer

__all__ = ["LEVELS", "Hint", "Level", "hint", "hint_for"]

Level = Literal["learner", "expert"]
LEVELS: Final[tuple[Level, ...]] = ("learner", "expert")

#: the expert's budget when it chooses a declaration or a card for a hint
HINT_THINK_MS: Final = 200
#: worlds drawn to say how likely a holding is good
GOOD_WORLDS: Final = 60


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint as values: its ``text``; the chance it quotes that a holding is good
    (``chance``: over ``hands`` hands the other may hold, ``exact`` when counted so, else
    drawn, where he showed carte blanche or the hands are too many to count; ``certain``
    when the dialog decided it); ``only_move`` when the seat had one move only."""

    text: str
    chance: float | None = None
    hands: int | None = None
    certain: bool = False
    only_move: bool = False
    action: Action | None = None
    """The move the hint suggests (None where it suggests none)."""
    exact: bool = False

    def __str__(self) -> str:
        return self.text


def hint(
    view: Any, *, rules: Rules | None = None, samples: int = 60, level: Level = "expert",
    nodes: int | None = None,
) -> str:
    """A one-line hint for the player whose :class:`~piquet.core.match.MatchView` this is.

    Returns ``""`` when there is nothing to suggest (not the player's turn).  ``nodes``:
    the positions the advisor's exact search may visit at the exchange, its close calls'
    included (None: its own, :data:`~piquet.advisor.ranking.TOTAL_NODES`).
    """
    return hint_for(view, rules=rules, samples=samples, level=level, nodes=nodes).text


def hint_for(
    view: Any, *, rules: Rules | None = None, samples: int = 60, level: Level = "expert",
    nodes: int | None = None,
) -> Hint:
    """:func:`hint` as values (the chance quoted, whether it was the only move)."""
    if level not in LEVELS:
        raise PiquetError(f"a hint is for a learner or an expert, not {level!r}")
    deal = getattr(view, "deal", None)
    if deal is None or view.to_act != view.player:
        return Hint("")
    r = rules if rules is not None else view.rule_set
    phase = deal.phase
    only = _only_move(deal, r, level)
    if only is not None:
        return only
    if phase is Phase.BLANCHE:
        return Hint(_blanche_hint(view, deal, r, samples, nodes))
    if phase is Phase.EXCHANGE and deal.discard_range is not None:
        return _exchange_hint(view, deal, r, samples, level, nodes)
    if phase is Phase.DECLARE:
        return _declare_hint(view, deal, r, level)
    if phase is Phase.PLAY:
        return _play_hint(view, deal, r, level)
    return _book_hint(deal, r)


# ------------------------------------------------------------------ one move only
_CLASS_WORDS: Final = {DeclClass.POINT: "point", DeclClass.SEQUENCE: "sequence",
                       DeclClass.SET: "set (three or four of a rank, ace to ten)"}


def _only_move(deal: DealView, rules: Rules, level: Level) -> Hint | None:
    """The hint where the seat may do one thing only: what it is, and why."""
    legal = deal.legal_actions
    if deal.phase is Phase.EXCHANGE or len(legal) != 1:
        return None
    action = legal[0]
    if isinstance(action, Pass):
        cls = deal.declaring
        what = _CLASS_WORDS[cls] if cls is not None else "holding"
        mine = best_claim(deal.hand.mask, cls, rules) if cls is not None else None
        why = (f"you hold no {what} to declare" if mine is None else
               "nothing you hold in this class beats what was declared")
        return Hint(f"Only one move here: pass (declare nothing), since {why}.", only_move=True)
    if isinstance(action, Answer):
        said = next((u.text.rstrip(".") for u in reversed(deal.dialog)
                     if u.role != deal.role), None)
        his = f"“{said}”" if said else "his declaration"
        return Hint(f"Answer “{_REPLY_WORDS[action.reply].lower()}”: it is your only answer, "
                    f"since nothing you hold in this class beats or equals {his}.",
                    only_move=True)
    if isinstance(action, Play):
        card = action.card
        if deal.hand.mask.bit_count() == 1:
            why = "it is your last card"
        elif deal.trick_lead is not None:
            why = f"you must follow {card.suit.plural} and it is your only one"
        else:
            why = "you are bound to lead it"
        return Hint(f"Only one card may be played here: {card}, since {why}.", only_move=True)
    if isinstance(action, Declare) and deal.declaring is not None:
        claim = next((c for c in claims(deal.hand.mask, action.cls, rules)
                      if c.cards == action.cards.mask), None)
        said = statement(claim, rules) if claim is not None else action.cls.label
        why = _decided(deal, action.cls, rules)
        tail = f", and certain to be good: {why}" if why else ""
        return Hint(f"Declare your {said} ({action.cards}): it is your only move{tail}.",
                    1.0 if why else None, certain=bool(why), only_move=True)
    return Hint(f"Only one move here: {action}.", only_move=True)


_REPLY_WORDS: Final = {Reply.GOOD: "Good", Reply.NOT_GOOD: "Not good", Reply.EQUAL: "Equal",
                       Reply.MAKING: "Making?"}


# ------------------------------------------------------------------ the exchange
@lru_cache(maxsize=64)
def _cached_advice(
    dealt: int,
    rules: Rules,
    role: int,
    score: tuple[int, int] | None,
    stock: int | None,
    samples: int,
    nodes: int | None,
) -> Advice:
    total, exact, settle = node_limits(nodes)
    return advise(
        dealt,
        rules,
        role=role,
        score=score,
        stock=stock,
        samples=max(samples, 2),
        candidates=6,
        explain_top=1,
        total_nodes=total,
        exact_nodes=exact,
        settle_nodes=settle,
    )


def _advice(
    view: Any, deal: DealView, rules: Rules, samples: int, nodes: int | None
) -> Advice | None:
    dealt = deal.dealt.mask
    if dealt.bit_count() != 12 or deal.hand.mask != dealt:
        return None
    role = deal.role
    stock = None
    if role == YOUNGER:
        stock = min(deal.stock_count, rules.stock_size - rules.elder_min)
        stock = max(stock, rules.stock_size - rules.elder_max)
    score = None
    scores = tuple(view.scores)
    if len(scores) == 2 and view.format is Format.GAME:
        mine = scores[view.in_game.index(view.player)]
        his = scores[1 - view.in_game.index(view.player)]
        if max(mine, his) >= rules.target - 40 and max(mine, his) < rules.target:
            score = (mine, his)
    try:
        return _cached_advice(dealt, rules, role, score, stock, samples, nodes)
    except PiquetError:
        return None


def _blanche_hint(
    view: Any, deal: DealView, rules: Rules, samples: int, nodes: int | None
) -> str:
    text = f"You hold carte blanche ({rules.blanche_value}, counted first): announce it"
    sizes = [getattr(a, "discards", None) for a in deal.legal_actions]
    advice = _advice(view, deal, rules, samples, nodes)
    ok = [n for n in sizes if n is not None]
    if advice is not None and ok:
        best = next((r for r in advice.ranking if len(r.discard) in ok), None)
        if best is not None:
            return f"{text} and that you will discard {len(best.discard)} ({best.discard})."
    return f"{text} and how many you will discard."


def _exchange_hint(
    view: Any, deal: DealView, rules: Rules, samples: int, level: Level, nodes: int | None
) -> Hint:
    advice = _advice(view, deal, rules, samples, nodes)
    if advice is None or deal.discard_range is None:
        return Hint("")
    lo, hi = deal.discard_range
    best = next((r for r in advice.ranking if lo <= len(r.discard) <= hi), None)
    if best is None:
        return Hint("")
    e = advice.explanations[0] if advice.explanations else None
    why = ""
    if e is not None and e.discard == best.discard:
        why = f": keeps {e.keeps}; {e.chances}"
    if level == "learner":
        n = len(best.discard)
        kept = f": it keeps {e.keeps}" if e is not None and e.discard == best.discard else ""
        return Hint(f"Lay out {best.discard} and take {n} from the stock{kept}. (The advisor "
                    "tried every discard in many deals and this one scores best.)",
                    action=Discard(best.discard))
    book = advice.method.get("book") or {}
    if book.get("discard") == str(best.discard):
        why += " (the book's discard too)"
    elif book.get("discard"):
        why += f" (the book would lay out {book['discard']}; the play-out finds this better)"
    return Hint(f"Discard {best.discard}{why}.", action=Discard(best.discard))


# ------------------------------------------------------------------ the declarations
def _expert_choice(view: Any) -> Action | None:
    player = ExpertPlayer(0, HINT_THINK_MS, threads=1)
    try:
        return player.choose(view)
    except PiquetError:
        return None


def _good_share(
    deal: DealView, rules: Rules, cls: DeclClass, key: tuple[int, ...]
) -> float | None:
    """How often, over worlds drawn from the view, a claim with ``key`` is good (None: no
    world could be drawn): the estimate where the exact count is not made."""
    rng = random.Random(f"piquet-hint-{deal.hand.mask}-{len(deal.dialog)}")
    try:
        worlds = sample_worlds(deal, rules, rng, GOOD_WORLDS)
    except SamplingError:
        return None
    total = good = 0.0
    for w in worlds:
        his = best_claim(w.opp_hand, cls, rules)
        total += w.weight
        if his is None or his.key < key:
            good += w.weight
    return good / total if total else None


@dataclass(frozen=True, slots=True)
class _Odds:
    """How likely a declaration is good, and in what words."""

    chance: float | None
    hands: int | None = None
    certain_why: str = ""
    exact: bool = False


def _decided(deal: DealView, cls: DeclClass, rules: Rules) -> str:
    """Why the dialog already decided the class for this seat ("" if it has not): younger
    declares only what beats elder's words, which were all elder may count."""
    if deal.role != YOUNGER:
        return ""
    said = None
    for u in deal.dialog:
        if u.role == ELDER and isinstance(u.fact, Declared) and u.fact.said.cls is cls:
            said = u.text.rstrip(".")
        elif u.role == ELDER and isinstance(u.fact, Passed) and u.fact.cls is cls:
            said = ""
    if said is None:
        return ""
    if not said:
        return f"he declared no {_CLASS_WORDS[cls].split(' (')[0]}, so yours stands alone"
    return f"he declared only “{said}”, and what he did not declare he cannot count"


def _odds(deal: DealView, rules: Rules, cls: DeclClass, key: tuple[int, int]) -> _Odds:
    why = _decided(deal, cls, rules)
    if why:
        return _Odds(1.0, certain_why=why, exact=True)
    exact = good_odds(deal, rules, cls, key)
    if exact is not None:
        return _Odds(exact.chance, exact.hands, exact=True)
    return _Odds(_good_share(deal, rules, cls, key))


def _chance_text(odds: _Odds, level: Level) -> str:
    """The odds in words ("" if unknown)."""
    if odds.certain_why:
        return f"it is certain to be good: {odds.certain_why}"
    share = odds.chance
    if share is None:
        return ""
    if level == "learner":
        if share >= 0.995:
            return "he cannot hold anything better"
        if share < 0.005:
            return "he is sure to hold something better"
        tenths = max(1, min(9, round(share * 10)))
        return f"he holds nothing better in about {tenths} deals out of 10 like this one"
    if odds.exact:
        return (f"good in {share:.0%} of the {odds.hands:,} hands he may hold, given all you "
                "have seen and heard")
    return f"good in about {share:.0%} of the deals that fit what you have seen"


def _declare_hint(view: Any, deal: DealView, rules: Rules, level: Level) -> Hint:
    legal = deal.legal_actions
    hand = deal.hand.mask
    choice = _expert_choice(view)
    declares = [a for a in legal if isinstance(a, Declare)]
    answers = [a for a in legal if isinstance(a, Answer)]
    if answers:
        return _answer_hint(deal, rules, choice, hand, level)
    if any(isinstance(a, Question) for a in legal):
        if choice == Question(True):
            return Hint("Ask which card is missing: it tells you a card he does not hold.",
                        action=Question(True))
        return Hint("Let it pass: asking would tell him what you do not hold.",
                    action=Question(False))
    if not declares:
        return Hint("")
    best = max(
        declares,
        key=lambda a: next(
            (c.key for c in claims(hand, a.cls, rules) if c.cards == a.cards.mask), (-1,)
        ),
    )
    claim = next((c for c in claims(hand, best.cls, rules) if c.cards == best.cards.mask), None)
    if claim is None:
        return Hint("")
    said = statement(claim, rules)
    odds = _odds(deal, rules, best.cls, claim.key)

    suggested = choice if isinstance(choice, Declare | Pass) else best

    def made(text: str) -> Hint:
        return Hint(text, odds.chance, odds.hands, bool(odds.certain_why), action=suggested,
                    exact=odds.exact)

    chance = _chance_text(odds, level)
    chance_text = f" ({chance})" if chance else ""
    if isinstance(choice, Pass):
        if level == "learner":
            why = chance[:1].upper() + chance[1:] if chance else "It is unlikely to be good"
            return made(f"Sink your {said}: say nothing. {why}, and declaring it would tell "
                        "him what you hold.")
        return made(
            f"Sink your {said} (pass): it is {chance or 'unlikely to be good'}, and calling it "
            "would show him your cards; the expert's simulation of the deal prefers silence."
        )
    if isinstance(choice, Declare) and choice != best:
        smaller = next(
            (c for c in claims(hand, choice.cls, rules) if c.cards == choice.cards.mask), None
        )
        what = statement(smaller, rules) if smaller is not None else str(choice.cards)
        return made(
            f"Sink part of it: declare {what} ({choice.cards}) rather than your {said}; "
            "the expert's simulation of the deal finds it tells him less for the same count."
        )
    if odds.chance is not None and odds.chance < 0.005 and not odds.certain_why:
        # "declare it (good in 0% ...)" read as advice against itself
        whose = "the book's and the expert's choice" if choice is not None else "the book's"
        return made(
            f"Declare your {said} ({CardSet(claim.cards)}), though he is sure to hold "
            f"something better: declaring it is still {whose}."
        )
    return made(f"Declare your {said} ({CardSet(claim.cards)}){chance_text}.")


def _answer_hint(
    deal: DealView, rules: Rules, choice: Action | None, hand: int, level: Level
) -> Hint:
    legal = {a.reply for a in deal.legal_actions if isinstance(a, Answer)}
    reply = choice.reply if isinstance(choice, Answer) else None
    if reply is None:
        reply = next(r for r in (Reply.NOT_GOOD, Reply.EQUAL, Reply.MAKING, Reply.GOOD)
                     if r in legal)
    return Hint(_answer_text(deal, rules, reply, legal, hand, level), action=Answer(reply))


def _answer_text(
    deal: DealView, rules: Rules, reply: Reply, legal: set[Reply], hand: int, level: Level
) -> str:
    said = next((u.text for u in reversed(deal.dialog) if u.role != deal.role), None)
    his = f"“{said.rstrip('.')}”" if said else "his declaration"
    cls = deal.declaring
    mine = best_claim(hand, cls, rules) if cls is not None else None
    mine_text = statement(mine, rules) if mine is not None else "nothing in this class"
    if reply is Reply.NOT_GOOD:
        return f'Answer "not good": yours is better ({mine_text}, against {his}).'
    if reply is Reply.EQUAL:
        return (f'Answer "equal": yours is the same ({mine_text}, against {his}), and '
                "neither counts.")
    if reply is Reply.MAKING:
        return f'Ask "making?": your {mine_text} has as many cards; the pips decide.'
    if Reply.NOT_GOOD in legal or Reply.EQUAL in legal:
        if level == "learner":
            return (f'Answer "good" and keep quiet about your {mine_text} (sink it): here '
                    "hiding it is worth more than the points it would win.")
        return (
            f'Answer "good" and sink your {mine_text}: the expert\'s simulation finds that '
            "hiding it costs less than it would tell him."
        )
    return f'Answer "good": yours is not better ({mine_text}, against {his}).'


# ------------------------------------------------------------------ the rest: the book
_BOOK_WHY: Final = {
    Phase.DEAL: "the book deals by twos",
    Phase.APPOINT: "the book appoints the suit where it holds the top",
}

#: why the book does what it does with the stock's leftovers, by who decides and how
_LEFTOVERS_WHY: Final = {
    # elder: he names a lead only when it is the lead he would make anyway
    (True, "name"): "to see younger's leftovers the book names only the lead it would "
    "make anyway, the ace of its longest suit",
    (True, "decline"): "to see younger's leftovers the book names only the lead it would "
    "make anyway, the ace of its longest suit, and you have no such ace to lead",
    # younger: he looks where what he sees is his alone (for now), not where both would
    (True, "leave"): "the book leaves them unseen",
    (False, "leave"): "the book leaves them unseen",
    (False, "look"): "what you left tells you which cards neither hand holds",
    (False, "decline"): "turning them up would show them to the other player too",
}


def _book_hint(deal: DealView, rules: Rules) -> Hint:
    return Hint(_book_text(deal, rules), action=book_action(deal, rules) if deal.legal_actions
                else None)


def _book_text(deal: DealView, rules: Rules) -> str:
    """The packet size, the leftovers, the appointed suit: the book's choice, and why."""
    legal = deal.legal_actions
    if not legal:
        return ""
    action = book_action(deal, rules)
    why = _BOOK_WHY.get(deal.phase, "the book's choice")
    if deal.phase is Phase.LEFTOVERS:
        kind = "name" if isinstance(action, NameLead) else (
            "look" if isinstance(action, Leftover) and action.choice is LeftoverChoice.LOOK
            else "decline")
        if kind == "decline" and not (
                any(isinstance(a, NameLead) for a in legal)
                or rules.younger_leftovers is Leftovers.YOUNGER_TURNS_UP):
            kind = "leave"  # nothing to name, nothing shown to both: just not looked at
        why = _LEFTOVERS_WHY.get((deal.role == ELDER, kind), why)
    if isinstance(action, DealBy):
        return f"Deal the cards {action.size} at a time: {why}."
    if isinstance(action, Leftover):
        return f"{action.choice.value.capitalize()}: {why}."
    if isinstance(action, Appoint):
        hand = deal.hand.mask
        best = max(range(4), key=lambda s: (((hand & SUIT_MASKS[s]) >> 9 * s).bit_length(),
                                            (hand & SUIT_MASKS[s]).bit_count()))
        chosen = int(action.suit) if action.suit is not None else (
            action.card.index // 9 if action.card is not None else best)
        if chosen != best:
            why = ("the book appoints where it holds the top, but elder cannot hold a card "
                   "of that suit that you do not know of; so the first he may hold")
    if isinstance(action, NameLead | Appoint):
        what = action.card if action.card is not None else (
            action.suit.plural if action.suit is not None else "")
        verb = "Name" if isinstance(action, NameLead) else "Appoint"
        return f"{verb} {what}: {why}."
    return f"Choose {action}: {why}."


# ------------------------------------------------------------------ the play
def _play_hint(view: Any, deal: DealView, rules: Rules, level: Level) -> Hint:
    legal = [a.card.index for a in deal.legal_actions if isinstance(a, Play)]
    if not legal:
        return Hint("")
    choice = _expert_choice(view) if len(legal) > 1 else None
    card = choice.card.index if isinstance(choice, Play) else legal[0]
    return Hint(_play_text(deal, card, level), action=PLAY[card])


def _play_text(deal: DealView, card: int, level: Level) -> str:
    shown = CardSet(1 << card)
    lead = deal.trick_lead
    if lead is None:
        gone = deal.opponent_played.mask | deal.discards.mask | deal.hand.mask
        for t in deal.tricks:
            gone |= 1 << t.lead | 1 << t.follow
        s, r = divmod(card, 9)
        higher = ((1 << 9) - 1) & ~((1 << (r + 1)) - 1)
        out_above = higher & ~(gone >> (9 * s))
        if not out_above:
            return f"Lead {shown}: it is the master of its suit."
        if level == "learner":
            return f"Lead {shown}: it is the card that scores best from here."
        return f"Lead {shown}: the expert's search over the deals that fit your view prefers it."
    if follower_wins(lead, card):
        return f"Play {shown}: it wins the trick."
    if card // 9 == lead // 9:
        return f"Play {shown}: you cannot win it cheaply; keep your better cards."
    return f"Throw {shown}: it is your least useful card."
