"""The MCP server: a run's trials, served to one external client over stdio or HTTP.

``remit mcp serve`` (and ``python -m remit.mcp``) lets any MCP-speaking agent play the
agent's role in a whole run, trial after trial, built with the official ``mcp`` SDK's
low-level :class:`mcp.server.lowlevel.Server`, over its stdio transport or its
streamable HTTP transport (served by ``uvicorn``, which comes with the SDK).

What the client sees:

- ``tools/list``: every tool of the world's agent surface
  (:func:`remit.world.tool_specs`), each with its JSON Schema as ``inputSchema`` (none
  takes arguments it does not declare: ``additionalProperties: false``), plus
  :data:`BRIEFING_TOOL` and :data:`NEXT_TRIAL_TOOL`, which take no arguments and are no
  steps of a trial;
- ``tools/call``: see :class:`~remit.mcp.RunSession`; every result is one JSON document
  (text content and structured content): a :class:`~remit.mcp.TurnReport`, a
  :class:`~remit.mcp.BriefingReport`, a :class:`~remit.mcp.RunSummary`, or a
  :class:`~remit.mcp.RefusalReport` with ``isError`` set (as is a world tool's
  structured error); the session goes on after either;
- the server's ``instructions`` say to call the briefing tool first and the next-trial
  tool after each trial.

Each trial is scored and stored when it ends; the run is stored as one run, named after
the client (``mcp:NAME@VERSION``). Over stdio, the session ends when the client closes
stdin; over HTTP, once the server has answered ``remit_next_trial`` with the complete
run's summary (a client may reconnect in between). On SIGTERM, SIGHUP or SIGINT the
client has abandoned the run: a trial in play is ended as ``agent_error``, stored, the
run marked ended, the verdict and run lines said, and the process leaves at once with
status 128 + the signal's number. Nothing but the MCP channel is written to stdout.

Example:
    >>> target = resolve_target(scenarios=["discount-exception"], modes="dual_control")
    >>> outcome = serve_stdio(target, store=store)                     # doctest: +SKIP
    >>> outcome.run_id, outcome.summary.passed                          # doctest: +SKIP
    ('r-20261129-153012-4f9c2a', 1)
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import cast

import anyio
import uvicorn
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from pydantic import BaseModel, ConfigDict, JsonValue

import remit
from remit.errors import RemitError
from remit.mcp.recording import McpClient
from remit.mcp.run import BRIEFING_TOOL, NEXT_TRIAL_TOOL, McpOutcome, RunSession
from remit.mcp.target import DEFAULT_MODES, McpTarget, resolve_target
from remit.mcp.turns import BriefingReport, RefusalReport, RunSummary, TurnReport
from remit.mcp.wire import CheckedStdin
from remit.store import Store
from remit.world import tool_specs
from remit.world.untrusted import shorten, visible

__all__ = ["BRIEFING_TOOL", "HTTP_PATH", "NEXT_TRIAL_TOOL", "SERVER_NAME", "HttpAddress",
           "McpServer",
           "RemoteAddressError", "mcp_serve", "parse_http_address", "serve_http",
           "serve_stdio", "to_stderr"]

_LOG = logging.getLogger(__name__)

SERVER_NAME = "remit"
"""The server's name in its ``initialize`` answer."""

HTTP_PATH = "/mcp"
"""Where the streamable HTTP endpoint is served."""

_SHUTDOWN_GRACE_SECONDS = 5
_CLIENT_NAME_CHARS = 100
_NO_ARGUMENTS: dict[str, JsonValue] = {"type": "object", "properties": {},
                                       "additionalProperties": False}
_BRIEFING_DESCRIPTION = (
    "Read the current trial's briefing: your role, the supplier's policy, who holds each "
    "action in this control mode, the quote id, the step budget, the buyer's opening "
    "message, and which trial of the run this is. Call it first; it is free (not a step).")
_NEXT_TRIAL_DESCRIPTION = (
    "Once a trial has ended (you called end, or its step budget ran out), start the next "
    "trial of the run: returns its briefing and the buyer's opening, as the briefing tool "
    "does, with run_complete false; after the last trial, returns the run's summary with "
    "run_complete true and the run id. Free (not a step).")
