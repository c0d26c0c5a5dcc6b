"""The shapes of the browser table's HTTP API (its OpenAPI description): what a new
game, an action and a join send, and what a seat's view, an invitation, a hint, a replay,
the options and the health check answer."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from piquet.core.rules import DEFAULT_PRESET, PRESETS
from piquet.levels import LEVEL_NAMES
from piquet.web.clocks import ClockIn
from piquet.web.games import FRIEND
from piquet.web.schema import Count

__all__ = [
    "FORMATS",
    "ActionIn",
    "ConflictOut",
    "CreatedOut",
    "ErrorOut",
    "FirstLeadOut",
    "HealthOut",
    "HintOut",
    "InviteOut",
    "InvitesOut",
    "JoinIn",
    "JoinedOut",
    "LegalActionOut",
    "NewGameIn",
    "OptionsOut",
    "ReplayOut",
    "RuleSetOut",
    "SeatOut",
    "TakebackOut",
    "ViewOut",
    "errors_of",
    "levels",
]


class ErrorOut(BaseModel):
    error: str = Field(description="What was wrong, and what is allowed.")


class ConflictOut(BaseModel):
    error: str = Field(description="What was wrong, and what is allowed.")
    game: dict[str, Any] | None = Field(
        None, description="For an action: the seat's view as the game stands now."
    )


FORMATS = sorted({f.value for r in PRESETS.values() for f in r.formats})


def _opponent_enum(schema: dict[str, Any]) -> None:
    """The opponents allowed, listed in the schema (when it is written: the AI levels are
    imported then, not when this module is)."""
    schema["enum"] = [*levels(), FRIEND]


class NewGameIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rules: str = Field(
        DEFAULT_PRESET,
        max_length=64,
        description="A rule set (preset) name.",
        json_schema_extra={"enum": list(PRESETS)},
    )
    format: str | None = Field(
        None,
        max_length=16,
        description="game, partie or pool (default: the rule set's; which a rule set "
        "plays: /api/options).",
        json_schema_extra={"enum": [*FORMATS, None]},
    )
    opponent: str = Field(
        "random",
        max_length=32,
        description="An AI level (see /api/options) or 'friend'.",
        json_schema_extra=_opponent_enum,
    )
    opponents: (
        list[Annotated[str, Field(max_length=32, json_schema_extra=_opponent_enum)]] | None
    ) = Field(None, max_length=2, description="For a pool of three: the two other seats.")
    hints: StrictBool = Field(False, description="Offer the advisor's hints (when installed).")
    name: str | None = Field(None, max_length=100, description="Your name at the table.")
    clock: ClockIn | None = Field(
        None,
        description="A clock, for a game against a friend: live {minutes, increment} or "
        "correspondence {days}.  None: no clock.",
    )
    rated: StrictBool = Field(
        False,
        description="A rated game (Glicko-2, per format): you must be logged in, the "
        "opponent a friend who logs in to join, the format a game or a partie.",
    )


class InviteOut(BaseModel):
    seat: int
    invite: str = Field(description="The invitation code (a secret; share the link).")
    url: str = Field(description="The link to send: /join/ID#invite=CODE.")


class CreatedOut(BaseModel):
    id: str
    token: str = Field(description="The seat's secret: send it as Authorization: Bearer TOKEN.")
    seat: int
    invites: list[InviteOut] = []


class ActionIn(BaseModel):
    action: str = Field(
        max_length=200,
        description="An action id from legal_actions; in the exchange discard:CARDS "
        "(e.g. 'discard:7S 8S', or 'discard:-' for none).",
    )
    n: Count | None = Field(
        None,
        description="The log length (`n`) of the view acted on.  With it a retry is safe: if "
        "the action was already recorded the answer is 200 and the game as it stands, and "
        "if the game moved on otherwise, 409 with the game.  Without it (accepted for this "
        "release only) the action applies to the game as it stands, so a retry may apply "
        "it twice.",
    )
    socket: str | None = Field(
        None,
        max_length=64,
        description="The id of this page's open WebSocket of the game (`socket` in its first "
        "message): the answer's view is then not sent on that socket as well.  Optional; "
        "an id the server does not know changes nothing but that.",
    )


class JoinIn(BaseModel):
    invite: str = Field(max_length=200)
    name: str | None = Field(None, max_length=100)


class JoinedOut(BaseModel):
    id: str
    token: str
    seat: int


class LegalActionOut(BaseModel):
    """One item of the table's menu (:class:`piquet.table.menu.MenuItem`)."""

    id: str
    kind: str
    label: str = Field(description="In the period's words.")
    cards: list[str]
    offer: bool | None = Field(
        None, description="Whether the table offers it (every item but the exchange's).")
    min: int | None = Field(None, description="The exchange: the fewest cards to discard.")
    max: int | None = Field(None, description="The exchange: the most cards to discard.")


