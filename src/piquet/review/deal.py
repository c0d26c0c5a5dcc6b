"""After the deal: where each side gained or lost points against the strongest AI's choice.

Once a deal is over every card's place is public, so its decisions can be judged with the
true hands (as a chess program reviews a finished game).  :func:`review_deal` looks at
three parts of one finished deal:

- **the exchange**: the advisor's best discard for each side's twelve dealt cards (from
  what that side knew: its hand, the rule set, how many cards elder left) against the
  discard made, both valued by the advisor, and the difference *verified* by playing the
  two discards out in the same simulated deals (:func:`piquet.advisor.compare`);
- **sinks and answers**: every decision of the declarations where the strongest AI
  (``expert``, from the same seat's view) chose otherwise; both choices are then valued in
  this very deal: the dialog finished truthfully by both sides, then the twelve tricks
  solved exactly with both hands open (:mod:`piquet.fast.solver`, points of the deal);
- **the play**: every card whose double-dummy value (the points of the deal from there
  on, both hands open, best play by both after it) fell below that of the best card.

Values are points of the deal from the side of the player who decided: ``loss`` is what
the choice made cost against the better one (negative: it did better).  ``losses`` gives,
for each side and part, what was given away: the positive losses summed for the exchange
and the play (each card's drop is from the position its own card left), the costliest
one alone for the declarations (each choice is valued alone, with the rest of the deal as
it was, so two of them may count the same points); a choice that did better than the
AI's is listed, not netted.  The advisor is
called through one function, :func:`exchange_advice`; everything else is the engine.
:func:`finished_deals` cuts a match's log into its deals.  Nothing here is for a deal
still being played: a deal's hands are its players' secret until it is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from piquet.core.actions import PLAY, Action, Answer, Declare, Discard, Pass, Play, Question
from piquet.core.cards import CardSet
from piquet.core.deal import ELDER, ROLE_NAMES, YOUNGER, Deal, Phase
from piquet.core.declarations import DeclClass, claims, statement
from piquet.core.errors import PiquetError
from piquet.core.match import Match
from piquet.core.rules import Rules
from piquet.core.view import deal_view
from piquet.fast.solver import Solver, play_state
from piquet.learn.words import card_name
from piquet.review.version import ANALYSIS_VERSION

__all__ = [
    "ANALYSIS_VERSION",
    "FinishedDeal",
    "describe",
    "declaration_words",
    "exchange_advice",
    "exchange_words",
    "finished_deals",
    "play_words",
    "review_deal",
]

STRONGEST: Final = "expert"
"""The AI level whose choices the declarations are judged against."""
EXPERT_THINK_MS: Final = 200
ADVICE_SAMPLES: Final = 40
ADVICE_EXACT: Final = 32
VERIFY_SAMPLES: Final = 48  # deals played out whole, the double-dummy play both sides
# (the settings of analysis version 3 were 500 ms, 160 and 200 deals: a three-deal game
# took about a minute on two cores; bench/bench_review.py measures both and how often
# their verdicts agree)


@dataclass(frozen=True, slots=True)
class FinishedDeal:
    """One finished deal of a match: where its log starts, its states, its players."""

    number: int
    """The deal's place in the match (1 for the first)."""
    game: int
    start: int
    """Index in the match's log of the deal's first action."""
    players: tuple[int, int]
    """(elder player, younger player)."""
    before: tuple[Match, ...]
    """The match before each of the deal's actions."""
    actions: tuple[tuple[int, Action], ...]
    """(player, action) for each of the deal's actions."""
    end: Deal
    """The deal as it ended."""

    def deal_before(self, i: int) -> Deal:
        d = self.before[i].deal
        assert d is not None
        return d


def finished_deals(first: Match, history: Sequence[tuple[int, Action]]) -> list[FinishedDeal]:
    """The deals of ``first`` moved on by ``history`` that are over, in order.

    ``first`` is the match before any action (the same seed, rules and format).  A deal
    still being played at the end of ``history`` is not returned, nor one that dealing
    ended (it has no action); each deal's ``number`` is its place in the match all the same.  Raises
    :class:`~piquet.core.errors.IllegalActionError` if the history does not replay.
    """
    out: list[FinishedDeal] = []
    m = first
    before: list[Match] = []
    acts: list[tuple[int, Action]] = []
    start = 0
    for idx, (player, action) in enumerate(history):
        d = m.deal
        assert d is not None
        if not acts:
            start = idx
        before.append(m)
        acts.append((player, action))
        after = d.apply(action)
        players = (m.player_of(ELDER), m.player_of(YOUNGER))
        game = m.game_number
        # its place among the match's deals, counting a deal that dealing ended (a carte
        # blanche shown as it is dealt reaching the target), which has no action to review
        number = len(m.deals) + 1
        m = m.apply(action, player)
        if after.is_over:
            out.append(
                FinishedDeal(
                    number=number,
                    game=game,
                    start=start,
                    players=players,
                    before=tuple(before),
                    actions=tuple(acts),
                    end=after,
                )
            )
            before, acts = [], []
    return out


