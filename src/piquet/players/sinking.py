"""Sinking: declaring less than one holds, where what it hides is worth the points it risks.

A declaration tells the other what one holds: "point of five" names a long suit, a tierce
three cards in sequence, a trio three cards of a rank.  The levels that read the dialog
(every search level: :func:`piquet.analysis.sampling.dialog.dialog_weight`) then draw their worlds
to fit it, and play the cards accordingly; a holding *sunk* (passed, or declared as a
lesser claim) is believed with the weight :data:`~piquet.analysis.sampling.draw.SINK_WEIGHT` only,
so they play as if it were not there.

The points a sink gives up are measured in drawn whole deals (:func:`choose_sink`): each
option is finished truthfully and valued as the reference values declarations (the points
counted, the play estimated open-handed); the same deals for every option, so the
difference is the points (and pique or repique) the sink gives up, little noise.  What
the sink hides is not valued in these deals (the open-handed play reads nothing); it is
a fixed allowance, ``allowance`` points a sink (:data:`HIDE_ALLOWANCE`).  The role sinks
when the expected points given up are smaller than the allowance: in practice when its
holding very likely loses the class anyway (elder's point of four against younger's
likely five, a trio against a likely quatorze), so that declaring it would only tell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from piquet.analysis.sampling import SamplingError, World, world_deal
from piquet.core.actions import Action, Declare, Pass
from piquet.core.deal import Deal
from piquet.core.rules import Rules
from piquet.core.view import DealView

__all__ = ["HIDE_ALLOWANCE", "SINK_WORLDS", "SinkChoice", "choose_sink", "sink_options"]

#: Points a sink is credited for what it hides (the measured variants use 0.5 to 2).
HIDE_ALLOWANCE: Final = 1.0
#: Whole deals a declaration decision draws, whatever the budget (the values are cheap).
SINK_WORLDS: Final = 32


def sink_options(view: DealView, default: Action, *, sizes: int | None = None) -> list[Action]:
    """The sinks of a truthful declaration ``default``: passing, and the largest lesser
    claim (fewer cards) of the class of each size, the largest first, at most ``sizes`` of
    them (None: every size); nothing if ``default`` declares nothing."""
    if not isinstance(default, Declare):
        return []
    legal = view.legal_actions
    out: list[Action] = []
    if Pass() in legal:
        out.append(Pass())
    n = default.cards.mask.bit_count()
    smaller = [a for a in legal if isinstance(a, Declare) and a.cards.mask.bit_count() < n]
    # the largest lesser claim of each size (one per size: they tell the same length)
    by_size: dict[int, Declare] = {}
    for a in smaller:
        k = a.cards.mask.bit_count()
        if k not in by_size:
            by_size[k] = a
    out.extend(by_size[k] for k in sorted(by_size, reverse=True)[:sizes])
    return out


@dataclass(frozen=True, slots=True)
class SinkChoice:
    """The declaration chosen, and what the best sink would give up (points, mean)."""

    action: Action
    cost: float | None
    """Points the best sink gives up against declaring all (None: no sink was valued)."""
    sank: bool


def choose_sink(
    view: DealView,
    rules: Rules,
    default: Action,
    worlds: Sequence[World],
    value: Callable[[Deal], float],
    *,
    allowance: float = HIDE_ALLOWANCE,
) -> SinkChoice:
    """Declare ``default`` or sink (see the module docstring).

    ``value(deal)`` is this role's value of a whole deal after the option is applied
    (finished truthfully); ``worlds`` are the drawn worlds, weighed.
    """
    options = sink_options(view, default)
    if not options:
        return SinkChoice(default, None, False)
    deals: list[tuple[Deal, float]] = []
    for w in worlds:
        try:
            deals.append((world_deal(view, rules, w), w.weight))
        except SamplingError:
            continue
    wsum = sum(w for _, w in deals)
    if not deals or wsum <= 0:
        return SinkChoice(default, None, False)

    def mean(a: Action) -> float:
        return sum(w * value(d.apply(a)) for d, w in deals) / wsum

    base = mean(default)
    best: Action = default
    best_cost: float | None = None
    for a in options:
        cost = base - mean(a)
        if best_cost is None or cost < best_cost - 1e-9:
            best_cost = cost
            best = a
    if best_cost is not None and best_cost < allowance:
        return SinkChoice(best, best_cost, True)
    return SinkChoice(default, best_cost, False)
