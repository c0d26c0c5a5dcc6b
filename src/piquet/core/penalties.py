"""The texts' penalties for mistakes made at a real table, and a deal counted as they say.

The engine refuses every mistake (a claim the hand does not hold, a renounce, a second
discard): in play they cannot happen.  At a real table they do, and the texts say what
follows; :mod:`piquet.tally`, which scores games played with real cards, records them
here.  Which penalty a rule set gives is a knob of :class:`~piquet.core.rules.Rules`
with its passage (:mod:`piquet.core.sources`):

- :attr:`~piquet.core.rules.Rules.false_claim`: a player counted what he does not hold,
  and it is found out.  1662 and 1674 ("debarr'd from reckoning anything of what he
  really hath, and his adversary shall reckon all he has, but yet the other shall make all
  he can in play"): his hand counts nothing, his play counts; the other counts all he
  holds, each class as its winner would, and the false count hinders none of his pique
  or repique.  1754 and the 19th century ("counts nothing that hand"): he counts nothing
  that deal; what he really holds still stands against the other's claims and still
  stops his pique or repique (1754: "what he has in his Hand may hinder the other, and
  save a *Picque*"), as the deal entered truthfully gives.
- :attr:`~piquet.core.rules.Rules.unshown_claim`: a player counted a point (or sequences)
  he must show and played a card without showing it: he loses that count; in 1662 and
  1754 the other counts his own holding of the class instead, "though of lesse value".
- :attr:`~piquet.core.rules.Rules.renounce_taken_back`: a card played out of suit while
  the suit led was held is taken back and the suit followed, with no penalty: recorded,
  the score unchanged.

:func:`counted` is the deal's count with its penalties: the timeline rebuilt in counting
order and pique and repique judged again on it (:class:`~piquet.core.scoring.Tally`), so
the moment a game's target is reached follows too.  A correction of the declarations
before the first card (1662 at Paris, 1754: :attr:`~piquet.core.rules.Rules.call_correction`)
is no penalty: the tally takes the words back and the deal is entered again.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from piquet.core.cards import Card
from piquet.core.deal import Deal, Phase
from piquet.core.declarations import DeclClass, best_claim
from piquet.core.declarations import counted as class_count
from piquet.core.errors import IllegalActionError
from piquet.core.roles import OTHER, ROLE_NAMES, Role
from piquet.core.rules import FalseClaim, Rules, Unshown
from piquet.core.scoring import HAND_KINDS, Event, Kind, Tally
from piquet.core.words import claim_words

__all__ = ["Mistake", "Penalty", "counted", "described", "offered", "verify"]


class Mistake(enum.Enum):
    """A mistake made at a real table that a text gives a penalty (or a remedy) for."""

    FALSE_CLAIM = "false-claim"
    """He counted what he does not hold (a set with a card laid out, a point he has not)."""
    NOT_SHOWN = "not-shown"
    """He played a card without showing a holding he counted and must show."""
    RENOUNCE = "renounce"
    """He played a card of another suit while holding the suit led, and took it back."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """``role`` made ``mistake`` in a deal (``cls``: the class he did not show)."""

    mistake: Mistake
    role: Role
    cls: DeclClass | None = None

    def __str__(self) -> str:
        what = f"{ROLE_NAMES[self.role]}: {self.mistake.value.replace('-', ' ')}"
        return what if self.cls is None else f"{what} {self.cls.label}"


_KNOB: Final = {
    Mistake.FALSE_CLAIM: "false_claim",
    Mistake.NOT_SHOWN: "unshown_claim",
    Mistake.RENOUNCE: "renounce_taken_back",
}
"""The knob of :class:`~piquet.core.rules.Rules` that says what each mistake costs."""
_CLASS_KIND: Final = (Kind.POINT, Kind.SEQUENCES, Kind.SETS)
_BONUSES: Final = (Kind.PIQUE, Kind.REPIQUE)


def offered(rules: Rules) -> tuple[Mistake, ...]:
    """The mistakes the rule set's text gives a penalty or a remedy for."""
    out = []
    if rules.false_claim is not FalseClaim.NONE:
        out.append(Mistake.FALSE_CLAIM)
    if rules.unshown_claim is not Unshown.NONE and (
        rules.show_point or rules.show_sequences or rules.show_sets
    ):
        out.append(Mistake.NOT_SHOWN)
    if rules.renounce_taken_back:
        out.append(Mistake.RENOUNCE)
    return tuple(out)


