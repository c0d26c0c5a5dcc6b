"""Adapters that make Piquet a game for research frameworks.

* :mod:`piquet.integrations.actions`: one fixed numbering of every action
  (cards, discards card by card, declaring and answering, sinking) and the
  :class:`~piquet.integrations.actions.Episode` those ids drive.
* :mod:`piquet.integrations.observation`: information-state and observation
  strings and tensors, built from a seat's view alone.
* :mod:`piquet.integrations.openspiel`: registers ``python_piquet`` with
  OpenSpiel (``pip install piquet[openspiel]``).
* :mod:`piquet.integrations.pettingzoo`: a PettingZoo AEC environment
  (``pip install piquet[pettingzoo]``).

The first two need only the core; the adapters import their framework.
"""

from __future__ import annotations

__all__: list[str] = []
