"""The end of a deal as facts, for any interface to tell: what each role counted, by
kind and in counting order, the cries (pique, repique, capot), who reached the target,
and the game's result when the deal ended it.

Built from the seat's view of the finished deal and its view of the match after it, so
it holds nothing that seat may not see.
"""

from __future__ import annotations

from dataclasses import dataclass

from piquet.core.match import DealSummary, GameResult, MatchView
from piquet.core.roles import ELDER, YOUNGER, Role
from piquet.core.scoring import Event, Kind
from piquet.core.view import DealView

__all__ = ["CRIES", "Counted", "DealEnd", "counted_by", "deal_end"]

CRIES = frozenset({Kind.PIQUE, Kind.REPIQUE, Kind.CAPOT})
"""What a player cries aloud when he makes it."""


@dataclass(frozen=True, slots=True)
class Counted:
    """What one role counted in a deal: the total and each kind, in counting order."""

    role: Role
    total: int
    parts: tuple[tuple[Kind, int], ...]

    def words(self) -> str:
        """``25 (point 5, sequences 4, ...)``, or ``0``."""
        if not self.parts:
            return "0"
        return f"{self.total} (" + ", ".join(f"{k.value} {v}" for k, v in self.parts) + ")"


@dataclass(frozen=True, slots=True)
class DealEnd:
    """A finished deal as one seat saw it end."""

    final: DealView
    """The seat's view of the deal as it ended."""
    summary: DealSummary | None
    counted: tuple[Counted, Counted]
    """By role: elder's, younger's."""
    cries: tuple[Event, ...]
    reached: int | None
    """The player who reached the target in this deal."""
    game: GameResult | None
    """The game this deal ended, if it ended one."""

    def mine_first(self) -> tuple[Counted, Counted]:
        """The seat's count first, the other's second."""
        mine = self.counted[self.final.role]
        return mine, self.counted[1 - self.final.role]


def counted_by(events: tuple[Event, ...], role: int) -> Counted:
    """What ``role`` counted among ``events``."""
    parts: dict[Kind, int] = {}
    for e in events:
        if e.role == role:
            parts[e.kind] = parts.get(e.kind, 0) + e.points
    return Counted(Role(role), sum(parts.values()), tuple(parts.items()))


def deal_end(final: DealView, view: MatchView) -> DealEnd:
    """The end of the deal ``final`` (the seat's view of it), ``view`` the seat's view of
    the match just after it."""
    summary = view.deals[-1] if view.deals else None
    game = None
    if summary is not None:
        game = next((g for g in view.games if g.number == summary.game), None)
    return DealEnd(
        final=final,
        summary=summary,
        counted=(counted_by(final.events, ELDER), counted_by(final.events, YOUNGER)),
        cries=tuple(e for e in final.events if e.kind in CRIES),
        reached=None if summary is None else summary.reached,
        game=game,
    )
