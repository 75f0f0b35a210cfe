"""Fixtures for the report tests: the fixed small runs, their reports, golden files.

Golden files live in ``tests/reports/golden/``; run the tests with
``REMIT_UPDATE_GOLDEN=1`` to rewrite them after an intended change, then review the diff.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from remit.harness import RunManifest, RunResult
from remit.reports import RunReport, build_report
from remit.scenarios import Suite
from tests.reports.runs import GENERATED, small_run

GOLDEN = Path(__file__).parent / "golden"
UPDATE_ENV = "REMIT_UPDATE_GOLDEN"

SmallRun = tuple[RunManifest, RunResult, Suite]
Golden = Callable[[str, str], None]


@pytest.fixture(scope="session")
def baseline_run() -> SmallRun:
    """The baseline agent on the three scenarios: fails one in each mode."""
    return small_run("baseline")


@pytest.fixture(scope="session")
def oracle_run() -> SmallRun:
    """The oracle agent on the three scenarios: passes everything."""
    return small_run("oracle")


@pytest.fixture(scope="session")
def baseline_report(baseline_run: SmallRun) -> RunReport:
    """The baseline run's report, generated at a fixed time."""
    manifest, result, suite = baseline_run
    return build_report(manifest, result.trials, suite, generated_at=GENERATED)


@pytest.fixture(scope="session")
def oracle_report(oracle_run: SmallRun) -> RunReport:
    """The oracle run's report, generated at a fixed time."""
    manifest, result, suite = oracle_run
    return build_report(manifest, result.trials, suite, generated_at=GENERATED)


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get(UPDATE_ENV) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"golden file {path.name} is missing; run with {UPDATE_ENV}=1 to write it")
    expected = path.read_text(encoding="utf-8")
    assert text == expected, (f"{path.name} differs from the output; if the change is "
                              f"intended, run with {UPDATE_ENV}=1 and review the diff")


@pytest.fixture
def golden() -> Golden:
    """Compare text with a golden file (``REMIT_UPDATE_GOLDEN=1`` rewrites it)."""
    return _check
