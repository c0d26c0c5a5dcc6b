"""Analysis over the rules (layer 2, beneath the players): the odds of the draw
(:mod:`~piquet.analysis.odds`), the batch scorer of many deals at once
(:mod:`~piquet.analysis.batch`, :mod:`~piquet.analysis.handscore`) and the Glicko-2
ratings of people's games (:mod:`~piquet.analysis.ratings`).

Nothing is imported here, so a web process may import a light module of the package
(the ratings) without the others (numpy).
"""
