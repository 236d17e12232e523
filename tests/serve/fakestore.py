"""A minimal in-memory Store for the server tests, used only until ``dialstack.store.memory`` lands."""

from __future__ import annotations

import threading
import time
from typing import Any

from dialstack.store.protocol import Receipt, ScratchpadEntry, TurnRecord, TurnRow


class FakeStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.sessions: dict[str, dict[str, Any]] = {}
        self.states: dict[str, dict[str, Any]] = {}
        self._turns: dict[str, list[TurnRow]] = {}
        self._pad: dict[str, list[ScratchpadEntry]] = {}
        self._prefs: dict[str, dict[str, Any]] = {}
        self._audit: dict[str, list[dict[str, Any]]] = {}
        self._receipts: dict[str, Receipt] = {}
        self._kinds: dict[str, frozenset[str]] = {}

    def ensure_session(self, session_id: str, domain: str, user_id: str = "default") -> None:
        with self._lock:
            self.sessions.setdefault(session_id, {"session_id": session_id, "domain": domain, "user_id": user_id, "created_at": time.time()})

    def session_info(self, session_id: str) -> dict[str, Any] | None:
        return self.sessions.get(session_id)

    def load_state(self, session_id: str) -> dict[str, Any] | None:
        return self.states.get(session_id)

    def commit_turn(self, session_id: str, record: TurnRecord) -> int:
        with self._lock:
            rows = self._turns.setdefault(session_id, [])
            rows.append(TurnRow(session_id, len(rows) + 1, record.user_text, record.reply, time.time(), [], record.frame, record.meta, 0))
            self.states[session_id] = record.state
            return len(rows)

    def turns(self, session_id: str, last: int | None = None) -> list[TurnRow]:
        rows = self._turns.get(session_id, [])
        return rows[-last:] if last else list(rows)

    def scratchpad(self, session_id: str, last: int | None = None) -> list[ScratchpadEntry]:
        rows = self._pad.get(session_id, [])
        return rows[-last:] if last else list(rows)

    def write_scratchpad(self, session_id: str, key: str, text: str, source: str) -> ScratchpadEntry:
        with self._lock:
            rows = self._pad.setdefault(session_id, [])
            entry = ScratchpadEntry(session_id, len(rows) + 1, key, text, source, time.time())
            rows.append(entry)
            return entry

    def preferences(self, user_id: str) -> dict[str, Any]:
        return dict(self._prefs.get(user_id, {}))

    def set_preferences(self, user_id: str, values: dict[str, Any]) -> dict[str, Any]:
        self._prefs.setdefault(user_id, {}).update(values)
        return dict(self._prefs[user_id])

    def audit(self, session_id: str, entry: dict[str, Any]) -> None:
        with self._lock:
            self._audit.setdefault(session_id, []).append(dict(entry))

    def audit_log(self, session_id: str) -> list[dict[str, Any]]:
        return list(self._audit.get(session_id, []))

    def receipt(self, key: str) -> Receipt | None:
        return self._receipts.get(key)

    def save_receipt(self, receipt: Receipt) -> None:
        self._receipts[receipt.key] = receipt

    def context_kinds(self, session_id: str) -> frozenset[str]:
        return self._kinds.get(session_id, frozenset())

    def add_context_kinds(self, session_id: str, kinds: frozenset[str]) -> None:
        with self._lock:
            self._kinds[session_id] = self._kinds.get(session_id, frozenset()) | kinds

    def close(self) -> None:
        pass
