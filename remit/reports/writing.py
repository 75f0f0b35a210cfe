"""Write a run's report to a file, in the format its suffix names.

``.html`` (self-contained page), ``.md`` (Markdown), ``.json`` (versioned JSON) and
``.xml`` (JUnit). ``remit report``, ``remit run --report`` and
``pytest --remit-report`` all come here, so they write the same thing. The report of a
comparison of two runs (``remit report RUN1 RUN2``) is written by
:func:`write_comparison_report`, as HTML, Markdown or JSON (the JSON of ``remit compare
--json``); it has no JUnit form.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from remit.harness import RunManifest, TrialRecord
from remit.reports.build import build_report
from remit.reports.comparison import comparison_json
from remit.reports.html import html_pieces, render_comparison_html, render_html
from remit.reports.jsonreport import render_json
from remit.reports.junit import render_junit
from remit.reports.markdown import render_comparison_markdown, render_markdown
from remit.reports.model import ComparisonReport, RunReport
from remit.reports.trial_rows import TrailLoader
from remit.scenarios import Suite

__all__ = ["REPORT_FORMATS", "ReportFormat", "comparison_format_for", "format_for",
           "write_comparison_report", "write_report"]

ReportFormat = Literal["html", "md", "json", "junit"]

REPORT_FORMATS: dict[str, ReportFormat] = {
    ".html": "html", ".htm": "html", ".md": "md", ".json": "json", ".xml": "junit",
}
"""Report formats by file suffix."""

_RENDERERS: dict[ReportFormat, Callable[[RunReport], str]] = {
    "html": render_html, "md": render_markdown, "json": render_json, "junit": render_junit,
}


def format_for(path: Path, fmt: str | None = None) -> ReportFormat:
    """The format to write ``path`` in: ``fmt`` if given, else from the suffix.

    Raises:
        ValueError: neither names a known format.
    """
    if fmt is not None:
        for known in _RENDERERS:
            if fmt == known:
                return known
        raise ValueError(f"unknown report format={fmt!r}; use html, md, json or junit")
    found = REPORT_FORMATS.get(path.suffix.lower())
    if found is None:
        raise ValueError(f"cannot tell the report format of {path}: use a .html, .md, .json "
                         "or .xml file name, or pass --format")
    return found


def write_report(manifest: RunManifest, records: Sequence[TrialRecord], suite: Suite | None,
                 path: Path, fmt: str | None = None, *,
                 load_trails: TrailLoader | None = None) -> Path:
    """Build the report of a run and write it to ``path``; return the path written.

    ``records`` carry their trails, or, with ``load_trails``, need not: the trails of the
    trials the report shows are then read through it (see
    :func:`~remit.reports.build_report`).
    """
    chosen = format_for(path, fmt)
    report = build_report(manifest, records, suite, load_trails=load_trails)
    path.parent.mkdir(parents=True, exist_ok=True)
    # the HTML page is written piece by piece: a large run's page is never held whole
    _write_text(path, *(html_pieces(report) if chosen == "html" else
                        [_RENDERERS[chosen](report)]))
    return path


_WRITTEN_CHARS = 1 << 20
"""Characters encoded and written at a time: a large run's report is tens of megabytes,
and encoding it whole would hold a second copy of it in memory."""


def _write_text(path: Path, *pieces: str) -> None:
    """Write ``pieces`` one after another to ``path`` as UTF-8, a slice at a time."""
    with path.open("w", encoding="utf-8") as out:
        for text in pieces:
            for start in range(0, len(text), _WRITTEN_CHARS):
                out.write(text[start:start + _WRITTEN_CHARS])


def _comparison_json(report: ComparisonReport) -> str:
    return json.dumps(comparison_json(report.comparison, report.tradeoff), indent=2) + "\n"


_COMPARISON_RENDERERS: dict[ReportFormat, Callable[[ComparisonReport], str]] = {
    "html": render_comparison_html, "md": render_comparison_markdown, "json": _comparison_json,
}


def comparison_format_for(path: Path, fmt: str | None = None) -> ReportFormat:
    """The format to write a comparison's report to ``path`` in (as :func:`format_for`).

    Raises:
        ValueError: the format is unknown, or JUnit (which lists one run's test cases).
    """
    chosen = format_for(path, fmt)
    if chosen not in _COMPARISON_RENDERERS:
        raise ValueError(f"a comparison of two runs has no {chosen} report; write .html, .md "
                         "or .json, or the JUnit report of each run with `remit report RUN`")
    return chosen


def write_comparison_report(report: ComparisonReport, path: Path,
                            fmt: str | None = None) -> Path:
    """Write the report of a comparison (:func:`remit.reports.build_comparison_report`) to
    ``path``: HTML, Markdown or JSON, by ``fmt`` or the suffix; return the path written.

    Raises:
        ValueError: as :func:`comparison_format_for`.
    """
    chosen = comparison_format_for(path, fmt)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_text(path, _COMPARISON_RENDERERS[chosen](report))
    return path
