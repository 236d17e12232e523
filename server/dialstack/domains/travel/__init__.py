"""The travel domain: a deterministic flight database, its tool handlers and its four slot types."""
