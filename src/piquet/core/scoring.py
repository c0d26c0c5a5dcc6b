"""The ordered scoring timeline of a deal: events, pique and repique, the cards.

Counting order (RULES.md, "Pique, repique, and the order of counting"):
carte blanche, point, sequences, sets, then the play card by card, then the
last trick, then the cards or capot.  Every point a player counts in a deal is
an :class:`Event` on that timeline, in that order; pique and repique are judged
on it, and so is the moment a game's target is reached.

A repique is made from hand alone (:data:`HAND_KINDS`), a pique from hand and
play (:data:`PLAY_KINDS`): the cards and the capot come after the play and never
carry a player to the threshold, in every preset (RULES.md; 1754: "part in
Hand, and part by Play"); :attr:`~piquet.core.rules.Rules.pique_by_cards` is the
other reading of du Coeur's "before the other player has scored anything", where
they may (:data:`AFTER_PLAY_KINDS`).  Where the pique must be made by elder's first card
(:attr:`~piquet.core.rules.Rules.pique_by_first_card`), the deal closes the chance
with :meth:`Tally.closed` when younger plays to the first trick.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from piquet.core.roles import Role
from piquet.core.rules import Rules

__all__ = ["AFTER_PLAY_KINDS", "HAND_KINDS", "PLAY_KINDS", "Event", "Kind", "Tally"]


class Kind(enum.Enum):
    BLANCHE = "carte blanche"
    POINT = "point"
    SEQUENCES = "sequences"
    SETS = "sets"
    LEAD = "lead"
    TRICK = "trick"
    LAST_TRICK = "last trick"
    CARDS = "the cards"
    CAPOT = "capot"
    REPIQUE = "repique"
    PIQUE = "pique"


_new_tuple = tuple.__new__  # a named tuple without its constructor's Python-level call

HAND_KINDS = frozenset({Kind.BLANCHE, Kind.POINT, Kind.SEQUENCES, Kind.SETS})
"""What is counted in hand: these alone make a repique."""
PLAY_KINDS = frozenset({Kind.LEAD, Kind.TRICK, Kind.LAST_TRICK})
"""What is counted in play: with the hand, these make a pique (the cards and capot never do,
unless :attr:`~piquet.core.rules.Rules.pique_by_cards`)."""
AFTER_PLAY_KINDS = frozenset({Kind.CARDS, Kind.CAPOT})
"""What is counted after the play: a pique only where the rules let the cards make one."""


class Event(NamedTuple):
    """``role`` (0 elder, 1 younger) counts ``points`` for ``kind``; ``note`` says why."""

    role: Role
    kind: Kind
    points: int
    note: str = ""


class Tally(NamedTuple):
    """The running count of a deal: the timeline so far and where it stands.

    ``open`` is True while a pique or repique can still be won.  ``reached``
    is the role that reached the game's target (then the deal stops), else
    ``None``.
    """

    events: tuple[Event, ...] = ()
    totals: tuple[int, int] = (0, 0)
    open: bool = True
    reached: Role | None = None

    def add(
        self,
        role: Role,
        kind: Kind,
        points: int,
        note: str,
        rules: Rules,
        start: tuple[int, int],
        target: int | None,
    ) -> Tally:
        """The tally after ``role`` counts ``points``; adds a pique/repique if won."""
        if self.reached is not None or points <= 0:
            return self
        event = _new_tuple(Event, (role, kind, points, note))
        if not self.open:
            # the common case in the play: no bonus possible
            t0, t1 = self.totals
            now = (t0 + points, t1) if role == 0 else (t0, t1 + points)
            reached = role if target is not None and start[role] + now[role] >= target else None
            return _new_tuple(Tally, ((*self.events, event), now, False, reached))
        # still open: this count may win a pique or repique, or close the chance
        totals = list(self.totals)
        other = 1 - role
        events = [*self.events, event]
        is_open = True
        before = totals[role]
        totals[role] += points
        threshold = rules.pique_threshold
        if totals[other] == 0 and before < threshold <= totals[role]:
            if kind in HAND_KINDS:
                events.append(
                    Event(
                        role,
                        Kind.REPIQUE,
                        rules.repique_bonus,
                        f"{threshold} in hand before the other counted",
                    )
                )
                totals[role] += rules.repique_bonus
            elif (
                kind in PLAY_KINDS or (rules.pique_by_cards and kind in AFTER_PLAY_KINDS)
            ) and not (rules.pique_elder_only and role == 1):
                made = "play and the cards" if kind in AFTER_PLAY_KINDS else "play"
                events.append(
                    Event(
                        role,
                        Kind.PIQUE,
                        rules.pique_bonus,
                        f"{threshold} in hand and {made} before the other counted",
                    )
                )
                totals[role] += rules.pique_bonus
            is_open = False
        elif totals[other] > 0 or totals[role] >= threshold:
            is_open = False
        reached = None
        if target is not None and start[role] + totals[role] >= target:
            reached = role
        return Tally(tuple(events), (totals[0], totals[1]), is_open, reached)

    def closed(self) -> Tally:
        """This tally with the chance of a pique or repique gone (nothing else changes)."""
        if not self.open:
            return self
        return _new_tuple(Tally, (self.events, self.totals, False, self.reached))

    def by_kind(self, role: Role) -> dict[Kind, int]:
        out: dict[Kind, int] = {}
        for e in self.events:
            if e.role == role:
                out[e.kind] = out.get(e.kind, 0) + e.points
        return out
