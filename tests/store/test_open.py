"""Where the database lives and how it is opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialstack.store import DB_ENV, InMemoryStore, StoreError, default_db_path, open_store

from .conftest import record


def test_dialstack_db_overrides_the_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DB_ENV, str(tmp_path / "mine.db"))
    assert default_db_path() == tmp_path / "mine.db"
    with open_store() as store:
        store.ensure_session("s", "travel")
    assert (tmp_path / "mine.db").exists()


def test_the_default_path_is_in_the_user_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DB_ENV, raising=False)
    path = default_db_path()
    assert path.name == "dialstack.db" and "dialstack" in path.parent.as_posix()


def test_open_store_creates_missing_folders(tmp_path: Path) -> None:
    with open_store(tmp_path / "a" / "b" / "x.db") as store:
        assert store.list_sessions() == []


def test_open_store_without_create_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no database at"):
        open_store(tmp_path / "missing.db", create=False)


def test_in_memory_stores_are_independent() -> None:
    first, second = InMemoryStore(), InMemoryStore()
    first.ensure_session("s", "travel")
    first.commit_turn("s", record({"x": 1}))
    assert second.list_sessions() == [] and first.load_state("s") == {"x": 1}
