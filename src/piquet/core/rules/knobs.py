"""The frozen :class:`Rules` value: every knob of the project's RULES.md, its choices (enums),
its checks and each knob's meaning in words (the docstring under each field).  The presets and
the house-rule files are in :mod:`piquet.core.rules.presets`."""

from __future__ import annotations

import dataclasses
import enum
import itertools
import json
import sys
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from piquet.core.cards import Rank
from piquet.core.errors import RulesError


class Leftovers(enum.Enum):
    """What happens to the stock cards younger leaves untaken."""

    HIDDEN = "hidden"
    """Nobody sees them."""
    ELDER_NAMES_SUIT = "elder-names-suit"
    """Younger sees them; elder may see them if he first names the suit he will lead."""
    ELDER_NAMES_CARD = "elder-names-card"
    """Younger sees them; elder may see them if he first names the card he will lead."""
    YOUNGER_TURNS_UP = "younger-turns-up"
    """Younger may turn them face up for both; otherwise nobody sees them."""
    YOUNGER_LOOKS = "younger-looks"
    """Younger may look; if he does, elder may look after playing his first card."""


class PointMeasure(enum.Enum):
    PIPS = "pips"
    """The point is the pip total of one suit (ace 11, courts 10)."""
    CARDS = "cards"
    """The point is the number of cards in one suit; equal numbers go by pip total."""


class PointScoring(enum.Enum):
    TENS = "tens"
    """One per ten of the pip total, 35 to 39 counting as 40."""
    PER_CARD = "per-card"
    """One per card of the point."""


class PlayScoring(enum.Enum):
    TENTH_CARDS = "tenth-cards"
    """Leader 1 for leading a card of ten or higher; follower 1 for winning with one."""
    WINNER_TENTHS = "winner-tenths"
    """The winner of a trick takes 1 for each card of ten or higher in it."""
    LEADS_AND_WINS = "leads-and-wins"
    """Every lead counts 1; winning a trick the other led counts 1."""


class Settlement(enum.Enum):
    ENCYCLOPEDIA = "encyclopedia"
    """Loser under 100 and winner at 100 or more: winner scores both totals; else the difference."""
    PARLETT = "parlett"
    """Winner scores 100 plus the difference, or 100 plus both totals if the loser is under 100."""


class FalseClaim(enum.Enum):
    """What a player suffers who counted what he does not hold, once it is found out (at a
    real table: the tally records it; the engine refuses a false claim)."""

    NONE = "none"
    """The text names no penalty."""
    DEBARRED = "debarred"
    """He counts nothing of his hand that deal, but all he makes in play; the other counts
    all he holds, and the false count hinders none of his pique or repique."""
    COUNTS_NOTHING = "counts-nothing"
    """He counts nothing that deal; what he really holds still stands against the other's
    claims and stops his pique or repique."""


class Unshown(enum.Enum):
    """What a player suffers who counted a holding he must show and played a card without
    showing it (at a real table: the tally records it; the engine shows it itself)."""

    NONE = "none"
    """The text names no penalty."""
    LOST = "lost"
    """He loses that count."""
    TO_THE_OTHER = "to-the-other"
    """He loses that count, and the other counts his own holding of that class, though less."""


class Correction(enum.Enum):
    """Whether a word said in the declarations may be taken back and said again."""

    NONE = "none"
    """The first word stands."""
    BEFORE_HIS_CARD = "before-his-card"
    """A player may recall his word, with no penalty, until he plays his first card."""
    BEFORE_ANY_CARD = "before-any-card"
    """A player may recall his word, with no penalty, until a card is played."""


class Format(enum.Enum):
    GAME = "game"
    """Deals until one player reaches the target."""
    PARTIE = "partie"
    """The Rubicon partie: a fixed number of deals, then a settlement."""
    POOL = "pool"
    """Three players; winner stays; two games running takes the pool."""


