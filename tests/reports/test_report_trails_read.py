"""A report built from records without trails, reading the trails it shows through a
loader (``build_report(load_trails=...)``), is the report built from whole records: the
loader is asked for exactly the trials whose approval trail the report keeps."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from remit.harness import TrialRecord
from remit.reports import (
    TrailPolicy,
    build_report,
    render_html,
    render_json,
    render_markdown,
    write_report,
)
from remit.reports.html import html_pieces
from remit.reports.trial_rows import TRAILS_PER_LOAD
from remit.store import Store
from remit.world import TrailEntry
from tests.reports.conftest import SmallRun
from tests.reports.runs import GENERATED, repeated

Key = tuple[str, str, int]


def _key(record: TrialRecord) -> Key:
    return record.scored.scenario_id, record.scored.mode, record.scored.trial


class _Trails:
    """Hands out the trails of whole records, and remembers what it was asked for."""

    def __init__(self, records: Sequence[TrialRecord]) -> None:
        self.trails = {_key(r): r.trail for r in records}
        self.asked: list[list[Key]] = []

    def __call__(self, keys: Sequence[Key]) -> Mapping[Key, tuple[TrailEntry, ...]]:
        self.asked.append(list(keys))
        return {key: self.trails[key] for key in keys}


@pytest.mark.parametrize("policy", ["failing", "all", "none"])
def test_a_report_reading_its_trails_equals_one_from_whole_records(
        baseline_run: SmallRun, policy: TrailPolicy) -> None:
    manifest, result, suite = baseline_run
    records = repeated(result.trials, 700, trials=3)  # more kept trials than one batch
    bare = [r.model_copy(update={"trail": ()}) for r in records]
    loader = _Trails(records)
    whole = build_report(manifest, records, suite, generated_at=GENERATED, trails=policy,
                         resamples=200)
    read = build_report(manifest, bare, suite, generated_at=GENERATED, trails=policy,
                        resamples=200, load_trails=loader)
    assert read == whole
    asked = [key for batch in loader.asked for key in batch]
    kept = [(t.scenario_id, t.mode, t.trial) for t in whole.trials if t.trail is not None]
    assert asked == kept  # each kept trial once, in run order; no other
    assert all(0 < len(batch) <= TRAILS_PER_LOAD for batch in loader.asked)
    assert policy != "failing" or len(loader.asked) > 1


def test_a_written_page_is_the_rendered_page(baseline_run: SmallRun, tmp_path: Path) -> None:
    """``write_report`` writes the HTML page piece by piece: the same bytes, whose
    closing note states their number."""
    manifest, result, suite = baseline_run
    written = write_report(manifest, result.trials, suite, tmp_path / "r.html")
    page = written.read_text(encoding="utf-8")
    stamp = re.search(r"generated (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC<", page)
    assert stamp is not None  # the page shows when it was built, to the second
    report = build_report(manifest, result.trials, suite, generated_at=datetime.strptime(
        stamp.group(1), "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC))
    assert page == render_html(report) == "".join(html_pieces(report))
    assert f"file of {written.stat().st_size:,} bytes" in page


def test_the_store_reads_a_report_the_same_as_from_whole_records(
        baseline_run: SmallRun, tmp_path: Path) -> None:
    manifest, result, suite = baseline_run
    with Store.open(str(tmp_path / "remit.db")) as store:
        store.create_run(manifest)
        for record in result.trials:
            store.save_trial(manifest.run_id, record)
        whole = build_report(manifest, store.trials(manifest.run_id), suite,
                             generated_at=GENERATED)
        read = build_report(manifest, store.trials(manifest.run_id, with_trails=False), suite,
                            generated_at=GENERATED,
                            load_trails=functools.partial(store.trails, manifest.run_id))
    assert any(t.trail is not None and t.trail.explanation for t in read.trials)
    for render in (render_html, render_markdown, render_json):
        assert render(read) == render(whole)
