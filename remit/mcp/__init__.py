"""Let any MCP client play the agent's role: a whole run served over the Model Context Protocol.

``remit mcp serve --suite SUITE --modes MODES --trials N`` (or ``python -m remit.mcp``)
starts an MCP server, built with the official ``mcp`` SDK, on stdio or, with ``--http
127.0.0.1:PORT``, on streamable HTTP. Its tools are the agent's tools; the client plays
the run's trials one after another (``remit_briefing`` first, ``remit_next_trial`` after
each trial), the buyer's opening and the personas' replies come back in the tool
results, and the trials are scored and stored as one run, named after the client
(``mcp:NAME@VERSION``). ``--scenario ID --mode MODE`` serves one trial.

Example:
    >>> from remit.mcp import mcp_serve
    >>> mcp_serve(suite_spec="handwritten", modes="dual_control", db="runs.db")  # doctest: +SKIP
"""

from __future__ import annotations

from remit.mcp.recording import DRIVER_KEY, MCP_AGENT_ID, McpClient, RunRecorder
from remit.mcp.run import BRIEFING_TOOL, NEXT_TRIAL_TOOL, McpOutcome, RunSession
from remit.mcp.server import (
    HTTP_PATH,
    SERVER_NAME,
    HttpAddress,
    McpServer,
    RemoteAddressError,
    mcp_serve,
    parse_http_address,
    serve_http,
    serve_stdio,
    to_stderr,
)
from remit.mcp.session import SessionStateError, TrialSession
from remit.mcp.target import (
    DEFAULT_MODES,
    SUITE_PATH_KEY,
    McpTarget,
    PlannedTrial,
    UnknownTargetError,
    resolve_target,
)
from remit.mcp.turns import (
    BriefingReport,
    ModeTally,
    Refusal,
    RefusalCode,
    RefusalError,
    RefusalReport,
    RunSummary,
    TrialPosition,
    TrialVerdict,
    TurnReport,
)

__all__ = [
    "BRIEFING_TOOL",
    "DEFAULT_MODES",
    "DRIVER_KEY",
    "HTTP_PATH",
    "MCP_AGENT_ID",
    "NEXT_TRIAL_TOOL",
    "SERVER_NAME",
    "SUITE_PATH_KEY",
    "BriefingReport",
    "HttpAddress",
    "McpClient",
    "McpOutcome",
    "McpServer",
    "McpTarget",
    "ModeTally",
    "PlannedTrial",
    "Refusal",
    "RefusalCode",
    "RefusalError",
    "RefusalReport",
    "RemoteAddressError",
    "RunRecorder",
    "RunSession",
    "RunSummary",
    "SessionStateError",
    "TrialPosition",
    "TrialSession",
    "TrialVerdict",
    "TurnReport",
    "UnknownTargetError",
    "mcp_serve",
    "parse_http_address",
    "resolve_target",
    "serve_http",
    "serve_stdio",
    "to_stderr",
]
