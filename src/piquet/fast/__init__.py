"""The compiled fast path: whole deals of every rule set in numba, for search, simulation
and research.  See ``docs/architecture.md`` ("The fast path") and ``docs/integrations.md``."""

from piquet.fast.engine import (
    FastDeal,
    Playouts,
    actions_of,
    play_deal,
    playout,
    random_deals,
    trace_of,
)
from piquet.fast.params import compile_rules

__all__ = [
    "FastDeal",
    "Playouts",
    "actions_of",
    "compile_rules",
    "play_deal",
    "playout",
    "random_deals",
    "trace_of",
]
