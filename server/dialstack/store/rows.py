"""Where a turn row sits (schema v5): its id is its line's key and its turn number.

A line's key (``lines.key``) is unique in the whole file; the row of turn N on that line
has the id ``key << 32 | N``. So the turns table's own b-tree finds a turn, and a line's
turns are one range of ids: no index beside the table.
"""

from __future__ import annotations

TURN_BITS = 32  # a turn row's id: its line's key above these bits, its turn number in them
LAST_TURN = (1 << TURN_BITS) - 1


def turn_id(line_key: int, turn: int) -> int:
    """The id of the row of ``turn`` on the line whose key is ``line_key``."""
    return line_key << TURN_BITS | turn


def turn_number(row_id: int) -> int:
    return row_id & LAST_TURN


# the turn rows of one session (the ``?``): each of its lines' id range, read in the table's own b-tree
SESSION_TURNS = "lines l JOIN turns t ON t.id > l.key << 32 AND t.id <= (l.key << 32) | 4294967295 WHERE l.session_id = ?"

# the id of the last turn committed on a session's head line since its heads row (``h``) was
# written; NULL when none was
_LAST_SINCE_HEAD_ROW = (
    "(SELECT t.id FROM turns t WHERE t.id > (h.key << 32) | h.turn AND t.id <= (h.key << 32) | 4294967295 "
    "ORDER BY t.id DESC LIMIT 1)"
)
# a session's head (``history.head_of`` reads them): its heads row's line, key, turn and version, and that id
HEAD_COLUMNS = f"h.line, h.key, h.turn, h.version, {_LAST_SINCE_HEAD_ROW}"
# a session's head turn; NULL when it has no turn yet
HEAD_TURN = f"COALESCE({_LAST_SINCE_HEAD_ROW} & 4294967295, h.turn)"
