"""Building the report: sections, notes, trail policies, breakdowns, large runs."""

from __future__ import annotations

import pytest

from remit.actors import load_agent_factory, oracle_factory
from remit.authority import builtin_modes
from remit.harness import ErrorTreatment, Interval, build_manifest, builtin_suite, run
from remit.reports import RunReport, TrailPolicy, build_report, render_markdown
from remit.reports.build import failure_cause, required_handoffs
from remit.reports.markdown import MAX_TRAILS
from remit.scenarios import Suite
from tests.reports.conftest import SmallRun
from tests.reports.runs import GENERATED, STARTED, repeated, small_suite


def _counts(interval: Interval) -> tuple[int, int]:
    return interval.successes, interval.total


def test_modes_carry_the_curve_rates_and_errors(baseline_report: RunReport) -> None:
    modes = {m.mode: m for m in baseline_report.modes}
    assert list(modes) == ["all_tools", "dual_control"]
    dual = modes["dual_control"]
    assert [(p.k, round(p.value, 4)) for p in dual.pass_hat_k] == [(1, 0.6667), (2, 0.6667)]
    assert (dual.trials, dual.passed, dual.scenarios) == (6, 4, 3)
    assert (dual.errors, dual.infra_errors, dual.excluded) == (0, 0, 0)
    assert dual.fingerprint == baseline_report.manifest.modes[1].fingerprint
    assert baseline_report.unmeasured_rates == ()
    # every rate pools the scores of the mode's trials, with its own denominator
    scores = [t.score for t in baseline_report.trials if t.mode == "dual_control"]
    assert sum(s.handoffs for s in scores) > 0, "the baseline hands off in dual-control"
    assert sum(s.abandoned_handoffs for s in scores) > 0, "and leaves some behind"
    assert _counts(dual.wrong_variant_rate) == (sum(s.wrong_variant for s in scores), 6)
    assert _counts(dual.wrong_variant_shown_rate) == (
        sum(s.wrong_variant_shown for s in scores), 6)
    assert _counts(dual.unsupported_claim_rate) == (
        sum(s.unsupported_claims > 0 for s in scores), 6)
    assert _counts(dual.unsupported_per_claim) == (
        sum(s.unsupported_claims for s in scores), sum(s.claims for s in scores))
    assert _counts(dual.unsupported_fit_claims) == (
        sum(s.unsupported_fit_claims for s in scores), sum(s.fit_claims for s in scores))
    assert _counts(dual.unsupported_cited) == (
        sum(s.unsupported_cited_claims for s in scores), sum(s.cited_claims for s in scores))
    assert _counts(dual.abandoned_handoff_rate) == (
        sum(s.abandoned_handoffs > 0 for s in scores), 6)
    assert _counts(dual.abandoned_per_handoff) == (
        sum(s.abandoned_handoffs for s in scores), sum(s.handoffs for s in scores))
    assert _counts(dual.missing_handoff_rate) == (sum(s.missing_handoffs > 0 for s in scores), 6)


def test_the_comparison_pairs_modes_and_names_the_trade_off(
        baseline_report: RunReport) -> None:
    (c,) = baseline_report.comparisons
    assert (c.a, c.b, c.n_paired, c.b01, c.b10) == ("all_tools", "dual_control", 3, 1, 1)
    assert [(f.scenario_id, f.outcome_a, f.outcome_b) for f in c.flips] == [
        ("consent-withheld", "fail", "pass"), ("three-way-mismatch", "pass", "fail")]
    rows_by_metric = {t.metric: t for t in c.tradeoff}
    abandoned = rows_by_metric["abandoned_handoff_rate"]
    assert abandoned.difference == pytest.approx(1 / 3)
    assert (abandoned.low, abandoned.high) == (0.0, 1.0)  # three scenarios prove nothing
    assert abandoned.p_value == 1.0
    assert rows_by_metric["pass_hat_1"].p_value == c.mcnemar_p
    assert rows_by_metric["pass_hat_2"].p_value is None
    assert all(t.better is None for t in c.tradeoff)
    rows = {r.scenario_id: r for r in baseline_report.scenarios}
    assert [(f.a, f.b, f.outcome_a, f.outcome_b) for f in rows["consent-withheld"].flips] \
        == [("all_tools", "dual_control", "fail", "pass")]
    assert [(c.mode, c.passes, c.trials, c.pass_hat_k) for c in rows["consent-withheld"].cells] \
        == [("all_tools", 0, 2, 0.0), ("dual_control", 2, 2, 1.0)]


