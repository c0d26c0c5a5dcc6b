"""The ranking: every legal discard valued, the most promising played out, best first.

How a discard is valued (``piquet advise``, :func:`advise`):

1. **The declarations, exactly.**  :func:`~piquet.analysis.drawtables.declaration_pass`
   goes over every legal discard and every draw from the unseen cards (elder
   under a 32-card rule set: 1,585 discards, 14,941,023 final hands), weighing
   each final hand's point, sequences and sets against a sample of the other's
   holdings (his twelve dealt from the unseen cards, his exchange by the book,
   :func:`~piquet.players.common.book_discard`).  A rough count of tricks gives
   every discard an estimate.
2. **The play, open-handed.**  The most promising discards (the best by that
   estimate, the best of each size, the book's) are played in the same
   ``samples`` worlds: the other exchanges by the book, both declare all they
   hold, counted by the engine's own scoring
   (:func:`~piquet.players.search.declaration_tally`: carte blanche, the
   classes, repique, pique while open), and the play is valued by the
   solver's fast open-handed play-out (:meth:`~piquet.fast.solver.Solver.estimate`).
3. **The leaders, exactly.**  The ``refine`` best and the book's discard are
   valued again, world by world, with the exact double-dummy value of the play
   (:meth:`~piquet.fast.solver.Solver.value`) in up to ``exact`` of those worlds,
   until the solver has searched ``exact_nodes`` positions (never fewer than
   ``MIN_EXACT`` worlds; where that many worlds of every leader would cost
   more, fewer leaders).  Every ``DROP_EVERY`` worlds a leader ``DROP_Z``
   paired standard errors behind the best stops (the race), so the budget goes
   to the close ones.  A leader's value is the regression estimator: the
   declarations' net over every world it was played in (known exactly, the
   leaders are played in ``leader_samples`` worlds), plus the play's exact
   mean, corrected by ``beta`` times how far the fast play-out's mean over its
   exact worlds is from its mean over all (``beta``: the slope of the exact
   differences between the leaders on the fast ones, measured in the hand's
   worlds).  The leaders are put on one footing: the value of the leader
   valued in the most exact worlds, plus each other's paired difference from
   it over the worlds both were valued in (one that left the race early would
   otherwise keep its few worlds' luck).  The other discards played out get
   the leaders' mean correction,
   and one that still comes out first is valued exactly too.  This is what
   makes the ranking agree with verification by play
   (:mod:`piquet.advisor.verify`), which plays the same way, whole deals
   through the engine.
4. **The book first.**  The book's discard stays first unless the best beats
   it by ``book_margin`` standard errors of their paired difference.  A close
   call (the best and the book's discard within ``SETTLE_Z`` of them, either
   way) is first valued in more exact worlds, the two discards only, for up to
   ``settle_nodes`` more positions (:func:`_settle`), and so is a second rival
   the settling puts first (``SETTLE_RIVALS``, a budget each), while the whole
   advice stays within ``total_nodes`` positions (``TOTAL_NODES``, what keeps it
   under 2 s): the margin's confirmed misses were such calls, left to the noise
   of a few exact worlds.

With ``score`` the value is the chance of winning the game: the deal counted
from the score (the target reached in counting order during the declarations,
or by the play's race value), then the game played on (:mod:`piquet.advisor.game`).

Discards not played out keep the estimate of step 1, mapped onto the played
scale and never above a played one (``method``: ``estimated``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from math import comb
from typing import Any, Final

from piquet.advisor.deals import ELDER, ROLES, Asked, Setup, check_score, worlds
from piquet.advisor.explain import LEGEND, METHOD_WORDS, Z95, Explanation, explain
from piquet.advisor.race import (
    _calibration,
    _candidates,
    _distinct_leaders,
    _his_exchange,
    _Leaders,
    _mean,
    _paired,
    _Played,
    _PlayOut,
    _stderr,
)
from piquet.analysis.drawtables import (
    DEFAULT_BUDGET,
    OpponentModel,
    PassResult,
    declaration_pass,
    discard_masks,
    hand_stats,
    suit_tables,
)
from piquet.core.cards import CardSet
from piquet.core.declarations import COURTS
from piquet.core.errors import PiquetError
from piquet.core.rules import Rules

__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_EXACT",
    "DEFAULT_SAMPLES",
    "EXPLAIN_DRAWS",
    "Advice",
    "Ranked",
    "advise",
    "opponent_model",
]

#: worlds each candidate is played in (the fast open-handed play-out: cheap, but a weak
#: control variate: past 200 worlds it narrows a paired difference by a few hundredths of a
#: point, the exact worlds decide; at 120, with the slope of 1 the control variate had
#: then, the declarations' luck left du Coeur's values 10 points apart between seeds)
DEFAULT_SAMPLES: Final = 160
#: worlds the leaders (those valued exactly) are played in by the fast play-out: what it
#: and the declarations measure in every world is the part of the value the exact worlds
#: do not have to (the declarations exactly, the play through the regression); past the
#: other candidates' 160 worlds this narrowed the leaders' paired differences by about a
#: fifth in 36-card hands, for about 0.1 s of CPU
LEADER_SAMPLES: Final = 480
#: discards played out, besides the best of each size and the book's
DEFAULT_CANDIDATES: Final = 8
#: worlds in which the leaders' play is valued exactly
DEFAULT_EXACT: Final = 64
#: positions the solver may search for the leaders' exact values (about 0.8 s of CPU; was
#: 2,500,000 while the declaration pass of a hand with two long suits took up to 2 s), and
#: the fewest worlds they are valued exactly in whatever it costs (race.MIN_EXACT)
EXACT_NODES: Final = 4_000_000
#: the leaders (by the fast play-out) valued exactly, besides the book's discard
DEFAULT_REFINE: Final = 3
#: how many paired standard errors a rival must beat the book's discard by to replace it
#: (0.5 was chosen on the first 88 hands of ``bench/bench_advice.py``; on the 396 hands 900
#: on a margin of 1 would have lost to the book's discard in 2 hands instead of 7 with about
#: the same record otherwise: 1 was declared before the measurement on the hands 1300 on,
#: see docs/advice.md)
BOOK_MARGIN: Final = 1.0
#: a close call: when the best by value and the book's discard are within SETTLE_Z paired
#: standard errors of each other (either way), the two (only) are valued exactly in more
#: worlds, up to the leaders' ``leader_samples``, until the solver has searched
#: ``settle_nodes`` more positions or the lead is SETTLE_Z standard errors or more either
#: way (judged every DROP_EVERY worlds).  The margin's confirmed misses were such calls:
#: the rival 0.2 to 1 standard error better in the ranking's worlds (hands 1300 on and
#: 1600 on), 1 to 9 points a deal better by play
SETTLE_NODES: Final = 4_000_000
#: the most positions the solver may search for one advice, the leaders' exact worlds, a
#: late one's and the close calls' together (a close call gets what is left, up to its
#: ``settle_nodes``): about 1.7 s of CPU on the two-core machine the project is built on.
#: Two rivals settled with a full budget each took the advice to 2.1 s there (1 hand in
#: 100 of the measurement)
TOTAL_NODES: Final = 10_000_000


def node_limits(nodes: int | None) -> tuple[int, int, int]:
    """:func:`advise`'s ``total_nodes``, ``exact_nodes`` and ``settle_nodes`` for a search of
    at most ``nodes`` positions in all, the other two held under it (None: its own)."""
    if nodes is None:
        return TOTAL_NODES, EXACT_NODES, SETTLE_NODES
    return nodes, min(EXACT_NODES, nodes), min(SETTLE_NODES, nodes)

#: the other's hands sampled for the declaration pass
OPPONENT_SAMPLES: Final = 300
#: draws the explanations' exact odds may enumerate, the pick's and then the others' while
#: they fit (the pick's odds are always given): 36-card elder's seven or eight cards
#: laid out take 346,104 or 735,471 draws, about 0.02 or 0.04 s of CPU each since the draws
#: are built by arrays (0.25 or 0.6 s before, with a budget of 750,000): three explanations
#: of eight cards each (2,206,413 draws) fit
EXPLAIN_DRAWS: Final = 3_000_000


@dataclass(frozen=True, slots=True)
class Ranked:
    """One discard and its value (net points per deal, or the chance of the game)."""

    discard: CardSet
    value: float
    method: str
    """``exact`` (play valued exactly), ``simulated`` (fast play-out) or ``estimated``."""
    stderr: float | None = None

    def figure(self, *, chance: bool, about: bool = False) -> str:
        """The value as the advice prints it: ``+4.3 ±4.1 (play solved exactly)``, a chance
        of the game as ``61.0%``; ``about`` (a sampled figure with no error) prefixes
        "about"."""
        value = f"{self.value:.1%}" if chance else f"{self.value:+.1f}"
        if self.stderr is not None:
            half = Z95 * self.stderr  # the 95% interval's half-width, as the verification's
            value += f" ±{half:.1%}" if chance else f" ±{half:.1f}"
        elif about or self.method == "estimated":
            value = f"about {value}"
        return f"{value} ({METHOD_WORDS.get(self.method, self.method)})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "discard": [str(c) for c in self.discard],
            "value": round(self.value, 4),
            "method": self.method,
        }
        if self.stderr is not None:
            out["stderr"] = round(self.stderr, 4)
        return out


@dataclass(frozen=True, slots=True)
class Advice(Asked):
    """Every legal discard ranked, best first, with the method and the best explained."""

    ranking: tuple[Ranked, ...]
    explanations: tuple[Explanation, ...]
    method: dict[str, Any] = field(default_factory=dict)
    blanche: bool = False
    note: str = ""
    """Why the pick is the book's discard, or departs from it (empty if the book's
    discard was not valued exactly)."""

    @property
    def best(self) -> CardSet:
        return self.ranking[0].discard

    @property
    def unit(self) -> str:
        return "chance of winning the game" if self.score is not None else "net points in the deal"

    def top(self, k: int) -> list[CardSet]:
        """The ``k`` best discards."""
        return [r.discard for r in self.ranking[:k]]

    def to_json(self) -> dict[str, Any]:
        return {
            **self.asked_json(),
            "carte_blanche": self.blanche,
            "value_unit": self.unit,
            "discard": [str(c) for c in self.best],
            "ranking": [r.to_json() for r in self.ranking],
            "explanations": [e.to_json() for e in self.explanations],
            "method": self.method,
            "note": self.note,
        }

    def lines(self, *, top: int = 5) -> list[str]:
        m = self.method
        out = [
            f"{ROLES[self.role].capitalize()} under {self.rules}{self.score_words}: {self.hand}",
            f"{len(self.ranking):,} legal discards ranked by {self.unit}.",
            f"Declarations: {m['declarations']}.",
            f"Play: {m['play']}.",
            LEGEND,
        ]
        if self.blanche:
            out.append("You hold carte blanche: announce it before discarding (counted first).")
        if self.note:
            out.append(self.note)
        explained = {e.discard: e for e in self.explanations}
        for i, r in enumerate(self.ranking[:top], 1):
            out.append(f"{i:>2}. discard {r.discard}   {r.figure(chance=self.score is not None)}")
            e = explained.get(r.discard)
            if e is not None:
                out.extend(f"      {line}" for line in e.lines())
        return out


# ------------------------------------------------------------------ the other's exchange
def opponent_model(setup: Setup, n: int, rng: random.Random) -> OpponentModel:
    """The other's held declarations over ``n`` sampled deals (his own book exchange)."""
    tables = suit_tables(setup.rules)
    k = setup.hi if setup.role == ELDER else 0
    stats = []
    blanche = 0
    for w in worlds(setup.unseen, setup.rules, n, rng):
        stats.append(hand_stats(_his_exchange(setup, w, k)[1], tables))
        blanche += w.opp_dealt & COURTS == 0
    return OpponentModel(tuple(stats), blanche / max(n, 1))



