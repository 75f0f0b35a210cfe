"""A scenario test's failure says when the agent made no valid write and names its reply
issues; the session summary and the test's JUnit properties carry the figures."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

ISSUES = "2 bad_arguments, 2 unknown_tool, 1 repeated_call"


def test_the_failure_message_names_the_reply_issues_next_to_what_broke(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="tests.invalid_agents:invalid",
                           trials=2)
        def test_invalid(remit):
            remit.run("supersession-substitution").expect_passed()
    """)

    result = pytester.runpytest("--junitxml=junit.xml")

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "E*ExpectationError: expected every trial to pass for scenario "
        "'supersession-substitution' in mode 'dual_control' with agent "
        "'tests.invalid_agents:invalid': 2 of 2 trial(s) broke it; trial 0: final_state: "
        f"expected accepted, got draft; the agent made no valid write; reply issues: {ISSUES}",
        "E*supersession-substitution in dual_control, trial 0 (seed *",
        "E*the agent made no valid write",
        f"E*reply issues: {ISSUES}",
        "E*expectation broke: final_state: expected accepted, got draft",
    ])
    summary = result.stdout.str().split("remit summary", 1)[1]
    for label, value in (("no valid write (trials)", "1.00 [0.34, 1.00]"),
                         ("reply issues per trial", "5.00"),
                         ("reply issue (trials)", "1.00 [0.34, 1.00]"),
                         ("reply issues: unknown_tool", "4")):
        assert any(label in line and value in line for line in summary.splitlines()), label
    case = ET.parse(pytester.path / "junit.xml").getroot().find(".//testcase")
    assert case is not None
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert (properties["no_valid_write_rate"], properties["reply_issue_rate"],
            properties["mean_reply_issues"]) == ("1.0", "1.0", "5.0")


def test_an_agent_that_made_wrong_writes_is_not_said_to_have_made_none(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="guessing")
        def test_guess(remit):
            remit.run("supersession-substitution").expect_passed()
    """)

    result = pytester.runpytest()

    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "expectation broke: final_state: expected accepted, got configured" in output
    assert "no valid write (trials)" in output  # the summary's row, at 0.00
    assert "the agent made no valid write" not in output
    assert "reply issue" not in output  # a scripted agent reports no usage
