"""Making the exercises: positions from seeded real deals, judged, kept when one choice is
clearly better (``scripts/make-puzzles`` runs :func:`generate`; the suite re-judges them).

A match is started from a seed under a preset and its first deal played by the ``book``
level for both players (sound, quick, reproducible).  At each decision the theme wants
(:func:`theme_of`), the choices (:func:`candidates`) are judged from the acting player's view
(:func:`piquet.learn.judge.judge`); a position becomes a :class:`~piquet.learn.puzzles.Puzzle`
when the best choice beats the next by :data:`~piquet.learn.puzzles.MIN_MARGIN` points and
:data:`~piquet.learn.puzzles.MIN_Z` standard errors.  At most one puzzle of a theme is taken
from a deal, so the collection spreads over many deals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Final

from piquet.core.actions import Action, Answer, Declare, Discard, Pass
from piquet.core.cards import CardSet, mask_cards
from piquet.core.deal import Phase
from piquet.core.declarations import DeclClass
from piquet.core.match import Match, new_match
from piquet.core.rules import Rules, get_rules
from piquet.core.view import DealView
from piquet.fast.solver import Solver
from piquet.learn.judge import JudgeError, Judgement, judge
from piquet.learn.puzzles import MIN_MARGIN, MIN_Z, Difficulty, Puzzle, Theme
from piquet.players import make_player
from piquet.players.book import book_action
from piquet.players.common import book_discard

__all__ = [
    "FIRST_SEEDS",
    "WANTED",
    "WORLDS",
    "candidates",
    "confirmed",
    "generate",
    "puzzle_at",
    "rejudge",
    "theme_of",
]

WORLDS = 32
"""Deals each position is judged in."""
WANTED: dict[Theme, int] = {Theme.DISCARD: 45, Theme.DECLARE: 45, Theme.LEAD: 60,
                            Theme.PLAY: 60}
"""The puzzles of each theme ``scripts/make-puzzles`` makes under each preset."""
FIRST_SEEDS: dict[str, int] = {"cotton-1674": 100_001}
"""Where each preset's seeds start (1 unless given): Cotton copied Cotgrave, and with the
same seeds his deals would be Cotgrave's."""
CONFIRM: Final = 5_000_000
"""Added to a puzzle's judge seed for its confirmation (:func:`confirmed`)."""
MIN_TRICKS = 2
"""Tricks played before a position of the play is taken (a card early in the play is as
much a matter of the cards not yet seen as of skill, and costs the solver most)."""


def theme_of(deal: DealView) -> Theme | None:
    """The theme of the decision the player to act faces (None: not one we teach here)."""
    if deal.phase is Phase.EXCHANGE and deal.discard_range is not None:
        return Theme.DISCARD
    if deal.phase is Phase.DECLARE:
        return Theme.DECLARE
    if deal.phase is Phase.PLAY:
        return Theme.LEAD if deal.trick_lead is None else Theme.PLAY
    return None


def candidates(deal: DealView, rules: Rules, rng: random.Random) -> list[Action]:
    """The choices a puzzle offers at this decision: every card in the play; in the
    exchange the book's discard and three others (the book's of another size, and of the
    same size a random one and the book's with one card changed); in the declarations the
    best holding, the pass (a sink) and one lesser holding, or every answer."""
    if deal.phase is Phase.PLAY:
        return list(deal.legal_actions)
    if deal.phase is Phase.DECLARE:
        legal = list(deal.legal_actions)
        answers: list[Action] = [a for a in legal if isinstance(a, Answer)]
        if answers:
            return answers
        declares = [a for a in legal if isinstance(a, Declare)]
        if not declares:
            return []
        out: list[Action] = [declares[0]]  # claims come best first
        lesser = [a for a in declares[1:]
                  if a.cards.mask.bit_count() < declares[0].cards.mask.bit_count()]
        if lesser:
            out.append(lesser[0])
        if Pass() in legal:
            out.append(Pass())
        return out
    if deal.discard_range is None:
        return []
    lo, hi = deal.discard_range
    hand = deal.hand.mask
    book = book_discard(hand, lo, hi, rules, role=deal.role)
    found: list[int] = [book]
    k = book.bit_count()
    other_size = lo if k != lo else hi
    if other_size != k:
        found.append(book_discard(hand, other_size, other_size, rules, role=deal.role))
    cards = mask_cards(hand)
    if k:
        found.append(sum(1 << c for c in rng.sample(cards, k)))
        keep = [c for c in cards if not book >> c & 1]
        out_of = [c for c in cards if book >> c & 1]
        if keep and out_of:
            swap = book & ~(1 << rng.choice(out_of)) | 1 << rng.choice(keep)
            found.append(swap)
    distinct = list(dict.fromkeys(m for m in found if lo <= m.bit_count() <= hi))
    return [Discard(CardSet(m)) for m in distinct]


def _difficulty(n_options: int, book_agrees: bool) -> Difficulty:
    if not book_agrees:
        return Difficulty.HARD
    return Difficulty.EASY if n_options <= 3 else Difficulty.MEDIUM