def _book_first(
    ranked: list[Ranked],
    played: dict[int, _Played],
    book: int,
    n: int,
    margin: float,
    chance: bool,
    beta: float = 1.0,
) -> tuple[list[Ranked], str, dict[str, Any]]:
    """The book's discard first unless the best rival beats it by more than ``margin``
    paired standard errors over the same worlds (both valued exactly).

    The period rule is the prior; the play-out has to show, beyond its own noise, that
    departing from it pays.  Returns the ranking, a note saying which way it went, and
    the figures (for ``--json`` and the measurement)."""
    top = ranked[0]
    if top.discard.mask == book:
        info = {"discard": str(CardSet(book)), "kept": True, "rival": None}
        return ranked, f"The pick is the book's discard ({CardSet(book)}).", info
    rival = top.discard.mask
    diff, se = _paired(played[rival], played[book], n, beta)
    z = diff / se if se > 0 else (float("inf") if diff > 0 else 0.0)
    gap = f"{diff:+.1%} of the game" if chance else f"{diff:+.2f} points a deal"
    err = f"{se:.1%}" if chance else f"{se:.2f}"
    info = {
        "discard": str(CardSet(book)),
        "rival": str(CardSet(rival)),
        "diff": round(diff, 4),
        "stderr": round(se, 4),
        "z": round(z, 3) if z != float("inf") else None,
    }
    if z >= margin:
        info["kept"] = False
        note = (
            f"The pick departs from the book's discard ({CardSet(book)}): it is valued "
            f"{gap} better, {z:.1f} standard errors of the play-out ({err})."
        )
        return ranked, note, info
    info["kept"] = True
    first = next(r for r in ranked if r.discard.mask == book)
    if diff == 0 and se == 0:  # the same value in every world: a tie, not noise
        note = (
            f"The pick is the book's discard ({CardSet(book)}), listed first: the best of "
            f"the others ({CardSet(rival)}) is valued exactly the same in every deal played "
            "out, so the book's stands; the rest follow by value."
        )
    else:
        note = (
            f"The pick is the book's discard ({CardSet(book)}), listed first: the best of "
            f"the others ({CardSet(rival)}) is valued {gap} better, within the play-out's "
            f"noise (standard error {err}), not enough to depart from the book; the rest "
            "follow by value."
        )
    return [first, *[r for r in ranked if r is not first]], note, info


