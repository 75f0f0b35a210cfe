"""The ``remit`` option group: listed in --help, defaults, and overrides (options < marker)."""

from __future__ import annotations

import pytest


def test_help_lists_the_remit_group_with_the_store_and_report_options(
        pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")

    result.stdout.fnmatch_lines([
        "remit: scenario tests of commercial agents:",
        "*--remit-agent=SPEC*",
        "*--remit-modes=NAMES*",
        "*--remit-trials=N*",
        "*--remit-seed=N*",
        "*--remit-db=URL*",
        "*--remit-report=PATH*",
    ])
    text = " ".join(result.stdout.str().split())
    assert ("--remit-db=URL store the session's trials as one run in this database") in text
    assert ("--remit-report=PATH write a report of the session's trials; the format follows "
            "the suffix: .html, .md, .json or .xml (JUnit)") in text


PROBE = """
    def test_probe(remit):
        outcome = remit.run("discount-exception")
        assert (outcome.agent, outcome.trials, remit.settings.seed) == ({agent!r}, {trials}, {seed})
"""


def test_defaults_are_baseline_both_modes_one_trial_seed_zero(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(PROBE.format(agent="baseline", trials=1, seed=0))

    result = pytester.runpytest("-v")

    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*::test_probe[[]all_tools[]] PASSED*",
                                 "*::test_probe[[]dual_control[]] PASSED*"])


MODE_FILE = """
name: agent-approves-5pct
delegations:
  - {action: approve, from: finance, to: agent, attribute: discount_pct, limit: 5}
"""


def test_command_line_options_override_the_defaults(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(PROBE.format(agent="oracle", trials=3, seed=7))

    result = pytester.runpytest("-v", "--remit-agent=oracle", "--remit-modes=oracle_plan",
                                "--remit-trials=3", "--remit-seed=7")

    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*::test_probe[[]oracle_plan[]] PASSED*"])


def test_a_mode_file_is_a_mode_with_its_own_test_id(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", five=MODE_FILE)
    pytester.makepyfile("""
        def test_probe(remit):
            remit.run("discount-exception").expect_passed()
            assert remit.mode.name in ("dual_control", "agent-approves-5pct")
    """)

    result = pytester.runpytest("-v", "--remit-agent=oracle",
                                "--remit-modes=dual_control,five.yaml")

    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*::test_probe[[]dual_control[]] PASSED*",
                                 "*::test_probe[[]agent-approves-5pct[]] PASSED*"])


def test_the_marker_overrides_the_command_line(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), trials=2, agent="oracle", seed=5)
        def test_probe(remit):
            outcome = remit.run("discount-exception")
            assert (outcome.agent, outcome.trials, remit.settings.seed) == ("oracle", 2, 5)
    """)

    result = pytester.runpytest("-v", "--remit-agent=guessing", "--remit-modes=all_tools",
                                "--remit-trials=3", "--remit-seed=7")

    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*::test_probe[[]dual_control[]] PASSED*"])


def test_an_agent_spec_from_the_test_directory(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(my_agents="""
        from remit.world import ToolCall

        class Quitter:
            def start(self, briefing):
                pass

            def act(self, observation):
                return ToolCall(tool="end", arguments={"summary": "nothing to do"})
    """)
    pytester.makepyfile(PROBE.format(agent="my_agents:Quitter", trials=1, seed=0)
                        + "\n        assert outcome.passes == 0\n")
    pytester.syspathinsert()

    result = pytester.runpytest("--remit-agent=my_agents:Quitter", "--remit-modes=dual_control")

    result.assert_outcomes(passed=1)


@pytest.mark.parametrize(("option", "problem"), [
    ("--remit-modes=dual_control,nope", "*unknown control mode name='nope'*"),
    ("--remit-trials=0", "*--remit-trials: Input should be greater than or equal to 1*"),
    ("--remit-modes=dual_control,dual_control", "*repeated: dual_control*"),
])
def test_a_bad_option_is_a_usage_error(pytester: pytest.Pytester, option: str,
                                       problem: str) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")

    result = pytester.runpytest(option)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*cannot use the remit settings from the --remit-* options*"])
    result.stderr.fnmatch_lines([problem])
