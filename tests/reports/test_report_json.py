"""The JSON report: versioned, stable key order, valid against its committed schema."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from remit.reports import (
    REPORT_SCHEMA_VERSION,
    REPORT_VERSION,
    RunReport,
    parse_report,
    render_json,
    report_schema,
    report_schema_json,
)
from tests.reports.conftest import UPDATE_ENV
from tests.reports.schema_check import violations

SCHEMA_FILE = Path(__file__).parents[2] / "docs" / "report.schema.json"


def test_the_committed_schema_is_the_generated_one() -> None:
    text = report_schema_json()
    if os.environ.get(UPDATE_ENV) == "1":
        SCHEMA_FILE.write_text(text, encoding="utf-8")
    assert SCHEMA_FILE.read_text(encoding="utf-8") == text, (
        f"docs/report.schema.json is stale; run the tests with {UPDATE_ENV}=1 to regenerate "
        "it, and bump REPORT_VERSION if the shape changed")


def test_the_schema_is_versioned_with_the_report() -> None:
    schema = report_schema()
    assert schema["version"] == REPORT_SCHEMA_VERSION == REPORT_VERSION == "3.1"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == "urn:remit:report-schema:3"
    properties = schema["properties"]
    assert isinstance(properties, dict)
    # 2.0 changed what unsupported_claim_rate means: a 1.x report must not read as 2.x;
    # 3.0 added manifest fields that a 2.x reader's closed manifest would refuse
    for older in ("1.1", "2.1"):
        assert violations(older, properties["report_version"]) \
            == [f"$: '{older}' does not match '^3\\\\.[0-9]+$'"]
    assert violations("3.0", properties["report_version"]) == []  # 3.1 only added fields


@pytest.mark.parametrize("agent", ["baseline", "oracle"])
def test_json_report_validates_against_the_committed_schema(
        agent: str, request: pytest.FixtureRequest) -> None:
    report: RunReport = request.getfixturevalue(f"{agent}_report")
    data = json.loads(render_json(report))
    committed = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert violations(data, committed) == []
    assert data["report_version"] == "3.1"


def test_the_validator_catches_a_broken_report(baseline_report: RunReport) -> None:
    data = json.loads(render_json(baseline_report))
    del data["modes"][0]["pass_rate"]
    data["trials"][0]["passed"] = "yes"
    data["modes"][1]["reply_issues"] = {"invalid_json": "two"}
    data["generated_at"] = "2026-01-02T12:00:00"
    assert violations(data, report_schema()) == [
        "$.generated_at: '2026-01-02T12:00:00' is not a 'date-time'",
        "$.modes[0]: 'pass_rate' is a required property",
        "$.modes[1].reply_issues.invalid_json: 'two' is not of type 'integer'",
        "$.trials[0].passed: 'yes' is not of type 'boolean'",
    ]


def test_a_later_minor_version_with_new_fields_still_reads(baseline_report: RunReport) -> None:
    data = json.loads(render_json(baseline_report))
    data["report_version"] = "3.7"
    data["added_in_3_7"] = {"anything": 1}
    data["modes"][0]["added_too"] = True
    assert violations(data, report_schema()) == []
    assert parse_report(json.dumps(data)).modes == baseline_report.modes


def test_json_round_trips_through_the_model(baseline_report: RunReport) -> None:
    text = render_json(baseline_report)
    assert parse_report(text) == baseline_report
    assert render_json(parse_report(text)) == text


def test_every_required_key_of_the_schema_is_in_the_output(
        baseline_report: RunReport) -> None:
    data = json.loads(render_json(baseline_report))
    schema = report_schema()
    assert list(data) == schema["required"] == list(RunReport.model_fields)


def test_keys_keep_the_model_field_order(baseline_report: RunReport) -> None:
    data = json.loads(render_json(baseline_report))
    assert list(data)[:3] == ["report_version", "generated_at", "manifest"]
    trial = data["trials"][0]
    assert list(trial) == ["id", "scenario_id", "mode", "trial", "seed", "passed", "counted",
                           "infra_error", "score", "trail", "seconds"]


def test_compact_json_is_one_line(baseline_report: RunReport) -> None:
    text = render_json(baseline_report, indent=None)
    assert text.count("\n") == 1
    assert json.loads(text) == json.loads(render_json(baseline_report))


def test_a_report_of_version_1_is_refused(baseline_report: RunReport) -> None:
    # in 1.x unsupported_claim_rate was per claim; 2.0 made it the share of trials
    data = json.loads(render_json(baseline_report))
    data["report_version"] = "1.1"
    for mode in data["modes"]:
        mode["unsupported_claim_trial_rate"] = mode.pop("unsupported_claim_rate")
    problems = violations(data, report_schema())
    assert "$.report_version: '1.1' does not match '^3\\\\.[0-9]+$'" in problems
    assert "$.modes[0]: 'unsupported_claim_rate' is a required property" in problems
    with pytest.raises(ValidationError, match="unsupported_claim_rate"):
        parse_report(json.dumps(data))
