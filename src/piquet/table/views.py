"""What a seat at a table is shown: one typed :class:`SeatView`, and the views of a
finished deal.

Every card comes from :meth:`Match.view` (or, for the deal just finished,
:func:`~piquet.core.view.deal_view` of that deal for the seat's role in it): nothing here
decides what a seat may see.  What the engine knows of the declarations reaches the view
as it is (``view.deal.declaring``: the class being declared; ``view.deal.deferred``: the
classes younger still declares after elder's first lead), never worked out again from
the dialog.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from piquet.core.deal import Deal
from piquet.core.declarations import DeclClass
from piquet.core.match import Match, MatchView, Player
from piquet.core.roles import ROLE_NAMES
from piquet.core.view import DealView, deal_view
from piquet.core.words import Voice, aloud, voice
from piquet.table.menu import FirstLead, MenuItem, first_lead, menu
from piquet.table.seats import Seat
from piquet.table.state import TableState

__all__ = [
    "SeatView",
    "acted_in",
    "declaring",
    "ended_deal_views",
    "last_deal_view",
    "lines_added",
    "seat_view",
    "seen",
    "seen_deal",
    "younger_still_declares",
]


def declaring(view: MatchView) -> DeclClass | None:
    """The class being declared now (None outside the declarations)."""
    return None if view.deal is None else view.deal.declaring


def younger_still_declares(deal: DealView) -> bool:
    """Whether younger has classes to declare after elder's first lead."""
    return bool(deal.deferred)


def last_deal_view(match: Match, player: int) -> DealView | None:
    """``player``'s view of the deal just finished, as it stood at its end (None before
    the first deal ends, or for a player who stood out of it)."""
    if match.last_deal is None or not match.deals:
        return None
    summary = match.deals[-1]
    if player not in summary.players:
        return None
    return deal_view(match.last_deal, summary.players.index(player))


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat is shown: the match as it may see it, its menu, and the
    table around it (the seats, undo, a resignation, a rematch)."""

    game_id: str
    player: Player
    version: int
    view: MatchView
    seats: tuple[Seat, ...]
    menu: tuple[MenuItem, ...]
    first_lead: FirstLead | None
    over: bool
    to_act: Player | None
    result: dict[str, Any] | None
    practice: bool
    can_undo: bool
    resigned: Player | None
    rematch: str | None
    rematch_mine: bool
    last_deal: DealView | None
    last_deal_number: int

    @property
    def your_turn(self) -> bool:
        return self.to_act == self.player


def seen(state: TableState, player: int) -> MatchView:
    """The match as ``player``'s seat sees it (:attr:`SeatView.view`), without the menu and
    the rest of the table around it: what a player of the package is given to choose."""
    return state.match.view(player)


def seen_deal(state: TableState, player: int) -> DealView | None:
    """``player``'s view of the deal in play, exactly :attr:`SeatView.view`'s ``deal`` (the
    hidden information as the browser shows the seat), built without the rest of the
    match's view: what the research adapters' strings read (None between deals, at the
    end, or for a player standing out)."""
    m = state.match
    if m.finished or m.deal is None:
        return None
    role = m.role_of(player)
    return None if role is None else deal_view(m.deal, role)


def seat_view(state: TableState, player: int) -> SeatView:
    """What ``player``'s seat at ``state`` is shown."""
    m = state.match
    view = seen(state, player)
    live = not state.ended_early
    return SeatView(
        game_id=state.game_id,
        player=Player(player),
        version=state.version,
        view=view,
        seats=state.seats,
        menu=menu(view) if live else (),
        first_lead=first_lead(view),
        over=state.over,
        to_act=state.to_act,
        result=state.result(),
        practice=state.practice(player),
        can_undo=state.can_undo(player),
        resigned=state.resigned,
        rematch=state.rematch,
        rematch_mine=state.rematch is not None and state.rematch_by == player,
        last_deal=last_deal_view(m, player),
        last_deal_number=len(m.deals),
    )


# ---------------------------------------------------------------------- replaying a game
def acted_in(before: Match, after: Match) -> tuple[Deal | None, bool]:
    """The deal an action from ``before`` to ``after`` was taken in, as the action left
    it, and whether the action ended it (the match then holds it as ``last_deal`` and has
    moved on to the next deal, or to its end)."""
    if before.deal is None:
        return None, False
    if (after.deal is not None and after.game_number == before.game_number
            and after.deal_number == before.deal_number):
        return after.deal, False
    return after.last_deal, True


def ended_deal_views(before: Match, after: Match, views: dict[str, dict[str, Any]]) -> None:
    """When the action from ``before`` to ``after`` ended a deal, show that deal in the
    replay's ``views`` as it ended (its last trick, its hands' last state, its dialog),
    with the game, roles and score it was played under, not the next deal's start (the
    match moves on at once) nor, at the very end, an empty table."""
    ended, over = acted_in(before, after)
    if ended is None or not over:
        return
    result = next((g for g in after.games if g.number == before.game_number), None)
    if result is None:  # the game goes on: its score now
        totals = dict(zip(after.in_game, after.scores, strict=True))
    else:  # the deal ended its game: its final totals
        totals = dict(zip(result.players, result.scores, strict=True))
    for p in before.in_game:
        role = before.role_of(p)
        assert role is not None
        vj = views[str(p)]
        vj.update(
            deal=deal_view(ended, role).to_json(),
            in_game=list(before.in_game),
            dealer=before.dealer,
            role=ROLE_NAMES[role],
            game_number=before.game_number,
            deal_number=before.deal_number,
            scores=[totals.get(q, 0) for q in before.in_game],
        )


def lines_added(before: Match, after: Match) -> list[dict[str, Any]]:
    """The lines of the dialog one action added, in order, each with the player who said
    it (an answer can make the other show his cards, a declaration its speaker show his),
    what he said aloud and whether it is a deed ("shows ...") rather than words."""
    new, _ = acted_in(before, after)
    if new is None or before.deal is None:
        return []
    return [
        {"player": before.player_of(u.role), "said": aloud(u),
         "deed": voice(u.fact) is Voice.DEED}
        for u in new.dialog[len(before.deal.dialog):]
    ]
