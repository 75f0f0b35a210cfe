"""Scenario files: which names are collected, and errors that name file, field and problem."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from remit.scenarios import ScenarioFileError, is_scenario_file, load_scenario, scenario_by_id


@pytest.mark.parametrize(("name", "collected"), [
    ("scenario_discount.yaml", True), ("scenario_discount.yml", True),
    ("discount.scenario.yaml", True), ("discount.scenario.yml", True),
    ("discount.scenario.json", True), ("discount.yaml", False), ("my_scenario.yaml", False),
    ("scenario_discount.json", False),
])
def test_file_names(name: str, collected: bool) -> None:
    assert is_scenario_file(name) is collected


def test_an_exported_scenario_loads_back_unchanged(tmp_path: Path) -> None:
    scenario = scenario_by_id("three-way-mismatch")
    path = tmp_path / "scenario_three_way.yaml"
    path.write_text(yaml.safe_dump(scenario.model_dump(mode="json")), encoding="utf-8")

    assert load_scenario(path) == scenario


def test_every_problem_is_listed_with_its_field_path(tmp_path: Path) -> None:
    data = scenario_by_id("discount-exception").model_dump(mode="json")
    data["expect"]["final_state"] = "acceptd"
    data["plan"][2]["tool"] = 7
    del data["title"]
    path = tmp_path / "scenario_bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")

    with pytest.raises(ScenarioFileError, match=r"^examples/bad.yaml: title: Field required; "
                                                r"expect\.final_state: ") as caught:
        load_scenario(path, shown_as="examples/bad.yaml")

    assert caught.value.problems == [
        "title: Field required",
        "expect.final_state: Input should be 'draft', 'configured', 'fit_pending', "
        "'fit_confirmed', 'priced', 'approval_pending', 'approved', 'denied', 'presented', "
        "'accepted', 'rejected', 'expired', 'ordered', 'delivered', 'invoiced', "
        "'payment_released' or 'cancelled' (got 'acceptd')",
        "plan[2].tool: Input should be a valid string (got 7)",
    ]


def test_an_unreadable_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(ScenarioFileError, match=r"scenario_missing.yaml: cannot be read "
                                                r"\(No such file or directory\)"):
        load_scenario(tmp_path / "scenario_missing.yaml", shown_as="scenario_missing.yaml")