# ---------------------------------------------------------------------- words
_REPLIES: Final = {"good": "Good", "not-good": "Not good", "equal": "Equal", "making": "Making?"}


def describe(action: Action, deal: Deal, rules: Rules) -> str:
    """An action of the declarations in the players' words ("Point of five", "Not good")."""
    if isinstance(action, Declare):
        role = deal.to_act if deal.to_act is not None else ELDER
        for claim in claims(deal.hands[role], action.cls, rules):
            if claim.cards == action.cards.mask:
                text = statement(claim, rules, full=False)
                return text[:1].upper() + text[1:]
        return f"{action.cls.label} {action.cards}"
    if isinstance(action, Pass):
        return "Pass (declare nothing)"
    if isinstance(action, Answer):
        return _REPLIES.get(action.reply.value, action.reply.value)
    if isinstance(action, Question):
        return "Which one did you lay out?" if action.ask else "No question"
    return str(action)


def _kind(action: Action, deal: Deal, rules: Rules) -> str:
    """``sink`` (declaring less than one's best, or nothing), ``answer``, or ``declare``."""
    if isinstance(action, Answer):
        return "answer"
    role = deal.to_act if deal.to_act is not None else ELDER
    if isinstance(action, Pass):
        held = deal.cls < 3 and bool(claims(deal.hands[role], DeclClass(deal.cls), rules))
        return "sink" if held else "pass"
    if isinstance(action, Declare):
        best = max((c.key for c in claims(deal.hands[role], action.cls, rules)), default=None)
        mine = next(
            (c.key for c in claims(deal.hands[role], action.cls, rules)
             if c.cards == action.cards.mask),
            None,
        )
        return "sink" if best is not None and mine is not None and mine < best else "declare"
    return "other"


# ---------------------------------------------------------------------- the advisor
def exchange_advice(
    dealt: int,
    made: int,
    rules: Rules,
    *,
    role: int,
    stock: int | None,
    seed: int,
    samples: int = ADVICE_SAMPLES,
    verify: int = VERIFY_SAMPLES,
    budget: int | None = None,
    nodes: int | None = None,
) -> dict[str, Any]:
    """The advisor's best discard of ``dealt`` against the discard ``made``, valued and
    verified in the same simulated deals.  The one place this module calls the advisor.
    ``budget``: the draws its first pass values each discard size in (None: the
    advisor's own, every draw of a hand dealt by the rules); ``nodes``: the positions its
    exact search may visit in all, the close calls' included (None: the advisor's own,
    :data:`~piquet.advisor.ranking.TOTAL_NODES`; each of its other limits is held to it).

    Raises :class:`~piquet.core.errors.PiquetError` when the advisor cannot value the hand
    (a rule set or a discard it does not know).
    """
    from piquet.advisor import advise
    from piquet.advisor import verify as play_out
    from piquet.advisor.explain import Z95
    from piquet.advisor.ranking import node_limits
    from piquet.advisor.verify import paired
    from piquet.analysis.drawtables import DEFAULT_BUDGET

    # no explanation (its draws cost a second and the review says why in its own words);
    # fewer exact worlds than a hint's: the discard made is then played out against it
    total, exact, settle = node_limits(nodes)
    advice = advise(
        dealt, rules, role=role, stock=stock, seed=seed, samples=samples, explain_top=0,
        exact=ADVICE_EXACT, budget=DEFAULT_BUDGET if budget is None else budget,
        total_nodes=total, exact_nodes=exact, settle_nodes=settle,
    )
    ranked = {r.discard.mask: r for r in advice.ranking}
    best = advice.ranking[0]
    mine = ranked.get(made)
    out: dict[str, Any] = {
        "unit": advice.unit,
        "best": [str(c) for c in best.discard],
        "best_value": round(best.value, 2),
        "best_method": best.method,
        "made_value": None if mine is None else round(mine.value, 2),
        "made_method": None if mine is None else mine.method,
        "rank": None
        if mine is None
        else next(i for i, r in enumerate(advice.ranking, 1) if r.discard.mask == made),
        "of": len(advice.ranking),
        "verified": None,
    }
    if made != best.discard.mask and verify > 0:
        # both played out in the same deals (the book's exchange for the other, in this
        # process: the review already runs in a worker)
        v = play_out(
            dealt, [best.discard.mask, made], rules, role=role, deals=max(verify, 2),
            seed=seed, stock=stock, opponent="book", workers=1,
        )
        diff, low, high = paired(v.get(best.discard.mask).nets, v.get(made).nets)
        out["verified"] = {
            "difference": round(diff, 2),
            "stderr": round((high - low) / (2 * Z95), 2),
            "samples": max(verify, 2),
        }
    return out


