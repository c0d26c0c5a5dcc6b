"""Exercises ("puzzles"): positions from real deals where one choice is clearly better.

Each :class:`Puzzle` is a position of the first deal of a seeded match (the seed and the
actions that lead to it, so it replays exactly through the engine), the player to act, the
choices offered, and what the judge (:mod:`piquet.learn.judge`) found: each choice's mean
value in points of the deal, in ``worlds`` deals drawn from that player's view (never from the
hidden cards), the margin of the best over the next and its standard error.  A puzzle is
kept only when the best is clearly better: a margin of at least :data:`MIN_MARGIN` points
and :data:`MIN_Z` standard errors.

Themes (:class:`Theme`): the exchange (what to lay out), the declarations (what to
declare or answer, and when to sink), the lead, and the play to a lead.  Difficulty
(:class:`Difficulty`): *easy* where the book's simple player also finds the best choice
among few, *hard* where it does not, *medium* otherwise.

The puzzles ship as a data file made by ``scripts/make-puzzles`` (reproducible from its
seeds); ``tests/test_learn_puzzles.py`` judges every one again in fresh deals and checks
the stated best is best by the stated margin, within the estimator's error.
"""

from __future__ import annotations

import enum
import gzip
import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from piquet.core.actions import Action, Declare, Discard, Play, parse_action
from piquet.core.cards import CardSet
from piquet.core.errors import ParseError, PiquetError
from piquet.core.match import Match, MatchView, new_match
from piquet.core.rules import PRESETS, get_rules
from piquet.learn.words import action_label

__all__ = [
    "MIN_MARGIN",
    "MIN_Z",
    "Difficulty",
    "Puzzle",
    "Theme",
    "Verdict",
    "choose",
    "load",
]

MIN_MARGIN: Final = 1.5
"""Points a deal the best choice must gain over the next, at the least."""
MIN_Z: Final = 3.0
"""Standard errors of the paired difference the margin must be, at the least."""
DATA: Final = "puzzles.jsonl.gz"


class Theme(enum.Enum):
    DISCARD = "discard"
    """The exchange: which cards to lay out."""
    DECLARE = "declare"
    """The declarations: what to declare, what to answer, when to sink."""
    LEAD = "lead"
    """Leading to a trick."""
    PLAY = "play"
    """Playing to the other's lead."""

    @property
    def title(self) -> str:
        return _THEME_TITLES[self]


_THEME_TITLES: Final = {
    Theme.DISCARD: "the exchange: what to lay out",
    Theme.DECLARE: "the declarations: what to declare or answer, and when to sink",
    Theme.LEAD: "the lead",
    Theme.PLAY: "playing to a lead",
}


