"""Who a caller is: the OS user of a stdio connection, or the principal an HTTP bearer token maps to.

A token file holds one entry a line (``#`` starts a comment):

- ``TOKEN`` -- the token of the server's own user (``--user``, default the OS user);
- ``PRINCIPAL TOKEN`` -- a token of ``PRINCIPAL``.

Tokens are at least 16 characters; a principal follows the session-id rule
(:data:`dialstack.tools.wire.SESSION_ID_RULE`). Nothing here imports the MCP SDK, so
``dialstack serve`` refuses a bad file or bind before loading it.
"""

from __future__ import annotations

import getpass
from pathlib import Path

from ..tools.wire import SESSION_ID_RULE, is_session_id

PRINCIPAL_SCOPE_KEY = "dialstack.principal"  # the ASGI scope key the bearer-token check fills
MIN_TOKEN = 16


class TokenFileError(Exception):
    """A token file that cannot be used; the message names the file, the line and the fix."""


def os_user() -> str:
    """The OS user running this process: the default principal of stdio connections."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry (some containers) and no LOGNAME/USER
        return "default"


def check_principal(name: str, where: str) -> str:
    if not is_session_id(name):
        raise TokenFileError(f"{where}: principal {name!r} is not valid: use {SESSION_ID_RULE}")
    return name


def read_tokens(path: Path, default_principal: str) -> dict[str, str]:
    """``{token: principal}`` from a token file (see the module docstring)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TokenFileError(f"cannot read --token-file {path}: {exc.strerror}") from exc
    tokens: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{path}:{number}"
        parts = line.split()
        if len(parts) > 2:
            raise TokenFileError(f"{where}: expected TOKEN or PRINCIPAL TOKEN, found {len(parts)} words")
        principal, token = (default_principal, parts[0]) if len(parts) == 1 else (check_principal(parts[0], where), parts[1])
        if len(token) < MIN_TOKEN:
            raise TokenFileError(f"{where}: the token is {len(token)} characters long; use at least {MIN_TOKEN} random characters")
        if token in tokens:
            raise TokenFileError(f"{where}: this token is already listed for {tokens[token]!r}; every token names one principal")
        tokens[token] = principal
    if not tokens:
        raise TokenFileError(f"{path} holds no token: write one token (or PRINCIPAL TOKEN) a line")
    return tokens
