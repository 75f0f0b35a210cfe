"""Scenario files are checked when collected: a broken one is a collection error naming
the rule, before anything runs; exported suites are collected as they are written."""

from __future__ import annotations

import pytest

from remit.harness import builtin_suite
from remit.scenarios import Suite, dump_scenario, export_suite
from tests.scenarios.broken import citing_a_draft, first_line, over_budget


def test_a_scenario_failing_the_check_is_a_collection_error_naming_the_rule(
        pytester: pytest.Pytester) -> None:
    broken, sku, draft = citing_a_draft()
    good = builtin_suite("handwritten").scenarios[0]
    pytester.makefile(".yaml", scenario_draft=dump_scenario(broken, readable=True),
                      scenario_good=dump_scenario(good, readable=True))
    step = first_line(broken)[0] + 1

    result = pytester.runpytest("--remit-agent=oracle")

    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([
        "*ERROR collecting scenario_draft.yaml*",
        "scenario file scenario_draft.yaml fails remit's scenario check in all_tools, "
        "dual_control: 1 problem(s), one per line below; fix them*",
        f"{broken.id}: plan.cites-released: plan step {step} cites draft facts "
        f"[[]'{draft}'[]] of {sku}; cite released facts only*",
    ])
    assert "Traceback" not in result.stdout.str()

    # The good file's items run (here, past the bad file's collection error).
    kept_going = pytester.runpytest("--remit-agent=oracle", "--continue-on-collection-errors",
                                    "-v")
    kept_going.assert_outcomes(passed=2, errors=1)
    kept_going.stdout.fnmatch_lines([f"scenario_good.yaml::{good.id}[[]all_tools[]] PASSED*"])


def test_the_check_runs_in_the_configured_modes(pytester: pytest.Pytester) -> None:
    tight = over_budget()
    pytester.makefile(".yaml", scenario_tight=dump_scenario(tight, readable=True))

    failing = pytester.runpytest("--remit-agent=oracle", "--remit-modes=dual_control")
    passing = pytester.runpytest("--remit-agent=oracle", "--remit-modes=all_tools")

    failing.assert_outcomes(errors=1)
    failing.stdout.fnmatch_lines([
        f"{tight.id}[[]dual_control[]]: oracle.passes: the oracle, following the plan, fails "
        f"the expectations after * step(s) (it ran out of max_steps={tight.max_steps}*"])
    passing.assert_outcomes(passed=1)


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_an_exported_directory_is_collected(pytester: pytest.Pytester, fmt: str) -> None:
    handwritten = builtin_suite("handwritten")
    subset = Suite(id="subset", scenarios=handwritten.scenarios[:2])
    written = export_suite(subset, pytester.path / "exported", fmt)  # type: ignore[arg-type]

    result = pytester.runpytest("exported", "--remit-agent=oracle", "-v")

    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines([
        f"exported/{written[0].name}::{subset.scenarios[0].id}[[]all_tools[]] PASSED*",
        f"exported/{written[1].name}::{subset.scenarios[1].id}[[]dual_control[]] PASSED*",
    ], consecutive=False)
