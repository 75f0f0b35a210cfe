"""Custom control modes written as files build the modes delegate() builds, or say why not."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from remit.authority import (
    Action,
    ControlMode,
    ModeError,
    Role,
    all_tools,
    default_map,
    delegate,
    dump_map,
    load_map,
    load_mode_spec,
    who_can,
)
from remit.errors import MapError

FIVE_PCT = """
name: agent-approves-5pct
delegations:
  - action: approve
    from: finance
    to: agent
    attribute: discount_pct
    limit: 5
"""


def _five_pct_in_python() -> ControlMode:
    return delegate(default_map(), Action.APPROVE, to=Role.AGENT, from_role=Role.FINANCE,
                    attribute="discount_pct", limit=Decimal(5), name="agent-approves-5pct")


def test_a_yaml_mode_is_the_mode_delegate_builds() -> None:
    mode = load_mode_spec(FIVE_PCT, format="yaml").build()

    assert mode == _five_pct_in_python()
    assert who_can(mode, Action.APPROVE) == {Role.AGENT, Role.FINANCE}


def test_json_and_an_all_tools_base_keep_the_base_flags() -> None:
    text = json.dumps({"name": "wide", "base": "all_tools", "delegations": [
        {"action": "approve", "from": "finance", "to": "agent",
         "attribute": "discount_pct", "limit": "5"}]})

    mode = load_mode_spec(text, format="json").build()

    assert mode.agent_reads_all
    assert mode.map == delegate(all_tools(default_map()), Action.APPROVE, to=Role.AGENT,
                                from_role=Role.FINANCE, attribute="discount_pct",
                                limit=Decimal(5), name="wide").map


def test_no_delegations_is_the_base_of_the_given_map_renamed() -> None:
    strict = default_map().model_copy(update={"name": "strict", "grants": tuple(
        g for g in default_map().grants if Action.RELEASE_PAYMENT not in g.actions)})
    text = "name: nobody-pays\nmap:\n" + "".join(
        f"  {line}\n" for line in dump_map(strict, "yaml").splitlines())

    mode = load_mode_spec(text, format="yaml").build()

    assert mode.name == "nobody-pays"
    assert load_map(dump_map(mode.map, "yaml"), format="yaml") == strict
    assert who_can(mode, Action.RELEASE_PAYMENT) == set()


@pytest.mark.parametrize(("text", "problem"), [
    ("name: x\nbase: nope\n",
     "base: 'nope' is not allowed; valid values: dual_control, all_tools, oracle_plan"),
    ("base: all_tools\n", "name: required field is missing"),
    ("name: x\ncolour: red\n", "colour: unknown field; valid fields: name, base, map, "
                               "delegations"),
    (FIVE_PCT.replace("from: finance", "from: cfo"),
     "delegations[0].from: 'cfo' is not a role; valid roles: agent, buyer, technical_owner, "
     "finance, system"),
    (FIVE_PCT.replace("limit: 5", "limit: 5\n    until: 2027"),
     "delegations[0].until: unknown field; valid fields: action, from, to, attribute, "
     "limit, at_least, lift_separation"),
    ("- name: x\n", "the document must be a mapping with keys name, base, map, delegations"),
    ("name: [x\n", "not valid YAML"),
])
def test_a_bad_file_names_the_key_and_the_valid_values(text: str, problem: str) -> None:
    with pytest.raises(MapError) as caught:
        load_mode_spec(text, format="yaml", source="modes/x.yaml")
    assert str(caught.value).startswith("modes/x.yaml: ")
    assert problem in str(caught.value)


@pytest.mark.parametrize(("text", "problem"), [
    (FIVE_PCT.replace("agent-approves-5pct", "dual_control"),
     "name='dual_control' is a built-in mode name"),
    (FIVE_PCT.replace("from: finance", "from: buyer"),
     "buyer holds no grant for approve; holders: finance"),
])
def test_a_mode_that_cannot_be_built_says_why(text: str, problem: str) -> None:
    spec = load_mode_spec(text, format="yaml")
    with pytest.raises(ModeError, match=problem):
        spec.build()
