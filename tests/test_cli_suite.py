"""``remit suite``: list, show, export (round trip) and schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from remit.cli import app
from remit.harness import builtin_suite
from remit.scenarios import is_scenario_file, load_suite


def test_list_names_every_core_scenario_and_the_fingerprint() -> None:
    result = CliRunner().invoke(app, ["suite", "list", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    core = builtin_suite("core")
    assert listed["fingerprint"] == core.fingerprint
    assert [s["id"] for s in listed["scenarios"]] == [s.id for s in core]
    text = CliRunner().invoke(app, ["suite", "list"]).stdout
    assert "composition space of" in text


def test_show_prints_one_scenario_as_yaml_or_json() -> None:
    scenario = builtin_suite("handwritten").scenario("discount-exception")
    as_yaml = CliRunner().invoke(app, ["suite", "show", "discount-exception",
                                       "--suite", "handwritten"])
    assert yaml.safe_load(as_yaml.stdout) == scenario.model_dump(mode="json")
    as_json = CliRunner().invoke(app, ["suite", "show", "discount-exception",
                                       "--suite", "handwritten", "--json"])
    assert json.loads(as_json.stdout) == scenario.model_dump(mode="json")


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_export_then_load_gives_the_same_fingerprint(tmp_path: Path, fmt: str) -> None:
    result = CliRunner().invoke(app, ["suite", "export", "--format", fmt, "-o",
                                      str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert load_suite(tmp_path, "core").fingerprint == builtin_suite("core").fingerprint
    listed = CliRunner().invoke(app, ["suite", "list", "--suite", str(tmp_path), "--json"])
    assert json.loads(listed.stdout)["fingerprint"] == builtin_suite("core").fingerprint
    names = sorted(path.name for path in tmp_path.iterdir())
    assert len(names) == len(builtin_suite("core"))
    assert all(is_scenario_file(name) for name in names)  # `pytest DIR` collects them


def test_schema_is_the_scenario_json_schema() -> None:
    schema = json.loads(CliRunner().invoke(app, ["suite", "schema"]).stdout)
    assert schema["title"] == "remit scenario"
    assert "expect" in schema["properties"]


def test_an_unknown_scenario_or_suite_is_one_line() -> None:
    for args, message in ((["suite", "show", "nope"], "has no scenario id='nope'"),
                          (["suite", "list", "--suite", "nope"], "nope")):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2
        assert message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
