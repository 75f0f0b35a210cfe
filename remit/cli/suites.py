"""``remit suite ...``: list, show, export the suites, and the scenario file schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from remit.cli.app import console, user_errors
from remit.harness import suite_names
from remit.scenarios import dump_scenario, export_suite, scenario_schema, space_size
from remit.store import resolve_suite

__all__ = ["suite_app"]

suite_app = typer.Typer(help="Inspect and export scenario suites.", no_args_is_help=True)

SuiteOption = Annotated[str, typer.Option(
    "--suite", help="Built-in suite (core, handwritten) or a directory of scenario files.")]


@suite_app.command("list")
@user_errors
def list_suite(suite: SuiteOption = "core",
               as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """List a suite's scenarios (and its fingerprint)."""
    chosen = resolve_suite(suite)
    if as_json:
        typer.echo(json.dumps({
            "suite": chosen.id, "fingerprint": chosen.fingerprint,
            "scenarios": [{"id": s.id, "title": s.title, "final_state": s.expect.final_state,
                           "max_steps": s.max_steps} for s in chosen]}, indent=2))
        return
    table = Table(title=f"suite {chosen.id}: {len(chosen)} scenarios, fingerprint "
                        f"{chosen.fingerprint[:12]}")
    table.add_column("id", overflow="fold")  # ids are copied into commands: never cut
    for column in ("title", "goal", "plan steps"):
        table.add_column(column)
    for scenario in chosen:
        table.add_row(scenario.id, scenario.title, scenario.expect.final_state.value,
                      str(len(scenario.plan)))
    console().print(table)
    if chosen.id == "core":
        console().print(f"core is sampled from a composition space of {space_size()} valid "
                        "combinations (`python -m remit.scenarios` lists the rejections)",
                        markup=False)
    console().print(f"built-in suites: {', '.join(suite_names())}", markup=False)


@suite_app.command("show")
@user_errors
def show_scenario(scenario_id: Annotated[str, typer.Argument(help="A scenario id.")],
                  suite: SuiteOption = "core",
                  as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Show one scenario as YAML (or JSON)."""
    scenario = resolve_suite(suite).scenario(scenario_id)
    typer.echo(dump_scenario(scenario, "json" if as_json else "yaml"), nl=False)


@suite_app.command("export")
@user_errors
def export(output: Annotated[Path, typer.Option("-o", "--output", help="Directory to write.")],
           suite: SuiteOption = "core",
           fmt: Annotated[str, typer.Option("--format", help="yaml or json.")] = "yaml") -> None:
    """Write one file per scenario; loading the directory back gives the same fingerprint."""
    if fmt not in ("yaml", "json"):
        raise ValueError(f"--format={fmt!r}; use yaml or json")
    chosen = resolve_suite(suite)
    written = export_suite(chosen, output, "json" if fmt == "json" else "yaml")
    console().print(f"wrote {len(written)} scenarios of {chosen.id} to {output} (fingerprint "
                    f"{chosen.fingerprint[:12]}); run them with `remit run --suite {output}`",
                    markup=False)


@suite_app.command("schema")
def schema() -> None:
    """Print the JSON Schema of a scenario file."""
    typer.echo(json.dumps(scenario_schema(), indent=2))
