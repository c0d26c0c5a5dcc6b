"""Score the declarations of two hands held after the exchange.

Both players declare all they hold (the best claim of each class), and the
classes are compared as in a deal; repique is judged in counting order.  This
is what ``piquet score`` prints, one hand pair at a time or in batches
(:mod:`piquet.analysis.batch` does the same work over numpy arrays).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from piquet.core.declarations import DeclClass, best_claim, counted
from piquet.core.roles import ELDER, ROLE_NAMES, YOUNGER, Role
from piquet.core.rules import Rules
from piquet.core.scoring import Kind, Tally

__all__ = ["ClassOutcome", "HandsScore", "score_hands"]

_ROLE = ROLE_NAMES


@dataclass(frozen=True, slots=True)
class ClassOutcome:
    winner: int | None
    score: int

    def to_json(self) -> dict[str, Any]:
        return {"winner": None if self.winner is None else _ROLE[self.winner], "score": self.score}


@dataclass(frozen=True, slots=True)
class HandsScore:
    """Declarations of (elder, younger): each class, carte blanche, repique, totals."""

    carte_blanche: tuple[int, int]
    point: ClassOutcome
    sequences: ClassOutcome
    sets: ClassOutcome
    repique: int | None
    totals: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "carte_blanche": {"elder": self.carte_blanche[0], "younger": self.carte_blanche[1]},
            "point": self.point.to_json(),
            "sequences": self.sequences.to_json(),
            "sets": self.sets.to_json(),
            "repique": None if self.repique is None else _ROLE[self.repique],
            "totals": {"elder": self.totals[0], "younger": self.totals[1]},
        }


def score_hands(
    elder: int,
    younger: int,
    rules: Rules,
    *,
    elder_blanche: bool = False,
    younger_blanche: bool = False,
) -> HandsScore:
    """Score two held hands (card masks), both declaring all they hold."""
    tally = Tally()
    blanche = [0, 0]
    counts = rules.blanche_counted(elder_blanche, younger_blanche)
    for role in (ELDER, YOUNGER):
        if counts[role]:
            blanche[role] = rules.blanche_value
            tally = tally.add(role, Kind.BLANCHE, rules.blanche_value, "", rules, (0, 0), None)
    outcomes = []
    hands = (elder, younger)
    for cls, kind in zip(DeclClass, (Kind.POINT, Kind.SEQUENCES, Kind.SETS), strict=True):
        e = best_claim(elder, cls, rules)
        y = best_claim(younger, cls, rules)
        winner: Role | None
        if e is None and y is None:
            winner = None
        elif y is None or (e is not None and e.key > y.key):
            winner = ELDER
        elif e is None or y.key > e.key:
            winner = YOUNGER
        else:
            winner = None
        if winner is None:
            outcomes.append(ClassOutcome(None, 0))
            continue
        best = e if winner == 0 else y
        assert best is not None
        _, pts = counted(hands[winner], best, rules)
        outcomes.append(ClassOutcome(winner, pts))
        tally = tally.add(winner, kind, pts, "", rules, (0, 0), None)
    repique = next((ev.role for ev in tally.events if ev.kind is Kind.REPIQUE), None)
    return HandsScore(
        (blanche[0], blanche[1]), outcomes[0], outcomes[1], outcomes[2], repique, tally.totals
    )
