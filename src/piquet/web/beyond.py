"""Beyond the table: the analysis after the deal, the lobby, the spectator link.

:func:`add_beyond` includes their routers in the app (:func:`piquet.web.app.create_app`
calls it); each lives in its own module (:mod:`piquet.web.analysis`,
:mod:`piquet.web.lobby`, :mod:`piquet.web.watch`) with its own table (migration 0004).
"""

from __future__ import annotations

from fastapi import FastAPI

from piquet.web.server import Server

__all__ = ["add_beyond"]


def add_beyond(app: FastAPI, state: Server) -> None:
    """Include the analysis, lobby and spectator routes; ``state`` is the app's parts
    (games, store, hub, executor), filled at start-up."""
    from piquet.web import analysis, lobby, watch

    app.include_router(analysis.router)
    app.include_router(lobby.router)  # new challenges: the server's create_per_minute
    app.include_router(watch.router)  # the spectator link
