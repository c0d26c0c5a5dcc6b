"""After the deal (layer 4, above the players and the advisor): the analysis of a
finished deal (:mod:`~piquet.review.deal`, run in the job workers: its solver is compiled
code), and, light enough for a web process, the analysis's version
(:mod:`~piquet.review.version`) and a game's curve drawn from stored analyses
(:mod:`~piquet.review.curve`).

Nothing is imported here, so the light modules stay light.
"""