def test_every_pair_of_modes_is_compared_in_run_order() -> None:
    suite = small_suite()
    modes = list(builtin_modes().values())
    manifest = build_manifest(run_id="r-3", suite=suite, modes=modes, agent_id="oracle",
                              agent_config={}, trials=1, seed=0, started_at=STARTED, cwd="/")
    result = run(suite.scenarios, modes, oracle_factory, trials=1)
    report = build_report(manifest, result.trials, suite, generated_at=GENERATED,
                          resamples=100)
    assert [(c.a, c.b) for c in report.comparisons] == [
        ("dual_control", "all_tools"), ("dual_control", "oracle_plan"),
        ("all_tools", "oracle_plan")]


def test_failures_are_grouped_by_expectation_and_rule(baseline_report: RunReport) -> None:
    causes = [(c.expectation, c.rule, c.trials, [(m.mode, m.count) for m in c.by_mode])
              for c in baseline_report.failure_causes]
    assert causes == [
        ("final_state", None, 4, [("all_tools", 2), ("dual_control", 2)]),
        ("owner_actions", None, 4, [("all_tools", 2), ("dual_control", 2)]),
        ("forbidden_actions", None, 2, [("all_tools", 2)]),
    ]
    assert failure_cause("fit: actuator AC-1 fails C2 and C1 (torque, flange)") \
        == ("fit", "C1,C2")
    assert failure_cause("collateral_damage: the agent substituted under S2") \
        == ("collateral_damage", "S2")
    assert failure_cause("no colon here C12") == ("no colon here C12", None)


def test_breakdown_by_tags_and_by_required_handoffs(baseline_run: SmallRun) -> None:
    manifest, result, suite = baseline_run
    tagged = Suite(id=suite.id, scenarios=tuple(
        s.model_copy(update={"tags": {"product": "actuator" if i == 0 else "valve",
                                      "handoffs": str(i + 1)}})
        for i, s in enumerate(suite.scenarios)))
    report = build_report(manifest, result.trials, tagged, generated_at=GENERATED)
    facets = [(r.facet, r.value, r.scenarios, [(c.mode, c.passed, c.trials) for c in r.cells])
              for r in report.breakdown.facets]
    assert facets == [
        ("product", "actuator", 1, [("all_tools", 2, 2), ("dual_control", 2, 2)]),
        ("product", "valve", 2, [("all_tools", 2, 4), ("dual_control", 2, 4)]),
    ]
    assert report.breakdown.handoffs_source == "tags"
    assert [h.handoffs for h in report.breakdown.handoffs] == [1, 2, 3]
    untagged = build_report(manifest, result.trials, suite, generated_at=GENERATED)
    assert untagged.breakdown.handoffs_source == "plan"
    assert [(h.handoffs, h.scenarios) for h in untagged.breakdown.handoffs] == [
        (1, 1), (2, 1), (4, 1)]
    assert required_handoffs(suite.scenarios[2]) == (4, False)


def test_without_the_suite_plans_and_tags_are_unavailable(baseline_run: SmallRun) -> None:
    manifest, result, _ = baseline_run
    report = build_report(manifest, result.trials, None, generated_at=GENERATED)
    assert not report.plans_available
    assert report.notes[0].startswith("no suite given: reference plans and tags are "
                                      "unavailable")
    assert report.breakdown.handoffs_source == "unavailable"
    trails = [t.trail for t in report.trials if t.trail is not None]
    assert trails
    assert all(t.divergence is None and t.explanation == "" for t in trails)
    assert "Unavailable: no suite was given" in render_markdown(report)


def test_a_suite_that_is_not_the_one_run_is_noted(baseline_run: SmallRun) -> None:
    manifest, result, suite = baseline_run
    other = Suite(id="other", scenarios=suite.scenarios[:2])
    report = build_report(manifest, result.trials, other, generated_at=GENERATED)
    assert any(n.startswith("the suite given (other") for n in report.notes)
    assert any(n.startswith("1 scenario(s) are not in the suite given (first: "
                            "three-way-mismatch)") for n in report.notes)


