"""The ``remit`` marker and fixtures: one test id per mode, trials aggregated inside."""

from __future__ import annotations

import pytest


def test_a_test_using_remit_is_parametrised_by_mode(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control", "oracle_plan"))
        def test_scenario(remit):
            pass

        def test_mode_only(remit_mode):
            pass

        def test_plain():
            pass
    """)

    result = pytester.runpytest("--collect-only", "-q")

    result.stdout.fnmatch_lines([
        "*::test_scenario[[]dual_control[]]",
        "*::test_scenario[[]oracle_plan[]]",
        "*::test_mode_only[[]all_tools[]]",
        "*::test_mode_only[[]dual_control[]]",
        "*::test_plain",
    ])
    assert "test_plain[" not in result.stdout.str()


def test_a_custom_mode_in_the_marker_names_its_test_id(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        from decimal import Decimal

        import pytest

        from remit.authority import Action, Role, default_map, delegate

        CUSTOM = delegate(default_map(), Action.APPROVE, to=Role.AGENT, from_role=Role.FINANCE,
                          attribute="discount_pct", limit=Decimal(5), name="agent-approves-5pct")

        @pytest.mark.remit(modes=(CUSTOM, "dual_control"), agent="oracle")
        def test_scenario(remit):
            assert remit.run("actuator-pairing").expect_passed().mode.name == remit.mode.name
    """)

    result = pytester.runpytest("-v")

    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*::test_scenario[[]agent-approves-5pct[]] PASSED*",
                                 "*::test_scenario[[]dual_control[]] PASSED*"])


def test_trials_are_aggregated_into_one_outcome_per_mode(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="oracle", trials=4)
        def test_oracle(remit):
            outcome = remit.run("fff-substitution")
            assert (outcome.passes, outcome.trials) == (4, 4)
            assert [r.scored.trial for r in outcome.records] == [0, 1, 2, 3]
            assert outcome.pass_hat_k(4) == 1.0
            outcome.expect_pass_hat_k(4, at_least=1.0)
            with pytest.raises(ValueError, match="run at least 5 trials"):
                outcome.pass_hat_k(5)

        @pytest.mark.remit(modes=("dual_control",), agent="abandoning", trials=3)
        def test_abandoning(remit):
            outcome = remit.run("fff-substitution")
            assert outcome.passes == 0
            assert outcome.summary.abandoned_handoff_rate.value == 1.0
            with pytest.raises(AssertionError, match=r"pass\\^2 is 0.00 \\(0 of 3 trials"):
                outcome.expect_pass_hat_k(2, at_least=0.5)
    """)

    result = pytester.runpytest()

    result.assert_outcomes(passed=2)


def test_the_fixture_takes_an_agent_factory_and_another_mode(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        from remit.actors import OracleAgent

        @pytest.mark.remit(modes=("all_tools",))
        def test_factory(remit):
            outcome = remit.run("discount-exception", agent=OracleAgent, mode="dual_control",
                                trials=2)
            assert outcome.mode.name == "dual_control"
            assert outcome.agent == "remit.actors.oracle:OracleAgent"
            assert outcome.passes == 2
    """)

    result = pytester.runpytest()

    result.assert_outcomes(passed=1)


@pytest.mark.parametrize(("marker", "problem"), [
    ("trails=3", "trails: Extra inputs are not permitted (got 3)"),
    ("'dual_control'", "the marker takes keyword arguments only"),
    ("trials=0", "trials: Input should be greater than or equal to 1 (got 0)"),
    ("modes=('dual_control', 'nope')", "unknown control mode name='nope'"),
])
def test_a_bad_marker_is_a_collection_error_naming_the_test(
        pytester: pytest.Pytester, marker: str, problem: str) -> None:
    pytester.makepyfile(f"""
        import pytest

        @pytest.mark.remit({marker})
        def test_scenario(remit):
            pass
    """)

    result = pytester.runpytest()

    assert result.ret == pytest.ExitCode.INTERRUPTED
    output = result.stdout.str()
    assert "cannot use the remit settings from @pytest.mark.remit on " in output
    assert "::test_scenario" in output
    assert problem in output
    assert "the marker takes the keywords modes, trials, agent, seed" in output
