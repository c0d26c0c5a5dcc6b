"""The core of the game: cards, rules and their sources, claims, actions, facts and
their words, the deal and its view, scoring, the match and its records (``notation``).

Nothing here imports anything outside this package.  Analysis and the AI
(``piquet.analysis.odds``, ``piquet.analysis.sampling``, ``piquet.fast.solver``, ``piquet.players``,
``piquet.advisor``, ...) are built on it, and the interfaces (``piquet.cli``,
``piquet.tui``, ``piquet.web``, ``piquet.integrations``) on top of those.
"""
