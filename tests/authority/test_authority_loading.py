"""Loading and dumping maps: round trips, the hash, and errors that name the key."""

from __future__ import annotations

import json
import re
import textwrap
from decimal import Decimal

import pytest
import yaml
from hypothesis import given

from remit.authority import (
    Action,
    AuthorityMap,
    Grant,
    Role,
    Threshold,
    default_map,
    dump_map,
    load_map,
    map_hash,
)
from remit.errors import MapError
from tests.authority.strategies import SETTINGS, maps

VALID_ROLES = "agent, buyer, technical_owner, finance, system"

MINIMAL = textwrap.dedent(
    """\
    name: m
    version: '1'
    grants:
    - id: g-finance-approve
      role: finance
      actions: [approve]
      conditions:
      - kind: threshold
        attribute: discount_pct
        op: <=
        value: 12.5
    forbids: []
    """
)


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_default_map_round_trips(fmt: str) -> None:
    authority_map = default_map()
    text = dump_map(authority_map, fmt)  # type: ignore[arg-type]
    loaded = load_map(text, format=fmt)  # type: ignore[arg-type]
    assert loaded == authority_map
    assert map_hash(loaded) == map_hash(authority_map)
    assert dump_map(loaded, fmt) == text  # type: ignore[arg-type]


@SETTINGS
@given(authority_map=maps())
def test_random_maps_round_trip_through_yaml_and_json(authority_map: AuthorityMap) -> None:
    for fmt in ("yaml", "json"):
        text = dump_map(authority_map, fmt)
        loaded = load_map(text, format=fmt)
        assert loaded == authority_map
        assert dump_map(loaded, fmt) == text


def test_hand_written_yaml_is_stable_after_one_dump() -> None:
    loaded = load_map(MINIMAL, format="yaml")
    condition = loaded.grants[0].conditions[0]
    assert isinstance(condition, Threshold)
    assert condition.value == Decimal("12.5")
    once = dump_map(loaded, "yaml")
    assert dump_map(load_map(once, format="yaml"), "yaml") == once
    assert "value: '12.5'" in once  # decimals are written as strings, never floats


def test_json_dump_is_plain_json() -> None:
    data = json.loads(dump_map(default_map(), "json"))
    assert data["name"] == "valve-distributor"
    assert {g["id"] for g in data["grants"]} >= {"g-finance-approve", "g-agent-submit"}


def test_hash_ignores_order_and_decimal_spelling_but_not_content() -> None:
    authority_map = default_map()
    reordered = AuthorityMap(
        name=authority_map.name,
        version=authority_map.version,
        grants=tuple(reversed(authority_map.grants)),
        forbids=tuple(reversed(authority_map.forbids)),
    )
    assert map_hash(reordered) == map_hash(authority_map)
    assert re.fullmatch(r"[0-9a-f]{64}", map_hash(authority_map))

    def with_limit(value: str, actions: tuple[Action, ...]) -> AuthorityMap:
        condition = Threshold(attribute="discount_pct", op="<=", value=Decimal(value))
        grant = Grant(id="g", role=Role.AGENT, actions=actions, conditions=(condition,))
        return AuthorityMap(name="m", version="1", grants=(grant,))

    base = with_limit("5", (Action.SUBMIT, Action.PRICE))
    assert map_hash(with_limit("5.00", (Action.PRICE, Action.SUBMIT))) == map_hash(base)
    assert map_hash(with_limit("6", (Action.SUBMIT, Action.PRICE))) != map_hash(base)


def _yaml_with(grant: dict[str, object]) -> str:
    return yaml.safe_dump({"name": "m", "version": "1", "grants": [grant], "forbids": []})


def test_unknown_role_names_the_key_and_lists_roles() -> None:
    text = _yaml_with({"id": "g-1", "role": "cfo", "actions": ["approve"]})
    with pytest.raises(
        MapError,
        match=re.escape(f"grants[0].role: 'cfo' is not a role; valid roles: {VALID_ROLES}"),
    ) as caught:
        load_map(text, format="yaml", source="maps/bad.yaml")
    assert caught.value.source == "maps/bad.yaml"
    assert str(caught.value).startswith("maps/bad.yaml: ")


