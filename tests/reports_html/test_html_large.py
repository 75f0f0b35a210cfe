"""A large run: 10,000 trials repeated from the real small run still render as one page
that leads with the summary, caps the trial sections (spread over every failing
scenario and mode), says what it left out, and stays under 25 MB.

Why 25 MB: the page holds at most DEFAULT_MAX_TRIAL_SECTIONS (1,000) trial sections of
roughly 5-13 KB each (trail table, transcript, swimlane), plus one compact line per
scenario and mode listing trial ranges; measured, 10,000 trials give about 8.5 MB here
and about 12 MB with the core suite's longer trails. 25 MB leaves room for longer
(LLM) transcripts while staying a file Chromium opens in a second or two.
"""

from __future__ import annotations

import re

import pytest

from remit.reports.html import DEFAULT_MAX_TRIAL_SECTIONS, render_html
from remit.reports.model import RunReport
from remit.reports.trial_sections import trial_anchor
from tests.reports_html.conftest import SmallRun
from tests.reports_html.sample_run import large_report

TRIALS = 10_000
SIZE_BOUND_BYTES = 25_000_000


@pytest.fixture(scope="module")
def large(small: SmallRun) -> RunReport:
    manifest, records, suite = small
    return large_report(manifest, records, suite, TRIALS)


@pytest.fixture(scope="module")
def large_page(large: RunReport) -> str:
    return render_html(large)


def test_large_run_stays_small_enough(large: RunReport, large_page: str) -> None:
    assert len(large.trials) == TRIALS
    size = len(large_page.encode("utf-8"))
    assert size < SIZE_BOUND_BYTES
    stated = re.search(r"one self-contained file of ([\d,]+) bytes", large_page)
    assert stated is not None
    assert int(stated.group(1).replace(",", "")) == size


def test_large_run_caps_trial_sections_and_says_so(large: RunReport, large_page: str) -> None:
    shown = re.findall(r'<details class="trial [a-z]+" id="([^"]+)"', large_page)
    assert len(shown) == DEFAULT_MAX_TRIAL_SECTIONS
    failing = [t for t in large.trials if not t.passed]
    assert len(failing) > DEFAULT_MAX_TRIAL_SECTIONS
    assert set(shown) <= {trial_anchor(t.id) for t in failing}, "failing trials come first"
    groups = {(t.scenario_id, t.mode) for t in failing}
    covered = {(t.scenario_id, t.mode) for t in failing if trial_anchor(t.id) in set(shown)}
    assert covered == groups, "every failing scenario and mode keeps examples"
    closing = large_page[large_page.index('id="closing"'):]
    left_out = TRIALS - DEFAULT_MAX_TRIAL_SECTIONS
    assert f"{TRIALS} trials in the run; {DEFAULT_MAX_TRIAL_SECTIONS} have a section; " \
           f"{left_out} were left out of the trial sections" in closing
    assert f"{len(failing) - DEFAULT_MAX_TRIAL_SECTIONS} failing trials beyond the cap" \
        in closing


def test_large_run_keeps_the_summary_first_and_links_whole(large_page: str) -> None:
    assert large_page.index('id="summary"') < large_page.index('id="trials"')
    summary = large_page[large_page.index('id="summary"'):large_page.index('id="comparison"')]
    rows = re.findall(r">pass\^(\d+)</td>", summary)
    assert rows[:4] == ["1", "2", "3", "4"]
    assert rows[-1] == str(-(-TRIALS // 8))
    assert len(rows) <= 16, "a selection of k, not one row per k"
    ids = re.findall(r' id="([^"]+)"', large_page)
    assert len(ids) == len(set(ids))
    fragments = set(re.findall(r' href="#([^"]+)"', large_page))
    assert fragments <= set(ids)
    assert "<details><summary>" in large_page, "long link lists are collapsed"
