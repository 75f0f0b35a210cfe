"""``remit mcp serve``: let an external MCP client play the agent's role in one trial."""

from __future__ import annotations

from typing import Annotated

import typer

from remit.cli.app import console, user_errors

__all__ = ["mcp_app"]

mcp_app = typer.Typer(help="Serve a trial to external agents over MCP.", no_args_is_help=True)


@mcp_app.command("serve")
@user_errors
def serve(
    scenario: Annotated[str, typer.Option(help="The scenario id.")],
    mode: Annotated[str, typer.Option(
        help="all_tools, dual_control, oracle_plan or a mode file (.yaml/.json).")],
    suite: Annotated[str | None, typer.Option(
        help="core, handwritten or a directory (default: handwritten, then core).")] = None,
    db: Annotated[str | None, typer.Option(
        "--db", help="Where the trial is stored (default: $REMIT_DB, else ./remit.db).")]
    = None,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 0,
) -> None:
    """Serve one trial's agent tools over MCP (stdio); score and store it at the end.

    The client calls ``remit_briefing`` first (role, policy, who owns what, the buyer's
    opening), then the world's tools; persona replies come back in each tool result.
    The trial is scored and stored when the client calls ``end`` or disconnects.
    Everything but the MCP channel goes to stderr.
    """
    from remit.mcp import mcp_serve  # noqa: PLC0415 - the MCP SDK loads only for this command

    outcome = mcp_serve(scenario, mode, suite_spec=suite, db=db, seed=seed)
    err = console(stderr=True)
    if outcome.record is None:
        err.print("the client called no tool; nothing was played or stored", markup=False)
        return
    verdict = "passed" if outcome.record.scored.score.passed else "failed"
    err.print(f"trial {verdict}; stored as run {outcome.run_id} "
              f"(see it with `remit show {outcome.run_id}`)", markup=False)