def test_unknown_action_names_the_key_and_lists_actions() -> None:
    text = _yaml_with({"id": "g-1", "role": "finance", "actions": ["approve", "bless"]})
    with pytest.raises(
        MapError,
        match=r"grants\[0\]\.actions\[1\]: 'bless' is not an action; valid actions: configure, "
        r"request_fit, .*edit_lines",
    ):
        load_map(text, format="yaml")


def test_unknown_field_names_the_key_and_lists_fields() -> None:
    text = _yaml_with({"id": "g-1", "role": "finance", "actions": ["approve"], "colour": "red"})
    with pytest.raises(
        MapError,
        match=re.escape(
            "grants[0].colour: unknown field; valid fields: id, role, actions, conditions, "
            "description"
        ),
    ):
        load_map(text, format="yaml")


def test_unknown_field_inside_a_condition_lists_that_condition_s_fields() -> None:
    condition = {"kind": "threshold", "attribute": "discount_pct", "op": "<=", "value": 5, "x": 1}
    text = _yaml_with(
        {"id": "g-1", "role": "agent", "actions": ["submit"], "conditions": [condition]}
    )
    with pytest.raises(
        MapError,
        match=re.escape(
            "grants[0].conditions[0].x: unknown field; valid fields: attribute, op, value"
        ),
    ):
        load_map(text, format="yaml")


def test_unknown_condition_kind_and_attribute_list_the_valid_values() -> None:
    bad_kind = _yaml_with(
        {"id": "g-1", "role": "agent", "actions": ["submit"], "conditions": [{"kind": "vibe"}]}
    )
    with pytest.raises(
        MapError,
        match=r"grants\[0\]\.conditions\[0\]\.kind: 'vibe' is not a condition kind; valid kinds: "
        r"threshold, evidence_required, separation_of_duties, state, delegation_limit, custom",
    ):
        load_map(bad_kind, format="yaml")
    condition = {"kind": "threshold", "attribute": "price", "op": "<=", "value": 5}
    bad_attribute = _yaml_with(
        {"id": "g-1", "role": "agent", "actions": ["submit"], "conditions": [condition]}
    )
    with pytest.raises(
        MapError,
        match=re.escape(
            "grants[0].conditions[0].attribute: 'price' is not allowed; valid values: "
            "discount_pct, margin_pct, amount, quantity"
        ),
    ):
        load_map(bad_attribute, format="yaml")


def test_every_problem_is_reported_at_once() -> None:
    text = yaml.safe_dump(
        {
            "name": "m",
            "version": "1",
            "grants": [{"id": "g-1", "role": "cfo", "actions": ["fly"]}],
            "forbids": [{"id": "f-1", "roles": ["agent"], "actions": ["approve"]}],
        }
    )
    with pytest.raises(MapError, match="forbids") as caught:
        load_map(text, format="yaml")
    assert caught.value.problems == [
        f"grants[0].role: 'cfo' is not a role; valid roles: {VALID_ROLES}",
        caught.value.problems[1],
        "forbids[0].reason: required field is missing",
    ]
    assert caught.value.problems[1].startswith("grants[0].actions[0]: 'fly' is not an action")


def test_duplicate_ids_are_a_map_error_naming_both_places() -> None:
    grant = {"id": "g-1", "role": "finance", "actions": ["approve"]}
    text = yaml.safe_dump({"name": "m", "version": "1", "grants": [grant, grant]})
    with pytest.raises(
        MapError, match=re.escape("duplicate id 'g-1' at grants[0], grants[1]; ids must be unique")
    ):
        load_map(text, format="yaml")


@pytest.mark.parametrize(
    ("text", "fmt", "message"),
    [
        ("name: [unclosed", "yaml", "not valid YAML"),
        ("{", "json", "not valid JSON"),
        (
            "- a\n- b\n",
            "yaml",
            "must be a mapping with keys name, version, grants, forbids; got list",
        ),
        ("name: m\nversion: 1.5\n", "yaml", r"version: 1\.5 is not a string; write it in quotes"),
    ],
)
def test_unreadable_documents_are_map_errors(text: str, fmt: str, message: str) -> None:
    with pytest.raises(MapError, match=message):
        load_map(text, format=fmt)  # type: ignore[arg-type]


def test_unknown_format_is_a_map_error() -> None:
    with pytest.raises(MapError, match="format='toml' is not a map format; use yaml or json"):
        load_map("x = 1", format="toml")  # type: ignore[arg-type]
