"""A hostile agent's text reaches the pytest output shown, never executed.

The failure message, the shortest explaining trail under it, the short test summary,
the session summary and the report the session writes carry no raw control,
bidirectional or escape character, whether the test is a Python test with the ``remit``
marker or a scenario file, and whether the agent wrote the text or raised it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile_agents import leaks

EXAMPLE = Path(__file__).parents[2] / "examples" / "scenario_supersession.yaml"


def test_failures_show_the_agents_text_without_executing_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="tests.hostile_agents:hostile")
        def test_hostile(remit):
            remit.run("actuator-pairing").expect_no_unsupported_claims()

        @pytest.mark.remit(modes=("dual_control",), agent="tests.hostile_agents:raising")
        def test_raising(remit):
            remit.run("actuator-pairing").expect_passed()
    """)
    pytester.makefile(".yaml", scenario_supersession=EXAMPLE.read_text(encoding="utf-8"))

    result = pytester.runpytest("-ra", "--remit-agent=tests.hostile_agents:raising",
                                "--remit-modes=dual_control", "--remit-report=report.md")

    result.assert_outcomes(failed=3)
    output = result.stdout.str() + result.stderr.str()
    assert leaks(output) == []
    result.stdout.fnmatch_lines([
        "E*unsupported attribute claim: <script>alert(1)</script> <img src=x "
        "onerror=alert(1)> \\x1b[[]31mRED\\x1b]0;pwned\\x07 *\\u202eevil*",
        "E*agent_error: agent raised RuntimeError: <script>*\\x00*",
        "*agent_error: agent raised RuntimeError: <script>alert(1)</script>*\\x1b*",
    ])
    for agent in ("hostile", "raising"):  # a report per agent
        path = pytester.path / f"report-tests-hostile_agents-{agent}.md"
        report = path.read_text(encoding="utf-8")
        assert leaks(report) == []
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in report
