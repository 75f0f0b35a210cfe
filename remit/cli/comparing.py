"""``remit report`` and ``remit compare``: a stored run's report, and two modes or two
runs set side by side, with a gate for CI (``--fail-if-worse``)."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from remit.cli.app import (
    PROBLEMS_FOUND,
    DbOption,
    JsonOption,
    check_output_file,
    console,
    user_errors,
)

if TYPE_CHECKING:
    from remit.harness import Comparison, RunManifest, Side
    from remit.reports.model import TradeoffRow
    from remit.store import Store

__all__ = ["compare_runs", "report"]


@user_errors
def report(run_id: Annotated[str, typer.Argument(help="A run id (see `remit runs`).")],
           output: Annotated[Path, typer.Option(
               "-o", "--output", help="File to write (.html, .md, .json or .xml).")],
           other: Annotated[str | None, typer.Argument(
               help="A second run id: write the report of the comparison of the two runs, "
                    "as `remit compare RUN RUN2` compares them (.html, .md or .json).")]
           = None,
           fmt: Annotated[str | None, typer.Option(
               "--format", help="html, md, json or junit (default: from the suffix).")]
           = None,
           modes: Annotated[str | None, typer.Option(
               help="With two runs: the mode to compare (default: the first one they "
                    "share).")] = None,
           force: Annotated[bool, typer.Option(
               help="With two runs: compare even if suite fingerprints or scorer versions "
                    "differ.")] = False,
           db: DbOption = None) -> None:
    """Write a stored run's report (approval trails, run summary, mode comparison), or,
    given two runs, the report of their comparison: what is compared, the metrics on
    both sides with the paired differences, and each flipping scenario with both trails."""
    from remit.reports.writing import format_for, write_report
    from remit.store import Store, suite_of

    if other is not None:
        _comparison_report(run_id, other, output, fmt=fmt, modes=modes, force=force, db=db)
        return
    if modes is not None or force:
        raise ValueError("--modes and --force choose what a report of two runs compares; "
                         "give a second run id (remit report RUN RUN2), or leave them out")
    chosen = format_for(output, fmt)
    check_output_file("--output", output)
    with Store.open(db, read_only=True) as store:
        manifest = store.manifest(run_id)
        written = write_report(manifest, store.trials(run_id, with_trails=False),
                               suite_of(manifest), output, chosen,
                               load_trails=functools.partial(store.trails, run_id))
    size = written.stat().st_size
    console().print(f"wrote the {chosen} report of {run_id} to {written} ({size:,} bytes)",
                    markup=False)


def _comparison_report(run_id: str, other: str, output: Path, *, fmt: str | None,
                       modes: str | None, force: bool, db: str | None) -> None:
    from remit.reports import (
        build_comparison_report,
        comparison_format_for,
        write_comparison_report,
    )
    from remit.store import Store, suite_of

    chosen = comparison_format_for(output, fmt)
    check_output_file("--output", output)
    with Store.open(db, read_only=True) as store:
        a, b = _sides(store, run_id, other, modes, tallied=False)
        suite_a = suite_of(a.manifest)
        same = b.manifest.suite_fingerprint == a.manifest.suite_fingerprint
        built = build_comparison_report(a, b, suite_a=suite_a,
                                        suite_b=suite_a if same else suite_of(b.manifest),
                                        force=force, trail_of=store.trial)
        written = write_comparison_report(built, output, chosen)
    size = written.stat().st_size
    console().print(f"wrote the {chosen} report of the comparison of {built.comparison.title} "
                    f"to {written} ({size:,} bytes)", markup=False)


def _sides(store: Store, run_id: str, other: str | None, modes: str | None, *,
           tallied: bool) -> tuple[Side, Side]:
    """The two sides ``remit compare`` and ``remit report RUN RUN2`` compare: two modes of
    ``run_id`` (``--modes A,B``, default its first two), or one mode of ``run_id`` and
    ``other`` (``--modes M``, default the first mode they share). ``tallied``: each side
    holds its run's tallies (all a comparison reads, summed in SQL), else its records
    (which a report lists)."""
    from remit.harness import Side

    def side(manifest: RunManifest, mode: str) -> Side:
        if tallied:
            return Side(manifest=manifest, mode=mode, tallies=store.tallies(manifest.run_id))
        return Side(manifest=manifest, mode=mode,
                    trials=store.trials(manifest.run_id, with_trails=False))

    first = store.manifest(run_id)
    if other is None:
        names = [m.strip() for m in modes.split(",")] if modes else \
            [m.name for m in first.modes][:2]
        if len(names) != 2:
            raise ValueError(f"comparing within one run needs two modes, got "
                             f"{','.join(names)!r}; pass --modes A,B")
        a = side(first, names[0])
        return a, a.model_copy(update={"mode": names[1]})
    second = store.manifest(other)
    if modes is not None and "," in modes:
        raise ValueError(f"across two runs --modes names the one mode to compare, got "
                         f"{modes!r}; pass --modes M")
    shared = [m.name for m in first.modes if m.name in {n.name for n in second.modes}]
    mode = modes.strip() if modes else (shared[0] if shared else "")
    if not mode:
        raise ValueError(f"runs {run_id} and {other} share no mode; pass --modes")
    return side(first, mode), side(second, mode)


@user_errors
def compare_runs(
    run_id: Annotated[str, typer.Argument(help="A run id.")],
    other: Annotated[str | None, typer.Argument(
        help="A second run id: compare the same mode across the two runs.")] = None,
    modes: Annotated[str | None, typer.Option(
        help="Within one run: the two modes A,B (default: its first two). Across two runs: "
             "the mode to compare (default: the first one they share).")] = None,
    force: Annotated[bool, typer.Option(
        help="Compare even if suite fingerprints or scorer versions differ.")] = False,
    fail_if_worse: Annotated[str | None, typer.Option(
        "--fail-if-worse", metavar="METRIC[,METRIC..]",
        help="Exit 1 when the second side is significantly worse (p < 0.05) on any of these "
             "trade-off metrics: pass_hat_1 (or pass^1), wrong_variant_rate, ... (see "
             "docs/runs.md).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Compare two modes of a run, or one mode across two runs, paired by scenario.

    The title says what is compared and each side is named by its label (its mode within
    one run; its run id and agent across two runs). The table gives each metric on both
    sides with the paired difference, its interval and p: pass^k, the headline rates
    (shares of trials), the per-trial means, then the per-item rates; ``--json`` prints
    the comparison with the same rows as ``tradeoff``.
    """
    from remit.harness import compare, paired_metrics
    from remit.reports import comparison_json, comparison_lines, comparison_table, gate_metrics
    from remit.reports.tradeoff import tradeoff_table
    from remit.store import Store

    gate = gate_metrics(fail_if_worse) if fail_if_worse is not None else ()
    with Store.open(db, read_only=True) as store:
        a, b = _sides(store, run_id, other, modes, tallied=True)
    result = compare(a, b, force=force)
    rows = tradeoff_table(result, paired_metrics(
        result, a.tallied(), b.tallied(),
        exclude_infra=a.manifest.error_treatment.on_exhausted == "exclude"))
    if as_json:
        typer.echo(json.dumps(comparison_json(result, rows, gate=gate), indent=2))
    else:
        out = console()
        out.print(comparison_table(result, rows))
        for line in comparison_lines(result):
            out.print(line, markup=False)
    if gate:
        _gate(result, rows, gate)