def advise(
    hand: CardSet | int,
    rules: Rules,
    *,
    role: int,
    score: tuple[int, int] | None = None,
    stock: int | None = None,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    leader_samples: int = LEADER_SAMPLES,
    candidates: int = DEFAULT_CANDIDATES,
    explain_top: int = 3,
    refine: int = DEFAULT_REFINE,
    exact: int = DEFAULT_EXACT,
    book_margin: float = BOOK_MARGIN,
    exact_nodes: int = EXACT_NODES,
    settle_nodes: int = SETTLE_NODES,
    total_nodes: int = TOTAL_NODES,
    budget: int = DEFAULT_BUDGET,
    opponent_samples: int = OPPONENT_SAMPLES,
    explain_draws: int = EXPLAIN_DRAWS,
) -> Advice:
    """Rank every legal discard of ``hand`` (the twelve dealt to ``role``), best first.

    ``score`` (mine, his) makes the value the chance of winning the game (the
    game of ``rules.target`` points); otherwise it is the mean net points of
    the deal.  About ``candidates`` discards are played out in ``samples``
    worlds, and the ``refine`` best and the book's discard valued exactly in
    up to ``exact`` of them (raced, see the module docstring); the book's
    discard stays first unless the best beats it by ``book_margin`` paired
    standard errors (0: never kept for being the book's), after a close call
    between the two is valued in more worlds (up to ``settle_nodes`` more positions for
    each of at most ``SETTLE_RIVALS`` rivals; 0: not at all).
    The exact worlds stop early (not before 12) once the solver has searched
    ``exact_nodes`` positions; a close call is valued only while the advice's search
    stays within ``total_nodes`` positions in all.
    Younger assumes elder took his full allotment unless ``stock`` says how
    many cards elder left.  ``seed`` fixes every sample.  Raises
    :class:`PiquetError` for a hand, role or number the rules do not allow.
    """
    setup = _checked_setup(hand, rules, role=role, stock=stock, score=score, samples=samples,
                           candidates=candidates, exact=exact, book_margin=book_margin)
    h = setup.hand
    rng = random.Random(f"piquet-advise-{seed}")
    unseen = setup.unseen
    opp = opponent_model(setup, opponent_samples, rng)
    discards = discard_masks(h, setup.lo, setup.hi)
    result = declaration_pass(
        h, rules, discards=discards, unseen=unseen, opponent=opp, budget=budget, rng=rng
    )
    chosen, book = _candidates(result, setup, candidates)
    # the leaders are played in more worlds than the others (the first ``samples`` are
    # the same for every discard)
    many = max(samples, leader_samples)
    sim = _PlayOut(setup, worlds(unseen, rules, many, rng), score)
    played = {d: sim.run(d, upto=samples) for d in chosen}
    fast = {d: _mean(p.fast) for d, p in played.items()}
    exact_n = min(exact, samples)
    leaders: list[int] = []
    if exact_n:
        leaders = _distinct_leaders(played, fast, max(refine, 0), book)
    state = _Leaders(
        sim=sim, played=played, fast=fast, value=dict(fast),
        err={d: _stderr(p.fast) for d, p in played.items()}, leaders=leaders,
        chance=score is not None, many=many, exact_nodes=exact_nodes,
    )
    state.race(exact_n, book)
    if state.leaders:
        state.refoot()
    counts = sorted({len(played[d].exact) for d in state.leaders}) or [state.exact_n]
    settled, pairs = state.settle(book, settle_nodes, total_nodes)
    state.leader_errors()
    ranking, note, book_info = _ranking(state, result, book, book_margin)
    expl = _explanations(
        setup, ranking, played, opponent=opp, score=score, stock=stock, samples=samples,
        explain_top=explain_top, explain_draws=explain_draws,
    )
    worlds_text = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    how = "exact over every draw" if result.all_exact else "over a uniform sample of draws"
    close = (
        " (the close call" + ("s" if len(pairs) > 1 else "") + ", "
        + " then ".join(f"{r} in {n} worlds" for r, n in pairs) + " against the book's)"
        if "worlds" in settled else ""
    )
    method = {
        "declarations": f"{how}, {result.hands:,} final hands, against {opponent_samples} "
        "sampled hands of the other",
        "play": f"{len(played)} discards played out in {samples} worlds each (the other "
        "exchanging by the book, declarations by the engine's count, the play by the "
        f"solver's fast open-handed play-out), {len(state.leaders)} of them (the best and the "
        "book's) with the exact "
        f"double-dummy play in {worlds_text} of them" + close + "; the rest estimated",
        "exact": result.all_exact,
        "hands": result.hands,
        "samples": samples,
        "exact_worlds": state.exact_n,
        "exact_worlds_least": counts[0],
        "positions": sim.solver.nodes - state.start_nodes,
        "beta": round(state.beta, 3),
        "simulated": len(played),
        "seed": seed,
        "book": book_info,
        "settled": settled,
    }
    return Advice(
        rules=rules.name,
        role=role,
        hand=CardSet(h),
        score=score,
        ranking=ranking,
        explanations=expl,
        method=method,
        blanche=rules.holds_blanche(h),
        note=note,
    )