def knob_of(mistake: Mistake) -> str:
    """The knob that says what ``mistake`` costs (its passage: :mod:`piquet.core.sources`)."""
    return _KNOB[mistake]


def verify(deal: Deal, penalty: Penalty, earlier: Sequence[Penalty] = ()) -> None:
    """Raise :class:`IllegalActionError`, saying why, unless ``penalty`` can be recorded on
    ``deal`` (in play, or over) beside the ``earlier`` ones of the same deal."""
    rules = deal.rules
    who = ROLE_NAMES[penalty.role]
    mistake = penalty.mistake
    if mistake not in offered(rules):
        raise IllegalActionError(_not_offered(mistake, rules))
    if penalty in earlier:
        raise IllegalActionError(f"{penalty} is already recorded in this deal")
    if mistake is Mistake.RENOUNCE:
        if deal.phase is not Phase.PLAY:
            raise IllegalActionError(
                "a renounce is found in the play: a card played out of suit is taken back "
                "before the next is played"
            )
        return
    if deal.phase in (Phase.DEAL, Phase.BLANCHE, Phase.EXCHANGE, Phase.LEFTOVERS, Phase.APPOINT):
        raise IllegalActionError(
            f"{who} has counted nothing yet: a {mistake.value.replace('-', ' ')} is found "
            "once the declarations have begun"
        )
    if mistake is Mistake.FALSE_CLAIM:
        return
    cls = penalty.cls
    if cls is None:
        raise IllegalActionError("say which holding was not shown: point, sequence or set")
    if not (rules.show_point, rules.show_sequences, rules.show_sets)[cls]:
        raise IllegalActionError(
            f"under {rules.name} a {cls.label} is not shown, so it is not lost for not "
            "being shown"
        )
    result = deal.results[cls]
    if result is None or result.winner != penalty.role:
        raise IllegalActionError(
            f"{who} did not count the {cls.label}: only the holding he counted must be shown"
        )


def _not_offered(mistake: Mistake, rules: Rules) -> str:
    if mistake is Mistake.NOT_SHOWN and rules.unshown_claim is not Unshown.NONE:
        return f"under {rules.name} no holding must be shown"
    what = {
        Mistake.FALSE_CLAIM: "a false claim",
        Mistake.NOT_SHOWN: "a holding not shown",
        Mistake.RENOUNCE: "a renounce",
    }[mistake]
    given = ", ".join(m.value.replace("-", " ") for m in offered(rules)) or "none"
    return (
        f"the text of {rules.name} gives no penalty for {what} ({_KNOB[mistake]}); "
        f"what it does give: {given}"
    )


def described(penalty: Penalty, rules: Rules, names: tuple[str, str] = ROLE_NAMES) -> str:
    """What the penalty does under ``rules``, in words, each role called by its name in
    ``names`` ("elder counts nothing this deal")."""
    who = names[penalty.role]
    other = names[OTHER[penalty.role]]
    if penalty.mistake is Mistake.RENOUNCE:
        return (f"the card {who} played out of suit is taken back and the suit followed: no "
                "penalty, the score is unchanged")
    if penalty.mistake is Mistake.FALSE_CLAIM:
        if rules.false_claim is FalseClaim.DEBARRED:
            return (f"{who} counts nothing of his hand this deal, only what he makes in play; "
                    f"{other} counts all he holds, and may still pique or repique")
        return (f"{who} counts nothing this deal; what he holds still stands against "
                f"{other}'s claims")
    label = penalty.cls.label if penalty.cls is not None else "holding"
    if rules.unshown_claim is Unshown.TO_THE_OTHER:
        return f"{who} loses his {label}; {other} counts his own {label} instead"
    return f"{who} loses his {label}"


