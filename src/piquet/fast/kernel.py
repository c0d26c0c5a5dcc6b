"""The compiled deal kernel: a whole deal of any rule set, played by a policy, in C.

A private fast board (hands and stock as card masks, the tally as a few integers) that
plays one deal from a pack to its end (or to the moment the game's target is reached) and
writes down:

- the **trace**: every choice made, as ``(code, value)`` rows (the ``A_*`` codes below),
  which :func:`piquet.fast.engine.actions_of` turns back into the public engine's actions;
- the **events**: every score event, ``(role, kind, points)`` in counting order (kinds
  in the order of :class:`piquet.core.scoring.Kind`), pique and repique included.

It is a second implementation of :mod:`piquet.core.transitions` read from the parameter
vector of :mod:`piquet.fast.params` (it never reads a rule's wording), compiled ahead of
time in ``src/piquet/native/kernel.h`` (its leaf rules, shared with the solver and the
batch environment, in ``rules.h``), and it is checked against the engine by
``tests/test_fast_differential.py`` and ``bench/bench_fast.py --diff``: the same packs and
the same choices give the same events and scores.

The choices come from a policy (:data:`~piquet.fast.policies.RANDOM`: uniform over the
legal choices; :data:`~piquet.fast.policies.BOOK`: the rules of thumb of
:mod:`piquet.players.book`), drawn from a seeded xorshift generator (``rng``, one
``uint64``), so a deal is a function of its pack, policy and seed.

The functions (arrays are numpy int64 unless said; ``rng`` a one-element uint64 array):

- ``play_deal(p, deck, start0, start1, target, policy, rng, tr, ev, fz, nfz, stop, info)``:
  one deal; returns ``(n_trace, n_events, elder_points, younger_points, reached)``
  (``reached``: the role that reached ``target``, else -1; ``target`` 0: none).  The first
  ``nfz`` choices are the rows of ``fz`` (a determinized world's history), then the
  policy's.  With ``stop`` the deal stops at the first card after them
  (``info[I_STATUS]`` = :data:`STOPPED`, ``info`` says who is to play, what he may play and
  what he knows); a forced choice that is not allowed stops it with :data:`BAD_CHOICE`.
- ``run_deal(p, deck, start0, start1, target, policy, rng, tr, ev, fz, nfz, stop, info, tl,
  res, held, deferred, ps)``: the same on a board the caller keeps (the tally ``tl``, the
  classes decided ``res``, the play counts ``held`` back, younger's ``deferred``
  declarations, the play state ``ps``), so that a stopped deal goes on with
- ``resume(p, policy, rng, tl, ev, held, res, deferred, ps, tr, info, card)``: the seat to
  play plays ``card`` (one of ``info[I_ALLOWED]``), then the policy up to the next card.
- ``shuffle_pack(p, rng, deck)``; ``play_deals(p, n, policy, rng, totals)`` (``n`` random
  deals, the points added to ``totals``, returns the number of events);
  ``playouts(p, deck, start0, start1, target, policy, rng, fz, nfz, n, out)`` (``n``
  play-outs of one world: ``out`` += points, reached counts; -1 if a forced choice is not
  allowed, else 0).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from piquet.native import load

__all__ = ["MAX_EVENTS", "MAX_TRACE", "play_deal", "play_deals", "playouts", "resume",
           "run_deal", "shuffle_pack"]

_native = load()

# choice codes of the trace
A_DEAL, A_BLANCHE, A_DISCARD, A_LEFTOVER, A_NAME_SUIT, A_NAME_CARD = 0, 1, 2, 3, 4, 5
A_APPOINT_SUIT, A_APPOINT_CARD, A_DECLARE, A_PASS, A_ANSWER, A_QUESTION, A_PLAY = (
    6, 7, 8, 9, 10, 11, 12)
# answers
R_GOOD, R_NOT_GOOD, R_EQUAL, R_MAKING = 0, 1, 2, 3
# event kinds, in the order of piquet.core.scoring.Kind
K_BLANCHE, K_POINT, K_SEQUENCES, K_SETS, K_LEAD, K_TRICK, K_LAST, K_CARDS, K_CAPOT = range(9)
K_REPIQUE, K_PIQUE = 9, 10

MAX_CLAIMS: Final = 64
MAX_EVENTS: Final = 64
MAX_TRACE: Final = 96

# the tally: slots of a small int64 array
T0, T1, T_OPEN, T_REACHED, T_NEV, T_START0, T_START1, T_TARGET, T_COMMITTED, T_NHELD = range(10)
T_NTR, T_FI, T_STOP = 10, 11, 12
T_SIZE: Final = 16
# the info array of a stopped deal (see play_deal)
I_STATUS, I_SEAT, I_ALLOWED, I_LEAD, I_HAND, I_PLAYED, I_WON, I_TRICK, I_DISCARDS = range(9)
I_SCORE0, I_SCORE1 = 9, 10
I_SIZE: Final = 12
# the play state (the ps array of run_deal and resume): hands and discards (masks, by role),
# the cards played, the trick (0-11; 12 when played out), its half (0: the lead to play),
# the card led, who leads, the tricks elder won, the named lead (kind 1 a suit, 2 a card;
# its value), how many of younger's declarations wait for the lead, the pack's mask
PS_HAND, PS_DISC, PS_PLAYED, PS_TRICK, PS_HALF, PS_LED, PS_LEADER, PS_WON0 = 0, 2, 4, 5, 6, 7, 8, 9
PS_LEAD_KIND, PS_LEAD_VAL, PS_NDEF, PS_FULL = 10, 11, 12, 13
PS_SIZE: Final = 16
MAX_HELD: Final = 40
STOPPED, BAD_CHOICE = 1, -1
NO_CHOICES: Final = np.zeros((1, 2), dtype=np.int64)  # no forced choices (read only)
NO_CHOICES.setflags(write=False)

# the layout is the compiled code's (kernel.h): checked once, here
for _name, _value in _native.LAYOUT.items():
    if globals().get(_name, _value) != _value:
        raise ImportError(f"piquet.fast.kernel.{_name} is {globals()[_name]}, "
                          f"the compiled kernel's is {_value}")

play_deal = _native.play_deal
run_deal = _native.run_deal
resume = _native.resume
shuffle_pack = _native.shuffle_pack
play_deals = _native.play_deals
playouts = _native.playouts
