"""Reports people read: approval trails, run summaries and mode comparisons.

Terminal views (rich), Markdown, versioned JSON (with a JSON Schema), JUnit, and one
self-contained HTML page; :func:`write_report` picks the format from the file suffix.
The report of a comparison of two runs (:func:`build_comparison_report`) is HTML,
Markdown or JSON (:func:`write_comparison_report`).
"""

from __future__ import annotations

from remit.reports.approval import approval_trail
from remit.reports.build import build_report
from remit.reports.comparison import (
    build_comparison_report,
    comparison_json,
    gate_metrics,
    worse_rows,
)
from remit.reports.console import (
    FailureGroup,
    approval_lines,
    approval_table,
    comparison_lines,
    comparison_table,
    describe_entry,
    failure_groups,
    manifest_table,
    mode_table,
    runs_table,
    score_lines,
    trail_table,
)
from remit.reports.explain import (
    MAX_LINES,
    divergence,
    explain,
    explain_failure,
    first_divergence,
)
from remit.reports.html import DEFAULT_MAX_TRIAL_SECTIONS, render_comparison_html, render_html
from remit.reports.jsonreport import (
    REPORT_SCHEMA_VERSION,
    parse_report,
    render_json,
    report_schema,
    report_schema_json,
)
from remit.reports.junit import render_junit
from remit.reports.markdown import render_comparison_markdown, render_markdown
from remit.reports.model import (
    REPORT_VERSION,
    ApprovalTrail,
    ComparisonReport,
    DecisionRow,
    FlipTrails,
    ModeComparison,
    ModeReport,
    RunReport,
    TrailPolicy,
    TrialRow,
)
from remit.reports.trial_rows import TrailLoader
from remit.reports.writing import (
    REPORT_FORMATS,
    ReportFormat,
    comparison_format_for,
    format_for,
    write_comparison_report,
    write_report,
)

__all__ = [
    "DEFAULT_MAX_TRIAL_SECTIONS",
    "MAX_LINES",
    "REPORT_FORMATS",
    "REPORT_SCHEMA_VERSION",
    "REPORT_VERSION",
    "ApprovalTrail",
    "ComparisonReport",
    "DecisionRow",
    "FailureGroup",
    "FlipTrails",
    "ModeComparison",
    "ModeReport",
    "ReportFormat",
    "RunReport",
    "TrailLoader",
    "TrailPolicy",
    "TrialRow",
    "approval_lines",
    "approval_table",
    "approval_trail",
    "build_comparison_report",
    "build_report",
    "comparison_format_for",
    "comparison_json",
    "comparison_lines",
    "comparison_table",
    "describe_entry",
    "divergence",
    "explain",
    "explain_failure",
    "failure_groups",
    "first_divergence",
    "format_for",
    "gate_metrics",
    "manifest_table",
    "mode_table",
    "parse_report",
    "render_comparison_html",
    "render_comparison_markdown",
    "render_html",
    "render_json",
    "render_junit",
    "render_markdown",
    "report_schema",
    "report_schema_json",
    "runs_table",
    "score_lines",
    "trail_table",
    "worse_rows",
    "write_comparison_report",
    "write_report",
]
