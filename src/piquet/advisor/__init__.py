"""The discard advisor: every legal discard ranked, the best explained, the advice verified.

One module per job:

- :mod:`piquet.advisor.deals`: the question (hand, role, rule set) and the
  worlds of unseen cards every candidate is played in;
- :mod:`piquet.advisor.ranking`: :func:`advise`, every legal discard ranked
  (the exact declaration pass, then the most promising discards played out,
  the leaders exactly);
- :mod:`piquet.advisor.playout`: one whole deal through the engine, the
  strongest play both sides;
- :mod:`piquet.advisor.verify`: :func:`verify`, candidates played out over the
  same deals with paired 95% intervals (``piquet advise --verify``);
- :mod:`piquet.advisor.game`: the chance of the game from a score;
- :mod:`piquet.advisor.explain`: why, in the period books' terms;
- :mod:`piquet.advisor.hints`: :func:`hint`, one line for a table (terminal
  and browser).

No rule is counted here: the declarations and the play are counted by the
engine (:class:`~piquet.core.deal.Deal`, :class:`~piquet.core.scoring.Tally`,
:mod:`piquet.core.declarations`) and played by the players and the solver; the
book's discard is :func:`piquet.players.common.book_discard`.
"""

from piquet.advisor.deals import Setup
from piquet.advisor.explain import Explanation
from piquet.advisor.hints import hint
from piquet.advisor.playout import DEFAULT_THINK_MS, Outcome, play_out
from piquet.advisor.ranking import (
    BOOK_MARGIN,
    DEFAULT_CANDIDATES,
    DEFAULT_EXACT,
    DEFAULT_REFINE,
    DEFAULT_SAMPLES,
    Advice,
    Ranked,
    advise,
)
from piquet.advisor.verify import DEFAULT_DEALS, Verification, Verified, verify

__all__ = [
    "BOOK_MARGIN",
    "DEFAULT_CANDIDATES",
    "DEFAULT_DEALS",
    "DEFAULT_EXACT",
    "DEFAULT_REFINE",
    "DEFAULT_SAMPLES",
    "DEFAULT_THINK_MS",
    "Advice",
    "Explanation",
    "Outcome",
    "Ranked",
    "Setup",
    "Verification",
    "Verified",
    "advise",
    "hint",
    "play_out",
    "verify",
]