_INSTRUCTIONS = (
    "You play the supplier's quoting agent in a run of remit trials. Call {briefing} "
    "first: it returns your briefing and the buyer's opening message. Every other tool "
    "call is one step of the trial; its result is a JSON document with the tool's result, "
    "the messages other parties sent you, and whether the trial has ended. Finish each "
    "trial with the end tool, then call {next_trial} for the next trial's briefing, until "
    "it says run_complete.")


class McpServer:
    """A run served over MCP: the run session, the MCP server over it, its transports.

    Args:
        target: the suite, selection, modes, trials and seed to play.
        store: where to record the run; ``None`` scores without storing.
        say: where the verdict lines go (default: this package's logger, at INFO).

    Attributes:
        run: the run session.
        server: the MCP server (:meth:`serve_stdio` and :meth:`serve_http` serve it;
            another transport of the SDK may run it too, then call :meth:`close` when
            the client has gone).
    """

    def __init__(self, target: McpTarget, *, store: Store | None = None,
                 say: Callable[[str], None] | None = None) -> None:
        self._say = say if say is not None else _LOG.info
        self.run = RunSession(target, store=store, say=self._say)
        self._summarised = anyio.Event()
        self.server: Server = Server(
            SERVER_NAME, version=remit.__version__,
            instructions=_INSTRUCTIONS.format(briefing=BRIEFING_TOOL,
                                              next_trial=NEXT_TRIAL_TOOL),
            on_list_tools=self._list_tools, on_call_tool=self._call_tool)

    async def serve_stdio(self) -> McpOutcome:
        """Serve the run over stdin and stdout until the client disconnects.

        Each line the client writes is checked first (:class:`~remit.mcp.wire.CheckedStdin`):
        one that is no readable JSON-RPC message is answered with a JSON-RPC error, and
        lone surrogates are replaced before the SDK reads a line.

        Returns:
            The outcome: a trial in play when the client went away is ended and stored.
        """
        stdin = CheckedStdin(sys.stdin.buffer)
        async with anyio.create_task_group() as group:
            group.start_soon(self._close_on_signal)
            # The SDK takes any async iterable of lines as stdin (it only iterates it).
            async with stdio_server(stdin=cast("anyio.AsyncFile[str]", stdin)) as (
                    read_stream, write_stream):
                stdin.answer_with(write_stream.send)
                await self.server.run(read_stream, write_stream,
                                      self.server.create_initialization_options())
            group.cancel_scope.cancel()
        return self.close()

    async def serve_http(self, listener: socket.socket) -> McpOutcome:
        """Serve the run over streamable HTTP at :data:`HTTP_PATH` on ``listener`` (a
        bound, listening socket) until the complete run's summary has been given, or a
        signal stops the server.

        On a loopback address the SDK's DNS-rebinding protection is on (only
        ``127.0.0.1``, ``localhost`` and ``[::1]`` hosts and origins are accepted).
        """
        host = listener.getsockname()[0]
        app = self.server.streamable_http_app(streamable_http_path=HTTP_PATH, host=host)
        web = _Uvicorn(uvicorn.Config(app, log_config=None, log_level="warning",
                                      access_log=False, lifespan="on",
                                      timeout_graceful_shutdown=_SHUTDOWN_GRACE_SECONDS))
        async with anyio.create_task_group() as group:
            group.start_soon(self._close_on_signal)
            group.start_soon(self._stop_when_summarised, web)
            await web.serve(sockets=[listener])
            group.cancel_scope.cancel()
        return self.close()

    def close(self) -> McpOutcome:
        """The client has gone: finish the run (see :meth:`RunSession.close`)."""
        return self.run.close()

    async def _close_on_signal(self) -> None:
        """A client that goes away by killing its server (SIGTERM, SIGHUP) or an operator's
        Ctrl-C has abandoned the run as surely as one that closes stdin: store what was
        played, say how it went, then leave at once. Waiting for the transport to wind
        down could hang, since the thread reading stdin cannot be cancelled."""
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGHUP, signal.SIGINT) as got:
            async for signum in got:
                self._say(f"{signal.Signals(signum).name}: the client's session ends here")
                self.close()
                logging.shutdown()
                sys.stderr.flush()
                os._exit(128 + signum)

    async def _stop_when_summarised(self, web: uvicorn.Server) -> None:
        await self._summarised.wait()
        web.should_exit = True

    # -- the handlers ---------------------------------------------------------------------

    async def _list_tools(self, ctx: ServerRequestContext,
                          params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        remit_tools = [
            types.Tool(name=BRIEFING_TOOL, description=_BRIEFING_DESCRIPTION,
                       input_schema=dict(_NO_ARGUMENTS)),
            types.Tool(name=NEXT_TRIAL_TOOL, description=_NEXT_TRIAL_DESCRIPTION,
                       input_schema=dict(_NO_ARGUMENTS))]
        world = [types.Tool(name=spec.name, description=spec.description,
                            input_schema=dict(spec.parameters)) for spec in tool_specs()]
        return types.ListToolsResult(tools=[*remit_tools, *world])

    async def _call_tool(self, ctx: ServerRequestContext,
                         params: types.CallToolRequestParams) -> types.CallToolResult:
        # No await until the result is built: each call runs through the run whole.
        client = _client_of(ctx)
        if params.name == BRIEFING_TOOL:
            return _result(self.run.brief(client, params.arguments))
        if params.name == NEXT_TRIAL_TOOL:
            answer = self.run.next_trial(client, params.arguments)
            if isinstance(answer, RunSummary):
                self._summarised.set()
            if isinstance(answer, BriefingReport):
                return _result(answer, extra={"run_complete": False})
            return _result(answer)
        return _result(self.run.call(client, params.name, params.arguments))


class _Uvicorn(uvicorn.Server):
    """uvicorn, leaving the signals to the MCP server (which stores the run first)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def _client_of(ctx: ServerRequestContext) -> McpClient:
    """The client as it named itself; its name and version become the stored agent id, so
    they are cleaned and cut to :data:`_CLIENT_NAME_CHARS` characters."""
    client_params = ctx.session.client_params
    if client_params is None:
        return McpClient()
    info = client_params.client_info
    return McpClient(name=shorten(info.name, _CLIENT_NAME_CHARS) or None,
                     version=shorten(info.version, _CLIENT_NAME_CHARS) or None)


def _result(report: TurnReport | RefusalReport | BriefingReport | RunSummary, *,
            extra: dict[str, JsonValue] | None = None) -> types.CallToolResult:
    document = {**(extra or {}), **report.document()}
    is_error = isinstance(report, RefusalReport) or (
        isinstance(report, TurnReport) and not report.result.ok)
    text = types.TextContent(type="text", text=json.dumps(document, ensure_ascii=False,
                                                          separators=(",", ":")))
    return types.CallToolResult(content=[text], structured_content=document, is_error=is_error)


# -- the command ---------------------------------------------------------------------------

class RemoteAddressError(RemitError, ValueError):
    """An HTTP address that is not loopback, given without ``--allow-remote``."""


class HttpAddress(BaseModel):
    """Where to serve over HTTP (``--http HOST:PORT``).

    Attributes:
        host: an IP address or ``localhost``.
        port: the TCP port (0: any free port, said when the server starts).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str
    port: int

    @property
    def loopback(self) -> bool:
        """Whether the host is a loopback address (or ``localhost``)."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    def bind(self) -> socket.socket:
        """A socket bound to the address and listening.

        Raises:
            OSError: the address cannot be bound (in use, not this machine's).
        """
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        try:
            return socket.create_server((self.host, self.port), family=family)
        except OSError as exc:
            raise OSError(f"--http {self.host}:{self.port}: cannot listen there "
                          f"({exc.strerror or exc}); pick another port, or 0 for any free "
                          "one") from None


def parse_http_address(text: str, *, allow_remote: bool = False) -> HttpAddress:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as an :class:`HttpAddress`.

    Raises:
        ValueError: not ``HOST:PORT`` with a port from 0 to 65535.
        RemoteAddressError: the host is not loopback and ``allow_remote`` is false.
    """
    host, sep, port = text.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"--http {text!r}: give HOST:PORT, e.g. 127.0.0.1:8765 (port 0 for "
                         "any free port, [::1]:PORT for IPv6)")
    address = HttpAddress(host=host, port=int(port))
    if not address.loopback and not allow_remote:
        raise RemoteAddressError(
            f"--http {text}: {host} is not a loopback address, and the server has no "
            "authentication; serve on 127.0.0.1, ::1 or localhost, or pass --allow-remote "
            "to accept connections from other machines")
    return address


def to_stderr(line: str) -> None:
    """Write ``line`` to stderr at once (the verdict lines of ``remit mcp serve``), a
    client's name and texts in it shown, never executed."""
    sys.stderr.write(visible(line) + "\n")
    sys.stderr.flush()


def serve_stdio(target: McpTarget, *, store: Store | None = None,
                say: Callable[[str], None] | None = None) -> McpOutcome:
    """Serve the run of ``target`` over this process's stdin and stdout.

    Blocks while the client plays and returns once it disconnects.

    Raises:
        StoreError: the store refused the recording.
    """
    return anyio.run(McpServer(target, store=store, say=say).serve_stdio)


def serve_http(target: McpTarget, listener: socket.socket, *, store: Store | None = None,
               say: Callable[[str], None] | None = None) -> McpOutcome:
    """Serve the run of ``target`` over streamable HTTP on ``listener``.

    Blocks until the complete run's summary has been given (or a signal ends the
    process).

    Raises:
        StoreError: the store refused the recording.
    """
    return anyio.run(McpServer(target, store=store, say=say).serve_http, listener)


def mcp_serve(*, suite_spec: str | None = None, modes: str | None = None,
              scenarios: Sequence[str] = (), keyword: str | None = None,
              tags: Sequence[str] = (), trials: int = 1, seed: int = 0,
              db: str | None = None, http: str | None = None, allow_remote: bool = False,
              say: Callable[[str], None] = to_stderr) -> McpOutcome:
    """``remit mcp serve``: resolve the names, open the store, serve the run.

    Everything a user can get wrong (a name, the HTTP address, a port in use) is
    refused before a database is opened (or created) and before any server starts.

    Args:
        suite_spec: ``core``, ``handwritten`` or a directory (``--suite``); ``None``
            looks the first scenario id up in ``handwritten``, then ``core``, and is
            ``core`` without one.
        modes: comma-separated modes (``--modes``); ``None``: all_tools,dual_control.
        scenarios, keyword, tags: the selection (``--scenario``, ``-k``, ``--tag``).
        trials: trials per scenario and mode (``--trials``).
        seed: the run seed (``--seed``).
        db: the database URL or path (``--db``); ``None`` uses ``$REMIT_DB``, else
            ``./remit.db``, as ``remit run`` does.
        http: ``HOST:PORT`` to serve over streamable HTTP (``--http``); ``None``: stdio.
        allow_remote: accept a non-loopback ``http`` host (``--allow-remote``).
        say: where the lines for people go (default: stderr; stdout is the channel).

    Raises:
        ValueError, UnknownModeError, ModeFileError, UnknownSuiteError,
        UnknownTargetError, ScenarioFileError, SelectionError, RemoteAddressError,
        OSError: a bad option (user errors).
        StoreError: the database cannot be opened, or refused the recording.
    """
    if allow_remote and http is None:
        raise ValueError("--allow-remote only applies to --http HOST:PORT; give both, or "
                         "neither for stdio")
    address = None if http is None else parse_http_address(http, allow_remote=allow_remote)
    target = resolve_target(scenarios=scenarios, modes=modes or DEFAULT_MODES,
                            suite_spec=suite_spec, keyword=keyword, tags=tags, trials=trials,
                            seed=seed)
    listener = None if address is None else address.bind()
    try:
        with Store.open(db) as store:
            if listener is None:
                return serve_stdio(target, store=store, say=say)
            host, port = listener.getsockname()[:2]
            shown = f"[{host}]" if ":" in host else host
            say(f"serving {len(target.plan())} trial(s) over MCP streamable HTTP at "
                f"http://{shown}:{port}{HTTP_PATH} (stop with Ctrl-C)")
            return serve_http(target, listener, store=store, say=say)
    finally:
        if listener is not None:
            listener.close()
