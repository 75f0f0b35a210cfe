"""Golden files: the Markdown report and the terminal tables of a fixed small run.

The runs are seeded and the manifest, run id and report time fixed, so the output is
the same on every machine; ``REMIT_UPDATE_GOLDEN=1`` rewrites the files.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from remit.harness import Side, compare
from remit.reports import (
    RunReport,
    comparison_lines,
    comparison_table,
    manifest_table,
    mode_table,
    render_markdown,
    trail_table,
)
from remit.reports.tradeoff import tradeoff_rows
from tests.reports.conftest import Golden, SmallRun


def _terminal(small: SmallRun) -> str:
    manifest, result, _ = small
    console = Console(width=100, record=True, color_system=None, force_terminal=False,
                      file=io.StringIO())
    console.print(manifest_table(manifest))
    console.print(mode_table(result.summaries))
    comparison = compare(
        Side(label="all_tools", manifest=manifest, mode="all_tools", trials=result.trials),
        Side(label="dual_control", manifest=manifest, mode="dual_control",
             trials=result.trials))
    console.print(comparison_table(comparison, tradeoff_rows(comparison, result.trials,
                                                             result.trials)))
    for line in comparison_lines(comparison):
        console.print(line)
    failing = [r for r in result.trials if not r.scored.score.passed]
    console.print(trail_table((failing or list(result.trials))[0]))
    return console.export_text()


def _portable(text: str) -> None:
    """Nothing in the output may depend on where or when the tests ran."""
    assert str(Path.cwd()) not in text
    assert str(Path.home()) not in text
    assert "2026-01-02 12:00" in text or "Run r-20260101-090000-abcdef" in text


@pytest.mark.parametrize("agent", ["baseline", "oracle"])
def test_markdown_report_matches_its_golden_file(
        agent: str, golden: Golden, request: pytest.FixtureRequest) -> None:
    report: RunReport = request.getfixturevalue(f"{agent}_report")
    text = render_markdown(report)
    _portable(text)
    golden(f"report_{agent}.md", text)


@pytest.mark.parametrize("agent", ["baseline", "oracle"])
def test_terminal_tables_match_their_golden_file(
        agent: str, golden: Golden, request: pytest.FixtureRequest) -> None:
    small: SmallRun = request.getfixturevalue(f"{agent}_run")
    text = _terminal(small)
    _portable(text)
    golden(f"terminal_{agent}.txt", text)


def test_markdown_is_the_same_when_rendered_twice(baseline_report: RunReport) -> None:
    assert render_markdown(baseline_report) == render_markdown(
        baseline_report.model_copy(deep=True))