def _gate(result: Comparison, rows: Sequence[TradeoffRow], gate: Sequence[str]) -> None:
    """Say on stderr how ``--fail-if-worse`` went (stdout keeps the comparison); exit 1
    when side b is significantly worse."""
    from remit.reports import worse_rows

    out = console(stderr=True)
    a, b = result.a.label, result.b.label
    present = {row.metric for row in rows}
    for metric in gate:
        if metric not in present:
            out.print(f"note: --fail-if-worse {metric}: this comparison has no row for it (a "
                      "rate a side's scorer did not measure, a per-item rate a side had no "
                      "item of, or reply issues a side's agent did not report), so it cannot "
                      "fail", markup=False)
    worse = worse_rows(rows, gate)
    if not worse:
        checked = ", ".join(row.label for row in rows if row.metric in gate) or "nothing"
        out.print(f"fail-if-worse: passed; {b} is not significantly worse than {a} on "
                  f"{checked}", markup=False)
        return
    found = "; ".join(f"{row.label} ({row.value_a:.3f} -> {row.value_b:.3f}, diff "
                      f"{row.difference:+.3f}, p = {row.p_value:.4f})" for row in worse)
    out.print(f"fail-if-worse: {b} is significantly worse than {a} on {found}", markup=False)
    raise typer.Exit(PROBLEMS_FOUND)
