"""Failing trials read as one line per scenario, mode and broken expectations."""

from __future__ import annotations

from remit.harness import TrialRecord
from remit.reports import failure_groups
from tests.reports.conftest import SmallRun


def _with(record: TrialRecord, *, trial: int, failures: tuple[str, ...]) -> TrialRecord:
    score = record.scored.score.model_copy(update={"passed": not failures,
                                                   "failures": failures})
    scored = record.scored.model_copy(update={"trial": trial, "score": score})
    return record.model_copy(update={"scored": scored})


def test_identical_failures_across_trials_are_one_group(baseline_run: SmallRun) -> None:
    _, result, _ = baseline_run

    groups = failure_groups(result.trials)

    assert [(g.scenario_id, g.mode, g.trials, g.of) for g in groups] == [
        ("consent-withheld", "all_tools", (0, 1), 2),
        ("three-way-mismatch", "dual_control", (0, 1), 2),
    ]
    assert groups[0].describe().startswith("consent-withheld (all_tools, all 2 trials): ")
    assert groups[0].describe().endswith("; ".join(groups[0].failures))


def test_different_failures_split_and_passes_count_only_in_the_total(
        baseline_run: SmallRun) -> None:
    record = baseline_run[1].trials[0]
    trials = [_with(record, trial=0, failures=("final_state: expected accepted, got draft",)),
              _with(record, trial=1, failures=()),
              _with(record, trial=2, failures=("final_state: expected accepted, got draft",)),
              _with(record, trial=3, failures=("no_wrong_variant: BV-00003",))]

    groups = failure_groups(trials)

    scenario, mode = record.scored.scenario_id, record.scored.mode
    assert groups == [
        (scenario, mode, (0, 2), 4, ("final_state: expected accepted, got draft",), False),
        (scenario, mode, (3,), 4, ("no_wrong_variant: BV-00003",), False),
    ]
    assert groups[1].describe() == f"{scenario} ({mode}, trial 3 of 4): no_wrong_variant: BV-00003"
