"""Per-suit declaration tables, and the exact declaration pass over every draw.

A hand's declarations are decided suit by suit: the point is the best suit's
point, the sequences are runs inside one suit, and the sets add up rank
counts across the suits.  So every quantity the pass needs is a lookup in a
table of the 512 possible holdings of one suit (the engine's own
:data:`~piquet.core.declarations.SUIT_COUNT`, ``SUIT_PIPS`` and ``SUIT_RUNS``),
combined across the four suits by ``max`` or ``+``.

:func:`declaration_pass` uses this to value every legal discard of a hand over
every possible draw from the cards the player has not seen: for elder under a
32-card rule set, 1,585 discards and 14,941,023 final hands.  The work is done
with numpy on whole arrays: for each suit and each way the discard leaves that
suit, one row of per-draw values; a discard is then four rows combined.  Where
the number of hands would exceed a budget (the 36-card packs, where elder may
take eight), a uniform sample of draws is used instead and the result says so.

Codes (small integers that order like the engine's claim keys) and what a claim counts
are the leaf rules of :mod:`piquet.analysis.drawtables.codes`, shared with the batch scorer.
"""

from piquet.analysis.drawtables.declpass import PassResult, declaration_pass
from piquet.analysis.drawtables.tables import (
    DEFAULT_BUDGET,
    Draws,
    HandStats,
    OpponentModel,
    SuitTables,
    claim_codes,
    cross_suit_sequences,
    discard_masks,
    draws,
    hand_stats,
    split_table,
    suit_tables,
)

__all__ = [
    "DEFAULT_BUDGET",
    "Draws",
    "HandStats",
    "OpponentModel",
    "PassResult",
    "SuitTables",
    "claim_codes",
    "cross_suit_sequences",
    "split_table",
    "declaration_pass",
    "discard_masks",
    "draws",
    "hand_stats",
    "suit_tables",
]