def _checked_setup(
    hand: CardSet | int, rules: Rules, *, role: int, stock: int | None,
    score: tuple[int, int] | None, samples: int, candidates: int, exact: int,
    book_margin: float,
) -> Setup:
    """The advice's setting, once every number asked for is one the advice can use."""
    setup = Setup.of(hand, rules, role, stock)
    limits = (("samples", samples, 2), ("candidates", candidates, 1), ("exact", exact, 0))
    for what, count, least in limits:
        if count < least:
            raise PiquetError(f"{what} must be at least {least}, not {count}")
    if not book_margin >= 0:  # also refuses NaN
        raise PiquetError(f"the book margin must be 0 or more standard errors, not {book_margin}")
    check_score(score, rules)
    return setup


def _ranking(
    state: _Leaders, result: PassResult, book: int | None, book_margin: float
) -> tuple[tuple[Ranked, ...], str, dict[str, Any]]:
    """Every discard, best first: those played out by their values (the book's first
    unless beaten by ``book_margin``), then the rest by the declaration pass's estimate
    mapped onto the played scale, never above a played one.  Returns the ranking, the
    note on the book's discard and its figures."""
    played, value, err, leaders = state.played, state.value, state.err, state.leaders
    method_of = {d: ("exact" if d in leaders else "simulated") for d in played}
    ranked_played = sorted(
        (Ranked(CardSet(d), value[d], method_of[d], err[d]) for d in played),
        key=lambda r: (-r.value, r.discard.mask),
    )
    note, book_info = "", dict[str, Any]()
    if book is not None and book in leaders:
        n_book = len(played[book].exact)  # the pairing takes the fewer of the two
        ranked_played, note, book_info = _book_first(
            ranked_played, played, book, n_book, book_margin, state.chance, state.beta
        )
    est = result.value
    x_sim = [float(est[result.discards.index(d)]) for d in played]
    y_sim = [value[d] for d in played]
    floor = min(value.values())
    icpt, slope = _calibration(x_sim, y_sim)
    rest = []
    for i, d in enumerate(result.discards):
        if d in played:
            continue
        v = min(icpt + slope * float(est[i]), floor)
        if state.chance:
            v = min(max(v, 0.0), 1.0)
        rest.append(Ranked(CardSet(d), v, "estimated"))
    rest.sort(key=lambda r: (-r.value, r.discard.mask))
    return tuple(ranked_played + rest), note, book_info


