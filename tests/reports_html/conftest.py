"""Fixtures for the HTML report tests: the small real run, its report and its page,
built once per session."""

from __future__ import annotations

import pytest

from remit.harness import RunManifest, TrialRecord
from remit.reports.build import build_report
from remit.reports.html import render_html
from remit.reports.model import RunReport
from remit.scenarios import Suite
from tests.reports_html.sample_run import GENERATED, small_run

SmallRun = tuple[RunManifest, tuple[TrialRecord, ...], Suite]


@pytest.fixture(scope="session")
def small() -> SmallRun:
    """The fixed four-scenario run: manifest, records, suite."""
    return small_run()


@pytest.fixture(scope="session")
def report(small: SmallRun) -> RunReport:
    """Its report."""
    manifest, records, suite = small
    return build_report(manifest, records, suite, generated_at=GENERATED, resamples=1_000)


@pytest.fixture(scope="session")
def page(report: RunReport) -> str:
    """That report as HTML."""
    return render_html(report)