# ---------------------------------------------------------------------- the count


def counted(deal: Deal, penalties: Sequence[Penalty]) -> Tally:
    """The count of ``deal`` (over) with ``penalties`` applied as its rule set's text says:
    the timeline rebuilt in counting order, pique, repique and the game's target judged
    again on it."""
    rules = deal.rules
    events = [e for e in deal.events if e.kind not in _BONUSES]
    hand = [e for e in events if e.kind in HAND_KINDS]
    play = [e for e in events if e.kind not in HAND_KINDS]
    nothing: set[int] = set()
    for p in penalties:
        if p.mistake is Mistake.FALSE_CLAIM:
            if rules.false_claim is FalseClaim.DEBARRED:
                hand = [e for e in hand if e.role != p.role]
                for cls in DeclClass:
                    hand = _the_other_counts(deal, hand, OTHER[p.role], cls)
            else:
                nothing.add(p.role)
        elif p.mistake is Mistake.NOT_SHOWN and p.cls is not None:
            kind = _CLASS_KIND[p.cls]
            hand = [e for e in hand if not (e.role == p.role and e.kind is kind)]
            if rules.unshown_claim is Unshown.TO_THE_OTHER:
                hand = _the_other_counts(deal, hand, OTHER[p.role], p.cls)
    hand.sort(key=_counting_order)
    tally = _judged(deal, hand, play)
    if not nothing:
        return tally
    kept = tuple(e for e in tally.events if e.role not in nothing)
    totals = [0, 0]
    reached = None
    for e in kept:
        totals[e.role] += e.points
        if reached is None and deal.target is not None:
            if deal.start[e.role] + totals[e.role] >= deal.target:
                reached = e.role
    return Tally(kept, (totals[0], totals[1]), False, reached)


_ORDER: Final = {Kind.BLANCHE: 0, Kind.POINT: 1, Kind.SEQUENCES: 2, Kind.SETS: 3}


def _counting_order(e: Event) -> int:
    return _ORDER[e.kind]


def _the_other_counts(deal: Deal, hand: list[Event], role: Role, cls: DeclClass) -> list[Event]:
    """``hand`` with ``role`` counting his own holding of ``cls`` (as its winner would),
    in place of what he counted in it, if anything."""
    rules = deal.rules
    held = (deal.dealt[role] & ~deal.discards[role]) | deal.taken[role]
    kind = _CLASS_KIND[cls]
    out = [e for e in hand if not (e.role == role and e.kind is kind)]
    best = best_claim(held, cls, rules)
    if best is None:
        return out
    holdings, points = class_count(held, best, rules)
    if points:
        note = "; ".join(claim_words(h, rules, full=rules.show_point) for h in holdings)
        out.append(Event(role, kind, points, note))
    return out


def _judged(deal: Deal, hand: list[Event], play: list[Event]) -> Tally:
    """The tally of ``hand`` then ``play`` events, counted in order; where the pique must be
    made by elder's first card, the chance closes where younger played his first card."""
    rules = deal.rules
    close_at = None
    if rules.pique_by_first_card and deal.tricks:
        first_lead = f"leads {Card.from_index(deal.tricks[0].lead)}"
        led = bool(play) and (play[0].role, play[0].kind, play[0].note) == (0, Kind.LEAD,
                                                                             first_lead)
        close_at = len(hand) + int(led)
    tally = Tally()
    for i, e in enumerate((*hand, *play)):
        if i == close_at:
            tally = tally.closed()
        tally = tally.add(e.role, e.kind, e.points, e.note, rules, deal.start, deal.target)
    if close_at is not None and close_at >= len(hand) + len(play):
        tally = tally.closed()
    return tally
