"""What does rendering a large run's report cost? Seconds per format at 10,000 trials.

Run: ``python benchmarks/bench_report_render.py [TRIALS]`` from the repository root.
Builds the report of a run of ``TRIALS`` trials (default 10,000: the fixed four-scenario
baseline run of the HTML tests, its records repeated with new trial indices) once, then
renders it as HTML, Markdown, JUnit and JSON three times each and prints the best
processor time per format (CPU seconds of this process, steadier than wall-clock time on
a shared machine) and the output's size. Every string taken from the run passes through
:mod:`remit.reports.safe` on its way out; this is the figure that says what that costs.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from remit.reports import render_html, render_json, render_junit, render_markdown
from remit.reports.model import RunReport
from tests.reports_html.sample_run import large_report, small_run

RENDERERS: dict[str, Callable[[RunReport], str]] = {
    "html": render_html, "markdown": render_markdown, "junit": render_junit,
    "json": render_json,
}


def _best(render: Callable[[RunReport], str], report: RunReport) -> tuple[float, int]:
    """The best of three renderings, in CPU seconds, and the output's size in characters."""
    times = []
    size = 0
    for _ in range(3):
        started = time.process_time()
        size = len(render(report))
        times.append(time.process_time() - started)
    return min(times), size


def main() -> None:
    """Print the best time and size of each format."""
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    manifest, records, suite = small_run()
    report = large_report(manifest, records, suite, trials)
    print(f"{len(report.trials):,} trials; best of 3, CPU seconds")
    for name, render in RENDERERS.items():
        seconds, size = _best(render, report)
        print(f"{name:>9}: {seconds:6.3f} s  {size:>12,} characters")


if __name__ == "__main__":
    main()
