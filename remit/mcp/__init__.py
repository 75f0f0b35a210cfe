"""Let any MCP client play the agent's role: one trial served over the Model Context Protocol.

``remit mcp serve --scenario ID --mode MODE`` (or ``python -m remit.mcp``) starts a
stdio MCP server, built with the official ``mcp`` SDK, whose tools are the agent's
tools in one trial. The buyer's opening and the personas' replies come back in the
tool results; the trial is scored, and stored as a one-trial run, when the client calls
``end``, when the trial ends on its own, or when the client disconnects.

Example:
    >>> from remit.mcp import mcp_serve
    >>> mcp_serve("discount-exception", "dual_control", db="runs.db")  # doctest: +SKIP
"""

from __future__ import annotations

from remit.mcp.recording import DRIVER_KEY, MCP_AGENT_ID, record_trial
from remit.mcp.server import (
    BRIEFING_TOOL,
    SERVER_NAME,
    McpOutcome,
    McpTrial,
    mcp_serve,
    serve_stdio,
)
from remit.mcp.session import SessionStateError, TrialSession
from remit.mcp.target import SUITE_PATH_KEY, McpTarget, UnknownTargetError, resolve_target
from remit.mcp.turns import BriefingReport, TurnReport

__all__ = [
    "BRIEFING_TOOL",
    "DRIVER_KEY",
    "MCP_AGENT_ID",
    "SERVER_NAME",
    "SUITE_PATH_KEY",
    "BriefingReport",
    "McpOutcome",
    "McpTarget",
    "McpTrial",
    "SessionStateError",
    "TrialSession",
    "TurnReport",
    "UnknownTargetError",
    "mcp_serve",
    "record_trial",
    "resolve_target",
    "serve_stdio",
]
