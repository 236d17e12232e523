"""The wire contract between the orchestrator (or any MCP client) and the dialstack server.

One definition, imported by both sides: the request/result ``_meta`` keys and the
session-id rule. Session ids are checked with full-match semantics (``re.fullmatch``), so
``"T\\n"`` is not ``"T"``: a pattern anchored with ``$`` would accept the trailing newline.
"""

from __future__ import annotations

import re
from typing import Any

SESSION_KEY = "dialstack/session"
IDEMPOTENCY_KEY = "dialstack/idempotency_key"
APPROVAL_KEY = "dialstack/approval"
SOURCE_KEY = "dialstack/source"

# result _meta
REPLAYED_KEY = "dialstack/replayed"
ERROR_KEY = "dialstack/error"
ERROR_CATEGORY_KEY = "dialstack/error_category"

SESSION_ID_RULE = "1-128 characters of ASCII letters, digits and ._:@-, starting with a letter or digit"
_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}", re.ASCII)
MAX_IDEMPOTENCY_KEY = 200


def is_session_id(value: Any) -> bool:
    """Whether ``value`` is a valid dialogue session id (the whole string, nothing trailing)."""
    return isinstance(value, str) and _SESSION_ID.fullmatch(value) is not None


def session_id_error(value: Any) -> str:
    """The one-line complaint about a bad session id: what was given and what is expected."""
    return f"session id {value!r} is not valid: use {SESSION_ID_RULE} (no spaces, no newline)"