@pytest.mark.parametrize(("policy", "kept"), [("failing", 8), ("all", 12), ("none", 0)])
def test_the_trail_policy_decides_which_trials_carry_a_trail(
        baseline_run: SmallRun, policy: TrailPolicy, kept: int) -> None:
    manifest, result, suite = baseline_run
    report = build_report(manifest, result.trials, suite, generated_at=GENERATED,
                          trails=policy)
    assert report.trails_kept == kept == sum(t.trail is not None for t in report.trials)
    assert report.trail_policy == policy
    assert f"({kept} of 12" in report.notes[-1] or policy == "none"
    if policy != "none":
        assert all(t.trail is not None for t in report.trials if not t.passed)


def test_trial_ids_name_run_scenario_mode_and_trial(baseline_report: RunReport) -> None:
    assert baseline_report.trials[0].id == "r-20260101-090000-abcdef/actuator-pairing/all_tools/0"
    assert len({t.id for t in baseline_report.trials}) == 12


def test_excluded_infra_errors_are_counted_apart(baseline_run: SmallRun) -> None:
    manifest, result, suite = baseline_run
    records = [r.model_copy(update={"infra_error": "TimeoutError"})
               if r.scored.scenario_id == "actuator-pairing" and r.scored.trial == 0 else r
               for r in result.trials]
    report = build_report(manifest, records, suite, generated_at=GENERATED)
    mode = report.modes[0]
    assert (mode.trials, mode.infra_errors, mode.excluded) == (5, 1, 1)
    row = report.trials[0]
    assert (row.counted, row.passed, row.infra_error) == (False, False, "TimeoutError")
    failing = build_report(manifest.model_copy(update={
        "error_treatment": ErrorTreatment(on_exhausted="failure")}), records, suite,
        generated_at=GENERATED)
    assert (failing.modes[0].trials, failing.modes[0].passed) == (6, 3)


def test_ten_thousand_trials_build_with_a_bounded_payload(baseline_run: SmallRun) -> None:
    manifest, result, _ = baseline_run
    records = repeated(result.trials, 10_000, trials=4)
    assert len(records) >= 10_000
    report = build_report(manifest, records, None, generated_at=GENERATED, resamples=200)
    failing = sum(not t.passed for t in report.trials)
    scenario_modes = len({(t.scenario_id, t.mode) for t in report.trials})
    passing_examples = len({(t.scenario_id, t.mode) for t in report.trials if t.passed})
    assert report.trails_kept == failing + passing_examples < len(records)
    assert passing_examples <= scenario_modes
    assert report.modes[0].trials == len(records) // 2
    text = render_markdown(report)
    assert f"Showing {MAX_TRAILS} of {failing} failing trials" in text
    assert "more scenarios left out; failing scenarios are listed first" in text
    assert text.count("\n### ") <= MAX_TRAILS + 10


def test_on_core_the_trade_off_names_the_mode_each_clear_difference_favours() -> None:
    suite = builtin_suite("core")
    modes = [builtin_modes()[name] for name in ("all_tools", "dual_control")]
    manifest = build_manifest(run_id="r-core", suite=suite, modes=modes, agent_id="baseline",
                              agent_config={}, trials=1, seed=0, started_at=STARTED, cwd="/")
    result = run(suite.scenarios, modes, load_agent_factory("baseline"))

    (c,) = build_report(manifest, result.trials, suite, generated_at=GENERATED).comparisons

    rows = {t.metric: t for t in c.tradeoff}
    for metric in ("pass_hat_1", "abandoned_handoff_rate", "mean_review_minutes",
                   "mean_clarification_rounds"):
        row = rows[metric]
        assert row.better == "all_tools", row
        assert row.p_value is not None
        assert row.p_value < 0.05
        assert row.low is not None
        assert row.high is not None
        assert row.low <= row.difference <= row.high
        assert (row.low > 0) if row.difference > 0 else (row.high < 0)
    assert rows["wrong_variant_rate"].better is None  # the baseline never guesses wrong
