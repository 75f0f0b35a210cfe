"""Selecting scenarios in a pytest session: --remit-scenario, --remit-k, --remit-tag and
--remit-sample deselect scenario files' items and skip a test's remit.run of a scenario
outside the selection; a stored session records the selection and the agent's code."""

from __future__ import annotations

import pytest
import yaml
from typer.testing import CliRunner

from remit.cli import app
from remit.scenarios import scenario_by_id
from remit.store import Store

IDS = ("discount-exception", "supersession-substitution", "unclear-request",
       "actuator-pairing")


@pytest.fixture
def scenario_files(pytester: pytest.Pytester) -> None:
    """One scenario file per id of :data:`IDS`."""
    for scenario_id in IDS:
        data = scenario_by_id(scenario_id).model_dump(mode="json")
        (pytester.path / f"scenario_{scenario_id}.yaml").write_text(yaml.safe_dump(data),
                                                                     encoding="utf-8")


def _ran(result: pytest.RunResult) -> list[str]:
    """The scenario ids whose items ran (-v lines), in order."""
    return [line.split("::")[1].split("[")[0] for line in result.outlines
            if line.startswith("scenario_") and ("PASSED" in line or "FAILED" in line)]


@pytest.mark.usefixtures("scenario_files")
@pytest.mark.parametrize(("options", "expected"), [
    (["--remit-scenario=unclear-request", "--remit-scenario=actuator-pairing"],
     ["actuator-pairing", "unclear-request"]),
    (["--remit-k=discount or (supersession and not pressure)"],
     ["discount-exception", "supersession-substitution"]),
    (["--remit-tag=perturbation=pressure", "--remit-tag=fff"], ["discount-exception"]),
    (["--remit-tag=supersession"], ["supersession-substitution"]),  # a value of any facet
    (["--remit-k=substitution or request", "--remit-tag=lifecycle=accept"],
     ["supersession-substitution", "unclear-request"]),
])
def test_scenario_files_outside_the_selection_are_deselected(
        pytester: pytest.Pytester, options: list[str], expected: list[str]) -> None:
    result = pytester.runpytest("-v", "--remit-agent=oracle",
                                "--remit-modes=dual_control", *options)

    assert sorted(_ran(result)) == expected
    result.assert_outcomes(passed=len(expected))
    result.stdout.fnmatch_lines([f"*{len(IDS) - len(expected)} deselected*"])


@pytest.mark.usefixtures("scenario_files")
def test_a_seeded_sample_is_the_same_sample_every_time(pytester: pytest.Pytester) -> None:
    options = ["-v", "--remit-agent=oracle", "--remit-modes=dual_control", "--remit-sample=2",
               "--remit-sample-seed=3"]

    first = _ran(pytester.runpytest(*options))
    again = _ran(pytester.runpytest(*options))
    other = [_ran(pytester.runpytest(*options[:-1], f"--remit-sample-seed={seed}"))
             for seed in range(6)]

    assert len(first) == 2
    assert set(first) <= set(IDS)
    assert again == first
    assert len({tuple(sorted(s)) for s in other}) > 1  # the seed decides the draw
    narrowed = _ran(pytester.runpytest(*options, "--remit-k=not actuator"))
    assert len(narrowed) == 2
    assert "actuator-pairing" not in narrowed


def test_a_remit_run_outside_the_selection_skips_its_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="oracle")
        def test_discount(remit):
            remit.run("discount-exception").expect_passed()

        @pytest.mark.remit(modes=("dual_control",), agent="oracle")
        def test_supersession(remit):
            remit.run("supersession-substitution").expect_passed()
    """)

    result = pytester.runpytest("-rs", "--remit-tag=commercial=discount")

    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines([
        "SKIPPED*scenario supersession-substitution is not selected by "
        "--remit-tag commercial=discount"])


@pytest.mark.parametrize(("options", "problem"), [
    (["--remit-k=discount and"], "*--remit-k 'discount and': it ends where a word or '(' "
                                 "was expected*"),
    (["--remit-sample=0"], "*--remit-sample 0: a sample needs at least one scenario*"),
    (["--remit-scenario=no-such-scenario"], "*--remit-scenario no-such-scenario: no scenario "
                                            "file collected and no built-in scenario has "
                                            "that id*"),
])
def test_a_bad_selection_is_a_usage_error(pytester: pytest.Pytester, options: list[str],
                                          problem: str) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")

    result = pytester.runpytest(*options)

    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([problem])


@pytest.mark.usefixtures("scenario_files")
def test_a_stored_session_records_its_selection_and_the_agents_code(
        pytester: pytest.Pytester) -> None:
    db = pytester.path / "runs.db"

    result = pytester.runpytest(f"--remit-db={db}", "--remit-agent=oracle",
                                "--remit-modes=dual_control", "--remit-k=discount or unclear",
                                "-p", "no:cacheprovider")

    result.assert_outcomes(passed=2)
    with Store.open(str(db), create=False) as store:
        [listing] = store.runs()
        manifest = store.manifest(listing.run_id)
    assert manifest.selection is not None
    assert (manifest.selection.keyword, manifest.selection.selected) == (
        "discount or unclear", 2)
    shown = CliRunner().invoke(app, ["show", listing.run_id, "--db", str(db)],
                               env={"COLUMNS": "200"})
    assert "│ selection     │ 2 of 2 scenarios: --remit-k 'discount or unclear'" in shown.stdout
    assert manifest.agent is not None
    assert manifest.agent.import_path == "remit.actors.oracle:OracleAgent"
    assert manifest.agent.modules == ("remit.actors.oracle",)
    assert manifest.agent.code_hash is not None
    assert len(manifest.agent.code_hash) == 64