# The type of ``Rules``, for its docstring alone: ``help(Rules)`` lists every knob with
# each preset's value and the passage it rests on, put together from the sources when
# first read (a third of a CPU-second that a process which never asks does not pay at
# its start: a server, a test worker, a tournament's worker).
class _RulesType(type):
    @property
    def __doc__(cls) -> str | None:  # type: ignore[override]
        own: str | None = cls.__dict__.get("__doc__")
        # the presets (and the sources they cite) are read once they are loaded, never
        # from here: the dataclass decorator reads the docstring while this module loads
        presets = sys.modules.get("piquet.core.rules.presets")
        rules_doc = getattr(presets, "rules_doc", None)
        if own is None or rules_doc is None:
            return own
        return str(rules_doc(own))


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules(metaclass=_RulesType):
    """Every rule knob of Piquet.  Frozen; change a knob with :meth:`replace`.

    The field comments give each knob's meaning; :data:`KNOB_DOCS` holds the
    same text for printing, and :mod:`piquet.core.sources` the source passage of
    each preset's value.
    """

    name: str = "custom"
    """The rule set's identifier (a preset name, or a house rule's own name)."""

    # --- cards, cut, deal -------------------------------------------------
    deck_size: int = 32
    """36 (A to 6) or 32 (A to 7) cards."""
    packet_sizes: tuple[int, ...] = (2,)
    """Packet sizes the dealer may deal by (the same size throughout a deal)."""
    cut_after_game: bool = False
    """Cut again for the deal after each game of a match (otherwise the deal keeps
    alternating to the end of the games agreed).  A new match always begins with a cut."""

    # --- carte blanche ----------------------------------------------------
    carte_blanche: bool = True
    """Twelve dealt without a king, queen or knave are carte blanche: declared, shown and
    counted (if not, such a hand is a hand like any other)."""
    blanche_value: int = 10
    """Points for carte blanche (no king, queen or knave in the twelve dealt)."""
    both_blanche_score: bool = True
    """When both hold carte blanche, both count it (if not, neither does)."""
    younger_blanche_bars: bool = False
    """When both hold carte blanche, younger's bars elder's: only younger's counts (if not,
    both count or neither, as the rule for two blanks above says)."""
    blanche_number: bool = True
    """The holder of carte blanche announces how many cards he will exchange and is bound to it;
    the other discards first (if not, no number: the blanche is shown and the exchange goes on
    as usual).  Younger's number may be up to what elder's announced number will leave, else
    up to what elder must leave."""

    # --- the exchange ---------------------------------------------------------
    elder_max: int = 5
    """Most cards elder may exchange."""
    elder_min: int = 1
    """Fewest cards elder must exchange."""
    younger_min: int = 1
    """Fewest cards younger must exchange (0: he may take none)."""
    younger_max: int = 0
    """Most cards younger may exchange; 0 means all that elder left."""
    elder_sees_unused: bool = True
    """Elder may look at the cards of his allotment that he leaves."""
    younger_leftovers: Leftovers = Leftovers.YOUNGER_LOOKS
    """Who may see the stock cards younger leaves, and at what price."""
    appoint_if_card_lacked: bool = True
    """Elder who names a card he does not hold (to see the leftovers) has younger appoint
    his lead, even when he holds its suit (if not, he may name only a card he holds or one
    of a suit he has none of)."""

    # --- declarations ---------------------------------------------------------
    point_measure: PointMeasure = PointMeasure.CARDS
    """How the point is measured and compared."""
    point_scoring: PointScoring = PointScoring.PER_CARD
    """What a good point is worth."""
    sequences_same_suit: bool = True
    """Sequences must be in one suit (if not, any suits, each card in one run)."""
    sequence_values: tuple[int, ...] = (3, 4, 15, 16, 17, 18)
    """Worth of a sequence of 3, 4, 5, ... cards (tierce, quart, quint, ...)."""
    set_min_rank: Rank = Rank.TEN
    """Lowest rank whose three or four count as a set."""
    trio_value: int = 3
    """Worth of three of a rank (a trio)."""
    quatorze_value: int = 14
    """Worth of four of a rank (a quatorze)."""
    quatorze_beats_trio: bool = True
    """Any quatorze beats any trio (otherwise the higher rank wins regardless)."""
    younger_declares_after_lead: bool = False
    """Younger declares after elder has led his first card (else all is told before play)."""
    show_point: bool = True
    """The winning point must be shown."""
    show_sequences: bool = True
    """Winning sequences must be shown."""
    show_sets: bool = False
    """Winning sets must be shown."""
    ask_missing: bool = False
    """After a trio is counted, the other may ask which card of the rank is missing."""
    show_missing: bool = False
    """The missing card, if it was laid out, must be shown when asked."""

    # --- the play ---------------------------------------------------------------
    play_scoring: PlayScoring = PlayScoring.LEADS_AND_WINS
    """What the cards score as they are played."""
    lead_value: int = 1
    """Points a scoring lead counts (which leads score is the play's scoring)."""
    win_value: int = 1
    """Points a scoring win counts (which wins score is the play's scoring; where the
    winner counts the tens and higher, each card of ten or higher in the trick)."""
    last_trick_bonus: int = 1
    """Extra points for winning the last trick."""
    last_trick_tenth_bonus: int = 1
    """Extra points for winning the last trick with a card of ten or higher."""
    cards_bonus: int = 10
    """Points for winning the cards (most tricks; 6-6 counts nothing)."""
    capot_bonus: int = 40
    """Points for winning every trick, instead of the cards."""

    # --- pique and repique -------------------------------------------------------
    pique_threshold: int = 30
    """Count to reach, before the other counts anything, for pique or repique."""
    repique_bonus: int = 60
    """Added on reaching the threshold from hand alone (declarations)."""
    pique_bonus: int = 30
    """Added on reaching the threshold from hand and play."""
    pique_elder_only: bool = False
    """Only elder can win a pique."""
    pique_by_first_card: bool = False
    """The pique must be made by elder's first card at the latest: hand, then elder's first
    lead, before younger plays (if not, any time in the play before the other counts)."""
    pique_by_cards: bool = False
    """The cards and the capot, won after the play, count toward a pique too (if not, a
    pique is made from hand and play alone)."""

    # --- winning ---------------------------------------------------------------
    target: int = 100
    """Points that win a game."""
    game_ends_mid_deal: bool = True
    """The game is won the moment the target is reached, in counting order."""
    formats: tuple[Format, ...] = (Format.GAME,)
    """Match formats this rule set knows."""
    default_format: Format = Format.GAME
    """The format played when none is asked for."""
    partie_deals: int = 6
    """Deals in a Rubicon partie."""
    settlement: Settlement = Settlement.PARLETT
    """How a partie is settled."""
    partie_tie_extra_deals: bool = True
    """A partie level after its deals goes on one deal each (else it is drawn)."""
    lurch_below: int = 0
    """A game's loser under this many points is lurched and pays double (0: no lurch)."""

    # --- mistakes at a real table (the tally records them; the engine refuses them) -----
    false_claim: FalseClaim = FalseClaim.COUNTS_NOTHING
    """The penalty for counting what one does not hold, once found out."""
    unshown_claim: Unshown = Unshown.LOST
    """The penalty for playing a card without showing a holding counted that must be shown."""
    call_correction: Correction = Correction.NONE
    """Whether a player may take back what he said in the declarations and say it again."""
    renounce_taken_back: bool = True
    """A card played out of suit while holding the suit led is taken back and the suit
    followed, with no penalty (if not, the text says nothing of it)."""

    # --- derived ----------------------------------------------------------------
    @property
    def stock_size(self) -> int:
        return self.deck_size - 24

    @property
    def low_rank(self) -> Rank:
        return Rank.SIX if self.deck_size == 36 else Rank.SEVEN

    def holds_blanche(self, dealt: int) -> bool:
        """Whether twelve dealt cards (a mask) are carte blanche under these rules."""
        return self.carte_blanche and dealt & _COURTS == 0

    def blanche_counted(self, elder: bool, younger: bool) -> tuple[bool, bool]:
        """Whose carte blanche counts, elder's and younger's, when each holds one or not."""
        if not self.carte_blanche:
            return (False, False)
        if elder and younger:
            if self.younger_blanche_bars:
                return (False, True)
            return (self.both_blanche_score, self.both_blanche_score)
        return (elder, younger)

    def sequence_value(self, length: int) -> int:
        if length < 3:
            return 0
        idx = min(length, 2 + len(self.sequence_values)) - 3
        return self.sequence_values[idx]

    def format_refusal(self, fmt: Format, *, offered: tuple[Format, ...] = ()) -> str | None:
        """Why this rule set does not play ``fmt``, in words naming what it plays (of the
        formats ``offered`` where some are: what the caller plays at all), or None where
        it plays it."""
        if fmt in self.formats and (not offered or fmt in offered):
            return None
        plays = ", ".join(f.value for f in self.formats if not offered or f in offered)
        return f"{self.name} does not play a {fmt.value}; it plays: {plays}"

    def replace(self, **changes: Any) -> Rules:
        """A copy with some knobs changed; every value is checked."""
        from piquet.core.rules.presets import rules_from_mapping

        return rules_from_mapping(changes, base=self)

    def knobs(self) -> dict[str, Any]:
        """Every knob and its value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def knobs_json(self) -> dict[str, Any]:
        """Every knob as JSON writes it (a choice by its value, a rank by its number, a
        list for a tuple): what :func:`rules_from_mapping` reads back.  A knob added after
        records were first written (:data:`_ADDED_KNOBS`) is left out while it holds the
        value it had before it was a knob, so a record written earlier is written again byte
        for byte."""
        return {k: knob_json(v) for k, v in self.knobs().items()
                if _ADDED_KNOBS.get(k, _NOT_ADDED) != v}

    @property
    def is_preset(self) -> bool:
        """Whether these are exactly the preset of their name (not a house rule)."""
        from piquet.core.rules.presets import PRESETS

        return PRESETS.get(self.name) == self

    def __hash__(self) -> int:
        """A hash from a few knobs, consistent with ``==`` (which compares every knob).

        Caches key on the rule set's value (never its name or ``id()``: a house rule set
        may take a preset's name, and an ``id()`` is reused once its rule set is gone);
        hashing all forty-odd knobs on every lookup made world sampling 30% slower."""
        return hash((self.name, self.deck_size, self.target, self.elder_max))

    def __post_init__(self) -> None:
        _validate(self)


_NOT_ADDED: Final = object()
_ADDED_KNOBS: Final[dict[str, object]] = {"lead_value": 1, "win_value": 1}
"""Knobs added after records were first written, with the value every record before them
implies: :meth:`Rules.knobs_json` leaves them out at that value."""

_COURTS: Final = sum(0b111 << (9 * s + 5) for s in range(4))
"""The kings, queens and knaves (card index 9 × suit + rank − 6)."""

_K = TypeVar("_K")


class _ReadOnFirstUse(Mapping[_K, str]):
    """A mapping filled by ``fill`` the first time it is read: the knobs' and choices'
    words come from this module's source, which only a reader of the rules needs, so a
    process that never shows them (a test worker, the engine in a tournament) does not
    parse it (about a tenth of a second at every start)."""

    def __init__(self, fill: Callable[[], dict[_K, str]]) -> None:
        self._fill: Callable[[], dict[_K, str]] | None = fill
        self._data: dict[_K, str] = {}

    def _read(self) -> dict[_K, str]:
        if self._fill is not None:
            self._data = self._fill()
            self._fill = None
        return self._data

    def __getitem__(self, key: _K) -> str:
        return self._read()[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())

    def __contains__(self, key: object) -> bool:
        return key in self._read()


def _attribute_docs(cls: type) -> dict[str, str]:
    """Each attribute of ``cls`` with the docstring under it in this module's source (a
    dataclass field or an enum member), its whitespace folded."""
    import ast
    import inspect

    body = ast.parse(inspect.getsource(cls)).body[0].body  # type: ignore[attr-defined]
    out: dict[str, str] = {}
    for node, nxt in itertools.pairwise(body):
        target = (node.target if isinstance(node, ast.AnnAssign)
                  else node.targets[0] if isinstance(node, ast.Assign) else None)
        if (
            isinstance(target, ast.Name)
            and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            out[target.id] = " ".join(nxt.value.value.split())
    return out


def _knob_docs() -> dict[str, str]:
    """Each field's docstring (the string after it), from this module's source."""
    return _attribute_docs(Rules)


#: Each knob's meaning in words: the docstring under its field (read on first use).
KNOB_DOCS: Final[Mapping[str, str]] = _ReadOnFirstUse(_knob_docs)


#: The knobs' kinds of named choice (enums), each member documented by its docstring.
CHOICE_ENUMS: Final = (
    Leftovers, PointMeasure, PointScoring, PlayScoring, Settlement, Format, FalseClaim, Unshown,
    Correction,
)
#: Each choice of a knob with named choices, in words (the docstring under the member).
def _value_docs() -> dict[enum.Enum, str]:
    """Each enum member's docstring (the string after it), from this module's source."""
    return {cls[name]: doc for cls in CHOICE_ENUMS for name, doc in _attribute_docs(cls).items()}


VALUE_DOCS: Final[Mapping[enum.Enum, str]] = _ReadOnFirstUse(_value_docs)


def value_text(value: Any) -> str:
    """A knob's value in words, for a reader of the rules rather than of a rules file:
    yes or no, a named choice by what it means (:data:`VALUE_DOCS`), a rank by its name."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Rank):
        return value.name.lower()
    if isinstance(value, enum.Enum):
        return VALUE_DOCS.get(value, str(value.value)).rstrip(".")
    if isinstance(value, tuple):
        return ("; " if any(isinstance(v, enum.Enum) for v in value) else ", ").join(
            value_text(v) for v in value)
    return str(value)


