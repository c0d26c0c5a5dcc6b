"""Keep the score of a game played with real cards.

At a real table the players deal and play with their own pack; the program
is told what happened, one entry at a time, and keeps the score under their
rule set with the engine itself.  A :class:`TallySession` is immutable: each
:meth:`TallySession.enter` returns the session after one more entry, or
raises an error (of the :class:`~piquet.core.errors.PiquetError` tree) saying what
the rule set forbids, and the session is unchanged.

The entries, in the order of a deal (``help`` lists them)::

    dealer Anne                  who deals (at the start of each game; then the deal alternates)
    elder AS KS QS ...           the twelve cards dealt to each player
    younger 7H 8H ...
    blanche 3                    carte blanche, and how many he will lay out
    discard 7C 8C take QH JD     lay out and take in (the cards taken, top of the stock first)
    take QH JD                   the cards taken, when the engine asks for them later
    point AH KH QH JH            declarations: point, sequence, set, pass
    good / not good / equal / making / ask / no question
    look / decline / name QH / appoint QS   the stock's leftovers
    QH KH                        cards played, in order (one or several per line)
    false claim elder            a mistake of the table and its text's penalty (see below)
    undo                         take back the last entry

Any entry may start with ``elder:``, ``younger:`` or a player's name; it is
then refused unless that player is to act (so a second discard is caught).
The engine needs a pack in order: it is built from the hands and the cards
taken in (the stock's unknown cards in any order), and rebuilt and replayed
whenever an entry tells more.  :meth:`TallySession.to_record` is the game as
JSON (the entries and the settled result); :meth:`TallySession.from_record`
replays it.

A real table makes mistakes the engine refuses, and the texts say what they cost
(:mod:`piquet.core.penalties`; the rule set's knobs ``false_claim``, ``unshown_claim``,
``call_correction``, ``renounce_taken_back`` hold each text's passage):

    false claim elder            he counted what he does not hold, found out (in the deal,
                                 or after it before the next deal's cards are entered)
    not shown elder point        he played a card without showing the point (or sequence,
                                 set) he counted
    renounce elder               he played out of suit holding the suit led, and took the
                                 card back (recorded; the score is unchanged)
    correct younger point        he takes back what he said in that class, before his first
                                 card, and the class is entered again (where the text lets
                                 a word be recalled)

The deal enters as it was truly held and said (a false claim as the claim he really
had, or a pass); the penalty's count replaces the engine's when the deal is settled.
"""

from piquet.tally.session import HELP, TallySession, help_text, new_tally, result_text
from piquet.tally.words import in_words

__all__ = ["HELP", "TallySession", "help_text", "in_words", "new_tally", "result_text"]