class Difficulty(enum.Enum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of a learner's choice."""

    best: bool
    cost: float
    """Points of the deal the choice gives up against the best (0 for the best)."""
    text: str


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One exercise (see the module's docstring); ``options[0]`` is the best choice."""

    id: str
    rules: str
    seed: int
    actions: tuple[str, ...]
    theme: Theme
    difficulty: Difficulty
    options: tuple[str, ...]
    values: tuple[float, ...]
    margin: float
    stderr: float
    worlds: int
    judge_seed: int
    share: float
    """The share of the drawn deals in which the best choice is (one of) the best."""

    # ------------------------------------------------------------------ the position
    def match(self) -> Match:
        """The match at the puzzle's position (replayed through the engine)."""
        m = new_match(self.rules, seed=self.seed)
        for text in self.actions:
            m = m.apply(parse_action(text))
        return m

    def view(self) -> MatchView:
        """What the player to act sees: the only thing a puzzle shows."""
        m = self.match()
        player = m.to_act
        if player is None:
            raise PiquetError(f"puzzle {self.id}: nobody is to act at its position")
        return m.view(player)

    def choices(self) -> tuple[Action, ...]:
        return tuple(parse_action(o) for o in self.options)

    @property
    def best(self) -> Action:
        return parse_action(self.options[0])

    # ------------------------------------------------------------------ answering
    def shown(self) -> list[tuple[Action, str]]:
        """The choices as a learner sees them, each with its words, in the order of their
        words (never the best first by design)."""
        pairs = list(zip(self.choices(), self.labels(), strict=True))
        return sorted(pairs, key=lambda pair: pair[1])

    def read(self, text: str) -> Action:
        """A learner's answer as one of the choices: its number in :meth:`shown` (1, 2,
        ...), its id, or for a card or a discard just the cards ("QH", "7S 8S").  Raises
        :class:`ParseError` saying what the choices are."""
        raw = text.strip()
        acts = self.choices()
        if raw.isdigit() and 1 <= int(raw) <= len(acts):
            return self.shown()[int(raw) - 1][0]
        try:
            action = parse_action(raw)
        except ParseError:
            action = None
        if action is None or action not in acts:
            try:
                cards = CardSet.parse(raw)
            except ValueError:
                cards = None
            if cards is not None:
                action = next((a for a in acts if _cards_of(a) == cards), action)
        if action is None or action not in acts:
            raise ParseError(
                f"{raw!r} is not one of the choices; answer with a number from 1 to "
                f"{len(acts)} or one of: {', '.join(map(str, acts))}"
            )
        return action

    def labels(self) -> list[str]:
        """Each choice as a learner reads it ("lay out 9H 8H TC", "play QH", "declare point
        of five (AS KS QS 9S 7S)")."""
        deal = self.view().deal
        hand = deal.hand.mask if deal is not None else 0
        rules = get_rules(self.rules)
        return [action_label(a, hand, rules) for a in self.choices()]

    def explanation(self) -> str:
        """Why the best choice is best, in words, with the judge's figures."""
        from piquet.learn.words import puzzle_why

        deal = self.view().deal
        assert deal is not None
        acts = self.choices()
        return puzzle_why(deal, get_rules(self.rules), acts[0], acts[1], margin=self.margin,
                          worlds=self.worlds, share=self.share)

    def verdict(self, action: Action) -> Verdict:
        acts = self.choices()
        labels = self.labels()
        i = acts.index(action)
        cost = self.values[0] - self.values[i]
        best = labels[0]
        why = self.explanation()
        if i == 0:
            text = f"Right: {best}. {why}"
        else:
            text = (f"Not the best: {labels[i]} gives up about {cost:.1f} points of the "
                    f"deal against {best}. {why}")
        return Verdict(i == 0, round(cost, 2), text)

    # ------------------------------------------------------------------ data
    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "rules": self.rules, "seed": self.seed,
            "actions": list(self.actions), "theme": self.theme.value,
            "difficulty": self.difficulty.value, "options": list(self.options),
            "values": [round(v, 3) for v in self.values], "margin": round(self.margin, 3),
            "stderr": round(self.stderr, 3), "worlds": self.worlds,
            "judge_seed": self.judge_seed, "share": round(self.share, 3),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(
            id=data["id"], rules=data["rules"], seed=data["seed"],
            actions=tuple(data["actions"]), theme=Theme(data["theme"]),
            difficulty=Difficulty(data["difficulty"]), options=tuple(data["options"]),
            values=tuple(data["values"]), margin=data["margin"], stderr=data["stderr"],
            worlds=data["worlds"], judge_seed=data["judge_seed"], share=data["share"],
        )


def _cards_of(action: Action) -> CardSet | None:
    if isinstance(action, Play):
        return CardSet(1 << action.card.index)
    if isinstance(action, Discard | Declare):
        return action.cards
    return None


# ---------------------------------------------------------------------- the collection
def _read(lines: Iterable[str]) -> Iterator[Puzzle]:
    for line in lines:
        if line.strip():
            yield Puzzle.from_json(json.loads(line))


@cache
def load() -> tuple[Puzzle, ...]:
    """Every shipped puzzle, in the data file's order."""
    data = resources.files("piquet.learn").joinpath("data", DATA).read_bytes()
    return tuple(_read(gzip.decompress(data).decode("utf-8").splitlines()))


def choose(
    *,
    rules: str | None = None,
    theme: str | None = None,
    difficulty: str | None = None,
    seed: int | None = None,
    puzzles: tuple[Puzzle, ...] | None = None,
) -> Puzzle:
    """One puzzle matching the filters, picked by ``seed`` (None: the first).  Raises
    :class:`PiquetError` for an unknown rule set, theme or difficulty, or when none fits."""
    pool = load() if puzzles is None else puzzles
    if rules is not None:
        name = get_rules(rules).name
        if name not in PRESETS:
            raise PiquetError(f"there are puzzles for the preset rule sets only, not {rules!r}")
        pool = tuple(p for p in pool if p.rules == name)
    if theme is not None:
        try:
            t = Theme(theme.strip().lower())
        except ValueError:
            raise PiquetError(f"no theme {theme!r}; the themes are: "
                              + ", ".join(x.value for x in Theme)) from None
        pool = tuple(p for p in pool if p.theme is t)
    if difficulty is not None:
        try:
            d = Difficulty(difficulty.strip().lower())
        except ValueError:
            raise PiquetError(f"no difficulty {difficulty!r}; choose "
                              + ", ".join(x.value for x in Difficulty)) from None
        pool = tuple(p for p in pool if p.difficulty is d)
    if not pool:
        raise PiquetError("no puzzle fits these choices")
    return pool[0] if seed is None else pool[random.Random(f"puzzle-{seed}").randrange(len(pool))]
