"""The values a match hands out: a finished deal's summary (:class:`DealSummary`), a
finished game's result (:class:`GameResult`) and what one player may see of the match
(:class:`MatchView`), each with its JSON shape; and the Rubicon partie's settlement
(:func:`settlement`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from piquet.core.actions import Action
from piquet.core.roles import ROLE_NAMES, Player, Role
from piquet.core.rules import Format, Rules, Settlement
from piquet.core.view import DealView

__all__ = ["DealSummary", "GameResult", "MatchView", "settlement"]

_Points = TypeVar("_Points")


def settlement(rule: Settlement, ws: _Points, ls: _Points) -> tuple[_Points, _Points]:
    """What the winner of a Rubicon partie (``ws`` points) wins from the loser (``ls``),
    and whether the loser is rubiconed: (settled, rubiconed), the flag a bool (or an
    array of them).

    Plain arithmetic, so that ints and numpy arrays of totals are settled alike (the
    match's value tables settle whole arrays at once: :mod:`piquet.players.matchvalue`);
    the compiled copy is ``settlement`` in ``src/piquet/native/rules.h``."""
    w: Any = ws
    lose: Any = ls
    if rule is Settlement.PARLETT:
        rubiconed = lose < 100
        return 100 + w - lose + 2 * lose * rubiconed, rubiconed
    rubiconed = (lose < 100) & (w >= 100)
    return w - lose + 2 * lose * rubiconed, rubiconed


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A finished deal: who dealt, what each player counted, by kind."""

    game: int
    number: int
    dealer: int
    players: tuple[int, int]
    """(elder player, younger player)."""
    points: tuple[int, int]
    """Points of (elder, younger) in this deal."""
    by_kind: tuple[dict[str, int], dict[str, int]]
    reached: int | None
    """The player who reached the target during this deal, if any."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "number": self.number,
            "dealer": self.dealer,
            "elder": self.players[0],
            "younger": self.players[1],
            "points": list(self.points),
            "by_kind": [dict(self.by_kind[0]), dict(self.by_kind[1])],
            "reached": self.reached,
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game or partie between two players."""

    number: int
    players: tuple[int, int]
    scores: tuple[int, int]
    """Final totals of ``players`` (in that order)."""
    winner: int | None
    """The winning player, or None for a drawn partie."""
    lurch: bool = False
    stake: int = 1
    """Units the loser pays: 2 when lurched."""
    settled: int = 0
    """Partie: what the winner scores by the settlement."""
    rubiconed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "players": list(self.players),
            "scores": list(self.scores),
            "winner": self.winner,
            "lurch": self.lurch,
            "stake": self.stake,
            "settled": self.settled,
            "rubiconed": self.rubiconed,
        }


@dataclass(frozen=True)
class MatchView:
    """What one player may see of a match: the game's state and the deal's view.

    (No slots: :meth:`Match.view <piquet.core.match.Match.view>` fills its fields as one
    dict, as :func:`~piquet.core.view.deal_view` fills a :class:`DealView`'s.)"""

    player: int
    rules: str
    """The rule set's name (``rule_set`` holds every knob)."""
    rule_set: Rules
    format: Format
    seed_public: bool
    players: tuple[int, ...]
    names: tuple[str, ...]
    in_game: tuple[int, int]
    dealer: int
    role: Role | None
    """This player's role in the current deal."""
    scores: tuple[int, ...]
    game_number: int
    deal_number: int
    deals: tuple[DealSummary, ...]
    games: tuple[GameResult, ...]
    deal: DealView | None
    to_act: Player | None
    """The player to act (None: nobody); compare ``deal.to_act``, a role."""
    finished: bool
    ledger: tuple[int, ...]
    pool: int

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        return (
            self.deal.legal_actions if self.deal is not None and self.to_act == self.player else ()
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "rules": self.rules,
            "format": self.format.value,
            "players": list(self.players),
            "names": list(self.names),
            "in_game": list(self.in_game),
            "dealer": self.dealer,
            "role": None if self.role is None else ROLE_NAMES[self.role],
            "scores": list(self.scores),
            "game_number": self.game_number,
            "deal_number": self.deal_number,
            "deals": [d.to_json() for d in self.deals],
            "games": [g.to_json() for g in self.games],
            "deal": None if self.deal is None else self.deal.to_json(),
            "to_act": self.to_act,
            "finished": self.finished,
            "ledger": list(self.ledger),
            "pool": self.pool,
        }
