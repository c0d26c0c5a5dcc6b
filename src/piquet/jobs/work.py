"""What a job worker runs: the computer's move, the advisor's hint, a deal's analysis.

Each task is named by ``"module:function"`` (:data:`MOVE`, :data:`HINT`, :data:`ANALYSIS`)
and imported in the worker, never in the web process: the players, the advisor and the
analysis load the compiled core and numpy, which a web process does without
(:mod:`piquet.jobs`).  Arguments and results travel pickled; a view is a
:class:`~piquet.core.match.MatchView`, a seat's own view only.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable
from typing import Any, Final

from piquet.core.match import MatchView

__all__ = [
    "ANALYSIS",
    "COACH_ADVICE",
    "COACH_JUDGED",
    "HINT",
    "MOVE",
    "WARM",
    "analyse_deal",
    "ask_advisor",
    "choose_action",
    "coach_advice",
    "coach_judged",
    "resolve",
    "warm",
]

MOVE: Final = "piquet.jobs.work:choose_action"
HINT: Final = "piquet.jobs.work:ask_advisor"
ANALYSIS: Final = "piquet.jobs.work:analyse_deal"
WARM: Final = "piquet.jobs.work:warm"


def resolve(task: str) -> Callable[..., Any]:
    """The function a task names (``"module:function"``); imported where it runs."""
    module, _, name = task.partition(":")
    if not module or not name:
        raise ValueError(f"a task is named module:function, not {task!r}")
    fn: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return fn


def warm() -> bool:
    """Import the levels and the advisor once (a worker does it as it starts, so that the
    first move does not wait for the imports)."""
    import piquet.advisor
    import piquet.players  # noqa: F401

    return True


def choose_action(level: str, seed: int, think_ms: int | None, view: MatchView) -> str:
    """The id of the action the AI ``level`` takes from ``view``."""
    from piquet.players import make_player

    return str(make_player(level, seed=seed, think_ms=think_ms).choose(view))


def ask_advisor(view: MatchView, level: str = "expert", nodes: int | None = None) -> str:
    """The advisor's hint for ``view``, phrased for a ``learner`` or an ``expert`` (the
    empty text where the advisor has nothing to say); ``nodes``: its exact search's
    positions (None: its own)."""
    from piquet.advisor import hint

    return str(hint(view, level="learner" if level == "learner" else "expert", nodes=nodes))


def _analysis_seed(game_seed: int, deal: int) -> int:
    digest = hashlib.sha256(f"piquet-analysis:{game_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def analyse_deal(
    rules: str,
    fmt: str,
    seed: int,
    games_to_play: int,
    n_seats: int,
    history: list[tuple[int, str]],
    number: int,
    think_ms: int,
    samples: int,
    verify: int,
    budget: int | None = None,
    nodes: int | None = None,
) -> str:
    """The analysis of deal ``number`` (1-based) of a stored game, as JSON text.

    ``history`` is the game's log up to (at least) that deal's end; ``think_ms``,
    ``samples``, ``verify``, ``budget`` and ``nodes`` how hard the analysis works
    (:class:`piquet.web.analysis.AnalysisSettings`).
    """
    from piquet.core.actions import parse_action
    from piquet.core.match import new_match
    from piquet.core.rules import get_rules
    from piquet.review.deal import ANALYSIS_VERSION, finished_deals, review_deal

    first = new_match(
        rules, seed=seed, format=fmt, games=games_to_play,
        names=[f"seat {i}" for i in range(n_seats)],
    )
    actions = [(p, parse_action(a)) for p, a in history]
    fd = next((d for d in finished_deals(first, actions) if d.number == number), None)
    if fd is None:  # a deal that dealing ended: nobody chose anything in it
        return json.dumps({
            "version": ANALYSIS_VERSION,
            "number": number,
            "note": "this deal ended as it was dealt (a carte blanche reached the target): "
                    "there was no choice to analyse",
        })
    body = review_deal(fd, get_rules(rules), seed=_analysis_seed(seed, number),
                       think_ms=think_ms, samples=samples, verify=verify, budget=budget,
                       nodes=nodes)
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


COACH_ADVICE: Final = "piquet.jobs.work:coach_advice"
COACH_JUDGED: Final = "piquet.jobs.work:coach_judged"


def coach_advice(
    view: MatchView, level: str = "learner", nodes: int | None = None
) -> tuple[str, Any]:
    """The guided deal's coach: the advisor's hint at ``view``
    (:func:`piquet.learn.coach.advise`; ``nodes``: its exact search's positions)."""
    from piquet.learn.coach import advise

    return advise(view, "expert" if level == "expert" else "learner", nodes)


def coach_judged(args: dict[str, Any]) -> tuple[float, float, int] | None:
    """The guided deal's coach: what a choice cost (:func:`piquet.learn.coach.judged` of
    :meth:`~piquet.learn.coach.Coach.judging`'s arguments)."""
    from piquet.learn.coach import judged

    a = dict(args)
    return judged(a.pop("deal"), a.pop("rules"), a.pop("suggested"), a.pop("action"), **a)