# ---------------------------------------------------------------------- the review
def _truthful_end(d: Deal, rules: Rules) -> Deal:
    """``d`` with the dialog finished truthfully by both (elder's first lead by the book
    where the declarations wait for it): a deal in its play, or over."""
    from piquet.players.book import book_lead
    from piquet.players.common import truthful_declaration

    for _ in range(80):
        if d.is_over:
            return d
        seat = d.to_act
        assert seat is not None
        if d.phase is Phase.PLAY:
            if not (seat == ELDER and not d.tricks and d.trick_lead is None and d.deferred):
                return d
            legal = [a.card.index for a in d.legal_actions() if isinstance(a, Play)]
            card = book_lead(legal, d.hands[seat], d.hands[1 - seat], 0)
            d = d.apply(PLAY[card])
        elif d.phase is Phase.DECLARE:
            d = d.apply(truthful_declaration(deal_view(d, seat), rules))
        else:
            d = d.apply(d.legal_actions()[0])
    return d


def _line_value(d: Deal, rules: Rules, solver: Solver) -> int:
    """Elder's points minus younger's in the whole deal, from ``d`` on: the dialog finished
    truthfully, then the play solved exactly."""
    d = _truthful_end(d, rules)
    e, y = d.scores
    if d.is_over:
        return e - y
    v = solver.value(play_state(d))
    assert v is not None
    return e - y + v


def _side(value: int, role: int) -> int:
    return value if role == ELDER else -value


def review_deal(
    fd: FinishedDeal,
    rules: Rules,
    *,
    seed: int,
    exchange: bool = True,
    declarations: bool = True,
    think_ms: int = EXPERT_THINK_MS,
    samples: int = ADVICE_SAMPLES,
    verify: int = VERIFY_SAMPLES,
    budget: int | None = None,
    nodes: int | None = None,
) -> dict[str, Any]:
    """The analysis of one finished deal, JSON-ready (see the module's docstring).

    ``seed`` fixes the advisor's samples and the AI's choices; ``think_ms`` is the
    expert's budget, ``samples`` and ``verify`` the advisor's simulated deals, ``budget``
    its first pass's draws and ``nodes`` its exact search's positions (see
    :func:`exchange_advice`).
    """
    end = fd.end
    solver = Solver(rules)
    out: dict[str, Any] = {
        "version": ANALYSIS_VERSION,
        "number": fd.number,
        "game": fd.game,
        "start": fd.start,
        "steps": len(fd.actions),
        "players": {"elder": fd.players[ELDER], "younger": fd.players[YOUNGER]},
        "hands": {
            ROLE_NAMES[r]: {
                "dealt": [str(c) for c in CardSet(end.dealt[r])],
                "discards": [str(c) for c in CardSet(end.discards[r])],
                "taken": [str(c) for c in CardSet(end.taken[r])],
            }
            for r in (ELDER, YOUNGER)
        },
        "points": {"elder": end.scores[ELDER], "younger": end.scores[YOUNGER]},
        # none when the game was won before the play (so there is no play to speak of)
        "cards_played": 2 * len(end.tricks) + (end.trick_lead is not None),
        "exchange": [],
        "declarations": [],
        "play": [],
        "curve": [],
    }
    loss = {"elder": {"exchange": 0.0, "declarations": 0, "play": 0},
            "younger": {"exchange": 0.0, "declarations": 0, "play": 0}}
    # the two sides' exchanges are valued at once, one a thread (the solver lets go of the
    # interpreter while it searches, so the two use both cores); each has its own seed,
    # so the figures are those of one after the other
    advised: dict[int, Future[dict[str, Any]]] = {}
    pool = ThreadPoolExecutor(max_workers=2) if exchange else None
    try:
        for i, (_player, action) in enumerate(fd.actions):
            d = fd.deal_before(i)
            if pool is not None and isinstance(action, Discard) and d.phase is Phase.EXCHANGE:
                r = d.to_act
                assert r is not None
                advised[i] = pool.submit(
                    exchange_advice, d.dealt[r], action.cards.mask, rules, role=r,
                    stock=len(d.stock) if r == YOUNGER else None, seed=seed * 7 + r,
                    samples=samples, verify=verify, budget=budget, nodes=nodes,
                )
        _review_steps(fd, rules, out, loss, advised, declarations=declarations,
                      exchange=exchange, seed=seed, think_ms=think_ms, solver=solver)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    out["losses"] = {
        r: {k: round(v, 2) if isinstance(v, float) else v for k, v in parts.items()}
        for r, parts in loss.items()
    }
    return out


