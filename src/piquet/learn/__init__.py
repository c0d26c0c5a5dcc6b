"""Teaching Piquet: the glossary, the lessons, the exercises ("puzzles"), the coach and
the words of feedback, transport-free, so the browser and the terminal share them.

- :mod:`piquet.learn.glossary`: every period term, a plain definition, an example, and how
  each text uses it;
- :mod:`piquet.learn.lessons`: short lessons as data, each ending in questions the engine
  answers (:mod:`piquet.learn.lesson` holds the types and the checking);
- :mod:`piquet.learn.puzzles`: positions from real deals where one choice is clearly
  better, judged by the solver (:mod:`piquet.learn.judge`), shipped as a data file made by
  ``scripts/make-puzzles``;
- :mod:`piquet.learn.coach`: what a player should think about now, in plain words;
- :mod:`piquet.learn.feedback`: each class said with why it was won, a declaration's count
  as the sum it is, a game's review with the biggest mistakes first.

See ``docs/learn.md``.
"""
