"""The host-side orchestrator: turn loop, understanding, policy executor, responses."""
