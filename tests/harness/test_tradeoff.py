"""The trade-off from tallies is the reports' trade-off from records, row for row."""

from __future__ import annotations

import pytest

from remit.harness import Side, TrialRecord, compare, paired_metrics, tally_records
from remit.reports.tradeoff import tradeoff_rows
from remit.scenarios import builtin_scenarios
from tests.store.sample import sample_manifest, varied_records_of


@pytest.fixture(scope="module")
def records() -> tuple[TrialRecord, ...]:
    return tuple(varied_records_of(builtin_scenarios()[:4]))


@pytest.mark.parametrize("exclude", [True, False])
def test_paired_metrics_are_the_reports_tradeoff_rows(records: tuple[TrialRecord, ...],
                                                      exclude: bool) -> None:
    manifest = sample_manifest("r-1")
    modes = [m.name for m in manifest.modes]
    tallies = tally_records(records)
    for a, b in ((modes[0], modes[1]), (modes[1], modes[2]), (modes[2], modes[0])):
        c = compare(Side(manifest=manifest, mode=a, trials=records),
                    Side(manifest=manifest, mode=b, trials=records), resamples=300)
        rows = tradeoff_rows(c, records, records, exclude_infra=exclude, resamples=300)
        metrics = paired_metrics(c, tallies, tallies, exclude_infra=exclude, resamples=300)
        assert [(r.metric, r.label, r.higher_is_better, r.per_item, r.value_a, r.value_b,
                 r.low, r.high, r.p_value, r.paired_scenarios) for r in rows] == \
            [(m.metric, m.label, m.higher_is_better, m.per_item, m.value_a, m.value_b,
              m.low, m.high, m.p_value, m.paired_scenarios) for m in metrics]
        assert any(m.per_item for m in metrics)  # the sample has claims and hand-offs
