"""Scenario YAML files are collected as tests; a bad file names the file, field and problem."""

from __future__ import annotations

import pytest
import yaml

from remit.scenarios import scenario_by_id


def _scenario_yaml(scenario_id: str, path: tuple[str | int, ...] = (),
                   value: object = None) -> str:
    """A built-in scenario as YAML, with the field at ``path`` set to ``value``."""
    data = scenario_by_id(scenario_id).model_dump(mode="json")
    if path:
        target = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return yaml.safe_dump(data, sort_keys=False)


def test_scenario_files_are_collected_one_item_per_mode(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenario_discount=_scenario_yaml("discount-exception"))
    (pytester.path / "supersession.scenario.yml").write_text(
        _scenario_yaml("supersession-substitution"), encoding="utf-8")
    pytester.makefile(".yaml", notes="just: data\n")

    result = pytester.runpytest("-v")

    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines([
        "scenario_discount.yaml::discount-exception[[]all_tools[]] PASSED*",
        "scenario_discount.yaml::discount-exception[[]dual_control[]] PASSED*",
        "supersession.scenario.yml::supersession-substitution[[]all_tools[]] PASSED*",
        "supersession.scenario.yml::supersession-substitution[[]dual_control[]] PASSED*",
    ])
    assert "notes.yaml" not in result.stdout.str()


def test_a_scenario_file_fails_unless_every_trial_passes_and_explains_why(
        pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenario_discount=_scenario_yaml("discount-exception"))

    result = pytester.runpytest("--remit-agent=guessing", "--remit-modes=dual_control")

    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "expected every trial to pass for scenario 'discount-exception' in mode "
        "'dual_control' with agent 'guessing'*",
        ">> 02 [[]t=  1m[]] agent edit_lines(BV-00003 x10 -12%) -> v2",
        "expectation broke: *",
    ])
    assert "Traceback" not in result.stdout.str()


@pytest.mark.parametrize(("path", "value", "problem"), [
    (("expect", "final_state"), "acceptd",
     "scenario_bad.yaml: expect.final_state: Input should be 'draft', *(got 'acceptd')"),
    (("expect", "colour"), "red",
     "scenario_bad.yaml: expect.colour: Extra inputs are not permitted (got 'red')"),
    (("plan", 0, "role"), "boss",
     "scenario_bad.yaml: plan[[]0[]].role: Input should be 'agent', *(got 'boss')"),
])
def test_a_bad_scenario_file_is_a_collection_error_naming_file_field_and_problem(
        pytester: pytest.Pytester, path: tuple[str | int, ...], value: str,
        problem: str) -> None:
    pytester.makefile(".yaml", scenario_bad=_scenario_yaml("discount-exception", path, value))

    result = pytester.runpytest()

    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines([
        "*ERROR collecting scenario_bad.yaml*",
        "cannot load scenario file scenario_bad.yaml: 1 problem(s); fix the file so that it "
        "validates as remit.scenarios.Scenario",
        problem,
    ])
    assert "Traceback" not in result.stdout.str()


def test_a_file_that_is_not_a_yaml_mapping_is_a_collection_error(
        pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", scenario_list="- just\n- a list\n")
    (pytester.path / "broken.scenario.yaml").write_text("id: [unclosed\n", encoding="utf-8")

    result = pytester.runpytest()

    result.stdout.fnmatch_lines([
        "broken.scenario.yaml: (top level): not valid YAML at line 2, column 1: *",
        "scenario_list.yaml: (top level): expected a mapping of scenario fields, got list",
    ])


def test_a_test_can_run_a_yaml_file_through_the_fixture(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", discount=_scenario_yaml("discount-exception"))
    pytester.makepyfile("""
        from pathlib import Path

        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="oracle")
        def test_file(remit):
            outcome = remit.run(Path(__file__).parent / "discount.yaml").expect_passed()
            assert outcome.scenario.id == "discount-exception"
    """)

    result = pytester.runpytest()

    result.assert_outcomes(passed=1)
