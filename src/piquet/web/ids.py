"""What every route of the browser's table shares about what it names: the pattern of an
id (a game's, a tally's, a challenge's), the path parameters, and the one bearer
dependency that reads a token (a seat's, a tally's, or a spectator key)."""

from __future__ import annotations

import re
from typing import Annotated, Final

from fastapi import Depends, Request
from fastapi import Path as PathParam
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

__all__ = [
    "ID_PATTERN",
    "ID_RE",
    "ChallengeId",
    "Creds",
    "GameId",
    "TallyId",
    "bearer",
    "client_of",
    "token_of",
]

ID_PATTERN: Final = r"^[A-Za-z0-9_-]{1,32}$"
"""Every id the server makes: letters, digits, ``-`` and ``_``, 32 at most."""
ID_RE: Final = re.compile(ID_PATTERN)

bearer: Final = HTTPBearer(
    auto_error=False,
    description="The token: a seat's (or a tally's), or a game's spectator key.",
)
Creds = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
GameId = Annotated[str, PathParam(pattern=ID_PATTERN, description="The game's id.")]
TallyId = Annotated[str, PathParam(pattern=ID_PATTERN, description="The tally's id.")]
ChallengeId = Annotated[str, PathParam(pattern=ID_PATTERN, description="The challenge.")]


def token_of(creds: HTTPAuthorizationCredentials | None) -> str | None:
    """The token sent, or None."""
    return creds.credentials if creds is not None else None


def client_of(request: Request) -> str:
    """The client's address (a trusted proxy's ``X-Forwarded-For`` already applied), ``-``
    if unknown: whose quota a job counts against, and what the login and registration
    throttles count."""
    return request.client.host if request.client is not None else "-"
