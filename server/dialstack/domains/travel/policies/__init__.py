"""The travel domain's policy overrides, one module per intent (see dialstack.agent.policies)."""
