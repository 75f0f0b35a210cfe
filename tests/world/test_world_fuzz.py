"""Whatever arguments an agent sends, a tool call comes back as a result, never raises.

Agents, LLMs especially, send arguments that pass a tool's JSON Schema and still make no
sense (a 100% discount, 10**30 units, a search bound that is a word). Hypothesis throws
well-typed and ill-typed values at every tool, field by field, in every built-in mode.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remit.authority import Role, builtin_modes
from remit.harness import world_for
from remit.scenarios import scenario_by_id
from remit.world import ToolCall, ToolResult, tool_specs

SCENARIO = scenario_by_id("discount-exception")
MODES = list(builtin_modes().values())
TOOLS = [spec.name for spec in tool_specs()]
FIELDS = {spec.name: list(spec.args_model.model_fields) for spec in tool_specs()}

_EDGES = st.sampled_from([0, 1, 5, 99.999, 100, 101, 10**6, 10**30, -1, "100", "1e400", "NaN",
                          "-0", "16 bar"])
_NUMBERS = st.one_of(_EDGES, _EDGES, st.integers(min_value=-(10**40), max_value=10**40),
                     st.floats(allow_nan=True, allow_infinity=True))
_WORDS = st.sampled_from(["Q-1", "Q-2", "BV-00004", "BV-00021", "DS-BV-00021-r3", "H-1",
                          "approve", "release_payment", "buyer", "finance", "agent", "pn",
                          "min", "max", "eq", "bar", "psi", "C", "", "16 bar", "ÿ" * 300])
_LEAVES = st.one_of(st.none(), st.booleans(), _NUMBERS, _WORDS, st.text(max_size=20))
_VALUES: st.SearchStrategy[Any] = st.recursive(
    _LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                     st.dictionaries(st.one_of(_WORDS, st.text(max_size=8)),
                                                     inner, max_size=4)),
    max_leaves=8)


@st.composite
def tool_calls(draw: st.DrawFn) -> tuple[Role, ToolCall]:
    # The two tools with numbers in their arguments get a well-formed shape most often,
    # so that edge values reach the domain code behind the schema.
    tool = draw(st.sampled_from([*TOOLS, *["edit_lines", "search_catalogue"] * 8]))
    names = FIELDS[tool] + ["lines", "constraints", "quantity", "discount_pct", "value"]
    arguments = draw(st.dictionaries(st.sampled_from(names), _VALUES, max_size=5))
    shaped = draw(st.integers(min_value=0, max_value=3)) > 0
    if tool == "edit_lines" and shaped:
        arguments = {"quote_id": "Q-1", "lines": [{
            "sku": draw(st.sampled_from(["BV-00021", "BV-00004", "BV-99999"])),
            "quantity": draw(_NUMBERS), "discount_pct": draw(_NUMBERS),
            "cite": draw(st.lists(st.sampled_from(["pn", "dn", "seat", "x"]), max_size=2))}]}
    if tool == "search_catalogue" and shaped:
        arguments = {"constraints": [{
            "attribute": draw(st.sampled_from(["pn", "dn", "seat_max_temp", "seat", "x"])),
            "op": draw(st.sampled_from(["eq", "min", "max", "gt"])),
            "value": draw(st.one_of(_NUMBERS, _WORDS)),
            "unit": draw(st.sampled_from([None, "bar", "psi", "MPa", "C", "F", "kg"]))}]}
    role = draw(st.sampled_from([Role.AGENT, Role.AGENT, Role.AGENT, *Role]))
    return role, ToolCall(tool=tool, arguments=arguments)


@settings(max_examples=400, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(mode_index=st.integers(min_value=0, max_value=len(MODES) - 1),
       calls=st.lists(tool_calls(), min_size=1, max_size=4))
def test_no_arguments_make_a_tool_call_raise(mode_index: int,
                                             calls: list[tuple[Role, ToolCall]]) -> None:
    world = world_for(SCENARIO, MODES[mode_index])
    for role, call in calls:
        result = world.call(role, call)
        assert isinstance(result, ToolResult)
        if not result.ok:
            assert result.error is not None
            assert result.error.message