def _review_steps(
    fd: FinishedDeal,
    rules: Rules,
    out: dict[str, Any],
    loss: dict[str, dict[str, Any]],
    advised: dict[int, Future[dict[str, Any]]],
    *,
    declarations: bool,
    exchange: bool,
    seed: int,
    think_ms: int,
    solver: Solver,
) -> None:
    """:func:`review_deal`'s walk through the deal's decisions, filling ``out``."""
    curve: list[dict[str, Any]] = out["curve"]
    expert = None
    for i, (player, action) in enumerate(fd.actions):
        d = fd.deal_before(i)
        role = d.to_act
        if role is None:
            continue
        who = ROLE_NAMES[role]
        step = fd.start + i
        if not curve and d.phase is not Phase.EXCHANGE and i > 0:
            # where the deal stood once the cards were exchanged (the first point)
            _point(curve, step - 1, None, "the exchange done", _line_value(d, rules, solver))
        if isinstance(action, Discard) and d.phase is Phase.EXCHANGE and exchange:
            entry: dict[str, Any] = {
                "step": step,
                "role": who,
                "player": player,
                "dealt": [str(c) for c in CardSet(d.dealt[role])],
                "made": [str(c) for c in action.cards],
            }
            try:
                entry.update(advised[i].result())
            except PiquetError as exc:
                entry["error"] = f"the advisor cannot value this exchange: {exc}"
            # the verified difference (the same deals for both discards) when there is one
            if entry.get("verified"):
                entry["loss"] = entry["verified"]["difference"]
            elif entry.get("made_value") is not None:
                entry["loss"] = round(entry["best_value"] - entry["made_value"], 2)
            if entry.get("loss") is not None:
                loss[who]["exchange"] += max(0.0, entry["loss"])
            entry["say"] = exchange_words(entry)
            out["exchange"].append(entry)
        elif d.phase is Phase.DECLARE and declarations and len(d.legal_actions()) > 1:
            if expert is None:
                from piquet.players import make_player

                expert = make_player(STRONGEST, seed=seed, think_ms=think_ms)
            choice = expert.choose(fd.before[i].view(player))
            after = _line_value(d.apply(action), rules, solver)
            _point(curve, step, who, describe(action, d, rules), after)
            if choice == action:
                continue
            made_v = _side(after, role)
            ai_v = _side(_line_value(d.apply(choice), rules, solver), role)
            decl = {
                "step": step,
                "role": who,
                "player": player,
                "class": None if d.cls >= 3 else _class_label(d.cls),
                "kind": _kind(action, d, rules),
                "made": describe(action, d, rules),
                "expert": describe(choice, d, rules),
                "made_value": made_v,
                "expert_value": ai_v,
                "loss": ai_v - made_v,
            }
            decl["say"] = declaration_words(decl)
            out["declarations"].append(decl)
            # each choice is valued alone, the rest of the deal as it was: two answers that
            # would each have changed the same points are not added, the costliest stands
            loss[who]["declarations"] = max(loss[who]["declarations"], ai_v - made_v)
        elif isinstance(action, Play) and d.phase is Phase.PLAY:
            vals = solver.move_values(play_state(d))
            if not vals:
                continue
            best_v = max(vals.values())
            mine = vals.get(action.card.index, best_v)
            e, y = d.scores
            _point(curve, step, who, f"played {card_name(action.card.index)}",
                   e - y + _side(mine, role))
            if mine < best_v:
                best = sorted(c for c, v in vals.items() if v == best_v)
                drop = {
                    "step": step,
                    "role": who,
                    "player": player,
                    "trick": len(d.tricks) + 1,
                    "card": str(action.card),
                    "value": mine,
                    "best": [str(CardSet(1 << c)) for c in best],
                    "best_value": best_v,
                    "drop": best_v - mine,
                }
                drop["say"] = play_words(drop, best)
                out["play"].append(drop)
                loss[who]["play"] += best_v - mine


