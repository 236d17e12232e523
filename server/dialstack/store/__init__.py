"""Persistence behind one protocol (``Store``); SQLite is the embedded default."""
