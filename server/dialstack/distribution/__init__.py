"""Distribution artefacts built from a domain pack: skill zips and MCP Bundles (``.mcpb``).

Builders read a loaded :class:`~dialstack.domain.DomainPack` and write files; they never
start a server. ``dialstack pack`` is their command line.
"""
