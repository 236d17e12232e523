"""The tool runtime: validation, timeouts, retries, idempotency receipts, the gate."""
