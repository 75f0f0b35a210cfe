"""Scenario files: load, dump, export a suite and load it back, schema, and bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from remit.authority import Action, Role
from remit.scenarios import (
    FILE_KEY_ORDER,
    PersonaConfig,
    Perturbation,
    RequiredAsk,
    RequiredTransition,
    Scenario,
    ScenarioFileError,
    Suite,
    UnknownScenarioInSuiteError,
    builtin_scenarios,
    dump_scenario,
    export_suite,
    is_scenario_file,
    load_scenario,
    load_suite,
    readable_data,
    scenario_by_id,
    scenario_schema,
)
from remit.world import Fact

SUITE = Suite(id="handwritten", scenarios=builtin_scenarios())


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_a_scenario_round_trips_through_its_file(tmp_path: Path, fmt: str) -> None:
    scenario = scenario_by_id("discount-exception")
    path = tmp_path / f"s.{fmt}"
    path.write_text(dump_scenario(scenario, fmt), encoding="utf-8")  # type: ignore[arg-type]
    assert load_scenario(path) == scenario


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_export_then_load_gives_the_same_fingerprint(tmp_path: Path, fmt: str) -> None:
    written = export_suite(SUITE, tmp_path, fmt)  # type: ignore[arg-type]
    assert [p.name for p in written][:2] == ["001-supersession-substitution.scenario." + fmt,
                                             "002-fff-substitution.scenario." + fmt]
    assert all(is_scenario_file(path.name) for path in written)  # pytest collects them
    loaded = load_suite(tmp_path, "handwritten")
    assert loaded.fingerprint == SUITE.fingerprint
    assert [s.id for s in loaded] == [s.id for s in SUITE]


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_an_exported_file_reads_top_down_without_defaults(tmp_path: Path, fmt: str) -> None:
    scenario = scenario_by_id("certificate-requirement")
    (path,) = export_suite(Suite(id="one", scenarios=(scenario,)), tmp_path, fmt)  # type: ignore[arg-type]
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text) if fmt == "yaml" else json.loads(text)

    assert list(data) == [key for key in FILE_KEY_ORDER if key in data]
    assert list(data)[:2] == ["id", "title"]
    assert list(data)[-2:] == ["plan", "expect"]
    assert set(FILE_KEY_ORDER) == set(Scenario.model_fields)
    # Values at their defaults are left out, at the top and inside (expect's tolerated
    # actions, the catalogue seed), and what differs from them is kept.
    assert "catalogue_seed" not in data
    assert "tolerated_actions" not in data["expect"]
    assert data["expect"]["final_state"] == scenario.expect.final_state.value
    assert len(text.splitlines()) < len(dump_scenario(scenario, fmt).splitlines())  # type: ignore[arg-type]
    assert load_scenario(path) == scenario


def test_defaults_a_file_must_spell_out_are_kept() -> None:
    base = scenario_by_id("unclear-request")
    required = (RequiredTransition(action=Action.ACCEPT),
                RequiredAsk(to=Role.BUYER, fact=Fact.DN, before=Action.EDIT_LINES))
    slow = PersonaConfig(perturbations=(Perturbation.SLOW_OWNER,), review_minutes=15)
    scenario = base.model_copy(update={
        "personas": {Role.FINANCE: slow},
        "expect": base.expect.model_copy(update={"required": required})})

    data = readable_data(scenario)

    # A slow owner without review minutes would load as slow (240); the kind tells a
    # required transition from a required ask.
    assert data["personas"] == {"finance": {"review_minutes": 15,
                                            "perturbations": ["slow_owner"]}}
    written = json.loads(json.dumps(data))  # plain dicts and lists, as a file holds them
    assert [entry["kind"] for entry in written["expect"]["required"]] == ["transition", "ask"]
    assert Scenario.model_validate(data) == scenario


def test_fingerprint_changes_when_any_scenario_changes_and_never_otherwise() -> None:
    again = Suite(id="handwritten", scenarios=builtin_scenarios())
    assert again.fingerprint == SUITE.fingerprint
    first, *rest = SUITE.scenarios
    changed = Suite(id="handwritten", scenarios=(first.model_copy(update={"max_steps": 41}),
                                                 *rest))
    assert changed.fingerprint != SUITE.fingerprint
    reordered = Suite(id="handwritten", scenarios=(*rest, first))
    assert reordered.fingerprint == SUITE.fingerprint  # a suite is a set: order is run order


def test_a_bad_file_names_the_file_the_field_path_and_the_problem(tmp_path: Path) -> None:
    text = dump_scenario(scenario_by_id("supersession-substitution"))
    text = text.replace("final_state: accepted", "final_state: acepted")
    text = text.replace("- arguments:", "- argumnts:", 1)
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioFileError, match=r"bad\.yaml: expect\.final_state: Input should "
                                                r"be 'draft'") as caught:
        load_scenario(path)
    assert caught.value.problems[-1].startswith("plan[0].argumnts: Extra inputs are not permitted")
    assert caught.value.path == path


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("broken.yaml", "id: [unclosed", "not valid YAML"),
        ("list.json", "[1, 2]", "expected a mapping"),
        ("notes.txt", "hello", "unknown file type '.txt'"),
    ],
)
def test_unreadable_files_say_why(tmp_path: Path, name: str, text: str, problem: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioFileError, match=problem):
        load_scenario(path)


def test_a_directory_without_scenarios_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioFileError, match=r"holds no \.yaml"):
        load_suite(tmp_path)
    with pytest.raises(ScenarioFileError, match="not a directory"):
        load_suite(tmp_path / "missing")


def test_duplicate_ids_in_a_directory_are_refused(tmp_path: Path) -> None:
    scenario = scenario_by_id("unclear-request")
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(dump_scenario(scenario), encoding="utf-8")
    with pytest.raises(ScenarioFileError, match="repeats scenario ids: unclear-request"):
        load_suite(tmp_path)


def test_unknown_scenario_in_a_suite_lists_what_is_there() -> None:
    with pytest.raises(UnknownScenarioInSuiteError, match="has no scenario id='nope'"):
        SUITE.scenario("nope")
    assert SUITE.scenario("consent-withheld").id == "consent-withheld"


def test_schema_describes_the_format_and_forbids_extra_fields() -> None:
    schema = scenario_schema()
    json.dumps(schema)
    assert schema["title"] == "remit scenario"
    assert schema["additionalProperties"] is False
    assert {"id", "requirement", "truths", "expect", "plan"} <= set(schema["required"])