def _explanations(
    setup: Setup, ranking: tuple[Ranked, ...], played: dict[int, _Played], *,
    opponent: OpponentModel, score: tuple[int, int] | None, stock: int | None, samples: int,
    explain_top: int, explain_draws: int,
) -> tuple[Explanation, ...]:
    """The first ``explain_top`` discards explained, the pick against the runner-up."""
    runner = ranking[1] if len(ranking) > 1 else None

    def pass_decl(d: int) -> float | None:
        """The declarations' mean net over the worlds a discard was played in."""
        return _mean(played[d].decl) if d in played else None

    # the exact odds of the draw: always for the pick, for the others while the draws they
    # enumerate stay within the budget (a count, so the same hand gives the same advice)
    spent = 0
    with_odds = []
    for i, r in enumerate(ranking[:explain_top]):
        n_draws = comb(len(setup.unseen), r.discard.mask.bit_count())
        with_odds.append(i == 0 or spent + n_draws <= explain_draws)
        spent += n_draws if with_odds[-1] else 0
    return tuple(
        explain(
            setup,
            r.discard.mask,
            ranked=r,
            opponent=opponent,
            score=score,
            stock=stock,
            versus=None if i else runner,
            decl=pass_decl(r.discard.mask),
            decl_versus=pass_decl(runner.discard.mask) if runner is not None and not i else None,
            deals=samples if r.discard.mask in played else 0,
            odds=with_odds[i],
        )
        for i, r in enumerate(ranking[:explain_top])
    )
