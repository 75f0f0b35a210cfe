"""``remit mcp serve``: let an external MCP client play the agent's role in a whole run."""

from __future__ import annotations

from typing import Annotated

import typer

from remit.cli.app import SEED_MAX, TRIALS_MAX, CommandGroup, user_errors
from remit.outputs import check_database

__all__ = ["mcp_app"]

mcp_app = typer.Typer(cls=CommandGroup, no_args_is_help=True,
                      help="Serve runs to external agents over MCP.")

_SELECT = "Selecting scenarios"


@mcp_app.command("serve")
@user_errors
def serve(
    suite: Annotated[str | None, typer.Option(
        help="core, handwritten or a directory (default: the suite holding the first "
             "--scenario, handwritten first; core without one).")] = None,
    modes: Annotated[str | None, typer.Option(
        "--modes", "--mode",
        help="Comma-separated control modes: all_tools, dual_control, oracle_plan or mode "
             "files (.yaml/.json) (default: all_tools,dual_control).")] = None,
    trials: Annotated[int, typer.Option(
        min=1, max=TRIALS_MAX, help="Trials per scenario and mode.")] = 1,
    seed: Annotated[int, typer.Option(min=0, max=SEED_MAX, help="Run seed.")] = 0,
    db: Annotated[str | None, typer.Option(
        "--db", help="Where the run is stored (default: $REMIT_DB, else ./remit.db).")]
    = None,
    http: Annotated[str | None, typer.Option(
        "--http", metavar="HOST:PORT",
        help="Serve over streamable HTTP at http://HOST:PORT/mcp instead of stdio "
             "(loopback only unless --allow-remote; port 0: any free port).")] = None,
    allow_remote: Annotated[bool, typer.Option(
        "--allow-remote", help="With --http: accept a non-loopback host (the server has no "
                               "authentication).")] = False,
    scenario: Annotated[list[str] | None, typer.Option(
        "--scenario", metavar="ID", help="Serve only this scenario (repeatable).",
        rich_help_panel=_SELECT)] = None,
    keyword: Annotated[str | None, typer.Option(
        "-k", "--keyword", metavar="EXPR",
        help="Serve the scenarios whose ids match: words with and, or, not, parentheses.",
        rich_help_panel=_SELECT)] = None,
    tag: Annotated[list[str] | None, typer.Option(
        "--tag", metavar="TAG", help="Serve the scenarios carrying this tag (repeatable: any).",
        rich_help_panel=_SELECT)] = None,
) -> None:
    """Serve a run's trials over MCP (stdio, or streamable HTTP); store them as one run.

    The client calls ``remit_briefing`` first (role, policy, who owns what, the buyer's
    opening), then the world's tools; persona replies come back in each tool result.
    After each trial (``end``, or the step budget) it calls ``remit_next_trial`` for the
    next trial's briefing, until the run is complete. Each trial is scored and stored
    as it ends, in one run named after the client (``mcp:NAME@VERSION``); a trial in play
    when the client leaves is stored as an agent error. Everything but the MCP channel
    goes to stderr.
    """
    check_database(db)  # before the MCP SDK loads or a server starts
    from remit.mcp import mcp_serve  # the MCP SDK loads only for this command

    mcp_serve(suite_spec=suite, modes=modes, scenarios=scenario or (), keyword=keyword,
              tags=tag or (), trials=trials, seed=seed, db=db, http=http,
              allow_remote=allow_remote)
