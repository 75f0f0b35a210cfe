"""The JUnit report: valid XML, one case per scenario and mode (classname
``remit.<suite>.<scenario>``, name the mode, time the trials' durations), metrics as
properties."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from remit.harness import SCORER_VERSION, ErrorTreatment
from remit.reports import RunReport, build_report, render_junit
from tests.reports.conftest import SmallRun
from tests.reports.runs import GENERATED


def _properties(element: ET.Element) -> dict[str, str]:
    found = element.find("properties")
    assert found is not None
    return {p.get("name", ""): p.get("value", "") for p in found.findall("property")}


def test_one_case_per_scenario_and_mode(baseline_report: RunReport) -> None:
    root = ET.fromstring(render_junit(baseline_report))
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("6", "2", "0")
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["all_tools", "dual_control"]
    cases = [(c.get("classname"), c.get("name")) for s in suites for c in s.findall("testcase")]
    assert cases == [(f"remit.handwritten-3.{s}", m) for m in ("all_tools", "dual_control")
                     for s in ("actuator-pairing", "consent-withheld", "three-way-mismatch")]


def test_times_are_the_trials_durations(baseline_report: RunReport) -> None:
    root = ET.fromstring(render_junit(baseline_report))
    for suite in root.findall("testsuite"):
        mode = suite.get("name")
        rows = [t for t in baseline_report.trials if t.mode == mode]
        assert all(t.seconds is not None for t in rows)  # the runner timed every trial
        assert suite.get("time") == f"{sum(t.seconds or 0 for t in rows):.3f}"
        for case in suite.findall("testcase"):
            scenario = str(case.get("classname")).rsplit(".", 1)[1]
            seconds = sum(t.seconds or 0 for t in rows if t.scenario_id == scenario)
            assert case.get("time") == f"{seconds:.3f}"
    # a run stored before remit kept durations says nothing rather than 0
    untimed = baseline_report.model_copy(update={"trials": tuple(
        t.model_copy(update={"seconds": None}) for t in baseline_report.trials)})
    root = ET.fromstring(render_junit(untimed))
    assert [e.get("time") for e in root.iter() if e.tag in ("testsuite", "testcase")] == [
        None] * 8


def test_failures_carry_the_broken_expectations_and_the_explanation(
        baseline_report: RunReport) -> None:
    root = ET.fromstring(render_junit(baseline_report))
    failed = {(c.get("name"), c.get("classname")): c.find("failure")
              for c in root.iter("testcase") if c.find("failure") is not None}
    assert set(failed) == {("all_tools", "remit.handwritten-3.consent-withheld"),
                           ("dual_control", "remit.handwritten-3.three-way-mismatch")}
    failure = failed[("all_tools", "remit.handwritten-3.consent-withheld")]
    assert failure is not None
    assert failure.get("message") == ("2 of 2 trials failed: final_state: expected rejected, "
                                      "got accepted")
    text = failure.text or ""
    assert "r-20260101-090000-abcdef/consent-withheld/all_tools/0: failed" in text
    assert "\n>> 13 [t= 12m] agent accept -> presented -> accepted\n" in text
    assert "expectation broke: forbidden_actions: accept was performed by agent" in text


def test_metrics_are_properties(baseline_report: RunReport) -> None:
    root = ET.fromstring(render_junit(baseline_report))
    suite = root.find("testsuite")
    assert suite is not None
    props = _properties(suite)
    assert props["pass^1"] == "0.6667"
    assert props["pass^2"] == "0.6667"
    assert props["trials"] == "6"
    assert props["scorer_version"] == SCORER_VERSION
    for name in ("pass_rate", "wrong_variant_rate", "wrong_variant_shown_rate",
                 "unsupported_claim_rate", "unsupported_per_claim",
                 "unsupported_attribute_claims", "unsupported_fit_claims",
                 "unsupported_authority_claims", "unsupported_cited",
                 "abandoned_handoff_rate", "abandoned_per_handoff", "missing_handoff_rate"):
        assert {name, f"{name}.low", f"{name}.high"} <= set(props)
    assert "unsupported_claim_trial_rate" not in props  # 2.0: it is unsupported_claim_rate
    dual = _properties(root.findall("testsuite")[1])
    rates = baseline_report.modes[1]
    assert rates.abandoned_handoff_rate.successes  # the baseline abandons in dual-control
    assert dual["abandoned_handoff_rate"] == f"{rates.abandoned_handoff_rate.value:.4f}"
    assert dual["abandoned_per_handoff.high"] == f"{rates.abandoned_per_handoff.high:.4f}"
    assert {"mean_clarification_rounds", "mean_review_minutes", "mean_denials",
            "mean_steps", "errors"} <= set(props)
    case = suite.find("testcase[@classname='remit.handwritten-3.consent-withheld']")
    assert case is not None
    assert _properties(case) == {"trials": "2", "passes": "0", "pass^2": "0.0000",
                                 "excluded": "0"}


def test_a_case_whose_trials_were_all_excluded_is_skipped(baseline_run: SmallRun) -> None:
    manifest, result, suite = baseline_run
    records = [r.model_copy(update={"infra_error": "TimeoutError: LLM timed out"})
               if r.scored.scenario_id == "actuator-pairing" else r for r in result.trials]
    report = build_report(manifest, records, suite, generated_at=GENERATED)
    root = ET.fromstring(render_junit(report))
    case = root.find("testsuite/testcase[@classname='remit.handwritten-3.actuator-pairing']")
    assert case is not None
    skipped = case.find("skipped")
    assert skipped is not None
    assert skipped.get("message") == ("all 2 trials ended in an infrastructure error and "
                                      "were excluded")
    counted = manifest.model_copy(
        update={"error_treatment": ErrorTreatment(on_exhausted="failure")})
    report = build_report(counted, records, suite, generated_at=GENERATED)
    case = ET.fromstring(render_junit(report)).find(
        "testsuite/testcase[@classname='remit.handwritten-3.actuator-pairing']")
    assert case is not None
    failure = case.find("failure")
    assert failure is not None
    assert "infrastructure error: TimeoutError: LLM timed out" in (failure.text or "")


def test_control_characters_are_shown_as_escapes(baseline_report: RunReport) -> None:
    """XML 1.0 cannot hold NUL or ESC: they are written as their escapes, not dropped, so
    the reader sees that the agent sent them (and the file still parses)."""
    row = baseline_report.trials[0]
    score = row.score.model_copy(update={"passed": False, "failures": ("bad\x00byte: \x1b[0m",)})
    broken = baseline_report.model_copy(update={"trials": (
        row.model_copy(update={"score": score, "passed": False, "trail": None}),
        *baseline_report.trials[1:])})
    root = ET.fromstring(render_junit(broken))
    texts = "".join(f.text or "" for f in root.iter("failure"))
    assert "bad\\x00byte: \\x1b[0m" in texts