def puzzle_at(
    m: Match,
    actions: list[str],
    *,
    rules: Rules,
    seed: int,
    judge_seed: int,
    rng: random.Random,
    solver: Solver,
    worlds: int = WORLDS,
    number: int = 0,
) -> Puzzle | None:
    """The puzzle at ``m``'s position (the decision of the player to act), or None when no choice
    is clearly better there."""
    player = m.to_act
    if player is None:
        return None
    view = m.view(player)
    deal = view.deal
    if deal is None:
        return None
    theme = theme_of(deal)
    if theme is None:
        return None
    options = candidates(deal, rules, rng)
    if len(options) < (3 if theme in (Theme.LEAD, Theme.PLAY) else 2):
        return None
    if theme in (Theme.LEAD, Theme.PLAY) and len(deal.tricks) < MIN_TRICKS:
        return None
    try:
        j = judge(deal, rules, options, worlds=worlds, seed=judge_seed, solver=solver)
    except JudgeError:
        return None
    order = j.ranking()
    best, second = order[0], order[1]
    margin, se = j.margin(best, second)
    if margin < MIN_MARGIN or margin < MIN_Z * se:
        return None
    # every other choice clearly worse too (the second is the closest by mean, not always
    # by the paired test)
    for other in order[2:]:
        m2, se2 = j.margin(best, other)
        if m2 < MIN_MARGIN or m2 < MIN_Z * se2:
            return None
    share = j.share_best(best)
    book = book_action(deal, rules)
    ordered = [j.options[i] for i in order]
    return Puzzle(
        id=f"{rules.name}-{number:04d}",
        rules=rules.name,
        seed=seed,
        actions=tuple(actions),
        theme=theme,
        difficulty=_difficulty(len(options), book == j.options[best]),
        options=tuple(str(a) for a in ordered),
        values=tuple(round(j.mean(i), 3) for i in order),
        margin=round(margin, 3),
        stderr=round(se, 3),
        worlds=j.worlds,
        judge_seed=judge_seed,
        share=round(share, 3),
    )


def _deal_decisions(preset: str, seed: int) -> Iterator[tuple[Match, list[str]]]:
    """Every position of the first deal of the seeded match, the book playing both players."""
    m = new_match(preset, seed=seed)
    players = [make_player("book", seed=seed * 3 + i) for i in range(m.n_players)]
    actions: list[str] = []
    while not m.finished and not m.deals:
        yield m, actions
        p = m.to_act
        assert p is not None
        a = players[p].choose(m.view(p))
        m = m.apply(a, p)
        actions = [*actions, str(a)]


def generate(
    preset: str,
    wanted: dict[Theme, int],
    *,
    first_seed: int | None = None,
    worlds: int = WORLDS,
    progress: Callable[[Puzzle], None] | None = None,
    limit: int | None = None,
) -> list[Puzzle]:
    """Puzzles under ``preset``, ``wanted[theme]`` of each theme, from the matches seeded
    ``first_seed``, ``first_seed + 1``, ... (reproducible: the same arguments give the same
    puzzles; ``limit`` stops after the first so many).  ``first_seed`` defaults to the
    preset's :data:`FIRST_SEEDS` (else 1)."""
    rules = get_rules(preset)
    if first_seed is None:
        first_seed = FIRST_SEEDS.get(rules.name, 1)
    solver = Solver(rules)
    left = dict(wanted)
    out: list[Puzzle] = []
    seed = first_seed
    while any(v > 0 for v in left.values()):
        taken: set[Theme] = set()
        rng = random.Random(f"piquet-puzzles-{preset}-{seed}")
        for m, actions in _deal_decisions(preset, seed):
            p = m.to_act
            view = m.view(p) if p is not None else None
            if view is None or view.deal is None:
                continue
            theme = theme_of(view.deal)
            if theme is None or theme in taken or left.get(theme, 0) <= 0:
                continue
            if view.deal.phase is Phase.DECLARE and view.deal.declaring is DeclClass.SET \
                    and rng.random() < 0.5:
                continue  # spread the declarations over the classes
            puzzle = puzzle_at(m, actions, rules=rules, seed=seed, judge_seed=seed * 100 +
                               len(actions), rng=rng, solver=solver, worlds=worlds,
                               number=len(out) + 1)
            if puzzle is None:
                continue
            taken.add(theme)
            left[theme] -= 1
            out.append(puzzle)
            if progress is not None:
                progress(puzzle)
            if limit is not None and len(out) >= limit:
                return out
        seed += 1
    return out



def confirmed(puzzle: Puzzle) -> bool:
    """Whether the puzzle's margin holds in other deals: judged again in as many deals drawn
    with another seed, the best still comes out ahead, within 3 standard errors of the
    difference of the stated margin.  ``scripts/make-puzzles`` keeps only the confirmed
    (the suite then judges them in deals of a third seed)."""
    j = rejudge(puzzle, seed=puzzle.judge_seed + CONFIRM)
    margin, se = j.margin(0, 1)
    return margin > 0 and abs(margin - puzzle.margin) <= 3 * math.hypot(puzzle.stderr, se)


def rejudge(puzzle: Puzzle, *, seed: int, worlds: int | None = None) -> Judgement:
    """The puzzle's choices judged again from its position (``seed``: the judge's draws;
    the puzzle's own ``judge_seed`` gives back its figures), options in the puzzle's order
    (the stated best first)."""
    m = puzzle.match()
    player = m.to_act
    assert player is not None
    deal = m.view(player).deal
    assert deal is not None
    rules = get_rules(puzzle.rules)
    return judge(deal, rules, puzzle.choices(), worlds=worlds or puzzle.worlds, seed=seed,
                 solver=_solver(rules))


_SOLVERS: dict[Rules, Solver] = {}


def _solver(rules: Rules) -> Solver:
    found = _SOLVERS.get(rules)
    if found is None:
        found = _SOLVERS[rules] = Solver(rules)
    return found
