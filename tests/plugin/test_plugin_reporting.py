"""Metrics on each test item (JUnit XML), and one per-mode summary, also under pytest-xdist."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from remit.reports import parse_report
from remit.store import Store

TESTS = """
    import pytest

    @pytest.mark.remit(agent="oracle", trials=2)
    def test_oracle(remit):
        remit.run("discount-exception").expect_passed()

    @pytest.mark.remit(agent="guessing")
    def test_guessing(remit):
        remit.run("supersession-substitution")

    @pytest.mark.remit(modes=("dual_control",), agent="abandoning")
    def test_abandoning(remit):
        remit.run("unclear-request")

    def test_plain():
        pass
"""


def _table(output: str) -> list[str]:
    """The summary's table rows (box-drawing lines), without the title and timing."""
    return [line for line in output.splitlines() if line.startswith(("┃", "│"))]


def test_junitxml_carries_the_metric_properties(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(TESTS)

    result = pytester.runpytest("--junitxml=out.xml")

    result.assert_outcomes(passed=6)
    tree = ET.parse(pytester.path / "out.xml")
    cases = {case.get("name"): case for case in tree.iter("testcase")}
    properties = {name: {p.get("name"): p.get("value") for p in case.iter("property")}
                  for name, case in cases.items()}
    oracle = properties["test_oracle[dual_control]"]
    assert (oracle["remit_scenario"], oracle["remit_mode"], oracle["remit_agent"]) == (
        "discount-exception", "dual_control", "oracle")
    assert (oracle["pass_hat_1"], oracle["pass_hat_2"], oracle["pass_rate"]) == ("1.0",) * 3
    assert oracle["wrong_variant_rate"] == "0.0"
    assert {"unsupported_claim_rate", "abandoned_handoff_rate", "mean_review_minutes",
            "remit_trials", "wrong_variant_shown_rate", "unsupported_per_claim",
            "unsupported_attribute_claims", "unsupported_fit_claims",
            "unsupported_authority_claims", "unsupported_cited", "abandoned_per_handoff",
            "missing_handoff_rate"} <= set(oracle)
    assert len(json.loads(oracle["remit_scored"])) == 2
    assert properties["test_guessing[all_tools]"]["wrong_variant_rate"] == "1.0"
    assert properties["test_guessing[all_tools]"]["wrong_variant_shown_rate"] == "1.0"
    assert properties["test_abandoning[dual_control]"]["abandoned_handoff_rate"] == "1.0"
    assert properties["test_plain"] == {}


def test_the_summary_appears_once_with_a_column_per_mode(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(TESTS)

    result = pytester.runpytest()

    output = result.stdout.str()
    assert output.count("remit summary") == 1
    result.stdout.fnmatch_lines([
        "*remit summary*",
        "*remit: 7 trial(s) from 5 test(s), per control mode*",
        "*metric*all_tools*dual_control*",
        "*pass^1*0.50*0.33*",
        "*trials*3 (2 scenarios)*4 (3 scenarios)*",
        "*wrong variant*0.33 [[]0.06, 0.79[]]*0.00 [[]0.00, 0.49[]]*",
        "*abandoned hand-off (trials)*0.00 [[]0.00, 0.56[]]*0.25 [[]0.05, 0.70[]]*",
        "*missing hand-off (trials)*",
        "*unsupported per claim*",  # the per-item rates, below the headline
        "*abandoned per hand-off opened*",
    ])


def test_no_summary_without_scenario_results(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    pass\n")

    result = pytester.runpytest()

    result.assert_outcomes(passed=1)
    assert "remit summary" not in result.stdout.str()


@pytest.mark.parametrize("workers", [None, "2"])
def test_the_session_is_stored_as_one_run_and_reported(pytester: pytest.Pytester,
                                                       workers: str | None) -> None:
    pytester.makepyfile(TESTS)
    db, report = pytester.path / "runs.db", pytester.path / "report.json"
    args = [f"--remit-db={db}", f"--remit-report={report}", "-p", "no:cacheprovider"]
    if workers is None:
        result = pytester.runpytest(*args)
    else:
        result = pytester.runpytest_subprocess(*args, "-p", "xdist", "-n", workers,
                                               "-p", "no:hypothesispytest")

    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["remit: stored * trials of * as run r-* in *runs.db; see it with "
                                 "`remit show r-*`"])
    with Store.open(str(db), create=False) as store:
        listings = store.runs()
        records = {listing.agent_id: store.trials(listing.run_id) for listing in listings}
    assert len(listings) > 1, "TESTS uses several agents: one run each"
    assert all(listing.suite_id == "pytest" for listing in listings)
    assert all(records[listing.agent_id] and len(records[listing.agent_id]) == listing.trials
               for listing in listings)
    assert all(record.trail for trials in records.values() for record in trials)
    for listing in listings:
        path = report.with_name(f"report-{listing.agent_id}.json")
        assert f"remit: report written to {path}" in result.stdout.str()
        parsed = parse_report(path.read_text(encoding="utf-8"))
        assert parsed.manifest.run_id == listing.run_id
        assert sum(mode.trials for mode in parsed.modes) == listing.trials


def test_under_xdist_results_merge_and_the_summary_appears_once(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one=TESTS, test_two=TESTS.replace("def test_", "def test_two_"))

    serial = pytester.runpytest("-p", "no:cacheprovider")
    # Without hypothesis' plugin each of the three processes starts twice as fast.
    parallel = pytester.runpytest_subprocess("-p", "xdist", "-n", "2", "-p", "no:cacheprovider",
                                           "-p", "no:hypothesispytest")

    parallel.assert_outcomes(passed=12)
    output = parallel.stdout.str()
    assert "2 workers [12 items]" in output
    assert output.count("remit summary") == 1
    assert "remit: 14 trial(s) from 10 test(s), per control mode" in output
    assert _table(output) == _table(serial.stdout.str())
    assert len(_table(output)) > 8


def test_tests_with_different_agents_are_stored_as_one_run_each(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="oracle")
        def test_oracle(remit):
            remit.run("supersession-substitution").expect_passed()

        @pytest.mark.remit(modes=("dual_control",), agent="guessing")
        def test_guessing(remit):
            remit.run("supersession-substitution")
    """)
    db = pytester.path / "runs.db"
    report = pytester.path / "report.md"
    result = pytester.runpytest(f"--remit-db={db}", f"--remit-report={report}",
                                "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    with Store.open(str(db), create=False) as store:
        runs = {listing.agent_id: listing for listing in store.runs()}
    assert set(runs) == {"oracle", "guessing"}
    assert (runs["oracle"].trials, runs["oracle"].passed) == (1, 1)
    assert (runs["guessing"].trials, runs["guessing"].passed) == (1, 0)
    assert (pytester.path / "report-oracle.md").is_file()
    assert (pytester.path / "report-guessing.md").is_file()
    assert "trials ran in several tests" not in result.stdout.str()