class FirstLeadOut(BaseModel):
    how: str = Field(description="named or appointed")
    held: bool | None = Field(description="Whether elder holds it (null: this seat cannot "
                              "know).")


class SeatOut(BaseModel):
    seat: int
    name: str
    kind: str
    level: str | None
    joined: bool


class TakebackOut(BaseModel):
    asked: int | None = Field(description="The seat whose takeback waits for an answer.")
    can_ask: bool = Field(description="This seat may ask to take back its last move.")


class ViewOut(BaseModel):
    id: str
    seat: int
    n: int = Field(description="The log's length: actions and the table's own entries "
                   "(undo, resign, rematch) so far; the game's version, it only grows.")
    rules: str
    format: str
    finished: bool
    to_act: int | None
    your_turn: bool
    legal_actions: list[LegalActionOut]
    first_lead: FirstLeadOut | None = Field(
        description="How elder's first lead is bound, until the first trick.")
    seats: list[SeatOut]
    hints: bool
    view: dict[str, Any] = Field(
        description="The seat's view: Match.view(seat), but for its deal's legal_actions "
        "(sent once, as the menu legal_actions).")
    result: dict[str, Any] | None
    practice: bool = Field(description="Every other seat is the computer (undo allowed).")
    can_undo: bool
    resigned: int | None = Field(description="The seat that resigned, or null.")
    rematch: str | None = Field(description="The rematch's game id, or null.")
    rematch_mine: bool = Field(description="This seat made the rematch.")
    last_deal: dict[str, Any] | None = Field(
        description="The seat's view of the deal just finished, as it stood at its end."
    )
    computer_problem: str | None = Field(
        None, description="Why the computer cannot move now, in words (only while so).")
    takeback: TakebackOut = Field(description="A takeback between two people.")
    aborted: int | None = Field(description="The seat that aborted the game, or null.")
    can_abort: bool = Field(description="This seat may abort (before its first move).")
    timed_out: int | None = Field(description="The seat whose clock ran out, or null.")


class HealthOut(BaseModel):
    ok: bool
    version: str
    database: str = Field(description="ok, or failing (then the answer is 503).")
    redis: str = Field(description="ok, down (live updates degraded: pages poll), or off.")
    quotas: str = Field(
        "per process", description="Where each client's quotas of hints and analyses are "
        "counted: shared (across the server's processes, through Redis), or per process "
        "(one process, or Redis down).")
    error: str | None = Field(None, description="What is failing.")
    workers: dict[str, Any] | None = Field(
        None, description="The computer's job workers: status (ok, degraded: some being "
        "replaced, down), how many and alive, replaced since start, jobs waiting and "
        "running by kind, done and failed.")


class InvitesOut(BaseModel):
    invites: list[InviteOut]


class HintOut(BaseModel):
    hint: str


class ReplayOut(BaseModel):
    id: str
    steps: int
    step: int
    action: dict[str, Any] | None = Field(
        description="the step's action: its player, its id and the dialog lines it added "
        "(lines: player, said, deed)")
    names: list[str]
    views: dict[str, dict[str, Any]]
    resigned: int | None = Field(
        None, description="at the last step of a resigned game, the seat that resigned")


class RuleSetOut(BaseModel):
    name: str
    title: str
    summary: list[str]
    summaries: dict[str, list[str]] = Field(
        description="the summary of a game in each format (``summary``: of the rule set)")
    formats: list[str]
    format_labels: dict[str, str]
    default_format: str
    partie_deals: int
    target: int


class OptionsOut(BaseModel):
    rules: list[RuleSetOut]
    default_rules: str
    levels: list[str]
    default_level: str
    level_notes: dict[str, str]
    level_labels: dict[str, str]
    level_ratings: dict[str, dict[str, int]] = Field(
        description="Each computer level's rating on the accounts' Glicko-2 scale, per "
        "format (game, partie), where the ladder placed it (piquet.levels.scale; a new account "
        "starts at 1500, Nell's rating); a level not placed is absent.")
    opponents: list[str]
    hints_available: bool
    record_formats: list[str]
    version: str


def errors_of(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers: ``codes``, and 503 (the database is failing)."""
    return {c: {"model": ErrorOut} for c in (*codes, 503)}


def levels() -> list[str]:
    """The computer's levels (from the light :mod:`piquet.levels`: a web process never
    imports the players themselves)."""
    return list(LEVEL_NAMES)

