"""Write a run's report to a file, in the format its suffix names.

``.html`` (self-contained page), ``.md`` (Markdown), ``.json`` (versioned JSON) and
``.xml`` (JUnit). ``remit report``, ``remit run --report`` and
``pytest --remit-report`` all come here, so they write the same thing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from remit.harness import RunManifest, TrialRecord
from remit.reports.build import build_report
from remit.reports.html import render_html
from remit.reports.jsonreport import render_json
from remit.reports.junit import render_junit
from remit.reports.markdown import render_markdown
from remit.reports.model import RunReport
from remit.scenarios import Suite

__all__ = ["REPORT_FORMATS", "ReportFormat", "format_for", "write_report"]

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
                 path: Path, fmt: str | None = None) -> Path:
    """Build the report of a run and write it to ``path``; return the path written."""
    chosen = format_for(path, fmt)
    report = build_report(manifest, records, suite)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_RENDERERS[chosen](report), encoding="utf-8")
    return path
