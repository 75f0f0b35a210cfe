"""A failing scenario shows the shortest trail that explains it, in the pytest failure."""

from __future__ import annotations

import re

import pytest

STEP = re.compile(r"^E?\s*(>>)?\s+\d{2} \[t=\s*\d+m\] (agent|buyer|technical_owner|finance) ",
                  re.MULTILINE)


def test_a_failing_scenario_shows_numbered_steps_the_divergence_and_the_expectation(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="guessing", trials=2)
        def test_guess(remit):
            remit.run("supersession-substitution").expect_passed()
    """)

    result = pytester.runpytest()

    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert len(STEP.findall(output)) >= 8
    result.stdout.fnmatch_lines([
        "E*ExpectationError: expected every trial to pass for scenario "
        "'supersession-substitution' in mode 'dual_control' with agent 'guessing': 2 of 2 "
        "trial(s) broke it*",
        "E*supersession-substitution in dual_control, trial 0 (seed *, agent guessing): failed; "
        "the agent left the reference plan at step 02",
        "E*>> 02 [[]t=  1m[]] agent edit_lines(BV-00021 x3) -> v2",
        "E*plan expected: edit_lines(BV-00003)",
        "E*expectation broke: final_state: expected accepted, got configured",
        "E*(trial 1 also broke it; the first failing trial is shown)",
    ])
    # Count in the failure report only: under CI, pytest's short summary repeats the whole
    # exception message, marker included.
    failure_lines = [line for line in output.splitlines() if line.startswith("E ")]
    assert sum(">> " in line for line in failure_lines) == 1
    assert "def _check" not in output  # the helpers hide their frames


def test_the_expectation_that_broke_is_the_one_named(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("all_tools",), agent="guessing")
        def test_guess(remit):
            remit.run("discount-exception").expect_no_wrong_variant()
    """)

    result = pytester.runpytest()

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "E*expected no wrong variant for scenario 'discount-exception'*",
        "E*expectation broke: no_wrong_variant: the offered version quotes BV-00003, outside "
        "the acceptable set",
    ])


def test_an_owner_step_the_agent_skips_is_the_divergence(pytester: pytest.Pytester) -> None:
    pytester.makepyfile('''
        import pytest

        from remit.actors import oracle_factory, reference_agent
        from remit.world import ToolCall

        @reference_agent
        class SkipsAccept:
            """The oracle, but it ends where it would ask the buyer to accept."""

            def __init__(self, info):
                self.oracle = oracle_factory(info)

            def start(self, briefing):
                self.oracle.start(briefing)

            def act(self, observation):
                call = self.oracle.act(observation)
                if call.tool == "request_action" and call.arguments["action"] == "accept":
                    return ToolCall(tool="end", arguments={"summary": "The quote is ready."})
                return call

        @pytest.mark.remit(modes=("dual_control",), agent=SkipsAccept)
        def test_skip(remit):
            outcome = remit.run("certificate-requirement")
            outcome.expect_no_abandoned_handoffs()  # it left no hand-off it opened
            outcome.expect_no_missing_handoffs()
    ''')

    result = pytester.runpytest()

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "E*expected no missing hand-offs for scenario 'certificate-requirement'*",
        "E*>> 15 [[]t=280m[]] agent end -> ended (agent_end)",
        "E*plan expected: request_action(to=buyer, action=accept)",
        "E*expectation broke: missing_handoff: accept is required by the goal and held by "
        "buyer in dual_control; the quote reached a state where it could be requested, but "
        "the agent never requested it and it never happened",
    ])