def _class_label(cls: int) -> str:
    return DeclClass(cls).label


# ---------------------------------------------------------------------- the curve and the words
def _point(curve: list[dict[str, Any]], step: int, who: str | None, what: str,
           margin: int) -> None:
    """One point of the deal's curve: after the decision at ``step`` (by ``who``: elder,
    younger, or None for the exchange as a whole), elder's points less younger's in the
    whole deal with best play by both from there on, both hands open."""
    curve.append({"step": step, "role": who, "what": what, "margin": margin})


def _pts(x: float) -> str:
    v = round(x, 1)
    if v == int(v):
        v = int(v)
    return f"{v} point{'' if abs(v) == 1 else 's'}"


def _names(codes: Sequence[str]) -> str:
    from piquet.core.cards import Card

    names = [card_name(Card.parse(c).index) for c in codes]
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def exchange_words(entry: dict[str, Any]) -> str:
    """What a newcomer reads of one side's exchange: the discard made, the advisor's, and
    what the difference was worth, in points of the deal."""
    if entry.get("error"):
        return str(entry["error"])
    made, best = entry["made"], entry["best"]
    if sorted(made) == sorted(best):
        return (f"Discarded {_names(made)}: the same cards as the advisor would, who "
                f"weighs every possible discard over many deals that fit this hand.")
    text = f"Discarded {_names(made)}. The advisor would have discarded {_names(best)}."
    loss = entry.get("loss")
    v = entry.get("verified")
    if v:
        if loss is not None and loss > 0.5:
            text += (f" Both discards were played out in the same {v['samples']} deals from "
                     f"this hand: the advisor's scores about {_pts(loss)} a deal more "
                     f"(points won less points given; give or take {v['stderr']}).")
        elif loss is not None and loss < -0.5:
            text += (f" Yet played out in the same {v['samples']} deals, the discard made did "
                     f"better by about {_pts(-loss)} a deal: the advisor's ranking is an "
                     "estimate, and here it was wrong.")
        else:
            text += (f" Played out in the same {v['samples']} deals, the two come to about "
                     "the same.")
    elif loss is not None and loss > 0.5:
        text += f" By its estimate the discard made is worth about {_pts(loss)} a deal less."
    return text


_KINDS: Final = {"sink": "sank (declared less than was held)", "answer": "answered",
                 "declare": "said", "pass": "passed"}


def declaration_words(entry: dict[str, Any]) -> str:
    """One choice of the declarations where the expert would have said otherwise: both
    choices valued in this very deal (its cards known, both then playing their best)."""
    how = _KINDS.get(entry["kind"], "said")
    loss = entry["loss"]
    text = (f"{how[:1].upper()}{how[1:]}: “{entry['made']}”. The expert would say "
            f"“{entry['expert']}”.")
    if loss > 0:
        return text + (f" With the cards as they lay, that would have given {_pts(loss)} "
                       "more in this deal (your points less the other's, both then playing "
                       "their best).")
    if loss < 0:
        return text + (f" Here the choice made did better, by {_pts(-loss)}: with other cards "
                       "behind the other's hand the expert's choice is usually the safer.")
    return text + " In this deal it made no difference to the score."


def play_words(entry: dict[str, Any], best: Sequence[int]) -> str:
    """One card that gave points away, with the better one and what it would have kept."""
    better = " or ".join(card_name(c) for c in best[:3]) + (" (or another)" if len(best) > 3
                                                             else "")
    return (f"Trick {entry['trick']}: played {_names([entry['card']])}; {better} was "
            f"better. With every card known and best play by both from there, it would "
            f"have kept {_pts(entry['drop'])} more by the end of the deal.")
