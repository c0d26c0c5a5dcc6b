"""The tally's HTTP shapes: what a request sends and what the page is sent.

The models here only document and check the JSON of :mod:`piquet.web.tally`'s routes;
what the JSON holds is made in :mod:`piquet.web.tally_view`.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from piquet.core.rules import DEFAULT_PRESET, PRESETS
from piquet.web.schema import WHOLE, Count

__all__ = [
    "MAX_GAMES",
    "EntryIn",
    "UndoIn",
    "ErrorOut",
    "NewTallyIn",
    "TallyCreatedOut",
    "TallyOut",
    "errors_doc",
]

MAX_GAMES: Final = 9
"""Games (or parties) a tally may be for."""


class NewTallyIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rules: str = Field(
        DEFAULT_PRESET,
        max_length=64,
        description="A rule set (preset) name.",
        json_schema_extra={"enum": list(PRESETS)},
    )
    names: list[Annotated[str, Field(max_length=100)]] = Field(
        ["Player 1", "Player 2"],
        min_length=2,
        max_length=2,
        description="The two players' names (different; not 'elder' or 'younger').",
    )
    format: str | None = Field(
        None,
        max_length=16,
        description="game or partie (default: the rule set's).",
        json_schema_extra={"enum": ["game", "partie", None]},
    )
    games: Annotated[StrictInt, Field(ge=1, le=MAX_GAMES), WHOLE] = Field(
        1, description="Games (or parties) to play.")


class EntryIn(BaseModel):
    entry: str = Field(
        max_length=300,
        description="One entry, as typed at `piquet tally` (see `help` in the tally): "
        "'dealer Anne', 'elder AS KS ...', 'discard 7C 8C take QH JD', 'point AH KH QH', "
        "'good', 'QH', 'Anne: pass', 'undo'.",
    )
    version: Count | None = Field(
        None,
        description="The tally's version the entry was made on (as last shown): 409 if "
        "another device entered meanwhile, so an entry never lands on a step it was not "
        "meant for.  Leave it out to enter on whatever stands.",
    )


class UndoIn(BaseModel):
    version: Count | None = Field(
        None, description="The version the undo was asked on (as for an entry)."
    )


class RoleCardsOut(BaseModel):
    name: str
    dealt: list[str] = Field(description="The twelve cards entered for this player.")
    hand: list[str] = Field(description="What the player holds now, as far as it is known.")
    discards: list[str]
    taken: list[str] = Field(description="Cards taken in, once entered.")
    taken_unknown: int = Field(description="Cards taken in that are still to be entered.")
    played: list[str]


class DialogLineOut(BaseModel):
    seat: str = Field(description="elder or younger.")
    name: str
    cls: str | None = Field(alias="class")
    text: str
    shown: list[str]


class EventOut(BaseModel):
    seat: str = Field(description="elder or younger.")
    name: str
    kind: str
    points: int
    note: str


class TrickOut(BaseModel):
    leader: str
    lead: str
    follow: str
    winner: str


class TallyDealOut(BaseModel):
    phase: str = Field(description="'cards' while the hands are to be entered, then the deal's.")
    dealer: str
    to_act: str | None = Field(description="elder or younger.")
    to_act_name: str | None
    pending_take: str | None = Field(description="The role whose cards taken in are awaited.")
    discard_range: list[int] | None
    cards: dict[str, RoleCardsOut] = Field(description="By role: elder, younger.")
    dialog: list[DialogLineOut]
    events: list[EventOut]
    tricks: list[TrickOut]
    trick_lead: str | None
    points: dict[str, int] = Field(description="This deal's points so far, by role.")
    words: list[str] = Field(description="Word entries allowed now (good, pass, look, ...).")


class TallyLastDealOut(BaseModel):
    game: int
    number: int = Field(description="The deal's number in its game.")
    dialog: list[DialogLineOut]
    events: list[EventOut]
    points: dict[str, int] = Field(description="The deal's points, by role.")


class EntryOut(BaseModel):
    n: int
    text: str = Field(description="The entry, written so that it can be typed again.")
    by: str | None = Field(description="The player who did it, where the entry is an action.")
    note: str | None = Field(
        default=None,
        description="For a mistake of the table (a penalty, a word taken back): what it "
        "costs under the rule set, and the passage of its text.")


class SheetDealOut(BaseModel):
    game: int
    number: int
    dealer: str
    elder: str
    younger: str
    points: list[int] = Field(description="Points of (elder, younger) in the deal.")
    by_kind: list[dict[str, int]]


class SheetGameOut(BaseModel):
    number: int
    players: list[str]
    scores: list[int]
    winner: str | None
    lurch: bool
    settled: int
    rubiconed: bool


class TallyOut(BaseModel):
    id: str
    rules: str
    format: str
    games: int
    names: list[str]
    deck_size: int
    n: int = Field(description="Entries so far.")
    version: int = Field(description="Changes so far (entries and undos).")
    scores: list[int] = Field(description="Each player's score in the current game.")
    game_number: int
    deal_number: int
    expecting: str = Field(description="What the next entry should be, in words.")
    finished: bool
    result: dict[str, Any] | None
    result_text: str | None
    entries: list[EntryOut]
    deal: TallyDealOut | None
    last_deal: TallyLastDealOut | None = Field(
        description="The deal that finished last, while no deal is being entered (between "
        "deals and at the end); else null.")
    deals: list[SheetDealOut]
    games_done: list[SheetGameOut]
    help: str


class TallyCreatedOut(BaseModel):
    id: str
    token: str = Field(description="The tally's secret: send it as Authorization: Bearer TOKEN.")
    url: str = Field(description="The tally's page.")
    tally: TallyOut


class ErrorOut(BaseModel):
    error: str = Field(description="What was wrong, and what is allowed.")


def errors_doc(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {c: {"model": ErrorOut} for c in codes}
