"""The OpenAPI description says what the server does: the answers every route may give.

Some answers come from in front of the routes, whatever the route: the rate limit
(``429``, with ``Retry-After``), the body limit (``413``), an unreadable request (``422``),
the database or the connection cap failing (``503``, with ``Retry-After``).  FastAPI lists
only what a route declares itself, so :func:`complete_schema` adds these to every route of
the API, once, when the description is first built; ``tests/test_web_schema_agreement.py``
checks over every route that each answer the server gives is one its description lists,
and that the description accepts exactly the inputs the server accepts.

A state-changing request that carries the login cookie without its CSRF token is refused
(``403``) before any route reads it (:func:`piquet.web.accounts.csrf_refusal`, checked by
:class:`piquet.web.limits.Guards`), so every ``POST`` and ``DELETE`` of the API lists
``403`` too (but the login and the registration, which need no token).

Whole numbers: JSON Schema counts ``14.0`` as an integer, so the server does too
(:data:`WholeNumber`): the description and the server never disagree on it.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, Final

from fastapi import FastAPI
from pydantic import BeforeValidator, Field, StrictInt

__all__ = ["WHOLE", "Count", "WholeNumber", "complete_schema"]


def _whole(value: Any) -> Any:
    """A JSON number with no fraction (``14`` or ``14.0``) as an ``int``; anything else is
    left for the strict check to refuse (a string, a bool, ``14.5``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


WHOLE: Final = BeforeValidator(_whole)
"""Put last in an integer field's ``Annotated`` (after its bounds, so that the description
states them): ``Annotated[StrictInt, Field(ge=0), WHOLE]``."""

WholeNumber = Annotated[StrictInt, WHOLE]
"""An integer field as JSON Schema reads ``"type": "integer"``: ``14`` and ``14.0`` are
the same number; ``"14"``, ``true`` and ``14.5`` are refused."""

Count = Annotated[StrictInt, Field(ge=0), WHOLE]
"""A whole number, 0 or more (a log's length)."""

_ERROR: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"error": {"type": "string", "description": "What was wrong, and what "
                             "is allowed."}},
    "required": ["error"],
}
_RETRY: Final[dict[str, Any]] = {
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer"},
    }
}
_CSRF: Final = (
    "403",
    "The request carries the login cookie but not its CSRF token (the header "
    "X-CSRF-Token): refused, nothing changed.",
)
_NO_SESSION_YET: Final = frozenset({"/api/account/login", "/api/account/register"})
_EVERYWHERE: Final[dict[str, tuple[str, bool]]] = {
    "413": ("The request body is too large.", False),
    "422": ("The request is not one this route reads (its fields, types or sizes).",
            False),
    "429": ("Too many requests from this address: slow down.", True),
    "503": ("The server cannot serve now: its database fails, or it has as many "
            "connections as it takes.  The error says which, in plain words.", True),
}


def _complete(spec: dict[str, Any]) -> None:
    for path, operations in spec.get("paths", {}).items():
        if not path.startswith("/api"):
            continue
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            if method not in ("get", "head", "options") and path not in _NO_SESSION_YET:
                code, words = _CSRF
                responses.setdefault(code, {
                    "description": words,
                    "content": {"application/json": {"schema": copy.deepcopy(_ERROR)}},
                })
            reads = bool(operation.get("parameters") or operation.get("requestBody"))
            for code, (words, retry) in _EVERYWHERE.items():
                if code == "422" and not reads:
                    continue  # nothing to read, nothing unreadable
                answer = responses.get(code)
                if answer is None:
                    answer = responses[code] = {
                        "description": words,
                        "content": {"application/json": {"schema": copy.deepcopy(_ERROR)}},
                    }
                if retry:
                    answer.setdefault("headers", copy.deepcopy(_RETRY))


def complete_schema(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI description list the answers every API route may give."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        done = app.openapi_schema is not None
        spec = build()
        if not done:
            _complete(spec)
        return spec

    app.openapi = openapi  # type: ignore[method-assign]