def pique_words(rules: Rules) -> str:
    """When a pique may be made, in words for the summaries (the terminal's and the web's):
    "either player", "elder only", or by elder's first card at the latest (1662, 1674)."""
    if rules.pique_by_first_card:
        return "from the hand and elder's first lead at the latest"
    return "elder only" if rules.pique_elder_only else "either player"


NAME_MAX: Final = 100
"""The longest name a rule set may have (a house rule's ``name``)."""


def name_fault(name: str) -> str | None:
    """Why ``name`` cannot name a rule set, or None: every table and record prints it, so
    it is one line of text, without the control and format characters that would reach
    a terminal (an escape sequence, a reversal of direction), at most :data:`NAME_MAX`
    characters."""
    if not name.strip():
        return "a name is not empty"
    if len(name) > NAME_MAX:
        return f"a name has at most {NAME_MAX} characters, not {len(name)}"
    for ch in name:
        if unicodedata.category(ch) in _NOT_IN_NAMES:
            return f"a name is one line of text, without control characters ({ch!r})"
    return None


_NOT_IN_NAMES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _validate(r: Rules) -> None:
    def bad(knob: str, why: str) -> RulesError:
        return RulesError(f"knob {knob!r}: {why}")

    fault = name_fault(r.name)
    if fault is not None:
        raise bad("name", f"{toml_text(r.name)}: {fault}")

    if r.deck_size not in (32, 36):
        raise bad("deck_size", f"{r.deck_size} is not allowed; use 32 or 36")
    if not r.packet_sizes or any(p not in (1, 2, 3, 4, 6, 12) for p in r.packet_sizes):
        shown = "[" + ", ".join(str(p) for p in r.packet_sizes) + "]"  # as a rules file writes it
        raise bad("packet_sizes", f"{shown}: each size must divide 12 (1, 2, 3, 4, 6, 12)")
    stock = r.deck_size - 24
    if not 1 <= r.elder_max <= stock - 1:
        raise bad("elder_max", f"{r.elder_max}: must be 1 to {stock - 1} with a stock of {stock}")
    if not 0 <= r.elder_min <= r.elder_max:
        raise bad("elder_min", f"{r.elder_min}: must be 0 to elder_max ({r.elder_max})")
    if not 0 <= r.younger_min <= stock - r.elder_max:
        raise bad(
            "younger_min",
            f"{r.younger_min}: must be 0 to {stock - r.elder_max} (what elder must leave)",
        )
    if r.younger_max and r.younger_max < max(r.younger_min, 1):
        raise bad("younger_max", f"{r.younger_max}: must be 0 (no limit) or at least younger_min")
    if not r.sequence_values or len(r.sequence_values) > 7:
        raise bad("sequence_values", "give 1 to 7 values, for sequences of 3, 4, ... 9 cards")
    for knob in (
        "blanche_value",
        "trio_value",
        "quatorze_value",
        "lead_value",
        "win_value",
        "last_trick_bonus",
        "last_trick_tenth_bonus",
        "cards_bonus",
        "capot_bonus",
        "repique_bonus",
        "pique_bonus",
        "lurch_below",
    ):
        if getattr(r, knob) < 0:
            raise bad(knob, "must not be negative")
    if r.pique_threshold < 1:
        raise bad("pique_threshold", "must be at least 1")
    if r.target < 1:
        raise bad("target", "must be at least 1")
    if r.partie_deals < 1 or r.partie_deals % 2:
        raise bad("partie_deals", f"{r.partie_deals}: must be a positive even number")
    if r.default_format not in r.formats:
        raise bad("default_format", f"{r.default_format.value} is not among formats")
    if r.set_min_rank < r.low_rank:
        raise bad("set_min_rank", f"{r.set_min_rank.letter} is not in a {r.deck_size}-card pack")


def toml_text(value: Any) -> str:
    """A value as a rules file writes it (``true``, ``"text"``, ``[1, 2]``, a rank's
    letter), for messages about a rules file, which should not show Python's spelling."""
    if value is None:
        return "null"  # (the web's JSON; a TOML file has no null)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Rank):
        return json.dumps(value.letter)
    if isinstance(value, enum.Enum):
        return toml_text(value.value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def knob_json(value: Any) -> Any:
    """A knob's value as JSON writes it (see :meth:`Rules.knobs_json`)."""
    if isinstance(value, enum.IntEnum):
        return int(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [knob_json(v) for v in value]
    return value
