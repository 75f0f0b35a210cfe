"""Reports: run summaries and mode comparisons for people (terminal today)."""

from __future__ import annotations

from remit.reports.console import (
    comparison_lines,
    comparison_table,
    describe_entry,
    manifest_table,
    mode_table,
    runs_table,
    trail_table,
)
from remit.reports.explain import MAX_LINES, explain, explain_failure

__all__ = [
    "MAX_LINES",
    "comparison_lines",
    "comparison_table",
    "describe_entry",
    "explain",
    "explain_failure",
    "manifest_table",
    "mode_table",
    "runs_table",
    "trail_table",
]
