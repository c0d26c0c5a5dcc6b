"""Tournaments between AI levels: mirrored deals, so that the luck of the cards cancels.

A tournament of ``pairs`` plays each seeded pack twice: first A is elder and B
younger, then the same cards with the seats swapped.  The measure is the mean
of A's points minus B's per deal, with a 95% confidence interval over the
pairs (the pairs are independent; the two deals of a pair are not).  With
``games=True`` it also plays mirrored whole games (or parties, as the rule set
plays by default) from the same seeds, and counts who won them.

:func:`match_tournament` (``piquet tournament --format game|partie|pool``) plays
whole matches instead, in mirrored pairs (one seed, A in one seat and then in the
other: the same deals with the seats swapped), and measures what the format is
played for: a partie's settlement, games won and the lurch, a pool's stakes.

Every player is made afresh for each deal from a seed derived from the
tournament's seed and the deal's number, so the result does not depend on how
the work is spread: local processes (``workers``) or a Ray cluster give the
same numbers for the same seed.  Local workers end with the process that
started them, however it ends (:mod:`piquet.util.workers`).

A :func:`ladder` plays every pair of levels and fits Bradley-Terry ratings on
an Elo scale (``random`` at 0) with 95% intervals: on first deals won, or (``format``)
on whole games or parties won, as the web's ratings count them (:mod:`piquet.levels.scale`).

The package's modules: :mod:`~piquet.tournament.pairs` (one deal, one match, the pairs of
deals), :mod:`~piquet.tournament.matches` (whole matches), :mod:`~piquet.tournament.ladders`
(the ladder and its ratings); every name is re-exported here.
"""

from piquet.tournament.ladders import (
    LadderResult,
    fit_ratings,
    ladder,
    ladder_figure,
    measurable,
    on_glicko_scale,
    plot_ladder,
)
from piquet.tournament.matches import (
    FORMAT_WORDS,
    MatchOutcome,
    MatchPair,
    MatchTournamentResult,
    Measure,
    format_of,
    match_seed,
    match_tournament,
    summarize_matches,
    third_seat,
)
from piquet.tournament.pairs import (
    PairOutcome,
    Progress,
    TournamentResult,
    deal_match,
    deal_pack,
    mean_ci,
    play_deal,
    play_match,
    run_pairs,
    summarize,
    t975,
    tournament,
)

__all__ = [
    "FORMAT_WORDS",
    "LadderResult",
    "MatchOutcome",
    "MatchPair",
    "MatchTournamentResult",
    "Measure",
    "PairOutcome",
    "Progress",
    "TournamentResult",
    "deal_match",
    "deal_pack",
    "fit_ratings",
    "format_of",
    "ladder",
    "ladder_figure",
    "match_seed",
    "match_tournament",
    "mean_ci",
    "measurable",
    "on_glicko_scale",
    "play_deal",
    "play_match",
    "plot_ladder",
    "run_pairs",
    "summarize",
    "summarize_matches",
    "t975",
    "third_seat",
    "tournament",
]
