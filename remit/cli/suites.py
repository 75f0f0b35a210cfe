"""``remit suite ...``: list, show, export and check suites, and the scenario file schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from remit.cli.app import (
    PROBLEMS_FOUND,
    SAMPLE_MAX,
    SEED_MAX,
    CommandGroup,
    check_output_directory,
    console,
    user_errors,
)

if TYPE_CHECKING:
    from remit.harness import ScenarioCheck

__all__ = ["suite_app"]

suite_app = typer.Typer(cls=CommandGroup, no_args_is_help=True,
                        help="Inspect, export and check scenario suites.")

SuiteOption = Annotated[str, typer.Option(
    "--suite", help="Built-in suite (core, handwritten) or a directory of scenario files.")]


@suite_app.command("list")
@user_errors
def list_suite(suite: SuiteOption = "core",
               as_json: Annotated[bool, typer.Option("--json")] = False,
               scenario: Annotated[list[str] | None, typer.Option(
                   "--scenario", metavar="ID", help="Only this scenario (repeatable).")]
               = None,
               keyword: Annotated[str | None, typer.Option(
                   "-k", "--keyword", metavar="EXPR",
                   help="Only ids matching: words with and, or, not, parentheses.")] = None,
               tag: Annotated[list[str] | None, typer.Option(
                   "--tag", metavar="TAG",
                   help="Only scenarios carrying this tag: facet=value, or a value of any "
                        "facet (repeatable: any of them).")] = None,
               sample: Annotated[int | None, typer.Option(
                   "--sample", metavar="N", max=SAMPLE_MAX,
                   help="A random sample of N of those.")] = None,
               seed: Annotated[int, typer.Option(
                   "--seed", "--sample-seed", metavar="S", min=0, max=SEED_MAX,
                   help="Seed of --sample; `remit run` draws the same sample with the same "
                        "seed.")] = 0) -> None:
    """List a suite's scenarios (and its fingerprint), or the ones a selection keeps:
    the same options select the same scenarios in `remit run`."""
    from rich.table import Table

    from remit.harness import build_core, select, suite_names
    from remit.harness.selection import describe
    from remit.store import resolve_suite

    whole = resolve_suite(suite)
    chosen, selection = select(whole, scenario_ids=scenario or (), keyword=keyword,
                               tags=tag or (), sample=sample, sample_seed=seed)
    if as_json:
        typer.echo(json.dumps({
            "suite": chosen.id, "fingerprint": chosen.fingerprint,
            "selection": None if selection is None else selection.model_dump(mode="json"),
            "scenarios": [{"id": s.id, "title": s.title, "final_state": s.expect.final_state,
                           "max_steps": s.max_steps, "tags": s.tags} for s in chosen]},
            indent=2))
        return
    of = "" if selection is None else f" of {len(whole)} selected ({describe(selection)})"
    table = Table(title=f"suite {chosen.id}: {len(chosen)} scenarios{of}, fingerprint "
                        f"{chosen.fingerprint[:12]}")
    table.add_column("id", overflow="fold")  # ids are copied into commands: never cut
    for column in ("title", "goal", "plan steps", "tags"):
        table.add_column(column)
    for scenario_ in chosen:
        table.add_row(scenario_.id, scenario_.title, scenario_.expect.final_state.value,
                      str(len(scenario_.plan)),
                      " ".join(f"{k}={v}" for k, v in scenario_.tags.items()))
    console().print(table)
    if chosen.id == "core":
        space = build_core().space_size  # read with core from the suite cache
        console().print(f"core is sampled from a composition space of {space} valid "
                        "combinations (`python -m remit.scenarios` lists the rejections)",
                        markup=False)
    console().print(f"built-in suites: {', '.join(suite_names())}", markup=False)


@suite_app.command("show")
@user_errors
def show_scenario(scenario_id: Annotated[str, typer.Argument(help="A scenario id.")],
                  suite: SuiteOption = "core",
                  as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Show one scenario as YAML (or JSON)."""
    from remit.scenarios import dump_scenario
    from remit.store import resolve_suite

    scenario = resolve_suite(suite).scenario(scenario_id)
    typer.echo(dump_scenario(scenario, "json" if as_json else "yaml"), nl=False)


@suite_app.command("export")
@user_errors
def export(output: Annotated[Path, typer.Option("-o", "--output", help="Directory to write.")],
           suite: SuiteOption = "core",
           fmt: Annotated[str, typer.Option("--format", help="yaml or json.")] = "yaml") -> None:
    """Write one readable file per scenario (NNN-<id>.scenario.yaml, collected by pytest);
    loading the directory back gives the same fingerprint."""
    from remit.scenarios import export_suite
    from remit.store import resolve_suite

    if fmt not in ("yaml", "json"):
        raise ValueError(f"--format={fmt!r}; use yaml or json")
    check_output_directory("--output", output)
    chosen = resolve_suite(suite)
    written = export_suite(chosen, output, "json" if fmt == "json" else "yaml")
    console().print(f"wrote {len(written)} scenarios of {chosen.id} to {output} (fingerprint "
                    f"{chosen.fingerprint[:12]}); run them with `remit run --suite {output}` "
                    f"or `pytest {output}`, check edits with `remit suite check {output}`",
                    markup=False)


@suite_app.command("schema")
def schema() -> None:
    """Print the JSON Schema of a scenario file."""
    from remit.scenarios import scenario_schema

    typer.echo(json.dumps(scenario_schema(), indent=2))


@suite_app.command("check")
@user_errors
def check(
    path: Annotated[Path, typer.Argument(
        help="A scenario file (.yaml, .yml, .json) or a directory of them.")],
    modes: Annotated[str | None, typer.Option(
        help="Comma-separated control modes: built-in names or mode files (.yaml/.json) "
             "(default: every built-in mode).")] = None,
    seed: Annotated[int, typer.Option(
        min=0, max=SEED_MAX, help="Seed of the oracle's trials.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Check scenario files as the core suite is checked: the plan quotes acceptable SKUs
    and cites released facts, replays in every mode, and the oracle passes each mode.

    Exit status 0 when every scenario passes, 1 when any has a problem, 2 for bad input.
    """
    from remit.harness import check_path, load_modes

    if not path.exists():
        raise ValueError(f"{path}: no such file or directory; give a scenario file (.yaml, "
                         ".yml or .json) or a directory of them")
    checks = check_path(path, load_modes(modes) if modes is not None else None, seed=seed)
    if as_json:
        typer.echo(json.dumps({
            "ok": all(c.ok for c in checks), "modes": list(checks[0].modes),
            "scenarios": [{**c.model_dump(mode="json"), "ok": c.ok} for c in checks]},
            indent=2))
    else:
        _print_checks(checks)
    if not all(c.ok for c in checks):
        raise typer.Exit(PROBLEMS_FOUND)


def _print_checks(checks: list[ScenarioCheck]) -> None:
    out = console()
    width = max(len(c.scenario_id) for c in checks)
    for checked in checks:
        verdict = "ok  " if checked.ok else "FAIL"
        count = "" if checked.ok else f" ({len(checked.problems)} problem(s))"
        out.print(f"{verdict}  {checked.scenario_id:<{width}}  {checked.source}{count}",
                  markup=False)
        for problem in checked.problems:
            out.print(f"  {problem.line}", markup=False)
    failed = sum(not c.ok for c in checks)
    out.print(f"checked {len(checks)} scenario(s) in {', '.join(checks[0].modes)}: "
              f"{len(checks) - failed} ok, {failed} with problems"
              + ("" if not failed else "; the rules are described in docs/scenarios.md"),
              markup=False)
